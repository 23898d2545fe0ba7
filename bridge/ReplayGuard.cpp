#include "ReplayGuard.h"

#include <QDeadlineTimer>

namespace Bridge {

ReplayGuard::ReplayGuard(qint64 windowMs, qsizetype capacity, Clock clock)
    : m_windowMs(windowMs), m_capacity(capacity), m_clock(std::move(clock))
{
    if (!m_clock) {
        m_clock = [] {
            return QDeadlineTimer::current().deadline();
        };
    }
}

void ReplayGuard::expire(qint64 now)
{
    while (!m_order.empty() && m_order.front().first <= now) {
        m_seen.remove(m_order.front().second);
        m_order.pop_front();
    }
}

ReplayGuard::Verdict ReplayGuard::admit(const QString& requestId)
{
    const qint64 now = m_clock();
    expire(now);
    if (m_seen.contains(requestId))
        return Verdict::Replayed;
    if (m_seen.size() >= m_capacity)
        return Verdict::Full;
    const qint64 expiry = now + m_windowMs;
    m_seen.insert(requestId, expiry);
    m_order.emplace_back(expiry, requestId);
    return Verdict::Fresh;
}

} // namespace Bridge
