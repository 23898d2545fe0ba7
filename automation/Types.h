#pragma once

#include "automation/Error.h"

#include <QDateTime>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPoint>
#include <QRegularExpression>
#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace Automation {

/// A rectangle in global screen coordinates, logical pixels, top-left origin (docs/protocol.md §4.5).
struct Frame
{
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;

    bool isEmpty() const { return width <= 0 || height <= 0; }
    QPoint center() const { return {x + width / 2, y + height / 2}; }
    bool contains(QPoint p) const
    {
        return !isEmpty() && p.x() >= x && p.y() >= y && p.x() < x + width && p.y() < y + height;
    }
    QJsonObject toJson() const;
    static std::optional<Frame> fromJson(const QJsonObject& object);
    friend bool operator==(const Frame&, const Frame&) = default;
};

/// State bits of a node, platform-neutral.
enum NodeState : quint32 {
    StateEnabled = 1u << 0,
    StateFocused = 1u << 1,
    StateSelected = 1u << 2,
    StateChecked = 1u << 3,
    StateEditable = 1u << 4,
    StateSecure = 1u << 5,
    StateVisible = 1u << 6,
    StateShowing = 1u << 7,
    StateFocusable = 1u << 8,
    StateActive = 1u << 9,
    StateModal = 1u << 10,
    StateExpanded = 1u << 11,
};

/// One accessible element of a Snapshot (docs/architecture.md, "Evidence" for its JSON).
struct Node
{
    QString elementId;  ///< "e:123", valid while the host remembers its snapshot
    QString role;       ///< AX vocabulary: AXButton, AXTextField, ...
    QString subrole;    ///< AX subrole where one applies, e.g. AXDialog, AXSecureTextField
    QString nativeRole; ///< the platform's own role name, e.g. "push button"
    QString title;
    QString value;
    bool hasValue = false; ///< value was read (text is read only when asked, never from secure fields)
    QString identifier;
    QString description;
    Frame frame;
    quint32 states = 0;
    QStringList actions;
    QList<int> path;      ///< child indexes from the window root
    QString handle;       ///< backend-private address of the element; never leaves the host
    bool detailed = true; ///< frame, states and actions were read (false in a search-only snapshot)
    int parent = -1;      ///< index into Snapshot::nodes
    QList<int> children;
    /// Indexes of the nodes this one is the label of (AT-SPI LABEL_FOR, AX AXTitleUIElement
    /// seen from the other side); read only for the anchors of a labelledBy selector.
    QList<int> labelFor;
    bool relationsRead = false;
    /// Children the app reports that the snapshot does not hold (its ChildCount), and why:
    /// "huge_container" (more than the host ever lists, or built by the app on demand: only the
    /// visible ones are read), "not_listed" (the toolkit's cache of the tree left them out).
    qint64 omittedChildren = 0;
    QString omittedReason;

    bool has(NodeState state) const { return (states & state) != 0; }
    QStringList stateNames() const;
    /// The one definition of a secure element (a password or PIN field): its value is never
    /// read, shown, matched on, written to evidence or read back, and text typed into it is
    /// never previewed or kept (docs/architecture.md, "Secure elements").
    bool isSecure() const;
};

/// Whether a role name, in the AX vocabulary or a platform's own, names a secure text field
/// (AXSecureTextField, AT-SPI "password text"). Used where only a selector is known.
bool isSecureRole(const QString& role);

/// A numeric value (AT-SPI Value.CurrentValue, AX's AXValue) as a node's value text: a whole
/// number as an integer ("2147483647", never "2.14748e+09"), any other with up to 15
/// significant digits.
QString numberText(double number);

/// Bounds of one traversal: depth, node count, wall time, and whether text is read.
struct SnapshotBounds
{
    int maxDepth = 8;
    int maxNodes = 2000;
    int maxWallTimeMs = 10000;
    bool includeText = false;
    /// Read every node's description (help text) too, for a selector that matches on it.
    bool includeDescription = false;
    /// Read everything from the app, none of it from what the backend remembers of the tree
    /// (a request's `refresh: true`).
    bool refresh = false;
    /// Read only what a selector needs of every node (role, name, identifier, children, and
    /// text when includeText); frames, states and actions are read later for candidates only.
    bool searchOnly = false;
};

/// An immutable tree of nodes in document order; nodes[0] is the root.
struct Snapshot
{
    QString appName;
    QString bundleId;
    qint64 pid = 0;
    QString windowTitle;
    QList<Node> nodes;
    SnapshotBounds bounds;
    qint64 elapsedMs = 0;
    bool truncated = false;
    QString truncatedReason; ///< "maxDepth", "maxNodes", "maxWallTimeMs", "huge_container", "not_listed"
    QDateTime takenAt;
    /// The id the element cache gave this snapshot ("s:N"; docs/protocol.md §4.5), when adopted.
    QString snapshotId;

    /// The nested tree as written to ax.json; handles stay inside the host.
    QJsonObject toJson() const;
    QJsonObject metadataJson() const;
    /// The nodes whose children the snapshot leaves out (Node::omittedChildren): path, role,
    /// title, childCount and reason of each.
    QJsonArray omittedJson() const;
    /// toJson() with `extra`'s members added at the top, as indented JSON text written straight
    /// from the nodes (ax.json): the same document, several times faster than building it as a
    /// QJsonObject and serialising that, which matters for trees of thousands of nodes.
    QByteArray toJsonText(const QJsonObject& extra = {}) const;

    /// Reads back what toJson()/toJsonText() wrote (ax.json): the nodes in document order with
    /// everything the selector engine and ElementRef use, so SelectorEngine::match() gives the
    /// same candidates as on the snapshot that was written. What ax.json does not hold stays at
    /// its default: handles, a secure field's value, frame and states of a node that was not
    /// `detailed`. Members it does not know (e.g. `timing`) are ignored; a member of the wrong
    /// type is DESKTOP_INVALID_REQUEST naming it ("root.children[2].title").
    static Result<Snapshot> fromJson(const QJsonObject& object);
    /// fromJson() of JSON text; text that is not a JSON object (e.g. cut short) is an error too.
    static Result<Snapshot> fromJsonText(const QByteArray& text);
};

enum class FocusPolicy { FocusIfNeeded, RequireFocused, FailIfNotFocused };
std::optional<FocusPolicy> focusPolicyFromName(const QString& name);
QString focusPolicyName(FocusPolicy policy);

/// The target context of a request (docs/protocol.md §4.3): app, window, focus policy.
struct Route
{
    std::optional<QString> bundleId;
    std::optional<qint64> pid;
    std::optional<QString> windowTitlePattern;
    /// The backend's handle of a window, from a windowId an earlier routeResolved gave.
    std::optional<QString> windowHandle;
    /// The window system's id of a window, as desktop.windows answers it (`nativeId`, X11:
    /// "0x..."), from `route.window.nativeId` (host).
    std::optional<quint64> windowNativeId;
    /// A display desktop.displays answered (`route.display.id`, or the seed's `displayId`): the
    /// window must be on it; with no app or window named, the frontmost window on it.
    std::optional<QString> displayId;
    std::optional<FocusPolicy> focusPolicy;

    /// The request's `route` object (docs/protocol.md §4.3); members that are not set are left out.
    QJsonObject toJson() const;
    /// Parses a request's `route`: unknown members are refused, errors name the field's full
    /// path below `field` (DESKTOP_INVALID_REQUEST, -32602). The one parser of routes.
    static Result<Route> fromJson(const QJsonValue& value, const QString& field = QStringLiteral("route"));
    friend bool operator==(const Route&, const Route&) = default;
};

/// What a Route resolved to.
struct ResolvedRoute
{
    QString appName;
    QString bundleId;
    qint64 pid = 0;
    QString windowTitle;
    QString appHandle;
    QString windowHandle;
    bool windowFocused = false;
    /// The title of a modal dialog of the same app that blocks this window, when one shows.
    std::optional<QString> blockingModal;
    /// The platform's window id (X11: the window), 0 when not known.
    quint64 nativeWindow = 0;
    /// The window's frame on the screen as the window manager knows it (set with
    /// `inaccessible`, where no root element gives it).
    Frame nativeFrame;
    /// The display the window is on (its centre's; desktop.displays' id); empty when not looked at.
    QString display;
    /// Set when the window exposes no accessibility (a Tk or Athena window, a canvas): the error
    /// every read of its tree answers (DESKTOP_ELEMENT_NOT_FOUND, reason no_accessibility).
    /// Keys, the pointer and capture still reach it, with an unverifiable effect.
    std::optional<Error> inaccessible;

    /// The window's id for later routes (`route.window.id`): "w:" and the backend's handle;
    /// empty when the backend has no handle for it.
    QString windowId() const;
    /// The handle a windowId names; nullopt when `id` is not one.
    static std::optional<QString> handleOfWindowId(const QString& id);

    /// routeResolved (docs/protocol.md §5.3), plus pid, app name and windowId.
    QJsonObject toJson() const;
};

/// A pointer gesture in screen coordinates (desktop.pointer).
struct PointerGesture
{
    enum class Kind {
        Move,  ///< the pointer to `at`, nothing pressed (hover)
        Click, ///< `count` clicks of `button` at `at`
        Press, ///< `button` held down at `at` for `holdMs` (long press)
        Drag,  ///< `button` down at `at`, held `holdMs`, moved to `to` over `durationMs`, up
    };
    Kind kind = Kind::Move;
    QPoint at;
    QPoint to;
    int button = 1; ///< 1 left, 2 middle, 3 right
    int count = 1;
    int holdMs = 0;
    int durationMs = 0;
};
QString gestureName(PointerGesture::Kind kind);

/// A top-level window as the window manager lists it (desktop.windows).
struct WindowInfo
{
    QString title;
    qint64 pid = 0;
    QString appName;    ///< the accessible app's name, when the app is accessible
    QString executable; ///< the app's executable name, when known
    Frame frame;
    bool active = false;
    bool minimized = false;
    bool maximized = false;
    bool visible = false; ///< mapped
    QString nativeId;     ///< the window system's id (X11: "0x…")
    QString display;      ///< the display its centre is on (desktop.displays' id), when known

    QJsonObject toJson() const;
};

/// A display as desktop.displays answers it (Linux: a RandR monitor; macOS: a CGDisplay).
struct DisplayInfo
{
    QString id;   ///< route.display's id: the RandR monitor's name; the CGDirectDisplayID
    QString name; ///< what a person calls it
    Frame frame;  ///< global coordinates, logical pixels (points on macOS)
    double scale = 1.0;
    bool primary = false;

    QJsonObject toJson() const;
};

/// The display `frame`'s centre is on (or, off every display, the one it overlaps most);
/// nullptr when none.
const DisplayInfo* displayOf(const QList<DisplayInfo>& displays, const Frame& frame);

/// What desktop.window does to a window.
struct WindowCommand
{
    enum class Action { Focus, Minimize, Maximize, Restore, Close, Move, Resize };
    Action action = Action::Focus;
    QPoint position; ///< Move: where the content's top-left corner goes
    QSize size;      ///< Resize: the content's new size
};
QString windowActionName(WindowCommand::Action action);

/// What the clipboard holds (desktop.clipboard read).
struct ClipboardContent
{
    /// What the owner offers (MIME types, X targets or pasteboard types), as it names them.
    QStringList formats;
    /// Text, when one of the formats is text and the content is not concealed.
    std::optional<QString> text;
    /// An image (PNG), when the clipboard holds one and no text was asked for or there is none.
    QByteArray png;
    QSize imageSize;
    /// A password manager marked it secret (x-kde-passwordManagerHint: secret,
    /// org.nspasteboard.ConcealedType): nothing of it was read.
    bool concealed = false;
    /// Nothing owns the clipboard.
    bool empty = false;
};

/// Which app desktop.app launches: a desktop entry, or a program one names (Linux), or a bundle
/// id (macOS); `args` go to the app (as the files of an entry's %f/%U, else after its command).
struct AppLaunchSpec
{
    QString desktopId;
    QString executable;
    QString bundleId;
    QStringList args;
};

/// What a backend started: the process, and how.
struct AppStart
{
    qint64 pid = 0;
    QString launchedBy; ///< "desktop-entry", "launch-services"
    QString desktopId;
    QString executable;
    QStringList argv;
};

/// What desktop.clipboard write did.
struct ClipboardWrite
{
    /// The clipboard read back the text, through a reader of its own.
    bool verified = false;
    /// What was there before: its length (text), formats, and whether it was concealed.
    ClipboardContent previous;
    /// The previous text will be offered again after restoreAfterMs (it was text, or empty).
    bool restoreScheduled = false;
    /// Why the previous content cannot be put back (not text, concealed), when asked to.
    QString notRestorable;
};

/// What desktop.scroll asks of an element: bring it into view (no direction), or move the
/// content of the container it is (or is in) by `amount` lines or pages.
struct ScrollSpec
{
    enum class Direction { IntoView, Up, Down, Left, Right };
    Direction direction = Direction::IntoView;
    int amount = 3;
    bool pages = false;

    bool vertical() const { return direction == Direction::Up || direction == Direction::Down; }
    /// -1 towards the start (up, left), +1 towards the end.
    int sign() const { return direction == Direction::Up || direction == Direction::Left ? -1 : 1; }
};
QString scrollDirectionName(ScrollSpec::Direction direction);

/// A text condition: equals, contains or regex.
struct TextMatch
{
    enum class Mode { Equals, Contains, Regex };
    Mode mode = Mode::Contains;
    QString pattern;
    QRegularExpression regex;

    friend bool operator==(const TextMatch&, const TextMatch&) = default;
};

/// Element selector (docs/protocol.md §4.4): criteria that must all hold, ranked by score.
struct Selector
{
    std::optional<QString> byRole;
    std::optional<TextMatch> title;
    std::optional<TextMatch> value;
    std::optional<TextMatch> description;
    std::optional<QString> byIdentifier;
    std::optional<QList<int>> byPath; ///< child indexes from the window root (Node::path)
    std::optional<Frame> byRect;      ///< the element's centre lies inside
    /// The element's label: a relation from a node this selector matches, else the geometry
    /// of a form (the field right of the label on its row, or just below it).
    std::shared_ptr<const Selector> labelledBy;
    /// An anchor: the element lies within `maxDistance` pixels of a node this selector matches.
    std::shared_ptr<const Selector> near;
    int maxDistance = 200;
    /// Of the matches in document order, only this one (0 the first, -1 the last).
    std::optional<int> nth;
    /// The window's title must match (a regular expression); a route without a window uses it.
    std::optional<QString> inWindow;
    QRegularExpression inWindowRegex;
    bool enabledOnly = false;
    bool visibleOnly = false;
    bool caseSensitive = false;
    int limit = 10;
    /// Where to look (docs/protocol.md §4.4): the accessibility tree, the text on screen (OCR),
    /// or the tree first and the text when the tree finds nothing.
    enum class Source { Ax, Ocr, Any };
    Source source = Source::Ax;

    /// Whether matching reads element text (a value criterion here or in a nested selector).
    bool needsText() const;
    /// Whether matching reads descriptions (a description criterion here or nested).
    bool needsDescription() const;
    /// Whether matching needs label relations (labelledBy here or nested).
    bool needsRelations() const;

    /// The request's selector object (docs/protocol.md §4.4): the criteria given, flags that are true and
    /// `limit` when it is not the default 10.
    QJsonObject toJson() const;
    /// Parses a request's selector: unknown members are refused, one of equals/contains/matches
    /// per text, an empty selector is refused, nested selectors (labelledBy, near) at most two
    /// deep; errors name the field's full path below `field` (DESKTOP_INVALID_REQUEST, -32602).
    /// The one parser of selectors.
    static Result<Selector> fromJson(const QJsonValue& value, const QString& field = QStringLiteral("selector"),
                                     int depth = 0);
    friend bool operator==(const Selector& a, const Selector& b);
};

/// What desktop.waitUntil waits for (docs/protocol.md §5.8): one condition, or all/any of several.
struct WaitCondition
{
    enum class Kind {
        SelectorExists, ///< an element matches
        SelectorGone,   ///< no element matches (or the window is gone)
        WindowExists,   ///< a window of the route's app has a title matching `pattern`
        WindowGone,     ///< no such window
        TextMatches,    ///< a matching element's text (or name) matches `pattern`
        ValueEquals,    ///< a matching element's value equals `value`
        Focused,        ///< a matching element has focus
        Enabled,        ///< a matching element is enabled
        TextOnScreen,   ///< OCR reads `value` on screen (in `rect`, or `ocrRoute`'s window, or anywhere)
        ImageOnScreen,  ///< `image` (a template PNG of the workspace) is on screen, as `rect`/`ocrRoute` say
        All,
        Any,
    };
    Kind kind = Kind::SelectorExists;
    std::optional<Selector> selector;
    QJsonObject selectorJson;
    QString pattern; ///< WindowExists/WindowGone: over titles; TextMatches: over the text
    QRegularExpression regex;
    QString value;
    QList<WaitCondition> children; ///< All, Any
    std::optional<Frame> rect;     ///< TextOnScreen/ImageOnScreen: where to look (screen coordinates)
    std::optional<Route> ocrRoute; ///< TextOnScreen/ImageOnScreen: whose window to look at
    QString imagePath;             ///< ImageOnScreen: the template as given (relative to the workspace)
    QImage image;                  ///< ImageOnScreen: the template, loaded when the wait runs
    double threshold = 0.9;        ///< ImageOnScreen: the least similarity (0..1) that counts

    /// The wire name: "selectorExists", "windowGone", "all", ...
    static QString kindName(Kind kind);
    /// Whether evaluating it needs the route window's elements (a selector somewhere in it).
    bool needsSnapshot() const;
    /// Whether it reads element text (textMatches, valueEquals, or a selector matching on values).
    bool needsText() const;
};

/// A ranked match of a selector.
struct Candidate
{
    int nodeIndex = -1;
    int score = 0;
    QStringList reasons;
};

/// The host's short-lived reference to an element (docs/protocol.md §4.5).
struct ElementRef
{
    QString elementId;
    QString fingerprint;
    QString role;
    QString title;
    std::optional<QString> value;
    Frame frame;

    static ElementRef fromNode(const Node& node);
    QJsonObject toJson() const;
};

/// docs/protocol.md §4.5: "role|title|x=,y=,w=,h=".
QString fingerprintOf(const Node& node);

} // namespace Automation
