#pragma once

#include "automation/Types.h"

namespace Automation {

/// Matches a Selector against a Snapshot: pure, no platform calls.
class SelectorEngine
{
public:
    /// Every node that satisfies all of the selector's criteria, best first: exact beats contains,
    /// visible and enabled beat hidden and disabled, then document order. `limit` is not applied.
    static QList<Candidate> match(const Snapshot& snapshot, const Selector& selector);

    /// Whether `role` names the node's role, in the AX vocabulary or the platform's own.
    static bool roleMatches(const Node& node, const QString& role);

    /// The candidates as written to selectors/candidates.json.
    static QJsonObject candidatesJson(const Snapshot& snapshot, const Selector& selector,
                                      const QList<Candidate>& candidates, const QJsonObject& selectorJson);
};

} // namespace Automation
