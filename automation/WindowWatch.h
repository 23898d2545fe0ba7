#pragma once

#include "automation/Types.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>

namespace Automation {

/// The window manager's list of top-level windows, watched on a thread and a connection of its
/// own (docs/protocol.md §5.24: window.created, window.closed, window.focused). Neither the owner
/// thread nor the automation worker ever waits for it, and it never asks an app anything: what it
/// says of a window is what the window system knows (title, frame, pid, the program's class
/// name). The host's own windows are left out.
class WindowWatch
{
public:
    /// One change of the list: its kind (an event kind of §5.24) and the window as it is now
    /// (as it was last seen, for a closed one).
    struct Change
    {
        QString kind;
        WindowInfo window;
    };
    /// Called on the watch's own thread, in order.
    using Changes = std::function<void(const QList<Change>& changes)>;
    /// Called on the watch's thread when it has read the list for the first time (`ok`), when it
    /// could not start, and when it stopped on its own later (the display went away): `ok`
    /// false, `error` says why.
    using Ready = std::function<void(bool ok, const QString& error)>;

    virtual ~WindowWatch() = default;
    /// Starts the thread: it reads the list (what is there is not news), calls `ready`, and from
    /// then on calls `changes` with each difference. A watch runs once: stop() ends it for good.
    virtual void start(Changes changes, Ready ready) = 0;
    /// Ends the thread and waits for it; no callback runs after it returns.
    virtual void stop() = 0;
};

/// The platform's window watch (Linux: the X root window's _NET_CLIENT_LIST, on a connection of
/// its own); nullptr where this build has none (the host then reads the list on its worker).
std::unique_ptr<WindowWatch> createPlatformWindowWatch();

} // namespace Automation
