#include "Dispatcher.h"

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
Result<std::pair<JobFunction, ConfirmParams>> prepared(const Result<P>& params, JobFunction (*make)(P),
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
                       QObject* parent)
    : QObject(parent),
      m_executor(executor),
      m_workspace(std::move(workspace)),
      m_permissions(permissions),
      m_facts(std::move(facts))
{
    registerMethods();
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
    add({QStringLiteral("desktop.health"), false, false, false, {},
         [this](const Call& call, const Respond& respond) { respond(healthResult(call.caller)); }, {}});
    // contract 5.2
    add({QStringLiteral("desktop.doctor"), false, false, false, {},
         [this](const Call& call, const Respond& respond) {
             respond(doctorResult(call.caller, call.meta.workspacePath));
         },
         {}});
    // contract 5.3 - 5.8
    add({QStringLiteral("desktop.observe"), true, false, true,
         [](const QJsonObject& p) { return prepared(Params::observe(p), &Methods::observe); }, {}, {}});
    add({QStringLiteral("desktop.find"), true, false, true,
         [](const QJsonObject& p) { return prepared(Params::find(p), &Methods::find); }, {}, {}});
    add({QStringLiteral("desktop.click"), true, true, true,
         [](const QJsonObject& p) {
             auto params = Params::click(p);
             return prepared(params, &Methods::click, params ? params->confirm : ConfirmParams{});
         },
         {}, {}});
    add({QStringLiteral("desktop.typeText"), true, true, true,
         [](const QJsonObject& p) {
             auto params = Params::typeText(p);
             return prepared(params, &Methods::typeText, params ? params->confirm : ConfirmParams{});
         },
         {},
         // DESIGN.md 9: typed text is kept as length + SHA-256 only.
         [](const QJsonObject& p) {
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
    add({QStringLiteral("desktop.hotkey"), true, true, true,
         [](const QJsonObject& p) {
             auto params = Params::hotkey(p);
             return prepared(params, &Methods::hotkey, params ? params->confirm : ConfirmParams{});
         },
         {}, {}});
    add({QStringLiteral("desktop.waitUntil"), true, false, true,
         [](const QJsonObject& p) { return prepared(Params::waitUntil(p), &Methods::waitUntil); }, {}, {}});
    // contract 5.9: answered at once, never queued behind the job it aborts.
    add({QStringLiteral("desktop.abort"), false, false, false, {},
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
    // contract 5.10: the token service and its human approval come with the confirmation
    // issue; until then the method is parsed and refused plainly.
    add({QStringLiteral("desktop.confirm.issue"), false, false, true, {},
         [this](const Call& call, const Respond& respond) {
             const QJsonObject intent = call.params.value(QStringLiteral("intent")).toObject();
             if (!call.params.value(QStringLiteral("intent")).isObject())
                 return respond(Error::invalidParam(QStringLiteral("intent"), QStringLiteral("intent is required")));
             const QString method = intent.value(QStringLiteral("method")).toString();
             const auto spec = m_methods.constFind(method);
             if (spec == m_methods.cend() || !spec->sideEffect)
                 return respond(Error::invalidParam(QStringLiteral("intent.method"),
                                                    QStringLiteral("intent.method must name a side-effect method "
                                                                   "(desktop.click, desktop.typeText, desktop.hotkey)")));
             if (!intent.value(QStringLiteral("params")).isObject())
                 return respond(Error::invalidParam(QStringLiteral("intent.params"),
                                                    QStringLiteral("intent.params must be an object")));
             respond(Error::make(ErrorCode::HostNotReady,
                                 QStringLiteral("this host has no confirmation provider, so it issues no tokens; use "
                                                "the confirm phrase"),
                                 QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_confirmation_provider")}})
                         .withRetryable(false));
         },
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
    // Answers keep the order of the requests; notifications leave no slot.
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
    pending->outstanding = static_cast<int>(batch.size()) + 1; // +1 until every element is handed out
    pending->answers.resize(batch.size());
    for (qsizetype i = 0; i < batch.size(); ++i) {
        const bool notification = batch.at(i).isObject() && !batch.at(i).toObject().contains(QStringLiteral("id"));
        if (notification)
            --pending->outstanding;
        handle(caller, batch.at(i), [pending, i](const QJsonObject& response) {
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
    const auto parsed = JsonRpc::parseRequest(value);
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

    std::optional<std::pair<JobFunction, ConfirmParams>> job;
    if (spec.queued) {
        auto prepared = spec.prepare(request.params);
        if (!prepared)
            return respond(prepared.error());
        job = prepared.value();
    }

    // Replay protection (DESIGN.md 4) on every well-formed request, read-only ones included.
    switch (m_replay.admit(meta->requestId)) {
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

    if (spec.sideEffect) {
        if (auto refused = checkConfirm(job->second, meta.value()))
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
    jobSpec.deadline = QDeadlineTimer(meta->timeoutMs, Qt::PreciseTimer);
    jobSpec.record = std::make_shared<Evidence::ExecutionRecord>(meta->requestId, request.method, *workspaceReal,
                                                                 requestRecord, envJson(caller));
    jobSpec.run = job->first;
    jobSpec.done = respond;
    jobSpec.envelope = [id](const Result<QJsonObject>& result) {
        return result.ok() ? JsonRpc::resultResponse(id, result.value()) : JsonRpc::errorResponse(id, result.error());
    };
    const QString dir = jobSpec.record->dirPath();
    if (auto refused = m_executor.submit(std::move(jobSpec)))
        return respond(*refused);
    qCDebug(lcDispatcher) << "queued" << request.method << meta->requestId << "evidence" << dir;
}

std::optional<Error> Dispatcher::checkConfirm(const ConfirmParams& confirm, const Meta& meta) const
{
    // contract 4.2: token beats phrase. No token is valid until the token service exists.
    if (confirm.token)
        return Error::make(ErrorCode::ConfirmRequired,
                           QStringLiteral("confirm.token is not known to this host"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("unknown_token")}});
    if (!confirm.phrase)
        return Error::make(ErrorCode::ConfirmRequired,
                           QStringLiteral("this method has a side effect and needs confirm.token or confirm.phrase"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("missing")}});
    if (*confirm.phrase != QLatin1String("CONFIRM") && *confirm.phrase != QStringLiteral("CONFIRM:") + meta.requestId)
        return Error::make(ErrorCode::ConfirmRequired,
                           QStringLiteral("confirm.phrase must be \"CONFIRM\" or \"CONFIRM:<meta.requestId>\""),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("phrase_mismatch")}});
    return std::nullopt;
}

QJsonObject Dispatcher::envJson(const Caller& caller) const
{
    const auto permissions = m_permissions.current();
    return QJsonObject{
        {QStringLiteral("host"),
         QJsonObject{{QStringLiteral("version"), QStringLiteral(MDH_VERSION)},
                     {QStringLiteral("pid"), static_cast<qint64>(::getpid())},
                     {QStringLiteral("socketPath"), m_facts.socketPath}}},
        {QStringLiteral("os"),
         QJsonObject{{QStringLiteral("platform"), permissions.platform},
                     {QStringLiteral("name"), QSysInfo::prettyProductName()},
                     {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
                     {QStringLiteral("displayServer"), permissions.displayServer},
                     {QStringLiteral("display"), qEnvironmentVariable("DISPLAY")}}},
        {QStringLiteral("screen"), permissions.screenCapture.details},
        {QStringLiteral("permissions"),
         QJsonObject{{QStringLiteral("accessibility"), Automation::permissionStateName(permissions.accessibility.state)},
                     {QStringLiteral("screenRecording"),
                      Automation::permissionStateName(permissions.screenCapture.state)}}},
        {QStringLiteral("backend"), m_executor.backendInfo().name},
        {QStringLiteral("peer"), caller.peer.toDetailedJson()},
    };
}

QJsonObject Dispatcher::healthResult(const Caller& caller) const
{
    const auto permissions = m_permissions.current();
    return QJsonObject{
        {QStringLiteral("hostVersion"), QStringLiteral(MDH_VERSION)},
#if defined(Q_OS_MACOS)
        {QStringLiteral("macos"), QSysInfo::productVersion()},
#else
        // contract 5.1 names the macOS version; elsewhere it is null and `os` says what runs.
        {QStringLiteral("macos"), QJsonValue()},
#endif
        {QStringLiteral("os"),
         QJsonObject{{QStringLiteral("platform"), permissions.platform},
                     {QStringLiteral("name"), QSysInfo::prettyProductName()},
                     {QStringLiteral("version"), QSysInfo::productVersion()},
                     {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
                     {QStringLiteral("displayServer"), permissions.displayServer}}},
        {QStringLiteral("permissions"),
         QJsonObject{{QStringLiteral("accessibility"), Automation::permissionStateName(permissions.accessibility.state)},
                     {QStringLiteral("screenRecording"),
                      Automation::permissionStateName(permissions.screenCapture.state)}}},
        {QStringLiteral("bridge"),
         QJsonObject{{QStringLiteral("schemaVersion"), Meta::kSchemaVersion},
                     {QStringLiteral("running"), m_executor.isBusy()},
                     {QStringLiteral("queued"), m_executor.queuedCount()}}},
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
    checks.append(check(QStringLiteral("socket"), socketPrivate ? QStringLiteral("ok") : QStringLiteral("warning"),
                        socketPrivate ? QStringLiteral("serving on %1 (owner only)").arg(m_facts.socketPath)
                                      : QStringLiteral("serving on %1 with mode %2: other users may reach the socket "
                                                       "(the peer uid check still refuses them)")
                                            .arg(m_facts.socketPath, m_facts.socketMode),
                        QJsonObject{{QStringLiteral("path"), m_facts.socketPath},
                                    {QStringLiteral("mode"), m_facts.socketMode}}));
    const auto backend = m_executor.backendInfo();
    checks.append(check(QStringLiteral("backend"), backend.available ? QStringLiteral("ok") : QStringLiteral("error"),
                        backend.message.isEmpty() ? backend.name : backend.message,
                        QJsonObject{{QStringLiteral("name"), backend.name}, {QStringLiteral("details"), backend.details}}));
    checks.append(check(QStringLiteral("executor"), QStringLiteral("ok"),
                        m_executor.isBusy() ? QStringLiteral("running one execution, %1 queued")
                                                  .arg(m_executor.queuedCount())
                                            : QStringLiteral("idle"),
                        QJsonObject{{QStringLiteral("running"), m_executor.runningExecutionId()},
                                    {QStringLiteral("queued"), m_executor.queuedCount()}}));

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
         QJsonObject{{QStringLiteral("accessibility"),
                      permissionJson(permissions.accessibility, "AX observe/find/action")},
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
