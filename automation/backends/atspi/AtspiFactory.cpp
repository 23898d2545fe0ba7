// The platform's backend and permission probe on Linux (automation/CMakeLists.txt builds this
// file there; backends/unsupported/ elsewhere).
#include "automation/PlatformBackend.h"
#include "automation/backends/atspi/AtspiBackend.h"
#include "automation/backends/atspi/AtspiPermissionProbe.h"
#include "automation/backends/atspi/X11WindowWatch.h"

namespace Automation {

std::unique_ptr<DesktopBackend> createPlatformBackend()
{
    return std::make_unique<AtspiBackend>();
}

std::unique_ptr<WindowWatch> createPlatformWindowWatch()
{
    return std::make_unique<X11WindowWatch>();
}

std::unique_ptr<PermissionProbe> PermissionProbe::createDefault()
{
    return std::make_unique<AtspiPermissionProbe>();
}

} // namespace Automation
