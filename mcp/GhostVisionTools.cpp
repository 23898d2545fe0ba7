// ghost_parse_screen and ghost_ground: what is on screen and where, from the accessibility tree
// and from the pixels (the host's desktop.ocr), merged; a description grounded to a point.
#include "mcp/GhostTools.h"

#include "client-kit/Outcome.h"
#include "mcp/GhostToolSupport.h"
#include "mcp/McpAnnotate.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRect>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace Mcp::Ghost {

namespace {

QRect rectOf(const QJsonObject& frame)
{
    return QRect(frame.value(QStringLiteral("x")).toInt(), frame.value(QStringLiteral("y")).toInt(),
                 frame.value(QStringLiteral("width")).toInt(), frame.value(QStringLiteral("height")).toInt());
}

// How much of `a` lies inside `b` (0..1).
double coveredBy(const QRect& a, const QRect& b)
{
    const QRect both = a & b;
    const double area = double(a.width()) * a.height();
    return area <= 0 || both.isEmpty() ? 0.0 : double(both.width()) * both.height() / area;
}

QString folded(const QString& text)
{
    return text.simplified().toCaseFolded();
}

// How well `text` answers `description` (0..1): equal, one inside the other, or the share of
// the description's words it has.
double similarity(const QString& description, const QString& text)
{
    const QString d = folded(description);
    const QString t = folded(text);
    if (d.isEmpty() || t.isEmpty())
        return 0;
    if (d == t)
        return 1.0;
    if (t.contains(d))
        return 0.9 * double(d.size()) / double(t.size()) + 0.1;
    if (d.contains(t))
        return 0.8 * double(t.size()) / double(d.size());
    static const QRegularExpression split(QStringLiteral("[^\\w]+"));
    const QStringList want = d.split(split, Qt::SkipEmptyParts);
    const QStringList have = t.split(split, Qt::SkipEmptyParts);
    if (want.isEmpty())
        return 0;
    int found = 0;
    for (const QString& w : want)
        found += have.contains(w) ? 1 : 0;
    return 0.7 * double(found) / double(want.size());
}

struct Seen
{
    QString ref;
    QString role;
    QString label;
    QRect rect;
    QString source; // "ax" or "ocr"
    double confidence = 0;
};

// The accessibility elements with a label and a frame, and the OCR lines, of the app's window
// (or the screen); OCR lines that say what an element inside which they lie already says are
// left out. A tool result instead when the host refused both.
std::variant<QList<Seen>, QJsonObject> look(const QJsonObject& arguments, HostLink& host, const QJsonObject& crop)
{
    QList<Seen> seen;
    const QJsonObject route = routeFor(arguments);
    QJsonObject treeResponse;
    if (!route.isEmpty()) {
        treeResponse = host.call(
            QStringLiteral("desktop.dumpTree"),
            withRoute(QJsonObject{{QStringLiteral("maxDepth"), 40}, {QStringLiteral("maxNodes"), 4000}}, arguments),
            false);
        walk(treeRoot(treeResponse), [&](const QJsonObject& node) {
            const QString label = node.value(QStringLiteral("title")).toString().simplified();
            const QRect rect = rectOf(node.value(QStringLiteral("frame")).toObject());
            if (label.isEmpty() || rect.isEmpty())
                return;
            if (!node.value(QStringLiteral("states")).toArray().contains(QStringLiteral("showing")))
                return;
            if (!crop.isEmpty() && !rectOf(crop).contains(rect.center()))
                return;
            seen.append(Seen{node.value(QStringLiteral("elementId")).toString(),
                             node.value(QStringLiteral("role")).toString(), label, rect, QStringLiteral("ax"), 1.0});
        });
    }
    QJsonObject params =
        crop.isEmpty() ? withRoute(QJsonObject{}, arguments) : QJsonObject{{QStringLiteral("rect"), crop}};
    const QJsonObject ocr = host.call(QStringLiteral("desktop.ocr"), params, false);
    if (ocr.contains(QStringLiteral("error"))) {
        if (seen.isEmpty())
            return hostFailure(ocr);
        return seen;
    }
    const QJsonObject result = ocr.value(QStringLiteral("result")).toObject();
    const QString captureId =
        result.value(QStringLiteral("capture")).toObject().value(QStringLiteral("captureId")).toString();
    const int axCount = static_cast<int>(seen.size());
    int index = 0;
    for (const auto& value : result.value(QStringLiteral("lines")).toArray()) {
        const QJsonObject line = value.toObject();
        const QString text = line.value(QStringLiteral("text")).toString().simplified();
        const QRect rect = rectOf(line.value(QStringLiteral("frame")).toObject());
        const int number = index++;
        if (text.isEmpty() || rect.isEmpty())
            continue;
        bool duplicate = false;
        for (int i = 0; i < axCount && !duplicate; ++i) {
            duplicate = coveredBy(rect, seen[i].rect.adjusted(-4, -4, 4, 4)) >= 0.5 &&
                        (folded(seen[i].label).contains(folded(text)) || folded(text).contains(folded(seen[i].label)));
        }
        if (duplicate)
            continue;
        seen.append(Seen{QStringLiteral("ocr:%1:%2").arg(captureId).arg(number), QStringLiteral("AXStaticText"), text,
                         rect, QStringLiteral("ocr"), line.value(QStringLiteral("confidence")).toDouble()});
    }
    return seen;
}

QJsonObject cropArg(const QJsonObject& arguments)
{
    const QJsonArray box = arguments.value(QStringLiteral("crop_box")).toArray();
    if (box.size() != 4)
        return {};
    const int x1 = qRound(box[0].toDouble());
    const int y1 = qRound(box[1].toDouble());
    const int x2 = qRound(box[2].toDouble());
    const int y2 = qRound(box[3].toDouble());
    if (x2 <= x1 || y2 <= y1)
        return {};
    return QJsonObject{{QStringLiteral("x"), x1},
                       {QStringLiteral("y"), y1},
                       {QStringLiteral("width"), x2 - x1},
                       {QStringLiteral("height"), y2 - y1}};
}

} // namespace

QJsonObject parseScreenTool(const QJsonObject& arguments, HostLink& host)
{
    const bool marks = arguments.value(QStringLiteral("marks")).toBool();
    // The image the marks go on is taken first, so that the elements read after it are (at
    // most) newer, never older, than what it shows.
    QJsonObject captured;
    if (marks) {
        const QJsonObject shot = host.call(QStringLiteral("desktop.capture"),
                                           withRoute(QJsonObject{{QStringLiteral("inline"), true}}, arguments), false);
        if (shot.contains(QStringLiteral("error")))
            return hostFailure(shot);
        captured = shot.value(QStringLiteral("result")).toObject();
    }
    auto looked = look(arguments, host, {});
    if (auto* failed = std::get_if<QJsonObject>(&looked))
        return *failed;
    QJsonArray elements;
    QList<AnnotationLabel> labels;
    int fromOcr = 0;
    for (const Seen& s : std::get<QList<Seen>>(looked)) {
        fromOcr += s.source == QLatin1String("ocr") ? 1 : 0;
        const int mark = static_cast<int>(elements.size()) + 1;
        labels.append({mark, s.rect});
        elements.append(QJsonObject{{QStringLiteral("mark"), mark},
                                    {QStringLiteral("ref"), s.ref},
                                    {QStringLiteral("role"), s.role},
                                    {QStringLiteral("label"), s.label},
                                    {QStringLiteral("position"),
                                     QJsonObject{{QStringLiteral("x"), s.rect.x()}, {QStringLiteral("y"), s.rect.y()}}},
                                    {QStringLiteral("size"), QJsonObject{{QStringLiteral("width"), s.rect.width()},
                                                                         {QStringLiteral("height"), s.rect.height()}}},
                                    {QStringLiteral("source"), s.source},
                                    {QStringLiteral("confidence"), std::round(s.confidence * 1000) / 1000}});
    }
    const QJsonObject data{{QStringLiteral("elements"), elements},
                           {QStringLiteral("count"), elements.size()},
                           {QStringLiteral("from_ocr"), fromOcr}};
    if (!marks)
        return success(data);
    // Set-of-marks: each element's box and number (its `mark`) drawn on the capture, sized for a
    // model; positions stay screen points.
    const QRect area = rectOf(captured.value(QStringLiteral("frame")).toObject());
    const QByteArray drawn =
        annotatePng(QByteArray::fromBase64(captured.value(QStringLiteral("pngBase64")).toString().toLatin1()),
                    area.topLeft(), labels);
    if (drawn.isEmpty())
        return failure(QStringLiteral("the screenshot could not be marked (not a PNG)"));
    double scale = 1.0;
    const QByteArray sized = sizedForModel(drawn, arguments.value(QStringLiteral("full_resolution")).toBool(), &scale);
    QJsonObject result = success(data);
    QJsonArray content = result.value(QStringLiteral("content")).toArray();
    content.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                               {QStringLiteral("data"), QString::fromLatin1(sized.toBase64())},
                               {QStringLiteral("mimeType"), QStringLiteral("image/png")}});
    content.append(QJsonObject{
        {QStringLiteral("type"), QStringLiteral("text")},
        {QStringLiteral("text"),
         QStringLiteral("Marked screenshot: %1 elements numbered as their \"mark\"; scale %2 (screen x = %3 + image x "
                        "/ %2, screen y = %4 + image y / %2)")
             .arg(labels.size())
             .arg(scale, 0, 'g', 6)
             .arg(area.x())
             .arg(area.y())}});
    result.insert(QStringLiteral("content"), content);
    return result;
}

QJsonObject groundTool(const QJsonObject& arguments, HostLink& host)
{
    const QString description = arguments.value(QStringLiteral("description")).toString().trimmed();
    if (description.isEmpty())
        return failure(QStringLiteral("Missing required parameter: description"));
    auto looked = look(arguments, host, cropArg(arguments));
    if (auto* failed = std::get_if<QJsonObject>(&looked))
        return *failed;
    const QList<Seen>& seen = std::get<QList<Seen>>(looked);
    const Seen* best = nullptr;
    double bestScore = 0;
    for (const Seen& s : seen) {
        const double score = similarity(description, s.label) * (s.source == QLatin1String("ocr") ? s.confidence : 1.0);
        if (score > bestScore) {
            bestScore = score;
            best = &s;
        }
    }
    // Below this nothing on screen says what was described: the owner's own vision model is
    // asked, where they configured one; else no guess is made.
    constexpr double kAtLeast = 0.35;
    if (!best || bestScore < kAtLeast) {
        const QJsonObject crop = cropArg(arguments);
        QJsonObject params{{QStringLiteral("description"), description}};
        if (!crop.isEmpty())
            params.insert(QStringLiteral("rect"), crop);
        else
            params = withRoute(params, arguments);
        const QJsonObject asked = host.call(QStringLiteral("desktop.ground"), params, false);
        const QString reason = DoorKit::Outcome::fromAnswer(asked).details().value(QStringLiteral("reason")).toString();
        if (!asked.contains(QStringLiteral("error"))) {
            const QJsonObject r = asked.value(QStringLiteral("result")).toObject();
            return success(
                QJsonObject{{QStringLiteral("x"), r.value(QStringLiteral("x"))},
                            {QStringLiteral("y"), r.value(QStringLiteral("y"))},
                            {QStringLiteral("confidence"), r.value(QStringLiteral("confidence"))},
                            {QStringLiteral("method"), QStringLiteral("endpoint")},
                            {QStringLiteral("description"), description},
                            {QStringLiteral("model"),
                             r.value(QStringLiteral("provider")).toObject().value(QStringLiteral("answeredBy"))},
                            {QStringLiteral("elements_looked_at"), static_cast<int>(seen.size())}});
        }
        if (reason != QLatin1String("no_vision_provider"))
            return hostFailure(asked);
        return failure(QStringLiteral("no text or element on screen matches \"%1\" and no vision provider is "
                                      "configured in msgcode Desktop Host (%2 elements looked at)")
                           .arg(description)
                           .arg(seen.size()),
                       QStringLiteral("Use ghost_parse_screen to see what is there, or describe the element by the "
                                      "text it shows."));
    }
    const QPoint centre = best->rect.center();
    return success(QJsonObject{{QStringLiteral("x"), centre.x()},
                               {QStringLiteral("y"), centre.y()},
                               {QStringLiteral("confidence"), std::round(bestScore * 1000) / 1000},
                               {QStringLiteral("method"), best->source},
                               {QStringLiteral("description"), description},
                               {QStringLiteral("label"), best->label},
                               {QStringLiteral("ref"), best->ref},
                               {QStringLiteral("role"), best->role},
                               {QStringLiteral("position"), QJsonObject{{QStringLiteral("x"), best->rect.x()},
                                                                        {QStringLiteral("y"), best->rect.y()}}},
                               {QStringLiteral("size"), QJsonObject{{QStringLiteral("width"), best->rect.width()},
                                                                    {QStringLiteral("height"), best->rect.height()}}}});
}

} // namespace Mcp::Ghost
