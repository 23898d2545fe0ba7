#pragma once

#include "bridge/transport/PeerCredentials.h"

#include <QJsonObject>
#include <QMutex>
#include <QString>
#include <QThreadPool>

namespace Bridge {

/// The host's audit log (docs/architecture.md, "Audit"): one JSON line per security event in
/// `<dataDir>/audit.jsonl`, rotated by size (audit.jsonl.1, .2, ...). Lines are built on the
/// caller's thread and written on a one-thread pool, in order, so the owner thread never waits
/// on the disk. Typed text never reaches it: callers pass lengths and digests only.
class AuditLog
{
public:
    static constexpr qint64 kDefaultMaxBytes = qint64{5} * 1024 * 1024;
    static constexpr int kDefaultFiles = 3;

    /// `dataDir` empty: nothing is written (lines are still returned and logged at debug level).
    explicit AuditLog(QString dataDir, qint64 maxBytes = kDefaultMaxBytes, int files = kDefaultFiles);
    ~AuditLog();

    /// Appends one line {t, event, peer {pid, exe, digest}, ...fields} and returns it, so the
    /// same line can go into an execution's evidence.
    QJsonObject record(const QString& event, const PeerInfo* peer, QJsonObject fields = {});
    /// Waits until every line recorded so far is written (shutdown, tests).
    void flush();

    bool enabled() const { return !m_path.isEmpty(); }
    QString path() const { return m_path; }
    /// The last write error, empty when none.
    QString lastError() const;

    static QJsonObject peerJson(const PeerInfo& peer);

private:
    void write(const QByteArray& line);
    bool openLocked();
    void rotateLocked();

    QString m_dir;
    QString m_path;
    qint64 m_maxBytes;
    int m_files;
    mutable QMutex m_mutex; // guards the file state below (the pool runs one task at a time)
    int m_fd = -1;
    qint64 m_size = 0;
    QString m_error;
    QThreadPool m_pool;
};

} // namespace Bridge
