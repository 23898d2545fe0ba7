#include "automation/BackendSettings.h"

#include <algorithm>

namespace Automation {

BackendSettings BackendSettings::fromJson(const QJsonObject& json)
{
    BackendSettings settings;
    const QString cmd = json.value(QStringLiteral("cmdKey")).toString();
    if (cmd == QLatin1String("super"))
        settings.cmdKey = CmdKey::Super;
    else if (cmd == QLatin1String("ctrl"))
        settings.cmdKey = CmdKey::Control;
    const QJsonValue compression = json.value(QStringLiteral("pngCompression"));
    if (compression.isDouble())
        settings.pngCompression = std::clamp(compression.toInt(), -1, 9);
    return settings;
}

} // namespace Automation
