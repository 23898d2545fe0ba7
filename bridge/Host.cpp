#include "Host.h"

#include <QCoreApplication>
#include <QLoggingCategory>

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
    switch (m_options.security.confirmPolicy) {
    case ConfirmPolicy::Ask: {
        auto ask = std::make_unique<AskConfirmationProvider>();
        m_askProvider = ask.get();
        m_provider = std::move(ask);
        break;
    }
    case ConfirmPolicy::Auto:
        m_provider = std::make_unique<AutoConfirmationProvider>();
        break;
    case ConfirmPolicy::Deny:
        m_provider = std::make_unique<DenyConfirmationProvider>();
        break;
    }
    m_dispatcher = std::make_unique<Dispatcher>(
        *m_executor, WorkspacePolicy(m_options.workspaceRoot), *m_permissions,
        HostFacts{m_options.server.socketPath, QString(), QDateTime::currentDateTimeUtc()},
        SecurityContext{m_options.security, m_tokens.get(), m_provider.get(), m_audit.get()});
    const CallerPolicy callers(m_options.security.callerAllowlist);
    for (const QString& entry : callers.unresolved())
        qCWarning(lcHost) << "allowed caller" << entry << "does not exist; it can match no process";
    m_server = std::make_unique<Server>(*m_dispatcher, *m_executor, m_options.server, callers);
    connect(m_server.get(), &Server::callerRefused, this, [this](const PeerInfo& peer, const Automation::Error& error) {
        m_audit->record(QStringLiteral("caller_refused"), &peer,
                        QJsonObject{{QStringLiteral("reason"), error.details.value(QStringLiteral("reason"))},
                                    {QStringLiteral("uid"), peer.uid}});
    });
}

Host::~Host()
{
    shutdown();
}

bool Host::start(QString* error, bool* alreadyServed)
{
    m_permissions->start();
    if (!m_server->listen(error, alreadyServed))
        return false;
    m_dispatcher->facts().socketMode = m_server->socketMode();
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
        // Answer everything in flight before the socket goes away (issue: SIGTERM answers
        // DESKTOP_ABORTED). The executor's answers arrive as queued calls: let them run.
        const int aborted = m_executor->abortAll(Executor::AbortAllReason::Shutdown);
        m_executor->shutdown(2000);
        QCoreApplication::sendPostedEvents(nullptr, 0);
        QCoreApplication::processEvents(QEventLoop::AllEvents, 100);
        m_server->flushAll(1000);
        if (aborted)
            qCInfo(lcHost) << "aborted" << aborted << "execution(s) at shutdown";
    }
    m_server->close();
    m_executor->shutdown(2000);
    m_permissions->stop();
    m_audit->flush();
}

} // namespace Bridge
