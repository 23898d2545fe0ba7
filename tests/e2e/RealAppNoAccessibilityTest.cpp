// End to end: a window without accessibility (Tk's, from wish: Tk exposes nothing on Linux) in
// front of an accessible app (mousepad, GTK 3). Was: a request without a route took mousepad,
// raised it and typed into it while the person looked at the Tk window. Now such a request acts
// nowhere and says why (no_accessibility, naming the window); what each app holds is read in the
// app itself: mousepad's text through pyatspi, the Tk entry's text from the window's own output.
// A window desktop.windows lists can be a route by its nativeId.
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

// Was: typed: true, into mousepad's document, with the Tk window in front.
TEST_F(RealAppNoAccessibility, ARequestWithoutARouteNeverTypesIntoTheAppBeside)
{
    const std::optional<QString> before = editorText();
    ASSERT_TRUE(before.has_value());
    const QJsonObject typed =
        s_app->call(u"desktop.typeText"_s, {{u"route"_s, QJsonObject{}}, {u"text"_s, u"rm -rf"_s}}, true, 15000);
    EXPECT_EQ(errorCode(typed), u"DESKTOP_ELEMENT_NOT_FOUND"_s) << dump(typed);
    const QJsonObject error = errorOf(typed);
    EXPECT_EQ(error.value(u"details"_s).toObject().value(u"reason"_s).toString(), u"no_accessibility"_s) << dump(typed);
    EXPECT_EQ(error.value(u"details"_s).toObject().value(u"window"_s).toObject().value(u"title"_s).toString(),
              u"Tk entry"_s)
        << dump(typed);
    EXPECT_FALSE(error.value(u"retryable"_s).toBool(true)) << dump(typed);
    // Nothing arrived anywhere: mousepad's document is as it was, and the Tk entry is empty.
    EXPECT_EQ(editorText(), before) << "mousepad's text changed";
    EXPECT_EQ(tkText(), QString());
    // A search without a route says the same.
    const QJsonObject found = s_app->call(
        u"desktop.find"_s, {{u"route"_s, QJsonObject{}}, {u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}}});
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
