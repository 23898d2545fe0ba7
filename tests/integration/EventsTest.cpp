// desktop.subscribe (docs/protocol.md §5.24) over the socket, against a host with the fake
// backend: the answer then desktop.event notifications on the same connection; executions
// started and finished, with nothing of their params; stop and resume; a reconnect with `since`;
// unsubscribe; refused params; and `msgcode-desktopctl events` printing the stream.
#include "HostProcess.h"
#include "TestHost.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QThread>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

// The next desktop.event notification's params on `client`, skipping other lines.
std::optional<QJsonObject> nextEvent(TestClient& client, int timeoutMs = 10000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const auto message = client.readObject(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        if (!message)
            return std::nullopt;
        if (message->value(QStringLiteral("method")).toString() == QLatin1String("desktop.event"))
            return message->value(QStringLiteral("params")).toObject();
    }
    return std::nullopt;
}

QJsonObject subscribe(TestClient& client, const QString& workspace, const QJsonObject& params = {})
{
    return client.call(QStringLiteral("desktop.subscribe"), TestClient::withMeta(params, workspace));
}

} // namespace

TEST(Events, ExecutionsAreStreamedToTheSubscriberWithoutTheirParams)
{
    TestHost host;
    TestClient listener(host.socketPath());
    const QJsonObject answer = subscribe(listener, host.workspace());
    const QJsonObject result = resultOf(answer);
    ASSERT_TRUE(result.value(QStringLiteral("subscribed")).toBool()) << QJsonDocument(answer).toJson().toStdString();
    const QString epoch = result.value(QStringLiteral("epoch")).toString();
    EXPECT_FALSE(epoch.isEmpty());

    TestClient worker(host.socketPath());
    const QJsonObject found =
        worker.call(QStringLiteral("desktop.find"),
                    TestClient::withMeta({{QStringLiteral("selector"),
                                           QJsonObject{{QStringLiteral("titleContains"), QStringLiteral("Send")}}}},
                                         host.workspace()));
    const QString executionId = resultOf(found).value(QStringLiteral("executionId")).toString();
    const auto started = nextEvent(listener);
    ASSERT_TRUE(started);
    EXPECT_EQ(started->value(QStringLiteral("kind")).toString(), QStringLiteral("execution.started"));
    EXPECT_EQ(started->value(QStringLiteral("executionId")).toString(), executionId);
    EXPECT_EQ(started->value(QStringLiteral("method")).toString(), QStringLiteral("desktop.find"));
    EXPECT_EQ(started->value(QStringLiteral("epoch")).toString(), epoch);
    const auto finished = nextEvent(listener);
    ASSERT_TRUE(finished);
    EXPECT_EQ(finished->value(QStringLiteral("kind")).toString(), QStringLiteral("execution.finished"));
    EXPECT_EQ(finished->value(QStringLiteral("outcome")).toString(), QStringLiteral("ok"));
    EXPECT_GT(finished->value(QStringLiteral("cursor")).toInteger(),
              started->value(QStringLiteral("cursor")).toInteger());
    EXPECT_FALSE(QJsonDocument(*finished).toJson().contains("Send")) << "no params in events";

    // Typed text never appears in an event.
    worker.call(
        QStringLiteral("desktop.typeText"),
        TestClient::withMeta({{QStringLiteral("text"), QStringLiteral("hunter2-secret")},
                              {QStringLiteral("confirm"),
                               QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM:desktop.typeText")}}}},
                             host.workspace()));
    const QJsonObject marker =
        worker.call(QStringLiteral("desktop.observe"), TestClient::withMeta({}, host.workspace()));
    const QString markerId = resultOf(marker).value(QStringLiteral("executionId")).toString();
    for (;;) {
        const auto event = nextEvent(listener, 5000);
        ASSERT_TRUE(event);
        EXPECT_FALSE(QJsonDocument(*event).toJson().contains("hunter2"))
            << QJsonDocument(*event).toJson().toStdString();
        if (event->value(QStringLiteral("kind")).toString() == QLatin1String("execution.finished") &&
            event->value(QStringLiteral("executionId")).toString() == markerId)
            break;
    }

    // Stop and resume.
    host.onHostThread([](Bridge::Host& h) { h.stop(); });
    const auto stopped = nextEvent(listener);
    ASSERT_TRUE(stopped);
    EXPECT_EQ(stopped->value(QStringLiteral("kind")).toString(), QStringLiteral("stopped"));
    host.onHostThread([](Bridge::Host& h) { h.resume(); });
    const auto resumed = nextEvent(listener);
    ASSERT_TRUE(resumed);
    EXPECT_EQ(resumed->value(QStringLiteral("kind")).toString(), QStringLiteral("resumed"));

    // Unsubscribed: no more.
    EXPECT_TRUE(
        resultOf(listener.call(QStringLiteral("desktop.unsubscribe"), TestClient::withMeta({}, host.workspace())))
            .value(QStringLiteral("unsubscribed"))
            .toBool());
    host.onHostThread([](Bridge::Host& h) { h.stop(); });
    EXPECT_FALSE(nextEvent(listener, 500));
    host.onHostThread([](Bridge::Host& h) { h.resume(); });
}

TEST(Events, AReaderThatComesBackGetsWhatItMissedFromItsCursor)
{
    TestHost host;
    qint64 cursor = 0;
    QString epoch;
    {
        TestClient first(host.socketPath());
        const QJsonObject result = resultOf(subscribe(first, host.workspace()));
        cursor = result.value(QStringLiteral("cursor")).toInteger();
        epoch = result.value(QStringLiteral("epoch")).toString();
    }
    // Gone; meanwhile the host stops and resumes.
    host.onHostThread([](Bridge::Host& h) { h.stop(); });
    host.onHostThread([](Bridge::Host& h) { h.resume(); });
    TestClient again(host.socketPath());
    const QJsonObject result = resultOf(
        subscribe(again, host.workspace(), {{QStringLiteral("since"), cursor}, {QStringLiteral("epoch"), epoch}}));
    EXPECT_TRUE(result.value(QStringLiteral("subscribed")).toBool());
    const auto first = nextEvent(again);
    const auto second = nextEvent(again);
    ASSERT_TRUE(first && second);
    EXPECT_EQ(first->value(QStringLiteral("kind")).toString(), QStringLiteral("stopped"));
    EXPECT_EQ(second->value(QStringLiteral("kind")).toString(), QStringLiteral("resumed"));
    // Another host's epoch: a gap first.
    TestClient stranger(host.socketPath());
    subscribe(stranger, host.workspace(),
              {{QStringLiteral("since"), 5}, {QStringLiteral("epoch"), QStringLiteral("other")}});
    const auto gap = nextEvent(stranger);
    ASSERT_TRUE(gap);
    EXPECT_EQ(gap->value(QStringLiteral("kind")).toString(), QStringLiteral("gap"));
    EXPECT_EQ(gap->value(QStringLiteral("reason")).toString(), QStringLiteral("epoch_changed"));
}

TEST(Events, BadSubscriptionsAreRefusedNamingTheField)
{
    TestHost host;
    TestClient client(host.socketPath());
    EXPECT_EQ(errorOf(subscribe(client, host.workspace(), {{QStringLiteral("kinds"), QStringLiteral("all")}}))
                  .value(QStringLiteral("details"))
                  .toObject()
                  .value(QStringLiteral("field"))
                  .toString(),
              QStringLiteral("kinds"));
    EXPECT_EQ(errorCode(subscribe(client, host.workspace(),
                                  {{QStringLiteral("kinds"), QJsonArray{QStringLiteral("everything")}}})),
              QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(errorCode(subscribe(client, host.workspace(), {{QStringLiteral("since"), -3}})),
              QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(errorCode(subscribe(client, host.workspace(),
                                  {{QStringLiteral("route"), QJsonObject{{QStringLiteral("pid"), 3}}}})),
              QStringLiteral("DESKTOP_INVALID_REQUEST"));
    // A selector filters element events: without one named it would take nothing, said so.
    const auto field = [&](const QJsonObject& params) {
        return errorOf(subscribe(client, host.workspace(), params))
            .value(QStringLiteral("details"))
            .toObject()
            .value(QStringLiteral("field"))
            .toString();
    };
    EXPECT_EQ(field({{QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXList")}}}}),
              QStringLiteral("selector"));
    EXPECT_EQ(
        field({{QStringLiteral("kinds"), QJsonArray{QStringLiteral("element.childrenChanged")}},
               {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXList")},
                                                        {QStringLiteral("valueContains"), QStringLiteral("x")}}}}),
        QStringLiteral("selector.valueContains"));
    EXPECT_TRUE(resultOf(subscribe(client, host.workspace(),
                                   {{QStringLiteral("kinds"), QJsonArray{QStringLiteral("element.childrenChanged")}},
                                    {QStringLiteral("selector"),
                                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXList")}}}}))
                    .value(QStringLiteral("selector"))
                    .toObject()
                    .contains(QStringLiteral("byRole")));
}

TEST(Events, DesktopctlEventsPrintsTheStream)
{
    TestHost host;
    QProcess ctl;
    ctl.start(QStringLiteral(MDH_CTL_BINARY),
              {QStringLiteral("--socket"), host.socketPath(), QStringLiteral("--json"), QStringLiteral("events")});
    ASSERT_TRUE(ctl.waitForStarted(5000));
    // Wait until the host counts the subscriber, then make something happen.
    QDeadlineTimer subscribed(10000);
    int subscribers = 0;
    while (subscribers == 0 && !subscribed.hasExpired()) {
        host.onHostThread([&](Bridge::Host& h) { subscribers = h.events().subscriberCount(); });
        QThread::msleep(20);
    }
    ASSERT_EQ(subscribers, 1);
    host.onHostThread([](Bridge::Host& h) { h.stop(); });
    QByteArray out;
    QDeadlineTimer printed(10000);
    while (!out.contains("\"stopped\"") && !printed.hasExpired()) {
        ctl.waitForReadyRead(200);
        out += ctl.readAllStandardOutput();
    }
    EXPECT_TRUE(out.contains("\"kind\":\"stopped\"")) << out.toStdString();
    host.onHostThread([](Bridge::Host& h) { h.resume(); });
    ctl.kill();
    ctl.waitForFinished(3000);
}
