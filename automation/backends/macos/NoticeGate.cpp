#include "automation/backends/macos/NoticeGate.h"

namespace Automation::Mac {

bool NoticeGate::admit(qint64 pid, const QString& element, const QString& notification, qint64 nowMs)
{
    const QString key = QString::number(pid) + QLatin1Char('|') + element + QLatin1Char('|') + notification;
    const auto seen = m_lastSeen.constFind(key);
    if (seen != m_lastSeen.constEnd() && nowMs - *seen < m_limits.coalesceMs) {
        ++m_dropped;
        return false;
    }
    Window& window = m_rate[pid];
    if (nowMs - window.startMs >= 1000) {
        window.startMs = nowMs;
        window.count = 0;
    }
    if (window.count >= m_limits.perAppPerSecond) {
        ++m_dropped;
        return false;
    }
    ++window.count;
    m_lastSeen.insert(key, nowMs);
    // Forget what is long past, so the table stays the size of what is happening now.
    if (m_lastSeen.size() > 4096) {
        for (auto it = m_lastSeen.begin(); it != m_lastSeen.end();)
            it = nowMs - *it >= m_limits.coalesceMs ? m_lastSeen.erase(it) : std::next(it);
    }
    return true;
}

} // namespace Automation::Mac
