// End to end against Qt Designer (Qt 6.4): menu-bar entries that only offer ShowMenu, a menu
// item whose action opens a modal dialog (Qt blocks DoAction until it closes), and new MDI
// windows that Qt announces without ChildrenChanged. Checked outside the host with pyatspi.
#include "RealAppSupport.h"

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class RealAppDesigner : public RealAppTest<RealAppDesigner>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        // Designer opens its "New Form" dialog at start: the tree is ready when that shows.
        s_app->start(u"/usr/lib/qt6/bin/designer"_s, {}, newFormDialog(), 30000);
    }
    void TearDown() override
    {
        if (s_app && s_app->failure().isEmpty())
            closeLeftovers();
    }

    static ProbeQuery newFormDialog(int minCount = 0, int maxCount = -1, int waitMs = 0)
    {
        ProbeQuery query;
        query.role = u"dialog"_s;
        query.name = u"New Form"_s;
        query.states = {u"showing"_s};
        query.minCount = minCount;
        query.maxCount = maxCount;
        query.waitMs = waitMs;
        return query;
    }
    /// The form windows in Designer's MDI area ("Dialog - untitled", "Dialog - untitled1", ...).
    static ProbeQuery formWindows(int minCount = 0, int waitMs = 0)
    {
        ProbeQuery query;
        query.role = u"frame"_s;
        query.nameContains = u"untitled"_s;
        query.states = {u"showing"_s};
        query.minCount = minCount;
        query.waitMs = waitMs;
        return query;
    }
    static ProbeQuery aboutQtDialog(int minCount = 0, int maxCount = -1, int waitMs = 0)
    {
        ProbeQuery query;
        query.role = u"alert"_s;
        query.name = u"About Qt"_s;
        query.states = {u"showing"_s};
        query.minCount = minCount;
        query.maxCount = maxCount;
        query.waitMs = waitMs;
        return query;
    }
    /// After a failure, close what the test left open, without the host.
    static void closeLeftovers()
    {
        if (s_app->probe(aboutQtDialog(1)).ok) {
            ProbeQuery ok;
            ok.role = u"push button"_s;
            ok.name = u"OK"_s;
            ok.windowName = u"About Qt"_s;
            ok.press = true;
            s_app->probe(ok);
        }
        runCommand(u"xdotool"_s, {u"key"_s, u"Escape"_s});
    }
};

const QString kNewFormWindow = u"^New Form$"_s;

} // namespace

// Was: Qt 6.4 sends no ChildrenChanged for a new MDI window, and the host's cache kept
// the old children until it restarted. A new form window must be seen by the next request.
TEST_F(RealAppDesigner, NewFormWindowsAreSeenByTheNextRequest)
{
    // The dialog of the start, or File > New... when an earlier test of this process closed it.
    if (!s_app->probe(newFormDialog(1)).ok) {
        const QJsonObject sent = s_app->hotkey({u"ctrl"_s, u"n"_s});
        ASSERT_TRUE(s_app->probe(newFormDialog(1, -1, 5000)).ok) << "ctrl+n opened no New Form dialog: " << dump(sent);
    }
    const int before = static_cast<int>(s_app->probe(formWindows()).nodes.size());
    const QJsonObject formWindow{{u"byRole"_s, u"AXWindow"_s}, {u"titleContains"_s, u"untitled"_s}};

    // The host reads the app before the form exists, so whatever it caches holds the old tree.
    const QJsonObject dialog = s_app->find(byRoleAndTitle(u"AXDialog"_s, u"New Form"_s));
    EXPECT_EQ(resultOf(dialog).value(u"matched"_s).toInt(), 1) << dump(dialog);
    const QJsonObject none = s_app->find(formWindow);
    ASSERT_EQ(resultOf(none).value(u"matched"_s).toInt(), before) << dump(none);

    EXPECT_TRUE(isConfirmed(s_app->click(byRoleAndTitle(u"AXButton"_s, u"Create"_s), kNewFormWindow), u"clicked"_s));
    ASSERT_TRUE(s_app->probe(formWindows(before + 1, 5000)).ok) << "pyatspi sees no new form window";
    const QJsonObject one = s_app->find(formWindow);
    EXPECT_EQ(resultOf(one).value(u"matched"_s).toInt(), before + 1) << dump(one);

    // A second one through File > New... (ctrl+n) and the same dialog.
    EXPECT_TRUE(isConfirmed(s_app->hotkey({u"ctrl"_s, u"n"_s}), u"sent"_s));
    ASSERT_TRUE(s_app->probe(newFormDialog(1, -1, 5000)).ok) << "ctrl+n opened no New Form dialog";
    EXPECT_TRUE(isConfirmed(s_app->click(byRoleAndTitle(u"AXButton"_s, u"Create"_s), kNewFormWindow), u"clicked"_s));
    ASSERT_TRUE(s_app->probe(formWindows(before + 2, 5000)).ok) << "pyatspi sees no second form window";
    const QJsonObject two = s_app->find(formWindow);
    EXPECT_EQ(resultOf(two).value(u"matched"_s).toInt(), before + 2) << dump(two);
}

// Was: Qt menu-bar entries offer only ShowMenu and could not be clicked. And: the
// menu item "About Qt" opens a modal dialog, DoAction blocks until it closes, and the answer was
// DESKTOP_TARGET_UNRESPONSIVE with retryable: true although the dialog had opened.
TEST_F(RealAppDesigner, HelpAboutQtOpensTheDialogAndIsNeverRetryable)
{
    // As a user would: the New Form dialog of the start is in the way; close it.
    if (s_app->probe(newFormDialog(1)).ok) {
        const QJsonObject closed = s_app->click(byRoleAndTitle(u"AXButton"_s, u"Close"_s), kNewFormWindow);
        ASSERT_TRUE(s_app->probe(newFormDialog(0, 0, 3000)).ok)
            << "the New Form dialog did not close: " << dump(closed);
        EXPECT_TRUE(isConfirmed(closed, u"clicked"_s));
    }

    const QJsonObject help = s_app->click(byRoleAndTitle(u"AXMenuBarItem"_s, u"Help"_s));
    EXPECT_TRUE(isConfirmed(help, u"clicked"_s));
    ProbeQuery menuOpen;
    menuOpen.role = u"menu item"_s;
    menuOpen.name = u"About Qt"_s;
    menuOpen.states = {u"showing"_s};
    menuOpen.minCount = 1;
    menuOpen.waitMs = 3000;
    EXPECT_TRUE(s_app->probe(menuOpen).ok) << "the Help menu did not open";

    const QJsonObject about = s_app->click(byRoleAndTitle(u"AXMenuItem"_s, u"About Qt"_s), {}, 10000);
    const bool dialogOpened = s_app->probe(aboutQtDialog(1, -1, 5000)).ok;
    if (!resultOf(about).isEmpty()) {
        EXPECT_TRUE(isConfirmed(about, u"clicked"_s));
    } else {
        EXPECT_FALSE(errorOf(about).value(u"retryable"_s).toBool())
            << "an action that may have happened answered retryable: " << dump(about);
    }
    ASSERT_TRUE(dialogOpened) << "pyatspi sees no About Qt dialog; host answered " << dump(about);

    const QJsonObject waited = s_app->waitUntil(byRoleAndTitle(u"AXDialog"_s, u"About Qt"_s), 5000);
    EXPECT_TRUE(resultOf(waited).value(u"ok"_s).toBool()) << dump(waited);

    const QJsonObject closed = s_app->click(byRoleAndTitle(u"AXButton"_s, u"OK"_s), u"^About Qt$"_s);
    EXPECT_TRUE(isConfirmed(closed, u"clicked"_s));
    EXPECT_TRUE(s_app->probe(aboutQtDialog(0, 0, 3000)).ok) << "the About Qt dialog is still open";
}
