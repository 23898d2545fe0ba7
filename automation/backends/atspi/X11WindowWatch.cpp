#include "automation/backends/atspi/X11WindowWatch.h"

#include "automation/backends/atspi/X11Session.h"
#include "automation/platform/ProcessInfo.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>

#include <cerrno>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace Automation {

namespace {

// The list as the window manager keeps it, the host's own windows left out, by native id.
struct Listed
{
    QHash<QString, WindowInfo> windows;
    QList<QString> order; ///< bottom to top
    QString active;
};

Listed readList(X11Session& x11, QHash<qint64, QString>& executables)
{
    const qint64 own = QCoreApplication::applicationPid();
    Listed out;
    for (const auto& facts : x11.stackedWindows()) {
        if (facts.window.pid == own)
            continue; // the host's own windows are never a route, and never streamed
        WindowInfo info;
        info.title = facts.window.title;
        info.pid = facts.window.pid;
        info.appName = x11.windowClassName(facts.window.window);
        if (info.pid > 0) {
            auto known = executables.find(info.pid);
            if (known == executables.end())
                known = executables.insert(info.pid, QFileInfo(Platform::processExecutable(info.pid)).fileName());
            info.executable = known.value();
        }
        if (info.appName.isEmpty())
            info.appName = info.executable;
        info.frame =
            Frame{facts.window.rect.x(), facts.window.rect.y(), facts.window.rect.width(), facts.window.rect.height()};
        info.active = facts.active;
        info.minimized = facts.hidden;
        info.maximized = facts.maximized;
        info.visible = facts.viewable;
        info.nativeId = QStringLiteral("0x%1").arg(facts.window.window, 0, 16);
        out.windows.insert(info.nativeId, info);
        out.order.append(info.nativeId);
        if (info.active)
            out.active = info.nativeId;
    }
    return out;
}

QList<WindowWatch::Change> differences(const Listed& before, const Listed& now)
{
    QList<WindowWatch::Change> out;
    for (const QString& id : now.order) {
        if (!before.windows.contains(id))
            out.append({QStringLiteral("window.created"), now.windows.value(id)});
    }
    if (!now.active.isEmpty() && now.active != before.active)
        out.append({QStringLiteral("window.focused"), now.windows.value(now.active)});
    for (const QString& id : before.order) {
        if (!now.windows.contains(id))
            out.append({QStringLiteral("window.closed"), before.windows.value(id)});
    }
    return out;
}

} // namespace

X11WindowWatch::X11WindowWatch() = default;

X11WindowWatch::~X11WindowWatch()
{
    stop();
}

void X11WindowWatch::start(Changes changes, Ready ready)
{
    if (m_started.exchange(true))
        return;
    if (pipe2(m_stopPipe, O_CLOEXEC) != 0) {
        ready(false, QStringLiteral("cannot make the window watch's stop pipe"));
        return;
    }
    m_thread = std::thread([this, changes = std::move(changes), ready = std::move(ready)] { run(changes, ready); });
}

void X11WindowWatch::stop()
{
    if (m_stopPipe[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const auto written = write(m_stopPipe[1], &byte, 1);
    }
    if (m_thread.joinable())
        m_thread.join();
    for (int& fd : m_stopPipe) {
        if (fd >= 0)
            close(fd);
        fd = -1;
    }
}

void X11WindowWatch::run(const Changes& changes, const Ready& ready)
{
    X11Session x11;
    QString error;
    // Listen first, then read: a change between the two is an event, never lost.
    if (!x11.watchRootProperties(&error)) {
        ready(false, error);
        return;
    }
    QHash<qint64, QString> executables;
    Listed known = readList(x11, executables);
    ready(true, {});
    pollfd fds[2] = {{x11.connectionFd(), POLLIN, 0}, {m_stopPipe[0], POLLIN, 0}};
    bool changed = false;
    for (;;) {
        changed = x11.takeRootChanges() || changed;
        const int n = poll(fds, 2, changed ? 0 : kRereadMs);
        if (n < 0 && errno != EINTR)
            return ready(false, QStringLiteral("waiting for the window manager's list failed (errno %1)").arg(errno));
        if (n > 0 && fds[1].revents != 0)
            return; // stopped
        if (n > 0 && (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)) != 0)
            return ready(false, QStringLiteral("the X display went away"));
        // A timeout rereads too: a window manager that does not say, or a title that changed.
        changed = x11.takeRootChanges() || changed || n == 0;
        if (!changed)
            continue;
        changed = false;
        Listed now = readList(x11, executables);
        const QList<Change> found = differences(known, now);
        // A pid seen again later may be another program: forget the ones that are gone.
        for (auto it = executables.begin(); it != executables.end();) {
            bool shown = false;
            for (const WindowInfo& window : std::as_const(now.windows))
                shown = shown || window.pid == it.key();
            it = shown ? std::next(it) : executables.erase(it);
        }
        known = std::move(now);
        if (!found.isEmpty())
            changes(found);
    }
}

} // namespace Automation
