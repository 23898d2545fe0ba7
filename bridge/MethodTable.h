#pragma once

#include "bridge/Methods.h"
#include "bridge/Params.h"
#include "bridge/contract/Declaration.h"
#include "bridge/protocol/Meta.h"
#include "bridge/transport/Caller.h"

#include <QJsonObject>
#include <QList>

#include <functional>
#include <optional>
#include <variant>

namespace Bridge {

class ConfirmationGate;
class Diagnostics;
class Executor;

/// What an immediate method sees.
struct Call
{
    Caller caller;
    Meta meta;
    QJsonObject params;
    std::optional<QString> workspaceRealPath;
};

/// A method's answer: a result object or a contract error.
using Respond = std::function<void(const Automation::Result<QJsonObject>&)>;

/// What an immediate method's handler may use.
struct Services
{
    Executor& executor;
    ConfirmationGate& gate;
    Diagnostics& diagnostics;
};

/// A queued method's typed params turned into its job, with the confirm block of the request.
struct Prepared
{
    Methods::MethodJob job;
    ConfirmParams confirm;
};
using Prepare = std::function<Automation::Result<Prepared>(const QJsonObject& params)>;

/// The kinds of method. A side effect is always queued (one at a time, under its deadline,
/// with evidence) and always confirmed: there is no way to write one that is not.
namespace MethodKind {
/// Runs on the executor and writes evidence; no side effect, no confirmation.
struct ReadOnly
{
    Prepare prepare;
};
/// Runs on the executor and writes evidence after the confirmation gate let it through.
struct SideEffect
{
    Prepare prepare;
};
/// Answered on the owner thread without queueing (health, abort, stop: never behind the job
/// they are about).
struct Immediate
{
    std::function<void(Services&, const Call&, const Respond&)> handle;
};
} // namespace MethodKind

/// One method of the bridge: its declaration (bridge/contract/methods/) and its handler.
struct MethodEntry
{
    using Kind = std::variant<MethodKind::ReadOnly, MethodKind::SideEffect, MethodKind::Immediate>;
    using Redact = std::function<QJsonObject(const QJsonObject& params, bool keepTypedText)>;

    QString name;
    const Contract::Method* declaration = nullptr;
    /// meta.workspacePath required and checked (every queued method: its evidence goes there).
    bool workspaceBound = false;
    /// Never refused for lack of room in the caller's replay window (stop, abort, resume, health).
    bool alwaysAdmitted = false;
    Kind kind;
    /// What request.json keeps of params; `keepTypedText` is the host's setting. Default: all.
    Redact redact;

    bool queued() const { return !std::holds_alternative<MethodKind::Immediate>(kind); }
    /// Whether any request of it may be a side effect.
    bool sideEffect() const { return std::holds_alternative<MethodKind::SideEffect>(kind); }
    /// Whether this very request is a side effect (a method with actions: the selected one's kind).
    bool sideEffectFor(const QJsonObject& params) const
    {
        return sideEffect() && (!declaration || declaration->sideEffectFor(params));
    }
    /// The typed params -> job step of a queued method (null for an immediate one).
    const Prepare* prepare() const;
};

/// The host's verdict on a request's shape, as the dispatcher reaches it: meta, then the params
/// against the method's declaration and (queued methods) the typed parser. nullopt: accepted.
std::optional<Automation::Error> checkShape(const MethodEntry& method, const QJsonObject& params);

/// The bridge's methods (the contract's, plus the emergency stop and resume).
class MethodTable
{
public:
    /// Every method the host serves, in the contract's order.
    static const MethodTable& contract();

    const MethodEntry* find(const QString& name) const;
    const QList<MethodEntry>& entries() const { return m_entries; }

private:
    QList<MethodEntry> m_entries;
};

} // namespace Bridge
