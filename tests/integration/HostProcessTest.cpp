// The real msgcode-desktop-host executable: one host per socket, stale sockets, clean
// shutdown, and the peer-uid check against a process of another user.
#include "HostProcess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

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

} // namespace

TEST(HostProcess, ServesAndRemovesItsSocketOnSigterm)
{
    HostProcess host;
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    EXPECT_TRUE(host.output().contains(host.socketPath()));
    struct stat st
    {
    };
    ASSERT_EQ(::stat(QFile::encodeName(host.socketPath()).constData(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    ASSERT_EQ(::stat(QFile::encodeName(QFileInfo(host.socketPath()).absolutePath()).constData(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    EXPECT_EQ(ctl(host, {QStringLiteral("health")}).exitCode, 0);
    EXPECT_EQ(host.terminate(), 0);
    EXPECT_FALSE(QFile::exists(host.socketPath()));
}

TEST(HostProcess, SecondInstanceIsRefusedAndNamesTheRunningOne)
{
    HostProcess first;
    ASSERT_TRUE(first.start());
    HostProcess second(first.socketPath());
    EXPECT_FALSE(second.start(5000));
    second.process().waitForFinished(5000);
    EXPECT_EQ(second.process().exitCode(), 3);
    const QString message = QString::fromUtf8(second.process().readAllStandardError());
    EXPECT_TRUE(message.contains(QStringLiteral("pid %1").arg(first.process().processId()))) << message.toStdString();
    // The first host was not displaced.
    EXPECT_EQ(ctl(first, {QStringLiteral("health")}).exitCode, 0);
}

TEST(HostProcess, StaleSocketOfACrashedHostIsReplaced)
{
    HostProcess crashed;
    ASSERT_TRUE(crashed.start());
    crashed.kill(); // SIGKILL: the socket file and lock stay behind
    ASSERT_TRUE(QFile::exists(crashed.socketPath()));
    HostProcess next(crashed.socketPath());
    ASSERT_TRUE(next.start()) << next.output().toStdString();
    EXPECT_EQ(ctl(next, {QStringLiteral("health")}).exitCode, 0);
}

TEST(HostProcess, PeerOfAnotherUserIsRefused)
{
    if (::getuid() != 0)
        GTEST_SKIP() << "needs root to run a client as another user (runuser -u nobody)";
    const OtherUserSandbox sandbox;
    ASSERT_TRUE(sandbox.isValid());
    HostProcess host(sandbox.socketPath(), {QStringLiteral("--insecure-test-socket-mode")});
    ASSERT_TRUE(host.start());
    const CommandResult asNobody = sandbox.ctlAsNobody({QStringLiteral("--json"), QStringLiteral("health")});
    ASSERT_NE(asNobody.exitCode, -1) << asNobody.err.toStdString();
    EXPECT_EQ(asNobody.exitCode, 1) << asNobody.out.toStdString() << asNobody.err.toStdString();
    const QJsonObject response = QJsonDocument::fromJson(asNobody.out.trimmed().toUtf8()).object();
    EXPECT_EQ(response.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("DESKTOP_CALLER_FORBIDDEN"))
        << asNobody.out.toStdString();
    // Our own user is still served.
    EXPECT_EQ(ctl(host, {QStringLiteral("health")}).exitCode, 0);
}
