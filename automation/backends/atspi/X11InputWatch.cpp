#include "automation/backends/atspi/X11InputWatch.h"

#include "automation/backends/atspi/X11Session.h"

#include <QDateTime>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTimeZone>

#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcInputWatch, "mdh.backend.inputwatch")

namespace Automation {

namespace {

Display* dpyOf(void* display)
{
    return static_cast<Display*>(display);
}

// How long a noted injection may take to come back as a raw event. XTest requests are sent
// and synced before the next one, so the event follows within milliseconds; a loaded machine
// (or a watch thread held up) gets plenty of slack, and the notes are bounded by count too.
constexpr auto kNoteLifetime = std::chrono::milliseconds(10000);
constexpr qsizetype kMaxNotes = 1024;
// Foreign input this soon after the host's last injection stops the call at once.
constexpr auto kInjectingGrace = std::chrono::milliseconds(250);

} // namespace

std::optional<X11InputWatch::Mode> X11InputWatch::modeFromName(const QString& name)
{
    if (name == QLatin1String("abort"))
        return Mode::Abort;
    if (name == QLatin1String("wait"))
        return Mode::Wait;
    if (name == QLatin1String("off"))
        return Mode::Off;
    return std::nullopt;
}

QString X11InputWatch::modeName(Mode mode)
{
    switch (mode) {
    case Mode::Abort:
        return QStringLiteral("abort");
    case Mode::Wait:
        return QStringLiteral("wait");
    case Mode::Off:
        break;
    }
    return QStringLiteral("off");
}

X11InputWatch::X11InputWatch() = default;

X11InputWatch::~X11InputWatch()
{
    stop();
}

bool X11InputWatch::start(QString* error)
{
    if (m_running.load())
        return true;
    // An X error on this connection (a device gone between an event and a query) is counted,
    // never fatal.
    X11Session::installErrorHandler();
    Display* dpy = XOpenDisplay(nullptr);
    if (!dpy) {
        *error = QStringLiteral("cannot open the X display");
        return false;
    }
    int event = 0;
    int xerror = 0;
    if (!XQueryExtension(dpy, "XInputExtension", &m_opcode, &event, &xerror)) {
        XCloseDisplay(dpy);
        *error = QStringLiteral("the X server has no XInput extension");
        return false;
    }
    // 2.2: raw events reach every client that selects them, grabs or not.
    int major = 2;
    int minor = 2;
    // 2.1 at least: before it a raw event does not say which device it came from.
    if (XIQueryVersion(dpy, &major, &minor) != Success || major < 2 || (major == 2 && minor < 1)) {
        XCloseDisplay(dpy);
        *error = QStringLiteral("the X server has no XInput 2.1 or later");
        return false;
    }
    unsigned char bits[XIMaskLen(XI_LASTEVENT)] = {};
    XISetMask(bits, XI_RawKeyPress);
    XISetMask(bits, XI_RawButtonPress);
    XISetMask(bits, XI_RawMotion);
    XIEventMask mask;
    // Master devices only: each raw event once, its slave (the physical or XTEST device) as source.
    mask.deviceid = XIAllMasterDevices;
    mask.mask_len = sizeof(bits);
    mask.mask = bits;
    XISelectEvents(dpy, DefaultRootWindow(dpy), &mask, 1);
    XSync(dpy, False);
    if (::pipe2(m_stopPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        XCloseDisplay(dpy);
        *error = QStringLiteral("cannot create the watch's pipe");
        return false;
    }
    m_display = dpy;
    m_running = true;
    m_alive = true;
    m_thread = std::thread([this] { run(); });
    return true;
}

void X11InputWatch::stop()
{
    if (!m_running.exchange(false))
        return;
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(m_stopPipe[1], &byte, 1);
    if (m_thread.joinable())
        m_thread.join();
    ::close(m_stopPipe[0]);
    ::close(m_stopPipe[1]);
    m_stopPipe[0] = m_stopPipe[1] = -1;
    XCloseDisplay(dpyOf(m_display));
    m_display = nullptr;
}

void X11InputWatch::setMode(Mode mode)
{
    QMutexLocker lock(&m_mutex);
    m_mode = mode;
}

X11InputWatch::Mode X11InputWatch::mode() const
{
    QMutexLocker lock(&m_mutex);
    return m_mode;
}

void X11InputWatch::setQuietMs(int ms)
{
    QMutexLocker lock(&m_mutex);
    m_quietMs = std::clamp(ms, 100, 60000);
}

void X11InputWatch::note(Noted noted)
{
    QMutexLocker lock(&m_mutex);
    const auto now = Clock::now();
    while (!m_noted.isEmpty() && (now - m_noted.constFirst().when > kNoteLifetime || m_noted.size() >= kMaxNotes))
        m_noted.removeFirst();
    noted.when = now;
    m_noted.append(noted);
    m_lastInjection = now;
}

void X11InputWatch::noteKey(unsigned int keycode)
{
    note(Noted{Kind::Key, keycode, {}, {}, false});
}

void X11InputWatch::noteButton(unsigned int button)
{
    note(Noted{Kind::Button, button, {}, {}, false});
}

void X11InputWatch::noteMotion(QPoint to)
{
    note(Noted{Kind::Motion, 0, to, {}, false});
}

void X11InputWatch::arm(const CallContext& context)
{
    QMutexLocker lock(&m_mutex);
    if (m_armDepth++ > 0)
        return;
    m_armed = true;
    m_armedFlag = true;
    m_needBaseline = true;
    m_call = context;
    m_armedAt = Clock::now();
    m_foreignWhileArmed = false;
    m_holding = false;
    m_yields = {};
}

void X11InputWatch::disarm()
{
    QMutexLocker lock(&m_mutex);
    if (m_armDepth == 0 || --m_armDepth > 0)
        return;
    m_armed = false;
    m_armedFlag = false;
    m_call.reset();
}

X11InputWatch::Next X11InputWatch::beforeInjection(bool holding)
{
    QMutexLocker lock(&m_mutex);
    m_holding = holding;
    if (!m_armed || !m_call)
        return Next::Go;
    if (m_call->checkpoint())
        return Next::Stop;
    if (m_mode == Mode::Abort) {
        if (!m_foreignWhileArmed)
            return Next::Go;
        // The person came in between two injections: stop before the next.
        m_call->token()->cancel(CancelToken::Reason::UserInput);
        return Next::Stop;
    }
    // Wait: never while a key or button is held (the sequence is finished first), and only
    // when the person was active within the quiet period, before the call or during it.
    const auto quiet = std::chrono::milliseconds(m_quietMs);
    if (m_mode != Mode::Wait || holding || !m_anyForeign || Clock::now() - m_lastForeign >= quiet)
        return Next::Go;
    const auto began = Clock::now();
    const qint64 beganEpoch = QDateTime::currentMSecsSinceEpoch();
    while (Clock::now() - m_lastForeign < quiet && !m_call->checkpoint()) {
        const auto left = quiet - (Clock::now() - m_lastForeign);
        const qint64 waitMs = std::clamp<qint64>(std::chrono::duration_cast<std::chrono::milliseconds>(left).count(), 1,
                                                 std::min<qint64>(50, std::max<qint64>(1, m_call->remainingMs())));
        m_changed.wait(&m_mutex, static_cast<unsigned long>(waitMs));
    }
    const qint64 ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - began).count();
    m_yields.append(QJsonObject{
        {QStringLiteral("at"), QDateTime::fromMSecsSinceEpoch(beganEpoch, Qt::UTC).toString(Qt::ISODateWithMs)},
        {QStringLiteral("ms"), ms}});
    return m_call->checkpoint() ? Next::Stop : Next::Waited;
}

QJsonArray X11InputWatch::takeYields()
{
    QMutexLocker lock(&m_mutex);
    QJsonArray out = m_yields;
    m_yields = {};
    return out;
}

bool X11InputWatch::classify(Kind kind, unsigned int detail, bool fromXtest, std::optional<QPoint> pointer)
{
    QMutexLocker lock(&m_mutex);
    if (!fromXtest)
        return true; // a real keyboard or mouse: the person's
    const auto now = Clock::now();
    for (Noted& noted : m_noted) {
        if (noted.matched || noted.kind != kind || now - noted.when > kNoteLifetime)
            continue;
        if (kind == Kind::Motion) {
            // Motion events may be read after later moves: any recent target the host moved
            // to that the pointer is at now makes it the host's.
            if (pointer && noted.at == *pointer)
                return false;
            continue;
        }
        if (noted.detail == detail) {
            noted.matched = true;
            return false;
        }
    }
    // Motion with no pointer position read is not decided against the person.
    return kind != Kind::Motion || pointer.has_value();
}

void X11InputWatch::foreign(Kind kind)
{
    m_foreignCount.fetch_add(1);
    m_lastForeignEpochMs.store(QDateTime::currentMSecsSinceEpoch());
    QMutexLocker lock(&m_mutex);
    const auto now = Clock::now();
    m_lastForeign = now;
    m_anyForeign = true;
    if (m_armed) {
        m_foreignWhileArmed = true;
        // While the host is injecting (or holds a key or button) the call stops at once; in a
        // pause (a check after the input, a slow app) the next injection decides.
        if (m_mode == Mode::Abort && m_call && (m_holding || now - m_lastInjection < kInjectingGrace))
            m_call->token()->cancel(CancelToken::Reason::UserInput);
        m_changed.wakeAll();
    }
    qCDebug(lcInputWatch) << "foreign input" << static_cast<int>(kind) << "armed" << m_armed;
}

void X11InputWatch::run()
{
    Display* dpy = dpyOf(m_display);
    struct Alive
    {
        std::atomic<bool>& alive;
        ~Alive() { alive = false; }
    } alive{m_alive};
    const auto pointerNow = [dpy]() -> std::optional<QPoint> {
        Window root = 0;
        Window child = 0;
        int rootX = 0;
        int rootY = 0;
        int winX = 0;
        int winY = 0;
        unsigned int mask = 0;
        if (!XQueryPointer(dpy, DefaultRootWindow(dpy), &root, &child, &rootX, &rootY, &winX, &winY, &mask))
            return std::nullopt;
        return QPoint(rootX, rootY);
    };
    pollfd fds[2] = {{ConnectionNumber(dpy), POLLIN, 0}, {m_stopPipe[0], POLLIN, 0}};
    while (m_running.load()) {
        // Armed: where is the pointer? A move the host did not make is the person's.
        if (m_armedFlag.load()) {
            if (const auto at = pointerNow()) {
                if (m_needBaseline.exchange(false) || !m_lastPointer) {
                    m_lastPointer = at;
                } else if (*at != *m_lastPointer) {
                    m_lastPointer = at;
                    if (classify(Kind::Motion, 0, true, at))
                        foreign(Kind::Motion);
                }
            }
        }
        while (XPending(dpy) > 0) {
            XEvent event;
            XNextEvent(dpy, &event);
            XGenericEventCookie* cookie = &event.xcookie;
            if (cookie->type != GenericEvent || cookie->extension != m_opcode || !XGetEventData(dpy, cookie))
                continue;
            const auto* raw = static_cast<const XIRawEvent*>(cookie->data);
            const int evtype = cookie->evtype;
            const unsigned int detail = static_cast<unsigned int>(raw->detail);
            const int source = raw->sourceid;
            XFreeEventData(dpy, cookie);
            m_eventsRead.fetch_add(1);
            auto known = m_xtestDevice.constFind(source);
            if (known == m_xtestDevice.constEnd()) {
                int count = 0;
                bool xtest = false;
                bool read = false;
                if (XIDeviceInfo* info = XIQueryDevice(dpy, source, &count)) {
                    read = count > 0;
                    xtest = read && info->name && QString::fromUtf8(info->name).contains(QLatin1String("XTEST"));
                    XIFreeDeviceInfo(info);
                }
                // Only what was read is remembered (a device that went away is asked again).
                if (read)
                    known = m_xtestDevice.insert(source, xtest);
            }
            // A device that could not be read is judged by the notes (never taken for the person).
            const bool fromXtest = known == m_xtestDevice.constEnd() || known.value();
            Kind kind = Kind::Key;
            std::optional<QPoint> pointer;
            if (evtype == XI_RawButtonPress) {
                kind = Kind::Button;
            } else if (evtype == XI_RawMotion) {
                kind = Kind::Motion;
                pointer = pointerNow();
                // Judged here, not again by the polling.
                if (pointer && m_armedFlag.load())
                    m_lastPointer = pointer;
            } else if (evtype != XI_RawKeyPress) {
                continue;
            }
            if (classify(kind, detail, fromXtest, pointer))
                foreign(kind);
        }
        fds[0].revents = 0;
        fds[1].revents = 0;
        if (::poll(fds, 2, m_armedFlag.load() ? 20 : 500) < 0 && errno != EINTR) {
            qCWarning(lcInputWatch) << "the input watch stopped reading:" << errno;
            break;
        }
        if (fds[1].revents & POLLIN)
            break;
    }
}

} // namespace Automation
