#pragma once

#include "automation/Error.h"

#include <QDeadlineTimer>

#include <atomic>
#include <memory>

namespace Automation {

/// A cancel flag shared between the thread that owns a request and the worker running it.
class CancelToken
{
public:
    /// UserInput: the person at the desktop used the keyboard or mouse while input was being
    /// injected (the backend's input watch, in its Abort mode).
    enum class Reason { None, Aborted, TimedOut, Shutdown, Disconnected, UserInput };

    void cancel(Reason reason)
    {
        auto expected = Reason::None;
        m_reason.compare_exchange_strong(expected, reason);
    }
    bool isCancelled() const { return m_reason.load() != Reason::None; }
    Reason reason() const { return m_reason.load(); }

private:
    std::atomic<Reason> m_reason{Reason::None};
};

/// What a backend call may spend: the request's wall-clock deadline and its cancel flag.
/// Backends check it before every step with a side effect and derive call timeouts from it.
class CallContext
{
public:
    CallContext() : m_deadline(QDeadlineTimer::Forever), m_cancel(std::make_shared<CancelToken>()) {}
    CallContext(QDeadlineTimer deadline, std::shared_ptr<CancelToken> cancel)
        : m_deadline(deadline), m_cancel(std::move(cancel))
    {
    }

    QDeadlineTimer deadline() const { return m_deadline; }
    qint64 remainingMs() const;
    /// A per-call timeout: the remaining budget, capped at `capMs`, at least 1 ms.
    int callTimeoutMs(int capMs) const;
    bool expired() const { return m_deadline.hasExpired(); }
    bool cancelled() const { return m_cancel->isCancelled(); }
    const std::shared_ptr<CancelToken>& token() const { return m_cancel; }

    /// nullopt while the request may go on; else the error that ends it (aborted or timed out).
    std::optional<Error> checkpoint() const;

private:
    QDeadlineTimer m_deadline;
    std::shared_ptr<CancelToken> m_cancel;
};

} // namespace Automation
