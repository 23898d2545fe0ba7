// Pointer gestures, windows and the element at a point through the bridge with the fake backend:
// what reaches the desktop, the answers, the evidence, and the params that are refused with
// nothing done.
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

QJsonObject params(const TestHost& host, QJsonObject extra = {})
{
    extra.insert(
        QStringLiteral("meta"),
        Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = 30000, .requestId = newRequestId()}));
    return extra;
}

QJsonObject confirmed(QJsonObject extra)
{
    extra.insert(QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}});
    return extra;
}

std::string dump(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString();
}

QJsonObject point(int x, int y)
{
    return QJsonObject{{QStringLiteral("x"), x}, {QStringLiteral("y"), y}};
}

QJsonObject sendButton()
{
    return QJsonObject{
        {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                 {QStringLiteral("titleEquals"), QStringLiteral("Send")}}}};
}

QString fieldOf(const QJsonObject& response)
{
    return errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString();
}

} // namespace

// A right double click at a point and a drag from an element's centre reach the desktop as
// asked; the answers say where and keep the screenshots around the gesture.
TEST(Gestures, PointerGesturesAtAPointAndAtAnElement)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject clicked = resultOf(client.call(
        QStringLiteral("desktop.pointer"), params(host, confirmed({{QStringLiteral("gesture"), QStringLiteral("click")},
                                                                   {QStringLiteral("point"), point(10, 20)},
                                                                   {QStringLiteral("button"), QStringLiteral("right")},
                                                                   {QStringLiteral("count"), 2}}))));
    EXPECT_TRUE(clicked.value(QStringLiteral("performed")).toBool()) << dump(clicked);
    EXPECT_EQ(clicked.value(QStringLiteral("effect")).toString(), QStringLiteral("unverifiable"));
    EXPECT_EQ(clicked.value(QStringLiteral("at")).toObject(), point(10, 20));
    const QString dir = clicked.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("before.png")));
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("after.png")));

    const QJsonObject dragged = resultOf(client.call(
        QStringLiteral("desktop.pointer"), params(host, confirmed({{QStringLiteral("gesture"), QStringLiteral("drag")},
                                                                   {QStringLiteral("target"), sendButton()},
                                                                   {QStringLiteral("to"), point(300, 300)}}))));
    EXPECT_EQ(dragged.value(QStringLiteral("target")).toObject().value(QStringLiteral("title")).toString(),
              QStringLiteral("Send"));
    // Send is at (320, 10) 80x24: its centre.
    EXPECT_EQ(host.desktop().effects(), (QStringList{QStringLiteral("pointer:click:10,20:b3x2"),
                                                     QStringLiteral("pointer:drag:360,22->300,300:b1x1")}));
}

// Params that cannot mean one gesture are refused, naming the field, before anything is done.
TEST(Gestures, PointerParamsThatDoNotMeanOneGestureAreRefused)
{
    TestHost host;
    TestClient client(host.socketPath());
    const auto refused = [&](const QJsonObject& extra) {
        return client.call(QStringLiteral("desktop.pointer"), params(host, confirmed(extra)));
    };
    EXPECT_EQ(fieldOf(refused({{QStringLiteral("gesture"), QStringLiteral("move")}})), QStringLiteral("target"));
    EXPECT_EQ(fieldOf(refused({{QStringLiteral("gesture"), QStringLiteral("move")},
                               {QStringLiteral("target"), sendButton()},
                               {QStringLiteral("point"), point(1, 1)}})),
              QStringLiteral("target"));
    EXPECT_EQ(
        fieldOf(refused({{QStringLiteral("gesture"), QStringLiteral("drag")}, {QStringLiteral("point"), point(1, 1)}})),
        QStringLiteral("to"));
    EXPECT_EQ(fieldOf(refused({{QStringLiteral("gesture"), QStringLiteral("move")},
                               {QStringLiteral("point"), point(1, 1)},
                               {QStringLiteral("count"), 2}})),
              QStringLiteral("count"));
    const QJsonObject badPoint = refused({{QStringLiteral("gesture"), QStringLiteral("click")},
                                          {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), 1}}}});
    EXPECT_EQ(errorCode(badPoint), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(badPoint);
    EXPECT_EQ(fieldOf(badPoint), QStringLiteral("point.y")) << dump(badPoint);
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

// desktop.windows lists the window; desktop.window acts on it and the list shows the change;
// a window action names its window (route required) and a move its position.
TEST(Gestures, WindowsAreListedAndActedOn)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject listed = resultOf(client.call(QStringLiteral("desktop.windows"), params(host)));
    ASSERT_EQ(listed.value(QStringLiteral("count")).toInt(), 1) << dump(listed);
    const QJsonObject window = listed.value(QStringLiteral("windows")).toArray().first().toObject();
    EXPECT_EQ(window.value(QStringLiteral("title")).toString(), QStringLiteral("Fake Window"));
    EXPECT_FALSE(window.value(QStringLiteral("minimized")).toBool());

    const QJsonObject route{
        {QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("fake-app")}}}};
    const QJsonObject minimized =
        resultOf(client.call(QStringLiteral("desktop.window"),
                             params(host, confirmed({{QStringLiteral("route"), route},
                                                     {QStringLiteral("action"), QStringLiteral("minimize")}}))));
    EXPECT_TRUE(minimized.value(QStringLiteral("done")).toBool()) << dump(minimized);
    EXPECT_EQ(minimized.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"));
    EXPECT_TRUE(resultOf(client.call(QStringLiteral("desktop.windows"),
                                     params(host, {{QStringLiteral("app"), QStringLiteral("Fake App")}})))
                    .value(QStringLiteral("windows"))
                    .toArray()
                    .first()
                    .toObject()
                    .value(QStringLiteral("minimized"))
                    .toBool());
    // includeMinimized: false leaves the minimized window out.
    EXPECT_EQ(resultOf(client.call(QStringLiteral("desktop.windows"),
                                   params(host, {{QStringLiteral("includeMinimized"), false}})))
                  .value(QStringLiteral("count"))
                  .toInt(),
              0);
    EXPECT_EQ(resultOf(client.call(QStringLiteral("desktop.windows"),
                                   params(host, {{QStringLiteral("app"), QStringLiteral("Other")}})))
                  .value(QStringLiteral("count"))
                  .toInt(),
              0);

    EXPECT_EQ(fieldOf(client.call(QStringLiteral("desktop.window"),
                                  params(host, confirmed({{QStringLiteral("action"), QStringLiteral("close")}})))),
              QStringLiteral("route"));
    EXPECT_EQ(fieldOf(client.call(QStringLiteral("desktop.window"),
                                  params(host, confirmed({{QStringLiteral("route"), route},
                                                          {QStringLiteral("action"), QStringLiteral("move")}})))),
              QStringLiteral("position"));
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("window:minimize")});
}

// The element at a point is the deepest one holding it (Send, not its window); a point where
// no window is says so.
TEST(Gestures, TheElementAtAPoint)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject found = resultOf(
        client.call(QStringLiteral("desktop.elementAt"), params(host, {{QStringLiteral("point"), point(350, 20)}})));
    EXPECT_EQ(found.value(QStringLiteral("element")).toObject().value(QStringLiteral("title")).toString(),
              QStringLiteral("Send"))
        << dump(found);
    EXPECT_EQ(found.value(QStringLiteral("ancestors")).toArray().size(), 1);
    EXPECT_EQ(found.value(QStringLiteral("window")).toObject().value(QStringLiteral("title")).toString(),
              QStringLiteral("Fake Window"));
    const QString dir = found.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("ax.json")));

    const QJsonObject nowhere =
        client.call(QStringLiteral("desktop.elementAt"), params(host, {{QStringLiteral("point"), point(900, 900)}}));
    EXPECT_EQ(errorOf(nowhere).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("no_window_at_point"))
        << dump(nowhere);
}
