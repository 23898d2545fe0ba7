// The macOS backend against a fake AX world that behaves as a real Mac does where the review of
// the Apple side (docs/macos.md, "The fake AX world") found our code assuming otherwise: a new
// element reference on every read, keyboard layouts other than US, a CJK input method, apps that
// ignore activateWithOptions: (macOS 14 and later), full-screen title-bar buttons. The backend
// conformance suite runs whole under each behaviour (one test per behaviour), then each defect
// the behaviour shows has a test of its own that checks the effect in the fake app.
#include "MacTarget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>

using namespace MacTesting;

namespace {

using Behaviour = std::function<void(FakeAxWorld&)>;

/// The whole conformance suite, each case on a fresh host and app, under `behaviour`.
void conformanceUnder(const Behaviour& behaviour)
{
    const std::pair<const char*, void (*)(Conformance::Target&)> cases[] = {
        {"findsAButtonByRoleAndTitle", Conformance::findsAButtonByRoleAndTitle},
        {"namesWhatItCouldNotFind", Conformance::namesWhatItCouldNotFind},
        {"observesTheTreeAndTheScreen", Conformance::observesTheTreeAndTheScreen},
        {"clickPressesTheButton", Conformance::clickPressesTheButton},
        {"typesIntoTheFieldAndReadsItBack", Conformance::typesIntoTheFieldAndReadsItBack},
        {"clearBeforeReplacesTheText", Conformance::clearBeforeReplacesTheText},
        {"typesASecretWithoutShowingIt", Conformance::typesASecretWithoutShowingIt},
        {"readsTextButNeverASecret", Conformance::readsTextButNeverASecret},
        {"togglesTheCheckBox", Conformance::togglesTheCheckBox},
        {"aHotkeyReachesTheApp", Conformance::aHotkeyReachesTheApp},
        {"refusesASideEffectWithoutConfirmation", Conformance::refusesASideEffectWithoutConfirmation},
    };
    for (const auto& [name, run] : cases) {
        SCOPED_TRACE(name);
        MacTarget t(behaviour);
        run(t);
        EXPECT_TRUE(t.world->running(kPid)) << name << ": the app quit";
    }
}

QJsonObject act(MacTarget& t, const QString& method, QJsonObject params)
{
    params.insert(QStringLiteral("confirm"), confirm());
    return t.call(method, params);
}

QJsonObject target(const QString& role, const QString& title)
{
    return QJsonObject{{QStringLiteral("selector"), selector(role, title)}};
}

const Behaviour kFreshReferences = [](FakeAxWorld& w) { w.setFreshReferences(true); };
const Behaviour kAzerty = [](FakeAxWorld& w) { w.setLayout(FakeAxWorld::Layout::Azerty); };
const Behaviour kQwertz = [](FakeAxWorld& w) { w.setLayout(FakeAxWorld::Layout::Qwertz); };
const Behaviour kDvorak = [](FakeAxWorld& w) { w.setLayout(FakeAxWorld::Layout::Dvorak); };
const Behaviour kPinyin = [](FakeAxWorld& w) { w.setInputMethodActive(true); };
const Behaviour kActivationIgnored = [](FakeAxWorld& w) { w.setActivationIgnored(true); };
const Behaviour kFullScreenButtons = [](FakeAxWorld& w) { w.setFullScreenButtons(true); };
const Behaviour kSecureEventInput = [](FakeAxWorld& w) { w.setSecureEventInput(true); };
const Behaviour kLateInput = [](FakeAxWorld& w) { w.setInputDelayMs(60); };
const Behaviour kDisplayChange = [](FakeAxWorld& w) { w.setDisplayChangeAtCapture(QPointF(0, 40)); };

} // namespace

// ---- the conformance suite under each behaviour ----

TEST(MacFakeBehaviour, ConformanceWithAFreshReferenceOnEveryRead)
{
    conformanceUnder(kFreshReferences);
}

TEST(MacFakeBehaviour, ConformanceOnAnAzertyKeyboard)
{
    conformanceUnder(kAzerty);
}

TEST(MacFakeBehaviour, ConformanceOnAQwertzKeyboard)
{
    conformanceUnder(kQwertz);
}

TEST(MacFakeBehaviour, ConformanceOnADvorakKeyboard)
{
    conformanceUnder(kDvorak);
}

TEST(MacFakeBehaviour, ConformanceWithPinyinSelected)
{
    conformanceUnder(kPinyin);
}

TEST(MacFakeBehaviour, ConformanceWhereActivationIsIgnored)
{
    conformanceUnder(kActivationIgnored);
}

TEST(MacFakeBehaviour, ConformanceWithFullScreenButtons)
{
    conformanceUnder(kFullScreenButtons);
}

TEST(MacFakeBehaviour, ConformanceWithInputDeliveredLate)
{
    conformanceUnder(kLateInput);
}

TEST(MacFakeBehaviour, ConformanceWithSecureEventInputOn)
{
    conformanceUnder(kSecureEventInput);
}

TEST(MacFakeBehaviour, ConformanceWithTheDisplaysChangingAsRequestsRun)
{
    conformanceUnder(kDisplayChange);
}

// ---- the defects each behaviour shows (docs/macos.md, the review's numbers) ----

// Defect 4: keys or a click that change nothing are not "confirmed" because the app's elements
// came back under new references (new keys) when it was read again after the action. A hotkey and
// a click at a point read the app with no snapshot before them, so nothing holds its elements.
TEST(MacFakeBehaviour, InputThatChangesNothingIsNotConfirmedForNewReferences)
{
    MacTarget t(kFreshReferences);
    const QJsonObject keys =
        act(t, QStringLiteral("desktop.hotkey"), {{QStringLiteral("keys"), QJsonArray{QStringLiteral("f5")}}});
    EXPECT_TRUE(t.world->inputLog().contains(QStringLiteral("down:0x60:0x0"))) << dump(keys);
    EXPECT_NE(resultOf(keys).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(keys);
    // An empty spot of the window, beside the form.
    const QJsonObject click =
        act(t, QStringLiteral("desktop.pointer"),
            {{QStringLiteral("gesture"), QStringLiteral("click")},
             {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), 600}, {QStringLiteral("y"), 300}}}});
    EXPECT_TRUE(t.world->clickLog().contains(QStringLiteral("600,300"))) << dump(click);
    EXPECT_NE(resultOf(click).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(click);
    // What does change is still seen: Send shows what it sent.
    const QJsonObject sent =
        act(t, QStringLiteral("desktop.pointer"),
            {{QStringLiteral("gesture"), QStringLiteral("click")},
             {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), 270}, {QStringLiteral("y"), 496}}}});
    EXPECT_EQ(resultOf(sent).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(sent);
}

// Defect 5: Command-A is the key that types "a" on the person's layout. On AZERTY the ANSI "a"
// position types q: the chord quit the target app.
TEST(MacFakeBehaviour, CommandAOnAzertySelectsAllAndNeverQuitsTheApp)
{
    MacTarget t(kAzerty);
    const QString message = t.world->find(QStringLiteral("AXTextField"), QStringLiteral("Message"));
    const QJsonObject typed =
        act(t, QStringLiteral("desktop.typeText"),
            {{QStringLiteral("target"), target(QStringLiteral("AXTextField"), QStringLiteral("Message"))},
             {QStringLiteral("text"), QStringLiteral("old text")}});
    ASSERT_EQ(t.world->text(message), QStringLiteral("old text")) << dump(typed);
    const QJsonObject response =
        act(t, QStringLiteral("desktop.hotkey"),
            {{QStringLiteral("keys"), QJsonArray{QStringLiteral("cmd"), QStringLiteral("a")}}});
    EXPECT_FALSE(response.contains(QStringLiteral("error"))) << dump(response);
    EXPECT_TRUE(t.world->running(kPid)) << "Command-Q was sent";
    // The key that types "a" on AZERTY is the ANSI "q" position.
    EXPECT_TRUE(t.world->inputLog().contains(QStringLiteral("down:0x0c:0x100000")))
        << t.world->inputLog().join(QLatin1Char(' ')).toStdString();
    EXPECT_EQ(t.world->attribute(message, QStringLiteral("AXSelectedTextRange"))->rangeLength, 8);
}

// Defect 5, QWERTZ and Dvorak: undo is the key that types z; paste the key that types v.
TEST(MacFakeBehaviour, ShortcutsFollowQwertzAndDvorak)
{
    {
        MacTarget t(kQwertz);
        act(t, QStringLiteral("desktop.hotkey"),
            {{QStringLiteral("keys"), QJsonArray{QStringLiteral("cmd"), QStringLiteral("z")}}});
        EXPECT_TRUE(t.world->inputLog().contains(QStringLiteral("down:0x10:0x100000")))
            << t.world->inputLog().join(QLatin1Char(' ')).toStdString();
    }
    {
        MacTarget t(kDvorak);
        const QString message = t.world->find(QStringLiteral("AXTextField"), QStringLiteral("Message"));
        // Typing focuses the field; then the paste chord goes to it.
        act(t, QStringLiteral("desktop.typeText"),
            {{QStringLiteral("target"), target(QStringLiteral("AXTextField"), QStringLiteral("Message"))},
             {QStringLiteral("text"), QStringLiteral("x")}});
        t.world->setPasteboard(QStringLiteral("pasted"));
        act(t, QStringLiteral("desktop.hotkey"),
            {{QStringLiteral("keys"), QJsonArray{QStringLiteral("cmd"), QStringLiteral("v")}}});
        // Dvorak's v is the ANSI period position (0x2f); the ANSI v position (0x09) types k.
        EXPECT_TRUE(t.world->inputLog().contains(QStringLiteral("down:0x2f:0x100000")))
            << t.world->inputLog().join(QLatin1Char(' ')).toStdString();
        EXPECT_EQ(t.world->text(message), QStringLiteral("xpasted"));
    }
}

// Defect 6: with Pinyin selected, key events go into its composition; the keys path selects an
// ASCII-capable layout while it types and gives the person's input method back.
TEST(MacFakeBehaviour, TypingByKeysWithPinyinSelectedArrivesAndPinyinIsGivenBack)
{
    MacTarget t(kPinyin);
    const QString message = t.world->find(QStringLiteral("AXTextField"), QStringLiteral("Message"));
    const QJsonObject response =
        act(t, QStringLiteral("desktop.typeText"),
            {{QStringLiteral("target"), target(QStringLiteral("AXTextField"), QStringLiteral("Message"))},
             {QStringLiteral("text"), QStringLiteral("hello")},
             {QStringLiteral("delivery"), QStringLiteral("keys")}});
    EXPECT_EQ(t.world->text(message), QStringLiteral("hello")) << dump(response);
    EXPECT_EQ(resultOf(response).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"))
        << dump(response);
    EXPECT_TRUE(t.world->composition().isEmpty()) << t.world->composition().toStdString();
    EXPECT_TRUE(t.world->inputMethodActive()) << "the person's input method is selected again";
}

// Defect 7: on macOS 14 and later activateWithOptions: does nothing from a background app;
// AXFrontmost brings the app forward, so an action on a window behind another app works.
TEST(MacFakeBehaviour, AnAppBehindAnotherIsBroughtForwardWhereActivationIsIgnored)
{
    MacTarget t(kActivationIgnored);
    t.world->addApp(QStringLiteral("Other"), QStringLiteral("com.example.other"), 5151);
    t.world->addWindow(5151, QStringLiteral("Other"), QRectF(0, 0, 800, 600));
    t.world->activate(5151);
    // Which app was in front when Send was pressed.
    auto frontAtPress = std::make_shared<std::atomic<qint64>>(0);
    t.world->onAction(t.world->find(QStringLiteral("AXButton"), QStringLiteral("Send")),
                      [frontAtPress](FakeAxWorld& w, const QString&) { frontAtPress->store(w.frontmost()); });
    const QJsonObject response =
        act(t, QStringLiteral("desktop.click"),
            {{QStringLiteral("target"), target(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    EXPECT_FALSE(response.contains(QStringLiteral("error"))) << dump(response);
    EXPECT_TRUE(t.appSawPressed(QStringLiteral("Send")));
    EXPECT_EQ(frontAtPress->load(), kPid);
    // Then the person's app is given back the front, through AXFrontmost too.
    EXPECT_EQ(t.world->frontmost(), 5151);
}

// Defect 8: maximize zooms (AXZoomWindow) and never enters full screen; restore leaves full
// screen when a person put the window there.
TEST(MacFakeBehaviour, MaximizeZoomsAndNeverEntersFullScreen)
{
    MacTarget t(kFullScreenButtons);
    const QJsonObject zoomed =
        resultOf(act(t, QStringLiteral("desktop.window"), {{QStringLiteral("action"), QStringLiteral("maximize")}}));
    EXPECT_EQ(zoomed.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(zoomed);
    EXPECT_FALSE(t.world->attribute(t.window, QStringLiteral("AXFullScreen"))->boolean);
    EXPECT_EQ(t.world->attribute(t.window, QStringLiteral("AXSize"))->size, QSizeF(1440, 875));
    const QJsonObject restored =
        resultOf(act(t, QStringLiteral("desktop.window"), {{QStringLiteral("action"), QStringLiteral("restore")}}));
    EXPECT_EQ(restored.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(restored);
    EXPECT_EQ(t.world->attribute(t.window, QStringLiteral("AXSize"))->size, QSizeF(480, 420));
    // A window a person put in full screen: restore brings it out.
    t.world->setAttribute(t.window, QStringLiteral("AXFullScreen"), Automation::Mac::AxValue::ofBool(true));
    t.world->setAttribute(t.window, QStringLiteral("AXSize"), Automation::Mac::AxValue::ofSize(QSizeF(1440, 900)));
    const QJsonObject out =
        resultOf(act(t, QStringLiteral("desktop.window"), {{QStringLiteral("action"), QStringLiteral("restore")}}));
    EXPECT_EQ(out.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(out);
    EXPECT_FALSE(t.world->attribute(t.window, QStringLiteral("AXFullScreen"))->boolean);
}

// Defect 17: what a person can neither see nor click does not cover a point: an invisible
// overlay (alpha 0) of another app, and a window of the system's own processes (the Dock, the
// menu bar's status items). A visible window of a regular app still does.
TEST(MacFakeBehaviour, OnlyVisibleWindowsOfRegularAppsCoverAPoint)
{
    MacTarget t;
    const auto click = [&] {
        return act(t, QStringLiteral("desktop.pointer"),
                   {{QStringLiteral("gesture"), QStringLiteral("click")},
                    {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), 270}, {QStringLiteral("y"), 496}}}});
    };
    t.world->addApp(QStringLiteral("Overlay"), QStringLiteral("com.example.overlay"), 6161);
    t.world->addBackgroundApp(QStringLiteral("Dock"), 6262);
    Automation::Mac::ServerWindow overlay{900, 6161, QStringLiteral("overlay"), QRectF(0, 0, 1440, 900), 0, true, 0.0};
    Automation::Mac::ServerWindow dock{901, 6262, QStringLiteral("Dock"), QRectF(0, 0, 1440, 900), 20, true, 1.0};
    t.world->addServerWindow(overlay);
    t.world->addServerWindow(dock);
    const QJsonObject through = click();
    EXPECT_FALSE(through.contains(QStringLiteral("error"))) << dump(through);
    EXPECT_EQ(resultOf(through).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"))
        << dump(through);
    EXPECT_TRUE(t.appSawPressed(QStringLiteral("Send")));
    // A visible window of a regular app in front does cover it: refused, nothing clicked.
    t.forgetReports();
    const qsizetype clicks = t.world->clickLog().size();
    Automation::Mac::ServerWindow palette{902,  6161, QStringLiteral("Palette"), QRectF(200, 450, 300, 100), 3,
                                          true, 1.0};
    t.world->addServerWindow(palette);
    const QJsonObject covered = click();
    EXPECT_EQ(covered.value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("details"))
                  .toObject()
                  .value(QStringLiteral("reason")),
              QStringLiteral("occluded"))
        << dump(covered);
    EXPECT_EQ(t.world->clickLog().size(), clicks);
}

// Defect 23: with Secure Event Input on, no event tap sees the person's keys; health says so.
TEST(MacFakeBehaviour, HealthSaysWhenSecureEventInputIsOn)
{
    MacTarget t(kSecureEventInput);
    act(t, QStringLiteral("desktop.find"),
        {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    const QJsonObject on = resultOf(t.call(QStringLiteral("desktop.health"), {}));
    EXPECT_EQ(on.value(QStringLiteral("secureEventInput")), QJsonValue(true)) << dump(on);
    t.world->setSecureEventInput(false);
    act(t, QStringLiteral("desktop.find"),
        {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    const QJsonObject off = resultOf(t.call(QStringLiteral("desktop.health"), {}));
    EXPECT_EQ(off.value(QStringLiteral("secureEventInput")), QJsonValue(false)) << dump(off);
}

// Defect 24: an element whose only action opens its context menu is not pressed.
TEST(MacFakeBehaviour, AnElementThatOnlyShowsAMenuIsNotPressed)
{
    MacTarget t;
    const QString more =
        t.world->addElement(t.window, QStringLiteral("AXButton"), QStringLiteral("More"), QRectF(450, 480, 80, 32));
    t.world->setActions(more, {QStringLiteral("AXShowMenu")});
    const QJsonObject response =
        act(t, QStringLiteral("desktop.click"),
            {{QStringLiteral("target"), target(QStringLiteral("AXButton"), QStringLiteral("More"))},
             {QStringLiteral("delivery"), QStringLiteral("action")}});
    EXPECT_EQ(response.value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("details"))
                  .toObject()
                  .value(QStringLiteral("reason")),
              QStringLiteral("no_action"))
        << dump(response);
    EXPECT_TRUE(t.world->actionLog().isEmpty());
}

// Electron and Chromium build their pages' accessibility only once an AT asks
// (AXManualAccessibility): until then a page is an empty group, and find found nothing in it.
TEST(MacFakeBehaviour, AnElectronAppsPageIsAskedForAndFound)
{
    MacTarget t;
    t.world->addApp(QStringLiteral("Chat"), QStringLiteral("com.example.electron-chat"), 7171);
    const QString window = t.world->addWindow(7171, QStringLiteral("Chat"), QRectF(100, 100, 800, 600));
    const QString page =
        t.world->addElement(window, QStringLiteral("AXWebArea"), QStringLiteral("Chat"), QRectF(100, 130, 800, 570));
    const QString send =
        t.world->addElement(page, QStringLiteral("AXButton"), QStringLiteral("Send"), QRectF(700, 640, 80, 32));
    t.world->setActions(send, {QStringLiteral("AXPress")});
    t.world->setWebContentHidden(7171);
    t.world->activate(7171);
    const QJsonObject found = t.call(
        QStringLiteral("desktop.find"),
        {{QStringLiteral("route"), QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), 7171}}}}},
         {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    EXPECT_EQ(resultOf(found).value(QStringLiteral("matched")).toInt(), 1) << dump(found);
}

// Defect 25: a list of thousands of rows is never read whole for a bounded read: its children
// are counted, then read a page at a time, no more than the read's bounds leave room for.
TEST(MacFakeBehaviour, AHugeListIsReadOnlyAsFarAsTheBoundsGo)
{
    MacTarget t;
    const QString list = t.world->addElement(t.window, QStringLiteral("AXTable"), QStringLiteral("Messages"),
                                             QRectF(210, 280, 400, 180));
    for (int row = 0; row < 5000; ++row)
        t.world->addElement(list, QStringLiteral("AXRow"), QStringLiteral("row %1").arg(row),
                            QRectF(210, 280, 400, 20));
    const qint64 before = t.world->handedOut();
    const QJsonObject response =
        t.call(QStringLiteral("desktop.observe"),
               {{QStringLiteral("options"),
                 QJsonObject{{QStringLiteral("axMaxNodes"), 100}, {QStringLiteral("includeScreenshot"), false}}}});
    const QJsonObject tree = resultOf(response).value(QStringLiteral("axTree")).toObject();
    EXPECT_TRUE(tree.value(QStringLiteral("truncated")).toBool()) << dump(response).substr(0, 600);
    EXPECT_EQ(tree.value(QStringLiteral("truncatedReason")).toString(), QStringLiteral("maxNodes"));
    EXPECT_LT(t.world->handedOut() - before, 1000) << "the 5000 rows were read";
}

// macOS keeps an app's menus in the menu bar at the top of the screen, outside its windows: a
// read of the window found no menu, so menuPick answered "no menu item File in the menu bar".
// The app's AXMenuBar is now read with the window; a menu item is found while its menu is
// closed, and menuPick opens File and runs Save once, which leaves every menu closed.
TEST(MacFakeBehaviour, TheMenuBarIsReadWithTheWindowAndMenuPickRunsItsItem)
{
    MacTarget t;
    const QString bar = t.world->addMenuBar(kPid);
    const QString file = t.world->addMenuBarItem(bar, QStringLiteral("File"));
    t.world->addMenuItem(file, QStringLiteral("New"));
    const QString save = t.world->addMenuItem(file, QStringLiteral("Save…"));
    t.world->addMenuBarItem(bar, QStringLiteral("Edit"));
    // Saving names the document in the window's title, as TextEdit does.
    const QString window = t.window;
    t.world->onAction(save, [window](FakeAxWorld& w, const QString&) {
        w.setAttribute(window, QStringLiteral("AXTitle"), FakeAxWorld::AxValue::ofString(QStringLiteral("notes.txt")));
    });

    const QJsonObject found =
        t.call(QStringLiteral("desktop.find"),
               {{QStringLiteral("selector"), selector(QStringLiteral("AXMenuItem"), QStringLiteral("Save…"))}});
    EXPECT_EQ(resultOf(found).value(QStringLiteral("matched")).toInt(), 1) << dump(found);

    const QJsonObject picked =
        act(t, QStringLiteral("desktop.menuPick"),
            {{QStringLiteral("path"), QJsonArray{QStringLiteral("File"), QStringLiteral("Save")}}});
    EXPECT_EQ(resultOf(picked).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(picked);
    const QStringList actions = t.world->actionLog();
    EXPECT_EQ(actions.count(save + QStringLiteral(":AXPress")), 1) << actions.join(u' ').toStdString();
    EXPECT_TRUE(actions.contains(file + QStringLiteral(":AXPress"))) << actions.join(u' ').toStdString();
    EXPECT_EQ(t.world->attribute(window, QStringLiteral("AXTitle"))->string, QStringLiteral("notes.txt"));
    EXPECT_TRUE(t.world->openMenu().isEmpty()) << "the menu " << t.world->openMenu().toStdString() << " stayed open";
}

namespace {

/// A list of 40 rows of 50 points in a scroll view of 300: rows 0 to 5 show.
QString addLongList(MacTarget& t)
{
    const QString area = t.world->addScrollArea(t.window, QRectF(120, 200, 400, 300), 2000);
    const QString content = t.world->scrollContent(area);
    for (int i = 0; i < 40; ++i)
        t.world->addElement(content, QStringLiteral("AXStaticText"), QStringLiteral("Row %1").arg(i),
                            QRectF(120, 200 + 50 * i, 385, 50));
    return area;
}

QJsonObject scrollList(MacTarget& t, const QString& direction, int amount, const QString& unit)
{
    return act(t, QStringLiteral("desktop.scroll"),
               {{QStringLiteral("target"),
                 QJsonObject{{QStringLiteral("selector"),
                              QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXScrollArea")}}}}},
                {QStringLiteral("direction"), direction},
                {QStringLiteral("amount"), amount},
                {QStringLiteral("unit"), unit}});
}

} // namespace

// desktop.scroll answered "unsupported" on macOS. A scroll view moves by lines and pages of the
// wheel, checked in the app's own offset, also with input delivered late; at its end nothing is
// sent and the answer says so.
TEST(MacFakeBehaviour, AListScrollsByLinesAndPagesAndSaysWhenItIsAtItsEnd)
{
    for (const Behaviour& behaviour : {Behaviour(), kLateInput}) {
        MacTarget t(behaviour);
        const QString area = addLongList(t);
        const QJsonObject lines = scrollList(t, QStringLiteral("down"), 3, QStringLiteral("line"));
        EXPECT_EQ(resultOf(lines).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"))
            << dump(lines);
        EXPECT_EQ(resultOf(lines).value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("wheel"));
        EXPECT_TRUE(eventually([&] { return t.world->scrollOffset(area) == 30; })) << t.world->scrollOffset(area);

        const QJsonObject pages = scrollList(t, QStringLiteral("down"), 2, QStringLiteral("page"));
        EXPECT_EQ(resultOf(pages).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"))
            << dump(pages);
        EXPECT_TRUE(eventually([&] { return t.world->scrollOffset(area) == 30 + 2 * 270; }))
            << t.world->scrollOffset(area);

        const QJsonObject top = scrollList(t, QStringLiteral("up"), 100, QStringLiteral("page"));
        EXPECT_TRUE(eventually([&] { return t.world->scrollOffset(area) == 0; })) << dump(top);
        const qsizetype events = t.world->pointerLog().size();
        const QJsonObject again = scrollList(t, QStringLiteral("up"), 1, QStringLiteral("line"));
        EXPECT_EQ(resultOf(again).value(QStringLiteral("effect")).toString(), QStringLiteral("suspected_noop"))
            << dump(again);
        EXPECT_TRUE(resultOf(again).value(QStringLiteral("atLimit")).toBool()) << dump(again);
        EXPECT_EQ(t.world->pointerLog().size(), events) << "a wheel event was sent at the end";
    }
}

// A row below the fold comes into view: by the wheel where the element offers nothing, by
// AXScrollToVisible where it does. Each time the row's own frame lies inside the scroll view.
TEST(MacFakeBehaviour, ARowBelowTheFoldIsBroughtIntoView)
{
    MacTarget t;
    const QString area = addLongList(t);
    const QRectF view = QRectF(120, 200, 400, 300);
    const QJsonObject byWheel =
        act(t, QStringLiteral("desktop.scroll"),
            {{QStringLiteral("target"), target(QStringLiteral("AXStaticText"), QStringLiteral("Row 30"))}});
    EXPECT_EQ(resultOf(byWheel).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"))
        << dump(byWheel);
    EXPECT_EQ(resultOf(byWheel).value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("wheel"));
    const QString row30 = t.world->find(QStringLiteral("AXStaticText"), QStringLiteral("Row 30"));
    const QRectF at30(t.world->attribute(row30, QStringLiteral("AXPosition"))->point,
                      t.world->attribute(row30, QStringLiteral("AXSize"))->size);
    EXPECT_TRUE(view.contains(at30)) << at30.y() << " offset " << t.world->scrollOffset(area);

    const QString row2 = t.world->find(QStringLiteral("AXStaticText"), QStringLiteral("Row 2"));
    t.world->setActions(row2, {QStringLiteral("AXScrollToVisible")});
    const QJsonObject byAction =
        act(t, QStringLiteral("desktop.scroll"),
            {{QStringLiteral("target"), target(QStringLiteral("AXStaticText"), QStringLiteral("Row 2"))}});
    EXPECT_EQ(resultOf(byAction).value(QStringLiteral("deliveredBy")).toString(),
              QStringLiteral("accessibility:scrollTo"))
        << dump(byAction);
    const QRectF at2(t.world->attribute(row2, QStringLiteral("AXPosition"))->point,
                     t.world->attribute(row2, QStringLiteral("AXSize"))->size);
    EXPECT_TRUE(view.contains(at2)) << at2.y();
}

// A display change while a request runs moves every window (macOS moves what a display change
// leaves elsewhere). A click by the pointer took the element's centre from the tree read before
// the screenshot, so after the change it landed on whatever had moved there: here "Delete", which
// sits 40 points above Send. The element is now read again just before the pointer acts; when
// it no longer holds the point nothing is sent, and the answer says to find it again.
TEST(MacFakeBehaviour, APointerClickAfterTheDisplaysChangedNeverLandsOnAnotherElement)
{
    MacTarget t;
    const QString erase =
        t.world->addElement(t.window, QStringLiteral("AXButton"), QStringLiteral("Delete"), QRectF(210, 440, 120, 32));
    t.world->setDisplayChangeAtCapture(QPointF(0, 40), 1);
    const QJsonObject clickSend{{QStringLiteral("target"), target(QStringLiteral("AXButton"), QStringLiteral("Send"))},
                                {QStringLiteral("delivery"), QStringLiteral("pointer")}};
    const QJsonObject moved = act(t, QStringLiteral("desktop.click"), clickSend);
    const QJsonObject error = moved.value(QStringLiteral("error")).toObject();
    EXPECT_EQ(error.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_STALE_SNAPSHOT")) << dump(moved);
    EXPECT_EQ(error.value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("target_moved"));
    EXPECT_TRUE(error.value(QStringLiteral("retryable")).toBool()) << dump(moved);
    EXPECT_EQ(t.world->displayChanges(), 1);
    EXPECT_FALSE(t.world->actionLog().contains(erase + QStringLiteral(":AXPress")))
        << "the click pressed Delete: " << t.world->actionLog().join(u' ').toStdString();
    EXPECT_TRUE(t.world->clickLog().isEmpty()) << t.world->clickLog().join(u' ').toStdString();

    // Found again where it is now, it is clicked.
    const QJsonObject again = act(t, QStringLiteral("desktop.click"), clickSend);
    EXPECT_TRUE(resultOf(again).value(QStringLiteral("clicked")).toBool()) << dump(again);
    EXPECT_TRUE(t.appSawPressed(QStringLiteral("Send")));
    EXPECT_FALSE(t.world->actionLog().contains(erase + QStringLiteral(":AXPress")));
}

// An action on an app behind the person's brings it forward (the press needs its window in
// front); afterwards the person's app comes back to the front, unless the setting is off.
TEST(MacFakeBehaviour, ThePersonsAppComesBackToTheFrontAfterAnActionBehindIt)
{
    MacTarget t;
    constexpr qint64 kNotes = 5151;
    t.world->addApp(QStringLiteral("Notes"), QStringLiteral("com.apple.Notes"), kNotes);
    t.world->addWindow(kNotes, QStringLiteral("Notes"), QRectF(700, 100, 500, 400));
    t.world->activate(kNotes);
    const QJsonObject send{{QStringLiteral("target"), target(QStringLiteral("AXButton"), QStringLiteral("Send"))}};
    const QJsonObject clicked = act(t, QStringLiteral("desktop.click"), send);
    EXPECT_TRUE(resultOf(clicked).value(QStringLiteral("clicked")).toBool()) << dump(clicked);
    EXPECT_TRUE(t.appSawPressed(QStringLiteral("Send")));
    EXPECT_EQ(t.world->frontmost(), kNotes) << "the person's app was not given back the front";

    // With the setting off, the app acted on stays in front.
    TestHost::Options options = macHost(t.world);
    options.backendFactory = [world = t.world] {
        auto backend = std::make_unique<Automation::Mac::MacBackend>(std::make_unique<FakeAxApi>(world));
        backend->configure(QJsonObject{{QStringLiteral("giveBackFocus"), false}});
        return backend;
    };
    t.client.reset();
    t.host = std::make_unique<TestHost>(options);
    t.client = std::make_unique<TestClient>(t.host->socketPath());
    t.world->activate(kNotes);
    const QJsonObject again = act(t, QStringLiteral("desktop.click"), send);
    EXPECT_FALSE(again.contains(QStringLiteral("error"))) << dump(again);
    EXPECT_TRUE(t.appSawPressed(QStringLiteral("Send")));
    EXPECT_EQ(t.world->frontmost(), kPid);
}
