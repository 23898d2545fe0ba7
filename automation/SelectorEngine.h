#pragma once

#include "automation/Types.h"

namespace Automation {

/// Matches a Selector against a Snapshot: pure, no platform calls.
class SelectorEngine
{
public:
    /// Every node that satisfies all of the selector's criteria, best first: exact beats contains,
    /// a label relation beats label geometry, nearer beats farther, visible and enabled beat
    /// hidden and disabled, then document order. `nth` keeps one match; `limit` is not applied.
    /// Geometric criteria (byRect, near, labelledBy's geometry) need frames: on a node whose
    /// details were not read yet they pass without score (a first, search-only pass).
    static QList<Candidate> match(const Snapshot& snapshot, const Selector& selector);

    /// The selector without what only a node's details can decide (enabledOnly, visibleOnly),
    /// and without `nth`, nested selectors included: for the first, search-only pass.
    static Selector relaxed(const Selector& selector);

    /// The nodes the nested selectors (labelledBy, near) match, at any depth, best first.
    static QList<int> anchors(const Snapshot& snapshot, const Selector& selector);

    /// Whether `role` names the node's role, in the AX vocabulary or the platform's own.
    static bool roleMatches(const Node& node, const QString& role);

    /// The candidates as written to selectors/candidates.json.
    static QJsonObject candidatesJson(const Snapshot& snapshot, const Selector& selector,
                                      const QList<Candidate>& candidates, const QJsonObject& selectorJson);
};

} // namespace Automation
