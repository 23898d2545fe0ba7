#pragma once

#include "bridge/Dispatcher.h"
#include "bridge/EventHub.h"
#include "bridge/Executor.h"
#include "bridge/PermissionMonitor.h"
#include "bridge/grounding/GroundingEndpoint.h"
#include "bridge/security/AuditLog.h"
#include "bridge/security/CallerPolicy.h"
#include "bridge/security/ConfirmTokens.h"
#include "bridge/security/ConfirmationProvider.h"
#include "bridge/security/McpConfirmationProvider.h"
#include "bridge/security/OwnerRules.h"
#include "bridge/security/SecuritySettings.h"
#include "bridge/transport/Server.h"
#include "bridge/transport/XpcListener.h"

#include "automation/WindowWatch.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <memory>
#include <mutex>

namespace Bridge {

struct HostOptions
{
    ServerOptions server;
    QString workspaceRoot;
    Executor::BackendFactory backendFactory;
    PermissionMonitor::ProbeFactory probeFactory;
    int permissionPollMs = 1000;
    ExecutorOptions executor;
    /// Confirmation policy, token limits, caller allowlist, data directory.
    SecuritySettings security;
    /// Tests: the token store's clock (default: the system clock).
    ConfirmTokens::Clock tokenClock;
    /// Tests: the audit log's rotation size.
    qint64 auditMaxBytes = AuditLog::kDefaultMaxBytes;
    /// Keep typed text in request.json (default: length + SHA-256 only; docs/architecture.md, "Evidence").
    bool keepTypedText = false;
    /// Side effects keep complete trees in ax.json (frames and states of every node).
    bool keepFullTrees = false;
    /// Settings for the backend, applied once it exists (DesktopBackend::configure).
    QJsonObject backendSettings;
    /// The window manager's list watched on a thread of its own (window.* events); none: the
    /// list is read on the worker once a second while it is idle.
    std::function<std::unique_ptr<Automation::WindowWatch>()> windowWatchFactory;
    /// How long an event subscription outlives its connection (EventHub::setLingerMs).
    int eventsLingerMs = EventHub::kDefaultLingerMs;
    /// The owner's grounding endpoint for desktop.ground (none: not configured).
    GroundingSettings grounding;
    /// The owner's rules and the unattended mode (docs/protocol.md, "Policy"), kept in memory
    /// when there is no policyFile.
    OwnerPolicy ownerPolicy;
    /// The rule file (OwnerRules): the host keeps its rules and grants there. Trusted as it is
    /// when `policyFileTrusted` (named on the command line by the owner); otherwise the copy the
    /// host trusts is kept in the data directory and a file changed behind its back waits for a
    /// person.
    QString policyFile;
    bool policyFileTrusted = false;
    /// The command line's --unattended: the mode for this run.
    bool unattended = false;
};

/// The bridge as one object: permission monitor, executor (worker thread + backend),
/// confirmation (tokens, provider, audit log), dispatcher and local server, started and
/// stopped in the right order.
class Host final : public QObject
{
    Q_OBJECT

public:
    explicit Host(HostOptions options, QObject* parent = nullptr);
    ~Host() override;

    /// Starts monitoring and listening; false with `error` set when the socket cannot be served.
    bool start(QString* error, bool* alreadyServed = nullptr);
    /// Aborts in-flight work (each answers DESKTOP_ABORTED), delivers the answers, closes the
    /// socket (removing the file) and stops the worker. Idempotent.
    void shutdown();

    /// The tray's emergency stop: what desktop.stop does.
    QJsonObject stop() { return m_dispatcher->stop(nullptr, QStringLiteral("gui")); }
    /// The tray's resume (a person pressed it). False when the host was not paused.
    bool resume(const QString& approver = QStringLiteral("user")) { return m_dispatcher->resumeFromGui(approver); }

    Server& server() { return *m_server; }
    /// The XPC front door (macOS); listening only where XpcListener::isSupported().
    XpcListener& xpc() { return *m_xpc; }
    Executor& executor() { return *m_executor; }
    Dispatcher& dispatcher() { return *m_dispatcher; }
    PermissionMonitor& permissions() { return *m_permissions; }
    ConfirmTokens& tokens() { return *m_tokens; }
    ConfirmationProvider& confirmations() { return *m_provider; }
    /// The `ask` provider, where the GUI attaches its Approver; nullptr under other policies.
    AskConfirmationProvider* askProvider() { return m_askProvider; }
    /// Where the GUI attaches a second Approver for the MCP front door's ask policy (its own
    /// provider, for the life of the host). Grants end when the door's effective policy
    /// changes (following the host's, that is when the host's changes).
    AskConfirmationProvider* mcpAskProvider() { return m_mcpAsk.get(); }
    McpConfirmationProvider& mcpConfirmations() { return *m_mcp; }
    /// Where the GUI attaches an Approver for the remote agent's ask policy (docs/remote.md):
    /// its own provider, for the life of the host, used while the remote policy is ask.
    AskConfirmationProvider* remoteAskProvider() { return m_remoteAsk.get(); }
    /// Attaches the remote agent (not owned; it must outlive the host's use of it, or be
    /// detached with nullptr first): desktop.remote.* and health reach it.
    void setRemoteControl(RemoteControl* remote) { m_dispatcher->facts().remote = remote; }
    /// What desktop.gui.open calls to open one of the GUI's windows ("inspector"); the GUI sets it.
    void setWindowOpener(std::function<bool(const QString& window)> opener)
    {
        m_dispatcher->facts().openWindow = std::move(opener);
    }
    AuditLog& audit() { return *m_audit; }
    /// The event stream (desktop.subscribe).
    EventHub& events() { return *m_events; }

    /// The live security settings (policy, token limits, allowlist).
    const SecuritySettings& security() const { return m_options.security; }
    ConfirmPolicy confirmPolicy() const { return m_options.security.confirmPolicy; }
    /// Applies settings at runtime (the settings dialog's Save): the confirmation policy (a new
    /// provider; approvals pending with the old one are denied), requireToken, maxTokenTtlMs and
    /// approvalTimeoutMs for the next request, and the caller allowlist for new connections
    /// (existing connections keep their pinned identity). `dataDir` is fixed at start.
    void applySecurity(const SecuritySettings& settings);
    /// Shorthand for applySecurity() with only the policy changed.
    void setConfirmPolicy(ConfirmPolicy policy);
    /// The workspace root for the next request; false (old root kept) when unusable.
    bool setWorkspaceRoot(const QString& root, QString* error = nullptr);
    void setKeepTypedText(bool keep) { m_dispatcher->setKeepTypedText(keep); }
    void setKeepFullTrees(bool keep) { m_dispatcher->setKeepFullTrees(keep); }
    /// How long an event subscription outlives its connection, from now on.
    void setEventsLingerMs(int ms) { m_events->setLingerMs(ms); }
    /// The owner's grounding endpoint from now on (an empty url: none; desktop.ground then answers
    /// no_vision_provider).
    void setGrounding(const GroundingSettings& settings);
    /// The owner's rules in force (docs/protocol.md, "Policy"); each side effect takes a copy
    /// when it is admitted.
    const OwnerPolicy& ownerPolicy() const { return m_dispatcher->gate().ownerPolicy(); }
    /// Replaces the owner's rules, trusted, in memory (tests, embedders without a rule file).
    void setOwnerPolicy(const OwnerPolicy& policy) { m_rules->useMemory(policy); }
    /// The owner's rules as they are kept and changed (Settings, desktop.policy).
    OwnerRules& ownerRules() { return *m_rules; }
    const GroundingSettings& grounding() const { return m_options.grounding; }
    /// Passes settings to the backend on the worker thread (DesktopBackend::configure).
    void configureBackend(const QJsonObject& settings);

Q_SIGNALS:
    /// The confirmation provider was replaced (askProvider() may now be another object or
    /// nullptr). Emitted before the old provider is destroyed: a GUI attached to the old
    /// AskConfirmationProvider must let go of it in a direct connection.
    void confirmationProviderChanged();

private:
    std::unique_ptr<ConfirmationProvider> makeProvider(ConfirmPolicy policy);
    void startEvents();
    void pollWindows();
    void windowsSeen(const QList<Automation::WindowInfo>& windows);
    /// Starts or stops the window watch as subscriptions want window events.
    void updateWindowWatch();
    /// The watch could not start, or stopped: the worker reads the list from then on.
    void windowWatchEnded(const QString& why);
    void windowsChanged(const QList<Automation::WindowWatch::Change>& changes);
    static QJsonObject windowEventPayload(const Automation::WindowInfo& window);
    static constexpr int kWindowPollMs = 1000;
    void applyRemotePolicy(ConfirmPolicy policy);

    HostOptions m_options;
    std::unique_ptr<PermissionMonitor> m_permissions;
    std::unique_ptr<Executor> m_executor;
    std::unique_ptr<AuditLog> m_audit;
    std::unique_ptr<ConfirmTokens> m_tokens;
    std::unique_ptr<ConfirmationProvider> m_provider;
    AskConfirmationProvider* m_askProvider = nullptr;
    std::unique_ptr<AskConfirmationProvider> m_mcpAsk;
    std::unique_ptr<McpConfirmationProvider> m_mcp;
    std::unique_ptr<AskConfirmationProvider> m_remoteAsk;
    /// The remote agent's provider when its policy is auto or deny.
    std::unique_ptr<ConfirmationProvider> m_remoteOther;
    std::unique_ptr<Dispatcher> m_dispatcher;
    std::unique_ptr<OwnerRules> m_rules;
    std::unique_ptr<Server> m_server;
    /// The caller policy as the XPC listener reads it, on an XPC queue: under its mutex.
    /// Declared before m_xpc, so they outlive it.
    std::mutex m_xpcCallersMutex;
    CallerPolicy m_xpcCallers;
    std::unique_ptr<XpcListener> m_xpc;
    std::unique_ptr<EventHub> m_events;
    QTimer m_windowPoll;
    bool m_windowPollInFlight = false;
    std::optional<QHash<QString, Automation::WindowInfo>> m_knownWindows;
    std::unique_ptr<Automation::WindowWatch> m_windowWatch;
    /// Which watch a queued report came from (one stopped since is not listened to).
    quint64 m_windowWatchGeneration = 0;
    bool m_windowWatchStarting = false;
    bool m_windowWatchFailed = false;
    QString m_activeWindow;
    bool m_started = false;
    bool m_stopped = false;
};

} // namespace Bridge
