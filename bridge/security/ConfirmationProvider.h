#pragma once

#include "bridge/transport/PeerCredentials.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <optional>

class QTimer;

namespace Bridge {

/// What a person is asked to approve: who asks, what will be done, until when.
struct ApprovalRequest
{
    /// Token: desktop.confirm.issue; Resume: desktop.resume; Action: a side effect under way that
    /// an owner's rule says a person must approve; Policy: a change that loosens the owner's
    /// rules (docs/protocol.md, "Policy").
    enum class Kind { Token, Resume, Action, Policy };

    quint64 id = 0;
    Kind kind = Kind::Token;
    PeerInfo peer; ///< who asks: pid, executable, audit digest
    /// How the request came: "local_socket", or "mcp" for the MCP front door, whose client is
    /// `client` (the door's parent executable: msgcode's node).
    QString via;
    QString client;
    /// The dialog may offer "allow this client for N minutes" (the MCP door's ask policy).
    bool offerGrant = false;
    QString method; ///< the intent's method, or desktop.resume
    QString paramsDigest;
    /// The target as far as the params name it: {app: {bundleId, pid}, window, element}.
    QJsonObject target;
    QStringList keys; ///< hotkey: the chord's key names
    /// typeText: what will be typed, or a mask when it is long or the target looks secret.
    std::optional<QString> textPreview;
    int textLength = 0;
    bool textMasked = false;
    /// Why the text is masked: "long", "secure_role" (the selector names a secure role),
    /// "secret_words" (a title or identifier like "password"), "secure_element" (resolving the
    /// target found a secure element), "unresolved" (the target could not be looked at).
    QString textMaskReason;
    /// The target as a read-only look resolved it before asking (role, title, window, app,
    /// frame, matches); empty when it could not be looked at.
    QJsonObject resolved;
    /// The owner's rule that asks (Kind::Action, and a token's look), and why it matched.
    QString rule;
    QString ruleWhy;
    /// "high" when the action is high-risk, with why ("delete: its title says \"Delete\"").
    QString risk;
    QString riskWhy;
    /// Kind::Action: the app as the host identified it (AppIdentity::toJson) and the action's
    /// class, for the dialog's "allow in this app" choices.
    QJsonObject app;
    QString actionClass;
    /// Kind::Policy: what the change is, in words, and in its JSON form.
    QString change;
    QJsonObject changeJson;
    int timeoutMs = 0;   ///< no answer within this long counts as denied
    QDateTime expiresAt; ///< when the request times out (UTC)

    /// Texts longer than this are masked in the preview.
    static constexpr int kMaxPreviewChars = 40;

    /// Fills method, digest, target, keys and the text preview from an intent.
    static ApprovalRequest forIntent(const QString& method, const QJsonObject& params, const QString& paramsDigest);
    /// Why a target, as the params name it, looks secret: "secure_role" when the selector
    /// names a secure role (Automation::isSecureRole), "secret_words" when a title, identifier
    /// or fingerprint says password, token, PIN...; empty when nothing in the params says so.
    static QString secretReason(const QJsonObject& target);
    /// Hides the text preview (idempotent; the first reason is kept).
    void maskText(const QString& reason);
    QString kindName() const
    {
        return kind == Kind::Token    ? QStringLiteral("token")
               : kind == Kind::Resume ? QStringLiteral("resume")
               : kind == Kind::Policy ? QStringLiteral("policy")
                                      : QStringLiteral("action");
    }
    /// For the GUI and logs; holds the preview only, never more of the text.
    QJsonObject toJson() const;
};

/// A decision on an ApprovalRequest.
struct ApprovalDecision
{
    bool approved = false;
    /// "user" (a person answered), "auto" (policy), "policy" (deny policy), "no_approver"
    /// (ask with no GUI attached), "timeout" (no answer in time).
    QString decidedBy;
    QString approver; ///< who approved or denied, e.g. "user", "auto"
    /// The person also allowed this client for so many minutes (MCP door, ask policy); 0: not.
    /// With scope "minutes": the action's class in its app for so many minutes.
    int grantMinutes = 0;
    /// Kind::Action: what the person allowed: "once" (default), "minutes" (this class of
    /// action in this app for grantMinutes) or "always" (a rule allowing it in this app).
    QString scope;

    static ApprovalDecision approve(const QString& decidedBy, const QString& approver = {})
    {
        return {true, decidedBy, approver.isEmpty() ? decidedBy : approver};
    }
    static ApprovalDecision deny(const QString& decidedBy, const QString& approver = {})
    {
        return {false, decidedBy, approver};
    }
};

/// Decides approval requests (docs/architecture.md, "Approval"). `request` never blocks and never
/// runs an event loop: `done` is called exactly once on the owner thread, possibly before request()
/// returns, unless the request is cancelled first.
class ConfirmationProvider
{
public:
    using Done = std::function<void(const ApprovalDecision&)>;

    virtual ~ConfirmationProvider() = default;
    virtual QString policyName() const = 0;
    virtual void request(const ApprovalRequest& request, Done done) = 0;
    /// Withdraws a pending request (client gone, host stopped); its `done` is not called.
    virtual void cancel(quint64 id) { Q_UNUSED(id) }
    /// Whether its requests reach a person in the host's dialog (an owner's ask needs one).
    virtual bool reachesPerson() const { return false; }
};

/// `auto`: approves everything at once. For headless servers and tests only.
class AutoConfirmationProvider final : public ConfirmationProvider
{
public:
    QString policyName() const override { return QStringLiteral("auto"); }
    void request(const ApprovalRequest& request, Done done) override;
};

/// `deny`: approves nothing.
class DenyConfirmationProvider final : public ConfirmationProvider
{
public:
    QString policyName() const override { return QStringLiteral("deny"); }
    void request(const ApprovalRequest& request, Done done) override;
};

/// The GUI side of `ask`: shows a request (a dialog opened with open(), never exec()) and
/// answers through AskConfirmationProvider::answer().
class Approver
{
public:
    virtual ~Approver() = default;
    virtual void ask(const ApprovalRequest& request) = 0;
    /// The request was decided without the person (timeout) or withdrawn: close its dialog.
    virtual void withdraw(quint64 id) = 0;
};

/// `ask`: delegates to an attached Approver; denies at once when none is attached, and when
/// the approver does not answer within the request's timeout.
class AskConfirmationProvider final : public QObject, public ConfirmationProvider
{
    Q_OBJECT

public:
    explicit AskConfirmationProvider(QObject* parent = nullptr);
    ~AskConfirmationProvider() override;

    QString policyName() const override { return QStringLiteral("ask"); }
    void request(const ApprovalRequest& request, Done done) override;
    void cancel(quint64 id) override;

    /// Attaches the GUI (not owned). Detaching denies whatever is pending.
    void attach(Approver* approver);
    void detach();
    bool hasApprover() const { return m_approver != nullptr; }
    bool reachesPerson() const override { return hasApprover(); }
    /// The person's answer; ignored for a request that is unknown or already decided.
    /// `grantMinutes`: the person also allowed the request's client that long (offerGrant).
    /// `scope`: an action's "once", "minutes" or "always" (ApprovalDecision::scope).
    void answer(quint64 id, bool approved, const QString& approver = QStringLiteral("user"), int grantMinutes = 0,
                const QString& scope = {});
    int pendingCount() const { return static_cast<int>(m_pending.size()); }

private:
    struct Pending
    {
        Done done;
        QTimer* timer = nullptr;
    };
    void finish(quint64 id, const ApprovalDecision& decision, bool withdraw);

    Approver* m_approver = nullptr;
    QHash<quint64, Pending> m_pending;
};

} // namespace Bridge
