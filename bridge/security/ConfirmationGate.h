#pragma once

#include "bridge/Executor.h"
#include "bridge/Params.h"
#include "bridge/protocol/Meta.h"
#include "bridge/security/AuditLog.h"
#include "bridge/security/ConfirmTokens.h"
#include "bridge/security/ConfirmationProvider.h"
#include "bridge/security/OwnerPolicy.h"
#include "bridge/security/SecuritySettings.h"
#include "bridge/transport/Caller.h"

#include <QHash>
#include <QObject>

#include <functional>

namespace Bridge {

/// What the gate needs to confirm side effects; owned by the Host.
struct SecurityContext
{
    SecuritySettings settings;
    ConfirmTokens* tokens = nullptr;
    /// The host's confirmation policy (--confirm-policy): every kind of caller without one of
    /// its own uses it.
    ConfirmationProvider* provider = nullptr;
    AuditLog* audit = nullptr;
};

/// Decides whether a side effect may happen: the emergency stop (pause, stop, resume),
/// confirmation tokens (issued after a person's approval, consumed once, bound to the caller
/// and the exact params), the phrase fallback, the GUI's own approval, pending approvals, and
/// the audit log of every decision (docs/architecture.md, "Confirmation").
class ConfirmationGate final : public QObject
{
    Q_OBJECT

public:
    using Respond = std::function<void(const Automation::Result<QJsonObject>&)>;
    /// Whether `params` parse as the intent method's typed params; null when the method has no
    /// side effect (no token is issued for it).
    using IntentCheck = std::function<std::optional<Automation::Error>(const QJsonObject& params)>;

    ConfirmationGate(Executor& executor, SecurityContext security, QObject* parent = nullptr);
    ~ConfirmationGate() override;

    /// The confirmation of one side-effect request, in one place: paused, then the caller's
    /// kind (the GUI's click is the person's approval), then the token (consumed here, before
    /// queueing), then the phrase fallback. nullopt when it may go on; `used` is then the audit
    /// line, also kept in the execution's evidence.
    /// What admit learnt that the owner's rules need on the worker.
    struct Admitted
    {
        /// The token's binding (ConfirmTokens::Token::binding), when a token was used.
        QJsonObject binding;
        bool byToken = false;
        /// A person approved this very action: the GUI's own click, or a token a person approved.
        bool byPerson = false;
    };
    std::optional<Automation::Error> admit(const QString& method, const Caller& caller, const Meta& meta,
                                           const QJsonObject& params, const ConfirmParams& confirm, QJsonObject* used,
                                           Admitted* admitted = nullptr);
    /// A side-effect method sent as a notification: not run, audited (`notification_refused`).
    void refuseNotification(const Caller& caller, const QString& method, const QJsonObject& params);

    /// desktop.confirm.issue: asks the caller's provider, answers with a token when approved.
    /// Typed text is previewed only when nothing says its target is secure (a read-only look
    /// through the executor decides, within kSecureLookMs).
    void issue(const Caller& caller, const Meta& meta, const QJsonObject& params, const IntentCheck& intentCheck,
               const Respond& respond);
    /// desktop.resume from a client: needs a person's yes through the provider.
    void resume(const Caller& caller, const Meta& meta, const Respond& respond);
    /// The emergency stop: aborts the running and every queued execution (each answers
    /// DESKTOP_ABORTED), withdraws pending approvals and pauses side effects until resumed.
    /// `who` is the caller (nullptr for the GUI); `via` "client" or "gui". Returns the result.
    QJsonObject stop(const PeerInfo* who, const QString& via);
    /// The GUI's resume (a person pressed it): no further approval is asked. False when not paused.
    bool resumeFromGui(const QString& approver);
    bool isPaused() const { return m_paused; }
    /// A connection went away: its pending approval requests are withdrawn.
    void connectionClosed(quint64 connectionId);
    int pendingApprovals() const { return static_cast<int>(m_pending.size()); }

    const SecuritySettings& settings() const { return m_security.settings; }
    /// The provider the caller's kind uses.
    ConfirmationProvider* providerFor(const Caller& caller) const;
    /// Gives one kind of caller a policy of its own (nullptr: back to the host's).
    void setProviderFor(Transport transport, ConfirmationProvider* provider);
    /// Runtime settings change: new limits apply to the next request. When `provider` differs
    /// from the current one, approvals pending with the old provider are denied (decidedBy
    /// "policy_changed") before it is replaced. `dataDir` is not changed.
    void setSecurity(const SecuritySettings& settings, ConfirmationProvider* provider);

    /// The owner's rules (docs/protocol.md, "Policy"); a copy goes with every side effect.
    const OwnerPolicy& ownerPolicy() const { return m_owner; }
    void setOwnerPolicy(OwnerPolicy policy);
    /// Whether an owner's ask can reach a person now: the host's dialog is there (not headless,
    /// not the auto or deny policy) and the unattended mode is off.
    bool ownerAskReachesPerson() const;
    /// Asks a person in the host's dialog to approve a side effect an owner's rule asks about,
    /// through the host's own provider (never a client's grant); `done` is called once on this
    /// thread. Returns the approval's id, for withdrawOwnerAsk.
    quint64 askOwner(ApprovalRequest request, const Caller& caller, std::function<void(const ApprovalDecision&)> done);
    /// The side effect waiting for it ended (aborted, timed out): its dialog is withdrawn.
    void withdrawOwnerAsk(quint64 id);
    /// Asks a person in the host's dialog, through the host's own provider (an owner's ask, a
    /// change that loosens the owner's rules); `done` is called once on this thread.
    quint64 askHostPerson(ApprovalRequest request, const Caller& caller,
                          std::function<void(const ApprovalDecision&)> done);

    /// Writes an audit line (see AuditLog::record) and returns it.
    QJsonObject audit(const QString& event, const PeerInfo* peer, QJsonObject fields = {});

    /// The answer to a side effect while paused.
    static Automation::Error pausedError();

Q_SIGNALS:
    /// The host was stopped (true) or resumed (false), e.g. for the tray.
    void pausedChanged(bool paused);
    /// A person approved an owner's ask (before the action goes on): its scope may make a grant
    /// or a rule of it (OwnerRules).
    void ownerAskAnswered(const Bridge::ApprovalRequest& request, const Bridge::ApprovalDecision& decision);

private:
    /// At most this long is spent looking at a typeText target before its confirmation dialog
    /// opens; a target not seen by then counts as secure.
    static constexpr int kSecureLookMs = 2000;

    struct PendingApproval
    {
        quint64 connectionId = 0;
        ConfirmationProvider* provider = nullptr;
        ApprovalRequest request;
        Respond respond;
        std::function<void(const ApprovalDecision&)> onApproved;
    };

    /// Asks `provider` (none: the caller's) and answers through `respond` or `onApproved`.
    quint64 askApproval(ApprovalRequest request, const Caller& caller, const Respond& respond,
                        std::function<void(const ApprovalDecision&)> onApproved,
                        ConfirmationProvider* provider = nullptr);
    void approvalDecided(quint64 id, const ApprovalDecision& decision);
    void withdrawApproval(quint64 id, const QString& why);

    Executor& m_executor;
    SecurityContext m_security;
    QHash<int, ConfirmationProvider*> m_providers; ///< by Transport, overriding the host's
    bool m_paused = false;
    OwnerPolicy m_owner;
    QHash<quint64, PendingApproval> m_pending;
    quint64 m_nextApprovalId = 1;
};

} // namespace Bridge
