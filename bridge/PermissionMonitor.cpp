#include "bridge/PermissionMonitor.h"

#include "automation/PermissionGrant.h"

#include <QThread>
#include <QTimer>

namespace Bridge {

namespace {

bool sameStates(const Automation::PermissionReport& a, const Automation::PermissionReport& b)
{
    return a.accessibility.state == b.accessibility.state && a.screenCapture.state == b.screenCapture.state &&
           a.accessibility.message == b.accessibility.message && a.screenCapture.message == b.screenCapture.message;
}

} // namespace

PermissionMonitor::PermissionMonitor(ProbeFactory factory, int intervalMs, QObject* parent)
    : QObject(parent), m_factory(std::move(factory)), m_intervalMs(intervalMs)
{
    m_report.accessibility.message = QStringLiteral("not checked yet");
    m_report.screenCapture.message = m_report.accessibility.message;
}

PermissionMonitor::~PermissionMonitor()
{
    stop();
}

void PermissionMonitor::start()
{
    if (m_thread)
        return;
    {
        auto probe = m_factory();
        store(probe->probe());
    }
    m_thread = std::make_unique<Automation::OwnedThread>(QStringLiteral("mdh-permissions"));
    auto* worker = m_thread->adopt(new QObject);
    QMetaObject::invokeMethod(
        worker,
        [this, worker] {
            // The probe is created, used and destroyed on the monitor thread.
            auto probe = std::shared_ptr<Automation::PermissionProbe>(m_factory());
            auto* timer = new QTimer(worker);
            timer->setInterval(m_intervalMs);
            connect(timer, &QTimer::timeout, worker, [this, probe] { store(probe->probe()); });
            timer->start();
        },
        Qt::QueuedConnection);
}

void PermissionMonitor::stop()
{
    if (!m_thread)
        return;
    m_thread->stop();
    m_thread.reset();
}

void PermissionMonitor::store(Automation::PermissionReport report)
{
    // What is not granted names the exact program and setting (health, doctor, the tray).
    const auto whom = [](Automation::PermissionStatus& status, const QString& permission) {
        if (status.state == Automation::PermissionState::Granted)
            return;
        const Automation::PermissionGrant grant = Automation::permissionGrant(permission);
        status.details.insert(QStringLiteral("grant"), grant.toJson());
        if (!status.message.contains(grant.program))
            status.message += QLatin1Char(' ') + grant.sentence();
    };
    whom(report.accessibility, QStringLiteral("accessibility"));
    whom(report.screenCapture, QStringLiteral("screenRecording"));
    bool changedState = false;
    {
        QMutexLocker lock(&m_mutex);
        changedState = !m_hasReport || !sameStates(m_report, report);
        m_report = report;
        m_probedAt = QDateTime::currentDateTimeUtc();
        m_hasReport = true;
    }
    if (changedState)
        Q_EMIT changed();
}

Automation::PermissionReport PermissionMonitor::current() const
{
    QMutexLocker lock(&m_mutex);
    return m_report;
}

QDateTime PermissionMonitor::probedAt() const
{
    QMutexLocker lock(&m_mutex);
    return m_probedAt;
}

} // namespace Bridge
