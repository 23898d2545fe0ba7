// The real executables: the caller allowlist at connect, the audit lines of
// refused callers, the policy flags, and msgcode-desktopctl stop / resume.
#include "HostProcess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

using namespace Testing;

namespace {

CommandResult ctl(const HostProcess& host, const QStringList& args)
{
    return runCommand(QStringLiteral(MDH_CTL_BINARY),
                      QStringList{QStringLiteral("--socket"), host.socketPath()} + args);
}

QJsonObject jsonOf(const CommandResult& result)
{
    return QJsonDocument::fromJson(result.out.trimmed().toUtf8()).object();
}

QJsonObject errorOf(const CommandResult& result)
{
    return jsonOf(result).value(QStringLiteral("error")).toObject();
}

QString reasonOf(const CommandResult& result)
{
    return errorOf(result).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString();
}

/// The audit lines of one event, waiting a moment for the host to write them.
QList<QJsonObject> auditLines(const HostProcess& host, const QString& event, int atLeast = 1)
{
    QList<QJsonObject> lines;
    [[maybe_unused]] const bool enough = QTest::qWaitFor(
        [&] {
            lines.clear();
            for (const auto& line : host.auditLines()) {
                if (line.value(QStringLiteral("event")).toString() == event)
                    lines.append(line);
            }
            return lines.size() >= atLeast;
        },
        5000);
    return lines;
}

QString realCtl()
{
    return QFileInfo(QStringLiteral(MDH_CTL_BINARY)).canonicalFilePath();
}

std::string text(const CommandResult& r)
{
    return QString(r.out + r.err).toStdString();
}

} // namespace

TEST(SecurityProcess, AllowlistAdmitsTheListedCaller)
{
    HostProcess host({}, {QStringLiteral("--allow-caller"), QStringLiteral(MDH_CTL_BINARY)});
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    const CommandResult health = ctl(host, {QStringLiteral("health")});
    EXPECT_EQ(health.exitCode, 0) << text(health);
    EXPECT_TRUE(host.auditLines().isEmpty());
}

TEST(SecurityProcess, AllowlistEntriesAreResolved)
{
    QTemporaryDir dir;
    const QString link = dir.path() + QStringLiteral("/ctl-link");
    ASSERT_TRUE(QFile::link(QStringLiteral(MDH_CTL_BINARY), link));
    HostProcess host(
        {}, {QStringLiteral("--allow-caller"), QStringLiteral("/bin/true"), QStringLiteral("--allow-caller"), link});
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    // Listed through a symlink, and run through another: both resolve to the same file.
    const CommandResult viaLink =
        runCommand(link, {QStringLiteral("--socket"), host.socketPath(), QStringLiteral("health")});
    EXPECT_EQ(viaLink.exitCode, 0) << text(viaLink);
    EXPECT_EQ(ctl(host, {QStringLiteral("health")}).exitCode, 0);
}

TEST(SecurityProcess, AllowlistRefusesAnyOtherCallerAtConnect)
{
    HostProcess host({}, {QStringLiteral("--allow-caller"), QStringLiteral("/bin/true")});
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    const CommandResult refused = ctl(host, {QStringLiteral("--json"), QStringLiteral("health")});
    EXPECT_EQ(refused.exitCode, 1) << text(refused);
    EXPECT_EQ(errorOf(refused).value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_CALLER_FORBIDDEN"))
        << text(refused);
    EXPECT_EQ(reasonOf(refused), QStringLiteral("not_allowlisted"));
    EXPECT_FALSE(errorOf(refused).value(QStringLiteral("retryable")).toBool());
    // Refused before any request was read: no command gets through, whatever it is.
    const CommandResult stop = ctl(host, {QStringLiteral("--json"), QStringLiteral("stop")});
    EXPECT_EQ(reasonOf(stop), QStringLiteral("not_allowlisted")) << text(stop);

    const auto lines = auditLines(host, QStringLiteral("caller_refused"), 2);
    ASSERT_EQ(lines.size(), 2);
    EXPECT_EQ(lines[0].value(QStringLiteral("reason")).toString(), QStringLiteral("not_allowlisted"));
    EXPECT_EQ(lines[0].value(QStringLiteral("peer")).toObject().value(QStringLiteral("exe")).toString(), realCtl());
    EXPECT_EQ(lines[0].value(QStringLiteral("peer")).toObject().value(QStringLiteral("digest")).toString().size(), 8);
    EXPECT_TRUE(auditLines(host, QStringLiteral("stop"), 0).isEmpty());
}

TEST(SecurityProcess, RefusedOtherUserIsAudited)
{
    if (::getuid() != 0)
        GTEST_SKIP() << "needs root to run a client as another user (runuser -u nobody)";
    const OtherUserSandbox sandbox;
    ASSERT_TRUE(sandbox.isValid());
    HostProcess host(sandbox.socketPath(), {QStringLiteral("--insecure-test-socket-mode")});
    ASSERT_TRUE(host.start());
    const CommandResult asNobody = sandbox.ctlAsNobody({QStringLiteral("--json"), QStringLiteral("stop")});
    EXPECT_EQ(asNobody.exitCode, 1) << text(asNobody);
    EXPECT_EQ(reasonOf(asNobody), QStringLiteral("uid_mismatch")) << text(asNobody);
    const auto lines = auditLines(host, QStringLiteral("caller_refused"));
    ASSERT_EQ(lines.size(), 1);
    EXPECT_EQ(lines[0].value(QStringLiteral("reason")).toString(), QStringLiteral("uid_mismatch"));
    EXPECT_NE(lines[0].value(QStringLiteral("uid")).toInteger(), 0);
    // The other user's stop did nothing.
    EXPECT_FALSE(jsonOf(ctl(host, {QStringLiteral("--json"), QStringLiteral("health")}))
                     .value(QStringLiteral("result"))
                     .toObject()
                     .value(QStringLiteral("bridge"))
                     .toObject()
                     .value(QStringLiteral("paused"))
                     .toBool());
}

TEST(SecurityProcess, CliStopAndResumeUnderAutoPolicy)
{
    HostProcess host({}, {QStringLiteral("--confirm-policy"), QStringLiteral("auto")});
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    // The auto policy is announced loudly.
    QString log;
    [[maybe_unused]] const bool announced = QTest::qWaitFor(
        [&] {
            log += QString::fromUtf8(host.process().readAllStandardError());
            return log.contains(QStringLiteral("CONFIRM POLICY IS AUTO"));
        },
        5000);
    EXPECT_TRUE(log.contains(QStringLiteral("CONFIRM POLICY IS AUTO"))) << log.toStdString();

    const CommandResult stop = ctl(host, {QStringLiteral("stop")});
    EXPECT_EQ(stop.exitCode, 0) << text(stop);
    EXPECT_TRUE(stop.out.contains(QStringLiteral("stopped: 0 execution(s) aborted"))) << text(stop);
    EXPECT_TRUE(stop.out.contains(QStringLiteral("msgcode-desktopctl resume")));

    const CommandResult health = ctl(host, {QStringLiteral("health")});
    EXPECT_TRUE(health.out.contains(QStringLiteral("PAUSED"))) << text(health);
    QDir(host.workspaceRoot()).mkpath(QStringLiteral("ws"));
    const CommandResult click = ctl(
        host, {QStringLiteral("--json"), QStringLiteral("--workspace"), host.workspaceRoot() + QStringLiteral("/ws"),
               QStringLiteral("call"), QStringLiteral("desktop.click"),
               QStringLiteral(R"({"confirm":{"phrase":"CONFIRM"},"target":{"selector":{"byRole":"AXButton"}}})")});
    EXPECT_EQ(click.exitCode, 1) << text(click);
    EXPECT_EQ(reasonOf(click), QStringLiteral("paused")) << text(click);

    const CommandResult resume = ctl(host, {QStringLiteral("resume")});
    EXPECT_EQ(resume.exitCode, 0) << text(resume);
    EXPECT_TRUE(resume.out.contains(QStringLiteral("resumed"))) << text(resume);
    const CommandResult again = ctl(host, {QStringLiteral("--json"), QStringLiteral("resume")});
    EXPECT_EQ(again.exitCode, 0);
    EXPECT_EQ(jsonOf(again).value(QStringLiteral("result")).toObject(),
              (QJsonObject{{QStringLiteral("resumed"), false}, {QStringLiteral("paused"), false}}));
    const CommandResult jsonStop = ctl(host, {QStringLiteral("--json"), QStringLiteral("stop")});
    EXPECT_EQ(jsonStop.exitCode, 0);
    EXPECT_TRUE(jsonOf(jsonStop).value(QStringLiteral("result")).toObject().value(QStringLiteral("stopped")).toBool())
        << text(jsonStop);

    EXPECT_EQ(auditLines(host, QStringLiteral("stop"), 2).size(), 2);
    EXPECT_EQ(auditLines(host, QStringLiteral("resume")).size(), 1);
    EXPECT_EQ(auditLines(host, QStringLiteral("phrase_refused")).size(), 1);
}

TEST(SecurityProcess, CliResumeIsRefusedUnderTheHeadlessDefault)
{
    HostProcess host;
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    EXPECT_EQ(ctl(host, {QStringLiteral("stop")}).exitCode, 0);
    const CommandResult resume = ctl(host, {QStringLiteral("resume")});
    EXPECT_EQ(resume.exitCode, 1) << text(resume);
    EXPECT_TRUE(resume.err.contains(QStringLiteral("DESKTOP_CONFIRM_REQUIRED"))) << text(resume);
    EXPECT_TRUE(resume.err.contains(QStringLiteral("\"reason\":\"denied\""))) << text(resume);
    const CommandResult doctor = ctl(host, {QStringLiteral("--json"), QStringLiteral("doctor")});
    bool pausedWarning = false;
    for (const auto& c :
         jsonOf(doctor).value(QStringLiteral("result")).toObject().value(QStringLiteral("checks")).toArray()) {
        if (c.toObject().value(QStringLiteral("name")).toString() == QLatin1String("paused"))
            pausedWarning = c.toObject().value(QStringLiteral("status")).toString() == QLatin1String("warning");
    }
    EXPECT_TRUE(pausedWarning) << text(doctor);
    // A token is not issued either.
    QDir(host.workspaceRoot()).mkpath(QStringLiteral("ws"));
    const CommandResult issue = ctl(
        host, {QStringLiteral("--json"), QStringLiteral("--workspace"), host.workspaceRoot() + QStringLiteral("/ws"),
               QStringLiteral("call"), QStringLiteral("desktop.confirm.issue"),
               QStringLiteral(R"({"intent":{"method":"desktop.hotkey","params":{"keys":["enter"]}}})")});
    EXPECT_EQ(reasonOf(issue), QStringLiteral("paused")) << text(issue);
    const auto approvals = auditLines(host, QStringLiteral("approval"));
    ASSERT_EQ(approvals.size(), 1);
    EXPECT_EQ(approvals[0].value(QStringLiteral("decidedBy")).toString(), QStringLiteral("policy"));
}

TEST(SecurityProcess, HeadlessDefaultIssuesNoTokens)
{
    HostProcess host;
    ASSERT_TRUE(host.start());
    QDir(host.workspaceRoot()).mkpath(QStringLiteral("ws"));
    const CommandResult issue = ctl(
        host, {QStringLiteral("--json"), QStringLiteral("--workspace"), host.workspaceRoot() + QStringLiteral("/ws"),
               QStringLiteral("call"), QStringLiteral("desktop.confirm.issue"),
               QStringLiteral(R"({"intent":{"method":"desktop.hotkey","params":{"keys":["enter"]}}})")});
    EXPECT_EQ(issue.exitCode, 1);
    EXPECT_EQ(reasonOf(issue), QStringLiteral("denied")) << text(issue);
    EXPECT_EQ(errorOf(issue).value(QStringLiteral("details")).toObject().value(QStringLiteral("policy")).toString(),
              QStringLiteral("deny"));
    const CommandResult health = ctl(host, {QStringLiteral("health")});
    EXPECT_TRUE(health.out.contains(QStringLiteral("policy deny"))) << text(health);
}

TEST(SecurityProcess, BadSecurityOptionsAreUsageErrors)
{
    for (const QStringList& args : {QStringList{QStringLiteral("--confirm-policy"), QStringLiteral("maybe")},
                                    QStringList{QStringLiteral("--max-token-ttl-ms"), QStringLiteral("0")},
                                    QStringList{QStringLiteral("--approval-timeout-ms"), QStringLiteral("x")},
                                    QStringList{QStringLiteral("--approval-timeout-ms"), QStringLiteral("600001")}}) {
        HostProcess host({}, args);
        EXPECT_FALSE(host.start(5000));
        host.process().waitForFinished(5000);
        EXPECT_EQ(host.process().exitCode(), 2) << args.join(QLatin1Char(' ')).toStdString();
    }
}

TEST(SecurityProcess, HelpNamesStopAndResume)
{
    const CommandResult help = runCommand(QStringLiteral(MDH_CTL_BINARY), {QStringLiteral("--help")});
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_TRUE(help.out.contains(QStringLiteral("stop"))) << text(help);
    EXPECT_TRUE(help.out.contains(QStringLiteral("resume"))) << text(help);
    const CommandResult hostHelp = runCommand(QStringLiteral(MDH_HOST_BINARY), {QStringLiteral("--help")});
    for (const char* option : {"--confirm-policy", "--require-token", "--max-token-ttl-ms", "--approval-timeout-ms",
                               "--allow-caller", "--data-dir"})
        EXPECT_TRUE(hostHelp.out.contains(QString::fromLatin1(option))) << option;
    EXPECT_EQ(runCommand(QStringLiteral(MDH_CTL_BINARY), {QStringLiteral("stop"), QStringLiteral("now")}).exitCode, 2);
}
