#include "mcp/McpTools.h"

#include "bridge/protocol/Meta.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace Mcp {

namespace {

QJsonObject errorObject(const QString& code, const QString& message)
{
    return QJsonObject{
        {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}};
}

QJsonObject property(const QString& type, const QString& description)
{
    return QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("description"), description}};
}

QJsonObject arrayOf(const QString& itemType, const QString& description)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                       {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), itemType}}},
                       {QStringLiteral("description"), description}};
}

QJsonObject schema(const QJsonObject& properties, const QStringList& required = {})
{
    QJsonObject out{{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        out.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    return out;
}

QJsonObject failure(const QString& error, const QString& suggestion = {})
{
    QJsonObject out{{QStringLiteral("success"), false}, {QStringLiteral("error"), error}};
    if (!suggestion.isEmpty())
        out.insert(QStringLiteral("suggestion"), suggestion);
    return textResult(out);
}

QJsonObject success(const QJsonObject& data)
{
    return textResult(QJsonObject{{QStringLiteral("success"), true}, {QStringLiteral("data"), data}});
}

// What a model can act on when the host refused or failed: the code, the message and the
// details that name what was not found, which dialog blocks, what the host is busy with.
QJsonObject hostFailure(const QJsonObject& response)
{
    const QJsonObject error = response.value(QStringLiteral("error")).toObject();
    const QString code = error.value(QStringLiteral("code")).toString();
    const QJsonObject details = error.value(QStringLiteral("details")).toObject();
    QString text = code + QStringLiteral(": ") + error.value(QStringLiteral("message")).toString();
    QString suggestion;
    if (code == QLatin1String("DESKTOP_ELEMENT_NOT_FOUND"))
        suggestion = QStringLiteral("Call ghost_find or ghost_context to see what the window holds, then name an "
                                    "element it lists.");
    else if (code == QLatin1String("DESKTOP_MODAL_BLOCKING"))
        suggestion = QStringLiteral("Deal with the dialog \"%1\" first (it is a window of its own: name it in "
                                    "the app's window).")
                         .arg(details.value(QStringLiteral("dialog")).toString());
    else if (code == QLatin1String("DESKTOP_BUSY"))
        suggestion = QStringLiteral("Another task is using the desktop; call desktop_status, then try again.");
    else if (code == QLatin1String("DESKTOP_CONFIRM_REQUIRED") || code == QLatin1String("DESKTOP_CONFIRM_DENIED"))
        suggestion = QStringLiteral("The person at the desktop did not allow this action; ask them.");
    else if (code == QLatin1String("DESKTOP_HOST_NOT_RUNNING"))
        suggestion = QStringLiteral("Start msgcode-desktop-host (the tray app, or --headless).");
    QJsonObject out{{QStringLiteral("success"), false}, {QStringLiteral("error"), text}};
    if (!details.isEmpty())
        out.insert(QStringLiteral("data"), details);
    if (!suggestion.isEmpty())
        out.insert(QStringLiteral("suggestion"), suggestion);
    return textResult(out);
}

QJsonObject routeFor(const QJsonObject& arguments)
{
    const QString app = arguments.value(QStringLiteral("app")).toString();
    if (app.isEmpty())
        return {};
    return QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), app}}}};
}

// The selector ghost-os's locating arguments describe; empty when none was given.
QJsonObject selectorFor(const QJsonObject& arguments, const QString& queryKey = QStringLiteral("query"))
{
    QJsonObject selector;
    if (const QString query = arguments.value(queryKey).toString(); !query.isEmpty())
        selector.insert(QStringLiteral("titleContains"), query);
    if (const QString role = arguments.value(QStringLiteral("role")).toString(); !role.isEmpty())
        selector.insert(QStringLiteral("byRole"), role);
    for (const char* key : {"identifier", "dom_id"}) {
        if (const QString id = arguments.value(QLatin1String(key)).toString(); !id.isEmpty())
            selector.insert(QStringLiteral("byIdentifier"), id);
    }
    return selector;
}

QJsonObject withRoute(QJsonObject params, const QJsonObject& arguments)
{
    const QJsonObject route = routeFor(arguments);
    if (!route.isEmpty())
        params.insert(QStringLiteral("route"), route);
    return params;
}

QJsonObject elementData(const QJsonObject& ref)
{
    const QJsonObject frame = ref.value(QStringLiteral("frame")).toObject();
    return QJsonObject{
        {QStringLiteral("element_id"), ref.value(QStringLiteral("elementId"))},
        {QStringLiteral("role"), ref.value(QStringLiteral("role"))},
        {QStringLiteral("name"), ref.value(QStringLiteral("title"))},
        {QStringLiteral("position"), QJsonObject{{QStringLiteral("x"), frame.value(QStringLiteral("x"))},
                                                 {QStringLiteral("y"), frame.value(QStringLiteral("y"))}}},
        {QStringLiteral("size"), QJsonObject{{QStringLiteral("width"), frame.value(QStringLiteral("width"))},
                                             {QStringLiteral("height"), frame.value(QStringLiteral("height"))}}},
    };
}

QJsonObject evidenceOf(const QJsonObject& result)
{
    return QJsonObject{
        {QStringLiteral("dir"), result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir"))},
        {QStringLiteral("execution_id"), result.value(QStringLiteral("executionId"))}};
}

// Every node of a tree (desktop.dumpTree's `tree.root`), depth first.
void walk(const QJsonObject& node, const std::function<void(const QJsonObject&)>& visit)
{
    visit(node);
    for (const auto& child : node.value(QStringLiteral("children")).toArray())
        walk(child.toObject(), visit);
}

QJsonObject notYet(const QString& tool, const QString& instead)
{
    return failure(QStringLiteral("%1 is not available in msgcode Desktop Host yet").arg(tool), instead);
}

QJsonObject findTool(const QJsonObject& arguments, HostLink& host)
{
    const QJsonObject selector = selectorFor(arguments);
    if (selector.isEmpty())
        return failure(QStringLiteral("Missing required parameter: query (or role, identifier)"));
    QJsonObject params = withRoute(QJsonObject{{QStringLiteral("selector"), selector}}, arguments);
    QJsonObject limited = selector;
    limited.insert(QStringLiteral("limit"), 50);
    params.insert(QStringLiteral("selector"), limited);
    const QJsonObject response = host.call(QStringLiteral("desktop.find"), params, false);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    QJsonArray elements;
    for (const auto& ref : result.value(QStringLiteral("elementRefs")).toArray())
        elements.append(elementData(ref.toObject()));
    return success(QJsonObject{{QStringLiteral("elements"), elements},
                               {QStringLiteral("count"), elements.size()},
                               {QStringLiteral("total_matches"), result.value(QStringLiteral("matched"))},
                               {QStringLiteral("evidence"), evidenceOf(result)}});
}

QJsonObject contextTool(const QJsonObject& arguments, HostLink& host)
{
    const QJsonObject response = host.call(
        QStringLiteral("desktop.dumpTree"),
        withRoute(QJsonObject{{QStringLiteral("maxDepth"), 40}, {QStringLiteral("maxNodes"), 4000}}, arguments), false);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    const QJsonObject route = result.value(QStringLiteral("routeResolved")).toObject();
    QJsonArray interactive;
    QJsonObject focused;
    walk(result.value(QStringLiteral("tree")).toObject().value(QStringLiteral("root")).toObject(),
         [&](const QJsonObject& node) {
             const QJsonArray states = node.value(QStringLiteral("states")).toArray();
             if (focused.isEmpty() && states.contains(QStringLiteral("focused")))
                 focused = QJsonObject{{QStringLiteral("role"), node.value(QStringLiteral("role"))},
                                       {QStringLiteral("name"), node.value(QStringLiteral("title"))},
                                       {QStringLiteral("editable"), states.contains(QStringLiteral("editable"))}};
             if (interactive.size() < 30 && !node.value(QStringLiteral("actions")).toArray().isEmpty() &&
                 states.contains(QStringLiteral("showing")))
                 interactive.append(QJsonObject{{QStringLiteral("role"), node.value(QStringLiteral("role"))},
                                                {QStringLiteral("name"), node.value(QStringLiteral("title"))}});
         });
    QJsonObject data{{QStringLiteral("app"), route.value(QStringLiteral("appName"))},
                     {QStringLiteral("bundle_id"), route.value(QStringLiteral("frontmostBundleId"))},
                     {QStringLiteral("pid"), route.value(QStringLiteral("pid"))},
                     {QStringLiteral("window"), route.value(QStringLiteral("windowTitle"))},
                     {QStringLiteral("interactive_elements"), interactive}};
    if (!focused.isEmpty())
        data.insert(QStringLiteral("focused_element"), focused);
    QJsonObject out{{QStringLiteral("success"), true},
                    {QStringLiteral("data"), data},
                    {QStringLiteral("context"),
                     QJsonObject{{QStringLiteral("app"), route.value(QStringLiteral("appName"))},
                                 {QStringLiteral("window"), route.value(QStringLiteral("windowTitle"))}}}};
    return textResult(out);
}

QJsonObject readTool(const QJsonObject& arguments, HostLink& host)
{
    const QJsonObject selector = selectorFor(arguments);
    QStringList lines;
    int items = 0;
    if (selector.isEmpty()) {
        // The whole window: every name and value the tree holds (never a secure field's).
        const QJsonObject response = host.call(QStringLiteral("desktop.dumpTree"),
                                               withRoute(QJsonObject{{QStringLiteral("maxDepth"), 40},
                                                                     {QStringLiteral("maxNodes"), 4000},
                                                                     {QStringLiteral("includeText"), true}},
                                                         arguments),
                                               false);
        if (response.contains(QStringLiteral("error")))
            return hostFailure(response);
        walk(response.value(QStringLiteral("result"))
                 .toObject()
                 .value(QStringLiteral("tree"))
                 .toObject()
                 .value(QStringLiteral("root"))
                 .toObject(),
             [&](const QJsonObject& node) {
                 for (const char* key : {"title", "value"}) {
                     const QString text = node.value(QLatin1String(key)).toString();
                     if (!text.isEmpty() && !lines.contains(text)) {
                         lines.append(text);
                         ++items;
                     }
                 }
             });
    } else {
        const QJsonObject response =
            host.call(QStringLiteral("desktop.readText"),
                      withRoute(QJsonObject{{QStringLiteral("selector"), selector}}, arguments), false);
        if (response.contains(QStringLiteral("error")))
            return hostFailure(response);
        for (const auto& item :
             response.value(QStringLiteral("result")).toObject().value(QStringLiteral("items")).toArray()) {
            lines.append(item.toObject().value(QStringLiteral("text")).toString());
            ++items;
        }
    }
    return success(
        QJsonObject{{QStringLiteral("content"), lines.join(QLatin1Char('\n'))}, {QStringLiteral("item_count"), items}});
}

QJsonObject screenshotTool(const QJsonObject& arguments, HostLink& host)
{
    const QJsonObject response = host.call(QStringLiteral("desktop.capture"),
                                           withRoute(QJsonObject{{QStringLiteral("inline"), true}}, arguments), false);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    const QJsonObject frame = result.value(QStringLiteral("frame")).toObject();
    QString caption = QStringLiteral("Screenshot: %1x%2")
                          .arg(frame.value(QStringLiteral("width")).toInt())
                          .arg(frame.value(QStringLiteral("height")).toInt());
    const QString title =
        result.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowTitle")).toString();
    if (!title.isEmpty())
        caption += QStringLiteral(" - ") + title;
    return QJsonObject{
        {QStringLiteral("content"),
         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                                {QStringLiteral("data"), result.value(QStringLiteral("pngBase64"))},
                                {QStringLiteral("mimeType"), QStringLiteral("image/png")}},
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), caption}}}},
        {QStringLiteral("isError"), false}};
}

// The effect as the host saw it: success only for an effect with evidence for it.
QJsonObject sideEffectResult(const QJsonObject& response, const QString& doneKey, QJsonObject data)
{
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    const QString effect = result.value(QStringLiteral("effect")).toString();
    for (const char* key : {"effect", "deliveredBy", "path", "verification"}) {
        if (result.contains(QLatin1String(key)))
            data.insert(QLatin1String(key), result.value(QLatin1String(key)));
    }
    data.insert(QStringLiteral("evidence"), evidenceOf(result));
    if (!result.value(doneKey).toBool() || effect == QLatin1String("suspected_noop"))
        return textResult(QJsonObject{
            {QStringLiteral("success"), false},
            {QStringLiteral("error"), QStringLiteral("the action was delivered but the app showed no effect (%1)")
                                          .arg(result.value(QStringLiteral("verification"))
                                                   .toObject()
                                                   .value(QStringLiteral("reason"))
                                                   .toString())},
            {QStringLiteral("data"), data},
            {QStringLiteral("suggestion"),
             QStringLiteral("Look at the app (ghost_context or ghost_screenshot) before "
                            "trying again: the action may have had an effect after all.")}});
    return success(data);
}

QJsonObject clickTool(const QJsonObject& arguments, HostLink& host)
{
    const QJsonObject selector = selectorFor(arguments);
    if (selector.isEmpty())
        return failure(arguments.contains(QStringLiteral("x"))
                           ? QStringLiteral("clicking at coordinates is not available in msgcode Desktop Host yet")
                           : QStringLiteral("Missing required parameter: query (or role, dom_id)"),
                       QStringLiteral("Name the element to click with query (its visible title) and role."));
    const QString button = arguments.value(QStringLiteral("button")).toString(QStringLiteral("left"));
    if (button != QLatin1String("left") || arguments.value(QStringLiteral("count")).toInt(1) > 1)
        return failure(QStringLiteral("only a single left click is available in msgcode Desktop Host yet"));
    const QJsonObject response = host.call(
        QStringLiteral("desktop.click"),
        withRoute(QJsonObject{{QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), selector}}}},
                  arguments),
        true);
    QJsonObject data;
    if (!response.contains(QStringLiteral("error")))
        data.insert(
            QStringLiteral("element"),
            elementData(
                response.value(QStringLiteral("result")).toObject().value(QStringLiteral("target")).toObject()));
    return sideEffectResult(response, QStringLiteral("clicked"), data);
}

QJsonObject typeTool(const QJsonObject& arguments, HostLink& host)
{
    if (!arguments.value(QStringLiteral("text")).isString())
        return failure(QStringLiteral("Missing required parameter: text"));
    QJsonObject params{{QStringLiteral("text"), arguments.value(QStringLiteral("text"))}};
    if (arguments.value(QStringLiteral("clear")).toBool())
        params.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}});
    const QJsonObject selector = selectorFor(arguments, QStringLiteral("into"));
    if (!selector.isEmpty())
        params.insert(QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), selector}});
    const QJsonObject response = host.call(QStringLiteral("desktop.typeText"), withRoute(params, arguments), true);
    return sideEffectResult(
        response, QStringLiteral("typed"),
        QJsonObject{{QStringLiteral("typed"), arguments.value(QStringLiteral("text")).toString().size()}});
}

QJsonObject chord(const QStringList& keys, const QJsonObject& arguments, HostLink& host)
{
    const QJsonObject response =
        host.call(QStringLiteral("desktop.hotkey"),
                  withRoute(QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(keys)}}, arguments), true);
    return sideEffectResult(response, QStringLiteral("sent"),
                            QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(keys)}});
}

QJsonObject pressTool(const QJsonObject& arguments, HostLink& host)
{
    const QString key = arguments.value(QStringLiteral("key")).toString();
    if (key.isEmpty())
        return failure(QStringLiteral("Missing required parameter: key"));
    QStringList keys;
    for (const auto& m : arguments.value(QStringLiteral("modifiers")).toArray())
        keys.append(m.toString());
    keys.append(key);
    return chord(keys, arguments, host);
}

QJsonObject hotkeyTool(const QJsonObject& arguments, HostLink& host)
{
    QStringList keys;
    for (const auto& k : arguments.value(QStringLiteral("keys")).toArray())
        keys.append(k.toString());
    if (keys.isEmpty())
        return failure(QStringLiteral("Missing required parameter: keys (array of strings)"));
    return chord(keys, arguments, host);
}

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
    } else if (condition.isEmpty()) {
        return failure(QStringLiteral("Missing required parameter: condition"));
    } else {
        return failure(
            QStringLiteral("the wait condition \"%1\" is not available in msgcode Desktop Host yet").arg(condition),
            QStringLiteral("Use elementExists, elementGone or titleContains."));
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

QJsonObject statusTool(const QJsonObject&, HostLink& host)
{
    const QJsonObject response = host.call(QStringLiteral("desktop.health"), {}, false, 5000);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    return success(result);
}

} // namespace

HostLink::HostLink(QString socketPath, QString workspace)
    : m_socketPath(std::move(socketPath)), m_workspace(std::move(workspace))
{
}

QJsonObject HostLink::request(const QString& method, const QJsonObject& params, int timeoutMs)
{
    if (!m_client.isConnected() && !m_client.connectToServer(m_socketPath, 3000))
        return errorObject(
            QStringLiteral("DESKTOP_HOST_NOT_RUNNING"),
            QStringLiteral("no msgcode-desktop-host is serving %1 (%2)").arg(m_socketPath, m_client.errorString()));
    Bridge::MetaFill fill;
    fill.workspacePath = m_workspace;
    fill.timeoutMs = timeoutMs;
    m_client.setMetaFill(fill);
    const auto reply = m_client.call(method, params, timeoutMs + 5000);
    if (!reply.ok())
        return errorObject(reply.error == Bridge::Client::TransportError::Timeout
                               ? QStringLiteral("DESKTOP_TIMEOUT")
                               : QStringLiteral("DESKTOP_HOST_NOT_RUNNING"),
                           QStringLiteral("the host gave no answer to %1: %2").arg(method, reply.errorString));
    return reply.response;
}

QJsonObject HostLink::call(const QString& method, const QJsonObject& params, bool sideEffect, int timeoutMs)
{
    if (!sideEffect)
        return request(method, params, timeoutMs);
    // The host's confirmation policy decides: a token for exactly these params, or a refusal.
    const QJsonObject issued =
        request(QStringLiteral("desktop.confirm.issue"),
                QJsonObject{{QStringLiteral("intent"),
                             QJsonObject{{QStringLiteral("method"), method}, {QStringLiteral("params"), params}}}},
                120000);
    if (issued.contains(QStringLiteral("error")))
        return issued;
    const QString token = issued.value(QStringLiteral("result")).toObject().value(QStringLiteral("token")).toString();
    QJsonObject confirmed = params;
    confirmed.insert(QStringLiteral("confirm"), QJsonObject{{QStringLiteral("token"), token}});
    return request(method, confirmed, timeoutMs);
}

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
    using Call = std::function<QJsonObject(const QJsonObject&, HostLink&)>;
    const auto unavailable = [](const QString& name, const QString& instead) -> Call {
        return [name, instead](const QJsonObject&, HostLink&) { return notYet(name, instead); };
    };
    const QJsonObject app =
        property(QStringLiteral("string"), QStringLiteral("App name or executable (default: the frontmost app)"));
    const QJsonObject query =
        property(QStringLiteral("string"), QStringLiteral("Visible title (or part of it) of the element"));
    const QJsonObject role =
        property(QStringLiteral("string"), QStringLiteral("Accessibility role, e.g. AXButton, AXTextField"));
    const QJsonObject domId =
        property(QStringLiteral("string"), QStringLiteral("Accessibility identifier (DOM id in web pages)"));
    const QJsonObject number = property(QStringLiteral("number"), QStringLiteral("Screen coordinate"));
    static const QList<Tool> table{
        {QStringLiteral("ghost_context"),
         QStringLiteral("Where you are: the app, its window, the focused element and up to 30 elements you can act on. "
                        "Call it first."),
         schema({{QStringLiteral("app"), app}}), contextTool},
        {QStringLiteral("ghost_state"), QStringLiteral("Running apps and their windows (not available yet)."),
         schema({{QStringLiteral("app"), app}}),
         unavailable(QStringLiteral("ghost_state"), QStringLiteral("Use ghost_context."))},
        {QStringLiteral("ghost_find"),
         QStringLiteral(
             "Find elements by visible title (query), role or identifier; answers their positions and sizes."),
         schema({{QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("dom_class"),
                  property(QStringLiteral("string"), QStringLiteral("Not used by this host"))},
                 {QStringLiteral("identifier"), domId},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("depth"),
                  property(QStringLiteral("integer"), QStringLiteral("Ignored: the host searches the whole window"))}}),
         findTool},
        {QStringLiteral("ghost_read"),
         QStringLiteral("Read the text of the window, or of the elements whose title contains query (never a "
                        "password field's)."),
         schema({{QStringLiteral("app"), app},
                 {QStringLiteral("query"), query},
                 {QStringLiteral("depth"), property(QStringLiteral("integer"), QStringLiteral("Ignored"))}}),
         readTool},
        {QStringLiteral("ghost_inspect"), QStringLiteral("Every attribute of one element (not available yet)."),
         schema({{QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app}},
                {QStringLiteral("query")}),
         unavailable(QStringLiteral("ghost_inspect"), QStringLiteral("Use ghost_find."))},
        {QStringLiteral("ghost_element_at"), QStringLiteral("The element at a screen point (not available yet)."),
         schema({{QStringLiteral("x"), number}, {QStringLiteral("y"), number}},
                {QStringLiteral("x"), QStringLiteral("y")}),
         unavailable(QStringLiteral("ghost_element_at"), QStringLiteral("Use ghost_find."))},
        {QStringLiteral("ghost_screenshot"),
         QStringLiteral("A PNG screenshot of the app's window (or the whole screen)."),
         schema({{QStringLiteral("app"), app},
                 {QStringLiteral("full_resolution"),
                  property(QStringLiteral("boolean"), QStringLiteral("Always full resolution here"))}}),
         screenshotTool},
        {QStringLiteral("ghost_click"),
         QStringLiteral("Click an element named by its visible title (query) and role. The person at the desktop may "
                        "be asked to allow it."),
         schema({{QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number},
                 {QStringLiteral("button"), property(QStringLiteral("string"), QStringLiteral("left (only)"))},
                 {QStringLiteral("count"), property(QStringLiteral("integer"), QStringLiteral("1 (only)"))}}),
         clickTool},
        {QStringLiteral("ghost_type"),
         QStringLiteral("Type text into the field whose title contains `into`, or into the focused element; "
                        "clear empties it first."),
         schema(
             {{QStringLiteral("text"), property(QStringLiteral("string"), QStringLiteral("The text"))},
              {QStringLiteral("into"), query},
              {QStringLiteral("dom_id"), domId},
              {QStringLiteral("app"), app},
              {QStringLiteral("clear"), property(QStringLiteral("boolean"), QStringLiteral("Empty the field first"))}},
             {QStringLiteral("text")}),
         typeTool},
        {QStringLiteral("ghost_press"), QStringLiteral("Press one key, with modifiers (cmd, shift, option, control)."),
         schema({{QStringLiteral("key"),
                  property(QStringLiteral("string"), QStringLiteral("return, tab, escape, space, delete, "
                                                                    "up, down, left, right, f1..."))},
                 {QStringLiteral("modifiers"),
                  arrayOf(QStringLiteral("string"), QStringLiteral("cmd, shift, option, control"))},
                 {QStringLiteral("app"), app}},
                {QStringLiteral("key")}),
         pressTool},
        {QStringLiteral("ghost_hotkey"), QStringLiteral("Press a key combination, e.g. [\"cmd\", \"s\"]."),
         schema({{QStringLiteral("keys"), arrayOf(QStringLiteral("string"), QStringLiteral("Modifiers then the key"))},
                 {QStringLiteral("app"), app}},
                {QStringLiteral("keys")}),
         hotkeyTool},
        {QStringLiteral("ghost_scroll"), QStringLiteral("Scroll (not available yet through this door)."),
         schema({{QStringLiteral("direction"),
                  property(QStringLiteral("string"), QStringLiteral("up, down, left, right"))},
                 {QStringLiteral("amount"), property(QStringLiteral("integer"), QStringLiteral("Lines"))},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number}},
                {QStringLiteral("direction")}),
         unavailable(QStringLiteral("ghost_scroll"), QStringLiteral("Use ghost_press with pagedown or pageup."))},
        {QStringLiteral("ghost_hover"), QStringLiteral("Move the pointer over an element (not available yet)."),
         schema({{QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number}}),
         unavailable(QStringLiteral("ghost_hover"), {})},
        {QStringLiteral("ghost_long_press"), QStringLiteral("Press and hold (not available yet)."),
         schema({{QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("button"), property(QStringLiteral("string"), {})},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number},
                 {QStringLiteral("duration"), property(QStringLiteral("number"), QStringLiteral("Seconds"))}}),
         unavailable(QStringLiteral("ghost_long_press"), {})},
        {QStringLiteral("ghost_drag"), QStringLiteral("Drag with the left button (not available yet)."),
         schema({{QStringLiteral("from_x"), number},
                 {QStringLiteral("from_y"), number},
                 {QStringLiteral("to_x"), number},
                 {QStringLiteral("to_y"), number},
                 {QStringLiteral("duration"), property(QStringLiteral("number"), {})},
                 {QStringLiteral("hold_duration"), property(QStringLiteral("number"), {})},
                 {QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app}},
                {QStringLiteral("to_x"), QStringLiteral("to_y")}),
         unavailable(QStringLiteral("ghost_drag"), {})},
        {QStringLiteral("ghost_focus"), QStringLiteral("Bring an app's window to the front (not available yet)."),
         schema({{QStringLiteral("app"), app}, {QStringLiteral("window"), property(QStringLiteral("string"), {})}},
                {QStringLiteral("app")}),
         unavailable(QStringLiteral("ghost_focus"), QStringLiteral("Actions focus their window themselves."))},
        {QStringLiteral("ghost_window"), QStringLiteral("Window management (not available yet)."),
         schema({{QStringLiteral("action"), property(QStringLiteral("string"), {})},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("window"), property(QStringLiteral("string"), {})},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number},
                 {QStringLiteral("width"), number},
                 {QStringLiteral("height"), number}},
                {QStringLiteral("action"), QStringLiteral("app")}),
         unavailable(QStringLiteral("ghost_window"), {})},
        {QStringLiteral("ghost_wait"),
         QStringLiteral("Wait until an element exists (elementExists), is gone (elementGone), or a window title "
                        "contains value (titleContains)."),
         schema(
             {{QStringLiteral("condition"),
               property(QStringLiteral("string"), QStringLiteral("elementExists, elementGone, titleContains"))},
              {QStringLiteral("value"), property(QStringLiteral("string"), QStringLiteral("Title text to wait for"))},
              {QStringLiteral("app"), app},
              {QStringLiteral("timeout"), property(QStringLiteral("number"), QStringLiteral("Seconds, default 10"))},
              {QStringLiteral("interval"), property(QStringLiteral("number"), QStringLiteral("Seconds, default 0.5"))}},
             {QStringLiteral("condition")}),
         waitTool},
        {QStringLiteral("ghost_recipes"), QStringLiteral("Recipes (not available yet)."), schema({}),
         unavailable(QStringLiteral("ghost_recipes"), {})},
        {QStringLiteral("ghost_run"), QStringLiteral("Run a recipe (not available yet)."),
         schema({{QStringLiteral("recipe"), property(QStringLiteral("string"), {})},
                 {QStringLiteral("params"), QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}}},
                {QStringLiteral("recipe")}),
         unavailable(QStringLiteral("ghost_run"), {})},
        {QStringLiteral("ghost_recipe_show"), QStringLiteral("Show a recipe (not available yet)."),
         schema({{QStringLiteral("name"), property(QStringLiteral("string"), {})}}, {QStringLiteral("name")}),
         unavailable(QStringLiteral("ghost_recipe_show"), {})},
        {QStringLiteral("ghost_recipe_save"), QStringLiteral("Save a recipe (not available yet)."),
         schema({{QStringLiteral("recipe_json"), property(QStringLiteral("string"), {})}},
                {QStringLiteral("recipe_json")}),
         unavailable(QStringLiteral("ghost_recipe_save"), {})},
        {QStringLiteral("ghost_recipe_delete"), QStringLiteral("Delete a recipe (not available yet)."),
         schema({{QStringLiteral("name"), property(QStringLiteral("string"), {})}}, {QStringLiteral("name")}),
         unavailable(QStringLiteral("ghost_recipe_delete"), {})},
        {QStringLiteral("ghost_parse_screen"), QStringLiteral("Vision element detection (no vision provider)."),
         schema({{QStringLiteral("app"), app},
                 {QStringLiteral("full_resolution"), property(QStringLiteral("boolean"), {})}}),
         [](const QJsonObject&, HostLink&) {
             return failure(
                 QStringLiteral("no vision provider is configured in msgcode Desktop Host"),
                 QStringLiteral("Use ghost_find and ghost_context: the accessibility tree names the elements."));
         }},
        {QStringLiteral("ghost_ground"), QStringLiteral("Vision grounding (no vision provider)."),
         schema({{QStringLiteral("description"), property(QStringLiteral("string"), {})},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("crop_box"), arrayOf(QStringLiteral("number"), {})}},
                {QStringLiteral("description")}),
         [](const QJsonObject&, HostLink&) {
             return failure(QStringLiteral("no vision provider is configured in msgcode Desktop Host"),
                            QStringLiteral("Use ghost_find: the accessibility tree names the elements."));
         }},
        {QStringLiteral("ghost_annotate"), QStringLiteral("Numbered-label screenshot (not available yet)."),
         schema({{QStringLiteral("app"), app},
                 {QStringLiteral("roles"), arrayOf(QStringLiteral("string"), {})},
                 {QStringLiteral("max_labels"), property(QStringLiteral("integer"), {})}}),
         unavailable(QStringLiteral("ghost_annotate"), QStringLiteral("Use ghost_screenshot and ghost_context."))},
        {QStringLiteral("desktop_status"),
         QStringLiteral("The host: its permissions, and whether it is idle, busy (with what) or stopped."), schema({}),
         statusTool},
    };
    return table;
}

QJsonArray toolDefinitions()
{
    QJsonArray out;
    for (const Tool& tool : tools())
        out.append(QJsonObject{{QStringLiteral("name"), tool.name},
                               {QStringLiteral("description"), tool.description},
                               {QStringLiteral("inputSchema"), tool.inputSchema}});
    return out;
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
