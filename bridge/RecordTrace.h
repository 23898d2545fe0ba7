#pragma once

#include "automation/Trace.h"
#include "bridge/evidence/ExecutionRecord.h"

namespace Bridge {

/// An execution's evidence as the engine's trace: steps go to trace.jsonl, the tree to ax.json,
/// the candidates to selectors/candidates.json, screenshots under their own names, and text
/// typed into a secure element is taken out of request.json. Thread-safe as the record is.
class RecordTrace final : public Automation::Trace
{
public:
    explicit RecordTrace(Evidence::ExecutionRecord& record) : m_record(record) {}

    void step(const QString& name, qint64 ms, bool ok, const QJsonObject& details) override;
    std::optional<Automation::Error> keepTree(const Automation::Snapshot& snapshot,
                                              const QJsonObject& extra = {}) override;
    std::optional<Automation::Error> keepCandidates(const Automation::Snapshot& snapshot,
                                                    const Automation::Selector& selector,
                                                    const QList<Automation::Candidate>& candidates,
                                                    const QJsonObject& selectorJson) override;
    std::optional<Automation::Error> keepImage(const QString& name, const QByteArray& png) override;
    std::optional<Automation::Error> forgetSecureText(const QJsonObject& textInfo) override;

private:
    // Writes one artifact; a failure to record evidence fails the request.
    std::optional<Automation::Error> write(const QString& name, const QByteArray& bytes);

    Evidence::ExecutionRecord& m_record;
};

} // namespace Bridge
