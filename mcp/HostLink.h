#pragma once

#include "bridge/protocol/Client.h"
#include "client-kit/SideEffectCall.h"

#include <QJsonObject>
#include <QString>

namespace Mcp {

/// The front door's link to the running host: one connection over its socket, requests with
/// meta filled in (the workspace is the process's working directory), side effects looked for,
/// confirmed and called through the client kit (DoorKit::call), so the host's confirmation
/// policy decides. Blocking: each request is answered before call() goes on.
class HostLink : private DoorKit::Engine
{
public:
    HostLink(QString socketPath, QString workspace);

    /// The host's response to `method` (a result or an error object). When the host cannot be
    /// reached, or answers nothing in time, a DESKTOP_HOST_NOT_RUNNING / DESKTOP_TIMEOUT error
    /// object made here says so.
    QJsonObject call(const QString& method, const QJsonObject& params, bool sideEffect, int timeoutMs = 30000);
    QString workspace() const { return m_workspace; }

private:
    // DoorKit::Engine: answered before it returns.
    void request(const QString& method, const QJsonObject& params, int timeoutMs, Reply reply) override;
    int confirmTimeoutMs() const override { return kConfirmTimeoutMs; }

    QJsonObject requestNow(const QString& method, const QJsonObject& params, int timeoutMs);

    /// How long a person may take to answer desktop.confirm.issue.
    static constexpr int kConfirmTimeoutMs = 120000;

    QString m_socketPath;
    QString m_workspace;
    Bridge::Client m_client;
};

} // namespace Mcp
