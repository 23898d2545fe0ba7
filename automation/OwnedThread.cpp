#include "automation/OwnedThread.h"

namespace Automation {

OwnedThread::OwnedThread(const QString& name)
{
    m_thread = new QThread;
    m_thread->setObjectName(name);
    m_context = adopt(new QObject);
    m_thread->start();
}

OwnedThread::~OwnedThread()
{
    stop();
}

void OwnedThread::post(std::function<void()> function)
{
    if (m_context)
        QMetaObject::invokeMethod(m_context, std::move(function), Qt::QueuedConnection);
}

bool OwnedThread::stop(int waitMs)
{
    if (!m_thread)
        return true;
    m_thread->quit();
    const bool ended = m_thread->wait(waitMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(waitMs));
    if (ended)
        delete m_thread;
    m_thread = nullptr;
    m_context = nullptr;
    return ended;
}

} // namespace Automation
