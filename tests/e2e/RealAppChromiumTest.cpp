// End to end against Chromium (Debian's chromium, started as a person starts it: no
// accessibility flag) and a local HTML form (tests/e2e/data/form.html). Was: the window showed
// one node, find answered matched: 0 and truncated: false. Chromium builds its page's
// accessibility only once an assistive technology asks for an element's attributes; the host
// asks, once per browser process, and so finds, clicks and types in the page. The page reports
// what it got in its title (the Name input mirrors its value there, the button counts its
// clicks), read from the X window with xdotool, not through the host. A second browser started
// with accessibility off exposes nothing; its page's button is found and clicked by OCR.
#include "RealAppSupport.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QThread>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

const QString kChromiumSuffix = u" - Chromium"_s;

class RealAppChromium : public RealAppTest<RealAppChromium>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        const QString page = s_app->dir() + u"/form.html"_s;
        if (!QFile::copy(QStringLiteral(MDH_E2E_DATA_DIR "/form.html"), page)) {
            s_setupError = u"cannot copy the page to "_s + s_app->dir();
            return;
        }
        // Ready when the browser's window is on the bus (that much it shows without being asked).
        ProbeQuery ready;
        ready.role = u"frame"_s;
        ready.nameContains = u"Form ready"_s;
        // --no-sandbox: the tests run as root; a basic password store: no keyring prompt.
        s_app->start(u"chromium"_s,
                     {u"--no-sandbox"_s, u"--no-first-run"_s, u"--no-default-browser-check"_s, u"--disable-gpu"_s,
                      u"--password-store=basic"_s, u"--user-data-dir="_s + s_app->dir() + u"/profile"_s,
                      QUrl::fromLocalFile(page).toString()},
                     ready, 60000);
    }

    void SetUp() override
    {
        QString why;
        if (!DesktopSession::available(&why))
            GTEST_SKIP() << why.toStdString();
        ASSERT_TRUE(s_setupError.isEmpty()) << s_setupError.toStdString();
        RealAppTest::SetUp();
    }

    /// The page's title (the window's, without " - Chromium"), once it is `wanted` or the time
    /// is up.
    static QString pageTitle(const QString& wanted)
    {
        QString title = waitForWindowTitle(
            s_app->pid(), [&](const QString& t) { return t == wanted + kChromiumSuffix; }, 5000);
        if (title.endsWith(kChromiumSuffix))
            title.chop(kChromiumSuffix.size());
        return title;
    }

    static QString s_setupError;
};

QString RealAppChromium::s_setupError;

} // namespace

TEST_F(RealAppChromium, FindsClicksAndTypesInAPageStartedWithoutAFlag)
{
    const QJsonObject found = s_app->find(byRoleAndTitle(u"AXButton"_s, u"Send"_s));
    EXPECT_EQ(resultOf(found).value(u"matched"_s).toInt(), 1) << dump(found);

    const QJsonObject clicked = s_app->click(byRoleAndTitle(u"AXButton"_s, u"Send"_s));
    EXPECT_EQ(pageTitle(u"Sent 1"_s), u"Sent 1"_s) << dump(clicked);

    const QJsonObject typed = s_app->typeText(byRoleAndTitle(u"AXTextField"_s, u"Name"_s), u"chromium"_s);
    EXPECT_EQ(pageTitle(u"Name=chromium"_s), u"Name=chromium"_s) << dump(typed);
    EXPECT_TRUE(isConfirmed(typed, u"typed"_s)) << dump(typed);
}

// A browser started while accessibility is off for it shows nothing at all, not even its window:
// doctor names it and the flag that brings it back, rather than "all is well".
TEST_F(RealAppChromium, DoctorNamesABrowserStartedWithAccessibilityOff)
{
    AppProcess hidden(u"chromium"_s, {u"--no-sandbox"_s, u"--no-first-run"_s, u"--no-default-browser-check"_s,
                                      u"--disable-gpu"_s, u"--password-store=basic"_s,
                                      u"--user-data-dir="_s + s_app->dir() + u"/hidden-profile"_s, u"about:blank"_s});
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"ACCESSIBILITY_ENABLED"_s, u"0"_s);
    hidden.process().setProcessEnvironment(env);
    ASSERT_TRUE(hidden.start(false));
    QJsonObject browsers;
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired()) {
        // The backend looks for unlisted windows again after an execution, at most every 2 s.
        s_app->find(byRoleAndTitle(u"AXButton"_s, u"Send"_s));
        for (const auto& check : resultOf(s_app->call(u"desktop.doctor"_s, {})).value(u"checks"_s).toArray()) {
            if (check.toObject().value(u"name"_s).toString() == u"browsers"_s)
                browsers = check.toObject();
        }
        if (browsers.value(u"status"_s).toString() == u"warning")
            break;
        QThread::msleep(500);
    }
    EXPECT_EQ(browsers.value(u"status"_s).toString(), u"warning"_s) << dump(browsers);
    const QString message = browsers.value(u"message"_s).toString();
    EXPECT_TRUE(message.contains(u"pid %1"_s.arg(hidden.pid()))) << message.toStdString();
    EXPECT_TRUE(message.contains(u"--force-renderer-accessibility"_s)) << message.toStdString();
}

// A page in a browser that exposes nothing (accessibility off for it: not even its window is on
// the bus) is still worked by what its pixels say: its "Send" button found by OCR and clicked
// through the pointer; the page's title, read from the window manager, counts the click.
TEST_F(RealAppChromium, APageThatExposesNothingIsClickedByItsPixels)
{
    AppProcess blind(u"chromium"_s,
                     {u"--no-sandbox"_s, u"--no-first-run"_s, u"--no-default-browser-check"_s, u"--disable-gpu"_s,
                      u"--password-store=basic"_s, u"--user-data-dir="_s + s_app->dir() + u"/blind-profile"_s,
                      QUrl::fromLocalFile(s_app->dir() + u"/form.html"_s).toString()});
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"ACCESSIBILITY_ENABLED"_s, u"0"_s);
    blind.process().setProcessEnvironment(env);
    ASSERT_TRUE(blind.start(false));
    const QString shown = waitForWindowTitle(
        blind.pid(), [](const QString& t) { return t == u"Form ready"_s + kChromiumSuffix; }, 30000);
    ASSERT_EQ(shown, u"Form ready"_s + kChromiumSuffix);
    const std::optional<XWindow> window = mainXWindow(blind.pid());
    ASSERT_TRUE(window.has_value());
    // The page is drawn a moment after the title is set.
    QThread::msleep(1000);
    const QJsonObject route{
        {u"window"_s, QJsonObject{{u"nativeId"_s, u"0x%1"_s.arg(window->id.toULongLong(), 0, 16)}}}};
    // Blind to accessibility: the button is not there for an ordinary search.
    const QJsonObject searched = s_app->call(
        u"desktop.find"_s, {{u"route"_s, route}, {u"selector"_s, QJsonObject{{u"titleEquals"_s, u"Send"_s}}}});
    EXPECT_EQ(errorOf(searched).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"no_accessibility"_s)
        << dump(searched);
    const QJsonObject clicked = s_app->call(
        u"desktop.click"_s,
        {{u"route"_s, route},
         {u"target"_s,
          QJsonObject{{u"selector"_s, QJsonObject{{u"titleEquals"_s, u"Send"_s}, {u"source"_s, u"ocr"_s}}}}}},
        true, 30000);
    ASSERT_TRUE(clicked.contains(u"result"_s)) << dump(clicked);
    EXPECT_EQ(resultOf(clicked).value(u"target"_s).toObject().value(u"source"_s).toString(), u"ocr"_s) << dump(clicked);
    const QString title = waitForWindowTitle(
        blind.pid(), [](const QString& t) { return t == u"Sent 1"_s + kChromiumSuffix; }, 5000);
    EXPECT_EQ(title, u"Sent 1"_s + kChromiumSuffix) << dump(clicked);
    EXPECT_EQ(resultOf(clicked).value(u"effect"_s).toString(), u"confirmed"_s) << dump(clicked);
}
