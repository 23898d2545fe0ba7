// The MCP front door end to end, as msgcode drives it (one `msgcode-desktop-mcp mcp` process per
// tool call: initialize, initialized, tools/list, tools/call, SIGTERM), against the real host
// with the auto confirmation policy, on the Qt fixture app and on mousepad (GTK 3). Effects are
// checked in the apps: the fixture's own event lines, pyatspi reading mousepad's document.
#include "RealAppSupport.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class McpDoorFixture : public RealAppTest<McpDoorFixture>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        s_app->desktop().setHostArguments({u"--confirm-policy"_s, u"auto"_s});
        ProbeQuery ready;
        ready.role = u"push button"_s;
        ready.name = u"Send"_s;
        s_app->start(DesktopSession::fixtureBinary(), {u"--title"_s, u"MCP door"_s, u"--pointer-pad"_s}, ready);
    }
    static QJsonObject tool(const QString& name, QJsonObject arguments)
    {
        arguments.insert(u"app"_s, u"mdh-target-app"_s);
        return callTool(*s_app, name, arguments);
    }
};

class McpDoorMousepad : public RealAppTest<McpDoorMousepad>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        s_app->desktop().setHostArguments({u"--confirm-policy"_s, u"auto"_s});
        s_app->start(u"mousepad"_s, {u"--disable-server"_s}, documentQuery());
    }
    static QJsonObject tool(const QString& name, QJsonObject arguments)
    {
        arguments.insert(u"app"_s, u"mousepad"_s);
        return callTool(*s_app, name, arguments);
    }
};

QJsonObject dataOf(const QJsonObject& result)
{
    return structured(result).value(u"data"_s).toObject();
}

// The centre of the element ghost_find answers first for `query`.
std::optional<QPoint> centreOf(const QJsonObject& found)
{
    const QJsonArray elements = found.value(u"data"_s).toObject().value(u"elements"_s).toArray();
    if (elements.isEmpty())
        return std::nullopt;
    const QJsonObject element = elements.first().toObject();
    const QJsonObject position = element.value(u"position"_s).toObject();
    const QJsonObject size = element.value(u"size"_s).toObject();
    return QPoint(position.value(u"x"_s).toInt() + size.value(u"width"_s).toInt() / 2,
                  position.value(u"y"_s).toInt() + size.value(u"height"_s).toInt() / 2);
}

// _NET_WM_STATE of an X window as xprop prints it.
QString netWmState(const QString& windowId)
{
    return runCommand(u"xprop"_s, {u"-id"_s, windowId, u"_NET_WM_STATE"_s}).out;
}

} // namespace

// find, type, click and wait through the door: the fixture reports the text and the click, and
// the wait sees the "Sent: ..." label the click made.
TEST_F(McpDoorFixture, FindsTypesClicksAndWaitsOnTheFixture)
{
    const QJsonObject found = structured(tool(u"ghost_find"_s, {{u"query"_s, u"Send"_s}, {u"role"_s, u"AXButton"_s}}));
    EXPECT_EQ(found.value(u"data"_s).toObject().value(u"count"_s).toInt(), 1) << dump(found);

    s_app->app().discardEvents();
    const QJsonObject typed = structured(
        tool(u"ghost_type"_s, {{u"text"_s, u"from msgcode"_s}, {u"into"_s, u"Message"_s}, {u"clear"_s, true}}));
    EXPECT_TRUE(typed.value(u"success"_s).toBool()) << dump(typed);
    EXPECT_TRUE(s_app->app()
                    .waitEvent(u"textChanged"_s, {{u"name"_s, u"Message"_s}, {u"text"_s, u"from msgcode"_s}})
                    .has_value())
        << dump(typed);

    const QJsonObject clicked =
        structured(tool(u"ghost_click"_s, {{u"query"_s, u"Send"_s}, {u"role"_s, u"AXButton"_s}}));
    EXPECT_TRUE(clicked.value(u"success"_s).toBool()) << dump(clicked);
    EXPECT_TRUE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}).has_value()) << dump(clicked);

    const QJsonObject waited = structured(
        tool(u"ghost_wait"_s,
             {{u"condition"_s, u"elementExists"_s}, {u"value"_s, u"Sent: from msgcode"_s}, {u"timeout"_s, 5}}));
    EXPECT_TRUE(waited.value(u"data"_s).toObject().value(u"met"_s).toBool()) << dump(waited);

    const QJsonObject context = structured(tool(u"ghost_context"_s, {}));
    EXPECT_EQ(context.value(u"data"_s).toObject().value(u"window"_s).toString(), u"MCP door"_s) << dump(context);
}

// The screenshot is a PNG of the display's size (xdotool's), with its caption.
TEST_F(McpDoorFixture, TakesAScreenshotOfTheDisplay)
{
    const QJsonObject shot = callTool(*s_app, u"ghost_screenshot"_s, {});
    const QJsonArray content = shot.value(u"content"_s).toArray();
    ASSERT_EQ(content.size(), 2) << dump(shot);
    QImage image;
    ASSERT_TRUE(image.loadFromData(
        QByteArray::fromBase64(content.at(0).toObject().value(u"data"_s).toString().toLatin1()), "PNG"));
    const QStringList size = runCommand(u"xdotool"_s, {u"getdisplaygeometry"_s}).out.trimmed().split(u' ');
    ASSERT_EQ(size.size(), 2);
    EXPECT_EQ(image.width(), size.at(0).toInt());
    EXPECT_EQ(image.height(), size.at(1).toInt());
    EXPECT_TRUE(content.at(1).toObject().value(u"text"_s).toString().startsWith(u"Screenshot: "_s));
}

// Untargeted typing into mousepad's focused document, read back by pyatspi and by ghost_read.
TEST_F(McpDoorMousepad, TypesIntoTheDocumentAndReadsItBack)
{
    const QJsonObject typed = structured(tool(u"ghost_type"_s, {{u"text"_s, u"hello from msgcode"_s}}));
    EXPECT_TRUE(typed.value(u"success"_s).toBool()) << dump(typed);
    EXPECT_EQ(readUntil([] { return soleText(*s_app, documentQuery()).value_or(QString()); }, u"hello from msgcode"_s),
              u"hello from msgcode"_s)
        << dump(typed);
    const QJsonObject read = structured(tool(u"ghost_read"_s, {}));
    EXPECT_TRUE(read.value(u"data"_s).toObject().value(u"content"_s).toString().contains(u"hello from msgcode"_s))
        << dump(read);
}

// ghost_type into:"Name:" as msgcode writes it for a save dialog: the text goes into the field
// the "Name:" label labels (mousepad's GTK file chooser; the field has no name of its own), with
// or without the colon, and the file is saved where it says. A label itself takes no text: typing
// "into" it is refused before any key is sent.
TEST_F(McpDoorMousepad, TypesIntoTheFieldALabelNames)
{
    const QString path = s_app->dir() + u"/saved-by-label.txt"_s;
    ASSERT_TRUE(structured(tool(u"ghost_type"_s, {{u"text"_s, u"kept"_s}})).value(u"success"_s).toBool());
    ASSERT_TRUE(structured(tool(u"ghost_hotkey"_s, {{u"keys"_s, QJsonArray{u"ctrl"_s, u"shift"_s, u"s"_s}}}))
                    .value(u"success"_s)
                    .toBool());
    ProbeQuery nameField;
    nameField.role = u"text"_s;
    nameField.windowName = u"Save As"_s;
    nameField.states = {u"showing"_s, u"editable"_s};
    ASSERT_TRUE(readUntil([&] { return soleText(*s_app, nameField).has_value() ? u"shown"_s : QString(); },
                          u"shown"_s) == u"shown"_s);
    const QString before = soleText(*s_app, nameField).value_or(QString());

    const QJsonObject refused =
        s_app->call(u"desktop.typeText"_s,
                    {{u"route"_s, QJsonObject{{u"app"_s, QJsonObject{{u"bundleId"_s, u"mousepad"_s}}}}},
                     {u"target"_s, QJsonObject{{u"selector"_s, byRoleAndTitle(u"AXStaticText"_s, u"Name:"_s)}}},
                     {u"text"_s, u"nowhere"_s}},
                    true);
    EXPECT_EQ(errorCode(refused), u"DESKTOP_ELEMENT_NOT_FOUND"_s) << dump(refused);
    EXPECT_EQ(errorOf(refused).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"not_editable"_s)
        << dump(refused);
    EXPECT_EQ(soleText(*s_app, nameField).value_or(u"(gone)"_s), before);

    const QJsonObject typed =
        structured(tool(u"ghost_type"_s, {{u"into"_s, u"Name"_s}, {u"text"_s, path}, {u"clear"_s, true}}));
    EXPECT_TRUE(typed.value(u"success"_s).toBool()) << dump(typed);
    EXPECT_EQ(readUntil([&] { return soleText(*s_app, nameField).value_or(QString()); }, path), path);
    const QJsonObject again =
        structured(tool(u"ghost_type"_s, {{u"into"_s, u"Name:"_s}, {u"text"_s, path}, {u"clear"_s, true}}));
    EXPECT_TRUE(again.value(u"success"_s).toBool()) << dump(again);
    EXPECT_EQ(soleText(*s_app, nameField).value_or(QString()), path);

    EXPECT_TRUE(structured(tool(u"ghost_press"_s, {{u"key"_s, u"return"_s}})).value(u"success"_s).toBool());
    // The document may hold what an earlier case of this suite typed before "kept".
    const auto onDisk = [&] {
        QFile saved(path);
        return saved.open(QIODevice::ReadOnly) && QString::fromUtf8(saved.readAll()).endsWith(u"kept"_s);
    };
    EXPECT_TRUE(readUntil(onDisk, true, 5000)) << path.toStdString();
}

// Hover, long press, right click, double click and drag through the door, each seen by the
// fixture's pointer pad: where the pointer entered, which button, how long it was held and how
// far it moved while held.
TEST_F(McpDoorFixture, PointerGesturesReachTheApp)
{
    const QJsonObject found = structured(tool(u"ghost_find"_s, {{u"query"_s, u"Pointer pad"_s}}));
    const auto pad = centreOf(found);
    ASSERT_TRUE(pad.has_value()) << dump(found);
    const auto field = centreOf(structured(tool(u"ghost_find"_s, {{u"query"_s, u"Message"_s}})));
    ASSERT_TRUE(field.has_value());

    // Hover: away from the pad, then onto it.
    EXPECT_TRUE(
        structured(tool(u"ghost_hover"_s, {{u"x"_s, field->x()}, {u"y"_s, field->y()}})).value(u"success"_s).toBool());
    s_app->app().discardEvents();
    const QJsonObject hovered = structured(tool(u"ghost_hover"_s, {{u"x"_s, pad->x()}, {u"y"_s, pad->y()}}));
    EXPECT_TRUE(hovered.value(u"success"_s).toBool()) << dump(hovered);
    // Entered where the pointer was moved (an enter from before the test, e.g. when the window
    // appeared under the pointer, says another point).
    EXPECT_TRUE(s_app->app().waitEvent(u"pointerEnter"_s, {{u"x"_s, pad->x()}, {u"y"_s, pad->y()}}).has_value())
        << dump(hovered);

    // Long press: held about as long as asked.
    const QJsonObject pressed =
        structured(tool(u"ghost_long_press"_s, {{u"x"_s, pad->x()}, {u"y"_s, pad->y()}, {u"duration"_s, 0.8}}));
    EXPECT_TRUE(pressed.value(u"success"_s).toBool() || pressed.value(u"data"_s).toObject().contains(u"effect"_s))
        << dump(pressed);
    const auto released = s_app->app().waitEvent(u"pointerRelease"_s, {{u"button"_s, u"left"_s}});
    ASSERT_TRUE(released.has_value()) << dump(pressed);
    EXPECT_GE(released->value(u"heldMs"_s).toInt(), 700) << dump(*released);
    EXPECT_EQ(released->value(u"dx"_s).toInt(), 0);

    // A right click, and a double click.
    structured(tool(u"ghost_click"_s, {{u"x"_s, pad->x()}, {u"y"_s, pad->y()}, {u"button"_s, u"right"_s}}));
    EXPECT_TRUE(s_app->app().waitEvent(u"pointerPress"_s, {{u"button"_s, u"right"_s}}).has_value());
    structured(tool(u"ghost_click"_s, {{u"x"_s, pad->x()}, {u"y"_s, pad->y()}, {u"count"_s, 2}}));
    EXPECT_TRUE(s_app->app().waitEvent(u"pointerDoubleClick"_s, {{u"button"_s, u"left"_s}}).has_value());
    EXPECT_TRUE(s_app->app().waitEvent(u"pointerRelease"_s).has_value()); // the double click's last release

    // Drag: pressed on the left of the pad, released 100 px right and 20 px down.
    s_app->app().discardEvents();
    const QJsonObject dragged = structured(tool(u"ghost_drag"_s, {{u"from_x"_s, pad->x() - 50},
                                                                  {u"from_y"_s, pad->y() - 10},
                                                                  {u"to_x"_s, pad->x() + 50},
                                                                  {u"to_y"_s, pad->y() + 10},
                                                                  {u"duration"_s, 0.3}}));
    const auto dropped = s_app->app().waitEvent(u"pointerRelease"_s);
    ASSERT_TRUE(dropped.has_value()) << dump(dragged);
    EXPECT_EQ(dropped->value(u"dx"_s).toInt(), 100) << dump(*dropped);
    EXPECT_EQ(dropped->value(u"dy"_s).toInt(), 20) << dump(*dropped);
}

// Window actions through the door, checked with xwininfo and xprop: list, move, resize,
// minimize, restore, maximize and focus.
TEST_F(McpDoorFixture, ManagesTheAppsWindow)
{
    const auto window = mainXWindow(s_app->pid());
    ASSERT_TRUE(window.has_value());
    const QJsonObject listed = dataOf(tool(u"ghost_window"_s, {{u"action"_s, u"list"_s}}));
    ASSERT_EQ(listed.value(u"count"_s).toInt(), 1) << dump(listed);
    EXPECT_EQ(listed.value(u"windows"_s).toArray().first().toObject().value(u"title"_s).toString(), u"MCP door"_s);

    const auto absolute = [&] {
        const QString info = runCommand(u"xwininfo"_s, {u"-id"_s, window->id}).out;
        const auto number = [&](const QString& label) {
            return QRegularExpression(label + u":\\s+(-?\\d+)"_s).match(info).captured(1).toInt();
        };
        return QRect(number(u"Absolute upper-left X"_s), number(u"Absolute upper-left Y"_s), number(u"Width"_s),
                     number(u"Height"_s));
    };
    const QJsonObject moved =
        structured(tool(u"ghost_window"_s, {{u"action"_s, u"move"_s}, {u"x"_s, 140}, {u"y"_s, 90}}));
    EXPECT_TRUE(moved.value(u"success"_s).toBool()) << dump(moved);
    EXPECT_EQ(absolute().topLeft(), QPoint(140, 90));

    const QJsonObject resized =
        structured(tool(u"ghost_window"_s, {{u"action"_s, u"resize"_s}, {u"width"_s, 620}, {u"height"_s, 600}}));
    EXPECT_TRUE(resized.value(u"success"_s).toBool()) << dump(resized);
    EXPECT_EQ(absolute().size(), QSize(620, 600));

    const QJsonObject minimized = structured(tool(u"ghost_window"_s, {{u"action"_s, u"minimize"_s}}));
    EXPECT_TRUE(minimized.value(u"success"_s).toBool()) << dump(minimized);
    EXPECT_TRUE(netWmState(window->id).contains(u"_NET_WM_STATE_HIDDEN"_s)) << netWmState(window->id).toStdString();

    const QJsonObject restored = structured(tool(u"ghost_window"_s, {{u"action"_s, u"restore"_s}}));
    EXPECT_TRUE(restored.value(u"success"_s).toBool()) << dump(restored);
    EXPECT_FALSE(netWmState(window->id).contains(u"_NET_WM_STATE_HIDDEN"_s));

    const QJsonObject maximized = structured(tool(u"ghost_window"_s, {{u"action"_s, u"maximize"_s}}));
    EXPECT_TRUE(maximized.value(u"success"_s).toBool()) << dump(maximized);
    const QString state = netWmState(window->id);
    EXPECT_TRUE(state.contains(u"_NET_WM_STATE_MAXIMIZED_VERT"_s) && state.contains(u"_NET_WM_STATE_MAXIMIZED_HORZ"_s))
        << state.toStdString();
    EXPECT_TRUE(structured(tool(u"ghost_window"_s, {{u"action"_s, u"restore"_s}})).value(u"success"_s).toBool());
    EXPECT_FALSE(netWmState(window->id).contains(u"MAXIMIZED"_s));

    const QJsonObject focused = structured(tool(u"ghost_focus"_s, {}));
    EXPECT_TRUE(focused.value(u"success"_s).toBool()) << dump(focused);
    const QString active = runCommand(u"xdotool"_s, {u"getactivewindow"_s}).out.trimmed();
    EXPECT_EQ(active.toULongLong(), window->id.toULongLong(nullptr, 0)) << active.toStdString();

    const QJsonObject state2 = dataOf(tool(u"ghost_state"_s, {}));
    EXPECT_EQ(state2.value(u"app_count"_s).toInt(), 1) << dump(state2);
}

// The element at a point, inspect, and an annotated screenshot whose index names Send with a
// point inside it and whose image has the box drawn around it.
TEST_F(McpDoorFixture, ElementAtInspectAndAnnotate)
{
    const QJsonObject found = structured(tool(u"ghost_find"_s, {{u"query"_s, u"Send"_s}, {u"role"_s, u"AXButton"_s}}));
    const auto send = centreOf(found);
    ASSERT_TRUE(send.has_value()) << dump(found);
    const QJsonObject at =
        structured(callTool(*s_app, u"ghost_element_at"_s, {{u"x"_s, send->x()}, {u"y"_s, send->y()}}));
    EXPECT_EQ(at.value(u"data"_s).toObject().value(u"name"_s).toString(), u"Send"_s) << dump(at);
    EXPECT_EQ(at.value(u"data"_s).toObject().value(u"role"_s).toString(), u"AXButton"_s) << dump(at);

    const QJsonObject inspected = dataOf(tool(u"ghost_inspect"_s, {{u"query"_s, u"Message"_s}}));
    EXPECT_EQ(inspected.value(u"role"_s).toString(), u"AXTextField"_s) << dump(inspected);
    EXPECT_TRUE(inspected.value(u"states"_s).toObject().value(u"enabled"_s).toBool()) << dump(inspected);

    const QJsonObject annotated = tool(u"ghost_annotate"_s, {});
    const QJsonArray content = annotated.value(u"content"_s).toArray();
    ASSERT_EQ(content.size(), 2) << dump(annotated);
    const QString caption = content.at(1).toObject().value(u"text"_s).toString();
    const QRegularExpressionMatch line =
        QRegularExpression(u"\\[(\\d+)\\] Button \"Send\" \u2014 click: \\((\\d+), (\\d+)\\)"_s).match(caption);
    ASSERT_TRUE(line.hasMatch()) << caption.toStdString();
    EXPECT_LE(std::abs(line.captured(2).toInt() - send->x()), 1) << caption.toStdString();
    EXPECT_LE(std::abs(line.captured(3).toInt() - send->y()), 1) << caption.toStdString();
    QImage image;
    ASSERT_TRUE(image.loadFromData(
        QByteArray::fromBase64(content.at(0).toObject().value(u"data"_s).toString().toLatin1()), "PNG"));
    // The window's capture: find Send's box in it, the first red pixel left of its centre.
    const QJsonObject element = found.value(u"data"_s).toObject().value(u"elements"_s).toArray().first().toObject();
    const int width = element.value(u"size"_s).toObject().value(u"width"_s).toInt();
    const auto origin = mainXWindow(s_app->pid());
    ASSERT_TRUE(origin.has_value());
    const QString info = runCommand(u"xwininfo"_s, {u"-id"_s, origin->id}).out;
    const int left = QRegularExpression(u"Absolute upper-left X:\\s+(-?\\d+)"_s).match(info).captured(1).toInt();
    const int top = QRegularExpression(u"Absolute upper-left Y:\\s+(-?\\d+)"_s).match(info).captured(1).toInt();
    const QPoint edge(send->x() - width / 2 - left, send->y() - top);
    bool red = false;
    for (int dx = -2; dx <= 2 && !red; ++dx)
        red = image.pixel(edge + QPoint(dx, 0)) == qRgb(230, 30, 60);
    EXPECT_TRUE(red) << "no box at " << edge.x() << "," << edge.y() << " in " << image.width() << "x" << image.height();
}

// A recipe saved, listed, shown and run with a parameter: it types into Message, clicks Send
// and waits for the label, each step its own host execution; a recipe whose second step names
// nothing fails there and says so; deleting it removes it.
TEST_F(McpDoorFixture, RecipesRunStepByStepAndSayWhichStepFailed)
{
    const QJsonObject recipe{
        {u"schema_version"_s, 2},
        {u"name"_s, u"send-message"_s},
        {u"description"_s, u"Type a message and send it"_s},
        {u"app"_s, u"mdh-target-app"_s},
        {u"params"_s, QJsonObject{{u"text"_s, QJsonObject{{u"type"_s, u"string"_s},
                                                          {u"description"_s, u"What to send"_s},
                                                          {u"required"_s, true}}}}},
        {u"steps"_s,
         QJsonArray{QJsonObject{{u"id"_s, 1},
                                {u"action"_s, u"type"_s},
                                {u"target"_s,
                                 QJsonObject{{u"criteria"_s, QJsonArray{QJsonObject{{u"attribute"_s, u"AXRole"_s},
                                                                                    {u"value"_s, u"AXTextField"_s}}}},
                                             {u"computedNameContains"_s, u"Message"_s}}},
                                {u"params"_s, QJsonObject{{u"text"_s, u"{{text}}"_s}, {u"clear"_s, u"true"_s}}}},
                    QJsonObject{{u"id"_s, 2},
                                {u"action"_s, u"click"_s},
                                {u"target"_s,
                                 QJsonObject{{u"criteria"_s, QJsonArray{}}, {u"computedNameContains"_s, u"Send"_s}}},
                                {u"wait_after"_s, QJsonObject{{u"condition"_s, u"elementExists"_s},
                                                              {u"value"_s, u"Sent: {{text}}"_s},
                                                              {u"timeout"_s, 5}}},
                                {u"note"_s, u"send it"_s}}}}};
    const QJsonObject saved =
        structured(tool(u"ghost_recipe_save"_s,
                        {{u"recipe_json"_s, QString::fromUtf8(QJsonDocument(recipe).toJson(QJsonDocument::Compact))}}));
    ASSERT_TRUE(saved.value(u"success"_s).toBool()) << dump(saved);
    const QJsonObject listed = dataOf(tool(u"ghost_recipes"_s, {}));
    EXPECT_EQ(listed.value(u"count"_s).toInt(), 1) << dump(listed);
    EXPECT_EQ(dataOf(tool(u"ghost_recipe_show"_s, {{u"name"_s, u"send-message"_s}})).value(u"steps"_s).toArray().size(),
              2);

    s_app->app().discardEvents();
    const QJsonObject ran = structured(tool(
        u"ghost_run"_s, {{u"recipe"_s, u"send-message"_s}, {u"params"_s, QJsonObject{{u"text"_s, u"by recipe"_s}}}}));
    EXPECT_TRUE(ran.value(u"success"_s).toBool()) << dump(ran);
    EXPECT_EQ(ran.value(u"data"_s).toObject().value(u"steps_completed"_s).toInt(), 2) << dump(ran);
    EXPECT_TRUE(
        s_app->app().waitEvent(u"textChanged"_s, {{u"name"_s, u"Message"_s}, {u"text"_s, u"by recipe"_s}}).has_value());
    EXPECT_TRUE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}).has_value());

    // A missing parameter is refused before anything runs.
    const QJsonObject missing = structured(tool(u"ghost_run"_s, {{u"recipe"_s, u"send-message"_s}}));
    EXPECT_FALSE(missing.value(u"success"_s).toBool());
    EXPECT_TRUE(missing.value(u"error"_s).toString().contains(u"text"_s)) << dump(missing);

    // Step 2 names a button the window does not have.
    QJsonObject broken = recipe;
    QJsonArray steps = broken.value(u"steps"_s).toArray();
    QJsonObject second = steps.at(1).toObject();
    second.insert(u"target"_s,
                  QJsonObject{{u"criteria"_s, QJsonArray{}}, {u"computedNameContains"_s, u"Launch rocket"_s}});
    steps.replace(1, second);
    broken.insert(u"steps"_s, steps);
    broken.insert(u"name"_s, u"broken"_s);
    ASSERT_TRUE(structured(tool(u"ghost_recipe_save"_s,
                                {{u"recipe_json"_s, QString::fromUtf8(QJsonDocument(broken).toJson())}}))
                    .value(u"success"_s)
                    .toBool());
    const QJsonObject failed = structured(
        tool(u"ghost_run"_s, {{u"recipe"_s, u"broken"_s}, {u"params"_s, QJsonObject{{u"text"_s, u"again"_s}}}}));
    EXPECT_FALSE(failed.value(u"success"_s).toBool());
    EXPECT_EQ(failed.value(u"data"_s).toObject().value(u"failed_step"_s).toInt(), 2) << dump(failed);
    EXPECT_TRUE(failed.value(u"error"_s).toString().startsWith(u"Recipe 'broken' failed at step 2 (send it): "_s))
        << dump(failed);

    // An invalid recipe is not saved; deleting removes one.
    const QJsonObject invalid =
        structured(tool(u"ghost_recipe_save"_s, {{u"recipe_json"_s, u"{\"schema_version\":2,\"name\":\"x\"}"_s}}));
    EXPECT_FALSE(invalid.value(u"success"_s).toBool());
    EXPECT_TRUE(invalid.value(u"error"_s).toString().startsWith(u"Failed to save recipe: "_s)) << dump(invalid);
    EXPECT_TRUE(structured(tool(u"ghost_recipe_delete"_s, {{u"name"_s, u"broken"_s}})).value(u"success"_s).toBool());
    EXPECT_EQ(dataOf(tool(u"ghost_recipes"_s, {})).value(u"count"_s).toInt(), 1);
}

// On mousepad (GTK 3): the element at the document's centre is the document; an annotated
// screenshot labels its controls; the window moves, minimizes, restores, and closes (an empty
// document closes without asking, so the app exits).
TEST_F(McpDoorMousepad, ElementAtAnnotateAndWindowActions)
{
    const auto window = mainXWindow(s_app->pid());
    ASSERT_TRUE(window.has_value());
    const QPoint middle = window->geometry.center();
    const QJsonObject at =
        dataOf(callTool(*s_app, u"ghost_element_at"_s, {{u"x"_s, middle.x()}, {u"y"_s, middle.y()}}));
    EXPECT_EQ(at.value(u"app"_s).toString(), u"mousepad"_s) << dump(at);
    EXPECT_EQ(at.value(u"role"_s).toString(), u"AXTextArea"_s) << dump(at);

    const QJsonArray content = tool(u"ghost_annotate"_s, {}).value(u"content"_s).toArray();
    ASSERT_EQ(content.size(), 2);
    const QString caption = content.at(1).toObject().value(u"text"_s).toString();
    EXPECT_TRUE(caption.startsWith(u"Annotated screenshot: "_s)) << caption.toStdString();
    EXPECT_TRUE(caption.contains(u"[1] "_s)) << caption.toStdString();

    const QJsonObject moved =
        structured(tool(u"ghost_window"_s, {{u"action"_s, u"move"_s}, {u"x"_s, 60}, {u"y"_s, 70}}));
    EXPECT_TRUE(moved.value(u"success"_s).toBool()) << dump(moved);
    const QString info = runCommand(u"xwininfo"_s, {u"-id"_s, window->id}).out;
    EXPECT_EQ(QRegularExpression(u"Absolute upper-left X:\\s+(-?\\d+)"_s).match(info).captured(1).toInt(), 60)
        << info.toStdString();

    EXPECT_TRUE(structured(tool(u"ghost_window"_s, {{u"action"_s, u"minimize"_s}})).value(u"success"_s).toBool());
    EXPECT_TRUE(netWmState(window->id).contains(u"_NET_WM_STATE_HIDDEN"_s));
    EXPECT_TRUE(structured(tool(u"ghost_window"_s, {{u"action"_s, u"restore"_s}})).value(u"success"_s).toBool());
    EXPECT_FALSE(netWmState(window->id).contains(u"_NET_WM_STATE_HIDDEN"_s));

    const QJsonObject closed = structured(tool(u"ghost_window"_s, {{u"action"_s, u"close"_s}}));
    EXPECT_TRUE(closed.value(u"success"_s).toBool()) << dump(closed);
    EXPECT_TRUE(s_app->app().process().waitForFinished(5000)) << dump(closed);
}
