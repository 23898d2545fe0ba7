#include "automation/Locator.h"

#include "automation/SelectorEngine.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace Automation {

Result<DisplayInfo> findDisplay(DesktopBackend& backend, const QString& id, const CallContext& call)
{
    auto displays = backend.displays(call);
    if (!displays)
        return displays.error();
    QJsonArray attached;
    for (const DisplayInfo& display : displays.value()) {
        if (display.id == id)
            return display;
        attached.append(display.id);
    }
    return Error::make(ErrorCode::ElementNotFound,
                       QStringLiteral("no display \"%1\" is attached (desktop.displays lists them)").arg(id),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("display_not_found")},
                                   {QStringLiteral("display"), id},
                                   {QStringLiteral("displays"), attached}})
        .withRetryable(false);
}

void placeOnDisplays(QList<WindowInfo>& windows, const QList<DisplayInfo>& displays)
{
    for (WindowInfo& window : windows) {
        if (const DisplayInfo* on = displayOf(displays, window.frame))
            window.display = on->id;
    }
}

Result<ResolvedRoute> resolveRouteOnDisplay(DesktopBackend& backend, const Route& route, const CallContext& call)
{
    if (!route.displayId)
        return backend.resolveRoute(route, call);
    auto display = findDisplay(backend, *route.displayId, call);
    if (!display)
        return display.error();
    auto displays = backend.displays(call);
    auto listed = backend.windows(call);
    if (!displays || !listed)
        return !displays ? displays.error() : listed.error();
    QList<WindowInfo> windows = listed.value();
    placeOnDisplays(windows, displays.value());

    Route narrowed = route;
    const bool named =
        route.bundleId || route.pid || route.windowTitlePattern || route.windowHandle || route.windowNativeId;
    if (!named) {
        // The frontmost window on the display: the active one when it is there, else the
        // topmost one shown there (windows are listed bottom to top).
        const WindowInfo* front = nullptr;
        for (qsizetype i = windows.size() - 1; i >= 0; --i) {
            const WindowInfo& window = windows.at(i);
            if (window.display != display->id || !window.visible || window.minimized || window.pid <= 0)
                continue;
            if (window.active) {
                front = &window;
                break;
            }
            if (!front)
                front = &window;
        }
        if (!front)
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("no window is shown on the display \"%1\"").arg(display->id),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")},
                                           {QStringLiteral("display"), display->id}});
        narrowed.pid = front->pid;
        bool hex = false;
        const quint64 native =
            front->nativeId.startsWith(QLatin1String("0x")) ? front->nativeId.mid(2).toULongLong(&hex, 16) : 0;
        if (hex && native != 0)
            narrowed.windowNativeId = native;
        else
            narrowed.windowTitlePattern =
                QLatin1Char('^') + QRegularExpression::escape(front->title) + QLatin1Char('$');
    }
    auto resolved = backend.resolveRoute(narrowed, call);
    if (!resolved)
        return resolved;
    // Which display the resolved window is on: the window manager's frame for it.
    const WindowInfo* seen = nullptr;
    for (const WindowInfo& window : std::as_const(windows)) {
        const bool same = resolved->nativeWindow != 0
                              ? window.nativeId == QStringLiteral("0x%1").arg(resolved->nativeWindow, 0, 16)
                              : window.pid == resolved->pid && window.title == resolved->windowTitle;
        if (same) {
            seen = &window;
            break;
        }
    }
    QString on;
    if (seen)
        on = seen->display;
    else if (const DisplayInfo* at = displayOf(displays.value(), resolved->nativeFrame))
        on = at->id;
    if (on != display->id)
        return Error::make(ErrorCode::ElementNotFound,
                           QStringLiteral("the window \"%1\" is not on the display \"%2\"%3")
                               .arg(resolved->windowTitle, display->id,
                                    on.isEmpty() ? QString() : QStringLiteral(" (it is on \"%1\")").arg(on)),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("not_on_display")},
                                       {QStringLiteral("display"), display->id},
                                       {QStringLiteral("windowDisplay"), on},
                                       {QStringLiteral("window"), resolved->windowTitle},
                                       {QStringLiteral("pid"), resolved->pid}});
    resolved->display = on;
    return resolved;
}

namespace {

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

// What a fingerprint ("role|title|x=,y=,w=,h=") says; nullopt when it is not one. The title
// may hold '|' itself: the frame is the last part.
struct FingerprintParts
{
    QString role;
    QString title;
    Frame frame;
};

std::optional<FingerprintParts> fingerprintParts(const QString& fingerprint)
{
    const qsizetype first = fingerprint.indexOf(QLatin1Char('|'));
    const qsizetype last = fingerprint.lastIndexOf(QLatin1Char('|'));
    if (first < 0 || last <= first)
        return std::nullopt;
    static const QRegularExpression frame(QStringLiteral(R"(^x=(-?\d+),y=(-?\d+),w=(\d+),h=(\d+)$)"));
    const auto m = frame.match(QStringView(fingerprint).mid(last + 1));
    if (!m.hasMatch())
        return std::nullopt;
    return FingerprintParts{
        fingerprint.left(first), fingerprint.mid(first + 1, last - first - 1),
        Frame{m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt(), m.captured(4).toInt()}};
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

Route Locator::routeFor(Route spec, const std::optional<ElementRefSpec>& ref, const Selector* selector) const
{
    // A selector's inWindow names the window when the route does not.
    if (selector && selector->inWindow && !spec.windowTitlePattern)
        spec.windowTitlePattern = *selector->inWindow;
    if (ref && !spec.bundleId && !spec.pid) {
        if (const auto cached = m_ctx.elements.find(ref->elementId))
            spec.pid = cached->route.pid;
    }
    return spec;
}

Result<ResolvedRoute> Locator::resolveRoute(const Route& route, bool sideEffect)
{
    TraceStep step(m_ctx.trace, QStringLiteral("route.resolve"));
    auto resolved = resolveRouteOnDisplay(m_ctx.backend, route, m_ctx.call);
    if (!resolved) {
        step.finish(false, resolved.error().toJson());
        return resolved;
    }
    step.finish(true, resolved->toJson());
    // Input for a window under a modal dialog would go nowhere (or to the dialog): say so,
    // naming the dialog, before anything is done.
    if (sideEffect && resolved->blockingModal)
        return Error::make(ErrorCode::ModalBlocking,
                           QStringLiteral("the window \"%1\" is blocked by the modal dialog \"%2\"")
                               .arg(resolved->windowTitle, *resolved->blockingModal),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("modal_dialog")},
                                       {QStringLiteral("dialog"), *resolved->blockingModal},
                                       {QStringLiteral("window"), resolved->windowTitle},
                                       {QStringLiteral("pid"), resolved->pid}});

    const auto policy =
        route.focusPolicy ? route.focusPolicy : (sideEffect ? std::optional(FocusPolicy::FocusIfNeeded) : std::nullopt);
    if (!policy || resolved->windowFocused)
        return resolved;
    const QJsonObject where{{QStringLiteral("focusPolicy"), focusPolicyName(*policy)},
                            {QStringLiteral("route"), resolved->toJson()}};
    if (*policy == FocusPolicy::FailIfNotFocused)
        return Error::make(ErrorCode::FocusLost,
                           QStringLiteral("the target window \"%1\" is not focused").arg(resolved->windowTitle), where);
    TraceStep focus(m_ctx.trace, QStringLiteral("route.focus"));
    if (auto stop = m_ctx.call.checkpoint())
        return *stop;
    const auto focused = m_ctx.backend.focusWindow(resolved.value(), m_ctx.call);
    if (!focused) {
        focus.finish(false, focused.error().toJson());
        return focused.error();
    }
    if (*policy == FocusPolicy::RequireFocused) {
        auto again = resolveRouteOnDisplay(m_ctx.backend, route, m_ctx.call);
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

Result<Snapshot> Locator::snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds)
{
    TraceStep step(m_ctx.trace, QStringLiteral("snapshot"));
    if (auto stop = m_ctx.call.checkpoint())
        return *stop;
    // A window without accessibility has no tree to read: say so, naming the window.
    if (route.inaccessible) {
        step.finish(false, route.inaccessible->toJson());
        return *route.inaccessible;
    }
    auto snapshot = m_ctx.backend.snapshot(route, bounds, m_ctx.call);
    if (!snapshot) {
        step.finish(false, snapshot.error().toJson());
        return snapshot;
    }
    m_ctx.elements.adopt(snapshot.value(), route);
    step.finish(true, snapshot->metadataJson());
    return snapshot;
}

Result<QList<Candidate>> Locator::search(Snapshot& snapshot, const Selector& selector)
{
    TraceStep step(m_ctx.trace, QStringLiteral("select"));
    const Selector loose = SelectorEngine::relaxed(selector);
    // Anchors of nested selectors (a label, a landmark) first: their relations decide which
    // nodes a labelledBy keeps, and their frames are needed for geometry.
    const QList<int> anchors = SelectorEngine::anchors(snapshot, loose);
    if (!anchors.isEmpty() && selector.needsRelations()) {
        QList<int> unread;
        for (int i : anchors) {
            if (!snapshot.nodes.at(i).relationsRead && unread.size() < 100)
                unread.append(i);
        }
        if (!unread.isEmpty()) {
            TraceStep relations(m_ctx.trace, QStringLiteral("select.relations"));
            const auto done = m_ctx.backend.readRelations(snapshot, unread, m_ctx.call);
            relations.finish(done.ok(), QJsonObject{{QStringLiteral("nodes"), static_cast<int>(unread.size())}});
            if (!done) {
                step.finish(false, done.error().toJson());
                return done.error();
            }
        }
    }
    const QList<Candidate> first = SelectorEngine::match(snapshot, loose);
    QList<int> indexes;
    for (const auto& c : first) {
        if (!snapshot.nodes.at(c.nodeIndex).detailed && indexes.size() < 200)
            indexes.append(c.nodeIndex);
    }
    int anchorDetails = 0;
    for (int i : anchors) {
        if (!snapshot.nodes.at(i).detailed && !indexes.contains(i) && anchorDetails++ < 100)
            indexes.append(i);
    }
    std::sort(indexes.begin(), indexes.end());
    if (!indexes.isEmpty()) {
        TraceStep detail(m_ctx.trace, QStringLiteral("select.details"));
        const auto done = m_ctx.backend.completeNodes(snapshot, indexes, m_ctx.call);
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

Result<ResolvedTarget> Locator::resolveTarget(ResolvedRoute& route, const TargetSpec& target)
{
    ResolvedTarget out;
    if (target.elementRef && target.elementRef->snapshotId) {
        TraceStep step(m_ctx.trace, QStringLiteral("target.snapshotId"));
        if (auto err = m_ctx.elements.useSnapshot(*target.elementRef->snapshotId, target.elementRef->elementId)) {
            step.finish(false, err->toJson());
            return *err;
        }
        step.finish(true, QJsonObject{{QStringLiteral("snapshotId"), *target.elementRef->snapshotId}});
    }
    // Text is read only when the selector matches on it.
    SnapshotBounds bounds = searchBounds(m_ctx.call, target.selector && target.selector->needsText());
    bounds.includeDescription = target.selector && target.selector->needsDescription();
    bounds.searchOnly = true;
    auto fresh = snapshot(route, bounds);
    if (!fresh)
        return fresh.error();
    out.snapshot = fresh.value();

    if (target.elementRef) {
        const auto& ref = *target.elementRef;
        TraceStep step(m_ctx.trace, QStringLiteral("target.elementRef"));
        const std::optional<ElementCache::Entry> cached = m_ctx.elements.find(ref.elementId);
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
                const auto done = m_ctx.backend.completeNodes(out.snapshot, indexes, m_ctx.call);
                if (!done)
                    return done.error();
            }
        }
        if (auto err = keepTree(out.snapshot))
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
                    // The same element, only somewhere else (scrolled, or its window moved): the
                    // same object with the same role, title and size is still what the caller
                    // meant. A changed role, title or size is not.
                    if (const auto was = fingerprintParts(wanted);
                        node.detailed && was && node.role == was->role && node.title == was->title &&
                        node.frame.width == was->frame.width && node.frame.height == was->frame.height) {
                        out.node = node;
                        out.via = QStringLiteral("elementRef:moved");
                        step.finish(true, QJsonObject{{QStringLiteral("elementId"), ref.elementId},
                                                      {QStringLiteral("from"), was->frame.toJson()},
                                                      {QStringLiteral("to"), node.frame.toJson()}});
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

    TraceStep step(m_ctx.trace, QStringLiteral("target.selector"));
    auto searched = search(out.snapshot, *target.selector);
    if (!searched)
        return searched.error();
    out.candidates = searched.value();
    if (!target.elementRef) {
        if (auto err = keepTree(out.snapshot))
            return *err;
    }
    if (auto err = m_ctx.trace.keepCandidates(out.snapshot, *target.selector, out.candidates, target.selectorJson))
        return *err;
    if (out.candidates.isEmpty()) {
        QJsonObject details{{QStringLiteral("selector"), target.selectorJson},
                            {QStringLiteral("nodeCount"), static_cast<int>(out.snapshot.nodes.size())},
                            {QStringLiteral("truncated"), out.snapshot.truncated}};
        // Why part of the window was not searched (a browser's hidden page, a huge sheet).
        if (out.snapshot.truncated)
            details.insert(QStringLiteral("truncatedReason"), out.snapshot.truncatedReason);
        step.finish(false, details);
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no element matches the selector"), details);
    }
    out.node = out.snapshot.nodes.at(out.candidates.first().nodeIndex);
    out.via = QStringLiteral("selector");
    step.finish(true, QJsonObject{{QStringLiteral("elementId"), out.node.elementId},
                                  {QStringLiteral("matched"), static_cast<int>(out.candidates.size())}});
    return out;
}

std::optional<Error> Locator::keepTree(Snapshot& snapshot)
{
    if (m_ctx.trace.wantsFullTrees()) {
        // The details of every node the search left out, a batch at a time, while at least
        // half the request's budget (and 2 s) is left for the action itself: a fuller tree in
        // the evidence is never worth a timed-out action.
        constexpr int kBatch = 200;
        constexpr int kMaxNodes = 5000;
        TraceStep step(m_ctx.trace, QStringLiteral("evidence.fullTree"));
        const qint64 budget = m_ctx.call.remainingMs();
        QList<int> missing;
        for (int i = 0; i < snapshot.nodes.size(); ++i) {
            if (!snapshot.nodes.at(i).detailed)
                missing.append(i);
        }
        // Its own deadline (the same cancel flag): a slow app ends the reading, not the action.
        const qint64 spend = budget - std::max<qint64>(budget / 2, 2000);
        const CallContext reading(QDeadlineTimer(std::max<qint64>(0, spend)), m_ctx.call.token());
        int read = 0;
        for (qsizetype from = 0; spend > 0 && from < missing.size() && read < kMaxNodes; from += kBatch) {
            if (reading.expired())
                break;
            const QList<int> batch = missing.mid(from, kBatch);
            const auto done = m_ctx.backend.completeNodes(snapshot, batch, reading);
            if (auto stop = m_ctx.call.checkpoint())
                return *stop;
            if (!done)
                break; // evidence only: the action goes on with the tree as far as it was read
            read += static_cast<int>(batch.size());
        }
        const int left = static_cast<int>(missing.size()) - read;
        // Best effort: the step says how far it got, it does not fail the action.
        step.finish(true, QJsonObject{{QStringLiteral("completed"), read}, {QStringLiteral("leftOut"), left}});
    }
    return m_ctx.trace.keepTree(snapshot);
}

} // namespace Automation
