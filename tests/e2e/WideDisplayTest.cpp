// On a display wider than a model's image (a 2 560 × 1 440 headless desktop of its own: ctest
// entry E2e.WideDisplay, never the main suite's 1 280 one): ghost_screenshot answers an image
// 1 280 wide with scale 0.5, and a point read off that image (a red square the test finds in
// its pixels, as a model would) mapped back to the screen with that scale is clicked with
// ghost_click; the Tk window says whether the click hit the square. The same square described
// to ghost_ground, which neither the tree nor the text on screen names, is answered by the
// owner's grounding endpoint (a stand-in the test runs, told the point the test read off the
// image): it was shown the 1 280-wide image, and its point, mapped back, hits the square too.
#include "GroundingServer.h"
#include "RealAppSupport.h"

#include <QImage>
#include <QProcess>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class WideDisplay : public RealAppTest<WideDisplay>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        s_grounding = new GroundingServer;
        s_app->desktop().setHostArguments({u"--confirm-policy"_s, u"auto"_s, u"--grounding-endpoint"_s,
                                           s_grounding->url(), u"--grounding-model"_s, u"test-vl"_s});
        ProbeQuery ready;
        ready.role = u"push button"_s;
        ready.name = u"Send"_s;
        s_app->start(DesktopSession::fixtureBinary(), {u"--title"_s, u"Wide display"_s}, ready);
    }
    static void TearDownTestSuite()
    {
        RealAppTest::TearDownTestSuite();
        delete s_grounding;
        s_grounding = nullptr;
    }
    static inline GroundingServer* s_grounding = nullptr;
};

} // namespace

TEST_F(WideDisplay, AScreenshotIsSizedForAModelAndItsPointsMapBackToTheScreen)
{
    const QStringList size = runCommand(u"xdotool"_s, {u"getdisplaygeometry"_s}).out.trimmed().split(u' ');
    ASSERT_EQ(size.value(0), u"2560"_s) << "this suite needs its own 2560-wide desktop (E2e.WideDisplay)";

    QProcess tk;
    tk.start(u"wish"_s, {QStringLiteral(MDH_E2E_DATA_DIR) + u"/tk_target.tcl"_s, u"1900"_s, u"900"_s});
    ASSERT_TRUE(tk.waitForStarted(5000));
    QByteArray said;
    QDeadlineTimer until(15000);
    while (!said.contains("ready") && !until.hasExpired()) {
        tk.waitForReadyRead(200);
        said += tk.readAllStandardOutput();
    }
    ASSERT_TRUE(said.contains("ready")) << "wish did not show its window";

    const QJsonObject shot = callTool(*s_app, u"ghost_screenshot"_s, {});
    const QJsonArray content = shot.value(u"content"_s).toArray();
    ASSERT_EQ(content.size(), 2) << dump(shot);
    QImage image;
    ASSERT_TRUE(image.loadFromData(
        QByteArray::fromBase64(content.at(0).toObject().value(u"data"_s).toString().toLatin1()), "PNG"));
    EXPECT_EQ(image.width(), 1280);
    EXPECT_EQ(image.height(), 720);
    const QJsonObject sized = shot.value(u"structuredContent"_s).toObject();
    const double scale = sized.value(u"scale"_s).toDouble();
    EXPECT_DOUBLE_EQ(scale, 0.5) << dump(shot);
    EXPECT_TRUE(content.at(1).toObject().value(u"text"_s).toString().contains(u"scale 0.5"_s)) << dump(shot);

    // Read off the image, mapped back as the caption says: screen = frame origin + image / scale.
    const std::optional<QPointF> seen = redCentre(image);
    ASSERT_TRUE(seen.has_value()) << "no red square in the image";
    const QJsonObject frame = sized.value(u"frame"_s).toObject();
    const int x = frame.value(u"x"_s).toInt() + qRound(seen->x() / scale);
    const int y = frame.value(u"y"_s).toInt() + qRound(seen->y() / scale);
    const QJsonObject clicked = structured(callTool(*s_app, u"ghost_click"_s, {{u"x"_s, x}, {u"y"_s, y}}));
    EXPECT_TRUE(clicked.value(u"success"_s).toBool()) << dump(clicked);
    QDeadlineTimer answer(3000);
    while (!said.contains("hit") && !said.contains("miss") && !answer.hasExpired()) {
        tk.waitForReadyRead(100);
        said += tk.readAllStandardOutput();
    }
    EXPECT_TRUE(said.contains("hit")) << "the click at " << x << "," << y
                                      << " missed the square: " << said.toStdString();

    // Described rather than pointed at: no element or text says "the red square", so the owner's
    // endpoint is asked; it points where the test read the square in the image.
    ASSERT_TRUE(s_grounding->started()) << s_grounding->failure().toStdString();
    s_grounding->answerText(
        u"{\"x\": %1, \"y\": %2, \"confidence\": 0.9}"_s.arg(qRound(seen->x())).arg(qRound(seen->y())));
    const QJsonObject grounded =
        structured(callTool(*s_app, u"ghost_ground"_s, {{u"description"_s, u"the red square"_s}}));
    const QJsonObject point = grounded.value(u"data"_s).toObject();
    ASSERT_EQ(point.value(u"method"_s).toString(), u"endpoint"_s) << dump(grounded);
    EXPECT_DOUBLE_EQ(point.value(u"confidence"_s).toDouble(), 0.9);
    const QList<QJsonObject> sent = s_grounding->requests();
    ASSERT_FALSE(sent.isEmpty());
    EXPECT_EQ(sent.last().value(u"imageWidth"_s).toInt(), 1280) << "the endpoint was not shown a model-sized image";
    said.clear();
    const QJsonObject again = structured(callTool(
        *s_app, u"ghost_click"_s, {{u"x"_s, point.value(u"x"_s).toInt()}, {u"y"_s, point.value(u"y"_s).toInt()}}));
    EXPECT_TRUE(again.value(u"success"_s).toBool()) << dump(again);
    QDeadlineTimer second(3000);
    while (!said.contains("hit") && !said.contains("miss") && !second.hasExpired()) {
        tk.waitForReadyRead(100);
        said += tk.readAllStandardOutput();
    }
    EXPECT_TRUE(said.contains("hit")) << "the endpoint's point " << point.value(u"x"_s).toInt() << ","
                                      << point.value(u"y"_s).toInt() << " missed the square: " << said.toStdString();
    tk.kill();
    tk.waitForFinished(3000);
}
