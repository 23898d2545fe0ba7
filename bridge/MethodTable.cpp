#include "bridge/MethodTable.h"

#include "bridge/Diagnostics.h"
#include "bridge/Executor.h"
#include "bridge/contract/Schema.h"
#include "bridge/contract/Validate.h"
#include "bridge/security/ConfirmationGate.h"
#include "bridge/security/OwnerRules.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QPointer>
#include <QTimer>

#include <cmath>
#include <limits>

namespace Bridge {

using Automation::Error;
using Automation::Result;

namespace {

Error noRemoteAgent()
{
    return Error::make(Automation::ErrorCode::HostNotReady, QStringLiteral("this host runs no remote agent"),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_remote_agent")}});
}

// A desktop.remote.* method that only acts: the remote agent (or the answer that there is
// none), the audit line `event`, then `act`.
MethodKind::Immediate remoteAction(const QString& event,
                                   std::function<void(RemoteControl& remote, const Respond& respond)> act)
{
    return MethodKind::Immediate{[event, act](Services& s, const Call& call, const Respond& respond) {
        RemoteControl* remote = s.diagnostics.remote();
        if (!remote)
            return respond(noRemoteAgent());
        s.gate.audit(event, call.caller.auditPeer(), QJsonObject{{QStringLiteral("via"), call.caller.transportName()}});
        act(*remote, respond);
    }};
}

// --- Handlers ----------------------------------------------------------------------------------

// The typed params (Params::*, which check them against the method's declaration first), then
// the job.
template <typename P> Prepare prepareWith(Result<P> (*parse)(const QJsonObject&), Methods::MethodJob (*make)(P))
{
    return [parse, make](const QJsonObject& p) -> Result<Prepared> {
        auto params = parse(p);
        if (!params)
            return params.error();
        ConfirmParams confirm;
        if constexpr (requires { params->confirm; })
            confirm = params->confirm;
        return Prepared{make(params.value()), confirm};
    };
}

// Typed text is kept as its length and SHA-256 only, unless the person opted in to keeping it.
QJsonObject redactTypedText(const QJsonObject& params, bool keepTypedText)
{
    if (keepTypedText)
        return params;
    QJsonObject out = params;
    const QJsonValue text = params.value(QStringLiteral("text"));
    if (text.isString()) {
        const QByteArray utf8 = text.toString().toUtf8();
        out.insert(
            QStringLiteral("text"),
            QJsonObject{{QStringLiteral("redacted"), true},
                        {QStringLiteral("length"), static_cast<int>(text.toString().size())},
                        {QStringLiteral("sha256"),
                         QString::fromLatin1(QCryptographicHash::hash(utf8, QCryptographicHash::Sha256).toHex())}});
    }
    return out;
}

void abortExecution(Services& services, const Call& call, const Respond& respond)
{
    auto params = Params::abort(call.params);
    if (!params)
        return respond(params.error());
    switch (services.executor.abort(params->executionId)) {
    case Executor::AbortOutcome::Aborted:
        return respond(
            QJsonObject{{QStringLiteral("aborted"), true}, {QStringLiteral("executionId"), params->executionId}});
    case Executor::AbortOutcome::Finished:
        return respond(
            Error::invalidRequest(QStringLiteral("execution %1 has already finished").arg(params->executionId), -32602,
                                  QJsonObject{{QStringLiteral("reason"), QStringLiteral("finished")},
                                              {QStringLiteral("executionId"), params->executionId}}));
    case Executor::AbortOutcome::Unknown:
        return respond(Error::invalidRequest(
            QStringLiteral("no execution %1 is running or queued").arg(params->executionId), -32602,
            QJsonObject{{QStringLiteral("reason"), QStringLiteral("unknown")},
                        {QStringLiteral("executionId"), params->executionId}}));
    }
}

} // namespace

const Prepare* MethodEntry::prepare() const
{
    if (const auto* readOnly = std::get_if<MethodKind::ReadOnly>(&kind))
        return &readOnly->prepare;
    if (const auto* sideEffect = std::get_if<MethodKind::SideEffect>(&kind))
        return &sideEffect->prepare;
    return nullptr;
}

std::optional<Error> checkShape(const MethodEntry& method, const QJsonObject& params)
{
    if (auto meta = parseMeta(params, method.workspaceBound); !meta)
        return meta.error();
    if (const Prepare* prepare = method.prepare()) {
        if (auto prepared = (*prepare)(params); !prepared)
            return prepared.error();
        return std::nullopt;
    }
    return Contract::checkParams(*method.declaration, params);
}

const MethodEntry* MethodTable::find(const QString& name) const
{
    for (const auto& entry : m_entries) {
        if (entry.name == name)
            return &entry;
    }
    return nullptr;
}

const MethodTable& MethodTable::contract()
{
    static const MethodTable table = [] {
        MethodTable t;
        // Each handler joins its method's declaration (bridge/contract/methods/): the name, the
        // kind and the params come from there; a handler whose kind is not the declared one, or
        // a declaration without a handler, stops the host at start (MethodTableTest checks it).
        const auto add = [&t](const QString& name, MethodEntry::Kind kind, MethodEntry::Redact redact = {}) {
            const Contract::Method* declaration = Contract::find(name);
            if (!declaration)
                qFatal("method %s has a handler but no declaration", qPrintable(name));
            const bool immediate = std::holds_alternative<MethodKind::Immediate>(kind);
            const bool sideEffect = std::holds_alternative<MethodKind::SideEffect>(kind);
            if (immediate != (declaration->kind == Contract::Kind::Host) ||
                sideEffect != (declaration->kind == Contract::Kind::SideEffect))
                qFatal("method %s: its handler's kind is not the declared one", qPrintable(name));
            MethodEntry entry;
            entry.name = name;
            entry.declaration = declaration;
            entry.workspaceBound = declaration->workspaceBound;
            entry.alwaysAdmitted = declaration->alwaysAdmitted;
            entry.kind = std::move(kind);
            entry.redact = redact ? std::move(redact) : [](const QJsonObject& params, bool) { return params; };
            t.m_entries.append(std::move(entry));
        };

        add(QStringLiteral("desktop.health"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                respond(s.diagnostics.health(call.caller));
            }});
        add(QStringLiteral("desktop.doctor"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                respond(s.diagnostics.doctor(call.caller, call.meta.workspacePath));
            }});
        add(QStringLiteral("desktop.observe"), MethodKind::ReadOnly{prepareWith(&Params::observe, &Methods::observe)});
        add(QStringLiteral("desktop.find"), MethodKind::ReadOnly{prepareWith(&Params::find, &Methods::find)});
        add(QStringLiteral("desktop.click"), MethodKind::SideEffect{prepareWith(&Params::click, &Methods::click)});
        add(QStringLiteral("desktop.typeText"),
            MethodKind::SideEffect{prepareWith(&Params::typeText, &Methods::typeText)}, redactTypedText);
        add(QStringLiteral("desktop.hotkey"), MethodKind::SideEffect{prepareWith(&Params::hotkey, &Methods::hotkey)});
        add(QStringLiteral("desktop.waitUntil"),
            MethodKind::ReadOnly{prepareWith(&Params::waitUntil, &Methods::waitUntil)});
        add(QStringLiteral("desktop.dumpTree"),
            MethodKind::ReadOnly{prepareWith(&Params::dumpTree, &Methods::dumpTree)});
        add(QStringLiteral("desktop.capture"), MethodKind::ReadOnly{prepareWith(&Params::capture, &Methods::capture)});
        add(QStringLiteral("desktop.ocr"), MethodKind::ReadOnly{prepareWith(&Params::ocr, &Methods::ocr)});
        add(QStringLiteral("desktop.ground"), MethodKind::ReadOnly{prepareWith(&Params::ground, &Methods::ground)});
        add(QStringLiteral("desktop.readText"),
            MethodKind::ReadOnly{prepareWith(&Params::readText, &Methods::readText)});
        add(QStringLiteral("desktop.scroll"), MethodKind::SideEffect{prepareWith(&Params::scroll, &Methods::scroll)});
        add(QStringLiteral("desktop.menuPick"),
            MethodKind::SideEffect{prepareWith(&Params::menuPick, &Methods::menuPick)});
        add(QStringLiteral("desktop.pointer"),
            MethodKind::SideEffect{prepareWith(&Params::pointer, &Methods::pointer)});
        add(QStringLiteral("desktop.windows"), MethodKind::ReadOnly{prepareWith(&Params::windows, &Methods::windows)});
        add(QStringLiteral("desktop.window"), MethodKind::SideEffect{prepareWith(&Params::window, &Methods::window)});
        add(QStringLiteral("desktop.elementAt"),
            MethodKind::ReadOnly{prepareWith(&Params::elementAt, &Methods::elementAt)});
        // Answered at once, never queued behind the job it aborts.
        add(QStringLiteral("desktop.abort"), MethodKind::Immediate{abortExecution});
        // Answered when the confirmation provider decides, without blocking anything.
        add(QStringLiteral("desktop.confirm.issue"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                const QString method =
                    call.params.value(QStringLiteral("intent")).toObject().value(QStringLiteral("method")).toString();
                ConfirmationGate::IntentCheck check;
                const MethodEntry* intent = MethodTable::contract().find(method);
                if (intent && intent->sideEffectFor(call.params.value(QStringLiteral("intent"))
                                                        .toObject()
                                                        .value(QStringLiteral("params"))
                                                        .toObject())) {
                    const Prepare prepare = *intent->prepare();
                    check = [prepare](const QJsonObject& params) -> std::optional<Error> {
                        auto prepared = prepare(params);
                        if (!prepared)
                            return prepared.error();
                        return std::nullopt;
                    };
                }
                s.gate.issue(call.caller, call.meta, call.params, check, respond);
            }});
        // The emergency stop. Any allowed caller, no confirmation: it only stops.
        add(QStringLiteral("desktop.stop"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                respond(s.gate.stop(call.caller.auditPeer(),
                                    call.caller.isGui() ? QStringLiteral("gui") : QStringLiteral("client")));
            }});
        // Resuming needs a person's yes (the GUI's own resume is one).
        add(QStringLiteral("desktop.resume"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                if (call.caller.isGui()) {
                    const bool resumed = s.gate.resumeFromGui(QStringLiteral("user"));
                    return respond(
                        QJsonObject{{QStringLiteral("resumed"), resumed}, {QStringLiteral("paused"), false}});
                }
                s.gate.resume(call.caller, call.meta, respond);
            }});
        // The owner's rules (docs/protocol.md §5.28): a loosening change waits for a person.
        add(QStringLiteral("desktop.policy"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                OwnerRules* rules = s.diagnostics.rules();
                if (!rules)
                    return respond(Error::make(Automation::ErrorCode::HostNotReady,
                                               QStringLiteral("this host keeps no owner's rules"),
                                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_rules")}}));
                QJsonObject params = call.params;
                params.remove(QStringLiteral("meta"));
                rules->handle(call.caller, call.meta, params, respond);
            }});
        // The remote agent (docs/remote.md): its state, and a person's or a local client's say
        // over where it dials. The remote caller itself has no tool that reaches these.
        add(QStringLiteral("desktop.remote.status"),
            MethodKind::Immediate{[](Services& s, const Call&, const Respond& respond) {
                if (RemoteControl* remote = s.diagnostics.remote())
                    return respond(remote->status());
                respond(QJsonObject{{QStringLiteral("state"), QStringLiteral("off")}});
            }});
        add(QStringLiteral("desktop.remote.connect"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                RemoteControl* remote = s.diagnostics.remote();
                if (!remote)
                    return respond(noRemoteAgent());
                // A server's actions approved without asking: only a person may choose that server.
                Caller remoteCaller;
                remoteCaller.transport = Transport::Remote;
                if (!call.caller.isGui() && s.gate.providerFor(remoteCaller)->policyName() == QLatin1String("auto")) {
                    s.gate.audit(QStringLiteral("remote_connect_refused"), call.caller.auditPeer(),
                                 QJsonObject{{QStringLiteral("reason"), QStringLiteral("remote_policy_auto")}});
                    return respond(Error::make(
                        Automation::ErrorCode::ConfirmRequired,
                        QStringLiteral("the remote policy approves every action without asking, so only a person "
                                       "(Settings, or the host's command line) may choose the control server"),
                        QJsonObject{{QStringLiteral("reason"), QStringLiteral("remote_policy_auto")}}));
                }
                auto params = call.params;
                params.remove(QStringLiteral("meta"));
                const auto answer = remote->connectTo(params);
                if (answer)
                    s.gate.audit(QStringLiteral("remote_connect"), call.caller.auditPeer(),
                                 QJsonObject{{QStringLiteral("server"), answer->value(QStringLiteral("server"))},
                                             {QStringLiteral("via"), call.caller.transportName()}});
                respond(answer);
            }});
        add(QStringLiteral("desktop.remote.disconnect"),
            remoteAction(QStringLiteral("remote_disconnect"),
                         [](RemoteControl& remote, const Respond& respond) { respond(remote.disconnect()); }));
        add(QStringLiteral("desktop.remote.forget"),
            remoteAction(QStringLiteral("remote_forget"),
                         [](RemoteControl& remote, const Respond& respond) { remote.forget(respond); }));
        // The GUI's windows, for `msgcode-desktop-host --inspector` when a host already runs.
        add(QStringLiteral("desktop.gui.open"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                const QString window = call.params.value(QStringLiteral("window")).toString();
                if (window != QLatin1String("inspector"))
                    return respond(
                        Error::invalidParam(QStringLiteral("window"), QStringLiteral("window must be \"inspector\"")));
                const auto opened = s.diagnostics.openWindow(window);
                if (!opened)
                    return respond(Error::make(Automation::ErrorCode::HostNotReady,
                                               QStringLiteral("this host runs without windows (--headless)"),
                                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("headless")}}));
                respond(QJsonObject{{QStringLiteral("opened"), *opened}, {QStringLiteral("window"), window}});
            }});
        // The event stream (docs/protocol.md §5.24): notifications on the caller's own connection.
        add(QStringLiteral("desktop.subscribe"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                EventHub* hub = s.diagnostics.events();
                if (!hub)
                    return respond(Error::make(Automation::ErrorCode::HostNotReady,
                                               QStringLiteral("this host has no event stream"),
                                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_events")}}));
                // Events stream on a socket connection (the local socket, the MCP door's).
                if (call.caller.connectionId == 0 ||
                    (call.caller.transport != Transport::LocalSocket && call.caller.transport != Transport::McpDoor))
                    return respond(Error::invalidParam(QStringLiteral("meta"),
                                                       QStringLiteral("events are streamed on a socket connection")));
                // Types, the kinds' names, since and epoch: checked against the declaration.
                EventHub::Filter filter;
                for (const auto& kind : call.params.value(QStringLiteral("kinds")).toArray())
                    filter.kinds.append(kind.toString());
                // The strings form, or the contract's route object that a client passes to every
                // method (docs/protocol.md §4.3).
                QJsonArray ignored;
                if (auto applied = EventHub::applyRoute(call.params.value(QStringLiteral("route")), filter, ignored);
                    !applied)
                    return respond(applied.error());
                const QJsonValue selector = call.params.value(QStringLiteral("selector"));
                if (!selector.isUndefined()) {
                    auto parsed = EventHub::subscriptionSelector(selector);
                    if (!parsed)
                        return respond(parsed.error());
                    if (std::none_of(filter.kinds.cbegin(), filter.kinds.cend(), &EventHub::isElementKind))
                        return respond(Error::invalidParam(
                            QStringLiteral("selector"),
                            QStringLiteral("a selector filters element events: name them in kinds (focus.changed, "
                                           "element.childrenChanged, …)")));
                    filter.selector = std::make_shared<const Automation::Selector>(std::move(parsed.value()));
                }
                std::optional<qint64> since;
                if (const QJsonValue sinceValue = call.params.value(QStringLiteral("since")); sinceValue.isDouble())
                    since = sinceValue.toInteger();
                const QJsonValue epoch = call.params.value(QStringLiteral("epoch"));
                // Recorded from now, delivered after the answer: the sources these kinds need
                // (the window list) first learn what is there, on their own thread, so that
                // anything that appears once the answer is out is news (docs/protocol.md §5.24).
                // What was published meanwhile follows the answer, from its cursor.
                const quint64 generation = hub->subscribeHeld(call.caller.connectionId, filter);
                QJsonObject answer{{QStringLiteral("subscribed"), true},
                                   {QStringLiteral("cursor"), hub->cursor()},
                                   {QStringLiteral("epoch"), hub->epoch()},
                                   {QStringLiteral("kinds"), QJsonArray::fromStringList(filter.kinds)}};
                if (filter.selector)
                    answer.insert(QStringLiteral("selector"), filter.selector->toJson());
                if (!ignored.isEmpty())
                    answer.insert(QStringLiteral("ignored"), ignored);
                const quint64 connection = call.caller.connectionId;
                const qint64 from = since.value_or(hub->cursor());
                const QString fromEpoch = since ? epoch.toString() : QString();
                hub->whenSourcesReady([hub, connection, generation, from, fromEpoch, answer, respond] {
                    // Replaced by a later subscribe, or ended by unsubscribe, while it waited:
                    // this one never streams, and says so.
                    if (!hub->isCurrent(connection, generation))
                        return respond(QJsonObject{{QStringLiteral("subscribed"), false},
                                                   {QStringLiteral("reason"), QStringLiteral("superseded")},
                                                   {QStringLiteral("epoch"), hub->epoch()}});
                    respond(answer);
                    hub->activate(connection, generation, from, fromEpoch);
                });
            }});
        add(QStringLiteral("desktop.unsubscribe"),
            MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                EventHub* hub = s.diagnostics.events();
                respond(
                    QJsonObject{{QStringLiteral("unsubscribed"), hub && hub->unsubscribe(call.caller.connectionId)}});
            }});
        // rpc.discover: what a client library or an LLM tool loader reads; no evidence, no worker.
        add(QStringLiteral("rpc.discover"), MethodKind::Immediate{[](Services&, const Call&, const Respond& respond) {
                static const QJsonObject document = Contract::Schema::openRpc();
                respond(document);
            }});
        // `read` is read-only, `write` a side effect (the declaration's actions); written text
        // is kept as typed text is.
        add(QStringLiteral("desktop.clipboard"),
            MethodKind::SideEffect{prepareWith(&Params::clipboard, &Methods::clipboard)}, redactTypedText);
        // `list` is read-only; launch, quit and relaunch are side effects (class app).
        add(QStringLiteral("desktop.app"), MethodKind::SideEffect{prepareWith(&Params::app, &Methods::app)});
        add(QStringLiteral("desktop.displays"),
            MethodKind::ReadOnly{prepareWith(&Params::displays, &Methods::displays)});
        add(QStringLiteral("desktop.fileDialog"),
            MethodKind::SideEffect{prepareWith(&Params::fileDialog, &Methods::fileDialog)});
        for (const auto& declaration : Contract::methods()) {
            if (!t.find(declaration.name))
                qFatal("method %s is declared but has no handler", qPrintable(declaration.name));
        }
        return t;
    }();
    return table;
}

} // namespace Bridge
