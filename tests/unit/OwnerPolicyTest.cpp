// The owner's rules (docs/protocol.md, "Policy"): which actions are high-risk, which apps are
// sentinels, and which rule decides.
#include "bridge/security/OwnerPolicy.h"
#include "automation/PermissionGrant.h"
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

// What counts as tightening, change by change: deny rules added anywhere, ask rules after every
// owner's rule, allow rules removed, grants revoked, entering the unattended mode. Anything
// else loosens (and needs a person).
TEST(OwnerPolicy, OnlyTighteningChangesAreToldApartFromLooseningOnes)
{
    const OwnerPolicy base = policyOf(R"({"rules": [
        {"name": "deny-xterm", "app": {"executable": "xterm"}, "decision": "deny"},
        {"name": "allow-gedit", "app": {"executable": "gedit"}, "decision": "allow"}]})");
    const auto tightens = [&](const char* json) { return OwnerPolicy::onlyTightens(base, policyOf(json)); };
    // A deny rule first: tighter.
    EXPECT_TRUE(tightens(R"({"rules": [{"name": "d", "decision": "deny", "classes": ["clipboard"]},
        {"name": "deny-xterm", "app": {"executable": "xterm"}, "decision": "deny"},
        {"name": "allow-gedit", "app": {"executable": "gedit"}, "decision": "allow"}]})"));
    // The allow rule removed: tighter.
    EXPECT_TRUE(tightens(R"({"rules": [{"name": "deny-xterm", "app": {"executable": "xterm"}, "decision": "deny"}]})"));
    // An ask rule last: tighter; the same ask rule first would turn xterm's deny into an ask.
    EXPECT_TRUE(tightens(R"({"rules": [
        {"name": "deny-xterm", "app": {"executable": "xterm"}, "decision": "deny"},
        {"name": "allow-gedit", "app": {"executable": "gedit"}, "decision": "allow"},
        {"name": "ask-all", "decision": "ask"}]})"));
    EXPECT_FALSE(tightens(R"({"rules": [{"name": "ask-all", "decision": "ask"},
        {"name": "deny-xterm", "app": {"executable": "xterm"}, "decision": "deny"},
        {"name": "allow-gedit", "app": {"executable": "gedit"}, "decision": "allow"}]})"));
    // The deny rule removed, an allow rule added, unattended left: looser.
    EXPECT_FALSE(
        tightens(R"({"rules": [{"name": "allow-gedit", "app": {"executable": "gedit"}, "decision": "allow"}]})"));
    EXPECT_FALSE(tightens(R"({"rules": [{"name": "a", "decision": "allow"},
        {"name": "deny-xterm", "app": {"executable": "xterm"}, "decision": "deny"},
        {"name": "allow-gedit", "app": {"executable": "gedit"}, "decision": "allow"}]})"));
    OwnerPolicy unattended = base;
    unattended.setUnattended(true);
    EXPECT_TRUE(OwnerPolicy::onlyTightens(base, unattended));
    EXPECT_FALSE(OwnerPolicy::onlyTightens(unattended, base));
    // A grant added loosens; revoked, tightens.
    OwnerPolicy granted = base;
    OwnerPolicy::Grant grant;
    grant.id = QStringLiteral("g-0123456789abcdef");
    grant.app.executable = QStringLiteral("xterm");
    grant.actionClass = QStringLiteral("type");
    grant.until = QDateTime::currentDateTimeUtc().addSecs(600);
    granted.setGrants({grant});
    EXPECT_FALSE(OwnerPolicy::onlyTightens(base, granted));
    EXPECT_TRUE(OwnerPolicy::onlyTightens(granted, base));
}

// A rule file changed behind the host's back: what applies is what the host trusted with only
// the file's tightening; what loosens is listed as left out.
TEST(OwnerPolicy, AnUntrustedFileAddsOnlyItsTighteningChanges)
{
    const OwnerPolicy trusted = policyOf(R"({"rules": [
        {"name": "allow-gedit", "app": {"executable": "gedit"}, "decision": "allow"},
        {"name": "deny-xterm", "app": {"executable": "xterm"}, "decision": "deny"}]})");
    const OwnerPolicy file = policyOf(R"({"unattended": true, "rules": [
        {"name": "allow-all", "decision": "allow"},
        {"name": "deny-keepass", "app": {"executable": "keepassxc"}, "decision": "deny"},
        {"name": "ask-mousepad", "app": {"executable": "mousepad"}, "decision": "ask"}]})");
    QJsonArray ignored;
    const OwnerPolicy applied = OwnerPolicy::tighteningOnly(trusted, file, &ignored);
    QStringList names;
    for (const auto& rule : applied.ownerRules())
        names.append(rule.name);
    // The new deny first, the trusted deny kept (removing it would loosen), the trusted allow
    // gone (the file dropped it), the new ask last; the file's allow-all left out.
    EXPECT_EQ(names, (QStringList{QStringLiteral("deny-keepass"), QStringLiteral("deny-xterm"),
                                  QStringLiteral("ask-mousepad")}));
    EXPECT_TRUE(applied.unattended());
    ASSERT_EQ(ignored.size(), 1);
    EXPECT_EQ(ignored.first().toObject().value(QStringLiteral("rule")).toObject().value(QStringLiteral("name")),
              QStringLiteral("allow-all"));
    EXPECT_TRUE(OwnerPolicy::onlyTightens(trusted, applied));
    EXPECT_EQ(applied.decide(subject(QStringLiteral("gedit"), QStringLiteral("type"))).rule,
              QStringLiteral("default:act"));
    EXPECT_EQ(applied.decide(subject(QStringLiteral("keepassxc"), QStringLiteral("type"))).decision,
              OwnerPolicy::Decision::Deny);
}

// A grant turns an ask into an allow for its class in its app until it expires, high-risk
// actions only when it says so; it never turns a deny into anything.
TEST(OwnerPolicy, AGrantAnswersAnAskForItsClassAndAppUntilItExpires)
{
    OwnerPolicy policy = policyOf(R"({"rules": [{"name": "deny-keys", "classes": ["keys"], "decision": "deny"}]})");
    const QDateTime now = QDateTime::currentDateTimeUtc();
    OwnerPolicy::Grant grant;
    grant.id = QStringLiteral("g-00000000000000aa");
    grant.app.executable = QStringLiteral("xterm");
    grant.actionClass = QStringLiteral("type");
    grant.until = now.addSecs(300);
    OwnerPolicy::Grant keys = grant;
    keys.id = QStringLiteral("g-00000000000000bb");
    keys.actionClass = QStringLiteral("keys");
    policy.setGrants({grant, keys});
    const auto typed = policy.decide(subject(QStringLiteral("xterm"), QStringLiteral("type")), now);
    EXPECT_EQ(typed.decision, OwnerPolicy::Decision::Allow);
    EXPECT_EQ(typed.rule, QStringLiteral("grant:g-00000000000000aa"));
    EXPECT_EQ(policy.decide(subject(QStringLiteral("xterm"), QStringLiteral("type"), true), now).rule,
              QStringLiteral("sentinel:terminals"))
        << "a grant without highRisk does not cover a high-risk action";
    EXPECT_EQ(policy.decide(subject(QStringLiteral("xterm"), QStringLiteral("pointer")), now).rule,
              QStringLiteral("sentinel:terminals"));
    EXPECT_EQ(policy.decide(subject(QStringLiteral("xterm"), QStringLiteral("keys")), now).decision,
              OwnerPolicy::Decision::Deny);
    EXPECT_EQ(policy.decide(subject(QStringLiteral("xterm"), QStringLiteral("type")), now.addSecs(301)).rule,
              QStringLiteral("sentinel:terminals"));
    // Its file form round-trips; a grant without its app is refused.
    auto again = OwnerPolicy::fromJson(policy.toFileJson());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->toFileJson(), policy.toFileJson());
    QJsonObject bad = grant.toJson();
    bad.remove(QStringLiteral("app"));
    EXPECT_FALSE(OwnerPolicy::Grant::fromJson(bad).ok());
}

// Whom to grant a missing permission to: the app bundle that holds the host on macOS (never
// the executable inside it), the executable elsewhere; the setting named in words.
TEST(PermissionGrant, NamesTheProgramAndTheSetting)
{
    EXPECT_EQ(Automation::bundleOf(QStringLiteral("/Applications/msgcode Desktop Host.app/Contents/MacOS/host")),
              QStringLiteral("/Applications/msgcode Desktop Host.app"));
    EXPECT_EQ(Automation::bundleOf(QStringLiteral("/usr/bin/msgcode-desktop-host")),
              QStringLiteral("/usr/bin/msgcode-desktop-host"));
    const auto accessibility = Automation::permissionGrant(QStringLiteral("accessibility"),
                                                           QStringLiteral("/opt/mdh/bin/msgcode-desktop-host"));
    EXPECT_EQ(accessibility.program, QStringLiteral("/opt/mdh/bin/msgcode-desktop-host"));
    EXPECT_FALSE(accessibility.setting.isEmpty());
    EXPECT_TRUE(accessibility.sentence().contains(accessibility.program));
    EXPECT_NE(Automation::permissionGrant(QStringLiteral("screenRecording")).setting, accessibility.setting);
}
