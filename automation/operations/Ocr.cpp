// desktop.ocr: the text on screen where accessibility is blind (docs/protocol.md §5.26).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"
#include "automation/PngEncoder.h"
#include "automation/SelectorEngine.h"
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
    auto shot = screenshotFor(ctx, where.value());
    if (!shot) {
        captureStep.finish(false, shot.error().toJson());
        return shot.error();
    }
    QImage screen;
    if (!screen.loadFromData(shot->png, "PNG"))
        return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be decoded"));
    out.display = shot->frame();
    out.takenAt = shot->takenAt;
    const QRect clipped = where->area ? shot->pixelsOf(*where->area) : screen.rect();
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
    out.frame = shot->frameOf(clipped);
    QImage image = screen.copy(clipped).convertToFormat(QImage::Format_RGB32);
    const QImage unmasked = image;
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
    out.image = unmasked;
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

namespace {

// The pixels of `frame` (screen coordinates) grown by 4, in `image`, which shows `area`.
QByteArray regionHash(const QImage& image, const Frame& area, const Frame& frame)
{
    const QRect r = QRect(frame.x - area.x - 4, frame.y - area.y - 4, frame.width + 8, frame.height + 8) & image.rect();
    const QImage part = image.copy(r).convertToFormat(QImage::Format_RGB32);
    QCryptographicHash hash(QCryptographicHash::Sha1);
    for (int y = 0; y < part.height(); ++y)
        hash.addData(QByteArrayView(reinterpret_cast<const char*>(part.constScanLine(y)),
                                    static_cast<qsizetype>(part.width()) * 4));
    return hash.result();
}

bool hasCjk(const QString& text)
{
    return std::any_of(text.cbegin(), text.cend(),
                       [](QChar c) { return c.unicode() >= 0x2e80 && c.unicode() <= 0x9fff; });
}

Error stale(const QString& reason, const QString& message, QJsonObject details = {})
{
    details.insert(QStringLiteral("reason"), reason);
    details.insert(
        QStringLiteral("suggestion"),
        QStringLiteral("read the screen again (desktop.find with selector.source \"ocr\") and act on the new ref"));
    return Error::make(ErrorCode::StaleSnapshot, message, details).withRetryable(true);
}

} // namespace

bool isOcrElementId(const QString& elementId)
{
    return elementId.startsWith(QLatin1String("ocr:"));
}

Result<FindResult> findOnScreen(JobContext& ctx, const FindRequest& request)
{
    OcrRequest read;
    read.route = request.route;
    read.languages = {QStringLiteral("eng")};
    const Selector& selector = request.selector;
    if ((selector.title && hasCjk(selector.title->pattern)) || (selector.value && hasCjk(selector.value->pattern)))
        read.languages.append(QStringLiteral("chi_sim"));
    read.redaction = Redaction::None;
    auto seen = ocr(ctx, read);
    if (!seen)
        return seen.error();
    if (!seen->route)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no window to read"));

    // The lines and their words as a tree: the window, its lines, each line's words.
    Snapshot snapshot;
    snapshot.appName = seen->route->appName;
    snapshot.bundleId = seen->route->bundleId;
    snapshot.pid = seen->route->pid;
    snapshot.windowTitle = seen->route->windowTitle;
    snapshot.takenAt = seen->takenAt;
    Node root;
    root.role = QStringLiteral("AXWindow");
    root.nativeRole = QStringLiteral("ocr.capture");
    root.title = seen->route->windowTitle;
    root.frame = seen->frame;
    root.states = StateEnabled | StateVisible | StateShowing;
    snapshot.nodes.append(root);
    QHash<int, double> confidence;
    ElementCache::OcrCapture capture;
    capture.captureId = seen->captureId;
    capture.route = *seen->route;
    capture.frame = seen->frame;
    const auto add = [&](const OcrText& text, const QString& nativeRole, int parent, QList<int> path) {
        Node node;
        node.elementId = QStringLiteral("ocr:%1:%2").arg(seen->captureId).arg(snapshot.nodes.size());
        node.role = QStringLiteral("AXStaticText");
        node.nativeRole = nativeRole;
        node.title = text.text;
        node.frame = text.frame;
        node.states = StateEnabled | StateVisible | StateShowing;
        node.parent = parent;
        node.path = std::move(path);
        const int index = static_cast<int>(snapshot.nodes.size());
        snapshot.nodes[parent].children.append(index);
        snapshot.nodes.append(node);
        confidence.insert(index, text.confidence);
        capture.elements.insert(node.elementId, node);
        capture.pixels.insert(node.elementId, regionHash(seen->image, seen->frame, node.frame));
        return index;
    };
    for (int li = 0; li < seen->lines.size(); ++li) {
        const OcrText& line = seen->lines.at(li);
        const int lineIndex = add(line, QStringLiteral("ocr.line"), 0, {li});
        for (int k = 0; k < line.words.size(); ++k)
            add(seen->words.at(line.words.at(k)), QStringLiteral("ocr.word"), lineIndex, {li, k});
    }
    QList<Candidate> candidates = SelectorEngine::match(snapshot, selector);
    // A line and the word that alone makes it are one thing on screen: the line is kept.
    for (Candidate& c : candidates) {
        const double conf = confidence.value(c.nodeIndex);
        c.score = static_cast<int>(c.score * conf);
        c.reasons.append(QStringLiteral("ocr confidence %1").arg(conf, 0, 'f', 2));
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    ctx.elements.keepCapture(std::move(capture));
    if (auto err = ctx.trace.keepCandidates(snapshot, selector, candidates, request.selectorJson))
        return *err;
    return FindResult{*seen->route, std::move(snapshot), std::move(candidates)};
}

namespace {

// An OCR element claimed for its one action: the window it was read in, resolved again and
// found unchanged around the element; its capture is marked used.
struct Claim
{
    Node node;
    Route spec;
    ResolvedRoute route;
    Frame frame;                             ///< the window's frame, as when the text was read
    QList<std::pair<QString, QPoint>> lines; ///< the capture's lines: text and centre
};

Result<Claim> claim(JobContext& ctx, const Route& requested, const QString& elementId)
{
    const QString captureId = elementId.section(QLatin1Char(':'), 1, 1);
    ElementCache::OcrCapture* capture = ctx.elements.capture(captureId);
    if (!capture || !capture->elements.contains(elementId))
        return stale(QStringLiteral("capture_forgotten"),
                     QStringLiteral("the capture %1 is no longer remembered").arg(captureId));
    if (capture->used)
        return stale(
            QStringLiteral("capture_used"),
            QStringLiteral("an action was already taken on capture %1: one action per capture").arg(captureId));
    Claim out;
    out.node = capture->elements.value(elementId);
    out.frame = capture->frame;
    // The route: the request's, else the window the capture was of.
    out.spec = requested;
    if (out.spec == Route{}) {
        if (capture->route.nativeWindow != 0)
            out.spec.windowNativeId = capture->route.nativeWindow;
        else if (!capture->route.windowHandle.isEmpty())
            out.spec.windowHandle = capture->route.windowHandle;
        else
            out.spec.pid = capture->route.pid;
    }
    Locator locator(ctx);
    auto route = locator.resolveRoute(out.spec, true);
    if (!route)
        return route.error();
    out.route = route.value();
    TraceStep check(ctx.trace, QStringLiteral("ocr.stillThere"));
    if (out.route.pid != capture->route.pid || (out.route.nativeWindow != 0 && capture->route.nativeWindow != 0 &&
                                                out.route.nativeWindow != capture->route.nativeWindow)) {
        check.finish(false);
        return stale(QStringLiteral("window_replaced"),
                     QStringLiteral("the window the text was read in is not the route's window now"));
    }
    // Where the window is now, from the route just resolved (not resolved a second time).
    auto now = windowFrame(ctx, out.route);
    if (!now)
        return now.error();
    if (now.value() != capture->frame) {
        check.finish(false);
        return stale(
            QStringLiteral("window_moved"),
            QStringLiteral("the window moved since its text was read: the element is not where it was"),
            QJsonObject{{QStringLiteral("captured"), capture->frame.toJson()}, {QStringLiteral("now"), now->toJson()}});
    }
    CaptureArea element;
    element.area = out.node.frame;
    auto shot = screenshotFor(ctx, element);
    if (!shot)
        return shot.error();
    QImage screen;
    if (!screen.loadFromData(shot->png, "PNG"))
        return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be decoded"));
    if (regionHash(screen, shot->frame(), out.node.frame) != capture->pixels.value(elementId)) {
        check.finish(false);
        return stale(QStringLiteral("pixels_changed"),
                     QStringLiteral("the pixels around the element changed since its text was read"),
                     QJsonObject{{QStringLiteral("frame"), out.node.frame.toJson()}});
    }
    check.finish(true);
    capture->used = true;
    for (const Node& n : std::as_const(capture->elements)) {
        if (n.nativeRole == QLatin1String("ocr.line"))
            out.lines.append({n.title.simplified(), n.frame.center()});
    }
    return out;
}

// What the pixels show after an action on an OCR element: the window read again, its lines
// compared with the capture's, each by its text and place (a key's "4" is not the display's "4").
// Text that appeared or went confirms; other pixels alone are unverifiable; nothing, a no-op.
void effectInPixels(JobContext& ctx, const Claim& claimed, const Screenshot& beforeShot, const Screenshot& afterShot,
                    Verification& v)
{
    OcrRequest again;
    again.route = claimed.spec;
    again.languages = {QStringLiteral("eng")};
    if (hasCjk(claimed.node.title))
        again.languages.append(QStringLiteral("chi_sim"));
    again.redaction = Redaction::Patterns;
    again.keepEvidence = false;
    auto reread = ocr(ctx, again);
    const auto diff = pixelDiff(beforeShot, afterShot, claimed.frame);
    const qint64 changedPixels = diff ? diff->value(QStringLiteral("changedPixels")).toInteger() : 0;
    if (diff)
        v.observed.insert(QStringLiteral("pixelDiff"), *diff);
    if (!reread) {
        // Without a pixel comparison (the window is on another display than the screenshots'),
        // nothing says that nothing changed.
        v.effect = (!diff || changedPixels > 0) ? Effect::Unverifiable : Effect::SuspectedNoop;
        v.reason = QStringLiteral("the window could not be read again: ") + reread.error().message;
        return;
    }
    QList<std::pair<QString, QPoint>> afterLines;
    for (const OcrText& line : std::as_const(reread->lines))
        afterLines.append({line.text.simplified(), line.frame.center()});
    const auto within = [](const QList<std::pair<QString, QPoint>>& lines, const std::pair<QString, QPoint>& l) {
        return std::any_of(lines.cbegin(), lines.cend(), [&](const auto& o) {
            return o.first == l.first && (o.second - l.second).manhattanLength() <= 6;
        });
    };
    QStringList appeared;
    for (const auto& line : std::as_const(afterLines)) {
        if (!within(claimed.lines, line))
            appeared.append(redactPatterns(line.first, nullptr));
    }
    QStringList gone;
    for (const auto& line : std::as_const(claimed.lines)) {
        if (!within(afterLines, line))
            gone.append(redactPatterns(line.first, nullptr));
    }
    v.observed.insert(QStringLiteral("textAppeared"), QJsonArray::fromStringList(appeared));
    v.observed.insert(QStringLiteral("textGone"), QJsonArray::fromStringList(gone));
    if (!appeared.isEmpty() || !gone.isEmpty()) {
        v.effect = Effect::Confirmed;
        v.reason = QStringLiteral("text in the window changed");
    } else if (changedPixels > 0) {
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the window's pixels changed, but no text did");
    } else if (!diff) {
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("no text changed, and the window's pixels could not be compared");
    } else {
        v.effect = Effect::SuspectedNoop;
        v.reason = QStringLiteral("nothing in the window changed");
    }
}

// A pointer click at `point` of the claimed window, screenshots around it (before.png is taken
// before the click; after.png is the caller's, once its own input is sent).
Result<std::pair<Screenshot, ActionOutcome>> pointerClick(JobContext& ctx, const Claim& claimed, QPoint point)
{
    if (auto covered = occlusionStep(ctx, claimed.route, point, nullptr))
        return *covered;
    auto before = screenshotStep(ctx, QStringLiteral("before.png"), claimed.frame);
    if (!before)
        return before.error();
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    TraceStep step(ctx.trace, QStringLiteral("click.pointer"));
    auto outcome = ctx.backend.clickAt(claimed.route, point, ctx.call, nullptr);
    step.finish(outcome.ok(), outcome.ok() ? outcome->verification.toJson() : outcome.error().toJson());
    if (!outcome)
        return afterDelivery(outcome.error());
    return std::pair<Screenshot, ActionOutcome>(std::move(before.value()), std::move(outcome.value()));
}

} // namespace

Result<std::optional<QString>> ocrTarget(JobContext& ctx, const Route& route, const TargetSpec& target)
{
    if (target.elementRef)
        return isOcrElementId(target.elementRef->elementId) ? std::optional<QString>(target.elementRef->elementId)
                                                            : std::nullopt;
    if (!target.selector || target.selector->source == Selector::Source::Ax)
        return std::optional<QString>();
    FindRequest lookup;
    lookup.route = route;
    lookup.selector = *target.selector;
    lookup.selectorJson = target.selectorJson;
    auto found = find(ctx, lookup);
    if (!found)
        return found.error();
    if (found->candidates.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("nothing on screen matches the selector"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_match")},
                                       {QStringLiteral("selector"), lookup.selectorJson}});
    const Node& best = found->snapshot.nodes.at(found->candidates.first().nodeIndex);
    return isOcrElementId(best.elementId) ? std::optional<QString>(best.elementId) : std::nullopt;
}

Result<ClickResult> clickOnScreen(JobContext& ctx, const ClickRequest& request, const QString& elementId)
{
    auto claimed = claim(ctx, request.route, elementId);
    if (!claimed)
        return claimed.error();
    auto clicked = pointerClick(ctx, claimed.value(), claimed->node.frame.center());
    if (!clicked)
        return clicked.error();
    ClickResult out;
    out.beforeImage = QStringLiteral("before.png");
    auto after = screenshotStep(ctx, QStringLiteral("after.png"), claimed->frame);
    if (!after)
        return afterDelivery(after.error());
    out.afterImage = QStringLiteral("after.png");
    ActionOutcome& outcome = clicked->second;
    outcome.verification.expected = QStringLiteral("text in the window appears or changes");
    effectInPixels(ctx, claimed.value(), clicked->first, after.value(), outcome.verification);
    out.route = claimed->route;
    out.target.node = claimed->node;
    out.target.via = QStringLiteral("elementRef:ocr");
    out.outcome = std::move(outcome);
    return out;
}

Result<TypeResult> typeOnScreen(JobContext& ctx, const TypeRequest& request, const QString& elementId)
{
    // What is in the field cannot be read, so it cannot be cleared with evidence.
    if (request.clearBefore)
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("clearBefore cannot be done on text read off the pixels: the field's "
                                          "contents are not known; nothing was typed"),
                           QJsonObject{{QStringLiteral("field"), QStringLiteral("clearBefore")},
                                       {QStringLiteral("reason"), QStringLiteral("ocr_target")}})
            .withRetryable(false);
    auto claimed = claim(ctx, request.route, elementId);
    if (!claimed)
        return claimed.error();
    // The caret goes after the text read: a click just inside the right end of its box.
    const Frame& box = claimed->node.frame;
    const QPoint caret(box.x + std::max(0, box.width - 3), box.center().y());
    auto clicked = pointerClick(ctx, claimed.value(), caret);
    if (!clicked)
        return clicked.error();
    if (auto stop = ctx.call.checkpoint())
        return afterDelivery(stop.value());
    TypeResult out;
    TraceStep step(ctx.trace, QStringLiteral("type"));
    auto typed = ctx.backend.typeText(claimed->route, nullptr, request.text,
                                      TypeOptions{false, QStringLiteral("keys"), request.keyDelayMs}, ctx.call);
    if (!typed) {
        step.finish(false, typed.error().toJson());
        // The click before it was delivered: whatever happens now may have had an effect.
        Error error = typed.error();
        error.withDetail(QStringLiteral("mayHaveHadEffect"), true).withRetryable(false);
        return afterDelivery(error);
    }
    auto after = screenshotStep(ctx, QStringLiteral("after.png"), claimed->frame);
    Verification& v = typed->verification;
    if (after) {
        // The backend's own proof (the focused field's text read back) stands; else the pixels.
        if (v.effect != Effect::Confirmed) {
            v.expected = QStringLiteral("the typed text appears in the window");
            effectInPixels(ctx, claimed.value(), clicked->first, after.value(), v);
        }
    } else {
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the window could not be captured after typing");
    }
    step.finish(true, QJsonObject{{QStringLiteral("path"), typed->path},
                                  {QStringLiteral("caret"),
                                   QJsonObject{{QStringLiteral("x"), caret.x()}, {QStringLiteral("y"), caret.y()}}},
                                  {QStringLiteral("verification"), v.toJson()}});
    out.route = claimed->route;
    ResolvedTarget target;
    target.node = claimed->node;
    target.via = QStringLiteral("elementRef:ocr");
    out.target = std::move(target);
    out.outcome = std::move(typed.value());
    return out;
}

} // namespace Automation::Operations
