#include "PermissionProbe.h"

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

} // namespace Automation
