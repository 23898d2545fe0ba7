// The owner's rules (docs/protocol.md, "Policy"): which actions are high-risk, which apps are
// sentinels, and which rule decides.
#include "bridge/security/OwnerPolicy.h"
#include "automation/Risk.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using Bridge::OwnerPolicy;
namespace Risk = Automation::Risk;

namespace {

OwnerPolicy::Subject subject(const QString& executable, const QString& actionClass, bool highRisk = false,
                             const QString& window = QStringLiteral("Window"))
{
    OwnerPolicy::Subject s;
    s.app.pid = 4242;
    s.app.name = executable;
    s.app.executable = executable;
    s.windowTitle = window;
    s.actionClass = actionClass;
    s.highRisk = highRisk;
    return s;
}

OwnerPolicy policyOf(const char* json)
{
    auto policy = OwnerPolicy::fromJson(QJsonDocument::fromJson(json).object());
    EXPECT_TRUE(policy.ok()) << (policy.ok() ? std::string() : policy.error().message.toStdString());
    return policy.ok() ? policy.value() : OwnerPolicy();
}

} // namespace

TEST(Risk, ControlsThatSendDeleteOrPayAreHighRiskInEnglishAndChinese)
{
    struct Case
    {
        QString role, title;
        Risk::Kind kind;
    };
    const QList<Case> cases{
        {QStringLiteral("AXButton"), QStringLiteral("Send"), Risk::Kind::Send},
        {QStringLiteral("AXButton"), QStringLiteral("_Delete"), Risk::Kind::Delete},
        {QStringLiteral("AXMenuItem"), QStringLiteral("Move to Trash"), Risk::Kind::Delete},
        {QStringLiteral("AXButton"), QStringLiteral("Pay now"), Risk::Kind::Pay},
        {QStringLiteral("AXButton"), QStringLiteral("&Replace"), Risk::Kind::Overwrite},
        {QStringLiteral("AXMenuItem"), QStringLiteral("Export as PDF…"), Risk::Kind::Export},
        {QStringLiteral("AXLink"), QStringLiteral("Publish"), Risk::Kind::Publish},
        {QStringLiteral("AXButton"), QStringLiteral("发送"), Risk::Kind::Send},
        {QStringLiteral("AXButton"), QStringLiteral("删除文件"), Risk::Kind::Delete},
        {QStringLiteral("AXButton"), QStringLiteral("立即支付"), Risk::Kind::Pay},
        {QStringLiteral("AXButton"), QStringLiteral("提交"), Risk::Kind::Submit},
        {QStringLiteral("AXMenuItem"), QStringLiteral("导出"), Risk::Kind::Export},
        {QStringLiteral("AXButton"), QStringLiteral("覆盖"), Risk::Kind::Overwrite},
    };
    for (const Case& c : cases) {
        const Risk::Assessment risk = Risk::ofControl(c.role, c.title);
        EXPECT_EQ(risk.kind, c.kind) << c.title.toStdString();
        EXPECT_EQ(risk.field, QStringLiteral("title")) << c.title.toStdString();
        EXPECT_FALSE(risk.why().isEmpty());
    }
    // Found in the description when the title says nothing.
    EXPECT_EQ(
        Risk::ofControl(QStringLiteral("AXButton"), QStringLiteral("🗑"), QStringLiteral("Delete message")).kind,
        Risk::Kind::Delete);
}

TEST(Risk, WordsInsideOtherWordsAndNonControlsAreNot)
{
    EXPECT_FALSE(Risk::ofControl(QStringLiteral("AXButton"), QStringLiteral("Sending…")).high());
    EXPECT_FALSE(Risk::ofControl(QStringLiteral("AXRow"), QStringLiteral("Deleted items")).high());
    EXPECT_FALSE(Risk::ofControl(QStringLiteral("AXButton"), QStringLiteral("Open Dialog")).high());
    EXPECT_FALSE(Risk::ofControl(QStringLiteral("AXButton"), QStringLiteral("Keep")).high());
    // A label that says "Delete" is not a delete button.
    EXPECT_FALSE(Risk::ofControl(QStringLiteral("AXStaticText"), QStringLiteral("Delete")).high());
    // Text OCR read has no role: it is judged by its words.
    EXPECT_TRUE(Risk::ofControl(QString(), QStringLiteral("Send")).high());
}

TEST(OwnerPolicy, BuiltInsAllowOrdinaryAppsAndAskInSentinelsAndForHighRisk)
{
    const OwnerPolicy policy;
    auto verdict = policy.decide(subject(QStringLiteral("gedit"), QStringLiteral("type")));
    EXPECT_EQ(verdict.decision, OwnerPolicy::Decision::Allow);
    EXPECT_EQ(verdict.rule, QStringLiteral("default:act"));

    verdict = policy.decide(subject(QStringLiteral("gedit"), QStringLiteral("pointer"), true));
    EXPECT_EQ(verdict.decision, OwnerPolicy::Decision::Ask);
    EXPECT_EQ(verdict.rule, QStringLiteral("default:high-risk"));

    verdict = policy.decide(subject(QStringLiteral("xterm"), QStringLiteral("type")));
    EXPECT_EQ(verdict.decision, OwnerPolicy::Decision::Ask);
    EXPECT_EQ(verdict.rule, QStringLiteral("sentinel:terminals"));
    // Window management of a terminal types nothing into it.
    EXPECT_EQ(policy.decide(subject(QStringLiteral("xterm"), QStringLiteral("window"))).rule,
              QStringLiteral("default:act"));

    // A terminal by its desktop entry, or by the terminal role in its window, whatever its name.
    auto byEntry = subject(QStringLiteral("my-term"), QStringLiteral("keys"));
    byEntry.app.categories = QStringList{QStringLiteral("System"), QStringLiteral("TerminalEmulator")};
    EXPECT_EQ(policy.decide(byEntry).rule, QStringLiteral("sentinel:terminals"));
    auto byRole = subject(QStringLiteral("python3"), QStringLiteral("type"));
    byRole.terminal = true;
    EXPECT_EQ(policy.decide(byRole).rule, QStringLiteral("sentinel:terminals"));

    EXPECT_EQ(policy.decide(subject(QStringLiteral("keepassxc"), QStringLiteral("pointer"))).rule,
              QStringLiteral("sentinel:password-managers"));
    EXPECT_EQ(policy.decide(subject(QStringLiteral("seahorse"), QStringLiteral("type"))).rule,
              QStringLiteral("sentinel:keychain"));
    auto settings = subject(QStringLiteral("gnome-control-center"), QStringLiteral("pointer"));
    EXPECT_EQ(policy.decide(settings).rule, QStringLiteral("sentinel:system-settings"));
    auto mac = subject(QString(), QStringLiteral("type"));
    mac.app.bundleId = QStringLiteral("com.apple.Terminal");
    EXPECT_EQ(policy.decide(mac).rule, QStringLiteral("sentinel:terminals"));
}

TEST(OwnerPolicy, TheOwnersRulesComeFirstAndMatchAppWindowClassAndRisk)
{
    const OwnerPolicy policy = policyOf(R"({"rules": [
        {"name": "no-mail-delete", "app": {"executable": "thunderbird"}, "window": "Inbox*", "classes": ["pointer"],
         "decision": "deny"},
        {"name": "terminal-ok", "app": {"desktopId": "xterm"}, "classes": ["type", "keys"], "decision": "allow"},
        {"name": "shop-pays", "app": {"name": "Shop"}, "risk": "high", "decision": "allow"}
    ]})");
    ASSERT_EQ(policy.ownerRules().size(), 3);
    auto mail =
        subject(QStringLiteral("thunderbird"), QStringLiteral("pointer"), false, QStringLiteral("Inbox - Mail"));
    auto verdict = policy.decide(mail);
    EXPECT_EQ(verdict.decision, OwnerPolicy::Decision::Deny);
    EXPECT_EQ(verdict.rule, QStringLiteral("no-mail-delete"));
    // Another window, another class: the rule does not match.
    mail.windowTitle = QStringLiteral("Write: hello");
    EXPECT_EQ(policy.decide(mail).rule, QStringLiteral("default:act"));
    EXPECT_EQ(
        policy.decide(subject(QStringLiteral("thunderbird"), QStringLiteral("type"), false, QStringLiteral("Inbox")))
            .rule,
        QStringLiteral("default:act"));

    auto term = subject(QStringLiteral("xterm"), QStringLiteral("type"));
    term.app.desktopId = QStringLiteral("xterm.desktop");
    EXPECT_EQ(policy.decide(term).rule, QStringLiteral("terminal-ok"));
    term.actionClass = QStringLiteral("pointer");
    EXPECT_EQ(policy.decide(term).rule, QStringLiteral("sentinel:terminals"));

    auto shop = subject(QStringLiteral("shop-bin"), QStringLiteral("pointer"), true);
    shop.app.name = QStringLiteral("shop");
    EXPECT_EQ(policy.decide(shop).rule, QStringLiteral("shop-pays"));
    EXPECT_EQ(policy.decide(shop).decision, OwnerPolicy::Decision::Allow);

    // `list` shows every rule in force: the owner's, then the built-ins, each named.
    const QJsonArray all = policy.toJson();
    ASSERT_EQ(all.size(), 3 + OwnerPolicy::builtInRules().size());
    EXPECT_EQ(all.first().toObject().value(QStringLiteral("name")).toString(), QStringLiteral("no-mail-delete"));
    EXPECT_EQ(all.last().toObject().value(QStringLiteral("name")).toString(), QStringLiteral("default:act"));
    EXPECT_TRUE(all.last().toObject().value(QStringLiteral("builtIn")).toBool());
}

TEST(OwnerPolicy, ABadRuleIsRefusedNamingTheField)
{
    const auto refused = [](const char* json) {
        const auto policy = OwnerPolicy::fromJson(QJsonDocument::fromJson(json).object());
        return policy.ok() ? QString() : policy.error().details.value(QStringLiteral("field")).toString();
    };
    EXPECT_EQ(refused(R"({"rules": [{"name": "x", "decision": "maybe"}]})"), QStringLiteral("rule.decision"));
    EXPECT_EQ(refused(R"({"rules": [{"name": "default:act", "decision": "allow"}]})"), QStringLiteral("rule.name"));
    EXPECT_EQ(refused(R"({"rules": [{"name": "x", "decision": "allow", "classes": ["typing"]}]})"),
              QStringLiteral("rule.classes"));
    EXPECT_EQ(refused(R"({"rules": [{"name": "x", "decision": "allow", "app": {"exe": "a"}}]})"),
              QStringLiteral("rule.app.exe"));
    EXPECT_EQ(refused(R"({"rules": [{"name": "x", "decision": "deny"}, {"name": "x", "decision": "deny"}]})"),
              QStringLiteral("rules"));
    EXPECT_EQ(refused(R"({"rules": [{"name": "x", "decision": "deny", "app": {"pid": 1.5}}]})"),
              QStringLiteral("rule.app.pid"));
    EXPECT_EQ(refused(R"({"rules": [{"name": "x", "decision": "deny", "app": {"pid": -3}}]})"),
              QStringLiteral("rule.app.pid"));
    EXPECT_TRUE(refused(R"({"rules": [{"name": "x", "decision": "deny", "app": {"pid": 4242}}]})").isEmpty());
    EXPECT_EQ(refused(R"({"unattended": "yes"})"), QStringLiteral("unattended"));
    EXPECT_TRUE(refused(R"({"unattended": true, "rules": []})").isEmpty());
}
