#pragma once

#include "AuditLog.h"
#include "ConfirmTokens.h"
#include "ConfirmationProvider.h"
#include "Executor.h"
#include "Journal.h"
#include "JsonRpc.h"
#include "Meta.h"
#include "Methods.h"
#include "Params.h"
#include "PeerCredentials.h"
#include "ReplayGuard.h"
#include "SecuritySettings.h"

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

/// What the dispatcher needs to confirm side effects (issue 4); owned by the Host.
struct SecurityContext
{
    SecuritySettings settings;
    ConfirmTokens* tokens = nullptr;
    ConfirmationProvider* provider = nullptr;
    AuditLog* audit = nullptr;
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
        std::function<Automation::Result<std::pair<Methods::MethodJob, ConfirmParams>>(const QJsonObject&)> prepare;
        /// Immediate methods.
        std::function<void(const Call&, const Respond&)> handle;
        /// What request.json keeps of params (e.g. typed text replaced by length + digest).
        std::function<QJsonObject(const QJsonObject&)> redact;
    };

    Dispatcher(Executor& executor, WorkspacePolicy workspace, PermissionMonitor& permissions, HostFacts facts,
               SecurityContext security, QObject* parent = nullptr);
    ~Dispatcher() override;

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

    /// Emergency stop (plan 4.4): aborts the running and every queued execution (each answers
    /// DESKTOP_ABORTED), withdraws pending approvals and pauses side effects until resumed.
    /// `who` is the caller (nullptr for the GUI); `via` "client" or "gui". Returns the result.
    QJsonObject stop(const PeerInfo* who, const QString& via);
    /// The GUI's resume (a person pressed it): no further approval is asked. False when not paused.
    bool resumeFromGui(const QString& approver = QStringLiteral("user"));
    bool isPaused() const { return m_paused; }
    /// A connection went away: its pending approval requests are withdrawn.
    /// Marks the executions a previous host left unfinished as interrupted (once, at start,
    /// after the instance lock is held) and removes their leftover temporary files.
    Evidence::Journal::Recovery recoverInterruptedEvidence() { return m_journal->recover(); }
    void connectionClosed(quint64 connectionId);
    int pendingApprovals() const { return static_cast<int>(m_pendingApprovals.size()); }
    const SecuritySettings& security() const { return m_security.settings; }
    /// Runtime settings change (issue 5 §4): new limits apply to the next request. When
    /// `provider` differs from the current one, approvals pending with the old provider are
    /// denied (decidedBy "policy_changed") before it is replaced. `dataDir` is not changed.
    void setSecurity(const SecuritySettings& settings, ConfirmationProvider* provider);
    /// Replaces the workspace root; an unusable root is refused (false, `error` says why) and
    /// the old one kept.
    bool setWorkspaceRoot(const QString& root, QString* error = nullptr);
    /// DESIGN.md 9: when on, request.json keeps the typed text (the trace never does).
    void setKeepTypedText(bool keep) { m_keepTypedText = keep; }
    bool keepTypedText() const { return m_keepTypedText; }

Q_SIGNALS:
    /// The host was stopped (true) or resumed (false), e.g. for the tray.
    void pausedChanged(bool paused);

private:
    /// At most this long is spent looking at a typeText target before its confirmation dialog
    /// opens; a target not seen by then counts as secure.
    static constexpr int kSecureLookMs = 2000;

    struct PendingApproval
    {
        quint64 connectionId = 0;
        ApprovalRequest request;
        Respond respond;
        std::function<void(const ApprovalDecision&)> onApproved;
    };

    void registerMethods();
    void add(MethodSpec spec);
    void handleParsed(const Caller& caller, const std::variant<JsonRpc::Request, JsonRpc::Invalid>& parsed,
                      const Reply& reply);
    /// A side-effect method sent as a notification: not run, audited (`notification_refused`).
    void refuseNotification(const Caller& caller, const JsonRpc::Request& request);
    /// contract 4.2 for one side-effect request, in one place: paused, then token (consumed
    /// here, before queueing), then the phrase fallback. On success `used` is the audit line.
    std::optional<Automation::Error> verifyConfirm(const QString& method, const Caller& caller, const Meta& meta,
                                                   const QJsonObject& params, const ConfirmParams& confirm,
                                                   QJsonObject* used);
    void confirmIssue(const Call& call, const Respond& respond);
    void resume(const Call& call, const Respond& respond);
    void askApproval(ApprovalRequest request, const Caller& caller, const Respond& respond,
                     std::function<void(const ApprovalDecision&)> onApproved);
    void approvalDecided(quint64 id, const ApprovalDecision& decision);
    void withdrawApproval(quint64 id, const QString& why);
    QJsonObject audit(const QString& event, const PeerInfo* peer, QJsonObject fields = {});
    static Automation::Error pausedError();
    QJsonObject envJson(const Caller& caller) const;

    Executor& m_executor;
    WorkspacePolicy m_workspace;
    PermissionMonitor& m_permissions;
    HostFacts m_facts;
    ReplayGuard m_replay;
    std::shared_ptr<Evidence::Journal> m_journal;
    QHash<QString, MethodSpec> m_methods;
    SecurityContext m_security;
    bool m_paused = false;
    bool m_keepTypedText = false;
    QHash<quint64, PendingApproval> m_pendingApprovals;
    quint64 m_nextApprovalId = 1;
};

} // namespace Bridge
