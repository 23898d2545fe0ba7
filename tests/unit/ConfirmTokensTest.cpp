// ConfirmTokens: issue, every refusal, TTL on an injectable clock, single use under contention.
#include "bridge/security/ConfirmTokens.h"
#include "UnitTestSupport.h"

#include <QRegularExpression>
#include <QSet>

#include <atomic>
#include <thread>
#include <vector>

using Bridge::ConfirmTokens;
using Refusal = ConfirmTokens::Refusal;

namespace {

struct FakeClock
{
    std::shared_ptr<std::atomic<qint64>> now = std::make_shared<std::atomic<qint64>>(1'770'000'000'000);
    ConfirmTokens::Clock clock() const
    {
        return [now = now] { return now->load(); };
    }
    void advance(qint64 ms) { *now += ms; }
};

const ConfirmTokens::Scope kScope{QStringLiteral("desktop.typeText"), QStringLiteral("0123456789abcdef")};
const ConfirmTokens::Peer kPeer{4242, QStringLiteral("a1b2c3d4")};

} // namespace

TEST(ConfirmTokens, IssuesRandomUuidV4BoundToScopeAndPeer)
{
    FakeClock clock;
    ConfirmTokens tokens(clock.clock());
    const auto token = tokens.issue(kScope, kPeer, 60000);
    ASSERT_TRUE(token.has_value());
    static const QRegularExpression uuidV4(
        QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"));
    EXPECT_TRUE(uuidV4.match(token->token).hasMatch()) << token->token.toStdString();
    EXPECT_EQ(token->scope.method, kScope.method);
    EXPECT_EQ(token->scope.paramsDigest, kScope.paramsDigest);
    EXPECT_EQ(token->peer.pid, kPeer.pid);
    EXPECT_EQ(token->peer.auditTokenDigest, kPeer.auditTokenDigest);
    EXPECT_EQ(token->issuedAtMs, clock.now->load());
    EXPECT_EQ(token->expiresAtMs, clock.now->load() + 60000);
}

TEST(ConfirmTokens, UuidsDoNotRepeat)
{
    QSet<QString> seen;
    for (int i = 0; i < 5000; ++i)
        seen.insert(ConfirmTokens::newUuidV4());
    EXPECT_EQ(seen.size(), 5000);
}

TEST(ConfirmTokens, ValidUseConsumesAndReplayIsUsed)
{
    ConfirmTokens tokens;
    const auto token = tokens.issue(kScope, kPeer, 60000);
    const auto first = tokens.consume(token->token, kScope, kPeer);
    EXPECT_FALSE(first.refusal.has_value());
    const auto replay = tokens.consume(token->token, kScope, kPeer);
    ASSERT_TRUE(replay.refusal.has_value());
    EXPECT_EQ(*replay.refusal, Refusal::Used);
    EXPECT_EQ(ConfirmTokens::refusalName(*replay.refusal), QStringLiteral("used"));
}

TEST(ConfirmTokens, UpperCaseTokenIsTheSameToken)
{
    ConfirmTokens tokens;
    const auto token = tokens.issue(kScope, kPeer, 60000);
    EXPECT_FALSE(tokens.consume(token->token.toUpper(), kScope, kPeer).refusal.has_value());
}

TEST(ConfirmTokens, UnknownToken)
{
    ConfirmTokens tokens;
    for (const QString& t : {ConfirmTokens::newUuidV4(), QStringLiteral("not-a-uuid"), QString()}) {
        const auto verdict = tokens.consume(t, kScope, kPeer);
        ASSERT_TRUE(verdict.refusal.has_value());
        EXPECT_EQ(*verdict.refusal, Refusal::UnknownToken);
    }
}

struct RefusalRow
{
    const char* name;
    ConfirmTokens::Scope scope;
    ConfirmTokens::Peer peer;
    Refusal expected;
};

class TokenRefusals : public ::testing::TestWithParam<RefusalRow>
{
};

TEST_P(TokenRefusals, AreRefusedAndLeaveTheTokenUsable)
{
    ConfirmTokens tokens;
    const auto token = tokens.issue(kScope, kPeer, 60000);
    const auto verdict = tokens.consume(token->token, GetParam().scope, GetParam().peer);
    ASSERT_TRUE(verdict.refusal.has_value());
    EXPECT_EQ(*verdict.refusal, GetParam().expected);
    // Only a valid use consumes (docs/protocol.md §5.10): the owner can still use it.
    EXPECT_FALSE(tokens.consume(token->token, kScope, kPeer).refusal.has_value());
}

INSTANTIATE_TEST_SUITE_P(
    All, TokenRefusals,
    ::testing::Values(
        RefusalRow{"OtherPid", kScope, {4243, kPeer.auditTokenDigest}, Refusal::PeerMismatch},
        // A recycled pid: same number, another start time, hence another digest.
        RefusalRow{"RecycledPid", kScope, {kPeer.pid, QStringLiteral("ffff0000")}, Refusal::PeerMismatch},
        RefusalRow{
            "OtherMethod", {QStringLiteral("desktop.click"), kScope.paramsDigest}, kPeer, Refusal::MethodMismatch},
        RefusalRow{"OtherParams", {kScope.method, QStringLiteral("fedcba9876543210")}, kPeer, Refusal::ParamsMismatch},
        // Peer is checked first (docs/protocol.md §4.2 order): a stranger learns nothing about the scope.
        RefusalRow{"StrangerWithOtherScope",
                   {QStringLiteral("desktop.click"), QStringLiteral("x")},
                   {1, QStringLiteral("y")},
                   Refusal::PeerMismatch}),
    [](const ::testing::TestParamInfo<RefusalRow>& info) { return std::string(info.param.name); });

TEST(ConfirmTokens, ExpiresExactlyAtItsTtl)
{
    FakeClock clock;
    ConfirmTokens tokens(clock.clock());
    const auto a = tokens.issue(kScope, kPeer, 1000);
    const auto b = tokens.issue(kScope, kPeer, 1000);
    clock.advance(999);
    EXPECT_FALSE(tokens.consume(a->token, kScope, kPeer).refusal.has_value());
    clock.advance(1);
    const auto late = tokens.consume(b->token, kScope, kPeer);
    ASSERT_TRUE(late.refusal.has_value());
    EXPECT_EQ(*late.refusal, Refusal::Expired);
    EXPECT_EQ(late.token->expiresAtMs, a->issuedAtMs + 1000);
}

TEST(ConfirmTokens, SpentTokensAreForgottenLongAfterExpiry)
{
    FakeClock clock;
    ConfirmTokens tokens(clock.clock(), 2);
    const auto a = tokens.issue(kScope, kPeer, 1000);
    EXPECT_FALSE(tokens.consume(a->token, kScope, kPeer).refusal.has_value());
    clock.advance(1000 + ConfirmTokens::kRememberAfterExpiryMs);
    tokens.issue(kScope, kPeer, 1000);
    tokens.issue(kScope, kPeer, 1000); // full: purges the old one
    EXPECT_EQ(*tokens.consume(a->token, kScope, kPeer).refusal, Refusal::UnknownToken);
}

TEST(ConfirmTokens, CapacityBoundsLiveTokens)
{
    FakeClock clock;
    ConfirmTokens tokens(clock.clock(), 3);
    std::vector<QString> live;
    for (int i = 0; i < 3; ++i)
        live.push_back(tokens.issue(kScope, kPeer, 60000)->token);
    EXPECT_FALSE(tokens.issue(kScope, kPeer, 60000).has_value());
    // A spent token makes room (a late use of it reads "unknown_token", still refused).
    EXPECT_FALSE(tokens.consume(live[0], kScope, kPeer).refusal.has_value());
    const auto next = tokens.issue(kScope, kPeer, 60000);
    ASSERT_TRUE(next.has_value());
    EXPECT_TRUE(tokens.consume(live[0], kScope, kPeer).refusal.has_value());
    EXPECT_LE(tokens.size(), 3);
}

TEST(ConfirmTokens, ConcurrentUsesOfOneTokenLetExactlyOneThrough)
{
    ConfirmTokens tokens;
    constexpr int kRounds = 200;
    constexpr int kThreads = 8;
    for (int round = 0; round < kRounds; ++round) {
        const auto token = tokens.issue(kScope, kPeer, 60000);
        std::atomic<int> ready{0};
        std::atomic<int> won{0};
        std::atomic<int> used{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&] {
                ++ready;
                while (ready.load() < kThreads)
                    std::this_thread::yield();
                const auto verdict = tokens.consume(token->token, kScope, kPeer);
                if (!verdict.refusal)
                    ++won;
                else if (*verdict.refusal == Refusal::Used)
                    ++used;
            });
        }
        for (auto& thread : threads)
            thread.join();
        ASSERT_EQ(won.load(), 1) << "round " << round;
        ASSERT_EQ(used.load(), kThreads - 1) << "round " << round;
    }
}

TEST(ConfirmTokens, ConcurrentIssueAndConsumeOfManyTokens)
{
    ConfirmTokens tokens;
    constexpr int kThreads = 8;
    constexpr int kPerThread = 500;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            const ConfirmTokens::Peer peer{1000 + t, QStringLiteral("d%1").arg(t)};
            for (int i = 0; i < kPerThread; ++i) {
                const auto token = tokens.issue(kScope, peer, 60000);
                if (!token || tokens.consume(token->token, kScope, peer).refusal ||
                    !tokens.consume(token->token, kScope, peer).refusal)
                    ++failures;
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(failures.load(), 0);
}

TEST(ConfirmTokens, TokenIdIsShortAndNotTheToken)
{
    const QString token = ConfirmTokens::newUuidV4();
    const QString id = ConfirmTokens::tokenId(token);
    EXPECT_EQ(id.size(), 12);
    EXPECT_FALSE(token.contains(id));
    EXPECT_EQ(ConfirmTokens::tokenId(token), id);
}
