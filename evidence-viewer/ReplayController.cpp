#include "evidence-viewer/ReplayController.h"

#include "bridge/Dispatcher.h"
#include "bridge/evidence/TreeDiff.h"
#include "evidence-viewer/TreeDiffText.h"

#include <QPointer>
#include <QUuid>

namespace EvidenceViewer {

ReplayController::ReplayController(qint64 maxTreeBytes, QObject* parent) : QObject(parent), m_maxTreeBytes(maxTreeBytes)
{
}

QStringList ReplayController::facts(const QJsonObject& response)
{
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    const QJsonObject error = response.value(QStringLiteral("error")).toObject();
    const QJsonObject target = result.value(QStringLiteral("target")).toObject();
    return {error.isEmpty() ? QStringLiteral("ok") : error.value(QStringLiteral("code")).toString(),
            result.value(QStringLiteral("effect")).toString(),
            target.isEmpty() ? QString()
                             : QStringLiteral("%1 \"%2\"")
                                   .arg(target.value(QStringLiteral("role")).toString(),
                                        target.value(QStringLiteral("title")).toString()),
            result.value(QStringLiteral("verification")).toObject().value(QStringLiteral("reason")).toString(),
            error.isEmpty()
                ? result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString()
                : error.value(QStringLiteral("message")).toString()};
}

void ReplayController::send(const Evidence::Execution& execution, std::function<void(const Outcome&)> done)
{
    if (!m_dispatcher || !execution.request)
        return;
    const QJsonObject request = *execution.request;
    const QString method = request.value(QStringLiteral("method")).toString();
    QJsonObject params = request.value(QStringLiteral("params")).toObject();
    const QJsonObject oldMeta = params.value(QStringLiteral("meta")).toObject();
    params.remove(QStringLiteral("confirm"));
    params.insert(QStringLiteral("meta"),
                  QJsonObject{{QStringLiteral("schemaVersion"), 1},
                              {QStringLiteral("requestId"), QUuid::createUuid().toString(QUuid::WithoutBraces)},
                              {QStringLiteral("workspacePath"), oldMeta.value(QStringLiteral("workspacePath"))},
                              {QStringLiteral("timeoutMs"), oldMeta.value(QStringLiteral("timeoutMs")).toInt(20000)}});
    const QJsonObject recorded = execution.response.value_or(QJsonObject());
    const std::optional<Automation::Snapshot> recordedTree = execution.snapshot;
    const QString workspace = oldMeta.value(QStringLiteral("workspacePath")).toString();
    QPointer<ReplayController> self(this);
    m_dispatcher->call(
        Bridge::Caller::gui(), method, params,
        [self, recorded, recordedTree, workspace, method,
         done = std::move(done)](const Automation::Result<QJsonObject>& answer) {
            if (!self)
                return;
            const QJsonObject now = answer ? QJsonObject{{QStringLiteral("result"), answer.value()}}
                                           : QJsonObject{{QStringLiteral("error"), answer.error().toJson()}};
            Outcome outcome;
            outcome.factNames = {tr("Outcome"), tr("Effect"), tr("Element"), tr("Verification"),
                                 tr("Evidence or message")};
            outcome.recorded = facts(recorded);
            outcome.replayed = facts(now);
            outcome.status = answer ? tr("Replayed %1: a new execution, %2.")
                                          .arg(method, answer->value(QStringLiteral("executionId")).toString())
                                    : tr("Replayed %1: %2").arg(method, answer.error().message);
            if (recordedTree && answer)
                self->compareTrees(*recordedTree, recorded, workspace, answer.value(), &outcome);
            else
                outcome.treeSummary = recordedTree ? tr("No tree to compare: the replay did not run.")
                                                   : tr("No tree to compare: the recorded execution kept none.");
            done(outcome);
        });
}

void ReplayController::compareTrees(const Automation::Snapshot& recorded, const QJsonObject& recordedResponse,
                                    const QString& workspace, const QJsonObject& answer, Outcome* outcome) const
{
    outcome->treesTried = true;
    const Evidence::EvidenceReader reader(workspace);
    const auto info = reader.find(answer.value(QStringLiteral("executionId")).toString());
    const auto now =
        info ? reader.snapshot(info.value(), m_maxTreeBytes) : Automation::Result<Automation::Snapshot>(info.error());
    if (!now) {
        outcome->treeSummary = tr("No tree to compare: %1").arg(now.error().message);
        return;
    }
    // The target's window in each tree (the whole trees when the target is not in one).
    const auto targetId = [](const QJsonObject& result) {
        return result.value(QStringLiteral("target")).toObject().value(QStringLiteral("elementId")).toString();
    };
    const int oldTarget =
        Evidence::TreeDiff::indexOf(recorded, targetId(recordedResponse.value(QStringLiteral("result")).toObject()));
    const int newTarget = Evidence::TreeDiff::indexOf(now.value(), targetId(answer));
    const int oldWindow = Evidence::TreeDiff::windowOf(recorded, oldTarget);
    const int newWindow = Evidence::TreeDiff::windowOf(now.value(), newTarget);
    const bool windows = oldWindow >= 0 && newWindow >= 0;
    const Evidence::TreeDiff diff =
        Evidence::TreeDiff::compare(recorded, now.value(), windows ? oldWindow : -1, windows ? newWindow : -1);
    const QString scope = windows ? tr("the target's window %1").arg(TreeDiffText::describe(now->nodes.at(newWindow)))
                                  : tr("the whole tree");
    outcome->treeSummary = diff.identical() ? tr("Trees compared (%1): nothing changed.").arg(scope)
                                            : tr("Trees compared (%1): %2 added, %3 removed, %4 changed.")
                                                  .arg(scope)
                                                  .arg(diff.addedNodes())
                                                  .arg(diff.removedNodes())
                                                  .arg(diff.changedNodes());
    outcome->treesCompared = true;
    constexpr int kMaxRows = 500;
    for (const auto& change : diff.changes()) {
        if (outcome->treeRows.size() >= kMaxRows)
            break;
        using Evidence::NodeChange;
        const QString kind = change.kind == NodeChange::Kind::Added     ? tr("added")
                             : change.kind == NodeChange::Kind::Removed ? tr("removed")
                                                                        : tr("changed");
        const Automation::Node& node =
            change.after >= 0 ? now->nodes.at(change.after) : recorded.nodes.at(change.before);
        outcome->treeRows.append(
            {kind, TreeDiffText::describe(node), TreeDiffText::describe(recorded, now.value(), change)});
    }
}

} // namespace EvidenceViewer
