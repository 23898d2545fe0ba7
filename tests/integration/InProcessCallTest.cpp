// The typed call below JSON-RPC, as the host's own windows use it: no socket, no envelope. A
// click a person starts in the host's window is that person's approval (no dialog, no token),
// audited as `gui`; the stop, the evidence and the single worker apply as for any client.
#include "TestHost.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QMutex>
#include <QThread>

#include <gtest/gtest.h>

using namespace Testing;
using Automation::Result;

namespace {

QJsonObject meta(const TestHost& host)
{
    return QJsonObject{{QStringLiteral("schemaVersion"), 1},
                       {QStringLiteral("requestId"), newRequestId()},
                       {QStringLiteral("workspacePath"), host.workspace()},
                       {QStringLiteral("timeoutMs"), 20000}};
}

QJsonObject clickSend(const TestHost& host)
{
    return QJsonObject{{QStringLiteral("meta"), meta(host)},
                       {QStringLiteral("target"),
                        QJsonObject{{QStringLiteral("selector"),
                                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                 {QStringLiteral("titleEquals"), QStringLiteral("Send")}}}}}};
}

/// Calls `method` in process on the host's thread and waits for the answer.
Result<QJsonObject> callInProcess(TestHost& host, const Bridge::Caller& caller, const QString& method,
                                  const QJsonObject& params)
{
    struct Slot
    {
        QMutex mutex;
        std::optional<Result<QJsonObject>> answer;
    };
    auto slot = std::make_shared<Slot>();
    host.onHostThread([&](Bridge::Host& h) {
        h.dispatcher().call(caller, method, params, [slot](const Result<QJsonObject>& result) {
            QMutexLocker lock(&slot->mutex);
            slot->answer = result;
        });
    });
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired()) {
        {
            QMutexLocker lock(&slot->mutex);
            if (slot->answer)
                return *slot->answer;
        }
        QThread::msleep(10);
    }
    return Automation::Error::make(Automation::ErrorCode::InternalError, QStringLiteral("no answer in 20 s"));
}

TEST(InProcessCall, AGuiClickIsThePersonsApprovalAndLeavesEvidence)
{
    TestHost host;
    const auto clicked = callInProcess(host, Bridge::Caller::gui(), QStringLiteral("desktop.click"), clickSend(host));
    ASSERT_TRUE(clicked.ok()) << clicked.error().message.toStdString();
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("press:Send")});
    EXPECT_TRUE(clicked->value(QStringLiteral("clicked")).toBool());

    const auto approved = host.auditLines(QStringLiteral("gui_approved"));
    ASSERT_EQ(approved.size(), 1);
    EXPECT_EQ(approved[0].value(QStringLiteral("via")).toString(), QStringLiteral("gui"));
    EXPECT_EQ(approved[0].value(QStringLiteral("method")).toString(), QStringLiteral("desktop.click"));
    EXPECT_TRUE(host.auditLines(QStringLiteral("token_used")).isEmpty());
    EXPECT_TRUE(host.auditLines(QStringLiteral("phrase_used")).isEmpty());

    const QString dir = clicked->value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    ASSERT_FALSE(dir.isEmpty());
    EXPECT_TRUE(QDir(dir).exists(QStringLiteral("request.json")));
    EXPECT_TRUE(QDir(dir).exists(QStringLiteral("response.json")));
    QFile trace(dir + QStringLiteral("trace.jsonl"));
    ASSERT_TRUE(trace.open(QIODevice::ReadOnly));
    EXPECT_TRUE(trace.readAll().contains("gui_approved")) << "the approval line is part of the evidence";
}

TEST(InProcessCall, ASocketClientWithoutConfirmationIsStillRefused)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject response = client.call(QStringLiteral("desktop.click"), clickSend(host));
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

TEST(InProcessCall, APausedHostRefusesTheGuiToo)
{
    TestHost host;
    host.onHostThread([](Bridge::Host& h) { h.stop(); });
    const auto clicked = callInProcess(host, Bridge::Caller::gui(), QStringLiteral("desktop.click"), clickSend(host));
    ASSERT_FALSE(clicked.ok());
    EXPECT_EQ(clicked.error().code, Automation::ErrorCode::ConfirmRequired);
    EXPECT_EQ(clicked.error().details.value(QStringLiteral("reason")).toString(), QStringLiteral("paused"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
    EXPECT_EQ(host.auditLines(QStringLiteral("gui_refused")).size(), 1);
}

TEST(InProcessCall, ReadOnlyAndImmediateMethodsAnswerTheirTypedResult)
{
    TestHost host;
    QJsonObject find{{QStringLiteral("meta"), meta(host)},
                     {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")}}}};
    const auto found = callInProcess(host, Bridge::Caller::gui(), QStringLiteral("desktop.find"), find);
    ASSERT_TRUE(found.ok()) << found.error().message.toStdString();
    EXPECT_EQ(found->value(QStringLiteral("matched")).toInt(), 2);

    const auto unknown = callInProcess(host, Bridge::Caller::gui(), QStringLiteral("desktop.fly"),
                                       QJsonObject{{QStringLiteral("meta"), meta(host)}});
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().details.value(QStringLiteral("jsonrpcCode")).toInt(), -32601);
}

} // namespace
