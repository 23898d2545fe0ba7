#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

#include <deque>
#include <functional>

namespace Bridge {

/// Remembers request ids for a window (10 minutes) and refuses one seen again (docs/protocol.md
/// §4.1). It never forgets an id early: when full it refuses new ids instead (callers answer
/// DESKTOP_HOST_NOT_READY, retryable), because forgetting would reopen the replay window.
///
/// Pressure cannot shut everyone out: each caller (`peer`, e.g. a pid) has a quota of the
/// capacity, and the requests that stop or observe the host (`essential`: stop, abort, resume,
/// health) are never refused for lack of room (only for a replay). Ids are stored compactly
/// (a UUID in 16 bytes, held in place: no allocation per id) and compared case-insensitively.
/// With a store file, the ids of side effects survive a restart of the host for the rest of
/// their window.
class ReplayGuard
{
public:
    enum class Verdict { Fresh, Replayed, Full };
    using Clock = std::function<qint64()>;     ///< milliseconds, monotonic
    using WallClock = std::function<qint64()>; ///< milliseconds since the epoch (for the store)

    explicit ReplayGuard(qint64 windowMs = qint64{10} * 60 * 1000, qsizetype capacity = 2'000'000, Clock clock = {},
                         qsizetype perPeerQuota = 0, WallClock wallClock = {});

    Verdict admit(const QString& requestId, quint64 peer = 0, bool essential = false, bool persist = false);
    qsizetype size() const { return m_seen.size(); }
    qint64 windowMs() const { return m_windowMs; }
    qsizetype perPeerQuota() const { return m_perPeerQuota; }

    /// Remembers side-effect ids in `path` (created 0600) and loads the ones still in their
    /// window. Bounded: the file is rewritten with only the live ids when it grows past them.
    bool setStore(const QString& path);
    /// The compact key of an id: 16 bytes for a UUID (any case, with or without braces),
    /// else its lower-cased UTF-8.
    static QByteArray keyOf(const QString& requestId);

private:
    /// 16 bytes held in place: a UUID's, or the first 16 of SHA-256 of any other key.
    struct Key
    {
        quint64 high = 0;
        quint64 low = 0;
        friend bool operator==(const Key&, const Key&) = default;
        friend size_t qHash(const Key& key, size_t seed = 0) noexcept { return qHashMulti(seed, key.high, key.low); }
    };
    static Key compact(const QByteArray& key);

    struct Seen
    {
        qint64 expiry = 0;
        quint64 peer = 0;
    };
    void expire(qint64 now);
    void appendToStore(const QByteArray& key, qint64 wallExpiry);

    qint64 m_windowMs;
    qsizetype m_capacity;
    qsizetype m_perPeerQuota;
    Clock m_clock;
    WallClock m_wallClock;
    QHash<Key, Seen> m_seen;
    QHash<quint64, qsizetype> m_perPeer;
    std::deque<std::pair<qint64, Key>> m_order;
    QString m_storePath;
    qsizetype m_storeLines = 0;
};

} // namespace Bridge
