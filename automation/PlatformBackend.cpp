#include "PlatformBackend.h"

namespace Automation {

std::unique_ptr<DesktopBackend> createPlatformBackend()
{
    return std::make_unique<UnavailableBackend>(
        QStringLiteral("this build has no automation backend for this platform yet: observe, find, click, typeText, "
                       "hotkey and waitUntil cannot run"));
}

} // namespace Automation
