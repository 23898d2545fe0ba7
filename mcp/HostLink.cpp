#include "mcp/HostLink.h"

#include "bridge/protocol/Meta.h"

namespace Mcp {

namespace {

QJsonObject errorObject(const QString& code, const QString& message)
{
    return QJsonObject{
        {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}};
}

} // namespace

HostLink::HostLink(QString socketPath, QString workspace)
    : m_socketPath(std::move(socketPath)), m_workspace(std::move(workspace))
{
}

QJsonObject HostLink::requestNow(const QString& method, const QJsonObject& params, int timeoutMs)
{
    if (!m_client.isConnected() && !m_client.connectToServer(m_socketPath, 3000))
        return errorObject(
            QStringLiteral("DESKTOP_HOST_NOT_RUNNING"),
            QStringLiteral("no msgcode-desktop-host is serving %1 (%2)").arg(m_socketPath, m_client.errorString()));
    Bridge::MetaFill fill;
    fill.workspacePath = m_workspace;
    fill.timeoutMs = timeoutMs;
    m_client.setMetaFill(fill);
    const auto reply = m_client.call(method, params, timeoutMs + 5000);
    if (!reply.ok())
        return errorObject(reply.error == Bridge::Client::TransportError::Timeout
                               ? QStringLiteral("DESKTOP_TIMEOUT")
                               : QStringLiteral("DESKTOP_HOST_NOT_RUNNING"),
                           QStringLiteral("the host gave no answer to %1: %2").arg(method, reply.errorString));
    return reply.response;
}

void HostLink::request(const QString& method, const QJsonObject& params, int timeoutMs, Reply reply)
{
    reply(requestNow(method, params, timeoutMs));
}

QJsonObject HostLink::call(const QString& method, const QJsonObject& params, bool sideEffect, int timeoutMs)
{
    QJsonObject answer;
    // Every request is answered before it returns, so the flow has ended when DoorKit::call returns.
    DoorKit::call(*this, method, params, sideEffect, timeoutMs,
                  [&answer](const QJsonObject& response) { answer = response; });
    return answer;
}

} // namespace Mcp
