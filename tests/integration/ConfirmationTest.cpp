// Confirmation over a real socket: desktop.confirm.issue per docs/protocol.md §5.10,
// every refusal reason, tokens across processes and connections, the approval policies and the
// audit lines each of them leaves.
#include "HostProcess.h"
#include "TestHost.h"
#include "bridge/protocol/CanonicalJson.h"
#include "bridge/protocol/Meta.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace Testing;
using Bridge::ConfirmPolicy;

namespace {

TestHost::Options policy(ConfirmPolicy confirmPolicy, bool requireToken = false)
{
    TestHost::Options options;
    options.security.confirmPolicy = confirmPolicy;
    options.security.requireToken = requireToken;
    return options;
}

QJsonObject meta(const TestHost& host, QString requestId = newRequestId(), int timeoutMs = 60000)
{
    return Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = timeoutMs, .requestId = requestId});
}

QJsonObject clickSend()
{
    return QJsonObject{{QStringLiteral("target"),
                        QJsonObject{{QStringLiteral("selector"),
                                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                 {QStringLiteral("titleEquals"), QStringLiteral("Send")}}}}}};
}

QJsonObject typeInto(const QString& text)
{
    return QJsonObject{{QStringLiteral("target"),
                        QJsonObject{{QStringLiteral("selector"),
                                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                                 {QStringLiteral("titleEquals"), QStringLiteral("Message")}}}}},
                       {QStringLiteral("text"), text}};
}

QJsonObject hotkeyEnter()
{
    return QJsonObject{{QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}}};
}

QJsonObject issueParams(const TestHost& host, const QString& method, const QJsonObject& intentParams,
                        std::optional<QJsonValue> ttlMs = std::nullopt)
{
    QJsonObject params{{QStringLiteral("meta"), meta(host)},
                       {QStringLiteral("intent"),
                        QJsonObject{{QStringLiteral("method"), method}, {QStringLiteral("params"), intentParams}}}};
    if (ttlMs)
        params.insert(QStringLiteral("ttlMs"), *ttlMs);
    return params;
}

QString tokenOf(const QJsonObject& response)
{
    return resultOf(response).value(QStringLiteral("token")).toString();
}

QString issueToken(TestClient& client, const TestHost& host, const QString& method, const QJsonObject& intentParams)
{
    const QJsonObject response =
        client.call(QStringLiteral("desktop.confirm.issue"), issueParams(host, method, intentParams));
    EXPECT_FALSE(tokenOf(response).isEmpty()) << QJsonDocument(response).toJson().constData();
    return tokenOf(response);
}

/// The side-effect params with meta and a confirm block.
QJsonObject confirmed(const TestHost& host, QJsonObject params, const QJsonObject& confirm,
                      QString requestId = newRequestId())
{
    params.insert(QStringLiteral("meta"), meta(host, requestId));
    params.insert(QStringLiteral("confirm"), confirm);
    return params;
}

QJsonObject token(const QString& t)
{
    return QJsonObject{{QStringLiteral("token"), t}};
}

QString reasonOf(const QJsonObject& response)
{
    return errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString();
}

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

/// The refusal reasons docs/protocol.md §4.2 lists; every refusal must use one of them.
const QStringList kReasons{QStringLiteral("missing"),         QStringLiteral("unknown_token"),
                           QStringLiteral("expired"),         QStringLiteral("used"),
                           QStringLiteral("peer_mismatch"),   QStringLiteral("method_mismatch"),
                           QStringLiteral("params_mismatch"), QStringLiteral("phrase_mismatch"),
                           QStringLiteral("phrase_disabled"), QStringLiteral("denied"),
                           QStringLiteral("paused")};

void expectRefused(const QJsonObject& response, const QString& reason)
{
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(response);
    EXPECT_EQ(reasonOf(response), reason) << dump(response);
    EXPECT_TRUE(kReasons.contains(reasonOf(response)));
    EXPECT_FALSE(errorOf(response).value(QStringLiteral("retryable")).toBool());
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

CommandResult ctl(const TestHost& host, const QStringList& args)
{
    return runCommand(QStringLiteral(MDH_CTL_BINARY),
                      QStringList{QStringLiteral("--socket"), host.socketPath(), QStringLiteral("--workspace"),
                                  host.workspace(), QStringLiteral("--json")} +
                          args);
}

} // namespace

TEST(Confirmation, IssueAnswersExactlyTheContractShape)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    const QJsonObject health =
        resultOf(client.call(QStringLiteral("desktop.health"), QJsonObject{{QStringLiteral("meta"), meta(host)}}));
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const QJsonObject response =
        client.call(QStringLiteral("desktop.confirm.issue"),
                    issueParams(host, QStringLiteral("desktop.typeText"), typeInto(QStringLiteral("hello world"))));
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    const QJsonObject result = resultOf(response);
    ASSERT_FALSE(result.isEmpty()) << dump(response);
    QStringList keys = result.keys();
    EXPECT_EQ(keys, (QStringList{QStringLiteral("expiresAt"), QStringLiteral("peer"), QStringLiteral("scope"),
                                 QStringLiteral("token")}));
    static const QRegularExpression uuidV4(
        QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"));
    EXPECT_TRUE(uuidV4.match(result.value(QStringLiteral("token")).toString()).hasMatch());

    const QString expiresAt = result.value(QStringLiteral("expiresAt")).toString();
    EXPECT_TRUE(expiresAt.endsWith(QLatin1Char('Z'))) << expiresAt.toStdString();
    const QDateTime expires = QDateTime::fromString(expiresAt, Qt::ISODateWithMs);
    ASSERT_TRUE(expires.isValid());
    EXPECT_EQ(expires.timeSpec(), Qt::UTC);
    EXPECT_GE(expires.toMSecsSinceEpoch(), before + 60000); // default TTL 60 s
    EXPECT_LE(expires.toMSecsSinceEpoch(), after + 60000);

    const QJsonObject scope = result.value(QStringLiteral("scope")).toObject();
    EXPECT_EQ(scope, (QJsonObject{{QStringLiteral("method"), QStringLiteral("desktop.typeText")},
                                  {QStringLiteral("paramsDigest"),
                                   Bridge::CanonicalJson::paramsDigest(typeInto(QStringLiteral("hello world")))}}));
    EXPECT_EQ(scope.value(QStringLiteral("paramsDigest")).toString().size(), 16);
    const QJsonObject peer = result.value(QStringLiteral("peer")).toObject();
    EXPECT_EQ(peer.keys(), (QStringList{QStringLiteral("auditTokenDigest"), QStringLiteral("pid")}));
    EXPECT_EQ(peer.value(QStringLiteral("pid")).toInteger(), QCoreApplication::applicationPid());
    EXPECT_EQ(peer.value(QStringLiteral("auditTokenDigest")).toString(),
              health.value(QStringLiteral("peer")).toObject().value(QStringLiteral("auditTokenDigest")).toString());
}

TEST(Confirmation, TtlIsBoundedBySetting)
{
    TestHost::Options options = policy(ConfirmPolicy::Auto);
    options.security.maxTokenTtlMs = 5000;
    TestHost host(options);
    TestClient client(host.socketPath());
    for (const QJsonValue& bad : {QJsonValue(0), QJsonValue(-1), QJsonValue(1.5), QJsonValue(5001),
                                  QJsonValue(QStringLiteral("60000")), QJsonValue(true)}) {
        const QJsonObject response = client.call(QStringLiteral("desktop.confirm.issue"),
                                                 issueParams(host, QStringLiteral("desktop.click"), clickSend(), bad));
        EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(response);
        EXPECT_EQ(
            errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
            QStringLiteral("ttlMs"));
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QJsonObject max =
        resultOf(client.call(QStringLiteral("desktop.confirm.issue"),
                             issueParams(host, QStringLiteral("desktop.click"), clickSend(), 5000)));
    const qint64 expires =
        QDateTime::fromString(max.value(QStringLiteral("expiresAt")).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
    EXPECT_NEAR(static_cast<double>(expires - now), 5000.0, 2000.0);
    // Without ttlMs the default (60 s) is capped by the setting too.
    const QJsonObject capped = resultOf(client.call(QStringLiteral("desktop.confirm.issue"),
                                                    issueParams(host, QStringLiteral("desktop.click"), clickSend())));
    const qint64 cappedExpires =
        QDateTime::fromString(capped.value(QStringLiteral("expiresAt")).toString(), Qt::ISODateWithMs)
            .toMSecsSinceEpoch();
    EXPECT_LE(cappedExpires - now, 5000 + 2000);
}

TEST(Confirmation, OnlyARunnableSideEffectIntentGetsAToken)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    struct Row
    {
        QJsonObject params;
        QString field;
    };
    const QList<Row> rows{
        {QJsonObject{{QStringLiteral("meta"), meta(host)}}, QStringLiteral("intent")},
        {issueParams(host, QStringLiteral("desktop.find"),
                     QJsonObject{{QStringLiteral("selector"),
                                  QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")}}}}),
         QStringLiteral("intent.method")},
        {issueParams(host, QStringLiteral("desktop.stop"), {}), QStringLiteral("intent.method")},
        {issueParams(host, QStringLiteral("desktop.nothing"), {}), QStringLiteral("intent.method")},
        {issueParams(host, QStringLiteral("desktop.click"), {}), QStringLiteral("intent.params.target")},
        {issueParams(host, QStringLiteral("desktop.typeText"), clickSend()), QStringLiteral("intent.params.text")},
        {issueParams(host, QStringLiteral("desktop.hotkey"),
                     QJsonObject{{QStringLiteral("keys"), QJsonArray{QStringLiteral("hyper")}}}),
         QStringLiteral("intent.params.keys")},
        {issueParams(host, QStringLiteral("desktop.click"),
                     QJsonObject{{QStringLiteral("target"),
                                  QJsonObject{{QStringLiteral("selector"),
                                               QJsonObject{{QStringLiteral("titleContain"), QStringLiteral("x")}}}}}}),
         QStringLiteral("intent.params.target.selector.titleContain")},
    };
    for (const Row& row : rows) {
        const QJsonObject response = client.call(QStringLiteral("desktop.confirm.issue"), row.params);
        EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(response);
        EXPECT_TRUE(errorOf(response)
                        .value(QStringLiteral("details"))
                        .toObject()
                        .value(QStringLiteral("field"))
                        .toString()
                        .startsWith(row.field))
            << dump(response) << " expected field " << row.field.toStdString();
    }
    EXPECT_TRUE(host.auditLines(QStringLiteral("token_issued")).isEmpty());
}

TEST(Confirmation, TokenLetsTheSideEffectRunOnceThenReplayIsUsed)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    const QString t = issueToken(client, host, QStringLiteral("desktop.click"), clickSend());
    const QString executionId = newRequestId();
    const QJsonObject first =
        client.call(QStringLiteral("desktop.click"), confirmed(host, clickSend(), token(t), executionId));
    EXPECT_TRUE(resultOf(first).value(QStringLiteral("clicked")).toBool()) << dump(first);
    const QJsonObject replay = client.call(QStringLiteral("desktop.click"), confirmed(host, clickSend(), token(t)));
    expectRefused(replay, QStringLiteral("used"));
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("press:Send")});

    // The audit log has the issue and the use; the evidence has the same use line.
    const auto issued = host.auditLines(QStringLiteral("token_issued"));
    const auto used = host.auditLines(QStringLiteral("token_used"));
    const auto refused = host.auditLines(QStringLiteral("token_refused"));
    ASSERT_EQ(issued.size(), 1);
    ASSERT_EQ(used.size(), 1);
    ASSERT_EQ(refused.size(), 1);
    EXPECT_EQ(used[0].value(QStringLiteral("executionId")).toString(), executionId);
    EXPECT_EQ(used[0].value(QStringLiteral("method")).toString(), QStringLiteral("desktop.click"));
    EXPECT_EQ(used[0].value(QStringLiteral("paramsDigest")).toString(),
              Bridge::CanonicalJson::paramsDigest(clickSend()));
    EXPECT_EQ(used[0].value(QStringLiteral("peer")).toObject().value(QStringLiteral("pid")).toInteger(),
              QCoreApplication::applicationPid());
    EXPECT_EQ(used[0].value(QStringLiteral("tokenId")), issued[0].value(QStringLiteral("tokenId")));
    EXPECT_EQ(refused[0].value(QStringLiteral("reason")).toString(), QStringLiteral("used"));
    // The token itself is not in the audit log (a name derived from it is).
    EXPECT_FALSE(readFile(host.dataDir() + QStringLiteral("/audit.jsonl")).contains(t.toUtf8()));

    const QString dir =
        resultOf(first).value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    bool found = false;
    for (const QByteArray& line : readFile(dir + QStringLiteral("trace.jsonl")).split('\n')) {
        const QJsonObject step = QJsonDocument::fromJson(line).object();
        if (step.value(QStringLiteral("step")).toString() == QLatin1String("audit")) {
            const QJsonObject details = step.value(QStringLiteral("details")).toObject();
            found = details.value(QStringLiteral("event")).toString() == QLatin1String("token_used") &&
                    details.value(QStringLiteral("tokenId")) == used[0].value(QStringLiteral("tokenId"));
        }
    }
    EXPECT_TRUE(found) << readFile(dir + QStringLiteral("trace.jsonl")).constData();
    // Nor is it in the evidence's request.json: its id stands there instead.
    const QByteArray request = readFile(dir + QStringLiteral("request.json"));
    EXPECT_FALSE(request.contains(t.toUtf8())) << request.constData();
    EXPECT_EQ(QJsonDocument::fromJson(request)
                  .object()
                  .value(QStringLiteral("params"))
                  .toObject()
                  .value(QStringLiteral("confirm"))
                  .toObject()
                  .value(QStringLiteral("token"))
                  .toObject()
                  .value(QStringLiteral("tokenId")),
              used[0].value(QStringLiteral("tokenId")))
        << request.constData();
}

TEST(Confirmation, EachSideEffectMethodTakesItsToken)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    for (const auto& [method, params] : {std::pair{QStringLiteral("desktop.click"), clickSend()},
                                         std::pair{QStringLiteral("desktop.typeText"), typeInto(QStringLiteral("hi"))},
                                         std::pair{QStringLiteral("desktop.hotkey"), hotkeyEnter()}}) {
        const QString t = issueToken(client, host, method, params);
        const QJsonObject response = client.call(method, confirmed(host, params, token(t)));
        EXPECT_TRUE(errorOf(response).isEmpty()) << method.toStdString() << dump(response);
    }
    EXPECT_EQ(host.desktop().effects().size(), 3);
}

TEST(Confirmation, MissingUnknownAndPhraseReasons)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    QJsonObject noConfirm = clickSend();
    noConfirm.insert(QStringLiteral("meta"), meta(host));
    expectRefused(client.call(QStringLiteral("desktop.click"), noConfirm), QStringLiteral("missing"));
    expectRefused(client.call(QStringLiteral("desktop.click"), confirmed(host, clickSend(), QJsonObject{})),
                  QStringLiteral("missing"));
    expectRefused(
        client.call(QStringLiteral("desktop.click"),
                    confirmed(host, clickSend(), token(QStringLiteral("2c1d7a1e-0000-4000-8000-000000000001")))),
        QStringLiteral("unknown_token"));
    expectRefused(
        client.call(QStringLiteral("desktop.click"),
                    confirmed(host, clickSend(), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("confirm")}})),
        QStringLiteral("phrase_mismatch"));
    // Token beats phrase: a bad token with a good phrase is still refused.
    expectRefused(client.call(QStringLiteral("desktop.click"),
                              confirmed(host, clickSend(),
                                        QJsonObject{{QStringLiteral("token"), newRequestId()},
                                                    {QStringLiteral("phrase"), QStringLiteral("CONFIRM")}})),
                  QStringLiteral("unknown_token"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
    // The phrase still works without requireToken, and is audited.
    EXPECT_TRUE(errorOf(client.call(QStringLiteral("desktop.click"),
                                    confirmed(host, clickSend(),
                                              QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}})))
                    .isEmpty());
    EXPECT_EQ(host.auditLines(QStringLiteral("phrase_used")).size(), 1);
    const auto refused = host.auditLines(QStringLiteral("phrase_refused"));
    ASSERT_EQ(refused.size(), 3);
    EXPECT_EQ(refused[0].value(QStringLiteral("reason")).toString(), QStringLiteral("missing"));
    EXPECT_EQ(refused[2].value(QStringLiteral("reason")).toString(), QStringLiteral("phrase_mismatch"));
    EXPECT_EQ(host.auditLines(QStringLiteral("token_refused")).size(), 2);
}

TEST(Confirmation, RequireTokenDisablesThePhrase)
{
    TestHost host(policy(ConfirmPolicy::Auto, true));
    TestClient client(host.socketPath());
    for (const QString& phrase : {QStringLiteral("CONFIRM"), QStringLiteral("nonsense")}) {
        expectRefused(client.call(QStringLiteral("desktop.click"),
                                  confirmed(host, clickSend(), QJsonObject{{QStringLiteral("phrase"), phrase}})),
                      QStringLiteral("phrase_disabled"));
    }
    QJsonObject noConfirm = clickSend();
    noConfirm.insert(QStringLiteral("meta"), meta(host));
    expectRefused(client.call(QStringLiteral("desktop.click"), noConfirm), QStringLiteral("missing"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
    const QString t = issueToken(client, host, QStringLiteral("desktop.click"), clickSend());
    EXPECT_TRUE(
        errorOf(client.call(QStringLiteral("desktop.click"), confirmed(host, clickSend(), token(t)))).isEmpty());
    EXPECT_EQ(host.auditLines(QStringLiteral("phrase_refused")).size(), 3);
}

TEST(Confirmation, ExpiredOnTheInjectedClock)
{
    // The token store's clock stands still unless the test moves it.
    auto now = std::make_shared<std::atomic<qint64>>(QDateTime::currentMSecsSinceEpoch());
    TestHost::Options options = policy(ConfirmPolicy::Auto);
    options.tokenClock = [now] { return now->load(); };
    TestHost host(options);
    TestClient client(host.socketPath());
    const QJsonObject issued = client.call(QStringLiteral("desktop.confirm.issue"),
                                           issueParams(host, QStringLiteral("desktop.click"), clickSend(), 1000));
    const QJsonObject other = client.call(QStringLiteral("desktop.confirm.issue"),
                                          issueParams(host, QStringLiteral("desktop.click"), clickSend(), 1000));
    *now += 999;
    EXPECT_TRUE(
        errorOf(client.call(QStringLiteral("desktop.click"), confirmed(host, clickSend(), token(tokenOf(issued)))))
            .isEmpty());
    *now += 1;
    const QJsonObject late =
        client.call(QStringLiteral("desktop.click"), confirmed(host, clickSend(), token(tokenOf(other))));
    expectRefused(late, QStringLiteral("expired"));
    EXPECT_EQ(errorOf(late).value(QStringLiteral("details")).toObject().value(QStringLiteral("expiresAt")).toString(),
              resultOf(other).value(QStringLiteral("expiresAt")).toString());
    EXPECT_EQ(host.desktop().effects().size(), 1);
}

TEST(Confirmation, MethodAndParamsAreBound)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    const QJsonObject intent = typeInto(QStringLiteral("hello"));
    const QString t = issueToken(client, host, QStringLiteral("desktop.typeText"), intent);

    expectRefused(client.call(QStringLiteral("desktop.hotkey"), confirmed(host, hotkeyEnter(), token(t))),
                  QStringLiteral("method_mismatch"));
    // A changed value.
    const QJsonObject changed =
        client.call(QStringLiteral("desktop.typeText"), confirmed(host, typeInto(QStringLiteral("hellO")), token(t)));
    expectRefused(changed, QStringLiteral("params_mismatch"));
    EXPECT_EQ(errorOf(changed)
                  .value(QStringLiteral("details"))
                  .toObject()
                  .value(QStringLiteral("tokenParamsDigest"))
                  .toString(),
              Bridge::CanonicalJson::paramsDigest(intent));
    // An added field.
    QJsonObject added = intent;
    added.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}});
    expectRefused(client.call(QStringLiteral("desktop.typeText"), confirmed(host, added, token(t))),
                  QStringLiteral("params_mismatch"));
    // A removed field.
    QJsonObject removed = intent;
    removed.remove(QStringLiteral("target"));
    expectRefused(client.call(QStringLiteral("desktop.typeText"), confirmed(host, removed, token(t))),
                  QStringLiteral("params_mismatch"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    // Refusals did not spend the token; the same params with keys in another order and other
    // spacing are the same params. Sent as raw text so the key order on the wire is ours.
    const QByteArray line =
        QByteArrayLiteral(R"({"id":"raw-1","jsonrpc":"2.0","method":"desktop.typeText","params":{"text" :  "hello",)") +
        R"( "confirm":{"token":")" + t.toUtf8() + R"("}, "meta":)" +
        QJsonDocument(meta(host)).toJson(QJsonDocument::Compact) +
        R"(, "target":{"selector":{"titleEquals":"Message","byRole":"AXTextField"}}}})" + '\n';
    client.sendLine(line);
    const auto response = client.readObject();
    ASSERT_TRUE(response.has_value());
    EXPECT_TRUE(errorOf(*response).isEmpty()) << dump(*response);
    EXPECT_EQ(host.desktop().effects().size(), 1);
    const auto refused = host.auditLines(QStringLiteral("token_refused"));
    ASSERT_EQ(refused.size(), 4);
    EXPECT_EQ(refused[0].value(QStringLiteral("reason")).toString(), QStringLiteral("method_mismatch"));
    EXPECT_EQ(refused[1].value(QStringLiteral("reason")).toString(), QStringLiteral("params_mismatch"));
}

TEST(Confirmation, TokenIsBoundToTheProcessNotTheConnection)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    TestClient issuer(host.socketPath());
    TestClient user(host.socketPath());
    const QString t = issueToken(issuer, host, QStringLiteral("desktop.click"), clickSend());
    // Another connection of the same process is the same peer (pid + start time + exe).
    EXPECT_TRUE(errorOf(user.call(QStringLiteral("desktop.click"), confirmed(host, clickSend(), token(t)))).isEmpty());
}

TEST(Confirmation, TokenIssuedToOneProcessIsRefusedToAnother)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    TestClient client(host.socketPath());

    // Issued to this process, used by the CLI (another process, another connection).
    const QString mine = issueToken(client, host, QStringLiteral("desktop.click"), clickSend());
    QJsonObject withConfirm = clickSend();
    withConfirm.insert(QStringLiteral("confirm"), token(mine));
    const CommandResult stranger =
        ctl(host, {QStringLiteral("call"), QStringLiteral("desktop.click"),
                   QString::fromUtf8(QJsonDocument(withConfirm).toJson(QJsonDocument::Compact))});
    EXPECT_EQ(stranger.exitCode, 1) << stranger.err.toStdString();
    const QJsonObject strangerResponse = QJsonDocument::fromJson(stranger.out.trimmed().toUtf8()).object();
    expectRefused(strangerResponse, QStringLiteral("peer_mismatch"));

    // Issued to the CLI process (which has exited; its pid may even be reused), used here.
    const CommandResult issued = ctl(
        host, {QStringLiteral("call"), QStringLiteral("desktop.confirm.issue"),
               QString::fromUtf8(
                   QJsonDocument(QJsonObject{{QStringLiteral("intent"),
                                              QJsonObject{{QStringLiteral("method"), QStringLiteral("desktop.click")},
                                                          {QStringLiteral("params"), clickSend()}}}})
                       .toJson(QJsonDocument::Compact))});
    ASSERT_EQ(issued.exitCode, 0) << issued.err.toStdString();
    const QJsonObject theirs = resultOf(QJsonDocument::fromJson(issued.out.trimmed().toUtf8()).object());
    EXPECT_NE(theirs.value(QStringLiteral("peer")).toObject().value(QStringLiteral("pid")).toInteger(),
              QCoreApplication::applicationPid());
    expectRefused(client.call(QStringLiteral("desktop.click"),
                              confirmed(host, clickSend(), token(theirs.value(QStringLiteral("token")).toString()))),
                  QStringLiteral("peer_mismatch"));

    // Refusal spends nothing: the rightful owner still can.
    EXPECT_TRUE(
        errorOf(client.call(QStringLiteral("desktop.click"), confirmed(host, clickSend(), token(mine)))).isEmpty());
    EXPECT_EQ(host.desktop().effects().size(), 1);
    const auto refused = host.auditLines(QStringLiteral("token_refused"));
    ASSERT_EQ(refused.size(), 2);
    EXPECT_EQ(refused[0].value(QStringLiteral("reason")).toString(), QStringLiteral("peer_mismatch"));
    EXPECT_NE(refused[0].value(QStringLiteral("peer")).toObject().value(QStringLiteral("pid")).toInteger(),
              QCoreApplication::applicationPid());
}

TEST(Confirmation, ConnectionsRacingForOneTokenLetExactlyOneThrough)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    constexpr int kRounds = 10;
    constexpr int kClients = 8;
    for (int round = 0; round < kRounds; ++round) {
        TestClient issuer(host.socketPath());
        const QString t = issueToken(issuer, host, QStringLiteral("desktop.click"), clickSend());
        std::atomic<int> ready{0}, ok{0}, used{0}, other{0};
        std::vector<std::thread> threads;
        for (int c = 0; c < kClients; ++c) {
            threads.emplace_back([&] {
                TestClient client(host.socketPath());
                const QJsonObject params = confirmed(host, clickSend(), token(t));
                ++ready;
                while (ready.load() < kClients)
                    std::this_thread::yield();
                const QJsonObject response = client.call(QStringLiteral("desktop.click"), params, 30000);
                if (errorOf(response).isEmpty() && !response.isEmpty())
                    ++ok;
                else if (reasonOf(response) == QLatin1String("used"))
                    ++used;
                else
                    ++other;
            });
        }
        for (auto& thread : threads)
            thread.join();
        ASSERT_EQ(ok.load(), 1) << "round " << round;
        ASSERT_EQ(used.load(), kClients - 1) << "round " << round;
        ASSERT_EQ(other.load(), 0);
    }
    EXPECT_EQ(host.desktop().effects().size(), kRounds);
    EXPECT_EQ(host.auditLines(QStringLiteral("token_used")).size(), kRounds);
}

TEST(Confirmation, DenyPolicyIssuesNothing)
{
    TestHost host(policy(ConfirmPolicy::Deny));
    TestClient client(host.socketPath());
    const QJsonObject response = client.call(QStringLiteral("desktop.confirm.issue"),
                                             issueParams(host, QStringLiteral("desktop.click"), clickSend()));
    expectRefused(response, QStringLiteral("denied"));
    const QJsonObject details = errorOf(response).value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("decision")).toString(), QStringLiteral("policy"));
    EXPECT_EQ(details.value(QStringLiteral("policy")).toString(), QStringLiteral("deny"));
    const auto approvals = host.auditLines(QStringLiteral("approval"));
    ASSERT_EQ(approvals.size(), 1);
    EXPECT_EQ(approvals[0].value(QStringLiteral("decision")).toString(), QStringLiteral("denied"));
    EXPECT_EQ(approvals[0].value(QStringLiteral("decidedBy")).toString(), QStringLiteral("policy"));
    EXPECT_EQ(approvals[0].value(QStringLiteral("kind")).toString(), QStringLiteral("token"));
    EXPECT_TRUE(host.auditLines(QStringLiteral("token_issued")).isEmpty());
}

TEST(Confirmation, AskWithoutGuiDenies)
{
    TestHost host(policy(ConfirmPolicy::Ask));
    TestClient client(host.socketPath());
    const QJsonObject response = client.call(QStringLiteral("desktop.confirm.issue"),
                                             issueParams(host, QStringLiteral("desktop.click"), clickSend()));
    expectRefused(response, QStringLiteral("denied"));
    EXPECT_EQ(
        errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("decision")).toString(),
        QStringLiteral("no_approver"));
    ASSERT_EQ(host.auditLines(QStringLiteral("approval")).size(), 1);
    EXPECT_EQ(host.auditLines(QStringLiteral("approval"))[0].value(QStringLiteral("decidedBy")).toString(),
              QStringLiteral("no_approver"));
}

TEST(Confirmation, AskedPersonSeesWhoAndWhatAndApproves)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Approve, 50);
    TestHost host(policy(ConfirmPolicy::Ask));
    host.attachApprover(approver);
    TestClient client(host.socketPath());
    const QString secret = QStringLiteral("correct horse battery staple, the whole passphrase");
    const QJsonObject intent = typeInto(secret);
    const QJsonObject response = client.call(QStringLiteral("desktop.confirm.issue"),
                                             issueParams(host, QStringLiteral("desktop.typeText"), intent));
    ASSERT_FALSE(tokenOf(response).isEmpty()) << dump(response);

    ASSERT_EQ(approver.asked().size(), 1);
    const Bridge::ApprovalRequest asked = approver.asked().constFirst();
    EXPECT_EQ(asked.kind, Bridge::ApprovalRequest::Kind::Token);
    EXPECT_EQ(asked.peer.pid, QCoreApplication::applicationPid());
    EXPECT_EQ(asked.peer.executable, QCoreApplication::applicationFilePath());
    EXPECT_EQ(asked.peer.auditTokenDigest.size(), 8);
    EXPECT_EQ(asked.method, QStringLiteral("desktop.typeText"));
    EXPECT_EQ(asked.paramsDigest, Bridge::CanonicalJson::paramsDigest(intent));
    EXPECT_EQ(asked.target.value(QStringLiteral("element"))
                  .toObject()
                  .value(QStringLiteral("selector"))
                  .toObject()
                  .value(QStringLiteral("titleEquals"))
                  .toString(),
              QStringLiteral("Message"));
    EXPECT_EQ(asked.textLength, secret.size());
    EXPECT_TRUE(asked.textMasked); // long
    EXPECT_FALSE(asked.textPreview->contains(QStringLiteral("horse")));
    EXPECT_EQ(asked.timeoutMs, Bridge::SecuritySettings::kDefaultApprovalTimeoutMs);
    EXPECT_TRUE(asked.expiresAt.isValid());

    const auto approvals = host.auditLines(QStringLiteral("approval"));
    ASSERT_EQ(approvals.size(), 1);
    EXPECT_EQ(approvals[0].value(QStringLiteral("decision")).toString(), QStringLiteral("approved"));
    EXPECT_EQ(approvals[0].value(QStringLiteral("decidedBy")).toString(), QStringLiteral("user"));
    // The typed text reaches neither the audit log nor the evidence.
    EXPECT_TRUE(
        errorOf(client.call(QStringLiteral("desktop.typeText"), confirmed(host, intent, token(tokenOf(response)))))
            .isEmpty());
    EXPECT_FALSE(readFile(host.dataDir() + QStringLiteral("/audit.jsonl")).contains("horse"));
}

// A password field whose title has no password-like word: only looking at the element can
// tell, and the host looks before the dialog opens (docs/architecture.md, "Secure elements").
QList<Automation::Node> treeWithKennwort(bool focusSecret = false)
{
    QList<Automation::Node> nodes = FakeDesktop::defaultTree();
    for (auto& node : nodes) {
        if (node.isSecure()) {
            node.title = QStringLiteral("Kennwort");
            if (focusSecret)
                node.states |= Automation::StateFocused;
        }
    }
    return nodes;
}

Bridge::ApprovalRequest askedFor(const QJsonObject& intent, const std::function<void(TestHost&)>& prepare = {},
                                 TestHost::Options options = policy(ConfirmPolicy::Ask))
{
    ScriptedApprover approver(ScriptedApprover::Mode::Deny, 10);
    TestHost host(std::move(options));
    host.attachApprover(approver);
    host.desktop().setTree(treeWithKennwort());
    if (prepare)
        prepare(host);
    TestClient client(host.socketPath());
    client.call(QStringLiteral("desktop.confirm.issue"), issueParams(host, QStringLiteral("desktop.typeText"), intent));
    const auto asked = approver.asked();
    return asked.isEmpty() ? Bridge::ApprovalRequest{} : asked.constFirst();
}

QJsonObject typeIntoSelector(const QJsonObject& selector, const QString& text)
{
    return QJsonObject{{QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), selector}}},
                       {QStringLiteral("text"), text}};
}

TEST(Confirmation, DialogHidesTextForASecureElementFoundByLookingAtIt)
{
    const auto asked =
        askedFor(typeIntoSelector(QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                              {QStringLiteral("titleEquals"), QStringLiteral("Kennwort")}},
                                  QStringLiteral("hunter2")));
    ASSERT_TRUE(asked.textPreview.has_value());
    EXPECT_TRUE(asked.textMasked);
    EXPECT_EQ(asked.textMaskReason, QStringLiteral("secure_element"));
    EXPECT_FALSE(asked.textPreview->contains(QStringLiteral("hunter")));
}

TEST(Confirmation, DialogShowsShortTextForAnOrdinaryField)
{
    const auto asked = askedFor(typeInto(QStringLiteral("hello")));
    ASSERT_TRUE(asked.textPreview.has_value());
    EXPECT_FALSE(asked.textMasked) << asked.textMaskReason.toStdString();
    EXPECT_EQ(*asked.textPreview, QStringLiteral("hello"));
}

TEST(Confirmation, DialogHidesTextWhenTheTargetCannotBeFound)
{
    const auto asked = askedFor(typeIntoSelector(
        QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Nowhere")}}, QStringLiteral("hello")));
    EXPECT_TRUE(asked.textMasked);
    EXPECT_EQ(asked.textMaskReason, QStringLiteral("unresolved"));
}

TEST(Confirmation, DialogHidesUntargetedTextWhenTheFocusedElementIsSecure)
{
    const QJsonObject intent{{QStringLiteral("text"), QStringLiteral("hello")}};
    const auto secureFocus =
        askedFor(intent, [](TestHost& host) { host.desktop().setTree(treeWithKennwort(/*focusSecret=*/true)); });
    EXPECT_TRUE(secureFocus.textMasked);
    EXPECT_EQ(secureFocus.textMaskReason, QStringLiteral("secure_element"));
}

TEST(Confirmation, DialogHidesTextWhenTheTargetCannotBeLookedAtInTime)
{
    QElapsedTimer timer;
    timer.start();
    const auto asked = askedFor(typeInto(QStringLiteral("hello")), [](TestHost& host) {
        host.desktop().setDelay(QStringLiteral("snapshot"), FakeDesktop::Delay{5000, false});
    });
    EXPECT_TRUE(asked.textMasked);
    EXPECT_EQ(asked.textMaskReason, QStringLiteral("unresolved"));
    // The look gives up after at most 2 s; the person is not kept waiting for the app.
    EXPECT_LT(timer.elapsed(), 4500);
}

TEST(Confirmation, AStopWhileLookingAtTheTargetAsksNobody)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Approve, 10);
    TestHost host(policy(ConfirmPolicy::Ask));
    host.attachApprover(approver);
    host.desktop().setDelay(QStringLiteral("snapshot"), FakeDesktop::Delay{1500, false});
    TestClient client(host.socketPath());
    TestClient stopper(host.socketPath());
    client.send(TestClient::request(
        QStringLiteral("desktop.confirm.issue"),
        issueParams(host, QStringLiteral("desktop.typeText"), typeInto(QStringLiteral("hello"))), 7));
    QThread::msleep(200);
    const QJsonObject stopped =
        stopper.call(QStringLiteral("desktop.stop"),
                     QJsonObject{{QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                                                      {QStringLiteral("requestId"), newRequestId()}}}});
    ASSERT_FALSE(resultOf(stopped).isEmpty()) << dump(stopped);
    const auto answer = client.readObject(5000);
    ASSERT_TRUE(answer.has_value());
    expectRefused(*answer, QStringLiteral("paused"));
    EXPECT_TRUE(approver.asked().isEmpty());
}

TEST(Confirmation, TextTypedIntoASecureElementIsNotKeptEvenWhenTheUserKeepsTypedText)
{
    TestHost::Options options = policy(ConfirmPolicy::Auto);
    options.keepTypedText = true;
    TestHost host(options);
    host.desktop().setTree(treeWithKennwort());
    TestClient client(host.socketPath());
    const auto dirOf = [](const QJsonObject& response) {
        return resultOf(response).value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    };
    // Kept for an ordinary field, as the user chose...
    const QJsonObject ordinary = client.call(QStringLiteral("desktop.typeText"), [&] {
        const QString id = newRequestId();
        return confirmed(host, typeInto(QStringLiteral("plain-words")),
                         QJsonObject{{QStringLiteral("phrase"), QString(QStringLiteral("CONFIRM:") + id)}}, id);
    }());
    ASSERT_FALSE(dirOf(ordinary).isEmpty()) << dump(ordinary);
    EXPECT_TRUE(readFile(dirOf(ordinary) + QStringLiteral("request.json")).contains("plain-words"));
    // ...never for a secure one.
    const QString id = newRequestId();
    const QJsonObject secret =
        client.call(QStringLiteral("desktop.typeText"),
                    confirmed(host,
                              typeIntoSelector(QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Kennwort")}},
                                               QStringLiteral("hunter2")),
                              QJsonObject{{QStringLiteral("phrase"), QString(QStringLiteral("CONFIRM:") + id)}}, id));
    ASSERT_FALSE(dirOf(secret).isEmpty()) << dump(secret);
    const QByteArray request = readFile(dirOf(secret) + QStringLiteral("request.json"));
    EXPECT_FALSE(request.contains("hunter2")) << request.constData();
    EXPECT_TRUE(request.contains("secure_element")) << request.constData();
}

TEST(Confirmation, AskedPersonDenies)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Deny);
    TestHost host(policy(ConfirmPolicy::Ask));
    host.attachApprover(approver);
    TestClient client(host.socketPath());
    const QJsonObject response = client.call(QStringLiteral("desktop.confirm.issue"),
                                             issueParams(host, QStringLiteral("desktop.hotkey"), hotkeyEnter()));
    expectRefused(response, QStringLiteral("denied"));
    EXPECT_EQ(
        errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("decision")).toString(),
        QStringLiteral("user"));
    ASSERT_EQ(approver.asked().size(), 1);
    EXPECT_EQ(approver.asked().constFirst().keys, QStringList{QStringLiteral("enter")});
}

TEST(Confirmation, ApprovalTimeoutDeniesWithoutBlockingAnything)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Never);
    TestHost::Options options = policy(ConfirmPolicy::Ask);
    options.security.approvalTimeoutMs = 600;
    TestHost host(options);
    host.attachApprover(approver);
    TestClient client(host.socketPath());
    TestClient other(host.socketPath());

    QElapsedTimer timer;
    timer.start();
    client.send(TestClient::request(QStringLiteral("desktop.confirm.issue"),
                                    issueParams(host, QStringLiteral("desktop.click"), clickSend()),
                                    QStringLiteral("issue")));
    // While the person is being asked, the same connection and others are served at once.
    client.send(TestClient::request(QStringLiteral("desktop.health"), QJsonObject{{QStringLiteral("meta"), meta(host)}},
                                    QStringLiteral("health")));
    const auto first = client.readObject(5000);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->value(QStringLiteral("id")).toString(), QStringLiteral("health"));
    EXPECT_LT(timer.elapsed(), 500);
    EXPECT_FALSE(
        resultOf(other.call(QStringLiteral("desktop.find"),
                            QJsonObject{{QStringLiteral("meta"), meta(host)},
                                        {QStringLiteral("selector"),
                                         QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")}}}}))
            .isEmpty());
    EXPECT_LT(timer.elapsed(), 550);

    const auto issue = client.readObject(5000);
    ASSERT_TRUE(issue.has_value());
    EXPECT_EQ(issue->value(QStringLiteral("id")).toString(), QStringLiteral("issue"));
    EXPECT_GE(timer.elapsed(), 590);
    expectRefused(*issue, QStringLiteral("denied"));
    EXPECT_EQ(errorOf(*issue).value(QStringLiteral("details")).toObject().value(QStringLiteral("decision")).toString(),
              QStringLiteral("timeout"));
    ASSERT_EQ(approver.asked().size(), 1);
    EXPECT_EQ(approver.withdrawn(), QList<quint64>{approver.asked().constFirst().id}); // the dialog is closed
    // A late answer changes nothing.
    host.answerApproval(approver.asked().constFirst().id, true);
    EXPECT_TRUE(host.auditLines(QStringLiteral("token_issued")).isEmpty());
    const auto approvals = host.auditLines(QStringLiteral("approval"));
    ASSERT_EQ(approvals.size(), 1);
    EXPECT_EQ(approvals[0].value(QStringLiteral("decidedBy")).toString(), QStringLiteral("timeout"));
}

TEST(Confirmation, ApprovalIsBoundedByTheRequestTimeout)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Never);
    TestHost host(policy(ConfirmPolicy::Ask));
    host.attachApprover(approver);
    TestClient client(host.socketPath());
    QJsonObject params = issueParams(host, QStringLiteral("desktop.click"), clickSend());
    params.insert(QStringLiteral("meta"), meta(host, newRequestId(), 300));
    const QJsonObject response = client.call(QStringLiteral("desktop.confirm.issue"), params, 5000);
    expectRefused(response, QStringLiteral("denied"));
    ASSERT_EQ(approver.asked().size(), 1);
    EXPECT_EQ(approver.asked().constFirst().timeoutMs, 300);
}

TEST(Confirmation, ClientLeavingWithdrawsItsApprovalRequest)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Never);
    TestHost host(policy(ConfirmPolicy::Ask));
    host.attachApprover(approver);
    {
        TestClient client(host.socketPath());
        client.send(TestClient::request(QStringLiteral("desktop.confirm.issue"),
                                        issueParams(host, QStringLiteral("desktop.click"), clickSend()), 1));
        ASSERT_TRUE(QTest::qWaitFor([&] { return !approver.asked().isEmpty(); }, 5000));
    }
    ASSERT_TRUE(QTest::qWaitFor([&] { return !approver.withdrawn().isEmpty(); }, 5000));
    EXPECT_EQ(approver.withdrawn().constFirst(), approver.asked().constFirst().id);
    int pending = -1;
    host.onHostThread([&](Bridge::Host& h) { pending = h.dispatcher().pendingApprovals(); });
    EXPECT_EQ(pending, 0);
    const auto approvals = host.auditLines(QStringLiteral("approval"));
    ASSERT_EQ(approvals.size(), 1);
    EXPECT_EQ(approvals[0].value(QStringLiteral("decision")).toString(), QStringLiteral("withdrawn"));
    EXPECT_EQ(approvals[0].value(QStringLiteral("decidedBy")).toString(), QStringLiteral("disconnected"));
}

TEST(Confirmation, HealthAndDoctorReportThePolicy)
{
    TestHost host(policy(ConfirmPolicy::Auto, true));
    TestClient client(host.socketPath());
    const QJsonObject bridge =
        resultOf(client.call(QStringLiteral("desktop.health"), QJsonObject{{QStringLiteral("meta"), meta(host)}}))
            .value(QStringLiteral("bridge"))
            .toObject();
    EXPECT_EQ(bridge.value(QStringLiteral("confirmPolicy")).toString(), QStringLiteral("auto"));
    EXPECT_TRUE(bridge.value(QStringLiteral("requireToken")).toBool());
    EXPECT_FALSE(bridge.value(QStringLiteral("paused")).toBool());
    const QJsonArray checks =
        resultOf(client.call(QStringLiteral("desktop.doctor"), QJsonObject{{QStringLiteral("meta"), meta(host)}}))
            .value(QStringLiteral("checks"))
            .toArray();
    bool warned = false;
    for (const auto& c : checks) {
        if (c.toObject().value(QStringLiteral("name")).toString() == QLatin1String("confirmation"))
            warned = c.toObject().value(QStringLiteral("status")).toString() == QLatin1String("warning");
    }
    EXPECT_TRUE(warned);
}
