#pragma once

#include "automation/OwnedThread.h"
#include "automation/PermissionProbe.h"

#include <QDateTime>
#include <QMutex>
#include <QObject>

#include <functional>
#include <memory>

namespace Bridge {

/// Probes the permissions on its own thread every `intervalMs` and keeps the latest report, so
/// health, doctor and the tray read it without blocking (the GUI thread never waits on a probe).
class PermissionMonitor final : public QObject
{
    Q_OBJECT

public:
    using ProbeFactory = std::function<std::unique_ptr<Automation::PermissionProbe>()>;

    explicit PermissionMonitor(ProbeFactory factory, int intervalMs = 1000, QObject* parent = nullptr);
    ~PermissionMonitor() override;

    /// Probes once on the calling thread (startup), then keeps probing in the background.
    void start();
    void stop();

    Automation::PermissionReport current() const;
    /// A probe of the monitor's kind for the calling thread: onboarding asks it how to grant
    /// (PermissionProbe::guide) and runs its grant action.
    std::unique_ptr<Automation::PermissionProbe> createProbe() const { return m_factory(); }
    QDateTime probedAt() const;

Q_SIGNALS:
    /// A permission's state changed (emitted on the monitor's thread; connect queued).
    void changed();

private:
    void store(Automation::PermissionReport report);

    ProbeFactory m_factory;
    int m_intervalMs;
    std::unique_ptr<Automation::OwnedThread> m_thread;
    mutable QMutex m_mutex;
    Automation::PermissionReport m_report;
    QDateTime m_probedAt;
    bool m_hasReport = false;
};

} // namespace Bridge
