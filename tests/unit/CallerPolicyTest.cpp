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

// team: entries (macOS): a process whose code signature holds and names the Team ID may
// connect; a signature that does not hold, another team or an unsigned program may not.
TEST(CallerPolicy, ATeamIdEntryAdmitsOnlyAValidSignatureOfThatTeam)
{
    const CallerPolicy policy({QStringLiteral("team:ABCDE12345"), QStringLiteral("team:not-a-team")});
    EXPECT_EQ(policy.teams(), QStringList{QStringLiteral("ABCDE12345")});
    EXPECT_EQ(policy.unresolved(), QStringList{QStringLiteral("team:not-a-team")});
    EXPECT_TRUE(policy.warnings().join(u'\n').contains(QStringLiteral("team:not-a-team is not a Team ID")));

    PeerInfo signedByTeam = self();
    signedByTeam.codeSignature = CodeSignature{true, QStringLiteral("ABCDE12345"), QStringLiteral("com.example.a"), {}};
    EXPECT_FALSE(policy.check(signedByTeam).has_value());

    PeerInfo otherTeam = self();
    otherTeam.codeSignature = CodeSignature{true, QStringLiteral("ZZZZZ99999"), QStringLiteral("com.example.b"), {}};
    EXPECT_EQ(reasonOf(policy.check(otherTeam)), QStringLiteral("not_allowlisted"));

    PeerInfo broken = self();
    broken.codeSignature = CodeSignature{false, QStringLiteral("ABCDE12345"), {}, QStringLiteral("invalid")};
    EXPECT_EQ(reasonOf(policy.check(broken)), QStringLiteral("not_allowlisted"));

    // No code signature here (Linux): nothing to match, the executable list decides.
    EXPECT_EQ(reasonOf(policy.check(self())), QStringLiteral("not_allowlisted"));
}
