#pragma once

#include "automation/WindowWatch.h"

#include <atomic>
#include <thread>

namespace Automation {

/// The window watch on X11: a connection of its own that listens for the root window's
/// property changes (_NET_CLIENT_LIST, _NET_CLIENT_LIST_STACKING, _NET_ACTIVE_WINDOW) on a
/// thread of its own, reads the window manager's list when one comes (and every few seconds, in
/// case a window manager forgets to say), and reports what differs from the last read.
class X11WindowWatch final : public WindowWatch
{
public:
    /// How often the list is read even when nothing said it changed.
    static constexpr int kRereadMs = 2000;

    X11WindowWatch();
    ~X11WindowWatch() override;
    X11WindowWatch(const X11WindowWatch&) = delete;
    X11WindowWatch& operator=(const X11WindowWatch&) = delete;

    void start(Changes changes, Ready ready) override;
    void stop() override;

private:
    void run(const Changes& changes, const Ready& ready);

    int m_stopPipe[2] = {-1, -1};
    std::thread m_thread;
    std::atomic<bool> m_started{false};
};

} // namespace Automation
