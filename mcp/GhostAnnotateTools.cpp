// ghost_annotate: a screenshot with numbered boxes on the elements to act on.
#include "mcp/GhostTools.h"

#include "mcp/GhostToolSupport.h"
#include "mcp/McpAnnotate.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRect>

namespace Mcp::Ghost {

namespace {

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

} // namespace

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
    // Drawn on every pixel, then sized for the model like ghost_screenshot; the index's points
    // stay screen points.
    double scale = 1.0;
    const QByteArray answered =
        sizedForModel(annotated, arguments.value(QStringLiteral("full_resolution")).toBool(), &scale);
    QString caption = QStringLiteral("Annotated screenshot: %1x%2 (scale %4), %3 labeled elements")
                          .arg(qRound(area.width() * scale))
                          .arg(qRound(area.height() * scale))
                          .arg(labels.size())
                          .arg(scale, 0, 'g', 6);
    const QString title =
        captured.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowTitle")).toString();
    if (!title.isEmpty())
        caption += QStringLiteral(" \u2014 ") + title;
    caption += QStringLiteral("\n\nElements found: %1\n\n").arg(labels.size()) + index.join(QLatin1Char('\n')) +
               QStringLiteral("\n\nUse ghost_click with x/y coordinates to click any labeled element.");
    return QJsonObject{
        {QStringLiteral("content"),
         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                                {QStringLiteral("data"), QString::fromLatin1(answered.toBase64())},
                                {QStringLiteral("mimeType"), QStringLiteral("image/png")}},
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), caption}}}},
        {QStringLiteral("isError"), false}};
}

} // namespace Mcp::Ghost
