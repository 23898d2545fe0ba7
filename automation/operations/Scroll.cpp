// desktop.scroll (docs/protocol.md).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"
#include "automation/PngEncoder.h"
#include "automation/SelectorEngine.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QImage>
#include <QJsonArray>
#include <QRegularExpression>
#include <QThread>

namespace Automation::Operations {

Result<ScrollResult> scroll(JobContext& ctx, const ScrollRequest& request)
{
    Locator locator(ctx);
    auto route = locator.resolveRoute(locator.routeFor(request.route, request.target.elementRef,
                                                       request.target.selector ? &*request.target.selector : nullptr),
                                      true);
    if (!route)
        return route.error();
    auto target = locator.resolveTarget(route.value(), request.target);
    if (!target)
        return target.error();
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    const int index = indexOfElement(target->snapshot, target->node);
    if (index < 0)
        return Error::make(ErrorCode::InternalError, QStringLiteral("the target is not in its own snapshot"));
    TraceStep step(ctx.trace, QStringLiteral("scroll"));
    auto outcome = ctx.backend.scroll(route.value(), target->snapshot, index, request.spec, ctx.call);
    if (!outcome) {
        step.finish(false, outcome.error().toJson());
        const QString reason = outcome.error().details.value(QStringLiteral("reason")).toString();
        // Refused before any input (unsupported, nothing on screen): not an effect.
        if (reason == QLatin1String("unsupported") || reason == QLatin1String("no_frame"))
            return outcome.error();
        return afterDelivery(outcome.error());
    }
    step.finish(true, QJsonObject{{QStringLiteral("deliveredBy"), outcome->deliveredBy},
                                  {QStringLiteral("details"), outcome->details},
                                  {QStringLiteral("verification"), outcome->verification.toJson()}});
    ScrollResult out;
    out.route = route.value();
    if (const auto after = Frame::fromJson(outcome->details.value(QStringLiteral("frameAfter")).toObject()))
        out.frameAfter = *after;
    out.visibleAfter = outcome->details.value(QStringLiteral("inView")).toBool();
    out.target = std::move(target.value());
    out.outcome = std::move(outcome.value());
    return out;
}

} // namespace Automation::Operations
