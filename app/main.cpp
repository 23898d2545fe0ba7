#include "bridge/Host.h"

#include "app/ConfirmationController.h"
#include "app/HostCommandLine.h"
#include "app/HostSettings.h"
#include "app/TrayController.h"
#include "bridge/evidence/EvidenceArchive.h"
#include "bridge/protocol/Client.h"
#include "common/Posix.h"
#include "evidence-viewer/EvidenceWindow.h"
#include "remote/RemoteAgent.h"
#include "translations/Translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTemporaryDir>

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
    if (!Posix::socketPair(AF_UNIX, SOCK_STREAM, g_signalPipe))
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

// --inspector while another host serves the socket: that host opens its inspector.
int openInspectorOfRunningHost(const QString& socketPath)
{
    Bridge::Client client;
    if (!client.connectToServer(socketPath, 3000)) {
        printErr(HostText::tr("msgcode-desktop-host: cannot reach the running host: %1").arg(client.errorString()));
        return ExitStartFailed;
    }
    Bridge::MetaFill fill;
    fill.timeoutMs = 10000;
    client.setMetaFill(fill);
    const auto reply = client.call(QStringLiteral("desktop.gui.open"),
                                   QJsonObject{{QStringLiteral("window"), QStringLiteral("inspector")}}, 15000);
    const QJsonObject error = reply.response.value(QStringLiteral("error")).toObject();
    if (!reply.ok() || !error.isEmpty()) {
        printErr(HostText::tr("msgcode-desktop-host: the running host did not open its inspector: %1")
                     .arg(reply.ok() ? error.value(QStringLiteral("message")).toString() : reply.errorString));
        return ExitStartFailed;
    }
    std::printf("%s\n", qPrintable(HostText::tr("the running host opened its inspector")));
    return ExitOk;
}

} // namespace

namespace {
int run(int argc, char** argv);
}

int main(int argc, char** argv)
{
    // Nothing is expected to throw; if something does, say what and exit instead of aborting.
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "msgcode-desktop-host: unexpected failure: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "msgcode-desktop-host: unexpected failure\n");
    }
    return ExitStartFailed;
}

namespace {

int run(int argc, char** argv)
{
    qSetMessagePattern(QStringLiteral("%{time yyyy-MM-ddTHH:mm:ss.zzz} %{if-category}%{category} %{endif}%{type}: "
                                      "%{message}"));
    // Debug lines only when asked for (QT_LOGGING_RULES="msgcode.*.debug=true").
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(QStringLiteral("msgcode.*.debug=false"));
    // The GUI (tray, dialogs) needs a QApplication and a display; --headless and --help/--version
    // need neither.
    const bool headlessMode = App::HostCommandLine::wantsHeadless(argc, argv);
    // On macOS the main CFRunLoop must run, also with a bare QCoreApplication (--headless):
    // AppKit updates the running-apps list, frontmost included, only from it, and the input
    // source and layout reads are posted to it. Qt's Core Foundation dispatcher runs it; Darwin
    // takes the variable, other systems ignore it.
    if (qEnvironmentVariableIsEmpty("QT_EVENT_DISPATCHER_CORE_FOUNDATION"))
        qputenv("QT_EVENT_DISPATCHER_CORE_FOUNDATION", "1");
    std::unique_ptr<QCoreApplication> application;
    if (headlessMode || App::HostCommandLine::wantsInfoOnly(argc, argv))
        application = std::make_unique<QCoreApplication>(argc, argv);
    else
        application = std::make_unique<QApplication>(argc, argv);
    QCoreApplication& app = *application;
    QCoreApplication::setApplicationName(QStringLiteral("msgcode-desktop-host"));
    QCoreApplication::setOrganizationName(QStringLiteral("msgcode"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MDH_VERSION));
    Translations::install();

    const App::HostCommandLine commandLine;
    QCommandLineParser parser;
    commandLine.configure(parser);
    parser.process(app);
    if (parser.isSet(App::HostCommandLine::helpManOption())) {
        std::printf("%s", qPrintable(commandLine.manPage()));
        return ExitOk;
    }

    App::HostSettings stored;
    if (!headlessMode) {
        stored = App::HostSettings::load();
        for (const auto& problem : stored.validate())
            qCWarning(lcApp).noquote() << HostText::tr("settings: %1").arg(problem.message);
    }
    const auto merged = commandLine.merge(parser, stored, QProcessEnvironment::systemEnvironment(),
                                          QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation));
    if (const auto* usage = std::get_if<QString>(&merged)) {
        printErr(*usage);
        return ExitUsage;
    }
    const auto& mergedOptions = std::get<App::HostCommandLine::Merged>(merged);
    // The evidence browser on its own, like a trace viewer: no host, no socket.
    if (!mergedOptions.evidenceDir.isEmpty()) {
        if (headlessMode) {
            printErr(HostText::tr("msgcode-desktop-host: --evidence needs a display (not --headless)"));
            return ExitUsage;
        }
        // A zip from elsewhere is unpacked, every entry checked first, into a private temporary
        // directory, and browsed from there.
        QTemporaryDir unpacked;
        QString browsed = mergedOptions.evidenceDir;
        if (QFileInfo(browsed).isFile()) {
            if (!unpacked.isValid()) {
                printErr(HostText::tr("msgcode-desktop-host: no temporary directory to open %1 in").arg(browsed));
                return ExitStartFailed;
            }
            const auto opened = Evidence::Archive::open(browsed, unpacked.path());
            if (!opened) {
                printErr(
                    HostText::tr("msgcode-desktop-host: %1 cannot be opened: %2").arg(browsed, opened.error().message));
                return ExitUsage;
            }
            browsed = unpacked.path();
        }
        EvidenceViewer::EvidenceWindow viewer({browsed});
        viewer.show();
        return QCoreApplication::exec();
    }
    Bridge::HostOptions options = mergedOptions.host;
    // The MCP front door beside the host (installed), or in the build tree's mcp/.
    // A QStringList, not a braced list: that would hold QStringBuilder temporaries past their end.
    const QString here = QCoreApplication::applicationDirPath();
    const QStringList doors{here + QStringLiteral("/msgcode-desktop-mcp"),
                            here + QStringLiteral("/../mcp/msgcode-desktop-mcp")};
    for (const QString& door : doors) {
        if (QFileInfo(door).isExecutable()) {
            options.server.mcpDoorExecutable = QFileInfo(door).canonicalFilePath();
            break;
        }
    }
    const Bridge::SecuritySettings& security = options.security;

    installSignalHandlers();
    Bridge::Host host(options);
    QString error;
    bool alreadyServed = false;
    if (!host.start(&error, &alreadyServed)) {
        if (alreadyServed && mergedOptions.openInspector)
            return openInspectorOfRunningHost(options.server.socketPath);
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
    if (security.mcpConfirmPolicy)
        qCInfo(lcApp).noquote() << HostText::tr("MCP door (%1): confirm policy %2")
                                       .arg(options.server.mcpDoorExecutable.isEmpty()
                                                ? HostText::tr("not found beside the host")
                                                : options.server.mcpDoorExecutable,
                                            Bridge::SecuritySettings::policyName(*security.mcpConfirmPolicy));
    if (security.mcpConfirmPolicy == Bridge::ConfirmPolicy::Auto &&
        security.confirmPolicy != Bridge::ConfirmPolicy::Auto)
        qCWarning(lcApp).noquote() << HostText::tr(
            "MCP DOOR CONFIRM POLICY IS AUTO: every action the MCP front door asks for is approved without "
            "asking anyone (each one is still audited and kept as evidence).");
    if (security.confirmPolicy == Bridge::ConfirmPolicy::Auto)
        qCWarning(lcApp).noquote() << HostText::tr(
            "CONFIRM POLICY IS AUTO: every confirmation token and every resume is "
            "approved without asking anyone. Use this only on a headless server or "
            "in tests.");
    if (!security.callerAllowlist.isEmpty())
        qCInfo(lcApp).noquote() << HostText::tr("only these callers may connect: %1")
                                       .arg(host.server().callers().allowed().join(QStringLiteral(", ")));
    // The remote agent (docs/remote.md): off unless a control server is configured. Its evidence
    // directory is made private before it is used.
    Remote::RemoteAgent remote(host.dispatcher(), Remote::TokenStore::keychain());
    host.setRemoteControl(&remote);
    remote.setScreenResolution([&host] {
        // The display the backend sees (also without a QGuiApplication, --headless).
        const QJsonObject screen = host.permissions().current().screenCapture.details;
        const int width = screen.value(QStringLiteral("width")).toInt();
        const int height = screen.value(QStringLiteral("height")).toInt();
        return width > 0 && height > 0 ? QStringLiteral("%1x%2").arg(width).arg(height) : QString();
    });
    if (const QString dir = mergedOptions.remote.workspace; mergedOptions.remote.isSet() && !dir.isEmpty()) {
        if (QDir().mkpath(dir))
            QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        // Like every workspace, it must lie inside the workspace root: said now, not at each call.
        if (const auto checked = host.dispatcher().workspace().check(dir); !checked) {
            printErr(HostText::tr("msgcode-desktop-host: the remote workspace %1 cannot be used: %2")
                         .arg(dir, checked.error().message));
            return ExitUsage;
        }
    }
    if (mergedOptions.remote.isSet())
        qCInfo(lcApp).noquote() << HostText::tr("remote agent: dialling %1, confirm policy %2, evidence in %3")
                                       .arg(mergedOptions.remote.serverName(),
                                            Bridge::SecuritySettings::policyName(security.remoteConfirmPolicy),
                                            mergedOptions.remote.workspace);
    remote.start(mergedOptions.remote, mergedOptions.remoteBindCode);
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
        tray->setRemote(&remote);
        host.setWindowOpener([&tray](const QString&) {
            tray->showInspector();
            return true;
        });
        if (mergedOptions.openInspector)
            tray->showInspector();
    }
    const int code = QCoreApplication::exec();
    host.setWindowOpener({});
    remote.stop();
    host.setRemoteControl(nullptr);
    host.shutdown();
    tray.reset();
    confirmations.reset();
    return code;
}

} // namespace
