// desktop.windows and desktop.window: the windows, and moving, resizing or closing one (docs/protocol.md).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace Automation::Operations {

namespace {

bool appMatches(const WindowInfo& window, const QString& app)
{
    return window.appName.compare(app, Qt::CaseInsensitive) == 0 ||
           window.executable.compare(app, Qt::CaseInsensitive) == 0;
}

} // namespace

Result<QList<WindowInfo>> windows(JobContext& ctx, const WindowsRequest& request)
{
    TraceStep step(ctx.trace, QStringLiteral("windows"));
    auto listed = ctx.backend.windows(ctx.call);
    if (!listed) {
        step.finish(false, listed.error().toJson());
        return listed.error();
    }
    QList<WindowInfo> out;
    // Top of the stacking order first: the window a person sees first.
    QList<WindowInfo> topFirst = listed.value();
    // Each with the display it is on; a backend that cannot list displays lists windows anyway.
    if (auto displays = ctx.backend.displays(ctx.call))
        placeOnDisplays(topFirst, displays.value());
    std::reverse(topFirst.begin(), topFirst.end());
    for (const WindowInfo& window : std::as_const(topFirst)) {
        if (!request.app || appMatches(window, *request.app))
            out.append(window);
    }
    step.finish(true, QJsonObject{{QStringLiteral("listed"), static_cast<int>(listed->size())},
                                  {QStringLiteral("answered"), static_cast<int>(out.size())}});
    return out;
}

Result<QList<DisplayInfo>> displays(JobContext& ctx)
{
    TraceStep step(ctx.trace, QStringLiteral("displays"));
    auto listed = ctx.backend.displays(ctx.call);
    if (!listed) {
        step.finish(false, listed.error().toJson());
        return listed.error();
    }
    QJsonArray trace;
    for (const DisplayInfo& display : listed.value())
        trace.append(display.toJson());
    step.finish(true, QJsonObject{{QStringLiteral("displays"), trace}});
    return listed.value();
}

Result<WindowResult> window(JobContext& ctx, const WindowRequest& request)
{
    Locator locator(ctx);
    // Focus is this action's business: the route is resolved without applying a focus policy
    // (minimizing a window must not raise it first).
    Route route = request.route;
    route.focusPolicy.reset();
    auto resolved = locator.resolveRoute(route, false);
    if (!resolved)
        return resolved.error();
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    TraceStep step(ctx.trace, QStringLiteral("window.") + windowActionName(request.command.action));
    auto outcome = ctx.backend.windowCommand(resolved.value(), request.command, ctx.call);
    step.finish(outcome.ok(), outcome.ok()
                                  ? QJsonObject{{QStringLiteral("details"), outcome->details},
                                                {QStringLiteral("verification"), outcome->verification.toJson()}}
                                  : outcome.error().toJson());
    if (!outcome) {
        const QString reason = outcome.error().details.value(QStringLiteral("reason")).toString();
        if (reason == QLatin1String("unsupported") || reason == QLatin1String("window_not_found"))
            return outcome.error();
        return afterDelivery(outcome.error());
    }
    return WindowResult{resolved.value(), std::move(outcome.value())};
}

} // namespace Automation::Operations
