#include "bridge/security/ReplayGuard.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QUuid>

#include <cstring>

namespace Bridge {

Q_LOGGING_CATEGORY(lcReplay, "msgcode.bridge.replay")

ReplayGuard::ReplayGuard(qint64 windowMs, qsizetype capacity, Clock clock, qsizetype perPeerQuota, WallClock wallClock)
    : m_windowMs(windowMs), m_capacity(capacity),
      m_perPeerQuota(perPeerQuota > 0 ? perPeerQuota
                                      : std::max<qsizetype>(capacity / 4, std::min<qsizetype>(capacity, 1000))),
      m_clock(std::move(clock)), m_wallClock(std::move(wallClock))
{
    if (!m_clock) {
        m_clock = [] { return QDeadlineTimer::current().deadline(); };
    }
    if (!m_wallClock)
        m_wallClock = [] { return QDateTime::currentMSecsSinceEpoch(); };
}

QByteArray ReplayGuard::keyOf(const QString& requestId)
{
    const QUuid uuid = QUuid::fromString(requestId);
    if (!uuid.isNull())
        return uuid.toRfc4122();
    // Not a UUID: a prefix keeps it apart from any 16-byte UUID key.
    return QByteArrayLiteral("s:") + requestId.toLower().toUtf8();
}

ReplayGuard::Key ReplayGuard::compact(const QByteArray& key)
{
    QByteArray bytes = key;
    if (bytes.size() != 16 || bytes.startsWith("s:"))
        bytes = QCryptographicHash::hash(key, QCryptographicHash::Sha256).left(16);
    Key out;
    std::memcpy(&out.high, bytes.constData(), 8);
    std::memcpy(&out.low, bytes.constData() + 8, 8);
    return out;
}

void ReplayGuard::expire(qint64 now)
{
    while (!m_order.empty() && m_order.front().first <= now) {
        const auto it = m_seen.constFind(m_order.front().second);
        if (it != m_seen.cend() && it->expiry == m_order.front().first) {
            if (--m_perPeer[it->peer] <= 0)
                m_perPeer.remove(it->peer);
            m_seen.erase(it);
        }
        m_order.pop_front();
    }
    // A hash keeps its largest size otherwise: give the room of a burst back once it has expired.
    if (m_seen.capacity() > 4096 && m_seen.size() < m_seen.capacity() / 8)
        m_seen.squeeze();
}

ReplayGuard::Verdict ReplayGuard::admit(const QString& requestId, quint64 peer, bool essential, bool persist)
{
    const qint64 now = m_clock();
    expire(now);
    const QByteArray bytes = keyOf(requestId);
    const Key key = compact(bytes);
    if (m_seen.contains(key))
        return Verdict::Replayed;
    const bool full = m_seen.size() >= m_capacity || m_perPeer.value(peer, 0) >= m_perPeerQuota;
    if (full) {
        // The emergency stop and its kin are never refused for lack of room. Not remembering
        // them costs nothing: repeating a stop or a health check does no harm.
        return essential ? Verdict::Fresh : Verdict::Full;
    }
    const qint64 expiry = now + m_windowMs;
    m_seen.insert(key, Seen{expiry, peer});
    ++m_perPeer[peer];
    m_order.emplace_back(expiry, key);
    if (persist)
        appendToStore(bytes, m_wallClock() + m_windowMs);
    return Verdict::Fresh;
}

bool ReplayGuard::setStore(const QString& path)
{
    m_storePath.clear();
    if (path.isEmpty())
        return false;
    QDir().mkpath(QFileInfo(path).absolutePath());
    // Load the ids still in their window; the rest are dropped by rewriting the file.
    QList<std::pair<QByteArray, qint64>> live;
    const qint64 wallNow = m_wallClock();
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().trimmed();
            const qsizetype space = line.indexOf(' ');
            if (space <= 0)
                continue;
            bool ok = false;
            const qint64 wallExpiry = line.left(space).toLongLong(&ok);
            const QByteArray key = QByteArray::fromHex(line.mid(space + 1));
            if (ok && !key.isEmpty() && wallExpiry > wallNow && wallExpiry <= wallNow + m_windowMs)
                live.append({key, wallExpiry});
        }
        file.close();
    }
    const qint64 now = m_clock();
    for (const auto& [bytes, wallExpiry] : live) {
        const Key key = compact(bytes);
        if (m_seen.contains(key))
            continue;
        const qint64 expiry = now + (wallExpiry - wallNow);
        m_seen.insert(key, Seen{expiry, 0});
        ++m_perPeer[0];
        // The order queue must stay sorted by expiry: these expire no later than new ids.
        m_order.emplace_front(expiry, key);
    }
    std::sort(m_order.begin(), m_order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return false;
    for (const auto& [key, wallExpiry] : live)
        out.write(QByteArray::number(wallExpiry) + ' ' + key.toHex() + '\n');
    if (!out.commit())
        return false;
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    m_storePath = path;
    m_storeLines = live.size();
    if (!live.isEmpty())
        qCInfo(lcReplay) << "remembering" << live.size() << "side-effect request ids from before the restart";
    return true;
}

void ReplayGuard::appendToStore(const QByteArray& key, qint64 wallExpiry)
{
    if (m_storePath.isEmpty())
        return;
    // Bounded: when the file holds many more lines than live ids, rewrite it with the live ones.
    if (m_storeLines > 4 * std::max<qsizetype>(1000, m_seen.size())) {
        const QString path = m_storePath;
        setStore(path); // reloads nothing new (all known), rewrites the live lines
    }
    QFile file(m_storePath);
    if (!file.open(QIODevice::Append)) {
        qCWarning(lcReplay) << "cannot append to" << m_storePath << ":" << file.errorString();
        return;
    }
    file.write(QByteArray::number(wallExpiry) + ' ' + key.toHex() + '\n');
    ++m_storeLines;
}

} // namespace Bridge
