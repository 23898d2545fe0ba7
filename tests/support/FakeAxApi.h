#pragma once

#include "automation/backends/macos/AxApi.h"

#include <QColor>
#include <QHash>
#include <QMap>
#include <QMutex>
#include <QSet>
#include <QStringList>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace Testing {

/// An in-memory macOS accessibility world for the macOS backend's tests on Linux: running apps,
/// their windows and element trees with attributes, actions that change them, a keyboard, a
/// mouse and a pasteboard that act on the focused element as AppKit would, the window server's
/// list and the displays; and errors to inject (kAXErrorAPIDisabled, kAXErrorCannotComplete, an
/// app that never answers). Shared between the test and the backend's worker thread: every
/// method locks.
class FakeAxWorld
{
public:
    using AxValue = Automation::Mac::AxValue;
    using AxError = Automation::Mac::AxError;

    FakeAxWorld();
    ~FakeAxWorld();
    FakeAxWorld(const FakeAxWorld&) = delete;
    FakeAxWorld& operator=(const FakeAxWorld&) = delete;

    /// A running app with its application element ("app:<pid>"); returns the pid.
    qint64 addApp(const QString& name, const QString& bundleId, qint64 pid);
    /// A window of `pid` (the app's AXWindows); returns its key.
    QString addWindow(qint64 pid, const QString& title, QRectF frame);
    /// An element under `parent` (appended to its AXChildren); returns its key.
    QString addElement(const QString& parent, const QString& role, const QString& title, QRectF frame,
                       const QString& subrole = {});
    void setAttribute(const QString& key, const QString& name, const AxValue& value);
    std::optional<AxValue> attribute(const QString& key, const QString& name) const;
    void setActions(const QString& key, const QStringList& actions);
    /// Runs after `action` of `key` was performed (e.g. a button's effect), under no lock.
    void onAction(const QString& key, std::function<void(FakeAxWorld&, const QString& action)> hook);
    /// Gives `key` the keyboard focus of its app, as a click in it would.
    void setFocus(const QString& key);
    /// An app's own handling of a key the frontmost app `pid` gets (a shortcut of its own, Return
    /// in a panel): `hook` runs under no lock with the character the key types on the selected
    /// layout, the virtual key and the modifier flags, before the focused field takes the key;
    /// true when it took the key.
    using KeyHook = std::function<bool(FakeAxWorld&, QChar typed, quint16 virtualKey, quint64 flags)>;
    void onKey(qint64 pid, KeyHook hook);
    /// Removes the element and its subtree (its key answers kAXErrorInvalidUIElement).
    void remove(const QString& key);

    /// Makes `pid` the frontmost app (NSRunningApplication.active).
    void activate(qint64 pid);
    qint64 frontmost() const;
    /// The key of the first element with this role and title (a static text's value); empty if none.
    QString find(const QString& role, const QString& title) const;
    /// The text a field holds (a secure field's secret too: only the test sees it).
    QString text(const QString& key) const;
    /// Presses of each element's action, in order ("key:AXPress").
    QStringList actionLog() const;
    /// Every key event and text event posted, in order ("down:0x37:flags", "text:é").
    QStringList inputLog() const;
    /// The mouse clicks posted ("x,y").
    QStringList clickLog() const;
    /// Every mouse event posted, in order: "move:x,y", "down:left:x,y:1" (click count),
    /// "drag:left:x,y", "up:left:x,y:1".
    QStringList pointerLog() const;
    QString pasteboard() const;
    void setPasteboard(const QString& text);
    qint64 pasteboardChanges() const;

    /// Every AX call answers kAXErrorAPIDisabled and isProcessTrusted false.
    void setTrusted(bool trusted);
    void setScreenCaptureAllowed(bool allowed);
    /// Whether the host is listed under Screen Recording: only once it asked
    /// (CGRequestScreenCaptureAccess); a person can turn on only a listed app.
    bool screenCaptureListed() const;
    /// Every AX message to `pid` waits out its messaging timeout and answers kAXErrorCannotComplete.
    void setHung(qint64 pid, bool hung);
    /// Setting AXValue / AXSelectedText on `key` answers success and changes nothing (a field of
    /// a web view that ignores accessibility writes).
    void setIgnoresValueWrites(const QString& key, bool ignores);
    /// Reading `key`'s AXValue and AXNumberOfCharacters answers kAXErrorAttributeUnsupported
    /// (a custom view that takes text and tells nothing); what it holds still changes.
    void setValueUnreadable(const QString& key, bool unreadable);
    /// The pasteboard holds something other than text (an image): no string can be read.
    void setPasteboardHoldsNoText();
    /// An app LaunchServices can open: `bundleId`, named `name`, its window titled `title`.
    void addLaunchable(const QString& bundleId, const QString& name, const QString& title);
    /// A password manager's copy: the text with org.nspasteboard.ConcealedType beside it.
    void setPasteboardConcealed(const QString& text);
    /// An image copied (its PNG; no text).
    void setPasteboardImage(const QByteArray& png);
    /// `key`'s next performAction answers `error` (the action runs when it is CannotComplete).
    void failNextAction(const QString& key, AxError error);
    /// Messaging timeouts set, per pid (seconds).
    QHash<qint64, double> messagingTimeouts() const;
    /// An app's notification: to the event stream's sink (AxApi::streamNotices) on the caller's
    /// thread, as the stream's own thread would, and queued for the worker's observer of that app
    /// (AxApi::observe) when it registered that notification, delivered by its next pump; false
    /// when neither listens.
    bool notice(const Automation::Mac::AxNotice& notice);
    bool streaming() const;
    /// The pids the worker observes (AxApi::observe), now.
    QList<qint64> observed() const;

    // ---- Behaviours of a real Mac the fake can take on (docs/macos.md, "The fake AX world") ----

    /// Every read hands out a new element reference, as AX does; AxApiMac interns them by CFEqual
    /// only while a copy lives, so an element read again after its last copy died gets a new key.
    void setFreshReferences(bool fresh);
    bool freshReferences() const;
    /// The keyboard layout the person has selected: which character each virtual key types, and
    /// so which Command shortcut a key code triggers (AppKit resolves shortcuts by character).
    enum class Layout { Us, Azerty, Qwertz, Dvorak };
    void setLayout(Layout layout);
    /// The character `virtualKey` types without modifiers under the current layout; null if none.
    QChar characterOf(quint16 virtualKey) const;
    /// A CJK input method (Pinyin) is the selected input source: it takes key events, Unicode
    /// payloads on key code 0 included, into its composition, and nothing reaches the field.
    /// AxApi::selectAsciiInputSource selects the layout underneath and restores it afterwards.
    void setInputMethodActive(bool active);
    bool inputMethodActive() const;
    /// What the input method composed so far (never inserted).
    QString composition() const;
    /// Apps ignore NSRunningApplication activateWithOptions: (macOS 14 and later); setting
    /// AXFrontmost on the app's element still brings it forward.
    void setActivationIgnored(bool ignored);
    /// The green title-bar button is an AXFullScreenButton: AXPress enters full screen (a Space
    /// of its own, the window fills the display and AXFullScreen is true); its AXZoomWindow action
    /// zooms the window to the display's visible frame.
    void setFullScreenButtons(bool fullScreen);
    /// A window of the window server in front of every app's window (an overlay, the Dock's, a
    /// banner): only in the window list, owned by `pid` (a running app's or a system process's).
    void addServerWindow(const Automation::Mac::ServerWindow& window);
    /// Adds a running app that is not regular (no Dock icon: the Dock, SystemUIServer).
    void addBackgroundApp(const QString& name, qint64 pid);
    /// `pid` is an Electron app: its AXWebArea elements show no children until AXManualAccessibility
    /// (or AXEnhancedUserInterface) is set on its application element.
    void setWebContentHidden(qint64 pid);
    /// Input events (keys, text, mouse) reach the app `ms` after they are posted, in order, as
    /// CGEventPost hands them to the window server and the app takes them from its queue later;
    /// posting still answers at once. 0: at once.
    void setInputDelayMs(int ms);
    /// Runs `event` (an input event's effect) now, or queued after the input delay; true.
    bool deliver(std::function<void()> event);
    bool trusted() const;
    /// Element references handed out so far (attribute reads and pages of children).
    qint64 handedOut() const;
    /// Secure Event Input is on (a password field has the keyboard, or Terminal's Secure Keyboard
    /// Entry): IsSecureEventInputEnabled answers yes.
    void setSecureEventInput(bool on);
    /// Apps that quit with Command-Q, as the frontmost app does: gone from the running apps.
    bool running(qint64 pid) const;

    /// The displays change while requests run (a display plugged in or out, a resolution change,
    /// waking from sleep): at every screen capture the arrangement toggles between one display
    /// and two side by side, and every app's windows move by `shift` (then back), as macOS moves
    /// windows that a display change leaves elsewhere. A request that captures the screen after
    /// it found an element sees the element move under it. `times`: how many captures change the
    /// displays (-1: every one).
    void setDisplayChangeAtCapture(QPointF shift, int times = -1);
    /// How many display changes happened.
    int displayChanges() const;
    /// A second display (1920x1080 points at scale 1, id 2) attached to the right of the main one
    /// (1440x900 points at scale 2, id 1), or detached.
    void setSecondDisplay(bool attached);
    /// The window's pixels in a screen capture: its frame filled with `colour` (at each display's
    /// scale), over the display's own colour (main: rgb(30, 60, 90); second: rgb(90, 60, 30)).
    void paintWindow(const QString& window, const QColor& colour);

    /// The app's menu bar, at the top of the main display and not in any window, as AppKit has
    /// it: the application element's AXMenuBar (and last of its AXChildren). Its items open
    /// their menu on AXPress; a menu's items have no frame while it is closed, and their AXPress
    /// runs them (closed or open, as AX lets a client do) and closes every menu.
    QString addMenuBar(qint64 pid);
    /// A menu-bar item (AXMenuBarItem) with its menu (an AXMenu, closed); returns the item's key.
    QString addMenuBarItem(const QString& menuBar, const QString& title);
    /// An item (AXMenuItem) of a menu-bar item's menu; returns its key.
    QString addMenuItem(const QString& menuBarItem, const QString& title);
    /// The menu-bar item whose menu is open, or empty.
    QString openMenu() const;

    /// A scroll view (an AXScrollArea at `frame`) whose content is `contentHeight` points tall:
    /// its vertical AXScrollBar (AXValue 0 to 1, AXOrientation) and its content, an AXGroup (the
    /// document view) to which the test adds elements in screen coordinates as they are at the
    /// top. The wheel over it (a line is 10 points, AppKit's default) and AXScrollToVisible of an
    /// element inside move the content within its bounds, every element of it with it.
    QString addScrollArea(const QString& parent, QRectF frame, double contentHeight);
    /// The scroll view's content group, to add elements to.
    QString scrollContent(const QString& area) const;
    /// How far the content is scrolled down, in points.
    double scrollOffset(const QString& area) const;

private:
    friend class FakeAxApi;
    struct Element
    {
        qint64 pid = 0;
        QHash<QString, AxValue> attributes;
        QStringList actions;
        bool ignoresValueWrites = false;
        bool valueUnreadable = false;
    };
    struct App
    {
        QString name;
        QString bundleId;
        bool active = false;
        bool regular = true;
    };

    Automation::Mac::AxElement ref(const QString& key) const;
    QRectF frameOf(const QString& key) const;
    QString deepestAt(const QString& key, QPointF point) const;
    QString focusedOf(qint64 pid) const;
    void insertText(const QString& key, const QString& text);
    void focus(const QString& key);
    bool isGone(const QString& key) const { return !m_elements.contains(key); }

    void quit(qint64 pid);
    /// Gives the menu of `menuBarItem` its frames (empty: closes every menu).
    void showMenu(const QString& menuBarItem);
    /// Scrolls a scroll view's content to `offset` (clamped), moving its elements.
    void scrollTo(const QString& area, double offset);
    void moveSubtree(const QString& key, QPointF by);
    /// One display change (setDisplayChangeAtCapture).
    void changeDisplays();
    QPointF m_displayShift;
    bool m_secondDisplay = false;
    QHash<QString, QColor> m_windowColours;
    int m_displayChangesLeft = 0;
    int m_displayChanges = 0;
    /// The scroll view holding `key`, or empty.
    QString scrollAreaOf(const QString& key) const;
    struct ScrollView
    {
        QString content;
        QString bar;
        double contentHeight = 0;
        double offset = 0;
    };
    QHash<QString, ScrollView> m_scrollViews;

    mutable QRecursiveMutex m_mutex;
    bool m_freshReferences = false;
    Layout m_layout = Layout::Us;
    bool m_inputMethod = false;
    QString m_composition;
    bool m_activationIgnored = false;
    bool m_fullScreenButtons = false;
    QHash<QString, QRectF> m_beforeFullScreen;
    QList<Automation::Mac::ServerWindow> m_serverWindows; ///< a full-screen window's frame before it went so
    QHash<QString, Element> m_elements;
    QMap<qint64, App> m_apps;
    QHash<QString, std::function<void(FakeAxWorld&, const QString&)>> m_hooks;
    QHash<qint64, KeyHook> m_keyHooks;
    QHash<QString, AxError> m_nextActionError;
    QHash<QString, QString> m_secrets; ///< a secure field's text
    QSet<qint64> m_hung;
    QHash<qint64, double> m_timeouts;
    QStringList m_actionLog, m_inputLog, m_clickLog, m_pointerLog;
    QPointF m_mouse;
    QPointF m_pressedAt;
    QString m_pasteboard;
    bool m_pasteboardText = true;
    struct Launchable
    {
        QString name;
        QString title;
    };
    QHash<QString, Launchable> m_launchable;
    bool m_pasteboardConcealed = false;
    QByteArray m_pasteboardPng;
    qint64 m_pasteboardChanges = 1;
    bool m_trusted = true;
    bool m_capture = true;
    bool m_captureListed = false;
    bool m_secureEventInput = false;
    QString m_openMenu; ///< the menu-bar item whose menu is open
    qint64 m_handedOut = 0;
    std::mutex m_deliveryMutex;
    std::condition_variable m_deliveryWake;
    std::deque<std::pair<std::chrono::steady_clock::time_point, std::function<void()>>> m_queue;
    std::thread m_delivery;
    bool m_deliveryStopping = false;
    int m_inputDelayMs = 0;
    void countHandedOut(qsizetype elements);
    QSet<qint64> m_webContentHidden; ///< Electron apps that were not asked for their pages yet
    int m_next = 1;
    Automation::Mac::AxApi::NoticeSink m_noticeSink;
    struct Observer
    {
        QStringList notifications;
        Automation::Mac::AxApi::Notification callback;
    };
    QHash<qint64, Observer> m_observers;
    QList<std::pair<qint64, QString>> m_pendingNotifications;
};

/// AxApi over a FakeAxWorld.
class FakeAxApi final : public Automation::Mac::AxApi
{
public:
    using AxError = Automation::Mac::AxError;
    explicit FakeAxApi(std::shared_ptr<FakeAxWorld> world) : m_world(std::move(world)) {}

    bool isProcessTrusted(bool prompt) override;
    bool screenCaptureAllowed() override;
    bool requestScreenCaptureAccess() override;
    QList<Automation::Mac::RunningApp> runningApplications() override;
    QList<Automation::Mac::ServerWindow> windowList() override;
    QList<Automation::Mac::Display> displays() override;
    bool activateApplication(qint64 pid) override;
    Automation::Mac::AxElement applicationElement(qint64 pid) override;
    AxError setMessagingTimeout(const Automation::Mac::AxElement& element, double seconds) override;
    QList<Automation::Mac::AxRead> copyAttributes(const Automation::Mac::AxElement& element,
                                                  const QStringList& attributes) override;
    AxError setAttribute(const Automation::Mac::AxElement& element, const QString& attribute,
                         const Automation::Mac::AxValue& value) override;
    AxError attributeCount(const Automation::Mac::AxElement& element, const QString& attribute, qint64* count) override;
    AxError attributeValues(const Automation::Mac::AxElement& element, const QString& attribute, qint64 index,
                            qint64 max, QList<Automation::Mac::AxElement>* out) override;
    AxError actionNames(const Automation::Mac::AxElement& element, QStringList* names) override;
    AxError performAction(const Automation::Mac::AxElement& element, const QString& action) override;
    AxError elementAtPosition(const Automation::Mac::AxElement& application, QPointF point,
                              Automation::Mac::AxElement* out) override;
    qint64 pidOf(const Automation::Mac::AxElement& element) override;
    AxError observe(qint64 pid, const QStringList& notifications, Notification callback) override;
    void unobserve(qint64 pid) override;
    void pumpNotifications(int waitMs) override;
    void streamNotices(NoticeSink sink) override;
    bool postKey(quint16 virtualKey, bool down, quint64 flags) override;
    bool postText(const QString& text) override;
    bool postMouse(QPointF point, MouseButton button, bool down, int clickCount) override;
    bool moveMouse(QPointF point) override;
    bool dragMouse(QPointF point, MouseButton button) override;
    bool postScroll(QPointF point, int down, int right, bool pixels) override;
    std::optional<QPointF> mouseLocation() override;
    bool secureEventInputEnabled() override;
    qint64 pasteboardChangeCount() override;
    std::optional<QString> pasteboardString() override;
    bool setPasteboardString(const QString& text) override;
    /// Apps of the world with a bundle id (addLaunchable) start as real processes (`sleep`, so
    /// their end is observable) with one window; others are not found.
    std::optional<qint64> launchApplication(const QString& bundleId, const QStringList& arguments,
                                            QString* error) override;
    bool terminateApplication(qint64 pid, bool force) override;
    QStringList pasteboardTypes() override;
    QByteArray pasteboardData(const QString& type) override;
    std::optional<QImage> captureDisplay(quint32 displayId, QRectF* frame) override;

    bool selectAsciiInputSource(QString* previous) override;
    void restoreInputSource(const QString& previous) override;
    std::optional<quint16> virtualKeyForCharacter(QChar character) override;

private:
    AxError attributeValues(const Automation::Mac::AxElement& element, const QString& attribute, qint64 index,
                            qint64 max, QList<Automation::Mac::AxElement>* out, bool handOut);
    // What the app does with an input event, when it is delivered (FakeAxWorld::deliver).
    bool applyKey(quint16 virtualKey, bool down, quint64 flags);
    bool applyText(const QString& text);
    bool applyMouse(QPointF point, MouseButton button, bool down, int clickCount);
    bool applyMove(QPointF point);
    bool applyDrag(QPointF point, MouseButton button);
    bool applyScroll(QPointF point, int down, bool pixels);
    /// Waits out the messaging timeout of a hung pid; true when the call must fail so.
    bool hung(qint64 pid);
    /// The AxElement handed out for the world's `key`: the key itself, or with fresh references
    /// a key of its own per reference, shared only while a copy of it lives (AxApiMac's interning).
    Automation::Mac::AxElement out(const QString& key);
    Automation::Mac::AxValue outValue(Automation::Mac::AxValue value);
    /// The world's key of an element handed out.
    static QString in(const Automation::Mac::AxElement& element);

    std::shared_ptr<FakeAxWorld> m_world;
    QMutex m_internMutex;
    QHash<QString, std::pair<QString, std::weak_ptr<const void>>> m_interned;
    quint64 m_generation = 0;
};

/// The conformance app of tests/conformance in a FakeAxWorld: window "MDH Target App" with the
/// text field "Message", the secure field "Password", the check box "Remember me" and the
/// button "Send", like the Qt fixture's form. Returns the window's key.
QString addConformanceApp(FakeAxWorld& world, qint64 pid);

/// An AppKit open or save panel, a sheet of `window` (of the frontmost app `pid`), as TextEdit's
/// shows through AX: an AXSheet without title or identifier holding a file browser (AXBrowser),
/// a save panel's name field (AXTextField, identifier saveAsNameTextField, description "Save
/// As:"), and the Cancel and default buttons (CancelButton; OKButton titled Save or Open). It
/// behaves as AppKit's does:
/// - Command-Shift-G opens the Go to Folder sheet, a sheet in the sheet with a text field; a
///   collapsed panel (`goToIgnored`) ignores the shortcut.
/// - Return in that field goes to the folder when it is one on disk (in an open panel, a file
///   selects it in its folder); otherwise the sheet says "The folder can’t be found." and stays.
/// - The default button, or Return in the name field, saves `document`'s text to the folder and
///   name, after a "Replace" sheet when the file exists; an open panel puts the selected file's
///   text into `document`. The panel then closes. Escape or Cancel closes the top sheet.
/// Returns the panel sheet's key.
QString addFilePanel(FakeAxWorld& world, qint64 pid, const QString& window, const QString& document, bool save,
                     bool goToIgnored = false);
/// A notice as the event stream's thread reads one: `pid`'s app named `app` (its executable too),
/// the element, its ancestors (parent first) and its window's title.
Automation::Mac::AxNotice axNotice(qint64 pid, const QString& app, const QString& notification, const QString& key,
                                   const Automation::Mac::AxKnown& element,
                                   const QList<Automation::Mac::AxKnown>& ancestors, const QString& windowTitle);

} // namespace Testing
