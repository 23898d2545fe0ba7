// What the macOS event stream lets through before it reads a notice (NoticeGate; the review's
// defect 16): a busy app's repeats are coalesced and capped, and values only of the app in front.
#include "automation/backends/macos/NoticeGate.h"

#include <gtest/gtest.h>

using Automation::Mac::NoticeGate;

TEST(NoticeGate, AClockTickingInTheBackgroundCostsItsAppNothing)
{
    // Values are observed for the frontmost app only.
    EXPECT_TRUE(NoticeGate::wantsValueChanges(42, 42));
    EXPECT_FALSE(NoticeGate::wantsValueChanges(42, 7));
    EXPECT_FALSE(NoticeGate::wantsValueChanges(0, 0));
}

TEST(NoticeGate, RepeatsOfOneElementAreCoalescedAndAnAppIsCapped)
{
    NoticeGate gate(NoticeGate::Limits{.perAppPerSecond = 10, .coalesceMs = 150});
    const QString value = QStringLiteral("AXValueChanged");
    // A progress bar sending its value every 10 ms for a second: one notice per 150 ms gets through.
    int admitted = 0;
    for (qint64 t = 0; t < 1000; t += 10)
        admitted += gate.admit(1, QStringLiteral("bar"), value, t) ? 1 : 0;
    EXPECT_EQ(admitted, 7);
    // Another element, or another kind of notice of it, is its own.
    EXPECT_TRUE(gate.admit(1, QStringLiteral("label"), value, 1000));
    EXPECT_TRUE(gate.admit(1, QStringLiteral("bar"), QStringLiteral("AXTitleChanged"), 1000));
    // A chat app creating rows: at most 10 a second, the rest dropped and counted.
    int rows = 0;
    for (int i = 0; i < 50; ++i)
        rows += gate.admit(2, QStringLiteral("row %1").arg(i), QStringLiteral("AXCreated"), 2000 + i) ? 1 : 0;
    EXPECT_EQ(rows, 10);
    // Another app is not held back by the busy one, and the next second starts afresh.
    EXPECT_TRUE(gate.admit(3, QStringLiteral("field"), value, 2050));
    EXPECT_TRUE(gate.admit(2, QStringLiteral("row 99"), QStringLiteral("AXCreated"), 3001));
    EXPECT_EQ(gate.dropped(), (100 - 7) + (50 - 10));
}
