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

void RecordTrace::numberArtifacts(const QString& label)
{
    // Letters and digits of any script; any run of other characters is one '_' (never at
    // either end).
    QString safe;
    for (const QChar c : label) {
        if (safe.size() >= 40)
            break;
        if (c.isLetterOrNumber())
            safe.append(c);
        else if (!safe.isEmpty() && !safe.endsWith(QLatin1Char('_')))
            safe.append(QLatin1Char('_'));
    }
    while (safe.endsWith(QLatin1Char('_')))
        safe.chop(1);
    QMutexLocker lock(&m_mutex);
    m_numbered = true;
    m_label = safe.isEmpty() ? QStringLiteral("step") : safe;
}

QString RecordTrace::numbered(const QString& folder, const QString& suffix)
{
    QMutexLocker lock(&m_mutex);
    if (!m_numbered)
        return {};
    return QStringLiteral("%1/%2_%3%4").arg(folder).arg(++m_sequence, 3, 10, QLatin1Char('0')).arg(m_label, suffix);
}

std::optional<Error> RecordTrace::keepTree(const Automation::Snapshot& snapshot, const QJsonObject& extra)
{
    const QByteArray text = snapshot.toJsonText(extra);
    if (const QString name = numbered(QStringLiteral("ax"), QStringLiteral(".json")); !name.isEmpty()) {
        if (auto err = write(name, text))
            return err;
    }
    return write(Evidence::Layout::axTreeFile(), text);
}

std::optional<Error> RecordTrace::keepCandidates(const Automation::Snapshot& snapshot,
                                                 const Automation::Selector& selector,
                                                 const QList<Automation::Candidate>& candidates,
                                                 const QJsonObject& selectorJson)
{
    const QByteArray text =
        QJsonDocument(Automation::SelectorEngine::candidatesJson(snapshot, selector, candidates, selectorJson))
            .toJson(QJsonDocument::Indented);
    if (const QString name = numbered(QStringLiteral("selectors"), QStringLiteral(".json")); !name.isEmpty()) {
        if (auto err = write(name, text))
            return err;
    }
    return write(Evidence::Layout::candidatesFile(), text);
}

std::optional<Error> RecordTrace::keepImage(const QString& name, const QByteArray& png)
{
    if (const QString copy = numbered(QStringLiteral("screenshots"), QLatin1Char('_') + name); !copy.isEmpty()) {
        if (auto err = write(copy, png))
            return err;
    }
    return write(name, png);
}

std::optional<Error> RecordTrace::keepJson(const QString& name, const QByteArray& json)
{
    return write(name, json);
}

std::optional<Error> RecordTrace::forgetSecureText(const QJsonObject& textInfo)
{
    if (auto err = m_record.redactRequestParam(QStringLiteral("text"), textInfo))
        return Error::make(ErrorCode::InternalError, QStringLiteral("cannot rewrite request.json: %1").arg(*err));
    return std::nullopt;
}

} // namespace Bridge
