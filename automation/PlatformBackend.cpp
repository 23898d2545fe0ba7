#include "PlatformBackend.h"

#if defined(Q_OS_LINUX)
#include "backends/atspi/AtspiBackend.h"
#endif

namespace Automation {

std::unique_ptr<DesktopBackend> createPlatformBackend()
{
#if defined(Q_OS_LINUX)
    return std::make_unique<AtspiBackend>();
#else
    return std::make_unique<UnavailableBackend>(
        QStringLiteral("this build has no automation backend for this platform yet: observe, find, click, typeText, "
                       "hotkey and waitUntil cannot run"));
#endif
}

} // namespace Automation
