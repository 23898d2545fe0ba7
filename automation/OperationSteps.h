#pragma once

#include "automation/Locator.h"

#include <QByteArray>
#include <QJsonObject>

#include <optional>

/// Steps several operations share (operations/Steps.cpp defines them; pressMenuItem,
/// operations/Menu.cpp).
namespace Automation::Operations {

/// Where a capture is taken: the route's window (its frame, from its root element or, for a
/// window without accessibility, the window manager), a rect, or the display (no area).
struct CaptureArea
{
    std::optional<ResolvedRoute> route;
    QString source; ///< "window", "rect" or "display"
    std::optional<Frame> area;
    /// A route that names only a display: that display (its frame is the area).
    std::optional<DisplayInfo> display;
};
Result<CaptureArea> captureArea(JobContext& ctx, const std::optional<Route>& route, const std::optional<Frame>& rect);
/// A screenshot that holds `where`: the whole screen where the backend's screenshot covers
/// every display, else the display named, or the one the area is on (macOS captures one
/// display at a time). Frames map to it through Screenshot::pixelsOf.
Result<Screenshot> screenshotFor(JobContext& ctx, const CaptureArea& where);
/// The frame of a resolved route's window: its root element's, or the window manager's for a
/// window without accessibility. DESKTOP_ELEMENT_NOT_FOUND (reason no_frame) when it has none.
Result<Frame> windowFrame(JobContext& ctx, const ResolvedRoute& route);

/// A screenshot given to the trace under `name`; the step says its size and time.
/// On a backend that captures one display at a time, the display holding `near` (the main one
/// when none).
Result<Screenshot> screenshotStep(JobContext& ctx, const QString& name,
                                  const std::optional<Frame>& near = std::nullopt);
/// How many pixels of `frame` differ between two screenshots (a pointer gesture's evidence).
std::optional<QJsonObject> pixelDiff(const Screenshot& before, const Screenshot& after, const Frame& frame);
/// The pointer acts on whatever is on top: another window over `point` (above the
/// route's window) is an ELEMENT_NOT_FOUND error, reason "occluded", naming it; nothing then
/// reaches the app. `element`, when the point is an element's centre, is named too.
std::optional<Error> occlusionStep(JobContext& ctx, const ResolvedRoute& route, QPoint point, const Node* element);
/// Just before the pointer acts at `point`, the centre of `element` in the snapshot: the element
/// read afresh must still hold the point. A window that moved, a list that scrolled or a display
/// that changed since would put the point on something else: then DESKTOP_STALE_SNAPSHOT,
/// reason "target_moved", with both frames, retryable, and nothing reaches the app.
std::optional<Error> stillThereStep(JobContext& ctx, const ResolvedRoute& route, QPoint point, const Node& element);
/// Keys into a window without accessibility have no other evidence than its pixels: a
/// screenshot before (nullopt for any other window) and, after the input, the difference over
/// the window's frame in the verification, as for a pointer gesture.
Result<std::optional<Screenshot>> bareBefore(JobContext& ctx, const ResolvedRoute& route);
void bareAfter(JobContext& ctx, const ResolvedRoute& route, const std::optional<Screenshot>& before,
               Verification& verification);
/// The node of `snapshot` with this handle, or -1.
int indexOfHandle(const Snapshot& snapshot, const QString& handle);
/// `node` (read in another snapshot) in `snapshot`, by its handle, or -1.
int indexOfElement(const Snapshot& snapshot, const Node& node);
/// A click on a menu item: in its open menu, the way its toolkit
/// wants it activated; in a closed menu, its action, or, where the toolkit runs the item's
/// action inside the accessibility call (GTK 3: a modal dialog it opens would leave the app
/// deaf, and hung for good at the next key), the menus from the bar down opened and the item
/// picked as desktop.menuPick does. `spec` is the route the request named.
Result<ActionOutcome> pressMenuItem(JobContext& ctx, const Route& spec, const ResolvedRoute& route, Snapshot& snapshot,
                                    const Node& item);

} // namespace Automation::Operations
