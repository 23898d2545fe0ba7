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
    const QString yield = json.value(QStringLiteral("yieldToUser")).toString();
    if (yield == QLatin1String("abort") || yield == QLatin1String("wait") || yield == QLatin1String("off"))
        settings.yieldToUser = yield;
    const QJsonValue quiet = json.value(QStringLiteral("yieldQuietMs"));
    if (quiet.isDouble())
        settings.yieldQuietMs = std::clamp(quiet.toInt(), 100, 60000);
    const QJsonValue giveBack = json.value(QStringLiteral("giveBackFocus"));
    if (giveBack.isBool())
        settings.giveBackFocus = giveBack.toBool();
    return settings;
}

} // namespace Automation
