#include "bridge/evidence/TreeDiff.h"

#include <QHash>
#include <QSet>

#include <utility>

namespace Evidence {

using Automation::Node;
using Automation::Snapshot;

namespace {

QList<int> rootsOf(const Snapshot& snapshot, int root)
{
    if (root >= 0)
        return root < snapshot.nodes.size() ? QList<int>{root} : QList<int>{};
    QList<int> roots;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        const int parent = snapshot.nodes.at(i).parent;
        if (parent < 0 || parent >= snapshot.nodes.size())
            roots.append(i);
    }
    return roots;
}

QList<int> childrenOf(const Snapshot& snapshot, int index)
{
    QList<int> out;
    for (const int child : snapshot.nodes.at(index).children) {
        // Only well-formed links: a recorded tree is a file anyone could have edited.
        if (child > index && child < snapshot.nodes.size() && snapshot.nodes.at(child).parent == index)
            out.append(child);
    }
    return out;
}

int subtreeSize(const Snapshot& snapshot, int index)
{
    int count = 0;
    QList<int> stack{index};
    while (!stack.isEmpty()) {
        const int at = stack.takeLast();
        ++count;
        stack.append(childrenOf(snapshot, at));
    }
    return count;
}

quint32 differences(const Node& a, const Node& b)
{
    quint32 out = 0;
    if (a.title != b.title)
        out |= NodeChange::Title;
    if (a.hasValue && b.hasValue && a.value != b.value)
        out |= NodeChange::Value;
    if (!a.description.isEmpty() && !b.description.isEmpty() && a.description != b.description)
        out |= NodeChange::Description;
    if (!a.identifier.isEmpty() && !b.identifier.isEmpty() && a.identifier != b.identifier)
        out |= NodeChange::Identifier;
    if (a.detailed && b.detailed) {
        if (a.states != b.states)
            out |= NodeChange::States;
        if (!(a.frame == b.frame))
            out |= NodeChange::Frame;
    }
    return out;
}

} // namespace

TreeDiff TreeDiff::compare(const Snapshot& before, const Snapshot& after, int beforeRoot, int afterRoot)
{
    TreeDiff diff;
    const auto removed = [&](int index) {
        NodeChange change;
        change.kind = NodeChange::Kind::Removed;
        change.before = index;
        change.subtreeNodes = subtreeSize(before, index);
        diff.m_removed += change.subtreeNodes;
        const int at = static_cast<int>(diff.m_changes.size());
        diff.m_changes.append(change);
        QList<int> stack{index};
        while (!stack.isEmpty()) {
            const int node = stack.takeLast();
            diff.m_removedRootOf.insert(node, at);
            stack.append(childrenOf(before, node));
        }
    };
    const auto added = [&](int index) {
        NodeChange change;
        change.kind = NodeChange::Kind::Added;
        change.after = index;
        change.subtreeNodes = subtreeSize(after, index);
        diff.m_added += change.subtreeNodes;
        diff.m_changes.append(change);
    };

    // Pairs of siblings still to compare, as (older list, newer list).
    QList<std::pair<QList<int>, QList<int>>> pending{{rootsOf(before, beforeRoot), rootsOf(after, afterRoot)}};
    while (!pending.isEmpty()) {
        const auto [olderList, newerList] = pending.takeLast();
        QList<int> pairOf(olderList.size(), -1);
        QSet<int> taken;
        // Same role and title, in order (a hash of the newer siblings: linear, not quadratic).
        QHash<std::pair<QString, QString>, QList<int>> byText;
        for (int j = static_cast<int>(newerList.size()) - 1; j >= 0; --j) {
            const Node& b = after.nodes.at(newerList.at(j));
            byText[{b.role, b.title}].prepend(j);
        }
        for (int i = 0; i < olderList.size(); ++i) {
            const Node& a = before.nodes.at(olderList.at(i));
            auto it = byText.find({a.role, a.title});
            if (it != byText.end() && !it->isEmpty()) {
                pairOf[i] = it->takeFirst();
                taken.insert(pairOf.at(i));
            }
        }
        // The same control renamed: a leftover right after the same paired sibling (or first in
        // both lists) with the same role. A row removed at the top and another added at the
        // bottom stay what they are.
        for (int i = 0; i < olderList.size(); ++i) {
            if (pairOf.at(i) >= 0)
                continue;
            const int j = i == 0 ? 0 : (pairOf.at(i - 1) >= 0 ? pairOf.at(i - 1) + 1 : -1);
            if (j < 0 || j >= newerList.size() || taken.contains(j))
                continue;
            if (before.nodes.at(olderList.at(i)).role == after.nodes.at(newerList.at(j)).role) {
                pairOf[i] = j;
                taken.insert(j);
            }
        }
        for (int i = 0; i < olderList.size(); ++i) {
            const int a = olderList.at(i);
            if (pairOf.at(i) < 0) {
                removed(a);
                continue;
            }
            const int b = newerList.at(pairOf.at(i));
            diff.m_beforeToAfter.insert(a, b);
            diff.m_afterToBefore.insert(b, a);
            if (const quint32 what = differences(before.nodes.at(a), after.nodes.at(b)); what != 0) {
                NodeChange change;
                change.kind = NodeChange::Kind::Changed;
                change.before = a;
                change.after = b;
                change.attributes = what;
                diff.m_changeOf.insert(a, static_cast<int>(diff.m_changes.size()));
                diff.m_changes.append(change);
                ++diff.m_changed;
            }
            pending.append({childrenOf(before, a), childrenOf(after, b)});
        }
        for (int j = 0; j < newerList.size(); ++j) {
            if (!taken.contains(j))
                added(newerList.at(j));
        }
    }
    return diff;
}

int TreeDiff::windowOf(const Snapshot& snapshot, int index)
{
    static const QSet<QString> windowRoles{QStringLiteral("AXWindow"), QStringLiteral("AXSheet"),
                                           QStringLiteral("AXDrawer")};
    // Bounded by the node count: a malformed file's parent links may loop.
    for (int steps = 0; index >= 0 && index < snapshot.nodes.size() && steps <= snapshot.nodes.size(); ++steps) {
        const Node& node = snapshot.nodes.at(index);
        if (windowRoles.contains(node.role) || node.subrole == QLatin1String("AXDialog"))
            return index;
        index = node.parent;
    }
    return -1;
}

int TreeDiff::indexOf(const Snapshot& snapshot, const QString& elementId)
{
    if (elementId.isEmpty())
        return -1;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        if (snapshot.nodes.at(i).elementId == elementId)
            return i;
    }
    return -1;
}

std::optional<int> TreeDiff::afterOf(int before) const
{
    const auto it = m_beforeToAfter.constFind(before);
    return it == m_beforeToAfter.constEnd() ? std::nullopt : std::optional<int>(*it);
}

std::optional<int> TreeDiff::beforeOf(int after) const
{
    const auto it = m_afterToBefore.constFind(after);
    return it == m_afterToBefore.constEnd() ? std::nullopt : std::optional<int>(*it);
}

std::optional<NodeChange> TreeDiff::removalOf(int before) const
{
    const auto it = m_removedRootOf.constFind(before);
    return it == m_removedRootOf.constEnd() ? std::nullopt : std::optional<NodeChange>(m_changes.at(*it));
}

std::optional<NodeChange> TreeDiff::changeOf(int before) const
{
    const auto it = m_changeOf.constFind(before);
    return it == m_changeOf.constEnd() ? std::nullopt : std::optional<NodeChange>(m_changes.at(*it));
}

} // namespace Evidence
