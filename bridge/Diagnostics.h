#pragma once

#include "bridge/EventHub.h"
#include "bridge/Executor.h"
#include "bridge/RemoteControl.h"
#include "bridge/protocol/Meta.h"
#include "bridge/security/ConfirmationGate.h"
#include "bridge/transport/Caller.h"

#include <QDateTime>
#include <QJsonObject>

#include <functional>
#include <optional>

namespace Bridge {

class OwnerRules;
class PermissionMonitor;

/// Facts about the running host that health and doctor report.
struct HostFacts
{
    QString socketPath;
    QString socketMode; ///< e.g. "0600"
    QDateTime startedAt;
    /// The remote agent, when the host's owner attached one (Host::setRemoteControl).
    RemoteControl* remote = nullptr;
    /// The event stream (desktop.subscribe), when the host has one.
    EventHub* events = nullptr;
    /// Opens one of the host's windows ("inspector") for desktop.gui.open; unset without a GUI.
    std::function<bool(const QString& window)> openWindow;
    /// The owner's rules as they are kept and changed (desktop.policy).
    OwnerRules* rules = nullptr;
};

/// What the host says about itself: desktop.health, desktop.doctor (each check with a status
/// and a message a person can act on) and the env.json of every execution. Never blocks: the
/// backend's state is the executor's last self-report.
class Diagnostics
{
public:
    Diagnostics(Executor& executor, PermissionMonitor& permissions, const ConfirmationGate& gate,
                const WorkspacePolicy& workspace, HostFacts& facts);

    QJsonObject health(const Caller& caller) const;
    QJsonObject doctor(const Caller& caller, const std::optional<QString>& workspacePath) const;
    /// env.json: host, OS, screen, permissions, backend and the caller.
    QJsonObject envJson(const Caller& caller) const;
    /// The remote agent, or nullptr when there is none.
    RemoteControl* remote() const { return m_facts.remote; }
    EventHub* events() const { return m_facts.events; }
    OwnerRules* rules() const { return m_facts.rules; }
    /// desktop.gui.open: nullopt when the host has no windows (--headless), else whether it opened.
    std::optional<bool> openWindow(const QString& window) const
    {
        if (!m_facts.openWindow)
            return std::nullopt;
        return m_facts.openWindow(window);
    }

private:
    Executor& m_executor;
    PermissionMonitor& m_permissions;
    const ConfirmationGate& m_gate;
    const WorkspacePolicy& m_workspace;
    HostFacts& m_facts;
};

} // namespace Bridge
