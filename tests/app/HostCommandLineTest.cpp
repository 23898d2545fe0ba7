// The host's command line merged with the stored settings and the environment: the command
// line wins, then (GUI mode only) what the person saved, then $WORKSPACE_ROOT, then defaults;
// --headless confirms nothing unless told to; bad values are usage errors naming the option.
#include "app/HostCommandLine.h"

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using App::HostCommandLine;
using App::HostSettings;

namespace {

class HostCommandLineTest : public ::testing::Test
{
protected:
    HostCommandLine::Outcome merge(const QStringList& arguments, const HostSettings& stored = {},
                                   const QString& environmentRoot = QStringLiteral("/env/root"))
    {
        QCommandLineParser parser;
        commandLine.configure(parser);
        EXPECT_TRUE(parser.parse(QStringList{QStringLiteral("msgcode-desktop-host")} + arguments))
            << parser.errorText().toStdString();
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("WORKSPACE_ROOT"), environmentRoot);
        return commandLine.merge(parser, stored, environment, QStringLiteral("/default/data"));
    }
    static HostCommandLine::Merged merged(const HostCommandLine::Outcome& outcome)
    {
        return std::get<HostCommandLine::Merged>(outcome);
    }

    HostCommandLine commandLine;
};

TEST_F(HostCommandLineTest, EveryOptionIsInTheTableAndInHelp)
{
    QStringList names;
    for (const auto& option : commandLine.options())
        names.append(option.names());
    EXPECT_EQ(names.size(), 37);
    EXPECT_TRUE(names.contains(QStringLiteral("policy")));
    EXPECT_TRUE(names.contains(QStringLiteral("unattended")));
    EXPECT_TRUE(names.contains(QStringLiteral("grounding-endpoint")));
    EXPECT_TRUE(names.contains(QStringLiteral("grounding-model")));
    EXPECT_TRUE(names.contains(QStringLiteral("confirm-policy")));
    EXPECT_TRUE(names.contains(QStringLiteral("events-linger-seconds")));
    EXPECT_TRUE(names.contains(QStringLiteral("mcp-confirm-policy")));
    EXPECT_TRUE(names.contains(QStringLiteral("yield-to-user")));
    QCommandLineParser parser;
    commandLine.configure(parser);
    for (const QString& name : names)
        EXPECT_TRUE(parser.helpText().contains(QStringLiteral("--") + name)) << name.toStdString();
}

// How long an event subscription outlives its connection: 10 minutes, the saved value in GUI
// mode, the flag over both; refused out of range.
TEST_F(HostCommandLineTest, TheEventsLingerComesFromSettingsOrTheFlag)
{
    HostSettings stored;
    EXPECT_EQ(merged(merge({}, stored)).host.eventsLingerMs, 600000);
    EXPECT_TRUE(static_cast<bool>(merged(merge({}, stored)).host.windowWatchFactory));
    stored.eventsLingerSeconds = 30;
    EXPECT_EQ(merged(merge({}, stored)).host.eventsLingerMs, 30000);
    EXPECT_EQ(
        merged(merge({QStringLiteral("--events-linger-seconds"), QStringLiteral("0")}, stored)).host.eventsLingerMs, 0);
    EXPECT_TRUE(std::holds_alternative<QString>(
        merge({QStringLiteral("--events-linger-seconds"), QStringLiteral("-1")}, stored)));
    EXPECT_TRUE(std::holds_alternative<QString>(
        merge({QStringLiteral("--events-linger-seconds"), QStringLiteral("x")}, stored)));
}

// The grounding endpoint: none by default, the saved one, the flags over it; a flag that is not
// an http(s) URL is refused.
TEST_F(HostCommandLineTest, TheGroundingEndpointComesFromSettingsOrTheFlags)
{
    HostSettings stored;
    EXPECT_FALSE(merged(merge({}, stored)).host.grounding.configured());
    stored.grounding.url = QStringLiteral("http://127.0.0.1:8080/v1");
    stored.grounding.model = QStringLiteral("saved");
    EXPECT_EQ(merged(merge({}, stored)).host.grounding.url, QStringLiteral("http://127.0.0.1:8080/v1"));
    const auto flagged = merged(merge({QStringLiteral("--grounding-endpoint"), QStringLiteral("http://10.0.0.2:9/v1"),
                                       QStringLiteral("--grounding-model"), QStringLiteral("flag")},
                                      stored));
    EXPECT_EQ(flagged.host.grounding.url, QStringLiteral("http://10.0.0.2:9/v1"));
    EXPECT_EQ(flagged.host.grounding.model, QStringLiteral("flag"));
    EXPECT_TRUE(std::holds_alternative<QString>(
        merge({QStringLiteral("--grounding-endpoint"), QStringLiteral("ftp://x/")}, stored)));
}

// The MCP door's policy: the saved one in GUI mode, the flag over it, refused when unknown;
// none (the host's policy) by default.
TEST_F(HostCommandLineTest, TheMcpDoorPolicyComesFromSettingsOrTheFlag)
{
    HostSettings stored;
    EXPECT_FALSE(merged(merge({}, stored)).host.security.mcpConfirmPolicy.has_value());
    stored.mcpConfirmPolicy = Bridge::ConfirmPolicy::Deny;
    EXPECT_EQ(merged(merge({}, stored)).host.security.mcpConfirmPolicy, Bridge::ConfirmPolicy::Deny);
    EXPECT_EQ(merged(merge({QStringLiteral("--mcp-confirm-policy"), QStringLiteral("ask")}, stored, {}))
                  .host.security.mcpConfirmPolicy,
              Bridge::ConfirmPolicy::Ask);
    EXPECT_TRUE(std::holds_alternative<QString>(
        merge({QStringLiteral("--mcp-confirm-policy"), QStringLiteral("maybe")}, stored)));
}

TEST_F(HostCommandLineTest, GuiModeUsesWhatThePersonSavedOverTheEnvironment)
{
    HostSettings stored;
    stored.workspaceRoot = QStringLiteral("/saved/root");
    stored.confirmPolicy = Bridge::ConfirmPolicy::Auto;
    stored.requireToken = true;
    stored.keepTypedText = true;
    stored.keepFullTrees = true;
    stored.maxTokenTtlMs = 5000;
    const auto outcome = merge({}, stored);
    ASSERT_TRUE(std::holds_alternative<HostCommandLine::Merged>(outcome));
    const auto m = merged(outcome);
    EXPECT_FALSE(m.headless);
    EXPECT_EQ(m.host.workspaceRoot, QStringLiteral("/saved/root"));
    EXPECT_EQ(m.host.security.confirmPolicy, Bridge::ConfirmPolicy::Auto);
    EXPECT_TRUE(m.host.security.requireToken);
    EXPECT_TRUE(m.host.keepTypedText);
    EXPECT_TRUE(m.host.keepFullTrees);
    EXPECT_EQ(m.host.security.maxTokenTtlMs, 5000);
    EXPECT_EQ(m.host.security.dataDir, QStringLiteral("/default/data"));
    EXPECT_FALSE(m.host.backendSettings.isEmpty()) << "the GUI passes the stored backend settings";

    HostSettings unset;
    EXPECT_EQ(merged(merge({}, unset)).host.workspaceRoot, QStringLiteral("/env/root"));
}

TEST_F(HostCommandLineTest, TheCommandLineWins)
{
    HostSettings stored;
    stored.workspaceRoot = QStringLiteral("/saved/root");
    stored.confirmPolicy = Bridge::ConfirmPolicy::Auto;
    stored.callerAllowlist = {QStringLiteral("/bin/saved")};
    const auto outcome =
        merge({QStringLiteral("--workspace-root"), QStringLiteral("/cli/root"), QStringLiteral("--confirm-policy"),
               QStringLiteral("deny"), QStringLiteral("--allow-caller"), QStringLiteral("/bin/a"),
               QStringLiteral("--allow-caller"), QStringLiteral("/bin/b"), QStringLiteral("--queue-capacity"),
               QStringLiteral("7"), QStringLiteral("--data-dir"), QStringLiteral("/cli/data"),
               QStringLiteral("--socket"), QStringLiteral("/tmp/x.sock")},
              stored);
    const auto m = merged(outcome);
    EXPECT_EQ(m.host.workspaceRoot, QStringLiteral("/cli/root"));
    EXPECT_EQ(m.host.security.confirmPolicy, Bridge::ConfirmPolicy::Deny);
    EXPECT_EQ(m.host.security.callerAllowlist, (QStringList{QStringLiteral("/bin/a"), QStringLiteral("/bin/b")}));
    EXPECT_EQ(m.host.executor.queueCapacity, 7);
    EXPECT_EQ(m.host.security.dataDir, QStringLiteral("/cli/data"));
    EXPECT_EQ(m.host.server.socketPath, QStringLiteral("/tmp/x.sock"));
}

TEST_F(HostCommandLineTest, HeadlessReadsNoSettingsAndDeniesByDefault)
{
    HostSettings stored;
    stored.workspaceRoot = QStringLiteral("/saved/root");
    stored.confirmPolicy = Bridge::ConfirmPolicy::Auto;
    stored.keepTypedText = true;
    const auto m = merged(merge({QStringLiteral("--headless")}, stored));
    EXPECT_TRUE(m.headless);
    EXPECT_EQ(m.host.workspaceRoot, QStringLiteral("/env/root"));
    EXPECT_EQ(m.host.security.confirmPolicy, Bridge::ConfirmPolicy::Deny);
    EXPECT_FALSE(m.host.keepTypedText);
    EXPECT_TRUE(m.host.backendSettings.isEmpty());
    EXPECT_EQ(merged(merge({QStringLiteral("--headless"), QStringLiteral("--confirm-policy"), QStringLiteral("auto")}))
                  .host.security.confirmPolicy,
              Bridge::ConfirmPolicy::Auto);
}

TEST_F(HostCommandLineTest, BadValuesAreUsageErrorsNamingTheOption)
{
    const auto zero = merge({QStringLiteral("--max-connections"), QStringLiteral("0")});
    ASSERT_TRUE(std::holds_alternative<QString>(zero));
    EXPECT_TRUE(std::get<QString>(zero).contains(QStringLiteral("--max-connections")));

    const auto word = merge({QStringLiteral("--queue-capacity"), QStringLiteral("many")});
    ASSERT_TRUE(std::holds_alternative<QString>(word));
    EXPECT_TRUE(std::get<QString>(word).contains(QStringLiteral("--queue-capacity")));

    const auto policy = merge({QStringLiteral("--confirm-policy"), QStringLiteral("maybe")});
    ASSERT_TRUE(std::holds_alternative<QString>(policy));
    EXPECT_TRUE(std::get<QString>(policy).contains(QStringLiteral("--confirm-policy")));

    const auto tooLong = merge({QStringLiteral("--approval-timeout-ms"), QStringLiteral("999999999")});
    ASSERT_TRUE(std::holds_alternative<QString>(tooLong));
    EXPECT_TRUE(std::get<QString>(tooLong).contains(QStringLiteral("--approval-timeout-ms")));
}

TEST_F(HostCommandLineTest, StoredValuesOutOfRangeAreClamped)
{
    HostSettings stored;
    stored.maxTokenTtlMs = 1;
    stored.approvalTimeoutMs = 100000000;
    stored.pngCompression = 42;
    const auto m = merged(merge({}, stored));
    EXPECT_EQ(m.host.security.maxTokenTtlMs, HostSettings::kMinTokenTtlMs);
    EXPECT_EQ(m.host.security.approvalTimeoutMs, HostSettings::kMaxApprovalTimeoutMs);
    EXPECT_EQ(m.stored.pngCompression, 9);
}

} // namespace

// The remote agent: off unless a server is named; the command line over what was saved; its
// evidence below the workspace root; bad values are usage errors; its own policy is ask unless
// told otherwise, whatever the host's policy is.
TEST_F(HostCommandLineTest, TheRemoteAgentIsOffUntilAServerIsNamed)
{
    const auto off = merged(merge({}));
    EXPECT_FALSE(off.remote.isSet());
    EXPECT_EQ(off.host.security.remoteConfirmPolicy, Bridge::ConfirmPolicy::Ask);
    EXPECT_EQ(off.remote.workspace, QStringLiteral("/env/root/remote"));

    const auto on = merged(
        merge({QStringLiteral("--headless"), QStringLiteral("--confirm-policy"), QStringLiteral("auto"),
               QStringLiteral("--remote-host"), QStringLiteral("ctl.example.com"), QStringLiteral("--remote-port"),
               QStringLiteral("9876"), QStringLiteral("--remote-tls"), QStringLiteral("--remote-bind-code"),
               QStringLiteral("ABC123"), QStringLiteral("--remote-max-retries"), QStringLiteral("5"),
               QStringLiteral("--remote-retry-delay-ms"), QStringLiteral("2000")}));
    EXPECT_TRUE(on.remote.isSet());
    EXPECT_EQ(on.remote.serverName(), QStringLiteral("ctl.example.com:9876 (TLS)"));
    EXPECT_EQ(on.remoteBindCode, QStringLiteral("ABC123"));
    EXPECT_EQ(on.remote.maxRetries, 5);
    EXPECT_EQ(on.remote.retryDelayMs, 2000);
    EXPECT_TRUE(on.remote.reconnect);
    EXPECT_EQ(on.host.security.remoteConfirmPolicy, Bridge::ConfirmPolicy::Ask) << "not the host's auto";

    HostSettings stored;
    stored.remoteHost = QStringLiteral("saved.example.com");
    stored.remotePort = 7000;
    stored.remoteConfirmPolicy = Bridge::ConfirmPolicy::Deny;
    const auto saved = merged(merge({QStringLiteral("--remote-workspace"), QStringLiteral("/elsewhere")}, stored));
    EXPECT_EQ(saved.remote.serverName(), QStringLiteral("saved.example.com:7000"));
    EXPECT_EQ(saved.remote.workspace, QStringLiteral("/elsewhere"));
    EXPECT_EQ(saved.host.security.remoteConfirmPolicy, Bridge::ConfirmPolicy::Deny);
    EXPECT_FALSE(merged(merge({QStringLiteral("--headless")}, stored)).remote.isSet()) << "headless reads no settings";

    for (const QStringList& bad :
         {QStringList{QStringLiteral("--remote-host"), QStringLiteral("h")},
          QStringList{QStringLiteral("--remote-host"), QStringLiteral("h"), QStringLiteral("--remote-port"),
                      QStringLiteral("70000")},
          QStringList{QStringLiteral("--remote-host"), QStringLiteral("h"), QStringLiteral("--remote-port"),
                      QStringLiteral("1"), QStringLiteral("--remote-fingerprint"), QStringLiteral("abcd"),
                      QStringLiteral("--remote-tls")},
          QStringList{QStringLiteral("--remote-host"), QStringLiteral("h"), QStringLiteral("--remote-port"),
                      QStringLiteral("1"), QStringLiteral("--remote-fingerprint"), QString(64, QLatin1Char('a'))},
          QStringList{QStringLiteral("--remote-confirm-policy"), QStringLiteral("maybe")},
          QStringList{QStringLiteral("--remote-max-retries"), QStringLiteral("-1")}}) {
        const auto outcome = merge(bad);
        ASSERT_TRUE(std::holds_alternative<QString>(outcome)) << bad.join(QLatin1Char(' ')).toStdString();
        EXPECT_TRUE(std::get<QString>(outcome).contains(QStringLiteral("--remote-")))
            << std::get<QString>(outcome).toStdString();
    }
}

// Yielding to the person: the flags reach the backend's settings, headless too; a bad value is
// refused with the reason.
TEST_F(HostCommandLineTest, YieldingToThePersonComesFromTheFlags)
{
    const auto outcome = merge({QStringLiteral("--headless"), QStringLiteral("--yield-to-user"), QStringLiteral("wait"),
                                QStringLiteral("--yield-quiet-ms"), QStringLiteral("700")});
    ASSERT_TRUE(std::holds_alternative<HostCommandLine::Merged>(outcome));
    const auto m = merged(outcome);
    EXPECT_EQ(m.host.backendSettings.value(QStringLiteral("yieldToUser")).toString(), QStringLiteral("wait"));
    EXPECT_EQ(m.host.backendSettings.value(QStringLiteral("yieldQuietMs")).toInt(), 700);
    const auto bad = merge({QStringLiteral("--yield-to-user"), QStringLiteral("never")});
    ASSERT_TRUE(std::holds_alternative<QString>(bad));
    EXPECT_TRUE(std::get<QString>(bad).contains(QStringLiteral("--yield-to-user")));
    const auto quiet = merge({QStringLiteral("--yield-quiet-ms"), QStringLiteral("5")});
    ASSERT_TRUE(std::holds_alternative<QString>(quiet));
}

TEST_F(HostCommandLineTest, TheOwnersRulesComeFromAPolicyFileAndUnattendedFromItsFlag)
{
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/policy.json");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"rules": [{"name": "mail-sends", "app": {"executable": "thunderbird"}, "risk": "high",
                              "decision": "allow"}]})");
    file.close();
    const auto outcome = merge({QStringLiteral("--headless"), QStringLiteral("--policy"), path});
    ASSERT_TRUE(std::holds_alternative<HostCommandLine::Merged>(outcome));
    const auto m = merged(outcome);
    ASSERT_EQ(m.host.ownerPolicy.ownerRules().size(), 1);
    EXPECT_EQ(m.host.ownerPolicy.ownerRules().first().name, QStringLiteral("mail-sends"));
    EXPECT_FALSE(m.host.ownerPolicy.unattended());
    // Without a file: the built-in rules alone; --unattended turns every ask into a refusal.
    const auto unattended = merged(merge({QStringLiteral("--headless"), QStringLiteral("--unattended")}));
    EXPECT_TRUE(unattended.host.ownerPolicy.ownerRules().isEmpty());
    EXPECT_TRUE(unattended.host.ownerPolicy.unattended());

    // A file that is not a policy is a usage error naming it.
    QFile bad(dir.path() + QStringLiteral("/bad.json"));
    ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"rules": [{"name": "x", "decision": "sometimes"}]})");
    bad.close();
    const auto refused = merge({QStringLiteral("--policy"), bad.fileName()});
    ASSERT_TRUE(std::holds_alternative<QString>(refused));
    EXPECT_TRUE(std::get<QString>(refused).contains(QStringLiteral("decision")));
    const auto missing = merge({QStringLiteral("--policy"), dir.path() + QStringLiteral("/none.json")});
    ASSERT_TRUE(std::holds_alternative<QString>(missing));
}
