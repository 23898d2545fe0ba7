// ghost_state, ghost_focus, ghost_window: apps and their windows.
#include "mcp/GhostTools.h"

#include "mcp/GhostToolSupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace Mcp::Ghost {

QJsonObject stateTool(const QJsonObject& arguments, HostLink& host)
{
    auto listed = listWindows(arguments.value(QStringLiteral("app")).toString(), host);
    if (auto* failed = std::get_if<QJsonObject>(&listed))
        return *failed;
    QJsonArray apps;
    QHash<qint64, qsizetype> byPid;
    QList<QJsonObject> entries;
    for (const auto& value : std::get<QJsonArray>(listed)) {
        const QJsonObject window = value.toObject();
        const qint64 pid = window.value(QStringLiteral("pid")).toInteger();
        if (!byPid.contains(pid)) {
            byPid.insert(pid, entries.size());
            entries.append(QJsonObject{{QStringLiteral("name"), window.value(QStringLiteral("app"))},
                                       {QStringLiteral("pid"), pid},
                                       {QStringLiteral("active"), false},
                                       {QStringLiteral("windows"), QJsonArray{}}});
        }
        QJsonObject& entry = entries[byPid.value(pid)];
        QJsonArray windows = entry.value(QStringLiteral("windows")).toArray();
        windows.append(windowData(window));
        entry.insert(QStringLiteral("windows"), windows);
        if (window.value(QStringLiteral("active")).toBool())
            entry.insert(QStringLiteral("active"), true);
    }
    for (const QJsonObject& entry : std::as_const(entries))
        apps.append(entry);
    return success(QJsonObject{{QStringLiteral("app_count"), apps.size()}, {QStringLiteral("apps"), apps}});
}

namespace {

QJsonObject windowAction(const QString& action, const QJsonObject& route, QJsonObject params, HostLink& host)
{
    params.insert(QStringLiteral("action"), action);
    params.insert(QStringLiteral("route"), route);
    const QJsonObject response = host.call(QStringLiteral("desktop.window"), params, true);
    QJsonObject data{{QStringLiteral("action"), action}};
    if (!response.contains(QStringLiteral("error")))
        data.insert(QStringLiteral("window"), response.value(QStringLiteral("result"))
                                                  .toObject()
                                                  .value(QStringLiteral("routeResolved"))
                                                  .toObject()
                                                  .value(QStringLiteral("windowTitle")));
    return sideEffectResult(response, QStringLiteral("done"), data);
}

} // namespace

QJsonObject focusTool(const QJsonObject& arguments, HostLink& host)
{
    if (arguments.value(QStringLiteral("app")).toString().isEmpty())
        return failure(QStringLiteral("Missing required parameter: app"));
    return windowAction(QStringLiteral("focus"), routeWithWindow(arguments), {}, host);
}

QJsonObject windowTool(const QJsonObject& arguments, HostLink& host)
{
    const QString action = arguments.value(QStringLiteral("action")).toString();
    const QString app = arguments.value(QStringLiteral("app")).toString();
    if (action.isEmpty() || app.isEmpty())
        return failure(QStringLiteral("Missing required parameters: action, app"));
    if (action == QLatin1String("list")) {
        auto listed = listWindows(app, host);
        if (auto* failed = std::get_if<QJsonObject>(&listed))
            return *failed;
        QJsonArray windows;
        for (const auto& window : std::get<QJsonArray>(listed))
            windows.append(windowData(window.toObject()));
        return success(QJsonObject{{QStringLiteral("windows"), windows}, {QStringLiteral("count"), windows.size()}});
    }
    QJsonObject params;
    if (action == QLatin1String("move")) {
        const auto to = pointArg(arguments, QStringLiteral("x"), QStringLiteral("y"));
        if (!to)
            return failure(QStringLiteral("Missing required parameters: x, y"));
        params.insert(QStringLiteral("position"), *to);
    } else if (action == QLatin1String("resize")) {
        const auto size = pointArg(arguments, QStringLiteral("width"), QStringLiteral("height"));
        if (!size)
            return failure(QStringLiteral("Missing required parameters: width, height"));
        params.insert(QStringLiteral("size"),
                      QJsonObject{{QStringLiteral("width"), size->value(QStringLiteral("x"))},
                                  {QStringLiteral("height"), size->value(QStringLiteral("y"))}});
    } else if (!QStringList{QStringLiteral("minimize"), QStringLiteral("maximize"), QStringLiteral("close"),
                            QStringLiteral("restore"), QStringLiteral("focus")}
                    .contains(action)) {
        return failure(QStringLiteral("Unknown window action: %1").arg(action),
                       QStringLiteral("Use list, focus, minimize, maximize, restore, close, move or resize."));
    }
    return windowAction(action, routeWithWindow(arguments), params, host);
}

} // namespace Mcp::Ghost
