#pragma once

#include "automation/Error.h"

#include <QJsonObject>

#include <functional>

namespace Bridge {

/// What the bridge's desktop.remote.* methods and desktop.health need of the remote agent
/// (docs/remote.md). The agent lives above the bridge (remote/), so the bridge knows it only
/// through this interface; the host's owner attaches it (Host::setRemoteControl).
class RemoteControl
{
public:
    using Respond = std::function<void(const Automation::Result<QJsonObject>&)>;

    virtual ~RemoteControl() = default;

    /// The connection's state as health and `desktop.remote.status` answer it.
    virtual QJsonObject status() const = 0;
    /// desktop.remote.connect's params {host, port, tls?, fingerprint?, bindCode?, retryDelayMs?,
    /// maxRetries?}: checked, remembered and dialled; answers the status, or -32602.
    virtual Automation::Result<QJsonObject> connectTo(const QJsonObject& params) = 0;
    /// Hangs up and stops reconnecting; the stored token is kept.
    virtual QJsonObject disconnect() = 0;
    /// Hangs up and removes the device token from the keyring; answers when the keyring did.
    virtual void forget(const Respond& respond) = 0;
};

} // namespace Bridge
