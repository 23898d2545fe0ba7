// ghost_click, ghost_scroll, ghost_hover, ghost_long_press, ghost_drag: the pointer.
#include "bridge/contract/Schema.h"
#include "mcp/GhostTools.h"

#include "mcp/GhostToolSupport.h"

#include <QJsonArray>
#include <QJsonObject>

namespace Mcp::Ghost {

namespace {

// desktop.pointer for a gesture at the element the arguments name, or at x/y.
QJsonObject gesture(const QString& kind, const QJsonObject& arguments, HostLink& host, QJsonObject params,
                    const QString& missing)
{
    const QJsonObject selector = selectorFor(arguments);
    const auto point = pointArg(arguments, QStringLiteral("x"), QStringLiteral("y"));
    if (!selector.isEmpty())
        params.insert(QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), selector}});
    else if (point)
        params.insert(QStringLiteral("point"), *point);
    else
        return failure(missing, QStringLiteral("Name the element with query (its visible title) and role, or give "
                                               "screen coordinates x and y."));
    params.insert(QStringLiteral("gesture"), kind);
    const QJsonObject response = host.call(QStringLiteral("desktop.pointer"), withRoute(params, arguments), true);
    QJsonObject data{
        {QStringLiteral("method"), selector.isEmpty() ? QStringLiteral("coordinate") : QStringLiteral("pointer")}};
    if (!response.contains(QStringLiteral("error"))) {
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        const QJsonObject at = result.value(QStringLiteral("at")).toObject();
        data.insert(QStringLiteral("x"), at.value(QStringLiteral("x")));
        data.insert(QStringLiteral("y"), at.value(QStringLiteral("y")));
        if (result.contains(QStringLiteral("target")))
            data.insert(QStringLiteral("element"), elementData(result.value(QStringLiteral("target")).toObject()));
    }
    return sideEffectResult(response, QStringLiteral("performed"), data);
}

} // namespace

QJsonObject clickTool(const QJsonObject& arguments, HostLink& host)
{
    const QJsonObject selector = selectorFor(arguments);
    const QString button = buttonArg(arguments);
    const int count = std::max(1, static_cast<int>(numberArg(arguments, QStringLiteral("count")).value_or(1)));
    if (button != QLatin1String("left") && button != QLatin1String("right") && button != QLatin1String("middle"))
        return failure(QStringLiteral("button must be left, right or middle"));
    if (selector.isEmpty() || button != QLatin1String("left") || count > 1)
        return gesture(QStringLiteral("click"), arguments, host,
                       QJsonObject{{QStringLiteral("button"), button}, {QStringLiteral("count"), std::min(count, 3)}},
                       QStringLiteral("Missing required parameter: query (or x, y)"));
    // A named element gets its accessibility action first (no pointer, nothing covered).
    const QJsonObject response =
        host.call(QStringLiteral("desktop.click"),
                  withRoute(QJsonObject{{QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), selector}}},
                                        {QStringLiteral("allowCoordinateFallback"), true}},
                            arguments),
                  true);
    QJsonObject data{{QStringLiteral("method"), QStringLiteral("ax-native")}};
    if (!response.contains(QStringLiteral("error"))) {
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        data.insert(QStringLiteral("element"), elementData(result.value(QStringLiteral("target")).toObject()));
        if (result.value(QStringLiteral("deliveredBy")).toString() == QLatin1String("pointer"))
            data.insert(QStringLiteral("method"), QStringLiteral("synthetic"));
    }
    return sideEffectResult(response, QStringLiteral("clicked"), data);
}

QJsonObject hoverTool(const QJsonObject& arguments, HostLink& host)
{
    return gesture(QStringLiteral("move"), arguments, host, {},
                   QStringLiteral("Missing required parameter: query (or x, y)"));
}

QJsonObject longPressTool(const QJsonObject& arguments, HostLink& host)
{
    const double seconds = std::clamp(numberArg(arguments, QStringLiteral("duration")).value_or(1.0), 0.0, 10.0);
    return gesture(QStringLiteral("press"), arguments, host,
                   QJsonObject{{QStringLiteral("button"), buttonArg(arguments)},
                               {QStringLiteral("holdMs"), qRound(seconds * 1000)}},
                   QStringLiteral("Missing required parameter: query (or x, y)"));
}

QJsonObject dragTool(const QJsonObject& arguments, HostLink& host)
{
    const auto to = pointArg(arguments, QStringLiteral("to_x"), QStringLiteral("to_y"));
    if (!to)
        return failure(QStringLiteral("Missing required parameters: to_x, to_y"));
    const double duration = std::clamp(numberArg(arguments, QStringLiteral("duration")).value_or(0.5), 0.1, 10.0);
    const double hold = std::clamp(numberArg(arguments, QStringLiteral("hold_duration")).value_or(0.1), 0.0, 5.0);
    QJsonObject from = arguments;
    if (const auto start = pointArg(arguments, QStringLiteral("from_x"), QStringLiteral("from_y"))) {
        from.insert(QStringLiteral("x"), start->value(QStringLiteral("x")));
        from.insert(QStringLiteral("y"), start->value(QStringLiteral("y")));
    }
    QJsonObject result = gesture(QStringLiteral("drag"), from, host,
                                 QJsonObject{{QStringLiteral("to"), *to},
                                             {QStringLiteral("durationMs"), qRound(duration * 1000)},
                                             {QStringLiteral("holdMs"), qRound(hold * 1000)}},
                                 QStringLiteral("Missing required parameters: from_x, from_y (or query)"));
    return result;
}

QJsonObject scrollTool(const QJsonObject& arguments, HostLink& host)
{
    const QString direction = arguments.value(QStringLiteral("direction")).toString();
    if (direction.isEmpty())
        return failure(QStringLiteral("Missing required parameter: direction"));
    const QStringList directions =
        Contract::Schema::enumOf(QStringLiteral("desktop.scroll"), QStringLiteral("direction"));
    if (!directions.contains(direction))
        return failure(QStringLiteral("direction must be one of %1").arg(directions.join(QStringLiteral(", "))));
    const int amount = std::clamp(static_cast<int>(numberArg(arguments, QStringLiteral("amount")).value_or(3)), 1, 100);
    // What to scroll: the element under x/y, else the middle of the app's topmost window.
    auto point = pointArg(arguments, QStringLiteral("x"), QStringLiteral("y"));
    if (!point) {
        auto listed = listWindows(arguments.value(QStringLiteral("app")).toString(), host);
        if (auto* failed = std::get_if<QJsonObject>(&listed))
            return *failed;
        for (const auto& value : std::get<QJsonArray>(listed)) {
            const QJsonObject window = value.toObject();
            if (window.value(QStringLiteral("minimized")).toBool() || !window.value(QStringLiteral("visible")).toBool())
                continue;
            const QJsonObject frame = window.value(QStringLiteral("frame")).toObject();
            point = QJsonObject{{QStringLiteral("x"), frame.value(QStringLiteral("x")).toInt() +
                                                          frame.value(QStringLiteral("width")).toInt() / 2},
                                {QStringLiteral("y"), frame.value(QStringLiteral("y")).toInt() +
                                                          frame.value(QStringLiteral("height")).toInt() / 2}};
            break;
        }
        if (!point)
            return failure(QStringLiteral("no window to scroll"), QStringLiteral("Give x and y, or an app."));
    }
    const QJsonObject at =
        host.call(QStringLiteral("desktop.elementAt"), QJsonObject{{QStringLiteral("point"), *point}}, false);
    if (at.contains(QStringLiteral("error")))
        return hostFailure(at);
    const QJsonObject found = at.value(QStringLiteral("result")).toObject();
    const QJsonObject ref = found.value(QStringLiteral("element")).toObject();
    const QJsonObject response = host.call(
        QStringLiteral("desktop.scroll"),
        QJsonObject{
            {QStringLiteral("target"),
             QJsonObject{{QStringLiteral("elementRef"),
                          QJsonObject{{QStringLiteral("elementId"), ref.value(QStringLiteral("elementId"))},
                                      {QStringLiteral("fingerprint"), ref.value(QStringLiteral("fingerprint"))}}}}},
            {QStringLiteral("direction"), direction},
            {QStringLiteral("amount"), amount}},
        true);
    return sideEffectResult(response, QStringLiteral("scrolled"),
                            QJsonObject{{QStringLiteral("direction"), direction}, {QStringLiteral("amount"), amount}});
}

} // namespace Mcp::Ghost
