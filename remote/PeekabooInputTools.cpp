// click, type, paste, scroll, hotkey, swipe, drag and move: the pointer and the keyboard.
#include "remote/PeekabooTools.h"

#include "remote/PeekabooToolSupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace Remote::Peekaboo {

void click(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString query = a.contains(QStringLiteral("on")) ? str(a, "on") : str(a, "query");
    const bool twice = a.value(QStringLiteral("double")).toBool();
    const bool right = a.value(QStringLiteral("right")).toBool();
    std::optional<QJsonObject> point;
    if (a.contains(QStringLiteral("coords"))) {
        point = pointOf(str(a, "coords"));
        if (!point)
            return done(badArgument(QStringLiteral("coords: expected \"x,y\" in screen pixels")));
    }
    if (query.isEmpty() && !point)
        return done(badArgument(QStringLiteral("query, on or coords is required")));
    const QString app = str(a, "app");
    if (!point && !twice && !right) {
        // A named element gets its accessibility action first (no pointer, nothing covered).
        return engine.call(QStringLiteral("desktop.click"),
                           withRoute(QJsonObject{{QStringLiteral("target"), targetOf(titled(query))},
                                                 {QStringLiteral("allowCoordinateFallback"), true}},
                                     app),
                           true, timeoutOf(a), [done](const QJsonObject& response) {
                               done(sideEffectOutcome(response, QStringLiteral("clicked"), QStringLiteral("Click")));
                           });
    }
    QJsonObject params{{QStringLiteral("gesture"), QStringLiteral("click")},
                       {QStringLiteral("button"), right ? QStringLiteral("right") : QStringLiteral("left")},
                       {QStringLiteral("count"), twice ? 2 : 1}};
    if (point)
        params.insert(QStringLiteral("point"), *point);
    else
        params.insert(QStringLiteral("target"), targetOf(titled(query)));
    engine.call(QStringLiteral("desktop.pointer"), withRoute(params, app), true, timeoutOf(a),
                [done](const QJsonObject& response) {
                    done(sideEffectOutcome(response, QStringLiteral("performed"), QStringLiteral("Click")));
                });
}

void typeText(const QJsonObject& a, Engine& engine, const ToolDone& done, const QString& delivery)
{
    QJsonObject params{{QStringLiteral("text"), a.value(QStringLiteral("text"))}};
    if (a.value(QStringLiteral("clear")).toBool())
        params.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}});
    if (const QString into = str(a, "target"); !into.isEmpty())
        params.insert(QStringLiteral("target"), targetOf(titled(into)));
    if (!delivery.isEmpty())
        params.insert(QStringLiteral("delivery"), delivery);
    engine.call(QStringLiteral("desktop.typeText"), withRoute(params, str(a, "app")), true, timeoutOf(a),
                [done](const QJsonObject& response) {
                    done(sideEffectOutcome(response, QStringLiteral("typed"), QStringLiteral("Typing")));
                });
}

void scroll(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString on = str(a, "on");
    if (on.isEmpty())
        return done(badArgument(QStringLiteral("on is required: the title of the element whose content scrolls "
                                               "(the host scrolls elements, not the point under the mouse)")));
    QJsonObject params{{QStringLiteral("target"), targetOf(titled(on))},
                       {QStringLiteral("direction"), str(a, "direction")},
                       {QStringLiteral("amount"), a.value(QStringLiteral("ticks")).toInt(3)}};
    engine.call(QStringLiteral("desktop.scroll"), withRoute(params, str(a, "app")), true, timeoutOf(a),
                [done](const QJsonObject& response) {
                    done(sideEffectOutcome(response, QStringLiteral("scrolled"), QStringLiteral("Scroll")));
                });
}

void hotkey(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    // Peekaboo writes a chord as "cmd,shift,t" (or with '+').
    QStringList keys;
    for (const QString& key : str(a, "keys").split(QRegularExpression(QStringLiteral("[,+]")), Qt::SkipEmptyParts))
        keys.append(key.trimmed());
    if (keys.isEmpty())
        return done(badArgument(QStringLiteral("keys: name a chord such as \"ctrl,s\"")));
    engine.call(QStringLiteral("desktop.hotkey"),
                withRoute(QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(keys)}}, str(a, "app")), true,
                timeoutOf(a), [done](const QJsonObject& response) {
                    done(sideEffectOutcome(response, QStringLiteral("sent"), QStringLiteral("Hotkey")));
                });
}

// swipe and drag: a held button moved from one point to another.
void dragBetween(const QJsonObject& a, Engine& engine, const ToolDone& done, int defaultDurationMs)
{
    const auto from = pointOf(str(a, "from"));
    const auto to = pointOf(str(a, "to"));
    if (!from || !to)
        return done(badArgument(QStringLiteral("from and to: expected \"x,y\" in screen pixels")));
    if (!str(a, "modifiers").isEmpty())
        return done(badArgument(QStringLiteral("modifiers: the host does not hold keys during a drag")));
    const QJsonObject params{
        {QStringLiteral("gesture"), QStringLiteral("drag")},
        {QStringLiteral("point"), *from},
        {QStringLiteral("to"), *to},
        {QStringLiteral("durationMs"), a.value(QStringLiteral("duration")).toInt(defaultDurationMs)}};
    engine.call(QStringLiteral("desktop.pointer"), withRoute(params, str(a, "app")), true, timeoutOf(a),
                [done](const QJsonObject& response) {
                    done(sideEffectOutcome(response, QStringLiteral("performed"), QStringLiteral("Drag")));
                });
}

void move(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const auto to = pointOf(a.contains(QStringLiteral("to")) ? str(a, "to") : str(a, "coords"));
    if (!to)
        return done(badArgument(QStringLiteral("to (or coords): expected \"x,y\" in screen pixels")));
    engine.call(QStringLiteral("desktop.pointer"),
                QJsonObject{{QStringLiteral("gesture"), QStringLiteral("move")}, {QStringLiteral("point"), *to}}, true,
                timeoutOf(a), [done](const QJsonObject& response) {
                    done(sideEffectOutcome(response, QStringLiteral("performed"), QStringLiteral("Move")));
                });
}

} // namespace Remote::Peekaboo
