#include "Methods.h"

#include "SelectorEngine.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include <future>

namespace Bridge::Methods {

using namespace Automation;
using Step = Evidence::ExecutionRecord::Step;

namespace {

QByteArray pretty(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

// Writes one artifact; a failure to record evidence fails the request.
std::optional<Error> writeArtifact(JobContext& ctx, const QString& name, const QByteArray& bytes)
{
    if (auto err = ctx.record.writeArtifact(name, bytes))
        return Error::make(ErrorCode::InternalError, QStringLiteral("cannot write evidence %1: %2").arg(name, *err),
                           QJsonObject{{QStringLiteral("evidenceDir"), ctx.record.dirPath()}});
    return std::nullopt;
}

QJsonObject evidence(JobContext& ctx, QJsonObject extra = {})
{
    extra.insert(QStringLiteral("dir"), ctx.record.dirPath());
    return extra;
}

QJsonObject baseResult(JobContext& ctx)
{
    return QJsonObject{{QStringLiteral("executionId"), ctx.record.executionId()}};
}

// Resolves the route and applies its focus policy (plan 2.0):
//  focusIfNeeded    raise and focus the window when it is not focused (default for side effects);
//  requireFocused   the same, then fail with DESKTOP_FOCUS_LOST if it still is not focused;
//  failIfNotFocused never change focus; fail when the window is not already focused.
Result<ResolvedRoute> resolveRoute(JobContext& ctx, const Route& route, bool sideEffect)
{
    Step step(ctx.record, QStringLiteral("route.resolve"));
    auto resolved = ctx.backend.resolveRoute(route, ctx.call);
    if (!resolved) {
        step.finish(false, resolved.error().toJson());
        return resolved;
    }
    step.finish(true, resolved->toJson());

    const auto policy =
        route.focusPolicy ? route.focusPolicy : (sideEffect ? std::optional(FocusPolicy::FocusIfNeeded) : std::nullopt);
    if (!policy || resolved->windowFocused)
        return resolved;
    const QJsonObject where{{QStringLiteral("focusPolicy"), focusPolicyName(*policy)},
                            {QStringLiteral("route"), resolved->toJson()}};
    if (*policy == FocusPolicy::FailIfNotFocused)
        return Error::make(ErrorCode::FocusLost,
                           QStringLiteral("the target window \"%1\" is not focused").arg(resolved->windowTitle), where);
    Step focus(ctx.record, QStringLiteral("route.focus"));
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    const auto focused = ctx.backend.focusWindow(resolved.value(), ctx.call);
    if (!focused) {
        focus.finish(false, focused.error().toJson());
        return focused.error();
    }
    if (*policy == FocusPolicy::RequireFocused) {
        auto again = ctx.backend.resolveRoute(route, ctx.call);
        if (!again)
            return again;
        if (!again->windowFocused || again->pid != resolved->pid) {
            focus.finish(false);
            return Error::make(ErrorCode::FocusLost,
                               QStringLiteral("the target window \"%1\" did not take focus").arg(resolved->windowTitle),
                               where);
        }
        resolved = again;
    } else {
        resolved->windowFocused = true;
    }
    focus.finish(true);
    return resolved;
}

Result<Snapshot> takeSnapshot(JobContext& ctx, const ResolvedRoute& route, const SnapshotBounds& bounds)
{
    Step step(ctx.record, QStringLiteral("snapshot"));
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    auto snapshot = ctx.backend.snapshot(route, bounds, ctx.call);
    if (!snapshot) {
        step.finish(false, snapshot.error().toJson());
        return snapshot;
    }
    ctx.elements.adopt(snapshot.value(), route);
    step.finish(true, snapshot->metadataJson());
    return snapshot;
}

std::optional<Error> writeTree(JobContext& ctx, const Snapshot& snapshot, const QJsonObject& extra = {})
{
    return writeArtifact(ctx, QStringLiteral("ax.json"), snapshot.toJsonText(extra));
}

std::optional<Error> writeCandidates(JobContext& ctx, const Snapshot& snapshot, const Selector& selector,
                                     const QList<Candidate>& candidates, const QJsonObject& selectorJson)
{
    return writeArtifact(ctx, QStringLiteral("selectors/candidates.json"),
                         pretty(SelectorEngine::candidatesJson(snapshot, selector, candidates, selectorJson)));
}

Result<QString> screenshotTo(JobContext& ctx, const QString& name, QByteArray* png = nullptr)
{
    Step step(ctx.record, QStringLiteral("screenshot:") + name);
    auto shot = ctx.backend.screenshot(ctx.call);
    if (!shot) {
        step.finish(false, shot.error().toJson());
        return shot.error();
    }
    if (auto err = writeArtifact(ctx, name, shot->png))
        return *err;
    if (png)
        *png = shot->png;
    step.finish(true, QJsonObject{{QStringLiteral("width"), shot->width},
                                  {QStringLiteral("height"), shot->height},
                                  {QStringLiteral("takenAt"), shot->takenAt.toString(Qt::ISODateWithMs)}});
    return name;
}

QString describeFingerprintChange(const Node& was, const Node& now)
{
    QStringList changes;
    if (was.role != now.role)
        changes.append(QStringLiteral("role %1 -> %2").arg(was.role, now.role));
    if (was.title != now.title)
        changes.append(QStringLiteral("title \"%1\" -> \"%2\"").arg(was.title, now.title));
    if (!(was.frame == now.frame))
        changes.append(QStringLiteral("frame moved or resized"));
    return changes.join(QStringLiteral("; "));
}

// A search: a search-only snapshot, a first match, the candidates' details read, then the
// final ranking (states count in it). Candidates past the first 200 keep no details.
Result<QList<Candidate>> search(JobContext& ctx, Snapshot& snapshot, const Selector& selector)
{
    Step step(ctx.record, QStringLiteral("select"));
    Selector loose = selector;
    loose.enabledOnly = loose.visibleOnly = false;
    const QList<Candidate> first = SelectorEngine::match(snapshot, loose);
    QList<int> indexes;
    for (const auto& c : first) {
        if (!snapshot.nodes.at(c.nodeIndex).detailed && indexes.size() < 200)
            indexes.append(c.nodeIndex);
    }
    std::sort(indexes.begin(), indexes.end());
    if (!indexes.isEmpty()) {
        Step detail(ctx.record, QStringLiteral("select.details"));
        const auto done = ctx.backend.completeNodes(snapshot, indexes, ctx.call);
        detail.finish(done.ok(), QJsonObject{{QStringLiteral("nodes"), static_cast<int>(indexes.size())}});
        if (!done) {
            step.finish(false, done.error().toJson());
            return done.error();
        }
    }
    QList<Candidate> ranked = SelectorEngine::match(snapshot, selector);
    ranked.removeIf([&](const Candidate& c) { return !snapshot.nodes.at(c.nodeIndex).detailed; });
    step.finish(true, QJsonObject{{QStringLiteral("matched"), static_cast<int>(ranked.size())}});
    return ranked;
}

struct ResolvedTarget
{
    Node node;
    QString via; ///< "elementRef", "elementRef:reresolved", "selector"
    Snapshot snapshot;
    QList<Candidate> candidates;
};

// contract 4.5 + DESIGN.md 7: an elementRef is used when its element is still there with the
// same fingerprint; otherwise it is re-resolved once from a fresh snapshot, and refused with
// DESKTOP_STALE_SNAPSHOT (saying what changed) when that fails too.
Result<ResolvedTarget> resolveTarget(JobContext& ctx, ResolvedRoute& route, const TargetParams& target)
{
    ResolvedTarget out;
    // Text is read only when the selector matches on it.
    SnapshotBounds bounds = searchBounds(ctx.call, target.selector && target.selector->needsText());
    bounds.searchOnly = true;
    auto fresh = takeSnapshot(ctx, route, bounds);
    if (!fresh)
        return fresh.error();
    out.snapshot = fresh.value();

    if (target.elementRef) {
        const auto& ref = *target.elementRef;
        Step step(ctx.record, QStringLiteral("target.elementRef"));
        const std::optional<ElementCache::Entry> cached = ctx.elements.find(ref.elementId);
        const QString wanted = ref.fingerprint ? *ref.fingerprint : (cached ? fingerprintOf(cached->node) : QString());
        // Fingerprints need frames: read the details of the nodes that could be this element
        // (same handle, or same role and title).
        {
            QList<int> indexes;
            const auto parts = wanted.split(QLatin1Char('|'));
            for (int i = 0; i < out.snapshot.nodes.size(); ++i) {
                const Node& node = out.snapshot.nodes.at(i);
                if (node.detailed)
                    continue;
                const bool sameHandle = cached && !node.handle.isEmpty() && node.handle == cached->node.handle;
                const bool sameText = parts.size() >= 2 && node.role == parts.at(0) && node.title == parts.at(1);
                if ((sameHandle || sameText) && indexes.size() < 200)
                    indexes.append(i);
            }
            if (!indexes.isEmpty()) {
                const auto done = ctx.backend.completeNodes(out.snapshot, indexes, ctx.call);
                if (!done)
                    return done.error();
            }
        }
        if (auto err = writeTree(ctx, out.snapshot))
            return *err;
        // The same element (same backend handle) with the same fingerprint.
        if (cached) {
            for (const auto& node : out.snapshot.nodes) {
                if (node.handle == cached->node.handle && !node.handle.isEmpty()) {
                    if (wanted.isEmpty() || fingerprintOf(node) == wanted) {
                        out.node = node;
                        out.via = QStringLiteral("elementRef");
                        step.finish(true, QJsonObject{{QStringLiteral("elementId"), ref.elementId}});
                        return out;
                    }
                    break;
                }
            }
        }
        // Re-resolve once: a unique element of the fresh snapshot with the same fingerprint.
        QList<int> same;
        for (int i = 0; i < out.snapshot.nodes.size(); ++i) {
            if (!wanted.isEmpty() && fingerprintOf(out.snapshot.nodes.at(i)) == wanted)
                same.append(i);
        }
        if (same.size() == 1) {
            out.node = out.snapshot.nodes.at(same.first());
            out.via = QStringLiteral("elementRef:reresolved");
            step.finish(true, QJsonObject{{QStringLiteral("elementId"), ref.elementId},
                                          {QStringLiteral("reresolvedTo"), out.node.elementId}});
            return out;
        }
        if (!target.selector) {
            QJsonObject details{{QStringLiteral("elementId"), ref.elementId},
                                {QStringLiteral("fingerprint"), wanted},
                                {QStringLiteral("known"), cached.has_value()},
                                {QStringLiteral("sameFingerprintCount"), static_cast<int>(same.size())}};
            QString what =
                cached ? QStringLiteral("the element is gone") : QStringLiteral("the elementId is unknown or expired");
            if (cached) {
                for (const auto& node : out.snapshot.nodes) {
                    if (node.handle == cached->node.handle && !node.handle.isEmpty()) {
                        what = QStringLiteral("the element changed: ") + describeFingerprintChange(cached->node, node);
                        details.insert(QStringLiteral("currentFingerprint"), fingerprintOf(node));
                        break;
                    }
                }
            }
            if (same.size() > 1)
                what = QStringLiteral("%1 elements now share the fingerprint").arg(same.size());
            details.insert(QStringLiteral("change"), what);
            step.finish(false, details);
            return Error::make(
                ErrorCode::StaleSnapshot,
                QStringLiteral("elementRef %1 is stale: %2; observe or find again").arg(ref.elementId, what), details);
        }
        step.finish(false, QJsonObject{{QStringLiteral("fallback"), QStringLiteral("selector")}});
    }

    Step step(ctx.record, QStringLiteral("target.selector"));
    auto searched = search(ctx, out.snapshot, *target.selector);
    if (!searched)
        return searched.error();
    out.candidates = searched.value();
    if (!target.elementRef) {
        if (auto err = writeTree(ctx, out.snapshot))
            return *err;
    }
    if (auto err = writeCandidates(ctx, out.snapshot, *target.selector, out.candidates, target.selectorJson))
        return *err;
    if (out.candidates.isEmpty()) {
        QJsonObject details{{QStringLiteral("selector"), target.selectorJson},
                            {QStringLiteral("nodeCount"), static_cast<int>(out.snapshot.nodes.size())},
                            {QStringLiteral("truncated"), out.snapshot.truncated}};
        step.finish(false, details);
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no element matches the selector"), details);
    }
    out.node = out.snapshot.nodes.at(out.candidates.first().nodeIndex);
    out.via = QStringLiteral("selector");
    step.finish(true, QJsonObject{{QStringLiteral("elementId"), out.node.elementId},
                                  {QStringLiteral("matched"), static_cast<int>(out.candidates.size())}});
    return out;
}

// An error from the step that injects input may come after the input reached the app:
// never retryable (docs/architecture.md, "Honest outcomes").
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

// The honest-outcome fields of a side-effect answer: `effect`, `verification`, timing.verifyMs.
void insertVerification(QJsonObject& result, const Verification& verification)
{
    result.insert(QStringLiteral("effect"), effectName(verification.effect));
    QJsonObject details = verification.toJson();
    details.remove(QStringLiteral("effect"));
    result.insert(QStringLiteral("verification"), details);
    QJsonObject timing = result.value(QStringLiteral("timing")).toObject();
    timing.insert(QStringLiteral("verifyMs"), verification.verifyMs);
    result.insert(QStringLiteral("timing"), timing);
}

// How many pixels of `frame` differ between two screenshots (a pointer click's evidence).
std::optional<QJsonObject> pixelDiff(const QByteArray& beforePng, const QByteArray& afterPng, const Frame& frame)
{
    QImage before, after;
    if (!before.loadFromData(beforePng, "PNG") || !after.loadFromData(afterPng, "PNG") || before.size() != after.size())
        return std::nullopt;
    const QRect area = QRect(frame.x, frame.y, frame.width, frame.height).intersected(before.rect());
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

QString textDigest(const QString& text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

} // namespace

SnapshotBounds searchBounds(const CallContext& call, bool includeText)
{
    SnapshotBounds bounds;
    bounds.maxDepth = 64;
    bounds.maxNodes = 20000;
    bounds.maxWallTimeMs = static_cast<int>(std::min<qint64>(call.remainingMs(), 30000));
    bounds.includeText = includeText;
    return bounds;
}

JobFunction observe(ObserveParams params)
{
    return [params](JobContext& ctx) -> Result<QJsonObject> {
        auto route = resolveRoute(ctx, params.route, false);
        if (!route)
            return route.error();
        QJsonObject result = baseResult(ctx);
        result.insert(QStringLiteral("routeResolved"), route->toJson());
        QJsonObject ev;
        QJsonObject timing;
        std::optional<Snapshot> snapshot;
        if (params.includeAxTree) {
            auto snap = takeSnapshot(ctx, route.value(), params.bounds);
            if (!snap)
                return snap.error();
            snapshot = snap.value();
            timing.insert(QStringLiteral("axTreeAt"), snapshot->takenAt.toString(Qt::ISODateWithMs));
            timing.insert(QStringLiteral("axTreeMs"), snapshot->elapsedMs);
            result.insert(QStringLiteral("axTree"), snapshot->metadataJson());
        }
        // The screenshot right after the tree, so both describe the same moment as closely as
        // the tree's traversal allows (plan 2.4); the skew is recorded. ax.json is written on
        // another thread meanwhile (the record is thread-safe): its timing is known up front.
        const QDateTime before = QDateTime::currentDateTimeUtc();
        if (params.includeScreenshot) {
            timing.insert(QStringLiteral("screenshotAt"), before.toString(Qt::ISODateWithMs));
            if (snapshot)
                timing.insert(QStringLiteral("skewMs"), snapshot->takenAt.msecsTo(before));
        }
        std::future<std::optional<Error>> tree;
        if (snapshot) {
            tree = std::async(std::launch::async, [&ctx, &snapshot, timing] {
                return writeTree(ctx, *snapshot, QJsonObject{{QStringLiteral("timing"), timing}});
            });
            ev.insert(QStringLiteral("axPath"), QStringLiteral("ax.json"));
        }
        if (params.includeScreenshot) {
            auto shot = screenshotTo(ctx, QStringLiteral("observe.png"));
            if (tree.valid())
                tree.wait();
            if (!shot)
                return shot.error();
            ev.insert(QStringLiteral("screenshotPath"), shot.value());
        }
        if (tree.valid()) {
            if (auto err = tree.get())
                return *err;
        }
        result.insert(QStringLiteral("timing"), timing);
        result.insert(QStringLiteral("evidence"), evidence(ctx, ev));
        return result;
    };
}

JobFunction find(FindParams params)
{
    return [params](JobContext& ctx) -> Result<QJsonObject> {
        auto route = resolveRoute(ctx, params.route, false);
        if (!route)
            return route.error();
        SnapshotBounds bounds = searchBounds(ctx.call, params.selector.needsText());
        bounds.searchOnly = true;
        auto snapshot = takeSnapshot(ctx, route.value(), bounds);
        if (!snapshot)
            return snapshot.error();
        const auto searched = search(ctx, snapshot.value(), params.selector);
        if (!searched)
            return searched.error();
        const QList<Candidate>& candidates = searched.value();
        if (auto err = writeTree(ctx, snapshot.value()))
            return *err;
        if (auto err = writeCandidates(ctx, snapshot.value(), params.selector, candidates, params.selectorJson))
            return *err;
        QJsonArray refs;
        for (int i = 0; i < candidates.size() && i < params.selector.limit; ++i)
            refs.append(ElementRef::fromNode(snapshot->nodes.at(candidates.at(i).nodeIndex)).toJson());
        QJsonObject result = baseResult(ctx);
        result.insert(QStringLiteral("elementRefs"), refs);
        result.insert(QStringLiteral("matched"), static_cast<int>(candidates.size()));
        result.insert(QStringLiteral("routeResolved"), route->toJson());
        result.insert(QStringLiteral("truncated"), snapshot->truncated);
        result.insert(QStringLiteral("evidence"),
                      evidence(ctx, QJsonObject{{QStringLiteral("axPath"), QStringLiteral("ax.json")},
                                                {QStringLiteral("candidatesPath"),
                                                 QStringLiteral("selectors/candidates.json")}}));
        return result;
    };
}

JobFunction click(ClickParams params)
{
    return [params](JobContext& ctx) -> Result<QJsonObject> {
        Route routeSpec = params.route;
        // A cached elementRef names its app: without an explicit route, act there.
        if (params.target.elementRef && !routeSpec.bundleId && !routeSpec.pid) {
            if (const auto cached = ctx.elements.find(params.target.elementRef->elementId))
                routeSpec.pid = cached->route.pid;
        }
        auto route = resolveRoute(ctx, routeSpec, true);
        if (!route)
            return route.error();
        auto target = resolveTarget(ctx, route.value(), params.target);
        if (!target)
            return target.error();
        const Node& node = target->node;
        QJsonObject ev{{QStringLiteral("beforeScreenshot"), QJsonValue()},
                       {QStringLiteral("afterScreenshot"), QJsonValue()}};
        if (auto stop = ctx.call.checkpoint())
            return *stop;

        Result<ActionOutcome> outcome = Error::make(ErrorCode::InternalError, QStringLiteral("no click attempted"));
        {
            Step step(ctx.record, QStringLiteral("click.press"));
            outcome = ctx.backend.press(route.value(), node, ctx.call);
            step.finish(outcome.ok(),
                        outcome.ok() ? QJsonObject{{QStringLiteral("details"), outcome->details},
                                                   {QStringLiteral("verification"), outcome->verification.toJson()}}
                                     : outcome.error().toJson());
        }
        const bool noAction = !outcome && outcome.error().details.value(QStringLiteral("reason")) ==
                                              QJsonValue(QStringLiteral("no_action"));
        if (noAction && params.allowCoordinateFallback) {
            if (node.frame.isEmpty())
                return Error::make(ErrorCode::ElementNotFound,
                                   QStringLiteral("the element has no action and no on-screen frame to click"),
                                   QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_frame")},
                                               {QStringLiteral("element"), ElementRef::fromNode(node).toJson()}});
            // Coordinates are the last resort (plan 2.2): always with before/after evidence.
            QByteArray beforePng, afterPng;
            auto before = screenshotTo(ctx, QStringLiteral("before.png"), &beforePng);
            if (!before)
                return before.error();
            ev.insert(QStringLiteral("beforeScreenshot"), before.value());
            if (auto stop = ctx.call.checkpoint())
                return *stop;
            Step step(ctx.record, QStringLiteral("click.pointer"));
            outcome = ctx.backend.clickAt(route.value(), node.frame.center(), ctx.call, &node);
            step.finish(outcome.ok(), outcome.ok() ? outcome->verification.toJson() : outcome.error().toJson());
            if (!outcome)
                return afterDelivery(outcome.error());
            auto after = screenshotTo(ctx, QStringLiteral("after.png"), &afterPng);
            if (!after)
                return afterDelivery(after.error());
            ev.insert(QStringLiteral("afterScreenshot"), after.value());
            // The pointer's own evidence: did the element's pixels change?
            if (const auto diff = pixelDiff(beforePng, afterPng, node.frame)) {
                Verification& v = outcome->verification;
                v.observed.insert(QStringLiteral("pixelDiff"), *diff);
                // Pixels alone do not confirm: the pointer's hover changes them too. They do
                // mean "not nothing", so a no-op becomes unverifiable.
                if (v.effect == Effect::SuspectedNoop && diff->value(QStringLiteral("changedPixels")).toInteger() > 0) {
                    v.effect = Effect::Unverifiable;
                    v.reason =
                        QStringLiteral("only the element's pixels changed, which the pointer's hover alone can do");
                }
            }
        }
        if (!outcome)
            return noAction ? outcome.error() : afterDelivery(outcome.error());
        QJsonObject result = baseResult(ctx);
        const Verification& verification = outcome->verification;
        result.insert(QStringLiteral("clicked"), effectCountsAsDone(verification.effect));
        result.insert(QStringLiteral("deliveredBy"), outcome->deliveredBy);
        result.insert(QStringLiteral("verified"), verification.effect == Effect::Confirmed);
        insertVerification(result, verification);
        result.insert(QStringLiteral("target"), ElementRef::fromNode(node).toJson());
        result.insert(QStringLiteral("targetResolvedVia"), target->via);
        result.insert(QStringLiteral("routeResolved"), route->toJson());
        result.insert(QStringLiteral("evidence"), evidence(ctx, ev));
        return result;
    };
}

JobFunction typeText(TypeTextParams params)
{
    return [params](JobContext& ctx) -> Result<QJsonObject> {
        Route routeSpec = params.route;
        if (params.target && params.target->elementRef && !routeSpec.bundleId && !routeSpec.pid) {
            if (const auto cached = ctx.elements.find(params.target->elementRef->elementId))
                routeSpec.pid = cached->route.pid;
        }
        auto route = resolveRoute(ctx, routeSpec, true);
        if (!route)
            return route.error();
        std::optional<ResolvedTarget> target;
        if (params.target) {
            auto resolved = resolveTarget(ctx, route.value(), *params.target);
            if (!resolved)
                return resolved.error();
            target = resolved.value();
        }
        if (auto stop = ctx.call.checkpoint())
            return *stop;
        // The text itself never reaches the trace, only its length and digest; and text typed
        // into a secure element is never kept in request.json, whatever the settings say
        // (docs/architecture.md, "Secure elements").
        const QJsonObject textInfo{{QStringLiteral("length"), static_cast<int>(params.text.size())},
                                   {QStringLiteral("sha256"), textDigest(params.text)}};
        if (target && target->node.isSecure()) {
            QJsonObject redacted = textInfo;
            redacted.insert(QStringLiteral("redacted"), true);
            redacted.insert(QStringLiteral("reason"), QStringLiteral("secure_element"));
            if (auto err = ctx.record.redactRequestParam(QStringLiteral("text"), redacted))
                return Error::make(ErrorCode::InternalError,
                                   QStringLiteral("cannot rewrite request.json: %1").arg(*err));
        }
        Step step(ctx.record, QStringLiteral("type"));
        auto outcome = ctx.backend.typeText(route.value(), target ? &target->node : nullptr, params.text,
                                            TypeOptions{params.clearBefore}, ctx.call);
        if (!outcome) {
            step.finish(false, outcome.error().toJson());
            return afterDelivery(outcome.error());
        }
        step.finish(true, QJsonObject{{QStringLiteral("path"), outcome->path},
                                      {QStringLiteral("text"), textInfo},
                                      {QStringLiteral("readBack"), outcome->readBack},
                                      {QStringLiteral("verification"), outcome->verification.toJson()}});
        // The delivery ladder, one trace line per path tried.
        for (const auto& path : outcome->verification.paths) {
            const QJsonObject p = path.toObject();
            ctx.record.trace(QStringLiteral("type.path:") + p.value(QStringLiteral("path")).toString(), 0,
                             p.value(QStringLiteral("effect")).toString() == QLatin1String("confirmed"), p);
        }
        QJsonObject result = baseResult(ctx);
        result.insert(QStringLiteral("typed"), effectCountsAsDone(outcome->verification.effect));
        insertVerification(result, outcome->verification);
        result.insert(QStringLiteral("path"), outcome->path);
        result.insert(QStringLiteral("readBack"), outcome->readBack);
        result.insert(QStringLiteral("matched"), outcome->matched ? QJsonValue(*outcome->matched) : QJsonValue());
        result.insert(QStringLiteral("text"), textInfo);
        if (!outcome->details.isEmpty())
            result.insert(QStringLiteral("delivery"), outcome->details);
        if (target) {
            result.insert(QStringLiteral("target"), ElementRef::fromNode(target->node).toJson());
            result.insert(QStringLiteral("targetResolvedVia"), target->via);
        }
        result.insert(QStringLiteral("routeResolved"), route->toJson());
        result.insert(QStringLiteral("evidence"), evidence(ctx));
        return result;
    };
}

JobFunction hotkey(HotkeyParams params)
{
    return [params](JobContext& ctx) -> Result<QJsonObject> {
        auto route = resolveRoute(ctx, params.route, true);
        if (!route)
            return route.error();
        if (auto stop = ctx.call.checkpoint())
            return *stop;
        Step step(ctx.record, QStringLiteral("hotkey"));
        auto outcome = ctx.backend.sendChord(route.value(), params.chord, params.delayMs, ctx.call);
        if (!outcome) {
            step.finish(false, outcome.error().toJson());
            return afterDelivery(outcome.error());
        }
        step.finish(true, QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(params.chord.names())},
                                      {QStringLiteral("verification"), outcome->verification.toJson()}});
        QJsonObject result = baseResult(ctx);
        result.insert(QStringLiteral("sent"), effectCountsAsDone(outcome->verification.effect));
        insertVerification(result, outcome->verification);
        result.insert(QStringLiteral("keys"), QJsonArray::fromStringList(params.chord.names()));
        result.insert(QStringLiteral("deliveredBy"), outcome->deliveredBy);
        result.insert(QStringLiteral("routeResolved"), route->toJson());
        result.insert(QStringLiteral("evidence"), evidence(ctx));
        return result;
    };
}

JobFunction waitUntil(WaitUntilParams params)
{
    return [params](JobContext& ctx) -> Result<QJsonObject> {
        QElapsedTimer elapsed;
        elapsed.start();
        int polls = 0;
        std::optional<Snapshot> last;
        QList<Candidate> candidates;
        std::optional<Error> lastError;
        while (true) {
            if (auto stop = ctx.call.checkpoint())
                return *stop;
            ++polls;
            auto route = ctx.backend.resolveRoute(params.route, ctx.call);
            if (route) {
                SnapshotBounds bounds = searchBounds(ctx.call, params.selector.needsText());
                bounds.searchOnly = true;
                auto snapshot = takeSnapshot(ctx, route.value(), bounds);
                auto searched = snapshot ? search(ctx, snapshot.value(), params.selector)
                                         : Result<QList<Candidate>>(snapshot.error());
                if (searched) {
                    candidates = searched.value();
                    last = snapshot.value();
                    lastError.reset();
                    if (!candidates.isEmpty())
                        break;
                } else if (searched.error().code == ErrorCode::Aborted || searched.error().code == ErrorCode::Timeout) {
                    return searched.error();
                } else {
                    lastError = searched.error();
                }
            } else {
                // The app may not be there yet: waiting for it is part of waiting.
                lastError = route.error();
            }
            const qint64 left = params.timeoutMs - elapsed.elapsed();
            if (left <= 0) {
                if (last) {
                    if (auto err = writeTree(ctx, *last))
                        return *err;
                }
                QJsonObject details{{QStringLiteral("timeoutMs"), params.timeoutMs},
                                    {QStringLiteral("elapsedMs"), elapsed.elapsed()},
                                    {QStringLiteral("polls"), polls},
                                    {QStringLiteral("matched"), 0}};
                if (lastError)
                    details.insert(QStringLiteral("lastError"), lastError->toJson());
                return Error::make(ErrorCode::Timeout,
                                   QStringLiteral("the condition did not hold within %1 ms").arg(params.timeoutMs),
                                   details);
            }
            // Sleep in short slices so an abort or the request deadline ends the wait at once.
            QDeadlineTimer nap(std::min<qint64>(params.pollMs, left));
            while (!nap.hasExpired() && !ctx.call.checkpoint())
                QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(nap.remainingTime(), 1, 10)));
        }
        if (auto err = writeTree(ctx, *last))
            return *err;
        if (auto err = writeCandidates(ctx, *last, params.selector, candidates, params.selectorJson))
            return *err;
        QJsonObject result = baseResult(ctx);
        result.insert(QStringLiteral("ok"), true);
        result.insert(QStringLiteral("matched"), static_cast<int>(candidates.size()));
        result.insert(QStringLiteral("elapsedMs"), elapsed.elapsed());
        result.insert(QStringLiteral("polls"), polls);
        result.insert(QStringLiteral("evidence"),
                      evidence(ctx, QJsonObject{{QStringLiteral("axPath"), QStringLiteral("ax.json")}}));
        return result;
    };
}

InspectFunction secureTarget(TypeTextParams params)
{
    return [params = std::move(params)](DesktopBackend& backend, const ElementCache& elements,
                                        const CallContext& call) -> Result<QJsonObject> {
        const auto answer = [](bool secure, const QString& why, const Node* node = nullptr) {
            QJsonObject out{{QStringLiteral("secure"), secure}, {QStringLiteral("why"), why}};
            if (node)
                out.insert(QStringLiteral("role"), node->role);
            return out;
        };
        Route routeSpec = params.route;
        std::optional<ElementCache::Entry> cached;
        if (params.target && params.target->elementRef) {
            cached = elements.find(params.target->elementRef->elementId);
            if (cached && cached->node.isSecure())
                return answer(true, QStringLiteral("elementRef"), &cached->node);
            if (cached && !routeSpec.bundleId && !routeSpec.pid)
                routeSpec.pid = cached->route.pid;
        }
        auto route = backend.resolveRoute(routeSpec, call);
        if (!route)
            return route.error();

        if (!params.target) {
            // Untargeted text goes to the focused element: look at it now.
            SnapshotBounds bounds = searchBounds(call, false);
            auto snapshot = backend.snapshot(route.value(), bounds, call);
            if (!snapshot)
                return snapshot.error();
            for (const Node& node : snapshot->nodes) {
                if (node.has(StateFocused))
                    return answer(node.isSecure(), QStringLiteral("focused"), &node);
            }
            return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no element of the window has focus"));
        }

        SnapshotBounds bounds = searchBounds(call, params.target->selector && params.target->selector->needsText());
        bounds.searchOnly = true;
        auto snapshot = backend.snapshot(route.value(), bounds, call);
        if (!snapshot)
            return snapshot.error();
        if (cached) {
            for (const Node& node : snapshot->nodes) {
                if (!node.handle.isEmpty() && node.handle == cached->node.handle)
                    return answer(node.isSecure(), QStringLiteral("elementRef"), &node);
            }
        }
        if (!params.target->selector)
            return Error::make(ErrorCode::StaleSnapshot, QStringLiteral("the elementRef's element is not there"));
        // Every element the selector could land on, before states narrow it down: typing into
        // any of them must not show the text.
        Selector loose = *params.target->selector;
        loose.enabledOnly = loose.visibleOnly = false;
        const QList<Candidate> candidates = SelectorEngine::match(snapshot.value(), loose);
        if (candidates.isEmpty())
            return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no element matches the selector"));
        for (const Candidate& candidate : candidates) {
            const Node& node = snapshot->nodes.at(candidate.nodeIndex);
            if (node.isSecure())
                return answer(true, QStringLiteral("selector"), &node);
        }
        return answer(false, QStringLiteral("selector"), &snapshot->nodes.at(candidates.first().nodeIndex));
    };
}

} // namespace Bridge::Methods
