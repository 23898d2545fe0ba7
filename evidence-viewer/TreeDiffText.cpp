#include "evidence-viewer/TreeDiffText.h"

#include <QSet>

namespace EvidenceViewer {

QString TreeDiffText::describe(const Automation::Node& node)
{
    return node.title.isEmpty() ? node.role : QStringLiteral("%1 \"%2\"").arg(node.role, node.title);
}

QString TreeDiffText::describe(const Automation::Snapshot& before, const Automation::Snapshot& after,
                               const Evidence::NodeChange& change)
{
    using Evidence::NodeChange;
    switch (change.kind) {
    case NodeChange::Kind::Added:
        return change.subtreeNodes > 1 ? tr("added: %1, with %n node(s) inside", nullptr, change.subtreeNodes - 1)
                                             .arg(describe(after.nodes.at(change.after)))
                                       : tr("added: %1").arg(describe(after.nodes.at(change.after)));
    case NodeChange::Kind::Removed:
        return change.subtreeNodes > 1 ? tr("removed: %1, with %n node(s) inside", nullptr, change.subtreeNodes - 1)
                                             .arg(describe(before.nodes.at(change.before)))
                                       : tr("removed: %1").arg(describe(before.nodes.at(change.before)));
    case NodeChange::Kind::Changed:
        break;
    }
    const Automation::Node& was = before.nodes.at(change.before);
    const Automation::Node& now = after.nodes.at(change.after);
    QStringList what;
    if (change.attributes & NodeChange::Title)
        what.append(tr("title \"%1\" → \"%2\"").arg(was.title, now.title));
    if (change.attributes & NodeChange::Value)
        what.append(tr("value changed"));
    if (change.attributes & NodeChange::States) {
        const QStringList a = was.stateNames();
        const QStringList b = now.stateNames();
        QStringList gained;
        QStringList lost;
        for (const QString& state : b) {
            if (!a.contains(state))
                gained.append(QLatin1Char('+') + state);
        }
        for (const QString& state : a) {
            if (!b.contains(state))
                lost.append(QLatin1Char('-') + state);
        }
        what.append(tr("states %1").arg((lost + gained).join(QLatin1Char(' '))));
    }
    if (change.attributes & NodeChange::Frame)
        what.append(tr("moved or resized"));
    if (change.attributes & NodeChange::Description)
        what.append(tr("description changed"));
    if (change.attributes & NodeChange::Identifier)
        what.append(tr("identifier \"%1\" → \"%2\"").arg(was.identifier, now.identifier));
    return tr("%1: %2").arg(describe(was), what.join(QStringLiteral(", ")));
}

QString TreeDiffText::explainDifference(const Automation::Snapshot& older,
                                        const QList<Automation::Candidate>& olderFound,
                                        const Automation::Snapshot& newer,
                                        const QList<Automation::Candidate>& newerFound)
{
    if (!older.appName.isEmpty() && !newer.appName.isEmpty() && older.appName != newer.appName)
        return tr("another app: %1, then %2").arg(older.appName, newer.appName);
    const Evidence::TreeDiff diff = Evidence::TreeDiff::compare(older, newer);
    QStringList why;
    QSet<int> newerFoundSet;
    for (const auto& c : newerFound)
        newerFoundSet.insert(c.nodeIndex);
    if (!olderFound.isEmpty()) {
        const int was = olderFound.constFirst().nodeIndex;
        const auto now = diff.afterOf(was);
        if (!now) {
            const auto removal = diff.removalOf(was);
            why.append(removal && removal->before != was
                           ? tr("the former winner %1 is gone with %2")
                                 .arg(describe(older.nodes.at(was)), describe(older.nodes.at(removal->before)))
                           : tr("the former winner %1 is gone").arg(describe(older.nodes.at(was))));
        } else if (!newerFoundSet.contains(*now)) {
            const auto change = diff.changeOf(was);
            why.append(change ? tr("the former winner no longer matches: %1").arg(describe(older, newer, *change))
                              : tr("the former winner %1 no longer matches").arg(describe(older.nodes.at(was))));
        } else if (newerFound.constFirst().nodeIndex != *now) {
            why.append(tr("the former winner %1 is outranked").arg(describe(older.nodes.at(was))));
        }
    }
    if (!newerFound.isEmpty()) {
        const int is = newerFound.constFirst().nodeIndex;
        const auto was = diff.beforeOf(is);
        bool matchedBefore = false;
        for (const auto& c : olderFound)
            matchedBefore = matchedBefore || (was && c.nodeIndex == *was);
        if (!was) {
            why.append(tr("new: %1").arg(describe(newer.nodes.at(is))));
        } else if (!matchedBefore) {
            const auto change = diff.changeOf(*was);
            why.append(change ? tr("now matches: %1").arg(describe(older, newer, *change))
                              : tr("now matches: %1").arg(describe(newer.nodes.at(is))));
        }
    }
    if (olderFound.size() != newerFound.size())
        why.append(tr("%1 → %2 matches").arg(olderFound.size()).arg(newerFound.size()));
    why.append(tr("in the tree: %1 added, %2 removed, %3 changed")
                   .arg(diff.addedNodes())
                   .arg(diff.removedNodes())
                   .arg(diff.changedNodes()));
    return why.join(QStringLiteral("; "));
}

} // namespace EvidenceViewer
