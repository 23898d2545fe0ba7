#pragma once

#include "automation/CallContext.h"
#include "automation/DesktopBackend.h"
#include "automation/ElementCache.h"
#include "automation/Trace.h"
#include "automation/Types.h"

#include <QJsonObject>
#include <QList>

#include <optional>

namespace Automation {

/// What an engine operation may use while it runs on the worker thread: the backend, the
/// request's deadline and cancel flag, where to report its steps, and the element cache that
/// makes elementRefs from earlier operations usable.
namespace Ocr {
class Engine;
}
namespace Grounding {
class Grounder;
}

struct JobContext
{
    DesktopBackend& backend;
    CallContext call;
    Trace& trace;
    ElementCache& elements;
    /// The platform's OCR engine, owned by the worker with the backend; null where none runs
    /// (desktop.ocr then answers that no engine is available).
    Ocr::Engine* ocr = nullptr;
    /// The owner's grounding endpoint (a vision model they run), only when they configured one.
    Grounding::Grounder* grounder = nullptr;
};

/// An elementRef as a caller hands it back: the id an earlier snapshot gave, and optionally the
/// fingerprint it had then.
struct ElementRefSpec
{
    QString elementId;
    std::optional<QString> fingerprint;
    /// The snapshot the caller holds it from: the ref is refused once that snapshot expired.
    std::optional<QString> snapshotId;
};

/// The element an action is for: an elementRef, a selector, or both (the ref first, the
/// selector as the fallback when the ref is stale). `selectorJson` is the selector as the
/// caller wrote it, kept with the candidates.
struct TargetSpec
{
    std::optional<ElementRefSpec> elementRef;
    std::optional<Selector> selector;
    QJsonObject selectorJson;
};

/// The element found for a TargetSpec, how, and what it was found in.
struct ResolvedTarget
{
    Node node;
    QString via; ///< "elementRef", "elementRef:reresolved", "selector"
    Snapshot snapshot;
    QList<Candidate> candidates; ///< ranked; empty when the elementRef was used
};

/// Bounds used when an operation searches for elements (find, click/typeText by selector,
/// waitUntil): deep and wide, within the request's remaining time (at most 30 s).
SnapshotBounds searchBounds(const CallContext& call, bool includeText);

/// The display desktop.displays answered as `id`; DESKTOP_ELEMENT_NOT_FOUND, reason
/// display_not_found (with the displays there are) when none is attached by that id.
Result<DisplayInfo> findDisplay(DesktopBackend& backend, const QString& id, const CallContext& call);
/// Sets each window's display (its centre's).
void placeOnDisplays(QList<WindowInfo>& windows, const QList<DisplayInfo>& displays);
/// The backend's resolveRoute with route.display applied (docs/protocol.md §4.3): a route that
/// names an app or a window must resolve to a window on that display (otherwise
/// DESKTOP_ELEMENT_NOT_FOUND, reason not_on_display); one that names neither goes to the
/// frontmost window on it. The answer says the display (ResolvedRoute::display). Without
/// route.display it is the backend's resolveRoute, nothing more.
Result<ResolvedRoute> resolveRouteOnDisplay(DesktopBackend& backend, const Route& route, const CallContext& call);

/// Finds things on the desktop: the route's window (with its focus policy), a snapshot of it,
/// the elements a selector matches (ranked), and the one element an action is for. Every step
/// goes to the context's trace; the trees and candidates decided on go to it too.
class Locator
{
public:
    explicit Locator(JobContext& context) : m_ctx(context) {}

    /// `spec`, or the app of a cached elementRef when `spec` names none (an elementRef names
    /// its app: without an explicit route, act there); the window of the selector's inWindow
    /// when `spec` names none.
    Route routeFor(Route spec, const std::optional<ElementRefSpec>& ref, const Selector* selector = nullptr) const;

    /// Resolves the route and applies its focus policy:
    ///  focusIfNeeded    raise and focus the window when it is not focused (the default for
    ///                   side effects, `sideEffect` true);
    ///  requireFocused   the same, then DESKTOP_FOCUS_LOST if it still is not focused;
    ///  failIfNotFocused never change focus; DESKTOP_FOCUS_LOST when it is not already focused.
    /// Read-only operations without a policy never change focus.
    Result<ResolvedRoute> resolveRoute(const Route& route, bool sideEffect);

    /// A snapshot of the route's window; its elements get ids in the element cache.
    Result<Snapshot> snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds);

    /// A two-phase search: a first match on what a search-only snapshot has, the candidates'
    /// details read (at most 200), then the final ranking (states count in it).
    Result<QList<Candidate>> search(Snapshot& snapshot, const Selector& selector);

    /// The element `target` names, from a fresh snapshot. An elementRef is used when its element
    /// is still there with the same fingerprint; otherwise it is re-resolved once (a unique
    /// element with that fingerprint), then the selector is tried when there is one, else
    /// DESKTOP_STALE_SNAPSHOT says what changed. No match for the selector is
    /// DESKTOP_ELEMENT_NOT_FOUND.
    Result<ResolvedTarget> resolveTarget(ResolvedRoute& route, const TargetSpec& target);

private:
    /// Keeps `snapshot` in the trace; when the trace wants full trees, first reads the details
    /// of the nodes the search left out, as far as the request's budget allows (the tree then
    /// says how many are still without).
    std::optional<Error> keepTree(Snapshot& snapshot);

    JobContext& m_ctx;
};

} // namespace Automation
