// Bridge::ReplayGuard: a requestId seen in the window is refused (DESIGN.md 4).
#include "ReplayGuard.h"
#include "UnitTestSupport.h"

#include <gtest/gtest.h>

#include <memory>

using Bridge::ReplayGuard;
using Verdict = ReplayGuard::Verdict;

namespace {

/// A clock the test moves by hand.
struct FakeClock
{
    std::shared_ptr<qint64> now = std::make_shared<qint64>(1'000'000);

    ReplayGuard::Clock clock() const
    {
        return [now = now] { return *now; };
    }
    void set(qint64 ms) { *now = 1'000'000 + ms; }
};

TEST(ReplayGuard, FreshThenReplayed)
{
    FakeClock clock;
    ReplayGuard guard(1000, 100, clock.clock());
    EXPECT_EQ(guard.windowMs(), 1000);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("b")), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Replayed);
    EXPECT_EQ(guard.admit(QStringLiteral("b")), Verdict::Replayed);
    EXPECT_EQ(guard.size(), 2);
}

TEST(ReplayGuard, IdsAreComparedExactly)
{
    FakeClock clock;
    ReplayGuard guard(1000, 100, clock.clock());
    EXPECT_EQ(guard.admit(QStringLiteral("123e4567-e89b-12d3-a456-426614174000")), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("123E4567-E89B-12D3-A456-426614174000")), Verdict::Fresh);
}

TEST(ReplayGuard, FreshAgainOnceTheWindowHasPassed)
{
    FakeClock clock;
    ReplayGuard guard(1000, 100, clock.clock());
    clock.set(0);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Fresh);
    clock.set(500);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Replayed); // does not extend the window
    clock.set(999);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Replayed);
    clock.set(1001);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Fresh);
    EXPECT_EQ(guard.size(), 1);
    clock.set(1500);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Replayed);
}

TEST(ReplayGuard, EachIdHasItsOwnWindow)
{
    FakeClock clock;
    ReplayGuard guard(1000, 100, clock.clock());
    clock.set(0);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Fresh);
    clock.set(600);
    EXPECT_EQ(guard.admit(QStringLiteral("b")), Verdict::Fresh);
    clock.set(1200);
    EXPECT_EQ(guard.admit(QStringLiteral("c")), Verdict::Fresh); // expires "a" only
    EXPECT_EQ(guard.size(), 2);
    EXPECT_EQ(guard.admit(QStringLiteral("b")), Verdict::Replayed);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Fresh);
}

TEST(ReplayGuard, FullRefusesNewIdsWithoutForgettingOldOnes)
{
    FakeClock clock;
    ReplayGuard guard(1000, 2, clock.clock());
    clock.set(0);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("b")), Verdict::Fresh);
    clock.set(10);
    EXPECT_EQ(guard.admit(QStringLiteral("c")), Verdict::Full);
    EXPECT_EQ(guard.admit(QStringLiteral("c")), Verdict::Full); // a refused id is not remembered
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Replayed);
    EXPECT_EQ(guard.admit(QStringLiteral("b")), Verdict::Replayed);
    EXPECT_EQ(guard.size(), 2);

    clock.set(1001); // a and b expire: room again
    EXPECT_EQ(guard.admit(QStringLiteral("c")), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("a")), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("b")), Verdict::Full);
    EXPECT_EQ(guard.size(), 2);
}

TEST(ReplayGuard, DefaultsUseTheRealClock)
{
    ReplayGuard guard;
    EXPECT_EQ(guard.windowMs(), 10 * 60 * 1000);
    EXPECT_EQ(guard.admit(QStringLiteral("x")), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("x")), Verdict::Replayed);
}

} // namespace
