#pragma once

#include "evidence-viewer/IndexModel.h"

#include <QCoreApplication>

namespace EvidenceViewer {

/// The selector lab (docs/evidence-viewer.md): one selector run against the recorded tree of
/// every execution given, each result explained against the one before it in time. No widgets;
/// the evidence browser shows the lines.
class SelectorLab
{
    Q_DECLARE_TR_FUNCTIONS(SelectorLab)

public:
    /// One execution in view, and when it ran as the index shows it.
    struct Recorded
    {
        QString when;
        Row row;
    };
    /// One execution's result: when, method, matches, winner, tree, what changed.
    struct Line
    {
        QStringList cells;
        int matches = -1; ///< -1: the tree could not be read
        QString executionId;
    };
    struct Run
    {
        QList<Line> lines; ///< in the order given
        QString status;
        bool ran = false; ///< false: the selector was refused (status says why)
    };
    /// The column of Line::cells that explains the change since the line before.
    static constexpr int kChangedColumn = 5;

    /// Runs `selectorJson` (a selector, or an object holding one as "selector") against
    /// `oldestFirst`, so that each tree is compared with the one before it in time. Executions
    /// that kept no tree give no line; trees above `maxTreeBytes` are not read.
    static Run run(const QString& selectorJson, const QList<Recorded>& oldestFirst, qint64 maxTreeBytes);
};

} // namespace EvidenceViewer
