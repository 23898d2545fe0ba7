// app, window, menu, dialog, list and permissions: apps and their windows.
#include "remote/PeekabooTools.h"

#include "remote/PeekabooToolSupport.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace Remote::Peekaboo {

namespace {

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

} // namespace

void app(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString action = str(a, "action");
    if (action == QLatin1String("list"))
        return listWindows(a, engine, done, true);
    // Peekaboo's launch and quit: desktop.app, by bundle id (macOS) or desktop id or executable.
    if (action == QLatin1String("launch") || action == QLatin1String("quit") || action == QLatin1String("relaunch")) {
        QJsonObject app;
        if (const QString bundle = str(a, "bundle_id"); !bundle.isEmpty())
            app.insert(QStringLiteral("bundleId"), bundle);
        if (const QString desktop = str(a, "desktop_id"); !desktop.isEmpty())
            app.insert(QStringLiteral("desktopId"), desktop);
        if (const QString name = str(a, "name"); !name.isEmpty() && app.isEmpty())
            app.insert(QStringLiteral("executable"), name);
        if (app.isEmpty())
            return done(
                badArgument(QStringLiteral("bundle_id, desktop_id or name is required to %1 an app").arg(action)));
        QJsonObject params{{QStringLiteral("action"), action}, {QStringLiteral("app"), app}};
        if (a.value(QStringLiteral("force")).toBool())
            params.insert(QStringLiteral("force"), true);
        engine.call(
            QStringLiteral("desktop.app"), params, true, timeoutOf(a), [done, action](const QJsonObject& response) {
                const bool quitting = action == QLatin1String("quit");
                done(sideEffectOutcome(response, quitting ? QStringLiteral("exited") : QStringLiteral("launched"),
                                       quitting ? QStringLiteral("App quit") : QStringLiteral("App launched")));
            });
        return;
    }
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
    if (action == QLatin1String("file")) {
        // Peekaboo's `dialog file`: the folder (path) and the name, and the button that takes them
        // (select: Save or Open), through desktop.fileDialog.
        QString path = str(a, "path");
        if (const QString name = str(a, "name"); !name.isEmpty())
            path = path.isEmpty() ? name : path + QLatin1Char('/') + name;
        if (path.isEmpty())
            return done(badArgument(QStringLiteral("path (and name) are required to fill a file dialog")));
        const bool open = str(a, "select").compare(QLatin1String("open"), Qt::CaseInsensitive) == 0;
        QJsonObject params{{QStringLiteral("path"), path},
                           {QStringLiteral("action"), open ? QStringLiteral("open") : QStringLiteral("save")}};
        if (const QString overwrite = str(a, "overwrite"); !overwrite.isEmpty())
            params.insert(QStringLiteral("overwrite"), overwrite);
        return engine.call(QStringLiteral("desktop.fileDialog"), withRoute(params, str(a, "app")), true, timeoutOf(a),
                           [done, open](const QJsonObject& response) {
                               done(sideEffectOutcome(response, QStringLiteral("done"),
                                                      open ? QStringLiteral("Open") : QStringLiteral("Save")));
                           });
    }
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

void clipboard(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString action = str(a, "action");
    if (action == QLatin1String("get")) {
        QJsonObject params{{QStringLiteral("action"), QStringLiteral("read")}};
        if (const QString mode = str(a, "redaction"); !mode.isEmpty())
            params.insert(QStringLiteral("redactionMode"), mode);
        engine.call(QStringLiteral("desktop.clipboard"), params, false, timeoutOf(a),
                    [done](const QJsonObject& response) {
                        if (failed(response))
                            return done(hostFailure(response));
                        const QJsonObject result = resultOf(response);
                        QJsonObject facts{{QStringLiteral("formats"), result.value(QStringLiteral("formats"))},
                                          {QStringLiteral("concealed"), result.value(QStringLiteral("concealed"))}};
                        for (const char* key : {"text", "length", "image"}) {
                            const QString name = QString::fromLatin1(key);
                            if (result.contains(name))
                                facts.insert(name, result.value(name));
                        }
                        const QString sentence = result.value(QStringLiteral("concealed")).toBool()
                                                     ? QStringLiteral("The clipboard holds a concealed copy (not read)")
                                                 : result.contains(QStringLiteral("text"))
                                                     ? QStringLiteral("The clipboard holds %1 character(s) of text")
                                                           .arg(result.value(QStringLiteral("length")).toInt())
                                                     : QStringLiteral("The clipboard holds no text");
                        done(ToolOutcome::of(toolResult(sentence, facts, false)));
                    });
        return;
    }
    if (action == QLatin1String("set")) {
        if (!a.value(QStringLiteral("text")).isString())
            return done(badArgument(QStringLiteral("text is required to set the clipboard")));
        QJsonObject params{{QStringLiteral("action"), QStringLiteral("write")},
                           {QStringLiteral("text"), a.value(QStringLiteral("text"))}};
        if (a.contains(QStringLiteral("restore_after_ms")))
            params.insert(QStringLiteral("restoreAfterMs"), a.value(QStringLiteral("restore_after_ms")).toInt());
        engine.call(QStringLiteral("desktop.clipboard"), params, true, timeoutOf(a),
                    [done](const QJsonObject& response) {
                        done(sideEffectOutcome(response, QStringLiteral("written"), QStringLiteral("Clipboard set")));
                    });
        return;
    }
    done(badArgument(QStringLiteral("action is get or set")));
}

} // namespace Remote::Peekaboo
