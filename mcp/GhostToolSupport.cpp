// The helpers the ghost_* tool families share (GhostToolSupport.h).
#include "mcp/GhostToolSupport.h"

#include "client-kit/Outcome.h"
#include "mcp/McpTools.h"

#include <QBuffer>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace Mcp::Ghost {

QJsonObject failure(const QString& error, const QString& suggestion)
{
    QJsonObject out{{QStringLiteral("success"), false}, {QStringLiteral("error"), error}};
    if (!suggestion.isEmpty())
        out.insert(QStringLiteral("suggestion"), suggestion);
    return textResult(out);
}

QByteArray sizedForModel(const QByteArray& png, bool fullResolution, double* scale)
{
    *scale = 1.0;
    QImage image;
    if (fullResolution || !image.loadFromData(png, "PNG") || image.width() <= kModelImageWidth)
        return png;
    *scale = double(kModelImageWidth) / image.width();
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    image.scaledToWidth(kModelImageWidth, Qt::SmoothTransformation).save(&buffer, "PNG");
    return out;
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
    const auto outcome = DoorKit::Outcome::fromAnswer(response);
    const QString code = outcome.code();
    const QJsonObject details = outcome.details();
    const QString reason = details.value(QStringLiteral("reason")).toString();
    QString text = code + QStringLiteral(": ") + outcome.message();
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
QJsonObject selectorFor(const QJsonObject& arguments, const QString& queryKey)
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
QJsonObject routeWithWindow(const QJsonObject& arguments, const QString& windowKey)
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

QJsonObject sideEffectResult(const QJsonObject& response, const QString& doneKey, QJsonObject data)
{
    const auto outcome = DoorKit::Outcome::fromAnswer(response, doneKey);
    if (outcome.failed())
        return hostFailure(response);
    data = outcome.withFacts(std::move(data), {"effect", "deliveredBy", "path", "verification"});
    data.insert(QStringLiteral("evidence"), evidenceOf(outcome.result()));
    if (outcome.showedNoEffect())
        return textResult(QJsonObject{
            {QStringLiteral("success"), false},
            {QStringLiteral("error"), QStringLiteral("the action was delivered but the app showed no effect (%1)")
                                          .arg(outcome.verificationReason())},
            {QStringLiteral("data"), data},
            {QStringLiteral("suggestion"),
             QStringLiteral("Look at the app (ghost_context or ghost_screenshot) before "
                            "trying again: the action may have had an effect after all.")}});
    return success(data);
}

QString buttonArg(const QJsonObject& arguments)
{
    return arguments.value(QStringLiteral("button")).toString(QStringLiteral("left"));
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

} // namespace Mcp::Ghost
