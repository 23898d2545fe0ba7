// msgcode-desktopctl against a real host: output, exit codes, meta filling, errors.
#include "HostProcess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QUuid>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

class Cli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        // A host with no display and no session bus: what doctor reports does not depend on
        // whether the test runs inside a desktop.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const auto& name : {QStringLiteral("DISPLAY"), QStringLiteral("WAYLAND_DISPLAY"),
                                 QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("AT_SPI_BUS_ADDRESS")})
            env.remove(name);
        s_host = new HostProcess({}, {}, env);
        ASSERT_TRUE(s_host->start());
        QDir(s_host->workspaceRoot()).mkpath(QStringLiteral("ws"));
    }
    static void TearDownTestSuite()
    {
        delete s_host;
        s_host = nullptr;
    }
    static CommandResult ctl(const QStringList& args)
    {
        return runCommand(QStringLiteral(MDH_CTL_BINARY),
                          QStringList{QStringLiteral("--socket"), s_host->socketPath()} + args);
    }
    static QString workspace() { return s_host->workspaceRoot() + QStringLiteral("/ws"); }
    static HostProcess* s_host;
};

HostProcess* Cli::s_host = nullptr;

} // namespace

TEST_F(Cli, HealthHumanAndJson)
{
    const auto human = ctl({QStringLiteral("health")});
    EXPECT_EQ(human.exitCode, 0);
    EXPECT_TRUE(human.out.contains(QStringLiteral("msgcode-desktop-host 0.1.0")));
    EXPECT_TRUE(human.out.contains(QStringLiteral("accessibility:")));
    EXPECT_TRUE(human.out.contains(QStringLiteral("screen recording:")));
    const auto json = ctl({QStringLiteral("--json"), QStringLiteral("health")});
    EXPECT_EQ(json.exitCode, 0);
    const QJsonObject response = QJsonDocument::fromJson(json.out.toUtf8()).object();
    EXPECT_EQ(response.value(QStringLiteral("jsonrpc")).toString(), QStringLiteral("2.0"));
    EXPECT_EQ(response.value(QStringLiteral("result"))
                  .toObject()
                  .value(QStringLiteral("bridge"))
                  .toObject()
                  .value(QStringLiteral("schemaVersion"))
                  .toInt(),
              1);
    EXPECT_TRUE(json.err.isEmpty());
}

TEST_F(Cli, DoctorListsChecksAndExitsByHealth)
{
    const auto human = ctl({QStringLiteral("doctor")});
    // Without a display or a session bus the host cannot work, and says so.
    EXPECT_EQ(human.exitCode, 5);
    EXPECT_TRUE(human.out.contains(QStringLiteral("Healthy: no")));
    EXPECT_TRUE(human.out.contains(QStringLiteral("[error]   accessibility")));
    EXPECT_TRUE(human.out.contains(QStringLiteral("[error]   screen_capture")));
    EXPECT_TRUE(human.out.contains(QStringLiteral("backend")));
    EXPECT_TRUE(human.out.contains(QStringLiteral("workspace_root")));
    const auto json = ctl({QStringLiteral("doctor"), QStringLiteral("--json")});
    EXPECT_EQ(json.exitCode, 5);
    const QJsonObject result =
        QJsonDocument::fromJson(json.out.toUtf8()).object().value(QStringLiteral("result")).toObject();
    EXPECT_FALSE(result.value(QStringLiteral("checks")).toArray().isEmpty());
    EXPECT_FALSE(result.value(QStringLiteral("healthy")).toBool());
    // What is not granted names the exact program and the setting (issue 32 §4).
    const QString host = QFileInfo(QStringLiteral(MDH_HOST_BINARY)).canonicalFilePath();
    EXPECT_TRUE(human.out.contains(host)) << human.out.toStdString();
    for (const auto& c : result.value(QStringLiteral("checks")).toArray()) {
        const QJsonObject check = c.toObject();
        if (check.value(QStringLiteral("name")).toString() != QLatin1String("accessibility"))
            continue;
        const QJsonObject grant =
            check.value(QStringLiteral("details")).toObject().value(QStringLiteral("grant")).toObject();
        EXPECT_EQ(QFileInfo(grant.value(QStringLiteral("program")).toString()).canonicalFilePath(), host);
        EXPECT_TRUE(grant.value(QStringLiteral("setting")).toString().contains(QStringLiteral("accessibility")))
            << QJsonDocument(check).toJson().toStdString();
    }
}

TEST_F(Cli, CallFillsMetaAndReadsParamsFromAFile)
{
    QTemporaryDir dir;
    const QString file = dir.path() + QStringLiteral("/params.json");
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"meta": {"timeoutMs": 1234}})");
    f.close();
    const auto result = ctl({QStringLiteral("--workspace"), workspace(), QStringLiteral("call"),
                             QStringLiteral("desktop.doctor"), QLatin1Char('@') + file});
    EXPECT_EQ(result.exitCode, 0) << result.err.toStdString();
    const QJsonObject doctor = QJsonDocument::fromJson(result.out.toUtf8()).object();
    bool sawWorkspace = false;
    for (const auto& c : doctor.value(QStringLiteral("checks")).toArray()) {
        if (c.toObject().value(QStringLiteral("name")).toString() == QLatin1String("workspace")) {
            sawWorkspace = true;
            EXPECT_EQ(c.toObject().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        }
    }
    EXPECT_TRUE(sawWorkspace);
}

TEST_F(Cli, HostErrorsExitOneWithTheCodeOnStderr)
{
    const auto unknown = ctl({QStringLiteral("call"), QStringLiteral("desktop.nope")});
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_TRUE(unknown.err.contains(QStringLiteral("DESKTOP_INVALID_REQUEST")));
    EXPECT_TRUE(unknown.err.contains(QStringLiteral("-32601")));
    const auto forbidden =
        ctl({QStringLiteral("--workspace"), QStringLiteral("/"), QStringLiteral("call"), QStringLiteral("desktop.find"),
             QStringLiteral(R"({"selector":{"byRole":"AXButton"}})")});
    EXPECT_EQ(forbidden.exitCode, 1);
    EXPECT_TRUE(forbidden.err.contains(QStringLiteral("DESKTOP_WORKSPACE_FORBIDDEN")));
    const auto abort =
        ctl({QStringLiteral("--json"), QStringLiteral("call"), QStringLiteral("desktop.abort"),
             QStringLiteral(R"({"executionId":"%1"})").arg(QUuid::createUuid().toString(QUuid::WithoutBraces))});
    EXPECT_EQ(abort.exitCode, 1);
    EXPECT_EQ(QJsonDocument::fromJson(abort.out.toUtf8())
                  .object()
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toString(),
              QStringLiteral("DESKTOP_INVALID_REQUEST"));
}

TEST_F(Cli, NoHostRunningExitsThree)
{
    QTemporaryDir dir;
    const QString missing = dir.path() + QStringLiteral("/none.sock");
    const auto human =
        runCommand(QStringLiteral(MDH_CTL_BINARY), {QStringLiteral("--socket"), missing, QStringLiteral("health")});
    EXPECT_EQ(human.exitCode, 3);
    EXPECT_TRUE(human.err.contains(QStringLiteral("DESKTOP_HOST_NOT_RUNNING")));
    EXPECT_TRUE(human.out.isEmpty());
    const auto json = runCommand(QStringLiteral(MDH_CTL_BINARY), {QStringLiteral("--socket"), missing,
                                                                  QStringLiteral("--json"), QStringLiteral("doctor")});
    EXPECT_EQ(json.exitCode, 3);
    const QJsonObject error =
        QJsonDocument::fromJson(json.out.toUtf8()).object().value(QStringLiteral("error")).toObject();
    EXPECT_EQ(error.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_HOST_NOT_RUNNING"));
    EXPECT_TRUE(error.value(QStringLiteral("retryable")).toBool());
}

TEST_F(Cli, UsageErrorsExitTwo)
{
    EXPECT_EQ(ctl({}).exitCode, 2);
    EXPECT_EQ(ctl({QStringLiteral("frobnicate")}).exitCode, 2);
    EXPECT_EQ(ctl({QStringLiteral("call"), QStringLiteral("desktop.health"), QStringLiteral("{not json")}).exitCode, 2);
    EXPECT_EQ(ctl({QStringLiteral("call"), QStringLiteral("desktop.health"), QStringLiteral("[1]")}).exitCode, 2);
    EXPECT_EQ(ctl({QStringLiteral("--timeout"), QStringLiteral("0"), QStringLiteral("health")}).exitCode, 2);
    const auto help = ctl({QStringLiteral("--help")});
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_TRUE(help.out.contains(QStringLiteral("Exit codes")));
}
