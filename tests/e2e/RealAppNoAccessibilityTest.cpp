// End to end: a window without accessibility (Tk's, from wish: Tk exposes nothing on Linux) in
// front of an accessible app (mousepad, GTK 3). Was: a request without a route took mousepad,
// raised it and typed into it while the person looked at the Tk window. Now keys and pointer go
// to the Tk window itself, answered unverifiable, and every read of its tree says why not
// (no_accessibility, naming the window); what each app holds is read in the app itself:
// mousepad's text through pyatspi, the Tk entry's text from the window's own output. A window
// desktop.windows lists can be a route by its nativeId, and by its window manager's title.
#include "RealAppSupport.h"

#include <QProcess>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class RealAppNoAccessibility : public RealAppTest<RealAppNoAccessibility>
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

    void SetUp() override
    {
        RealAppTest::SetUp();
        if (HasFatalFailure() || IsSkipped())
            return;
        // The Tk window, shown in front of mousepad.
        m_tk.setProcessChannelMode(QProcess::SeparateChannels);
        m_tk.start(u"wish"_s, {QStringLiteral(MDH_E2E_DATA_DIR) + u"/tk_entry.tcl"_s});
        ASSERT_TRUE(m_tk.waitForStarted(5000));
        QDeadlineTimer until(15000);
        while (!m_output.contains("ready") && !until.hasExpired()) {
            m_tk.waitForReadyRead(200);
            m_output += m_tk.readAllStandardOutput();
        }
        ASSERT_TRUE(m_output.contains("ready")) << "wish did not show its window";
        const CommandResult found = runCommand(u"xdotool"_s, {u"search"_s, u"--name"_s, u"^Tk entry$"_s});
        m_tkWindow = found.out.split(u'\n', Qt::SkipEmptyParts).value(0).trimmed();
        ASSERT_FALSE(m_tkWindow.isEmpty()) << "xdotool finds no Tk window";
        runCommand(u"xdotool"_s, {u"windowactivate"_s, u"--sync"_s, m_tkWindow});
        const CommandResult active = runCommand(u"xdotool"_s, {u"getactivewindow"_s, u"getwindowname"_s});
        ASSERT_EQ(active.out.trimmed(), u"Tk entry"_s) << "the Tk window is not in front";
    }

    void TearDown() override
    {
        m_tk.kill();
        m_tk.waitForFinished(3000);
    }

    /// What the Tk entry holds, as the window itself last printed it (empty: never changed).
    QString tkText()
    {
        m_tk.waitForReadyRead(300);
        m_output += m_tk.readAllStandardOutput();
        QString text;
        for (const QByteArray& line : m_output.split('\n')) {
            if (line.startsWith("text:"))
                text = QString::fromUtf8(line.mid(5));
        }
        return text;
    }

    /// The nativeId desktop.windows answers for the first window whose title `title` matches.
    QString nativeIdOf(const QString& title)
    {
        const QJsonObject listed = s_app->call(u"desktop.windows"_s, {{u"route"_s, QJsonObject{}}});
        for (const auto& window : resultOf(listed).value(u"windows"_s).toArray()) {
            if (window.toObject().value(u"title"_s).toString().contains(title))
                return window.toObject().value(u"nativeId"_s).toString();
        }
        ADD_FAILURE() << "desktop.windows lists no window titled " << title.toStdString() << ": " << dump(listed);
        return {};
    }

    static std::optional<QString> editorText() { return soleText(*s_app, documentQuery()); }

    QProcess m_tk;
    QByteArray m_output;
    QString m_tkWindow;
};

} // namespace

// Was: typed: true, into mousepad's document, with the Tk window in front. Keys without a route
// go to the window in front, the Tk window, and nowhere else: its entry holds the text, mousepad's
// document is unchanged, and the answer says the effect cannot be verified (with the window's
// pixel difference as evidence), never that the text was read back.
TEST_F(RealAppNoAccessibility, ARequestWithoutARouteTypesIntoTheWindowInFrontOnly)
{
    const std::optional<QString> before = editorText();
    ASSERT_TRUE(before.has_value());
    const QJsonObject typed =
        s_app->call(u"desktop.typeText"_s, {{u"route"_s, QJsonObject{}}, {u"text"_s, u"hello tk"_s}}, true, 15000);
    EXPECT_TRUE(resultOf(typed).value(u"typed"_s).toBool()) << dump(typed);
    EXPECT_EQ(resultOf(typed).value(u"effect"_s).toString(), u"unverifiable"_s) << dump(typed);
    EXPECT_EQ(resultOf(typed).value(u"routeResolved"_s).toObject().value(u"windowTitle"_s).toString(), u"Tk entry"_s)
        << dump(typed);
    const QJsonObject diff = resultOf(typed)
                                 .value(u"verification"_s)
                                 .toObject()
                                 .value(u"observed"_s)
                                 .toObject()
                                 .value(u"pixelDiff"_s)
                                 .toObject();
    EXPECT_GT(diff.value(u"changedPixels"_s).toInteger(), 0) << dump(typed);
    EXPECT_EQ(readUntil([&] { return tkText(); }, u"hello tk"_s), u"hello tk"_s);
    // A chord goes there too: BackSpace takes the last character.
    const QJsonObject erased =
        s_app->call(u"desktop.hotkey"_s, {{u"route"_s, QJsonObject{}}, {u"keys"_s, QJsonArray{u"backspace"_s}}}, true);
    EXPECT_EQ(resultOf(erased).value(u"effect"_s).toString(), u"unverifiable"_s) << dump(erased);
    EXPECT_EQ(readUntil([&] { return tkText(); }, u"hello t"_s), u"hello t"_s);
    // The pointer at a point of the Tk window acts there, judged there: unverifiable. Routed to
    // mousepad, the same point is refused (the click would land on the Tk window).
    const QJsonObject point{{u"x"_s, 700 + 210}, {u"y"_s, 80 + 60}};
    const QJsonObject clicked = s_app->call(
        u"desktop.pointer"_s, {{u"route"_s, QJsonObject{}}, {u"gesture"_s, u"click"_s}, {u"point"_s, point}}, true);
    EXPECT_EQ(resultOf(clicked).value(u"effect"_s).toString(), u"unverifiable"_s) << dump(clicked);
    EXPECT_EQ(resultOf(clicked).value(u"routeResolved"_s).toObject().value(u"windowTitle"_s).toString(), u"Tk entry"_s)
        << dump(clicked);
    const QJsonObject elsewhere =
        s_app->call(u"desktop.pointer"_s, {{u"gesture"_s, u"click"_s}, {u"point"_s, point}}, true);
    EXPECT_EQ(errorOf(elsewhere).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"occluded"_s)
        << dump(elsewhere);
    EXPECT_EQ(editorText(), before) << "mousepad's text changed";
    // Nothing can read its tree: a search without a route says why, naming the window.
    const QJsonObject found = s_app->call(
        u"desktop.find"_s, {{u"route"_s, QJsonObject{}}, {u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}}});
    const QJsonObject error = errorOf(found);
    EXPECT_EQ(error.value(u"details"_s).toObject().value(u"reason"_s).toString(), u"no_accessibility"_s) << dump(found);
    // It says what does work there: the text on screen.
    EXPECT_EQ(error.value(u"details"_s).toObject().value(u"suggestedSource"_s).toString(), u"ocr"_s) << dump(found);
    EXPECT_EQ(error.value(u"details"_s).toObject().value(u"window"_s).toObject().value(u"title"_s).toString(),
              u"Tk entry"_s)
        << dump(found);
    EXPECT_FALSE(error.value(u"retryable"_s).toBool(true)) << dump(found);
    // A field's text cannot be cleared where it cannot be read: refused, nothing typed.
    const QJsonObject cleared = s_app->call(
        u"desktop.typeText"_s,
        {{u"route"_s, QJsonObject{}}, {u"text"_s, u"x"_s}, {u"options"_s, QJsonObject{{u"clearBefore"_s, true}}}},
        true);
    EXPECT_EQ(errorOf(cleared).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"no_accessibility"_s)
        << dump(cleared);
    EXPECT_EQ(tkText(), u"hello t"_s);
}

// A route by the window manager's title reaches the Tk window: capture takes its frame from the
// window manager, and a search there says no_accessibility.
TEST_F(RealAppNoAccessibility, TheWindowManagersTitleIsARoute)
{
    const QJsonObject route{{u"window"_s, QJsonObject{{u"titlePattern"_s, u"^Tk entry$"_s}}}};
    const QJsonObject captured = s_app->call(u"desktop.capture"_s, {{u"route"_s, route}});
    EXPECT_EQ(resultOf(captured).value(u"source"_s).toString(), u"window"_s) << dump(captured);
    const QJsonObject frame = resultOf(captured).value(u"frame"_s).toObject();
    EXPECT_EQ(frame.value(u"width"_s).toInt(), 420) << dump(captured);
    EXPECT_EQ(frame.value(u"height"_s).toInt(), 120) << dump(captured);
    const QJsonObject found = s_app->call(
        u"desktop.find"_s, {{u"route"_s, route}, {u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextField"_s}}}});
    EXPECT_EQ(errorOf(found).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"no_accessibility"_s)
        << dump(found);
}

// The nativeId desktop.windows answers is a route: mousepad's window is searched while the Tk
// window is in front; the Tk window's own is answered no_accessibility; an id of no window is
// window_not_found.
TEST_F(RealAppNoAccessibility, AWindowListedByDesktopWindowsIsARouteByItsNativeId)
{
    const QString mousepad = nativeIdOf(u"Mousepad"_s);
    ASSERT_FALSE(mousepad.isEmpty());
    const QJsonObject found = s_app->call(
        u"desktop.find"_s, {{u"route"_s, QJsonObject{{u"window"_s, QJsonObject{{u"nativeId"_s, mousepad}}}}},
                            {u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}}});
    EXPECT_EQ(resultOf(found).value(u"matched"_s).toInt(), 1) << dump(found);
    EXPECT_EQ(resultOf(found).value(u"routeResolved"_s).toObject().value(u"pid"_s).toInteger(), s_app->pid())
        << dump(found);

    const QString tk = nativeIdOf(u"Tk entry"_s);
    ASSERT_FALSE(tk.isEmpty());
    const QJsonObject refused =
        s_app->call(u"desktop.find"_s, {{u"route"_s, QJsonObject{{u"window"_s, QJsonObject{{u"nativeId"_s, tk}}}}},
                                        {u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextField"_s}}}});
    EXPECT_EQ(errorOf(refused).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"no_accessibility"_s)
        << dump(refused);

    const QJsonObject missing = s_app->call(
        u"desktop.find"_s, {{u"route"_s, QJsonObject{{u"window"_s, QJsonObject{{u"nativeId"_s, u"0x7ffffff0"_s}}}}},
                            {u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}}});
    EXPECT_EQ(errorOf(missing).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"window_not_found"_s)
        << dump(missing);
    const QJsonObject malformed = s_app->call(
        u"desktop.find"_s, {{u"route"_s, QJsonObject{{u"window"_s, QJsonObject{{u"nativeId"_s, u"window 3"_s}}}}},
                            {u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}}});
    EXPECT_EQ(errorOf(malformed).value(u"details"_s).toObject().value(u"field"_s).toString(),
              u"route.window.nativeId"_s)
        << dump(malformed);
}

// Was: typed: true while Return opened a window that took the focus and the rest of the keys.
// A window that takes the focus while the text goes out is noticed: the answer is partial,
// naming the window; the Tk entry holds only what came before Return.
TEST_F(RealAppNoAccessibility, AWindowThatTookTheFocusWhileTypingIsNoticed)
{
    // At a person's pace, so that the window is there before the last keys.
    const QJsonObject typed = s_app->call(
        u"desktop.typeText"_s,
        {{u"route"_s, QJsonObject{}}, {u"text"_s, u"one\ntwo"_s}, {u"options"_s, QJsonObject{{u"keyDelayMs"_s, 80}}}},
        true, 15000);
    EXPECT_FALSE(resultOf(typed).value(u"typed"_s).toBool(true)) << dump(typed);
    EXPECT_EQ(resultOf(typed).value(u"effect"_s).toString(), u"partial"_s) << dump(typed);
    EXPECT_EQ(resultOf(typed)
                  .value(u"verification"_s)
                  .toObject()
                  .value(u"observed"_s)
                  .toObject()
                  .value(u"focusMovedTo"_s)
                  .toObject()
                  .value(u"title"_s)
                  .toString(),
              u"Confirm"_s)
        << dump(typed);
    EXPECT_EQ(tkText(), u"one"_s);
    EXPECT_TRUE(m_output.contains("dialog")) << "Return opened no window";
}
