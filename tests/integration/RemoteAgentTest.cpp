// The remote agent (docs/remote.md) against a control server written in the test: Peekaboo's
// JSON-RPC over TCP, driven line by line, with the host's fake backend underneath. Effects are
// checked on the fake desktop; the keyring is a store in memory here (the real one is exercised
// end to end in RemoteAgentDesktop.*), the backoff's clock is injected.
#include "ControlServer.h"
#include "TestHost.h"

#include "remote/Backoff.h"
#include "remote/RemoteAgent.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QThread>
#include <QTimer>

#include <gtest/gtest.h>

#include <memory>
#include <optional>

using namespace Testing;

namespace {

constexpr auto kBindCode = "ABC123";

TestHost::Options withRemotePolicy(Bridge::ConfirmPolicy policy)
{
    TestHost::Options options;
    options.security.confirmPolicy = Bridge::ConfirmPolicy::Deny;
    options.security.remoteConfirmPolicy = policy;
    return options;
}

int rpcErrorCode(const QJsonObject& response)
{
    return response.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt();
}

class RemoteAgentTest : public ::testing::Test
{
protected:
    explicit RemoteAgentTest(Bridge::ConfirmPolicy policy = Bridge::ConfirmPolicy::Auto)
        : host(withRemotePolicy(policy))
    {
    }

    void SetUp() override
    {
        host.onHostThread([this](Bridge::Host& h) {
            agent = new Remote::RemoteAgent(h.dispatcher(), std::make_unique<MemoryTokenStore>(tokens));
            h.setRemoteControl(agent);
            // The injected clock: every delay is recorded, and the next attempt made at once.
            agent->setScheduler([this](int ms, std::function<void()> fn) {
                {
                    QMutexLocker lock(&delaysMutex);
                    delays.append(ms);
                }
                QTimer::singleShot(0, agent, std::move(fn));
            });
            agent->setScreenResolution([] { return QStringLiteral("1280x800"); });
        });
    }

    void TearDown() override
    {
        host.onHostThread([this](Bridge::Host& h) {
            h.setRemoteControl(nullptr);
            delete agent;
            agent = nullptr;
        });
    }

    Remote::RemoteConfig config(bool reconnect = true) const
    {
        Remote::RemoteConfig c;
        c.host = QStringLiteral("127.0.0.1");
        c.port = server.port();
        c.workspace = host.workspace();
        c.deviceName = QStringLiteral("test-device");
        c.reconnect = reconnect;
        return c;
    }

    void start(const Remote::RemoteConfig& c, const QString& bindCode = QString::fromLatin1(kBindCode))
    {
        host.onHostThread([&](Bridge::Host&) { agent->start(c, bindCode); });
    }

    QJsonObject status()
    {
        QJsonObject out;
        host.onHostThread([&](Bridge::Host&) { out = agent->status(); });
        return out;
    }

    bool waitState(const QString& state, int timeoutMs = 10000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!deadline.hasExpired()) {
            if (status().value(QStringLiteral("state")).toString() == state)
                return true;
            QThread::msleep(10);
        }
        return false;
    }

    /// Accepts the agent, answers its auth, waits until it is connected; the auth request.
    QJsonObject connectAgent(const QString& token = QStringLiteral("token-1"))
    {
        if (!server.accept())
            return {};
        const auto auth = server.read();
        if (!auth)
            return {};
        server.answerAuth(*auth, token);
        EXPECT_TRUE(waitState(QStringLiteral("connected"))) << QJsonDocument(status()).toJson().toStdString();
        return *auth;
    }

    QString tokenKey() const { return QStringLiteral("remote-device-token/tcp/127.0.0.1:%1").arg(server.port()); }

    QString storedToken() const
    {
        QMutexLocker lock(&tokens->mutex);
        return tokens->tokens.value(tokenKey());
    }

    QJsonObject callTool(const QString& name, const QJsonObject& arguments, int timeoutMs = 30000)
    {
        return server.call(QStringLiteral("tools/call"),
                           QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}},
                           timeoutMs);
    }

    QList<int> recordedDelays()
    {
        QMutexLocker lock(&delaysMutex);
        return delays;
    }

    TestHost host;
    ControlServer server;
    std::shared_ptr<MemoryTokenStore::Shared> tokens = std::make_shared<MemoryTokenStore::Shared>();
    Remote::RemoteAgent* agent = nullptr;
    QMutex delaysMutex;
    QList<int> delays;
};

class RemoteAgentAskTest : public RemoteAgentTest
{
protected:
    RemoteAgentAskTest() : RemoteAgentTest(Bridge::ConfirmPolicy::Ask) {}
};

} // namespace

TEST(RemoteBackoff, DoublesFromTheRetryDelayUpTo30Seconds)
{
    const Remote::Backoff backoff{1000, 0};
    QList<int> seen;
    for (int retry = 0; retry < 8; ++retry)
        seen.append(backoff.delayMs(retry));
    EXPECT_EQ(seen, (QList<int>{1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000}));
    EXPECT_FALSE(backoff.exhausted(1000000)) << "maxRetries 0 retries forever";
    const Remote::Backoff limited{250, 3};
    EXPECT_EQ(limited.delayMs(0), 250);
    EXPECT_EQ(limited.delayMs(2), 1000);
    EXPECT_FALSE(limited.exhausted(2));
    EXPECT_TRUE(limited.exhausted(3));
}

TEST(RemoteTools, ArgumentsAreCheckedAgainstTheToolsOwnSchema)
{
    const auto find = [](const QString& name) {
        for (const auto& tool : Remote::tools()) {
            if (tool.name == name)
                return tool.inputSchema;
        }
        return QJsonObject();
    };
    const QJsonObject click = find(QStringLiteral("click"));
    ASSERT_FALSE(click.isEmpty());
    EXPECT_FALSE(Remote::checkArguments(click, QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")}}));
    EXPECT_TRUE(Remote::checkArguments(click, QJsonObject{{QStringLiteral("query"), 5}}));
    EXPECT_TRUE(Remote::checkArguments(click, QJsonObject{{QStringLiteral("querry"), QStringLiteral("Send")}}));
    const QJsonObject type = find(QStringLiteral("type"));
    EXPECT_TRUE(Remote::checkArguments(type, QJsonObject{}).value_or(QString()).contains(QStringLiteral("text")));
    const QJsonObject sleep = find(QStringLiteral("sleep"));
    EXPECT_FALSE(Remote::checkArguments(sleep, QJsonObject{{QStringLiteral("ms"), 10}}));
    EXPECT_TRUE(Remote::checkArguments(sleep, QJsonObject{{QStringLiteral("ms"), 1.5}}));
    EXPECT_TRUE(Remote::checkArguments(sleep, QJsonObject{{QStringLiteral("ms"), 600000}}));
    const QJsonObject scroll = find(QStringLiteral("scroll"));
    EXPECT_TRUE(Remote::checkArguments(scroll, QJsonObject{{QStringLiteral("direction"), QStringLiteral("sideways")}}));
    EXPECT_TRUE(Remote::unsupportedReason(QStringLiteral("dock")));
    EXPECT_FALSE(Remote::unsupportedReason(QStringLiteral("see")));
}

TEST_F(RemoteAgentTest, BindsWithTheCodeKeepsTheTokenAndReconnectsWithItAfterTheServerRestarts)
{
    start(config());
    ASSERT_TRUE(server.accept());
    const auto auth = server.read();
    ASSERT_TRUE(auth);
    EXPECT_EQ(auth->value(QStringLiteral("jsonrpc")).toString(), QStringLiteral("2.0"));
    EXPECT_EQ(auth->value(QStringLiteral("method")).toString(), QStringLiteral("auth"));
    EXPECT_EQ(auth->value(QStringLiteral("id")), QJsonValue(0));
    const QJsonObject params = auth->value(QStringLiteral("params")).toObject();
    EXPECT_EQ(params.value(QStringLiteral("bindCode")).toString(), QString::fromLatin1(kBindCode));
    EXPECT_FALSE(params.contains(QStringLiteral("deviceToken")));
    const QJsonObject info = params.value(QStringLiteral("deviceInfo")).toObject();
    EXPECT_EQ(info.value(QStringLiteral("name")).toString(), QStringLiteral("test-device"));
    EXPECT_EQ(info.value(QStringLiteral("version")).toString(), QStringLiteral(MDH_VERSION));
    EXPECT_EQ(info.value(QStringLiteral("os")).toString(), QStringLiteral("Linux"));
    EXPECT_TRUE(info.value(QStringLiteral("osVersion")).isString());
    EXPECT_EQ(info.value(QStringLiteral("screenResolution")).toString(), QStringLiteral("1280x800"));
    server.answerAuth(*auth, QStringLiteral("secret-device-token"));
    ASSERT_TRUE(waitState(QStringLiteral("connected")));
    QDeadlineTimer saved(5000);
    while (storedToken().isEmpty() && !saved.hasExpired())
        QThread::msleep(10);
    EXPECT_EQ(storedToken(), QStringLiteral("secret-device-token"));
    const QJsonObject connected = status();
    EXPECT_EQ(connected.value(QStringLiteral("deviceId")).toString(),
              QStringLiteral("550e8400-e29b-41d4-a716-446655440000"));
    EXPECT_FALSE(QJsonDocument(connected).toJson().contains("secret-device-token")) << "status never shows the token";

    // The server restarts: the agent comes back on its own, with the token, not the used code.
    server.stop();
    ASSERT_TRUE(server.restart());
    ASSERT_TRUE(server.accept());
    const auto again = server.read();
    ASSERT_TRUE(again);
    const QJsonObject againParams = again->value(QStringLiteral("params")).toObject();
    EXPECT_EQ(againParams.value(QStringLiteral("deviceToken")).toString(), QStringLiteral("secret-device-token"));
    EXPECT_FALSE(againParams.contains(QStringLiteral("bindCode")));
    EXPECT_EQ(againParams.value(QStringLiteral("deviceInfo")).toObject().value(QStringLiteral("name")).toString(),
              QStringLiteral("test-device"));
    server.answerAuth(*again);
    EXPECT_TRUE(waitState(QStringLiteral("connected")));
    EXPECT_FALSE(recordedDelays().isEmpty());
    EXPECT_EQ(recordedDelays().constFirst(), 1000) << "the first retry waits retryDelay";
}

TEST_F(RemoteAgentTest, AnswersPingAndListsItsToolsWithSchemas)
{
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    const qint64 before = QDateTime::currentSecsSinceEpoch();
    const QJsonObject pong = server.call(QStringLiteral("ping"), {});
    const QJsonObject result = pong.value(QStringLiteral("result")).toObject();
    EXPECT_TRUE(result.value(QStringLiteral("pong")).toBool());
    EXPECT_GE(result.value(QStringLiteral("timestamp")).toInteger(), before);
    EXPECT_LE(result.value(QStringLiteral("timestamp")).toInteger(), before + 5);

    const QJsonArray tools = server.call(QStringLiteral("tools/list"), {})
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("tools"))
                                 .toArray();
    QStringList names;
    for (const auto& value : tools) {
        const QJsonObject tool = value.toObject();
        names.append(tool.value(QStringLiteral("name")).toString());
        EXPECT_FALSE(tool.value(QStringLiteral("description")).toString().isEmpty());
        const QJsonObject schema = tool.value(QStringLiteral("inputSchema")).toObject();
        EXPECT_EQ(schema.value(QStringLiteral("type")).toString(), QStringLiteral("object"))
            << names.last().toStdString();
        EXPECT_TRUE(schema.value(QStringLiteral("properties")).isObject());
    }
    for (const char* expected : {"see", "image", "click", "type", "scroll", "hotkey", "swipe", "drag", "move", "app",
                                 "window", "menu", "dialog", "paste", "list", "permissions", "sleep", "clipboard"})
        EXPECT_TRUE(names.contains(QLatin1String(expected))) << expected;
    for (const char* unsupported : {"dock", "space", "analyze"})
        EXPECT_FALSE(names.contains(QLatin1String(unsupported))) << unsupported;
}

TEST_F(RemoteAgentTest, ToolsCallActsOnTheDesktopAndKeepsEvidenceInTheRemoteWorkspace)
{
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    host.desktop().clearEffects();
    const QJsonObject clicked =
        callTool(QStringLiteral("click"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")}});
    ASSERT_TRUE(clicked.contains(QStringLiteral("result"))) << QJsonDocument(clicked).toJson().toStdString();
    EXPECT_FALSE(toolIsError(clicked)) << toolText(clicked).toStdString();
    EXPECT_TRUE(host.desktop().effects().contains(QStringLiteral("press:Send")))
        << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
    const QString text = toolText(clicked);
    EXPECT_TRUE(text.contains(host.workspace())) << "the evidence is in the remote workspace: " << text.toStdString();

    host.desktop().clearEffects();
    const QJsonObject typed =
        callTool(QStringLiteral("type"), QJsonObject{{QStringLiteral("text"), QStringLiteral("hi")},
                                                     {QStringLiteral("target"), QStringLiteral("Message")}});
    ASSERT_TRUE(typed.contains(QStringLiteral("result")));
    EXPECT_FALSE(toolIsError(typed)) << toolText(typed).toStdString();
    EXPECT_TRUE(host.desktop().effects().join(QLatin1Char(' ')).contains(QStringLiteral("type:Message")))
        << host.desktop().effects().join(QLatin1Char(' ')).toStdString();

    host.desktop().clearEffects();
    const QJsonObject chord =
        callTool(QStringLiteral("hotkey"), QJsonObject{{QStringLiteral("keys"), QStringLiteral("ctrl,s")}});
    ASSERT_TRUE(chord.contains(QStringLiteral("result")));
    EXPECT_FALSE(toolIsError(chord)) << toolText(chord).toStdString();
    EXPECT_TRUE(host.desktop().effects().contains(QStringLiteral("chord:ctrl+s")))
        << host.desktop().effects().join(QLatin1Char(' ')).toStdString();

    host.desktop().clearEffects();
    const QJsonObject minimized =
        callTool(QStringLiteral("window"), QJsonObject{{QStringLiteral("action"), QStringLiteral("minimize")}});
    EXPECT_FALSE(toolIsError(minimized)) << toolText(minimized).toStdString();
    EXPECT_TRUE(host.desktop().effects().contains(QStringLiteral("window:minimize")))
        << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
    host.desktop().clearEffects();
    const QJsonObject moved =
        callTool(QStringLiteral("window"), QJsonObject{{QStringLiteral("action"), QStringLiteral("move")},
                                                       {QStringLiteral("title"), QStringLiteral("Fake Window")},
                                                       {QStringLiteral("x"), 40},
                                                       {QStringLiteral("y"), 50}});
    EXPECT_FALSE(toolIsError(moved)) << toolText(moved).toStdString();
    EXPECT_TRUE(host.desktop().effects().join(QLatin1Char(' ')).contains(QStringLiteral("window:move")))
        << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
    // A chord the host cannot press is the tool's bad argument, not a failed run.
    EXPECT_EQ(rpcErrorCode(callTool(QStringLiteral("hotkey"),
                                    QJsonObject{{QStringLiteral("keys"), QStringLiteral("ctrl,nosuchkey")}})),
              -32602);

    const QJsonObject seen = callTool(QStringLiteral("see"), {});
    const QJsonArray content =
        seen.value(QStringLiteral("result")).toObject().value(QStringLiteral("content")).toArray();
    ASSERT_EQ(content.size(), 2) << QJsonDocument(seen).toJson().toStdString();
    EXPECT_EQ(content.at(1).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("image"));
    EXPECT_EQ(content.at(1).toObject().value(QStringLiteral("mimeType")).toString(), QStringLiteral("image/png"));
    EXPECT_TRUE(QByteArray::fromBase64(content.at(1).toObject().value(QStringLiteral("data")).toString().toLatin1())
                    .startsWith("\x89PNG"));
}

TEST_F(RemoteAgentTest, AToolThatRanAndFailedIsAnErrorResultWithTheFacts)
{
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    host.desktop().clearEffects();
    const QJsonObject missing =
        callTool(QStringLiteral("click"), QJsonObject{{QStringLiteral("query"), QStringLiteral("No such button")}});
    EXPECT_TRUE(toolIsError(missing)) << QJsonDocument(missing).toJson().toStdString();
    EXPECT_TRUE(toolText(missing).contains(QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

TEST_F(RemoteAgentTest, BadRequestsGetTheSeedsErrorCodesAndTheConnectionGoesOn)
{
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    EXPECT_EQ(rpcErrorCode(callTool(QStringLiteral("no_such_tool"), {})), -32002);
    const QJsonObject dock = callTool(QStringLiteral("dock"), {});
    EXPECT_EQ(rpcErrorCode(dock), -32002);
    EXPECT_TRUE(dock.value(QStringLiteral("error"))
                    .toObject()
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("not supported")));
    EXPECT_EQ(rpcErrorCode(
                  callTool(QStringLiteral("click"), QJsonObject{{QStringLiteral("coords"), QStringLiteral("here")}})),
              -32602);
    EXPECT_EQ(rpcErrorCode(callTool(QStringLiteral("type"), {})), -32602);
    EXPECT_EQ(
        rpcErrorCode(callTool(QStringLiteral("click"), QJsonObject{{QStringLiteral("selector"), QStringLiteral("x")}})),
        -32602);
    EXPECT_EQ(rpcErrorCode(server.call(QStringLiteral("tools/call"), QJsonObject{{QStringLiteral("arguments"), 3}})),
              -32602);
    EXPECT_EQ(rpcErrorCode(server.call(QStringLiteral("desktop.click"), {})), -32601);

    server.sendRaw("this is not json\n");
    const auto parseError = server.read();
    ASSERT_TRUE(parseError);
    EXPECT_EQ(rpcErrorCode(*parseError), -32700);
    EXPECT_TRUE(parseError->value(QStringLiteral("id")).isNull());
    server.sendRaw("[1,2]\n");
    const auto notObject = server.read();
    ASSERT_TRUE(notObject);
    EXPECT_EQ(rpcErrorCode(*notObject), -32600);
    server.sendRaw("{\"jsonrpc\":\"1.0\",\"method\":\"ping\",\"id\":9}\n");
    const auto badVersion = server.read();
    ASSERT_TRUE(badVersion);
    EXPECT_EQ(rpcErrorCode(*badVersion), -32600);
    EXPECT_TRUE(server.call(QStringLiteral("ping"), {})
                    .value(QStringLiteral("result"))
                    .toObject()
                    .value(QStringLiteral("pong"))
                    .toBool())
        << "the connection survives bad lines";
    EXPECT_EQ(status().value(QStringLiteral("state")).toString(), QStringLiteral("connected"));
}

TEST_F(RemoteAgentTest, AHugeLineIsRefusedAndTheAgentReconnects)
{
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    // 20 MB on one line: refused once the agent's limit is passed, the connection closed.
    const QByteArray chunk(qsizetype(1024) * 1024, 'x');
    QByteArray huge = "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1,\"pad\":\"";
    for (int i = 0; i < 20; ++i)
        huge += chunk;
    huge += "\"}\n";
    server.sendRaw(huge);
    const auto refused = server.read();
    ASSERT_TRUE(refused);
    EXPECT_EQ(rpcErrorCode(*refused), -32600);
    EXPECT_TRUE(server.waitClosed());
    // It comes back, with the token it was given.
    ASSERT_TRUE(server.accept());
    const auto auth = server.read();
    ASSERT_TRUE(auth);
    EXPECT_EQ(auth->value(QStringLiteral("params")).toObject().value(QStringLiteral("deviceToken")).toString(),
              QStringLiteral("token-1"));
    server.answerAuth(*auth);
    ASSERT_TRUE(waitState(QStringLiteral("connected")));
    EXPECT_TRUE(server.call(QStringLiteral("ping"), {})
                    .value(QStringLiteral("result"))
                    .toObject()
                    .value(QStringLiteral("pong"))
                    .toBool());
}

TEST_F(RemoteAgentTest, AConnectionClosedMidMessageIsDroppedAndDialledAgain)
{
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    server.sendRaw("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"click\",\"argu");
    server.closeClient();
    ASSERT_TRUE(server.accept());
    const auto auth = server.read();
    ASSERT_TRUE(auth);
    server.answerAuth(*auth);
    ASSERT_TRUE(waitState(QStringLiteral("connected")));
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << "half a command never runs";
}

TEST_F(RemoteAgentTest, BacksOffDoublingUpTo30SecondsAndGivesUpAfterMaxRetries)
{
    Remote::RemoteConfig c = config();
    c.maxRetries = 8;
    server.stop(); // nobody listens: every attempt is refused at once
    start(c);
    ASSERT_TRUE(waitState(QStringLiteral("failed"), 15000)) << QJsonDocument(status()).toJson().toStdString();
    EXPECT_EQ(recordedDelays(), (QList<int>{1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000}));
    EXPECT_TRUE(status().value(QStringLiteral("lastError")).toString().contains(QStringLiteral("8")));
}

TEST_F(RemoteAgentTest, ARefusedTokenIsForgottenAndABindCodeAskedFor)
{
    {
        QMutexLocker lock(&tokens->mutex);
        tokens->tokens.insert(tokenKey(), QStringLiteral("revoked"));
    }
    start(config(), QString());
    ASSERT_TRUE(server.accept());
    const auto auth = server.read();
    ASSERT_TRUE(auth);
    EXPECT_EQ(auth->value(QStringLiteral("params")).toObject().value(QStringLiteral("deviceToken")).toString(),
              QStringLiteral("revoked"));
    server.refuseAuth(*auth, QStringLiteral("Authentication failed: invalid device token"));
    ASSERT_TRUE(waitState(QStringLiteral("needs_bind_code")));
    EXPECT_TRUE(
        status().value(QStringLiteral("lastError")).toString().contains(QStringLiteral("invalid device token")));
    QDeadlineTimer removed(5000);
    while (!storedToken().isEmpty() && !removed.hasExpired())
        QThread::msleep(10);
    EXPECT_TRUE(storedToken().isEmpty()) << "a refused token is forgotten";
    EXPECT_FALSE(server.accept(500)) << "no retry with a token the server refused";

    // A person types the new bind code (the tray's prompt).
    host.onHostThread([this](Bridge::Host&) { agent->useBindCode(QStringLiteral("NEW999")); });
    ASSERT_TRUE(server.accept());
    const auto rebind = server.read();
    ASSERT_TRUE(rebind);
    EXPECT_EQ(rebind->value(QStringLiteral("params")).toObject().value(QStringLiteral("bindCode")).toString(),
              QStringLiteral("NEW999"));
}

TEST_F(RemoteAgentTest, ARefusedBindCodeIsShownAsSuch)
{
    start(config());
    ASSERT_TRUE(server.accept());
    const auto auth = server.read();
    ASSERT_TRUE(auth);
    server.refuseAuth(*auth, QStringLiteral("Authentication failed: invalid or expired bind code"));
    ASSERT_TRUE(waitState(QStringLiteral("needs_bind_code")));
    const QString error = status().value(QStringLiteral("lastError")).toString();
    EXPECT_TRUE(error.contains(QStringLiteral("bind code was refused"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("invalid or expired bind code"))) << error.toStdString();
}

TEST_F(RemoteAgentTest, WithoutAKeyringItDoesNotConnect)
{
    {
        QMutexLocker lock(&tokens->mutex);
        tokens->failWith = Remote::TokenStore::Status::NoKeyring;
    }
    start(config());
    ASSERT_TRUE(waitState(QStringLiteral("failed")));
    EXPECT_TRUE(status().value(QStringLiteral("lastError")).toString().contains(QStringLiteral("keyring")));
    EXPECT_FALSE(server.accept(1000)) << "no connection without a safe place for the token";
}

TEST_F(RemoteAgentTest, DesktopStopAbortsARemoteCall)
{
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    const int id = 4242;
    server.send(QJsonObject{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("method"), QStringLiteral("tools/call")},
        {QStringLiteral("params"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("wait")},
                     {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Never there")},
                                                               {QStringLiteral("timeout_ms"), 30000}}}}},
        {QStringLiteral("id"), id}});
    TestClient local(host.socketPath());
    QDeadlineTimer running(10000);
    while (!running.hasExpired()) {
        const QJsonObject health =
            resultOf(local.call(QStringLiteral("desktop.health"), TestClient::withMeta({}, host.workspace())));
        if (health.value(QStringLiteral("bridge")).toObject().value(QStringLiteral("running")).toBool())
            break;
        QThread::msleep(20);
    }
    const QJsonObject stopped = local.call(QStringLiteral("desktop.stop"), TestClient::withMeta({}, host.workspace()));
    EXPECT_EQ(resultOf(stopped).value(QStringLiteral("aborted")).toInt(), 1)
        << QJsonDocument(stopped).toJson().toStdString();
    const auto answer = server.read();
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->value(QStringLiteral("id")), QJsonValue(id));
    EXPECT_TRUE(toolIsError(*answer));
    EXPECT_TRUE(toolText(*answer).contains(QStringLiteral("DESKTOP_ABORTED"))) << toolText(*answer).toStdString();
    // Paused: a side effect from the server is refused until a person resumes.
    host.desktop().clearEffects();
    const QJsonObject refused =
        callTool(QStringLiteral("click"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")}});
    EXPECT_TRUE(toolIsError(refused));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
    host.onHostThread([](Bridge::Host& h) { h.resume(); });
}

TEST_F(RemoteAgentTest, HealthAndTheRemoteMethodsShowAndSteerTheConnection)
{
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    TestClient local(host.socketPath());
    const QJsonObject health =
        resultOf(local.call(QStringLiteral("desktop.health"), TestClient::withMeta({}, host.workspace())));
    const QJsonObject remote = health.value(QStringLiteral("remote")).toObject();
    EXPECT_EQ(remote.value(QStringLiteral("state")).toString(), QStringLiteral("connected"));
    EXPECT_EQ(remote.value(QStringLiteral("server")).toString(), QStringLiteral("127.0.0.1:%1").arg(server.port()));
    EXPECT_EQ(remote.value(QStringLiteral("confirmPolicy")).toString(), QStringLiteral("auto"));

    const QJsonObject off =
        resultOf(local.call(QStringLiteral("desktop.remote.disconnect"), TestClient::withMeta({}, host.workspace())));
    EXPECT_EQ(off.value(QStringLiteral("state")).toString(), QStringLiteral("off"));
    EXPECT_TRUE(server.waitClosed());

    // Under the auto policy, only a person may choose the server.
    const QJsonObject refusedConnect =
        local.call(QStringLiteral("desktop.remote.connect"),
                   TestClient::withMeta(QJsonObject{{QStringLiteral("host"), QStringLiteral("127.0.0.1")},
                                                    {QStringLiteral("port"), server.port()}},
                                        host.workspace()));
    EXPECT_EQ(errorCode(refusedConnect), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    EXPECT_EQ(
        errorOf(refusedConnect).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
        QStringLiteral("remote_policy_auto"));
    EXPECT_EQ(status().value(QStringLiteral("state")).toString(), QStringLiteral("off"));
    host.onHostThread([](Bridge::Host& h) {
        Bridge::SecuritySettings next = h.security();
        next.remoteConfirmPolicy = Bridge::ConfirmPolicy::Ask;
        h.applySecurity(next);
    });

    const QJsonObject again =
        local.call(QStringLiteral("desktop.remote.connect"),
                   TestClient::withMeta(QJsonObject{{QStringLiteral("host"), QStringLiteral("127.0.0.1")},
                                                    {QStringLiteral("port"), server.port()}},
                                        host.workspace()));
    EXPECT_TRUE(again.contains(QStringLiteral("result"))) << QJsonDocument(again).toJson().toStdString();
    ASSERT_TRUE(server.accept());
    const auto auth = server.read();
    ASSERT_TRUE(auth);
    EXPECT_EQ(auth->value(QStringLiteral("params")).toObject().value(QStringLiteral("deviceToken")).toString(),
              QStringLiteral("token-1"));
    server.answerAuth(*auth);
    ASSERT_TRUE(waitState(QStringLiteral("connected")));

    const QJsonObject bad =
        local.call(QStringLiteral("desktop.remote.connect"),
                   TestClient::withMeta(QJsonObject{{QStringLiteral("host"), QStringLiteral("127.0.0.1")},
                                                    {QStringLiteral("port"), server.port()},
                                                    {QStringLiteral("fingerprint"), QStringLiteral("abc")}},
                                        host.workspace()));
    EXPECT_EQ(errorCode(bad), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(status().value(QStringLiteral("state")).toString(), QStringLiteral("connected"))
        << "a refused change changes nothing";

    const QJsonObject forgotten =
        resultOf(local.call(QStringLiteral("desktop.remote.forget"), TestClient::withMeta({}, host.workspace())));
    EXPECT_TRUE(forgotten.value(QStringLiteral("forgotten")).toBool());
    EXPECT_TRUE(storedToken().isEmpty());
    EXPECT_EQ(status().value(QStringLiteral("state")).toString(), QStringLiteral("needs_bind_code"))
        << "the server is still configured: a bind code is asked for";
    EXPECT_EQ(host.auditLines(QStringLiteral("remote_forget")).size(), 1);

    // A bind code given to remote connect is a new registration, even with a token stored.
    {
        QMutexLocker lock(&tokens->mutex);
        tokens->tokens.insert(tokenKey(), QStringLiteral("old-token"));
    }
    local.call(QStringLiteral("desktop.remote.connect"),
               TestClient::withMeta(QJsonObject{{QStringLiteral("host"), QStringLiteral("127.0.0.1")},
                                                {QStringLiteral("port"), server.port()},
                                                {QStringLiteral("bindCode"), QStringLiteral("REBIND")}},
                                    host.workspace()));
    ASSERT_TRUE(server.accept());
    const auto rebind = server.read();
    ASSERT_TRUE(rebind);
    EXPECT_EQ(rebind->value(QStringLiteral("params")).toObject().value(QStringLiteral("bindCode")).toString(),
              QStringLiteral("REBIND"));
    EXPECT_FALSE(rebind->value(QStringLiteral("params")).toObject().contains(QStringLiteral("deviceToken")));
}

TEST_F(RemoteAgentAskTest, ThePersonIsAskedAndTheDialogNamesTheServer)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Deny);
    host.attachRemoteApprover(approver);
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    host.desktop().clearEffects();
    const QJsonObject denied =
        callTool(QStringLiteral("click"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")}});
    EXPECT_TRUE(toolIsError(denied));
    EXPECT_TRUE(toolText(denied).contains(QStringLiteral("DESKTOP_CONFIRM_REQUIRED")))
        << toolText(denied).toStdString();
    ASSERT_EQ(approver.asked().size(), 1);
    const Bridge::ApprovalRequest asked = approver.asked().constFirst();
    EXPECT_EQ(asked.via, QStringLiteral("remote"));
    EXPECT_EQ(asked.client, QStringLiteral("127.0.0.1:%1").arg(server.port()));
    EXPECT_EQ(asked.method, QStringLiteral("desktop.click"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

TEST_F(RemoteAgentAskTest, AServerThatGoesAwayHasItsPendingApprovalWithdrawn)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Never);
    host.attachRemoteApprover(approver);
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    server.send(QJsonObject{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("method"), QStringLiteral("tools/call")},
        {QStringLiteral("params"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("click")},
                     {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")}}}}},
        {QStringLiteral("id"), 7}});
    QDeadlineTimer asked(10000);
    while (approver.asked().isEmpty() && !asked.hasExpired())
        QThread::msleep(10);
    ASSERT_EQ(approver.asked().size(), 1);
    server.closeClient();
    QDeadlineTimer withdrawn(10000);
    while (approver.withdrawn().isEmpty() && !withdrawn.hasExpired())
        QThread::msleep(10);
    EXPECT_EQ(approver.withdrawn().size(), 1) << "nobody is left to act on the answer";
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

// One rule for every element a side effect names: a drag whose end (toTarget) is not there is
// answered as not found, and nobody is asked; with both ends there, the person is asked once.
TEST_F(RemoteAgentAskTest, ADragToAnElementThatIsNotThereAsksNobody)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Deny);
    host.attachRemoteApprover(approver);
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    host.desktop().clearEffects();
    const auto drag = [this](const QString& to) {
        const QJsonObject params{
            {QStringLiteral("gesture"), QStringLiteral("drag")},
            {QStringLiteral("target"),
             QJsonObject{
                 {QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleContains"), QStringLiteral("Send")}}}}},
            {QStringLiteral("toTarget"),
             QJsonObject{{QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleContains"), to}}}}}};
        // Answered on the host thread, perhaps after this test gave up waiting: shared, locked.
        struct Answer
        {
            QMutex mutex;
            std::optional<QJsonObject> response;
        };
        auto answer = std::make_shared<Answer>();
        host.onHostThread([&](Bridge::Host&) {
            agent->toolEngine().call(QStringLiteral("desktop.pointer"), params, true, 10000,
                                     [answer](const QJsonObject& response) {
                                         QMutexLocker lock(&answer->mutex);
                                         answer->response = response;
                                     });
        });
        QDeadlineTimer deadline(15000);
        while (!deadline.hasExpired()) {
            {
                QMutexLocker lock(&answer->mutex);
                if (answer->response)
                    return *answer->response;
            }
            QThread::msleep(10);
        }
        ADD_FAILURE() << "no answer to the drag";
        return QJsonObject{};
    };

    const QJsonObject error = drag(QStringLiteral("NoSuchDropTarget")).value(QStringLiteral("error")).toObject();
    EXPECT_EQ(error.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"))
        << QJsonDocument(error).toJson().toStdString();
    const QJsonObject details = error.value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("not_found_before_asking"));
    EXPECT_EQ(details.value(QStringLiteral("field")).toString(), QStringLiteral("toTarget"));
    EXPECT_TRUE(approver.asked().isEmpty()) << "nobody is asked about an element that is not there";
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    const QJsonObject refused = drag(QStringLiteral("Message")).value(QStringLiteral("error")).toObject();
    EXPECT_EQ(refused.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"))
        << QJsonDocument(refused).toJson().toStdString();
    ASSERT_EQ(approver.asked().size(), 1);
    EXPECT_EQ(approver.asked().constFirst().method, QStringLiteral("desktop.pointer"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

namespace {

const QString kCertificate = QStringLiteral(MDH_SOURCE_DIR "/tests/data/remote/server-cert.pem");
const QString kKey = QStringLiteral(MDH_SOURCE_DIR "/tests/data/remote/server-key.pem");
const QString kFingerprint =
    QStringLiteral("7A:F7:6D:68:89:E0:23:49:C3:92:65:EF:D2:DD:75:A2:EE:BB:23:74:33:E3:CB:68:D3:"
                   "D7:F6:D1:48:5D:29:E3");

} // namespace

TEST_F(RemoteAgentTest, SpeaksTlsToAServerWithThePinnedCertificate)
{
    ASSERT_TRUE(server.useTls(kCertificate, kKey));
    {
        // A token got over plain TCP belongs to that way of reaching the server only.
        QMutexLocker lock(&tokens->mutex);
        tokens->tokens.insert(tokenKey(), QStringLiteral("tcp-token"));
    }
    Remote::RemoteConfig c = config();
    c.tls = true;
    c.fingerprint = kFingerprint;
    start(c);
    ASSERT_TRUE(server.accept()) << server.tlsError().toStdString();
    const auto auth = server.read();
    EXPECT_FALSE(auth.value_or(QJsonObject())
                     .value(QStringLiteral("params"))
                     .toObject()
                     .contains(QStringLiteral("deviceToken")));
    ASSERT_TRUE(auth);
    EXPECT_EQ(auth->value(QStringLiteral("params")).toObject().value(QStringLiteral("bindCode")).toString(),
              QString::fromLatin1(kBindCode));
    server.answerAuth(*auth);
    ASSERT_TRUE(waitState(QStringLiteral("connected")));
    EXPECT_TRUE(status().value(QStringLiteral("server")).toString().endsWith(QStringLiteral("(TLS)")));
    EXPECT_TRUE(server.call(QStringLiteral("ping"), {})
                    .value(QStringLiteral("result"))
                    .toObject()
                    .value(QStringLiteral("pong"))
                    .toBool());
}

TEST_F(RemoteAgentTest, RefusesACertificateThatIsNotThePinnedOne)
{
    ASSERT_TRUE(server.useTls(kCertificate, kKey));
    Remote::RemoteConfig c = config();
    c.tls = true;
    c.fingerprint = QString(64, QLatin1Char('a'));
    start(c);
    server.accept(5000);
    ASSERT_TRUE(waitState(QStringLiteral("failed")));
    EXPECT_TRUE(status().value(QStringLiteral("lastError")).toString().contains(QStringLiteral("not the pinned one")))
        << QJsonDocument(status()).toJson().toStdString();
    EXPECT_FALSE(server.read(500)) << "no auth, no bind code sent to an unknown server";
}

TEST_F(RemoteAgentTest, AnUntrustedCertificateWithoutAPinIsNotSpokenTo)
{
    ASSERT_TRUE(server.useTls(kCertificate, kKey));
    Remote::RemoteConfig c = config();
    c.tls = true;
    start(c);
    server.accept(5000);
    ASSERT_TRUE(waitState(QStringLiteral("failed"))) << QJsonDocument(status()).toJson().toStdString();
    const QString error = status().value(QStringLiteral("lastError")).toString();
    EXPECT_TRUE(error.contains(QStringLiteral("not trusted"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("7af76d6889e02349"))) << "names the fingerprint to pin";
    EXPECT_FALSE(server.read(500)) << "the handshake failed before any line";
    EXPECT_TRUE(recordedDelays().isEmpty()) << "a certificate fault is not retried";
}

// The owner's rules decide for the remote agent as for any client (docs/protocol.md, "Policy"):
// a rule denying clicks in Fake App refuses the server's click, naming the rule; nothing is pressed.
TEST_F(RemoteAgentTest, TheOwnersRuleRefusesTheServersClick)
{
    auto rules = Bridge::OwnerPolicy::fromJson(QJsonDocument::fromJson(R"({"rules": [
        {"name": "no-clicks-in-fake", "app": {"name": "Fake App"}, "classes": ["pointer"], "decision": "deny"}]})")
                                                   .object());
    ASSERT_TRUE(rules.ok());
    host.onHostThread([&](Bridge::Host& h) { h.setOwnerPolicy(rules.value()); });
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    host.desktop().clearEffects();
    const QJsonObject clicked =
        callTool(QStringLiteral("click"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")}});
    EXPECT_TRUE(toolIsError(clicked)) << QJsonDocument(clicked).toJson().toStdString();
    EXPECT_TRUE(toolText(clicked).contains(QStringLiteral("DESKTOP_CALLER_FORBIDDEN")))
        << toolText(clicked).toStdString();
    EXPECT_TRUE(toolText(clicked).contains(QStringLiteral("no-clicks-in-fake"))) << toolText(clicked).toStdString();
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
}

// Peekaboo's clipboard tool: set is a side effect the remote policy approves, get reads it back.
TEST_F(RemoteAgentTest, TheClipboardToolSetsAndGets)
{
    start(config());
    ASSERT_FALSE(connectAgent().isEmpty());
    const QJsonObject set =
        callTool(QStringLiteral("clipboard"), QJsonObject{{QStringLiteral("action"), QStringLiteral("set")},
                                                          {QStringLiteral("text"), QStringLiteral("from the server")}});
    EXPECT_FALSE(toolIsError(set)) << toolText(set).toStdString();
    EXPECT_EQ(host.desktop().clipboard().text.value_or(QString()), QStringLiteral("from the server"));
    const QJsonObject got =
        callTool(QStringLiteral("clipboard"), QJsonObject{{QStringLiteral("action"), QStringLiteral("get")},
                                                          {QStringLiteral("redaction"), QStringLiteral("none")}});
    EXPECT_FALSE(toolIsError(got)) << toolText(got).toStdString();
    EXPECT_TRUE(QJsonDocument(got).toJson().contains("from the server")) << QJsonDocument(got).toJson().toStdString();
}
