#include "bridge/evidence/ExecutionRecord.h"

#include "bridge/evidence/EvidenceLayout.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace Evidence {

namespace {

QByteArray pretty(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

// The summary's headings, context "Evidence"; a class so lupdate sees the context.
class EvidenceText
{
    Q_DECLARE_TR_FUNCTIONS(Evidence)
};

} // namespace

ExecutionRecord::ExecutionRecord(QString executionId, QString method, QString workspaceRealPath, QJsonObject request,
                                 QJsonObject env, QDateTime receivedAt)
    : m_executionId(std::move(executionId)), m_method(std::move(method)), m_workspace(std::move(workspaceRealPath)),
      m_request(std::move(request)), m_env(std::move(env)), m_receivedAt(receivedAt.toUTC()),
      m_relativeDir(relativeDirFor(m_receivedAt, m_executionId))
{
    m_clock.start();
    QString base = m_workspace;
    if (!base.endsWith(QLatin1Char('/')))
        base += QLatin1Char('/');
    m_dirPath = base + m_relativeDir + QLatin1Char('/');
}

QString ExecutionRecord::relativeDirFor(const QDateTime& receivedAt, const QString& executionId)
{
    return Layout::relativeDir(receivedAt, executionId);
}

std::optional<QString> ExecutionRecord::open()
{
    QMutexLocker lock(&m_mutex);
    return openLocked();
}

std::optional<QString> ExecutionRecord::openLocked()
{
    if (m_dir)
        return std::nullopt;
    if (m_openError)
        return m_openError;
    QString error;
    auto dir = Directory::open(m_workspace, m_relativeDir, &error);
    if (!dir) {
        m_openError = error;
        return m_openError;
    }
    m_dir = std::move(dir);
    if (m_journal)
        m_journal->opened(m_workspace, m_relativeDir);
    for (const auto& [name, object] :
         {std::pair{Layout::requestFile(), m_request}, std::pair{Layout::envFile(), m_env}}) {
        if (auto err = m_dir->writeFile(name, pretty(object)))
            return err;
        m_artifacts.append(name);
    }
    // What was traced before the directory existed (queued, audit), then every step as it comes.
    if (!m_trace.isEmpty()) {
        if (auto err = m_dir->writeFile(Layout::traceFile(), traceBytesLocked()))
            return err;
    }
    return std::nullopt;
}

std::optional<QString> ExecutionRecord::redactRequestParam(const QString& key, const QJsonValue& replacement)
{
    QMutexLocker lock(&m_mutex);
    QJsonObject params = m_request.value(QStringLiteral("params")).toObject();
    if (!params.contains(key))
        return std::nullopt;
    params.insert(key, replacement);
    m_request.insert(QStringLiteral("params"), params);
    if (!m_dir)
        return std::nullopt;
    return m_dir->writeFile(Layout::requestFile(), pretty(m_request));
}

std::optional<QString> ExecutionRecord::amendEnv(const QJsonObject& extra)
{
    QMutexLocker lock(&m_mutex);
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        m_env.insert(it.key(), it.value());
    if (!m_dir)
        return std::nullopt;
    return m_dir->writeFile(Layout::envFile(), pretty(m_env));
}

std::optional<QString> ExecutionRecord::writeArtifact(const QString& relativeFile, const QByteArray& data)
{
    QMutexLocker lock(&m_mutex);
    if (auto err = openLocked())
        return err;
    if (auto err = m_dir->writeFile(relativeFile, data))
        return err;
    if (!m_artifacts.contains(relativeFile))
        m_artifacts.append(relativeFile);
    return std::nullopt;
}

QStringList ExecutionRecord::artifacts() const
{
    QMutexLocker lock(&m_mutex);
    return m_artifacts;
}

void ExecutionRecord::trace(const QString& step, qint64 ms, bool ok, const QJsonObject& details)
{
    QJsonObject line{
        {QStringLiteral("t"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {QStringLiteral("sinceStartMs"), m_clock.elapsed()},
        {QStringLiteral("step"), step},
        {QStringLiteral("ms"), ms},
        {QStringLiteral("ok"), ok},
    };
    if (!details.isEmpty())
        line.insert(QStringLiteral("details"), details);
    QMutexLocker lock(&m_mutex);
    m_trace.append(line);
    // Written as it happens, so that a host killed mid-execution leaves evidence of how far it
    // got. The start of an execution is on disk before anything it does (it may inject input).
    if (m_dir && !m_finalized) {
        if (auto err = m_dir->appendFile(Layout::traceFile(), QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n',
                                         m_durableStart && step == QLatin1String("start")))
            qWarning("evidence: %s", qPrintable(*err));
    }
}

ExecutionRecord::Step::Step(ExecutionRecord& record, QString name) : m_record(record), m_name(std::move(name))
{
    m_timer.start();
}

ExecutionRecord::Step::~Step()
{
    if (!m_done)
        finish(false);
}

void ExecutionRecord::Step::finish(bool ok, const QJsonObject& details)
{
    if (m_done)
        return;
    m_done = true;
    m_record.trace(m_name, m_timer.elapsed(), ok, details);
}

QByteArray ExecutionRecord::traceBytesLocked() const
{
    QByteArray out;
    for (const auto& line : m_trace) {
        out += QJsonDocument(line).toJson(QJsonDocument::Compact);
        out += '\n';
    }
    return out;
}

QByteArray ExecutionRecord::summaryLocked(const QString& outcome, const QString& message) const
{
    QString md;
    md += QStringLiteral("# %1 — %2\n\n").arg(m_method, m_executionId);
    md += QStringLiteral("- %1: %2\n").arg(EvidenceText::tr("Outcome"), outcome);
    if (!message.isEmpty())
        md += QStringLiteral("- %1: %2\n").arg(EvidenceText::tr("Message"), message);
    md += QStringLiteral("- %1: %2\n").arg(EvidenceText::tr("Received"), m_receivedAt.toString(Qt::ISODateWithMs));
    md += QStringLiteral("- %1: %2 ms\n").arg(EvidenceText::tr("Duration"), QString::number(m_durationMs));
    const QJsonObject peer = m_env.value(QStringLiteral("peer")).toObject();
    if (!peer.isEmpty()) {
        md += QStringLiteral("- %1: pid %2, %3\n")
                  .arg(EvidenceText::tr("Caller"), QString::number(peer.value(QStringLiteral("pid")).toInteger()),
                       peer.value(QStringLiteral("executable")).toString());
    }
    md += QStringLiteral("\n## %1\n\n").arg(EvidenceText::tr("Files"));
    QStringList files = m_artifacts;
    for (const auto& name : {Layout::traceFile(), Layout::responseFile(), Layout::summaryFile()}) {
        if (!files.contains(name))
            files.append(name);
    }
    for (const auto& file : files)
        md += QStringLiteral("- `%1`\n").arg(file);
    md += QStringLiteral("\n## %1\n\n| %2 | ms | ok |\n|---|---:|---|\n")
              .arg(EvidenceText::tr("Trace"), EvidenceText::tr("step"));
    for (const auto& line : m_trace) {
        md += QStringLiteral("| %1 | %2 | %3 |\n")
                  .arg(line.value(QStringLiteral("step")).toString(),
                       QString::number(line.value(QStringLiteral("ms")).toInteger()),
                       line.value(QStringLiteral("ok")).toBool() ? QStringLiteral("yes") : QStringLiteral("no"));
    }
    return md.toUtf8();
}

std::optional<QString> ExecutionRecord::finalize(const QJsonObject& responseEnvelope, const QString& outcome,
                                                 const QString& message)
{
    QMutexLocker lock(&m_mutex);
    if (auto err = openLocked())
        return err;
    m_durationMs = m_clock.elapsed();
    m_finalized = true; // from now on the whole trace is rewritten atomically (rewriteTrace)
    m_trace.append(QJsonObject{{QStringLiteral("t"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                               {QStringLiteral("sinceStartMs"), m_durationMs},
                               {QStringLiteral("step"), Layout::answerStep()},
                               {QStringLiteral("ms"), 0},
                               {QStringLiteral("ok"), outcome == QLatin1String("ok")},
                               {QStringLiteral("details"), QJsonObject{{QStringLiteral("outcome"), outcome}}}});
    if (auto err = m_dir->writeFile(Layout::responseFile(), pretty(responseEnvelope)))
        return err;
    if (auto err = m_dir->writeFile(Layout::traceFile(), traceBytesLocked()))
        return err;
    if (auto err = m_dir->writeFile(Layout::summaryFile(), summaryLocked(outcome, message)))
        return err;
    for (const auto& name : {Layout::responseFile(), Layout::traceFile(), Layout::summaryFile()}) {
        if (!m_artifacts.contains(name))
            m_artifacts.append(name);
    }
    if (m_journal)
        m_journal->closed(m_workspace, m_relativeDir);
    return std::nullopt;
}

QByteArray ExecutionRecord::interruptedSummary()
{
    return (QStringLiteral("# %1\n\n%2\n")
                .arg(EvidenceText::tr("Interrupted"),
                     EvidenceText::tr("The host stopped before this execution answered: trace.jsonl shows how far "
                                      "it got.")))
        .toUtf8();
}

std::optional<QString> ExecutionRecord::rewriteTrace()
{
    QMutexLocker lock(&m_mutex);
    if (auto err = openLocked())
        return err;
    return m_dir->writeFile(Layout::traceFile(), traceBytesLocked());
}

} // namespace Evidence
