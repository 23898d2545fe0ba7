// Bridge::WorkspacePolicy: where evidence may be written (docs/protocol.md §2.1).
#include "UnitTestSupport.h"
#include "bridge/protocol/Meta.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using Automation::Error;
using Automation::ErrorCode;
using Bridge::WorkspacePolicy;

namespace {

// base/
//   ws/                  the root
//     child/
//     file.txt
//     link-out -> base/outside
//     link-in  -> base/ws/child
//   ws-evil/             shares the root's name as a prefix
//   outside/
//   ws-link -> base/ws
class WorkspacePolicyTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_base.isValid());
        const auto real = WorkspacePolicy::realPath(m_base.path());
        ASSERT_TRUE(real.has_value());
        m_baseReal = *real;
        QDir base(m_baseReal);
        ASSERT_TRUE(base.mkpath(QStringLiteral("ws/child")));
        ASSERT_TRUE(base.mkpath(QStringLiteral("ws-evil")));
        ASSERT_TRUE(base.mkpath(QStringLiteral("outside")));
        QFile file(at(QStringLiteral("ws/file.txt")));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("x");
        file.close();
        ASSERT_TRUE(QFile::link(at(QStringLiteral("outside")), at(QStringLiteral("ws/link-out"))));
        ASSERT_TRUE(QFile::link(at(QStringLiteral("ws/child")), at(QStringLiteral("ws/link-in"))));
        ASSERT_TRUE(QFile::link(at(QStringLiteral("ws")), at(QStringLiteral("ws-link"))));
    }

    QString at(const QString& relative) const { return m_baseReal + QLatin1Char('/') + relative; }
    QString root() const { return at(QStringLiteral("ws")); }

    static void expectForbidden(const Error& error, const char* reason, const QString& workspacePath)
    {
        EXPECT_EQ(error.code, ErrorCode::WorkspaceForbidden);
        EXPECT_FALSE(error.retryable);
        EXPECT_EQ(error.details.value(QStringLiteral("reason")).toString(), QString::fromLatin1(reason));
        EXPECT_EQ(error.details.value(QStringLiteral("workspacePath")).toString(), workspacePath);
        EXPECT_FALSE(error.message.isEmpty());
    }

    QTemporaryDir m_base;
    QString m_baseReal;
};

TEST_F(WorkspacePolicyTest, RootIsResolvedOnce)
{
    const WorkspacePolicy policy(root());
    EXPECT_TRUE(policy.isConfigured());
    EXPECT_EQ(policy.rootRealPath(), root());
    EXPECT_EQ(policy.rootAsGiven(), root());
    EXPECT_TRUE(policy.configurationProblem().isEmpty());
}

TEST_F(WorkspacePolicyTest, RootGivenThroughSymlinkIsResolved)
{
    const WorkspacePolicy policy(at(QStringLiteral("ws-link")));
    ASSERT_TRUE(policy.isConfigured());
    EXPECT_EQ(policy.rootRealPath(), root());
    EXPECT_EQ(policy.rootAsGiven(), at(QStringLiteral("ws-link")));
    const auto checked = policy.check(at(QStringLiteral("ws/child")));
    ASSERT_TRUE(checked.ok()) << checked.error().message.toStdString();
    EXPECT_EQ(checked.value(), at(QStringLiteral("ws/child")));
}

struct AllowedRow
{
    const char* name;
    const char* given;    ///< relative to base
    const char* resolved; ///< relative to base

    friend void PrintTo(const AllowedRow& row, std::ostream* os) { *os << row.name; }
};

class WorkspaceAllowed : public WorkspacePolicyTest, public ::testing::WithParamInterface<AllowedRow>
{
};

TEST_P(WorkspaceAllowed, ResolvesInsideRoot)
{
    const WorkspacePolicy policy(root());
    const auto checked = policy.check(at(QString::fromLatin1(GetParam().given)));
    ASSERT_TRUE(checked.ok()) << checked.error().message.toStdString();
    EXPECT_EQ(checked.value(), at(QString::fromLatin1(GetParam().resolved)));
}

INSTANTIATE_TEST_SUITE_P(Rows, WorkspaceAllowed,
                         ::testing::Values(AllowedRow{"RootItself", "ws", "ws"},
                                           AllowedRow{"RootWithTrailingSlash", "ws/", "ws"},
                                           AllowedRow{"Child", "ws/child", "ws/child"},
                                           AllowedRow{"DotDotStayingInside", "ws/child/..", "ws"},
                                           AllowedRow{"DotComponents", "ws/./child/.", "ws/child"},
                                           AllowedRow{"DoubleSlash", "ws//child", "ws/child"},
                                           AllowedRow{"SymlinkPointingInside", "ws/link-in", "ws/child"},
                                           AllowedRow{"RootThroughSymlink", "ws-link/child", "ws/child"}),
                         UnitTest::RowName());

TEST_F(WorkspacePolicyTest, SiblingWithRootAsPrefixIsRefused)
{
    const WorkspacePolicy policy(root());
    const QString given = at(QStringLiteral("ws-evil"));
    const auto checked = policy.check(given);
    ASSERT_FALSE(checked.ok());
    expectForbidden(checked.error(), "outside_root", given);
    EXPECT_EQ(checked.error().details.value(QStringLiteral("resolvedPath")).toString(), given);
    EXPECT_EQ(checked.error().details.value(QStringLiteral("workspaceRoot")).toString(), root());
}

TEST_F(WorkspacePolicyTest, DotDotEscapeIsRefused)
{
    const WorkspacePolicy policy(root());
    const QString given = at(QStringLiteral("ws/../.."));
    const auto checked = policy.check(given);
    ASSERT_FALSE(checked.ok());
    expectForbidden(checked.error(), "outside_root", given);
    EXPECT_EQ(checked.error().details.value(QStringLiteral("resolvedPath")).toString(),
              QFileInfo(m_baseReal).absolutePath());
}

TEST_F(WorkspacePolicyTest, SymlinkPointingOutsideIsRefused)
{
    const WorkspacePolicy policy(root());
    const QString given = at(QStringLiteral("ws/link-out"));
    const auto checked = policy.check(given);
    ASSERT_FALSE(checked.ok());
    expectForbidden(checked.error(), "outside_root", given);
    EXPECT_EQ(checked.error().details.value(QStringLiteral("resolvedPath")).toString(), at(QStringLiteral("outside")));
}

TEST_F(WorkspacePolicyTest, ParentOfRootIsRefused)
{
    const WorkspacePolicy policy(root());
    const auto checked = policy.check(m_baseReal);
    ASSERT_FALSE(checked.ok());
    expectForbidden(checked.error(), "outside_root", m_baseReal);
}

TEST_F(WorkspacePolicyTest, MissingPathIsNotFound)
{
    const WorkspacePolicy policy(root());
    const QString given = at(QStringLiteral("ws/missing"));
    const auto checked = policy.check(given);
    ASSERT_FALSE(checked.ok());
    expectForbidden(checked.error(), "not_found", given);
}

TEST_F(WorkspacePolicyTest, DanglingSymlinkIsNotFound)
{
    ASSERT_TRUE(QFile::link(at(QStringLiteral("nowhere")), at(QStringLiteral("ws/dangling"))));
    const WorkspacePolicy policy(root());
    const QString given = at(QStringLiteral("ws/dangling"));
    const auto checked = policy.check(given);
    ASSERT_FALSE(checked.ok());
    expectForbidden(checked.error(), "not_found", given);
}

TEST_F(WorkspacePolicyTest, FileIsNotADirectory)
{
    const WorkspacePolicy policy(root());
    const QString given = at(QStringLiteral("ws/file.txt"));
    const auto checked = policy.check(given);
    ASSERT_FALSE(checked.ok());
    expectForbidden(checked.error(), "not_a_directory", given);
}

TEST_F(WorkspacePolicyTest, UnsetRootRefusesEverything)
{
    const WorkspacePolicy policy{QString()};
    EXPECT_FALSE(policy.isConfigured());
    EXPECT_TRUE(policy.rootRealPath().isEmpty());
    EXPECT_FALSE(policy.configurationProblem().isEmpty());
    for (const QString& given : {root(), QStringLiteral("/")}) {
        const auto checked = policy.check(given);
        ASSERT_FALSE(checked.ok());
        expectForbidden(checked.error(), "workspace_root_unset", given);
    }
}

TEST_F(WorkspacePolicyTest, MissingRootIsNotConfigured)
{
    const WorkspacePolicy policy(at(QStringLiteral("no-such-root")));
    EXPECT_FALSE(policy.isConfigured());
    EXPECT_EQ(policy.rootAsGiven(), at(QStringLiteral("no-such-root")));
    EXPECT_TRUE(policy.configurationProblem().contains(at(QStringLiteral("no-such-root"))));
    const auto checked = policy.check(root());
    ASSERT_FALSE(checked.ok());
    expectForbidden(checked.error(), "workspace_root_unset", root());
}

TEST_F(WorkspacePolicyTest, FileRootIsNotConfigured)
{
    const WorkspacePolicy policy(at(QStringLiteral("ws/file.txt")));
    EXPECT_FALSE(policy.isConfigured());
    EXPECT_FALSE(policy.configurationProblem().isEmpty());
}

TEST(WorkspacePolicyRealPath, ExistingAndMissing)
{
    EXPECT_EQ(WorkspacePolicy::realPath(QStringLiteral("/")), std::optional<QString>(QStringLiteral("/")));
    EXPECT_EQ(WorkspacePolicy::realPath(QStringLiteral("/./")), std::optional<QString>(QStringLiteral("/")));
    EXPECT_FALSE(WorkspacePolicy::realPath(QStringLiteral("/no/such/path/at/all")).has_value());
}

struct UnderRow
{
    const char* name;
    const char* path;
    const char* root;
    bool under;

    friend void PrintTo(const UnderRow& row, std::ostream* os) { *os << row.name; }
};

class WorkspaceIsUnder : public ::testing::TestWithParam<UnderRow>
{
};

TEST_P(WorkspaceIsUnder, ComparesOnComponentBoundary)
{
    const UnderRow& row = GetParam();
    EXPECT_EQ(WorkspacePolicy::isUnder(QString::fromLatin1(row.path), QString::fromLatin1(row.root)), row.under);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, WorkspaceIsUnder,
    ::testing::Values(UnderRow{"Same", "/tmp/ws", "/tmp/ws", true}, UnderRow{"Child", "/tmp/ws/a", "/tmp/ws", true},
                      UnderRow{"Grandchild", "/tmp/ws/a/b", "/tmp/ws", true},
                      UnderRow{"PrefixSibling", "/tmp/ws-evil", "/tmp/ws", false},
                      UnderRow{"PrefixSiblingNoDash", "/tmp/wsx", "/tmp/ws", false},
                      UnderRow{"Parent", "/tmp", "/tmp/ws", false}, UnderRow{"Unrelated", "/home/ws", "/tmp/ws", false},
                      UnderRow{"CaseMatters", "/tmp/WS/a", "/tmp/ws", false},
                      UnderRow{"RootSlashItself", "/", "/", true}, UnderRow{"RootSlashChild", "/tmp", "/", true},
                      UnderRow{"RootSlashDeep", "/a/b/c", "/", true}, UnderRow{"SlashUnderOther", "/", "/tmp", false}),
    UnitTest::RowName());

} // namespace
