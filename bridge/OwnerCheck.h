#pragma once

#include "automation/Error.h"
#include "automation/Locator.h"
#include "bridge/security/ConfirmationProvider.h"
#include "bridge/security/OwnerPolicy.h"

#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>

namespace Evidence {
class ExecutionRecord;
}

namespace Bridge {

/// The owner's rules and a token's binding, applied on the worker to what the host resolved for
/// a side effect, before any input (docs/protocol.md, "Policy"). Built on the owner thread when
/// the request is admitted, with a copy of the rules in force then.
struct OwnerCheck
{
    QString method;
    QString actionClass;
    QJsonObject params;
    OwnerPolicy policy;
    /// The token's binding, when a token was used (empty: none, or nothing was resolved at issue).
    QJsonObject binding;
    bool byToken = false;
    /// A person approved this very action (the GUI's click, a token a person approved).
    bool byPerson = false;
    /// The host's dialog can be asked now.
    bool personReachable = false;
    /// Asks the person; blocks the worker until they answer, the request's deadline or an abort.
    /// nullopt: approved.
    std::function<std::optional<Automation::Error>(ApprovalRequest, Automation::JobContext&)> askPerson;
    /// Writes an audit line (the host's audit log, on its own thread).
    std::function<void(const QString& event, const QJsonObject& fields)> audit;

    /// nullopt: the side effect may go on.
    std::optional<Automation::Error> run(Automation::JobContext& ctx, Evidence::ExecutionRecord& record) const;
};

} // namespace Bridge
