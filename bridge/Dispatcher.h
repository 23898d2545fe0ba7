#pragma once

#include "Executor.h"
#include "JsonRpc.h"
#include "Meta.h"
#include "Params.h"
#include "PeerCredentials.h"
#include "ReplayGuard.h"

#include <QHash>
#include <QObject>

#include <functional>

namespace Bridge {

class PermissionMonitor;

/// Who sent a request: the connection and the peer identity pinned at connect time.
struct Caller
{
    quint64 connectionId = 0;
    PeerInfo peer;
};

/// What an immediate (not queued) method sees.
struct Call
{
    Caller caller;
    Meta meta;
    QJsonObject params;
    std::optional<QString> workspaceRealPath;
};

/// Facts about the running host that health and doctor report.
struct HostFacts
{
    QString socketPath;
    QString socketMode; ///< e.g. "0600"
    QDateTime startedAt;
};

/// Parses envelopes, checks meta, workspace and confirmation, and routes each request to an
/// immediate handler or the executor (DESIGN.md 3). Knows nothing about transports.
class Dispatcher final : public QObject
{
    Q_OBJECT

public:
    using Reply = std::function<void(const QJsonObject& response)>;
    /// A method's answer: a result object or a contract error.
    using Respond = std::function<void(const Automation::Result<QJsonObject>&)>;

    struct MethodSpec
    {
        QString name;
        bool queued = false;         ///< runs on the executor and writes evidence
        bool sideEffect = false;     ///< needs confirm (contract 4.2)
        bool workspaceBound = false; ///< meta.workspacePath required and checked
        /// Queued methods: typed params -> the job (and the confirm block for side effects).
        std::function<Automation::Result<std::pair<JobFunction, ConfirmParams>>(const QJsonObject&)> prepare;
        /// Immediate methods.
        std::function<void(const Call&, const Respond&)> handle;
        /// What request.json keeps of params (e.g. typed text replaced by length + digest).
        std::function<QJsonObject(const QJsonObject&)> redact;
    };

    Dispatcher(Executor& executor, WorkspacePolicy workspace, PermissionMonitor& permissions, HostFacts facts,
               QObject* parent = nullptr);

    /// Handles one decoded line: a request object or a batch array. `reply` gets the encoded line
    /// to send (an object, or an array for a batch), or is never called when nothing is due.
    void dispatch(const Caller& caller, const QJsonValue& message, std::function<void(const QByteArray&)> reply);

    /// One request object; `reply` is not called for notifications.
    void handle(const Caller& caller, const QJsonValue& request, const Reply& reply);

    const QHash<QString, MethodSpec>& methods() const { return m_methods; }
    const WorkspacePolicy& workspace() const { return m_workspace; }
    HostFacts& facts() { return m_facts; }

    QJsonObject healthResult(const Caller& caller) const;
    QJsonObject doctorResult(const Caller& caller, const std::optional<QString>& workspacePath) const;

private:
    void registerMethods();
    void add(MethodSpec spec);
    std::optional<Automation::Error> checkConfirm(const ConfirmParams& confirm, const Meta& meta) const;
    QJsonObject envJson(const Caller& caller) const;

    Executor& m_executor;
    WorkspacePolicy m_workspace;
    PermissionMonitor& m_permissions;
    HostFacts m_facts;
    ReplayGuard m_replay;
    QHash<QString, MethodSpec> m_methods;
};

} // namespace Bridge
