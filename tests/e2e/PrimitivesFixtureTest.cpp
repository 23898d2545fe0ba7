// End to end for the plan's primitives (scroll, menuPick, readText, capture, dumpTree) against
// the project's Qt fixture app with a 500-button grid in a scroll area. Effects are checked
// outside the host: the app's own event lines, pyatspi (extents, text) and the X window.
#include "RealAppSupport.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

QJsonObject jsonFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

class PrimitivesFixture : public RealAppTest<PrimitivesFixture>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        ProbeQuery ready;
        ready.role = u"push button"_s;
        ready.name = u"Button 499"_s;
        s_app->start(DesktopSession::fixtureBinary(), {u"--grid"_s, u"500"_s, u"--title"_s, u"Primitives"_s}, ready);
    }

    static QJsonObject call(const QString& method, const QJsonObject& params, bool sideEffect = false)
    {
        return s_app->call(method, params, sideEffect);
    }
    static QJsonObject target(const QJsonObject& selector) { return QJsonObject{{u"selector"_s, selector}}; }

    /// A grid button's extents as pyatspi reads them.
    static std::optional<QRect> buttonExtents(const QString& name)
    {
        ProbeQuery query;
        query.role = u"push button"_s;
        query.name = name;
        const ProbeResult seen = s_app->probe(query);
        if (seen.nodes.size() != 1 || !seen.nodes.first().extents)
            return std::nullopt;
        return seen.nodes.first().extents;
    }
    /// The grid's scroll area (what shows the buttons) as pyatspi reads it: Qt 6.4 shows the
    /// QScrollArea named "Grid" as a filler.
    static std::optional<QRect> viewport()
    {
        ProbeQuery query;
        query.role = u"filler"_s;
        query.name = u"Grid"_s;
        const ProbeResult seen = s_app->probe(query);
        if (seen.nodes.isEmpty() || !seen.nodes.first().extents)
            return std::nullopt;
        return seen.nodes.first().extents;
    }
};

} // namespace

// The last button of the grid is far below the visible part; scrolled into view, pyatspi sees
// it inside the scroll area.
TEST_F(PrimitivesFixture, ScrollsAButtonIntoView)
{
    const auto area = viewport();
    ASSERT_TRUE(area.has_value());
    const auto before = buttonExtents(u"Button 499"_s);
    ASSERT_TRUE(before.has_value());
    EXPECT_FALSE(area->contains(*before)) << "the button is visible before the scroll";

    const QJsonObject scrolled =
        call(u"desktop.scroll"_s, {{u"target"_s, target(byRoleAndTitle(u"AXButton"_s, u"Button 499"_s))}}, true);
    const QJsonObject result = resultOf(scrolled);
    EXPECT_TRUE(result.value(u"scrolled"_s).toBool()) << dump(scrolled);
    EXPECT_EQ(result.value(u"effect"_s).toString(), u"confirmed"_s) << dump(scrolled);
    EXPECT_TRUE(result.value(u"visible"_s).toBool()) << dump(scrolled);

    const auto after = buttonExtents(u"Button 499"_s);
    ASSERT_TRUE(after.has_value());
    EXPECT_TRUE(area->contains(*after)) << "pyatspi: button at " << after->y() << ", area " << area->y() << "+"
                                        << area->height();
    const QJsonObject frame = result.value(u"frameAfter"_s).toObject();
    EXPECT_EQ(frame.value(u"y"_s).toInt(), after->y()) << "the answer's frame is where the button is";
}

// A page down moves the grid's content up by most of the viewport; a page up brings it back;
// another page up at the top is answered as doing nothing.
TEST_F(PrimitivesFixture, ScrollsTheGridByPagesAndSaysWhenAtTheTop)
{
    const QJsonObject grid = byRoleAndTitle(u"AXGroup"_s, u"Grid"_s);
    // Start at the top, whatever another test did.
    call(u"desktop.scroll"_s, {{u"target"_s, target(byRoleAndTitle(u"AXButton"_s, u"Button 0"_s))}}, true);
    const auto top = buttonExtents(u"Button 0"_s);
    ASSERT_TRUE(top.has_value());

    const QJsonObject down = call(
        u"desktop.scroll"_s, {{u"target"_s, target(grid)}, {u"direction"_s, u"down"_s}, {u"unit"_s, u"page"_s}}, true);
    const QJsonObject result = resultOf(down);
    EXPECT_TRUE(result.value(u"scrolled"_s).toBool()) << dump(down);
    EXPECT_EQ(result.value(u"deliveredBy"_s).toString(), u"accessibility:value"_s) << dump(down);
    const QJsonObject position = result.value(u"position"_s).toObject();
    EXPECT_GT(position.value(u"after"_s).toDouble(), position.value(u"before"_s).toDouble()) << dump(down);
    const auto moved = buttonExtents(u"Button 0"_s);
    ASSERT_TRUE(moved.has_value());
    EXPECT_LT(moved->y(), top->y() - 100) << "pyatspi: Button 0 did not move up";

    const QJsonObject up = call(u"desktop.scroll"_s,
                                {{u"target"_s, target(grid)}, {u"direction"_s, u"up"_s}, {u"unit"_s, u"page"_s}}, true);
    EXPECT_TRUE(resultOf(up).value(u"scrolled"_s).toBool()) << dump(up);
    EXPECT_EQ(buttonExtents(u"Button 0"_s), top) << "pyatspi: Button 0 is not back at the top";

    const QJsonObject again =
        call(u"desktop.scroll"_s, {{u"target"_s, target(grid)}, {u"direction"_s, u"up"_s}, {u"amount"_s, 5}}, true);
    const QJsonObject atTop = resultOf(again);
    EXPECT_FALSE(atTop.value(u"scrolled"_s).toBool()) << dump(again);
    EXPECT_EQ(atTop.value(u"effect"_s).toString(), u"suspected_noop"_s) << dump(again);
    EXPECT_TRUE(atTop.value(u"atLimit"_s).toBool()) << dump(again);
}

// Was: every scroll made every elementRef stale. The same button, only moved, is still the ref's.
TEST_F(PrimitivesFixture, AnElementRefStaysValidAcrossAScroll)
{
    const QJsonObject found =
        call(u"desktop.find"_s, {{u"selector"_s, byRoleAndTitle(u"AXButton"_s, u"Button 250"_s)}});
    const QJsonArray refs = resultOf(found).value(u"elementRefs"_s).toArray();
    ASSERT_EQ(refs.size(), 1) << dump(found);
    const QJsonObject ref = refs.at(0).toObject();

    const QJsonObject scrolled = call(u"desktop.scroll"_s, {{u"target"_s, QJsonObject{{u"elementRef"_s, ref}}}}, true);
    ASSERT_TRUE(resultOf(scrolled).value(u"scrolled"_s).toBool()) << dump(scrolled);

    const QJsonObject clicked = call(u"desktop.click"_s, {{u"target"_s, QJsonObject{{u"elementRef"_s, ref}}}}, true);
    EXPECT_EQ(resultOf(clicked).value(u"targetResolvedVia"_s).toString(), u"elementRef:moved"_s) << dump(clicked);
    EXPECT_TRUE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Button 250"_s}}).has_value())
        << "the app saw no click on Button 250; host answered " << dump(clicked);
}

// Edit > Clear empties the message field: the app reports the menu action and the empty text.
TEST_F(PrimitivesFixture, PicksAMenuItemThroughItsMenu)
{
    const QJsonObject typed = s_app->typeText(byRoleAndTitle(u"AXTextField"_s, u"Message"_s), u"to be cleared"_s, true);
    ASSERT_TRUE(isConfirmed(typed, u"typed"_s)) << dump(typed);
    s_app->app().discardEvents(); // what came before

    const QJsonObject picked = call(u"desktop.menuPick"_s, {{u"path"_s, QJsonArray{u"edit"_s, u"&Clear…"_s}}}, true);
    EXPECT_TRUE(s_app->app().waitEvent(u"menu"_s, {{u"name"_s, u"Edit/Clear"_s}}).has_value()) << dump(picked);
    EXPECT_TRUE(s_app->app().waitEvent(u"textChanged"_s, {{u"name"_s, u"Message"_s}, {u"length"_s, 0}}).has_value());
    const QJsonObject result = resultOf(picked);
    EXPECT_TRUE(result.value(u"picked"_s).toBool()) << dump(picked);
    EXPECT_EQ(result.value(u"effect"_s).toString(), u"confirmed"_s) << dump(picked);
    const QJsonArray items = result.value(u"items"_s).toArray();
    ASSERT_EQ(items.size(), 2);
    EXPECT_EQ(items.at(0).toObject().value(u"role"_s).toString(), u"AXMenuBarItem"_s);
    EXPECT_EQ(items.at(1).toObject().value(u"title"_s).toString(), u"Clear"_s);
    // Two steps, two numbered trees (the menu bar, then the open Edit menu); ax.json is the last.
    const QString dir = evidenceDir(picked);
    const QJsonObject bar = jsonFile(dir + u"ax/001_menu_edit.json"_s);
    const QJsonObject menu = jsonFile(dir + u"ax/002_menu_Clear.json"_s);
    EXPECT_FALSE(bar.value(u"root"_s).toObject().isEmpty()) << "no ax/001_menu_edit.json in " << dir.toStdString();
    EXPECT_FALSE(menu.value(u"root"_s).toObject().isEmpty()) << "no ax/002_menu_Clear.json in " << dir.toStdString();
    EXPECT_EQ(jsonFile(dir + u"ax.json"_s), menu);
    // Qt runs an item's action without closing its menu: the host closes what it opened, so
    // the next keys do not go to a menu left open.
    ProbeQuery open;
    open.role = u"popup menu"_s;
    open.name = u"Edit"_s;
    open.states = {u"showing"_s};
    open.maxCount = 0;
    open.waitMs = 2000;
    EXPECT_TRUE(s_app->probe(open).ok) << "the Edit menu is still open; host answered " << dump(picked);
}

// A wrong path is refused naming the level and what the menu has; the menu it opened is closed again.
TEST_F(PrimitivesFixture, AMissingMenuItemIsNamedAndItsMenuClosed)
{
    const QJsonObject missing = call(u"desktop.menuPick"_s, {{u"path"_s, QJsonArray{u"File"_s, u"Print"_s}}}, true);
    EXPECT_EQ(errorCode(missing), u"DESKTOP_ELEMENT_NOT_FOUND"_s) << dump(missing);
    const QJsonObject details = errorOf(missing).value(u"details"_s).toObject();
    EXPECT_EQ(details.value(u"level"_s).toInt(), 1);
    EXPECT_TRUE(details.value(u"available"_s).toArray().contains(u"New"_s)) << dump(missing);
    ProbeQuery open;
    open.role = u"popup menu"_s;
    open.name = u"File"_s;
    open.states = {u"showing"_s};
    open.maxCount = 0;
    open.waitMs = 2000;
    EXPECT_TRUE(s_app->probe(open).ok) << "the File menu is still open";
}

// The message field's text, with an address masked by default and as is when asked; the
// password field is refused and nothing of it is read.
TEST_F(PrimitivesFixture, ReadsTextRedactedAndRefusesThePasswordField)
{
    const QString text = u"mail ada@example.org ✓"_s;
    ASSERT_TRUE(isConfirmed(s_app->typeText(byRoleAndTitle(u"AXTextField"_s, u"Message"_s), text, true), u"typed"_s));
    const QJsonObject message = byRoleAndTitle(u"AXTextField"_s, u"Message"_s);

    const QJsonObject masked = call(u"desktop.readText"_s, {{u"selector"_s, message}});
    const QJsonObject item = resultOf(masked).value(u"items"_s).toArray().at(0).toObject();
    EXPECT_EQ(item.value(u"text"_s).toString(), u"mail [redacted:email] ✓"_s) << dump(masked);
    EXPECT_EQ(item.value(u"redactions"_s).toInt(), 1);

    const QJsonObject plain = call(u"desktop.readText"_s, {{u"selector"_s, message}, {u"redactionMode"_s, u"none"_s}});
    EXPECT_EQ(resultOf(plain).value(u"items"_s).toArray().at(0).toObject().value(u"text"_s).toString(), text)
        << dump(plain);

    // The label next to the list shows its text as its name.
    const QJsonObject label =
        call(u"desktop.readText"_s, {{u"selector"_s, byRoleAndTitle(u"AXStaticText"_s, u"Message:"_s)}});
    EXPECT_EQ(resultOf(label).value(u"items"_s).toArray().at(0).toObject().value(u"text"_s).toString(), u"Message:"_s);

    const QJsonObject secret =
        call(u"desktop.readText"_s, {{u"selector"_s, byRoleAndTitle(u"AXTextField"_s, u"Password"_s)}});
    EXPECT_EQ(errorCode(secret), u"DESKTOP_INVALID_REQUEST"_s) << dump(secret);
    EXPECT_EQ(errorOf(secret).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"secure_field"_s);
}

// The window's capture covers the window as X places it; a rect capture is that rect.
TEST_F(PrimitivesFixture, CapturesTheWindowAndARect)
{
    const QJsonObject window = call(u"desktop.capture"_s, {});
    const QJsonObject result = resultOf(window);
    EXPECT_EQ(result.value(u"source"_s).toString(), u"window"_s) << dump(window);
    const auto x = mainXWindow(s_app->pid());
    ASSERT_TRUE(x.has_value());
    const QJsonObject frame = result.value(u"frame"_s).toObject();
    const QRect covered(frame.value(u"x"_s).toInt(), frame.value(u"y"_s).toInt(), frame.value(u"width"_s).toInt(),
                        frame.value(u"height"_s).toInt());
    // The accessible frame may include the window manager's decoration; it covers the X window.
    const QRect both = covered.intersected(x->geometry);
    EXPECT_GE(both.width() * both.height(), x->geometry.width() * x->geometry.height() * 9 / 10)
        << "xdotool: " << x->geometry.x() << "," << x->geometry.y() << " " << x->geometry.width() << "x"
        << x->geometry.height() << "; answered " << dump(window);
    QImage image(evidenceDir(window) + u"capture.png"_s);
    EXPECT_EQ(image.size(), covered.size());

    QJsonObject params{{u"rect"_s, QJsonObject{{u"x"_s, 10}, {u"y"_s, 20}, {u"width"_s, 64}, {u"height"_s, 48}}},
                       {u"inline"_s, true}};
    const QJsonObject rect = s_app->call(u"desktop.capture"_s, params);
    QImage png;
    ASSERT_TRUE(
        png.loadFromData(QByteArray::fromBase64(resultOf(rect).value(u"pngBase64"_s).toString().toLatin1()), "PNG"))
        << dump(rect);
    EXPECT_EQ(png.size(), QSize(64, 48));
}

// The tree without a screenshot: structure and names, no text unless asked.
TEST_F(PrimitivesFixture, DumpsTheTreeWithoutText)
{
    ASSERT_TRUE(
        isConfirmed(s_app->typeText(byRoleAndTitle(u"AXTextField"_s, u"Message"_s), u"zebra-42"_s, true), u"typed"_s));
    const QJsonObject dumped = call(u"desktop.dumpTree"_s, {{u"maxDepth"_s, 6}, {u"maxNodes"_s, 5000}});
    const QByteArray json = QJsonDocument(resultOf(dumped)).toJson();
    EXPECT_TRUE(json.contains("\"Message\"")) << dump(dumped);
    EXPECT_TRUE(json.contains("\"Button 499\""));
    EXPECT_FALSE(json.contains("zebra-42")) << "text without includeText";
    EXPECT_FALSE(QFile::exists(evidenceDir(dumped) + u"observe.png"_s));

    const QJsonObject withText = call(u"desktop.dumpTree"_s, {{u"maxDepth"_s, 6}, {u"includeText"_s, true}});
    EXPECT_TRUE(QJsonDocument(resultOf(withText)).toJson().contains("zebra-42")) << dump(withText);

    const QJsonObject small = call(u"desktop.dumpTree"_s, {{u"maxNodes"_s, 10}});
    const QJsonObject tree = resultOf(small).value(u"tree"_s).toObject();
    EXPECT_TRUE(tree.value(u"truncated"_s).toBool());
    EXPECT_EQ(tree.value(u"truncatedReason"_s).toString(), u"maxNodes"_s);
}

// waitUntil beyond selectorExists: a dialog's window appearing and going, a label's text, the
// focused field, all at once.
TEST_F(PrimitivesFixture, WaitsForWindowsTextAndFocus)
{
    const auto wait = [](const QJsonObject& condition, int timeoutMs = 5000) {
        return s_app->call(u"desktop.waitUntil"_s,
                           {{u"condition"_s, condition}, {u"timeoutMs"_s, timeoutMs}, {u"pollMs"_s, 50}});
    };
    const QJsonObject dialog{{u"titlePattern"_s, u"^Confirm Action$"_s}};
    const QJsonObject gone = wait(QJsonObject{{u"windowGone"_s, dialog}}, 2000);
    EXPECT_TRUE(resultOf(gone).value(u"ok"_s).toBool()) << dump(gone);

    const QJsonObject opened = s_app->click(byRoleAndTitle(u"AXButton"_s, u"Open Dialog"_s));
    const QJsonObject appeared = wait(QJsonObject{{u"windowExists"_s, dialog}});
    EXPECT_TRUE(resultOf(appeared).value(u"ok"_s).toBool()) << dump(appeared) << "; click answered " << dump(opened);
    EXPECT_TRUE(s_app->app().waitEvent(u"dialog"_s, {{u"result"_s, u"opened"_s}}).has_value());
    s_app->click(byRoleAndTitle(u"AXButton"_s, u"Cancel"_s), u"^Confirm Action$"_s);
    EXPECT_TRUE(s_app->app().waitEvent(u"dialog"_s, {{u"result"_s, u"rejected"_s}}).has_value());
    const QJsonObject closed = wait(QJsonObject{{u"windowGone"_s, dialog}});
    EXPECT_TRUE(resultOf(closed).value(u"ok"_s).toBool()) << dump(closed);

    // Typing "hi" and sending it: the result label reads "Sent: hi", and the field has focus.
    ASSERT_TRUE(
        isConfirmed(s_app->typeText(byRoleAndTitle(u"AXTextField"_s, u"Message"_s), u"hi"_s, true), u"typed"_s));
    s_app->click(byRoleAndTitle(u"AXButton"_s, u"Send"_s));
    const QJsonObject both = wait(QJsonObject{
        {u"all"_s,
         QJsonArray{
             QJsonObject{{u"textMatches"_s, QJsonObject{{u"selector"_s, QJsonObject{{u"byRole"_s, u"AXStaticText"_s}}},
                                                        {u"pattern"_s, u"^Sent: hi$"_s}}}},
             QJsonObject{{u"enabled"_s, byRoleAndTitle(u"AXButton"_s, u"Send"_s)}},
             QJsonObject{{u"selectorGone"_s, byRoleAndTitle(u"AXButton"_s, u"Nothing like this"_s)}}}}});
    const QJsonObject result = resultOf(both);
    EXPECT_TRUE(result.value(u"ok"_s).toBool()) << dump(both);
    EXPECT_EQ(result.value(u"conditions"_s).toObject().value(u"children"_s).toArray().size(), 3) << dump(both);

    // A condition that does not hold times out, saying which part did not.
    const QJsonObject never = wait(
        QJsonObject{
            {u"any"_s,
             QJsonArray{QJsonObject{{u"windowExists"_s, QJsonObject{{u"titlePattern"_s, u"^No such$"_s}}}},
                        QJsonObject{{u"valueEquals"_s,
                                     QJsonObject{{u"selector"_s, byRoleAndTitle(u"AXTextField"_s, u"Message"_s)},
                                                 {u"value"_s, u"bye"_s}}}}}}},
        600);
    EXPECT_EQ(errorCode(never), u"DESKTOP_TIMEOUT"_s) << dump(never);
    const QJsonObject state = errorOf(never).value(u"details"_s).toObject().value(u"conditions"_s).toObject();
    EXPECT_FALSE(state.value(u"satisfied"_s).toBool()) << dump(never);
    EXPECT_EQ(state.value(u"children"_s).toArray().size(), 2) << dump(never);
}

// find can answer each match's text and states, so an agent need not read ax.json: the check
// box's checked state follows a click, the field's text what was typed.
TEST_F(PrimitivesFixture, FindAnswersTextAndStatesWhenAsked)
{
    ASSERT_TRUE(
        isConfirmed(s_app->typeText(byRoleAndTitle(u"AXTextField"_s, u"Message"_s), u"find me"_s, true), u"typed"_s));
    const QJsonArray include{u"text"_s, u"states"_s};
    const QJsonObject field = s_app->call(
        u"desktop.find"_s, {{u"selector"_s, byRoleAndTitle(u"AXTextField"_s, u"Message"_s)}, {u"include"_s, include}});
    const QJsonObject ref = resultOf(field).value(u"elementRefs"_s).toArray().at(0).toObject();
    EXPECT_EQ(ref.value(u"text"_s).toString(), u"find me"_s) << dump(field);
    EXPECT_TRUE(ref.value(u"states"_s).toObject().value(u"enabled"_s).toBool()) << dump(field);

    const QJsonObject box = byRoleAndTitle(u"AXCheckBox"_s, u"Remember me"_s);
    const auto checked = [&] {
        const QJsonObject found = s_app->call(u"desktop.find"_s, {{u"selector"_s, box}, {u"include"_s, include}});
        return resultOf(found)
            .value(u"elementRefs"_s)
            .toArray()
            .at(0)
            .toObject()
            .value(u"states"_s)
            .toObject()
            .value(u"checked"_s);
    };
    const QJsonValue before = checked();
    ASSERT_TRUE(before.isBool());
    s_app->click(box);
    const auto toggled = s_app->app().waitEvent(u"toggled"_s, {{u"name"_s, u"Remember me"_s}});
    ASSERT_TRUE(toggled.has_value());
    EXPECT_EQ(checked(), toggled->value(u"checked"_s)) << "the app reports its own state";
    EXPECT_NE(checked(), before);

    const QJsonObject secret = s_app->call(
        u"desktop.find"_s, {{u"selector"_s, byRoleAndTitle(u"AXTextField"_s, u"Password"_s)}, {u"include"_s, include}});
    const QJsonObject p = resultOf(secret).value(u"elementRefs"_s).toArray().at(0).toObject();
    EXPECT_TRUE(p.value(u"text"_s).isNull()) << dump(secret);
    EXPECT_TRUE(p.value(u"states"_s).toObject().value(u"secure"_s).toBool()) << dump(secret);
}

// A side effect aimed at the main window while the app's modal dialog shows is refused naming
// the dialog, and nothing is clicked; aimed at the dialog, it goes through.
TEST_F(PrimitivesFixture, ASideEffectUnderAModalDialogIsRefusedNamingIt)
{
    s_app->click(byRoleAndTitle(u"AXButton"_s, u"Open Dialog"_s));
    ASSERT_TRUE(s_app->app().waitEvent(u"dialog"_s, {{u"result"_s, u"opened"_s}}).has_value());
    s_app->app().discardEvents();
    const QJsonObject blocked = s_app->click(byRoleAndTitle(u"AXButton"_s, u"Send"_s), u"^Primitives$"_s);
    EXPECT_EQ(errorCode(blocked), u"DESKTOP_MODAL_BLOCKING"_s) << dump(blocked);
    EXPECT_EQ(errorOf(blocked).value(u"details"_s).toObject().value(u"dialog"_s).toString(), u"Confirm Action"_s)
        << dump(blocked);
    EXPECT_FALSE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}, 500).has_value());

    const QJsonObject cancel = s_app->click(byRoleAndTitle(u"AXButton"_s, u"Cancel"_s), u"^Confirm Action$"_s);
    EXPECT_TRUE(isConfirmed(cancel, u"clicked"_s)) << dump(cancel);
    EXPECT_TRUE(s_app->app().waitEvent(u"dialog"_s, {{u"result"_s, u"rejected"_s}}).has_value());
}

// A waited-for selector that matches on values reads them (was: they were never read, so it
// never matched and selectorGone on it always held).
TEST_F(PrimitivesFixture, WaitsForASelectorThatMatchesOnValues)
{
    ASSERT_TRUE(isConfirmed(s_app->typeText(byRoleAndTitle(u"AXTextField"_s, u"Message"_s), u"wait for zzq"_s, true),
                            u"typed"_s));
    const QJsonObject byValue{{u"byRole"_s, u"AXTextField"_s}, {u"valueContains"_s, u"zzq"_s}};
    const QJsonObject exists =
        s_app->call(u"desktop.waitUntil"_s,
                    {{u"condition"_s, QJsonObject{{u"selectorExists"_s, byValue}}}, {u"timeoutMs"_s, 3000}});
    EXPECT_TRUE(resultOf(exists).value(u"ok"_s).toBool()) << dump(exists);
    const QJsonObject gone = s_app->call(
        u"desktop.waitUntil"_s, {{u"condition"_s, QJsonObject{{u"selectorGone"_s, byValue}}}, {u"timeoutMs"_s, 500}});
    EXPECT_EQ(errorCode(gone), u"DESKTOP_TIMEOUT"_s) << dump(gone);
}

// The field a form label names, found through the label's relation (Qt's buddy), typed into;
// the app reports the text, and candidates.json says why the field was chosen.
TEST_F(PrimitivesFixture, TypesIntoTheFieldItsFormLabelNames)
{
    s_app->app().discardEvents();
    const QJsonObject selector{{u"byRole"_s, u"AXTextField"_s},
                               {u"labelledBy"_s, QJsonObject{{u"titleEquals"_s, u"Message:"_s}}}};
    const QJsonObject typed = s_app->typeText(selector, u"by its label"_s, true);
    ASSERT_TRUE(isConfirmed(typed, u"typed"_s)) << dump(typed);
    EXPECT_TRUE(s_app->app()
                    .waitEvent(u"textChanged"_s, {{u"name"_s, u"Message"_s}, {u"text"_s, u"by its label"_s}})
                    .has_value());
    const QJsonObject candidates = jsonFile(evidenceDir(typed) + u"selectors/candidates.json"_s);
    const QJsonArray reasons =
        candidates.value(u"candidates"_s).toArray().at(0).toObject().value(u"reasons"_s).toArray();
    EXPECT_TRUE(reasons.contains(u"labelled by \"Message:\" (relation)"_s)) << dump(candidates);
}

// nth, near, byPath, byRect and inWindow on the grid, each answer checked against what pyatspi
// reads of the buttons.
TEST_F(PrimitivesFixture, SelectsByPositionInTheTreeAndOnTheScreen)
{
    const auto titlesOf = [](const QJsonObject& response) {
        QStringList titles;
        for (const auto& ref : resultOf(response).value(u"elementRefs"_s).toArray())
            titles.append(ref.toObject().value(u"title"_s).toString());
        return titles;
    };
    // nth counts in document order: the third grid button.
    const QJsonObject third =
        call(u"desktop.find"_s,
             {{u"selector"_s,
               QJsonObject{{u"byRole"_s, u"AXButton"_s}, {u"titleMatches"_s, u"^Button \\d+$"_s}, {u"nth"_s, 2}}}});
    EXPECT_EQ(titlesOf(third), QStringList{u"Button 2"_s}) << dump(third);

    // near: the buttons within 10 px of "Button 17" are its neighbours on the screen.
    const QJsonObject near = call(
        u"desktop.find"_s, {{u"selector"_s, QJsonObject{{u"byRole"_s, u"AXButton"_s},
                                                        {u"near"_s, QJsonObject{{u"titleEquals"_s, u"Button 17"_s}}},
                                                        {u"maxDistance"_s, 10},
                                                        {u"limit"_s, 20}}}});
    const QStringList neighbours = titlesOf(near);
    ASSERT_FALSE(neighbours.isEmpty()) << dump(near);
    EXPECT_FALSE(neighbours.contains(u"Button 17"_s));
    const auto anchor = buttonExtents(u"Button 17"_s);
    ASSERT_TRUE(anchor.has_value());
    for (const QString& title : neighbours) {
        const auto extents = buttonExtents(title);
        ASSERT_TRUE(extents.has_value()) << title.toStdString();
        EXPECT_TRUE(extents->adjusted(-10, -10, 10, 10).intersects(*anchor)) << title.toStdString();
    }
    for (const char* expected : {"Button 16", "Button 18", "Button 7", "Button 27"})
        EXPECT_TRUE(neighbours.contains(QLatin1String(expected))) << expected << " in " << dump(near);

    // byRect: the rect pyatspi gives for "Button 17".
    const QJsonObject inRect = call(
        u"desktop.find"_s, {{u"selector"_s, QJsonObject{{u"byRole"_s, u"AXButton"_s},
                                                        {u"byRect"_s, QJsonObject{{u"x"_s, anchor->x()},
                                                                                  {u"y"_s, anchor->y()},
                                                                                  {u"width"_s, anchor->width()},
                                                                                  {u"height"_s, anchor->height()}}}}}});
    EXPECT_EQ(titlesOf(inRect), QStringList{u"Button 17"_s}) << dump(inRect);

    // byPath: the path ax.json gives for "Button 17" finds it again.
    const QJsonObject found = call(u"desktop.find"_s, {{u"selector"_s, byRoleAndTitle(u"AXButton"_s, u"Button 17"_s)}});
    const QJsonObject tree = jsonFile(evidenceDir(found) + u"ax.json"_s);
    QJsonArray path;
    std::function<void(const QJsonObject&)> look = [&](const QJsonObject& node) {
        if (node.value(u"title"_s).toString() == u"Button 17"_s)
            path = node.value(u"path"_s).toArray();
        for (const auto& child : node.value(u"children"_s).toArray())
            look(child.toObject());
    };
    look(tree.value(u"root"_s).toObject());
    ASSERT_FALSE(path.isEmpty()) << "no path for Button 17 in ax.json";
    const QJsonObject byPath = call(u"desktop.find"_s, {{u"selector"_s, QJsonObject{{u"byPath"_s, path}}}});
    EXPECT_EQ(titlesOf(byPath), QStringList{u"Button 17"_s}) << dump(byPath);

    // inWindow: names the window when the route does not, and a window that is not there is
    // not found.
    QJsonObject pidOnly = s_app->route();
    pidOnly.remove(u"window"_s);
    const QJsonObject inWindow =
        call(u"desktop.find"_s,
             {{u"route"_s, pidOnly},
              {u"selector"_s, QJsonObject{{u"titleEquals"_s, u"Send"_s}, {u"inWindow"_s, u"^Primitives$"_s}}}});
    EXPECT_EQ(titlesOf(inWindow), QStringList{u"Send"_s}) << dump(inWindow);
    const QJsonObject elsewhere =
        call(u"desktop.find"_s,
             {{u"route"_s, pidOnly},
              {u"selector"_s, QJsonObject{{u"titleEquals"_s, u"Send"_s}, {u"inWindow"_s, u"^Preferences$"_s}}}});
    EXPECT_FALSE(errorOf(elsewhere).isEmpty()) << dump(elsewhere);
}

// Another program's always-on-top window over "Send": a pointer click is refused naming it and
// the app sees no click; the accessibility action still works (it needs no pointer); once the
// window is gone the pointer clicks "Send" and the app says so.
TEST_F(PrimitivesFixture, APointerClickOnACoveredButtonIsRefusedNamingTheCover)
{
    const QJsonObject send = byRoleAndTitle(u"AXButton"_s, u"Send"_s);
    const QJsonObject found = s_app->find(send);
    const QJsonObject frame =
        resultOf(found).value(u"elementRefs"_s).toArray().at(0).toObject().value(u"frame"_s).toObject();
    ASSERT_FALSE(frame.isEmpty()) << dump(found);
    const QPoint centre(frame.value(u"x"_s).toInt() + frame.value(u"width"_s).toInt() / 2,
                        frame.value(u"y"_s).toInt() + frame.value(u"height"_s).toInt() / 2);
    const auto clickBy = [&](const QString& delivery) {
        return call(u"desktop.click"_s, {{u"target"_s, target(send)}, {u"delivery"_s, delivery}}, true);
    };
    {
        CoverWindow cover(s_app->environment(), QRect(centre - QPoint(60, 40), QSize(120, 80)), u"Always on top"_s);
        ASSERT_TRUE(cover.shown());
        s_app->app().discardEvents();
        const QJsonObject covered = clickBy(u"pointer"_s);
        EXPECT_EQ(errorOf(covered).value(u"code"_s).toString(), u"DESKTOP_ELEMENT_NOT_FOUND"_s) << dump(covered);
        const QJsonObject details = errorOf(covered).value(u"details"_s).toObject();
        EXPECT_EQ(details.value(u"reason"_s).toString(), u"occluded"_s) << dump(covered);
        EXPECT_EQ(details.value(u"coveredBy"_s).toObject().value(u"title"_s).toString(), u"Always on top"_s)
            << dump(covered);
        EXPECT_FALSE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}, 1000).has_value())
            << "the app saw a click";

        const QJsonObject pressed = clickBy(u"action"_s);
        EXPECT_TRUE(answeredTrue(pressed, u"clicked"_s)) << dump(pressed);
        EXPECT_TRUE(resultOf(pressed).value(u"deliveredBy"_s).toString().startsWith(u"accessibilityAction"_s));
        EXPECT_TRUE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}).has_value());
    }
    const QJsonObject pointed = clickBy(u"pointer"_s);
    EXPECT_EQ(resultOf(pointed).value(u"deliveredBy"_s).toString(), u"pointer"_s) << dump(pointed);
    EXPECT_TRUE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}).has_value()) << dump(pointed);
}

// typeText by keys alone; a window id and a snapshotId from one answer carried into the next
// requests; refresh reads the same window afresh.
TEST_F(PrimitivesFixture, StaysOnTheWindowAndSnapshotItFoundAndTypesByTheNamedPath)
{
    const QJsonObject field = byRoleAndTitle(u"AXTextField"_s, u"Message"_s);
    const QJsonObject found = call(u"desktop.find"_s, {{u"selector"_s, field}, {u"refresh"_s, true}});
    const QString windowId = resultOf(found).value(u"routeResolved"_s).toObject().value(u"windowId"_s).toString();
    const QString snapshotId = resultOf(found).value(u"snapshotId"_s).toString();
    ASSERT_TRUE(windowId.startsWith(u"w:"_s)) << dump(found);
    ASSERT_TRUE(snapshotId.startsWith(u"s:"_s)) << dump(found);
    QJsonObject ref = resultOf(found).value(u"elementRefs"_s).toArray().at(0).toObject();
    ref.insert(u"snapshotId"_s, snapshotId);

    s_app->app().discardEvents();
    const QJsonObject typed = call(u"desktop.typeText"_s,
                                   {{u"route"_s, QJsonObject{{u"window"_s, QJsonObject{{u"id"_s, windowId}}}}},
                                    {u"target"_s, QJsonObject{{u"elementRef"_s, ref}}},
                                    {u"text"_s, u"by keys"_s},
                                    {u"delivery"_s, u"keys"_s},
                                    {u"options"_s, QJsonObject{{u"clearBefore"_s, true}}}},
                                   true);
    EXPECT_EQ(resultOf(typed).value(u"path"_s).toString(), u"keys"_s) << dump(typed);
    EXPECT_EQ(resultOf(typed).value(u"routeResolved"_s).toObject().value(u"windowId"_s).toString(), windowId);
    EXPECT_TRUE(
        s_app->app().waitEvent(u"textChanged"_s, {{u"name"_s, u"Message"_s}, {u"text"_s, u"by keys"_s}}).has_value())
        << dump(typed);

    // An element of another snapshot (a later find's) under this snapshotId is refused; nothing
    // is typed.
    const QJsonObject later = call(u"desktop.find"_s, {{u"selector"_s, field}});
    ref.insert(u"elementId"_s,
               resultOf(later).value(u"elementRefs"_s).toArray().at(0).toObject().value(u"elementId"_s).toString());
    s_app->app().discardEvents();
    const QJsonObject mixed =
        call(u"desktop.typeText"_s, {{u"target"_s, QJsonObject{{u"elementRef"_s, ref}}}, {u"text"_s, u"no"_s}}, true);
    EXPECT_EQ(errorOf(mixed).value(u"details"_s).toObject().value(u"field"_s).toString(),
              u"target.elementRef.snapshotId"_s)
        << dump(mixed);
    EXPECT_FALSE(s_app->app().waitEvent(u"textChanged"_s, {{u"name"_s, u"Message"_s}}, 500).has_value());
}

// env.json of a click says what the desktop was around it, as X itself says (xdotool, xprop):
// the display, the keyboard layout, the frontmost window, the target window, and how the click
// was delivered with its effect.
TEST_F(PrimitivesFixture, EnvJsonDescribesTheDesktopAndTheDelivery)
{
    const QJsonObject clicked = s_app->click(byRoleAndTitle(u"AXCheckBox"_s, u"Remember me"_s));
    ASSERT_TRUE(answeredTrue(clicked, u"clicked"_s)) << dump(clicked);
    const QJsonObject env = jsonFile(evidenceDir(clicked) + u"env.json"_s);

    const CommandResult display = runCommand(u"xdotool"_s, {u"getdisplaygeometry"_s});
    const QStringList size = display.out.trimmed().split(u' ');
    ASSERT_EQ(size.size(), 2) << display.out.toStdString();
    const QJsonObject displayFrame = env.value(u"display"_s).toObject().value(u"frame"_s).toObject();
    EXPECT_EQ(displayFrame.value(u"width"_s).toInt(), size.at(0).toInt()) << dump(env);
    EXPECT_EQ(displayFrame.value(u"height"_s).toInt(), size.at(1).toInt()) << dump(env);
    EXPECT_GT(env.value(u"display"_s).toObject().value(u"scale"_s).toDouble(), 0.0);

    const CommandResult xkb = runCommand(u"xprop"_s, {u"-root"_s, u"_XKB_RULES_NAMES"_s});
    const QString layout = env.value(u"inputMethod"_s).toObject().value(u"layout"_s).toString();
    EXPECT_FALSE(layout.isEmpty()) << dump(env);
    EXPECT_TRUE(xkb.out.contains(u"\""_s + layout + u"\""_s)) << xkb.out.toStdString() << " vs " << dump(env);

    const auto window = mainXWindow(s_app->pid());
    ASSERT_TRUE(window.has_value());
    const QJsonObject target = env.value(u"window"_s).toObject();
    EXPECT_EQ(target.value(u"title"_s).toString(), u"Primitives"_s) << dump(env);
    EXPECT_EQ(target.value(u"pid"_s).toInteger(), s_app->pid());
    // xwininfo's absolute position (xdotool's adds the window manager's decoration again).
    const CommandResult info = runCommand(u"xwininfo"_s, {u"-id"_s, window->id});
    const auto absolute = [&](const QString& axis) {
        const QRegularExpression line(u"Absolute upper-left "_s + axis + u":\\s+(-?\\d+)"_s);
        return line.match(info.out).captured(1).toInt();
    };
    const QJsonObject frame = target.value(u"frame"_s).toObject();
    EXPECT_EQ(frame.value(u"x"_s).toInt(), absolute(u"X"_s)) << info.out.toStdString() << dump(env);
    EXPECT_EQ(frame.value(u"y"_s).toInt(), absolute(u"Y"_s)) << info.out.toStdString() << dump(env);
    EXPECT_EQ(frame.value(u"width"_s).toInt(), window->geometry.width()) << dump(env);
    EXPECT_EQ(env.value(u"frontmost"_s).toObject().value(u"pid"_s).toInteger(), s_app->pid()) << dump(env);
    EXPECT_EQ(target.value(u"windowId"_s).toString(),
              resultOf(clicked).value(u"routeResolved"_s).toObject().value(u"windowId"_s).toString());

    const QJsonObject action = env.value(u"action"_s).toObject();
    EXPECT_EQ(action.value(u"deliveredBy"_s).toString(), resultOf(clicked).value(u"deliveredBy"_s).toString());
    EXPECT_EQ(action.value(u"effect"_s).toString(), resultOf(clicked).value(u"effect"_s).toString());
    EXPECT_FALSE(action.value(u"verification"_s).toObject().isEmpty()) << dump(env);

    // A read-only request says where it looked, and has no action.
    const QJsonObject found = s_app->find(byRoleAndTitle(u"AXButton"_s, u"Send"_s));
    const QJsonObject findEnv = jsonFile(evidenceDir(found) + u"env.json"_s);
    EXPECT_FALSE(findEnv.contains(u"action"_s)) << dump(findEnv);
    EXPECT_EQ(findEnv.value(u"window"_s).toObject().value(u"title"_s).toString(), u"Primitives"_s);
}
