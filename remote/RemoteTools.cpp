#include "remote/RemoteTools.h"

#include "client-kit/Outcome.h"
#include "client-kit/ToolSchema.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace Remote {

namespace {

using DoorKit::Schema::choice;
using DoorKit::Schema::ranged;

QJsonObject prop(const QString& type, const QString& description)
{
    return DoorKit::Schema::property(type, description);
}

// Every remote tool refuses arguments it does not name.
QJsonObject objectSchema(const QJsonObject& properties, const QStringList& required = {})
{
    return DoorKit::Schema::object(properties, required, DoorKit::Schema::Extra::Refused);
}

constexpr int kDefaultTimeoutMs = 30000;

// --- results ------------------------------------------------------------------------------

QString compact(const QJsonObject& object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QJsonObject textItem(const QString& text)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
}

// The sentence a person reads, then the facts as one JSON line a program reads.
QJsonObject toolResult(const QString& sentence, const QJsonObject& facts, bool isError,
                       const QByteArray& pngBase64 = {})
{
    QJsonArray content{textItem(facts.isEmpty() ? sentence : sentence + QLatin1Char('\n') + compact(facts))};
    if (!pngBase64.isEmpty())
        content.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                                   {QStringLiteral("data"), QString::fromLatin1(pngBase64)},
                                   {QStringLiteral("mimeType"), QStringLiteral("image/png")}});
    return QJsonObject{{QStringLiteral("content"), content}, {QStringLiteral("isError"), isError}};
}

bool failed(const QJsonObject& response)
{
    return response.contains(QStringLiteral("error"));
}

QJsonObject resultOf(const QJsonObject& response)
{
    return response.value(QStringLiteral("result")).toObject();
}

// A host error as the tool's failure: the code and message first, the whole error as facts. The
// host's refusal of the params (-32602: nothing was asked or done) is the tool's -32602.
ToolOutcome hostFailure(const QJsonObject& response)
{
    const auto outcome = DoorKit::Outcome::fromAnswer(response);
    const QJsonObject details = outcome.details();
    if (outcome.code() == QLatin1String("DESKTOP_INVALID_REQUEST") &&
        details.value(QStringLiteral("jsonrpcCode")).toInt() == ToolOutcome::kInvalidParams)
        return ToolOutcome::error(ToolOutcome::kInvalidParams,
                                  QStringLiteral("Invalid params: %1").arg(outcome.message()), details);
    return ToolOutcome::of(toolResult(QStringLiteral("Error: %1: %2").arg(outcome.code(), outcome.message()),
                                      QJsonObject{{QStringLiteral("error"), outcome.error()}}, true));
}

QJsonObject evidenceFacts(const QJsonObject& result)
{
    return QJsonObject{{QStringLiteral("executionId"), result.value(QStringLiteral("executionId"))},
                       {QStringLiteral("evidence"), result.value(QStringLiteral("evidence"))}};
}

// A side effect's answer: done only when the host says so and saw no sign that nothing happened.
ToolOutcome sideEffectOutcome(const QJsonObject& response, const QString& doneKey, const QString& what)
{
    const auto outcome = DoorKit::Outcome::fromAnswer(response, doneKey);
    if (outcome.failed())
        return hostFailure(response);
    const QJsonObject facts = outcome.withFacts(evidenceFacts(outcome.result()),
                                                {"effect", "deliveredBy", "verification", "target", "routeResolved"});
    const QString effect = outcome.effect();
    const QString reason = outcome.verificationReason();
    const QString because = reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason);
    if (outcome.partial())
        return ToolOutcome::of(
            toolResult(QStringLiteral("Error: %1 only partly took effect%2").arg(what, because), facts, true));
    if (outcome.showedNoEffect())
        return ToolOutcome::of(toolResult(
            QStringLiteral("Error: %1 was sent but the app showed no effect%2").arg(what, because), facts, true));
    // Delivered, and the app gives no way to see the effect: not an error, and not claimed either.
    if (outcome.unverifiable())
        return ToolOutcome::of(toolResult(
            QStringLiteral("%1 delivered; its effect could not be verified%2").arg(what, because), facts, false));
    return ToolOutcome::of(toolResult(
        QStringLiteral("%1 done (%2)").arg(what, effect.isEmpty() ? QStringLiteral("ok") : effect), facts, false));
}

ToolOutcome badArgument(const QString& message)
{
    return ToolOutcome::error(ToolOutcome::kInvalidParams, message);
}

// --- arguments ----------------------------------------------------------------------------

QJsonObject routeForApp(const QString& app)
{
    if (app.isEmpty())
        return {};
    return QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), app}}}};
}

QJsonObject withRoute(QJsonObject params, const QString& app)
{
    if (!app.isEmpty())
        params.insert(QStringLiteral("route"), routeForApp(app));
    return params;
}

QString str(const QJsonObject& arguments, const char* key)
{
    return arguments.value(QLatin1String(key)).toString();
}

int timeoutOf(const QJsonObject& arguments)
{
    return arguments.value(QStringLiteral("timeout_ms")).toInt(kDefaultTimeoutMs);
}

// "x,y" as a point; nullopt when it is not two numbers.
std::optional<QJsonObject> pointOf(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$)"));
    const auto match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    return QJsonObject{{QStringLiteral("x"), qRound(match.captured(1).toDouble())},
                       {QStringLiteral("y"), qRound(match.captured(2).toDouble())}};
}

// An element named by its visible title (Peekaboo's query / on): the engine's titleContains.
QJsonObject titled(const QString& title)
{
    return QJsonObject{{QStringLiteral("titleContains"), title}};
}

QJsonObject targetOf(const QJsonObject& selector)
{
    return QJsonObject{{QStringLiteral("selector"), selector}};
}

// --- tools --------------------------------------------------------------------------------

void see(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    if (a.contains(QStringLiteral("path")))
        return done(badArgument(QStringLiteral("path: the host writes screenshots only into its evidence directory; "
                                               "the image comes back in this answer")));
    const QString app = str(a, "app_target");
    engine.call(QStringLiteral("desktop.observe"), withRoute({}, app), false, timeoutOf(a),
                [done, app](const QJsonObject& response) {
                    if (failed(response))
                        return done(hostFailure(response));
                    const QJsonObject result = resultOf(response);
                    const QJsonObject evidence = result.value(QStringLiteral("evidence")).toObject();
                    const QJsonObject tree = result.value(QStringLiteral("axTree")).toObject();
                    const QJsonObject route = result.value(QStringLiteral("routeResolved")).toObject();
                    QByteArray png;
                    if (const QString shot = evidence.value(QStringLiteral("screenshotPath")).toString();
                        !shot.isEmpty()) {
                        QFile file(QDir(evidence.value(QStringLiteral("dir")).toString()).filePath(shot));
                        if (file.open(QIODevice::ReadOnly))
                            png = file.readAll().toBase64();
                    }
                    QJsonObject facts = evidenceFacts(result);
                    facts.insert(QStringLiteral("routeResolved"), route);
                    facts.insert(QStringLiteral("axTree"), tree);
                    done(ToolOutcome::of(toolResult(QStringLiteral("Captured %1 window \"%2\" with %3 UI elements")
                                                        .arg(route.value(QStringLiteral("appName")).toString(),
                                                             route.value(QStringLiteral("windowTitle")).toString())
                                                        .arg(tree.value(QStringLiteral("nodeCount")).toInt()),
                                                    facts, false, png)));
                });
}

void image(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString app = str(a, "app_target");
    const QString mode =
        a.value(QStringLiteral("mode")).toString(app.isEmpty() ? QStringLiteral("screen") : QStringLiteral("window"));
    QJsonObject params{{QStringLiteral("inline"), true}};
    if (mode == QLatin1String("window") || mode == QLatin1String("frontmost"))
        params.insert(QStringLiteral("route"), routeForApp(mode == QLatin1String("window") ? app : QString()));
    engine.call(QStringLiteral("desktop.capture"), params, false, timeoutOf(a), [done](const QJsonObject& response) {
        if (failed(response))
            return done(hostFailure(response));
        QJsonObject result = resultOf(response);
        const QByteArray png = result.take(QStringLiteral("pngBase64")).toString().toLatin1();
        QJsonObject facts = evidenceFacts(result);
        for (const char* key : {"source", "frame", "bytes", "takenAt"})
            facts.insert(QLatin1String(key), result.value(QLatin1String(key)));
        const QJsonObject frame = result.value(QStringLiteral("frame")).toObject();
        done(ToolOutcome::of(toolResult(QStringLiteral("Captured the %1 (%2x%3)")
                                            .arg(result.value(QStringLiteral("source")).toString())
                                            .arg(frame.value(QStringLiteral("width")).toInt())
                                            .arg(frame.value(QStringLiteral("height")).toInt()),
                                        facts, false, png)));
    });
}

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

void listWindows(const QJsonObject& a, Engine& engine, const ToolDone& done, bool appsOnly)
{
    QJsonObject params;
    if (const QString app = str(a, "app"); !app.isEmpty())
        params.insert(QStringLiteral("app"), app);
    engine.call(
        QStringLiteral("desktop.windows"), params, false, timeoutOf(a), [done, appsOnly](const QJsonObject& response) {
            if (failed(response))
                return done(hostFailure(response));
            const QJsonObject result = resultOf(response);
            const QJsonArray windows = result.value(QStringLiteral("windows")).toArray();
            if (!appsOnly)
                return done(ToolOutcome::of(toolResult(QStringLiteral("%1 window(s)").arg(windows.size()),
                                                       QJsonObject{{QStringLiteral("windows"), windows}}, false)));
            QJsonArray apps;
            QHash<qint64, bool> seen;
            for (const auto& value : windows) {
                const QJsonObject window = value.toObject();
                const qint64 pid = window.value(QStringLiteral("pid")).toInteger();
                if (seen.contains(pid))
                    continue;
                seen.insert(pid, true);
                apps.append(QJsonObject{{QStringLiteral("name"), window.value(QStringLiteral("app"))},
                                        {QStringLiteral("pid"), pid},
                                        {QStringLiteral("executable"), window.value(QStringLiteral("executable"))},
                                        {QStringLiteral("active"), window.value(QStringLiteral("active"))}});
            }
            done(ToolOutcome::of(toolResult(QStringLiteral("%1 app(s) with windows").arg(apps.size()),
                                            QJsonObject{{QStringLiteral("apps"), apps}}, false)));
        });
}

void windowAction(const QString& action, const QJsonObject& route, QJsonObject params, Engine& engine, int timeoutMs,
                  const ToolDone& done)
{
    params.insert(QStringLiteral("action"), action);
    // desktop.window always names its window; an empty route is the frontmost one.
    params.insert(QStringLiteral("route"), route);
    engine.call(QStringLiteral("desktop.window"), params, true, timeoutMs, [done, action](const QJsonObject& response) {
        done(sideEffectOutcome(response, QStringLiteral("done"), QStringLiteral("Window %1").arg(action)));
    });
}

void app(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString action = str(a, "action");
    if (action == QLatin1String("list"))
        return listWindows(a, engine, done, true);
    const QString name = a.contains(QStringLiteral("bundle_id")) ? str(a, "bundle_id") : str(a, "name");
    if (name.isEmpty())
        return done(badArgument(QStringLiteral("name (or bundle_id) is required to %1 an app").arg(action)));
    windowAction(QStringLiteral("focus"), routeForApp(name), {}, engine, timeoutOf(a), done);
}

void window(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString action = str(a, "action");
    if (action == QLatin1String("list"))
        return listWindows(a, engine, done, false);
    QJsonObject route = routeForApp(str(a, "app"));
    if (const QString title = str(a, "title"); !title.isEmpty())
        route.insert(QStringLiteral("window"),
                     QJsonObject{{QStringLiteral("titlePattern"), QRegularExpression::escape(title)}});
    QJsonObject params;
    if (action == QLatin1String("move") || action == QLatin1String("resize")) {
        const bool move = action == QLatin1String("move");
        const QStringList keys = move ? QStringList{QStringLiteral("x"), QStringLiteral("y")}
                                      : QStringList{QStringLiteral("width"), QStringLiteral("height")};
        QJsonObject value;
        for (const QString& key : keys) {
            if (!a.contains(key))
                return done(badArgument(QStringLiteral("%1 is required to %2 a window").arg(key, action)));
            value.insert(key, a.value(key).toInt());
        }
        params.insert(move ? QStringLiteral("position") : QStringLiteral("size"), value);
    }
    windowAction(action, route, params, engine, timeoutOf(a), done);
}

void menu(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    QStringList path;
    for (const QString& part : str(a, "path").split(QLatin1Char('>'), Qt::SkipEmptyParts)) {
        if (!part.trimmed().isEmpty())
            path.append(part.trimmed());
    }
    if (path.isEmpty() || path.size() > 8)
        return done(badArgument(QStringLiteral("path: 1 to 8 menu titles, e.g. \"File > Save As\"")));
    engine.call(QStringLiteral("desktop.menuPick"),
                withRoute(QJsonObject{{QStringLiteral("path"), QJsonArray::fromStringList(path)}}, str(a, "app")), true,
                timeoutOf(a), [done](const QJsonObject& response) {
                    done(sideEffectOutcome(response, QStringLiteral("picked"), QStringLiteral("Menu pick")));
                });
}

void dialog(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString action = str(a, "action");
    if (action == QLatin1String("dismiss"))
        return engine.call(
            QStringLiteral("desktop.hotkey"),
            withRoute(QJsonObject{{QStringLiteral("keys"), QJsonArray{QStringLiteral("escape")}}}, str(a, "app")), true,
            timeoutOf(a), [done](const QJsonObject& response) {
                done(sideEffectOutcome(response, QStringLiteral("sent"), QStringLiteral("Dismiss")));
            });
    const QString button = str(a, "button");
    if (button.isEmpty())
        return done(badArgument(QStringLiteral("button is required to click a dialog's button")));
    const QJsonObject selector{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                               {QStringLiteral("titleEquals"), button}};
    engine.call(QStringLiteral("desktop.click"),
                withRoute(QJsonObject{{QStringLiteral("target"), targetOf(selector)}}, str(a, "app")), true,
                timeoutOf(a), [done](const QJsonObject& response) {
                    done(sideEffectOutcome(response, QStringLiteral("clicked"), QStringLiteral("Dialog button")));
                });
}

void permissionsOf(Engine& engine, const ToolDone& done)
{
    engine.call(QStringLiteral("desktop.health"), {}, false, 5000, [done](const QJsonObject& response) {
        if (failed(response))
            return done(hostFailure(response));
        const QJsonObject permissions = resultOf(response).value(QStringLiteral("permissions")).toObject();
        // Presence: whether the person at the desktop used the keyboard or mouse lately.
        const QJsonValue active =
            resultOf(response).value(QStringLiteral("userInput")).toObject().value(QStringLiteral("active"));
        done(ToolOutcome::of(
            toolResult(QStringLiteral("Accessibility: %1; screen recording: %2; user active: %3")
                           .arg(permissions.value(QStringLiteral("accessibility")).toString(),
                                permissions.value(QStringLiteral("screenRecording")).toString(),
                                active.isBool() ? (active.toBool() ? QStringLiteral("yes") : QStringLiteral("no"))
                                                : QStringLiteral("unknown")),
                       QJsonObject{{QStringLiteral("permissions"), permissions},
                                   {QStringLiteral("userActive"), active.isBool() ? active : QJsonValue()}},
                       false)));
    });
}

void list(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString type = str(a, "type");
    if (type == QLatin1String("permissions"))
        return permissionsOf(engine, done);
    listWindows(a, engine, done, type == QLatin1String("apps"));
}

void wait(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString kind =
        a.value(QStringLiteral("gone")).toBool() ? QStringLiteral("selectorGone") : QStringLiteral("selectorExists");
    const int timeoutMs = a.value(QStringLiteral("timeout_ms")).toInt(10000);
    const QJsonObject params =
        withRoute(QJsonObject{{QStringLiteral("condition"), QJsonObject{{kind, titled(str(a, "query"))}}},
                              {QStringLiteral("timeoutMs"), timeoutMs}},
                  str(a, "app"));
    engine.call(QStringLiteral("desktop.waitUntil"), params, false, std::min(timeoutMs + 5000, 600000),
                [done](const QJsonObject& response) {
                    if (failed(response))
                        return done(hostFailure(response));
                    const QJsonObject result = resultOf(response);
                    QJsonObject facts = evidenceFacts(result);
                    for (const char* key : {"ok", "matched", "elapsedMs", "polls"})
                        facts.insert(QLatin1String(key), result.value(QLatin1String(key)));
                    const bool held = result.value(QStringLiteral("ok")).toBool();
                    done(ToolOutcome::of(toolResult(held ? QStringLiteral("The condition holds")
                                                         : QStringLiteral("Error: the condition did not hold in time"),
                                                    facts, !held)));
                });
}

void sleep(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const int ms = a.value(QStringLiteral("ms")).toInt();
    engine.sleep(ms,
                 [done, ms] { done(ToolOutcome::of(toolResult(QStringLiteral("Slept %1 ms").arg(ms), {}, false))); });
}

QJsonObject appArg()
{
    return prop(QStringLiteral("string"), QStringLiteral("The app to act in: its accessible name or executable "
                                                         "(default: the frontmost)"));
}

QJsonObject timeoutArg()
{
    return ranged(QStringLiteral("integer"), 1000, 600000, QStringLiteral("The host's deadline for the action (ms)"));
}

QList<Tool> makeTools()
{
    const QString xy = QStringLiteral("\"x,y\" in screen pixels");
    QList<Tool> out;
    out.append(
        {QStringLiteral("see"),
         QStringLiteral("Capture a window's UI state: its screenshot and how many UI elements it has"),
         objectSchema({{QStringLiteral("app_target"),
                        prop(QStringLiteral("string"), QStringLiteral("Target app name (default: the frontmost)"))},
                       {QStringLiteral("annotate"),
                        prop(QStringLiteral("boolean"), QStringLiteral("Accepted; the screenshot is never drawn on"))},
                       {QStringLiteral("path"),
                        prop(QStringLiteral("string"),
                             QStringLiteral("Not supported: screenshots stay in the evidence directory"))},
                       {QStringLiteral("timeout_ms"), timeoutArg()}}),
         see});
    out.append(
        {QStringLiteral("image"), QStringLiteral("Take a screenshot of the screen or of a window"),
         objectSchema(
             {{QStringLiteral("mode"),
               choice({QStringLiteral("screen"), QStringLiteral("window"), QStringLiteral("frontmost")},
                      QStringLiteral("What to capture"))},
              {QStringLiteral("app_target"),
               prop(QStringLiteral("string"), QStringLiteral("The app whose window to capture (mode window)"))},
              {QStringLiteral("retina"),
               prop(QStringLiteral("boolean"), QStringLiteral("Accepted; the image is at the screen's own scale"))},
              {QStringLiteral("timeout_ms"), timeoutArg()}}),
         image});
    out.append(
        {QStringLiteral("click"), QStringLiteral("Click an element by its visible title, or a screen point"),
         objectSchema({{QStringLiteral("query"),
                        prop(QStringLiteral("string"), QStringLiteral("The element's visible title (contains)"))},
                       {QStringLiteral("on"), prop(QStringLiteral("string"), QStringLiteral("The same as query"))},
                       {QStringLiteral("coords"), prop(QStringLiteral("string"), xy)},
                       {QStringLiteral("double"), prop(QStringLiteral("boolean"), QStringLiteral("Double-click"))},
                       {QStringLiteral("right"), prop(QStringLiteral("boolean"), QStringLiteral("Right-click"))},
                       {QStringLiteral("app"), appArg()},
                       {QStringLiteral("timeout_ms"), timeoutArg()}}),
         click});
    out.append(
        {QStringLiteral("type"),
         QStringLiteral("Type text into the focused element, or into the element titled target"),
         objectSchema(
             {{QStringLiteral("text"), prop(QStringLiteral("string"), QStringLiteral("The text"))},
              {QStringLiteral("clear"), prop(QStringLiteral("boolean"), QStringLiteral("Replace the field's text"))},
              {QStringLiteral("delay_ms"), ranged(QStringLiteral("integer"), 0, 1000,
                                                  QStringLiteral("Accepted; the host types at the field's own pace"))},
              {QStringLiteral("target"), prop(QStringLiteral("string"), QStringLiteral("The field's visible title"))},
              {QStringLiteral("app"), appArg()},
              {QStringLiteral("timeout_ms"), timeoutArg()}},
             {QStringLiteral("text")}),
         [](const QJsonObject& a, Engine& e, const ToolDone& d) { typeText(a, e, d, {}); }});
    out.append({QStringLiteral("scroll"), QStringLiteral("Scroll the content of the element titled on"),
                objectSchema({{QStringLiteral("direction"), choice({QStringLiteral("up"), QStringLiteral("down"),
                                                                    QStringLiteral("left"), QStringLiteral("right")},
                                                                   QStringLiteral("Where the view goes"))},
                              {QStringLiteral("ticks"),
                               ranged(QStringLiteral("integer"), 1, 100, QStringLiteral("Lines (default 3)"))},
                              {QStringLiteral("on"),
                               prop(QStringLiteral("string"), QStringLiteral("The scrolling element's visible title"))},
                              {QStringLiteral("app"), appArg()},
                              {QStringLiteral("timeout_ms"), timeoutArg()}},
                             {QStringLiteral("direction")}),
                scroll});
    out.append({QStringLiteral("hotkey"), QStringLiteral("Press a key chord, e.g. \"ctrl,s\""),
                objectSchema({{QStringLiteral("keys"),
                               prop(QStringLiteral("string"),
                                    QStringLiteral("Modifiers, then at most one key, separated by commas"))},
                              {QStringLiteral("app"), appArg()},
                              {QStringLiteral("timeout_ms"), timeoutArg()}},
                             {QStringLiteral("keys")}),
                hotkey});
    const QJsonObject dragSchema = objectSchema(
        {{QStringLiteral("from"), prop(QStringLiteral("string"), xy)},
         {QStringLiteral("to"), prop(QStringLiteral("string"), xy)},
         {QStringLiteral("duration"),
          ranged(QStringLiteral("integer"), 0, 10000, QStringLiteral("How long the move takes (ms)"))},
         {QStringLiteral("modifiers"), prop(QStringLiteral("string"), QStringLiteral("Not supported; must be empty"))},
         {QStringLiteral("app"), appArg()},
         {QStringLiteral("timeout_ms"), timeoutArg()}},
        {QStringLiteral("from"), QStringLiteral("to")});
    out.append({QStringLiteral("swipe"), QStringLiteral("Press, move and release between two points"), dragSchema,
                [](const QJsonObject& a, Engine& e, const ToolDone& d) { dragBetween(a, e, d, 300); }});
    out.append({QStringLiteral("drag"), QStringLiteral("Drag from one point to another"), dragSchema,
                [](const QJsonObject& a, Engine& e, const ToolDone& d) { dragBetween(a, e, d, 500); }});
    out.append({QStringLiteral("move"), QStringLiteral("Move the mouse pointer to a point"),
                objectSchema({{QStringLiteral("to"), prop(QStringLiteral("string"), xy)},
                              {QStringLiteral("coords"), prop(QStringLiteral("string"), xy)},
                              {QStringLiteral("timeout_ms"), timeoutArg()}}),
                move});
    out.append({QStringLiteral("app"), QStringLiteral("List the apps with windows, or bring one to the front"),
                objectSchema(
                    {{QStringLiteral("action"),
                      choice({QStringLiteral("list"), QStringLiteral("focus"), QStringLiteral("switch")},
                             QStringLiteral("What to do"))},
                     {QStringLiteral("name"),
                      prop(QStringLiteral("string"), QStringLiteral("The app's accessible name or executable"))},
                     {QStringLiteral("bundle_id"), prop(QStringLiteral("string"), QStringLiteral("The same as name"))},
                     {QStringLiteral("timeout_ms"), timeoutArg()}},
                    {QStringLiteral("action")}),
                app});
    out.append(
        {QStringLiteral("window"),
         QStringLiteral("List, focus, minimize, maximize, restore, close, move or resize a window"),
         objectSchema(
             {{QStringLiteral("action"),
               choice({QStringLiteral("list"), QStringLiteral("focus"), QStringLiteral("minimize"),
                       QStringLiteral("maximize"), QStringLiteral("restore"), QStringLiteral("close"),
                       QStringLiteral("move"), QStringLiteral("resize")},
                      QStringLiteral("What to do"))},
              {QStringLiteral("app"), appArg()},
              {QStringLiteral("title"), prop(QStringLiteral("string"), QStringLiteral("Part of the window's title"))},
              {QStringLiteral("x"), prop(QStringLiteral("integer"), QStringLiteral("move: left edge"))},
              {QStringLiteral("y"), prop(QStringLiteral("integer"), QStringLiteral("move: top edge"))},
              {QStringLiteral("width"), ranged(QStringLiteral("integer"), 1, 100000, QStringLiteral("resize: width"))},
              {QStringLiteral("height"),
               ranged(QStringLiteral("integer"), 1, 100000, QStringLiteral("resize: height"))},
              {QStringLiteral("timeout_ms"), timeoutArg()}},
             {QStringLiteral("action")}),
         window});
    out.append({QStringLiteral("menu"), QStringLiteral("Pick a menu item by its path, e.g. \"File > Save As\""),
                objectSchema({{QStringLiteral("action"),
                               choice({QStringLiteral("click")}, QStringLiteral("What to do (default click)"))},
                              {QStringLiteral("app"), appArg()},
                              {QStringLiteral("path"),
                               prop(QStringLiteral("string"),
                                    QStringLiteral("Menu titles from the menu bar down, separated by '>'"))},
                              {QStringLiteral("timeout_ms"), timeoutArg()}},
                             {QStringLiteral("path")}),
                menu});
    out.append({QStringLiteral("dialog"), QStringLiteral("Click a button of a dialog, or dismiss it with Escape"),
                objectSchema({{QStringLiteral("action"), choice({QStringLiteral("click"), QStringLiteral("dismiss")},
                                                                QStringLiteral("What to do"))},
                              {QStringLiteral("button"),
                               prop(QStringLiteral("string"), QStringLiteral("The button's visible title"))},
                              {QStringLiteral("app"), appArg()},
                              {QStringLiteral("timeout_ms"), timeoutArg()}},
                             {QStringLiteral("action")}),
                dialog});
    out.append(
        {QStringLiteral("paste"),
         QStringLiteral("Paste text into the focused element, or into the element titled target"),
         objectSchema(
             {{QStringLiteral("text"), prop(QStringLiteral("string"), QStringLiteral("The text"))},
              {QStringLiteral("target"), prop(QStringLiteral("string"), QStringLiteral("The field's visible title"))},
              {QStringLiteral("app"), appArg()},
              {QStringLiteral("timeout_ms"), timeoutArg()}},
             {QStringLiteral("text")}),
         [](const QJsonObject& a, Engine& e, const ToolDone& d) { typeText(a, e, d, QStringLiteral("clipboard")); }});
    out.append({QStringLiteral("list"), QStringLiteral("List apps, windows or permissions"),
                objectSchema({{QStringLiteral("type"), choice({QStringLiteral("apps"), QStringLiteral("windows"),
                                                               QStringLiteral("permissions")},
                                                              QStringLiteral("What to list"))},
                              {QStringLiteral("app"),
                               prop(QStringLiteral("string"), QStringLiteral("windows: only this app's"))},
                              {QStringLiteral("timeout_ms"), timeoutArg()}},
                             {QStringLiteral("type")}),
                list});
    out.append(
        {QStringLiteral("permissions"), QStringLiteral("The accessibility and screen-capture permissions' state"),
         objectSchema(
             {{QStringLiteral("action"),
               choice({QStringLiteral("status")}, QStringLiteral("Only status: a remote server cannot grant them"))},
              {QStringLiteral("timeout_ms"), timeoutArg()}}),
         [](const QJsonObject&, Engine& e, const ToolDone& d) { permissionsOf(e, d); }});
    out.append(
        {QStringLiteral("sleep"), QStringLiteral("Wait a while before the next command"),
         objectSchema({{QStringLiteral("ms"), ranged(QStringLiteral("integer"), 0, 60000, QStringLiteral("How long"))}},
                      {QStringLiteral("ms")}),
         sleep});
    out.append(
        {QStringLiteral("wait"),
         QStringLiteral("Wait until an element titled query appears (or, with gone, disappears)"),
         objectSchema(
             {{QStringLiteral("query"),
               prop(QStringLiteral("string"), QStringLiteral("The element's visible title (contains)"))},
              {QStringLiteral("gone"), prop(QStringLiteral("boolean"), QStringLiteral("Wait for it to disappear"))},
              {QStringLiteral("app"), appArg()},
              {QStringLiteral("timeout_ms"),
               ranged(QStringLiteral("integer"), 1, 600000, QStringLiteral("How long to wait (default 10000)"))}},
             {QStringLiteral("query")}),
         wait});
    return out;
}

} // namespace

const QList<Tool>& tools()
{
    static const QList<Tool> table = makeTools();
    return table;
}

QJsonArray toolDefinitions()
{
    return DoorKit::Schema::toolDefinitions(tools());
}

std::optional<QString> unsupportedReason(const QString& name)
{
    static const QHash<QString, QString> reasons{
        {QStringLiteral("dock"), QStringLiteral("there is no Dock to drive here; use app and window")},
        {QStringLiteral("space"), QStringLiteral("desktop spaces are not driven by this host")},
        {QStringLiteral("clipboard"), QStringLiteral("the person's clipboard is not read or set for a remote server; "
                                                     "use paste to put text into a field")},
        {QStringLiteral("analyze"), QStringLiteral("this host runs no AI model; send the image from see to yours")},
    };
    const auto it = reasons.constFind(name);
    if (it == reasons.cend())
        return std::nullopt;
    return *it;
}

void callTool(const QString& name, const QJsonObject& arguments, Engine& engine, const ToolDone& done)
{
    if (const auto reason = unsupportedReason(name))
        return done(ToolOutcome::error(
            ToolOutcome::kToolNotFound, QStringLiteral("Tool not supported: %1 (%2)").arg(name, *reason),
            QJsonObject{{QStringLiteral("tool"), name}, {QStringLiteral("reason"), QStringLiteral("unsupported")}}));
    for (const Tool& tool : tools()) {
        if (tool.name != name)
            continue;
        if (const auto problem = checkArguments(tool.inputSchema, arguments))
            return done(ToolOutcome::error(ToolOutcome::kInvalidParams,
                                           QStringLiteral("Invalid params: %1").arg(*problem),
                                           QJsonObject{{QStringLiteral("tool"), name}}));
        return tool.run(arguments, engine, done);
    }
    done(ToolOutcome::error(
        ToolOutcome::kToolNotFound, QStringLiteral("Tool not found: %1").arg(name),
        QJsonObject{{QStringLiteral("tool"), name}, {QStringLiteral("reason"), QStringLiteral("unknown")}}));
}

} // namespace Remote
