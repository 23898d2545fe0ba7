#include "bridge/Dispatcher.h"

#include "automation/PermissionGrant.h"

#include "bridge/contract/Validate.h"

#include "bridge/security/ConfirmTokens.h"

#include <QMutex>
#include <QPointer>
#include <QWaitCondition>

#include <QLoggingCategory>

namespace Bridge {

Q_LOGGING_CATEGORY(lcDispatcher, "msgcode.bridge.dispatcher")

using Automation::Error;
using Automation::ErrorCode;
using Automation::Result;

Dispatcher::Dispatcher(Executor& executor, WorkspacePolicy workspace, PermissionMonitor& permissions, HostFacts facts,
                       SecurityContext security, QObject* parent)
    : QObject(parent), m_executor(executor), m_workspace(std::move(workspace)), m_facts(std::move(facts)),
      m_gate(executor, std::move(security)), m_diagnostics(executor, permissions, m_gate, m_workspace, m_facts),
      m_methods(MethodTable::contract())
{
    connect(&m_gate, &ConfirmationGate::pausedChanged, this, &Dispatcher::pausedChanged);
    const QString dataDir = m_gate.settings().dataDir;
    m_journal = std::make_shared<Evidence::Journal>(dataDir);
    if (!dataDir.isEmpty() && !m_replay.setStore(dataDir + QStringLiteral("/replay-ids.txt")))
        qCWarning(lcDispatcher) << "cannot keep side-effect request ids in" << dataDir << ": a restart forgets them";
}

Dispatcher::~Dispatcher() = default;

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
    // A side effect nobody can be told the outcome of is not taken: a notification has no id,
    // so no answer (neither the result nor a refusal) can go back. The audit log says why.
    if (request.notification) {
        if (const MethodEntry* method = m_methods.find(request.method); method && method->sideEffectFor(request.params))
            return m_gate.refuseNotification(caller, request.method, request.params);
    }
    const bool notification = request.notification;
    route(caller, request.method, request.params, id, [reply, id, notification](const Result<QJsonObject>& result) {
        if (notification)
            return;
        reply(result.ok() ? JsonRpc::resultResponse(id, result.value()) : JsonRpc::errorResponse(id, result.error()));
    });
}

void Dispatcher::call(const Caller& caller, const QString& method, const QJsonObject& params, const Respond& respond)
{
    route(caller, method, params, QJsonValue(), respond);
}

void Dispatcher::route(const Caller& caller, const QString& name, const QJsonObject& params, const QJsonValue& id,
                       const Respond& respond)
{
    const MethodEntry* method = m_methods.find(name);
    if (!method) {
        return respond(Error::invalidRequest(QStringLiteral("Method not found: %1").arg(name), -32601,
                                             QJsonObject{{QStringLiteral("method"), name}}));
    }

    auto meta = parseMeta(params, method->workspaceBound);
    if (!meta)
        return respond(meta.error());

    std::optional<QString> workspaceReal;
    if (method->workspaceBound) {
        auto checked = m_workspace.check(*meta->workspacePath);
        if (!checked)
            return respond(checked.error());
        workspaceReal = checked.value();
    }

    std::optional<Prepared> prepared;
    if (!method->queued()) {
        // An immediate method's params against its declaration; a queued one's prepare does it.
        if (auto refused = Contract::checkParams(*method->declaration, params))
            return respond(*refused);
    }
    if (const Prepare* prepare = method->prepare()) {
        auto typed = (*prepare)(params);
        if (!typed)
            return respond(typed.error());
        prepared = typed.value();
    }

    // Replay protection on every well-formed request, read-only ones included. Each caller has
    // its own share of the window; stop, abort, resume and health are never refused for lack
    // of room; side effects are remembered across a restart.
    switch (m_replay.admit(meta->requestId, static_cast<quint64>(std::max<qint64>(0, caller.peer.pid)),
                           method->alwaysAdmitted, method->sideEffectFor(params))) {
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
    ConfirmationGate::Admitted admitted;
    if (method->sideEffectFor(params)) {
        // A token is spent only on a request that will be queued.
        if (auto refused = m_executor.admission(meta->requestId))
            return respond(*refused);
        if (auto refused =
                m_gate.admit(name, caller, meta.value(), params, prepared->confirm, &confirmedLine, &admitted))
            return respond(*refused);
    }

    if (const auto* immediate = std::get_if<MethodKind::Immediate>(&method->kind)) {
        Services services{m_executor, m_gate, m_diagnostics};
        immediate->handle(services, Call{caller, meta.value(), params, workspaceReal}, respond);
        return;
    }
    submit(*method, caller, meta.value(), params, *workspaceReal, *prepared, confirmedLine, admitted, id, respond);
}

OwnerCheck Dispatcher::ownerCheck(const MethodEntry& method, const Caller& caller, const QJsonObject& params,
                                  const ConfirmationGate::Admitted& admitted)
{
    OwnerCheck check;
    check.method = method.name;
    check.actionClass = Contract::actionClassName(method.declaration ? method.declaration->actionClassFor(params)
                                                                     : Contract::ActionClass::Read);
    check.params = params;
    check.policy = m_gate.ownerPolicy();
    check.binding = admitted.binding;
    check.byToken = admitted.byToken;
    check.byPerson = admitted.byPerson;
    check.personReachable = m_gate.ownerAskReachesPerson();
    QPointer<ConfirmationGate> gate(&m_gate);
    const PeerInfo peer = caller.peer;
    check.audit = [gate, peer](const QString& event, const QJsonObject& fields) {
        // The audit log is written on the owner thread, as every other line.
        QMetaObject::invokeMethod(
            gate.data(),
            [gate, peer, event, fields] {
                if (gate)
                    gate->audit(event, &peer, fields);
            },
            Qt::QueuedConnection);
    };
    check.askPerson = [gate, caller](ApprovalRequest request,
                                     Automation::JobContext& ctx) -> std::optional<Automation::Error> {
        struct Answer
        {
            QMutex mutex;
            QWaitCondition decided;
            std::optional<ApprovalDecision> decision;
            quint64 id = 0;
        };
        auto answer = std::make_shared<Answer>();
        QMetaObject::invokeMethod(
            gate.data(),
            [gate, request, caller, answer] {
                const auto done = [answer](const ApprovalDecision& decision) {
                    QMutexLocker lock(&answer->mutex);
                    if (!answer->decision)
                        answer->decision = decision;
                    answer->decided.wakeAll();
                };
                if (!gate)
                    return done(ApprovalDecision::deny(QStringLiteral("host_closing")));
                const quint64 id = gate->askOwner(request, caller, done);
                QMutexLocker lock(&answer->mutex);
                answer->id = id;
            },
            Qt::QueuedConnection);
        // The worker waits for the person, within the request's deadline; an abort or a stop
        // withdraws the dialog.
        QMutexLocker lock(&answer->mutex);
        while (!answer->decision) {
            if (auto stop = ctx.call.checkpoint()) {
                const quint64 id = answer->id;
                lock.unlock();
                QMetaObject::invokeMethod(
                    gate.data(),
                    [gate, id] {
                        if (gate && id)
                            gate->withdrawOwnerAsk(id);
                    },
                    Qt::QueuedConnection);
                return *stop;
            }
            answer->decided.wait(&answer->mutex, 50);
        }
        const ApprovalDecision decision = *answer->decision;
        lock.unlock();
        // A stop withdraws the dialog and aborts the execution: the abort is the answer.
        if (auto stop = ctx.call.checkpoint())
            return *stop;
        if (decision.approved)
            return std::nullopt;
        return Automation::Error::make(Automation::ErrorCode::ConfirmRequired,
                                       QStringLiteral("the person did not approve it (%1)").arg(decision.decidedBy),
                                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("denied")},
                                                   {QStringLiteral("decision"), decision.decidedBy}})
            .withRetryable(false);
    };
    return check;
}

void Dispatcher::submit(const MethodEntry& method, const Caller& caller, const Meta& meta, const QJsonObject& params,
                        const QString& workspaceRealPath, const Prepared& prepared, const QJsonObject& confirmedLine,
                        const ConfirmationGate::Admitted& admitted, const QJsonValue& id, const Respond& respond)
{
    // A confirmation token is a bearer secret while it lives: the evidence keeps its id (the
    // audit log's), not the token.
    QJsonObject kept = method.redact(params, m_keepTypedText);
    if (QJsonObject confirm = kept.value(QStringLiteral("confirm")).toObject();
        confirm.value(QStringLiteral("token")).isString()) {
        confirm.insert(QStringLiteral("token"),
                       QJsonObject{{QStringLiteral("redacted"), true},
                                   {QStringLiteral("tokenId"),
                                    ConfirmTokens::tokenId(confirm.value(QStringLiteral("token")).toString())}});
        kept.insert(QStringLiteral("confirm"), confirm);
    }
    const QJsonObject requestRecord{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                    {QStringLiteral("id"), id},
                                    {QStringLiteral("method"), method.name},
                                    {QStringLiteral("params"), kept}};
    JobSpec spec;
    spec.executionId = meta.requestId;
    spec.method = method.name;
    spec.connectionId = caller.connectionId;
    spec.timeoutMs = meta.timeoutMs;
    const bool sideEffect = method.sideEffectFor(params);
    spec.sideEffect = sideEffect;
    spec.fullTrees = m_keepFullTrees && sideEffect;
    spec.deadline = QDeadlineTimer(meta.timeoutMs, Qt::PreciseTimer);
    spec.record = std::make_shared<Evidence::ExecutionRecord>(meta.requestId, method.name, workspaceRealPath,
                                                              requestRecord, m_diagnostics.envJson(caller));
    spec.record->setJournal(m_journal);
    spec.record->setDurableStart(sideEffect);
    // The audit line of the confirmation also goes into the execution's evidence.
    if (!confirmedLine.isEmpty())
        spec.record->trace(QStringLiteral("audit"), 0, true, confirmedLine);
    const auto record = spec.record;
    const QString dir = record->dirPath();
    std::optional<OwnerCheck> owner;
    // Side effects always; reads only where an owner's rule could refuse or ask about them.
    if (sideEffect || (method.queued() && m_gate.ownerPolicy().governsReads())) {
        owner = ownerCheck(method, caller, params, admitted);
        // The person at the host's own windows (the inspector) reads what they chose to.
        if (!sideEffect && caller.isGui())
            owner->byPerson = true;
    }
    auto run = [work = prepared.job, record, sideEffect, owner = std::move(owner)](JobContext& context) {
        // The owner's rules and the token's binding, on what the host resolves now, before any input.
        if (owner) {
            if (auto refused = owner->run(context, *record))
                return Result<QJsonObject>(*refused);
        }
        auto result = work(context, *record);
        // A permission the host lacks: say exactly what to grant, to which program, where.
        if (!result && result.error().code == Automation::ErrorCode::PermissionMissing &&
            !result.error().details.contains(QStringLiteral("grant"))) {
            Automation::Error error = result.error();
            const Automation::PermissionGrant grant = Automation::permissionGrant(
                error.details.value(QStringLiteral("permission")).toString(QStringLiteral("accessibility")));
            error.details.insert(QStringLiteral("grant"), grant.toJson());
            error.message += QStringLiteral(". ") + grant.sentence();
            result = Result<QJsonObject>(error);
        }
        // The waits for the person at the desktop, in the answer (docs/protocol.md §5.24).
        if (sideEffect) {
            if (const QJsonArray waits = context.backend.takeYields(); !waits.isEmpty()) {
                if (result)
                    result.value().insert(QStringLiteral("yielded"), waits);
                else
                    record->trace(QStringLiteral("yielded"), 0, true, QJsonObject{{QStringLiteral("waits"), waits}});
            }
        }
        // The person's own app in front again, where the backend brought another forward.
        if (sideEffect) {
            if (const QJsonObject restored = context.backend.sideEffectEnded(context.call); !restored.isEmpty())
                record->trace(QStringLiteral("focus.givenBack"), 0,
                              restored.value(QStringLiteral("frontmost")).toBool(), restored);
        }
        Methods::recordEnvironment(context, *record, result, sideEffect);
        return result;
    };
    auto envelope = [id](const Result<QJsonObject>& result) {
        return result.ok() ? JsonRpc::resultResponse(id, result.value()) : JsonRpc::errorResponse(id, result.error());
    };
    if (auto refused = m_executor.submit<QJsonObject>(std::move(spec), run, respond, envelope))
        return respond(*refused);
    qCDebug(lcDispatcher) << "queued" << method.name << meta.requestId << "evidence" << dir;
}

void Dispatcher::sessionOpened(const Caller& caller)
{
    qCDebug(lcDispatcher) << "session" << caller.connectionId << "opened by pid" << caller.peer.pid;
}

void Dispatcher::sessionClosed(quint64 connectionId)
{
    if (m_facts.events)
        m_facts.events->connectionGone(connectionId); // it lingers, so a reader coming back loses nothing
    m_executor.connectionClosed(connectionId);
    m_gate.connectionClosed(connectionId);
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

} // namespace Bridge
