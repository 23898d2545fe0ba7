#pragma once

#include <QtGlobal>

#include <algorithm>

namespace Remote {

/// The remote agent's reconnection delays (docs/remote.md): `retryDelayMs` first, doubling after
/// each failed attempt, never more than kMaxDelayMs; `maxRetries` attempts in a row at most
/// (0: forever). A connection that authenticates starts the count again.
struct Backoff
{
    static constexpr int kMaxDelayMs = 30000;

    int retryDelayMs = 1000;
    int maxRetries = 0;

    /// The pause before retry number `retry` (0 for the first retry after a failure).
    int delayMs(int retry) const
    {
        qint64 delay = std::max(1, retryDelayMs);
        for (int i = 0; i < retry && delay < kMaxDelayMs; ++i)
            delay *= 2;
        return static_cast<int>(std::min<qint64>(delay, kMaxDelayMs));
    }
    /// Whether `retries` retries used them all up.
    bool exhausted(int retries) const { return maxRetries > 0 && retries >= maxRetries; }
};

} // namespace Remote
