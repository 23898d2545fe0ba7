#pragma once

#include "automation/DesktopBackend.h"
#include "automation/backends/atspi/AtspiBus.h"

namespace Automation {

class AtspiApps;
class X11Session;

/// desktop.scroll on Linux: an element into view (Component.ScrollTo, else its container's
/// scroll bar, else the wheel), or a container's content by lines or pages (the scroll bar's
/// Value, else the wheel over the container). Each path is verified by what moved: the scroll
/// bar's value, or the frames of the content.
class AtspiScroll
{
public:
    AtspiScroll(AtspiBus& bus, AtspiApps& apps, X11Session& x11) : m_bus(bus), m_apps(apps), m_x11(x11) {}

    Result<ActionOutcome> scroll(const ResolvedRoute& route, const Snapshot& snapshot, int element,
                                 const ScrollSpec& spec, const CallContext& context);

private:
    AtspiBus& m_bus;
    AtspiApps& m_apps;
    X11Session& m_x11;
};

} // namespace Automation
