#pragma once

#include "automation/AppIdentity.h"
#include "automation/Grounding.h"
#include "automation/Locator.h"
#include "automation/Risk.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <optional>

/// The engine's operations, typed: each runs on the worker thread with a JobContext and returns
/// a typed result or a contract error. They know nothing of JSON-RPC, sockets or workspaces:
/// the bridge turns params into these requests and results into answers; the host's own windows
/// call them with a NullTrace (docs/architecture.md, "The engine").
namespace Automation::Operations {

struct ObserveRequest
{
    Route route;
    bool includeScreenshot = true;
    bool includeAxTree = true;
    SnapshotBounds bounds;
};

struct ObserveResult
{
    ResolvedRoute route;
    std::optional<Snapshot> snapshot;     ///< when includeAxTree
    std::optional<Screenshot> screenshot; ///< when includeScreenshot
    /// axTreeAt, axTreeMs, screenshotAt, skewMs (the tree and the screenshot are taken one
    /// after the other; the skew says how far apart).
    QJsonObject timing;
};

struct FindRequest
{
    Route route;
    Selector selector;
    QJsonObject selectorJson;
    /// Read the text of the candidates answered (at most selector.limit; never of secure ones).
    bool includeText = false;
    bool refresh = false; ///< SnapshotBounds::refresh
    /// Tighter bounds than the search's defaults (desktop.find's maxDepth, maxNodes, maxWallTimeMs).
    std::optional<int> maxDepth, maxNodes, maxWallTimeMs;
};

struct FindResult
{
    ResolvedRoute route;
    Snapshot snapshot;
    QList<Candidate> candidates; ///< ranked, best first
};

struct ClickRequest
{
    Route route;
    TargetSpec target;
    /// When the element has no action: click its frame's centre with the pointer.
    bool allowCoordinateFallback = false;
    /// "action" (its accessibility action, never the pointer) or "pointer" (the pointer at its
    /// centre, never the action); none: the action, then the pointer when allowed.
    std::optional<QString> delivery;
};

struct ClickResult
{
    ResolvedRoute route;
    ResolvedTarget target;
    ActionOutcome outcome;
    /// The screenshots around a pointer click (image names given to the trace), else empty.
    QString beforeImage;
    QString afterImage;
};

struct TypeRequest
{
    Route route;
    std::optional<TargetSpec> target; ///< none: the focused element
    QString text;
    bool clearBefore = false;
    int keyDelayMs = 0;              ///< TypeOptions::keyDelayMs
    std::optional<QString> delivery; ///< TypeOptions::delivery
};

struct TypeResult
{
    ResolvedRoute route;
    std::optional<ResolvedTarget> target;
    TypeOutcome outcome;
    QJsonObject textInfo; ///< {"length", "sha256"}: what may be said about the text
};

struct HotkeyRequest
{
    Route route;
    KeyChord chord;
    int delayMs = 50;
};

struct HotkeyResult
{
    ResolvedRoute route;
    ActionOutcome outcome;
};

struct WaitRequest
{
    Route route;
    WaitCondition condition;
    int pollMs = 500;
    int timeoutMs = 0;
    bool refresh = false; ///< SnapshotBounds::refresh, every poll
};

struct WaitResult
{
    std::optional<Snapshot> snapshot; ///< the last one read, when the condition needs elements
    QList<Candidate> candidates;      ///< of the first element condition that held
    qint64 elapsedMs = 0;
    int polls = 0;
    /// The condition's tree as last evaluated: {kind, satisfied, matched?, children?}.
    QJsonObject conditions;
    /// What woke each look after the first: {events, timer, by ("events" where the backend
    /// hears the app's changes, else "polling"), last ("start", "event", "timer")}.
    QJsonObject wake;
};

/// Whether typed text would go into a secure element.
struct SecureLook
{
    /// The route it resolved and the element it found (the owner's rules and a token's binding
    /// read them; the element is absent when none was looked at).
    ResolvedRoute route;
    std::optional<Node> element;
    bool secure = false;
    QString why; ///< "elementRef", "selector" or "focused"
    QString role;
    /// The element as a person would recognise it, for the confirmation dialog: its title, its
    /// frame (when it could be read), its window and app, and how many elements the selector
    /// could land on.
    QString title;
    std::optional<Frame> frame;
    QString windowTitle;
    QString appName;
    int matches = 0;
};

struct DumpTreeRequest
{
    Route route;
    SnapshotBounds bounds;
};

struct DumpTreeResult
{
    ResolvedRoute route;
    Snapshot snapshot;
};

/// How desktop.readText hides what looks sensitive in the text it answers.
enum class Redaction {
    None,     ///< the text as the app has it
    Patterns, ///< e-mail addresses, long digit runs (cards, accounts, phone numbers), key-like tokens masked
    Hash,     ///< no text: its length and SHA-256 only
};
std::optional<Redaction> redactionFromName(const QString& name);
QString redactionName(Redaction mode);

/// How large an image answered to a model may be (the evidence keeps every pixel).
struct ModelSizing
{
    std::optional<int> maxWidth;     ///< image pixels across
    std::optional<qint64> maxPixels; ///< width × height
};
/// `image` no wider than maxWidth and with no more than maxPixels, aspect kept; `scale` gets
/// image pixels per screen pixel (1 when it was small enough).
QImage sizedForModel(const QImage& image, const ModelSizing& sizing, double* scale);

/// desktop.capture: the whole display (no route, no rect), the route's window, or a rect.
struct CaptureRequest
{
    std::optional<Route> route;
    std::optional<Frame> rect;
    ModelSizing sizing;
};

/// desktop.fileDialog.
struct FileDialogRequest
{
    Route route;
    QString path; ///< absolute, clean
    bool save = true;
    bool replace = false; ///< overwrite "replace" (save)
};

struct FileDialogResult
{
    ResolvedRoute dialog;
    QString toolkit; ///< "gtk" or "qt"
    QString typed;   ///< how the typed path was verified (the typeText effect)
    bool existedBefore = false;
    bool closed = false;
    bool savedPathVerified = false;
    qint64 size = -1;
    bool replaced = false;
    QString effect; ///< "confirmed" or "unverifiable"
};

struct CaptureResult
{
    std::optional<ResolvedRoute> route;
    /// route.display alone: the display captured.
    std::optional<DisplayInfo> ofDisplay;
    QString source; ///< "display", "window" or "rect"
    Frame frame;    ///< what the image covers, in screen coordinates
    Frame display;  ///< the whole display
    QByteArray png; ///< every pixel; kept as "capture.png"
    QDateTime takenAt;
    QByteArray answeredPng; ///< as sized by the request (png itself when it was small enough)
    QSize answeredSize;
    double scale = 1.0; ///< answeredPng's pixels per screen pixel
};

/// desktop.ground: the point the owner's grounding endpoint names for a description, in a
/// capture of the route's window, a rect or the display, sized for the model.
struct GroundRequest
{
    std::optional<Route> route;
    std::optional<Frame> rect;
    QString description;
};

struct GroundResult
{
    CaptureResult capture;  ///< what the model was shown (answeredPng, its scale)
    Grounding::Guess guess; ///< where it pointed, in that image
    QPoint point;           ///< the same point on screen
    QJsonObject provider;   ///< Grounder::describe()
};

/// desktop.ocr: the words and lines on the screen, in the route's window (only its own pixels),
/// a rect, or the whole display.
struct OcrRequest
{
    std::optional<Route> route;
    std::optional<Frame> rect;
    QStringList languages; ///< Tesseract's names: "eng", "chi_sim"
    double minConfidence = 0.4;
    /// Applied to every text answered and kept; with Hash no image is kept either.
    Redaction redaction = Redaction::Patterns;
    /// Keep ocr.png and ocr.json (a wait's polls read without keeping).
    bool keepEvidence = true;
};

/// A recognised word or line, in screen coordinates; its text as recognised (the bridge redacts).
struct OcrText
{
    QString text;       ///< redacted as asked; empty with Redaction::Hash
    QString sha256;     ///< of the text as recognised
    int length = 0;     ///< characters as recognised
    int redactions = 0; ///< spans masked (Redaction::Patterns)
    Frame frame;
    double confidence = 0;
    QList<int> words; ///< a line's words, as indexes into OcrResult::words
};

struct OcrResult
{
    std::optional<ResolvedRoute> route;
    QString source; ///< "display", "window" or "rect"
    Frame frame;    ///< what was read, in screen coordinates
    Frame display;
    QDateTime takenAt;
    QString captureId;    ///< names the capture the words were read in
    QImage image;         ///< the capture as recognised (what `frame` covers)
    QByteArray png;       ///< the capture as recognised (blanked parts blank); kept as "ocr.png"
    QList<OcrText> words; ///< reading order
    QList<OcrText> lines;
    QJsonObject engine;
    /// How other windows were kept out: "masked" (their parts blanked), "none" (nothing covers
    /// it), "unknown" (the window manager did not list the window), "n/a" (no route).
    QString occlusion;
    QJsonArray covered;    ///< the frames blanked as another window's
    int secureBlanked = 0; ///< secure fields blanked before recognition
    QString secureCheck;   ///< "tree" (read), "no_accessibility", "unread" (why not)
    qint64 captureMs = 0;
    qint64 recognizeMs = 0;
    int regions = 0;
    int regionsCached = 0;
};

struct ReadTextRequest
{
    Route route;
    Selector selector;
    QJsonObject selectorJson;
    qint64 limitBytes = 65536;
    Redaction redaction = Redaction::Patterns;
};

/// One element's text as desktop.readText answers it.
struct ReadTextItem
{
    Node node;
    QString text;                 ///< the element's text (its Text, else the label's name), redacted and cut
    std::optional<QString> value; ///< a numeric value (slider, spin box), when it has one
    QString source;               ///< "text", "name" or "value": where the text came from
    qint64 bytes = 0;             ///< UTF-8 bytes of the full text before cutting
    bool truncated = false;       ///< cut to the remaining limitBytes
    int redactions = 0;           ///< how many spans were masked
    QString sha256;               ///< of the full text (Hash mode, and always in the trace)
};

struct ReadTextResult
{
    ResolvedRoute route;
    QList<ReadTextItem> items;
    int matched = 0;
    bool truncated = false; ///< limitBytes was reached
    qint64 returnedBytes = 0;
};

struct ScrollRequest
{
    Route route;
    TargetSpec target;
    ScrollSpec spec;
};

struct ScrollResult
{
    ResolvedRoute route;
    ResolvedTarget target;
    ActionOutcome outcome;
    std::optional<Frame> frameAfter; ///< where the target ended up
    bool visibleAfter = false;       ///< its frame is inside its viewport (or container)
};

struct MenuPickRequest
{
    Route route;
    QStringList path; ///< e.g. {"File", "Save As…"}; ellipses and mnemonic marks need not be typed
};

struct MenuPickResult
{
    ResolvedRoute route;
    QList<Node> items; ///< the item of each level, the picked one last
    ActionOutcome outcome;
};

/// desktop.pointer: a gesture at an element's centre or at screen coordinates.
struct PointerRequest
{
    Route route;
    std::optional<TargetSpec> target;   ///< where the gesture starts (its centre), or
    std::optional<QPoint> point;        ///< screen coordinates
    std::optional<TargetSpec> toTarget; ///< drag: where it ends, or
    std::optional<QPoint> to;
    PointerGesture gesture; ///< kind, button, count, holdMs, durationMs (points filled in here)
};

struct PointerResult
{
    ResolvedRoute route;
    std::optional<ResolvedTarget> target;
    PointerGesture gesture; ///< with the points it was made at
    ActionOutcome outcome;
};

/// desktop.clipboard read.
struct ClipboardReadRequest
{
    Redaction redaction = Redaction::Patterns;
};
struct ClipboardReadResult
{
    ClipboardContent content;
    std::optional<QString> text; ///< as the redaction allows (none with Hash, none when concealed)
    QString sha256;              ///< Hash: of the text
    int redactions = 0;
    QString imageKept; ///< the evidence file's name of an image
};
/// desktop.clipboard write.
struct ClipboardWriteRequest
{
    QString text;
    int restoreAfterMs = 0;
};
struct ClipboardWriteResult
{
    ClipboardWrite write;
    Verification verification;
};

/// desktop.app: which app, as route.app names one.
struct AppSelector
{
    QString bundleId;
    QString desktopId;
    QString executable;
    std::optional<qint64> pid;

    static AppSelector of(const AppLaunchSpec& spec)
    {
        return AppSelector{spec.bundleId, spec.desktopId, spec.executable, {}};
    }
};
/// A running app with its windows (desktop.app list).
struct RunningApp
{
    AppIdentity identity;
    QList<WindowInfo> windows;
};
struct LaunchResult
{
    AppStart start;
    qint64 pid = 0; ///< the app's: the started process, a child of it, or the instance reused
    WindowInfo window;
    bool reusedInstance = false;
    qint64 waitedMs = 0;
};
struct QuitResult
{
    qint64 pid = 0;
    QString how; ///< "windows_closed", "sigterm", "sigkill", "terminate", "force_terminate"
    bool exited = false;
    qint64 waitedMs = 0;
    Verification verification;
};

/// desktop.windows: the top-level windows, optionally of one app (name or executable).
struct WindowsRequest
{
    std::optional<QString> app;
};

/// desktop.window: an action on the route's window.
struct WindowRequest
{
    Route route;
    WindowCommand command;
};

struct WindowResult
{
    ResolvedRoute route;
    ActionOutcome outcome;
};

/// desktop.elementAt: the element under a screen point.
struct ElementAtRequest
{
    std::optional<Route> route; ///< none: the topmost window at the point
    QPoint point;
};

struct ElementAtResult
{
    ResolvedRoute route;
    Snapshot snapshot;
    int index = -1;                   ///< the deepest node whose frame holds the point
    QList<int> ancestors;             ///< its ancestors, nearest first
    std::optional<WindowInfo> window; ///< the window found at the point, when looked up
};

/// A snapshot of the route's window and/or a screenshot; the tree is kept while the screenshot
/// is taken. Screenshots reach the trace as images named "observe.png", "before.png" and
/// "after.png", the names the evidence layout gives them.
Result<ObserveResult> observe(JobContext& ctx, const ObserveRequest& request);
/// The elements the selector matches, ranked; the tree and the candidates are kept.
Result<FindResult> find(JobContext& ctx, const FindRequest& request);
/// Clicks the target: its accessibility action, or (allowed and without one) the pointer with
/// screenshots before and after. Errors after the input may have reached the app are never
/// retryable (see afterDelivery).
Result<ClickResult> click(JobContext& ctx, const ClickRequest& request);
/// Types text into the target (or the focused element) through the backend's typing ladder.
/// The text never reaches the trace: only its length and digest.
Result<TypeResult> typeText(JobContext& ctx, const TypeRequest& request);
/// Sends a key chord to the route's window.
Result<HotkeyResult> hotkey(JobContext& ctx, const HotkeyRequest& request);
/// Polls until the condition holds (DESKTOP_TIMEOUT after request.timeoutMs, with the last
/// error seen and the condition's state); an app not there yet is waited for too.
Result<WaitResult> waitUntil(JobContext& ctx, const WaitRequest& request);
/// The bounded tree of the route's window, without a screenshot; kept as the tree.
Result<DumpTreeResult> dumpTree(JobContext& ctx, const DumpTreeRequest& request);
/// A PNG of the display, the route's window or a rect (clipped to the display).
Result<CaptureResult> capture(JobContext& ctx, const CaptureRequest& request);
/// Asks the owner's grounding endpoint (ctx.grounder) where `description` is in a capture sized
/// to 1280 pixels across, and maps its point back to the screen. DESKTOP_INVALID_REQUEST (reason
/// no_vision_provider) when none is configured; DESKTOP_TARGET_UNRESPONSIVE (reason
/// outside_image) when the model points outside what it was shown.
Result<GroundResult> ground(JobContext& ctx, const GroundRequest& request);
/// The text on screen, read by the platform's OCR engine (ctx.ocr) in the capture of the route's
/// window, a rect or the display. Covered parts and secure fields are blanked first.
Result<OcrResult> ocr(JobContext& ctx, const OcrRequest& request);
/// A word or line as answered and kept: frame, confidence, and its text as `mode` allows.
QJsonObject ocrTextJson(const OcrText& text, Redaction mode);
/// Whether an elementId names an element read by OCR ("ocr:<captureId>:<n>").
bool isOcrElementId(const QString& elementId);
/// desktop.find with `selector.source` "ocr": the selector matched against the lines and words
/// OCR reads in the route's window (role AXStaticText, nativeRole ocr.line / ocr.word), ranked
/// with their confidence; the capture is remembered so the refs can be acted on once.
Result<FindResult> findOnScreen(JobContext& ctx, const FindRequest& request);
/// A pointer click on an OCR element: refused as stale (DESKTOP_STALE_SNAPSHOT) when its capture
/// was forgotten or already acted on, the window moved or was replaced, or the pixels around the
/// element changed; otherwise clicked at its centre with screenshots before and after, and the
/// window read again: text that appeared or changed confirms, other pixels alone are
/// unverifiable, nothing changed is a suspected no-op.
Result<ClickResult> clickOnScreen(JobContext& ctx, const ClickRequest& request, const QString& elementId);
/// Text typed at an OCR element, refused as stale as clickOnScreen refuses: the caret put after
/// its text by a pointer click just inside the right end of its box, the text sent as keys, and
/// the window read again (the backend's own read-back, where it has one, stands). clearBefore is
/// refused (DESKTOP_INVALID_REQUEST, reason "ocr_target"): the field's contents are not known.
Result<TypeResult> typeOnScreen(JobContext& ctx, const TypeRequest& request, const QString& elementId);
/// The OCR element a target names: its elementRef's, or the best match of a selector whose
/// source is "ocr" or "any" when that match was read off the pixels; none when the target is
/// accessibility's. A selector that matches nothing on screen is DESKTOP_ELEMENT_NOT_FOUND.
Result<std::optional<QString>> ocrTarget(JobContext& ctx, const Route& route, const TargetSpec& target);
/// The text of the elements a selector matches, within limitBytes, redacted as asked. A secure
/// element among them refuses the whole request (DESKTOP_INVALID_REQUEST, reason
/// "secure_field"): nothing is read.
Result<ReadTextResult> readText(JobContext& ctx, const ReadTextRequest& request);
/// What the clipboard holds; the text redacted as asked, an image kept as clipboard.png. Never
/// the text of a concealed clipboard. The trace has the formats, the length and a digest.
Result<ClipboardReadResult> readClipboard(JobContext& ctx, const ClipboardReadRequest& request);
/// Puts text on the clipboard and reads it back; says what was there and whether it will be
/// put back.
Result<ClipboardWriteResult> writeClipboard(JobContext& ctx, const ClipboardWriteRequest& request);
/// The running apps: every process with a top-level window, with its identity.
Result<QList<RunningApp>> listApps(JobContext& ctx);
/// Starts the app and waits, within the call's budget, for a window of the process it started
/// (or of a child of it); when the process ended first and an instance already running showed
/// or raised a window, that one (reusedInstance).
Result<LaunchResult> launchApp(JobContext& ctx, const AppLaunchSpec& spec);
/// Asks the app to quit (or kills it) and waits, within the budget, for the process to end.
Result<QuitResult> quitApp(JobContext& ctx, qint64 pid, bool force);
/// Masks what looks sensitive in `text` (Redaction::Patterns); `count` gets how many spans.
QString redactPatterns(const QString& text, int* count);
/// Scrolls the target into view or its content in a direction, and says where it ended up.
Result<ScrollResult> scroll(JobContext& ctx, const ScrollRequest& request);
/// Opens each level of a menu path and picks the last item.
Result<MenuPickResult> menuPick(JobContext& ctx, const MenuPickRequest& request);
/// A menu title as a person reads it: no mnemonic marks (& _), no trailing ellipsis ("…",
/// "..."), no shortcut after a tab, spaces simplified, case folded.
QString normalizeMenuTitle(const QString& title);

/// A pointer gesture with screenshots before and after; an element's centre is refused when
/// another window covers it, as for a pointer click.
Result<PointerResult> pointer(JobContext& ctx, const PointerRequest& request);
/// The windows the window manager lists, top of the stacking order first.
/// desktop.fileDialog: the path typed into the route's app's open/save dialog, its default
/// button pressed, an overwrite question answered as asked, and the disk checked.
Result<FileDialogResult> fileDialog(JobContext& ctx, const FileDialogRequest& request);
/// desktop.displays: the displays, the primary first (read-only; the trace lists them).
Result<QList<DisplayInfo>> displays(JobContext& ctx);
Result<QList<WindowInfo>> windows(JobContext& ctx, const WindowsRequest& request);
/// Focuses, minimizes, maximizes, restores, closes, moves or resizes the route's window.
Result<WindowResult> window(JobContext& ctx, const WindowRequest& request);
/// The element under a point; the tree it was found in is kept.
Result<ElementAtResult> elementAt(JobContext& ctx, const ElementAtRequest& request);

/// A read-only look (no focus change, nothing kept, nothing adopted into the cache) at where
/// typeText with `request` would type. An error when the target cannot be resolved now: the
/// text must then be treated as secret.
Result<SecureLook> secureTarget(JobContext& ctx, const TypeRequest& request);

/// What the owner's rules are asked about (docs/protocol.md, "Policy"), for one side effect.
struct PolicyLookRequest
{
    Route route;
    std::optional<TargetSpec> target;
    /// The action goes to the focused element (typeText without a target, a hotkey).
    bool focused = false;
    /// The action presses Enter (a hotkey of Enter, typed text holding a new line): high-risk in
    /// an editable field of a window that also holds a send-class control.
    bool pressesEnter = false;
    /// menuPick's path: its last item is the control.
    QStringList menuPath;
    /// desktop.app quit with force: high-risk whatever the app shows (it is killed).
    bool forceQuit = false;
    /// desktop.fileDialog with overwrite replace: high-risk whatever the dialog shows.
    bool replacesFile = false;
    /// What the request is about when no window of it is to be resolved (desktop.app: the app
    /// to launch, as its desktop entry says, or the one to quit): the rules decide about it.
    std::optional<AppIdentity> subjectApp;
    /// The method needs no window (the clipboard): when none resolves, the rules still decide,
    /// about no app, rather than leaving the refusal to the operation.
    bool appOptional = false;
};

/// What the host resolved for it, before any input.
struct PolicyLook
{
    ResolvedRoute route;
    AppIdentity app;
    /// The element the action lands on; absent when it could not be resolved (the binding is
    /// then the window's, `bound` "window").
    std::optional<Node> element;
    int matches = 0;
    QString bound; ///< "element", "window", "app" (desktop.app names it) or "none" (nothing resolved)
    /// The app shows a terminal (the AT-SPI terminal role, or a TerminalEmulator entry).
    bool terminal = false;
    Risk::Assessment risk;
    /// Why the risk is what it is beyond the element ("Enter in a field of a window with \"Send\"").
    QString riskContext;
    /// What the look at the element found secret (a password field): typed text is not shown.
    bool secure = false;

    QJsonObject toJson() const;
    /// What a confirmation token is bound to (ConfirmTokens::Token::binding): {bound, pid,
    /// windowId, window, role, title, handle}.
    QJsonObject binding() const;
    /// Why it is high-risk, in the dialog's and the answer's words; empty when it is not.
    QString riskWhy() const { return riskContext.isEmpty() ? risk.why() : riskContext; }
};
Result<PolicyLook> policyLook(JobContext& ctx, const PolicyLookRequest& request);

/// An error from the step that injects input may come after the input reached the app: a
/// timeout, an abort, an unresponsive target or an internal failure there is never retryable
/// and says `mayHaveHadEffect` (docs/architecture.md, "Honest outcomes").
Error afterDelivery(Error error);

} // namespace Automation::Operations
