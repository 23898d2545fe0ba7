// desktop.displays and route.display over a real socket on the fake backend (docs/protocol.md
// §4.3, §5.31): the displays are listed with their ids, the primary first; windows answer the
// display they are on; a route that names only a display goes to the frontmost window there,
// and capture takes that display alone; a window on another display than the route names is
// not acted on; a display that is not attached is DESKTOP_ELEMENT_NOT_FOUND, display_not_found.
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>

#include <gtest/gtest.h>

using namespace Testing;
using Automation::DisplayInfo;
using Automation::Frame;

namespace {

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

QJsonObject call(TestClient& client, const TestHost& host, const QString& method, QJsonObject params = {})
{
    params.insert(
        QStringLiteral("meta"),
        Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = 20000, .requestId = newRequestId()}));
    return client.call(method, params, 20000);
}

QJsonObject onDisplay(const QString& id)
{
    return QJsonObject{{QStringLiteral("display"), QJsonObject{{QStringLiteral("id"), id}}}};
}

/// Two side by side, as the two-monitor headless desktop has them.
void twoDisplays(TestHost& host)
{
    host.desktop().setDisplays(
        {DisplayInfo{QStringLiteral("LEFT"), QStringLiteral("LEFT"), Frame{0, 0, 1280, 1024}, 1.0, true},
         DisplayInfo{QStringLiteral("RIGHT"), QStringLiteral("RIGHT"), Frame{1280, 0, 1280, 1024}, 1.0, false}});
}

} // namespace

TEST(Displays, ListedPrimaryFirstAndWindowsSayTheirs)
{
    TestHost host;
    TestClient client(host.socketPath());
    twoDisplays(host);
    host.desktop().setWindowFrame(Frame{1400, 100, 800, 600});
    const QJsonObject listed = resultOf(call(client, host, QStringLiteral("desktop.displays")));
    const QJsonArray displays = listed.value(QStringLiteral("displays")).toArray();
    ASSERT_EQ(displays.size(), 2) << dump(listed);
    EXPECT_EQ(displays.at(0).toObject().value(QStringLiteral("id")).toString(), QStringLiteral("LEFT"));
    EXPECT_TRUE(displays.at(0).toObject().value(QStringLiteral("primary")).toBool());
    EXPECT_EQ(displays.at(1).toObject().value(QStringLiteral("frame")).toObject(),
              (QJsonObject{{QStringLiteral("x"), 1280},
                           {QStringLiteral("y"), 0},
                           {QStringLiteral("width"), 1280},
                           {QStringLiteral("height"), 1024}}));
    EXPECT_FALSE(listed.value(QStringLiteral("executionId")).toString().isEmpty());

    const QJsonObject windows = resultOf(call(client, host, QStringLiteral("desktop.windows")));
    const QJsonArray list = windows.value(QStringLiteral("windows")).toArray();
    ASSERT_FALSE(list.isEmpty()) << dump(windows);
    EXPECT_EQ(list.at(0).toObject().value(QStringLiteral("display")).toString(), QStringLiteral("RIGHT"))
        << dump(windows);
}

// A window straddling both is on the one its centre is on.
TEST(Displays, AWindowIsOnTheDisplayOfItsCentre)
{
    TestHost host;
    TestClient client(host.socketPath());
    twoDisplays(host);
    host.desktop().setWindowFrame(Frame{1000, 100, 400, 300}); // centre x 1200: LEFT
    const QJsonObject windows = resultOf(call(client, host, QStringLiteral("desktop.windows")));
    EXPECT_EQ(windows.value(QStringLiteral("windows")).toArray().at(0).toObject().value(QStringLiteral("display")),
              QStringLiteral("LEFT"))
        << dump(windows);
}

// route.display alone: find goes to the frontmost window there, and says the display.
TEST(Displays, ARouteOfOnlyADisplayGoesToItsFrontmostWindow)
{
    TestHost host;
    TestClient client(host.socketPath());
    twoDisplays(host);
    host.desktop().setWindowFrame(Frame{1400, 100, 800, 600});
    const QJsonObject found = resultOf(
        call(client, host, QStringLiteral("desktop.find"),
             {{QStringLiteral("route"), onDisplay(QStringLiteral("RIGHT"))},
              {QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Send")}}}}));
    EXPECT_EQ(found.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("display")).toString(),
              QStringLiteral("RIGHT"))
        << dump(found);
    EXPECT_EQ(found.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowTitle")).toString(),
              QStringLiteral("Fake Window"));

    // Nothing shows on LEFT now.
    const QJsonObject none =
        errorOf(call(client, host, QStringLiteral("desktop.observe"),
                     {{QStringLiteral("route"), onDisplay(QStringLiteral("LEFT"))},
                      {QStringLiteral("options"), QJsonObject{{QStringLiteral("includeScreenshot"), false}}}}));
    EXPECT_EQ(none.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")) << dump(none);
    EXPECT_EQ(none.value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("window_not_found"));
}

// A route naming the app and a display it is not on: nothing is clicked.
TEST(Displays, AnAppOnAnotherDisplayIsNotActedOn)
{
    TestHost::Options options;
    options.security.confirmPolicy = Bridge::ConfirmPolicy::Auto;
    TestHost host(options);
    TestClient client(host.socketPath());
    twoDisplays(host);
    QJsonObject route = onDisplay(QStringLiteral("RIGHT"));
    route.insert(QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("fake-app")}});
    const QJsonObject refused = errorOf(call(
        client, host, QStringLiteral("desktop.click"),
        {{QStringLiteral("route"), route},
         {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleEquals"),
                                                                                          QStringLiteral("Send")}}}}},
         {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}}}));
    EXPECT_EQ(refused.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"))
        << dump(refused);
    const QJsonObject details = refused.value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("not_on_display")) << dump(refused);
    EXPECT_EQ(details.value(QStringLiteral("windowDisplay")).toString(), QStringLiteral("LEFT"));
    EXPECT_FALSE(host.desktop().effects().contains(QStringLiteral("press:Send")));

    host.desktop().setWindowFrame(Frame{1400, 100, 800, 600});
    const QJsonObject clicked = resultOf(call(
        client, host, QStringLiteral("desktop.click"),
        {{QStringLiteral("route"), route},
         {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleEquals"),
                                                                                          QStringLiteral("Send")}}}}},
         {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}}}));
    EXPECT_TRUE(host.desktop().effects().contains(QStringLiteral("press:Send"))) << dump(clicked);
}

// capture of one display: its frame, and its pixels only.
TEST(Displays, CaptureOfADisplayIsThatDisplay)
{
    TestHost host;
    TestClient client(host.socketPath());
    twoDisplays(host);
    const QJsonObject captured = resultOf(
        call(client, host, QStringLiteral("desktop.capture"),
             {{QStringLiteral("route"), onDisplay(QStringLiteral("RIGHT"))}, {QStringLiteral("inline"), true}}));
    EXPECT_EQ(captured.value(QStringLiteral("source")).toString(), QStringLiteral("display")) << dump(captured);
    EXPECT_EQ(captured.value(QStringLiteral("displayId")).toString(), QStringLiteral("RIGHT"));
    EXPECT_EQ(captured.value(QStringLiteral("frame")).toObject().value(QStringLiteral("x")).toInt(), 1280);
    EXPECT_EQ(captured.value(QStringLiteral("frame")).toObject().value(QStringLiteral("width")).toInt(), 1280);
    const QImage image = QImage::fromData(
        QByteArray::fromBase64(captured.value(QStringLiteral("pngBase64")).toString().toLatin1()), "PNG");
    ASSERT_FALSE(image.isNull()) << dump(captured);
    EXPECT_EQ(image.pixelColor(0, 0), FakeDesktop::displayColour(1));
    EXPECT_EQ(image.pixelColor(image.width() - 1, image.height() - 1), FakeDesktop::displayColour(1));
}

// A display that is not attached, by either name of the member; both names at once is a
// params error.
TEST(Displays, ADisplayNotAttachedIsNotFound)
{
    TestHost host;
    TestClient client(host.socketPath());
    twoDisplays(host);
    const QJsonObject missing =
        errorOf(call(client, host, QStringLiteral("desktop.capture"),
                     {{QStringLiteral("route"),
                       QJsonObject{{QStringLiteral("display"),
                                    QJsonObject{{QStringLiteral("displayId"), QStringLiteral("HDMI-9")}}}}}}));
    EXPECT_EQ(missing.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"))
        << dump(missing);
    const QJsonObject details = missing.value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("display_not_found"));
    EXPECT_EQ(details.value(QStringLiteral("displays")).toArray(),
              (QJsonArray{QStringLiteral("LEFT"), QStringLiteral("RIGHT")}));

    const QJsonObject both = call(
        client, host, QStringLiteral("desktop.find"),
        {{QStringLiteral("route"),
          QJsonObject{{QStringLiteral("display"), QJsonObject{{QStringLiteral("id"), QStringLiteral("LEFT")},
                                                              {QStringLiteral("displayId"), QStringLiteral("LEFT")}}}}},
         {QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Send")}}}});
    EXPECT_EQ(errorOf(both).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
              QStringLiteral("route.display.displayId"))
        << dump(both);
}
