#include "PermissionProbe.h"

#if defined(Q_OS_LINUX)
#include "backends/atspi/AtspiPermissionProbe.h"
#endif

namespace Automation {

QString permissionStateName(PermissionState state)
{
    switch (state) {
    case PermissionState::Granted:
        return QStringLiteral("granted");
    case PermissionState::Denied:
        return QStringLiteral("denied");
    case PermissionState::Unknown:
        return QStringLiteral("unknown");
    }
    return QStringLiteral("unknown");
}

PermissionProbe::~PermissionProbe() = default;

#if !defined(Q_OS_LINUX)
namespace {

class UnsupportedPlatformProbe final : public PermissionProbe
{
public:
    PermissionReport probe() override
    {
        PermissionReport report;
        report.accessibility.message = QStringLiteral("This platform has no permission probe in this build");
        report.screenCapture.message = report.accessibility.message;
        report.platform = QStringLiteral("unsupported");
        report.displayServer = QStringLiteral("none");
        return report;
    }
};

} // namespace
#endif

std::unique_ptr<PermissionProbe> PermissionProbe::createDefault()
{
#if defined(Q_OS_LINUX)
    return std::make_unique<AtspiPermissionProbe>();
#else
    return std::make_unique<UnsupportedPlatformProbe>();
#endif
}

} // namespace Automation
