// desktop.find: the elements a selector matches (docs/protocol.md).
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

namespace {

Result<FindResult> findInTree(JobContext& ctx, const FindRequest& request)
{
    Locator locator(ctx);
    auto route = locator.resolveRoute(locator.routeFor(request.route, std::nullopt, &request.selector), false);
    if (!route)
        return route.error();
    SnapshotBounds bounds = searchBounds(ctx.call, request.selector.needsText());
    bounds.includeDescription = request.selector.needsDescription();
    bounds.refresh = request.refresh;
    bounds.searchOnly = true;
    if (request.maxDepth)
        bounds.maxDepth = *request.maxDepth;
    if (request.maxNodes)
        bounds.maxNodes = *request.maxNodes;
    if (request.maxWallTimeMs)
        bounds.maxWallTimeMs = std::min(bounds.maxWallTimeMs, *request.maxWallTimeMs);
    auto snapshot = locator.snapshot(route.value(), bounds);
    if (!snapshot)
        return snapshot.error();
    auto searched = locator.search(snapshot.value(), request.selector);
    if (!searched)
        return searched.error();
    if (auto err = ctx.trace.keepTree(snapshot.value()))
        return *err;
    if (auto err = ctx.trace.keepCandidates(snapshot.value(), request.selector, searched.value(), request.selectorJson))
        return *err;
    if (request.includeText) {
        // After the tree is kept: the text goes to the answer only.
        QList<int> unread;
        for (int i = 0; i < searched->size() && i < request.selector.limit; ++i) {
            const Node& node = snapshot->nodes.at(searched->at(i).nodeIndex);
            if (!node.hasValue && !node.isSecure())
                unread.append(searched->at(i).nodeIndex);
        }
        if (!unread.isEmpty()) {
            TraceStep step(ctx.trace, QStringLiteral("find.text"));
            const auto read = ctx.backend.readTexts(snapshot.value(), unread, ctx.call);
            step.finish(read.ok(), QJsonObject{{QStringLiteral("nodes"), static_cast<int>(unread.size())}});
            if (!read)
                return read.error();
        }
    }
    return FindResult{route.value(), std::move(snapshot.value()), std::move(searched.value())};
}

} // namespace

Result<FindResult> find(JobContext& ctx, const FindRequest& request)
{
    // The text on screen, alone or when the tree finds nothing (selector.source).
    if (request.selector.source == Selector::Source::Ocr)
        return findOnScreen(ctx, request);
    auto found = findInTree(ctx, request);
    if (request.selector.source == Selector::Source::Any &&
        ((found && found->candidates.isEmpty()) || (!found && found.error().code == ErrorCode::ElementNotFound)))
        return findOnScreen(ctx, request);
    return found;
}

} // namespace Automation::Operations
