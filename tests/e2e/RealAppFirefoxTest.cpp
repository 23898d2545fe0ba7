// End to end against firefox-esr and a local HTML form (tests/e2e/data/form.html): typing into
// web inputs, a checkbox and a button. The page reports what it got in its title (the Name input
// mirrors its value there, the button counts its clicks), read from the X window with xdotool;
// text and states are read with pyatspi. Neither goes through the host.
#include "RealAppSupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QThread>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

const QString kFirefoxSuffix = u" — Mozilla Firefox"_s;

class RealAppFirefox : public RealAppTest<RealAppFirefox>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        // A fresh profile whose user.js turns off first-run pages, telemetry, the default-browser
        // check and session restore, and turns accessibility on.
        const QString profile = s_app->dir() + u"/profile"_s;
        const QString page = s_app->dir() + u"/form.html"_s;
        if (!QDir().mkpath(profile) ||
            !QFile::copy(QStringLiteral(MDH_E2E_DATA_DIR "/user.js"), profile + u"/user.js"_s) ||
            !QFile::copy(QStringLiteral(MDH_E2E_DATA_DIR "/form.html"), page)) {
            s_setupError = u"cannot prepare the profile and page in "_s + s_app->dir();
            return;
        }
        // Ready when the page's button is in the tree (the tree appears seconds after start).
        ProbeQuery ready;
        ready.role = u"push button"_s;
        ready.name = u"Send"_s;
        s_app->start(u"firefox-esr"_s,
                     {u"--no-remote"_s, u"--profile"_s, profile, QUrl::fromLocalFile(page).toString()}, ready, 60000);
    }
    void SetUp() override
    {
        QString why;
        if (!DesktopSession::available(&why))
            GTEST_SKIP() << why.toStdString();
        ASSERT_TRUE(s_setupError.isEmpty()) << s_setupError.toStdString();
        RealAppTest::SetUp();
    }

    /// The page's text field labelled `label`, as pyatspi reads it. Gecko counts characters in
    /// UTF-16 units, so its Text interface pads the text with one U+FEFF per character outside
    /// the BMP; the fields never hold U+FEFF otherwise, so dropping it gives what the page has.
    static std::optional<QString> fieldText(const QString& label)
    {
        ProbeQuery query;
        query.role = u"entry"_s;
        query.name = label;
        const ProbeResult seen = s_app->probe(query);
        if (seen.nodes.size() != 1 || !seen.nodes.first().text)
            return std::nullopt;
        QString text = *seen.nodes.first().text;
        text.remove(QChar(0xFEFF));
        return text;
    }
    static QString withoutSuffix(QString title)
    {
        if (title.endsWith(kFirefoxSuffix))
            title.chop(kFirefoxSuffix.size());
        return title;
    }
    /// The page's title (the window's, without " — Mozilla Firefox"), once `accept` takes it or
    /// the time is up.
    static QString pageTitle(const std::function<bool(const QString&)>& accept = {}, int timeoutMs = 0)
    {
        return withoutSuffix(waitForWindowTitle(
            s_app->pid(), [&](const QString& title) { return !accept || accept(withoutSuffix(title)); }, timeoutMs));
    }

    static QString s_setupError;
};

QString RealAppFirefox::s_setupError;

} // namespace

// Was: Firefox accepts EditableText and changes nothing, and the answer said typed: true.
// And: keys typed one by one broke characters outside the BMP. The Name input mirrors its
// value into the page title, so the page itself says what it got.
TEST_F(RealAppFirefox, TypesNonAsciiTextIntoAWebInput)
{
    const QString text = u"héllo wörld 你好 🙂"_s;
    const std::optional<QString> before = fieldText(u"Name"_s);
    ASSERT_TRUE(before.has_value());
    const QString expected = *before + text;

    const QJsonObject typed = s_app->typeText(byRoleAndTitle(u"AXTextField"_s, u"Name"_s), text);

    const QString wanted = u"Name="_s + expected;
    const QString title = pageTitle([&](const QString& t) { return t == wanted; }, 3000);
    if (answeredTrue(typed, u"typed"_s)) {
        EXPECT_EQ(title, wanted) << "typed: true, but the page has something else: " << dump(typed);
    }
    EXPECT_EQ(title, wanted) << "page title";
    EXPECT_EQ(readUntil([] { return fieldText(u"Name"_s); }, std::optional(expected)), expected) << "pyatspi read-back";
    EXPECT_TRUE(isConfirmed(typed, u"typed"_s));
}

// Was: the textarea matched AXTextArea in find and not in typeText.
TEST_F(RealAppFirefox, FindAndTypeTextAgreeOnTheTextarea)
{
    const QJsonObject selector{{u"byRole"_s, u"AXTextArea"_s}};
    const QJsonObject found = s_app->find(selector);
    ASSERT_EQ(resultOf(found).value(u"matched"_s).toInt(), 1) << dump(found);

    const QString text = u"naïve café, 東京 🙂"_s;
    const QJsonObject typed = s_app->typeText(selector, text, /*clearBefore=*/true);

    EXPECT_EQ(readUntil([] { return fieldText(u"Notes"_s); }, std::optional(text)), text)
        << "pyatspi read-back; host answered " << dump(typed);
    EXPECT_TRUE(isConfirmed(typed, u"typed"_s));
}

// Was: Gecko names its actions ";;" in GetActions, so every click on web content failed.
TEST_F(RealAppFirefox, ClicksTheCheckbox)
{
    ProbeQuery box;
    box.role = u"check box"_s;
    box.name = u"Subscribe"_s;
    const ProbeResult before = s_app->probe(box);
    ASSERT_EQ(before.nodes.size(), 1);
    const bool wasChecked = before.nodes.first().has(u"checked"_s);

    const QJsonObject clicked = s_app->click(byRoleAndTitle(u"AXCheckBox"_s, u"Subscribe"_s));

    QDeadlineTimer deadline(3000);
    bool checked = wasChecked;
    while (checked == wasChecked && !deadline.hasExpired()) {
        const ProbeResult now = s_app->probe(box);
        checked = now.nodes.size() == 1 && now.nodes.first().has(u"checked"_s);
        if (checked == wasChecked)
            QThread::msleep(100);
    }
    EXPECT_NE(checked, wasChecked) << "the checkbox did not change; host answered " << dump(clicked);
    EXPECT_TRUE(isConfirmed(clicked, u"clicked"_s));
}

// The button's click must reach the page, also right after typing (the typing
// returned before Firefox had consumed the keys, and the next click was lost).
TEST_F(RealAppFirefox, ClicksTheButtonRightAfterTyping)
{
    static const QRegularExpression sent(u"^Sent (\\d+)$"_s);
    const QRegularExpressionMatch previous = sent.match(pageTitle());
    const int clicksBefore = previous.hasMatch() ? previous.captured(1).toInt() : 0;

    const QJsonObject typed = s_app->typeText(QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}, u"one more line 🙂"_s);
    const QJsonObject clicked = s_app->click(byRoleAndTitle(u"AXButton"_s, u"Send"_s));

    const QString wanted = u"Sent %1"_s.arg(clicksBefore + 1);
    const QString title = pageTitle([&](const QString& t) { return t == wanted; }, 3000);
    EXPECT_EQ(title, wanted) << "typeText answered " << dump(typed) << "\nclick answered " << dump(clicked);
    EXPECT_TRUE(isConfirmed(typed, u"typed"_s));
    EXPECT_TRUE(isConfirmed(clicked, u"clicked"_s));
}

// A web page's password input labelled "Kennwort": the confirmation hides the text because the
// host looked at the element (Gecko's "password text"), and the typed text is kept nowhere.
TEST_F(RealAppFirefox, ConfirmationHidesTextForAPasswordInputByLookingAtIt)
{
    const QString secret = u"kw-5520"_s;
    const QJsonObject approval = s_app->approvalForTyping(byRoleAndTitle(u"AXTextField"_s, u"Kennwort"_s), secret);
    ASSERT_FALSE(approval.isEmpty()) << "no approval line in the audit log";
    EXPECT_EQ(approval.value(u"textMasked"_s).toString(), u"secure_element"_s) << dump(approval);

    const QJsonObject control = s_app->approvalForTyping(byRoleAndTitle(u"AXTextField"_s, u"Name"_s), u"ada"_s);
    EXPECT_FALSE(control.contains(u"textMasked"_s)) << dump(control);

    const QJsonObject typed = s_app->typeText(byRoleAndTitle(u"AXTextField"_s, u"Kennwort"_s), secret);
    const QString wanted = u"Kennwort length %1"_s.arg(secret.size());
    EXPECT_EQ(pageTitle([&](const QString& t) { return t == wanted; }, 3000), wanted) << dump(typed);
    EXPECT_TRUE(answeredTrue(typed, u"typed"_s)) << dump(typed);
    EXPECT_FALSE(QJsonDocument(typed).toJson().contains(secret.toUtf8()));
    const QString dir = evidenceDir(typed);
    for (const QString& name : QDir(dir).entryList(QDir::Files)) {
        QFile file(dir + name);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        EXPECT_FALSE(file.readAll().contains(secret.toUtf8())) << name.toStdString();
    }
}
