#pragma once

#include "bridge/evidence/EvidenceDirectory.h"
#include "bridge/evidence/Journal.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <QStringList>

#include <memory>
#include <optional>

namespace Evidence {

/// The evidence of one execution (docs/architecture.md, "Evidence"):
/// `<workspace>/artifacts/desktop/YYYY-MM-DD/<executionId>/` with request.json, env.json,
/// trace.jsonl, response.json, summary.md and whatever artifacts the method adds.
/// Thread-safe: the worker adds artifacts and trace steps while the owner finalises.
class ExecutionRecord
{
public:
    ExecutionRecord(QString executionId, QString method, QString workspaceRealPath, QJsonObject request,
                    QJsonObject env, QDateTime receivedAt = QDateTime::currentDateTimeUtc());

    /// The relative directory for an execution: artifacts/desktop/<UTC date>/<executionId>.
    static QString relativeDirFor(const QDateTime& receivedAt, const QString& executionId);

    QString executionId() const { return m_executionId; }
    QString method() const { return m_method; }
    /// The absolute directory path, ending in '/', whether or not it exists yet.
    QString dirPath() const { return m_dirPath; }
    /// The caller's workspace (its real path), where the execution's evidence goes.
    QString workspacePath() const { return m_workspace; }
    QDateTime receivedAt() const { return m_receivedAt; }

    /// Creates the directory (idempotent) and writes request.json and env.json once.
    std::optional<QString> open();
    /// Replaces one of the request's params in request.json (rewritten when already on disk),
    /// e.g. typed text kept by choice that turned out to go into a secure element.
    std::optional<QString> redactRequestParam(const QString& key, const QJsonValue& replacement);
    /// Adds `extra`'s members to env.json (rewritten when already on disk): what the execution
    /// found out about its surroundings (display, frontmost window, target window, delivery).
    std::optional<QString> amendEnv(const QJsonObject& extra);
    /// Writes one artifact (e.g. "ax.json", "selectors/candidates.json") atomically.
    std::optional<QString> writeArtifact(const QString& relativeFile, const QByteArray& data);
    QStringList artifacts() const;

    /// Whether the "start" trace line is flushed to the disk before the execution goes on (for
    /// executions that may inject input; on by default). A read-only one needs no such point.
    void setDurableStart(bool durable) { m_durableStart = durable; }

    /// Appends a trace step; `ms` is its duration.
    void trace(const QString& step, qint64 ms, bool ok, const QJsonObject& details = {});

    /// Times a step from construction to finish() (or destruction, then recorded as failed).
    class Step
    {
    public:
        Step(ExecutionRecord& record, QString name);
        ~Step();
        void finish(bool ok, const QJsonObject& details = {});

    private:
        ExecutionRecord& m_record;
        QString m_name;
        QElapsedTimer m_timer;
        bool m_done = false;
    };

    /// Writes response.json, trace.jsonl and summary.md (creating the directory if the
    /// execution never started). `outcome` is "ok" or an error code; `message` a line for the summary.
    std::optional<QString> finalize(const QJsonObject& responseEnvelope, const QString& outcome,
                                    const QString& message);
    /// Rewrites trace.jsonl after steps arrived late (a backend call that returned after the answer).
    std::optional<QString> rewriteTrace();

    /// The host's journal of open executions: told when this one's directory opens and when it
    /// is finalized, so a host killed meanwhile leaves a way to find it.
    void setJournal(std::shared_ptr<Journal> journal) { m_journal = std::move(journal); }
    /// summary.md of an execution the host stopped in the middle of (see Journal::recover).
    static QByteArray interruptedSummary();

private:
    std::optional<QString> openLocked();
    QByteArray traceBytesLocked() const;
    QByteArray summaryLocked(const QString& outcome, const QString& message) const;

    mutable QMutex m_mutex;
    QString m_executionId;
    QString m_method;
    QString m_workspace;
    QJsonObject m_request;
    QJsonObject m_env;
    QDateTime m_receivedAt;
    QString m_relativeDir;
    QString m_dirPath;
    std::optional<Directory> m_dir;
    bool m_finalized = false;
    std::shared_ptr<Journal> m_journal;
    std::optional<QString> m_openError;
    QStringList m_artifacts;
    QList<QJsonObject> m_trace;
    QElapsedTimer m_clock;
    qint64 m_durationMs = -1;
    bool m_durableStart = true;
};

} // namespace Evidence
