#pragma once

#include "bridge/evidence/EvidenceDirectory.h"

#include "automation/Error.h"
#include "automation/Types.h"

#include <QDate>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Evidence {

/// One execution as the listing shows it, read from its small files only.
struct ExecutionInfo
{
    QString executionId; ///< the directory's name, as the request sent it
    QDate date;          ///< the date folder (UTC)
    QString relativeDir; ///< artifacts/desktop/<date>/<executionId>
    QString dirPath;     ///< absolute, ending in '/'
    QString method;      ///< "desktop.find"; empty when neither request.json nor summary.md says
    /// When the host received the request (UTC): summary.md's value, or else derived from the
    /// first trace step (its time less its sinceStartMs); invalid when neither is there.
    QDateTime receivedAt;
    /// "ok" or the error code answered; empty when the execution never answered.
    QString outcome;
    qint64 durationMs = -1; ///< receipt to answer; -1 when it never answered
    bool answered = false;  ///< the trace holds the answer step
    /// The host stopped before the execution answered, and the next host marked it so
    /// (Journal::recover): the trace's "interrupted" step.
    bool interrupted = false;

    bool isError() const { return answered && outcome != QLatin1String("ok"); }
};

/// A directory below artifacts/desktop that the listing passed over, and why.
struct SkippedEntry
{
    QString relativePath;
    QString reason; ///< "symlink", "not_a_date_folder", "not_an_execution", "not_a_directory", "unreadable"
};

/// One line of trace.jsonl.
struct TraceStep
{
    QDateTime t;
    qint64 sinceStartMs = -1; ///< -1 where the line has none (the "interrupted" step)
    QString step;
    qint64 ms = 0;
    bool ok = false;
    QJsonObject details;
};

/// A problem with one file of an execution that did not stop the rest from loading.
struct FileProblem
{
    QString file;
    QString message;
};

/// Everything of one execution, each file read on its own: a missing or malformed file leaves
/// its part empty and says so in `problems`.
struct Execution
{
    ExecutionInfo info;
    std::optional<QJsonObject> request;
    std::optional<QJsonObject> env;
    std::optional<QJsonObject> response;
    QList<TraceStep> trace;
    QStringList artifacts; ///< regular files below the directory (relative, sorted), temporaries left out
    std::optional<Automation::Snapshot> snapshot; ///< ax.json, when there is one and it loads
    QList<FileProblem> problems;
};

/// The read side of the evidence: lists and loads the executions under one workspace without
/// ever following a symlink below it (a link planted in the evidence is reported, not read).
/// Nothing is written. Errors are DESKTOP_INVALID_REQUEST with `details.reason` (`not_found`,
/// `invalid_id`, `symlink`, `not_an_execution`, `unreadable`, `malformed`, `too_large`) and,
/// where one file is at fault, `details.file`.
class EvidenceReader
{
public:
    /// Reads below `workspacePath`, which is resolved once (realpath); everything below it is
    /// opened component by component without following symlinks.
    explicit EvidenceReader(const QString& workspacePath);

    /// The workspace's real path; empty when it does not exist or is not a directory.
    QString workspace() const { return m_workspace; }

    struct Listing
    {
        QList<ExecutionInfo> executions; ///< newest first
        QList<SkippedEntry> skipped;
    };
    /// Every execution under artifacts/desktop, newest first (receivedAt, then date, then id).
    /// Reads request.json when it is small, summary.md and the first and last lines of
    /// trace.jsonl: never ax.json, screenshots or a whole long trace.
    Automation::Result<Listing> list() const;

    /// Finds an execution by id (its directory name; ids compare case-insensitively, as the
    /// host compares them) in any date folder; the newest when several match.
    Automation::Result<ExecutionInfo> find(const QString& executionId) const;

    /// Loads every file of an execution found by find() or list(); an ax.json larger than
    /// `maxTreeBytes` is not read and named in `problems` (the browser keeps its own, lower limit).
    Automation::Result<Execution> load(const ExecutionInfo& info, qint64 maxTreeBytes = kMaxAxTreeBytes) const;
    Automation::Result<Execution> load(const QString& executionId) const;

    /// ax.json of an execution as a Snapshot (Automation::Snapshot::fromJson).
    Automation::Result<Automation::Snapshot> snapshot(const ExecutionInfo& info,
                                                      qint64 maxBytes = kMaxAxTreeBytes) const;

    /// The bytes of one file of an execution (e.g. a screenshot), at most `maxBytes`.
    Automation::Result<QByteArray> readFile(const ExecutionInfo& info, const QString& relativeFile,
                                            qint64 maxBytes = qint64{64} * 1024 * 1024) const;

    /// Limits on what is read: bigger files are refused as `too_large`.
    static constexpr qint64 kMaxJsonBytes = qint64{64} * 1024 * 1024;
    static constexpr qint64 kMaxAxTreeBytes = qint64{512} * 1024 * 1024;

private:
    std::optional<ExecutionInfo> describe(const Directory& dir, const QString& id, const QDate& date,
                                          QString* skipReason) const;
    std::optional<Directory> openExecution(const ExecutionInfo& info, Automation::Error* error) const;

    QString m_workspace;
};

} // namespace Evidence
