#include "automation/PermissionProbe.h"

#include <QCoreApplication>

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

PermissionGuide PermissionProbe::guide(const PermissionReport& report) const
{
    Q_UNUSED(report)
    return {};
}

void PermissionProbe::requestAccessibility(QObject* context, GrantDone done)
{
    Q_UNUSED(context)
    done(false,
         QCoreApplication::translate("Permissions", "This platform offers no way to grant accessibility from here"));
}

void PermissionProbe::requestScreenCapture(QObject* context, GrantDone done)
{
    Q_UNUSED(context)
    done(false,
         QCoreApplication::translate("Permissions", "This platform offers no way to grant screen capture from here"));
}

} // namespace Automation
