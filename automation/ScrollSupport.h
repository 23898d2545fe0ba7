#pragma once

#include "automation/CallContext.h"
#include "automation/DesktopBackend.h"

#include <functional>
#include <optional>

/// What every backend's desktop.scroll shares (docs/protocol.md §5.16): which container and
/// viewport an element scrolls in, what moved, how long to wait, and how the answer reads. The
/// backends bring the reads and the input (AtspiScroll.cpp, MacScroll.cpp).
namespace Automation::ScrollSupport {

/// The live frame of a snapshot's node now; nullopt when it is gone or did not answer.
using FrameOf = std::function<std::optional<Frame>(int index)>;
/// Whether a scroll bar (a node of role AXScrollBar) is vertical; nullopt to pass it over (no
/// frame on screen).
using BarAxis = std::function<std::optional<bool>(int index)>;

bool inside(const Frame& inner, const Frame& outer);
/// How many levels `node` lies below `ancestor` (0: itself), or -1 when not below it.
int depthBelow(const Snapshot& snapshot, int node, int ancestor);

struct Bar
{
    int index = -1;
    bool vertical = true;
};

/// The scroll bars of a container: AXScrollBar within two levels below it (a scroll view has
/// them as children, or inside a container widget), not inside a nested scroll view.
QList<Bar> barsOf(const Snapshot& snapshot, int container, const BarAxis& axis);
/// The nearest container, `from` itself or an ancestor, with a scroll bar along the axis; `from`
/// and no bar when none has one.
std::pair<int, std::optional<Bar>> containerWithBar(const Snapshot& snapshot, int from, bool vertical,
                                                    const BarAxis& axis);
/// The viewport an element scrolls in: the nearest ancestor with a vertical bar, else with a
/// horizontal one, else the window (0).
int viewportOf(const Snapshot& snapshot, int element, const BarAxis& axis);
/// Frames of up to 20 elements of the container's content (no scroll bars): what moves.
QList<std::pair<int, Frame>> contentFrames(const Snapshot& snapshot, int container, const FrameOf& frameOf);
/// How many of `before` have another frame now.
int movedCount(const QList<std::pair<int, Frame>>& before, const FrameOf& frameOf);
/// Polls `done` every 25 ms for up to `budgetMs` (leaving the request 200 ms); whether it held.
bool settle(const CallContext& context, const std::function<bool()>& done, int budgetMs);

/// Into view by the wheel: `turn` sends one step towards the element from where it is now;
/// after each, up to `waitMs` for the element to move. At most `most` steps, giving up after 3
/// that moved nothing. Appends the path (`countName`: how many steps) to `paths`, updates `now`
/// and the verification's time; whether the element came into view.
Result<bool> wheelIntoView(const CallContext& context, int most, int waitMs, const QString& countName,
                           const std::function<std::optional<Error>(const Frame& now)>& turn,
                           const std::function<std::optional<Frame>()>& frame,
                           const std::function<bool(const std::optional<Frame>&)>& inView, std::optional<Frame>& now,
                           Verification& v, QJsonArray& paths);
/// Into view, before anything is sent: the element's frame must be known (else the refusal),
/// and when it already lies inside the viewport, the answer (nothing sent, confirmed).
Result<std::optional<ActionOutcome>> intoViewStart(ActionOutcome& out, const std::optional<Frame>& before,
                                                   const std::optional<Frame>& viewport);
/// Into view, after the paths were tried: `deliveredBy` set by the path that brought it in view,
/// else empty. Fills the effect, the frames and the reason.
void intoViewEnd(ActionOutcome& out, const QJsonArray& paths, const Frame& before, const std::optional<Frame>& now,
                 bool inView);
/// A direction's container: the element or its nearest ancestor with a scroll bar along the
/// axis, with its frame on screen (else the refusal, `no_frame`); fills the answer's
/// `container` and the expectation.
struct Container
{
    int index = -1;
    std::optional<Bar> bar;
    Frame frame;
    int extent = 0; ///< along the axis
    QString towards;
};
Result<Container> directionStart(ActionOutcome& out, const Snapshot& snapshot, int element, const ScrollSpec& spec,
                                 const BarAxis& axis, const FrameOf& frameOf);
/// A direction whose content is already at the end asked for: nothing is sent.
void atLimit(ActionOutcome& out, const QJsonObject& position, const QString& towards);
/// A direction after the wheel: confirmed when content or the bar moved, unverifiable when
/// nothing could, else suspected_noop.
void wheelEnd(ActionOutcome& out, int moved, int sampled, bool barMoved, bool hasBar, const QString& towards);
/// The element's frame after the scroll, and whether it is in the container (on screen when it
/// is the container).
void noteFrameAfter(ActionOutcome& out, const std::optional<Frame>& after, bool isContainer,
                    const Frame& containerFrame);
/// The container's description in the answer.
QJsonObject containerJson(const Node& container, const Frame& frame);

} // namespace Automation::ScrollSupport
