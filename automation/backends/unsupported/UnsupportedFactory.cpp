// The backend of a platform this build has none for (automation/CMakeLists.txt builds this file
// where no other backend applies): every automation method answers a clear contract error.
#include "automation/PermissionProbe.h"
#include "automation/PlatformBackend.h"
#include "automation/WindowWatch.h"

#include <QCoreApplication>

namespace Automation {

namespace {

class UnsupportedPlatformProbe final : public PermissionProbe
{
public:
    PermissionReport probe() override
    {
        PermissionReport report;
        report.accessibility.message =
            QCoreApplication::translate("Permissions", "This platform has no permission probe in this build");
        report.screenCapture.message = report.accessibility.message;
        report.platform = QStringLiteral("unsupported");
        report.displayServer = QStringLiteral("none");
        return report;
    }
};

} // namespace

std::unique_ptr<DesktopBackend> createPlatformBackend()
{
    return std::make_unique<UnavailableBackend>(
        QStringLiteral("this build has no automation backend for this platform yet: observe, find, click, typeText, "
                       "hotkey and waitUntil cannot run"));
}

std::unique_ptr<WindowWatch> createPlatformWindowWatch()
{
    return nullptr;
}

std::unique_ptr<PermissionProbe> PermissionProbe::createDefault()
{
    return std::make_unique<UnsupportedPlatformProbe>();
}

} // namespace Automation
