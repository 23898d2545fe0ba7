#pragma once

#include <QMutex>
#include <QString>

namespace Evidence {

/// The execution directories the host has open, in a small private file of its data directory
/// (`open-executions.txt`): a line when an execution's evidence is opened, another when it is
/// finalized. A host killed mid-execution leaves lines without their end; the next host
/// recovers those directories: it removes the temporary files a write left behind and marks
/// the execution interrupted (a trace line and a summary that say so).
class Journal
{
public:
    explicit Journal(QString dataDir);

    void opened(const QString& workspaceReal, const QString& relativeDir);
    void closed(const QString& workspaceReal, const QString& relativeDir);

    struct Recovery
    {
        int interrupted = 0;        ///< executions marked interrupted
        int temporariesRemoved = 0; ///< leftover temporary files removed
    };
    /// Recovers what a previous host left open, then starts a fresh journal.
    Recovery recover();

private:
    void append(char mark, const QString& workspaceReal, const QString& relativeDir);

    QString m_path;
    QMutex m_mutex;
    int m_lines = 0;
    int m_open = 0;
};

} // namespace Evidence
