#pragma once

#include <QImage>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

/// The few Accessibility (HIServices AX), CoreGraphics and AppKit calls the macOS backend makes,
/// as a C++ interface with no Apple type in it (docs/macos.md). AxApiMac.mm is the one
/// implementation that calls Apple; tests run the whole backend on Linux against FakeAxApi.
/// Every call is made on the backend's worker thread.
namespace Automation::Mac {

/// kAXError* as the backend tells them apart.
enum class AxError {
    Success,
    Failure,
    IllegalArgument,
    InvalidElement,       ///< kAXErrorInvalidUIElement: the element is gone
    CannotComplete,       ///< kAXErrorCannotComplete: the app did not answer (messaging timeout)
    AttributeUnsupported, ///< kAXErrorAttributeUnsupported
    ActionUnsupported,    ///< kAXErrorActionUnsupported
    NoValue,              ///< kAXErrorNoValue
    ApiDisabled,          ///< kAXErrorAPIDisabled: this process is not trusted for accessibility
    NotificationUnsupported,
};
QString axErrorName(AxError error);

/// An AXUIElementRef, retained for as long as a copy of this object lives. Two refs to the same
/// element compare equal (CFEqual). `key` names it in Node::handle.
class AxElement
{
public:
    AxElement() = default;
    /// `retained` keeps the platform object alive (it releases it when the last copy goes).
    AxElement(QString key, std::shared_ptr<const void> retained)
        : m_key(std::move(key)), m_retained(std::move(retained))
    {
    }
    bool isNull() const { return m_key.isEmpty(); }
    const QString& key() const { return m_key; }
    const void* object() const { return m_retained.get(); }
    friend bool operator==(const AxElement& a, const AxElement& b) { return a.m_key == b.m_key; }

private:
    QString m_key;
    std::shared_ptr<const void> m_retained;
};

/// A value of an attribute (CFTypeRef and AXValueRef, as far as the backend reads them).
struct AxValue
{
    enum class Type { None, Bool, Number, String, Point, Size, Rect, Range, Element, Elements };
    Type type = Type::None;
    bool boolean = false;
    double number = 0;
    QString string;
    QPointF point;
    QSizeF size;
    QRectF rect;
    qint64 rangeLocation = 0, rangeLength = 0;
    AxElement element;
    QList<AxElement> elements;

    static AxValue ofBool(bool b);
    static AxValue ofNumber(double n);
    static AxValue ofString(const QString& s);
    static AxValue ofPoint(QPointF p);
    static AxValue ofSize(QSizeF s);
    static AxValue ofElement(const AxElement& e);
    static AxValue ofElements(const QList<AxElement>& list);
    static AxValue ofRange(qint64 location, qint64 length);
};

/// One attribute's read: its error (Success, NoValue, AttributeUnsupported...) and value.
struct AxRead
{
    AxError error = AxError::Failure;
    AxValue value;
};

/// A running application (NSRunningApplication).
struct RunningApp
{
    qint64 pid = 0;
    QString bundleId;
    QString name;
    QString executable; ///< the bundle's executable path
    bool active = false;
    bool regular = true; ///< activationPolicy regular (has a Dock icon and windows)
};

/// A window of the window server (CGWindowListCopyWindowInfo), front to back.
struct ServerWindow
{
    quint32 number = 0;
    qint64 pid = 0;
    QString title; ///< kCGWindowName: empty without the screen-recording permission
    QRectF bounds; ///< points, global display coordinates (top-left origin)
    int layer = 0; ///< 0: a normal window
    bool onScreen = false;
    double alpha = 1.0; ///< kCGWindowAlpha: 0 for an invisible overlay
};

/// A display (NSScreen / CGDisplay): its frame in points and its backing scale.
struct Display
{
    QRectF frame;
    double scale = 1.0;
    quint32 id = 0;       ///< the CGDirectDisplayID
    bool builtIn = false; ///< CGDisplayIsBuiltin: a laptop's own screen
};

/// What the event stream says of one element: never a value or text typed.
struct AxKnown
{
    QString role;
    QString subrole;
    QString title;
};

/// One accessibility notification of an app, as read for the event stream (AxApi::streamNotices).
struct AxNotice
{
    qint64 pid = 0;
    QString appName;
    QString executable;   ///< the app's executable file name
    QString notification; ///< e.g. "AXTitleChanged"
    QString elementKey;   ///< names the element while it lives (to tell a title from its earlier one)
    AxKnown element;
    QList<AxKnown> ancestors; ///< its parent first, as far as read within the budget
    QString windowTitle;      ///< the element's window (kAXWindowAttribute), where it has one
    qint64 rowCount = -1;     ///< AXRowCountChanged: the rows now (kAXRowsAttribute); -1 unknown
};

/// The platform calls (docs/macos.md lists each one's Apple counterpart).
class AxApi
{
public:
    virtual ~AxApi() = default;

    // Permissions.
    /// AXIsProcessTrustedWithOptions (with the prompt option when `prompt`).
    virtual bool isProcessTrusted(bool prompt) = 0;
    /// CGPreflightScreenCaptureAccess.
    virtual bool screenCaptureAllowed() = 0;
    /// CGRequestScreenCaptureAccess: lists the app under Screen Recording (macOS asks the person
    /// once); true when capture is allowed already. It takes effect after the app restarts.
    virtual bool requestScreenCaptureAccess() = 0;

    // Processes and windows.
    virtual QList<RunningApp> runningApplications() = 0;
    virtual QList<ServerWindow> windowList() = 0;
    virtual QList<Display> displays() = 0;
    /// NSRunningApplication activateWithOptions; false when the app is gone.
    virtual bool activateApplication(qint64 pid) = 0;

    // Elements.
    virtual AxElement applicationElement(qint64 pid) = 0;
    /// AXUIElementSetMessagingTimeout on the app's element (seconds; 0 restores the default).
    virtual AxError setMessagingTimeout(const AxElement& element, double seconds) = 0;
    /// AXUIElementCopyMultipleAttributeValues: one read per attribute, in order; the error of
    /// the whole call (e.g. CannotComplete) is in every read when the app did not answer.
    virtual QList<AxRead> copyAttributes(const AxElement& element, const QStringList& attributes) = 0;
    virtual AxError setAttribute(const AxElement& element, const QString& attribute, const AxValue& value) = 0;
    /// AXUIElementGetAttributeValueCount: how many values an array attribute (AXChildren) holds.
    virtual AxError attributeCount(const AxElement& element, const QString& attribute, qint64* count) = 0;
    /// AXUIElementCopyAttributeValues: at most `max` elements of an array attribute from `index`.
    virtual AxError attributeValues(const AxElement& element, const QString& attribute, qint64 index, qint64 max,
                                    QList<AxElement>* out) = 0;
    virtual AxError actionNames(const AxElement& element, QStringList* names) = 0;
    virtual AxError performAction(const AxElement& element, const QString& action) = 0;
    /// AXUIElementCopyElementAtPosition on the application element.
    virtual AxError elementAtPosition(const AxElement& application, QPointF point, AxElement* out) = 0;
    virtual qint64 pidOf(const AxElement& element) = 0;

    // Observers: notifications of an app (AXObserverAddNotification on its element), delivered on
    // the worker thread when it runs pumpNotifications.
    using Notification = std::function<void(const AxElement& element, const QString& notification)>;
    virtual AxError observe(qint64 pid, const QStringList& notifications, Notification callback) = 0;
    virtual void unobserve(qint64 pid) = 0;
    /// Delivers what has arrived (runs the worker's run loop briefly).
    virtual void pumpNotifications(int waitMs) = 0;

    // The event stream: the only calls made off the worker thread.
    using NoticeSink = std::function<void(const AxNotice&)>;
    /// Streams the notifications the event stream carries (AXFocusedUIElementChanged,
    /// AXTitleChanged, AXValueChanged, AXCreated, AXRowCountChanged) of every regular app but this
    /// process to `sink`, from a thread of its own with its own observers, each element read
    /// there under a short messaging timeout; an empty sink stops it (and waits for the thread).
    /// Thread-safe.
    virtual void streamNotices(NoticeSink sink) = 0;

    // Input (CGEventPost to the HID event tap).
    /// A key by virtual key code with modifier flags (kCGEventFlagMask*: see KeyFlags).
    virtual bool postKey(quint16 virtualKey, bool down, quint64 flags) = 0;
    /// One key event carrying `text` (CGEventKeyboardSetUnicodeString): any Unicode scalar.
    virtual bool postText(const QString& text) = 0;
    enum class MouseButton { Left, Right, Other };
    virtual bool postMouse(QPointF point, MouseButton button, bool down, int clickCount) = 0;
    virtual bool moveMouse(QPointF point) = 0;
    /// A move with `button` held (kCGEvent{Left,Right,Other}MouseDragged): what apps see of a drag.
    virtual bool dragMouse(QPointF point, MouseButton button) = 0;
    /// A scroll-wheel event at `point` (CGEventCreateScrollWheelEvent2): `down` > 0 shows content
    /// further down, < 0 further up; `right` likewise across. In lines (an app's line scroll:
    /// AppKit's is 10 points unless a view says otherwise), or with `pixels` in points.
    virtual bool postScroll(QPointF point, int down, int right, bool pixels) = 0;
    /// IsSecureEventInputEnabled: a password field or Terminal's Secure Keyboard Entry has it on.
    /// Then no event tap sees the person's keys (yielding to them cannot see them type).
    virtual bool secureEventInputEnabled() = 0;
    /// Where the pointer is (CGEventGetLocation of a new event); nullopt when it cannot be read.
    virtual std::optional<QPointF> mouseLocation() = 0;

    // The keyboard layout and input sources (Text Input Sources; AxApiMac reads them on the main
    // thread and caches them until the selected input source changes).
    /// The virtual key that types `character` without modifiers under the selected keyboard
    /// layout (UCKeyTranslate over its 'uchr' data): AppKit resolves Command shortcuts by the
    /// character a key types, so Command-A is "the key that types a", wherever it is. nullopt
    /// when no key of the layout types it (a Cyrillic layout has no "a").
    virtual std::optional<quint16> virtualKeyForCharacter(QChar character) = 0;
    /// Selects an ASCII-capable keyboard layout when the selected input source is not one (a CJK
    /// input method would take synthetic key events into its composition). `previous` gets the
    /// source to restore, empty when nothing was changed. false when none could be selected.
    virtual bool selectAsciiInputSource(QString* previous) = 0;
    /// Selects `previous` again (selectAsciiInputSource's); nothing when it is empty.
    virtual void restoreInputSource(const QString& previous) = 0;

    // Apps (NSWorkspace, NSRunningApplication).
    /// Opens the app with this bundle id through LaunchServices (openApplicationAtURL:
    /// configuration:), a new instance only when none runs; its pid, or nullopt with `error`.
    virtual std::optional<qint64> launchApplication(const QString& bundleId, const QStringList& arguments,
                                                    QString* error) = 0;
    /// terminate, or forceTerminate; false when the app is not there or refused at once.
    virtual bool terminateApplication(qint64 pid, bool force) = 0;

    // The general pasteboard (NSPasteboard).
    virtual qint64 pasteboardChangeCount() = 0;
    virtual std::optional<QString> pasteboardString() = 0;
    virtual bool setPasteboardString(const QString& text) = 0;
    /// The types the general pasteboard holds now (public.utf8-plain-text, public.png,
    /// org.nspasteboard.ConcealedType, …), in its order.
    virtual QStringList pasteboardTypes() = 0;
    /// The bytes of one type (an image's PNG or TIFF); empty when it has none.
    virtual QByteArray pasteboardData(const QString& type) = 0;

    // Capture: the display `displayId` (a CGDirectDisplayID; 0 for the main display) in its
    // pixels (SCScreenshotManager on macOS 14, else CGWindowListCreateImage); the display's frame
    // in global points goes to `frame`. nullopt when it is not attached or the capture failed.
    virtual std::optional<QImage> captureDisplay(quint32 displayId, QRectF* frame) = 0;
};

/// CGEventFlags the backend sets.
namespace KeyFlags {
constexpr quint64 Shift = 0x00020000;
constexpr quint64 Control = 0x00040000;
constexpr quint64 Option = 0x00080000;
constexpr quint64 Command = 0x00100000;
} // namespace KeyFlags

} // namespace Automation::Mac
