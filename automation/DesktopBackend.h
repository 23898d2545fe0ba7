#pragma once

#include "automation/CallContext.h"
#include "automation/Error.h"
#include "automation/Keys.h"
#include "automation/Types.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QPoint>
#include <QRect>

#include <functional>

namespace Automation {

/// What the backend says about itself, for doctor.
struct BackendInfo
{
    QString name; ///< "atspi", "macos", "unavailable", "fake"
    bool available = false;
    QString message;
    QJsonObject details;
};

/// A PNG screenshot of the screen, or of one display. One pixel is one unit of the coordinates
/// frames use (X's pixels; macOS's points, a Retina capture scaled to them), so a frame maps to
/// the image by `origin` alone.
struct Screenshot
{
    QByteArray png;
    int width = 0;
    int height = 0;
    QDateTime takenAt;
    /// Where the image's top-left pixel is on the desktop: (0, 0) for the whole screen or the
    /// main display, a display's top-left for another one.
    QPoint origin;

    /// The part of the image `frame` covers (empty when none).
    QRect pixelsOf(const Frame& frame) const
    {
        return QRect(frame.x - origin.x(), frame.y - origin.y(), frame.width, frame.height) &
               QRect(0, 0, width, height);
    }
    /// The desktop's frame of a part of the image.
    Frame frameOf(const QRect& pixels) const
    {
        return Frame{pixels.x() + origin.x(), pixels.y() + origin.y(), pixels.width(), pixels.height()};
    }
    /// The desktop's frame the whole image covers.
    Frame frame() const { return Frame{origin.x(), origin.y(), width, height}; }
};

/// What the host observed of a side effect (docs/architecture.md, "Honest outcomes").
enum class Effect {
    Confirmed,     ///< the intended change was observed
    Partial,       ///< some of it arrived (e.g. part of the text)
    SuspectedNoop, ///< nothing observable changed where a change was expected
    Unverifiable,  ///< no signal exists for this action; `reason` says why
};
QString effectName(Effect effect);
/// Whether the contract's boolean (`typed`, `clicked`, `sent`) may say true for this effect.
inline bool effectCountsAsDone(Effect effect)
{
    return effect == Effect::Confirmed || effect == Effect::Unverifiable;
}

/// How an effect was verified: what was expected, what was seen, each delivery path tried.
struct Verification
{
    Effect effect = Effect::Unverifiable;
    QString expected;     ///< e.g. "the text read back equal"
    QJsonObject observed; ///< what was seen (never the text of a secure field)
    QJsonArray paths;     ///< each delivery path tried, in order, with what it observed
    QString reason;       ///< why it is unverifiable, or what was (not) seen
    qint64 verifyMs = 0;  ///< time spent verifying (reads and waiting for the app to settle)

    QJsonObject toJson() const;
};

/// How an action was delivered and what was seen of its effect (docs/architecture.md, "Honest outcomes").
struct ActionOutcome
{
    QString deliveredBy;   ///< e.g. "accessibilityAction:press", "pointer", "keyboard"
    bool verified = false; ///< effect == Confirmed
    QJsonObject details;
    Verification verification;
};

/// A window over a point of another window (the pointer would click it instead).
struct CoveringWindow
{
    QString title;
    qint64 pid = 0;
    Frame frame;
};

struct TypeOptions
{
    bool clearBefore = false;
    /// The one delivery path the caller asked for ("editableText", "clipboard", "keys"); none:
    /// the backend's ladder.
    std::optional<QString> delivery;
    /// On the keys path: the pause after each typed character, like a person's typing (some
    /// apps drop keys that come at once). 0: as fast as the app takes them.
    int keyDelayMs = 0;
};

/// How typeText delivered the text and whether it was read back.
struct TypeOutcome
{
    QString path; ///< "editableText", "clipboard" or "keys": the last path tried
    bool readBack = false;
    /// The text went into a secure field (for untargeted text, the focused one was).
    bool secure = false;
    std::optional<bool> matched;
    QJsonObject details;
    Verification verification;
};

/// Something an app reported about one of its elements (an accessibility event), as the event
/// stream carries it (docs/protocol.md §5.24): `kind` is `focus.changed`, `element.nameChanged`,
/// `element.valueChanged`, `element.stateChanged` or `element.childrenChanged`; `payload` has
/// `element` {role, nativeRole, title}, `app` {name} and, where known, `window` {title}, and per
/// kind `state`/`on` or `change` ("added", "removed"). Never a value or any text typed.
struct DesktopEvent
{
    QString kind;
    QJsonObject payload;
    /// The element and its ancestors as the backend knew them, the element first, each
    /// {role, nativeRole, subrole?, title}: what a subscription's selector is matched against.
    /// Never sent to a subscriber.
    QJsonArray lineage;
};
using DesktopEventSink = std::function<void(const DesktopEvent&)>;

/// How a wait for an app's change ended (DesktopBackend::waitForChange).
enum class ChangeWait {
    Changed,    ///< the app reported a change
    Quiet,      ///< nothing was reported in the time given
    Unsupported ///< the backend cannot tell; it slept the whole time
};

/// The platform layer. Lives on the executor's worker thread and is only ever called from it.
/// Every call honours the CallContext: it returns DESKTOP_TIMEOUT / DESKTOP_ABORTED once the
/// context says so, and never injects input after cancellation.
class DesktopBackend
{
public:
    virtual ~DesktopBackend();

    virtual BackendInfo info() = 0;
    /// Applies runtime settings from the host (e.g. `cmdKey`, `pngCompression`); unknown keys
    /// are ignored. Called on the worker thread between jobs. The default has nothing to set.
    virtual void configure(const QJsonObject& settings) { Q_UNUSED(settings) }
    /// The waits for the person at the desktop during the last call that injected input
    /// ([{at, ms}], the input watch's Wait mode), emptied by the call. The default has none.
    virtual QJsonArray takeYields() { return {}; }
    /// Called on the worker when a side effect's execution ends, answered or not: what the
    /// backend did to leave the desktop as the person had it (e.g. `{givenBackTo: {pid, app}}`),
    /// for the evidence; empty when nothing.
    virtual QJsonObject sideEffectEnded(const CallContext& context)
    {
        Q_UNUSED(context)
        return {};
    }
    /// Where the backend sends the apps' element events (focus, names, values, states, children),
    /// from a thread of its own; the sink must be thread-safe. The default sends none.
    virtual void setEventSink(DesktopEventSink sink) { Q_UNUSED(sink) }
    /// Whether someone listens for element events now (a subscriber that names their kinds): a
    /// backend whose events cost the apps something (macOS observers) runs its source only then.
    virtual void setElementEventsWanted(bool wanted) { Q_UNUSED(wanted) }
    /// Waits up to `ms` for the route's app to report a change (waitUntil's next look comes at
    /// once then, instead of after its poll interval). The default sleeps `ms` and says it cannot
    /// tell. Ends early on a cancel or the deadline.
    virtual ChangeWait waitForChange(const ResolvedRoute& route, qint64 ms, const CallContext& context);

    /// Resolves a route (default: the frontmost app and its active window). Never the host itself.
    virtual Result<ResolvedRoute> resolveRoute(const Route& route, const CallContext& context) = 0;
    /// Raises and focuses the route's window.
    virtual Status focusWindow(const ResolvedRoute& route, const CallContext& context) = 0;
    /// A bounded snapshot of the route's window (or app when it has no window).
    virtual Result<Snapshot> snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds,
                                      const CallContext& context) = 0;
    /// Reads what a search-only snapshot left out (frame, states, actions, and text when the
    /// snapshot's bounds ask for it) for the nodes at `indexes`. The default has nothing to add.
    virtual Status completeNodes(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context);
    /// Reads which nodes the nodes at `indexes` are the label of (Node::labelFor) and marks
    /// them relationsRead. The default reads nothing (a labelledBy selector then relies on
    /// geometry alone) and marks them read.
    virtual Status readRelations(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context);
    /// The frame `node` of the route's window has now, read afresh (screen coordinates); nullopt
    /// when the backend cannot say (no check is made then) or the element is gone. The pointer
    /// checks it just before it acts, since a window moved or a display changed since the
    /// snapshot would put the point on something else.
    virtual Result<std::optional<Frame>> liveFrame(const ResolvedRoute& route, const Node& node,
                                                   const CallContext& context);
    virtual Result<Screenshot> screenshot(const CallContext& context) = 0;
    /// The element's accessibility action (press/click/activate). ElementNotFound-class error
    /// with details.reason "no_action" when it has none.
    virtual Result<ActionOutcome> press(const ResolvedRoute& route, const Node& element,
                                        const CallContext& context) = 0;
    /// What an execution's env.json says of its surroundings, read after it ran (docs/evidence.md):
    /// `display` {frame, scale, scaleSource}, `inputMethod`, `frontmost` {title, pid, frame} and,
    /// with a route, `window` {title, pid, frame, windowId}. The default knows none of it ({}).
    virtual QJsonObject environment(const ResolvedRoute* route, const CallContext& context);
    /// The topmost window that shows at `point` above the route's window, if any (checked before
    /// a pointer click). The default cannot tell and says none.
    virtual Result<std::optional<CoveringWindow>> windowAbove(const ResolvedRoute& route, QPoint point,
                                                              const CallContext& context);
    /// A pointer click at global coordinates.
    /// `target`, when given, is the element under the point (its own focus is not the effect).
    virtual Result<ActionOutcome> clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                          const Node* target = nullptr) = 0;
    /// Types into `target` (focusing it first) or, with no target, into whatever has focus.
    virtual Result<TypeOutcome> typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                         const TypeOptions& options, const CallContext& context) = 0;
    virtual Result<ActionOutcome> sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                            const CallContext& context) = 0;
    /// Activates a menu item whose menu (`menu`, its parent, when known) is open. The default
    /// presses it; a toolkit may prefer the keyboard (GTK 3: an item that opens a modal dialog
    /// through its accessibility action leaves the app deaf to the bus while the dialog is up).
    virtual Result<ActionOutcome> activateMenuItem(const ResolvedRoute& route, const Node& item, const Node* menu,
                                                   const CallContext& context)
    {
        Q_UNUSED(menu);
        return press(route, item, context);
    }
    /// Reads the text (or numeric value) of the nodes at `indexes` into Node::value, never of a
    /// secure one. The default: DESKTOP_INVALID_REQUEST, reason "unsupported".
    virtual Status readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context);
    /// Scrolls `element` into view, or its content (or its scrollable ancestor's: `container`)
    /// in a direction, through the accessibility API where the toolkit has a way, else with the
    /// wheel over the container. `details` has "position" {before, after, minimum, maximum}
    /// where a scroll bar tells, and "frameAfter" of the element. The default:
    /// DESKTOP_INVALID_REQUEST, reason "unsupported".
    virtual Result<ActionOutcome> scroll(const ResolvedRoute& route, const Snapshot& snapshot, int element,
                                         const ScrollSpec& spec, const CallContext& context);
    /// A pointer gesture (hover, clicks of any button, long press, drag) with what the app
    /// showed of it; the route's app is watched for the change. A cancelled gesture never leaves
    /// a button held. The default: DESKTOP_INVALID_REQUEST, reason "unsupported".
    virtual Result<ActionOutcome> pointer(const ResolvedRoute& route, const PointerGesture& gesture,
                                          const CallContext& context);
    /// Every top-level window, bottom to top of the stacking order. The default:
    /// DESKTOP_INVALID_REQUEST, reason "unsupported".
    virtual Result<QList<WindowInfo>> windows(const CallContext& context);
    /// The displays, the primary first, frames in the global coordinates every other method
    /// uses (Linux: RandR monitors, the whole screen when it has none; macOS: CoreGraphics).
    /// The default: DESKTOP_INVALID_REQUEST, reason "unsupported".
    virtual Result<QList<DisplayInfo>> displays(const CallContext& context);
    /// Whether screenshot() covers every display (X's root window does) or only the primary
    /// one (macOS's capture of the main display).
    virtual bool screenshotCoversEveryDisplay() const { return true; }
    /// A screenshot of `display` alone, for a backend whose screenshot() does not cover every
    /// display. The default: screenshot(), which covers it.
    virtual Result<Screenshot> screenshotOfDisplay(const DisplayInfo& display, const CallContext& context);
    /// Focuses, minimizes, maximizes, restores, closes, moves or resizes the route's window and
    /// reads back whether the window manager did it. The default: DESKTOP_INVALID_REQUEST,
    /// reason "unsupported".
    virtual Result<ActionOutcome> windowCommand(const ResolvedRoute& route, const WindowCommand& command,
                                                const CallContext& context);

    /// What the clipboard holds (desktop.clipboard read): its formats, its text, an image as
    /// PNG, and whether a password manager marked it concealed (then neither text nor image is
    /// read). The default: DESKTOP_INVALID_REQUEST, reason "unsupported".
    virtual Result<ClipboardContent> readClipboard(const CallContext& context);
    /// Puts `text` on the clipboard and keeps offering it until someone else copies; after
    /// `restoreAfterMs` (0: never) the previous text is offered again unless the clipboard
    /// changed meanwhile. Answers what was there before. The default: unsupported.
    virtual Result<ClipboardWrite> writeClipboard(const QString& text, int restoreAfterMs, const CallContext& context);

    /// Starts an app, never as the host's child: from its desktop entry, detached and outside
    /// the host's service (Linux); through LaunchServices (macOS). Answers the process started.
    /// The default: unsupported.
    virtual Result<AppStart> startApp(const AppLaunchSpec& spec, const CallContext& context);
    /// Asks the app `pid` to quit (Linux: its windows closed, then SIGTERM; macOS: terminate),
    /// or kills it (`force`). Answers how it asked; whether it ended is the caller's to check.
    /// The default: unsupported.
    virtual Result<QString> quitApp(qint64 pid, bool force, const CallContext& context);
};

/// The error of a backend method this platform's backend does not have.
Error unsupportedOnPlatform(const QString& what);

/// The backend of a build or platform that has none yet: every automation call answers a
/// clear contract error instead of pretending.
class UnavailableBackend final : public DesktopBackend
{
public:
    explicit UnavailableBackend(QString reason);

    BackendInfo info() override;
    Result<ResolvedRoute> resolveRoute(const Route& route, const CallContext& context) override;
    Status focusWindow(const ResolvedRoute& route, const CallContext& context) override;
    Result<Snapshot> snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds,
                              const CallContext& context) override;
    Result<Screenshot> screenshot(const CallContext& context) override;
    Result<ActionOutcome> press(const ResolvedRoute& route, const Node& element, const CallContext& context) override;
    Result<ActionOutcome> clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                  const Node* target = nullptr) override;
    Result<TypeOutcome> typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                 const TypeOptions& options, const CallContext& context) override;
    Result<ActionOutcome> sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                    const CallContext& context) override;

private:
    Error error() const;
    QString m_reason;
};

} // namespace Automation
