// desktop.ground against a stand-in for the owner's grounding endpoint (an OpenAI-compatible
// server the test runs, tests/support/grounding_server.py) over the real socket, with the fake
// backend (an 8×6 display): nothing is sent without one configured; what it is sent (the model,
// the description, the image); its point mapped back to the screen; and every way it can fail
// answered for what it is.
#include "GroundingServer.h"
#include "TestHost.h"
#include "bridge/Host.h"
#include "bridge/grounding/GroundingEndpoint.h"
#include "bridge/protocol/Meta.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <gtest/gtest.h>

#include <iostream>

using namespace Testing;

namespace {

QJsonObject params(const TestHost& host, QJsonObject extra = {}, int timeoutMs = 30000)
{
    extra.insert(
        QStringLiteral("meta"),
        Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = timeoutMs, .requestId = newRequestId()}));
    return extra;
}

QString reasonOf(const QJsonObject& response)
{
    return errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString();
}

void configure(TestHost& host, const GroundingServer& server, int timeoutMs = 30000)
{
    Bridge::GroundingSettings settings;
    settings.url = server.url();
    settings.model = QStringLiteral("test-vl");
    settings.timeoutMs = timeoutMs;
    host.onHostThread([settings](Bridge::Host& h) { h.setGrounding(settings); });
}

QJsonObject ground(TestClient& client, const TestHost& host, const QString& description, int timeoutMs = 30000)
{
    return client.call(QStringLiteral("desktop.ground"),
                       params(host, {{QStringLiteral("description"), description}}, timeoutMs), timeoutMs + 5000);
}

} // namespace

// Without an endpoint nothing is sent anywhere: the answer says no vision provider.
TEST(Grounding, WithoutAnEndpointNothingIsSentAndTheAnswerSaysSo)
{
    GroundingServer server;
    ASSERT_TRUE(server.started()) << server.failure().toStdString();
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject answer = ground(client, host, QStringLiteral("the red square"));
    EXPECT_EQ(errorCode(answer), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(reasonOf(answer), QStringLiteral("no_vision_provider"));
    EXPECT_FALSE(errorOf(answer).value(QStringLiteral("retryable")).toBool(true));
    EXPECT_TRUE(server.requests().isEmpty());
    // An empty description is refused before anything is captured.
    EXPECT_EQ(errorCode(ground(client, host, QStringLiteral("  "))), QStringLiteral("DESKTOP_INVALID_REQUEST"));
}

// The endpoint is shown the display and the description, asked for JSON; its point (inside
// prose, as models write) comes back as a screen point with its own confidence, and the
// evidence keeps what it was shown and what it said.
TEST(Grounding, TheEndpointsPointComesBackAsAScreenPoint)
{
    GroundingServer server;
    ASSERT_TRUE(server.started()) << server.failure().toStdString();
    TestHost host;
    configure(host, server);
    TestClient client(host.socketPath());
    server.answerText(QStringLiteral("The square is here: ```json\n{\"x\": 5, \"y\": 3, \"confidence\": 0.8}\n```"));
    const QJsonObject answer = ground(client, host, QStringLiteral("the red square"));
    const QJsonObject result = resultOf(answer);
    ASSERT_FALSE(result.isEmpty()) << QJsonDocument(answer).toJson().toStdString();
    EXPECT_EQ(result.value(QStringLiteral("x")).toInt(), 5);
    EXPECT_EQ(result.value(QStringLiteral("y")).toInt(), 3);
    EXPECT_DOUBLE_EQ(result.value(QStringLiteral("confidence")).toDouble(), 0.8);
    EXPECT_EQ(result.value(QStringLiteral("method")).toString(), QStringLiteral("endpoint"));
    EXPECT_EQ(result.value(QStringLiteral("provider")).toObject().value(QStringLiteral("answeredBy")).toString(),
              QStringLiteral("test-vl"));
    EXPECT_EQ(result.value(QStringLiteral("image")).toObject().value(QStringLiteral("scale")).toDouble(), 1.0);

    const QList<QJsonObject> sent = server.requests();
    ASSERT_EQ(sent.size(), 1);
    EXPECT_EQ(sent.first().value(QStringLiteral("path")).toString(), QStringLiteral("/v1/chat/completions"));
    const QJsonObject body = sent.first().value(QStringLiteral("body")).toObject();
    EXPECT_EQ(body.value(QStringLiteral("model")).toString(), QStringLiteral("test-vl"));
    const QByteArray text = QJsonDocument(body).toJson(QJsonDocument::Compact);
    EXPECT_TRUE(text.contains("Find: the red square")) << text.toStdString();
    EXPECT_EQ(sent.first().value(QStringLiteral("imageWidth")).toInt(), 8);
    EXPECT_EQ(sent.first().value(QStringLiteral("imageHeight")).toInt(), 6);

    const QString dir = result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    QFile kept(dir + QStringLiteral("/ground.json"));
    ASSERT_TRUE(kept.open(QIODevice::ReadOnly)) << dir.toStdString();
    EXPECT_TRUE(QJsonDocument::fromJson(kept.readAll())
                    .object()
                    .value(QStringLiteral("answer"))
                    .toString()
                    .contains(QStringLiteral("\"x\": 5")));
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("/ground.png")));

    // No confidence given: none is made up.
    server.answerText(QStringLiteral("{\"x\": 1, \"y\": 1}"));
    const QJsonObject plain = resultOf(ground(client, host, QStringLiteral("the red square")));
    EXPECT_TRUE(plain.value(QStringLiteral("confidence")).isNull()) << QJsonDocument(plain).toJson().toStdString();
}

// What the endpoint can do wrong, each answered for what it is; nothing is made up.
TEST(Grounding, AnEndpointThatFailsIsAnsweredForWhatItDid)
{
    GroundingServer server;
    ASSERT_TRUE(server.started()) << server.failure().toStdString();
    TestHost host;
    configure(host, server, 1000);
    TestClient client(host.socketPath());

    server.answerText(QStringLiteral("{\"x\": 40, \"y\": 3}"));
    const QJsonObject outside = ground(client, host, QStringLiteral("the red square"));
    EXPECT_EQ(errorCode(outside), QStringLiteral("DESKTOP_TARGET_UNRESPONSIVE"));
    EXPECT_EQ(reasonOf(outside), QStringLiteral("outside_image"));

    server.answerText(QStringLiteral("{\"x\": null, \"y\": null}"));
    const QJsonObject unseen = ground(client, host, QStringLiteral("the red square"));
    EXPECT_EQ(errorCode(unseen), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    EXPECT_EQ(reasonOf(unseen), QStringLiteral("not_seen"));

    server.answerText(QStringLiteral("I cannot help with that."));
    EXPECT_EQ(reasonOf(ground(client, host, QStringLiteral("the red square"))),
              QStringLiteral("endpoint_answer_unusable"));

    server.answer({{QStringLiteral("status"), 500}, {QStringLiteral("body"), QStringLiteral("model not loaded")}});
    const QJsonObject broken = ground(client, host, QStringLiteral("the red square"));
    EXPECT_EQ(reasonOf(broken), QStringLiteral("endpoint_error"));
    EXPECT_EQ(errorOf(broken).value(QStringLiteral("details")).toObject().value(QStringLiteral("status")).toInt(), 500);

    // Slower than its own timeout (1 s): a timeout of its own, well before the request's.
    server.answer(
        {{QStringLiteral("sleepSeconds"), 4}, {QStringLiteral("content"), QStringLiteral("{\"x\":1,\"y\":1}")}});
    QElapsedTimer timer;
    timer.start();
    const QJsonObject slow = ground(client, host, QStringLiteral("the red square"));
    EXPECT_EQ(errorCode(slow), QStringLiteral("DESKTOP_TIMEOUT"));
    EXPECT_EQ(reasonOf(slow), QStringLiteral("endpoint_timeout"));
    EXPECT_LT(timer.elapsed(), 3500);
    std::cout << "grounding: a 1000 ms endpoint timeout answered after " << timer.elapsed() << " ms\n";

    // Gone: unreachable.
    Bridge::GroundingSettings gone;
    gone.url = QStringLiteral("http://127.0.0.1:9/v1");
    host.onHostThread([gone](Bridge::Host& h) { h.setGrounding(gone); });
    EXPECT_EQ(reasonOf(ground(client, host, QStringLiteral("the red square"))), QStringLiteral("endpoint_unreachable"));
}

// The point in what models write: JSON anywhere in prose or a code fence; null is "not seen"; a
// confidence outside 0..1 is not taken.
TEST(Grounding, ThePointIsReadFromWhatModelsWrite)
{
    using Bridge::GroundingEndpoint;
    EXPECT_EQ(GroundingEndpoint::parseAnswer(QStringLiteral("{\"x\": 10, \"y\": 20}"))->at, QPointF(10, 20));
    const auto fenced = GroundingEndpoint::parseAnswer(
        QStringLiteral("Sure.\n```json\n{\"x\": 1.5, \"y\": 2, \"confidence\": 0.9}\n```"));
    ASSERT_TRUE(fenced.has_value());
    EXPECT_EQ(fenced->at, QPointF(1.5, 2));
    EXPECT_DOUBLE_EQ(*fenced->confidence, 0.9);
    EXPECT_FALSE(GroundingEndpoint::parseAnswer(QStringLiteral("{\"x\": 3, \"y\": 4, \"confidence\": 7}"))->confidence);
    EXPECT_FALSE(GroundingEndpoint::parseAnswer(QStringLiteral("{\"x\": null, \"y\": null}")).has_value());
    EXPECT_FALSE(GroundingEndpoint::parseAnswer(QStringLiteral("(10, 20)")).has_value());
    EXPECT_EQ(GroundingEndpoint::completionsUrl(QStringLiteral("http://h:1/v1/")),
              QStringLiteral("http://h:1/v1/chat/completions"));
    EXPECT_EQ(GroundingEndpoint::completionsUrl(QStringLiteral("http://h:1/v1/chat/completions")),
              QStringLiteral("http://h:1/v1/chat/completions"));
}
