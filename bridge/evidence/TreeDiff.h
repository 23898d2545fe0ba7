#pragma once

#include "automation/Types.h"

#include <QHash>
#include <QList>

#include <optional>

namespace Evidence {

/// One difference between two recorded trees.
struct NodeChange
{
    enum class Kind { Added, Removed, Changed };
    enum Attribute : quint32 {
        Title = 1u << 0,
        Value = 1u << 1,
        States = 1u << 2,
        Frame = 1u << 3,
        Description = 1u << 4,
        Identifier = 1u << 5,
    };

    Kind kind = Kind::Changed;
    int before = -1; ///< index into the older tree's nodes (-1 for Added)
    int after = -1;  ///< index into the newer tree's nodes (-1 for Removed)
    /// Added or removed: the nodes of the subtree (this one included). Changed: 1.
    int subtreeNodes = 1;
    /// Changed: which attributes differ (only those both trees read are compared).
    quint32 attributes = 0;
};

/// What changed between two recorded trees (docs/evidence-viewer.md, "Selector lab" and
/// "Replay"): nodes are paired top down, children with the same role and title first (in order),
/// then those with the same role at the same place among their siblings (a renamed button);
/// the rest were added or removed, with their subtrees. Frames and states are compared only
/// where both trees read them (a find's search-only tree has neither), values only where both
/// read text.
class TreeDiff
{
public:
    /// Compares the subtree of `before` at `beforeRoot` with the subtree of `after` at
    /// `afterRoot`; -1 compares the whole trees.
    static TreeDiff compare(const Automation::Snapshot& before, const Automation::Snapshot& after, int beforeRoot = -1,
                            int afterRoot = -1);

    /// The window (AXWindow, or a dialog/sheet/popover role) that holds node `index`, itself if
    /// it is one; -1 when it is in none or out of range.
    static int windowOf(const Automation::Snapshot& snapshot, int index);
    /// The index of the node with `elementId`, -1 when none.
    static int indexOf(const Automation::Snapshot& snapshot, const QString& elementId);

    const QList<NodeChange>& changes() const { return m_changes; }
    /// The newer tree's node paired with the older tree's node `before`.
    std::optional<int> afterOf(int before) const;
    /// The older tree's node paired with the newer tree's node `after`.
    std::optional<int> beforeOf(int after) const;
    /// The removed subtree that holds the older tree's node `before` (its root's change).
    std::optional<NodeChange> removalOf(int before) const;
    /// The change recorded for a paired node, when it changed.
    std::optional<NodeChange> changeOf(int before) const;

    int addedNodes() const { return m_added; }
    int removedNodes() const { return m_removed; }
    int changedNodes() const { return m_changed; }
    bool identical() const { return m_changes.isEmpty(); }

private:
    QList<NodeChange> m_changes;
    QHash<int, int> m_beforeToAfter;
    QHash<int, int> m_afterToBefore;
    QHash<int, int> m_removedRootOf; ///< older node -> index in m_changes of its removed subtree's root
    QHash<int, int> m_changeOf;      ///< older node -> index in m_changes of its Changed entry
    int m_added = 0;
    int m_removed = 0;
    int m_changed = 0;
};

} // namespace Evidence
