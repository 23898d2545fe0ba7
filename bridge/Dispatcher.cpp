#include "Dispatcher.h"

#include "CanonicalJson.h"
#include "Methods.h"
#include "PermissionMonitor.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QSysInfo>

#include <unistd.h>

namespace Bridge {

Q_LOGGING_CATEGORY(lcDispatcher, "msgcode.bridge.dispatcher")

using Automation::Error;
using Automation::ErrorCode;
using Automation::Result;

namespace {

template <typename P>
Result<std::pair<Methods::MethodJob, ConfirmParams>> prepared(const Result<P>& params, Methods::MethodJob (*make)(P),
                                                       ConfirmParams confirm = {})
{
    if (!params)
        return params.error();
    return std::pair{make(params.value()), confirm};
}

QJsonObject identity(const QJsonObject& params)
{
    return params;
}

QJsonObject permissionJson(const Automation::PermissionStatus& status, const char* purpose)
{
    return QJsonObject{{QStringLiteral("granted"), status.state == Automation::PermissionState::Granted},
                       {QStringLiteral("required"), true},
                       {QStringLiteral("purpose"), QString::fromLatin1(purpose)},
                       {QStringLiteral("state"), Automation::permissionStateName(status.state)},
                       {QStringLiteral("message"), status.message}};
}

QJsonObject check(const QString& name, const QString& status, const QString& message, const QJsonValue& details = {})
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("status"), status},
                       {QStringLiteral("message"), message},
                       {QStringLiteral("details"), details}};
}

QString statusFor(Automation::PermissionState state)
{
    switch (state) {
    case Automation::PermissionState::Granted:
        return QStringLiteral("ok");
    case Automation::PermissionState::Denied:
        return QStringLiteral("error");
    case Automation::PermissionState::Unknown:
        return QStringLiteral("warning");
    }
    return QStringLiteral("warning");
}

} // namespace

Dispatcher::Dispatcher(Executor& executor, WorkspacePolicy workspace, PermissionMonitor& permissions, HostFacts facts,
                       SecurityContext security, QObject* parent)
    : QObject(parent), m_executor(executor), m_workspace(std::move(workspace)), m_permissions(permissions),
      m_facts(std::move(facts)), m_security(std::move(security))
{
    Q_ASSERT(m_security.tokens && m_security.provider && m_security.audit);
    registerMethods();
    m_journal = std::make_shared<Evidence::Journal>(m_security.settings.dataDir);
    if (!m_security.settings.dataDir.isEmpty() &&
        !m_replay.setStore(m_security.settings.dataDir + QStringLiteral("/replay-ids.txt")))
        qCWarning(lcDispatcher) << "cannot keep side-effect request ids in" << m_security.settings.dataDir
                                << ": a restart forgets them";
}

Dispatcher::~Dispatcher()
{
    // Pending approvals are withdrawn so that no provider calls back into a dead dispatcher.
    const QList<quint64> ids = m_pendingApprovals.keys();
    for (const quint64 id : ids)
        m_security.provider->cancel(id);
}

void Dispatcher::add(MethodSpec spec)
{
    if (!spec.redact)
        spec.redact = identity;
    m_methods.insert(spec.name, std::move(spec));
}

void Dispatcher::registerMethods()
{
    // contract 5.1
    add({QStringLiteral("desktop.health"),
         false,
         false,
         false,
         {},
         [this](const Call& call, const Respond& respond) { respond(healthResult(call.caller)); },
         {}});
    // contract 5.2
    add({QStringLiteral("desktop.doctor"),
         false,
         false,
         false,
         {},
         [this](const Call& call, const Respond& respond) {
             respond(doctorResult(call.caller, call.meta.workspacePath));
         },
         {}});
    // contract 5.3 - 5.8
    add({QStringLiteral("desktop.observe"),
         true,
         false,
         true,
         [](const QJsonObject& p) { return prepared(Params::observe(p), &Methods::observe); },
         {},
         {}});
    add({QStringLiteral("desktop.find"),
         true,
         false,
         true,
         [](const QJsonObject& p) { return prepared(Params::find(p), &Methods::find); },
         {},
         {}});
    add({QStringLiteral("desktop.click"),
         true,
         true,
         true,
         [](const QJsonObject& p) {
             auto params = Params::click(p);
             return prepared(params, &Methods::click, params ? params->confirm : ConfirmParams{});
         },
         {},
         {}});
    add({QStringLiteral("desktop.typeText"),
         true,
         true,
         true,
         [](const QJsonObject& p) {
             auto params = Params::typeText(p);
             return prepared(params, &Methods::typeText, params ? params->confirm : ConfirmParams{});
         },
         {},
         // DESIGN.md 9: typed text is kept as length + SHA-256 only, unless the user opted in.
         [this](const QJsonObject& p) {
             if (m_keepTypedText)
                 return p;
             QJsonObject out = p;
             const QJsonValue text = p.value(QStringLiteral("text"));
             if (text.isString()) {
                 const QByteArray utf8 = text.toString().toUtf8();
                 out.insert(QStringLiteral("text"),
                            QJsonObject{{QStringLiteral("redacted"), true},
                                        {QStringLiteral("length"), static_cast<int>(text.toString().size())},
                                        {QStringLiteral("sha256"),
                                         QString::fromLatin1(
                                             QCryptographicHash::hash(utf8, QCryptographicHash::Sha256).toHex())}});
             }
             return out;
         }});
    add({QStringLiteral("desktop.hotkey"),
         true,
         true,
         true,
         [](const QJsonObject& p) {
             auto params = Params::hotkey(p);
             return prepared(params, &Methods::hotkey, params ? params->confirm : ConfirmParams{});
         },
         {},
         {}});
    add({QStringLiteral("desktop.waitUntil"),
         true,
         false,
         true,
         [](const QJsonObject& p) { return prepared(Params::waitUntil(p), &Methods::waitUntil); },
         {},
         {}});
    // contract 5.9: answered at once, never queued behind the job it aborts.
    add({QStringLiteral("desktop.abort"),
         false,
         false,
         false,
         {},
         [this](const Call& call, const Respond& respond) {
             auto params = Params::abort(call.params);
             if (!params)
                 return respond(params.error());
             switch (m_executor.abort(params->executionId)) {
             case Executor::AbortOutcome::Aborted:
                 return respond(QJsonObject{{QStringLiteral("aborted"), true},
                                            {QStringLiteral("executionId"), params->executionId}});
             case Executor::AbortOutcome::Finished:
                 return respond(Error::invalidRequest(
                     QStringLiteral("execution %1 has already finished").arg(params->executionId), -32602,
                     QJsonObject{{QStringLiteral("reason"), QStringLiteral("finished")},
                                 {QStringLiteral("executionId"), params->executionId}}));
             case Executor::AbortOutcome::Unknown:
                 return respond(Error::invalidRequest(
                     QStringLiteral("no execution %1 is running or queued").arg(params->executionId), -32602,
                     QJsonObject{{QStringLiteral("reason"), QStringLiteral("unknown")},
                                 {QStringLiteral("executionId"), params->executionId}}));
             }
         },
         {}});
    // contract 5.10: answered when the confirmation provider decides, without blocking anything.
    add({QStringLiteral("desktop.confirm.issue"),
         false,
         false,
         true,
         {},
         [this](const Call& call, const Respond& respond) { confirmIssue(call, respond); },
         {}});
    // plan 4.4: the emergency stop. Any allowed caller, no confirmation: it only stops.
    add({QStringLiteral("desktop.stop"),
         false,
         false,
         false,
         {},
         [this](const Call& call, const Respond& respond) {
             respond(stop(&call.caller.peer, QStringLiteral("client")));
         },
         {}});
    // plan 4.4: resuming needs a person's yes (or the GUI's resume).
    add({QStringLiteral("desktop.resume"),
         false,
         false,
         false,
         {},
         [this](const Call& call, const Respond& respond) { resume(call, respond); },
         {}});
}

void Dispatcher::dispatch(const Caller& caller, const QJsonValue& message, std::function<void(const QByteArray&)> reply)
{
    if (!message.isArray()) {
        handle(caller, message, [reply](const QJsonObject& response) { reply(JsonRpc::encodeLine(response)); });
        return;
    }
    const QJsonArray batch = message.toArray();
    if (batch.isEmpty()) {
        reply(JsonRpc::encodeLine(JsonRpc::errorResponse(
            QJsonValue(), Error::invalidRequest(QStringLiteral("Invalid request: empty batch"), -32600))));
        return;
    }
    // Answers keep the order of the requests; notifications leave no slot. Whether a member is
    // answered is decided once, by JsonRpc::isAnswered: an invalid member without an id is not a
    // notification and is answered (id null), so the count below and the answers always agree.
    struct Pending
    {
        QList<std::optional<QJsonObject>> answers;
        int outstanding = 0;
        std::function<void(const QByteArray&)> reply;
        void flush()
        {
            QJsonArray out;
            for (const auto& answer : answers) {
                if (answer)
                    out.append(*answer);
            }
            if (!out.isEmpty())
                reply(JsonRpc::encodeLine(out));
        }
    };
    auto pending = std::make_shared<Pending>();
    pending->reply = std::move(reply);
    pending->outstanding = 1; // until every member is handed out
    pending->answers.resize(batch.size());
    for (qsizetype i = 0; i < batch.size(); ++i) {
        const auto parsed = JsonRpc::parseRequest(batch.at(i));
        if (!JsonRpc::isAnswered(parsed)) {
            handleParsed(caller, parsed, [](const QJsonObject&) {});
            continue;
        }
        ++pending->outstanding;
        handleParsed(caller, parsed, [pending, i](const QJsonObject& response) {
            pending->answers[i] = response;
            if (--pending->outstanding == 0)
                pending->flush();
        });
    }
    if (--pending->outstanding == 0)
        pending->flush();
}

void Dispatcher::handle(const Caller& caller, const QJsonValue& value, const Reply& reply)
{
    handleParsed(caller, JsonRpc::parseRequest(value), reply);
}

void Dispatcher::handleParsed(const Caller& caller, const std::variant<JsonRpc::Request, JsonRpc::Invalid>& parsed,
                              const Reply& reply)
{
    if (const auto* invalid = std::get_if<JsonRpc::Invalid>(&parsed)) {
        reply(JsonRpc::errorResponse(invalid->id, invalid->error));
        return;
    }
    const auto& request = std::get<JsonRpc::Request>(parsed);
    const QJsonValue id = request.id;
    const bool notification = request.notification;
    const auto respond = [reply, id, notification](const Result<QJsonObject>& result) {
        if (notification)
            return;
        reply(result.ok() ? JsonRpc::resultResponse(id, result.value()) : JsonRpc::errorResponse(id, result.error()));
    };

    const auto specIt = m_methods.constFind(request.method);
    if (specIt == m_methods.cend()) {
        return respond(Error::invalidRequest(QStringLiteral("Method not found: %1").arg(request.method), -32601,
                                             QJsonObject{{QStringLiteral("method"), request.method}}));
    }
    const MethodSpec& spec = *specIt;

    // A side effect nobody can be told the outcome of is not taken: a notification has no id,
    // so no answer (neither the result nor a refusal) can go back. The audit log says why.
    if (notification && spec.sideEffect)
        return refuseNotification(caller, request);

    auto meta = parseMeta(request.params, spec.workspaceBound);
    if (!meta)
        return respond(meta.error());

    std::optional<QString> workspaceReal;
    if (spec.workspaceBound) {
        auto checked = m_workspace.check(*meta->workspacePath);
        if (!checked)
            return respond(checked.error());
        workspaceReal = checked.value();
    }

    std::optional<std::pair<Methods::MethodJob, ConfirmParams>> job;
    if (spec.queued) {
        auto prepared = spec.prepare(request.params);
        if (!prepared)
            return respond(prepared.error());
        job = prepared.value();
    }

    // Replay protection (DESIGN.md 4) on every well-formed request, read-only ones included.
    // Each caller has its own share of the window; stop, abort, resume and health are never
    // refused for lack of room; side effects are remembered across a restart.
    static const QStringList essential{QStringLiteral("desktop.stop"), QStringLiteral("desktop.abort"),
                                       QStringLiteral("desktop.resume"), QStringLiteral("desktop.health")};
    switch (m_replay.admit(meta->requestId, static_cast<quint64>(std::max<qint64>(0, caller.peer.pid)),
                           essential.contains(request.method), spec.sideEffect)) {
    case ReplayGuard::Verdict::Fresh:
        break;
    case ReplayGuard::Verdict::Replayed:
        return respond(Error::invalidRequest(
            QStringLiteral("meta.requestId %1 was already used; every request needs a fresh UUID").arg(meta->requestId),
            -32600,
            QJsonObject{{QStringLiteral("reason"), QStringLiteral("replayed_request_id")},
                        {QStringLiteral("field"), QStringLiteral("meta.requestId")},
                        {QStringLiteral("windowMs"), m_replay.windowMs()}}));
    case ReplayGuard::Verdict::Full:
        return respond(Error::make(ErrorCode::HostNotReady,
                                   QStringLiteral("too many requests in the replay window; slow down"),
                                   QJsonObject{{QStringLiteral("reason"), QStringLiteral("replay_window_full")}}));
    }

    QJsonObject confirmedLine;
    if (spec.sideEffect) {
        // A token is spent only on a request that will be queued.
        if (auto refused = m_executor.admission(meta->requestId))
            return respond(*refused);
        if (auto refused =
                verifyConfirm(request.method, caller, meta.value(), request.params, job->second, &confirmedLine))
            return respond(*refused);
    }

    if (!spec.queued) {
        spec.handle(Call{caller, meta.value(), request.params, workspaceReal}, respond);
        return;
    }

    QJsonObject requestRecord{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                              {QStringLiteral("id"), id},
                              {QStringLiteral("method"), request.method},
                              {QStringLiteral("params"), spec.redact(request.params)}};
    JobSpec jobSpec;
    jobSpec.executionId = meta->requestId;
    jobSpec.method = request.method;
    jobSpec.connectionId = caller.connectionId;
    jobSpec.timeoutMs = meta->timeoutMs;
    jobSpec.sideEffect = spec.sideEffect;
    jobSpec.deadline = QDeadlineTimer(meta->timeoutMs, Qt::PreciseTimer);
    jobSpec.record = std::make_shared<Evidence::ExecutionRecord>(meta->requestId, request.method, *workspaceReal,
                                                                 requestRecord, envJson(caller));
    jobSpec.record->setJournal(m_journal);
    jobSpec.record->setDurableStart(spec.sideEffect);
    // issue 4 §6: the audit line of the confirmation also goes into the execution's evidence.
    if (!confirmedLine.isEmpty())
        jobSpec.record->trace(QStringLiteral("audit"), 0, true, confirmedLine);
    const auto record = jobSpec.record;
    const QString dir = record->dirPath();
    auto run = [work = job->first, record](JobContext& context) { return work(context, *record); };
    auto envelope = [id](const Result<QJsonObject>& result) {
        return result.ok() ? JsonRpc::resultResponse(id, result.value()) : JsonRpc::errorResponse(id, result.error());
    };
    if (auto refused = m_executor.submit<QJsonObject>(std::move(jobSpec), run, respond, envelope))
        return respond(*refused);
    qCDebug(lcDispatcher) << "queued" << request.method << meta->requestId << "evidence" << dir;
}

void Dispatcher::refuseNotification(const Caller& caller, const JsonRpc::Request& request)
{
    QJsonObject line{{QStringLiteral("method"), request.method},
                     {QStringLiteral("reason"), QStringLiteral("notification")},
                     {QStringLiteral("paramsDigest"), CanonicalJson::paramsDigest(request.params)}};
    // Only a well-formed requestId goes into the log, never whatever text the client sent.
    if (const auto meta = parseMeta(request.params, false))
        line.insert(QStringLiteral("requestId"), meta->requestId);
    audit(QStringLiteral("notification_refused"), &caller.peer, line);
    qCWarning(lcDispatcher).noquote() << "refused" << request.method << "sent as a notification (no id) by pid"
                                      << caller.peer.pid << ": a side effect needs an id to report its outcome";
}

QJsonObject Dispatcher::audit(const QString& event, const PeerInfo* peer, QJsonObject fields)
{
    return m_security.audit->record(event, peer, std::move(fields));
}

Error Dispatcher::pausedError()
{
    return Error::make(ErrorCode::ConfirmRequired,
                       QStringLiteral("the host was stopped (desktop.stop): side effects are paused until a person "
                                      "resumes it (msgcode-desktopctl resume, or the tray)"),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("paused")}})
        .withRetryable(false);
}

std::optional<Error> Dispatcher::verifyConfirm(const QString& method, const Caller& caller, const Meta& meta,
                                               const QJsonObject& params, const ConfirmParams& confirm,
                                               QJsonObject* used)
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
        audit(byToken ? QStringLiteral("token_refused") : QStringLiteral("phrase_refused"), &caller.peer, line);
        qCInfo(lcDispatcher) << "confirmation refused:" << method << meta.requestId << reason;
        details.insert(QStringLiteral("reason"), reason);
        return Error::make(ErrorCode::ConfirmRequired, message, details).withRetryable(false);
    };

    // issue 4 §5: a stopped host takes no side effect, whatever the confirmation; a token is
    // not spent on it.
    if (m_paused)
        return refuse(QStringLiteral("paused"), pausedError().message);

    // contract 4.2: token beats phrase.
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
        *used = audit(QStringLiteral("token_used"), &caller.peer,
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
    // contract 4.2: "CONFIRM" or "CONFIRM:<requestId>"; the keyword is exact, the UUID compares
    // case-insensitively (an upper-case requestId may be echoed in either case).
    const QLatin1String prefix("CONFIRM:");
    const bool phraseMatches =
        *confirm.phrase == QLatin1String("CONFIRM") ||
        (confirm.phrase->startsWith(prefix) && sameRequestId(confirm.phrase->mid(prefix.size()), meta.requestId));
    if (!phraseMatches)
        return refuse(QStringLiteral("phrase_mismatch"),
                      QStringLiteral("confirm.phrase must be \"CONFIRM\" or \"CONFIRM:<meta.requestId>\""));
    *used = audit(QStringLiteral("phrase_used"), &caller.peer,
                  QJsonObject{{QStringLiteral("method"), method},
                              {QStringLiteral("paramsDigest"), paramsDigest},
                              {QStringLiteral("executionId"), meta.requestId}});
    return std::nullopt;
}

void Dispatcher::confirmIssue(const Call& call, const Respond& respond)
{
    const QJsonValue intentValue = call.params.value(QStringLiteral("intent"));
    const QJsonObject intent = intentValue.toObject();
    const QString method = intent.value(QStringLiteral("method")).toString();
    if (m_paused) {
        // issue 4 §5: no token is issued until resumed.
        audit(QStringLiteral("issue_refused"), &call.caller.peer,
              QJsonObject{{QStringLiteral("method"), method},
                          {QStringLiteral("reason"), QStringLiteral("paused")},
                          {QStringLiteral("requestId"), call.meta.requestId}});
        return respond(pausedError());
    }
    if (!intentValue.isObject())
        return respond(Error::invalidParam(QStringLiteral("intent"), QStringLiteral("intent is required")));
    const auto spec = m_methods.constFind(method);
    if (spec == m_methods.cend() || !spec->sideEffect)
        return respond(Error::invalidParam(QStringLiteral("intent.method"),
                                           QStringLiteral("intent.method must name a side-effect method "
                                                          "(desktop.click, desktop.typeText, desktop.hotkey)")));
    if (!intent.value(QStringLiteral("params")).isObject())
        return respond(
            Error::invalidParam(QStringLiteral("intent.params"), QStringLiteral("intent.params must be an object")));

    const qint64 maxTtl = m_security.settings.maxTokenTtlMs;
    qint64 ttlMs = std::min(SecuritySettings::kDefaultTokenTtlMs, maxTtl);
    const QJsonValue ttl = call.params.value(QStringLiteral("ttlMs"));
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
    if (auto prepared = spec->prepare(params); !prepared) {
        Error error = prepared.error();
        const QString field = error.details.value(QStringLiteral("field")).toString();
        if (!field.isEmpty()) {
            error.details.insert(QStringLiteral("field"), QString(QStringLiteral("intent.params.") + field));
            error.message = QStringLiteral("intent.params: ") + error.message;
        }
        return respond(error);
    }
    const QString paramsDigest = CanonicalJson::paramsDigest(params);

    ApprovalRequest request = ApprovalRequest::forIntent(method, params, paramsDigest);
    request.timeoutMs = call.meta.timeoutMs;
    const PeerInfo peer = call.caller.peer;
    const QString requestId = call.meta.requestId;
    auto onApproved = [this, respond, method, paramsDigest, peer, ttlMs, requestId](const ApprovalDecision&) {
        if (m_paused)
            return respond(pausedError());
        const auto token = m_security.tokens->issue(ConfirmTokens::Scope{method, paramsDigest},
                                                    ConfirmTokens::Peer{peer.pid, peer.auditTokenDigest}, ttlMs);
        if (!token)
            return respond(Error::make(ErrorCode::HostNotReady,
                                       QStringLiteral("too many confirmation tokens are outstanding; use "
                                                      "or let some expire first"),
                                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("too_many_tokens")}}));
        const QString expiresAt =
            QDateTime::fromMSecsSinceEpoch(token->expiresAtMs, Qt::UTC).toString(Qt::ISODateWithMs);
        audit(QStringLiteral("token_issued"), &peer,
              QJsonObject{{QStringLiteral("method"), method},
                          {QStringLiteral("paramsDigest"), paramsDigest},
                          {QStringLiteral("tokenId"), ConfirmTokens::tokenId(token->token)},
                          {QStringLiteral("expiresAt"), expiresAt},
                          {QStringLiteral("ttlMs"), ttlMs},
                          {QStringLiteral("requestId"), requestId}});
        // contract 5.10, exactly.
        respond(QJsonObject{
            {QStringLiteral("token"), token->token},
            {QStringLiteral("expiresAt"), expiresAt},
            {QStringLiteral("scope"),
             QJsonObject{{QStringLiteral("method"), method}, {QStringLiteral("paramsDigest"), paramsDigest}}},
            {QStringLiteral("peer"), QJsonObject{{QStringLiteral("auditTokenDigest"), peer.auditTokenDigest},
                                                 {QStringLiteral("pid"), peer.pid}}}});
    };
    const Caller caller = call.caller;
    // Typed text is previewed only when nothing says the target is secure: the params (a secure
    // role, a password-like title) or, failing that, a read-only look at the element it would
    // go to. A target that cannot be looked at in time counts as secure (docs/architecture.md,
    // "Secure elements").
    if (request.textPreview && !request.textMasked) {
        if (auto typed = Params::typeText(params)) {
            const int lookMs = std::clamp(call.meta.timeoutMs / 4, 100, kSecureLookMs);
            QPointer<Dispatcher> self(this);
            auto look = [target = Methods::typeRequest(typed.value())](JobContext& context) {
                return Automation::Operations::secureTarget(context, target);
            };
            m_executor.inspect<Automation::Operations::SecureLook>(
                lookMs, look,
                [self, request, caller, respond, onApproved](const Result<Automation::Operations::SecureLook>& looked) mutable {
                                   if (!self)
                                       return;
                                   // Stopped while looking: nothing is asked any more.
                                   if (self->m_paused)
                                       return respond(pausedError());
                                   if (!looked)
                                       request.maskText(QStringLiteral("unresolved"));
                                   else if (looked->secure)
                                       request.maskText(QStringLiteral("secure_element"));
                                   self->askApproval(request, caller, respond, std::move(onApproved));
                               });
            return;
        }
        request.maskText(QStringLiteral("unresolved"));
    }
    askApproval(request, caller, respond, std::move(onApproved));
}

void Dispatcher::resume(const Call& call, const Respond& respond)
{
    if (!m_paused)
        return respond(QJsonObject{{QStringLiteral("resumed"), false}, {QStringLiteral("paused"), false}});
    ApprovalRequest request;
    request.kind = ApprovalRequest::Kind::Resume;
    request.method = QStringLiteral("desktop.resume");
    request.timeoutMs = call.meta.timeoutMs;
    const PeerInfo peer = call.caller.peer;
    askApproval(request, call.caller, respond, [this, respond, peer](const ApprovalDecision& decision) {
        if (m_paused) {
            m_paused = false;
            audit(QStringLiteral("resume"), &peer,
                  QJsonObject{{QStringLiteral("via"), QStringLiteral("provider")},
                              {QStringLiteral("decidedBy"), decision.decidedBy},
                              {QStringLiteral("approver"), decision.approver}});
            qCWarning(lcDispatcher).noquote()
                << "resumed: side effects are allowed again, approved by" << decision.approver;
            Q_EMIT pausedChanged(false);
        }
        respond(QJsonObject{{QStringLiteral("resumed"), true}, {QStringLiteral("paused"), false}});
    });
}

void Dispatcher::askApproval(ApprovalRequest request, const Caller& caller, const Respond& respond,
                             std::function<void(const ApprovalDecision&)> onApproved)
{
    request.id = m_nextApprovalId++;
    request.peer = caller.peer;
    // The approval is bounded by the approval timeout and by the request's own meta.timeoutMs.
    request.timeoutMs = std::max(1, std::min(m_security.settings.approvalTimeoutMs,
                                             request.timeoutMs > 0 ? request.timeoutMs : Meta::kMaxTimeoutMs));
    request.expiresAt = QDateTime::currentDateTimeUtc().addMSecs(request.timeoutMs);
    const quint64 id = request.id;
    m_pendingApprovals.insert(id, PendingApproval{caller.connectionId, request, respond, std::move(onApproved)});
    QPointer<Dispatcher> self(this);
    m_security.provider->request(request, [self, id](const ApprovalDecision& decision) {
        if (self)
            self->approvalDecided(id, decision);
    });
}

void Dispatcher::approvalDecided(quint64 id, const ApprovalDecision& decision)
{
    const auto it = m_pendingApprovals.find(id);
    if (it == m_pendingApprovals.end())
        return;
    const PendingApproval pending = std::move(*it);
    m_pendingApprovals.erase(it);
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
                                    {QStringLiteral("policy"), m_security.provider->policyName()}})
                .withRetryable(false));
    }
    pending.onApproved(decision);
}

void Dispatcher::setSecurity(const SecuritySettings& settings, ConfirmationProvider* provider)
{
    Q_ASSERT(provider);
    const QString dataDir = m_security.settings.dataDir;
    if (provider != m_security.provider) {
        // The old provider's pending requests cannot be answered any more: deny them, with the
        // old policy named in the answer and the audit line.
        const QList<quint64> pending = m_pendingApprovals.keys();
        for (const quint64 id : pending) {
            m_security.provider->cancel(id);
            approvalDecided(id, ApprovalDecision::deny(QStringLiteral("policy_changed"), QStringLiteral("policy")));
        }
        m_security.provider = provider;
    }
    m_security.settings = settings;
    m_security.settings.dataDir = dataDir;
}

bool Dispatcher::setWorkspaceRoot(const QString& root, QString* error)
{
    WorkspacePolicy next(root);
    if (!next.isConfigured()) {
        if (error)
            *error = next.configurationProblem();
        return false;
    }
    m_workspace = std::move(next);
    return true;
}

void Dispatcher::withdrawApproval(quint64 id, const QString& why)
{
    const auto it = m_pendingApprovals.find(id);
    if (it == m_pendingApprovals.end())
        return;
    const PendingApproval pending = std::move(*it);
    m_pendingApprovals.erase(it);
    m_security.provider->cancel(id);
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

QJsonObject Dispatcher::stop(const PeerInfo* who, const QString& via)
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
    const QList<quint64> pending = m_pendingApprovals.keys();
    for (const quint64 id : pending)
        withdrawApproval(id, QStringLiteral("paused"));
    qCWarning(lcDispatcher).noquote() << "stopped by" << (who ? QStringLiteral("pid %1").arg(who->pid) : via) << ":"
                                      << aborted << "execution(s) aborted; side effects paused until resumed";
    if (!wasPaused)
        Q_EMIT pausedChanged(true);
    return QJsonObject{{QStringLiteral("stopped"), true},
                       {QStringLiteral("paused"), true},
                       {QStringLiteral("aborted"), aborted},
                       {QStringLiteral("executionIds"), QJsonArray::fromStringList(ids)}};
}

bool Dispatcher::resumeFromGui(const QString& approver)
{
    if (!m_paused)
        return false;
    m_paused = false;
    audit(QStringLiteral("resume"), nullptr,
          QJsonObject{{QStringLiteral("via"), QStringLiteral("gui")},
                      {QStringLiteral("decidedBy"), QStringLiteral("user")},
                      {QStringLiteral("approver"), approver}});
    qCWarning(lcDispatcher) << "resumed from the GUI: side effects are allowed again";
    // Clients waiting for a resume approval have what they asked for.
    const QList<quint64> ids = m_pendingApprovals.keys();
    for (const quint64 id : ids) {
        auto it = m_pendingApprovals.find(id);
        if (it == m_pendingApprovals.end() || it->request.kind != ApprovalRequest::Kind::Resume)
            continue;
        const Respond respond = it->respond;
        withdrawApproval(id, QStringLiteral("resumed_from_gui"));
        respond(QJsonObject{{QStringLiteral("resumed"), true}, {QStringLiteral("paused"), false}});
    }
    Q_EMIT pausedChanged(false);
    return true;
}

void Dispatcher::connectionClosed(quint64 connectionId)
{
    const QList<quint64> ids = m_pendingApprovals.keys();
    for (const quint64 id : ids) {
        const auto it = m_pendingApprovals.constFind(id);
        if (it != m_pendingApprovals.cend() && it->connectionId == connectionId)
            withdrawApproval(id, QStringLiteral("disconnected"));
    }
}

QJsonObject Dispatcher::envJson(const Caller& caller) const
{
    const auto permissions = m_permissions.current();
    return QJsonObject{
        {QStringLiteral("host"), QJsonObject{{QStringLiteral("version"), QStringLiteral(MDH_VERSION)},
                                             {QStringLiteral("pid"), static_cast<qint64>(::getpid())},
                                             {QStringLiteral("socketPath"), m_facts.socketPath}}},
        {QStringLiteral("os"), QJsonObject{{QStringLiteral("platform"), permissions.platform},
                                           {QStringLiteral("name"), QSysInfo::prettyProductName()},
                                           {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
                                           {QStringLiteral("displayServer"), permissions.displayServer},
                                           {QStringLiteral("display"), qEnvironmentVariable("DISPLAY")}}},
        {QStringLiteral("screen"), permissions.screenCapture.details},
        {QStringLiteral("permissions"),
         QJsonObject{
             {QStringLiteral("accessibility"), Automation::permissionStateName(permissions.accessibility.state)},
             {QStringLiteral("screenRecording"), Automation::permissionStateName(permissions.screenCapture.state)}}},
        {QStringLiteral("backend"), m_executor.backendInfo().name},
        {QStringLiteral("peer"), caller.peer.toDetailedJson()},
    };
}

QJsonObject Dispatcher::healthResult(const Caller& caller) const
{
    const auto permissions = m_permissions.current();
    return QJsonObject
    {
        {QStringLiteral("hostVersion"), QStringLiteral(MDH_VERSION)},
#if defined(Q_OS_MACOS)
            {QStringLiteral("macos"), QSysInfo::productVersion()},
#else
            // contract 5.1 names the macOS version; elsewhere it is null and `os` says what runs.
            {QStringLiteral("macos"), QJsonValue()},
#endif
            {QStringLiteral("os"), QJsonObject{{QStringLiteral("platform"), permissions.platform},
                                               {QStringLiteral("name"), QSysInfo::prettyProductName()},
                                               {QStringLiteral("version"), QSysInfo::productVersion()},
                                               {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
                                               {QStringLiteral("displayServer"), permissions.displayServer}}},
            {QStringLiteral("permissions"),
             QJsonObject{
                 {QStringLiteral("accessibility"), Automation::permissionStateName(permissions.accessibility.state)},
                 {QStringLiteral("screenRecording"),
                  Automation::permissionStateName(permissions.screenCapture.state)}}},
            {QStringLiteral("bridge"), QJsonObject{{QStringLiteral("schemaVersion"), Meta::kSchemaVersion},
                                                   {QStringLiteral("running"), m_executor.isBusy()},
                                                   {QStringLiteral("queued"), m_executor.queuedCount()},
                                                   {QStringLiteral("paused"), m_paused},
                                                   {QStringLiteral("confirmPolicy"), m_security.provider->policyName()},
                                                   {QStringLiteral("requireToken"), m_security.settings.requireToken}}},
            {QStringLiteral("peer"), caller.peer.toJson()},
    };
}

QJsonObject Dispatcher::doctorResult(const Caller& caller, const std::optional<QString>& workspacePath) const
{
    const auto permissions = m_permissions.current();
    QJsonArray checks;
    checks.append(check(QStringLiteral("accessibility"), statusFor(permissions.accessibility.state),
                        permissions.accessibility.message, permissions.accessibility.details));
    checks.append(check(QStringLiteral("screen_capture"), statusFor(permissions.screenCapture.state),
                        permissions.screenCapture.message, permissions.screenCapture.details));
    if (!m_workspace.isConfigured()) {
        checks.append(check(QStringLiteral("workspace_root"), QStringLiteral("error"),
                            m_workspace.configurationProblem(),
                            QJsonObject{{QStringLiteral("given"), m_workspace.rootAsGiven()}}));
    } else {
        checks.append(check(QStringLiteral("workspace_root"), QStringLiteral("ok"),
                            QStringLiteral("evidence may be written below %1").arg(m_workspace.rootRealPath()),
                            QJsonObject{{QStringLiteral("root"), m_workspace.rootRealPath()}}));
        if (workspacePath) {
            const auto verdict = m_workspace.check(*workspacePath);
            checks.append(verdict ? check(QStringLiteral("workspace"), QStringLiteral("ok"),
                                          QStringLiteral("%1 is inside the workspace root").arg(*workspacePath),
                                          QJsonObject{{QStringLiteral("resolvedPath"), verdict.value()}})
                                  : check(QStringLiteral("workspace"), QStringLiteral("error"), verdict.error().message,
                                          verdict.error().details));
        }
    }
    const bool socketPrivate = m_facts.socketMode == QLatin1String("0600");
    checks.append(
        check(QStringLiteral("socket"), socketPrivate ? QStringLiteral("ok") : QStringLiteral("warning"),
              socketPrivate ? QStringLiteral("serving on %1 (owner only)").arg(m_facts.socketPath)
                            : QStringLiteral("serving on %1 with mode %2: other users may reach the socket "
                                             "(the peer uid check still refuses them)")
                                  .arg(m_facts.socketPath, m_facts.socketMode),
              QJsonObject{{QStringLiteral("path"), m_facts.socketPath}, {QStringLiteral("mode"), m_facts.socketMode}}));
    const auto backend = m_executor.backendInfo();
    checks.append(
        check(QStringLiteral("backend"), backend.available ? QStringLiteral("ok") : QStringLiteral("error"),
              backend.message.isEmpty() ? backend.name : backend.message,
              QJsonObject{{QStringLiteral("name"), backend.name}, {QStringLiteral("details"), backend.details}}));
    // Windows of apps the accessibility registry does not list: they cannot be automated.
    const QJsonArray invisible = backend.details.value(QStringLiteral("invisibleApps")).toArray();
    QStringList invisibleNames;
    for (const auto& app : invisible)
        invisibleNames.append(QStringLiteral("%1 (pid %2)")
                                  .arg(app.toObject().value(QStringLiteral("executable")).toString())
                                  .arg(app.toObject().value(QStringLiteral("pid")).toInteger()));
    checks.append(check(
        QStringLiteral("accessible_apps"), invisible.isEmpty() ? QStringLiteral("ok") : QStringLiteral("warning"),
        invisible.isEmpty()
            ? QStringLiteral("every app with a window is listed by the accessibility registry")
            : QStringLiteral("%1 have windows but are not listed by the accessibility registry, so they cannot be "
                             "automated: they started before the accessibility bus or registry was restarted, or "
                             "with accessibility turned off. Restart them.")
                  .arg(invisibleNames.join(QStringLiteral(", "))),
        QJsonObject{{QStringLiteral("invisibleApps"), invisible}}));
    checks.append(check(QStringLiteral("executor"), QStringLiteral("ok"),
                        m_executor.isBusy()
                            ? QStringLiteral("running one execution, %1 queued").arg(m_executor.queuedCount())
                            : QStringLiteral("idle"),
                        QJsonObject{{QStringLiteral("running"), m_executor.runningExecutionId()},
                                    {QStringLiteral("queued"), m_executor.queuedCount()}}));

    const QString policy = m_security.provider->policyName();
    checks.append(check(
        QStringLiteral("confirmation"),
        policy == QLatin1String("auto") ? QStringLiteral("warning") : QStringLiteral("ok"),
        policy == QLatin1String("auto")
            ? QStringLiteral("confirm policy auto: every token request is approved without a person")
            : QStringLiteral("confirm policy %1%2")
                  .arg(policy, m_security.settings.requireToken ? QStringLiteral(", tokens required") : QString()),
        QJsonObject{{QStringLiteral("policy"), policy},
                    {QStringLiteral("requireToken"), m_security.settings.requireToken},
                    {QStringLiteral("maxTokenTtlMs"), m_security.settings.maxTokenTtlMs},
                    {QStringLiteral("approvalTimeoutMs"), m_security.settings.approvalTimeoutMs}}));
    checks.append(check(QStringLiteral("paused"), m_paused ? QStringLiteral("warning") : QStringLiteral("ok"),
                        m_paused ? QStringLiteral("stopped by desktop.stop: side effects are paused until resumed "
                                                  "(msgcode-desktopctl resume)")
                                 : QStringLiteral("not paused"),
                        QJsonObject{{QStringLiteral("paused"), m_paused}}));

    QJsonArray issues;
    int passed = 0, warnings = 0, errors = 0;
    for (const auto& value : checks) {
        const QJsonObject c = value.toObject();
        const QString status = c.value(QStringLiteral("status")).toString();
        if (status == QLatin1String("ok")) {
            ++passed;
            continue;
        }
        (status == QLatin1String("error") ? errors : warnings)++;
        issues.append(c.value(QStringLiteral("message")));
    }
    return QJsonObject{
        {QStringLiteral("permissions"),
         QJsonObject{
             {QStringLiteral("accessibility"), permissionJson(permissions.accessibility, "AX observe/find/action")},
             {QStringLiteral("screenRecording"), permissionJson(permissions.screenCapture, "Screenshot capture")}}},
        {QStringLiteral("issues"), issues},
        {QStringLiteral("healthy"), errors == 0},
        {QStringLiteral("peer"), caller.peer.toJson()},
        {QStringLiteral("checks"), checks},
        {QStringLiteral("summary"), QJsonObject{{QStringLiteral("total"), static_cast<int>(checks.size())},
                                                {QStringLiteral("passed"), passed},
                                                {QStringLiteral("warnings"), warnings},
                                                {QStringLiteral("errors"), errors}}},
        {QStringLiteral("hostVersion"), QStringLiteral(MDH_VERSION)},
        {QStringLiteral("timestamp"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
    };
}

} // namespace Bridge
