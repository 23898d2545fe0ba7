// ghost_context, ghost_find, ghost_read, ghost_inspect, ghost_element_at, ghost_screenshot:
// what is on the desktop, read without acting on it.
#include "mcp/GhostTools.h"

#include "mcp/GhostToolSupport.h"
#include "mcp/McpTools.h"

#include <QJsonArray>
#include <QJsonObject>

namespace Mcp::Ghost {

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
    // ghost-os's width: an image a model reads whole and an MCP client accepts (1 MB); every
    // pixel only when asked. The caption says how the image's points map to the screen's.
    QJsonObject params{{QStringLiteral("inline"), true}};
    if (!arguments.value(QStringLiteral("full_resolution")).toBool())
        params.insert(QStringLiteral("maxWidth"), kModelImageWidth);
    const QJsonObject response = host.call(QStringLiteral("desktop.capture"), withRoute(params, arguments), false);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    const QJsonObject frame = result.value(QStringLiteral("frame")).toObject();
    const QJsonObject image = result.value(QStringLiteral("image")).toObject();
    const double scale = image.value(QStringLiteral("scale")).toDouble(1.0);
    QString caption = QStringLiteral("Screenshot: %1x%2, scale %3 (screen x = %4 + image x / %3, screen y = %5 + "
                                     "image y / %3)")
                          .arg(image.value(QStringLiteral("width")).toInt())
                          .arg(image.value(QStringLiteral("height")).toInt())
                          .arg(scale, 0, 'g', 6)
                          .arg(frame.value(QStringLiteral("x")).toInt())
                          .arg(frame.value(QStringLiteral("y")).toInt());
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
        {QStringLiteral("structuredContent"),
         QJsonObject{{QStringLiteral("scale"), scale},
                     {QStringLiteral("width"), image.value(QStringLiteral("width"))},
                     {QStringLiteral("height"), image.value(QStringLiteral("height"))},
                     {QStringLiteral("frame"), frame}}},
        {QStringLiteral("isError"), false}};
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

} // namespace Mcp::Ghost
