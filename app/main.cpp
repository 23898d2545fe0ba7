#include "Host.h"
#include "PlatformBackend.h"
#include "SocketPath.h"

#include "ConfirmationController.h"
#include "HostSettings.h"
#include "Translations.h"
#include "TrayController.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QLoggingCategory>
#include <QSocketNotifier>
#include <QStandardPaths>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

Q_LOGGING_CATEGORY(lcApp, "msgcode.app")

enum ExitCode { ExitOk = 0, ExitStartFailed = 1, ExitUsage = 2, ExitAlreadyRunning = 3 };

int g_signalPipe[2] = {-1, -1};

void onSignal(int signal)
{
    const char byte = static_cast<char>(signal);
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &byte, 1);
}

// SIGINT/SIGTERM arrive on a self-pipe so shutdown runs on the event loop, not in a handler.
void installSignalHandlers()
{
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_signalPipe) != 0)
        return;
    struct sigaction action
    {
    };
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
}

// The host's own messages, context "Host"; a class so lupdate sees the context.
class HostText
{
    Q_DECLARE_TR_FUNCTIONS(Host)
};

void printErr(const QString& text)
{
    std::fprintf(stderr, "%s\n", qPrintable(text));
}

} // namespace

int main(int argc, char** argv)
{
    qSetMessagePattern(QStringLiteral("%{time yyyy-MM-ddTHH:mm:ss.zzz} %{if-category}%{category} %{endif}%{type}: "
                                      "%{message}"));
    // Debug lines only when asked for (QT_LOGGING_RULES="msgcode.*.debug=true").
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(QStringLiteral("msgcode.*.debug=false"));
    // The GUI (tray, dialogs) needs a QApplication and a display; --headless needs neither.
    bool headlessMode = false;
    bool infoOnly = false; // --help / --version print and exit: they need no display either
    for (int i = 1; i < argc; ++i) {
        headlessMode = headlessMode || qstrcmp(argv[i], "--headless") == 0;
        infoOnly = infoOnly || qstrcmp(argv[i], "--help") == 0 || qstrcmp(argv[i], "-h") == 0 ||
                   qstrcmp(argv[i], "--help-all") == 0 || qstrcmp(argv[i], "--version") == 0 ||
                   qstrcmp(argv[i], "-v") == 0;
    }
    std::unique_ptr<QCoreApplication> application;
    if (headlessMode || infoOnly)
        application = std::make_unique<QCoreApplication>(argc, argv);
    else
        application = std::make_unique<QApplication>(argc, argv);
    QCoreApplication& app = *application;
    QCoreApplication::setApplicationName(QStringLiteral("msgcode-desktop-host"));
    QCoreApplication::setOrganizationName(QStringLiteral("msgcode"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MDH_VERSION));
    Translations::install();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        HostText::tr("msgcode Desktop Host: holds the desktop permissions and serves the msgcode desktop bridge."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption headless(QStringLiteral("headless"),
                                      HostText::tr("Run the bridge only, without tray or windows."));
    const QCommandLineOption socket(QStringLiteral("socket"),
                                    HostText::tr("Serve on this socket path (default: $MSGCODE_DESKTOP_SOCKET or "
                                                 "$XDG_RUNTIME_DIR/msgcode/com.msgcode.desktop.bridge.sock)."),
                                    HostText::tr("path"));
    const QCommandLineOption workspaceRoot(QStringLiteral("workspace-root"),
                                           HostText::tr("Evidence may only be written below this directory (default: "
                                                        "$WORKSPACE_ROOT)."),
                                           HostText::tr("dir"));
    const QCommandLineOption maxLine(QStringLiteral("max-line-bytes"),
                                     HostText::tr("Longest request line accepted (default: 16777216)."),
                                     HostText::tr("bytes"));
    const QCommandLineOption partialTimeout(
        QStringLiteral("partial-line-timeout-ms"),
        HostText::tr("Close a client that leaves a line unfinished this long (default: "
                     "10000)."),
        HostText::tr("ms"));
    const QCommandLineOption maxConnections(QStringLiteral("max-connections"),
                                            HostText::tr("Connections open at once, in total (default: 1024)."),
                                            HostText::tr("count"));
    const QCommandLineOption maxConnectionsPerPeer(
        QStringLiteral("max-connections-per-peer"),
        HostText::tr("Connections open at once from one process (default: 256)."), HostText::tr("count"));
    const QCommandLineOption firstRequestTimeout(
        QStringLiteral("first-request-timeout-ms"),
        HostText::tr("Close a connection that sends no request this long after connecting (default: 30000)."),
        HostText::tr("ms"));
    const QCommandLineOption queueCapacity(
        QStringLiteral("queue-capacity"),
        HostText::tr("Executions that may wait behind the running one (default: 64)."), HostText::tr("count"));
    const QCommandLineOption insecureSocket(
        QStringLiteral("insecure-test-socket-mode"),
        HostText::tr("Tests only: make the socket world-accessible so the peer-uid check "
                     "can be exercised by another user."));
    const QCommandLineOption confirmPolicy(
        QStringLiteral("confirm-policy"),
        HostText::tr("Who approves confirmation tokens: ask (a person, in the GUI), auto "
                     "(approve everything; headless servers and tests only) or deny "
                     "(default with --headless: deny)."),
        HostText::tr("ask|auto|deny"));
    const QCommandLineOption requireToken(QStringLiteral("require-token"),
                                          HostText::tr("Refuse the confirm phrase: side effects need a token from "
                                                       "desktop.confirm.issue."));
    const QCommandLineOption maxTokenTtl(
        QStringLiteral("max-token-ttl-ms"),
        HostText::tr("The longest ttlMs a token may be issued with (default: 600000)."), HostText::tr("ms"));
    const QCommandLineOption approvalTimeout(QStringLiteral("approval-timeout-ms"),
                                             HostText::tr("How long a person has to approve before it counts as denied "
                                                          "(default: 60000)."),
                                             HostText::tr("ms"));
    const QCommandLineOption allowCaller(
        QStringLiteral("allow-caller"),
        HostText::tr("Only this executable may connect (repeatable; symlinks are resolved). "
                     "Without it, any process of your user may."),
        HostText::tr("path"));
    const QCommandLineOption dataDir(
        QStringLiteral("data-dir"),
        HostText::tr("Where the host keeps its data, e.g. the audit log audit.jsonl (default: %1).")
            .arg(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)),
        HostText::tr("dir"));
    parser.addOptions({headless, socket, workspaceRoot, maxLine, partialTimeout, maxConnections, maxConnectionsPerPeer,
                       firstRequestTimeout, queueCapacity, insecureSocket, confirmPolicy, requireToken, maxTokenTtl,
                       approvalTimeout, allowCaller, dataDir});
    parser.process(app);

    // GUI mode: the settings dialog's values are the defaults; command-line options still win.
    // Headless reads no settings, so a server's behaviour is what its command line says.
    App::HostSettings stored;
    if (!headlessMode) {
        stored = App::HostSettings::load();
        for (const auto& problem : stored.validate())
            qCWarning(lcApp).noquote() << HostText::tr("settings: %1").arg(problem.message);
        stored.maxTokenTtlMs =
            std::clamp(stored.maxTokenTtlMs, App::HostSettings::kMinTokenTtlMs, App::HostSettings::kMaxTokenTtlMs);
        stored.approvalTimeoutMs = std::clamp(stored.approvalTimeoutMs, App::HostSettings::kMinApprovalTimeoutMs,
                                              App::HostSettings::kMaxApprovalTimeoutMs);
        stored.pngCompression = std::clamp(stored.pngCompression, 0, 9);
    }

    const auto positiveOption = [&](const QCommandLineOption& option, qint64 fallback, qint64* out) {
        if (!parser.isSet(option)) {
            *out = fallback;
            return true;
        }
        bool ok = false;
        *out = parser.value(option).toLongLong(&ok);
        if (!ok || *out <= 0) {
            printErr(
                HostText::tr("msgcode-desktop-host: --%1 needs a positive number").arg(option.names().constFirst()));
            return false;
        }
        return true;
    };
    qint64 maxLineBytes = 0, partialMs = 0, queueCap = 0, maxTtlMs = 0, approvalMs = 0;
    qint64 connectionsMax = 0, connectionsPerPeer = 0, firstRequestMs = 0;
    const Bridge::ServerOptions serverDefaults;
    if (!positiveOption(maxConnections, serverDefaults.maxConnections, &connectionsMax) ||
        !positiveOption(maxConnectionsPerPeer, serverDefaults.maxConnectionsPerPeer, &connectionsPerPeer) ||
        !positiveOption(firstRequestTimeout, serverDefaults.firstRequestTimeoutMs, &firstRequestMs))
        return ExitUsage;
    if (!positiveOption(maxLine, Bridge::LineFramer::kDefaultMaxLineBytes, &maxLineBytes) ||
        !positiveOption(partialTimeout, 10000, &partialMs) || !positiveOption(queueCapacity, 64, &queueCap) ||
        !positiveOption(maxTokenTtl, stored.maxTokenTtlMs, &maxTtlMs) ||
        !positiveOption(approvalTimeout, stored.approvalTimeoutMs, &approvalMs))
        return ExitUsage;
    if (approvalMs > Bridge::Meta::kMaxTimeoutMs) {
        printErr(HostText::tr("msgcode-desktop-host: --approval-timeout-ms takes at most %1")
                     .arg(Bridge::Meta::kMaxTimeoutMs));
        return ExitUsage;
    }

    Bridge::SecuritySettings security;
    // Headless, nobody is there to say yes: deny unless configured (README, Security).
    security.confirmPolicy = parser.isSet(headless) ? Bridge::ConfirmPolicy::Deny : stored.confirmPolicy;
    if (parser.isSet(confirmPolicy)) {
        const auto policy = Bridge::SecuritySettings::policyFromName(parser.value(confirmPolicy));
        if (!policy) {
            printErr(HostText::tr("msgcode-desktop-host: --confirm-policy takes ask, auto or deny"));
            return ExitUsage;
        }
        security.confirmPolicy = *policy;
    }
    security.requireToken = parser.isSet(requireToken) || stored.requireToken;
    security.maxTokenTtlMs = maxTtlMs;
    security.approvalTimeoutMs = static_cast<int>(approvalMs);
    security.callerAllowlist = parser.isSet(allowCaller) ? parser.values(allowCaller) : stored.callerAllowlist;
    security.dataDir = parser.isSet(dataDir) ? QDir(parser.value(dataDir)).absolutePath()
                                             : QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);

    Bridge::HostOptions options;
    options.server.socketPath = parser.isSet(socket) ? parser.value(socket) : Bridge::defaultSocketPath();
    options.server.maxLineBytes = maxLineBytes;
    options.server.partialLineTimeoutMs = static_cast<int>(partialMs);
    options.server.maxConnections = static_cast<int>(std::min<qint64>(connectionsMax, 1 << 20));
    options.server.maxConnectionsPerPeer = static_cast<int>(std::min<qint64>(connectionsPerPeer, 1 << 20));
    options.server.firstRequestTimeoutMs = static_cast<int>(std::min<qint64>(firstRequestMs, 24LL * 3600 * 1000));
    options.server.insecureSocketModeForTests = parser.isSet(insecureSocket);
    options.executor.queueCapacity = static_cast<int>(queueCap);
    options.workspaceRoot = parser.isSet(workspaceRoot)       ? parser.value(workspaceRoot)
                            : !stored.workspaceRoot.isEmpty() ? stored.workspaceRoot
                                                              : qEnvironmentVariable("WORKSPACE_ROOT");
    options.backendFactory = &Automation::createPlatformBackend;
    options.security = security;
    options.keepTypedText = stored.keepTypedText;
    if (!headlessMode)
        options.backendSettings = stored.backendSettings();

    installSignalHandlers();
    Bridge::Host host(options);
    QString error;
    bool alreadyServed = false;
    if (!host.start(&error, &alreadyServed)) {
        printErr(QStringLiteral("msgcode-desktop-host: ") + error);
        return alreadyServed ? ExitAlreadyRunning : ExitStartFailed;
    }

    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &app, [&] {
        char byte = 0;
        [[maybe_unused]] const auto n = ::read(g_signalPipe[0], &byte, 1);
        qCInfo(lcApp) << "received signal" << int(byte) << "- shutting down";
        notifier.setEnabled(false);
        host.shutdown();
        QCoreApplication::quit();
    });

    std::printf("%s\n", qPrintable(HostText::tr("msgcode-desktop-host %1 serving on %2")
                                       .arg(QStringLiteral(MDH_VERSION), host.server().socketPath())));
    std::fflush(stdout);
    qCInfo(lcApp) << "serving on" << host.server().socketPath() << "workspace root"
                  << (host.dispatcher().workspace().isConfigured() ? host.dispatcher().workspace().rootRealPath()
                                                                   : QStringLiteral("(none)"));
    qCInfo(lcApp).noquote() << HostText::tr("confirm policy %1%2; audit log %3")
                                   .arg(Bridge::SecuritySettings::policyName(security.confirmPolicy),
                                        security.requireToken ? HostText::tr(", tokens required") : QString(),
                                        host.audit().path());
    if (security.confirmPolicy == Bridge::ConfirmPolicy::Auto)
        qCWarning(lcApp).noquote() << HostText::tr(
            "CONFIRM POLICY IS AUTO: every confirmation token and every resume is "
            "approved without asking anyone. Use this only on a headless server or "
            "in tests.");
    if (!security.callerAllowlist.isEmpty())
        qCInfo(lcApp).noquote() << HostText::tr("only these callers may connect: %1")
                                       .arg(host.server().callers().allowed().join(QStringLiteral(", ")));
    // The face of the host: tray (or status window), onboarding, and the `ask` policy's human.
    std::unique_ptr<App::ConfirmationController> confirmations;
    std::unique_ptr<App::TrayController> tray;
    if (!headlessMode) {
        QApplication::setQuitOnLastWindowClosed(false);
        // Follows the live policy: the dialog re-attaches when the tray or settings switch it.
        confirmations = std::make_unique<App::ConfirmationController>(host);
        tray = std::make_unique<App::TrayController>(host);
        QObject::connect(tray.get(), &App::TrayController::quitRequested, &app, [&] {
            host.shutdown();
            QCoreApplication::quit();
        });
        tray->start();
    }
    const int code = QCoreApplication::exec();
    host.shutdown();
    tray.reset();
    confirmations.reset();
    return code;
}
