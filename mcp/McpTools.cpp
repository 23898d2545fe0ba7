// The MCP door's tool table: ghost-os's tool names, descriptions and input schemas (built with
// the client kit's DoorKit::Schema), each mapped to its handler in the family files Ghost*Tools.cpp
// and DesktopStatusTools.cpp.
#include "mcp/McpTools.h"

#include "client-kit/ToolSchema.h"
#include "mcp/GhostToolSupport.h"
#include "mcp/GhostTools.h"

#include <QJsonDocument>

namespace Mcp {

namespace Schema = DoorKit::Schema;
using namespace Ghost;

QJsonObject textResult(const QJsonObject& toolResult)
{
    // QJsonObject keeps its keys sorted, so compact output is sorted-key JSON.
    return QJsonObject{
        {QStringLiteral("content"),
         QJsonArray{QJsonObject{
             {QStringLiteral("type"), QStringLiteral("text")},
             {QStringLiteral("text"), QString::fromUtf8(QJsonDocument(toolResult).toJson(QJsonDocument::Compact))}}}},
        {QStringLiteral("isError"), !toolResult.value(QStringLiteral("success")).toBool()}};
}

const QList<Tool>& tools()
{
    const QJsonObject app = Schema::property(QStringLiteral("string"),
                                             QStringLiteral("App name or executable (default: the frontmost app)"));
    const QJsonObject query =
        Schema::property(QStringLiteral("string"), QStringLiteral("Visible title (or part of it) of the element"));
    const QJsonObject role =
        Schema::property(QStringLiteral("string"), QStringLiteral("Accessibility role, e.g. AXButton, AXTextField"));
    const QJsonObject domId =
        Schema::property(QStringLiteral("string"), QStringLiteral("Accessibility identifier (DOM id in web pages)"));
    const QJsonObject number = Schema::property(QStringLiteral("number"), QStringLiteral("Screen coordinate"));
    static const QList<Tool> table{
        {QStringLiteral("ghost_context"),
         QStringLiteral("Where you are: the app, its window, the focused element and up to 30 elements you can act on. "
                        "Call it first."),
         Schema::object({{QStringLiteral("app"), app}}), contextTool},
        {QStringLiteral("ghost_state"),
         QStringLiteral("Every app with a window, and its windows (title, position, size, active, minimized)."),
         Schema::object({{QStringLiteral("app"), app}}), stateTool},
        {QStringLiteral("ghost_find"),
         QStringLiteral(
             "Find elements by visible title (query), role or identifier; answers their positions and sizes."),
         Schema::object({{QStringLiteral("query"), query},
                         {QStringLiteral("role"), role},
                         {QStringLiteral("dom_id"), domId},
                         {QStringLiteral("dom_class"),
                          Schema::property(QStringLiteral("string"), QStringLiteral("Not used by this host"))},
                         {QStringLiteral("identifier"), domId},
                         {QStringLiteral("app"), app},
                         {QStringLiteral("depth"),
                          Schema::property(QStringLiteral("integer"),
                                           QStringLiteral("Ignored: the host searches the whole window"))}}),
         findTool},
        {QStringLiteral("ghost_read"),
         QStringLiteral("Read the text of the window, or of the elements whose title contains query (never a "
                        "password field's)."),
         Schema::object(
             {{QStringLiteral("app"), app},
              {QStringLiteral("query"), query},
              {QStringLiteral("depth"), Schema::property(QStringLiteral("integer"), QStringLiteral("Ignored"))}}),
         readTool},
        {QStringLiteral("ghost_inspect"),
         QStringLiteral("Everything the host reads of one element: role, name, text (never a password "
                        "field's), states, position, size and an element_ref."),
         Schema::object({{QStringLiteral("query"), query},
                         {QStringLiteral("role"), role},
                         {QStringLiteral("dom_id"), domId},
                         {QStringLiteral("app"), app}},
                        {QStringLiteral("query")}),
         inspectTool},
        {QStringLiteral("ghost_element_at"),
         QStringLiteral("The element at a screen point (the topmost window there), with its ancestors."),
         Schema::object({{QStringLiteral("x"), number}, {QStringLiteral("y"), number}},
                        {QStringLiteral("x"), QStringLiteral("y")}),
         elementAtTool},
        {QStringLiteral("ghost_screenshot"),
         QStringLiteral("A PNG screenshot of the app's window (or the whole screen)."),
         Schema::object(
             {{QStringLiteral("app"), app},
              {QStringLiteral("full_resolution"),
               Schema::property(QStringLiteral("boolean"),
                                QStringLiteral("Every pixel; default: at most 1280 wide, the scale given"))}}),
         screenshotTool},
        {QStringLiteral("ghost_click"),
         QStringLiteral("Click an element named by its visible title (query) and role (its accessibility action, "
                        "the pointer when it has none), or the screen point x, y. button: left (default), right, "
                        "middle; count 1-3. The person at the desktop may be asked to allow it."),
         Schema::object(
             {{QStringLiteral("query"), query},
              {QStringLiteral("role"), role},
              {QStringLiteral("dom_id"), domId},
              {QStringLiteral("app"), app},
              {QStringLiteral("x"), number},
              {QStringLiteral("y"), number},
              {QStringLiteral("button"), Schema::declared(QStringLiteral("desktop.pointer"), QStringLiteral("button"))},
              {QStringLiteral("count"), Schema::declared(QStringLiteral("desktop.pointer"), QStringLiteral("count"))}}),
         clickTool},
        {QStringLiteral("ghost_type"),
         QStringLiteral("Type text into the field `into` names (the label beside it, as \"Name:\", or its "
                        "own name), or into the focused element; clear empties it first."),
         Schema::object(
             {{QStringLiteral("text"), Schema::property(QStringLiteral("string"), QStringLiteral("The text"))},
              {QStringLiteral("into"), query},
              {QStringLiteral("dom_id"), domId},
              {QStringLiteral("app"), app},
              {QStringLiteral("clear"),
               Schema::declared(QStringLiteral("desktop.typeText"), QStringLiteral("options.clearBefore"))}},
             {QStringLiteral("text")}),
         typeTool},
        {QStringLiteral("ghost_press"), QStringLiteral("Press one key, with modifiers (cmd, shift, option, control)."),
         Schema::object({{QStringLiteral("key"), Schema::property(QStringLiteral("string"),
                                                                  QStringLiteral("return, tab, escape, space, delete, "
                                                                                 "up, down, left, right, f1..."))},
                         {QStringLiteral("modifiers"),
                          Schema::arrayOf(QStringLiteral("string"), QStringLiteral("cmd, shift, option, control"))},
                         {QStringLiteral("app"), app}},
                        {QStringLiteral("key")}),
         pressTool},
        {QStringLiteral("ghost_hotkey"), QStringLiteral("Press a key combination, e.g. [\"cmd\", \"s\"]."),
         Schema::object(
             {{QStringLiteral("keys"), Schema::declared(QStringLiteral("desktop.hotkey"), QStringLiteral("keys"))},
              {QStringLiteral("app"), app}},
             {QStringLiteral("keys")}),
         hotkeyTool},
        {QStringLiteral("ghost_scroll"),
         QStringLiteral("Scroll what is under x, y (default: the middle of the app's window) up, down, left or "
                        "right by amount lines (default 3)."),
         Schema::object(
             {{QStringLiteral("direction"),
               Schema::declared(QStringLiteral("desktop.scroll"), QStringLiteral("direction"),
                                QStringLiteral("Where the view goes"))},
              {QStringLiteral("amount"), Schema::declared(QStringLiteral("desktop.scroll"), QStringLiteral("amount"),
                                                          QStringLiteral("Lines, default 3"))},
              {QStringLiteral("app"), app},
              {QStringLiteral("x"), number},
              {QStringLiteral("y"), number}},
             {QStringLiteral("direction")}),
         scrollTool},
        {QStringLiteral("ghost_hover"),
         QStringLiteral("Move the pointer over an element (query, role) or a point (x, y) without clicking."),
         Schema::object({{QStringLiteral("query"), query},
                         {QStringLiteral("role"), role},
                         {QStringLiteral("dom_id"), domId},
                         {QStringLiteral("app"), app},
                         {QStringLiteral("x"), number},
                         {QStringLiteral("y"), number}}),
         hoverTool},
        {QStringLiteral("ghost_long_press"),
         QStringLiteral("Press and hold on an element or a point; duration in seconds (default 1, at most 10)."),
         Schema::object(
             {{QStringLiteral("query"), query},
              {QStringLiteral("role"), role},
              {QStringLiteral("dom_id"), domId},
              {QStringLiteral("app"), app},
              {QStringLiteral("button"), Schema::property(QStringLiteral("string"), QStringLiteral("left or right"))},
              {QStringLiteral("x"), number},
              {QStringLiteral("y"), number},
              {QStringLiteral("duration"), Schema::property(QStringLiteral("number"), QStringLiteral("Seconds"))}}),
         longPressTool},
        {QStringLiteral("ghost_drag"),
         QStringLiteral("Drag with the left button from an element (query) or from_x, from_y to to_x, to_y; "
                        "duration 0.5 s, hold_duration 0.1 s before moving."),
         Schema::object(
             {{QStringLiteral("from_x"), number},
              {QStringLiteral("from_y"), number},
              {QStringLiteral("to_x"), number},
              {QStringLiteral("to_y"), number},
              {QStringLiteral("duration"), Schema::property(QStringLiteral("number"), QStringLiteral("Seconds"))},
              {QStringLiteral("hold_duration"), Schema::property(QStringLiteral("number"), QStringLiteral("Seconds"))},
              {QStringLiteral("query"), query},
              {QStringLiteral("role"), role},
              {QStringLiteral("dom_id"), domId},
              {QStringLiteral("app"), app}},
             {QStringLiteral("to_x"), QStringLiteral("to_y")}),
         dragTool},
        {QStringLiteral("ghost_focus"),
         QStringLiteral("Bring an app's window (the one whose title contains window) to the front."),
         Schema::object({{QStringLiteral("app"), app},
                         {QStringLiteral("window"),
                          Schema::property(QStringLiteral("string"), QStringLiteral("Part of the window's title"))}},
                        {QStringLiteral("app")}),
         focusTool},
        {QStringLiteral("ghost_window"),
         QStringLiteral("Window management: list, focus, minimize, maximize, restore, close, move (x, y), resize "
                        "(width, height) of an app's window (window: part of its title)."),
         Schema::object(
             {{QStringLiteral("action"),
               Schema::declaredChoice({QStringLiteral("list")}, QStringLiteral("desktop.window"),
                                      QStringLiteral("action"), QStringLiteral("What to do"))},
              {QStringLiteral("app"), app},
              {QStringLiteral("window"),
               Schema::property(QStringLiteral("string"), QStringLiteral("Part of the window's title"))},
              {QStringLiteral("x"), number},
              {QStringLiteral("y"), number},
              {QStringLiteral("width"), Schema::property(QStringLiteral("number"), QStringLiteral("Content width"))},
              {QStringLiteral("height"), Schema::property(QStringLiteral("number"), QStringLiteral("Content height"))}},
             {QStringLiteral("action"), QStringLiteral("app")}),
         windowTool},
        {QStringLiteral("ghost_app"),
         QStringLiteral("The running apps (list), or launch, quit or relaunch one by bundle_id (macOS), desktop_id "
                        "(Linux), executable or pid; force kills it (high-risk)."),
         Schema::object(
             {{QStringLiteral("action"),
               Schema::declaredChoice({}, QStringLiteral("desktop.app"), QStringLiteral("action"),
                                      QStringLiteral("What to do"))},
              {QStringLiteral("bundle_id"), Schema::property(QStringLiteral("string"), QStringLiteral("macOS"))},
              {QStringLiteral("desktop_id"),
               Schema::property(QStringLiteral("string"), QStringLiteral("A desktop entry (Linux)"))},
              {QStringLiteral("executable"),
               Schema::property(QStringLiteral("string"), QStringLiteral("A program a desktop entry starts"))},
              {QStringLiteral("pid"), Schema::property(QStringLiteral("integer"), QStringLiteral("quit: the process"))},
              {QStringLiteral("force"),
               Schema::property(QStringLiteral("boolean"), QStringLiteral("quit: kill it (high-risk)"))}},
             {QStringLiteral("action")}),
         appTool},
        {QStringLiteral("ghost_clipboard"),
         QStringLiteral("The clipboard: read (text, redacted unless redaction is none; an image's size; a password "
                        "manager's concealed copy is never read) or write text (restore_after: seconds until the "
                        "previous text comes back)."),
         Schema::object(
             {{QStringLiteral("action"),
               Schema::declaredChoice({}, QStringLiteral("desktop.clipboard"), QStringLiteral("action"),
                                      QStringLiteral("What to do"))},
              {QStringLiteral("text"), Schema::property(QStringLiteral("string"), QStringLiteral("write: the text"))},
              {QStringLiteral("redaction"),
               Schema::declaredChoice({}, QStringLiteral("desktop.clipboard"), QStringLiteral("redactionMode"),
                                      QStringLiteral("read: none, patterns (default) or hash"))},
              {QStringLiteral("restore_after"),
               Schema::property(QStringLiteral("number"), QStringLiteral("write: seconds"))}},
             {QStringLiteral("action")}),
         clipboardTool},
        {QStringLiteral("ghost_file_dialog"),
         QStringLiteral("Save or open a path through the open/save dialog the app shows: path (absolute), action "
                        "save or open, overwrite never (default: an existing file is refused) or replace "
                        "(high-risk). The answer says whether the file was seen written."),
         Schema::object(
             {{QStringLiteral("path"), Schema::property(QStringLiteral("string"), QStringLiteral("Absolute path"))},
              {QStringLiteral("action"),
               Schema::declaredChoice({}, QStringLiteral("desktop.fileDialog"), QStringLiteral("action"),
                                      QStringLiteral("save or open"))},
              {QStringLiteral("overwrite"),
               Schema::declaredChoice({}, QStringLiteral("desktop.fileDialog"), QStringLiteral("overwrite"),
                                      QStringLiteral("save: never or replace"))},
              {QStringLiteral("app"), app}},
             {QStringLiteral("path")}),
         fileDialogTool},
        {QStringLiteral("ghost_displays"),
         QStringLiteral("The displays: id, name, frame in global screen coordinates (every x and y the tools take "
                        "and answer), scale, and which is primary."),
         Schema::object({}), displaysTool},
        {QStringLiteral("ghost_wait"),
         QStringLiteral("Wait until an element exists (elementExists), is gone (elementGone), a window title "
                        "contains value (titleContains) or the title changes (titleChanged)."),
         Schema::object({{QStringLiteral("condition"),
                          Schema::property(QStringLiteral("string"),
                                           QStringLiteral("elementExists, elementGone, titleContains, titleChanged"))},
                         {QStringLiteral("value"),
                          Schema::property(QStringLiteral("string"), QStringLiteral("Title text to wait for"))},
                         {QStringLiteral("app"), app},
                         {QStringLiteral("timeout"),
                          Schema::property(QStringLiteral("number"), QStringLiteral("Seconds, default 10"))},
                         {QStringLiteral("interval"),
                          Schema::property(QStringLiteral("number"), QStringLiteral("Seconds, default 0.5"))}},
                        {QStringLiteral("condition")}),
         waitTool},
        {QStringLiteral("ghost_recipes"),
         QStringLiteral("The saved recipes (multi-step tasks with parameters). Check them before doing a multi-step "
                        "task by hand."),
         Schema::object({}), recipesTool},
        {QStringLiteral("ghost_run"),
         QStringLiteral("Run a recipe with its parameters; each step runs through the host with its own "
                        "evidence, and the answer says which step failed and why."),
         Schema::object(
             {{QStringLiteral("recipe"), Schema::property(QStringLiteral("string"), QStringLiteral("Its name"))},
              {QStringLiteral("params"),
               QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                           {QStringLiteral("description"), QStringLiteral("Parameter values by name")}}}},
             {QStringLiteral("recipe")}),
         runTool},
        {QStringLiteral("ghost_recipe_show"), QStringLiteral("A recipe's full JSON: its parameters and steps."),
         Schema::object({{QStringLiteral("name"),
                          Schema::property(QStringLiteral("string"), QStringLiteral("The recipe's name"))}},
                        {QStringLiteral("name")}),
         recipeShowTool},
        {QStringLiteral("ghost_recipe_save"),
         QStringLiteral("Save (or replace) a recipe given as JSON (schema_version 2); it is checked before it is "
                        "saved."),
         Schema::object({{QStringLiteral("recipe_json"),
                          Schema::property(QStringLiteral("string"), QStringLiteral("The recipe as a JSON string"))}},
                        {QStringLiteral("recipe_json")}),
         recipeSaveTool},
        {QStringLiteral("ghost_recipe_delete"), QStringLiteral("Delete a saved recipe."),
         Schema::object({{QStringLiteral("name"),
                          Schema::property(QStringLiteral("string"), QStringLiteral("The recipe's name"))}},
                        {QStringLiteral("name")}),
         recipeDeleteTool},
        {QStringLiteral("ghost_parse_screen"),
         QStringLiteral("Every element on screen with its label, position and size: the accessibility tree's "
                        "elements and the text read off the pixels (OCR, source \"ocr\"), merged. Works where an "
                        "app exposes no accessibility."),
         Schema::object({{QStringLiteral("app"), app},
                         {QStringLiteral("marks"),
                          Schema::property(QStringLiteral("boolean"),
                                           QStringLiteral("Also answer a screenshot with each element's box and "
                                                          "number (its \"mark\") drawn on it"))},
                         {QStringLiteral("full_resolution"), Schema::property(QStringLiteral("boolean"), {})}}),
         parseScreenTool},
        {QStringLiteral("ghost_ground"),
         QStringLiteral("The screen point of what a description names (its text as shown, e.g. \"Save\"), from the "
                        "accessibility tree and the text on screen (OCR), with a real confidence. x, y is the point "
                        "to click."),
         Schema::object({{QStringLiteral("description"), Schema::property(QStringLiteral("string"), {})},
                         {QStringLiteral("app"), app},
                         {QStringLiteral("crop_box"),
                          Schema::arrayOf(QStringLiteral("number"), QStringLiteral("[x1, y1, x2, y2] in screen "
                                                                                   "points"))}},
                        {QStringLiteral("description")}),
         groundTool},
        {QStringLiteral("ghost_annotate"),
         QStringLiteral("A screenshot of the app's window with numbered boxes on the elements you can act on, and "
                        "an index of them with the point to click."),
         Schema::object(
             {{QStringLiteral("app"), app},
              {QStringLiteral("roles"),
               Schema::arrayOf(QStringLiteral("string"), QStringLiteral("Roles to label, e.g. AXButton (default: "
                                                                        "controls)"))},
              {QStringLiteral("max_labels"),
               Schema::property(QStringLiteral("integer"), QStringLiteral("Default 50, at most 100"))},
              {QStringLiteral("full_resolution"),
               Schema::property(QStringLiteral("boolean"), QStringLiteral("Every pixel; default: at most 1280 "
                                                                          "wide"))}}),
         annotateTool},
        {QStringLiteral("desktop_abort"),
         QStringLiteral("Abort what the host is running now (or execution_id): the action stops where it is."),
         Schema::object(
             {{QStringLiteral("execution_id"),
               Schema::property(QStringLiteral("string"), QStringLiteral("Default: the running execution"))}}),
         abortTool},
        {QStringLiteral("desktop_evidence"),
         QStringLiteral("Where the evidence of this workspace's recent calls is (request, response, screenshots, "
                        "tree, trace), newest first."),
         Schema::object(
             {{QStringLiteral("limit"), Schema::property(QStringLiteral("integer"), QStringLiteral("Default 10"))}}),
         evidenceTool},
        {QStringLiteral("desktop_status"),
         QStringLiteral("The host: its permissions, and whether it is idle, busy (with what) or stopped."),
         Schema::object({}), statusTool},
    };
    return table;
}

QJsonArray toolDefinitions()
{
    return DoorKit::Schema::toolDefinitions(tools());
}

QJsonObject callTool(const QString& name, const QJsonObject& arguments, HostLink& host)
{
    for (const Tool& tool : tools()) {
        if (tool.name == name)
            return tool.call(arguments, host);
    }
    return textResult(QJsonObject{{QStringLiteral("success"), false},
                                  {QStringLiteral("error"), QStringLiteral("Unknown tool: %1").arg(name)}});
}

} // namespace Mcp
