// desktop.ocr: the text on screen where accessibility is blind (docs/protocol.md §5.26).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"
#include "automation/PngEncoder.h"
#include "automation/ocr/OcrEngine.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace Automation::Operations {

namespace {

// Whether a window the window manager lists is the route's own.
bool isRouteWindow(const WindowInfo& window, const ResolvedRoute& route)
{
    if (route.nativeWindow != 0 && !window.nativeId.isEmpty()) {
        bool ok = false;
        const qulonglong id = window.nativeId.toULongLong(&ok, 16);
        return ok && id == route.nativeWindow;
    }
    return window.pid == route.pid && window.title == route.windowTitle;
}

// Blanks, in `image` (which shows `area` of the screen), every part of another window stacked
// above the route's (DesktopBackend::windows lists bottom to top): only the route's own pixels
// are read. Sets how it went.
void maskCoveringWindows(JobContext& ctx, const ResolvedRoute& route, const Frame& area, QImage& image, OcrResult& out)
{
    auto listed = ctx.backend.windows(ctx.call);
    if (!listed) {
        out.occlusion = QStringLiteral("unknown");
        return;
    }
    int own = -1;
    for (int i = 0; i < listed->size(); ++i) {
        if (isRouteWindow(listed->at(i), route)) {
            own = i;
            break;
        }
    }
    if (own < 0) {
        out.occlusion = QStringLiteral("unknown");
        return;
    }
    QPainter painter(&image);
    const QRect areaRect(area.x, area.y, area.width, area.height);
    // The backend lists bottom to top: every window after the route's is above it.
    for (int i = own + 1; i < listed->size(); ++i) {
        const WindowInfo& above = listed->at(i);
        if (!above.visible || above.minimized || above.frame.isEmpty())
            continue;
        const QRect covered = QRect(above.frame.x, above.frame.y, above.frame.width, above.frame.height) & areaRect;
        if (covered.isEmpty())
            continue;
        painter.fillRect(covered.translated(-area.x, -area.y), Qt::white);
        out.covered.append(QJsonObject{
            {QStringLiteral("frame"), Frame{covered.x(), covered.y(), covered.width(), covered.height()}.toJson()},
            {QStringLiteral("title"), above.title},
            {QStringLiteral("pid"), above.pid}});
    }
    out.occlusion = out.covered.isEmpty() ? QStringLiteral("none") : QStringLiteral("masked");
}

// Blanks the secure fields accessibility knows of in the window: their pixels are never read.
void blankSecureFields(JobContext& ctx, const ResolvedRoute& route, const Frame& area, QImage& image, OcrResult& out)
{
    if (route.inaccessible) {
        out.secureCheck = QStringLiteral("no_accessibility");
        return;
    }
    Locator locator(ctx);
    SnapshotBounds bounds;
    bounds.maxDepth = 32;
    bounds.maxNodes = 4000;
    bounds.maxWallTimeMs = static_cast<int>(std::clamp<qint64>(ctx.call.remainingMs() / 4, 1, 3000));
    auto snapshot = locator.snapshot(route, bounds);
    if (!snapshot) {
        out.secureCheck = QStringLiteral("unread");
        return;
    }
    out.secureCheck = QStringLiteral("tree");
    QPainter painter(&image);
    for (const Node& node : std::as_const(snapshot->nodes)) {
        if (!node.isSecure() || node.frame.isEmpty())
            continue;
        painter.fillRect(QRect(node.frame.x - area.x, node.frame.y - area.y, node.frame.width, node.frame.height),
                         Qt::white);
        ++out.secureBlanked;
    }
}

OcrText textOf(const QString& recognised, const QRect& box, const Frame& area, double confidence, Redaction mode)
{
    OcrText t;
    t.sha256 = QString::fromLatin1(QCryptographicHash::hash(recognised.toUtf8(), QCryptographicHash::Sha256).toHex());
    t.length = static_cast<int>(recognised.size());
    switch (mode) {
    case Redaction::None:
        t.text = recognised;
        break;
    case Redaction::Patterns:
        t.text = redactPatterns(recognised, &t.redactions);
        break;
    case Redaction::Hash:
        break;
    }
    t.frame = Frame{box.x() + area.x, box.y() + area.y, box.width(), box.height()};
    t.confidence = confidence;
    return t;
}

QJsonObject textJson(const OcrText& t, Redaction mode)
{
    QJsonObject o{{QStringLiteral("frame"), t.frame.toJson()},
                  {QStringLiteral("confidence"), std::round(t.confidence * 1000) / 1000}};
    if (mode == Redaction::Hash) {
        o.insert(QStringLiteral("sha256"), t.sha256);
        o.insert(QStringLiteral("length"), t.length);
    } else {
        o.insert(QStringLiteral("text"), t.text);
        if (mode == Redaction::Patterns)
            o.insert(QStringLiteral("redactions"), t.redactions);
    }
    return o;
}

} // namespace

QJsonObject ocrTextJson(const OcrText& text, Redaction mode)
{
    return textJson(text, mode);
}

Result<OcrResult> ocr(JobContext& ctx, const OcrRequest& request)
{
    if (!ctx.ocr)
        return Ocr::unavailable(QStringLiteral("no OCR engine runs in this host"));
    OcrResult out;
    auto where = captureArea(ctx, request.route, request.rect);
    if (!where)
        return where.error();
    out.route = where->route;
    out.source = where->source;

    QElapsedTimer timer;
    timer.start();
    TraceStep captureStep(ctx.trace, QStringLiteral("ocr.capture"));
    auto shot = ctx.backend.screenshot(ctx.call);
    if (!shot) {
        captureStep.finish(false, shot.error().toJson());
        return shot.error();
    }
    QImage screen;
    if (!screen.loadFromData(shot->png, "PNG"))
        return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be decoded"));
    out.display = Frame{0, 0, screen.width(), screen.height()};
    out.takenAt = shot->takenAt;
    const QRect wanted =
        where->area ? QRect(where->area->x, where->area->y, where->area->width, where->area->height) : screen.rect();
    const QRect clipped = wanted & screen.rect();
    if (clipped.isEmpty()) {
        captureStep.finish(false);
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("the %1 is outside the display (%2x%3)")
                               .arg(out.source)
                               .arg(screen.width())
                               .arg(screen.height()),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("outside_display")},
                                       {QStringLiteral("display"), out.display.toJson()}})
            .withRetryable(false);
    }
    out.frame = Frame{clipped.x(), clipped.y(), clipped.width(), clipped.height()};
    QImage image = screen.copy(clipped).convertToFormat(QImage::Format_RGB32);
    out.occlusion = QStringLiteral("n/a");
    out.secureCheck = QStringLiteral("n/a");
    if (out.route) {
        maskCoveringWindows(ctx, *out.route, out.frame, image, out);
        blankSecureFields(ctx, *out.route, out.frame, image, out);
    }
    out.captureMs = timer.elapsed();
    {
        const QByteArray seed = QByteArray::number(out.takenAt.toMSecsSinceEpoch()) + ' ' +
                                QJsonDocument(out.frame.toJson()).toJson(QJsonDocument::Compact);
        out.captureId = QStringLiteral("cap_") +
                        QString::fromLatin1(QCryptographicHash::hash(seed, QCryptographicHash::Sha1).toHex().left(16));
    }
    captureStep.finish(true, QJsonObject{{QStringLiteral("frame"), out.frame.toJson()},
                                         {QStringLiteral("occlusion"), out.occlusion},
                                         {QStringLiteral("covered"), out.covered.size()},
                                         {QStringLiteral("secureBlanked"), out.secureBlanked}});

    TraceStep readStep(ctx.trace, QStringLiteral("ocr.recognize"));
    const qint64 left = ctx.call.remainingMs();
    auto page = ctx.ocr->recognize(image, request.languages, QDeadlineTimer(std::max<qint64>(1, left - 200)));
    if (!page) {
        readStep.finish(false, page.error().toJson());
        return page.error();
    }
    out.engine = page->engine;
    out.recognizeMs = page->recognizeMs;
    out.regions = page->regions;
    out.regionsCached = page->regionsCached;
    for (const Ocr::Line& line : std::as_const(page->lines)) {
        // A word below the bar is part of no answer, nor of its line's text.
        Ocr::Line trusted;
        QList<int> kept;
        for (const Ocr::Word& word : line.words) {
            if (word.confidence < request.minConfidence)
                continue;
            kept.append(static_cast<int>(out.words.size()));
            out.words.append(textOf(word.text, word.box, out.frame, word.confidence, request.redaction));
            trusted.words.append(word);
        }
        if (kept.isEmpty())
            continue;
        Ocr::completeLine(trusted);
        OcrText lineText = textOf(trusted.text, trusted.box, out.frame, trusted.confidence, request.redaction);
        lineText.words = kept;
        out.lines.append(lineText);
    }
    readStep.finish(true, QJsonObject{{QStringLiteral("engine"), out.engine},
                                      {QStringLiteral("words"), static_cast<int>(out.words.size())},
                                      {QStringLiteral("lines"), static_cast<int>(out.lines.size())},
                                      {QStringLiteral("regions"), out.regions},
                                      {QStringLiteral("regionsCached"), out.regionsCached},
                                      {QStringLiteral("ms"), out.recognizeMs}});

    // Evidence: what was read, redacted as asked; the image only where the text may be kept.
    if (!request.keepEvidence)
        return out;
    if (request.redaction != Redaction::Hash) {
        out.png = PngEncoder::encode(image);
        if (auto err = ctx.trace.keepImage(QStringLiteral("ocr.png"), out.png))
            return *err;
    }
    QJsonArray words;
    for (const OcrText& w : std::as_const(out.words))
        words.append(textJson(w, request.redaction));
    QJsonArray lines;
    for (const OcrText& l : std::as_const(out.lines)) {
        QJsonObject o = textJson(l, request.redaction);
        QJsonArray indexes;
        for (int i : l.words)
            indexes.append(i);
        o.insert(QStringLiteral("words"), indexes);
        lines.append(o);
    }
    const QJsonObject kept{{QStringLiteral("captureId"), out.captureId},
                           {QStringLiteral("frame"), out.frame.toJson()},
                           {QStringLiteral("takenAt"), out.takenAt.toString(Qt::ISODateWithMs)},
                           {QStringLiteral("redactionMode"), redactionName(request.redaction)},
                           {QStringLiteral("engine"), out.engine},
                           {QStringLiteral("occlusion"), out.occlusion},
                           {QStringLiteral("covered"), out.covered},
                           {QStringLiteral("secureBlanked"), out.secureBlanked},
                           {QStringLiteral("words"), words},
                           {QStringLiteral("lines"), lines}};
    if (auto err = ctx.trace.keepJson(QStringLiteral("ocr.json"), QJsonDocument(kept).toJson(QJsonDocument::Indented)))
        return *err;
    return out;
}

} // namespace Automation::Operations
