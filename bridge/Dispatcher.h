#pragma once

#include "bridge/Diagnostics.h"
#include "bridge/Executor.h"
#include "bridge/MethodTable.h"
#include "bridge/OwnerCheck.h"
#include "bridge/evidence/Journal.h"
#include "bridge/protocol/JsonRpc.h"
#include "bridge/protocol/Meta.h"
#include "bridge/security/ConfirmationGate.h"
#include "bridge/security/ReplayGuard.h"
#include "bridge/transport/Caller.h"

#include <QObject>

#include <functional>
#include <memory>

namespace Bridge {

class PermissionMonitor;

/// The bridge's front: every transport hands it requests, and it takes each one through the
/// same pipeline: method table -> meta -> workspace -> typed params -> replay guard ->
/// confirmation gate -> an immediate handler or the executor (docs/architecture.md, "A
/// request's path"). It knows nothing about transports: the socket server decodes lines and
/// calls dispatch(); in-process callers (the host's own windows) call call() directly.
class Dispatcher final : public QObject
{
    Q_OBJECT

public:
    using Reply = std::function<void(const QJsonObject& response)>;
    using Respond = Bridge::Respond;

    Dispatcher(Executor& executor, WorkspacePolicy workspace, PermissionMonitor& permissions, HostFacts facts,
               SecurityContext security, QObject* parent = nullptr);
    ~Dispatcher() override;

    /// Handles one decoded line: a request object or a batch array. `reply` gets the encoded line
    /// to send (an object, or an array for a batch), or is never called when nothing is due.
    void dispatch(const Caller& caller, const QJsonValue& message, std::function<void(const QByteArray&)> reply);

    /// One request object; `reply` is not called for notifications.
    void handle(const Caller& caller, const QJsonValue& request, const Reply& reply);

    /// One call, typed: what every front door uses below its own framing. `params` carries
    /// `meta` as on the wire. `respond` is called exactly once, with the result or the contract
    /// error, on this object's thread.
    void call(const Caller& caller, const QString& method, const QJsonObject& params, const Respond& respond);

    const MethodTable& methods() const { return m_methods; }
    const WorkspacePolicy& workspace() const { return m_workspace; }
    HostFacts& facts() { return m_facts; }
    ConfirmationGate& gate() { return m_gate; }
    const Diagnostics& diagnostics() const { return m_diagnostics; }

    /// A connection opened (the server's accept) or closed: its queued jobs are dropped, its
    /// running job aborted and its pending approval requests withdrawn.
    void sessionOpened(const Caller& caller);
    void sessionClosed(quint64 connectionId);

    QJsonObject healthResult(const Caller& caller) const { return m_diagnostics.health(caller); }
    QJsonObject doctorResult(const Caller& caller, const std::optional<QString>& workspacePath) const
    {
        return m_diagnostics.doctor(caller, workspacePath);
    }

    /// The emergency stop (see ConfirmationGate::stop).
    QJsonObject stop(const PeerInfo* who, const QString& via) { return m_gate.stop(who, via); }
    /// The GUI's resume (a person pressed it): no further approval is asked. False when not paused.
    bool resumeFromGui(const QString& approver = QStringLiteral("user")) { return m_gate.resumeFromGui(approver); }
    bool isPaused() const { return m_gate.isPaused(); }
    int pendingApprovals() const { return m_gate.pendingApprovals(); }
    const SecuritySettings& security() const { return m_gate.settings(); }
    /// Runtime settings change (see ConfirmationGate::setSecurity).
    void setSecurity(const SecuritySettings& settings, ConfirmationProvider* provider)
    {
        m_gate.setSecurity(settings, provider);
    }
    /// Marks the executions a previous host left unfinished as interrupted (once, at start,
    /// after the instance lock is held) and removes their leftover temporary files.
    Evidence::Journal::Recovery recoverInterruptedEvidence() { return m_journal->recover(); }
    /// Replaces the workspace root; an unusable root is refused (false, `error` says why) and
    /// the old one kept.
    bool setWorkspaceRoot(const QString& root, QString* error = nullptr);
    /// When on, request.json keeps the typed text (the trace never does).
    void setKeepTypedText(bool keep) { m_keepTypedText = keep; }
    bool keepTypedText() const { return m_keepTypedText; }
    /// When on, a side effect keeps its tree complete (every node's frame and states), not only
    /// what its search read: the evidence browser's selector lab can then decide any selector on it.
    void setKeepFullTrees(bool keep) { m_keepFullTrees = keep; }
    bool keepFullTrees() const { return m_keepFullTrees; }

Q_SIGNALS:
    /// The host was stopped (true) or resumed (false), e.g. for the tray.
    void pausedChanged(bool paused);

private:
    void handleParsed(const Caller& caller, const std::variant<JsonRpc::Request, JsonRpc::Invalid>& parsed,
                      const Reply& reply);
    /// The pipeline for one call; `id` is the JSON-RPC id for the evidence (null in process).
    void route(const Caller& caller, const QString& name, const QJsonObject& params, const QJsonValue& id,
               const Respond& respond);
    /// The owner's rules for one side effect, to be applied on the worker.
    OwnerCheck ownerCheck(const MethodEntry& method, const Caller& caller, const QJsonObject& params,
                          const ConfirmationGate::Admitted& admitted);
    /// Queues a prepared method on the executor with its evidence record.
    void submit(const MethodEntry& method, const Caller& caller, const Meta& meta, const QJsonObject& params,
                const QString& workspaceRealPath, const Prepared& prepared, const QJsonObject& confirmedLine,
                const ConfirmationGate::Admitted& admitted, const QJsonValue& id, const Respond& respond);

    Executor& m_executor;
    WorkspacePolicy m_workspace;
    HostFacts m_facts;
    ConfirmationGate m_gate;
    Diagnostics m_diagnostics;
    ReplayGuard m_replay;
    std::shared_ptr<Evidence::Journal> m_journal;
    const MethodTable& m_methods;
    bool m_keepTypedText = false;
    bool m_keepFullTrees = false;
};

} // namespace Bridge
