// desktop.observe, dumpTree and capture: what a window shows (docs/protocol.md).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"
#include "automation/PngEncoder.h"
#include "automation/SelectorEngine.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <future>

namespace Automation::Operations {

Result<ObserveResult> observe(JobContext& ctx, const ObserveRequest& request)
{
    Locator locator(ctx);
    auto route = locator.resolveRoute(request.route, false);
    if (!route)
        return route.error();
    ObserveResult out;
    out.route = route.value();
    if (request.includeAxTree) {
        auto snap = locator.snapshot(out.route, request.bounds);
        if (!snap)
            return snap.error();
        out.snapshot = std::move(snap.value());
        out.timing.insert(QStringLiteral("axTreeAt"), out.snapshot->takenAt.toString(Qt::ISODateWithMs));
        out.timing.insert(QStringLiteral("axTreeMs"), out.snapshot->elapsedMs);
    }
    // The screenshot right after the tree, so both describe the same moment as closely as the
    // tree's traversal allows; the skew is recorded. The tree is kept on another thread
    // meanwhile (traces are thread-safe): its timing is known up front.
    const QDateTime before = QDateTime::currentDateTimeUtc();
    if (request.includeScreenshot) {
        out.timing.insert(QStringLiteral("screenshotAt"), before.toString(Qt::ISODateWithMs));
        if (out.snapshot)
            out.timing.insert(QStringLiteral("skewMs"), out.snapshot->takenAt.msecsTo(before));
    }
    std::future<std::optional<Error>> tree;
    if (out.snapshot) {
        tree = std::async(std::launch::async, [&ctx, &out] {
            return ctx.trace.keepTree(*out.snapshot, QJsonObject{{QStringLiteral("timing"), out.timing}});
        });
    }
    if (request.includeScreenshot) {
        auto shot = screenshotStep(ctx, QStringLiteral("observe.png"));
        if (tree.valid())
            tree.wait();
        if (!shot)
            return shot.error();
        out.screenshot = std::move(shot.value());
    }
    if (tree.valid()) {
        if (auto err = tree.get())
            return *err;
    }
    return out;
}

Result<DumpTreeResult> dumpTree(JobContext& ctx, const DumpTreeRequest& request)
{
    Locator locator(ctx);
    auto route = locator.resolveRoute(request.route, false);
    if (!route)
        return route.error();
    auto snapshot = locator.snapshot(route.value(), request.bounds);
    if (!snapshot)
        return snapshot.error();
    if (auto err = ctx.trace.keepTree(snapshot.value()))
        return *err;
    return DumpTreeResult{route.value(), std::move(snapshot.value())};
}

Result<Frame> windowFrame(JobContext& ctx, const ResolvedRoute& route)
{
    // No root element to ask: the window manager's frame.
    if (route.inaccessible && !route.nativeFrame.isEmpty())
        return route.nativeFrame;
    // The window's frame, from its root element: nothing below it is read.
    Locator locator(ctx);
    SnapshotBounds bounds;
    bounds.maxDepth = 1;
    bounds.maxNodes = 1;
    bounds.maxWallTimeMs = static_cast<int>(std::min<qint64>(ctx.call.remainingMs(), 5000));
    auto root = locator.snapshot(route, bounds);
    if (!root)
        return root.error();
    if (root->nodes.isEmpty() || root->nodes.first().frame.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the window has no frame on screen"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_frame")},
                                       {QStringLiteral("window"), route.windowTitle}});
    return root->nodes.first().frame;
}

Result<CaptureArea> captureArea(JobContext& ctx, const std::optional<Route>& route, const std::optional<Frame>& rect)
{
    CaptureArea out;
    out.area = rect;
    out.source = rect ? QStringLiteral("rect") : QStringLiteral("display");
    const bool displayOnly = route && route->displayId && !route->bundleId && !route->pid &&
                             !route->windowTitlePattern && !route->windowHandle && !route->windowNativeId;
    if (displayOnly && !rect) {
        // One display, whatever shows on it.
        auto display = findDisplay(ctx.backend, *route->displayId, ctx.call);
        if (!display)
            return display.error();
        out.area = display->frame;
        out.display = display.value();
        return out;
    }
    if (route && !rect) {
        Locator locator(ctx);
        auto resolved = locator.resolveRoute(*route, false);
        if (!resolved)
            return resolved.error();
        auto frame = windowFrame(ctx, resolved.value());
        if (!frame)
            return frame.error();
        out.area = frame.value();
        out.route = resolved.value();
        out.source = QStringLiteral("window");
    }
    return out;
}

Result<Screenshot> screenshotFor(JobContext& ctx, const CaptureArea& where)
{
    if (ctx.backend.screenshotCoversEveryDisplay())
        return ctx.backend.screenshot(ctx.call);
    std::optional<DisplayInfo> display = where.display;
    if (!display && where.area) {
        auto displays = ctx.backend.displays(ctx.call);
        if (!displays)
            return displays.error();
        if (const DisplayInfo* holding = displayOf(displays.value(), *where.area))
            display = *holding;
    }
    if (!display || display->primary)
        return ctx.backend.screenshot(ctx.call);
    return ctx.backend.screenshotOfDisplay(*display, ctx.call);
}

QImage sizedForModel(const QImage& image, const ModelSizing& sizing, double* scale)
{
    double factor = 1.0;
    if (sizing.maxWidth && image.width() > *sizing.maxWidth)
        factor = std::min(factor, double(*sizing.maxWidth) / image.width());
    const double pixels = double(image.width()) * image.height();
    if (sizing.maxPixels && pixels > double(*sizing.maxPixels))
        factor = std::min(factor, std::sqrt(double(*sizing.maxPixels) / pixels));
    if (factor >= 1.0) {
        *scale = 1.0;
        return image;
    }
    const int width = std::max(1, static_cast<int>(std::floor(image.width() * factor)));
    const int height = std::max(1, static_cast<int>(std::floor(image.height() * factor)));
    // The scale a model maps its points back with: the width's, which the caller asked to bound.
    *scale = double(width) / image.width();
    return image.scaled(width, height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

Result<CaptureResult> capture(JobContext& ctx, const CaptureRequest& request)
{
    CaptureResult out;
    auto where = captureArea(ctx, request.route, request.rect);
    if (!where)
        return where.error();
    out.route = where->route;
    out.source = where->source;
    out.ofDisplay = where->display;
    const std::optional<Frame> area = where->area;
    TraceStep step(ctx.trace, QStringLiteral("capture"));
    auto shot = screenshotFor(ctx, where.value());
    if (!shot) {
        step.finish(false, shot.error().toJson());
        return shot.error();
    }
    out.display = shot->frame();
    out.takenAt = shot->takenAt;
    if (!area) {
        out.frame = out.display;
        out.png = shot->png;
    } else {
        const QRect clipped = shot->pixelsOf(*area);
        if (clipped.isEmpty()) {
            step.finish(false);
            return Error::make(ErrorCode::InvalidRequest,
                               QStringLiteral("the %1 %2,%3 %4x%5 is outside the display (%6x%7)")
                                   .arg(out.source)
                                   .arg(area->x)
                                   .arg(area->y)
                                   .arg(area->width)
                                   .arg(area->height)
                                   .arg(shot->width)
                                   .arg(shot->height),
                               request.rect ? QJsonObject{{QStringLiteral("field"), QStringLiteral("rect")},
                                                          {QStringLiteral("reason"), QStringLiteral("outside_display")},
                                                          {QStringLiteral("display"), out.display.toJson()}}
                                            : QJsonObject{{QStringLiteral("reason"), QStringLiteral("outside_display")},
                                                          {QStringLiteral("display"), out.display.toJson()}})
                .withRetryable(false);
        }
        QImage image;
        if (!image.loadFromData(shot->png, "PNG"))
            return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be decoded"));
        out.png = PngEncoder::encode(image.copy(clipped));
        if (out.png.isEmpty())
            return Error::make(ErrorCode::InternalError, QStringLiteral("the capture could not be encoded as PNG"));
        out.frame = shot->frameOf(clipped);
    }
    if (auto err = ctx.trace.keepImage(QStringLiteral("capture.png"), out.png))
        return *err;
    out.answeredPng = out.png;
    out.answeredSize = QSize(out.frame.width, out.frame.height);
    if (request.sizing.maxWidth || request.sizing.maxPixels) {
        // The evidence keeps every pixel; the answer is sized for a model's eyes.
        QImage full;
        if (!full.loadFromData(out.png, "PNG"))
            return Error::make(ErrorCode::InternalError, QStringLiteral("the capture could not be decoded"));
        const QImage sized = sizedForModel(full, request.sizing, &out.scale);
        if (out.scale < 1.0) {
            out.answeredPng = PngEncoder::encode(sized);
            out.answeredSize = sized.size();
        }
    }
    step.finish(true, QJsonObject{{QStringLiteral("source"), out.source},
                                  {QStringLiteral("frame"), out.frame.toJson()},
                                  {QStringLiteral("bytes"), static_cast<qint64>(out.png.size())},
                                  {QStringLiteral("scale"), out.scale}});
    return out;
}

} // namespace Automation::Operations
