// desktop.hotkey: a key chord (docs/protocol.md).
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

Result<HotkeyResult> hotkey(JobContext& ctx, const HotkeyRequest& request)
{
    Locator locator(ctx);
    auto route = locator.resolveRoute(request.route, true);
    if (!route)
        return route.error();
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    auto before = bareBefore(ctx, route.value());
    if (!before)
        return before.error();
    TraceStep step(ctx.trace, QStringLiteral("hotkey"));
    auto outcome = ctx.backend.sendChord(route.value(), request.chord, request.delayMs, ctx.call);
    if (!outcome) {
        step.finish(false, outcome.error().toJson());
        return afterDelivery(outcome.error());
    }
    bareAfter(ctx, route.value(), before.value(), outcome->verification);
    step.finish(true, QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(request.chord.names())},
                                  {QStringLiteral("verification"), outcome->verification.toJson()}});
    return HotkeyResult{route.value(), std::move(outcome.value())};
}

} // namespace Automation::Operations
