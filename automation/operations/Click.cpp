// desktop.click (docs/protocol.md).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"
#include "automation/SelectorEngine.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QThread>

#include <algorithm>
#include <future>

namespace Automation::Operations {

Result<ClickResult> click(JobContext& ctx, const ClickRequest& request)
{
    // An element read off the pixels is clicked through the pointer, bound to its capture.
    auto onScreen = ocrTarget(ctx, request.route, request.target);
    if (!onScreen)
        return onScreen.error();
    if (onScreen.value())
        return clickOnScreen(ctx, request, *onScreen.value());
    Locator locator(ctx);
    const Route spec = locator.routeFor(request.route, request.target.elementRef,
                                        request.target.selector ? &*request.target.selector : nullptr);
    auto route = locator.resolveRoute(spec, true);
    if (!route)
        return route.error();
    auto target = locator.resolveTarget(route.value(), request.target);
    if (!target)
        return target.error();
    ClickResult out;
    const Node& node = target->node;
    if (auto stop = ctx.call.checkpoint())
        return *stop;

    Result<ActionOutcome> outcome = Error::make(ErrorCode::InternalError, QStringLiteral("no click attempted"));
    const bool pointerOnly = request.delivery == QLatin1String("pointer");
    const bool actionOnly = request.delivery == QLatin1String("action");
    if (!pointerOnly) {
        TraceStep step(ctx.trace, QStringLiteral("click.press"));
        outcome = node.role == QLatin1String("AXMenuItem")
                      ? pressMenuItem(ctx, spec, route.value(), target->snapshot, node)
                      : ctx.backend.press(route.value(), node, ctx.call);
        step.finish(outcome.ok(), outcome.ok()
                                      ? QJsonObject{{QStringLiteral("details"), outcome->details},
                                                    {QStringLiteral("verification"), outcome->verification.toJson()}}
                                      : outcome.error().toJson());
    }
    const bool noAction =
        !outcome && outcome.error().details.value(QStringLiteral("reason")) == QJsonValue(QStringLiteral("no_action"));
    if (pointerOnly || (noAction && request.allowCoordinateFallback && !actionOnly)) {
        if (node.frame.isEmpty())
            return Error::make(ErrorCode::ElementNotFound,
                               pointerOnly
                                   ? QStringLiteral("the element has no on-screen frame to click")
                                   : QStringLiteral("the element has no action and no on-screen frame to click"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_frame")},
                                           {QStringLiteral("element"), ElementRef::fromNode(node).toJson()}});
        // The pointer clicks whatever is on top: another window over the element's centre
        // would get the click. Refuse rather than click something else.
        if (auto covered = occlusionStep(ctx, route.value(), node.frame.center(), &node))
            return *covered;
        // Coordinates are the last resort: always with before/after screenshots.
        auto before = screenshotStep(ctx, QStringLiteral("before.png"), node.frame);
        if (!before)
            return before.error();
        out.beforeImage = QStringLiteral("before.png");
        if (auto stop = ctx.call.checkpoint())
            return *stop;
        if (auto moved = stillThereStep(ctx, route.value(), node.frame.center(), node))
            return *moved;
        TraceStep step(ctx.trace, QStringLiteral("click.pointer"));
        outcome = ctx.backend.clickAt(route.value(), node.frame.center(), ctx.call, &node);
        step.finish(outcome.ok(), outcome.ok() ? outcome->verification.toJson() : outcome.error().toJson());
        if (!outcome)
            return afterDelivery(outcome.error());
        auto after = screenshotStep(ctx, QStringLiteral("after.png"), node.frame);
        if (!after)
            return afterDelivery(after.error());
        out.afterImage = QStringLiteral("after.png");
        // The pointer's own evidence: did the element's pixels change?
        if (const auto diff = pixelDiff(before.value(), after.value(), node.frame)) {
            Verification& v = outcome->verification;
            v.observed.insert(QStringLiteral("pixelDiff"), *diff);
            // Pixels alone do not confirm: the pointer's hover changes them too. They do mean
            // "not nothing", so a no-op becomes unverifiable.
            if (v.effect == Effect::SuspectedNoop && diff->value(QStringLiteral("changedPixels")).toInteger() > 0) {
                v.effect = Effect::Unverifiable;
                v.reason = QStringLiteral("only the element's pixels changed, which the pointer's hover alone can do");
            }
        }
    }
    if (!outcome)
        return noAction ? outcome.error() : afterDelivery(outcome.error());
    out.route = route.value();
    out.target = std::move(target.value());
    out.outcome = std::move(outcome.value());
    return out;
}

} // namespace Automation::Operations
