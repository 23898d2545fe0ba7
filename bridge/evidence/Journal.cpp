#include "bridge/evidence/Journal.h"

#include "bridge/evidence/EvidenceDirectory.h"
#include "bridge/evidence/EvidenceLayout.h"
#include "bridge/evidence/ExecutionRecord.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QSet>

namespace Evidence {

Q_LOGGING_CATEGORY(lcJournal, "msgcode.evidence.journal")

Journal::Journal(QString dataDir)
    : m_path(dataDir.isEmpty() ? QString() : dataDir + QLatin1Char('/') + Layout::journalFile())
{
}

void Journal::append(char mark, const QString& workspaceReal, const QString& relativeDir)
{
    if (m_path.isEmpty())
        return;
    QMutexLocker lock(&m_mutex);
    // Bounded: when nothing is open the file starts over.
    const bool restart = m_open == 0 && m_lines > 1000;
    QFile file(m_path);
    if (!file.open(restart ? QIODevice::WriteOnly | QIODevice::Truncate : QIODevice::Append)) {
        qCWarning(lcJournal) << "cannot write" << m_path << ":" << file.errorString();
        return;
    }
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (restart)
        m_lines = 0;
    file.write(QByteArray(1, mark) + QFile::encodeName(workspaceReal) + '\t' + QFile::encodeName(relativeDir) + '\n');
    ++m_lines;
    m_open += mark == '+' ? 1 : -1;
}

void Journal::opened(const QString& workspaceReal, const QString& relativeDir)
{
    append('+', workspaceReal, relativeDir);
}

void Journal::closed(const QString& workspaceReal, const QString& relativeDir)
{
    append('-', workspaceReal, relativeDir);
}

Journal::Recovery Journal::recover()
{
    Recovery recovery;
    if (m_path.isEmpty())
        return recovery;
    QFile file(m_path);
    QList<QByteArray> open;
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray& raw : file.readAll().split('\n')) {
            if (raw.size() < 2)
                continue;
            const QByteArray entry = raw.mid(1);
            if (raw.at(0) == '+' && !open.contains(entry))
                open.append(entry);
            else if (raw.at(0) == '-')
                open.removeAll(entry);
        }
        file.close();
    }
    for (const QByteArray& entry : std::as_const(open)) {
        const qsizetype tab = entry.indexOf('\t');
        if (tab <= 0)
            continue;
        const QString workspace = QFile::decodeName(entry.left(tab));
        const QString relative = QFile::decodeName(entry.mid(tab + 1));
        // Opened without following symlinks, as every evidence write is.
        QString error;
        auto dir = Directory::open(workspace, relative, &error);
        if (!dir) {
            qCWarning(lcJournal) << "cannot recover" << workspace << relative << ":" << error;
            continue;
        }
        recovery.temporariesRemoved += dir->removeTemporaries();
        const QByteArray line =
            QJsonDocument(
                QJsonObject{{QStringLiteral("t"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                            {QStringLiteral("step"), Layout::interruptedStep()},
                            {QStringLiteral("ms"), 0},
                            {QStringLiteral("ok"), false},
                            {QStringLiteral("details"),
                             QJsonObject{{QStringLiteral("reason"),
                                          QStringLiteral("the host stopped before the execution answered")}}}})
                .toJson(QJsonDocument::Compact) +
            '\n';
        dir->appendFile(Layout::traceFile(), line, true);
        if (!dir->readFile(Layout::summaryFile()))
            dir->writeFile(Layout::summaryFile(), ExecutionRecord::interruptedSummary());
        ++recovery.interrupted;
    }
    // A fresh journal for this host.
    QSaveFile fresh(m_path);
    if (fresh.open(QIODevice::WriteOnly) && fresh.commit())
        QFile::setPermissions(m_path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (recovery.interrupted > 0)
        qCInfo(lcJournal) << "marked" << recovery.interrupted << "interrupted executions;"
                          << recovery.temporariesRemoved << "temporary files removed";
    return recovery;
}

} // namespace Evidence
