// msgcode-desktop-mcp: the front door msgcode mounts (docs/msgcode.md). It holds no permission
// and no state: `mcp` serves MCP on stdio and forwards every tool call to the running host over
// its socket; `version`, `status` and `doctor` report on the host for msgcode's health check.
#include "bridge/protocol/SocketPath.h"
#include "mcp/McpServer.h"
#include "translations/Translations.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonObject>

#include <csignal>
#include <cstdio>

namespace {

class Door
{
    Q_DECLARE_TR_FUNCTIONS(Door)

public:
    int run(const QStringList& args);

private:
    /// desktop.health's result, or nullopt when no host answers.
    std::optional<QJsonObject> health(QString* why);
    int status();
    int doctor();
    void out(const QString& text) const { std::fprintf(stdout, "%s\n", qPrintable(text)); }

    QString m_socket = Bridge::defaultSocketPath();
};

std::optional<QJsonObject> Door::health(QString* why)
{
    Mcp::HostLink host(m_socket, QDir::currentPath());
    const QJsonObject response = host.call(QStringLiteral("desktop.health"), {}, false, 5000);
    if (response.contains(QStringLiteral("result")))
        return response.value(QStringLiteral("result")).toObject();
    *why = response.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
    return std::nullopt;
}

// The lines msgcode's health check reads ("Accessibility: granted", "Status: Ready", "[FAIL]",
// "not granted") are a machine interface and stay as they are in every language; the
// explanations after them are translated.
int Door::status()
{
    out(QStringLiteral("msgcode-desktop-mcp %1").arg(QStringLiteral(MDH_VERSION)));
    QString why;
    const auto result = health(&why);
    if (!result) {
        out(QStringLiteral("Host: not running (%1)").arg(m_socket));
        out(QStringLiteral("Accessibility: unknown"));
        out(QStringLiteral("Screen Recording: unknown"));
        out(QStringLiteral("Status: Not ready - ") + tr("start msgcode-desktop-host (the tray app, or --headless)"));
        return 0;
    }
    const QJsonObject permissions = result->value(QStringLiteral("permissions")).toObject();
    const bool ax = permissions.value(QStringLiteral("accessibility")).toString() == QLatin1String("granted");
    const bool screen = permissions.value(QStringLiteral("screenRecording")).toString() == QLatin1String("granted");
    out(QStringLiteral("Host: connected (msgcode-desktop-host %1, %2)")
            .arg(result->value(QStringLiteral("hostVersion")).toString(), m_socket));
    out(QStringLiteral("Accessibility: ") + (ax ? QStringLiteral("granted") : QStringLiteral("not granted")));
    out(QStringLiteral("Screen Recording: ") + (screen ? QStringLiteral("granted") : QStringLiteral("not granted")));
    out(ax && screen
            ? QStringLiteral("Status: Ready")
            : QStringLiteral("Status: Not ready - ") + tr("grant the permissions the host's tray icon asks for"));
    return 0;
}

int Door::doctor()
{
    QString why;
    const auto result = health(&why);
    if (!result) {
        out(QStringLiteral("[FAIL] Host: no msgcode-desktop-host answers on %1 (%2)").arg(m_socket, why));
        out(QStringLiteral("  Fix: ") + tr("start msgcode-desktop-host (the tray app, or --headless)"));
        out(QStringLiteral("[FAIL] Accessibility: not granted (unknown: the host is not running)"));
        out(QStringLiteral("[FAIL] Screen Recording: not granted (unknown: the host is not running)"));
        return 0;
    }
    out(QStringLiteral("[ok] Host: msgcode-desktop-host %1 answers on %2")
            .arg(result->value(QStringLiteral("hostVersion")).toString(), m_socket));
    const QJsonObject permissions = result->value(QStringLiteral("permissions")).toObject();
    const struct
    {
        const char* key;
        QString name;
        QString fix;
    } checks[] = {
        {"accessibility", QStringLiteral("Accessibility"),
         tr("grant Accessibility to msgcode-desktop-host (its tray icon leads you there), not to msgcode")},
        {"screenRecording", QStringLiteral("Screen Recording"),
         tr("grant Screen Recording to msgcode-desktop-host (its tray icon leads you there), not to msgcode")},
    };
    for (const auto& check : checks) {
        const QString state = permissions.value(QLatin1String(check.key)).toString();
        if (state == QLatin1String("granted")) {
            out(QStringLiteral("[ok] %1: granted").arg(check.name));
        } else {
            out(QStringLiteral("[FAIL] %1: not granted (%2)").arg(check.name, state));
            out(QStringLiteral("  Fix: ") + check.fix);
        }
    }
    return 0;
}

int Door::run(const QStringList& args)
{
    const QString command = args.value(1);
    if (command == QLatin1String("version") || command == QLatin1String("--version")) {
        out(QStringLiteral("msgcode-desktop-mcp %1").arg(QStringLiteral(MDH_VERSION)));
        return 0;
    }
    if (command == QLatin1String("status"))
        return status();
    if (command == QLatin1String("doctor"))
        return doctor();
    if (command == QLatin1String("mcp")) {
        Mcp::HostLink host(m_socket, QDir::currentPath());
        Mcp::Stdio stdio(stdin, stdout);
        Mcp::Server server(stdio, host);
        return server.run();
    }
    const bool help = command.isEmpty() || command == QLatin1String("help") || command == QLatin1String("--help") ||
                      command == QLatin1String("-h");
    std::fprintf(help ? stdout : stderr, "%s\n",
                 qPrintable(tr("Usage: msgcode-desktop-mcp COMMAND\n\n"
                               "The MCP front door of msgcode-desktop-host, for msgcode (MSGCODE_GHOST_PATH).\n\n"
                               "  mcp      serve MCP on stdin/stdout; the workspace is the working directory\n"
                               "  status   the host connection and permissions; \"Status: Ready\" when usable\n"
                               "  doctor   one line per check, each failure followed by a Fix: line\n"
                               "  version  the version\n\n"
                               "The host's socket: $MSGCODE_DESKTOP_SOCKET, else %1")
                                .arg(Bridge::defaultSocketPath())));
    return help ? 0 : 2;
}

} // namespace

int main(int argc, char** argv)
{
    // msgcode ends the process with SIGTERM after the answer; a write to a closed pipe must not
    // be what ends it earlier.
    std::signal(SIGPIPE, SIG_IGN);
    QCoreApplication app(argc, argv);
    Translations::install();
    return Door().run(app.arguments());
}
