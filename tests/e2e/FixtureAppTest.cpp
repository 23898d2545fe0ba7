// End to end on a real headless desktop: the real host binary drives the project's Qt fixture
// app through AT-SPI and XTest. The app reports every effect it sees on stdout, so each test
// checks the effect independently of what the host says.
#include "E2eSupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QUuid>

#include <gtest/gtest.h>

#include <thread>

using namespace Testing;

namespace {

class Fixture : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_session = new DesktopSession;
        if (!s_session->start()) {
            delete s_session;
            s_session = nullptr;
        }
    }
    static void TearDownTestSuite()
    {
        delete s_session;
        s_session = nullptr;
    }
    void SetUp() override
    {
        QString why;
        if (!DesktopSession::available(&why))
            GTEST_SKIP() << why.toStdString();
        ASSERT_NE(s_session, nullptr) << "the host did not start";
    }

    std::unique_ptr<AppProcess> startApp(QStringList args = {})
    {
        m_title = QStringLiteral("E2E %1").arg(QUuid::createUuid().toString(QUuid::Id128).left(8));
        args << QStringLiteral("--title") << m_title;
        auto app = std::make_unique<AppProcess>(DesktopSession::fixtureBinary(), args);
        EXPECT_TRUE(app->start()) << "the fixture app did not start";
        return app;
    }

    QJsonObject call(const QString& method, QJsonObject params, int timeoutMs = 20000)
    {
        return s_session->call(method, params, timeoutMs);
    }

    static QJsonObject selector(const QString& role, const QString& title)
    {
        return QJsonObject{{QStringLiteral("byRole"), role}, {QStringLiteral("titleEquals"), title}};
    }
    static QJsonObject confirm() { return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}; }

    QString m_title;
    static DesktopSession* s_session;
};

DesktopSession* Fixture::s_session = nullptr;

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

TEST_F(Fixture, FindsAButtonByRoleAndTitle)
{
    auto app = startApp();
    const QJsonObject response =
        call(QStringLiteral("desktop.find"),
             {{QStringLiteral("route"), DesktopSession::route(app->pid())},
              {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    const QJsonObject result = resultOf(response);
    ASSERT_EQ(result.value(QStringLiteral("matched")).toInt(), 1) << QJsonDocument(response).toJson().constData();
    const QJsonObject ref = result.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    EXPECT_EQ(ref.value(QStringLiteral("role")).toString(), QStringLiteral("AXButton"));
    EXPECT_GT(ref.value(QStringLiteral("frame")).toObject().value(QStringLiteral("width")).toInt(), 0);
    EXPECT_TRUE(ref.value(QStringLiteral("fingerprint")).toString().startsWith(QStringLiteral("AXButton|Send|x=")));
    const QJsonObject route = result.value(QStringLiteral("routeResolved")).toObject();
    EXPECT_EQ(route.value(QStringLiteral("pid")).toInteger(), app->pid());
    EXPECT_EQ(route.value(QStringLiteral("windowTitle")).toString(), m_title);
    EXPECT_EQ(route.value(QStringLiteral("frontmostBundleId")).toString(), QStringLiteral("mdh-target-app"));
    // The native role is accepted too, and candidates are in the evidence.
    const QJsonObject native =
        resultOf(call(QStringLiteral("desktop.find"),
                      {{QStringLiteral("route"), DesktopSession::route(app->pid())},
                       {QStringLiteral("selector"), selector(QStringLiteral("push button"), QStringLiteral("Send"))}}));
    EXPECT_EQ(native.value(QStringLiteral("matched")).toInt(), 1);
    const QJsonObject candidates =
        QJsonDocument::fromJson(readFile(evidenceDir(response) + QStringLiteral("selectors/candidates.json"))).object();
    EXPECT_EQ(candidates.value(QStringLiteral("candidates")).toArray().size(), 1);
}

TEST_F(Fixture, RoutesByBundleIdTitlePatternAndPid)
{
    auto first = startApp();
    const QString firstTitle = m_title;
    auto second = startApp();
    // By title pattern: the older window, although the newer one is frontmost.
    QJsonObject byTitle{
        {QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("mdh-target-app")}}},
        {QStringLiteral("window"),
         QJsonObject{{QStringLiteral("titlePattern"), QRegularExpression::escape(firstTitle)}}}};
    const QJsonObject result =
        resultOf(call(QStringLiteral("desktop.find"),
                      {{QStringLiteral("route"), byTitle},
                       {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}));
    EXPECT_EQ(result.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("pid")).toInteger(),
              first->pid());
    // By pid.
    const QJsonObject byPid =
        resultOf(call(QStringLiteral("desktop.find"),
                      {{QStringLiteral("route"), DesktopSession::route(second->pid())},
                       {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}));
    EXPECT_EQ(byPid.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowTitle")).toString(),
              m_title);
    // Unknown app.
    const QJsonObject missing = call(
        QStringLiteral("desktop.find"),
        {{QStringLiteral("route"), QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"),
                                                                                    QStringLiteral("no-such-app")}}}}},
         {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    EXPECT_EQ(errorCode(missing), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    EXPECT_EQ(errorOf(missing).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("app_not_found"));
}

TEST_F(Fixture, ClickPressesTheButton)
{
    auto app = startApp();
    const QJsonObject response = call(
        QStringLiteral("desktop.click"),
        {{QStringLiteral("route"), DesktopSession::route(app->pid())},
         {QStringLiteral("confirm"), confirm()},
         {QStringLiteral("target"),
          QJsonObject{{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}}});
    const QJsonObject result = resultOf(response);
    ASSERT_TRUE(result.value(QStringLiteral("clicked")).toBool()) << QJsonDocument(response).toJson().constData();
    EXPECT_EQ(result.value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("accessibilityAction:press"));
    EXPECT_TRUE(
        app->waitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), QStringLiteral("Send")}}).has_value());
}

TEST_F(Fixture, ClickByElementRefAfterTheWindowMovedAndStaleAfterItResized)
{
    auto app = startApp();
    const QJsonObject found =
        resultOf(call(QStringLiteral("desktop.find"),
                      {{QStringLiteral("route"), DesktopSession::route(app->pid())},
                       {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}));
    const QJsonObject ref = found.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    ASSERT_FALSE(ref.isEmpty());
    const QJsonObject clicked =
        resultOf(call(QStringLiteral("desktop.click"),
                      {{QStringLiteral("confirm"), confirm()},
                       {QStringLiteral("target"), QJsonObject{{QStringLiteral("elementRef"), ref}}}}));
    EXPECT_EQ(clicked.value(QStringLiteral("targetResolvedVia")).toString(), QStringLiteral("elementRef"));
    EXPECT_TRUE(
        app->waitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), QStringLiteral("Send")}}).has_value());

    // Move the window: the button's position, part of its fingerprint, changes, but it is the
    // same button with the same role, title and size: the ref still names it.
    const auto xdotool = [&](const QStringList& command) {
        QStringList args{QStringLiteral("search"), QStringLiteral("--pid"), QString::number(app->pid()),
                         QStringLiteral("--name"), m_title};
        return runCommand(QStringLiteral("xdotool"), args + command);
    };
    const CommandResult moved =
        xdotool({QStringLiteral("windowmove"), QStringLiteral("%@"), QStringLiteral("40"), QStringLiteral("40")});
    ASSERT_EQ(moved.exitCode, 0) << moved.err.toStdString();
    QThread::msleep(300);
    const QJsonObject again = call(QStringLiteral("desktop.click"),
                                   {{QStringLiteral("confirm"), confirm()},
                                    {QStringLiteral("target"), QJsonObject{{QStringLiteral("elementRef"), ref}}}});
    EXPECT_EQ(resultOf(again).value(QStringLiteral("targetResolvedVia")).toString(), QStringLiteral("elementRef:moved"))
        << QJsonDocument(again).toJson().constData();
    EXPECT_TRUE(
        app->waitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), QStringLiteral("Send")}}).has_value());

    // Resize it: the button is laid out wider, no longer the element as the ref described it.
    const CommandResult resized =
        xdotool({QStringLiteral("windowsize"), QStringLiteral("%@"), QStringLiteral("900"), QStringLiteral("500")});
    ASSERT_EQ(resized.exitCode, 0) << resized.err.toStdString();
    QThread::msleep(500);
    const QJsonObject stale = call(QStringLiteral("desktop.click"),
                                   {{QStringLiteral("confirm"), confirm()},
                                    {QStringLiteral("target"), QJsonObject{{QStringLiteral("elementRef"), ref}}}});
    EXPECT_EQ(errorCode(stale), QStringLiteral("DESKTOP_STALE_SNAPSHOT")) << QJsonDocument(stale).toJson().constData();
    EXPECT_TRUE(errorOf(stale)
                    .value(QStringLiteral("details"))
                    .toObject()
                    .value(QStringLiteral("change"))
                    .toString()
                    .contains(QStringLiteral("frame")));
    EXPECT_FALSE(app->waitEvent(QStringLiteral("clicked"), {}, 300).has_value());
}

TEST_F(Fixture, TypeTextThroughEditableTextIsReadBack)
{
    auto app = startApp();
    const QJsonObject result = resultOf(call(
        QStringLiteral("desktop.typeText"),
        {{QStringLiteral("route"), DesktopSession::route(app->pid())},
         {QStringLiteral("confirm"), confirm()},
         {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                 selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
         {QStringLiteral("text"), QStringLiteral("héllo wörld")},
         {QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}}}}));
    EXPECT_EQ(result.value(QStringLiteral("path")).toString(), QStringLiteral("editableText"));
    EXPECT_TRUE(result.value(QStringLiteral("readBack")).toBool());
    EXPECT_TRUE(result.value(QStringLiteral("matched")).toBool());
    const auto changed =
        app->waitEvent(QStringLiteral("textChanged"), {{QStringLiteral("name"), QStringLiteral("Message")}});
    ASSERT_TRUE(changed.has_value());
    EXPECT_EQ(changed->value(QStringLiteral("text")).toString(), QStringLiteral("héllo wörld"));
}

TEST_F(Fixture, PasswordFieldIsTypedButNeverReadBack)
{
    auto app = startApp();
    const QString secret = QStringLiteral("s3cret-pass");
    const QJsonObject response = call(
        QStringLiteral("desktop.typeText"),
        {{QStringLiteral("route"), DesktopSession::route(app->pid())},
         {QStringLiteral("confirm"), confirm()},
         {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                 selector(QStringLiteral("AXTextField"), QStringLiteral("Password"))}}},
         {QStringLiteral("text"), secret}});
    const QJsonObject result = resultOf(response);
    EXPECT_TRUE(result.value(QStringLiteral("typed")).toBool()) << QJsonDocument(response).toJson().constData();
    EXPECT_FALSE(result.value(QStringLiteral("readBack")).toBool());
    EXPECT_TRUE(result.value(QStringLiteral("matched")).isNull());
    const auto changed =
        app->waitEvent(QStringLiteral("textChanged"), {{QStringLiteral("name"), QStringLiteral("Password")}});
    ASSERT_TRUE(changed.has_value());
    EXPECT_EQ(changed->value(QStringLiteral("length")).toInt(), secret.size());
    const QString dir = evidenceDir(response);
    for (const auto& name : QDir(dir).entryList(QDir::Files))
        EXPECT_FALSE(readFile(dir + name).contains(secret.toUtf8())) << name.toStdString();
}

TEST_F(Fixture, HotkeyReachesTheFocusedWindow)
{
    auto app = startApp();
    const QJsonObject result =
        resultOf(call(QStringLiteral("desktop.hotkey"),
                      {{QStringLiteral("route"), DesktopSession::route(app->pid())},
                       {QStringLiteral("confirm"), confirm()},
                       {QStringLiteral("keys"), QJsonArray{QStringLiteral("cmd"), QStringLiteral("k")}}}));
    EXPECT_TRUE(result.value(QStringLiteral("sent")).toBool());
    const auto key = app->waitEvent(QStringLiteral("keyPressed"), {{QStringLiteral("key"), QStringLiteral("K")}});
    ASSERT_TRUE(key.has_value());
    EXPECT_TRUE(key->value(QStringLiteral("modifiers")).toArray().contains(QStringLiteral("Ctrl")));
    const QJsonObject enter = resultOf(
        call(QStringLiteral("desktop.hotkey"), {{QStringLiteral("route"), DesktopSession::route(app->pid())},
                                                {QStringLiteral("confirm"), confirm()},
                                                {QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}}}));
    EXPECT_TRUE(enter.value(QStringLiteral("sent")).toBool());
    EXPECT_TRUE(
        app->waitEvent(QStringLiteral("keyPressed"), {{QStringLiteral("key"), QStringLiteral("Return")}}).has_value());
}

TEST_F(Fixture, FocusPolicies)
{
    auto back = startApp();
    auto front = startApp(); // the newest window is active
    const QJsonObject refused =
        call(QStringLiteral("desktop.hotkey"),
             {{QStringLiteral("route"), DesktopSession::route(back->pid(), QStringLiteral("failIfNotFocused"))},
              {QStringLiteral("confirm"), confirm()},
              {QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}}});
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_FOCUS_LOST")) << QJsonDocument(refused).toJson().constData();
    EXPECT_FALSE(back->waitEvent(QStringLiteral("keyPressed"), {}, 300).has_value());
    // requireFocused raises it first, then the keys reach it and not the other window.
    const QJsonObject sent =
        resultOf(call(QStringLiteral("desktop.hotkey"),
                      {{QStringLiteral("route"), DesktopSession::route(back->pid(), QStringLiteral("requireFocused"))},
                       {QStringLiteral("confirm"), confirm()},
                       {QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}}}));
    EXPECT_TRUE(sent.value(QStringLiteral("sent")).toBool());
    EXPECT_TRUE(sent.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowFocused")).toBool());
    EXPECT_TRUE(
        back->waitEvent(QStringLiteral("keyPressed"), {{QStringLiteral("key"), QStringLiteral("Return")}}).has_value());
    EXPECT_FALSE(
        front->waitEvent(QStringLiteral("keyPressed"), {{QStringLiteral("key"), QStringLiteral("Return")}}, 300)
            .has_value());
}

TEST_F(Fixture, WaitUntilSeesTheResultOfAClick)
{
    auto app = startApp();
    call(QStringLiteral("desktop.typeText"),
         {{QStringLiteral("route"), DesktopSession::route(app->pid())},
          {QStringLiteral("confirm"), confirm()},
          {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                  selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
          {QStringLiteral("text"), QStringLiteral("ping")}});
    call(QStringLiteral("desktop.click"),
         {{QStringLiteral("route"), DesktopSession::route(app->pid())},
          {QStringLiteral("confirm"), confirm()},
          {QStringLiteral("target"),
           QJsonObject{{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}}});
    const QJsonObject result =
        resultOf(call(QStringLiteral("desktop.waitUntil"),
                      {{QStringLiteral("route"), DesktopSession::route(app->pid())},
                       {QStringLiteral("condition"),
                        QJsonObject{{QStringLiteral("selectorExists"),
                                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXStaticText")},
                                                 {QStringLiteral("titleContains"), QStringLiteral("Sent: ping")}}}}},
                       {QStringLiteral("pollMs"), 100},
                       {QStringLiteral("timeoutMs"), 5000}}));
    EXPECT_TRUE(result.value(QStringLiteral("ok")).toBool());
    EXPECT_EQ(result.value(QStringLiteral("matched")).toInt(), 1);
}

TEST_F(Fixture, ObserveTakesScreenshotAndTree)
{
    auto app = startApp();
    const QJsonObject response = call(QStringLiteral("desktop.observe"),
                                      {{QStringLiteral("route"), DesktopSession::route(app->pid())},
                                       {QStringLiteral("options"), QJsonObject{{QStringLiteral("axMaxDepth"), 12}}}});
    const QJsonObject result = resultOf(response);
    ASSERT_FALSE(result.isEmpty()) << QJsonDocument(response).toJson().constData();
    const QString dir = evidenceDir(response);
    const QByteArray png = readFile(dir + QStringLiteral("observe.png"));
    EXPECT_TRUE(png.startsWith("\x89PNG"));
    QImage image;
    ASSERT_TRUE(image.loadFromData(png));
    EXPECT_EQ(image.width(), 1280);
    const QJsonObject tree = QJsonDocument::fromJson(readFile(dir + QStringLiteral("ax.json"))).object();
    EXPECT_GE(tree.value(QStringLiteral("nodeCount")).toInt(), 20);
    const QJsonObject root = tree.value(QStringLiteral("root")).toObject();
    EXPECT_EQ(root.value(QStringLiteral("role")).toString(), QStringLiteral("AXWindow"));
    EXPECT_EQ(root.value(QStringLiteral("title")).toString(), m_title);
    EXPECT_TRUE(root.contains(QStringLiteral("frame")));
    EXPECT_TRUE(tree.value(QStringLiteral("timing")).toObject().contains(QStringLiteral("skewMs")));
}

TEST_F(Fixture, CoordinateFallbackForAnElementWithoutAction)
{
    auto app = startApp();
    const QJsonObject target{
        {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXCheckBox")},
                                                 {QStringLiteral("titleEquals"), QStringLiteral("Remember me")}}}};
    // The check box has Toggle: a semantic action, no pointer.
    const QJsonObject toggled =
        resultOf(call(QStringLiteral("desktop.click"), {{QStringLiteral("route"), DesktopSession::route(app->pid())},
                                                        {QStringLiteral("confirm"), confirm()},
                                                        {QStringLiteral("target"), target}}));
    EXPECT_EQ(toggled.value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("accessibilityAction:toggle"));
    EXPECT_TRUE(app->waitEvent(QStringLiteral("toggled"), {{QStringLiteral("checked"), true}}).has_value());
    // A label has no action: refused, unless coordinates are allowed.
    const QJsonObject response =
        call(QStringLiteral("desktop.click"),
             {{QStringLiteral("route"), DesktopSession::route(app->pid())},
              {QStringLiteral("confirm"), confirm()},
              {QStringLiteral("target"),
               QJsonObject{{QStringLiteral("selector"),
                            QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXStaticText")},
                                        {QStringLiteral("titleEquals"), QStringLiteral("Message:")}}}}}});
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    EXPECT_EQ(errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("no_action"));
    const QJsonObject pointer =
        call(QStringLiteral("desktop.click"),
             {{QStringLiteral("route"), DesktopSession::route(app->pid())},
              {QStringLiteral("confirm"), confirm()},
              {QStringLiteral("allowCoordinateFallback"), true},
              {QStringLiteral("target"),
               QJsonObject{{QStringLiteral("selector"),
                            QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXStaticText")},
                                        {QStringLiteral("titleEquals"), QStringLiteral("Message:")}}}}}});
    const QJsonObject result = resultOf(pointer);
    EXPECT_EQ(result.value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("pointer"))
        << QJsonDocument(pointer).toJson().constData();
    const QString dir = evidenceDir(pointer);
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("before.png")));
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("after.png")));
}

TEST_F(Fixture, HungAppIsReportedWithinTheTimeoutWhileHealthAnswers)
{
    auto app = startApp({QStringLiteral("--hang-ms"), QStringLiteral("6000")});
    call(QStringLiteral("desktop.click"),
         {{QStringLiteral("route"), DesktopSession::route(app->pid())},
          {QStringLiteral("confirm"), confirm()},
          {QStringLiteral("target"),
           QJsonObject{{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Hang"))}}}});
    ASSERT_TRUE(app->waitEvent(QStringLiteral("hang")).has_value());
    TestClient healthClient(s_session->host().socketPath());
    QElapsedTimer timer;
    timer.start();
    std::thread health([&] {
        QThread::msleep(200);
        TestClient client(s_session->host().socketPath());
        QElapsedTimer t;
        t.start();
        const QJsonObject answer =
            client.call(QStringLiteral("desktop.health"), TestClient::withMeta({}, s_session->workspace()));
        EXPECT_TRUE(resultOf(answer).contains(QStringLiteral("hostVersion")));
        EXPECT_LT(t.elapsed(), 1000);
    });
    const QJsonObject response =
        call(QStringLiteral("desktop.find"),
             {{QStringLiteral("route"), DesktopSession::route(app->pid())},
              {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}},
             3000);
    const qint64 elapsed = timer.elapsed();
    health.join();
    const QString code = errorCode(response);
    EXPECT_TRUE(code == QLatin1String("DESKTOP_TARGET_UNRESPONSIVE") || code == QLatin1String("DESKTOP_TIMEOUT"))
        << QJsonDocument(response).toJson().constData();
    EXPECT_TRUE(errorOf(response).value(QStringLiteral("retryable")).toBool());
    EXPECT_LE(elapsed, 3300); // timeoutMs + 10%
}

TEST_F(Fixture, AbortEndsAWaitUntil)
{
    auto app = startApp();
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    TestClient waiter(s_session->host().socketPath());
    QJsonObject params{
        {QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                             {QStringLiteral("requestId"), id},
                                             {QStringLiteral("workspacePath"), s_session->workspace()},
                                             {QStringLiteral("timeoutMs"), 60000}}},
        {QStringLiteral("route"), DesktopSession::route(app->pid())},
        {QStringLiteral("condition"), QJsonObject{{QStringLiteral("selectorExists"),
                                                   selector(QStringLiteral("AXButton"), QStringLiteral("Never"))}}},
        {QStringLiteral("timeoutMs"), 30000}};
    waiter.send(TestClient::request(QStringLiteral("desktop.waitUntil"), params, 1));
    QThread::msleep(700);
    QElapsedTimer timer;
    timer.start();
    const QJsonObject aborted = resultOf(call(QStringLiteral("desktop.abort"), {{QStringLiteral("executionId"), id}}));
    EXPECT_TRUE(aborted.value(QStringLiteral("aborted")).toBool());
    const auto answer = waiter.readObject(5000);
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(errorCode(*answer), QStringLiteral("DESKTOP_ABORTED"));
    EXPECT_LT(timer.elapsed(), 2000);
}

TEST_F(Fixture, TheTargetAppQuittingMidRequest)
{
    auto app = startApp();
    TestClient waiter(s_session->host().socketPath());
    waiter.send(TestClient::request(
        QStringLiteral("desktop.waitUntil"),
        TestClient::withMeta({{QStringLiteral("route"), DesktopSession::route(app->pid())},
                              {QStringLiteral("condition"),
                               QJsonObject{{QStringLiteral("selectorExists"),
                                            selector(QStringLiteral("AXButton"), QStringLiteral("Never"))}}},
                              {QStringLiteral("pollMs"), 50},
                              {QStringLiteral("timeoutMs"), 4000}},
                             s_session->workspace()),
        1));
    QThread::msleep(500);
    app->kill();
    QElapsedTimer timer;
    timer.start();
    const auto answer = waiter.readObject(8000);
    ASSERT_TRUE(answer.has_value());
    // The app is gone: the wait ends at its own timeout at the latest, with the reason why.
    EXPECT_EQ(errorCode(*answer), QStringLiteral("DESKTOP_TIMEOUT")) << QJsonDocument(*answer).toJson().constData();
    const QJsonObject last =
        errorOf(*answer).value(QStringLiteral("details")).toObject().value(QStringLiteral("lastError")).toObject();
    EXPECT_FALSE(last.value(QStringLiteral("code")).toString().isEmpty());
    // And the host is fine afterwards.
    auto next = startApp();
    EXPECT_EQ(
        resultOf(call(QStringLiteral("desktop.find"),
                      {{QStringLiteral("route"), DesktopSession::route(next->pid())},
                       {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}))
            .value(QStringLiteral("matched"))
            .toInt(),
        1);
}

TEST_F(Fixture, FindsOneButtonAmongFiveHundred)
{
    auto app = startApp({QStringLiteral("--grid"), QStringLiteral("500")});
    const QJsonObject result = resultOf(
        call(QStringLiteral("desktop.find"),
             {{QStringLiteral("route"), DesktopSession::route(app->pid())},
              {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Button 499"))}}));
    EXPECT_EQ(result.value(QStringLiteral("matched")).toInt(), 1);
    EXPECT_FALSE(result.value(QStringLiteral("truncated")).toBool());
}

TEST_F(Fixture, TypeTextWithoutATargetPastesAndPutsTheClipboardBack)
{
    auto app = startApp();
    // Focus the field (EditableText path), then type into whatever has focus: the clipboard path.
    call(QStringLiteral("desktop.typeText"),
         {{QStringLiteral("route"), DesktopSession::route(app->pid())},
          {QStringLiteral("confirm"), confirm()},
          {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                  selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
          {QStringLiteral("text"), QStringLiteral("x")}});
    app->waitEvent(QStringLiteral("textChanged"));
    ASSERT_TRUE(xclipIn("what the person copied"));
    const QJsonObject response =
        call(QStringLiteral("desktop.typeText"),
             {{QStringLiteral("route"), DesktopSession::route(app->pid())},
              {QStringLiteral("confirm"), confirm()},
              {QStringLiteral("text"), QStringLiteral("pasted ünïcode ✓")},
              {QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}}}});
    const QJsonObject result = resultOf(response);
    EXPECT_EQ(result.value(QStringLiteral("path")).toString(), QStringLiteral("clipboard"))
        << QJsonDocument(response).toJson().constData();
    EXPECT_TRUE(
        result.value(QStringLiteral("delivery")).toObject().value(QStringLiteral("clipboardRestored")).toBool());
    const auto changed =
        app->waitEvent(QStringLiteral("textChanged"), {{QStringLiteral("text"), QStringLiteral("pasted ünïcode ✓")}});
    EXPECT_TRUE(changed.has_value());
    EXPECT_EQ(xclipOut(), QByteArray("what the person copied"));
}

TEST_F(Fixture, AClipboardHoldingAnImageIsLeftAloneAndKeysAreTyped)
{
    auto app = startApp();
    call(QStringLiteral("desktop.typeText"),
         {{QStringLiteral("route"), DesktopSession::route(app->pid())},
          {QStringLiteral("confirm"), confirm()},
          {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                  selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
          {QStringLiteral("text"), QStringLiteral("x")}});
    app->waitEvent(QStringLiteral("textChanged"));
    const QByteArray png = QByteArray::fromBase64(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
    ASSERT_TRUE(xclipIn(png, QStringLiteral("image/png")));
    const QJsonObject result =
        resultOf(call(QStringLiteral("desktop.typeText"), {{QStringLiteral("route"), DesktopSession::route(app->pid())},
                                                           {QStringLiteral("confirm"), confirm()},
                                                           {QStringLiteral("text"), QStringLiteral("keyed in")}}));
    EXPECT_EQ(result.value(QStringLiteral("path")).toString(), QStringLiteral("keys"));
    EXPECT_TRUE(app->waitEvent(QStringLiteral("textChanged"), {{QStringLiteral("text"), QStringLiteral("xkeyed in")}})
                    .has_value());
    EXPECT_TRUE(xclipOut(QStringLiteral("TARGETS")).contains("image/png"));
}
