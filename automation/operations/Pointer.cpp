// desktop.pointer and desktop.elementAt: gestures at a point, and what is under one (docs/protocol.md).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"

#include <QRegularExpression>

#include <algorithm>

namespace Automation::Operations {

namespace {

// Where a gesture is made for `target`: its frame's centre (refused without a frame).
Result<QPoint> centreOf(const Node& node)
{
    if (node.frame.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element has no on-screen frame"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_frame")},
                                       {QStringLiteral("element"), ElementRef::fromNode(node).toJson()}});
    return node.frame.center();
}

// Whether `frame` holds `point`, in 64 bits: toolkits give far-off frames to what is not on
// screen (GTK 3: a closed menu's items at INT_MIN), which QRect's int arithmetic overflows on.
bool holds(const Frame& frame, QPoint point)
{
    const auto x = static_cast<qint64>(point.x()), y = static_cast<qint64>(point.y());
    return frame.width > 0 && frame.height > 0 && x >= frame.x && y >= frame.y &&
           x < static_cast<qint64>(frame.x) + frame.width && y < static_cast<qint64>(frame.y) + frame.height;
}

// The topmost visible window holding `point`, as the window manager stacks them; nullopt when
// none does, or (error) when the backend cannot list windows.
Result<std::optional<WindowInfo>> windowAt(JobContext& ctx, QPoint point)
{
    auto listed = ctx.backend.windows(ctx.call);
    if (!listed)
        return listed.error();
    QList<WindowInfo> topFirst = listed.value();
    std::reverse(topFirst.begin(), topFirst.end());
    for (const WindowInfo& window : std::as_const(topFirst)) {
        if (window.visible && !window.minimized && holds(window.frame, point))
            return std::optional<WindowInfo>(window);
    }
    return std::optional<WindowInfo>();
}

void routeToWindow(Route& route, const WindowInfo& window)
{
    // A window of no accessible app (a Tk window) is named by its id: no app has its pid.
    bool parsed = false;
    const quint64 native = QString(window.nativeId).remove(QStringLiteral("0x")).toULongLong(&parsed, 16);
    if (window.appName.isEmpty() && parsed && native != 0) {
        route.windowNativeId = native;
        return;
    }
    route.pid = window.pid;
    route.windowTitlePattern = QStringLiteral("^%1$").arg(QRegularExpression::escape(window.title));
}

bool namesNothing(const Route& route)
{
    return !route.bundleId && !route.pid && !route.windowTitlePattern && !route.windowHandle && !route.windowNativeId;
}

bool unsupported(const Error& error)
{
    return error.details.value(QStringLiteral("reason")) == QJsonValue(QStringLiteral("unsupported"));
}

} // namespace

Result<PointerResult> pointer(JobContext& ctx, const PointerRequest& request)
{
    Locator locator(ctx);
    const std::optional<ElementRefSpec> ref = request.target ? request.target->elementRef : std::nullopt;
    const Selector* selector = request.target && request.target->selector ? &*request.target->selector : nullptr;
    Route spec = locator.routeFor(request.route, ref, selector);
    // A point with no app named: the app whose window is there is the one to watch and focus.
    if (!request.target && request.point && namesNothing(spec)) {
        auto there = windowAt(ctx, *request.point);
        if (!there && !unsupported(there.error()))
            return there.error();
        if (there && there.value())
            routeToWindow(spec, *there.value());
    }
    // A point where another app's window shows: the pointer would act there, and nothing the
    // routed app reports would say what it did. Refused before any input, and before the
    // route's window is raised.
    if (!request.target && request.point && !namesNothing(request.route)) {
        auto routed = locator.resolveRoute(spec, false);
        if (!routed)
            return routed.error();
        auto there = windowAt(ctx, *request.point);
        if (there && there.value() && there.value()->pid != routed->pid) {
            const WindowInfo& other = *there.value();
            return Error::make(
                       ErrorCode::ElementNotFound,
                       QStringLiteral("the point %1,%2 is on \"%3\" (pid %4), not on the route's window \"%5\"; "
                                      "nothing was done")
                           .arg(request.point->x())
                           .arg(request.point->y())
                           .arg(other.title)
                           .arg(other.pid)
                           .arg(routed->windowTitle),
                       QJsonObject{
                           {QStringLiteral("reason"), QStringLiteral("occluded")},
                           {QStringLiteral("coveredBy"), QJsonObject{{QStringLiteral("title"), other.title},
                                                                     {QStringLiteral("pid"), other.pid},
                                                                     {QStringLiteral("frame"), other.frame.toJson()}}},
                           {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), request.point->x()},
                                                                 {QStringLiteral("y"), request.point->y()}}}})
                .withRetryable(false);
        }
    }
    auto route = locator.resolveRoute(spec, true);
    if (!route)
        return route.error();
    PointerResult out;
    out.gesture = request.gesture;
    const Node* element = nullptr;
    if (request.target) {
        auto target = locator.resolveTarget(route.value(), *request.target);
        if (!target)
            return target.error();
        out.target = std::move(target.value());
        element = &out.target->node;
        auto at = centreOf(*element);
        if (!at)
            return at.error();
        out.gesture.at = at.value();
    } else {
        out.gesture.at = *request.point;
    }
    if (request.gesture.kind == PointerGesture::Kind::Drag) {
        if (request.toTarget) {
            auto to = locator.resolveTarget(route.value(), *request.toTarget);
            if (!to)
                return to.error();
            auto at = centreOf(to->node);
            if (!at)
                return at.error();
            out.gesture.to = at.value();
        } else {
            out.gesture.to = *request.to;
        }
    }
    if (auto covered = occlusionStep(ctx, route.value(), out.gesture.at, element))
        return *covered;
    const Frame at{out.gesture.at.x(), out.gesture.at.y(), 1, 1};
    auto before = screenshotStep(ctx, QStringLiteral("before.png"), at);
    if (!before)
        return before.error();
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    if (element) {
        if (auto moved = stillThereStep(ctx, route.value(), out.gesture.at, *element))
            return *moved;
    }
    TraceStep step(ctx.trace, QStringLiteral("pointer.") + gestureName(out.gesture.kind));
    auto outcome = ctx.backend.pointer(route.value(), out.gesture, ctx.call);
    step.finish(outcome.ok(), outcome.ok()
                                  ? QJsonObject{{QStringLiteral("details"), outcome->details},
                                                {QStringLiteral("verification"), outcome->verification.toJson()}}
                                  : outcome.error().toJson());
    if (!outcome) {
        if (outcome.error().details.value(QStringLiteral("reason")) == QJsonValue(QStringLiteral("unsupported")))
            return outcome.error();
        return afterDelivery(outcome.error());
    }
    auto after = screenshotStep(ctx, QStringLiteral("after.png"), at);
    if (!after)
        return afterDelivery(after.error());
    // The pixels that can show the gesture's effect: the element's, or a window's that exposes
    // no accessibility (its only evidence).
    const std::optional<Frame> watched = element               ? std::optional(element->frame)
                                         : route->inaccessible ? std::optional(route->nativeFrame)
                                                               : std::nullopt;
    if (watched) {
        if (const auto diff = pixelDiff(before.value(), after.value(), *watched))
            outcome->verification.observed.insert(QStringLiteral("pixelDiff"), *diff);
    }
    out.route = route.value();
    out.outcome = std::move(outcome.value());
    return out;
}

Result<ElementAtResult> elementAt(JobContext& ctx, const ElementAtRequest& request)
{
    Locator locator(ctx);
    ElementAtResult out;
    Route route = request.route.value_or(Route{});
    if (!request.route) {
        // The topmost window showing at the point, as the window manager stacks them.
        auto there = windowAt(ctx, request.point);
        if (!there && !unsupported(there.error()))
            return there.error();
        if (there) {
            if (!there.value())
                return Error::make(ErrorCode::ElementNotFound,
                                   QStringLiteral("no window of an app the host may automate shows at (%1, %2)")
                                       .arg(request.point.x())
                                       .arg(request.point.y()),
                                   QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_window_at_point")}});
            out.window = there.value();
            routeToWindow(route, *out.window);
        }
    }
    auto resolved = locator.resolveRoute(route, false);
    if (!resolved)
        return resolved.error();
    SnapshotBounds bounds = searchBounds(ctx.call, false);
    auto snapshot = locator.snapshot(resolved.value(), bounds);
    if (!snapshot)
        return snapshot.error();
    // The deepest node holding the point; among nodes as deep, the last in document order
    // (drawn over the ones before it).
    int best = -1, bestDepth = -1;
    for (int i = 0; i < snapshot->nodes.size(); ++i) {
        const Node& node = snapshot->nodes.at(i);
        // What is not showing (a closed menu's items) is not under the pointer.
        if (!holds(node.frame, request.point) || (node.detailed && !node.has(StateShowing)))
            continue;
        int depth = 0;
        for (int p = node.parent; p >= 0; p = snapshot->nodes.at(p).parent)
            ++depth;
        if (depth >= bestDepth) {
            best = i;
            bestDepth = depth;
        }
    }
    if (auto err = ctx.trace.keepTree(
            snapshot.value(),
            QJsonObject{{QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), request.point.x()},
                                                              {QStringLiteral("y"), request.point.y()}}}}))
        return *err;
    if (best < 0)
        return Error::make(ErrorCode::ElementNotFound,
                           QStringLiteral("no element of the window \"%1\" holds (%2, %3)")
                               .arg(resolved->windowTitle)
                               .arg(request.point.x())
                               .arg(request.point.y()),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("nothing_at_point")},
                                       {QStringLiteral("window"), resolved->windowTitle}});
    for (int p = snapshot->nodes.at(best).parent; p >= 0; p = snapshot->nodes.at(p).parent)
        out.ancestors.append(p);
    out.route = resolved.value();
    out.snapshot = std::move(snapshot.value());
    out.index = best;
    return out;
}

} // namespace Automation::Operations
