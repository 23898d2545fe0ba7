#include "bridge/Host.h"

#include "automation/Operations.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QPointer>

#include <utility>

namespace Bridge {

Q_LOGGING_CATEGORY(lcHost, "msgcode.bridge.host")

Host::Host(HostOptions options, QObject* parent) : QObject(parent), m_options(std::move(options))
{
    if (!m_options.probeFactory)
        m_options.probeFactory = [] { return Automation::PermissionProbe::createDefault(); };
    m_permissions = std::make_unique<PermissionMonitor>(m_options.probeFactory, m_options.permissionPollMs);
    m_executor = std::make_unique<Executor>(m_options.backendFactory, m_options.executor);
    m_audit = std::make_unique<AuditLog>(m_options.security.dataDir, m_options.auditMaxBytes);
    m_tokens = std::make_unique<ConfirmTokens>(m_options.tokenClock);
    m_provider = makeProvider(m_options.security.confirmPolicy);
    m_mcpAsk = std::make_unique<AskConfirmationProvider>();
    m_mcp = std::make_unique<McpConfirmationProvider>(
        m_mcpAsk.get(), m_options.security.mcpConfirmPolicy.value_or(m_options.security.confirmPolicy));
    m_dispatcher = std::make_unique<Dispatcher>(
        *m_executor, WorkspacePolicy(m_options.workspaceRoot), *m_permissions,
        HostFacts{m_options.server.socketPath, QString(), QDateTime::currentDateTimeUtc()},
        SecurityContext{m_options.security, m_tokens.get(), m_provider.get(), m_audit.get()});
    const CallerPolicy callers(m_options.security.callerAllowlist);
    for (const QString& warning : callers.warnings())
        qCWarning(lcHost).noquote() << warning;
    m_dispatcher->setKeepTypedText(m_options.keepTypedText);
    m_dispatcher->setKeepFullTrees(m_options.keepFullTrees);
    m_dispatcher->gate().setProviderFor(Transport::McpDoor, m_mcp.get());
    m_remoteAsk = std::make_unique<AskConfirmationProvider>();
    applyRemotePolicy(m_options.security.remoteConfirmPolicy);
    if (!m_options.backendSettings.isEmpty())
        configureBackend(m_options.backendSettings);
    setGrounding(m_options.grounding);
    m_rules = std::make_unique<OwnerRules>(m_dispatcher->gate());
    m_dispatcher->facts().rules = m_rules.get();
    m_rules->useMemory(m_options.ownerPolicy);
    if (!m_options.policyFile.isEmpty()) {
        const QString trustedCopy = m_options.policyFileTrusted || m_options.security.dataDir.isEmpty()
                                        ? QString()
                                        : m_options.security.dataDir + QStringLiteral("/policy.trusted.json");
        QString error;
        if (!m_rules->useFile(m_options.policyFile, trustedCopy, &error))
            qCWarning(lcHost).noquote() << "the owner's rule file is not used:" << error;
    }
    if (m_options.unattended)
        m_rules->forceUnattended();
    m_server = std::make_unique<Server>(*m_dispatcher, m_options.server, callers);
    startEvents();
    connect(m_server.get(), &Server::callerRefused, this, [this](const PeerInfo& peer, const Automation::Error& error) {
        m_audit->record(QStringLiteral("caller_refused"), &peer,
                        QJsonObject{{QStringLiteral("reason"), error.details.value(QStringLiteral("reason"))},
                                    {QStringLiteral("uid"), peer.uid}});
    });
    m_xpcCallers = callers;
    m_xpc = std::make_unique<XpcListener>(*m_dispatcher, &peerFromPid, [this](const PeerInfo& peer, QString* why) {
        // On an XPC queue: the policy is read under its mutex, the audit line written on this thread.
        std::optional<Automation::Error> refused;
        {
            std::lock_guard lock(m_xpcCallersMutex);
            refused = m_xpcCallers.check(peer);
        }
        if (!refused)
            return true;
        *why = refused->message;
        QMetaObject::invokeMethod(
            this,
            [this, peer, reason = refused->details.value(QStringLiteral("reason"))] {
                m_audit->record(QStringLiteral("caller_refused"), &peer,
                                QJsonObject{{QStringLiteral("reason"), reason},
                                            {QStringLiteral("uid"), peer.uid},
                                            {QStringLiteral("via"), QStringLiteral("xpc")}});
            },
            Qt::QueuedConnection);
        return false;
    });
}

void Host::startEvents()
{
    m_events = std::make_unique<EventHub>();
    m_dispatcher->facts().events = m_events.get();
    m_events->setDeliver(
        [this](quint64 connection, const QByteArray& line) { return m_server->push(connection, line); });
    EventHub* hub = m_events.get();
    connect(m_executor.get(), &Executor::jobStarted, hub, [this, hub](const QString& executionId) {
        hub->publish(QStringLiteral("execution.started"),
                     QJsonObject{{QStringLiteral("executionId"), executionId},
                                 {QStringLiteral("method"), m_executor->runningMethod()}});
    });
    connect(m_executor.get(), &Executor::jobAnswered, hub, [hub](const QString& executionId, const QString& outcome) {
        hub->publish(QStringLiteral("execution.finished"),
                     QJsonObject{{QStringLiteral("executionId"), executionId}, {QStringLiteral("outcome"), outcome}});
    });
    // Element events only while someone subscribed to their kind (they are many).
    // A backend whose events cost the apps something streams them only while someone listens.
    connect(hub, &EventHub::elementEventsWantedChanged, this, [this](bool wanted) {
        m_executor->configureBackend(
            [wanted](Automation::DesktopBackend& backend) { backend.setElementEventsWanted(wanted); });
    });
    // Element events are recorded only when a subscription, live or lingering, takes them (its
    // kinds, route and selector): a lingering one keeps no more than it asked for.
    connect(m_executor.get(), &Executor::desktopEvent, hub,
            [hub](const QString& kind, const QJsonObject& payload, const QJsonArray& lineage) {
                if (EventHub::isElementKind(kind) ? hub->takes(kind, payload, lineage) : hub->wanted(kind))
                    hub->publish(kind, payload, lineage);
            });
    connect(m_executor.get(), &Executor::userInputNoticed, hub,
            [hub](const QString& executionId, const QString& action, const QJsonArray& waits) {
                QJsonObject payload{{QStringLiteral("executionId"), executionId}, {QStringLiteral("action"), action}};
                if (!waits.isEmpty())
                    payload.insert(QStringLiteral("waits"), waits);
                hub->publish(QStringLiteral("user.input"), payload);
            });
    connect(m_dispatcher.get(), &Dispatcher::pausedChanged, hub,
            [hub](bool paused) { hub->publish(paused ? QStringLiteral("stopped") : QStringLiteral("resumed")); });
    connect(
        m_permissions.get(), &PermissionMonitor::changed, hub,
        [this, hub] {
            const auto report = m_permissions->current();
            hub->publish(
                QStringLiteral("permissions.changed"),
                QJsonObject{
                    {QStringLiteral("accessibility"), Automation::permissionStateName(report.accessibility.state)},
                    {QStringLiteral("screenRecording"), Automation::permissionStateName(report.screenCapture.state)}});
        },
        Qt::QueuedConnection);
    m_events->setLingerMs(m_options.eventsLingerMs);
    // Windows: the platform's window watch (its own thread and connection: neither this thread
    // nor the worker waits for it), run while a subscription, live or lingering, wants window
    // events. Without one, the list is read on the worker while it is idle (an inspection never
    // queues behind an automation), compared with the last one.
    m_windowPoll.setInterval(kWindowPollMs);
    connect(&m_windowPoll, &QTimer::timeout, this, &Host::pollWindows);
    // A platform without a watch of its own (the factory makes none) reads the list on the worker.
    if (m_options.windowWatchFactory && m_options.windowWatchFactory()) {
        connect(hub, &EventHub::subscriptionsChanged, this, &Host::updateWindowWatch);
        return;
    }
    m_windowPoll.start();
}

void Host::windowWatchEnded(const QString& why)
{
    // The watch could not start or its display went away: the list is read on the worker from
    // now on, as where the platform has no watch.
    qCWarning(lcHost).noquote() << "the window watch stopped:" << why << "- reading the window list on the worker";
    ++m_windowWatchGeneration;
    if (m_windowWatch)
        m_windowWatch->stop();
    m_windowWatch.reset();
    m_windowWatchFailed = true;
    disconnect(m_events.get(), &EventHub::subscriptionsChanged, this, &Host::updateWindowWatch);
    m_events->setSourceState(QStringLiteral("windows"), QJsonObject{{QStringLiteral("watching"), false},
                                                                    {QStringLiteral("error"), why},
                                                                    {QStringLiteral("polled"), true}});
    if (std::exchange(m_windowWatchStarting, false))
        m_events->sourceReady();
    m_windowPoll.start();
}

void Host::updateWindowWatch()
{
    if (m_stopped)
        return;
    const bool wanted = m_events->wanted(QStringLiteral("window.created")) ||
                        m_events->wanted(QStringLiteral("window.closed")) ||
                        m_events->wanted(QStringLiteral("window.focused"));
    if (m_windowWatchFailed || wanted == static_cast<bool>(m_windowWatch))
        return;
    const quint64 generation = ++m_windowWatchGeneration;
    if (!wanted) {
        m_windowWatch->stop();
        m_windowWatch.reset();
        m_events->setSourceState(QStringLiteral("windows"), QJsonObject{{QStringLiteral("watching"), false}});
        if (std::exchange(m_windowWatchStarting, false))
            m_events->sourceReady();
        return;
    }
    m_windowWatch = m_options.windowWatchFactory();
    if (!m_windowWatch)
        return;
    // A subscribe is answered once the watch knows what is there: a window that appears after
    // the answer is news (docs/protocol.md §5.24).
    m_windowWatchStarting = true;
    m_events->sourceStarting();
    m_windowWatch->start(
        [this, generation](const QList<Automation::WindowWatch::Change>& changes) {
            // On the watch's thread. Queued to this object: a report that arrives after the host
            // is gone is dropped with it, and the watch is stopped (joined) before that.
            QMetaObject::invokeMethod(
                this,
                [this, generation, changes] {
                    if (generation == m_windowWatchGeneration)
                        windowsChanged(changes);
                },
                Qt::QueuedConnection);
        },
        [this, generation](bool ok, const QString& error) {
            QMetaObject::invokeMethod(
                this,
                [this, generation, ok, error] {
                    if (generation != m_windowWatchGeneration)
                        return;
                    if (!ok)
                        return windowWatchEnded(error);
                    m_events->setSourceState(QStringLiteral("windows"),
                                             QJsonObject{{QStringLiteral("watching"), true}});
                    if (std::exchange(m_windowWatchStarting, false))
                        m_events->sourceReady();
                },
                Qt::QueuedConnection);
        });
}

QJsonObject Host::windowEventPayload(const Automation::WindowInfo& window)
{
    return QJsonObject{{QStringLiteral("window"), QJsonObject{{QStringLiteral("title"), window.title},
                                                              {QStringLiteral("nativeId"), window.nativeId},
                                                              {QStringLiteral("frame"), window.frame.toJson()}}},
                       {QStringLiteral("app"), QJsonObject{{QStringLiteral("name"), window.appName},
                                                           {QStringLiteral("executable"), window.executable},
                                                           {QStringLiteral("pid"), window.pid}}}};
}

void Host::windowsChanged(const QList<Automation::WindowWatch::Change>& changes)
{
    for (const auto& change : changes) {
        if (m_events->wanted(change.kind))
            m_events->publish(change.kind, windowEventPayload(change.window));
    }
}

void Host::pollWindows()
{
    const bool wanted = m_events->wanted(QStringLiteral("window.created")) ||
                        m_events->wanted(QStringLiteral("window.closed")) ||
                        m_events->wanted(QStringLiteral("window.focused"));
    if (!wanted) {
        m_knownWindows.reset();
        return;
    }
    if (m_windowPollInFlight || m_executor->isBusy())
        return;
    m_windowPollInFlight = true;
    QPointer<Host> self(this);
    m_executor->inspect<QList<Automation::WindowInfo>>(
        kWindowPollMs * 2,
        [](JobContext& ctx) { return Automation::Operations::windows(ctx, Automation::Operations::WindowsRequest{}); },
        [self](const Automation::Result<QList<Automation::WindowInfo>>& listed) {
            if (!self)
                return;
            self->m_windowPollInFlight = false;
            if (listed)
                self->windowsSeen(listed.value());
        });
}

void Host::windowsSeen(const QList<Automation::WindowInfo>& windows)
{
    const auto payload = &Host::windowEventPayload;
    QHash<QString, Automation::WindowInfo> now;
    QString active;
    for (const auto& window : windows) {
        now.insert(window.nativeId, window);
        if (window.active)
            active = window.nativeId;
    }
    // The first look only learns what is there.
    if (m_knownWindows) {
        for (auto it = now.cbegin(); it != now.cend(); ++it) {
            if (!m_knownWindows->contains(it.key()))
                m_events->publish(QStringLiteral("window.created"), payload(it.value()));
        }
        for (auto it = m_knownWindows->cbegin(); it != m_knownWindows->cend(); ++it) {
            if (!now.contains(it.key()))
                m_events->publish(QStringLiteral("window.closed"), payload(it.value()));
        }
        if (!active.isEmpty() && active != m_activeWindow)
            m_events->publish(QStringLiteral("window.focused"), payload(now.value(active)));
    }
    m_knownWindows = now;
    m_activeWindow = active;
}

std::unique_ptr<ConfirmationProvider> Host::makeProvider(ConfirmPolicy policy)
{
    m_askProvider = nullptr;
    switch (policy) {
    case ConfirmPolicy::Ask: {
        auto ask = std::make_unique<AskConfirmationProvider>();
        m_askProvider = ask.get();
        return ask;
    }
    case ConfirmPolicy::Auto:
        return std::make_unique<AutoConfirmationProvider>();
    case ConfirmPolicy::Deny:
        break;
    }
    return std::make_unique<DenyConfirmationProvider>();
}

void Host::applyRemotePolicy(ConfirmPolicy policy)
{
    if (policy == ConfirmPolicy::Ask) {
        m_dispatcher->gate().setProviderFor(Transport::Remote, m_remoteAsk.get());
        m_remoteOther.reset();
        return;
    }
    // Auto and deny decide at once: nothing is pending with the provider replaced here.
    std::unique_ptr<ConfirmationProvider> next =
        policy == ConfirmPolicy::Auto
            ? std::unique_ptr<ConfirmationProvider>(std::make_unique<AutoConfirmationProvider>())
            : std::make_unique<DenyConfirmationProvider>();
    m_dispatcher->gate().setProviderFor(Transport::Remote, next.get());
    m_remoteOther = std::move(next);
}

void Host::applySecurity(const SecuritySettings& settings)
{
    SecuritySettings next = settings;
    next.dataDir = m_options.security.dataDir;
    const bool policyChanged = next.confirmPolicy != m_options.security.confirmPolicy;
    const bool callersChanged = next.callerAllowlist != m_options.security.callerAllowlist;
    std::unique_ptr<ConfirmationProvider> old;
    if (policyChanged) {
        old = std::move(m_provider);
        m_provider = makeProvider(next.confirmPolicy);
    }
    m_dispatcher->setSecurity(next, m_provider.get());
    const ConfirmPolicy mcpPolicy = next.mcpConfirmPolicy.value_or(next.confirmPolicy);
    const QString mcpFrom = m_mcp->policyName();
    m_mcp->setPolicy(mcpPolicy);
    const QString remoteFrom = SecuritySettings::policyName(m_options.security.remoteConfirmPolicy);
    if (next.remoteConfirmPolicy != m_options.security.remoteConfirmPolicy)
        applyRemotePolicy(next.remoteConfirmPolicy);
    if (callersChanged) {
        const CallerPolicy callers(next.callerAllowlist);
        for (const QString& warning : callers.warnings())
            qCWarning(lcHost).noquote() << warning;
        m_server->setCallers(callers);
        std::lock_guard lock(m_xpcCallersMutex);
        m_xpcCallers = callers;
    }
    const QString from = SecuritySettings::policyName(m_options.security.confirmPolicy);
    m_options.security = next;
    m_audit->record(
        QStringLiteral("settings_changed"), nullptr,
        QJsonObject{{QStringLiteral("confirmPolicy"), SecuritySettings::policyName(next.confirmPolicy)},
                    {QStringLiteral("previousConfirmPolicy"), from},
                    {QStringLiteral("mcpConfirmPolicy"), SecuritySettings::policyName(mcpPolicy)},
                    {QStringLiteral("previousMcpConfirmPolicy"), mcpFrom},
                    {QStringLiteral("remoteConfirmPolicy"), SecuritySettings::policyName(next.remoteConfirmPolicy)},
                    {QStringLiteral("previousRemoteConfirmPolicy"), remoteFrom},
                    {QStringLiteral("requireToken"), next.requireToken},
                    {QStringLiteral("maxTokenTtlMs"), next.maxTokenTtlMs},
                    {QStringLiteral("approvalTimeoutMs"), next.approvalTimeoutMs},
                    {QStringLiteral("callerAllowlist"), QJsonArray::fromStringList(next.callerAllowlist)}});
    if (policyChanged) {
        if (next.confirmPolicy == ConfirmPolicy::Auto)
            qCWarning(lcHost).noquote() << "confirm policy is now AUTO: every confirmation is approved without asking";
        else
            qCInfo(lcHost).noquote() << "confirm policy is now" << SecuritySettings::policyName(next.confirmPolicy);
        // The GUI lets go of the old provider here, while it still exists.
        Q_EMIT confirmationProviderChanged();
    }
}

void Host::setConfirmPolicy(ConfirmPolicy policy)
{
    SecuritySettings next = m_options.security;
    next.confirmPolicy = policy;
    applySecurity(next);
}

bool Host::setWorkspaceRoot(const QString& root, QString* error)
{
    if (!m_dispatcher->setWorkspaceRoot(root, error))
        return false;
    m_options.workspaceRoot = root;
    qCInfo(lcHost) << "workspace root is now" << m_dispatcher->workspace().rootRealPath();
    return true;
}

void Host::setGrounding(const GroundingSettings& settings)
{
    m_options.grounding = settings;
    m_executor->setGrounder(settings.configured() ? std::make_shared<GroundingEndpoint>(settings) : nullptr);
}

void Host::configureBackend(const QJsonObject& settings)
{
    m_executor->configureBackend([settings](Automation::DesktopBackend& backend) { backend.configure(settings); });
}

Host::~Host()
{
    shutdown();
    // The hub goes before the dispatcher and the server that point at it.
    m_dispatcher->facts().events = nullptr;
    m_events->setDeliver({});
}

bool Host::start(QString* error, bool* alreadyServed)
{
    m_permissions->start();
    if (!m_server->listen(error, alreadyServed))
        return false;
    // This host alone holds the instance lock now: what the journal lists as open was left by
    // one that stopped mid-execution.
    m_dispatcher->recoverInterruptedEvidence();
    m_dispatcher->facts().socketMode = m_server->socketMode();
    if (XpcListener::isSupported()) {
        // The socket serves whatever happens here; XPC needs the LaunchAgent (docs/macos.md).
        QString xpcError;
        if (!m_xpc->listen(XpcListener::defaultServiceName(), &xpcError))
            qCWarning(lcHost).noquote() << "XPC transport not available:" << xpcError;
    }
    if (!m_dispatcher->workspace().isConfigured())
        qCWarning(lcHost).noquote() << m_dispatcher->workspace().configurationProblem();
    m_started = true;
    return true;
}

void Host::shutdown()
{
    if (m_stopped)
        return;
    m_stopped = true;
    if (m_started) {
        // Answer everything in flight before the socket goes away (a SIGTERM answers
        // DESKTOP_ABORTED, reason shutdown, rather than leave a client waiting). The executor's
        // answers arrive as queued calls: let them run.
        const int aborted = m_executor->abortAll(Executor::AbortAllReason::Shutdown);
        m_executor->shutdown(2000);
        QCoreApplication::sendPostedEvents(nullptr, 0);
        QCoreApplication::processEvents(QEventLoop::AllEvents, 100);
        m_server->flushAll(1000);
        if (aborted)
            qCInfo(lcHost) << "aborted" << aborted << "execution(s) at shutdown";
    }
    m_windowPoll.stop();
    ++m_windowWatchGeneration;
    if (m_windowWatch)
        m_windowWatch->stop();
    m_xpc->close();
    m_server->close();
    m_executor->shutdown(2000);
    m_permissions->stop();
    m_audit->flush();
}

} // namespace Bridge
