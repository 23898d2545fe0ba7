// CallerPolicy: same uid, and the executable allowlist resolved with realpath
// (docs/architecture.md, "Who may connect").
#include "bridge/security/CallerPolicy.h"
#include "UnitTestSupport.h"
#include "bridge/protocol/Meta.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <unistd.h>

using namespace Bridge;

namespace {

PeerInfo self()
{
    return peerFromPid(QCoreApplication::applicationPid()).value_or(PeerInfo{});
}

QString reasonOf(const std::optional<Automation::Error>& error)
{
    return error ? error->details.value(QStringLiteral("reason")).toString() : QString();
}

} // namespace

TEST(CallerPolicy, EmptyAllowlistAdmitsAnyProcessOfTheUser)
{
    const CallerPolicy policy;
    EXPECT_FALSE(policy.restricted());
    EXPECT_FALSE(policy.check(self()).has_value());
}

TEST(CallerPolicy, AnotherUidIsRefused)
{
    const CallerPolicy policy({}, static_cast<qint64>(::getuid()) + 1);
    const auto refused = policy.check(self());
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->code, Automation::ErrorCode::CallerForbidden);
    EXPECT_EQ(reasonOf(refused), QStringLiteral("uid_mismatch"));
    // Unreadable credentials are refused the same way.
    EXPECT_EQ(reasonOf(CallerPolicy().check(std::nullopt)), QStringLiteral("uid_mismatch"));
}

TEST(CallerPolicy, ListedExecutableIsAdmitted)
{
    const CallerPolicy policy({QCoreApplication::applicationFilePath()});
    EXPECT_TRUE(policy.restricted());
    EXPECT_FALSE(policy.check(self()).has_value());
}

TEST(CallerPolicy, EntriesAreComparedAfterResolvingSymlinks)
{
    QTemporaryDir dir;
    const QString link = dir.path() + QStringLiteral("/via-link");
    ASSERT_TRUE(QFile::link(QCoreApplication::applicationFilePath(), link));
    const CallerPolicy policy({link});
    EXPECT_EQ(policy.allowed(),
              QStringList{WorkspacePolicy::realPath(QCoreApplication::applicationFilePath()).value()});
    EXPECT_FALSE(policy.check(self()).has_value());
}

TEST(CallerPolicy, UnlistedExecutableIsRefused)
{
    const CallerPolicy policy({QStringLiteral("/bin/sh")});
    const auto refused = policy.check(self());
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->code, Automation::ErrorCode::CallerForbidden);
    EXPECT_EQ(reasonOf(refused), QStringLiteral("not_allowlisted"));
    EXPECT_FALSE(refused->retryable);
}

TEST(CallerPolicy, UnresolvableEntryStillRestricts)
{
    const CallerPolicy policy({QStringLiteral("/nonexistent/msgcode")});
    EXPECT_TRUE(policy.restricted());
    EXPECT_TRUE(policy.allowed().isEmpty());
    EXPECT_EQ(policy.unresolved(), QStringList{QStringLiteral("/nonexistent/msgcode")});
    EXPECT_EQ(reasonOf(policy.check(self())), QStringLiteral("not_allowlisted"));
}

TEST(CallerPolicy, UnknownOrDeletedExecutableIsRefusedWhenRestricted)
{
    const CallerPolicy policy({QCoreApplication::applicationFilePath()});
    PeerInfo peer = self();
    peer.executable.clear();
    EXPECT_EQ(reasonOf(policy.check(peer)), QStringLiteral("executable_unknown"));
    // What /proc/PID/exe reads after the binary was replaced on disk.
    peer.executable = QCoreApplication::applicationFilePath() + QStringLiteral(" (deleted)");
    EXPECT_EQ(reasonOf(policy.check(peer)), QStringLiteral("executable_unknown"));
}
