// The owner's rules as they are kept and changed (docs/protocol.md, "Policy", §5.28), over a
// real socket on the fake backend: desktop.policy and msgcode-desktopctl policy, the rule file
// (0600), a change that loosens refused without a person and applied with one, the dialog's
// "for N minutes" and "always", grants surviving a restart and revoked from the CLI, and a rule
// file changed behind the host's back.
#include "HostProcess.h"
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace Testing;
using Bridge::ConfirmPolicy;

namespace {

QJsonObject meta(const TestHost& host)
{
    return Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = 20000, .requestId = newRequestId()});
}

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

QJsonObject details(const QJsonObject& response)
{
    return errorOf(response).value(QStringLiteral("details")).toObject();
}

/// A host keeping its rules in `dir`/policy.json, its trusted copy in `dir`/data.
TestHost::Options inFolder(const QString& dir, ConfirmPolicy confirmPolicy)
{
    TestHost::Options options;
    options.security.confirmPolicy = confirmPolicy;
    options.security.dataDir = dir + QStringLiteral("/data");
    options.ownerPolicy = Bridge::OwnerPolicy();
    options.policyFile = dir + QStringLiteral("/policy.json");
    return options;
}

QJsonObject policy(TestClient& client, const TestHost& host, QJsonObject params)
{
    params.insert(QStringLiteral("meta"), meta(host));
    return client.call(QStringLiteral("desktop.policy"), params, 20000);
}

QJsonObject clickSend(TestClient& client, const TestHost& host)
{
    return client.call(
        QStringLiteral("desktop.click"),
        QJsonObject{{QStringLiteral("meta"), meta(host)},
                    {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}},
                    {QStringLiteral("target"),
                     QJsonObject{{QStringLiteral("selector"),
                                  QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                              {QStringLiteral("titleEquals"), QStringLiteral("Send")}}}}}},
        20000);
}

QJsonObject rule(const char* json)
{
    return QJsonDocument::fromJson(json).object();
}

QStringList ruleNames(const QJsonObject& result)
{
    QStringList names;
    for (const QJsonValue& r : result.value(QStringLiteral("rules")).toArray())
        names.append(r.toObject().value(QStringLiteral("name")).toString());
    return names;
}

QJsonObject fileJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

// list shows every rule in force, the built-in ones with their names; a deny rule tightens, so
// it applies at once, is written to the 0600 file, and decides the next click naming itself.
TEST(PolicyRules, ListNamesEveryRuleAndATighteningRuleAppliesAtOnceFromTheFile)
{
    QTemporaryDir dir;
    TestHost host(inFolder(dir.path(), ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    const QJsonObject listed = resultOf(policy(client, host, {{QStringLiteral("action"), QStringLiteral("list")}}));
    EXPECT_EQ(ruleNames(listed),
              (QStringList{QStringLiteral("sentinel:terminals"), QStringLiteral("sentinel:password-managers"),
                           QStringLiteral("sentinel:keychain"), QStringLiteral("sentinel:system-settings"),
                           QStringLiteral("default:high-risk"), QStringLiteral("default:act")}))
        << dump(listed);
    EXPECT_TRUE(listed.value(QStringLiteral("file")).toObject().value(QStringLiteral("trusted")).toBool());

    const QJsonObject set = policy(
        client, host,
        {{QStringLiteral("action"), QStringLiteral("set")},
         {QStringLiteral("rule"),
          rule(
              R"({"name": "fake-no-pointer", "app": {"name": "Fake App"}, "classes": ["pointer"], "decision": "deny"})")}});
    ASSERT_TRUE(resultOf(set).value(QStringLiteral("changed")).toBool()) << dump(set);
    EXPECT_EQ(ruleNames(resultOf(set)).first(), QStringLiteral("fake-no-pointer"));
    const QString path = dir.path() + QStringLiteral("/policy.json");
    struct stat info
    {
    };
    ASSERT_EQ(::stat(QFile::encodeName(path).constData(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600u);
    const QJsonArray written = fileJson(path).value(QStringLiteral("rules")).toArray();
    ASSERT_EQ(written.size(), 1);
    EXPECT_EQ(written.first().toObject().value(QStringLiteral("name")).toString(), QStringLiteral("fake-no-pointer"));

    const QJsonObject refused = clickSend(client, host);
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CALLER_FORBIDDEN")) << dump(refused);
    EXPECT_EQ(details(refused).value(QStringLiteral("rule")).toString(), QStringLiteral("fake-no-pointer"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    // test answers what decides, without acting.
    const QJsonObject tested =
        resultOf(policy(client, host,
                        {{QStringLiteral("action"), QStringLiteral("test")},
                         {QStringLiteral("subject"), rule(R"({"app": {"executable": "xterm"}, "class": "type"})")}}));
    EXPECT_EQ(tested.value(QStringLiteral("verdict")).toObject().value(QStringLiteral("rule")).toString(),
              QStringLiteral("sentinel:terminals"))
        << dump(tested);
    EXPECT_EQ(tested.value(QStringLiteral("verdict")).toObject().value(QStringLiteral("decision")).toString(),
              QStringLiteral("ask"));
}

// An allow rule loosens: with nobody to ask it is refused and nothing changes; with a person
// there the host's dialog asks, and a no leaves the rules as they were.
TEST(PolicyRules, ALooseningChangeNeedsAPersonInTheHostsDialog)
{
    QTemporaryDir dir;
    const QJsonObject allowSend =
        rule(R"({"name": "fake-may-send", "app": {"name": "Fake App"}, "risk": "high", "decision": "allow"})");
    {
        TestHost host(inFolder(dir.path(), ConfirmPolicy::Auto));
        TestClient client(host.socketPath());
        const QJsonObject refused = policy(
            client, host, {{QStringLiteral("action"), QStringLiteral("set")}, {QStringLiteral("rule"), allowSend}});
        EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(refused);
        EXPECT_EQ(details(refused).value(QStringLiteral("reason")).toString(), QStringLiteral("needs_person"));
        EXPECT_FALSE(errorOf(refused).value(QStringLiteral("retryable")).toBool(true));
        EXPECT_FALSE(QFile::exists(dir.path() + QStringLiteral("/policy.json")));
        EXPECT_EQ(errorCode(clickSend(client, host)), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
        EXPECT_FALSE(host.auditLines(QStringLiteral("policy_change_refused")).isEmpty());
    }
    {
        TestHost host(inFolder(dir.path(), ConfirmPolicy::Ask));
        ScriptedApprover no(ScriptedApprover::Mode::Deny, 20);
        host.attachApprover(no);
        TestClient client(host.socketPath());
        const QJsonObject denied = policy(
            client, host, {{QStringLiteral("action"), QStringLiteral("set")}, {QStringLiteral("rule"), allowSend}});
        EXPECT_EQ(details(denied).value(QStringLiteral("reason")).toString(), QStringLiteral("denied")) << dump(denied);
        ASSERT_EQ(no.asked().size(), 1);
        EXPECT_EQ(no.asked().first().kind, Bridge::ApprovalRequest::Kind::Policy);
        EXPECT_TRUE(no.asked().first().change.contains(QStringLiteral("fake-may-send")));

        ScriptedApprover yes(ScriptedApprover::Mode::Approve, 20);
        host.attachApprover(yes);
        const QJsonObject approved = policy(
            client, host, {{QStringLiteral("action"), QStringLiteral("set")}, {QStringLiteral("rule"), allowSend}});
        EXPECT_TRUE(resultOf(approved).value(QStringLiteral("changed")).toBool()) << dump(approved);
        // The person's click on the dialog is not asked again for the action the rule allows.
        const QJsonObject clicked = clickSend(client, host);
        EXPECT_FALSE(resultOf(clicked).isEmpty()) << dump(clicked);
        EXPECT_EQ(yes.asked().size(), 1);
        EXPECT_EQ(host.desktop().effects().size(), 1);
    }
}

// "Allow in this app for N minutes" in the dialog becomes a grant: the next high-risk click is
// not asked, the grant is in the file, outlives a restart of the host, and a revoke from the
// CLI (it tightens) ends it at once.
TEST(PolicyRules, AGrantFromTheDialogOutlivesARestartAndIsRevokedFromTheCli)
{
    QTemporaryDir dir;
    QString grantId;
    {
        TestHost host(inFolder(dir.path(), ConfirmPolicy::Ask));
        ScriptedApprover approver(ScriptedApprover::Mode::Approve, 20);
        approver.scope = QStringLiteral("minutes");
        approver.grantMinutes = 10;
        host.attachApprover(approver);
        TestClient client(host.socketPath());
        EXPECT_FALSE(resultOf(clickSend(client, host)).isEmpty());
        ASSERT_EQ(approver.asked().size(), 1);
        const QJsonObject again = clickSend(client, host);
        EXPECT_FALSE(resultOf(again).isEmpty()) << dump(again);
        EXPECT_EQ(approver.asked().size(), 1) << "a live grant answers instead of the dialog";
        const QJsonArray grants = resultOf(policy(client, host, {{QStringLiteral("action"), QStringLiteral("list")}}))
                                      .value(QStringLiteral("grants"))
                                      .toArray();
        ASSERT_EQ(grants.size(), 1);
        grantId = grants.first().toObject().value(QStringLiteral("id")).toString();
        EXPECT_EQ(grants.first().toObject().value(QStringLiteral("class")).toString(), QStringLiteral("pointer"));
        EXPECT_TRUE(grants.first().toObject().value(QStringLiteral("highRisk")).toBool());
        const auto lines = host.auditLines(QStringLiteral("policy"));
        ASSERT_FALSE(lines.isEmpty());
        EXPECT_EQ(lines.last().value(QStringLiteral("rule")).toString(), QStringLiteral("grant:") + grantId);
    }
    // The same file after a restart, and nobody to ask: the grant still allows.
    TestHost host(inFolder(dir.path(), ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    const QJsonObject allowed = clickSend(client, host);
    EXPECT_FALSE(resultOf(allowed).isEmpty()) << dump(allowed);
    const auto revoked =
        runCommand(QStringLiteral(MDH_CTL_BINARY), {QStringLiteral("--socket"), host.socketPath(),
                                                    QStringLiteral("policy"), QStringLiteral("revoke"), grantId});
    EXPECT_EQ(revoked.exitCode, 0) << revoked.err.toStdString();
    EXPECT_TRUE(revoked.out.contains(QStringLiteral("changed"))) << revoked.out.toStdString();
    const QJsonObject refused = clickSend(client, host);
    EXPECT_EQ(details(refused).value(QStringLiteral("reason")).toString(), QStringLiteral("needs_person"))
        << dump(refused);
    EXPECT_TRUE(
        fileJson(dir.path() + QStringLiteral("/policy.json")).value(QStringLiteral("grants")).toArray().isEmpty());
    // The CLI lists what is in force, the built-in rules by name.
    const auto listed = runCommand(QStringLiteral(MDH_CTL_BINARY), {QStringLiteral("--socket"), host.socketPath(),
                                                                    QStringLiteral("policy"), QStringLiteral("list")});
    EXPECT_EQ(listed.exitCode, 0);
    EXPECT_TRUE(listed.out.contains(QStringLiteral("default:high-risk"))) << listed.out.toStdString();
}

// "Always allow in this app" proposes a rule, approved right there: it is written to the file
// and decides the next time.
TEST(PolicyRules, AlwaysAllowFromTheDialogAddsARule)
{
    QTemporaryDir dir;
    TestHost host(inFolder(dir.path(), ConfirmPolicy::Ask));
    ScriptedApprover approver(ScriptedApprover::Mode::Approve, 20);
    approver.scope = QStringLiteral("always");
    host.attachApprover(approver);
    TestClient client(host.socketPath());
    EXPECT_FALSE(resultOf(clickSend(client, host)).isEmpty());
    EXPECT_FALSE(resultOf(clickSend(client, host)).isEmpty());
    EXPECT_EQ(approver.asked().size(), 1);
    const QJsonArray rules =
        fileJson(dir.path() + QStringLiteral("/policy.json")).value(QStringLiteral("rules")).toArray();
    ASSERT_EQ(rules.size(), 1);
    EXPECT_EQ(rules.first().toObject().value(QStringLiteral("decision")).toString(), QStringLiteral("allow"));
    EXPECT_EQ(rules.first().toObject().value(QStringLiteral("classes")).toArray(),
              QJsonArray{QStringLiteral("pointer")});
}

// A rule file changed behind the host's back: its allow rule and its grant are left out (they
// loosen), its deny rule applies at once; list says the file is not trusted and what is left
// out; trusting it from a client needs a person.
TEST(PolicyRules, ARuleFileChangedBehindTheHostsBackAppliesOnlyWhatTightens)
{
    QTemporaryDir dir;
    TestHost host(inFolder(dir.path(), ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    const QString path = dir.path() + QStringLiteral("/policy.json");
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(R"({"rules": [
            {"name": "sneaky-allow", "decision": "allow"},
            {"name": "no-typing-in-fake", "app": {"name": "Fake App"}, "classes": ["type"], "decision": "deny"}]})");
    }
    // The watcher sees it within moments.
    QJsonObject listed;
    for (int i = 0; i < 100; ++i) {
        listed = resultOf(policy(client, host, {{QStringLiteral("action"), QStringLiteral("list")}}));
        if (!listed.value(QStringLiteral("file")).toObject().value(QStringLiteral("trusted")).toBool(true))
            break;
        QThread::msleep(50);
    }
    const QJsonObject file = listed.value(QStringLiteral("file")).toObject();
    EXPECT_FALSE(file.value(QStringLiteral("trusted")).toBool(true)) << dump(listed);
    ASSERT_EQ(file.value(QStringLiteral("ignored")).toArray().size(), 1) << dump(listed);
    EXPECT_EQ(file.value(QStringLiteral("ignored"))
                  .toArray()
                  .first()
                  .toObject()
                  .value(QStringLiteral("rule"))
                  .toObject()
                  .value(QStringLiteral("name"))
                  .toString(),
              QStringLiteral("sneaky-allow"));
    EXPECT_TRUE(ruleNames(listed).contains(QStringLiteral("no-typing-in-fake")));
    EXPECT_FALSE(ruleNames(listed).contains(QStringLiteral("sneaky-allow")));

    // The allow rule does not answer the high-risk click; the deny rule refuses typing.
    EXPECT_EQ(details(clickSend(client, host)).value(QStringLiteral("rule")).toString(),
              QStringLiteral("default:high-risk"));
    const QJsonObject typed = client.call(
        QStringLiteral("desktop.typeText"),
        QJsonObject{{QStringLiteral("meta"), meta(host)},
                    {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}},
                    {QStringLiteral("text"), QStringLiteral("hello")}},
        20000);
    EXPECT_EQ(details(typed).value(QStringLiteral("reason")).toString(), QStringLiteral("policy_denied"))
        << dump(typed);
    EXPECT_FALSE(host.auditLines(QStringLiteral("policy_file_untrusted")).isEmpty());

    const QJsonObject trust = policy(client, host, {{QStringLiteral("action"), QStringLiteral("trust")}});
    EXPECT_EQ(details(trust).value(QStringLiteral("reason")).toString(), QStringLiteral("needs_person")) << dump(trust);
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

// Bad input is a clear params error and changes nothing.
TEST(PolicyRules, ABadRuleIsAParamsErrorNamingTheField)
{
    QTemporaryDir dir;
    TestHost host(inFolder(dir.path(), ConfirmPolicy::Auto));
    TestClient client(host.socketPath());
    const QJsonObject bad = policy(client, host,
                                   {{QStringLiteral("action"), QStringLiteral("set")},
                                    {QStringLiteral("rule"), rule(R"({"name": "x", "decision": "maybe"})")}});
    EXPECT_EQ(errorCode(bad), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(bad);
    EXPECT_TRUE(dump(bad).find("rule.decision") != std::string::npos) << dump(bad);
    const QJsonObject builtIn = policy(client, host,
                                       {{QStringLiteral("action"), QStringLiteral("remove")},
                                        {QStringLiteral("name"), QStringLiteral("default:high-risk")}});
    EXPECT_EQ(errorCode(builtIn), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(builtIn);
    EXPECT_FALSE(QFile::exists(dir.path() + QStringLiteral("/policy.json")));
}

// A rule for reads: the owner denies reading Fake App; observe and find are refused before
// anything is read, naming the rule; the window list (titles only) is still answered.
TEST(PolicyRules, AnOwnersRuleForReadsRefusesObserveAndFindInThatApp)
{
    TestHost::Options options;
    options.security.confirmPolicy = ConfirmPolicy::Auto;
    auto rules = Bridge::OwnerPolicy::fromJson(
        rule(R"({"rules": [{"name": "no-reading-fake", "app": {"name": "Fake App"}, "classes": ["read"],
                            "decision": "deny"}]})"));
    ASSERT_TRUE(rules.ok());
    options.ownerPolicy = rules.value();
    TestHost host(options);
    TestClient client(host.socketPath());
    const QJsonObject observed =
        client.call(QStringLiteral("desktop.observe"), QJsonObject{{QStringLiteral("meta"), meta(host)}}, 20000);
    EXPECT_EQ(errorCode(observed), QStringLiteral("DESKTOP_CALLER_FORBIDDEN")) << dump(observed);
    EXPECT_EQ(details(observed).value(QStringLiteral("rule")).toString(), QStringLiteral("no-reading-fake"));
    EXPECT_EQ(details(observed).value(QStringLiteral("class")).toString(), QStringLiteral("read"));
    const QJsonObject found = client.call(
        QStringLiteral("desktop.find"),
        QJsonObject{{QStringLiteral("meta"), meta(host)},
                    {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")}}}},
        20000);
    EXPECT_EQ(details(found).value(QStringLiteral("reason")).toString(), QStringLiteral("policy_denied"))
        << dump(found);
    const QJsonObject windows =
        client.call(QStringLiteral("desktop.windows"), QJsonObject{{QStringLiteral("meta"), meta(host)}}, 20000);
    EXPECT_FALSE(resultOf(windows).isEmpty()) << dump(windows);

    // The same reads in another app's rule are not touched.
    auto other = Bridge::OwnerPolicy::fromJson(rule(
        R"({"rules": [{"name": "no-reading-keepass", "app": {"executable": "keepassxc"}, "classes": ["read"],
                       "decision": "deny"}]})"));
    host.onHostThread([&](Bridge::Host& h) { h.setOwnerPolicy(other.value()); });
    const QJsonObject allowed =
        client.call(QStringLiteral("desktop.observe"), QJsonObject{{QStringLiteral("meta"), meta(host)}}, 20000);
    EXPECT_FALSE(resultOf(allowed).isEmpty()) << dump(allowed);
}
