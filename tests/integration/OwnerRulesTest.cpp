// The owner's rules over a real socket (docs/protocol.md, "Policy"), on the fake backend: the
// built-in high-risk rule with nobody to ask, an owner's deny and allow, an ask a person answers
// during the call, the unattended mode, and a token bound to the element it was issued for.
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <gtest/gtest.h>

using namespace Testing;
using Bridge::ConfirmPolicy;
using Bridge::OwnerPolicy;

namespace {

TestHost::Options withPolicy(ConfirmPolicy confirmPolicy, const char* rules = "{}")
{
    TestHost::Options options;
    options.security.confirmPolicy = confirmPolicy;
    auto policy = OwnerPolicy::fromJson(QJsonDocument::fromJson(rules).object());
    EXPECT_TRUE(policy.ok());
    options.ownerPolicy = policy.ok() ? policy.value() : OwnerPolicy();
    return options;
}

QJsonObject meta(const TestHost& host)
{
    return Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = 20000, .requestId = newRequestId()});
}

QJsonObject selector(const QString& role, const QString& title)
{
    return QJsonObject{{QStringLiteral("selector"),
                        QJsonObject{{QStringLiteral("byRole"), role}, {QStringLiteral("titleEquals"), title}}}};
}

QJsonObject withPhrase(const TestHost& host, QJsonObject params)
{
    params.insert(QStringLiteral("meta"), meta(host));
    params.insert(QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}});
    return params;
}

QJsonObject clickSend()
{
    return QJsonObject{{QStringLiteral("target"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}};
}

QJsonObject details(const QJsonObject& response)
{
    return errorOf(response).value(QStringLiteral("details")).toObject();
}

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace

// "Send" is high-risk; the built-in rule asks a person, and under the auto policy (tests) there
// is nobody: refused before any input, naming the rule and why it is high-risk.
TEST(OwnerRules, AHighRiskClickWithNobodyToAskIsRefusedNamingTheRule)
{
    TestHost host(withPolicy(ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    const QJsonObject response = client.call(QStringLiteral("desktop.click"), withPhrase(host, clickSend()));
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(response);
    const QJsonObject d = details(response);
    EXPECT_EQ(d.value(QStringLiteral("reason")).toString(), QStringLiteral("needs_person"));
    EXPECT_EQ(d.value(QStringLiteral("rule")).toString(), QStringLiteral("default:high-risk"));
    EXPECT_EQ(d.value(QStringLiteral("risk")).toString(), QStringLiteral("high"));
    EXPECT_TRUE(d.value(QStringLiteral("riskWhy")).toString().contains(QStringLiteral("Send")));
    EXPECT_FALSE(errorOf(response).value(QStringLiteral("retryable")).toBool(true));
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
    // The audit keeps the decision with its rule.
    const auto lines = host.auditLines(QStringLiteral("policy"));
    ASSERT_FALSE(lines.isEmpty());
    EXPECT_EQ(lines.last().value(QStringLiteral("rule")).toString(), QStringLiteral("default:high-risk"));
    EXPECT_EQ(lines.last().value(QStringLiteral("outcome")).toString(), QStringLiteral("needs_person"));

    // Typing into the field is no high-risk action: it goes through.
    QJsonObject type{{QStringLiteral("target"), selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))},
                     {QStringLiteral("text"), QStringLiteral("hello")}};
    const QJsonObject typed = client.call(QStringLiteral("desktop.typeText"), withPhrase(host, type));
    EXPECT_FALSE(resultOf(typed).isEmpty()) << dump(typed);
    // Enter in that field sends what the window's "Send" would: high-risk too.
    type.insert(QStringLiteral("text"), QStringLiteral("hello\n"));
    const QJsonObject entered = client.call(QStringLiteral("desktop.typeText"), withPhrase(host, type));
    EXPECT_EQ(details(entered).value(QStringLiteral("reason")).toString(), QStringLiteral("needs_person"))
        << dump(entered);
    EXPECT_TRUE(details(entered).value(QStringLiteral("riskWhy")).toString().contains(QStringLiteral("Enter")));
}

// The owner's rules come first: a deny for the app's typing, an allow for its high-risk actions.
TEST(OwnerRules, TheOwnersDenyAndAllowDecideAndSayWhichRule)
{
    TestHost host(withPolicy(ConfirmPolicy::Auto, R"({"rules": [
        {"name": "no-typing-in-fake", "app": {"name": "Fake App"}, "classes": ["type"], "decision": "deny"},
        {"name": "fake-may-send", "app": {"name": "Fake App"}, "risk": "high", "decision": "allow"}]})"));
    TestClient client(host.socketPath());
    const QJsonObject typed =
        client.call(QStringLiteral("desktop.typeText"),
                    withPhrase(host, QJsonObject{{QStringLiteral("target"),
                                                  selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))},
                                                 {QStringLiteral("text"), QStringLiteral("hello")}}));
    EXPECT_EQ(errorCode(typed), QStringLiteral("DESKTOP_CALLER_FORBIDDEN")) << dump(typed);
    EXPECT_EQ(details(typed).value(QStringLiteral("reason")).toString(), QStringLiteral("policy_denied"));
    EXPECT_EQ(details(typed).value(QStringLiteral("rule")).toString(), QStringLiteral("no-typing-in-fake"));
    EXPECT_FALSE(errorOf(typed).value(QStringLiteral("retryable")).toBool(true));

    const QJsonObject clicked = client.call(QStringLiteral("desktop.click"), withPhrase(host, clickSend()));
    EXPECT_FALSE(resultOf(clicked).isEmpty()) << dump(clicked);
    EXPECT_TRUE(host.desktop().effects().join(QLatin1Char(' ')).contains(QStringLiteral("Send")))
        << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
    const auto lines = host.auditLines(QStringLiteral("policy"));
    ASSERT_GE(lines.size(), 2);
    EXPECT_EQ(lines.last().value(QStringLiteral("rule")).toString(), QStringLiteral("fake-may-send"));
}

// With a person at the host, a phrase-only call under an ask opens the dialog during the call:
// it shows the rule and the risk, and the action waits for the answer.
TEST(OwnerRules, WithAPersonThereTheAskIsAnsweredDuringTheCall)
{
    TestHost host(withPolicy(ConfirmPolicy::Ask));
    ScriptedApprover approver(ScriptedApprover::Mode::Approve, 30);
    host.attachApprover(approver);
    TestClient client(host.socketPath());
    const QJsonObject clicked = client.call(QStringLiteral("desktop.click"), withPhrase(host, clickSend()), 20000);
    EXPECT_FALSE(resultOf(clicked).isEmpty()) << dump(clicked);
    const auto asked = approver.asked();
    ASSERT_EQ(asked.size(), 1);
    EXPECT_EQ(asked.first().kind, Bridge::ApprovalRequest::Kind::Action);
    EXPECT_EQ(asked.first().rule, QStringLiteral("default:high-risk"));
    EXPECT_EQ(asked.first().risk, QStringLiteral("high"));
    EXPECT_EQ(asked.first().resolved.value(QStringLiteral("title")).toString(), QStringLiteral("Send"));

    ScriptedApprover no(ScriptedApprover::Mode::Deny, 30);
    host.attachApprover(no);
    host.desktop().clearEffects();
    const QJsonObject refused = client.call(QStringLiteral("desktop.click"), withPhrase(host, clickSend()), 20000);
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(refused);
    EXPECT_EQ(details(refused).value(QStringLiteral("reason")).toString(), QStringLiteral("denied"));
    EXPECT_EQ(details(refused).value(QStringLiteral("rule")).toString(), QStringLiteral("default:high-risk"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

// Unattended: every ask is a refusal at once, never a dialog nobody answers.
TEST(OwnerRules, UnattendedRefusesAnAskWithoutADialog)
{
    TestHost::Options options = withPolicy(ConfirmPolicy::Ask, R"({"unattended": true})");
    TestHost host(options);
    ScriptedApprover approver(ScriptedApprover::Mode::Approve, 10);
    host.attachApprover(approver);
    TestClient client(host.socketPath());
    const QJsonObject refused = client.call(QStringLiteral("desktop.click"), withPhrase(host, clickSend()));
    EXPECT_EQ(details(refused).value(QStringLiteral("reason")).toString(), QStringLiteral("needs_person"))
        << dump(refused);
    EXPECT_TRUE(details(refused).value(QStringLiteral("unattended")).toBool());
    EXPECT_TRUE(approver.asked().isEmpty());
}

// A token binds the element resolved when it was issued: the same selector landing on another
// element at use is refused before any input, the token unspent on anything else.
TEST(OwnerRules, ATokenIsRefusedWhenItsSelectorNowLandsOnAnotherElement)
{
    TestHost host(withPolicy(ConfirmPolicy::Auto, R"({"rules": [{"name": "all", "decision": "allow"}]})"));
    TestClient client(host.socketPath());
    const QJsonObject intent{
        {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                            {QStringLiteral("titleContains"), QStringLiteral("e")}}}}}};
    const auto issue = [&] {
        const QJsonObject response =
            client.call(QStringLiteral("desktop.confirm.issue"),
                        QJsonObject{{QStringLiteral("meta"), meta(host)},
                                    {QStringLiteral("intent"),
                                     QJsonObject{{QStringLiteral("method"), QStringLiteral("desktop.click")},
                                                 {QStringLiteral("params"), intent}}}});
        return resultOf(response).value(QStringLiteral("token")).toString();
    };
    const auto use = [&](const QString& token) {
        QJsonObject params = intent;
        params.insert(QStringLiteral("meta"), meta(host));
        params.insert(QStringLiteral("confirm"), QJsonObject{{QStringLiteral("token"), token}});
        return client.call(QStringLiteral("desktop.click"), params);
    };
    // Issued while the selector lands on "Send"…
    const QString token = issue();
    ASSERT_FALSE(token.isEmpty());
    // …used after the window changed so that it lands on "Delete".
    QList<Automation::Node> nodes = FakeDesktop::defaultTree();
    for (Automation::Node& node : nodes) {
        if (node.title == QLatin1String("Send"))
            node.title = QStringLiteral("Delete");
    }
    host.desktop().setTree(nodes);
    const QJsonObject refused = use(token);
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(refused);
    EXPECT_EQ(details(refused).value(QStringLiteral("reason")).toString(), QStringLiteral("target_changed"));
    EXPECT_EQ(details(refused).value(QStringLiteral("changed")).toString(), QStringLiteral("element"));
    EXPECT_EQ(details(refused).value(QStringLiteral("issuedFor")).toObject().value(QStringLiteral("title")).toString(),
              QStringLiteral("Send"));
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << host.desktop().effects().join(QLatin1Char(' ')).toStdString();

    // A token issued for what is there now is good.
    const QJsonObject clicked = use(issue());
    EXPECT_FALSE(resultOf(clicked).isEmpty()) << dump(clicked);
}
