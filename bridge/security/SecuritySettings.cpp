#include "bridge/security/SecuritySettings.h"

namespace Bridge {

QString SecuritySettings::policyName(ConfirmPolicy policy)
{
    switch (policy) {
    case ConfirmPolicy::Ask:
        return QStringLiteral("ask");
    case ConfirmPolicy::Auto:
        return QStringLiteral("auto");
    case ConfirmPolicy::Deny:
        return QStringLiteral("deny");
    }
    return QStringLiteral("deny");
}

std::optional<ConfirmPolicy> SecuritySettings::policyFromName(const QString& name)
{
    if (name == QLatin1String("ask"))
        return ConfirmPolicy::Ask;
    if (name == QLatin1String("auto"))
        return ConfirmPolicy::Auto;
    if (name == QLatin1String("deny"))
        return ConfirmPolicy::Deny;
    return std::nullopt;
}

} // namespace Bridge
