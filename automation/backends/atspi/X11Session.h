#pragma once

#include <QImage>
#include <QPoint>
#include <QRect>
#include <QString>

#include <QList>

#include <functional>
#include <optional>

namespace Automation {

class X11InputWatch;

/// The X11 side of the Linux backend: screenshots of the root window, XTest pointer and
/// keyboard input, and window activation through the window manager (EWMH). Kept apart from
/// the AT-SPI code because Xlib's macros (Status, Window, Bool, None) collide with C++ names.
/// Not thread-safe: used from the backend's thread only.
class X11Session
{
public:
    using Cancelled = std::function<bool()>;
    /// Which key the portable `cmd` modifier presses (Control by default, Super by the setting).
    enum class CmdKey { Control, Super };

    X11Session();
    ~X11Session();
    /// X protocol errors seen so far (a window gone between two requests); never fatal.
    static int errorCount();
    /// Replaces Xlib's default error handler (which exits the process) with one that counts.
    static void installErrorHandler();
    X11Session(const X11Session&) = delete;
    X11Session& operator=(const X11Session&) = delete;

    /// Opens $DISPLAY and checks for XTest; false with `error` set when either is missing.
    bool open(QString* error);
    bool screenshot(QImage* image, QString* error);
    /// The pids (_NET_WM_PID) of every top-level window the window manager lists.
    QList<qint64> clientPids();
    /// The top-level X window of `pid`, preferring the one titled `title` (only that one with
    /// `exactTitle`); 0 when none.
    quint64 findWindow(qint64 pid, const QString& title, bool exactTitle = false);
    /// Whether the window manager was told `window` is modal (_NET_WM_STATE_MODAL, which Qt and
    /// GTK set on their modal dialogs; Qt 6.4 does not say so over accessibility).
    bool isModal(quint64 window);
    /// A top-level window stacked above `window` (_NET_CLIENT_LIST_STACKING) that is mapped
    /// and contains `point`: the topmost such, with its title, pid and rect; nullopt when none
    /// or when `window` is not in the stacking list.
    struct Covering
    {
        quint64 window = 0;
        QString title;
        qint64 pid = 0;
        QRect rect;
    };
    std::optional<Covering> windowAbove(quint64 window, QPoint point);
    /// A top-level window's title, pid and rect on the screen; nullopt when it is not there.
    std::optional<Covering> describeWindow(quint64 window);
    /// The window the window manager calls active (_NET_ACTIVE_WINDOW); 0 when none.
    quint64 activeWindow();
    /// A top-level window as the window manager keeps it: where it is and what state it is in.
    struct WindowFacts
    {
        Covering window;
        bool viewable = false;  ///< mapped (a minimized window is not)
        bool hidden = false;    ///< _NET_WM_STATE_HIDDEN or WM_STATE Iconic: minimized
        bool maximized = false; ///< both _NET_WM_STATE_MAXIMIZED_VERT and _HORZ
        bool active = false;    ///< _NET_ACTIVE_WINDOW
    };
    std::optional<WindowFacts> windowFacts(quint64 window);
    /// Every top-level window the window manager lists, bottom to top (_NET_CLIENT_LIST_STACKING).
    QList<WindowFacts> stackedWindows();
    /// The WM_CLASS instance name of a top-level window (the program's name as X knows it, read
    /// without asking the app); empty when unset.
    QString windowClassName(quint64 window);

    /// Asks for the root window's property changes on this connection (the window manager's
    /// lists and its active window), for a watch that waits on connectionFd().
    bool watchRootProperties(QString* error);
    /// The connection's file descriptor; -1 when it is not open.
    int connectionFd() const;
    /// Reads every event that arrived; true when one said the window manager's list of windows
    /// or its active window changed.
    bool takeRootChanges();
    /// What a window action asks of the window manager (EWMH client messages).
    enum class WindowRequest { Minimize, Maximize, Restore, Close, MoveResize };
    /// Sends the request; `geometry` is the content's rect for MoveResize (a negative width or
    /// height keeps the size, a null QPoint origin never moves: pass `keep*`).
    bool requestWindow(quint64 window, WindowRequest request, QRect geometry, bool move, bool resize, QString* error);
    /// Moves the pointer (XTest).
    bool movePointer(QPoint point, QString* error);
    /// Presses or releases pointer button `button` (1 left, 2 middle, 3 right) where it is.
    bool pointerButton(int button, bool press, QString* error);
    /// Where the pointer is on the screen; nullopt when the display cannot say.
    std::optional<QPoint> pointerPosition();
    /// What the display is: its rect, the scale its resources ask for (Xft.dpi / 96, 1 when
    /// unset) and the keyboard's XKB rules, model, layout and variant (_XKB_RULES_NAMES).
    struct DisplayFacts
    {
        QRect rect;
        double scale = 1.0;
        QString dpiSource; ///< "Xft.dpi" or "default"
        QStringList xkb;   ///< rules, model, layout, variant, options
    };
    std::optional<DisplayFacts> displayFacts();
    /// The screen's RandR monitors (RandR 1.5, as `xrandr --listmonitors` shows them): name,
    /// rect and whether it is the primary; the whole screen as one, named "screen", when the
    /// server has none. Empty when the display cannot be opened.
    struct Monitor
    {
        QString name;
        QRect rect;
        bool primary = false;
    };
    QList<Monitor> monitors();
    /// Asks the window manager to activate `window`, raises it, waits up to `waitMs` until it
    /// is the active window, and sets X input focus to it.
    bool activate(quint64 window, int waitMs, const Cancelled& cancelled);
    bool click(QPoint point, const Cancelled& cancelled, QString* error);
    /// Moves the pointer to `point` and turns the wheel `notches` times: X buttons 4 (up),
    /// 5 (down), 6 (left), 7 (right).
    bool wheel(QPoint point, int button, int notches, const Cancelled& cancelled, QString* error);
    /// Presses or releases the key producing `keysym`.
    bool key(unsigned long keysym, bool press, QString* error);
    /// Types one Unicode scalar value (with Shift, or through a borrowed keycode when no key
    /// produces it; borrowed keycodes rotate so a slow client still reads the right symbol).
    bool typeCodePoint(char32_t c, QString* error);
    /// Gives borrowed keycodes back (call once the target has consumed the keys).
    void releaseBorrowedKeys();
    /// The pid (_NET_WM_PID) of the window that has X input focus, or of its nearest ancestor
    /// that says; 0 when unknown.
    qint64 focusOwnerPid();
    /// The screen position of `window`'s content: its origin on the root window plus the
    /// client-side decoration margin (_GTK_FRAME_EXTENTS) when the toolkit draws its own.
    std::optional<QPoint> contentOrigin(quint64 window);

    /// X keysym for a canonical key name of Keys.h (modifiers included, `cmd` as set by
    /// setCmdKey); 0 when none.
    unsigned long keysymForName(const QString& name) const;
    void setCmdKey(CmdKey key) { m_cmdKey = key; }
    /// Every injected press and motion is noted here first (so that the watch tells the host's
    /// input from the person's), and waits there while the person is at it (its Wait mode).
    void setInputWatch(X11InputWatch* watch) { m_watch = watch; }
    CmdKey cmdKey() const { return m_cmdKey; }
    static unsigned long keysymReturn();
    static unsigned long keysymBackSpace();
    static unsigned long keysymControl();

private:
    // Forwarded to the input watch, when there is one. False: inject nothing more (the call
    // was stopped; `error` says so). `waited` is set when it held for the person.
    bool beforeInjection(QString* error, bool* waited = nullptr);
    void noteKey(unsigned int keycode);
    void noteButton(unsigned int button);
    void noteMotion(QPoint to);

    void* m_display = nullptr;
    QList<unsigned int> m_spareKeycodes; ///< keycodes with no symbols, found at open
    QList<unsigned int> m_borrowed;      ///< spare keycodes currently mapped
    int m_nextSpare = 0;
    qsizetype m_borrowCount = 0; ///< characters typed through spares since the last release
    CmdKey m_cmdKey = CmdKey::Control;
    X11InputWatch* m_watch = nullptr;
    int m_heldKeys = 0;    ///< keys pressed and not released (the watch never waits mid-chord)
    int m_heldButtons = 0; ///< buttons pressed and not released (nor mid-drag)
};

} // namespace Automation
