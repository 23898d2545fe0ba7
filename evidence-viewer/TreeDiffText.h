#pragma once

#include "automation/Types.h"
#include "bridge/evidence/TreeDiff.h"

#include <QCoreApplication>

namespace EvidenceViewer {

/// Recorded trees and their differences in words, for a person reading evidence: what the
/// selector lab and the replay's tree diff say. No widgets; the evidence browser shows the text.
class TreeDiffText
{
    Q_DECLARE_TR_FUNCTIONS(TreeDiffText)

public:
    /// A node as a person reads it: role and title.
    static QString describe(const Automation::Node& node);
    /// One change between two trees, in words.
    static QString describe(const Automation::Snapshot& before, const Automation::Snapshot& after,
                            const Evidence::NodeChange& change);
    /// Why a selector's result differs between an older and a newer tree: what became of the
    /// former winner, where the new one came from, and how much of the tree changed.
    static QString explainDifference(const Automation::Snapshot& older, const QList<Automation::Candidate>& olderFound,
                                     const Automation::Snapshot& newer, const QList<Automation::Candidate>& newerFound);
};

} // namespace EvidenceViewer
