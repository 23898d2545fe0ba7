#include "automation/backends/atspi/X11Clipboard.h"
#include "automation/backends/atspi/X11Session.h"

#include <QDeadlineTimer>
#include <QImage>
#include <QThread>

#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include <poll.h>

namespace Automation {

namespace {

Display* dpyOf(void* p)
{
    return static_cast<Display*>(p);
}

struct Atoms
{
    Atom clipboard, targets, utf8, text, property, incr;
    explicit Atoms(Display* dpy)
        : clipboard(XInternAtom(dpy, "CLIPBOARD", False)), targets(XInternAtom(dpy, "TARGETS", False)),
          utf8(XInternAtom(dpy, "UTF8_STRING", False)), text(XInternAtom(dpy, "TEXT", False)),
          property(XInternAtom(dpy, "MDH_CLIPBOARD", False)), incr(XInternAtom(dpy, "INCR", False))
    {
    }
};

} // namespace

X11Clipboard::X11Clipboard() = default;

X11Clipboard::~X11Clipboard()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_display) {
        XDestroyWindow(dpyOf(m_display), m_window);
        XCloseDisplay(dpyOf(m_display));
    }
}

bool X11Clipboard::open(QString* error)
{
    if (m_display)
        return true;
    // A connection of its own: the server thread reads events from it without disturbing the
    // backend's XTest connection.
    X11Session::installErrorHandler();
    Display* dpy = XOpenDisplay(nullptr);
    if (!dpy) {
        *error = QStringLiteral("cannot open the X display for the clipboard");
        return false;
    }
    m_display = dpy;
    m_window = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0);
    XSelectInput(dpy, m_window, PropertyChangeMask);
    XFlush(dpy);
    return true;
}

namespace {

// Waits for the SelectionNotify of a conversion into `property` on `window`; returns the
// property's type and bytes, or nullopt when the owner refused or did not answer.
std::optional<std::pair<Atom, QByteArray>> convert(Display* dpy, Window window, Atom selection, Atom target,
                                                   Atom property, int waitMs)
{
    XConvertSelection(dpy, selection, target, property, window, CurrentTime);
    XFlush(dpy);
    QDeadlineTimer deadline(waitMs);
    while (!deadline.hasExpired()) {
        while (XPending(dpy)) {
            XEvent event;
            XNextEvent(dpy, &event);
            if (event.type != SelectionNotify || event.xselection.target != target)
                continue;
            if (event.xselection.property == None)
                return std::nullopt;
            Atom type = 0;
            int format = 0;
            unsigned long count = 0, after = 0;
            unsigned char* data = nullptr;
            XGetWindowProperty(dpy, window, property, 0, 1 << 24, True, AnyPropertyType, &type, &format, &count, &after,
                               &data);
            QByteArray bytes;
            if (data) {
                const qsizetype unit = format == 32 ? static_cast<qsizetype>(sizeof(long)) : format / 8;
                bytes = QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(count) * unit);
                XFree(data);
            }
            return std::pair{type, bytes};
        }
        QThread::msleep(2);
    }
    return std::nullopt;
}

} // namespace

std::optional<QString> X11Clipboard::readCurrent(bool* isText, QString* error)
{
    // Called while the server thread is stopped: this thread may read events itself.
    Display* dpy = dpyOf(m_display);
    const Atoms atoms(dpy);
    *isText = false;
    if (XGetSelectionOwner(dpy, atoms.clipboard) == None) {
        *isText = true;
        return QString(); // empty: restoring means "no owner"
    }
    // Only a clipboard whose every form is text can be saved and put back whole: an owner that
    // also offers an image, HTML or files would lose them (and some owners answer a text
    // request with whatever they hold).
    const auto targets = convert(dpy, m_window, atoms.clipboard, atoms.targets, atoms.property, 500);
    if (!targets || targets->first != XA_ATOM) {
        *error = QStringLiteral("the clipboard's owner does not list its formats");
        return std::nullopt;
    }
    static const QByteArrayList textForms{"TARGETS",
                                          "TIMESTAMP",
                                          "MULTIPLE",
                                          "SAVE_TARGETS",
                                          "UTF8_STRING",
                                          "STRING",
                                          "TEXT",
                                          "COMPOUND_TEXT",
                                          "text/plain",
                                          "text/plain;charset=utf-8",
                                          "text/plain;charset=UTF-8"};
    const auto* list = reinterpret_cast<const Atom*>(targets->second.constData());
    const qsizetype n = targets->second.size() / static_cast<qsizetype>(sizeof(Atom));
    for (qsizetype i = 0; i < n; ++i) {
        char* name = XGetAtomName(dpy, list[i]);
        const bool text = name && textForms.contains(QByteArray(name));
        if (name)
            XFree(name);
        if (!text)
            return std::nullopt;
    }
    const auto content = convert(dpy, m_window, atoms.clipboard, atoms.utf8, atoms.property, 500);
    if (!content || content->first == atoms.incr || (content->first != atoms.utf8 && content->first != XA_STRING))
        return std::nullopt; // too large for one transfer (INCR) or not text after all: not touched
    *isText = true;
    return QString::fromUtf8(content->second);
}

void X11Clipboard::serve()
{
    Display* dpy = dpyOf(m_display);
    const Atoms atoms(dpy);
    pollfd fd{ConnectionNumber(dpy), POLLIN, 0};
    while (!m_stop) {
        restoreIfDue();
        if (!XPending(dpy)) {
            ::poll(&fd, 1, 50);
            continue;
        }
        XEvent event;
        XNextEvent(dpy, &event);
        std::lock_guard lock(m_mutex);
        if (event.type == SelectionClear) {
            // Someone else copied something: theirs now, never overwritten by a restore.
            m_lost = true;
            m_offer.reset();
            continue;
        }
        if (event.type != SelectionRequest)
            continue;
        const XSelectionRequestEvent& request = event.xselectionrequest;
        XSelectionEvent reply{};
        reply.type = SelectionNotify;
        reply.display = request.display;
        reply.requestor = request.requestor;
        reply.selection = request.selection;
        reply.target = request.target;
        reply.time = request.time;
        reply.property = None;
        const Atom property = request.property == None ? request.target : request.property;
        if (m_offer && request.target == atoms.targets) {
            const Atom offered[] = {atoms.targets, atoms.utf8, XA_STRING, atoms.text};
            XChangeProperty(dpy, request.requestor, property, XA_ATOM, 32, PropModeReplace,
                            reinterpret_cast<const unsigned char*>(offered), 4);
            reply.property = property;
        } else if (m_offer &&
                   (request.target == atoms.utf8 || request.target == XA_STRING || request.target == atoms.text)) {
            XChangeProperty(dpy, request.requestor, property, request.target == XA_STRING ? XA_STRING : atoms.utf8, 8,
                            PropModeReplace, reinterpret_cast<const unsigned char*>(m_offer->constData()),
                            static_cast<int>(m_offer->size()));
            reply.property = property;
            ++m_served;
        }
        XSendEvent(dpy, request.requestor, False, NoEventMask, reinterpret_cast<XEvent*>(&reply));
        XFlush(dpy);
    }
}

X11Clipboard::Result X11Clipboard::paste(const QString& text, const std::function<bool()>& pressPaste, int waitMs)
{
    Result result;
    if (!open(&result.error))
        return result;
    // Stop serving while the current content is read (this thread reads the events then).
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    m_stop = false;

    Display* dpy = dpyOf(m_display);
    const Atoms atoms(dpy);
    std::optional<QString> previous;
    {
        std::lock_guard lock(m_mutex);
        if (m_offer && XGetSelectionOwner(dpy, atoms.clipboard) == m_window)
            previous = QString::fromUtf8(*m_offer); // we are still offering an earlier restore
    }
    bool previouslyOwned = previous.has_value();
    if (!previous) {
        bool isText = true;
        previous = readCurrent(&isText, &result.error);
        if (!isText || !previous) {
            result.outcome = Outcome::NotRestorable;
            return result;
        }
        previouslyOwned = XGetSelectionOwner(dpy, atoms.clipboard) != None;
    }
    {
        std::lock_guard lock(m_mutex);
        m_offer = text.toUtf8();
        m_served = 0;
        m_lost = false;
    }
    XSetSelectionOwner(dpy, atoms.clipboard, m_window, CurrentTime);
    XFlush(dpy);
    if (XGetSelectionOwner(dpy, atoms.clipboard) != m_window) {
        result.error = QStringLiteral("could not take the clipboard");
        return result;
    }
    m_thread = std::thread([this] { serve(); });

    if (!pressPaste()) {
        result.outcome = Outcome::Failed;
        result.error = QStringLiteral("the paste chord could not be sent");
    } else {
        QDeadlineTimer deadline(waitMs);
        while (!deadline.hasExpired()) {
            {
                std::lock_guard lock(m_mutex);
                if (m_served > 0 || m_lost)
                    break;
            }
            QThread::msleep(5);
        }
        std::lock_guard lock(m_mutex);
        result.outcome = m_served > 0 ? Outcome::Pasted : Outcome::NotRequested;
    }
    // A requestor may read in several steps (TARGETS, then the text): give it a moment.
    QThread::msleep(30);

    // Only one thread may use the connection: stop serving while this one restores.
    m_stop = true;
    m_thread.join();
    m_stop = false;
    std::lock_guard lock(m_mutex);
    if (m_lost || XGetSelectionOwner(dpy, atoms.clipboard) != m_window) {
        // Someone else copied something meanwhile: theirs now, never overwritten.
        result.changedMeanwhile = true;
        m_offer.reset();
        return result;
    }
    if (previouslyOwned) {
        m_offer = previous->toUtf8(); // keep offering what the person had copied
        m_thread = std::thread([this] { serve(); });
    } else {
        m_offer.reset();
        XSetSelectionOwner(dpy, atoms.clipboard, None, CurrentTime);
        XFlush(dpy);
    }
    result.restored = true;
    return result;
}

namespace {

/// A conversion's whole answer, INCR transfers included (images are sent in pieces): the type
/// and the bytes, or nullopt when the owner refused or did not answer in time.
std::optional<std::pair<Atom, QByteArray>> convertWhole(Display* dpy, Window window, Atom selection, Atom target,
                                                        Atom property, Atom incr, int waitMs, qsizetype maxBytes)
{
    auto first = convert(dpy, window, selection, target, property, waitMs);
    if (!first || first->first != incr)
        return first;
    // INCR: the owner writes piece after piece into the property, each after we delete the
    // last; an empty piece ends it.
    QByteArray whole;
    Atom type = None;
    QDeadlineTimer deadline(waitMs);
    while (!deadline.hasExpired()) {
        while (XPending(dpy)) {
            XEvent event;
            XNextEvent(dpy, &event);
            if (event.type != PropertyNotify || event.xproperty.atom != property ||
                event.xproperty.state != PropertyNewValue)
                continue;
            Atom pieceType = None;
            int format = 0;
            unsigned long count = 0, after = 0;
            unsigned char* data = nullptr;
            XGetWindowProperty(dpy, window, property, 0, 1 << 24, True, AnyPropertyType, &pieceType, &format, &count,
                               &after, &data);
            const qsizetype unit = format == 32 ? static_cast<qsizetype>(sizeof(long)) : std::max(1, format / 8);
            const qsizetype size = static_cast<qsizetype>(count) * unit;
            if (data) {
                whole.append(reinterpret_cast<const char*>(data), size);
                XFree(data);
            }
            if (type == None)
                type = pieceType;
            if (size == 0)
                return std::pair{type, whole};
            if (whole.size() > maxBytes)
                return std::nullopt;
            deadline.setRemainingTime(waitMs);
        }
        QThread::msleep(2);
    }
    return std::nullopt;
}

/// A connection and a window of its own, for one read: any app's view of the clipboard.
class Reader
{
public:
    Reader()
    {
        X11Session::installErrorHandler();
        dpy = XOpenDisplay(nullptr);
        if (dpy) {
            window = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0);
            XSelectInput(dpy, window, PropertyChangeMask);
            XFlush(dpy);
        }
    }
    ~Reader()
    {
        if (dpy) {
            XDestroyWindow(dpy, window);
            XCloseDisplay(dpy);
        }
    }
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    Display* dpy = nullptr;
    Window window = 0;
};

bool isTextForm(const QByteArray& name)
{
    return name == "UTF8_STRING" || name == "STRING" || name == "TEXT" || name.startsWith("text/plain");
}

} // namespace

Automation::Result<ClipboardContent> X11Clipboard::read(int waitMs)
{
    Reader reader;
    if (!reader.dpy)
        return Error::make(ErrorCode::PermissionMissing, QStringLiteral("cannot open the X display for the clipboard"),
                           QJsonObject{{QStringLiteral("permission"), QStringLiteral("screenRecording")}});
    Display* dpy = reader.dpy;
    const Atoms atoms(dpy);
    ClipboardContent out;
    if (XGetSelectionOwner(dpy, atoms.clipboard) == None) {
        out.empty = true;
        return out;
    }
    const auto targets = convert(dpy, reader.window, atoms.clipboard, atoms.targets, atoms.property, waitMs);
    if (!targets || targets->first != XA_ATOM)
        return Error::make(ErrorCode::Timeout,
                           QStringLiteral("the clipboard's owner did not say what it holds within %1 ms").arg(waitMs),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("owner_silent")}})
            .withRetryable(true);
    const auto* list = reinterpret_cast<const Atom*>(targets->second.constData());
    const qsizetype n = targets->second.size() / static_cast<qsizetype>(sizeof(Atom));
    bool hint = false;
    bool text = false;
    bool png = false;
    for (qsizetype i = 0; i < n; ++i) {
        char* name = XGetAtomName(dpy, list[i]);
        if (!name)
            continue;
        const QByteArray form(name);
        XFree(name);
        if (form == "TARGETS" || form == "TIMESTAMP" || form == "MULTIPLE" || form == "SAVE_TARGETS")
            continue;
        out.formats.append(QString::fromLatin1(form));
        hint = hint || form == "x-kde-passwordManagerHint";
        text = text || isTextForm(form);
        png = png || form == "image/png";
    }
    if (hint) {
        // KeePassXC and others offer the hint "secret" beside the password: nothing is read.
        const Atom hintAtom = XInternAtom(dpy, "x-kde-passwordManagerHint", False);
        const auto value = convert(dpy, reader.window, atoms.clipboard, hintAtom, atoms.property, waitMs);
        out.concealed = !value || value->second.trimmed() == "secret";
        if (out.concealed)
            return out;
    }
    if (text) {
        const auto content =
            convertWhole(dpy, reader.window, atoms.clipboard, atoms.utf8, atoms.property, atoms.incr, waitMs, 64 << 20);
        if (content && (content->first == atoms.utf8 || content->first == XA_STRING))
            out.text =
                content->first == XA_STRING ? QString::fromLatin1(content->second) : QString::fromUtf8(content->second);
    }
    if (png) {
        const Atom pngAtom = XInternAtom(dpy, "image/png", False);
        const auto image =
            convertWhole(dpy, reader.window, atoms.clipboard, pngAtom, atoms.property, atoms.incr, waitMs, 128 << 20);
        if (image && !image->second.isEmpty()) {
            const QImage decoded = QImage::fromData(image->second, "PNG");
            if (!decoded.isNull()) {
                out.png = image->second;
                out.imageSize = decoded.size();
            }
        }
    }
    return out;
}

void X11Clipboard::stopServing()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    m_stop = false;
}

void X11Clipboard::restoreIfDue()
{
    std::lock_guard lock(m_mutex);
    if (!m_restore || std::chrono::steady_clock::now() < m_restoreAt)
        return;
    const std::optional<QByteArray> previous = *m_restore;
    m_restore.reset();
    if (m_lost || !m_offer)
        return; // someone else copied since: theirs
    Display* dpy = dpyOf(m_display);
    if (previous) {
        m_offer = *previous;
    } else {
        // It was empty: give the clipboard up.
        m_offer.reset();
        XSetSelectionOwner(dpy, Atoms(dpy).clipboard, None, CurrentTime);
        XFlush(dpy);
    }
}

Automation::Result<ClipboardWrite> X11Clipboard::write(const QString& text, int restoreAfterMs, int waitMs)
{
    QString error;
    if (!open(&error))
        return Error::make(ErrorCode::PermissionMissing, error,
                           QJsonObject{{QStringLiteral("permission"), QStringLiteral("screenRecording")}});
    ClipboardWrite out;
    Display* dpy = dpyOf(m_display);
    const Atoms atoms(dpy);
    // What is there now: this owner's own offer, or whatever another app holds.
    std::optional<QByteArray> ownOffer;
    {
        std::lock_guard lock(m_mutex);
        if (m_offer && XGetSelectionOwner(dpy, atoms.clipboard) == m_window)
            ownOffer = m_offer;
    }
    if (ownOffer) {
        out.previous.formats =
            QStringList{QStringLiteral("UTF8_STRING"), QStringLiteral("STRING"), QStringLiteral("TEXT")};
        out.previous.text = QString::fromUtf8(*ownOffer);
    } else {
        auto before = read(waitMs);
        if (!before)
            return before.error();
        out.previous = before.value();
    }
    stopServing();
    {
        std::lock_guard lock(m_mutex);
        m_offer = text.toUtf8();
        m_lost = false;
        m_restore.reset();
    }
    XSetSelectionOwner(dpy, atoms.clipboard, m_window, CurrentTime);
    XFlush(dpy);
    if (XGetSelectionOwner(dpy, atoms.clipboard) != m_window) {
        std::lock_guard lock(m_mutex);
        m_offer.reset();
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("the X server did not give the host the clipboard"));
    }
    m_thread = std::thread([this] { serve(); });
    // Read back as any app would: through another connection, served by the thread above.
    const auto back = read(waitMs);
    out.verified = back && back->text && *back->text == text;
    if (restoreAfterMs > 0) {
        if (out.previous.concealed) {
            out.notRestorable = QStringLiteral("concealed");
        } else if (!out.previous.empty && !out.previous.text) {
            out.notRestorable = QStringLiteral("not_text");
        } else {
            std::lock_guard lock(m_mutex);
            m_restore = out.previous.empty ? std::optional<QByteArray>() : std::optional(out.previous.text->toUtf8());
            m_restoreAt = std::chrono::steady_clock::now() + std::chrono::milliseconds(restoreAfterMs);
            out.restoreScheduled = true;
        }
    }
    // What the previous owner held besides text (an image) is gone from the clipboard now; the
    // answer says what it was.
    return out;
}

} // namespace Automation
