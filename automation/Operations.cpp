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

// A screenshot given to the trace under `name`; the step says its size and time.
Result<Screenshot> screenshotStep(JobContext& ctx, const QString& name)
{
    TraceStep step(ctx.trace, QStringLiteral("screenshot:") + name);
    auto shot = ctx.backend.screenshot(ctx.call);
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

namespace {

QString textDigest(const QString& text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

// Keys into a window without accessibility have no other evidence than its pixels: a screenshot
// before (nullopt for any other window) and, after the input, the difference over the window's
// frame in the verification, as for a pointer gesture.
Result<std::optional<Screenshot>> bareBefore(JobContext& ctx, const ResolvedRoute& route)
{
    if (!route.inaccessible)
        return std::optional<Screenshot>();
    auto shot = screenshotStep(ctx, QStringLiteral("before.png"));
    if (!shot)
        return shot.error();
    return std::optional<Screenshot>(std::move(shot.value()));
}

void bareAfter(JobContext& ctx, const ResolvedRoute& route, const std::optional<Screenshot>& before,
               Verification& verification)
{
    if (!before)
        return;
    auto after = screenshotStep(ctx, QStringLiteral("after.png"));
    if (!after)
        return; // the input was sent: its answer is not lost to a failed screenshot
    if (const auto diff = pixelDiff(before->png, after->png, route.nativeFrame))
        verification.observed.insert(QStringLiteral("pixelDiff"), *diff);
}

} // namespace

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

Result<FindResult> find(JobContext& ctx, const FindRequest& request)
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

Result<ClickResult> click(JobContext& ctx, const ClickRequest& request)
{
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
        auto before = screenshotStep(ctx, QStringLiteral("before.png"));
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
        auto after = screenshotStep(ctx, QStringLiteral("after.png"));
        if (!after)
            return afterDelivery(after.error());
        out.afterImage = QStringLiteral("after.png");
        // The pointer's own evidence: did the element's pixels change?
        if (const auto diff = pixelDiff(before->png, after->png, node.frame)) {
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

Result<TypeResult> typeText(JobContext& ctx, const TypeRequest& request)
{
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
    // The text itself never reaches the trace, only its length and digest; and text typed into
    // a secure element is forgotten by whatever kept it, whatever the settings say
    // (docs/architecture.md, "Secure elements").
    out.textInfo = QJsonObject{{QStringLiteral("length"), static_cast<int>(request.text.size())},
                               {QStringLiteral("sha256"), textDigest(request.text)}};
    if (out.target && out.target->node.isSecure()) {
        QJsonObject redacted = out.textInfo;
        redacted.insert(QStringLiteral("redacted"), true);
        redacted.insert(QStringLiteral("reason"), QStringLiteral("secure_element"));
        if (auto err = ctx.trace.forgetSecureText(redacted))
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
        QJsonObject redacted = out.textInfo;
        redacted.insert(QStringLiteral("redacted"), true);
        redacted.insert(QStringLiteral("reason"), QStringLiteral("secure_element"));
        if (auto err = ctx.trace.forgetSecureText(redacted))
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

namespace {

// One poll of a wait: the route's window read at most once, shared by every condition.
class WaitPoll
{
public:
    WaitPoll(JobContext& ctx, Locator& locator, const WaitRequest& request)
        : m_ctx(ctx), m_locator(locator), m_request(request)
    {
    }

    /// Whether `condition` holds now; `json` gets its state. An error that ends the wait
    /// (aborted, timed out) is returned in `fatal`.
    bool evaluate(const WaitCondition& condition, QJsonObject* json)
    {
        using Kind = WaitCondition::Kind;
        json->insert(QStringLiteral("kind"), WaitCondition::kindName(condition.kind));
        bool holds = false;
        switch (condition.kind) {
        case Kind::All:
        case Kind::Any: {
            QJsonArray children;
            int held = 0;
            // `matched` comes from a condition that decided: what a branch that did not hold
            // found is forgotten again.
            const WaitCondition* heldBefore = heldBy;
            const QList<Candidate> candidatesBefore = heldCandidates;
            for (const WaitCondition& child : condition.children) {
                QJsonObject c;
                const WaitCondition* beforeChild = heldBy;
                const QList<Candidate> candidatesBeforeChild = heldCandidates;
                if (evaluate(child, &c)) {
                    ++held;
                } else {
                    heldBy = beforeChild;
                    heldCandidates = candidatesBeforeChild;
                }
                children.append(c);
                if (fatal)
                    break;
            }
            json->insert(QStringLiteral("children"), children);
            holds = condition.kind == Kind::All ? held == condition.children.size() : held > 0;
            if (!holds) {
                heldBy = heldBefore;
                heldCandidates = candidatesBefore;
            }
            break;
        }
        case Kind::WindowExists:
        case Kind::WindowGone: {
            Route route = m_request.route;
            route.windowTitlePattern = condition.pattern;
            auto resolved = m_ctx.backend.resolveRoute(route, m_ctx.call);
            if (!resolved && isFatal(resolved.error())) {
                fatal = resolved.error();
                break;
            }
            // Not found is an answer; any other error (a hung app) says neither.
            if (!resolved && resolved.error().code != ErrorCode::ElementNotFound) {
                lastError = resolved.error();
                break;
            }
            const bool exists = resolved.ok();
            if (exists)
                json->insert(QStringLiteral("window"), resolved->windowTitle);
            holds = condition.kind == Kind::WindowExists ? exists : !exists;
            break;
        }
        default:
            holds = evaluateElements(condition, json);
            break;
        }
        json->insert(QStringLiteral("satisfied"), holds);
        return holds;
    }

    std::optional<Error> fatal;
    std::optional<Error> lastError;
    std::optional<Snapshot> snapshot;
    std::optional<ResolvedRoute> routeSeen; ///< the route's app, when it was found
    QList<Candidate> heldCandidates;        ///< of the first element condition that held
    const WaitCondition* heldBy = nullptr;

private:
    // Ends the wait: aborted, out of time, or a request this backend can never answer.
    static bool isFatal(const Error& error)
    {
        return error.code == ErrorCode::Aborted || error.code == ErrorCode::Timeout ||
               error.code == ErrorCode::InvalidRequest;
    }
    static bool selectorsNeedText(const WaitCondition& condition)
    {
        if (condition.selector && condition.selector->needsText())
            return true;
        return std::any_of(condition.children.cbegin(), condition.children.cend(),
                           [](const WaitCondition& c) { return selectorsNeedText(c); });
    }

    static bool selectorsNeedDescription(const WaitCondition& condition)
    {
        if (condition.selector && condition.selector->needsDescription())
            return true;
        return std::any_of(condition.children.cbegin(), condition.children.cend(),
                           [](const WaitCondition& c) { return selectorsNeedDescription(c); });
    }

    // The route's window, read once per poll (search-only; details and text are read for
    // candidates only). False when it cannot be read now (the app may not be there yet).
    bool readWindow()
    {
        if (m_read)
            return snapshot.has_value();
        m_read = true;
        auto route = m_ctx.backend.resolveRoute(m_request.route, m_ctx.call);
        if (route)
            routeSeen = route.value();
        if (!route) {
            if (isFatal(route.error()))
                fatal = route.error();
            lastError = route.error();
            // Gone only when the app or window is not there; a hung app is not gone.
            m_windowGone = route.error().code == ErrorCode::ElementNotFound;
            return false;
        }
        // Text is read for every node only when a selector matches on values; the text and
        // value conditions read their candidates' text afterwards.
        SnapshotBounds bounds = searchBounds(m_ctx.call, selectorsNeedText(m_request.condition));
        bounds.includeDescription = selectorsNeedDescription(m_request.condition);
        bounds.refresh = m_request.refresh;
        bounds.searchOnly = true;
        auto snap = m_locator.snapshot(route.value(), bounds);
        if (!snap) {
            if (isFatal(snap.error()))
                fatal = snap.error();
            lastError = snap.error();
            return false;
        }
        snapshot = std::move(snap.value());
        return true;
    }

    bool evaluateElements(const WaitCondition& condition, QJsonObject* json)
    {
        using Kind = WaitCondition::Kind;
        if (!readWindow()) {
            // No window to look in: its elements are gone, and nothing else can be said.
            const bool gone = condition.kind == Kind::SelectorGone && m_windowGone && !fatal;
            json->insert(QStringLiteral("matched"), 0);
            return gone;
        }
        auto searched = m_locator.search(*snapshot, *condition.selector);
        if (!searched) {
            if (isFatal(searched.error()))
                fatal = searched.error();
            lastError = searched.error();
            return false;
        }
        QList<Candidate> matching = searched.value();
        json->insert(QStringLiteral("matched"), static_cast<int>(matching.size()));
        if (condition.kind == Kind::TextMatches || condition.kind == Kind::ValueEquals) {
            QList<int> unread;
            for (const Candidate& c : matching) {
                const Node& node = snapshot->nodes.at(c.nodeIndex);
                if (!node.hasValue && !node.isSecure())
                    unread.append(c.nodeIndex);
            }
            if (!unread.isEmpty()) {
                if (const auto read = m_ctx.backend.readTexts(*snapshot, unread, m_ctx.call); !read) {
                    if (isFatal(read.error()))
                        fatal = read.error();
                    lastError = read.error();
                    return false;
                }
            }
        }
        // Never a secure element's text or value.
        matching.removeIf([&](const Candidate& c) {
            const Node& node = snapshot->nodes.at(c.nodeIndex);
            switch (condition.kind) {
            case Kind::TextMatches:
                return node.isSecure() ||
                       !condition.regex.match(node.hasValue && !node.value.isEmpty() ? node.value : node.title)
                            .hasMatch();
            case Kind::ValueEquals:
                return node.isSecure() || !node.hasValue || node.value != condition.value;
            case Kind::Focused:
                return !node.has(StateFocused);
            case Kind::Enabled:
                return !node.has(StateEnabled);
            default:
                return false;
            }
        });
        const bool holds = condition.kind == Kind::SelectorGone ? matching.isEmpty() : !matching.isEmpty();
        if (holds && condition.kind != Kind::SelectorGone && !heldBy) {
            heldBy = &condition;
            heldCandidates = matching;
        }
        return holds;
    }

    JobContext& m_ctx;
    Locator& m_locator;
    const WaitRequest& m_request;
    bool m_read = false;
    bool m_windowGone = false;
};

} // namespace

Result<WaitResult> waitUntil(JobContext& ctx, const WaitRequest& request)
{
    Locator locator(ctx);
    QElapsedTimer elapsed;
    elapsed.start();
    int polls = 0;
    int eventWakes = 0;
    int timerWakes = 0;
    bool eventsHeard = false; ///< the backend can tell when the app changes
    QString wokenBy = QStringLiteral("start");
    std::optional<Snapshot> last;
    std::optional<Error> lastError;
    std::optional<ResolvedRoute> watched;
    QJsonObject state;
    const auto wakeJson = [&] {
        return QJsonObject{{QStringLiteral("events"), eventWakes},
                           {QStringLiteral("timer"), timerWakes},
                           {QStringLiteral("by"), eventsHeard ? QStringLiteral("events") : QStringLiteral("polling")},
                           {QStringLiteral("last"), wokenBy}};
    };
    while (true) {
        if (auto stop = ctx.call.checkpoint())
            return *stop;
        ++polls;
        WaitPoll poll(ctx, locator, request);
        state = {};
        const bool holds = poll.evaluate(request.condition, &state);
        if (poll.fatal)
            return *poll.fatal;
        if (poll.snapshot)
            last = poll.snapshot;
        if (poll.routeSeen)
            watched = poll.routeSeen;
        lastError = holds ? std::nullopt : poll.lastError;
        if (holds) {
            if (last) {
                if (auto err = ctx.trace.keepTree(*last))
                    return *err;
                if (poll.heldBy) {
                    if (auto err = ctx.trace.keepCandidates(*last, *poll.heldBy->selector, poll.heldCandidates,
                                                            poll.heldBy->selectorJson))
                        return *err;
                }
            }
            return WaitResult{std::move(last), std::move(poll.heldCandidates), elapsed.elapsed(), polls, state,
                              wakeJson()};
        }
        const qint64 left = request.timeoutMs - elapsed.elapsed();
        if (left <= 0) {
            if (last) {
                if (auto err = ctx.trace.keepTree(*last))
                    return *err;
            }
            QJsonObject details{{QStringLiteral("timeoutMs"), request.timeoutMs},
                                {QStringLiteral("elapsedMs"), elapsed.elapsed()},
                                {QStringLiteral("polls"), polls},
                                {QStringLiteral("wake"), wakeJson()},
                                {QStringLiteral("matched"), state.value(QStringLiteral("matched")).toInt(0)},
                                {QStringLiteral("conditions"), state}};
            if (lastError)
                details.insert(QStringLiteral("lastError"), lastError->toJson());
            return Error::make(ErrorCode::Timeout,
                               QStringLiteral("the condition did not hold within %1 ms").arg(request.timeoutMs),
                               details);
        }
        // Until the next look: the poll interval, or sooner when the app reports a change (an
        // accessibility event) where the backend hears them; a toolkit that says nothing is
        // looked at on the timer. Never more often than every 50 ms.
        QElapsedTimer sinceLook;
        sinceLook.start();
        const qint64 napMs = std::min<qint64>(request.pollMs, left);
        ChangeWait woke = ChangeWait::Unsupported;
        if (watched) {
            woke = ctx.backend.waitForChange(*watched, napMs, ctx.call);
        } else {
            // No app to listen to (not there yet): the timer.
            QDeadlineTimer nap(napMs);
            while (!nap.hasExpired() && !ctx.call.checkpoint())
                QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(nap.remainingTime(), 1, 10)));
        }
        eventsHeard = eventsHeard || woke != ChangeWait::Unsupported;
        if (woke == ChangeWait::Changed) {
            ++eventWakes;
            wokenBy = QStringLiteral("event");
            QDeadlineTimer floor(std::max<qint64>(0, 50 - sinceLook.elapsed()));
            while (!floor.hasExpired() && !ctx.call.checkpoint())
                QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(floor.remainingTime(), 1, 10)));
        } else {
            ++timerWakes;
            wokenBy = QStringLiteral("timer");
        }
    }
}

Result<SecureLook> secureTarget(JobContext& ctx, const TypeRequest& request)
{
    // Filled in once the route is resolved; the node's frame is read when the look has time.
    ResolvedRoute resolved;
    int matched = 0;
    const auto answer = [&resolved, &matched, &ctx](bool secure, const QString& why, const Node* node = nullptr,
                                                    Snapshot* snapshot = nullptr, int index = -1) {
        SecureLook look{secure,
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
    auto route = ctx.backend.resolveRoute(routeSpec, ctx.call);
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
