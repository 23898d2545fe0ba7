#include "evidence-viewer/SelectorLab.h"

#include "automation/SelectorEngine.h"
#include "evidence-viewer/TreeDiffText.h"

#include <QJsonDocument>

namespace EvidenceViewer {

SelectorLab::Run SelectorLab::run(const QString& selectorJson, const QList<Recorded>& oldestFirst, qint64 maxTreeBytes)
{
    Run out;
    const QJsonDocument document = QJsonDocument::fromJson(selectorJson.toUtf8());
    if (!document.isObject()) {
        out.status = tr("The selector must be a JSON object.");
        return out;
    }
    QJsonObject selectorObject = document.object();
    if (selectorObject.contains(QStringLiteral("selector")))
        selectorObject = selectorObject.value(QStringLiteral("selector")).toObject();
    const auto selector = Automation::Selector::fromJson(selectorObject);
    if (!selector) {
        out.status = selector.error().message;
        return out;
    }
    out.ran = true;
    int trees = 0;
    std::optional<Automation::Snapshot> older;
    QList<Automation::Candidate> olderFound;
    for (const Recorded& recorded : oldestFirst) {
        const Row& source = recorded.row;
        const Evidence::EvidenceReader reader(source.workspace);
        const auto snapshot = reader.snapshot(source.info, maxTreeBytes);
        if (!snapshot) {
            // No tree is not a result; a tree that cannot be read is, and says why.
            if (snapshot.error().details.value(QStringLiteral("reason")).toString() == QLatin1String("not_found"))
                continue;
            out.lines.append(Line{{recorded.when, source.info.method, QString(), QString(),
                                   tr("not read: %1").arg(snapshot.error().message), QString()},
                                  -1,
                                  source.info.executionId});
            continue;
        }
        ++trees;
        const QList<Automation::Candidate> found =
            Automation::SelectorEngine::match(snapshot.value(), selector.value());
        // A find keeps the tree it searched, which may hold no frames or states: matches that
        // need them are undecided there, not absent.
        bool partial = false;
        for (const auto& node : snapshot->nodes)
            partial = partial || !node.detailed;
        const auto winnerOf = [](const Automation::Snapshot& tree, const QList<Automation::Candidate>& list) {
            return list.isEmpty() ? QString() : TreeDiffText::describe(tree.nodes.at(list.constFirst().nodeIndex));
        };
        const QString winner = winnerOf(snapshot.value(), found);
        QString changed;
        if (older && (olderFound.size() != found.size() || winnerOf(*older, olderFound) != winner))
            changed = TreeDiffText::explainDifference(*older, olderFound, snapshot.value(), found);
        out.lines.append(Line{{recorded.when, source.info.method,
                               found.size() > 1 ? tr("%1 (many)").arg(found.size()) : QString::number(found.size()),
                               winner, partial ? tr("partial tree") : tr("full tree"), changed},
                              static_cast<int>(found.size()),
                              source.info.executionId});
        older = snapshot.value();
        olderFound = found;
    }
    out.status = tr("Ran against %n recorded tree(s).", nullptr, trees);
    return out;
}

} // namespace EvidenceViewer
