#pragma once

#include <QHash>
#include <QString>

#include <deque>
#include <functional>

namespace Bridge {

/// Remembers request ids for a window (10 minutes) and refuses one seen again (DESIGN.md 4).
/// It never forgets an id early: when full it refuses new ids instead (callers answer
/// DESKTOP_HOST_NOT_READY, retryable), because forgetting would reopen the replay window.
class ReplayGuard
{
public:
    enum class Verdict { Fresh, Replayed, Full };
    using Clock = std::function<qint64()>; ///< milliseconds, monotonic

    explicit ReplayGuard(qint64 windowMs = 10 * 60 * 1000, qsizetype capacity = 2'000'000, Clock clock = {});

    Verdict admit(const QString& requestId);
    qsizetype size() const { return m_seen.size(); }
    qint64 windowMs() const { return m_windowMs; }

private:
    void expire(qint64 now);

    qint64 m_windowMs;
    qsizetype m_capacity;
    Clock m_clock;
    QHash<QString, qint64> m_seen;
    std::deque<std::pair<qint64, QString>> m_order;
};

} // namespace Bridge
