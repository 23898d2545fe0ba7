#pragma once

#include <QHash>
#include <QString>

/// What the macOS event stream lets through before it reads anything of a notice (the review's
/// defect 16). Every notice costs its app a few reads and up to two dozen more for its ancestors,
/// on the app's main thread, and clocks, progress bars, terminals and chat apps send
/// AXValueChanged many times a second: read them all and the stream falls behind while every
/// app pays for it. So:
/// - AXValueChanged is observed for the frontmost app only (AxApiMac's stream registers it there
///   and removes it when another app comes forward);
/// - a notice of the same element and kind within `coalesceMs` of one let through is dropped
///   (the element is read once, as it is by then);
/// - an app gets at most `perAppPerSecond` notices a second; the rest are dropped and counted.
/// No Apple type: AxApiMac's stream thread uses it, the tests run it on Linux. One thread.
namespace Automation::Mac {

class NoticeGate
{
public:
    struct Limits
    {
        int perAppPerSecond = 40;
        int coalesceMs = 150;
    };
    NoticeGate() = default;
    explicit NoticeGate(Limits limits) : m_limits(limits) {}

    /// Whether `pid`'s AXValueChanged is wanted while `frontmost` is the frontmost app.
    static bool wantsValueChanges(qint64 pid, qint64 frontmost) { return pid != 0 && pid == frontmost; }

    /// Whether the notice `notification` of `element` (a key naming it while it lives) from `pid`
    /// at `nowMs` (a monotonic clock) is let through; false drops it, counted.
    bool admit(qint64 pid, const QString& element, const QString& notification, qint64 nowMs);
    /// Notices dropped so far.
    qint64 dropped() const { return m_dropped; }

private:
    struct Window
    {
        qint64 startMs = 0;
        int count = 0;
    };
    Limits m_limits;
    QHash<qint64, Window> m_rate;      ///< per app: the current second and its count
    QHash<QString, qint64> m_lastSeen; ///< "pid|element|notification" -> when last let through
    qint64 m_dropped = 0;
};

} // namespace Automation::Mac
