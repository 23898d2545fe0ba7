// ghost_wait: until an element or a window title is there (or gone).
#include "mcp/GhostTools.h"

#include "mcp/GhostToolSupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace Mcp::Ghost {

QJsonObject waitTool(const QJsonObject& arguments, HostLink& host)
{
    const QString condition = arguments.value(QStringLiteral("condition")).toString();
    const QString value = arguments.value(QStringLiteral("value")).toString();
    const double timeout = arguments.value(QStringLiteral("timeout")).toDouble(10.0);
    const double interval = arguments.value(QStringLiteral("interval")).toDouble(0.5);
    QJsonObject wanted;
    if (condition == QLatin1String("elementExists") || condition == QLatin1String("elementGone")) {
        if (value.isEmpty())
            return failure(QStringLiteral("Missing required parameter: value"));
        wanted.insert(condition == QLatin1String("elementExists") ? QStringLiteral("selectorExists")
                                                                  : QStringLiteral("selectorGone"),
                      QJsonObject{{QStringLiteral("titleContains"), value}});
    } else if (condition == QLatin1String("titleContains")) {
        if (value.isEmpty())
            return failure(QStringLiteral("Missing required parameter: value"));
        wanted.insert(QStringLiteral("windowExists"),
                      QJsonObject{{QStringLiteral("titlePattern"), QRegularExpression::escape(value)}});
    } else if (condition == QLatin1String("titleChanged")) {
        // Any other title than the window's title now.
        auto listed = listWindows(arguments.value(QStringLiteral("app")).toString(), host);
        if (auto* failed = std::get_if<QJsonObject>(&listed))
            return *failed;
        const QJsonArray windows = std::get<QJsonArray>(listed);
        QString now;
        for (const auto& w : windows) {
            if (w.toObject().value(QStringLiteral("active")).toBool() || now.isEmpty())
                now = w.toObject().value(QStringLiteral("title")).toString();
        }
        if (windows.isEmpty())
            return failure(QStringLiteral("no window to watch the title of"), QStringLiteral("Name the app."));
        wanted.insert(QStringLiteral("windowExists"),
                      QJsonObject{{QStringLiteral("titlePattern"),
                                   QStringLiteral("^(?!%1$)").arg(QRegularExpression::escape(now))}});
    } else if (condition == QLatin1String("urlContains") || condition == QLatin1String("urlChanged")) {
        return failure(QStringLiteral("the wait condition \"%1\" is not available: msgcode Desktop Host does not read "
                                      "a page's address")
                           .arg(condition),
                       QStringLiteral("Wait for an element of the new page (elementExists) or for the window title "
                                      "(titleContains, titleChanged)."));
    } else if (condition.isEmpty()) {
        return failure(QStringLiteral("Missing required parameter: condition"));
    } else {
        return failure(
            QStringLiteral("the wait condition \"%1\" is not available in msgcode Desktop Host yet").arg(condition),
            QStringLiteral("Use elementExists, elementGone, titleContains or titleChanged."));
    }
    const int timeoutMs = static_cast<int>(std::clamp(timeout, 0.1, 600.0) * 1000);
    const QJsonObject response = host.call(
        QStringLiteral("desktop.waitUntil"),
        withRoute(QJsonObject{{QStringLiteral("condition"), wanted},
                              {QStringLiteral("timeoutMs"), timeoutMs},
                              {QStringLiteral("pollMs"), static_cast<int>(std::clamp(interval, 0.05, 60.0) * 1000)}},
                  arguments),
        false, timeoutMs + 10000);
    if (response.contains(QStringLiteral("error"))) {
        const QJsonObject error = response.value(QStringLiteral("error")).toObject();
        if (error.value(QStringLiteral("code")).toString() == QLatin1String("DESKTOP_TIMEOUT"))
            return failure(
                QStringLiteral("Timed out after %1s waiting for %2 '%3'").arg(timeout).arg(condition, value));
        return hostFailure(response);
    }
    return success(QJsonObject{{QStringLiteral("condition"), condition}, {QStringLiteral("met"), true}});
}

} // namespace Mcp::Ghost
