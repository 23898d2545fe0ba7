#pragma once

#include <QObject>
#include <QString>
#include <QThread>

#include <functional>

namespace Automation {

/// A named thread with an event loop, owned by one object: it starts when constructed and is
/// stopped (its loop quit, then waited for) by stop() or the destructor. Objects given to it
/// with adopt() live on it and are deleted on it when its loop ends. When a call on the thread
/// is stuck past stop()'s wait, the thread is left behind rather than destroyed while running
/// (the process is going away; destroying a running QThread aborts it).
class OwnedThread
{
public:
    explicit OwnedThread(const QString& name);
    ~OwnedThread();
    OwnedThread(const OwnedThread&) = delete;
    OwnedThread& operator=(const OwnedThread&) = delete;

    /// Moves `object` (no parent) to the thread; it is deleted there when the loop ends.
    template <typename T> T* adopt(T* object)
    {
        object->moveToThread(m_thread);
        QObject::connect(m_thread, &QThread::finished, object, &QObject::deleteLater);
        return object;
    }

    /// Runs `function` on the thread, after what was posted before it.
    void post(std::function<void()> function);

    /// Quits the loop and waits up to `waitMs` (-1: as long as it takes). True when the thread
    /// ended; false when it was left behind. Idempotent.
    bool stop(int waitMs = -1);
    bool isRunning() const { return m_thread != nullptr; }
    QThread* thread() const { return m_thread; }

private:
    QThread* m_thread = nullptr;
    QObject* m_context = nullptr;
};

} // namespace Automation
