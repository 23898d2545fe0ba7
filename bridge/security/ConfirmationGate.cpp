#include "bridge/security/ConfirmationGate.h"

#include "bridge/contract/Declaration.h"

#include "automation/Operations.h"
#include "bridge/Methods.h"
#include "bridge/protocol/CanonicalJson.h"

#include <QJsonArray>
#include <QLoggingCategory>
#include <QPointer>

namespace Bridge {

Q_LOGGING_CATEGORY(lcGate, "msgcode.bridge.dispatcher")

using Automation::Error;
using Automation::ErrorCode;
using Automation::Result;

ConfirmationGate::ConfirmationGate(Executor& executor, SecurityContext security, QObject* parent)
    : QObject(parent), m_executor(executor), m_security(std::move(security))
{
    Q_ASSERT(m_security.tokens && m_security.provider && m_security.audit);
}

ConfirmationGate::~ConfirmationGate()
{
    // Pending approvals are withdrawn so that no provider calls back into a dead gate.
    for (auto it = m_pending.cbegin(); it != m_pending.cend(); ++it)
        it->provider->cancel(it.key());
}

ConfirmationProvider* ConfirmationGate::providerFor(const Caller& caller) const
{
    return m_providers.value(static_cast<int>(caller.transport), m_security.provider);
}

void ConfirmationGate::setProviderFor(Transport transport, ConfirmationProvider* provider)
{
    if (provider)
        m_providers.insert(static_cast<int>(transport), provider);
    else
        m_providers.remove(static_cast<int>(transport));
}

void ConfirmationGate::refuseNotification(const Caller& caller, const QString& method, const QJsonObject& params)
{
    QJsonObject line{{QStringLiteral("method"), method},
                     {QStringLiteral("reason"), QStringLiteral("notification")},
                     {QStringLiteral("paramsDigest"), CanonicalJson::paramsDigest(params)}};
    // Only a well-formed requestId goes into the log, never whatever text the client sent.
    if (const auto meta = parseMeta(params, false))
        line.insert(QStringLiteral("requestId"), meta->requestId);
    audit(QStringLiteral("notification_refused"), caller.auditPeer(), line);
    qCWarning(lcGate).noquote() << "refused" << method << "sent as a notification (no id) by pid" << caller.peer.pid
                                << ": a side effect needs an id to report its outcome";
}

QJsonObject ConfirmationGate::audit(const QString& event, const PeerInfo* peer, QJsonObject fields)
{
    return m_security.audit->record(event, peer, std::move(fields));
}

Error ConfirmationGate::pausedError()
{
    return Error::make(ErrorCode::ConfirmRequired,
                       QStringLiteral("the host was stopped (desktop.stop): side effects are paused until a person "
                                      "resumes it (msgcode-desktopctl resume, or the tray)"),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("paused")}})
        .withRetryable(false);
}

std::optional<Error> ConfirmationGate::admit(const QString& method, const Caller& caller, const Meta& meta,
                                             const QJsonObject& params, const ConfirmParams& confirm, QJsonObject* used,
                                             Admitted* admitted)
{
    const bool byToken = confirm.token.has_value();
    QString paramsDigest = CanonicalJson::paramsDigest(params);
    QJsonObject common{{QStringLiteral("method"), method},
                       {QStringLiteral("paramsDigest"), paramsDigest},
                       {QStringLiteral("requestId"), meta.requestId}};
    if (byToken)
        common.insert(QStringLiteral("tokenId"), ConfirmTokens::tokenId(*confirm.token));
    const auto refuse = [&](const QString& reason, const QString& message, QJsonObject details = {}) {
        QJsonObject line = common;
        line.insert(QStringLiteral("reason"), reason);
        audit(byToken ? QStringLiteral("token_refused")
                      : (caller.isGui() ? QStringLiteral("gui_refused") : QStringLiteral("phrase_refused")),
              caller.auditPeer(), line);
        qCInfo(lcGate) << "confirmation refused:" << method << meta.requestId << reason;
        details.insert(QStringLiteral("reason"), reason);
        return Error::make(ErrorCode::ConfirmRequired, message, details).withRetryable(false);
    };

    // A stopped host (desktop.stop) takes no side effect, whatever the confirmation; a token is
    // not spent on it.
    if (m_paused)
        return refuse(QStringLiteral("paused"), pausedError().message);

    // An action a person starts with a click in the host's own window is that person's
    // approval: no dialog, no token; the audit line says so.
    if (caller.isGui()) {
        if (admitted)
            admitted->byPerson = true;
        *used = audit(QStringLiteral("gui_approved"), nullptr,
                      QJsonObject{{QStringLiteral("method"), method},
                                  {QStringLiteral("paramsDigest"), paramsDigest},
                                  {QStringLiteral("via"), QStringLiteral("gui")},
                                  {QStringLiteral("executionId"), meta.requestId}});
        return std::nullopt;
    }

    // docs/protocol.md §4.2: token beats phrase.
    if (byToken) {
        const auto verdict =
            m_security.tokens->consume(*confirm.token, ConfirmTokens::Scope{method, paramsDigest},
                                       ConfirmTokens::Peer{caller.peer.pid, caller.peer.auditTokenDigest});
        if (verdict.refusal) {
            const QString reason = ConfirmTokens::refusalName(*verdict.refusal);
            switch (*verdict.refusal) {
            case ConfirmTokens::Refusal::UnknownToken:
                return refuse(reason, QStringLiteral("confirm.token is not known to this host"));
            case ConfirmTokens::Refusal::PeerMismatch:
                return refuse(reason, QStringLiteral("confirm.token was issued to another process; a token is bound "
                                                     "to the process that asked for it"));
            case ConfirmTokens::Refusal::MethodMismatch:
                return refuse(
                    reason,
                    QStringLiteral("confirm.token was issued for %1, not %2").arg(verdict.token->scope.method, method),
                    QJsonObject{{QStringLiteral("tokenMethod"), verdict.token->scope.method},
                                {QStringLiteral("method"), method}});
            case ConfirmTokens::Refusal::ParamsMismatch:
                return refuse(reason,
                              QStringLiteral("confirm.token was issued for other params (paramsDigest %1, this "
                                             "request's %2)")
                                  .arg(verdict.token->scope.paramsDigest, paramsDigest),
                              QJsonObject{{QStringLiteral("tokenParamsDigest"), verdict.token->scope.paramsDigest},
                                          {QStringLiteral("paramsDigest"), paramsDigest}});
            case ConfirmTokens::Refusal::Expired: {
                const QString expiresAt =
                    QDateTime::fromMSecsSinceEpoch(verdict.token->expiresAtMs, Qt::UTC).toString(Qt::ISODateWithMs);
                return refuse(reason, QStringLiteral("confirm.token expired at %1").arg(expiresAt),
                              QJsonObject{{QStringLiteral("expiresAt"), expiresAt}});
            }
            case ConfirmTokens::Refusal::Used:
                return refuse(reason, QStringLiteral("confirm.token was already used; every token is good for one "
                                                     "request"));
            }
        }
        if (admitted) {
            admitted->byToken = true;
            admitted->binding = verdict.token->binding;
            admitted->byPerson = verdict.token->byPerson;
        }
        *used = audit(QStringLiteral("token_used"), caller.auditPeer(),
                      QJsonObject{{QStringLiteral("method"), method},
                                  {QStringLiteral("paramsDigest"), paramsDigest},
                                  {QStringLiteral("tokenId"), common.value(QStringLiteral("tokenId"))},
                                  {QStringLiteral("executionId"), meta.requestId}});
        return std::nullopt;
    }

    if (!confirm.phrase) {
        return refuse(QStringLiteral("missing"),
                      m_security.settings.requireToken
                          ? QStringLiteral("this method has a side effect and needs confirm.token "
                                           "(desktop.confirm.issue)")
                          : QStringLiteral("this method has a side effect and needs confirm.token or confirm.phrase"));
    }
    if (m_security.settings.requireToken) {
        return refuse(QStringLiteral("phrase_disabled"),
                      QStringLiteral("this host requires a confirm.token (desktop.confirm.issue); confirm.phrase is "
                                     "not accepted"));
    }
    // docs/protocol.md §4.2: "CONFIRM" or "CONFIRM:<requestId>"; the keyword is exact, the UUID
    // compares case-insensitively (an upper-case requestId may be echoed in either case).
    const QLatin1String prefix("CONFIRM:");
    const bool phraseMatches =
        *confirm.phrase == QLatin1String("CONFIRM") ||
        (confirm.phrase->startsWith(prefix) && sameRequestId(confirm.phrase->mid(prefix.size()), meta.requestId));
    if (!phraseMatches)
        return refuse(QStringLiteral("phrase_mismatch"),
                      QStringLiteral("confirm.phrase must be \"CONFIRM\" or \"CONFIRM:<meta.requestId>\""));
    *used = audit(QStringLiteral("phrase_used"), caller.auditPeer(),
                  QJsonObject{{QStringLiteral("method"), method},
                              {QStringLiteral("paramsDigest"), paramsDigest},
                              {QStringLiteral("executionId"), meta.requestId}});
    return std::nullopt;
}

void ConfirmationGate::issue(const Caller& caller, const Meta& meta, const QJsonObject& callParams,
                             const IntentCheck& intentCheck, const Respond& respond)
{
    const QJsonValue intentValue = callParams.value(QStringLiteral("intent"));
    const QJsonObject intent = intentValue.toObject();
    const QString method = intent.value(QStringLiteral("method")).toString();
    if (m_paused) {
        // Stopped (desktop.stop): no token is issued until resumed.
        audit(QStringLiteral("issue_refused"), caller.auditPeer(),
              QJsonObject{{QStringLiteral("method"), method},
                          {QStringLiteral("reason"), QStringLiteral("paused")},
                          {QStringLiteral("requestId"), meta.requestId}});
        return respond(pausedError());
    }
    if (!intentValue.isObject())
        return respond(Error::invalidParam(QStringLiteral("intent"), QStringLiteral("intent is required")));
    if (!intentCheck)
        return respond(
            Error::invalidParam(QStringLiteral("intent.method"),
                                QStringLiteral("intent.method must name a side-effect method (%1)")
                                    .arg(Contract::methodsOf(Contract::Kind::SideEffect).join(QStringLiteral(", ")))));
    if (!intent.value(QStringLiteral("params")).isObject())
        return respond(
            Error::invalidParam(QStringLiteral("intent.params"), QStringLiteral("intent.params must be an object")));

    const qint64 maxTtl = m_security.settings.maxTokenTtlMs;
    qint64 ttlMs = std::min(SecuritySettings::kDefaultTokenTtlMs, maxTtl);
    const QJsonValue ttl = callParams.value(QStringLiteral("ttlMs"));
    if (!ttl.isUndefined() && !ttl.isNull()) {
        const double value = ttl.toDouble(-1);
        if (!ttl.isDouble() || value != std::trunc(value) || value < 1 || value > static_cast<double>(maxTtl))
            return respond(Error::invalidParam(QStringLiteral("ttlMs"),
                                               QStringLiteral("ttlMs must be an integer from 1 to %1").arg(maxTtl)));
        ttlMs = static_cast<qint64>(value);
    }

    // A token is never issued for a request that could not run: the intent must parse as the
    // method's typed params (meta and confirm aside).
    const QJsonObject params = CanonicalJson::digestedParams(intent.value(QStringLiteral("params")).toObject());
    if (auto refused = intentCheck(params)) {
        Error error = *refused;
        const QString field = error.details.value(QStringLiteral("field")).toString();
        if (!field.isEmpty()) {
            error.details.insert(QStringLiteral("field"), QString(QStringLiteral("intent.params.") + field));
            error.message = QStringLiteral("intent.params: ") + error.message;
        }
        return respond(error);
    }
    const QString paramsDigest = CanonicalJson::paramsDigest(params);

    ApprovalRequest request = ApprovalRequest::forIntent(method, params, paramsDigest);
    request.timeoutMs = meta.timeoutMs;
    const PeerInfo peer = caller.peer;
    const QString requestId = meta.requestId;
    // What the token is bound to: the target resolved now (filled in by the look below).
    auto binding = std::make_shared<QJsonObject>();
    auto onApproved = [this, respond, method, paramsDigest, peer, ttlMs, requestId,
                       binding](const ApprovalDecision& decision) {
        if (m_paused)
            return respond(pausedError());
        // Only a person's yes in the host's dialog answers an owner's ask later.
        const bool byPerson = decision.decidedBy == QLatin1String("user");
        const auto token =
            m_security.tokens->issue(ConfirmTokens::Scope{method, paramsDigest},
                                     ConfirmTokens::Peer{peer.pid, peer.auditTokenDigest}, ttlMs, *binding, byPerson);
        if (!token)
            return respond(Error::make(ErrorCode::HostNotReady,
                                       QStringLiteral("too many confirmation tokens are outstanding; use "
                                                      "or let some expire first"),
                                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("too_many_tokens")}}));
        const QString expiresAt =
            QDateTime::fromMSecsSinceEpoch(token->expiresAtMs, Qt::UTC).toString(Qt::ISODateWithMs);
        QJsonObject line{{QStringLiteral("method"), method},
                         {QStringLiteral("paramsDigest"), paramsDigest},
                         {QStringLiteral("tokenId"), ConfirmTokens::tokenId(token->token)},
                         {QStringLiteral("expiresAt"), expiresAt},
                         {QStringLiteral("ttlMs"), ttlMs},
                         {QStringLiteral("requestId"), requestId}};
        if (!binding->isEmpty())
            line.insert(QStringLiteral("binding"), *binding);
        audit(QStringLiteral("token_issued"), &peer, line);
        // The result of docs/protocol.md §5.10, exactly (what it is bound to is in the audit line).
        const QJsonObject result{
            {QStringLiteral("token"), token->token},
            {QStringLiteral("expiresAt"), expiresAt},
            {QStringLiteral("scope"),
             QJsonObject{{QStringLiteral("method"), method}, {QStringLiteral("paramsDigest"), paramsDigest}}},
            {QStringLiteral("peer"), QJsonObject{{QStringLiteral("auditTokenDigest"), peer.auditTokenDigest},
                                                 {QStringLiteral("pid"), peer.pid}}}};
        respond(result);
    };
    // Typed text is previewed only when nothing says the target is secure: the params (a secure
    // role, a password-like title) or, failing that, a read-only look at the element it would
    // go to. A target that cannot be looked at in time counts as secure (docs/architecture.md,
    // "Secure elements"). The same look shows the person what the action lands on, binds the
    // token to it, and asks the owner's rules about it.
    const bool textToCheck = request.textPreview && !request.textMasked;
    if (const auto look = Methods::policyRequest(method, params)) {
        const int lookMs = std::clamp(meta.timeoutMs / 4, 100, kSecureLookMs);
        const QString actionClass = Contract::find(method)
                                        ? Contract::actionClassName(Contract::find(method)->actionClass)
                                        : QStringLiteral("read");
        QPointer<ConfirmationGate> self(this);
        m_executor.inspect<Automation::Operations::PolicyLook>(
            lookMs,
            [target = *look](JobContext& context) { return Automation::Operations::policyLook(context, target); },
            [self, request, caller, respond, onApproved, textToCheck, binding, actionClass,
             method](const Result<Automation::Operations::PolicyLook>& looked) mutable {
                if (!self)
                    return;
                // Stopped while looking: nothing is asked any more.
                if (self->m_paused)
                    return respond(pausedError());
                if (textToCheck && (!looked || !looked->element))
                    request.maskText(QStringLiteral("unresolved"));
                else if (textToCheck && looked->secure)
                    request.maskText(QStringLiteral("secure_element"));
                if (looked) {
                    request.resolved =
                        QJsonObject{{QStringLiteral("role"), looked->element ? looked->element->role : QString()},
                                    {QStringLiteral("title"), looked->element ? looked->element->title : QString()},
                                    {QStringLiteral("window"), looked->route.windowTitle},
                                    {QStringLiteral("app"), looked->route.appName},
                                    {QStringLiteral("matches"), looked->matches}};
                    if (looked->element && !looked->element->frame.isEmpty())
                        request.resolved.insert(QStringLiteral("frame"), looked->element->frame.toJson());
                    *binding = looked->binding();
                    // The owner's rules, asked now too: a denied action gets no token, and the
                    // person sees the rule and the risk that make them the one to decide.
                    OwnerPolicy::Subject subject{looked->app, looked->route.windowTitle, actionClass,
                                                 looked->risk.high(), looked->terminal};
                    const OwnerPolicy::Verdict verdict = self->m_owner.decide(subject);
                    if (verdict.decision == OwnerPolicy::Decision::Deny) {
                        self->audit(QStringLiteral("issue_refused"), caller.auditPeer(),
                                    QJsonObject{{QStringLiteral("method"), method},
                                                {QStringLiteral("reason"), QStringLiteral("policy_denied")},
                                                {QStringLiteral("rule"), verdict.rule}});
                        return respond(
                            Error::make(ErrorCode::CallerForbidden,
                                        QStringLiteral("the owner's rule %1 does not allow %2 actions in %3")
                                            .arg(verdict.rule, actionClass, looked->app.name),
                                        QJsonObject{{QStringLiteral("reason"), QStringLiteral("policy_denied")},
                                                    {QStringLiteral("rule"), verdict.rule},
                                                    {QStringLiteral("why"), verdict.why}})
                                .withRetryable(false));
                    }
                    if (verdict.decision == OwnerPolicy::Decision::Ask) {
                        request.rule = verdict.rule;
                        request.ruleWhy = verdict.why;
                    }
                    if (looked->risk.high()) {
                        request.risk = QStringLiteral("high");
                        request.riskWhy = looked->riskWhy();
                    }
                } else {
                    // Not resolved now: the token binds nothing it could check, and says so.
                    *binding = QJsonObject{{QStringLiteral("bound"), QStringLiteral("none")}};
                }
                self->askApproval(request, caller, respond, std::move(onApproved));
            });
        return;
    }
    if (textToCheck)
        request.maskText(QStringLiteral("unresolved"));
    askApproval(request, caller, respond, std::move(onApproved));
}

void ConfirmationGate::setOwnerPolicy(OwnerPolicy policy)
{
    m_owner = std::move(policy);
}

bool ConfirmationGate::ownerAskReachesPerson() const
{
    return !m_owner.unattended() && m_security.provider->reachesPerson();
}

quint64 ConfirmationGate::askOwner(ApprovalRequest request, const Caller& caller,
                                   std::function<void(const ApprovalDecision&)> done)
{
    request.kind = ApprovalRequest::Kind::Action;
    // The person's "for N minutes" or "always" becomes a grant or a rule (OwnerRules).
    auto answered = [this, request, done = std::move(done)](const ApprovalDecision& decision) {
        if (decision.approved)
            Q_EMIT ownerAskAnswered(request, decision);
        done(decision);
    };
    return askHostPerson(std::move(request), caller, std::move(answered));
}

quint64 ConfirmationGate::askHostPerson(ApprovalRequest request, const Caller& caller,
                                        std::function<void(const ApprovalDecision&)> done)
{
    // The answer reaches `done` either way: a refusal through respond, a yes through onApproved.
    auto respond = [done](const Result<QJsonObject>& answer) {
        if (!answer)
            done(ApprovalDecision::deny(
                answer.error().details.value(QStringLiteral("decision")).toString(QStringLiteral("withdrawn"))));
    };
    // The host's own provider: a client's grant never answers the owner's ask.
    return askApproval(std::move(request), caller, respond, std::move(done), m_security.provider);
}

void ConfirmationGate::withdrawOwnerAsk(quint64 id)
{
    const auto it = m_pending.constFind(id);
    if (it == m_pending.cend())
        return;
    const Respond respond = it->respond;
    withdrawApproval(id, QStringLiteral("ended"));
    respond(Error::make(ErrorCode::ConfirmRequired, QStringLiteral("withdrawn"),
                        QJsonObject{{QStringLiteral("decision"), QStringLiteral("withdrawn")}}));
}

void ConfirmationGate::resume(const Caller& caller, const Meta& meta, const Respond& respond)
{
    if (!m_paused)
        return respond(QJsonObject{{QStringLiteral("resumed"), false}, {QStringLiteral("paused"), false}});
    ApprovalRequest request;
    request.kind = ApprovalRequest::Kind::Resume;
    request.method = QStringLiteral("desktop.resume");
    request.timeoutMs = meta.timeoutMs;
    const PeerInfo peer = caller.peer;
    askApproval(request, caller, respond, [this, respond, peer](const ApprovalDecision& decision) {
        if (m_paused) {
            m_paused = false;
            audit(QStringLiteral("resume"), &peer,
                  QJsonObject{{QStringLiteral("via"), QStringLiteral("provider")},
                              {QStringLiteral("decidedBy"), decision.decidedBy},
                              {QStringLiteral("approver"), decision.approver}});
            qCWarning(lcGate).noquote() << "resumed: side effects are allowed again, approved by" << decision.approver;
            Q_EMIT pausedChanged(false);
        }
        respond(QJsonObject{{QStringLiteral("resumed"), true}, {QStringLiteral("paused"), false}});
    });
}

quint64 ConfirmationGate::askApproval(ApprovalRequest request, const Caller& caller, const Respond& respond,
                                      std::function<void(const ApprovalDecision&)> onApproved,
                                      ConfirmationProvider* provider)
{
    request.id = m_nextApprovalId++;
    request.peer = caller.peer;
    request.via = caller.transportName();
    if (caller.transport == Transport::McpDoor)
        request.client = caller.peer.parentExecutable;
    else if (caller.transport == Transport::Remote)
        request.client = caller.remoteServer;
    // The approval is bounded by the approval timeout and by the request's own meta.timeoutMs.
    request.timeoutMs = std::max(1, std::min(m_security.settings.approvalTimeoutMs,
                                             request.timeoutMs > 0 ? request.timeoutMs : Meta::kMaxTimeoutMs));
    request.expiresAt = QDateTime::currentDateTimeUtc().addMSecs(request.timeoutMs);
    const quint64 id = request.id;
    if (!provider)
        provider = providerFor(caller);
    m_pending.insert(id, PendingApproval{caller.connectionId, provider, request, respond, std::move(onApproved)});
    QPointer<ConfirmationGate> self(this);
    provider->request(request, [self, id](const ApprovalDecision& decision) {
        if (self)
            self->approvalDecided(id, decision);
    });
    return id;
}

void ConfirmationGate::approvalDecided(quint64 id, const ApprovalDecision& decision)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    const PendingApproval pending = std::move(*it);
    m_pending.erase(it);
    QJsonObject line{
        {QStringLiteral("kind"), pending.request.kindName()},
        {QStringLiteral("approvalId"), static_cast<qint64>(id)},
        {QStringLiteral("method"), pending.request.method},
        {QStringLiteral("decision"), decision.approved ? QStringLiteral("approved") : QStringLiteral("denied")},
        {QStringLiteral("decidedBy"), decision.decidedBy},
        {QStringLiteral("approver"), decision.approver}};
    if (!pending.request.paramsDigest.isEmpty())
        line.insert(QStringLiteral("paramsDigest"), pending.request.paramsDigest);
    if (pending.request.textMasked)
        line.insert(QStringLiteral("textMasked"), pending.request.textMaskReason);
    if (!decision.approved)
        line.insert(QStringLiteral("reason"), QStringLiteral("denied"));
    audit(QStringLiteral("approval"), &pending.request.peer, line);
    if (!decision.approved) {
        return pending.respond(
            Error::make(ErrorCode::ConfirmRequired,
                        pending.request.kind == ApprovalRequest::Kind::Resume
                            ? QStringLiteral("resuming was not approved (%1)").arg(decision.decidedBy)
                            : QStringLiteral("the confirmation was not approved (%1)").arg(decision.decidedBy),
                        QJsonObject{{QStringLiteral("reason"), QStringLiteral("denied")},
                                    {QStringLiteral("decision"), decision.decidedBy},
                                    {QStringLiteral("policy"), pending.provider->policyName()}})
                .withRetryable(false));
    }
    pending.onApproved(decision);
}

void ConfirmationGate::setSecurity(const SecuritySettings& settings, ConfirmationProvider* provider)
{
    Q_ASSERT(provider);
    const QString dataDir = m_security.settings.dataDir;
    if (provider != m_security.provider) {
        // The old provider's pending requests cannot be answered any more: deny them, with the
        // old policy named in the answer and the audit line.
        const QList<quint64> pending = m_pending.keys();
        for (const quint64 id : pending) {
            if (m_pending.value(id).provider != m_security.provider)
                continue;
            m_security.provider->cancel(id);
            approvalDecided(id, ApprovalDecision::deny(QStringLiteral("policy_changed"), QStringLiteral("policy")));
        }
        m_security.provider = provider;
    }
    m_security.settings = settings;
    m_security.settings.dataDir = dataDir;
}

void ConfirmationGate::withdrawApproval(quint64 id, const QString& why)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    const PendingApproval pending = std::move(*it);
    m_pending.erase(it);
    pending.provider->cancel(id);
    audit(QStringLiteral("approval"), &pending.request.peer,
          QJsonObject{{QStringLiteral("kind"), pending.request.kindName()},
                      {QStringLiteral("approvalId"), static_cast<qint64>(id)},
                      {QStringLiteral("method"), pending.request.method},
                      {QStringLiteral("decision"), QStringLiteral("withdrawn")},
                      {QStringLiteral("decidedBy"), why},
                      {QStringLiteral("reason"), why}});
    if (why == QLatin1String("paused"))
        pending.respond(pausedError());
}

QJsonObject ConfirmationGate::stop(const PeerInfo* who, const QString& via)
{
    const bool wasPaused = m_paused;
    // Paused first, so nothing new is admitted while the executions are aborted.
    m_paused = true;
    QStringList ids;
    if (m_executor.isBusy())
        ids.append(m_executor.runningExecutionId());
    ids.append(m_executor.queuedExecutionIds());
    const QJsonObject line = audit(QStringLiteral("stop"), who,
                                   QJsonObject{{QStringLiteral("via"), via},
                                               {QStringLiteral("executionIds"), QJsonArray::fromStringList(ids)},
                                               {QStringLiteral("wasPaused"), wasPaused}});
    const int aborted =
        m_executor.abortAll(Executor::AbortAllReason::Stop, [line](const QString&, Evidence::ExecutionRecord& record) {
            record.trace(QStringLiteral("audit"), 0, true, line);
        });
    const QList<quint64> pending = m_pending.keys();
    for (const quint64 id : pending)
        withdrawApproval(id, QStringLiteral("paused"));
    qCWarning(lcGate).noquote() << "stopped by" << (who ? QStringLiteral("pid %1").arg(who->pid) : via) << ":"
                                << aborted << "execution(s) aborted; side effects paused until resumed";
    if (!wasPaused)
        Q_EMIT pausedChanged(true);
    return QJsonObject{{QStringLiteral("stopped"), true},
                       {QStringLiteral("paused"), true},
                       {QStringLiteral("aborted"), aborted},
                       {QStringLiteral("executionIds"), QJsonArray::fromStringList(ids)}};
}

bool ConfirmationGate::resumeFromGui(const QString& approver)
{
    if (!m_paused)
        return false;
    m_paused = false;
    audit(QStringLiteral("resume"), nullptr,
          QJsonObject{{QStringLiteral("via"), QStringLiteral("gui")},
                      {QStringLiteral("decidedBy"), QStringLiteral("user")},
                      {QStringLiteral("approver"), approver}});
    qCWarning(lcGate) << "resumed from the GUI: side effects are allowed again";
    // Clients waiting for a resume approval have what they asked for.
    const QList<quint64> ids = m_pending.keys();
    for (const quint64 id : ids) {
        auto it = m_pending.find(id);
        if (it == m_pending.end() || it->request.kind != ApprovalRequest::Kind::Resume)
            continue;
        const Respond respond = it->respond;
        withdrawApproval(id, QStringLiteral("resumed_from_gui"));
        respond(QJsonObject{{QStringLiteral("resumed"), true}, {QStringLiteral("paused"), false}});
    }
    Q_EMIT pausedChanged(false);
    return true;
}

void ConfirmationGate::connectionClosed(quint64 connectionId)
{
    const QList<quint64> ids = m_pending.keys();
    for (const quint64 id : ids) {
        const auto it = m_pending.constFind(id);
        if (it != m_pending.cend() && it->connectionId == connectionId)
            withdrawApproval(id, QStringLiteral("disconnected"));
    }
}

} // namespace Bridge
