// The bridge over a real QLocalSocket with the fake backend: concurrency, the executor's
// deadlines and aborts, framing limits, envelopes, evidence, and every method's happy path.
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace Testing;

namespace {

QJsonObject meta(const TestHost& host, int timeoutMs = 60000, QString requestId = newRequestId())
{
    return Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = timeoutMs, .requestId = requestId});
}

QJsonObject params(const TestHost& host, QJsonObject extra = {}, int timeoutMs = 60000)
{
    extra.insert(QStringLiteral("meta"), meta(host, timeoutMs));
    return extra;
}

QJsonObject selector(const QString& role, const QString& title)
{
    return QJsonObject{{QStringLiteral("byRole"), role}, {QStringLiteral("titleContains"), title}};
}

QJsonObject confirmPhrase()
{
    return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QStringList filesIn(const QString& dir)
{
    QStringList out;
    QDir d(dir);
    for (const auto& entry : d.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (entry.isDir()) {
            for (const auto& child : filesIn(entry.absoluteFilePath()))
                out.append(entry.fileName() + QLatin1Char('/') + child);
        } else {
            out.append(entry.fileName());
        }
    }
    out.sort();
    return out;
}

// A long waitUntil that only an abort, a deadline or a disconnect ends.
QJsonObject neverSatisfied(const TestHost& host, int waitMs, int timeoutMs = 60000, QString requestId = newRequestId())
{
    return QJsonObject{
        {QStringLiteral("meta"), meta(host, timeoutMs, requestId)},
        {QStringLiteral("condition"), QJsonObject{{QStringLiteral("selectorExists"),
                                                   selector(QStringLiteral("AXButton"), QStringLiteral("Never"))}}},
        {QStringLiteral("pollMs"), 20},
        {QStringLiteral("timeoutMs"), waitMs}};
}

} // namespace

TEST(Bridge, HealthAnswersWithContractShape)
{
    TestHost host;
    TestClient client(host.socketPath());
    ASSERT_TRUE(client.isConnected());
    const QJsonObject response = client.call(QStringLiteral("desktop.health"), params(host));
    ASSERT_FALSE(response.isEmpty());
    EXPECT_EQ(response.value(QStringLiteral("jsonrpc")).toString(), QStringLiteral("2.0"));
    const QJsonObject result = resultOf(response);
    EXPECT_EQ(result.value(QStringLiteral("hostVersion")).toString(), QStringLiteral(MDH_VERSION));
    EXPECT_TRUE(result.contains(QStringLiteral("macos")));
    EXPECT_EQ(result.value(QStringLiteral("permissions")).toObject().value(QStringLiteral("accessibility")).toString(),
              QStringLiteral("granted"));
    EXPECT_EQ(result.value(QStringLiteral("bridge")).toObject().value(QStringLiteral("schemaVersion")).toInt(), 1);
    const QJsonObject peer = result.value(QStringLiteral("peer")).toObject();
    EXPECT_EQ(peer.value(QStringLiteral("pid")).toInteger(), QCoreApplication::applicationPid());
    EXPECT_EQ(peer.value(QStringLiteral("auditTokenDigest")).toString().size(), 8);
}

TEST(Bridge, DoctorHasChecksAndSummary)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject result = resultOf(client.call(QStringLiteral("desktop.doctor"), params(host)));
    const QJsonArray checks = result.value(QStringLiteral("checks")).toArray();
    QStringList names;
    for (const auto& c : checks) {
        names.append(c.toObject().value(QStringLiteral("name")).toString());
        EXPECT_TRUE(c.toObject().contains(QStringLiteral("details")));
    }
    for (const char* name : {"accessibility", "screen_capture", "workspace_root", "socket", "backend"})
        EXPECT_TRUE(names.contains(QString::fromLatin1(name))) << name;
    EXPECT_TRUE(result.value(QStringLiteral("healthy")).toBool());
    const QJsonObject permissions = result.value(QStringLiteral("permissions")).toObject();
    EXPECT_EQ(permissions.value(QStringLiteral("accessibility")).toObject().value(QStringLiteral("purpose")).toString(),
              QStringLiteral("AX observe/find/action"));
    EXPECT_TRUE(
        permissions.value(QStringLiteral("screenRecording")).toObject().value(QStringLiteral("required")).toBool());
    EXPECT_EQ(result.value(QStringLiteral("summary")).toObject().value(QStringLiteral("total")).toInt(), checks.size());
}

TEST(Bridge, TwentyClientsTimesTwoHundredRequestsEachGetTheirOwnAnswers)
{
    TestHost host;
    constexpr int kClients = 20;
    constexpr int kRequests = 200;
    std::atomic<int> good{0};
    std::atomic<int> bad{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < kClients; ++c) {
        threads.emplace_back([&, c] {
            TestClient client(host.socketPath());
            if (!client.isConnected()) {
                bad += kRequests;
                return;
            }
            // Pipeline every request, then read: answers must come back with our own ids.
            QSet<QString> expected;
            for (int r = 0; r < kRequests; ++r) {
                const QString id = QStringLiteral("c%1-r%2").arg(c).arg(r);
                expected.insert(id);
                client.send(TestClient::request(QStringLiteral("desktop.health"), params(host), id));
            }
            for (int r = 0; r < kRequests; ++r) {
                auto response = client.readObject(20000);
                if (!response) {
                    bad += kRequests - r;
                    return;
                }
                const QString id = response->value(QStringLiteral("id")).toString();
                if (expected.remove(id) && resultOf(*response).contains(QStringLiteral("hostVersion")) &&
                    resultOf(*response)
                            .value(QStringLiteral("peer"))
                            .toObject()
                            .value(QStringLiteral("pid"))
                            .toInteger() == QCoreApplication::applicationPid())
                    ++good;
                else
                    ++bad;
            }
        });
    }
    for (auto& t : threads)
        t.join();
    EXPECT_EQ(good.load(), kClients * kRequests);
    EXPECT_EQ(bad.load(), 0);
}

TEST(Bridge, FindReturnsRankedElementRefsAndWritesEvidence)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QString requestId = newRequestId();
    const QJsonObject response = client.call(
        QStringLiteral("desktop.find"),
        QJsonObject{{QStringLiteral("meta"), meta(host, 60000, requestId)},
                    {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")}}}});
    const QJsonObject result = resultOf(response);
    ASSERT_FALSE(result.isEmpty()) << QJsonDocument(response).toJson().constData();
    EXPECT_EQ(result.value(QStringLiteral("executionId")).toString(), requestId);
    EXPECT_EQ(result.value(QStringLiteral("matched")).toInt(), 2);
    const QJsonArray refs = result.value(QStringLiteral("elementRefs")).toArray();
    ASSERT_EQ(refs.size(), 2);
    // Enabled "Send" outranks disabled "Cancel".
    const QJsonObject first = refs.at(0).toObject();
    EXPECT_EQ(first.value(QStringLiteral("title")).toString(), QStringLiteral("Send"));
    EXPECT_EQ(first.value(QStringLiteral("fingerprint")).toString(),
              QStringLiteral("AXButton|Send|x=320,y=10,w=80,h=24"));
    EXPECT_TRUE(first.value(QStringLiteral("elementId")).toString().startsWith(QStringLiteral("e:")));
    EXPECT_TRUE(first.value(QStringLiteral("value")).isNull());
    EXPECT_EQ(first.value(QStringLiteral("frame")).toObject().value(QStringLiteral("width")).toInt(), 80);

    const QString dir = result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    EXPECT_EQ(dir, host.workspace() + QStringLiteral("/artifacts/desktop/") +
                       QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate) + QLatin1Char('/') + requestId +
                       QLatin1Char('/'));
    EXPECT_EQ(filesIn(dir),
              (QStringList{QStringLiteral("ax.json"), QStringLiteral("env.json"), QStringLiteral("request.json"),
                           QStringLiteral("response.json"), QStringLiteral("selectors/candidates.json"),
                           QStringLiteral("summary.md"), QStringLiteral("trace.jsonl")}));
    const QJsonObject candidates =
        QJsonDocument::fromJson(readFile(dir + QStringLiteral("selectors/candidates.json"))).object();
    EXPECT_EQ(candidates.value(QStringLiteral("matched")).toInt(), 2);
    EXPECT_FALSE(candidates.value(QStringLiteral("candidates"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("reasons"))
                     .toArray()
                     .isEmpty());
    const QJsonObject saved = QJsonDocument::fromJson(readFile(dir + QStringLiteral("response.json"))).object();
    EXPECT_EQ(saved, response);
    const QList<QByteArray> trace = readFile(dir + QStringLiteral("trace.jsonl")).trimmed().split('\n');
    ASSERT_GE(trace.size(), 3);
    for (const auto& line : trace) {
        const QJsonObject step = QJsonDocument::fromJson(line).object();
        EXPECT_TRUE(step.contains(QStringLiteral("step")) && step.contains(QStringLiteral("ms"))) << line.constData();
    }
    EXPECT_TRUE(readFile(dir + QStringLiteral("summary.md")).contains(requestId.toUtf8()));
    const QJsonObject env = QJsonDocument::fromJson(readFile(dir + QStringLiteral("env.json"))).object();
    EXPECT_EQ(env.value(QStringLiteral("peer")).toObject().value(QStringLiteral("pid")).toInteger(),
              QCoreApplication::applicationPid());
}

TEST(Bridge, ObserveWritesScreenshotAndTree)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject result = resultOf(
        client.call(QStringLiteral("desktop.observe"),
                    params(host, {{QStringLiteral("options"), QJsonObject{{QStringLiteral("axMaxNodes"), 3}}}})));
    ASSERT_FALSE(result.isEmpty());
    EXPECT_EQ(
        result.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("frontmostBundleId")).toString(),
        QStringLiteral("fake-app"));
    const QJsonObject evidence = result.value(QStringLiteral("evidence")).toObject();
    EXPECT_EQ(evidence.value(QStringLiteral("screenshotPath")).toString(), QStringLiteral("observe.png"));
    EXPECT_EQ(evidence.value(QStringLiteral("axPath")).toString(), QStringLiteral("ax.json"));
    const QString dir = evidence.value(QStringLiteral("dir")).toString();
    EXPECT_TRUE(readFile(dir + QStringLiteral("observe.png")).startsWith("\x89PNG"));
    const QJsonObject tree = QJsonDocument::fromJson(readFile(dir + QStringLiteral("ax.json"))).object();
    EXPECT_TRUE(tree.value(QStringLiteral("truncated")).toBool());
    EXPECT_EQ(tree.value(QStringLiteral("nodeCount")).toInt(), 3);
    EXPECT_TRUE(tree.value(QStringLiteral("timing")).toObject().contains(QStringLiteral("skewMs")));
    EXPECT_EQ(tree.value(QStringLiteral("root")).toObject().value(QStringLiteral("role")).toString(),
              QStringLiteral("AXWindow"));
}

TEST(Bridge, ClickByElementRefThenByStaleRef)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject found = resultOf(client.call(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("send"))}})));
    const QJsonObject ref = found.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    ASSERT_FALSE(ref.isEmpty());

    QJsonObject clickParams =
        params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                      {QStringLiteral("target"), QJsonObject{{QStringLiteral("elementRef"), ref}}}});
    const QJsonObject clicked = resultOf(client.call(QStringLiteral("desktop.click"), clickParams));
    EXPECT_TRUE(clicked.value(QStringLiteral("clicked")).toBool());
    EXPECT_EQ(clicked.value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("accessibilityAction:press"));
    EXPECT_EQ(clicked.value(QStringLiteral("targetResolvedVia")).toString(), QStringLiteral("elementRef"));
    const QJsonObject evidence = clicked.value(QStringLiteral("evidence")).toObject();
    EXPECT_TRUE(evidence.contains(QStringLiteral("beforeScreenshot")));
    EXPECT_TRUE(evidence.value(QStringLiteral("beforeScreenshot")).isNull());
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("press:Send")});

    // The button moves (scrolled, or its window moved): the same object with the same role, title
    // and size is still the element the ref names.
    host.desktop().setTree([&] {
        auto moved = FakeDesktop::defaultTree();
        moved[2].frame.x = 500;
        return moved;
    }());
    const QJsonObject movedClick = resultOf(
        client.call(QStringLiteral("desktop.click"),
                    params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                                  {QStringLiteral("target"), QJsonObject{{QStringLiteral("elementRef"), ref}}}})));
    EXPECT_EQ(movedClick.value(QStringLiteral("targetResolvedVia")).toString(), QStringLiteral("elementRef:moved"));
    EXPECT_EQ(movedClick.value(QStringLiteral("target"))
                  .toObject()
                  .value(QStringLiteral("frame"))
                  .toObject()
                  .value(QStringLiteral("x")),
              500);
    EXPECT_EQ(host.desktop().effects().size(), 2);

    // Resized: same handle, but not the element as the ref named it -> stale, with what changed.
    host.desktop().setTree([&] {
        auto changed = FakeDesktop::defaultTree();
        changed[2].frame.width += 40;
        return changed;
    }());
    const QJsonObject stale =
        client.call(QStringLiteral("desktop.click"),
                    params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                                  {QStringLiteral("target"), QJsonObject{{QStringLiteral("elementRef"), ref}}}}));
    EXPECT_EQ(errorCode(stale), QStringLiteral("DESKTOP_STALE_SNAPSHOT"));
    EXPECT_TRUE(errorOf(stale).value(QStringLiteral("retryable")).toBool());
    const QString change =
        errorOf(stale).value(QStringLiteral("details")).toObject().value(QStringLiteral("change")).toString();
    EXPECT_TRUE(change.contains(QStringLiteral("frame"))) << change.toStdString();
    EXPECT_EQ(host.desktop().effects().size(), 2);
}

TEST(Bridge, ClickBySelectorAndCoordinateFallback)
{
    TestHost host;
    TestClient client(host.socketPath());
    // The image has no action: refused without the fallback...
    const QJsonObject target{
        {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXImage")}}}};
    const QJsonObject refused =
        client.call(QStringLiteral("desktop.click"),
                    params(host, {{QStringLiteral("confirm"), confirmPhrase()}, {QStringLiteral("target"), target}}));
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    EXPECT_EQ(errorOf(refused).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("no_action"));
    // ...and clicked at its centre with it, with before/after screenshots.
    const QJsonObject result = resultOf(client.call(QStringLiteral("desktop.click"),
                                                    params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                                                                  {QStringLiteral("target"), target},
                                                                  {QStringLiteral("allowCoordinateFallback"), true}})));
    EXPECT_EQ(result.value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("pointer"));
    EXPECT_FALSE(result.value(QStringLiteral("verified")).toBool());
    // The fake's screenshots never change: no signal, said so, and the contract's boolean follows.
    EXPECT_EQ(result.value(QStringLiteral("effect")).toString(), QStringLiteral("unverifiable"));
    EXPECT_TRUE(result.value(QStringLiteral("clicked")).toBool());
    EXPECT_FALSE(
        result.value(QStringLiteral("verification")).toObject().value(QStringLiteral("reason")).toString().isEmpty());
    const QJsonObject evidence = result.value(QStringLiteral("evidence")).toObject();
    EXPECT_EQ(evidence.value(QStringLiteral("beforeScreenshot")).toString(), QStringLiteral("before.png"));
    const QString dir = evidence.value(QStringLiteral("dir")).toString();
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("before.png")));
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("after.png")));
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("pointer:632,532")});

    const QJsonObject missing =
        client.call(QStringLiteral("desktop.click"),
                    params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                                  {QStringLiteral("target"),
                                   QJsonObject{{QStringLiteral("selector"),
                                                selector(QStringLiteral("AXButton"), QStringLiteral("Nope"))}}}}));
    EXPECT_EQ(errorCode(missing), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
}

TEST(Bridge, TypeTextKeepsOnlyLengthAndDigestInEvidence)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QString secret = QStringLiteral("hunter2-very-secret");
    const QJsonObject result = resultOf(
        client.call(QStringLiteral("desktop.typeText"),
                    params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                                  {QStringLiteral("target"),
                                   QJsonObject{{QStringLiteral("selector"),
                                                selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
                                  {QStringLiteral("text"), secret},
                                  {QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}}}})));
    EXPECT_TRUE(result.value(QStringLiteral("typed")).toBool());
    EXPECT_EQ(result.value(QStringLiteral("path")).toString(), QStringLiteral("editableText"));
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("type:Message:19:clear")});
    const QString dir = result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    for (const auto& file : filesIn(dir))
        EXPECT_FALSE(readFile(dir + file).contains(secret.toUtf8())) << file.toStdString();
    const QJsonObject request = QJsonDocument::fromJson(readFile(dir + QStringLiteral("request.json"))).object();
    const QJsonObject text =
        request.value(QStringLiteral("params")).toObject().value(QStringLiteral("text")).toObject();
    EXPECT_EQ(text.value(QStringLiteral("length")).toInt(), secret.size());
    EXPECT_EQ(text.value(QStringLiteral("sha256")).toString().size(), 64);
}

TEST(Bridge, HotkeyAndUnknownKey)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject sent = resultOf(
        client.call(QStringLiteral("desktop.hotkey"),
                    params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                                  {QStringLiteral("keys"), QJsonArray{QStringLiteral("cmd"), QStringLiteral("v")}}})));
    EXPECT_TRUE(sent.value(QStringLiteral("sent")).toBool());
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("chord:cmd+v")});
    const QJsonObject unknown = client.call(
        QStringLiteral("desktop.hotkey"),
        params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                      {QStringLiteral("keys"), QJsonArray{QStringLiteral("cmd"), QStringLiteral("hyper")}}}));
    EXPECT_EQ(errorCode(unknown), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(errorOf(unknown).value(QStringLiteral("details")).toObject().value(QStringLiteral("key")).toString(),
              QStringLiteral("hyper"));
    EXPECT_EQ(host.desktop().effects().size(), 1);
}

TEST(Bridge, SideEffectsNeedConfirmation)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonArray keys{QStringLiteral("enter")};
    const QString id = newRequestId();
    struct Case
    {
        QJsonValue confirm;
        QString reason;
    };
    const QList<Case> refused{
        {QJsonValue(), QStringLiteral("missing")},
        {QJsonObject{{QStringLiteral("phrase"), QStringLiteral("confirm")}}, QStringLiteral("phrase_mismatch")},
        {QJsonObject{{QStringLiteral("phrase"), QString(QStringLiteral("CONFIRM:") + newRequestId())}},
         QStringLiteral("phrase_mismatch")},
        {QJsonObject{{QStringLiteral("token"), newRequestId()}}, QStringLiteral("unknown_token")},
    };
    for (const auto& c : refused) {
        QJsonObject p = params(host, {{QStringLiteral("keys"), keys}});
        if (!c.confirm.isNull())
            p.insert(QStringLiteral("confirm"), c.confirm);
        const QJsonObject response = client.call(QStringLiteral("desktop.hotkey"), p);
        EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
        EXPECT_EQ(
            errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
            c.reason);
    }
    EXPECT_TRUE(host.desktop().effects().isEmpty());
    // CONFIRM:<requestId> with the request's own id is accepted.
    QJsonObject p{
        {QStringLiteral("meta"), meta(host, 60000, id)},
        {QStringLiteral("keys"), keys},
        {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QString(QStringLiteral("CONFIRM:") + id)}}}};
    EXPECT_TRUE(resultOf(client.call(QStringLiteral("desktop.hotkey"), p)).value(QStringLiteral("sent")).toBool());
}

TEST(Bridge, WaitUntilSucceedsWhenTheElementAppears)
{
    TestHost host;
    host.desktop().onPress([](FakeDesktop& desktop, const Automation::Node&) {
        auto tree = FakeDesktop::defaultTree();
        Automation::Node sent = tree[4];
        sent.title = QStringLiteral("Sent!");
        tree.append(sent);
        desktop.setTree(tree);
    });
    TestClient waiter(host.socketPath());
    waiter.send(TestClient::request(
        QStringLiteral("desktop.waitUntil"),
        QJsonObject{{QStringLiteral("meta"), meta(host)},
                    {QStringLiteral("condition"),
                     QJsonObject{{QStringLiteral("selectorExists"),
                                  selector(QStringLiteral("AXStaticText"), QStringLiteral("Sent"))}}},
                    {QStringLiteral("pollMs"), 20},
                    {QStringLiteral("timeoutMs"), 10000}},
        1));
    // The click queues behind the wait (single-flight), so press the fake directly.
    QThread::msleep(100);
    host.desktop().onPress({});
    auto tree = FakeDesktop::defaultTree();
    Automation::Node sent = tree[4];
    sent.title = QStringLiteral("Sent!");
    tree.append(sent);
    host.desktop().setTree(tree);
    const auto response = waiter.readObject(10000);
    ASSERT_TRUE(response.has_value());
    const QJsonObject result = resultOf(*response);
    EXPECT_TRUE(result.value(QStringLiteral("ok")).toBool());
    EXPECT_EQ(result.value(QStringLiteral("matched")).toInt(), 1);
    EXPECT_GE(result.value(QStringLiteral("elapsedMs")).toInteger(), 50);
    EXPECT_EQ(result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("axPath")).toString(),
              QStringLiteral("ax.json"));
}

TEST(Bridge, WaitUntilTimesOutWithItsOwnTimeout)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject response = client.call(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, 200));
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_TIMEOUT"));
    EXPECT_TRUE(errorOf(response).value(QStringLiteral("retryable")).toBool());
    EXPECT_EQ(errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("timeoutMs")).toInt(),
              200);
}

TEST(Bridge, AbortRunningAndQueuedExecutions)
{
    TestHost host;
    TestClient owner(host.socketPath());
    TestClient controller(host.socketPath());
    const QString running = newRequestId();
    const QString queued = newRequestId();
    owner.send(
        TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, 30000, 60000, running), 1));
    owner.send(TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, 30000, 60000, queued), 2));
    QThread::msleep(100);

    const auto abortParams = [&](const QString& id) { return params(host, {{QStringLiteral("executionId"), id}}); };
    const QJsonObject abortQueued = resultOf(controller.call(QStringLiteral("desktop.abort"), abortParams(queued)));
    EXPECT_TRUE(abortQueued.value(QStringLiteral("aborted")).toBool());
    EXPECT_EQ(abortQueued.value(QStringLiteral("executionId")).toString(), queued);
    QElapsedTimer timer;
    timer.start();
    const QJsonObject abortRunning = resultOf(controller.call(QStringLiteral("desktop.abort"), abortParams(running)));
    EXPECT_TRUE(abortRunning.value(QStringLiteral("aborted")).toBool());

    QHash<int, QJsonObject> answers;
    for (int i = 0; i < 2; ++i) {
        auto response = owner.readObject(5000);
        ASSERT_TRUE(response.has_value());
        answers.insert(response->value(QStringLiteral("id")).toInt(), *response);
    }
    EXPECT_LT(timer.elapsed(), 5000);
    EXPECT_EQ(errorCode(answers.value(1)), QStringLiteral("DESKTOP_ABORTED"));
    EXPECT_EQ(errorCode(answers.value(2)), QStringLiteral("DESKTOP_ABORTED"));
    EXPECT_EQ(
        errorOf(answers.value(2)).value(QStringLiteral("details")).toObject().value(QStringLiteral("phase")).toString(),
        QStringLiteral("queued"));

    // Both left evidence with the aborted answer.
    const QString day = QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate);
    for (const auto& id : {running, queued}) {
        const QString dir =
            host.workspace() + QStringLiteral("/artifacts/desktop/") + day + QLatin1Char('/') + id + QLatin1Char('/');
        const QJsonObject saved = QJsonDocument::fromJson(readFile(dir + QStringLiteral("response.json"))).object();
        EXPECT_EQ(errorCode(saved), QStringLiteral("DESKTOP_ABORTED")) << id.toStdString();
    }
    // Finished and unknown ids.
    const QJsonObject again = controller.call(QStringLiteral("desktop.abort"), abortParams(running));
    EXPECT_EQ(errorCode(again), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(errorOf(again).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("finished"));
    const QJsonObject unknown = controller.call(QStringLiteral("desktop.abort"), abortParams(newRequestId()));
    EXPECT_EQ(errorOf(unknown).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("unknown"));
}

TEST(Bridge, StuckBackendCallAnswersTimeoutOnTimeAndHealthStillAnswers)
{
    TestHost host;
    host.desktop().setDelay(QStringLiteral("snapshot"), {3000, true});
    TestClient client(host.socketPath());
    TestClient other(host.socketPath());
    QElapsedTimer timer;
    timer.start();
    client.send(TestClient::request(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}, 400),
        7));
    QThread::msleep(50);
    // health is not queued behind the stuck job.
    QElapsedTimer healthTimer;
    healthTimer.start();
    const QJsonObject health = other.call(QStringLiteral("desktop.health"), params(host));
    EXPECT_TRUE(resultOf(health).value(QStringLiteral("bridge")).toObject().value(QStringLiteral("running")).toBool());
    EXPECT_LT(healthTimer.elapsed(), 1000);

    const auto response = client.readObject(5000);
    ASSERT_TRUE(response.has_value());
    const qint64 elapsed = timer.elapsed();
    EXPECT_EQ(errorCode(*response), QStringLiteral("DESKTOP_TIMEOUT"));
    EXPECT_EQ(errorOf(*response).value(QStringLiteral("details")).toObject().value(QStringLiteral("phase")).toString(),
              QStringLiteral("running"));
    // The hard bound holds although the backend call goes on for 3 s.
    EXPECT_GE(elapsed, 380);
    EXPECT_LT(elapsed, 1500);
}

TEST(Bridge, QueuedJobTimesOutWhileWaiting)
{
    TestHost host;
    host.desktop().setDelay(QStringLiteral("snapshot"), {800, false});
    TestClient client(host.socketPath());
    client.send(TestClient::request(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}), 1));
    client.send(TestClient::request(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}, 200),
        2));
    const auto first = client.readObject(5000);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->value(QStringLiteral("id")).toInt(), 2);
    EXPECT_EQ(errorOf(*first).value(QStringLiteral("details")).toObject().value(QStringLiteral("phase")).toString(),
              QStringLiteral("queued"));
    const auto second = client.readObject(5000);
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(resultOf(*second).value(QStringLiteral("matched")).toInt(), 1);
}

TEST(Bridge, JobsRunOneAtATimeInOrder)
{
    TestHost host;
    host.desktop().setDelay(QStringLiteral("sendChord"), {30, false});
    TestClient client(host.socketPath());
    const QStringList keys{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d"),
                           QStringLiteral("e")};
    for (int i = 0; i < keys.size(); ++i) {
        client.send(TestClient::request(QStringLiteral("desktop.hotkey"),
                                        params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                                                      {QStringLiteral("keys"), QJsonArray{keys.at(i)}}}),
                                        i));
    }
    for (int i = 0; i < keys.size(); ++i) {
        const auto response = client.readObject(5000);
        ASSERT_TRUE(response.has_value());
        EXPECT_EQ(response->value(QStringLiteral("id")).toInt(), i);
    }
    QStringList expected;
    for (const auto& k : keys)
        expected.append(QStringLiteral("chord:") + k);
    EXPECT_EQ(host.desktop().effects(), expected);
}

TEST(Bridge, QueueCapacityAnswersHostNotReady)
{
    TestHost::Options options;
    options.queueCapacity = 2;
    TestHost host(options);
    TestClient client(host.socketPath());
    for (int i = 0; i < 4; ++i)
        client.send(TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, 30000), i));
    // One runs, two wait, the fourth is refused at once.
    const auto refused = client.readObject(3000);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->value(QStringLiteral("id")).toInt(), 3);
    EXPECT_EQ(errorCode(*refused), QStringLiteral("DESKTOP_HOST_NOT_READY"));
    EXPECT_TRUE(errorOf(*refused).value(QStringLiteral("retryable")).toBool());
    EXPECT_EQ(errorOf(*refused).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("queue_full"));
}

TEST(Bridge, DisconnectAbortsRunningAndDropsQueuedJobs)
{
    TestHost host;
    const QString waitId = newRequestId();
    {
        TestClient leaving(host.socketPath());
        leaving.send(
            TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, 30000, 60000, waitId), 1));
        leaving.send(TestClient::request(QStringLiteral("desktop.hotkey"),
                                         params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                                                       {QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}}}),
                                         2));
        QThread::msleep(150);
    }
    // The host is free again quickly, and the queued hotkey never ran.
    TestClient next(host.socketPath());
    QElapsedTimer timer;
    timer.start();
    const QJsonObject result = resultOf(next.call(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}),
        5000));
    EXPECT_EQ(result.value(QStringLiteral("matched")).toInt(), 1);
    EXPECT_LT(timer.elapsed(), 3000);
    EXPECT_EQ(host.desktop().callCount(QStringLiteral("sendChord")), 0);
    const QString dir = host.workspace() + QStringLiteral("/artifacts/desktop/") +
                        QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate) + QLatin1Char('/') + waitId +
                        QLatin1Char('/');
    const QJsonObject saved = QJsonDocument::fromJson(readFile(dir + QStringLiteral("response.json"))).object();
    EXPECT_EQ(errorCode(saved), QStringLiteral("DESKTOP_ABORTED"));
    EXPECT_EQ(errorOf(saved).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("disconnected"));
}

TEST(Bridge, OverCapLineIsRefusedAndOthersKeepWorking)
{
    TestHost::Options options;
    options.maxLineBytes = 4096;
    TestHost host(options);
    TestClient bystander(host.socketPath());
    TestClient flooder(host.socketPath());
    flooder.sendLine(QByteArray(10000, 'x'));
    const auto error = flooder.readObject(3000);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(errorCode(*error), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(errorOf(*error).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("line_too_long"));
    EXPECT_TRUE(flooder.waitClosed(3000));
    EXPECT_TRUE(resultOf(bystander.call(QStringLiteral("desktop.health"), params(host)))
                    .contains(QStringLiteral("hostVersion")));
}

TEST(Bridge, PartialLineTimesOut)
{
    TestHost::Options options;
    options.partialLineTimeoutMs = 300;
    TestHost host(options);
    TestClient slow(host.socketPath());
    slow.sendLine(QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"id\":1,"));
    const auto error = slow.readObject(3000);
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(errorOf(*error).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("partial_line_timeout"));
    EXPECT_TRUE(slow.waitClosed(3000));
    // A client that completes its lines in pieces within the limit is served.
    TestClient pieces(host.socketPath());
    const QByteArray line = QJsonDocument(TestClient::request(QStringLiteral("desktop.health"), params(host), 5))
                                .toJson(QJsonDocument::Compact) +
                            '\n';
    for (qsizetype i = 0; i < line.size(); i += 16) {
        pieces.sendLine(line.mid(i, 16));
        QThread::msleep(5);
    }
    const auto answer = pieces.readObject(3000);
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(answer->value(QStringLiteral("id")).toInt(), 5);
}

TEST(Bridge, GarbageAndInvalidUtf8GetParseErrorsAndTheConnectionStays)
{
    TestHost host;
    TestClient client(host.socketPath());
    client.sendLine(QByteArrayLiteral("this is not json\n"));
    auto error = client.readObject();
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(errorOf(*error).value(QStringLiteral("details")).toObject().value(QStringLiteral("jsonrpcCode")).toInt(),
              -32700);
    EXPECT_TRUE(error->value(QStringLiteral("id")).isNull());
    client.sendLine(
        QByteArrayLiteral("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"desktop.health\",\"x\":\"\xff\xfe\"}\n"));
    error = client.readObject();
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(errorOf(*error).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("invalid_utf8"));
    client.sendLine(QByteArray("\x00\x01\x02garbage\x7f\n", 12));
    error = client.readObject();
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(errorCode(*error), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_TRUE(
        resultOf(client.call(QStringLiteral("desktop.health"), params(host))).contains(QStringLiteral("hostVersion")));
}

TEST(Bridge, EnvelopeErrors)
{
    TestHost host;
    TestClient client(host.socketPath());
    struct Case
    {
        QByteArray line;
        int jsonrpcCode;
        QJsonValue id;
    };
    const QString m = QString::fromUtf8(QJsonDocument(meta(host)).toJson(QJsonDocument::Compact));
    const QList<Case> cases{
        {"{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"desktop.health\"}", -32600, 3},
        {"{\"id\":4,\"method\":\"desktop.health\"}", -32600, 4},
        {"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"desktop.health\"}", -32600, QJsonValue()},
        {"{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":5}", -32600, QStringLiteral("s")},
        {"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"desktop.nope\",\"params\":{}}", -32601, 6},
        {"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"desktop.health\",\"params\":[1]}", -32602, 7},
        {"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"desktop.health\"}", -32602, 8},
        {"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"desktop.find\",\"params\":{\"meta\":" + m.toUtf8() + "}}", -32602,
         9},
        {"[]", -32600, QJsonValue()},
    };
    for (const auto& c : cases) {
        client.sendLine(c.line + '\n');
        const auto response = client.readObject();
        ASSERT_TRUE(response.has_value()) << c.line.constData();
        EXPECT_EQ(errorCode(*response), QStringLiteral("DESKTOP_INVALID_REQUEST")) << c.line.constData();
        EXPECT_EQ(
            errorOf(*response).value(QStringLiteral("details")).toObject().value(QStringLiteral("jsonrpcCode")).toInt(),
            c.jsonrpcCode)
            << c.line.constData();
        EXPECT_EQ(response->value(QStringLiteral("id")), c.id) << c.line.constData();
        EXPECT_FALSE(errorOf(*response).value(QStringLiteral("retryable")).toBool());
    }
}

TEST(Bridge, BatchesAndNotifications)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject notification{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                   {QStringLiteral("method"), QStringLiteral("desktop.health")},
                                   {QStringLiteral("params"), params(host)}};
    // A lone notification gets no answer: the next line answered is the health with id 2.
    client.send(notification);
    client.send(TestClient::request(QStringLiteral("desktop.health"), params(host), 2));
    auto response = client.readObject();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->value(QStringLiteral("id")).toInt(), 2);

    const QJsonArray batch{
        TestClient::request(QStringLiteral("desktop.health"), params(host), 10), notification,
        TestClient::request(QStringLiteral("desktop.nope"), params(host), 11), 42,
        TestClient::request(
            QStringLiteral("desktop.find"),
            params(host, {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}),
            12)};
    client.sendLine(QJsonDocument(batch).toJson(QJsonDocument::Compact) + '\n');
    const auto answer = client.readValue();
    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->isArray());
    const QJsonArray answers = answer->toArray();
    ASSERT_EQ(answers.size(), 4);
    EXPECT_EQ(answers.at(0).toObject().value(QStringLiteral("id")).toInt(), 10);
    EXPECT_TRUE(resultOf(answers.at(0).toObject()).contains(QStringLiteral("hostVersion")));
    EXPECT_EQ(answers.at(1).toObject().value(QStringLiteral("id")).toInt(), 11);
    EXPECT_EQ(errorOf(answers.at(1).toObject())
                  .value(QStringLiteral("details"))
                  .toObject()
                  .value(QStringLiteral("jsonrpcCode"))
                  .toInt(),
              -32601);
    EXPECT_TRUE(answers.at(2).toObject().value(QStringLiteral("id")).isNull());
    EXPECT_EQ(resultOf(answers.at(3).toObject()).value(QStringLiteral("matched")).toInt(), 1);

    // A batch of notifications only: nothing comes back.
    client.sendLine(QJsonDocument(QJsonArray{notification, notification}).toJson(QJsonDocument::Compact) + '\n');
    client.send(TestClient::request(QStringLiteral("desktop.health"), params(host), 20));
    response = client.readObject();
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->value(QStringLiteral("id")).toInt(), 20);
}

TEST(Bridge, ReplayedRequestIdIsRefused)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject p = params(host);
    EXPECT_TRUE(resultOf(client.call(QStringLiteral("desktop.health"), p)).contains(QStringLiteral("hostVersion")));
    TestClient other(host.socketPath());
    const QJsonObject replay = other.call(QStringLiteral("desktop.health"), p);
    EXPECT_EQ(errorCode(replay), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(errorOf(replay).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("replayed_request_id"));
}

TEST(Bridge, WorkspaceOutsideTheRootIsForbidden)
{
    TestHost host;
    TestClient client(host.socketPath());
    QTemporaryDir outside;
    QDir(host.root()).mkpath(QStringLiteral("../root-evil"));
    const QString evil = QDir::cleanPath(host.root() + QStringLiteral("/../root-evil"));
    QFile::link(outside.path(), host.root() + QStringLiteral("/escape"));
    const QStringList paths{outside.path(), evil, host.root() + QStringLiteral("/escape"),
                            host.root() + QStringLiteral("/missing")};
    for (const QString& path : paths) {
        QJsonObject p{{QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                                           {QStringLiteral("requestId"), newRequestId()},
                                                           {QStringLiteral("workspacePath"), path}}},
                      {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}};
        const QJsonObject response = client.call(QStringLiteral("desktop.find"), p);
        EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_WORKSPACE_FORBIDDEN")) << path.toStdString();
    }
    EXPECT_EQ(host.desktop().callCount(QStringLiteral("snapshot")), 0);
    EXPECT_TRUE(QDir(outside.path()).isEmpty());
}

TEST(Bridge, HostWithoutWorkspaceRootRefusesWorkspaceMethods)
{
    TestHost::Options options;
    options.workspaceRoot = false;
    TestHost host(options);
    TestClient client(host.socketPath());
    const QJsonObject response = client.call(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}));
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_WORKSPACE_FORBIDDEN"));
    EXPECT_EQ(errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("workspace_root_unset"));
    // health still answers, and doctor says what is wrong.
    EXPECT_TRUE(
        resultOf(client.call(QStringLiteral("desktop.health"), params(host))).contains(QStringLiteral("hostVersion")));
    const QJsonObject doctor = resultOf(client.call(QStringLiteral("desktop.doctor"), params(host)));
    EXPECT_FALSE(doctor.value(QStringLiteral("healthy")).toBool());
}

TEST(Bridge, PlantedSymlinkInEvidencePathIsNotFollowed)
{
    TestHost host;
    TestClient client(host.socketPath());
    QTemporaryDir elsewhere;
    ASSERT_TRUE(QFile::link(elsewhere.path(), host.workspace() + QStringLiteral("/artifacts")));
    const QJsonObject response =
        client.call(QStringLiteral("desktop.hotkey"),
                    params(host, {{QStringLiteral("confirm"), confirmPhrase()},
                                  {QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}}}));
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_WORKSPACE_FORBIDDEN"));
    EXPECT_EQ(errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("evidence_unwritable"));
    EXPECT_TRUE(
        errorOf(response).value(QStringLiteral("message")).toString().contains(QStringLiteral("symbolic link")));
    // Nothing ran and nothing was written through the link.
    EXPECT_TRUE(host.desktop().effects().isEmpty());
    EXPECT_TRUE(QDir(elsewhere.path()).isEmpty());
}

TEST(Bridge, ShutdownAnswersInFlightJobsWithAborted)
{
    auto host = std::make_unique<TestHost>();
    TestClient client(host->socketPath());
    client.send(TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(*host, 30000), 1));
    client.send(TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(*host, 30000), 2));
    QThread::msleep(100);
    const QString socketPath = host->socketPath();
    host->shutdown();
    QSet<int> aborted;
    for (int i = 0; i < 2; ++i) {
        const auto response = client.readObject(3000);
        ASSERT_TRUE(response.has_value());
        EXPECT_EQ(errorCode(*response), QStringLiteral("DESKTOP_ABORTED"));
        aborted.insert(response->value(QStringLiteral("id")).toInt());
    }
    EXPECT_EQ(aborted, (QSet<int>{1, 2}));
    EXPECT_FALSE(QFile::exists(socketPath));
}

// --- protocol edges ------------------------------------------------------------------------------

namespace {

QString evidenceDirFor(const TestHost& host, const QString& requestId)
{
    return host.workspace() + QStringLiteral("/artifacts/desktop/") +
           QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate) + QLatin1Char('/') + requestId +
           QLatin1Char('/');
}

QJsonValue jsonValueOf(const char* text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

QJsonObject notificationOf(const QString& method, const QJsonObject& params)
{
    return QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("method"), method},
                       {QStringLiteral("params"), params}};
}

} // namespace

// JSON-RPC 2.0: an invalid member is answered (id null) even without an id; it is not a
// notification. Every valid member with an id gets exactly one answer.
TEST(Bridge, BatchAnswersInvalidMembersWithoutIdAndDropsNoValidAnswer)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonArray batch{
        jsonValueOf("{\"jsonrpc\":\"2.0\",\"method\":5}"),
        TestClient::request(
            QStringLiteral("desktop.find"),
            params(host, {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}),
            1),
        notificationOf(QStringLiteral("desktop.health"), params(host)),
        jsonValueOf("{\"jsonrpc\":\"1.0\",\"method\":\"desktop.health\"}"),
        TestClient::request(QStringLiteral("desktop.health"), params(host), 2),
    };
    client.sendLine(QJsonDocument(batch).toJson(QJsonDocument::Compact) + '\n');
    const auto answer = client.readValue();
    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->isArray());
    const QJsonArray answers = answer->toArray();
    ASSERT_EQ(answers.size(), 4) << QJsonDocument(answers).toJson().constData();
    // In request order: invalid, find, invalid, health.
    for (const int i : {0, 2}) {
        const QJsonObject invalid = answers.at(i).toObject();
        EXPECT_TRUE(invalid.value(QStringLiteral("id")).isNull());
        EXPECT_EQ(errorCode(invalid), QStringLiteral("DESKTOP_INVALID_REQUEST"));
        EXPECT_EQ(
            errorOf(invalid).value(QStringLiteral("details")).toObject().value(QStringLiteral("jsonrpcCode")).toInt(),
            -32600);
    }
    EXPECT_EQ(answers.at(1).toObject().value(QStringLiteral("id")), QJsonValue(1));
    EXPECT_EQ(resultOf(answers.at(1).toObject()).value(QStringLiteral("matched")).toInt(), 1);
    EXPECT_EQ(answers.at(3).toObject().value(QStringLiteral("id")), QJsonValue(2));
    EXPECT_TRUE(resultOf(answers.at(3).toObject()).contains(QStringLiteral("hostVersion")));
    // Nothing more comes for this batch: the next line is the answer to the next request.
    client.send(TestClient::request(QStringLiteral("desktop.health"), params(host), 3));
    const auto next = client.readObject();
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(next->value(QStringLiteral("id")), QJsonValue(3));
}

// A side effect sent as a notification could never report its outcome: it is not taken, nothing
// is answered, and the audit log says what was refused and why.
TEST(Bridge, SideEffectNotificationsAreNotRunAndAreAudited)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject target{
        {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}};
    const QList<std::pair<QString, QJsonObject>> calls{
        {QStringLiteral("desktop.click"), {{QStringLiteral("target"), target}}},
        {QStringLiteral("desktop.typeText"),
         {{QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                  selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
          {QStringLiteral("text"), QStringLiteral("hello")}}},
        {QStringLiteral("desktop.hotkey"), {{QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}}}},
    };
    QStringList requestIds;
    for (const auto& [method, extra] : calls) {
        QJsonObject p = extra;
        p.insert(QStringLiteral("confirm"), confirmPhrase());
        requestIds.append(newRequestId());
        p.insert(QStringLiteral("meta"), meta(host, 60000, requestIds.last()));
        client.send(notificationOf(method, p));
    }
    // One queued request behind them: when it answers, anything queued before it has run.
    const QJsonObject found = client.call(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}));
    EXPECT_EQ(resultOf(found).value(QStringLiteral("matched")).toInt(), 1);
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
    for (const QString& id : requestIds)
        EXPECT_FALSE(QDir(evidenceDirFor(host, id)).exists()) << id.toStdString();

    const QList<QJsonObject> lines = host.auditLines(QStringLiteral("notification_refused"));
    ASSERT_EQ(lines.size(), calls.size());
    for (qsizetype i = 0; i < lines.size(); ++i) {
        EXPECT_EQ(lines.at(i).value(QStringLiteral("method")).toString(), calls.at(i).first);
        EXPECT_EQ(lines.at(i).value(QStringLiteral("reason")).toString(), QStringLiteral("notification"));
        EXPECT_EQ(lines.at(i).value(QStringLiteral("requestId")).toString(), requestIds.at(i));
        EXPECT_EQ(lines.at(i).value(QStringLiteral("peer")).toObject().value(QStringLiteral("pid")).toInteger(),
                  QCoreApplication::applicationPid());
    }
    // No confirmation was used up either.
    EXPECT_TRUE(host.auditLines(QStringLiteral("phrase_used")).isEmpty());
}

// meta.requestId is kept as sent; where ids are compared (CONFIRM:<requestId>, the replay
// window, abort) they compare case-insensitively.
TEST(Bridge, RequestIdIsKeptAsSentAndComparedCaseInsensitively)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QString upper = newRequestId().toUpper();
    const QJsonObject found = client.call(
        QStringLiteral("desktop.find"),
        QJsonObject{{QStringLiteral("meta"), meta(host, 60000, upper)},
                    {QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    const QJsonObject result = resultOf(found);
    ASSERT_FALSE(result.isEmpty()) << QJsonDocument(found).toJson().constData();
    EXPECT_EQ(result.value(QStringLiteral("executionId")).toString(), upper);
    const QString dir = result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    EXPECT_EQ(dir, evidenceDirFor(host, upper));
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("response.json")));
    EXPECT_TRUE(readFile(dir + QStringLiteral("summary.md")).contains(upper.toUtf8()));

    // The same UUID in lower case is a replay.
    const QJsonObject replay = client.call(QStringLiteral("desktop.health"),
                                           QJsonObject{{QStringLiteral("meta"), meta(host, 60000, upper.toLower())}});
    EXPECT_EQ(errorOf(replay).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("replayed_request_id"));

    // CONFIRM:<requestId> with an upper-case id, written in either case.
    for (const bool phraseInLowerCase : {false, true}) {
        const QString id = newRequestId().toUpper();
        const QString phrase = QStringLiteral("CONFIRM:") + (phraseInLowerCase ? id.toLower() : id);
        const QJsonObject sent =
            client.call(QStringLiteral("desktop.hotkey"),
                        QJsonObject{{QStringLiteral("meta"), meta(host, 60000, id)},
                                    {QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}},
                                    {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), phrase}}}});
        EXPECT_TRUE(resultOf(sent).value(QStringLiteral("sent")).toBool()) << QJsonDocument(sent).toJson().constData();
        EXPECT_EQ(resultOf(sent).value(QStringLiteral("executionId")).toString(), id);
    }
    // The keyword itself stays exact.
    const QString id = newRequestId().toUpper();
    const QJsonObject lowerKeyword =
        client.call(QStringLiteral("desktop.hotkey"),
                    QJsonObject{{QStringLiteral("meta"), meta(host, 60000, id)},
                                {QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}},
                                {QStringLiteral("confirm"),
                                 QJsonObject{{QStringLiteral("phrase"), QString(QStringLiteral("confirm:") + id)}}}});
    EXPECT_EQ(
        errorOf(lowerKeyword).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
        QStringLiteral("phrase_mismatch"));

    // abort finds an execution whatever the case of the id it is given.
    TestClient controller(host.socketPath());
    const QString running = newRequestId().toUpper();
    client.send(
        TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, 30000, 60000, running), 99));
    QThread::msleep(100);
    const QJsonObject aborted = resultOf(controller.call(
        QStringLiteral("desktop.abort"), params(host, {{QStringLiteral("executionId"), running.toLower()}})));
    EXPECT_TRUE(aborted.value(QStringLiteral("aborted")).toBool());
    const auto answer = client.readObject(5000);
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(errorCode(*answer), QStringLiteral("DESKTOP_ABORTED"));
    EXPECT_EQ(
        errorOf(*answer).value(QStringLiteral("details")).toObject().value(QStringLiteral("executionId")).toString(),
        running);
}

// QJsonDocument reads numbers as double: an id beyond 2^53 would come back rounded. It is refused
// instead, with an answer that says to use a string id; ids within range come back byte-exact.
TEST(Bridge, NumericIdsBeyondTwoToThe53AreRefusedNotRounded)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QByteArray m = QJsonDocument(params(host)).toJson(QJsonDocument::Compact);
    for (const QByteArray& id : {QByteArray("123456789012345678901234567890"), QByteArray("9007199254740992"),
                                 QByteArray("-9007199254740993"), QByteArray("1e300")}) {
        client.sendLine("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"desktop.health\",\"params\":" + m + "}\n");
        const auto line = client.readLine();
        ASSERT_TRUE(line.has_value()) << id.constData();
        EXPECT_FALSE(line->contains("e+")) << line->constData();
        const QJsonObject response = QJsonDocument::fromJson(*line).object();
        EXPECT_TRUE(response.value(QStringLiteral("id")).isNull()) << line->constData();
        EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_INVALID_REQUEST"));
        const QJsonObject error = errorOf(response);
        EXPECT_EQ(error.value(QStringLiteral("details")).toObject().value(QStringLiteral("jsonrpcCode")).toInt(),
                  -32600);
        EXPECT_EQ(error.value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
                  QStringLiteral("id"));
        EXPECT_TRUE(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("string id")));
    }
    for (const QByteArray& id : {QByteArray("9007199254740991"), QByteArray("-9007199254740991"), QByteArray("0")}) {
        client.sendLine("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"desktop.health\",\"params\":" +
                        QJsonDocument(params(host)).toJson(QJsonDocument::Compact) + "}\n");
        const auto line = client.readLine();
        ASSERT_TRUE(line.has_value()) << id.constData();
        EXPECT_TRUE(line->contains(QByteArray("\"id\":" + id + ","))) << line->constData();
        EXPECT_TRUE(resultOf(QJsonDocument::fromJson(*line).object()).contains(QStringLiteral("hostVersion")));
    }
}

// An error answer of an execution says where its evidence is, and response.json holds it too.
TEST(Bridge, ErrorAnswersOfExecutionsSayWhereTheirEvidenceIs)
{
    TestHost host;
    TestClient client(host.socketPath());
    const auto expectEvidenceDir = [&](const QJsonObject& response, const QString& requestId, const char* code) {
        SCOPED_TRACE(code);
        EXPECT_EQ(errorCode(response), QString::fromLatin1(code)) << QJsonDocument(response).toJson().constData();
        const QString dir = errorOf(response)
                                .value(QStringLiteral("details"))
                                .toObject()
                                .value(QStringLiteral("evidenceDir"))
                                .toString();
        EXPECT_EQ(dir, evidenceDirFor(host, requestId));
        EXPECT_EQ(QJsonDocument::fromJson(readFile(dir + QStringLiteral("response.json"))).object(), response);
    };

    // The job's own error.
    QString id = newRequestId();
    expectEvidenceDir(
        client.call(QStringLiteral("desktop.click"),
                    QJsonObject{{QStringLiteral("meta"), meta(host, 60000, id)},
                                {QStringLiteral("confirm"), confirmPhrase()},
                                {QStringLiteral("target"),
                                 QJsonObject{{QStringLiteral("selector"),
                                              selector(QStringLiteral("AXButton"), QStringLiteral("Nope"))}}}}),
        id, "DESKTOP_ELEMENT_NOT_FOUND");
    // The executor's deadline.
    id = newRequestId();
    expectEvidenceDir(client.call(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, 30000, 200, id)), id,
                      "DESKTOP_TIMEOUT");
    // An abort of a queued execution, which never ran.
    TestClient controller(host.socketPath());
    const QString running = newRequestId();
    const QString queued = newRequestId();
    client.send(
        TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, 30000, 60000, running), 101));
    client.send(
        TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, 30000, 60000, queued), 102));
    QThread::msleep(100);
    for (const QString& abortId : {queued, running}) {
        EXPECT_TRUE(resultOf(controller.call(QStringLiteral("desktop.abort"),
                                             params(host, {{QStringLiteral("executionId"), abortId}})))
                        .value(QStringLiteral("aborted"))
                        .toBool());
    }
    QHash<int, QJsonObject> answers;
    for (int i = 0; i < 2; ++i) {
        const auto response = client.readObject(5000);
        ASSERT_TRUE(response.has_value());
        answers.insert(response->value(QStringLiteral("id")).toInt(), *response);
    }
    expectEvidenceDir(answers.value(101), running, "DESKTOP_ABORTED");
    expectEvidenceDir(answers.value(102), queued, "DESKTOP_ABORTED");

    // Refused before anything was queued: no execution, no evidence, no evidenceDir.
    const QJsonObject refused =
        client.call(QStringLiteral("desktop.hotkey"),
                    params(host, {{QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}}}));
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    EXPECT_FALSE(errorOf(refused).value(QStringLiteral("details")).toObject().contains(QStringLiteral("evidenceDir")));
}
