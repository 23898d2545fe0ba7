// Bridge::PeerCredentials: who is on the other end of a Unix socket (docs/architecture.md, "Confirmation, caller
// policy, stop and audit").
#include "bridge/transport/PeerCredentials.h"
#include "UnitTestSupport.h"

#include <QFile>
#include <QRegularExpression>

#include <gtest/gtest.h>

#include <climits>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace Bridge;

namespace {

/// readlink(2) of /proc/self/exe, independent of the code under test.
QString selfExecutable()
{
    char buffer[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer);
    if (n <= 0)
        return {};
    return QFile::decodeName(QByteArray(buffer, static_cast<qsizetype>(n)));
}

/// A pid that certainly names no process: a child we started, waited for and reaped.
pid_t reapedPid()
{
    const pid_t child = ::fork();
    if (child == 0)
        ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

class SocketPair
{
public:
    SocketPair() { m_ok = ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, m_fds) == 0; }
    ~SocketPair()
    {
        if (m_ok) {
            ::close(m_fds[0]);
            ::close(m_fds[1]);
        }
    }
    bool ok() const { return m_ok; }
    int fd(int i) const { return m_fds[i]; }

private:
    int m_fds[2] = {-1, -1};
    bool m_ok = false;
};

const QRegularExpression kEightHex(QStringLiteral("^[0-9a-f]{8}$"));

TEST(PeerCredentials, SocketPairGivesOurOwnIdentity)
{
    SocketPair pair;
    ASSERT_TRUE(pair.ok());
    const auto peer = peerFromSocket(pair.fd(0));
    ASSERT_TRUE(peer.has_value());
    EXPECT_EQ(peer->pid, ::getpid());
    EXPECT_EQ(peer->uid, static_cast<qint64>(::getuid()));
    EXPECT_EQ(peer->gid, static_cast<qint64>(::getgid()));
    EXPECT_FALSE(peer->executable.isEmpty());
    EXPECT_EQ(peer->executable, selfExecutable());
    EXPECT_GT(peer->startTime, 0u);
    EXPECT_EQ(peer->startTime, processStartTime(::getpid()));
    EXPECT_TRUE(kEightHex.match(peer->auditTokenDigest).hasMatch()) << peer->auditTokenDigest.toStdString();
    EXPECT_EQ(peer->auditTokenDigest, auditTokenDigest(peer->pid, peer->startTime, peer->uid, peer->executable));

    // Both ends name the same process here.
    const auto other = peerFromSocket(pair.fd(1));
    ASSERT_TRUE(other.has_value());
    EXPECT_EQ(other->auditTokenDigest, peer->auditTokenDigest);
}

TEST(PeerCredentials, PeerFromPidMatchesPeerFromSocket)
{
    SocketPair pair;
    ASSERT_TRUE(pair.ok());
    const auto bySocket = peerFromSocket(pair.fd(0));
    const auto byPid = peerFromPid(::getpid());
    ASSERT_TRUE(bySocket.has_value());
    ASSERT_TRUE(byPid.has_value());
    EXPECT_EQ(byPid->pid, bySocket->pid);
    EXPECT_EQ(byPid->uid, bySocket->uid);
    EXPECT_EQ(byPid->gid, bySocket->gid);
    EXPECT_EQ(byPid->executable, bySocket->executable);
    EXPECT_EQ(byPid->startTime, bySocket->startTime);
    EXPECT_EQ(byPid->auditTokenDigest, bySocket->auditTokenDigest);
}

TEST(PeerCredentials, NotASocket)
{
    int pipeFds[2];
    ASSERT_EQ(::pipe(pipeFds), 0);
    EXPECT_FALSE(peerFromSocket(pipeFds[0]).has_value());
    ::close(pipeFds[0]);
    ::close(pipeFds[1]);
    EXPECT_FALSE(peerFromSocket(-1).has_value());
}

TEST(PeerCredentials, DeadOrMissingProcess)
{
    const pid_t dead = reapedPid();
    ASSERT_GT(dead, 0);
    EXPECT_FALSE(peerFromPid(dead).has_value());
    EXPECT_EQ(processStartTime(dead), 0u);
    EXPECT_TRUE(processExecutable(dead).isEmpty());

    for (qint64 pid : {qint64(-1), qint64(0), qint64(INT_MAX)}) {
        SCOPED_TRACE(pid);
        EXPECT_FALSE(peerFromPid(pid).has_value());
        EXPECT_EQ(processStartTime(pid), 0u);
    }
}

TEST(PeerCredentials, ProcessStartTimeOfSelf)
{
    const quint64 start = processStartTime(::getpid());
    EXPECT_GT(start, 0u);
    // Stable: it is when the process started, not a clock reading.
    EXPECT_EQ(processStartTime(::getpid()), start);
    // pid 1 started no later than we did.
    const quint64 init = processStartTime(1);
    if (init > 0) {
        EXPECT_LE(init, start);
    }
}

// /proc/PID/stat's second field is the command name in parentheses and may itself hold ") (" and
// spaces; the start time must still be read from the right field.
TEST(PeerCredentials, ProcessStartTimeSurvivesAwkwardCommandName)
{
    char original[17] = {};
    ASSERT_EQ(::prctl(PR_GET_NAME, original, 0, 0, 0), 0);
    const quint64 before = processStartTime(::getpid());
    ASSERT_EQ(::prctl(PR_SET_NAME, "a) b (c) 1 2 3", 0, 0, 0), 0);
    const quint64 during = processStartTime(::getpid());
    ::prctl(PR_SET_NAME, original, 0, 0, 0);
    EXPECT_EQ(during, before);
}

TEST(PeerCredentials, AuditTokenDigestKnownValue)
{
    // sha256("1234:5678:1000:/usr/bin/foo"), first 8 hex digits.
    EXPECT_EQ(auditTokenDigest(1234, 5678, 1000, QStringLiteral("/usr/bin/foo")), QStringLiteral("2181ce84"));
    EXPECT_EQ(auditTokenDigest(1234, 5679, 1000, QStringLiteral("/usr/bin/foo")), QStringLiteral("74f50bf7"));
}

TEST(PeerCredentials, AuditTokenDigestChangesWithEveryPart)
{
    const QString base = auditTokenDigest(1234, 5678, 1000, QStringLiteral("/usr/bin/foo"));
    EXPECT_TRUE(kEightHex.match(base).hasMatch());
    EXPECT_EQ(auditTokenDigest(1234, 5678, 1000, QStringLiteral("/usr/bin/foo")), base);
    EXPECT_NE(auditTokenDigest(1235, 5678, 1000, QStringLiteral("/usr/bin/foo")), base); // pid
    EXPECT_NE(auditTokenDigest(1234, 5679, 1000, QStringLiteral("/usr/bin/foo")), base); // recycled pid
    EXPECT_NE(auditTokenDigest(1234, 5678, 1001, QStringLiteral("/usr/bin/foo")), base); // uid
    EXPECT_NE(auditTokenDigest(1234, 5678, 1000, QStringLiteral("/usr/bin/bar")), base); // executable
    EXPECT_NE(auditTokenDigest(1234, 5678, 1000, QString()), base);
}

TEST(PeerCredentials, Json)
{
    PeerInfo info;
    info.pid = 12345;
    info.uid = 1000;
    info.gid = 100;
    info.executable = QStringLiteral("/usr/bin/msgcode");
    info.startTime = 99;
    info.auditTokenDigest = QStringLiteral("01234567");
    EXPECT_EQ(info.toJson(), UnitTest::jsonObject(R"({"pid":12345,"auditTokenDigest":"01234567"})"));
    EXPECT_EQ(info.toDetailedJson(), UnitTest::jsonObject(R"({"pid":12345,"uid":1000,"gid":100,
        "executable":"/usr/bin/msgcode","auditTokenDigest":"01234567"})"));
}

} // namespace
