// The remote door's tool table: Peekaboo's tool names, descriptions and input schemas (built
// with the client kit's DoorKit::Schema, every one refusing unknown arguments), each mapped to
// its handler in the family files Peekaboo*Tools.cpp.
#include "remote/RemoteTools.h"

#include "client-kit/ToolSchema.h"
#include "remote/PeekabooTools.h"

#include <QHash>

namespace Remote {

namespace {

using namespace Peekaboo;
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
              {QStringLiteral("clear"),
               DoorKit::Schema::declared(QStringLiteral("desktop.typeText"), QStringLiteral("options.clearBefore"),
                                         QStringLiteral("Replace the field's text"))},
              {QStringLiteral("delay_ms"),
               DoorKit::Schema::declared(QStringLiteral("desktop.typeText"), QStringLiteral("options.keyDelayMs"),
                                         QStringLiteral("Accepted; the host types at the field's own pace"))},
              {QStringLiteral("target"), prop(QStringLiteral("string"), QStringLiteral("The field's visible title"))},
              {QStringLiteral("app"), appArg()},
              {QStringLiteral("timeout_ms"), timeoutArg()}},
             {QStringLiteral("text")}),
         [](const QJsonObject& a, Engine& e, const ToolDone& d) { typeText(a, e, d, {}); }});
    out.append({QStringLiteral("scroll"), QStringLiteral("Scroll the content of the element titled on"),
                objectSchema({{QStringLiteral("direction"),
                               DoorKit::Schema::declared(QStringLiteral("desktop.scroll"), QStringLiteral("direction"),
                                                         QStringLiteral("Where the view goes"))},
                              {QStringLiteral("ticks"),
                               DoorKit::Schema::declared(QStringLiteral("desktop.scroll"), QStringLiteral("amount"),
                                                         QStringLiteral("Lines (default 3)"))},
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
          DoorKit::Schema::declared(QStringLiteral("desktop.pointer"), QStringLiteral("durationMs"),
                                    QStringLiteral("How long the move takes (ms)"))},
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
    out.append(
        {QStringLiteral("app"),
         QStringLiteral("List the apps with windows, bring one to the front, or launch, quit or relaunch one"),
         objectSchema(
             {{QStringLiteral("action"),
               choice({QStringLiteral("list"), QStringLiteral("focus"), QStringLiteral("switch"),
                       QStringLiteral("launch"), QStringLiteral("quit"), QStringLiteral("relaunch")},
                      QStringLiteral("What to do"))},
              {QStringLiteral("desktop_id"),
               prop(QStringLiteral("string"), QStringLiteral("launch, quit: a desktop entry (Linux)"))},
              {QStringLiteral("force"), prop(QStringLiteral("boolean"), QStringLiteral("quit: kill it (high-risk)"))},
              {QStringLiteral("name"),
               prop(QStringLiteral("string"), QStringLiteral("The app's accessible name or executable"))},
              {QStringLiteral("bundle_id"), prop(QStringLiteral("string"), QStringLiteral("The same as name"))},
              {QStringLiteral("timeout_ms"), timeoutArg()}},
             {QStringLiteral("action")}),
         app});
    out.append({QStringLiteral("window"),
                QStringLiteral("List, focus, minimize, maximize, restore, close, move or resize a window"),
                objectSchema({{QStringLiteral("action"), DoorKit::Schema::declaredChoice(
                                                             {QStringLiteral("list")}, QStringLiteral("desktop.window"),
                                                             QStringLiteral("action"), QStringLiteral("What to do"))},
                              {QStringLiteral("app"), appArg()},
                              {QStringLiteral("title"),
                               prop(QStringLiteral("string"), QStringLiteral("Part of the window's title"))},
                              {QStringLiteral("x"), prop(QStringLiteral("integer"), QStringLiteral("move: left edge"))},
                              {QStringLiteral("y"), prop(QStringLiteral("integer"), QStringLiteral("move: top edge"))},
                              {QStringLiteral("width"),
                               DoorKit::Schema::declared(QStringLiteral("desktop.window"), QStringLiteral("size.width"),
                                                         QStringLiteral("resize: width"))},
                              {QStringLiteral("height"), DoorKit::Schema::declared(QStringLiteral("desktop.window"),
                                                                                   QStringLiteral("size.height"),
                                                                                   QStringLiteral("resize: height"))},
                              {QStringLiteral("timeout_ms"), timeoutArg()}},
                             {QStringLiteral("action")}),
                window});
    out.append(
        {QStringLiteral("clipboard"),
         QStringLiteral("Get the clipboard (text redacted unless redaction is none; a concealed copy is never "
                        "read) or set it to text"),
         objectSchema({{QStringLiteral("action"),
                        choice({QStringLiteral("get"), QStringLiteral("set")}, QStringLiteral("What to do"))},
                       {QStringLiteral("text"), prop(QStringLiteral("string"), QStringLiteral("set: the text"))},
                       {QStringLiteral("redaction"),
                        DoorKit::Schema::declared(QStringLiteral("desktop.clipboard"), QStringLiteral("redactionMode"),
                                                  QStringLiteral("get: how"))},
                       {QStringLiteral("restore_after_ms"),
                        DoorKit::Schema::declared(QStringLiteral("desktop.clipboard"), QStringLiteral("restoreAfterMs"),
                                                  QStringLiteral("set: put the previous text back after"))},
                       {QStringLiteral("timeout_ms"), timeoutArg()}},
                      {QStringLiteral("action")}),
         clipboard});
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
    out.append(
        {QStringLiteral("dialog"),
         QStringLiteral("Click a button of a dialog, dismiss it with Escape, or fill a file dialog with a path "
                        "and press Save or Open"),
         objectSchema(
             {{QStringLiteral("action"),
               choice({QStringLiteral("click"), QStringLiteral("dismiss"), QStringLiteral("file")},
                      QStringLiteral("What to do"))},
              {QStringLiteral("button"), prop(QStringLiteral("string"), QStringLiteral("The button's visible title"))},
              {QStringLiteral("path"),
               prop(QStringLiteral("string"), QStringLiteral("file: the folder, or the whole path"))},
              {QStringLiteral("name"), prop(QStringLiteral("string"), QStringLiteral("file: the name"))},
              {QStringLiteral("select"),
               prop(QStringLiteral("string"), QStringLiteral("file: Save (default) or Open"))},
              {QStringLiteral("overwrite"),
               DoorKit::Schema::declaredChoice({}, QStringLiteral("desktop.fileDialog"), QStringLiteral("overwrite"),
                                               QStringLiteral("file, Save: never or replace"))},
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
