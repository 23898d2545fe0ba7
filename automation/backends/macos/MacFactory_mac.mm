// The platform's backend and permission probe on macOS (automation/CMakeLists.txt builds this
// file on Apple platforms; backends/atspi/AtspiFactory.cpp is its Linux twin). Each gets its own
// AxApiMac: the backend's lives on the worker thread, the probe's wherever the probe runs.
#include "automation/PlatformBackend.h"
#include "automation/WindowWatch.h"
#include "automation/backends/macos/AxApiMac.h"
#include "automation/backends/macos/MacBackend.h"

namespace Automation {

std::unique_ptr<DesktopBackend> createPlatformBackend()
{
    return std::make_unique<Mac::MacBackend>(std::make_unique<Mac::AxApiMac>());
}

// No watch of its own yet: the host reads the window list on its worker (docs/macos.md).
std::unique_ptr<WindowWatch> createPlatformWindowWatch()
{
    return nullptr;
}

std::unique_ptr<PermissionProbe> PermissionProbe::createDefault()
{
    return std::make_unique<Mac::MacPermissionProbe>(std::make_unique<Mac::AxApiMac>());
}

} // namespace Automation
