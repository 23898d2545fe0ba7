#include "bridge/security/McpConfirmationProvider.h"

namespace Bridge {

McpConfirmationProvider::McpConfirmationProvider(AskConfirmationProvider* ask, ConfirmPolicy policy, Clock clock)
    : m_ask(ask), m_policy(policy), m_clock(std::move(clock))
{
    if (!m_clock)
        m_clock = [] { return QDateTime::currentDateTimeUtc(); };
}

QString McpConfirmationProvider::policyName() const
{
    return SecuritySettings::policyName(m_policy);
}

void McpConfirmationProvider::setPolicy(ConfirmPolicy policy)
{
    if (policy != m_policy)
        m_grants.clear();
    m_policy = policy;
}

QString McpConfirmationProvider::clientKey(const ApprovalRequest& request)
{
    return QString::number(request.peer.uid) + QLatin1Char(':') + request.client;
}

QDateTime McpConfirmationProvider::grantedUntil(const ApprovalRequest& request) const
{
    if (request.client.isEmpty())
        return {};
    const QDateTime until = m_grants.value(clientKey(request));
    return until.isValid() && until > m_clock() ? until : QDateTime();
}

void McpConfirmationProvider::request(const ApprovalRequest& request, Done done)
{
    switch (m_policy) {
    case ConfirmPolicy::Auto:
        return m_auto.request(request, std::move(done));
    case ConfirmPolicy::Deny:
        return m_deny.request(request, std::move(done));
    case ConfirmPolicy::Ask:
        break;
    }
    if (grantedUntil(request).isValid() && request.kind == ApprovalRequest::Kind::Token)
        return done(ApprovalDecision::approve(QStringLiteral("grant"), QStringLiteral("user")));
    if (!m_ask)
        return done(ApprovalDecision::deny(QStringLiteral("no_approver")));
    ApprovalRequest offered = request;
    // A client is only allowed by name: without its executable there is nothing to key it to.
    offered.offerGrant = !request.client.isEmpty() && request.kind == ApprovalRequest::Kind::Token;
    const QString key = clientKey(request);
    m_ask->request(offered, [this, key, done = std::move(done)](const ApprovalDecision& decision) {
        if (decision.approved && decision.grantMinutes > 0)
            m_grants.insert(key, m_clock().addSecs(qint64{60} * decision.grantMinutes));
        done(decision);
    });
}

void McpConfirmationProvider::cancel(quint64 id)
{
    if (m_ask)
        m_ask->cancel(id);
}

} // namespace Bridge
