// Steps several operations share (declared in automation/OperationSteps.h): screenshots, the
// pixel difference, the occlusion and still-there checks before the pointer acts, the evidence of
// keys into a window without accessibility, and what an error after delivery may have done.
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
#include <future>

namespace Automation::Operations {

// A screenshot given to the trace under `name`; the step says its size and time.
Result<Screenshot> screenshotStep(JobContext& ctx, const QString& name, const std::optional<Frame>& near)
{
    TraceStep step(ctx.trace, QStringLiteral("screenshot:") + name);
    CaptureArea where;
    where.area = near;
    auto shot = screenshotFor(ctx, where);
    if (!shot) {
        step.finish(false, shot.error().toJson());
        return shot.error();
    }
    if (auto err = ctx.trace.keepImage(name, shot->png))
        return *err;
    step.finish(true, QJsonObject{{QStringLiteral("width"), shot->width},
                                  {QStringLiteral("height"), shot->height},
                                  {QStringLiteral("takenAt"), shot->takenAt.toString(Qt::ISODateWithMs)}});
    return shot;
}

// How many pixels of `frame` differ between two screenshots (a pointer click's evidence).
std::optional<QJsonObject> pixelDiff(const Screenshot& beforeShot, const Screenshot& afterShot, const Frame& frame)
{
    // Two images of the same part of the desktop, or no comparison.
    if (beforeShot.frame() != afterShot.frame())
        return std::nullopt;
    QImage before, after;
    if (!before.loadFromData(beforeShot.png, "PNG") || !after.loadFromData(afterShot.png, "PNG") ||
        before.size() != after.size())
        return std::nullopt;
    const QRect area = beforeShot.pixelsOf(frame) & before.rect();
    if (area.isEmpty())
        return std::nullopt;
    const QImage a = before.copy(area).convertToFormat(QImage::Format_RGB32);
    const QImage b = after.copy(area).convertToFormat(QImage::Format_RGB32);
    qint64 changed = 0;
    for (int y = 0; y < a.height(); ++y) {
        const auto* ra = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* rb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x)
            changed += ra[x] != rb[x];
    }
    return QJsonObject{{QStringLiteral("changedPixels"), changed},
                       {QStringLiteral("framePixels"), static_cast<qint64>(area.width()) * area.height()}};
}

std::optional<Error> occlusionStep(JobContext& ctx, const ResolvedRoute& route, QPoint point, const Node* element)
{
    TraceStep step(ctx.trace, QStringLiteral("pointer.occlusion"));
    const auto above = ctx.backend.windowAbove(route, point, ctx.call);
    if (!above) {
        step.finish(false, above.error().toJson());
        return above.error();
    }
    if (!above.value()) {
        step.finish(true);
        return std::nullopt;
    }
    const CoveringWindow& cover = *above.value();
    QJsonObject details{
        {QStringLiteral("reason"), QStringLiteral("occluded")},
        {QStringLiteral("coveredBy"), QJsonObject{{QStringLiteral("title"), cover.title},
                                                  {QStringLiteral("pid"), cover.pid},
                                                  {QStringLiteral("frame"), cover.frame.toJson()}}},
        {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), point.x()}, {QStringLiteral("y"), point.y()}}}};
    if (element)
        details.insert(QStringLiteral("element"), ElementRef::fromNode(*element).toJson());
    step.finish(false, details);
    return Error::make(ErrorCode::ElementNotFound,
                       element ? QStringLiteral("the element's centre is covered by the window \"%1\"; nothing "
                                                "was clicked")
                                     .arg(cover.title)
                               : QStringLiteral("the point is covered by the window \"%1\" (above the route's "
                                                "window); nothing was done")
                                     .arg(cover.title),
                       details);
}

std::optional<Error> stillThereStep(JobContext& ctx, const ResolvedRoute& route, QPoint point, const Node& element)
{
    TraceStep step(ctx.trace, QStringLiteral("pointer.stillThere"));
    const auto now = ctx.backend.liveFrame(route, element, ctx.call);
    if (!now) {
        step.finish(false, now.error().toJson());
        return now.error();
    }
    if (!now.value() || now.value()->contains(point)) {
        step.finish(true, now.value() ? QJsonObject{{QStringLiteral("frame"), now.value()->toJson()}} : QJsonObject());
        return std::nullopt;
    }
    const QJsonObject details{
        {QStringLiteral("reason"), QStringLiteral("target_moved")},
        {QStringLiteral("element"), ElementRef::fromNode(element).toJson()},
        {QStringLiteral("frameThen"), element.frame.toJson()},
        {QStringLiteral("frameNow"), now.value()->toJson()},
        {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), point.x()}, {QStringLiteral("y"), point.y()}}}};
    step.finish(false, details);
    return Error::make(ErrorCode::StaleSnapshot,
                       QStringLiteral("the element moved since it was found (its window moved, its list scrolled or a "
                                      "display changed); nothing was done: find it again"),
                       details)
        .withRetryable(true);
}

// Keys into a window without accessibility have no other evidence than its pixels: a screenshot
// before (nullopt for any other window) and, after the input, the difference over the window's
// frame in the verification, as for a pointer gesture.
Result<std::optional<Screenshot>> bareBefore(JobContext& ctx, const ResolvedRoute& route)
{
    if (!route.inaccessible)
        return std::optional<Screenshot>();
    auto shot = screenshotStep(ctx, QStringLiteral("before.png"), route.nativeFrame);
    if (!shot)
        return shot.error();
    return std::optional<Screenshot>(std::move(shot.value()));
}

void bareAfter(JobContext& ctx, const ResolvedRoute& route, const std::optional<Screenshot>& before,
               Verification& verification)
{
    if (!before)
        return;
    auto after = screenshotStep(ctx, QStringLiteral("after.png"), route.nativeFrame);
    if (!after)
        return; // the input was sent: its answer is not lost to a failed screenshot
    if (const auto diff = pixelDiff(*before, after.value(), route.nativeFrame))
        verification.observed.insert(QStringLiteral("pixelDiff"), *diff);
}

Error afterDelivery(Error error)
{
    if (error.code == ErrorCode::Timeout || error.code == ErrorCode::Aborted ||
        error.code == ErrorCode::TargetUnresponsive || error.code == ErrorCode::InternalError) {
        error.withRetryable(false);
        if (!error.details.contains(QStringLiteral("mayHaveHadEffect")))
            error.withDetail(QStringLiteral("mayHaveHadEffect"), true);
    }
    return error;
}

int indexOfHandle(const Snapshot& snapshot, const QString& handle)
{
    if (handle.isEmpty())
        return -1;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        if (snapshot.nodes.at(i).handle == handle)
            return i;
    }
    return -1;
}

int indexOfElement(const Snapshot& snapshot, const Node& node)
{
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        if (snapshot.nodes.at(i).elementId == node.elementId)
            return i;
    }
    return indexOfHandle(snapshot, node.handle);
}

} // namespace Automation::Operations
