// Bridge::ReplayGuard: a requestId seen in the window is refused (docs/protocol.md §4.1).
#include "bridge/security/ReplayGuard.h"
#include "UnitTestSupport.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

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

TEST(ReplayGuard, IdsAreComparedWithoutRegardToCase)
{
    // The contract compares UUIDs, and a UUID's case carries no meaning: an id replayed in
    // upper case is the same id.
    FakeClock clock;
    ReplayGuard guard(1000, 100, clock.clock());
    EXPECT_EQ(guard.admit(QStringLiteral("123e4567-e89b-12d3-a456-426614174000")), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("123E4567-E89B-12D3-A456-426614174000")), Verdict::Replayed);
    EXPECT_EQ(guard.admit(QStringLiteral("Some-Id")), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("some-id")), Verdict::Replayed);
    // A UUID is kept in 16 bytes.
    EXPECT_EQ(ReplayGuard::keyOf(QStringLiteral("123e4567-e89b-12d3-a456-426614174000")).size(), 16);
}

TEST(ReplayGuard, OneCallerCannotFillTheWindowForEveryone)
{
    FakeClock clock;
    ReplayGuard guard(1000, 100, clock.clock(), /*perPeerQuota=*/10);
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(guard.admit(QStringLiteral("flood-%1").arg(i), /*peer=*/7), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("flood-10"), 7), Verdict::Full);
    // Another caller still gets in.
    EXPECT_EQ(guard.admit(QStringLiteral("other"), 8), Verdict::Fresh);
}

TEST(ReplayGuard, TheEmergencyStopIsNeverRefusedForLackOfRoom)
{
    FakeClock clock;
    ReplayGuard guard(1000, 2, clock.clock());
    EXPECT_EQ(guard.admit(QStringLiteral("a"), 1), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("b"), 1), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("c"), 1), Verdict::Full);
    EXPECT_EQ(guard.admit(QStringLiteral("stop-1"), 1, /*essential=*/true), Verdict::Fresh);
    EXPECT_EQ(guard.admit(QStringLiteral("stop-2"), 2, /*essential=*/true), Verdict::Fresh);
    // A replayed id is still refused, essential or not.
    EXPECT_EQ(guard.admit(QStringLiteral("a"), 1, true), Verdict::Replayed);
}

TEST(ReplayGuard, SideEffectIdsSurviveARestart)
{
    QTemporaryDir dir;
    const QString store = dir.path() + QStringLiteral("/replay-ids.txt");
    qint64 wall = 1'700'000'000'000;
    const auto wallClock = [&wall] { return wall; };
    {
        FakeClock clock;
        ReplayGuard guard(60'000, 100, clock.clock(), 0, wallClock);
        ASSERT_TRUE(guard.setStore(store));
        EXPECT_EQ(guard.admit(QStringLiteral("123e4567-e89b-12d3-a456-426614174000"), 1, false, /*persist=*/true),
                  Verdict::Fresh);
        EXPECT_EQ(guard.admit(QStringLiteral("read-only"), 1, false, false), Verdict::Fresh);
    }
    EXPECT_EQ(QFile::permissions(store) & (QFileDevice::ReadGroup | QFileDevice::ReadOther), 0);
    wall += 30'000; // the next host, half a window later
    {
        FakeClock clock;
        ReplayGuard guard(60'000, 100, clock.clock(), 0, wallClock);
        ASSERT_TRUE(guard.setStore(store));
        EXPECT_EQ(guard.admit(QStringLiteral("123E4567-E89B-12D3-A456-426614174000")), Verdict::Replayed);
        EXPECT_EQ(guard.admit(QStringLiteral("read-only")), Verdict::Fresh); // only side effects are kept
        clock.set(30'001); // the rest of the original window has passed
        EXPECT_EQ(guard.admit(QStringLiteral("123e4567-e89b-12d3-a456-426614174000")), Verdict::Fresh);
    }
    wall += 60'000;
    {
        FakeClock clock;
        ReplayGuard guard(60'000, 100, clock.clock(), 0, wallClock);
        ASSERT_TRUE(guard.setStore(store));
        EXPECT_EQ(guard.size(), 0); // the stored id's window is over
    }
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
