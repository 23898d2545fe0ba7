// On a desktop with two RandR monitors (Xorg's dummy driver split with xrandr: LEFT 0..1279,
// RIGHT 1280..2559; ctest entry E2e.TwoMonitors, a headless desktop of its own): desktop.displays
// lists both as xrandr does; the Qt fixture moved to RIGHT is listed there and clicked through
// a route that names RIGHT (the fixture says it was clicked), while a route naming LEFT clicks
// nothing; a Tk window on RIGHT (no accessibility) is captured through route.display alone, the
// capture equals what ImageMagick reads off the same monitor, and its red square, found in the
// capture's pixels and mapped back through the answered frame, is clicked: Tk says "hit".
#include "RealAppSupport.h"

#include <QImage>
#include <QProcess>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class TwoMonitors : public RealAppTest<TwoMonitors>
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
        s_app->start(DesktopSession::fixtureBinary(), {u"--title"_s, u"Two monitors"_s}, ready);
    }
};

QJsonObject onDisplay(const QString& id, const QJsonObject& route = {})
{
    QJsonObject out = route;
    out.insert(u"display"_s, QJsonObject{{u"id"_s, id}});
    return out;
}

} // namespace

TEST_F(TwoMonitors, DisplaysAreListedAsXrandrHasThem)
{
    const QString xrandr = runCommand(u"xrandr"_s, {u"--listmonitors"_s}).out;
    ASSERT_TRUE(xrandr.contains(u"Monitors: 2"_s)) << "this suite needs its own two-monitor desktop (E2e.TwoMonitors)";
    const QJsonObject listed = resultOf(s_app->desktop().call(u"desktop.displays"_s, {}));
    const QJsonArray displays = listed.value(u"displays"_s).toArray();
    ASSERT_EQ(displays.size(), 2) << dump(listed);
    const QJsonObject left = displays.at(0).toObject();
    const QJsonObject right = displays.at(1).toObject();
    EXPECT_EQ(left.value(u"id"_s).toString(), u"LEFT"_s);
    EXPECT_TRUE(left.value(u"primary"_s).toBool());
    EXPECT_EQ(right.value(u"id"_s).toString(), u"RIGHT"_s);
    EXPECT_FALSE(right.value(u"primary"_s).toBool());
    EXPECT_EQ(right.value(u"frame"_s).toObject(),
              (QJsonObject{{u"x"_s, 1280}, {u"y"_s, 0}, {u"width"_s, 1280}, {u"height"_s, 1024}}));
    // xrandr's own words for RIGHT: 1280/338x1024/270+1280+0.
    EXPECT_TRUE(xrandr.contains(u"RIGHT 1280/338x1024/270+1280+0"_s)) << xrandr.toStdString();
}

TEST_F(TwoMonitors, AWindowMovedToTheSecondIsListedAndClickedThere)
{
    const QJsonObject moved =
        s_app->call(u"desktop.window"_s,
                    {{u"action"_s, u"move"_s}, {u"position"_s, QJsonObject{{u"x"_s, 1500}, {u"y"_s, 150}}}}, true);
    ASSERT_TRUE(moved.contains(u"result"_s)) << dump(moved);
    const QJsonObject windows = resultOf(s_app->desktop().call(u"desktop.windows"_s, {}));
    QString display;
    QString native;
    for (const QJsonValue& w : windows.value(u"windows"_s).toArray()) {
        if (w.toObject().value(u"pid"_s).toInteger() == s_app->pid()) {
            display = w.toObject().value(u"display"_s).toString();
            native = w.toObject().value(u"nativeId"_s).toString();
        }
    }
    ASSERT_FALSE(native.isEmpty()) << dump(windows);
    // The window manager's view, not the host's: xdotool says where the window is.
    const QString geometry =
        runCommand(u"xdotool"_s, {u"getwindowgeometry"_s, QString::number(native.mid(2).toULongLong(nullptr, 16))}).out;
    const QRegularExpression at(u"Position: (\\d+),(\\d+)"_s);
    const auto where = at.match(geometry);
    ASSERT_TRUE(where.hasMatch()) << geometry.toStdString();
    EXPECT_GE(where.captured(1).toInt(), 1280) << geometry.toStdString();
    EXPECT_EQ(display, u"RIGHT"_s) << dump(windows);

    // Named on LEFT, where it is not: nothing is clicked.
    s_app->app().discardEvents();
    const QJsonObject send{{u"selector"_s, QJsonObject{{u"byRole"_s, u"AXButton"_s}, {u"titleEquals"_s, u"Send"_s}}}};
    const QJsonObject refused = s_app->call(
        u"desktop.click"_s, {{u"route"_s, onDisplay(u"LEFT"_s, s_app->route())}, {u"target"_s, send}}, true);
    EXPECT_EQ(refused.value(u"error"_s).toObject().value(u"details"_s).toObject().value(u"reason"_s).toString(),
              u"not_on_display"_s)
        << dump(refused);
    EXPECT_FALSE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}, 500).has_value());

    const QJsonObject clicked = s_app->call(
        u"desktop.click"_s, {{u"route"_s, onDisplay(u"RIGHT"_s, s_app->route())}, {u"target"_s, send}}, true);
    EXPECT_EQ(resultOf(clicked).value(u"routeResolved"_s).toObject().value(u"display"_s).toString(), u"RIGHT"_s)
        << dump(clicked);
    EXPECT_TRUE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}).has_value()) << dump(clicked);
}

TEST_F(TwoMonitors, TheSecondDisplayIsCapturedAloneAndClickedThroughItsFrame)
{
    QProcess tk;
    tk.start(u"wish"_s, {QStringLiteral(MDH_E2E_DATA_DIR) + u"/tk_target.tcl"_s, u"2060"_s, u"640"_s});
    ASSERT_TRUE(tk.waitForStarted(5000));
    QByteArray said;
    QDeadlineTimer until(15000);
    while (!said.contains("ready") && !until.hasExpired()) {
        tk.waitForReadyRead(200);
        said += tk.readAllStandardOutput();
    }
    ASSERT_TRUE(said.contains("ready")) << "wish did not show its window";

    const QJsonObject captured = resultOf(
        s_app->desktop().call(u"desktop.capture"_s, {{u"route"_s, onDisplay(u"RIGHT"_s)}, {u"inline"_s, true}}));
    EXPECT_EQ(captured.value(u"displayId"_s).toString(), u"RIGHT"_s) << dump(captured);
    const QJsonObject frame = captured.value(u"frame"_s).toObject();
    EXPECT_EQ(frame, (QJsonObject{{u"x"_s, 1280}, {u"y"_s, 0}, {u"width"_s, 1280}, {u"height"_s, 1024}}));
    QImage image;
    ASSERT_TRUE(image.loadFromData(QByteArray::fromBase64(captured.value(u"pngBase64"_s).toString().toLatin1()), "PNG"))
        << dump(captured);
    ASSERT_EQ(image.size(), QSize(1280, 1024));

    // ImageMagick reads the same monitor off the X server: the pixels agree.
    const QString theirs = s_app->dir() + u"/right.png"_s;
    ASSERT_EQ(runCommand(u"import"_s, {u"-window"_s, u"root"_s, u"-crop"_s, u"1280x1024+1280+0"_s, theirs}).exitCode,
              0);
    QImage reference(theirs);
    ASSERT_EQ(reference.size(), image.size());
    reference = reference.convertToFormat(QImage::Format_RGB32);
    const QImage mine = image.convertToFormat(QImage::Format_RGB32);
    qint64 differ = 0;
    for (int y = 0; y < mine.height(); ++y) {
        for (int x = 0; x < mine.width(); ++x)
            differ += (mine.pixel(x, y) & 0xffffff) != (reference.pixel(x, y) & 0xffffff);
    }
    EXPECT_LT(differ, qint64(mine.width()) * mine.height() / 100) << differ << " pixels differ from ImageMagick's";

    const std::optional<QPointF> seen = redCentre(image);
    ASSERT_TRUE(seen.has_value()) << "no red square in the capture of RIGHT";
    const int x = frame.value(u"x"_s).toInt() + qRound(seen->x());
    const int y = frame.value(u"y"_s).toInt() + qRound(seen->y());
    EXPECT_GE(x, 1280);
    const QJsonObject clicked = structured(callTool(*s_app, u"ghost_click"_s, {{u"x"_s, x}, {u"y"_s, y}}));
    EXPECT_TRUE(clicked.value(u"success"_s).toBool()) << dump(clicked);
    QDeadlineTimer answer(3000);
    while (!said.contains("hit") && !said.contains("miss") && !answer.hasExpired()) {
        tk.waitForReadyRead(100);
        said += tk.readAllStandardOutput();
    }
    EXPECT_TRUE(said.contains("hit")) << "the click at " << x << "," << y << " missed: " << said.toStdString();
    tk.kill();
    tk.waitForFinished(3000);
}
