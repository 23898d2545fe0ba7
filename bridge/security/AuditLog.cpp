#include "bridge/security/AuditLog.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLoggingCategory>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Bridge {

Q_LOGGING_CATEGORY(lcAudit, "msgcode.bridge.audit")

AuditLog::AuditLog(QString dataDir, qint64 maxBytes, int files)
    : m_dir(std::move(dataDir)), m_maxBytes(std::max<qint64>(1024, maxBytes)), m_files(std::max(1, files))
{
    if (!m_dir.isEmpty())
        m_path = QDir(m_dir).absoluteFilePath(QStringLiteral("audit.jsonl"));
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
}

AuditLog::~AuditLog()
{
    m_pool.waitForDone();
    if (m_fd >= 0)
        ::close(m_fd);
}

QJsonObject AuditLog::peerJson(const PeerInfo& peer)
{
    return QJsonObject{{QStringLiteral("pid"), peer.pid},
                       {QStringLiteral("exe"), peer.executable},
                       {QStringLiteral("digest"), peer.auditTokenDigest}};
}

QJsonObject AuditLog::record(const QString& event, const PeerInfo* peer, QJsonObject fields)
{
    fields.insert(QStringLiteral("t"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    fields.insert(QStringLiteral("event"), event);
    if (peer)
        fields.insert(QStringLiteral("peer"), peerJson(*peer));
    const QByteArray line = QJsonDocument(fields).toJson(QJsonDocument::Compact) + '\n';
    qCDebug(lcAudit).noquote() << line.trimmed();
    if (enabled())
        m_pool.start([this, line] { write(line); });
    return fields;
}

void AuditLog::flush()
{
    m_pool.waitForDone();
}

QString AuditLog::lastError() const
{
    QMutexLocker lock(&m_mutex);
    return m_error;
}

bool AuditLog::openLocked()
{
    if (m_fd >= 0)
        return true;
    const QByteArray dir = QFile::encodeName(m_dir);
    struct stat st
    {
    };
    if (::stat(dir.constData(), &st) != 0) {
        if (!QDir().mkpath(m_dir)) {
            m_error = QStringLiteral("cannot create the data directory %1").arg(m_dir);
            return false;
        }
        ::chmod(dir.constData(), 0700);
    }
    // Never follow a symlink planted where the log should be.
    m_fd = ::open(QFile::encodeName(m_path).constData(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (m_fd < 0) {
        m_error = QStringLiteral("cannot open %1: %2").arg(m_path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    m_size = ::fstat(m_fd, &st) == 0 ? st.st_size : 0;
    return true;
}

void AuditLog::rotateLocked()
{
    ::close(m_fd);
    m_fd = -1;
    // audit.jsonl.(n-1) is dropped; each older file moves up one; the current becomes .1.
    for (int i = m_files - 1; i >= 1; --i) {
        const QString to = m_path + QLatin1Char('.') + QString::number(i);
        const QString from = i == 1 ? m_path : m_path + QLatin1Char('.') + QString::number(i - 1);
        if (QFile::exists(from))
            ::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData());
    }
    if (m_files == 1)
        ::unlink(QFile::encodeName(m_path).constData());
}

void AuditLog::write(const QByteArray& line)
{
    QMutexLocker lock(&m_mutex);
    if (!openLocked()) {
        qCWarning(lcAudit).noquote() << "audit line not written:" << m_error << line.trimmed();
        return;
    }
    if (m_size > 0 && m_size + line.size() > m_maxBytes) {
        rotateLocked();
        if (!openLocked()) {
            qCWarning(lcAudit).noquote() << "audit line not written:" << m_error << line.trimmed();
            return;
        }
    }
    qsizetype written = 0;
    while (written < line.size()) {
        const ssize_t n = ::write(m_fd, line.constData() + written, static_cast<size_t>(line.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            m_error = QStringLiteral("cannot write %1: %2").arg(m_path, QString::fromLocal8Bit(std::strerror(errno)));
            qCWarning(lcAudit).noquote() << m_error;
            return;
        }
        written += n;
    }
    m_size += written;
}

} // namespace Bridge
