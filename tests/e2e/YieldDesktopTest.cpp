// Yielding to the person at the keyboard (docs/protocol.md §5.24, "Yielding to the person at the desktop"): while the
// host types key by key (20 ms apart, options.keyDelayMs) into the Qt fixture, another process moves the pointer with
// xdotool. Under Xvfb both come from the XTEST device; the host tells them apart by what it injected itself. abort: the
// answer is DESKTOP_ABORTED with reason user_input and the fixture saw at most one key after the pointer arrived; wait:
// the typing holds until the person is quiet, finishes, and the answer lists the wait; off: the typing carries on. A
// subscriber gets a user.input event.
#include "E2eSupport.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QThread>

#include <gtest/gtest.h>

#include <future>

using namespace Testing;

namespace {

QJsonObject confirm()
{
    return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
}

class YieldDesktop : public ::testing::Test
{
protected:
    void SetUp() override
    {
        QString why;
        if (!DesktopSession::available(&why))
            GTEST_SKIP() << why.toStdString();
        if (QStandardPaths::findExecutable(QStringLiteral("xdotool")).isEmpty())
            GTEST_SKIP() << "xdotool is installed by scripts/setup";
    }

    // A host with the given yield setting, and the fixture with its pointer pad.
    void start(const QStringList& hostArgs)
    {
        m_session = std::make_unique<DesktopSession>();
        m_session->setHostArguments(hostArgs);
        ASSERT_TRUE(m_session->start());
        m_app =
            std::make_unique<AppProcess>(DesktopSession::fixtureBinary(), QStringList{QStringLiteral("--pointer-pad")});
        ASSERT_TRUE(m_app->start());
        // The pointer away from the pad, before anything starts.
        runCommand(QStringLiteral("xdotool"), {QStringLiteral("mousemove"), QStringLiteral("1"), QStringLiteral("1")});
        QThread::msleep(300);
        m_app->discardEvents();
    }

    // The pad's centre on the screen, from the tree.
    QPoint padCentre()
    {
        const QJsonObject found =
            m_session->call(QStringLiteral("desktop.find"),
                            {{QStringLiteral("route"), DesktopSession::route(m_app->pid())},
                             {QStringLiteral("selector"),
                              QJsonObject{{QStringLiteral("titleContains"), QStringLiteral("Pointer pad")}}}});
        const QJsonArray refs =
            found.value(QStringLiteral("result")).toObject().value(QStringLiteral("elementRefs")).toArray();
        if (refs.isEmpty())
            return {};
        const QJsonObject frame = refs.first().toObject().value(QStringLiteral("frame")).toObject();
        return {frame.value(QStringLiteral("x")).toInt() + frame.value(QStringLiteral("width")).toInt() / 2,
                frame.value(QStringLiteral("y")).toInt() + frame.value(QStringLiteral("height")).toInt() / 2};
    }

    // Types `text` key by key into Message on another thread; the person moves the pointer onto
    // the pad `afterMs` after the typing began.
    QJsonObject typeWhileThePersonMoves(const QString& text, int afterMs, QPoint to, int timeoutMs = 60000)
    {
        return typeWhileThePerson(
            text, afterMs, {QStringLiteral("mousemove"), QString::number(to.x()), QString::number(to.y())}, timeoutMs);
    }

    // The same, the person doing `xdotool ARGS…`.
    QJsonObject typeWhileThePerson(const QString& text, int afterMs, const QStringList& xdotool, int timeoutMs = 60000)
    {
        const QJsonObject params{
            {QStringLiteral("route"), DesktopSession::route(m_app->pid())},
            {QStringLiteral("confirm"), confirm()},
            {QStringLiteral("delivery"), QStringLiteral("keys")},
            {QStringLiteral("options"), QJsonObject{{QStringLiteral("keyDelayMs"), 20}}},
            {QStringLiteral("target"),
             QJsonObject{{QStringLiteral("selector"),
                          QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                      {QStringLiteral("titleEquals"), QStringLiteral("Message")}}}}},
            {QStringLiteral("text"), text}};
        // A connection of its own on the typing thread (a socket stays on the thread that made it).
        const QString socket = m_session->host().socketPath();
        const QString workspace = m_session->workspace();
        auto typed = std::async(std::launch::async, [=] {
            Bridge::Client client;
            if (!client.connectToServer(socket, 5000))
                return QJsonObject();
            Bridge::MetaFill fill;
            fill.workspacePath = workspace;
            fill.timeoutMs = timeoutMs;
            client.setMetaFill(fill);
            return client.call(QStringLiteral("desktop.typeText"), params, timeoutMs + 5000).response;
        });
        // The first key is the sign the typing began.
        EXPECT_TRUE(m_app->waitEvent(QStringLiteral("keyPressed"), {}, 15000).has_value());
        QThread::msleep(static_cast<unsigned long>(afterMs));
        runCommand(QStringLiteral("xdotool"), xdotool);
        while (typed.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
            m_app->waitEvent(QStringLiteral("none"), {}, 10); // keep reading the fixture's lines
        return typed.get();
    }

    // Keys the fixture reported after the pointer entered the pad.
    int keysAfterThePointerCame()
    {
        QDeadlineTimer settle(1000);
        while (!settle.hasExpired())
            m_app->waitEvent(QStringLiteral("none"), {}, 50);
        int keys = -1;
        for (const QJsonObject& event : m_app->events()) {
            const QString name = event.value(QStringLiteral("event")).toString();
            if (name == QLatin1String("pointerEnter") && keys < 0)
                keys = 0;
            else if (name == QLatin1String("keyPressed") && keys >= 0)
                ++keys;
        }
        return keys;
    }

    std::unique_ptr<DesktopSession> m_session;
    std::unique_ptr<AppProcess> m_app;
};

// Typed at a person's pace (options.keyDelayMs), so that it takes seconds.
QString longText()
{
    QString text;
    for (int i = 0; text.size() < 240; ++i)
        text += QStringLiteral("word%1 ").arg(i);
    return text;
}

} // namespace

TEST_F(YieldDesktop, AbortStopsTheTypingAtTheFirstForeignMove)
{
    start({});
    const QPoint pad = padCentre();
    ASSERT_FALSE(pad.isNull()) << "the fixture's pointer pad is not in the tree";

    Bridge::Client listener;
    ASSERT_TRUE(listener.connectToServer(m_session->host().socketPath(), 5000));
    Bridge::MetaFill fill;
    fill.timeoutMs = 10000;
    listener.setMetaFill(fill);
    ASSERT_TRUE(listener
                    .call(QStringLiteral("desktop.subscribe"),
                          QJsonObject{{QStringLiteral("kinds"), QJsonArray{QStringLiteral("user.input")}}}, 15000)
                    .ok());

    const QJsonObject answer = typeWhileThePersonMoves(longText(), 300, pad);
    const QJsonObject watch = m_session->call(QStringLiteral("desktop.health"), {})
                                  .value(QStringLiteral("result"))
                                  .toObject()
                                  .value(QStringLiteral("userInput"))
                                  .toObject();
    EXPECT_TRUE(watch.value(QStringLiteral("watching")).toBool()) << QJsonDocument(watch).toJson().toStdString();
    EXPECT_GE(watch.value(QStringLiteral("foreignEvents")).toInt(), 1) << QJsonDocument(watch).toJson().toStdString();
    EXPECT_TRUE(watch.value(QStringLiteral("active")).toBool()) << QJsonDocument(watch).toJson().toStdString();
    const QJsonObject error = answer.value(QStringLiteral("error")).toObject();
    ASSERT_EQ(error.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_ABORTED"))
        << QJsonDocument(answer).toJson().toStdString();
    const QJsonObject details = error.value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("user_input"));
    EXPECT_FALSE(error.value(QStringLiteral("retryable")).toBool(true)) << "keys went in before the stop";
    const int after = keysAfterThePointerCame();
    ASSERT_GE(after, 0) << "the fixture never saw the pointer arrive";
    EXPECT_LE(after, 1) << "keys typed after the person moved the pointer";

    // The subscriber heard of it.
    QDeadlineTimer deadline(5000);
    bool heard = false;
    while (!heard && !deadline.hasExpired()) {
        const auto line = listener.readUnmatched(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        if (!line)
            break;
        const QJsonObject event = QJsonDocument::fromJson(*line).object().value(QStringLiteral("params")).toObject();
        heard = event.value(QStringLiteral("kind")).toString() == QLatin1String("user.input") &&
                event.value(QStringLiteral("action")).toString() == QLatin1String("aborted");
    }
    EXPECT_TRUE(heard) << "no user.input event";

    // The host's own typing, with nobody at the desktop, is not mistaken for the person.
    m_app->discardEvents();
    const QJsonObject quiet =
        m_session->call(QStringLiteral("desktop.typeText"),
                        {{QStringLiteral("route"), DesktopSession::route(m_app->pid())},
                         {QStringLiteral("confirm"), confirm()},
                         {QStringLiteral("delivery"), QStringLiteral("keys")},
                         {QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}}},
                         {QStringLiteral("target"),
                          QJsonObject{{QStringLiteral("selector"),
                                       QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                                   {QStringLiteral("titleEquals"), QStringLiteral("Message")}}}}},
                         {QStringLiteral("text"), QStringLiteral("Hello, World! 123")}});
    EXPECT_TRUE(quiet.value(QStringLiteral("result")).toObject().value(QStringLiteral("typed")).toBool())
        << QJsonDocument(quiet).toJson().toStdString();
    EXPECT_TRUE(
        m_app->waitEvent(QStringLiteral("textChanged"), {{QStringLiteral("text"), QStringLiteral("Hello, World! 123")}})
            .has_value());
}

TEST_F(YieldDesktop, WaitHoldsUntilThePersonIsQuietThenFinishes)
{
    start({QStringLiteral("--yield-to-user"), QStringLiteral("wait"), QStringLiteral("--yield-quiet-ms"),
           QStringLiteral("800")});
    const QPoint pad = padCentre();
    ASSERT_FALSE(pad.isNull());
    const QString text = longText();
    const QJsonObject answer = typeWhileThePersonMoves(text, 300, pad);
    const QJsonObject result = answer.value(QStringLiteral("result")).toObject();
    ASSERT_FALSE(result.isEmpty()) << QJsonDocument(answer).toJson().toStdString();
    EXPECT_TRUE(result.value(QStringLiteral("typed")).toBool()) << QJsonDocument(answer).toJson().toStdString();
    const QJsonArray yielded = result.value(QStringLiteral("yielded")).toArray();
    ASSERT_FALSE(yielded.isEmpty()) << QJsonDocument(answer).toJson().toStdString();
    EXPECT_GE(yielded.first().toObject().value(QStringLiteral("ms")).toInt(), 500) << "held for the quiet period";
    EXPECT_TRUE(m_app->waitEvent(QStringLiteral("textChanged"), {{QStringLiteral("text"), text}}, 10000).has_value())
        << "the whole text arrived";
}

TEST_F(YieldDesktop, OffCarriesOn)
{
    start({QStringLiteral("--yield-to-user"), QStringLiteral("off")});
    const QPoint pad = padCentre();
    ASSERT_FALSE(pad.isNull());
    const QString text = longText();
    const QJsonObject answer = typeWhileThePersonMoves(text, 300, pad);
    const QJsonObject result = answer.value(QStringLiteral("result")).toObject();
    EXPECT_TRUE(result.value(QStringLiteral("typed")).toBool()) << QJsonDocument(answer).toJson().toStdString();
    EXPECT_FALSE(result.contains(QStringLiteral("yielded")));
}

// A key the person presses (here Control, which types nothing) stops the typing too.
TEST_F(YieldDesktop, AKeyThePersonPressesStopsTheTyping)
{
    start({});
    const QJsonObject answer = typeWhileThePerson(longText(), 300, {QStringLiteral("key"), QStringLiteral("ctrl")});
    const QJsonObject error = answer.value(QStringLiteral("error")).toObject();
    ASSERT_EQ(error.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_ABORTED"))
        << QJsonDocument(answer).toJson().toStdString();
    EXPECT_EQ(error.value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("user_input"));
}
