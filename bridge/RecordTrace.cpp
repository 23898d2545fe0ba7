#include "bridge/RecordTrace.h"

#include "automation/SelectorEngine.h"
#include "bridge/evidence/EvidenceLayout.h"

#include <QJsonDocument>

namespace Bridge {

using Automation::Error;
using Automation::ErrorCode;

void RecordTrace::step(const QString& name, qint64 ms, bool ok, const QJsonObject& details)
{
    m_record.trace(name, ms, ok, details);
}

std::optional<Error> RecordTrace::write(const QString& name, const QByteArray& bytes)
{
    if (auto err = m_record.writeArtifact(name, bytes))
        return Error::make(ErrorCode::InternalError, QStringLiteral("cannot write evidence %1: %2").arg(name, *err),
                           QJsonObject{{QStringLiteral("evidenceDir"), m_record.dirPath()}});
    return std::nullopt;
}

std::optional<Error> RecordTrace::keepTree(const Automation::Snapshot& snapshot, const QJsonObject& extra)
{
    return write(Evidence::Layout::axTreeFile(), snapshot.toJsonText(extra));
}

std::optional<Error> RecordTrace::keepCandidates(const Automation::Snapshot& snapshot,
                                                 const Automation::Selector& selector,
                                                 const QList<Automation::Candidate>& candidates,
                                                 const QJsonObject& selectorJson)
{
    return write(Evidence::Layout::candidatesFile(),
                 QJsonDocument(Automation::SelectorEngine::candidatesJson(snapshot, selector, candidates, selectorJson))
                     .toJson(QJsonDocument::Indented));
}

std::optional<Error> RecordTrace::keepImage(const QString& name, const QByteArray& png)
{
    return write(name, png);
}

std::optional<Error> RecordTrace::forgetSecureText(const QJsonObject& textInfo)
{
    if (auto err = m_record.redactRequestParam(QStringLiteral("text"), textInfo))
        return Error::make(ErrorCode::InternalError, QStringLiteral("cannot rewrite request.json: %1").arg(*err));
    return std::nullopt;
}

} // namespace Bridge
