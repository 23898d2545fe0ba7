#include "mcp/McpTools.h"

#include "bridge/protocol/Meta.h"
#include "mcp/McpAnnotate.h"
#include "mcp/McpRecipes.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>
#include <optional>
#include <variant>

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

// A selector as a sentence: "titled 'Send' (role AXButton)".
QString describeSelector(const QJsonObject& selector)
{
    QStringList parts;
    for (const char* key : {"titleContains", "titleEquals"}) {
        if (selector.contains(QLatin1String(key)))
            parts.append(QStringLiteral("titled '%1'").arg(selector.value(QLatin1String(key)).toString()));
    }
    if (selector.contains(QStringLiteral("byRole")))
        parts.append(QStringLiteral("with role %1").arg(selector.value(QStringLiteral("byRole")).toString()));
    if (selector.contains(QStringLiteral("byIdentifier")))
        parts.append(
            QStringLiteral("with identifier '%1'").arg(selector.value(QStringLiteral("byIdentifier")).toString()));
    return parts.join(QLatin1Char(' '));
}

// What a model can act on when the host refused or failed: the code, the message, the facts of
// the details (what was not found, which dialog blocks, what the host is busy with) and what to
// do, all in the `error` string (msgcode passes on that string alone), the suggestion and
// details beside it.
QJsonObject hostFailure(const QJsonObject& response)
{
    const QJsonObject error = response.value(QStringLiteral("error")).toObject();
    const QString code = error.value(QStringLiteral("code")).toString();
    const QJsonObject details = error.value(QStringLiteral("details")).toObject();
    const QString reason = details.value(QStringLiteral("reason")).toString();
    QString text = code + QStringLiteral(": ") + error.value(QStringLiteral("message")).toString();
    QString suggestion;
    if (code == QLatin1String("DESKTOP_ELEMENT_NOT_FOUND")) {
        if (const QString what = describeSelector(details.value(QStringLiteral("selector")).toObject());
            !what.isEmpty())
            text += details.contains(QStringLiteral("nodeCount"))
                        ? QStringLiteral(" (looked for an element %1 among %2 elements)")
                              .arg(what)
                              .arg(details.value(QStringLiteral("nodeCount")).toInt())
                        : QStringLiteral(" (looked for an element %1 in the window \"%2\")")
                              .arg(what, details.value(QStringLiteral("window")).toString());
        if (reason == QLatin1String("occluded"))
            suggestion = QStringLiteral("Move or close the covering window first (ghost_window), then try again.");
        else if (reason == QLatin1String("app_not_found"))
            suggestion = QStringLiteral("Call ghost_state for the apps there are, and name one of them as app.");
        else
            suggestion = QStringLiteral("Call ghost_find or ghost_context to see what the window holds, then name an "
                                        "element it lists.");
    } else if (code == QLatin1String("DESKTOP_MODAL_BLOCKING")) {
        suggestion = QStringLiteral("Deal with the dialog \"%1\" first: find its buttons with ghost_find and click "
                                    "one.")
                         .arg(details.value(QStringLiteral("dialog")).toString());
    } else if (code == QLatin1String("DESKTOP_HOST_NOT_READY") && reason == QLatin1String("queue_full")) {
        suggestion = QStringLiteral("Other tasks are using the desktop; call desktop_status, wait, then try again.");
    } else if (code == QLatin1String("DESKTOP_CONFIRM_REQUIRED")) {
        suggestion = QStringLiteral("The person at the desktop did not allow this action (or has stopped all "
                                    "actions); ask them, do not retry on your own.");
    } else if (code == QLatin1String("DESKTOP_HOST_NOT_RUNNING")) {
        suggestion = QStringLiteral("Start msgcode-desktop-host (the tray app, or --headless).");
    } else if (code == QLatin1String("DESKTOP_PERMISSION_MISSING")) {
        suggestion = QStringLiteral("Grant the permission to msgcode-desktop-host (its tray menu leads the way).");
    }
    if (!suggestion.isEmpty())
        text += QStringLiteral(". ") + suggestion;
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

// A route naming the app and, when given, a window whose title contains `window`.
QJsonObject routeWithWindow(const QJsonObject& arguments, const QString& windowKey = QStringLiteral("window"))
{
    QJsonObject route = routeFor(arguments);
    if (const QString window = arguments.value(windowKey).toString(); !window.isEmpty())
        route.insert(QStringLiteral("window"),
                     QJsonObject{{QStringLiteral("titlePattern"),
                                  QString(QStringLiteral("(?i)") + QRegularExpression::escape(window))}});
    return route;
}

// A number argument (ghost-os takes integers or doubles alike); nullopt when absent.
std::optional<double> numberArg(const QJsonObject& arguments, const QString& key)
{
    const QJsonValue value = arguments.value(key);
    if (!value.isDouble())
        return std::nullopt;
    return value.toDouble();
}

std::optional<QJsonObject> pointArg(const QJsonObject& arguments, const QString& xKey, const QString& yKey)
{
    const auto x = numberArg(arguments, xKey);
    const auto y = numberArg(arguments, yKey);
    if (!x || !y)
        return std::nullopt;
    return QJsonObject{{QStringLiteral("x"), qRound(*x)}, {QStringLiteral("y"), qRound(*y)}};
}

// ghost-os's position {x, y} and size {width, height} of a host frame, added to `out`.
QJsonObject withGeometry(QJsonObject out, const QJsonObject& frame)
{
    out.insert(QStringLiteral("position"), QJsonObject{{QStringLiteral("x"), frame.value(QStringLiteral("x"))},
                                                       {QStringLiteral("y"), frame.value(QStringLiteral("y"))}});
    out.insert(QStringLiteral("size"), QJsonObject{{QStringLiteral("width"), frame.value(QStringLiteral("width"))},
                                                   {QStringLiteral("height"), frame.value(QStringLiteral("height"))}});
    return out;
}

QJsonObject elementData(const QJsonObject& ref)
{
    const QJsonObject frame = ref.value(QStringLiteral("frame")).toObject();
    return withGeometry(
        QJsonObject{
            {QStringLiteral("element_id"), ref.value(QStringLiteral("elementId"))},
            {QStringLiteral("role"), ref.value(QStringLiteral("role"))},
            {QStringLiteral("name"), ref.value(QStringLiteral("title"))},
        },
        frame);
}

QJsonObject evidenceOf(const QJsonObject& result)
{
    return QJsonObject{
        {QStringLiteral("dir"), result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir"))},
        {QStringLiteral("execution_id"), result.value(QStringLiteral("executionId"))}};
}

// Every node of a tree (desktop.dumpTree's `tree.root`), depth first.
// The root node of a desktop.dumpTree response's tree.
QJsonObject treeRoot(const QJsonObject& response)
{
    return response.value(QStringLiteral("result"))
        .toObject()
        .value(QStringLiteral("tree"))
        .toObject()
        .value(QStringLiteral("root"))
        .toObject();
}

void walk(const QJsonObject& node, const std::function<void(const QJsonObject&)>& visit)
{
    visit(node);
    for (const auto& child : node.value(QStringLiteral("children")).toArray())
        walk(child.toObject(), visit);
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
        walk(treeRoot(response), [&](const QJsonObject& node) {
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

QString buttonArg(const QJsonObject& arguments)
{
    return arguments.value(QStringLiteral("button")).toString(QStringLiteral("left"));
}

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

// The text a person reads beside a field, as `into` gives it: "Name:" and "Name" are the same label.
QString labelText(const QString& into)
{
    QString text = into.trimmed();
    while (text.endsWith(QLatin1Char(':')) || text.endsWith(QChar(0xFF1A))) // ':' and the full-width colon
        text.chop(1);
    return text.trimmed();
}

// Whether a typeText answer says no key was sent because the target was not there or takes no
// text, so that another reading of `into` may be tried.
bool targetMissed(const QJsonObject& response)
{
    const QJsonObject error = response.value(QStringLiteral("error")).toObject();
    if (error.value(QStringLiteral("code")).toString() != QLatin1String("DESKTOP_ELEMENT_NOT_FOUND"))
        return false;
    const QJsonObject details = error.value(QStringLiteral("details")).toObject();
    return details.contains(QStringLiteral("selector")) ||
           details.value(QStringLiteral("reason")).toString() == QLatin1String("not_editable");
}

// `into` names a field as a person reads it: first the field a label (static text) of exactly
// that text labels (a trailing colon ignored either side), then a field whose own name contains
// it, then a field a label containing it labels. A reading that finds nothing, or a target that takes no
// text, sent no key, so the next one is tried.
QJsonObject typeTool(const QJsonObject& arguments, HostLink& host)
{
    if (!arguments.value(QStringLiteral("text")).isString())
        return failure(QStringLiteral("Missing required parameter: text"));
    QJsonObject params{{QStringLiteral("text"), arguments.value(QStringLiteral("text"))}};
    if (arguments.value(QStringLiteral("clear")).toBool())
        params.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}});
    QList<QJsonObject> selectors;
    const QJsonObject named = selectorFor(arguments, QStringLiteral("into"));
    if (const QString label = labelText(arguments.value(QStringLiteral("into")).toString()); !label.isEmpty()) {
        QJsonObject exact = named;
        exact.remove(QStringLiteral("titleContains"));
        QJsonObject containing = exact;
        exact.insert(QStringLiteral("labelledBy"),
                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXStaticText")},
                                 {QStringLiteral("titleMatches"),
                                  QString(QStringLiteral("^\\s*") + QRegularExpression::escape(label) +
                                          QStringLiteral("\\s*[:\\x{FF1A}]?\\s*$"))}});
        containing.insert(QStringLiteral("labelledBy"),
                          QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXStaticText")},
                                      {QStringLiteral("titleContains"), label}});
        selectors = {exact, named, containing};
    } else if (!named.isEmpty()) {
        selectors = {named};
    }
    QJsonObject response;
    if (selectors.isEmpty()) {
        response = host.call(QStringLiteral("desktop.typeText"), withRoute(params, arguments), true);
    } else {
        for (const QJsonObject& selector : std::as_const(selectors)) {
            params.insert(QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), selector}});
            response = host.call(QStringLiteral("desktop.typeText"), withRoute(params, arguments), true);
            if (!targetMissed(response))
                break;
        }
    }
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

std::variant<QJsonArray, QJsonObject> listWindows(const QString& app, HostLink& host);

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

QJsonObject windowData(const QJsonObject& window)
{
    const QJsonObject frame = window.value(QStringLiteral("frame")).toObject();
    return withGeometry(QJsonObject{{QStringLiteral("title"), window.value(QStringLiteral("title"))},
                                    {QStringLiteral("app"), window.value(QStringLiteral("app"))},
                                    {QStringLiteral("pid"), window.value(QStringLiteral("pid"))},
                                    {QStringLiteral("active"), window.value(QStringLiteral("active"))},
                                    {QStringLiteral("minimized"), window.value(QStringLiteral("minimized"))},
                                    {QStringLiteral("maximized"), window.value(QStringLiteral("maximized"))}},
                        frame);
}

// desktop.windows, topmost first; of one app when `app` is given.
std::variant<QJsonArray, QJsonObject> listWindows(const QString& app, HostLink& host)
{
    QJsonObject params;
    if (!app.isEmpty())
        params.insert(QStringLiteral("app"), app);
    const QJsonObject response = host.call(QStringLiteral("desktop.windows"), params, false);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    return response.value(QStringLiteral("result")).toObject().value(QStringLiteral("windows")).toArray();
}

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

QJsonObject elementAtTool(const QJsonObject& arguments, HostLink& host)
{
    const auto point = pointArg(arguments, QStringLiteral("x"), QStringLiteral("y"));
    if (!point)
        return failure(QStringLiteral("Missing required parameters: x, y"));
    const QJsonObject response =
        host.call(QStringLiteral("desktop.elementAt"), QJsonObject{{QStringLiteral("point"), *point}}, false);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    QJsonObject data = elementData(result.value(QStringLiteral("element")).toObject());
    data.insert(QStringLiteral("ancestors"), result.value(QStringLiteral("ancestors")));
    data.insert(QStringLiteral("app"),
                result.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("appName")));
    data.insert(QStringLiteral("window"),
                result.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowTitle")));
    data.insert(QStringLiteral("evidence"), evidenceOf(result));
    return success(data);
}

QJsonObject inspectTool(const QJsonObject& arguments, HostLink& host)
{
    const QJsonObject selector = selectorFor(arguments);
    if (arguments.value(QStringLiteral("query")).toString().isEmpty())
        return failure(QStringLiteral("Missing required parameter: query"));
    QJsonObject limited = selector;
    limited.insert(QStringLiteral("limit"), 1);
    const QJsonObject response =
        host.call(QStringLiteral("desktop.find"),
                  withRoute(QJsonObject{{QStringLiteral("selector"), limited},
                                        {QStringLiteral("include"),
                                         QJsonArray{QStringLiteral("text"), QStringLiteral("states")}}},
                            arguments),
                  false);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    const QJsonArray refs = result.value(QStringLiteral("elementRefs")).toArray();
    if (refs.isEmpty())
        return failure(
            QStringLiteral("No element matches '%1'").arg(arguments.value(QStringLiteral("query")).toString()),
            QStringLiteral("Call ghost_find to see what the window holds."));
    const QJsonObject ref = refs.first().toObject();
    QJsonObject data = elementData(ref);
    for (const char* key : {"text", "states", "fingerprint"}) {
        if (ref.contains(QLatin1String(key)))
            data.insert(QLatin1String(key), ref.value(QLatin1String(key)));
    }
    data.insert(QStringLiteral("element_ref"), ref);
    data.insert(QStringLiteral("total_matches"), result.value(QStringLiteral("matched")));
    data.insert(QStringLiteral("evidence"), evidenceOf(result));
    return success(data);
}

QJsonObject scrollTool(const QJsonObject& arguments, HostLink& host)
{
    const QString direction = arguments.value(QStringLiteral("direction")).toString();
    if (direction.isEmpty())
        return failure(QStringLiteral("Missing required parameter: direction"));
    if (!QStringList{QStringLiteral("up"), QStringLiteral("down"), QStringLiteral("left"), QStringLiteral("right")}
             .contains(direction))
        return failure(QStringLiteral("direction must be up, down, left or right"));
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

QJsonObject abortTool(const QJsonObject& arguments, HostLink& host)
{
    QString id = arguments.value(QStringLiteral("execution_id")).toString();
    if (id.isEmpty()) {
        // What is running now, as the host's health says.
        const QJsonObject health = host.call(QStringLiteral("desktop.health"), {}, false, 5000);
        if (health.contains(QStringLiteral("error")))
            return hostFailure(health);
        id = health.value(QStringLiteral("result"))
                 .toObject()
                 .value(QStringLiteral("bridge"))
                 .toObject()
                 .value(QStringLiteral("runningExecutionId"))
                 .toString();
        if (id.isEmpty())
            return success(QJsonObject{{QStringLiteral("aborted"), false},
                                       {QStringLiteral("reason"), QStringLiteral("nothing is running")}});
    }
    const QJsonObject response =
        host.call(QStringLiteral("desktop.abort"), QJsonObject{{QStringLiteral("executionId"), id}}, false, 5000);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    QJsonObject data = response.value(QStringLiteral("result")).toObject();
    data.insert(QStringLiteral("execution_id"), id);
    return success(data);
}

QJsonObject evidenceTool(const QJsonObject& arguments, HostLink& host)
{
    // The evidence of this workspace's executions, newest first (the door's cwd is the workspace).
    const int limit = std::clamp(static_cast<int>(numberArg(arguments, QStringLiteral("limit")).value_or(10)), 1, 100);
    const QDir root(QDir(host.workspace()).filePath(QStringLiteral("artifacts/desktop")));
    struct Entry
    {
        QString dir;
        QDateTime at;
    };
    QList<Entry> entries;
    for (const QFileInfo& day : root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name | QDir::Reversed)) {
        for (const QFileInfo& execution :
             QDir(day.filePath()).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time))
            entries.append({execution.filePath(), execution.lastModified()});
        if (entries.size() >= static_cast<qsizetype>(limit) * 4)
            break;
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.at > b.at; });
    const auto readJson = [](const QString& path) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return QJsonObject{};
        return QJsonDocument::fromJson(file.read(qint64{4} * 1024 * 1024)).object();
    };
    QJsonArray executions;
    for (const Entry& entry : std::as_const(entries)) {
        if (executions.size() >= limit)
            break;
        const QDir dir(entry.dir);
        const QJsonObject request = readJson(dir.filePath(QStringLiteral("request.json")));
        const QJsonObject response = readJson(dir.filePath(QStringLiteral("response.json")));
        const QJsonObject error = response.value(QStringLiteral("error")).toObject();
        executions.append(
            QJsonObject{{QStringLiteral("dir"), QString(entry.dir + QLatin1Char('/'))},
                        {QStringLiteral("execution_id"), dir.dirName()},
                        {QStringLiteral("method"), request.value(QStringLiteral("method"))},
                        {QStringLiteral("at"), entry.at.toUTC().toString(Qt::ISODateWithMs)},
                        {QStringLiteral("outcome"), response.isEmpty() ? QStringLiteral("unfinished")
                                                    : error.isEmpty()  ? QStringLiteral("ok")
                                                                      : error.value(QStringLiteral("code")).toString()},
                        {QStringLiteral("effect"),
                         response.value(QStringLiteral("result")).toObject().value(QStringLiteral("effect"))}});
    }
    return success(QJsonObject{{QStringLiteral("workspace"), host.workspace()},
                               {QStringLiteral("root"), root.path()},
                               {QStringLiteral("executions"), executions},
                               {QStringLiteral("count"), executions.size()}});
}

// ghost-os's default roles to label: the controls a person acts on.
const QStringList& defaultAnnotatedRoles()
{
    static const QStringList roles{
        QStringLiteral("AXButton"),      QStringLiteral("AXLink"),     QStringLiteral("AXTextField"),
        QStringLiteral("AXTextArea"),    QStringLiteral("AXCheckBox"), QStringLiteral("AXRadioButton"),
        QStringLiteral("AXPopUpButton"), QStringLiteral("AXComboBox"), QStringLiteral("AXMenuButton"),
        QStringLiteral("AXTab"),         QStringLiteral("AXSlider"),   QStringLiteral("AXMenuItem"),
        QStringLiteral("AXSearchField")};
    return roles;
}

// A frame {x, y, width, height} of the host's answers as a rect (empty when absent).
QRect rectOf(const QJsonObject& frame)
{
    return QRect(frame.value(QStringLiteral("x")).toInt(), frame.value(QStringLiteral("y")).toInt(),
                 frame.value(QStringLiteral("width")).toInt(), frame.value(QStringLiteral("height")).toInt());
}

QJsonObject annotateTool(const QJsonObject& arguments, HostLink& host)
{
    QStringList roles;
    for (const auto& role : arguments.value(QStringLiteral("roles")).toArray())
        roles.append(role.toString());
    if (roles.isEmpty())
        roles = defaultAnnotatedRoles();
    const int maxLabels =
        std::clamp(static_cast<int>(numberArg(arguments, QStringLiteral("max_labels")).value_or(50)), 1, 100);
    const QJsonObject shot = host.call(QStringLiteral("desktop.capture"),
                                       withRoute(QJsonObject{{QStringLiteral("inline"), true}}, arguments), false);
    if (shot.contains(QStringLiteral("error")))
        return hostFailure(shot);
    const QJsonObject captured = shot.value(QStringLiteral("result")).toObject();
    const QJsonObject tree = host.call(
        QStringLiteral("desktop.dumpTree"),
        withRoute(QJsonObject{{QStringLiteral("maxDepth"), 40}, {QStringLiteral("maxNodes"), 4000}}, arguments), false);
    if (tree.contains(QStringLiteral("error")))
        return hostFailure(tree);
    const QRect area = rectOf(captured.value(QStringLiteral("frame")).toObject());
    QList<AnnotationLabel> labels;
    QStringList index;
    walk(treeRoot(tree), [&](const QJsonObject& node) {
        if (labels.size() >= maxLabels || !roles.contains(node.value(QStringLiteral("role")).toString()))
            return;
        const QJsonArray states = node.value(QStringLiteral("states")).toArray();
        const QRect rect = rectOf(node.value(QStringLiteral("frame")).toObject());
        if (rect.isEmpty() || !states.contains(QStringLiteral("showing")))
            return;
        if (!area.contains(rect.center()))
            return;
        const int number = static_cast<int>(labels.size()) + 1;
        labels.append({number, rect});
        QString role = node.value(QStringLiteral("role")).toString();
        if (role.startsWith(QLatin1String("AX")))
            role = role.mid(2);
        index.append(QStringLiteral("[%1] %2 \"%3\" \u2014 click: (%4, %5)")
                         .arg(number)
                         .arg(role, node.value(QStringLiteral("title")).toString())
                         .arg(rect.center().x())
                         .arg(rect.center().y()));
    });
    const QByteArray png = QByteArray::fromBase64(captured.value(QStringLiteral("pngBase64")).toString().toLatin1());
    const QByteArray annotated = annotatePng(png, area.topLeft(), labels);
    if (annotated.isEmpty())
        return failure(QStringLiteral("the screenshot could not be annotated (not a PNG)"));
    QString caption = QStringLiteral("Annotated screenshot: %1x%2, %3 labeled elements")
                          .arg(area.width())
                          .arg(area.height())
                          .arg(labels.size());
    const QString title =
        captured.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowTitle")).toString();
    if (!title.isEmpty())
        caption += QStringLiteral(" \u2014 ") + title;
    caption += QStringLiteral("\n\nElements found: %1\n\n").arg(labels.size()) + index.join(QLatin1Char('\n')) +
               QStringLiteral("\n\nUse ghost_click with x/y coordinates to click any labeled element.");
    return QJsonObject{
        {QStringLiteral("content"),
         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                                {QStringLiteral("data"), QString::fromLatin1(annotated.toBase64())},
                                {QStringLiteral("mimeType"), QStringLiteral("image/png")}},
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), caption}}}},
        {QStringLiteral("isError"), false}};
}

QJsonObject recipesTool(const QJsonObject&, HostLink&)
{
    const RecipeStore store;
    QStringList broken;
    QJsonArray recipes;
    for (const QJsonObject& recipe : store.list(&broken)) {
        QJsonArray params;
        const QJsonObject declared = recipe.value(QStringLiteral("params")).toObject();
        for (auto it = declared.constBegin(); it != declared.constEnd(); ++it) {
            const QJsonObject param = it.value().toObject();
            params.append(QJsonObject{{QStringLiteral("name"), it.key()},
                                      {QStringLiteral("type"), param.value(QStringLiteral("type"))},
                                      {QStringLiteral("description"), param.value(QStringLiteral("description"))},
                                      {QStringLiteral("required"), param.value(QStringLiteral("required")).toBool()}});
        }
        QJsonObject entry{{QStringLiteral("name"), recipe.value(QStringLiteral("name"))},
                          {QStringLiteral("description"), recipe.value(QStringLiteral("description"))},
                          {QStringLiteral("params"), params}};
        if (recipe.contains(QStringLiteral("app")))
            entry.insert(QStringLiteral("app"), recipe.value(QStringLiteral("app")));
        recipes.append(entry);
    }
    QJsonObject data{{QStringLiteral("recipes"), recipes}, {QStringLiteral("count"), recipes.size()}};
    if (!broken.isEmpty())
        data.insert(QStringLiteral("invalid_files"), QJsonArray::fromStringList(broken));
    return success(data);
}

QJsonObject recipeShowTool(const QJsonObject& arguments, HostLink&)
{
    const QString name = arguments.value(QStringLiteral("name")).toString();
    if (name.isEmpty())
        return failure(QStringLiteral("Missing required parameter: name"));
    const auto recipe = RecipeStore().load(name);
    if (!recipe)
        return failure(QStringLiteral("Recipe '%1' not found").arg(name), QStringLiteral("Call ghost_recipes."));
    return success(*recipe);
}

QJsonObject recipeSaveTool(const QJsonObject& arguments, HostLink&)
{
    const QJsonValue text = arguments.value(QStringLiteral("recipe_json"));
    if (!text.isString())
        return failure(QStringLiteral("Missing required parameter: recipe_json"));
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text.toString().toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return failure(QStringLiteral("Failed to save recipe: Recipe JSON decode error: %1")
                           .arg(document.isObject() || error.error != QJsonParseError::NoError
                                    ? error.errorString()
                                    : QStringLiteral("not a JSON object")));
    if (auto problem = RecipeStore().save(document.object()))
        return failure(QStringLiteral("Failed to save recipe: Recipe JSON decode error: %1").arg(*problem));
    return success(QJsonObject{{QStringLiteral("saved"), document.object().value(QStringLiteral("name"))}});
}

QJsonObject recipeDeleteTool(const QJsonObject& arguments, HostLink&)
{
    const QString name = arguments.value(QStringLiteral("name")).toString();
    if (name.isEmpty())
        return failure(QStringLiteral("Missing required parameter: name"));
    if (!RecipeStore().remove(name))
        return failure(QStringLiteral("Recipe '%1' not found").arg(name), QStringLiteral("Call ghost_recipes."));
    return success(QJsonObject{{QStringLiteral("deleted"), name}});
}

QJsonObject runTool(const QJsonObject& arguments, HostLink& host)
{
    const QString name = arguments.value(QStringLiteral("recipe")).toString();
    if (name.isEmpty())
        return failure(QStringLiteral("Missing required parameter: recipe"));
    const auto recipe = RecipeStore().load(name);
    if (!recipe)
        return failure(QStringLiteral("Recipe '%1' not found").arg(name),
                       QStringLiteral("Call ghost_recipes to see the recipes there are."));
    // ghost-os takes any JSON value for a parameter and uses its text.
    QJsonObject params;
    const QJsonObject given = arguments.value(QStringLiteral("params")).toObject();
    for (auto it = given.constBegin(); it != given.constEnd(); ++it) {
        const QJsonValue value = it.value();
        params.insert(
            it.key(),
            value.isString() ? value.toString()
            : value.isBool() ? (value.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
            : value.isDouble()
                ? (value.toDouble() == static_cast<double>(value.toInteger())
                       ? QString::number(value.toInteger())
                       : QString::number(value.toDouble(), 'g', 17))
                : QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
    }
    return runRecipe(
        *recipe, params,
        [&host](const QString& tool, const QJsonObject& toolArguments) { return callTool(tool, toolArguments, host); },
        [](int ms) {
            QThread::msleep(static_cast<unsigned long>(std::max(0, ms)));
            return true;
        });
}

QJsonObject statusTool(const QJsonObject&, HostLink& host)
{
    const QJsonObject response = host.call(QStringLiteral("desktop.health"), {}, false, 5000);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject health = response.value(QStringLiteral("result")).toObject();
    const QJsonObject bridge = health.value(QStringLiteral("bridge")).toObject();
    // The answer to "can I use the desktop now?": stopped, busy (with what, how many waiting) or idle.
    const bool paused = bridge.value(QStringLiteral("paused")).toBool();
    const bool running = bridge.value(QStringLiteral("running")).toBool();
    const QJsonValue active = health.value(QStringLiteral("userInput")).toObject().value(QStringLiteral("active"));
    QJsonObject data{{QStringLiteral("state"), paused    ? QStringLiteral("stopped")
                                               : running ? QStringLiteral("busy")
                                                         : QStringLiteral("idle")},
                     {QStringLiteral("queued"), bridge.value(QStringLiteral("queued"))},
                     {QStringLiteral("confirm_policy"), bridge.value(QStringLiteral("confirmPolicy"))},
                     {QStringLiteral("permissions"), health.value(QStringLiteral("permissions"))},
                     // Presence: whether the person used the keyboard or mouse lately (null: not watched).
                     {QStringLiteral("user_active"), active.isBool() ? active : QJsonValue()},
                     {QStringLiteral("host"), health}};
    if (running)
        data.insert(QStringLiteral("running"),
                    QJsonObject{{QStringLiteral("execution_id"), bridge.value(QStringLiteral("runningExecutionId"))},
                                {QStringLiteral("method"), bridge.value(QStringLiteral("runningMethod"))}});
    if (paused)
        data.insert(QStringLiteral("note"), QStringLiteral("A person stopped all actions; only they can resume (the "
                                                           "tray's Resume)."));
    return success(data);
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
    // A person is never asked to approve an action on an element that is not there: the target's
    // selector is looked for first.
    for (const char* key : {"target", "toTarget"}) {
        const QJsonObject selector =
            params.value(QLatin1String(key)).toObject().value(QStringLiteral("selector")).toObject();
        if (selector.isEmpty())
            continue;
        QJsonObject limited = selector;
        limited.insert(QStringLiteral("limit"), 1);
        QJsonObject look{{QStringLiteral("selector"), limited}};
        if (params.contains(QStringLiteral("route")))
            look.insert(QStringLiteral("route"), params.value(QStringLiteral("route")));
        const QJsonObject found = request(QStringLiteral("desktop.find"), look, timeoutMs);
        if (found.contains(QStringLiteral("error")))
            return found;
        const QJsonObject result = found.value(QStringLiteral("result")).toObject();
        if (result.value(QStringLiteral("elementRefs")).toArray().isEmpty())
            return QJsonObject{
                {QStringLiteral("error"),
                 QJsonObject{{QStringLiteral("code"), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")},
                             {QStringLiteral("message"), QStringLiteral("no element matches the selector; nothing "
                                                                        "was asked or done")},
                             {QStringLiteral("details"),
                              QJsonObject{{QStringLiteral("selector"), selector},
                                          {QStringLiteral("reason"), QStringLiteral("not_found_before_asking")},
                                          {QStringLiteral("window"), result.value(QStringLiteral("routeResolved"))
                                                                         .toObject()
                                                                         .value(QStringLiteral("windowTitle"))},
                                          {QStringLiteral("evidence"), result.value(QStringLiteral("evidence"))}}}}}};
    }
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
        {QStringLiteral("ghost_state"),
         QStringLiteral("Every app with a window, and its windows (title, position, size, active, minimized)."),
         schema({{QStringLiteral("app"), app}}), stateTool},
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
        {QStringLiteral("ghost_inspect"),
         QStringLiteral("Everything the host reads of one element: role, name, text (never a password "
                        "field's), states, position, size and an element_ref."),
         schema({{QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app}},
                {QStringLiteral("query")}),
         inspectTool},
        {QStringLiteral("ghost_element_at"),
         QStringLiteral("The element at a screen point (the topmost window there), with its ancestors."),
         schema({{QStringLiteral("x"), number}, {QStringLiteral("y"), number}},
                {QStringLiteral("x"), QStringLiteral("y")}),
         elementAtTool},
        {QStringLiteral("ghost_screenshot"),
         QStringLiteral("A PNG screenshot of the app's window (or the whole screen)."),
         schema({{QStringLiteral("app"), app},
                 {QStringLiteral("full_resolution"),
                  property(QStringLiteral("boolean"), QStringLiteral("Always full resolution here"))}}),
         screenshotTool},
        {QStringLiteral("ghost_click"),
         QStringLiteral("Click an element named by its visible title (query) and role (its accessibility action, "
                        "the pointer when it has none), or the screen point x, y. button: left (default), right, "
                        "middle; count 1-3. The person at the desktop may be asked to allow it."),
         schema({{QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number},
                 {QStringLiteral("button"), property(QStringLiteral("string"), QStringLiteral("left, right, middle"))},
                 {QStringLiteral("count"), property(QStringLiteral("integer"), QStringLiteral("1, 2 or 3"))}}),
         clickTool},
        {QStringLiteral("ghost_type"),
         QStringLiteral("Type text into the field `into` names (the label beside it, as \"Name:\", or its "
                        "own name), or into the focused element; clear empties it first."),
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
        {QStringLiteral("ghost_scroll"),
         QStringLiteral("Scroll what is under x, y (default: the middle of the app's window) up, down, left or "
                        "right by amount lines (default 3)."),
         schema({{QStringLiteral("direction"),
                  property(QStringLiteral("string"), QStringLiteral("up, down, left, right"))},
                 {QStringLiteral("amount"), property(QStringLiteral("integer"), QStringLiteral("Lines, default 3"))},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number}},
                {QStringLiteral("direction")}),
         scrollTool},
        {QStringLiteral("ghost_hover"),
         QStringLiteral("Move the pointer over an element (query, role) or a point (x, y) without clicking."),
         schema({{QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number}}),
         hoverTool},
        {QStringLiteral("ghost_long_press"),
         QStringLiteral("Press and hold on an element or a point; duration in seconds (default 1, at most 10)."),
         schema({{QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("button"), property(QStringLiteral("string"), QStringLiteral("left or right"))},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number},
                 {QStringLiteral("duration"), property(QStringLiteral("number"), QStringLiteral("Seconds"))}}),
         longPressTool},
        {QStringLiteral("ghost_drag"),
         QStringLiteral("Drag with the left button from an element (query) or from_x, from_y to to_x, to_y; "
                        "duration 0.5 s, hold_duration 0.1 s before moving."),
         schema({{QStringLiteral("from_x"), number},
                 {QStringLiteral("from_y"), number},
                 {QStringLiteral("to_x"), number},
                 {QStringLiteral("to_y"), number},
                 {QStringLiteral("duration"), property(QStringLiteral("number"), QStringLiteral("Seconds"))},
                 {QStringLiteral("hold_duration"), property(QStringLiteral("number"), QStringLiteral("Seconds"))},
                 {QStringLiteral("query"), query},
                 {QStringLiteral("role"), role},
                 {QStringLiteral("dom_id"), domId},
                 {QStringLiteral("app"), app}},
                {QStringLiteral("to_x"), QStringLiteral("to_y")}),
         dragTool},
        {QStringLiteral("ghost_focus"),
         QStringLiteral("Bring an app's window (the one whose title contains window) to the front."),
         schema({{QStringLiteral("app"), app},
                 {QStringLiteral("window"),
                  property(QStringLiteral("string"), QStringLiteral("Part of the window's title"))}},
                {QStringLiteral("app")}),
         focusTool},
        {QStringLiteral("ghost_window"),
         QStringLiteral("Window management: list, focus, minimize, maximize, restore, close, move (x, y), resize "
                        "(width, height) of an app's window (window: part of its title)."),
         schema({{QStringLiteral("action"),
                  property(QStringLiteral("string"),
                           QStringLiteral("list, focus, minimize, maximize, restore, close, move, resize"))},
                 {QStringLiteral("app"), app},
                 {QStringLiteral("window"),
                  property(QStringLiteral("string"), QStringLiteral("Part of the window's title"))},
                 {QStringLiteral("x"), number},
                 {QStringLiteral("y"), number},
                 {QStringLiteral("width"), property(QStringLiteral("number"), QStringLiteral("Content width"))},
                 {QStringLiteral("height"), property(QStringLiteral("number"), QStringLiteral("Content height"))}},
                {QStringLiteral("action"), QStringLiteral("app")}),
         windowTool},
        {QStringLiteral("ghost_wait"),
         QStringLiteral("Wait until an element exists (elementExists), is gone (elementGone), a window title "
                        "contains value (titleContains) or the title changes (titleChanged)."),
         schema(
             {{QStringLiteral("condition"),
               property(QStringLiteral("string"),
                        QStringLiteral("elementExists, elementGone, titleContains, titleChanged"))},
              {QStringLiteral("value"), property(QStringLiteral("string"), QStringLiteral("Title text to wait for"))},
              {QStringLiteral("app"), app},
              {QStringLiteral("timeout"), property(QStringLiteral("number"), QStringLiteral("Seconds, default 10"))},
              {QStringLiteral("interval"), property(QStringLiteral("number"), QStringLiteral("Seconds, default 0.5"))}},
             {QStringLiteral("condition")}),
         waitTool},
        {QStringLiteral("ghost_recipes"),
         QStringLiteral("The saved recipes (multi-step tasks with parameters). Check them before doing a multi-step "
                        "task by hand."),
         schema({}), recipesTool},
        {QStringLiteral("ghost_run"),
         QStringLiteral("Run a recipe with its parameters; each step runs through the host with its own "
                        "evidence, and the answer says which step failed and why."),
         schema({{QStringLiteral("recipe"), property(QStringLiteral("string"), QStringLiteral("Its name"))},
                 {QStringLiteral("params"),
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                              {QStringLiteral("description"), QStringLiteral("Parameter values by name")}}}},
                {QStringLiteral("recipe")}),
         runTool},
        {QStringLiteral("ghost_recipe_show"), QStringLiteral("A recipe's full JSON: its parameters and steps."),
         schema({{QStringLiteral("name"), property(QStringLiteral("string"), QStringLiteral("The recipe's name"))}},
                {QStringLiteral("name")}),
         recipeShowTool},
        {QStringLiteral("ghost_recipe_save"),
         QStringLiteral("Save (or replace) a recipe given as JSON (schema_version 2); it is checked before it is "
                        "saved."),
         schema({{QStringLiteral("recipe_json"),
                  property(QStringLiteral("string"), QStringLiteral("The recipe as a JSON string"))}},
                {QStringLiteral("recipe_json")}),
         recipeSaveTool},
        {QStringLiteral("ghost_recipe_delete"), QStringLiteral("Delete a saved recipe."),
         schema({{QStringLiteral("name"), property(QStringLiteral("string"), QStringLiteral("The recipe's name"))}},
                {QStringLiteral("name")}),
         recipeDeleteTool},
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
        {QStringLiteral("ghost_annotate"),
         QStringLiteral("A screenshot of the app's window with numbered boxes on the elements you can act on, and "
                        "an index of them with the point to click."),
         schema({{QStringLiteral("app"), app},
                 {QStringLiteral("roles"),
                  arrayOf(QStringLiteral("string"), QStringLiteral("Roles to label, e.g. AXButton (default: "
                                                                   "controls)"))},
                 {QStringLiteral("max_labels"),
                  property(QStringLiteral("integer"), QStringLiteral("Default 50, at most 100"))}}),
         annotateTool},
        {QStringLiteral("desktop_abort"),
         QStringLiteral("Abort what the host is running now (or execution_id): the action stops where it is."),
         schema({{QStringLiteral("execution_id"),
                  property(QStringLiteral("string"), QStringLiteral("Default: the running execution"))}}),
         abortTool},
        {QStringLiteral("desktop_evidence"),
         QStringLiteral("Where the evidence of this workspace's recent calls is (request, response, screenshots, "
                        "tree, trace), newest first."),
         schema({{QStringLiteral("limit"), property(QStringLiteral("integer"), QStringLiteral("Default 10"))}}),
         evidenceTool},
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
