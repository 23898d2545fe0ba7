#include "automation/backends/atspi/X11Session.h"

#include "automation/backends/atspi/X11InputWatch.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QThread>

#include <atomic>
#include <mutex>

#include <X11/XKBlib.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xrandr.h>
#include <X11/keysym.h>

namespace Automation {

namespace {

Display* dpyOf(void* p)
{
    return static_cast<Display*>(p);
}

unsigned long keysymForChar(char32_t u)
{
    if (u == u'\n')
        return XK_Return;
    if (u == u'\t')
        return XK_Tab;
    if ((u >= 0x20 && u <= 0x7e) || (u >= 0xa0 && u <= 0xff))
        return u;
    return 0x01000000ul | u; // the X keysym of a Unicode code point
}

// A window's title: EWMH's UTF-8 _NET_WM_NAME, else ICCCM's WM_NAME, which Athena and other Xt
// apps (xcalc) set alone.
QString titleOf(Display* dpy, Window w)
{
    const Atom wmName = XInternAtom(dpy, "_NET_WM_NAME", False);
    const Atom utf8 = XInternAtom(dpy, "UTF8_STRING", False);
    Atom type = 0;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char* value = nullptr;
    if (XGetWindowProperty(dpy, w, wmName, 0, 1024, False, utf8, &type, &format, &count, &after, &value) == Success &&
        value) {
        const QString title = QString::fromUtf8(reinterpret_cast<const char*>(value), static_cast<qsizetype>(count));
        XFree(value);
        return title;
    }
    XTextProperty property{};
    if (!XGetWMName(dpy, w, &property) || !property.value)
        return {};
    QString title;
    char** list = nullptr;
    int items = 0;
    if (Xutf8TextPropertyToTextList(dpy, &property, &list, &items) >= Success && list && items > 0)
        title = QString::fromUtf8(list[0]);
    if (list)
        XFreeStringList(list);
    XFree(property.value);
    return title;
}

// Xlib's default error handler exits the process. A window can vanish between two requests
// (a popup closing while its focus or geometry is read): such an error is counted and the
// request's answer (an empty property, a failed translation) is handled where it is made.
std::atomic<int> g_xErrors{0};
// A window list the window manager keeps on the root window (_NET_CLIENT_LIST, or
// _NET_CLIENT_LIST_STACKING bottom to top); empty when it keeps none.
QList<Window> rootWindowList(Display* dpy, const char* atomName)
{
    Atom type = 0;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char* data = nullptr;
    QList<Window> windows;
    if (XGetWindowProperty(dpy, DefaultRootWindow(dpy), XInternAtom(dpy, atomName, False), 0, 4096, False, XA_WINDOW,
                           &type, &format, &count, &after, &data) != Success ||
        !data)
        return windows;
    for (unsigned long i = 0; i < count; ++i)
        windows.append(reinterpret_cast<Window*>(data)[i]);
    XFree(data);
    return windows;
}

int recordXError(Display*, XErrorEvent*)
{
    g_xErrors.fetch_add(1, std::memory_order_relaxed);
    return 0;
}

} // namespace

void X11Session::installErrorHandler()
{
    static std::once_flag once;
    std::call_once(once, [] { XSetErrorHandler(&recordXError); });
}

int X11Session::errorCount()
{
    return g_xErrors.load(std::memory_order_relaxed);
}

X11Session::X11Session() = default;

X11Session::~X11Session()
{
    if (m_display)
        XCloseDisplay(dpyOf(m_display));
}

bool X11Session::open(QString* error)
{
    if (m_display)
        return true;
    installErrorHandler();
    Display* dpy = XOpenDisplay(nullptr);
    if (!dpy) {
        *error = QStringLiteral("cannot open the X display \"%1\"").arg(qEnvironmentVariable("DISPLAY"));
        return false;
    }
    int event = 0, errorBase = 0, major = 0, minor = 0;
    if (!XTestQueryExtension(dpy, &event, &errorBase, &major, &minor)) {
        *error = QStringLiteral("the X server has no XTest extension: input cannot be injected");
        XCloseDisplay(dpy);
        return false;
    }
    m_display = dpy;
    return true;
}

bool X11Session::screenshot(QImage* out, QString* error)
{
    if (!open(error))
        return false;
    Display* dpy = dpyOf(m_display);
    const Window root = DefaultRootWindow(dpy);
    XWindowAttributes attributes{};
    XGetWindowAttributes(dpy, root, &attributes);
    XImage* image = XGetImage(dpy, root, 0, 0, static_cast<unsigned>(attributes.width),
                              static_cast<unsigned>(attributes.height), AllPlanes, ZPixmap);
    if (!image) {
        *error = QStringLiteral("XGetImage of the root window failed");
        return false;
    }
    if (image->bits_per_pixel == 32) {
        *out = QImage(reinterpret_cast<const uchar*>(image->data), image->width, image->height, image->bytes_per_line,
                      QImage::Format_RGB32)
                   .copy();
    } else {
        *out = QImage(image->width, image->height, QImage::Format_RGB32);
        for (int y = 0; y < image->height; ++y) {
            for (int x = 0; x < image->width; ++x)
                out->setPixel(x, y, static_cast<QRgb>(XGetPixel(image, x, y)) | 0xff000000u);
        }
    }
    XDestroyImage(image);
    return true;
}

QList<qint64> X11Session::clientPids()
{
    QList<qint64> pids;
    QString error;
    if (!open(&error))
        return pids;
    Display* dpy = dpyOf(m_display);
    const Atom wmPid = XInternAtom(dpy, "_NET_WM_PID", False);
    const QList<Window> windows = rootWindowList(dpy, "_NET_CLIENT_LIST");
    Atom type = 0;
    int format = 0;
    unsigned long after = 0;
    for (Window w : std::as_const(windows)) {
        unsigned char* pidData = nullptr;
        unsigned long n = 0;
        if (XGetWindowProperty(dpy, w, wmPid, 0, 1, False, XA_CARDINAL, &type, &format, &n, &after, &pidData) ==
                Success &&
            pidData) {
            const qint64 pid = n ? static_cast<qint64>(*reinterpret_cast<unsigned long*>(pidData)) : 0;
            XFree(pidData);
            if (pid > 0 && !pids.contains(pid))
                pids.append(pid);
        }
    }
    return pids;
}

quint64 X11Session::findWindow(qint64 pid, const QString& title, bool exactTitle)
{
    QString error;
    if (!open(&error))
        return 0;
    Display* dpy = dpyOf(m_display);
    const Atom wmPid = XInternAtom(dpy, "_NET_WM_PID", False);
    const QList<Window> windows = rootWindowList(dpy, "_NET_CLIENT_LIST");
    Atom type = 0;
    int format = 0;
    unsigned long count = 0, after = 0;
    Window byPid = 0;
    for (Window w : windows) {
        unsigned char* pidData = nullptr;
        if (XGetWindowProperty(dpy, w, wmPid, 0, 1, False, XA_CARDINAL, &type, &format, &count, &after, &pidData) !=
                Success ||
            !pidData)
            continue;
        const qint64 owner = static_cast<qint64>(*reinterpret_cast<unsigned long*>(pidData));
        XFree(pidData);
        if (owner != pid)
            continue;
        if (titleOf(dpy, w) == title)
            return w;
        if (!byPid)
            byPid = w;
    }
    return exactTitle ? 0 : byPid;
}

bool X11Session::activate(quint64 window, int waitMs, const Cancelled& cancelled)
{
    QString error;
    if (!open(&error) || !window)
        return false;
    Display* dpy = dpyOf(m_display);
    const Window target = static_cast<Window>(window);
    // Ask the window manager, as a pager would (source indication 2), then wait for it.
    const Atom active = XInternAtom(dpy, "_NET_ACTIVE_WINDOW", False);
    XEvent event{};
    event.xclient.type = ClientMessage;
    event.xclient.window = target;
    event.xclient.message_type = active;
    event.xclient.format = 32;
    event.xclient.data.l[0] = 2;
    event.xclient.data.l[1] = CurrentTime;
    XSendEvent(dpy, DefaultRootWindow(dpy), False, SubstructureRedirectMask | SubstructureNotifyMask, &event);
    XRaiseWindow(dpy, target);
    XFlush(dpy);
    bool isActive = false;
    QDeadlineTimer until(waitMs);
    while (!until.hasExpired() && !cancelled()) {
        Atom type = 0;
        int format = 0;
        unsigned long count = 0, after = 0;
        unsigned char* data = nullptr;
        if (XGetWindowProperty(dpy, DefaultRootWindow(dpy), active, 0, 1, False, XA_WINDOW, &type, &format, &count,
                               &after, &data) == Success &&
            data) {
            isActive = *reinterpret_cast<Window*>(data) == target;
            XFree(data);
            if (isActive)
                break;
        }
        QThread::msleep(10);
    }
    // Without a window manager nobody acts on the request: set X focus directly.
    XSetInputFocus(dpy, target, RevertToParent, CurrentTime);
    XSync(dpy, False);
    return true;
}

bool X11Session::beforeInjection(QString* error, bool* waited)
{
    if (!m_watch)
        return true;
    const auto next = m_watch->beforeInjection(m_heldKeys > 0 || m_heldButtons > 0);
    if (waited)
        *waited = next == X11InputWatch::Next::Waited;
    if (next == X11InputWatch::Next::Stop) {
        *error = QStringLiteral("stopped");
        return false;
    }
    return true;
}

void X11Session::noteKey(unsigned int keycode)
{
    if (m_watch)
        m_watch->noteKey(keycode);
}

void X11Session::noteButton(unsigned int button)
{
    if (m_watch)
        m_watch->noteButton(button);
}

void X11Session::noteMotion(QPoint to)
{
    if (m_watch)
        m_watch->noteMotion(to);
}

bool X11Session::click(QPoint point, const Cancelled& cancelled, QString* error)
{
    if (!open(error))
        return false;
    Display* dpy = dpyOf(m_display);
    if (!beforeInjection(error))
        return false;
    noteMotion(point);
    XTestFakeMotionEvent(dpy, -1, point.x(), point.y(), CurrentTime);
    XSync(dpy, False);
    // Where the pointer landed (a clamped move is still the host's own).
    if (const auto landed = pointerPosition())
        noteMotion(*landed);
    if (cancelled()) {
        *error = QStringLiteral("cancelled");
        return false;
    }
    noteButton(1);
    XTestFakeButtonEvent(dpy, 1, True, CurrentTime);
    XTestFakeButtonEvent(dpy, 1, False, CurrentTime);
    XSync(dpy, False);
    return true;
}

bool X11Session::isModal(quint64 window)
{
    QString error;
    if (!window || !open(&error))
        return false;
    Display* dpy = dpyOf(m_display);
    const Atom state = XInternAtom(dpy, "_NET_WM_STATE", False);
    const Atom modal = XInternAtom(dpy, "_NET_WM_STATE_MODAL", False);
    Atom type = 0;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char* data = nullptr;
    if (XGetWindowProperty(dpy, static_cast<Window>(window), state, 0, 64, False, XA_ATOM, &type, &format, &count,
                           &after, &data) != Success ||
        !data)
        return false;
    bool found = false;
    for (unsigned long i = 0; i < count && !found; ++i)
        found = reinterpret_cast<Atom*>(data)[i] == modal;
    XFree(data);
    return found;
}

std::optional<X11Session::Covering> X11Session::describeWindow(quint64 window)
{
    QString error;
    if (!window || !open(&error))
        return std::nullopt;
    Display* dpy = dpyOf(m_display);
    const auto w = static_cast<Window>(window);
    XWindowAttributes attributes{};
    int x = 0, y = 0;
    Window child = 0;
    if (!XGetWindowAttributes(dpy, w, &attributes) ||
        !XTranslateCoordinates(dpy, w, DefaultRootWindow(dpy), 0, 0, &x, &y, &child))
        return std::nullopt;
    Covering out;
    out.window = window;
    out.rect = QRect(x, y, attributes.width, attributes.height);
    const Atom wmPid = XInternAtom(dpy, "_NET_WM_PID", False);
    Atom type = 0;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char* value = nullptr;
    if (XGetWindowProperty(dpy, w, wmPid, 0, 1, False, XA_CARDINAL, &type, &format, &count, &after, &value) ==
            Success &&
        value) {
        out.pid = static_cast<qint64>(*reinterpret_cast<unsigned long*>(value));
        XFree(value);
    }
    out.title = titleOf(dpy, w);
    return out;
}

quint64 X11Session::activeWindow()
{
    QString error;
    if (!open(&error))
        return 0;
    Display* dpy = dpyOf(m_display);
    const Atom active = XInternAtom(dpy, "_NET_ACTIVE_WINDOW", False);
    Atom type = 0;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char* value = nullptr;
    if (XGetWindowProperty(dpy, DefaultRootWindow(dpy), active, 0, 1, False, XA_WINDOW, &type, &format, &count, &after,
                           &value) != Success ||
        !value)
        return 0;
    const quint64 window = count > 0 ? static_cast<quint64>(*reinterpret_cast<Window*>(value)) : 0;
    XFree(value);
    return window;
}

QList<X11Session::Monitor> X11Session::monitors()
{
    QString error;
    if (!open(&error))
        return {};
    Display* dpy = dpyOf(m_display);
    QList<Monitor> out;
    int eventBase = 0, errorBase = 0, major = 0, minor = 0;
    if (XRRQueryExtension(dpy, &eventBase, &errorBase) && XRRQueryVersion(dpy, &major, &minor) &&
        (major > 1 || (major == 1 && minor >= 5))) {
        int count = 0;
        // Asked of the server each time: a monitor set with xrandr since the last call counts.
        if (XRRMonitorInfo* info = XRRGetMonitors(dpy, DefaultRootWindow(dpy), True, &count)) {
            for (int i = 0; i < count; ++i) {
                Monitor monitor;
                if (char* name = XGetAtomName(dpy, info[i].name)) {
                    monitor.name = QString::fromLocal8Bit(name);
                    XFree(name);
                }
                monitor.rect = QRect(info[i].x, info[i].y, info[i].width, info[i].height);
                monitor.primary = info[i].primary != 0;
                out.append(monitor);
            }
            XRRFreeMonitors(info);
        }
    }
    if (out.isEmpty()) {
        // Xvfb lists no monitor: its one screen is the display.
        Window root = 0;
        int x = 0, y = 0;
        unsigned width = 0, height = 0, border = 0, depth = 0;
        if (XGetGeometry(dpy, DefaultRootWindow(dpy), &root, &x, &y, &width, &height, &border, &depth))
            out.append(Monitor{QStringLiteral("screen"), QRect(0, 0, int(width), int(height)), true});
    }
    return out;
}

std::optional<X11Session::DisplayFacts> X11Session::displayFacts()
{
    QString error;
    if (!open(&error))
        return std::nullopt;
    Display* dpy = dpyOf(m_display);
    DisplayFacts out;
    const int screen = DefaultScreen(dpy);
    out.rect = QRect(0, 0, DisplayWidth(dpy, screen), DisplayHeight(dpy, screen));
    out.dpiSource = QStringLiteral("default");
    // Xft.dpi in the resource database is what toolkits scale by (96 is 1x).
    if (const char* resources = XResourceManagerString(dpy)) {
        for (const QString& line : QString::fromLocal8Bit(resources).split(QLatin1Char('\n'))) {
            if (!line.startsWith(QLatin1String("Xft.dpi:")))
                continue;
            bool ok = false;
            const double dpi = line.mid(8).trimmed().toDouble(&ok);
            if (ok && dpi > 0) {
                out.scale = dpi / 96.0;
                out.dpiSource = QStringLiteral("Xft.dpi");
            }
        }
    }
    const Atom names = XInternAtom(dpy, "_XKB_RULES_NAMES", True);
    if (names) {
        Atom type = 0;
        int format = 0;
        unsigned long count = 0, after = 0;
        unsigned char* value = nullptr;
        if (XGetWindowProperty(dpy, DefaultRootWindow(dpy), names, 0, 1024, False, XA_STRING, &type, &format, &count,
                               &after, &value) == Success &&
            value) {
            // NUL-separated: rules, model, layout, variant, options.
            out.xkb = QString::fromLatin1(reinterpret_cast<const char*>(value), static_cast<qsizetype>(count))
                          .split(QLatin1Char('\0'));
            XFree(value);
        }
    }
    return out;
}

namespace {

// Whether `window`'s _NET_WM_STATE holds each of `names`.
QList<bool> hasStates(Display* dpy, Window window, std::initializer_list<const char*> names)
{
    QList<bool> out(static_cast<qsizetype>(names.size()), false);
    Atom type = 0;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char* data = nullptr;
    if (XGetWindowProperty(dpy, window, XInternAtom(dpy, "_NET_WM_STATE", False), 0, 64, False, XA_ATOM, &type, &format,
                           &count, &after, &data) != Success ||
        !data)
        return out;
    const auto* atoms = reinterpret_cast<Atom*>(data);
    qsizetype i = 0;
    for (const char* name : names) {
        const Atom wanted = XInternAtom(dpy, name, False);
        for (unsigned long k = 0; k < count; ++k)
            out[i] = out[i] || atoms[k] == wanted;
        ++i;
    }
    XFree(data);
    return out;
}

// ICCCM WM_STATE: 3 is IconicState.
bool isIconic(Display* dpy, Window window)
{
    const Atom wmState = XInternAtom(dpy, "WM_STATE", False);
    Atom type = 0;
    int format = 0;
    unsigned long count = 0, after = 0;
    unsigned char* data = nullptr;
    if (XGetWindowProperty(dpy, window, wmState, 0, 2, False, wmState, &type, &format, &count, &after, &data) !=
            Success ||
        !data)
        return false;
    const bool iconic = count > 0 && reinterpret_cast<unsigned long*>(data)[0] == 3;
    XFree(data);
    return iconic;
}

void sendToWindowManager(Display* dpy, Window window, const char* message, std::initializer_list<long> data)
{
    XEvent event{};
    event.xclient.type = ClientMessage;
    event.xclient.window = window;
    event.xclient.message_type = XInternAtom(dpy, message, False);
    event.xclient.format = 32;
    int i = 0;
    for (long value : data)
        event.xclient.data.l[i++] = value;
    XSendEvent(dpy, DefaultRootWindow(dpy), False, SubstructureRedirectMask | SubstructureNotifyMask, &event);
    XFlush(dpy);
}

} // namespace

std::optional<X11Session::WindowFacts> X11Session::windowFacts(quint64 window)
{
    auto described = describeWindow(window);
    if (!described)
        return std::nullopt;
    Display* dpy = dpyOf(m_display);
    const auto w = static_cast<Window>(window);
    WindowFacts out;
    out.window = *described;
    XWindowAttributes attributes{};
    out.viewable = XGetWindowAttributes(dpy, w, &attributes) && attributes.map_state == IsViewable;
    const QList<bool> states =
        hasStates(dpy, w, {"_NET_WM_STATE_HIDDEN", "_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"});
    out.hidden = states.at(0) || isIconic(dpy, w);
    out.maximized = states.at(1) && states.at(2);
    out.active = activeWindow() == window;
    return out;
}

QList<X11Session::WindowFacts> X11Session::stackedWindows()
{
    QString error;
    QList<WindowFacts> out;
    if (!open(&error))
        return out;
    for (Window w : rootWindowList(dpyOf(m_display), "_NET_CLIENT_LIST_STACKING")) {
        if (auto facts = windowFacts(w))
            out.append(*facts);
    }
    return out;
}

QString X11Session::windowClassName(quint64 window)
{
    QString error;
    if (!window || !open(&error))
        return {};
    XClassHint hint{};
    if (!XGetClassHint(dpyOf(m_display), static_cast<Window>(window), &hint))
        return {};
    const QString name = hint.res_name ? QString::fromLocal8Bit(hint.res_name) : QString();
    if (hint.res_name)
        XFree(hint.res_name);
    if (hint.res_class)
        XFree(hint.res_class);
    return name;
}

bool X11Session::watchRootProperties(QString* error)
{
    if (!open(error))
        return false;
    Display* dpy = dpyOf(m_display);
    XSelectInput(dpy, DefaultRootWindow(dpy), PropertyChangeMask);
    XFlush(dpy);
    return true;
}

int X11Session::connectionFd() const
{
    return m_display ? ConnectionNumber(dpyOf(m_display)) : -1;
}

bool X11Session::takeRootChanges()
{
    if (!m_display)
        return false;
    Display* dpy = dpyOf(m_display);
    const Atom lists[] = {XInternAtom(dpy, "_NET_CLIENT_LIST", False),
                          XInternAtom(dpy, "_NET_CLIENT_LIST_STACKING", False),
                          XInternAtom(dpy, "_NET_ACTIVE_WINDOW", False)};
    bool changed = false;
    while (XPending(dpy) > 0) {
        XEvent event{};
        XNextEvent(dpy, &event);
        if (event.type != PropertyNotify)
            continue;
        for (Atom atom : lists)
            changed = changed || event.xproperty.atom == atom;
    }
    return changed;
}

bool X11Session::requestWindow(quint64 window, WindowRequest request, QRect geometry, bool move, bool resize,
                               QString* error)
{
    if (!open(error))
        return false;
    Display* dpy = dpyOf(m_display);
    const auto w = static_cast<Window>(window);
    // Source indication 2: a pager or tool acting for the user, which window managers obey.
    constexpr long kRemove = 0, kAdd = 1, kSource = 2;
    const long vert = static_cast<long>(XInternAtom(dpy, "_NET_WM_STATE_MAXIMIZED_VERT", False));
    const long horz = static_cast<long>(XInternAtom(dpy, "_NET_WM_STATE_MAXIMIZED_HORZ", False));
    switch (request) {
    case WindowRequest::Minimize:
        XIconifyWindow(dpy, w, DefaultScreen(dpy));
        XFlush(dpy);
        break;
    case WindowRequest::Maximize:
        sendToWindowManager(dpy, w, "_NET_WM_STATE", {kAdd, vert, horz, kSource});
        break;
    case WindowRequest::Restore: {
        const auto facts = windowFacts(window);
        if (facts && facts->hidden)
            sendToWindowManager(dpy, w, "_NET_ACTIVE_WINDOW", {kSource, CurrentTime, 0});
        if (facts && facts->maximized)
            sendToWindowManager(dpy, w, "_NET_WM_STATE", {kRemove, vert, horz, kSource});
        break;
    }
    case WindowRequest::Close:
        sendToWindowManager(dpy, w, "_NET_CLOSE_WINDOW", {CurrentTime, kSource});
        break;
    case WindowRequest::MoveResize: {
        // Static gravity: x and y are where the content goes, not the frame.
        constexpr long kStaticGravity = 10;
        long flags = kStaticGravity | (kSource << 12);
        if (move)
            flags |= (1L << 8) | (1L << 9);
        if (resize)
            flags |= (1L << 10) | (1L << 11);
        sendToWindowManager(dpy, w, "_NET_MOVERESIZE_WINDOW",
                            {flags, geometry.x(), geometry.y(), geometry.width(), geometry.height()});
        break;
    }
    }
    XSync(dpy, False);
    return true;
}

bool X11Session::movePointer(QPoint point, QString* error)
{
    if (!open(error))
        return false;
    Display* dpy = dpyOf(m_display);
    if (!beforeInjection(error))
        return false;
    noteMotion(point);
    XTestFakeMotionEvent(dpy, -1, point.x(), point.y(), CurrentTime);
    XSync(dpy, False);
    if (const auto landed = pointerPosition())
        noteMotion(*landed);
    return true;
}

bool X11Session::pointerButton(int button, bool press, QString* error)
{
    if (!open(error))
        return false;
    if (button < 1 || button > 3) {
        *error = QStringLiteral("button %1 is not a pointer button").arg(button);
        return false;
    }
    Display* dpy = dpyOf(m_display);
    if (press) {
        if (!beforeInjection(error))
            return false;
        noteButton(static_cast<unsigned int>(button));
    }
    XTestFakeButtonEvent(dpy, static_cast<unsigned int>(button), press ? True : False, CurrentTime);
    XSync(dpy, False);
    m_heldButtons = press ? m_heldButtons + 1 : std::max(0, m_heldButtons - 1);
    return true;
}

std::optional<QPoint> X11Session::pointerPosition()
{
    QString error;
    if (!open(&error))
        return std::nullopt;
    Display* dpy = dpyOf(m_display);
    Window root = 0, child = 0;
    int rootX = 0, rootY = 0, winX = 0, winY = 0;
    unsigned int mask = 0;
    if (!XQueryPointer(dpy, DefaultRootWindow(dpy), &root, &child, &rootX, &rootY, &winX, &winY, &mask))
        return std::nullopt;
    return QPoint(rootX, rootY);
}

std::optional<X11Session::Covering> X11Session::windowAbove(quint64 window, QPoint point)
{
    QString error;
    if (!window || !open(&error))
        return std::nullopt;
    Display* dpy = dpyOf(m_display);
    const QList<Window> order = rootWindowList(dpy, "_NET_CLIENT_LIST_STACKING"); // bottom to top
    const qsizetype own = order.indexOf(static_cast<Window>(window));
    if (own < 0)
        return std::nullopt;
    for (qsizetype i = order.size() - 1; i > own; --i) {
        XWindowAttributes attributes{};
        if (!XGetWindowAttributes(dpy, order.at(i), &attributes) || attributes.map_state != IsViewable)
            continue;
        if (auto above = describeWindow(order.at(i)); above && above->rect.contains(point))
            return above;
    }
    return std::nullopt;
}

bool X11Session::wheel(QPoint point, int button, int notches, const Cancelled& cancelled, QString* error)
{
    if (!open(error))
        return false;
    if (button < 4 || button > 7) {
        *error = QStringLiteral("button %1 is not a wheel button").arg(button);
        return false;
    }
    Display* dpy = dpyOf(m_display);
    if (!beforeInjection(error))
        return false;
    noteMotion(point);
    XTestFakeMotionEvent(dpy, -1, point.x(), point.y(), CurrentTime);
    XSync(dpy, False);
    if (const auto landed = pointerPosition())
        noteMotion(*landed);
    for (int i = 0; i < notches; ++i) {
        bool waited = false;
        if (!beforeInjection(error, &waited))
            return false;
        if (waited) {
            // The person may have moved the pointer meanwhile: back over the element first.
            noteMotion(point);
            XTestFakeMotionEvent(dpy, -1, point.x(), point.y(), CurrentTime);
            XSync(dpy, False);
            if (const auto landed = pointerPosition())
                noteMotion(*landed);
        }
        if (cancelled()) {
            *error = QStringLiteral("cancelled");
            return false;
        }
        noteButton(static_cast<unsigned int>(button));
        XTestFakeButtonEvent(dpy, static_cast<unsigned int>(button), True, CurrentTime);
        XTestFakeButtonEvent(dpy, static_cast<unsigned int>(button), False, CurrentTime);
        XSync(dpy, False);
        // Toolkits coalesce wheel events that come at once; a short gap keeps each notch.
        QThread::msleep(15);
    }
    return true;
}

bool X11Session::key(unsigned long keysym, bool press, QString* error)
{
    if (!open(error))
        return false;
    Display* dpy = dpyOf(m_display);
    const KeyCode code = XKeysymToKeycode(dpy, keysym);
    if (!code) {
        *error = QStringLiteral("the keyboard map has no key for keysym 0x%1").arg(keysym, 0, 16);
        return false;
    }
    if (press) {
        if (!beforeInjection(error))
            return false;
        noteKey(code);
    }
    XTestFakeKeyEvent(dpy, code, press ? True : False, CurrentTime);
    XSync(dpy, False);
    m_heldKeys = press ? m_heldKeys + 1 : std::max(0, m_heldKeys - 1);
    return true;
}

bool X11Session::typeCodePoint(char32_t c, QString* error)
{
    if (!open(error))
        return false;
    Display* dpy = dpyOf(m_display);
    const unsigned long keysym = keysymForChar(c);
    KeyCode code = XKeysymToKeycode(dpy, keysym);
    bool shift = false;
    if (code) {
        shift = XkbKeycodeToKeysym(dpy, code, 0, 0) != keysym && XkbKeycodeToKeysym(dpy, code, 0, 1) == keysym;
    } else {
        // No key produces this character: map it onto a spare keycode. Spares rotate, so a
        // client that reads its events late still finds the symbol of each key it was sent.
        if (m_spareKeycodes.isEmpty()) {
            int minCode = 0, maxCode = 0;
            XDisplayKeycodes(dpy, &minCode, &maxCode);
            int perCode = 0;
            KeySym* map = XGetKeyboardMapping(dpy, static_cast<KeyCode>(minCode), maxCode - minCode + 1, &perCode);
            for (int k = maxCode; k >= minCode && m_spareKeycodes.size() < 16 && map; --k) {
                bool empty = true;
                for (int j = 0; j < perCode; ++j)
                    empty = empty && map[(k - minCode) * perCode + j] == NoSymbol;
                if (empty)
                    m_spareKeycodes.append(static_cast<unsigned int>(k));
            }
            if (map)
                XFree(map);
            if (m_spareKeycodes.isEmpty())
                m_spareKeycodes.append(static_cast<unsigned int>(maxCode));
        }
        // Coming back round to a spare remaps a keycode the client may not have read yet:
        // give it a moment first.
        if (m_borrowCount > 0 && m_borrowCount % m_spareKeycodes.size() == 0)
            QThread::msleep(80);
        ++m_borrowCount;
        code = static_cast<KeyCode>(m_spareKeycodes.at(m_nextSpare));
        m_nextSpare = (m_nextSpare + 1) % static_cast<int>(m_spareKeycodes.size());
        KeySym syms[2] = {keysym, keysym};
        XChangeKeyboardMapping(dpy, code, 2, syms, 1);
        XSync(dpy, False);
        if (!m_borrowed.contains(code))
            m_borrowed.append(code);
        // Clients reload their key map on MappingNotify before they read the key.
        QThread::msleep(10);
    }
    const KeyCode shiftCode = XKeysymToKeycode(dpy, XK_Shift_L);
    if (!beforeInjection(error))
        return false;
    if (shift) {
        noteKey(shiftCode);
        XTestFakeKeyEvent(dpy, shiftCode, True, CurrentTime);
    }
    noteKey(code);
    XTestFakeKeyEvent(dpy, code, True, CurrentTime);
    XTestFakeKeyEvent(dpy, code, False, CurrentTime);
    if (shift)
        XTestFakeKeyEvent(dpy, shiftCode, False, CurrentTime);
    XSync(dpy, False);
    return true;
}

void X11Session::releaseBorrowedKeys()
{
    if (m_borrowed.isEmpty() || !m_display)
        return;
    Display* dpy = dpyOf(m_display);
    for (unsigned int code : std::as_const(m_borrowed)) {
        KeySym none[2] = {NoSymbol, NoSymbol};
        XChangeKeyboardMapping(dpy, static_cast<KeyCode>(code), 2, none, 1);
    }
    XSync(dpy, False);
    m_borrowed.clear();
    m_borrowCount = 0;
}

qint64 X11Session::focusOwnerPid()
{
    QString error;
    if (!open(&error))
        return 0;
    Display* dpy = dpyOf(m_display);
    Window focus = 0;
    int revert = 0;
    XGetInputFocus(dpy, &focus, &revert);
    const Atom wmPid = XInternAtom(dpy, "_NET_WM_PID", False);
    for (int depth = 0; focus > 1 /* None, PointerRoot */ && depth < 16; ++depth) {
        Atom type = 0;
        int format = 0;
        unsigned long count = 0, after = 0;
        unsigned char* data = nullptr;
        if (XGetWindowProperty(dpy, focus, wmPid, 0, 1, False, XA_CARDINAL, &type, &format, &count, &after, &data) ==
                Success &&
            data) {
            const qint64 pid = count ? static_cast<qint64>(*reinterpret_cast<unsigned long*>(data)) : 0;
            XFree(data);
            if (pid)
                return pid;
        }
        Window root = 0, parent = 0;
        Window* children = nullptr;
        unsigned int n = 0;
        if (!XQueryTree(dpy, focus, &root, &parent, &children, &n))
            break;
        if (children)
            XFree(children);
        if (parent == root)
            break;
        focus = parent;
    }
    return 0;
}

std::optional<QPoint> X11Session::contentOrigin(quint64 window)
{
    QString error;
    if (!window || !open(&error))
        return std::nullopt;
    Display* dpy = dpyOf(m_display);
    int x = 0, y = 0;
    Window child = 0;
    if (!XTranslateCoordinates(dpy, static_cast<Window>(window), DefaultRootWindow(dpy), 0, 0, &x, &y, &child))
        return std::nullopt;
    // left, right, top, bottom: the invisible margin (shadows) a client-side decorated window draws.
    const Atom extents = XInternAtom(dpy, "_GTK_FRAME_EXTENTS", True);
    if (extents != 0) {
        Atom type = 0;
        int format = 0;
        unsigned long count = 0, after = 0;
        unsigned char* data = nullptr;
        if (XGetWindowProperty(dpy, static_cast<Window>(window), extents, 0, 4, False, XA_CARDINAL, &type, &format,
                               &count, &after, &data) == Success &&
            data) {
            if (count == 4) {
                const auto* v = reinterpret_cast<unsigned long*>(data);
                x += static_cast<int>(v[0]);
                y += static_cast<int>(v[2]);
            }
            XFree(data);
        }
    }
    return QPoint(x, y);
}

unsigned long X11Session::keysymForName(const QString& name) const
{
    static const QHash<QString, unsigned long> table{
        {QStringLiteral("enter"), XK_Return},
        {QStringLiteral("tab"), XK_Tab},
        {QStringLiteral("esc"), XK_Escape},
        {QStringLiteral("space"), XK_space},
        {QStringLiteral("backspace"), XK_BackSpace},
        {QStringLiteral("delete"), XK_Delete},
        {QStringLiteral("insert"), XK_Insert},
        {QStringLiteral("up"), XK_Up},
        {QStringLiteral("down"), XK_Down},
        {QStringLiteral("left"), XK_Left},
        {QStringLiteral("right"), XK_Right},
        {QStringLiteral("home"), XK_Home},
        {QStringLiteral("end"), XK_End},
        {QStringLiteral("pageup"), XK_Prior},
        {QStringLiteral("pagedown"), XK_Next},
        {QStringLiteral("minus"), XK_minus},
        {QStringLiteral("equal"), XK_equal},
        {QStringLiteral("comma"), XK_comma},
        {QStringLiteral("period"), XK_period},
        {QStringLiteral("slash"), XK_slash},
        {QStringLiteral("backslash"), XK_backslash},
        {QStringLiteral("semicolon"), XK_semicolon},
        {QStringLiteral("quote"), XK_apostrophe},
        {QStringLiteral("bracketleft"), XK_bracketleft},
        {QStringLiteral("bracketright"), XK_bracketright},
        {QStringLiteral("grave"), XK_grave},
        {QStringLiteral("menu"), XK_Menu},
        {QStringLiteral("printscreen"), XK_Print},
        {QStringLiteral("ctrl"), XK_Control_L},
        {QStringLiteral("alt"), XK_Alt_L},
        {QStringLiteral("shift"), XK_Shift_L},
        {QStringLiteral("super"), XK_Super_L},
    };
    // On Linux "cmd" is the primary shortcut modifier, Control, unless the
    // settings map it to Super.
    if (name == QLatin1String("cmd"))
        return m_cmdKey == CmdKey::Super ? XK_Super_L : XK_Control_L;
    if (const auto it = table.constFind(name); it != table.cend())
        return *it;
    if (name.size() == 1 && name.at(0).isLetterOrNumber() && name.at(0).unicode() < 0x80)
        return name.at(0).toLower().unicode();
    if (name.size() >= 2 && name.at(0) == QLatin1Char('f')) {
        bool ok = false;
        const int n = name.mid(1).toInt(&ok);
        if (ok && n >= 1 && n <= 24)
            return XK_F1 + static_cast<unsigned long>(n - 1);
    }
    return 0;
}

unsigned long X11Session::keysymReturn()
{
    return XK_Return;
}

unsigned long X11Session::keysymBackSpace()
{
    return XK_BackSpace;
}

unsigned long X11Session::keysymControl()
{
    return XK_Control_L;
}

} // namespace Automation
