// Emergency stop and resume over a real socket: what is aborted, how fast input
// stops, what a paused host refuses, who may resume it, and the audit and evidence lines.
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QThread>

#include <gtest/gtest.h>

#include <chrono>

using namespace Testing;
using Bridge::ConfirmPolicy;
using Clock = std::chrono::steady_clock;

namespace {

TestHost::Options policy(ConfirmPolicy confirmPolicy)
{
    TestHost::Options options;
    options.security.confirmPolicy = confirmPolicy;
    return options;
}

QJsonObject meta(const TestHost& host, QString requestId = newRequestId(), int timeoutMs = 60000)
{
    return Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = timeoutMs, .requestId = requestId});
}

/// stop and resume need meta, but no workspace.
QJsonObject bareMeta()
{
    return QJsonObject{{QStringLiteral("meta"), Bridge::buildMeta({.timeoutMs = std::nullopt})}};
}

QJsonObject phrase()
{
    return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
}

QJsonObject clickSend(const TestHost& host, const QJsonObject& confirm = phrase(), QString requestId = newRequestId())
{
    return QJsonObject{{QStringLiteral("meta"), meta(host, requestId)},
                       {QStringLiteral("confirm"), confirm},
                       {QStringLiteral("target"),
                        QJsonObject{{QStringLiteral("selector"),
                                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                 {QStringLiteral("titleEquals"), QStringLiteral("Send")}}}}}};
}

QJsonObject typeText(const TestHost& host, const QString& text, QString requestId = newRequestId())
{
    return QJsonObject{{QStringLiteral("meta"), meta(host, requestId)},
                       {QStringLiteral("confirm"), phrase()},
                       {QStringLiteral("target"),
                        QJsonObject{{QStringLiteral("selector"),
                                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                                 {QStringLiteral("titleEquals"), QStringLiteral("Message")}}}}},
                       {QStringLiteral("text"), text}};
}

QJsonObject neverSatisfied(const TestHost& host, QString requestId)
{
    return QJsonObject{{QStringLiteral("meta"), meta(host, requestId)},
                       {QStringLiteral("condition"),
                        QJsonObject{{QStringLiteral("selectorExists"),
                                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                 {QStringLiteral("titleEquals"), QStringLiteral("Never")}}}}},
                       {QStringLiteral("pollMs"), 20},
                       {QStringLiteral("timeoutMs"), 30000}};
}

QJsonObject findButtons(const TestHost& host, QString requestId = newRequestId())
{
    return QJsonObject{
        {QStringLiteral("meta"), meta(host, requestId)},
        {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")}}}};
}

QJsonObject issueFor(const TestHost& host, const QJsonObject& clickParams)
{
    QJsonObject intentParams = clickParams;
    intentParams.remove(QStringLiteral("meta"));
    intentParams.remove(QStringLiteral("confirm"));
    return QJsonObject{
        {QStringLiteral("meta"), meta(host)},
        {QStringLiteral("intent"), QJsonObject{{QStringLiteral("method"), QStringLiteral("desktop.click")},
                                               {QStringLiteral("params"), intentParams}}}};
}

QString reasonOf(const QJsonObject& response)
{
    return errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString();
}

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

void expectPaused(const QJsonObject& response)
{
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(response);
    EXPECT_EQ(reasonOf(response), QStringLiteral("paused")) << dump(response);
}

/// The "audit" steps of an execution's trace.
QList<QJsonObject> auditSteps(const QString& workspace, const QString& executionId)
{
    QList<QJsonObject> steps;
    const QString dir = workspace + QStringLiteral("/artifacts/desktop/") +
                        QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate) + QLatin1Char('/') + executionId;
    QFile file(dir + QStringLiteral("/trace.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return steps;
    for (const QByteArray& line : file.readAll().split('\n')) {
        const QJsonObject step = QJsonDocument::fromJson(line).object();
        if (step.value(QStringLiteral("step")).toString() == QLatin1String("audit"))
            steps.append(step.value(QStringLiteral("details")).toObject());
    }
    return steps;
}

QJsonObject health(TestClient& client, const TestHost& host)
{
    return resultOf(client.call(QStringLiteral("desktop.health"), QJsonObject{{QStringLiteral("meta"), meta(host)}}));
}

} // namespace

TEST(Stop, NoKeyIsInjectedLaterThan100msAfterTheStopAnswer)
{
    TestHost host;
    host.desktop().setDelay(QStringLiteral("perKey"), {5, false}); // 2000 keys: ten seconds or more
    TestClient typist(host.socketPath());
    TestClient stopper(host.socketPath());
    const QString typingId = newRequestId();
    typist.send(TestClient::request(QStringLiteral("desktop.typeText"),
                                    typeText(host, QString(2000, QLatin1Char('x')), typingId),
                                    QStringLiteral("typing")));
    ASSERT_TRUE(QTest::qWaitFor([&] { return host.desktop().keyTimes().size() >= 20; }, 10000));

    const Clock::time_point sent = Clock::now();
    const QJsonObject stopped = stopper.call(QStringLiteral("desktop.stop"), bareMeta());
    const Clock::time_point answered = Clock::now();
    const QJsonObject result = resultOf(stopped);
    ASSERT_FALSE(result.isEmpty()) << dump(stopped);
    EXPECT_TRUE(result.value(QStringLiteral("stopped")).toBool());
    EXPECT_TRUE(result.value(QStringLiteral("paused")).toBool());
    EXPECT_EQ(result.value(QStringLiteral("aborted")).toInt(), 1);
    EXPECT_EQ(result.value(QStringLiteral("executionIds")).toArray(), QJsonArray{typingId});

    const auto typed = typist.readObject(10000);
    ASSERT_TRUE(typed.has_value());
    EXPECT_EQ(errorCode(*typed), QStringLiteral("DESKTOP_ABORTED")) << dump(*typed);
    EXPECT_EQ(reasonOf(*typed), QStringLiteral("stop"));

    // Give a runaway typist every chance to show itself, then check every key's time.
    QThread::msleep(300);
    const auto keys = host.desktop().keyTimes();
    ASSERT_FALSE(keys.isEmpty());
    EXPECT_LT(keys.size(), 2000);
    const auto bound = answered + std::chrono::milliseconds(100);
    int late = 0;
    for (const auto& key : keys) {
        if (key > bound)
            ++late;
    }
    EXPECT_EQ(late, 0) << "keys injected more than 100 ms after the stop answer; last key "
                       << std::chrono::duration_cast<std::chrono::milliseconds>(keys.last() - sent).count()
                       << " ms after the stop was sent";
    EXPECT_FALSE(host.desktop().effects().join(QLatin1Char(' ')).contains(QStringLiteral("type:")));

    const auto stops = host.auditLines(QStringLiteral("stop"));
    ASSERT_EQ(stops.size(), 1);
    EXPECT_EQ(stops[0].value(QStringLiteral("executionIds")).toArray(), QJsonArray{typingId});
    EXPECT_EQ(stops[0].value(QStringLiteral("via")).toString(), QStringLiteral("client"));
    EXPECT_EQ(stops[0].value(QStringLiteral("peer")).toObject().value(QStringLiteral("pid")).toInteger(),
              QCoreApplication::applicationPid());
    // The same line is in the aborted execution's evidence, after its phrase_used line.
    const auto steps = auditSteps(host.workspace(), typingId);
    ASSERT_EQ(steps.size(), 2);
    EXPECT_EQ(steps[0].value(QStringLiteral("event")).toString(), QStringLiteral("phrase_used"));
    EXPECT_EQ(steps[1], stops[0]);
}

TEST(Stop, AbortsTheRunningAndEveryQueuedExecution)
{
    TestHost host;
    TestClient client(host.socketPath());
    TestClient stopper(host.socketPath());
    const QStringList ids{newRequestId(), newRequestId(), newRequestId(), newRequestId()};
    client.send(TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, ids[0]), ids[0]));
    client.send(TestClient::request(QStringLiteral("desktop.find"), findButtons(host, ids[1]), ids[1]));
    client.send(TestClient::request(QStringLiteral("desktop.click"), clickSend(host, phrase(), ids[2]), ids[2]));
    client.send(
        TestClient::request(QStringLiteral("desktop.typeText"), typeText(host, QStringLiteral("hi"), ids[3]), ids[3]));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const QJsonObject bridge = health(stopper, host).value(QStringLiteral("bridge")).toObject();
            return bridge.value(QStringLiteral("running")).toBool() &&
                   bridge.value(QStringLiteral("queued")).toInt() == 3;
        },
        10000));

    const QJsonObject result = resultOf(stopper.call(QStringLiteral("desktop.stop"), bareMeta()));
    EXPECT_EQ(result.value(QStringLiteral("aborted")).toInt(), 4);
    EXPECT_EQ(result.value(QStringLiteral("executionIds")).toArray(), QJsonArray::fromStringList(ids));

    QHash<QString, QJsonObject> answers;
    for (int i = 0; i < 4; ++i) {
        const auto response = client.readObject(10000);
        ASSERT_TRUE(response.has_value());
        answers.insert(response->value(QStringLiteral("id")).toString(), *response);
    }
    for (const QString& id : ids) {
        ASSERT_TRUE(answers.contains(id));
        EXPECT_EQ(errorCode(answers[id]), QStringLiteral("DESKTOP_ABORTED")) << dump(answers[id]);
        EXPECT_EQ(reasonOf(answers[id]), QStringLiteral("stop"));
        EXPECT_EQ(
            errorOf(answers[id]).value(QStringLiteral("details")).toObject().value(QStringLiteral("phase")).toString(),
            id == ids[0] ? QStringLiteral("running") : QStringLiteral("queued"));
    }
    EXPECT_TRUE(host.desktop().effects().isEmpty());
    const QJsonObject bridge = health(stopper, host).value(QStringLiteral("bridge")).toObject();
    EXPECT_EQ(bridge.value(QStringLiteral("queued")).toInt(), 0);
    EXPECT_TRUE(bridge.value(QStringLiteral("paused")).toBool());
    // The worker leaves the aborted backend call at its next checkpoint.
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return !health(stopper, host)
                        .value(QStringLiteral("bridge"))
                        .toObject()
                        .value(QStringLiteral("running"))
                        .toBool();
        },
        5000));

    const auto stops = host.auditLines(QStringLiteral("stop"));
    ASSERT_EQ(stops.size(), 1);
    for (const QString& id : ids) {
        const auto steps = auditSteps(host.workspace(), id);
        ASSERT_FALSE(steps.isEmpty()) << id.toStdString();
        EXPECT_EQ(steps.last(), stops[0]);
    }
}

TEST(Stop, PausedHostRefusesSideEffectsAndTokensUntilResumed)
{
    TestHost host(policy(ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    const QJsonObject click = clickSend(host);
    const QJsonObject issued = client.call(QStringLiteral("desktop.confirm.issue"), issueFor(host, click));
    const QString token = resultOf(issued).value(QStringLiteral("token")).toString();
    ASSERT_FALSE(token.isEmpty()) << dump(issued);

    const QJsonObject stopped = resultOf(client.call(QStringLiteral("desktop.stop"), bareMeta()));
    EXPECT_EQ(stopped.value(QStringLiteral("aborted")).toInt(), 0);
    EXPECT_TRUE(stopped.value(QStringLiteral("paused")).toBool());

    expectPaused(client.call(QStringLiteral("desktop.click"), clickSend(host)));
    expectPaused(
        client.call(QStringLiteral("desktop.click"), clickSend(host, QJsonObject{{QStringLiteral("token"), token}})));
    expectPaused(client.call(QStringLiteral("desktop.typeText"), typeText(host, QStringLiteral("hi"))));
    expectPaused(client.call(QStringLiteral("desktop.hotkey"),
                             QJsonObject{{QStringLiteral("meta"), meta(host)},
                                         {QStringLiteral("confirm"), phrase()},
                                         {QStringLiteral("keys"), QJsonArray{QStringLiteral("enter")}}}));
    expectPaused(client.call(QStringLiteral("desktop.confirm.issue"), issueFor(host, click)));
    // Reading goes on.
    EXPECT_EQ(resultOf(client.call(QStringLiteral("desktop.find"), findButtons(host)))
                  .value(QStringLiteral("matched"))
                  .toInt(),
              2);
    EXPECT_TRUE(
        health(client, host).value(QStringLiteral("bridge")).toObject().value(QStringLiteral("paused")).toBool());
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    const QJsonObject resumed = client.call(QStringLiteral("desktop.resume"), bareMeta());
    EXPECT_EQ(resultOf(resumed), (QJsonObject{{QStringLiteral("resumed"), true}, {QStringLiteral("paused"), false}}))
        << dump(resumed);
    // The token refused while paused was not spent.
    EXPECT_TRUE(errorOf(client.call(QStringLiteral("desktop.click"),
                                    clickSend(host, QJsonObject{{QStringLiteral("token"), token}})))
                    .isEmpty());
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("press:Send")});

    const auto tokenRefused = host.auditLines(QStringLiteral("token_refused"));
    ASSERT_EQ(tokenRefused.size(), 1);
    EXPECT_EQ(tokenRefused[0].value(QStringLiteral("reason")).toString(), QStringLiteral("paused"));
    EXPECT_EQ(host.auditLines(QStringLiteral("phrase_refused")).size(), 3);
    ASSERT_EQ(host.auditLines(QStringLiteral("issue_refused")).size(), 1);
    EXPECT_EQ(host.auditLines(QStringLiteral("issue_refused"))[0].value(QStringLiteral("reason")).toString(),
              QStringLiteral("paused"));
    const auto approvals = host.auditLines(QStringLiteral("approval"));
    ASSERT_EQ(approvals.size(), 2); // the token before the stop, and the resume
    EXPECT_EQ(approvals[1].value(QStringLiteral("kind")).toString(), QStringLiteral("resume"));
    EXPECT_EQ(approvals[1].value(QStringLiteral("decision")).toString(), QStringLiteral("approved"));
    EXPECT_EQ(approvals[1].value(QStringLiteral("decidedBy")).toString(), QStringLiteral("auto"));
    const auto resumes = host.auditLines(QStringLiteral("resume"));
    ASSERT_EQ(resumes.size(), 1);
    EXPECT_EQ(resumes[0].value(QStringLiteral("via")).toString(), QStringLiteral("provider"));
    EXPECT_EQ(host.auditLines(QStringLiteral("token_used")).size(), 1);
}

TEST(Stop, ResumeIsRefusedWithoutAPersonsYesButTheGuiMayResume)
{
    TestHost host; // headless default: deny
    TestClient client(host.socketPath());
    ASSERT_FALSE(resultOf(client.call(QStringLiteral("desktop.stop"), bareMeta())).isEmpty());
    const QJsonObject refused = client.call(QStringLiteral("desktop.resume"), bareMeta());
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(refused);
    EXPECT_EQ(reasonOf(refused), QStringLiteral("denied"));
    EXPECT_EQ(errorOf(refused).value(QStringLiteral("details")).toObject().value(QStringLiteral("decision")).toString(),
              QStringLiteral("policy"));
    expectPaused(client.call(QStringLiteral("desktop.click"), clickSend(host)));

    bool resumed = false;
    host.onHostThread([&](Bridge::Host& h) { resumed = h.resume(QStringLiteral("tray")); });
    EXPECT_TRUE(resumed);
    EXPECT_TRUE(errorOf(client.call(QStringLiteral("desktop.click"), clickSend(host))).isEmpty());
    // Not paused: nothing to resume, nobody is asked.
    EXPECT_EQ(resultOf(client.call(QStringLiteral("desktop.resume"), bareMeta())),
              (QJsonObject{{QStringLiteral("resumed"), false}, {QStringLiteral("paused"), false}}));
    host.onHostThread([&](Bridge::Host& h) { resumed = h.resume(); });
    EXPECT_FALSE(resumed);

    const auto approvals = host.auditLines(QStringLiteral("approval"));
    ASSERT_EQ(approvals.size(), 1);
    EXPECT_EQ(approvals[0].value(QStringLiteral("kind")).toString(), QStringLiteral("resume"));
    EXPECT_EQ(approvals[0].value(QStringLiteral("decision")).toString(), QStringLiteral("denied"));
    const auto resumes = host.auditLines(QStringLiteral("resume"));
    ASSERT_EQ(resumes.size(), 1);
    EXPECT_EQ(resumes[0].value(QStringLiteral("via")).toString(), QStringLiteral("gui"));
    EXPECT_EQ(resumes[0].value(QStringLiteral("approver")).toString(), QStringLiteral("tray"));
    EXPECT_FALSE(resumes[0].contains(QStringLiteral("peer")));
}

TEST(Stop, ResumeUnderAskNeedsTheGui)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Approve);
    TestHost host(policy(ConfirmPolicy::Ask));
    TestClient client(host.socketPath());
    client.call(QStringLiteral("desktop.stop"), bareMeta());
    // No GUI attached: nobody can say yes.
    const QJsonObject refused = client.call(QStringLiteral("desktop.resume"), bareMeta());
    EXPECT_EQ(reasonOf(refused), QStringLiteral("denied")) << dump(refused);
    EXPECT_EQ(errorOf(refused).value(QStringLiteral("details")).toObject().value(QStringLiteral("decision")).toString(),
              QStringLiteral("no_approver"));

    host.attachApprover(approver);
    const QJsonObject resumed = client.call(QStringLiteral("desktop.resume"), bareMeta());
    EXPECT_TRUE(resultOf(resumed).value(QStringLiteral("resumed")).toBool()) << dump(resumed);
    ASSERT_EQ(approver.asked().size(), 1);
    const Bridge::ApprovalRequest asked = approver.asked().constFirst();
    EXPECT_EQ(asked.kind, Bridge::ApprovalRequest::Kind::Resume);
    EXPECT_EQ(asked.method, QStringLiteral("desktop.resume"));
    EXPECT_EQ(asked.peer.pid, QCoreApplication::applicationPid());
    EXPECT_TRUE(errorOf(client.call(QStringLiteral("desktop.click"), clickSend(host))).isEmpty());
    const auto resumes = host.auditLines(QStringLiteral("resume"));
    ASSERT_EQ(resumes.size(), 1);
    EXPECT_EQ(resumes[0].value(QStringLiteral("decidedBy")).toString(), QStringLiteral("user"));
}

TEST(Stop, WithdrawsPendingApprovalsAndTheGuiResumeAnswersWaitingResumes)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Never);
    TestHost host(policy(ConfirmPolicy::Ask));
    host.attachApprover(approver);
    TestClient asker(host.socketPath());
    TestClient stopper(host.socketPath());
    asker.send(TestClient::request(QStringLiteral("desktop.confirm.issue"), issueFor(host, clickSend(host)),
                                   QStringLiteral("issue")));
    ASSERT_TRUE(QTest::qWaitFor([&] { return approver.asked().size() == 1; }, 5000));

    stopper.call(QStringLiteral("desktop.stop"), bareMeta());
    const auto issue = asker.readObject(5000);
    ASSERT_TRUE(issue.has_value());
    expectPaused(*issue);
    EXPECT_EQ(approver.withdrawn(), QList<quint64>{approver.asked().constFirst().id});

    // A resume waiting for the person is answered when the tray resumes instead.
    asker.send(TestClient::request(QStringLiteral("desktop.resume"), bareMeta(), QStringLiteral("resume")));
    ASSERT_TRUE(QTest::qWaitFor([&] { return approver.asked().size() == 2; }, 5000));
    host.onHostThread([](Bridge::Host& h) { h.resume(); });
    const auto resumed = asker.readObject(5000);
    ASSERT_TRUE(resumed.has_value());
    EXPECT_TRUE(resultOf(*resumed).value(QStringLiteral("resumed")).toBool()) << dump(*resumed);
    EXPECT_EQ(approver.withdrawn().size(), 2);

    const auto approvals = host.auditLines(QStringLiteral("approval"));
    ASSERT_EQ(approvals.size(), 2);
    EXPECT_EQ(approvals[0].value(QStringLiteral("decision")).toString(), QStringLiteral("withdrawn"));
    EXPECT_EQ(approvals[0].value(QStringLiteral("reason")).toString(), QStringLiteral("paused"));
    EXPECT_EQ(approvals[1].value(QStringLiteral("decision")).toString(), QStringLiteral("withdrawn"));
}

TEST(Stop, TheGuiStopsToo)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QString id = newRequestId();
    client.send(TestClient::request(QStringLiteral("desktop.waitUntil"), neverSatisfied(host, id), id));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            bool busy = false;
            host.onHostThread([&](Bridge::Host& h) { busy = h.executor().isBusy(); });
            return busy;
        },
        5000));
    QJsonObject result;
    host.onHostThread([&](Bridge::Host& h) { result = h.stop(); });
    EXPECT_EQ(result.value(QStringLiteral("aborted")).toInt(), 1);
    const auto answer = client.readObject(5000);
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(errorCode(*answer), QStringLiteral("DESKTOP_ABORTED"));
    expectPaused(client.call(QStringLiteral("desktop.click"), clickSend(host)));
    // A second stop is harmless and still answers.
    EXPECT_TRUE(
        resultOf(client.call(QStringLiteral("desktop.stop"), bareMeta())).value(QStringLiteral("stopped")).toBool());
    const auto stops = host.auditLines(QStringLiteral("stop"));
    ASSERT_EQ(stops.size(), 2);
    EXPECT_EQ(stops[0].value(QStringLiteral("via")).toString(), QStringLiteral("gui"));
    EXPECT_FALSE(stops[0].contains(QStringLiteral("peer")));
    EXPECT_TRUE(stops[1].value(QStringLiteral("wasPaused")).toBool());
}

TEST(Stop, NeedsMetaButNoWorkspace)
{
    TestHost host;
    TestClient client(host.socketPath());
    EXPECT_EQ(errorCode(client.call(QStringLiteral("desktop.stop"), QJsonObject{})),
              QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(errorCode(client.call(QStringLiteral("desktop.resume"), QJsonObject{})),
              QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_TRUE(
        resultOf(client.call(QStringLiteral("desktop.stop"), bareMeta())).value(QStringLiteral("stopped")).toBool());
}
