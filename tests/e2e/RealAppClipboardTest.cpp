// End to end, desktop.clipboard on the headless desktop's X server (docs/protocol.md §5.29):
// text written by the host is what xclip reads and what mousepad pastes; what a person copied
// with xclip (text, an image) is what the host reads; a password manager's concealed copy is
// never answered; the previous text comes back after restoreAfterMs.
#include "RealAppSupport.h"

#include <QBuffer>
#include <QDeadlineTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QProcess>
#include <QThread>

#include <X11/Xatom.h>
#include <X11/Xlib.h>

#include <atomic>
#include <thread>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class RealAppClipboard : public RealAppTest<RealAppClipboard>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        s_app->start(u"mousepad"_s, {u"--disable-server"_s}, documentQuery());
    }
    static std::optional<QString> editorText() { return soleText(*s_app, documentQuery()); }
};

/// What a password manager does (KeePassXC): offers the password and the hint that it is one.
class ConcealedCopy
{
public:
    explicit ConcealedCopy(const QByteArray& secret) : m_secret(secret)
    {
        m_dpy = XOpenDisplay(nullptr);
        if (!m_dpy)
            return;
        m_window = XCreateSimpleWindow(m_dpy, DefaultRootWindow(m_dpy), 0, 0, 1, 1, 0, 0, 0);
        m_clipboard = XInternAtom(m_dpy, "CLIPBOARD", False);
        XSetSelectionOwner(m_dpy, m_clipboard, m_window, CurrentTime);
        XFlush(m_dpy);
        m_owned = XGetSelectionOwner(m_dpy, m_clipboard) == m_window;
        m_thread = std::thread([this] { serve(); });
    }
    ~ConcealedCopy()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        if (m_dpy) {
            XDestroyWindow(m_dpy, m_window);
            XCloseDisplay(m_dpy);
        }
    }
    bool owned() const { return m_owned; }
    int servedSecret() const { return m_servedSecret; }

private:
    void serve()
    {
        const Atom targets = XInternAtom(m_dpy, "TARGETS", False);
        const Atom utf8 = XInternAtom(m_dpy, "UTF8_STRING", False);
        const Atom hint = XInternAtom(m_dpy, "x-kde-passwordManagerHint", False);
        while (!m_stop) {
            if (!XPending(m_dpy)) {
                QThread::msleep(5);
                continue;
            }
            XEvent event;
            XNextEvent(m_dpy, &event);
            if (event.type != SelectionRequest)
                continue;
            const XSelectionRequestEvent& r = event.xselectionrequest;
            XSelectionEvent reply{};
            reply.type = SelectionNotify;
            reply.requestor = r.requestor;
            reply.selection = r.selection;
            reply.target = r.target;
            reply.time = r.time;
            reply.property = r.property;
            if (r.target == targets) {
                const Atom offered[] = {targets, utf8, hint};
                XChangeProperty(m_dpy, r.requestor, r.property, XA_ATOM, 32, PropModeReplace,
                                reinterpret_cast<const unsigned char*>(offered), 3);
            } else if (r.target == hint) {
                XChangeProperty(m_dpy, r.requestor, r.property, utf8, 8, PropModeReplace,
                                reinterpret_cast<const unsigned char*>("secret"), 6);
            } else if (r.target == utf8) {
                XChangeProperty(m_dpy, r.requestor, r.property, utf8, 8, PropModeReplace,
                                reinterpret_cast<const unsigned char*>(m_secret.constData()),
                                static_cast<int>(m_secret.size()));
                ++m_servedSecret;
            } else {
                reply.property = None;
            }
            XSendEvent(m_dpy, r.requestor, False, NoEventMask, reinterpret_cast<XEvent*>(&reply));
            XFlush(m_dpy);
        }
    }

    QByteArray m_secret;
    Display* m_dpy = nullptr;
    Window m_window = 0;
    Atom m_clipboard = 0;
    bool m_owned = false;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_servedSecret{0};
    std::thread m_thread;
};

} // namespace

// The host writes; xclip reads the same bytes, and mousepad pastes them.
TEST_F(RealAppClipboard, WrittenTextIsWhatOtherAppsRead)
{
    const QString text = u"héllo wörld 你好 🙂 42"_s;
    const QJsonObject written =
        s_app->call(u"desktop.clipboard"_s, {{u"action"_s, u"write"_s}, {u"text"_s, text}}, /*sideEffect=*/true);
    EXPECT_EQ(resultOf(written).value(u"effect"_s).toString(), u"confirmed"_s) << dump(written);
    EXPECT_EQ(xclipOut(), text.toUtf8());

    const std::optional<QString> before = editorText();
    ASSERT_TRUE(before.has_value());
    s_app->hotkey({u"ctrl"_s, u"v"_s});
    const std::optional<QString> expected = QString(*before + text);
    EXPECT_EQ(readUntil(editorText, expected), expected) << "mousepad did not paste the host's text";
}

// What a person copied: text as is (redactionMode none), an image kept as evidence.
TEST_F(RealAppClipboard, ReadsWhatAPersonCopiedTextAndImage)
{
    ASSERT_TRUE(xclipIn(u"copied by a person ✓"_s.toUtf8()));
    const QJsonObject read =
        resultOf(s_app->call(u"desktop.clipboard"_s, {{u"action"_s, u"read"_s}, {u"redactionMode"_s, u"none"_s}}));
    EXPECT_EQ(read.value(u"text"_s).toString(), u"copied by a person ✓"_s) << dump(read);

    QImage image(37, 21, QImage::Format_RGB32);
    image.fill(qRgb(200, 40, 90));
    QByteArray png;
    {
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        ASSERT_TRUE(image.save(&buffer, "PNG"));
    }
    ASSERT_TRUE(xclipIn(png, u"image/png"_s));
    const QJsonObject shot = resultOf(s_app->call(u"desktop.clipboard"_s, {{u"action"_s, u"read"_s}}));
    const QJsonObject answered = shot.value(u"image"_s).toObject();
    EXPECT_EQ(answered.value(u"width"_s).toInt(), 37) << dump(shot);
    EXPECT_EQ(answered.value(u"height"_s).toInt(), 21);
    QFile kept(answered.value(u"path"_s).toString());
    ASSERT_TRUE(kept.open(QIODevice::ReadOnly)) << dump(shot);
    EXPECT_EQ(kept.readAll(), png);
}

// A password manager's copy: the host answers that it is concealed and never asks for the text.
TEST_F(RealAppClipboard, AConcealedCopyIsNeverRead)
{
    ConcealedCopy secret("hunter2-secret");
    ASSERT_TRUE(secret.owned());
    const QJsonObject read =
        resultOf(s_app->call(u"desktop.clipboard"_s, {{u"action"_s, u"read"_s}, {u"redactionMode"_s, u"none"_s}}));
    EXPECT_TRUE(read.value(u"concealed"_s).toBool()) << dump(read);
    EXPECT_FALSE(read.contains(u"text"_s)) << dump(read);
    EXPECT_TRUE(read.value(u"formats"_s).toArray().contains(u"x-kde-passwordManagerHint"_s)) << dump(read);
    EXPECT_EQ(secret.servedSecret(), 0) << "the host asked the password manager for the secret";
}

// restoreAfterMs: the person's text is back afterwards, as xclip reads it.
TEST_F(RealAppClipboard, ThePersonsTextComesBackAfterRestoreAfterMs)
{
    ASSERT_TRUE(xclipIn("the person's text"));
    const QJsonObject written = resultOf(s_app->call(
        u"desktop.clipboard"_s, {{u"action"_s, u"write"_s}, {u"text"_s, u"for a moment"_s}, {u"restoreAfterMs"_s, 300}},
        /*sideEffect=*/true));
    EXPECT_TRUE(written.value(u"previous"_s).toObject().value(u"restoreScheduled"_s).toBool()) << dump(written);
    EXPECT_EQ(xclipOut(), QByteArray("for a moment"));
    const auto back = [] { return xclipOut(); };
    EXPECT_EQ(readUntil(back, QByteArray("the person's text")), QByteArray("the person's text"));
}
