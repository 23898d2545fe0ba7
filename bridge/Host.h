#pragma once

#include "Dispatcher.h"
#include "Executor.h"
#include "PermissionMonitor.h"
#include "Server.h"

#include <QObject>

#include <memory>

namespace Bridge {

struct HostOptions
{
    ServerOptions server;
    QString workspaceRoot;
    Executor::BackendFactory backendFactory;
    PermissionMonitor::ProbeFactory probeFactory;
    int permissionPollMs = 1000;
    ExecutorOptions executor;
};

/// The bridge as one object: permission monitor, executor (worker thread + backend),
/// dispatcher and local server, started and stopped in the right order.
class Host final : public QObject
{
    Q_OBJECT

public:
    explicit Host(HostOptions options, QObject* parent = nullptr);
    ~Host() override;

    /// Starts monitoring and listening; false with `error` set when the socket cannot be served.
    bool start(QString* error, bool* alreadyServed = nullptr);
    /// Aborts in-flight work (each answers DESKTOP_ABORTED), delivers the answers, closes the
    /// socket (removing the file) and stops the worker. Idempotent.
    void shutdown();

    Server& server() { return *m_server; }
    Executor& executor() { return *m_executor; }
    Dispatcher& dispatcher() { return *m_dispatcher; }
    PermissionMonitor& permissions() { return *m_permissions; }

private:
    HostOptions m_options;
    std::unique_ptr<PermissionMonitor> m_permissions;
    std::unique_ptr<Executor> m_executor;
    std::unique_ptr<Dispatcher> m_dispatcher;
    std::unique_ptr<Server> m_server;
    bool m_started = false;
    bool m_stopped = false;
};

} // namespace Bridge
