// desktop.typeText and the look at its target before a person confirms it (docs/protocol.md).
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

QString textDigest(const QString& text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

} // namespace

Result<TypeResult> typeText(JobContext& ctx, const TypeRequest& request)
{
    // The text itself never reaches the trace, only its length and digest; and text typed into
    // a secure element is forgotten by whatever kept it, whatever the settings say
    // (docs/architecture.md, "Secure elements").
    const QJsonObject textInfo{{QStringLiteral("length"), static_cast<int>(request.text.size())},
                               {QStringLiteral("sha256"), textDigest(request.text)}};
    const auto forgetSecure = [&ctx, &textInfo]() {
        QJsonObject redacted = textInfo;
        redacted.insert(QStringLiteral("redacted"), true);
        redacted.insert(QStringLiteral("reason"), QStringLiteral("secure_element"));
        return ctx.trace.forgetSecureText(redacted);
    };
    // Text aimed at what OCR read goes where the pixels show it, bound to their capture.
    if (request.target) {
        auto onScreen = ocrTarget(ctx, request.route, *request.target);
        if (!onScreen)
            return onScreen.error();
        if (onScreen.value()) {
            auto typed = typeOnScreen(ctx, request, *onScreen.value());
            if (!typed)
                return typed.error();
            typed->textInfo = textInfo;
            if (typed->outcome.secure) {
                if (auto err = forgetSecure())
                    return *err;
            }
            return typed;
        }
    }
    Locator locator(ctx);
    auto route = locator.resolveRoute(
        locator.routeFor(request.route, request.target ? request.target->elementRef : std::nullopt,
                         request.target && request.target->selector ? &*request.target->selector : nullptr),
        true);
    if (!route)
        return route.error();
    TypeResult out;
    if (request.target) {
        auto resolved = locator.resolveTarget(route.value(), *request.target);
        if (!resolved)
            return resolved.error();
        out.target = std::move(resolved.value());
        // A label, an image or a pane takes no text and no focus: the keys would go to whatever
        // has the focus now. Refused before any key is sent.
        const Node& node = out.target->node;
        if (node.detailed && !node.has(StateEditable) && !node.has(StateFocusable) && !node.has(StateFocused))
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("the element %1 \"%2\" takes no text: it is not editable and cannot "
                                              "take the focus; no key was sent")
                                   .arg(node.role, node.title),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("not_editable")},
                                           {QStringLiteral("element"), ElementRef::fromNode(node).toJson()}})
                .withRetryable(false);
    }
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    out.textInfo = textInfo;
    if (out.target && out.target->node.isSecure()) {
        if (auto err = forgetSecure())
            return *err;
    }
    auto before = bareBefore(ctx, route.value());
    if (!before)
        return before.error();
    TraceStep step(ctx.trace, QStringLiteral("type"));
    auto outcome =
        ctx.backend.typeText(route.value(), out.target ? &out.target->node : nullptr, request.text,
                             TypeOptions{request.clearBefore, request.delivery, request.keyDelayMs}, ctx.call);
    if (!outcome) {
        step.finish(false, outcome.error().toJson());
        return afterDelivery(outcome.error());
    }
    bareAfter(ctx, route.value(), before.value(), outcome->verification);
    if (!out.target && outcome->secure) {
        // Untargeted text that went into a focused secure field: forgotten as targeted text is.
        if (auto err = forgetSecure())
            return *err;
    }
    step.finish(true, QJsonObject{{QStringLiteral("path"), outcome->path},
                                  {QStringLiteral("text"), out.textInfo},
                                  {QStringLiteral("readBack"), outcome->readBack},
                                  {QStringLiteral("verification"), outcome->verification.toJson()}});
    // The delivery ladder, one trace line per path tried.
    for (const auto& path : outcome->verification.paths) {
        const QJsonObject p = path.toObject();
        ctx.trace.step(QStringLiteral("type.path:") + p.value(QStringLiteral("path")).toString(), 0,
                       p.value(QStringLiteral("effect")).toString() == QLatin1String("confirmed"), p);
    }
    out.route = route.value();
    out.outcome = std::move(outcome.value());
    return out;
}

Result<SecureLook> secureTarget(JobContext& ctx, const TypeRequest& request)
{
    // Filled in once the route is resolved; the node's frame is read when the look has time.
    ResolvedRoute resolved;
    int matched = 0;
    const auto answer = [&resolved, &matched, &ctx](bool secure, const QString& why, const Node* node = nullptr,
                                                    Snapshot* snapshot = nullptr, int index = -1) {
        SecureLook look{resolved,
                        node ? std::optional<Node>(*node) : std::nullopt,
                        secure,
                        why,
                        node ? node->role : QString(),
                        node ? node->title : QString(),
                        {},
                        resolved.windowTitle,
                        resolved.appName,
                        matched};
        if (node && node->detailed && !node->frame.isEmpty())
            look.frame = node->frame;
        else if (snapshot && index >= 0 && ctx.backend.completeNodes(*snapshot, {index}, ctx.call) &&
                 !snapshot->nodes.at(index).frame.isEmpty())
            look.frame = snapshot->nodes.at(index).frame;
        return look;
    };
    Route routeSpec = request.route;
    std::optional<ElementCache::Entry> cached;
    if (request.target && request.target->elementRef) {
        cached = ctx.elements.find(request.target->elementRef->elementId);
        if (cached && cached->node.isSecure())
            return answer(true, QStringLiteral("elementRef"), &cached->node);
        if (cached && !routeSpec.bundleId && !routeSpec.pid)
            routeSpec.pid = cached->route.pid;
    }
    auto route = resolveRouteOnDisplay(ctx.backend, routeSpec, ctx.call);
    if (!route)
        return route.error();
    resolved = route.value();

    if (!request.target) {
        // Untargeted text goes to the focused element: look at it now.
        SnapshotBounds bounds = searchBounds(ctx.call, false);
        auto snapshot = ctx.backend.snapshot(route.value(), bounds, ctx.call);
        if (!snapshot)
            return snapshot.error();
        for (const Node& node : snapshot->nodes) {
            if (node.has(StateFocused))
                return answer(node.isSecure(), QStringLiteral("focused"), &node);
        }
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no element of the window has focus"));
    }

    const TargetSpec& target = *request.target;
    SnapshotBounds bounds = searchBounds(ctx.call, target.selector && target.selector->needsText());
    bounds.includeDescription = target.selector && target.selector->needsDescription();
    bounds.searchOnly = true;
    auto snapshot = ctx.backend.snapshot(route.value(), bounds, ctx.call);
    if (!snapshot)
        return snapshot.error();
    if (cached) {
        for (int i = 0; i < snapshot->nodes.size(); ++i) {
            const Node& node = snapshot->nodes.at(i);
            if (!node.handle.isEmpty() && node.handle == cached->node.handle) {
                matched = 1;
                return answer(node.isSecure(), QStringLiteral("elementRef"), &node, &snapshot.value(), i);
            }
        }
    }
    if (!target.selector)
        return Error::make(ErrorCode::StaleSnapshot, QStringLiteral("the elementRef's element is not there"));
    // Every element the selector could land on, before states narrow it down: typing into any
    // of them must not show the text.
    const QList<Candidate> candidates =
        SelectorEngine::match(snapshot.value(), SelectorEngine::relaxed(*target.selector));
    if (candidates.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no element matches the selector"));
    matched = static_cast<int>(candidates.size());
    for (const Candidate& candidate : candidates) {
        const Node& node = snapshot->nodes.at(candidate.nodeIndex);
        if (node.isSecure())
            return answer(true, QStringLiteral("selector"), &node, &snapshot.value(), candidate.nodeIndex);
    }
    const int first = candidates.first().nodeIndex;
    return answer(false, QStringLiteral("selector"), &snapshot->nodes.at(first), &snapshot.value(), first);
}

} // namespace Automation::Operations
