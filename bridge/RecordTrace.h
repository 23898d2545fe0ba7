#pragma once

#include "automation/Trace.h"
#include "bridge/evidence/ExecutionRecord.h"

#include <QMutex>

namespace Bridge {

/// An execution's evidence as the engine's trace: steps go to trace.jsonl, the tree to ax.json,
/// the candidates to selectors/candidates.json, screenshots under their own names, and text
/// typed into a secure element is taken out of request.json. Thread-safe as the record is.
class RecordTrace final : public Automation::Trace
{
public:
    /// `fullTrees`: the host keeps complete trees for this execution (a side effect, with the
    /// setting on).
    explicit RecordTrace(Evidence::ExecutionRecord& record, bool fullTrees = false)
        : m_record(record), m_fullTrees(fullTrees)
    {
    }

    void step(const QString& name, qint64 ms, bool ok, const QJsonObject& details) override;
    std::optional<Automation::Error> keepTree(const Automation::Snapshot& snapshot,
                                              const QJsonObject& extra = {}) override;
    std::optional<Automation::Error> keepCandidates(const Automation::Snapshot& snapshot,
                                                    const Automation::Selector& selector,
                                                    const QList<Automation::Candidate>& candidates,
                                                    const QJsonObject& selectorJson) override;
    bool wantsFullTrees() const override { return m_fullTrees; }
    std::optional<Automation::Error> keepImage(const QString& name, const QByteArray& png) override;
    std::optional<Automation::Error> keepJson(const QString& name, const QByteArray& json) override;
    std::optional<Automation::Error> forgetSecureText(const QJsonObject& textInfo) override;
    void numberArtifacts(const QString& label) override;

private:
    /// The numbered name of the next artifact of the numbered steps ("ax/001_open_File.json");
    /// empty when the execution does not number its artifacts.
    QString numbered(const QString& folder, const QString& suffix);
    // Writes one artifact; a failure to record evidence fails the request.
    std::optional<Automation::Error> write(const QString& name, const QByteArray& bytes);

    Evidence::ExecutionRecord& m_record;
    const bool m_fullTrees;
    QMutex m_mutex;
    bool m_numbered = false;
    int m_sequence = 0;
    QString m_label;
};

} // namespace Bridge
