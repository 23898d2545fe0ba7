#include "app/HostCommandLine.h"

#include "automation/PlatformBackend.h"
#include "automation/WindowWatch.h"
#include "bridge/protocol/LineFramer.h"
#include "bridge/protocol/SocketPath.h"
#include "common/ManPage.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>

namespace App {

HostCommandLine::HostCommandLine()
    : m_headless(QStringLiteral("headless"), tr("Run the bridge only, without tray or windows.")),
      m_socket(QStringLiteral("socket"),
               tr("Serve on this socket path (default: $MSGCODE_DESKTOP_SOCKET or "
                  "$XDG_RUNTIME_DIR/msgcode/com.msgcode.desktop.bridge.sock)."),
               tr("path")),
      m_workspaceRoot(QStringLiteral("workspace-root"),
                      tr("Evidence may only be written below this directory (default: "
                         "$WORKSPACE_ROOT)."),
                      tr("dir")),
      m_maxLine(QStringLiteral("max-line-bytes"), tr("Longest request line accepted (default: 16777216)."),
                tr("bytes")),
      m_partialTimeout(QStringLiteral("partial-line-timeout-ms"),
                       tr("Close a client that leaves a line unfinished this long (default: "
                          "10000)."),
                       tr("ms")),
      m_maxConnections(QStringLiteral("max-connections"), tr("Connections open at once, in total (default: 1024)."),
                       tr("count")),
      m_maxConnectionsPerPeer(QStringLiteral("max-connections-per-peer"),
                              tr("Connections open at once from one process (default: 256)."), tr("count")),
      m_firstRequestTimeout(QStringLiteral("first-request-timeout-ms"),
                            tr("Close a connection that sends no request this long after connecting (default: 30000)."),
                            tr("ms")),
      m_queueCapacity(QStringLiteral("queue-capacity"),
                      tr("Executions that may wait behind the running one (default: 64)."), tr("count")),
      m_insecureSocket(QStringLiteral("insecure-test-socket-mode"),
                       tr("Tests only: make the socket world-accessible so the peer-uid check "
                          "can be exercised by another user.")),
      m_confirmPolicy(QStringLiteral("confirm-policy"),
                      tr("Who approves confirmation tokens: ask (a person, in the GUI), auto "
                         "(approve everything; headless servers and tests only) or deny "
                         "(default with --headless: deny)."),
                      tr("ask|auto|deny")),
      m_mcpConfirmPolicy(QStringLiteral("mcp-confirm-policy"),
                         tr("The policy for requests of the MCP front door (msgcode-desktop-mcp): ask (a person, "
                            "who may allow the calling client for some minutes), auto or deny (default: the "
                            "--confirm-policy)."),
                         tr("ask|auto|deny")),
      m_requireToken(QStringLiteral("require-token"), tr("Refuse the confirm phrase: side effects need a token from "
                                                         "desktop.confirm.issue.")),
      m_maxTokenTtl(QStringLiteral("max-token-ttl-ms"),
                    tr("The longest ttlMs a token may be issued with (default: 600000)."), tr("ms")),
      m_approvalTimeout(QStringLiteral("approval-timeout-ms"),
                        tr("How long a person has to approve before it counts as denied "
                           "(default: 60000)."),
                        tr("ms")),
      m_allowCaller(QStringLiteral("allow-caller"),
                    tr("Only this executable may connect (repeatable; symlinks are resolved). "
                       "Without it, any process of your user may."),
                    tr("path")),
      m_dataDir(QStringLiteral("data-dir"),
                tr("Where the host keeps its data, e.g. the audit log audit.jsonl (default: %1).")
                    .arg(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)),
                tr("dir")),
      m_remoteHost(QStringLiteral("remote-host"),
                   tr("Remote agent: dial this control server (off unless given here or in Settings)."), tr("host")),
      m_remotePort(QStringLiteral("remote-port"), tr("Remote agent: the control server's TCP port."), tr("port")),
      m_remoteTls(QStringLiteral("remote-tls"), tr("Remote agent: speak TLS to the control server.")),
      m_remoteFingerprint(QStringLiteral("remote-fingerprint"),
                          tr("Remote agent: trust only the server certificate with this SHA-256 digest (hex)."),
                          tr("sha256")),
      m_remoteBindCode(QStringLiteral("remote-bind-code"),
                       tr("Remote agent: the one-time bind code for the first registration; the device token it "
                          "gets is kept in the keyring."),
                       tr("code")),
      m_remoteWorkspace(QStringLiteral("remote-workspace"),
                        tr("Remote agent: where the remote caller's evidence goes, inside the workspace root "
                           "(default: <workspace root>/remote)."),
                        tr("dir")),
      m_remoteConfirmPolicy(QStringLiteral("remote-confirm-policy"),
                            tr("Remote agent: who approves the control server's side effects: ask (default), auto "
                               "or deny."),
                            tr("ask|auto|deny")),
      m_remoteRetryDelay(QStringLiteral("remote-retry-delay-ms"),
                         tr("Remote agent: the first reconnection delay, doubled after each failure up to 30 s "
                            "(default: 1000)."),
                         tr("ms")),
      m_remoteMaxRetries(QStringLiteral("remote-max-retries"),
                         tr("Remote agent: give up after this many failed attempts in a row (default: 0, never)."),
                         tr("count")),
      m_remoteNoReconnect(QStringLiteral("remote-no-reconnect"),
                          tr("Remote agent: one attempt only, no reconnection.")),
      m_remoteDeviceName(QStringLiteral("remote-device-name"),
                         tr("Remote agent: the device name the server shows (default: the host name)."), tr("name")),
      m_inspector(QStringLiteral("inspector"),
                  tr("Open the accessibility inspector; when a host already runs, ask it to open its inspector.")),
      m_evidence(QStringLiteral("evidence"),
                 tr("Only browse the evidence kept in a workspace or workspace root, or exported as a zip (no host "
                    "is started)."),
                 tr("dir|zip")),
      m_yieldToUser(QStringLiteral("yield-to-user"),
                    tr("When the person uses the keyboard or mouse while the host injects input: abort (stop the "
                       "execution; the default), wait (hold until they are quiet) or off."),
                    tr("abort|wait|off")),
      m_yieldQuietMs(QStringLiteral("yield-quiet-ms"),
                     tr("With --yield-to-user wait: how long the person must have been quiet (default 1500)."),
                     tr("ms")),
      m_eventsLinger(QStringLiteral("events-linger-seconds"),
                     tr("How long an event subscription outlives its connection, still watched and recorded so that "
                        "a reader coming back with its cursor misses nothing (default 600; 0: not at all)."),
                     tr("seconds")),
      m_groundingEndpoint(QStringLiteral("grounding-endpoint"),
                          tr("desktop.ground: your own OpenAI-compatible vision model's API, e.g. "
                             "http://127.0.0.1:8080/v1 (overrides Settings; off unless given here or there)."),
                          tr("url")),
      m_groundingModel(QStringLiteral("grounding-model"),
                       tr("desktop.ground: the model name the endpoint is asked for."), tr("name")),
      m_policy(QStringLiteral("policy"),
               tr("The owner's rules: a JSON file {\"unattended\": bool, \"rules\": [...]} (docs/protocol.md, "
                  "\"Policy\"). Its rules are asked before the built-in ones."),
               tr("file")),
      m_unattended(QStringLiteral("unattended"),
                   tr("Unattended: every side effect an owner's rule would ask a person about is refused at once "
                      "(needs_person), never left to a dialog nobody answers."))
{
    m_options = {m_headless,
                 m_socket,
                 m_workspaceRoot,
                 m_maxLine,
                 m_partialTimeout,
                 m_maxConnections,
                 m_maxConnectionsPerPeer,
                 m_firstRequestTimeout,
                 m_queueCapacity,
                 m_insecureSocket,
                 m_confirmPolicy,
                 m_mcpConfirmPolicy,
                 m_requireToken,
                 m_maxTokenTtl,
                 m_approvalTimeout,
                 m_allowCaller,
                 m_dataDir,
                 m_remoteHost,
                 m_remotePort,
                 m_remoteTls,
                 m_remoteFingerprint,
                 m_remoteBindCode,
                 m_remoteWorkspace,
                 m_remoteConfirmPolicy,
                 m_remoteRetryDelay,
                 m_remoteMaxRetries,
                 m_remoteNoReconnect,
                 m_remoteDeviceName,
                 m_inspector,
                 m_evidence,
                 m_yieldToUser,
                 m_yieldQuietMs,
                 m_eventsLinger,
                 m_groundingEndpoint,
                 m_groundingModel,
                 m_policy,
                 m_unattended};
}

void HostCommandLine::configure(QCommandLineParser& parser) const
{
    parser.setApplicationDescription(
        tr("msgcode Desktop Host: holds the desktop permissions and serves the msgcode desktop bridge."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(m_options);
    parser.addOption(helpManOption());
}

QCommandLineOption HostCommandLine::helpManOption()
{
    QCommandLineOption option(QStringLiteral("help-man"), QStringLiteral("Print the manual page (troff)."));
    option.setFlags(QCommandLineOption::HiddenFromHelp);
    return option;
}

QString HostCommandLine::manPage() const
{
    QList<QCommandLineOption> all = m_options;
    all.append(
        QCommandLineOption({QStringLiteral("h"), QStringLiteral("help")}, tr("Displays help on commandline options.")));
    all.append(QCommandLineOption(QStringLiteral("help-all"), tr("Displays help, including generic Qt options.")));
    all.append(
        QCommandLineOption({QStringLiteral("v"), QStringLiteral("version")}, tr("Displays version information.")));
    return ManPage::render(
        QStringLiteral("msgcode-desktop-host"), 1,
        tr("holds the desktop permissions and serves the msgcode desktop bridge"), QStringLiteral("[options]"),
        tr("msgcode Desktop Host holds the accessibility and screen-capture permissions, shows their state in a tray "
           "icon and serves a JSON-RPC 2.0 bridge on a local socket, so that msgcode can observe and drive the "
           "desktop. Every side effect needs a person's confirmation (or the policy chosen), and every execution "
           "leaves evidence in the caller's workspace.\n\nWith --headless it serves the bridge without tray or windows "
           "(a server, a CI desktop; see the systemd user unit msgcode-desktop-host.service). --inspector opens the "
           "accessibility inspector, --evidence the evidence browser."),
        all, QStringLiteral("2026-11"));
}

bool HostCommandLine::wantsHeadless(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--headless") == 0)
            return true;
    }
    return false;
}

bool HostCommandLine::wantsInfoOnly(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--help") == 0 || qstrcmp(argv[i], "-h") == 0 || qstrcmp(argv[i], "--help-all") == 0 ||
            qstrcmp(argv[i], "--version") == 0 || qstrcmp(argv[i], "-v") == 0 || qstrcmp(argv[i], "--help-man") == 0)
            return true;
    }
    return false;
}

HostCommandLine::Outcome HostCommandLine::merge(const QCommandLineParser& parser, const HostSettings& given,
                                                const QProcessEnvironment& environment,
                                                const QString& dataLocation) const
{
    Merged out;
    out.headless = parser.isSet(m_headless);
    // GUI mode: the settings dialog's values are the defaults; command-line options still win.
    if (!out.headless) {
        out.stored = given;
        out.stored.maxTokenTtlMs =
            std::clamp(out.stored.maxTokenTtlMs, HostSettings::kMinTokenTtlMs, HostSettings::kMaxTokenTtlMs);
        out.stored.approvalTimeoutMs = std::clamp(out.stored.approvalTimeoutMs, HostSettings::kMinApprovalTimeoutMs,
                                                  HostSettings::kMaxApprovalTimeoutMs);
        out.stored.pngCompression = std::clamp(out.stored.pngCompression, 0, 9);
        out.stored.eventsLingerSeconds =
            std::clamp(out.stored.eventsLingerSeconds, 0, HostSettings::kMaxEventsLingerSeconds);
    }
    const HostSettings& stored = out.stored;

    QString usage;
    const auto positive = [&](const QCommandLineOption& option, qint64 fallback) -> qint64 {
        if (!parser.isSet(option) || !usage.isEmpty())
            return fallback;
        bool ok = false;
        const qint64 value = parser.value(option).toLongLong(&ok);
        if (!ok || value <= 0) {
            usage = tr("msgcode-desktop-host: --%1 needs a positive number").arg(option.names().constFirst());
            return fallback;
        }
        return value;
    };
    const Bridge::ServerOptions serverDefaults;
    const qint64 connectionsMax = positive(m_maxConnections, serverDefaults.maxConnections);
    const qint64 connectionsPerPeer = positive(m_maxConnectionsPerPeer, serverDefaults.maxConnectionsPerPeer);
    const qint64 firstRequestMs = positive(m_firstRequestTimeout, serverDefaults.firstRequestTimeoutMs);
    const qint64 maxLineBytes = positive(m_maxLine, Bridge::LineFramer::kDefaultMaxLineBytes);
    const qint64 partialMs = positive(m_partialTimeout, 10000);
    const qint64 queueCap = positive(m_queueCapacity, 64);
    const qint64 maxTtlMs = positive(m_maxTokenTtl, stored.maxTokenTtlMs);
    const qint64 approvalMs = positive(m_approvalTimeout, stored.approvalTimeoutMs);
    if (!usage.isEmpty())
        return usage;
    if (approvalMs > Bridge::Meta::kMaxTimeoutMs)
        return tr("msgcode-desktop-host: --approval-timeout-ms takes at most %1").arg(Bridge::Meta::kMaxTimeoutMs);

    Bridge::SecuritySettings& security = out.host.security;
    // Headless, nobody is there to say yes: deny unless configured.
    security.confirmPolicy = out.headless ? Bridge::ConfirmPolicy::Deny : stored.confirmPolicy;
    if (parser.isSet(m_confirmPolicy)) {
        const auto policy = Bridge::SecuritySettings::policyFromName(parser.value(m_confirmPolicy));
        if (!policy)
            return tr("msgcode-desktop-host: --confirm-policy takes ask, auto or deny");
        security.confirmPolicy = *policy;
    }
    security.mcpConfirmPolicy = out.headless ? std::nullopt : stored.mcpConfirmPolicy;
    if (parser.isSet(m_mcpConfirmPolicy)) {
        const auto policy = Bridge::SecuritySettings::policyFromName(parser.value(m_mcpConfirmPolicy));
        if (!policy)
            return tr("msgcode-desktop-host: --mcp-confirm-policy takes ask, auto or deny");
        security.mcpConfirmPolicy = *policy;
    }
    security.requireToken = parser.isSet(m_requireToken) || stored.requireToken;
    security.maxTokenTtlMs = maxTtlMs;
    security.approvalTimeoutMs = static_cast<int>(approvalMs);
    security.callerAllowlist = parser.isSet(m_allowCaller) ? parser.values(m_allowCaller) : stored.callerAllowlist;
    security.dataDir = parser.isSet(m_dataDir) ? QDir(parser.value(m_dataDir)).absolutePath() : dataLocation;

    Bridge::HostOptions& options = out.host;
    options.server.socketPath = parser.isSet(m_socket) ? parser.value(m_socket) : Bridge::defaultSocketPath();
    options.server.maxLineBytes = maxLineBytes;
    options.server.partialLineTimeoutMs = static_cast<int>(partialMs);
    options.server.maxConnections = static_cast<int>(std::min<qint64>(connectionsMax, 1 << 20));
    options.server.maxConnectionsPerPeer = static_cast<int>(std::min<qint64>(connectionsPerPeer, 1 << 20));
    options.server.firstRequestTimeoutMs = static_cast<int>(std::min<qint64>(firstRequestMs, 24LL * 3600 * 1000));
    options.server.insecureSocketModeForTests = parser.isSet(m_insecureSocket);
    options.executor.queueCapacity = static_cast<int>(queueCap);
    options.workspaceRoot = parser.isSet(m_workspaceRoot)     ? parser.value(m_workspaceRoot)
                            : !stored.workspaceRoot.isEmpty() ? stored.workspaceRoot
                                                              : environment.value(QStringLiteral("WORKSPACE_ROOT"));
    options.backendFactory = &Automation::createPlatformBackend;
    options.windowWatchFactory = &Automation::createPlatformWindowWatch;
    options.eventsLingerMs = stored.eventsLingerSeconds * 1000;
    if (parser.isSet(m_eventsLinger)) {
        bool ok = false;
        const int seconds = parser.value(m_eventsLinger).toInt(&ok);
        if (!ok || seconds < 0 || seconds > HostSettings::kMaxEventsLingerSeconds)
            return tr("msgcode-desktop-host: --events-linger-seconds takes 0 to %1")
                .arg(HostSettings::kMaxEventsLingerSeconds);
        options.eventsLingerMs = seconds * 1000;
    }
    options.grounding = stored.grounding;
    if (parser.isSet(m_groundingEndpoint))
        options.grounding.url = parser.value(m_groundingEndpoint);
    if (parser.isSet(m_groundingModel))
        options.grounding.model = parser.value(m_groundingModel);
    if (options.grounding.configured() && !options.grounding.urlUsable())
        return tr("msgcode-desktop-host: --grounding-endpoint takes an http or https URL");
    if (parser.isSet(m_policy)) {
        QFile file(parser.value(m_policy));
        if (!file.open(QIODevice::ReadOnly))
            return tr("msgcode-desktop-host: --policy: cannot read %1").arg(file.fileName());
        QJsonParseError parseError{};
        const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
        if (parseError.error != QJsonParseError::NoError || !document.isObject())
            return tr("msgcode-desktop-host: --policy: %1 is not a JSON object").arg(file.fileName());
        auto policy = Bridge::OwnerPolicy::fromJson(document.object());
        if (!policy)
            return tr("msgcode-desktop-host: --policy: %1: %2: %3")
                .arg(file.fileName(), policy.error().details.value(QStringLiteral("field")).toString(),
                     policy.error().message);
        options.ownerPolicy = policy.value();
        // Named by the owner on the command line: trusted as it is, and where changes are kept.
        options.policyFile = QFileInfo(file.fileName()).absoluteFilePath();
        options.policyFileTrusted = true;
    } else {
        options.policyFile = Bridge::OwnerRules::defaultPath();
    }
    if (parser.isSet(m_unattended)) {
        options.ownerPolicy.setUnattended(true);
        options.unattended = true;
    }
    options.keepTypedText = stored.keepTypedText;
    options.keepFullTrees = stored.keepFullTrees;
    if (!out.headless)
        options.backendSettings = stored.backendSettings();
    if (parser.isSet(m_yieldToUser)) {
        const QString mode = parser.value(m_yieldToUser);
        if (mode != QLatin1String("abort") && mode != QLatin1String("wait") && mode != QLatin1String("off"))
            return tr("msgcode-desktop-host: --yield-to-user takes abort, wait or off");
        options.backendSettings.insert(QStringLiteral("yieldToUser"), mode);
    }
    if (parser.isSet(m_yieldQuietMs)) {
        bool ok = false;
        const int ms = parser.value(m_yieldQuietMs).toInt(&ok);
        if (!ok || ms < 100 || ms > 60000)
            return tr("msgcode-desktop-host: --yield-quiet-ms takes 100 to 60000");
        options.backendSettings.insert(QStringLiteral("yieldQuietMs"), ms);
    }

    // The remote agent: off unless a control server is named (docs/remote.md).
    Remote::RemoteConfig& remote = out.remote;
    // A server named on the command line takes nothing of the one in Settings.
    const bool remoteFromCommandLine = parser.isSet(m_remoteHost);
    remote.host = remoteFromCommandLine ? parser.value(m_remoteHost) : stored.remoteHost;
    remote.port = remoteFromCommandLine ? 0 : static_cast<quint16>(stored.remotePort);
    if (parser.isSet(m_remotePort)) {
        bool ok = false;
        const int port = parser.value(m_remotePort).toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return tr("msgcode-desktop-host: --remote-port takes 1-65535");
        remote.port = static_cast<quint16>(port);
    }
    if (!remote.host.isEmpty() && remote.port == 0)
        return tr("msgcode-desktop-host: --remote-host needs --remote-port");
    remote.tls = parser.isSet(m_remoteTls) || (!remoteFromCommandLine && stored.remoteTls);
    remote.fingerprint = parser.isSet(m_remoteFingerprint) ? parser.value(m_remoteFingerprint)
                         : remoteFromCommandLine           ? QString()
                                                           : stored.remoteFingerprint;
    if (QString pin = remote.fingerprint; !pin.remove(QLatin1Char(':')).isEmpty()) {
        static const QRegularExpression sha256(QStringLiteral("^[0-9a-fA-F]{64}$"));
        if (!sha256.match(pin).hasMatch())
            return tr("msgcode-desktop-host: --remote-fingerprint takes a SHA-256 digest (64 hex digits)");
        if (!remote.tls)
            return tr("msgcode-desktop-host: --remote-fingerprint needs --remote-tls");
    }
    remote.retryDelayMs = static_cast<int>(std::min<qint64>(positive(m_remoteRetryDelay, 1000), 60000));
    if (parser.isSet(m_remoteMaxRetries)) {
        bool ok = false;
        remote.maxRetries = parser.value(m_remoteMaxRetries).toInt(&ok);
        if (!ok || remote.maxRetries < 0)
            return tr("msgcode-desktop-host: --remote-max-retries takes 0 or more");
    }
    if (!usage.isEmpty())
        return usage;
    remote.reconnect = !parser.isSet(m_remoteNoReconnect);
    remote.deviceName = parser.value(m_remoteDeviceName);
    remote.workspace = parser.isSet(m_remoteWorkspace) ? QDir(parser.value(m_remoteWorkspace)).absolutePath()
                       : options.workspaceRoot.isEmpty()
                           ? QString()
                           : QDir(options.workspaceRoot).absoluteFilePath(QStringLiteral("remote"));
    out.remoteBindCode = parser.value(m_remoteBindCode);
    out.openInspector = parser.isSet(m_inspector);
    if (parser.isSet(m_evidence))
        out.evidenceDir = QDir(parser.value(m_evidence)).absolutePath();
    if (out.openInspector && out.headless)
        return tr("msgcode-desktop-host: --inspector needs the tray app (not --headless)");
    security.remoteConfirmPolicy = out.headless ? Bridge::ConfirmPolicy::Ask : stored.remoteConfirmPolicy;
    if (parser.isSet(m_remoteConfirmPolicy)) {
        const auto policy = Bridge::SecuritySettings::policyFromName(parser.value(m_remoteConfirmPolicy));
        if (!policy)
            return tr("msgcode-desktop-host: --remote-confirm-policy takes ask, auto or deny");
        security.remoteConfirmPolicy = *policy;
    }
    return out;
}

} // namespace App
