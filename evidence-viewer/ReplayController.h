#pragma once

#include "automation/Types.h"
#include "bridge/evidence/EvidenceReader.h"

#include <QJsonObject>
#include <QObject>

#include <functional>

namespace Bridge {
class Dispatcher;
}

namespace EvidenceViewer {

/// The replay of a recorded execution (docs/evidence-viewer.md): its request sent again through
/// the dispatcher, as the person at the host's window, and the answer compared with the recorded
/// one, fact by fact and tree by tree. Holds no widgets; the evidence browser asks the person
/// first and shows what it found.
class ReplayController final : public QObject
{
    Q_OBJECT

public:
    /// What a replay found.
    struct Outcome
    {
        QString status;              ///< the new execution, or why there is none
        QStringList factNames;       ///< the rows of the comparison
        QStringList recorded;        ///< facts() of the recorded answer
        QStringList replayed;        ///< facts() of the new answer
        QString treeSummary;         ///< the trees compared, or why they were not
        QList<QStringList> treeRows; ///< change, element, details
        bool treesTried = false;     ///< the trees were to be compared (the answer had an execution)
        bool treesCompared = false;  ///< both trees read (treeRows may still be empty)
    };
    /// The first facts() compared (the evidence or message always differs).
    static constexpr int kComparedFacts = 4;

    /// `maxTreeBytes`: the largest ax.json read to compare trees.
    explicit ReplayController(qint64 maxTreeBytes, QObject* parent = nullptr);
    void setDispatcher(Bridge::Dispatcher* dispatcher) { m_dispatcher = dispatcher; }
    Bridge::Dispatcher* dispatcher() const { return m_dispatcher; }
    /// Sends `execution`'s request again, without its confirm and with fresh meta; `done` gets
    /// what was found, unless this controller is gone by then. Nothing without a dispatcher or
    /// a request.
    void send(const Evidence::Execution& execution, std::function<void(const Outcome&)> done);

    /// What the replay compares of an answer: outcome, effect, the element acted on, how it was
    /// checked, and the evidence.
    static QStringList facts(const QJsonObject& response);

private:
    /// The target's window in the recorded and the new tree (the whole trees when the target is
    /// not in one).
    void compareTrees(const Automation::Snapshot& recorded, const QJsonObject& recordedResponse,
                      const QString& workspace, const QJsonObject& answer, Outcome* outcome) const;

    qint64 m_maxTreeBytes;
    Bridge::Dispatcher* m_dispatcher = nullptr;
};

} // namespace EvidenceViewer
