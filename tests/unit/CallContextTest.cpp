// Automation::CallContext and CancelToken: a request's deadline and cancel flag.
#include "automation/CallContext.h"
#include "UnitTestSupport.h"

#include <gtest/gtest.h>

#include <limits>

using namespace Automation;

namespace {

using Reason = CancelToken::Reason;

/// A deadline that has certainly passed, without waiting for one.
QDeadlineTimer passedDeadline()
{
    QDeadlineTimer deadline;
    deadline.setDeadline(QDeadlineTimer::current().deadline() - 1000);
    return deadline;
}

TEST(CallContext, FreshContextGoesOn)
{
    const CallContext context;
    EXPECT_FALSE(context.checkpoint().has_value());
    EXPECT_FALSE(context.cancelled());
    EXPECT_FALSE(context.expired());
    EXPECT_TRUE(context.deadline().isForever());
    EXPECT_EQ(context.remainingMs(), std::numeric_limits<qint64>::max());
    EXPECT_EQ(context.callTimeoutMs(250), 250);
    ASSERT_NE(context.token(), nullptr);
    EXPECT_EQ(context.token()->reason(), Reason::None);
}

TEST(CallContext, FreshContextWithFutureDeadlineGoesOn)
{
    const CallContext context(QDeadlineTimer(3600 * 1000), std::make_shared<CancelToken>());
    EXPECT_FALSE(context.checkpoint().has_value());
    EXPECT_FALSE(context.expired());
}

struct ReasonRow
{
    const char* name;
    Reason reason;
    ErrorCode code;

    friend void PrintTo(const ReasonRow& row, std::ostream* os) { *os << row.name; }
};

class CallContextCancel : public ::testing::TestWithParam<ReasonRow>
{
};

TEST_P(CallContextCancel, MapsToContractCode)
{
    const ReasonRow& row = GetParam();
    auto token = std::make_shared<CancelToken>();
    const CallContext context(QDeadlineTimer(QDeadlineTimer::Forever), token);
    token->cancel(row.reason);
    EXPECT_TRUE(context.cancelled());
    EXPECT_EQ(token->reason(), row.reason);
    const auto error = context.checkpoint();
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, row.code);
    EXPECT_EQ(error->retryable, defaultRetryable(row.code));
    EXPECT_FALSE(error->message.isEmpty());
}

INSTANTIATE_TEST_SUITE_P(Rows, CallContextCancel,
                         ::testing::Values(ReasonRow{"Aborted", Reason::Aborted, ErrorCode::Aborted},
                                           ReasonRow{"Shutdown", Reason::Shutdown, ErrorCode::Aborted},
                                           ReasonRow{"Disconnected", Reason::Disconnected, ErrorCode::Aborted},
                                           ReasonRow{"TimedOut", Reason::TimedOut, ErrorCode::Timeout}),
                         UnitTest::RowName());

TEST(CallContext, ExpiredDeadlineIsTimeout)
{
    const CallContext context(passedDeadline(), std::make_shared<CancelToken>());
    EXPECT_TRUE(context.expired());
    EXPECT_FALSE(context.cancelled());
    EXPECT_EQ(context.remainingMs(), 0);
    EXPECT_EQ(context.callTimeoutMs(500), 1); // never 0: a zero timeout means "forever" to some APIs
    const auto error = context.checkpoint();
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, ErrorCode::Timeout);
    EXPECT_TRUE(error->retryable);
}

TEST(CallContext, ZeroDeadlineHasExpired)
{
    const CallContext context(QDeadlineTimer(0), std::make_shared<CancelToken>());
    EXPECT_TRUE(context.expired());
    ASSERT_TRUE(context.checkpoint().has_value());
    EXPECT_EQ(context.checkpoint()->code, ErrorCode::Timeout);
}

TEST(CallContext, AbortBeatsExpiredDeadline)
{
    auto token = std::make_shared<CancelToken>();
    const CallContext context(passedDeadline(), token);
    token->cancel(Reason::Aborted);
    ASSERT_TRUE(context.checkpoint().has_value());
    EXPECT_EQ(context.checkpoint()->code, ErrorCode::Aborted);
}

TEST(CancelToken, FirstReasonWins)
{
    CancelToken token;
    EXPECT_FALSE(token.isCancelled());
    EXPECT_EQ(token.reason(), Reason::None);
    token.cancel(Reason::Aborted);
    token.cancel(Reason::TimedOut);
    token.cancel(Reason::Shutdown);
    EXPECT_TRUE(token.isCancelled());
    EXPECT_EQ(token.reason(), Reason::Aborted);

    CancelToken timedOut;
    timedOut.cancel(Reason::TimedOut);
    timedOut.cancel(Reason::Aborted);
    EXPECT_EQ(timedOut.reason(), Reason::TimedOut);
}

TEST(CancelToken, CancelWithNoneIsNoOp)
{
    CancelToken token;
    token.cancel(Reason::None);
    EXPECT_FALSE(token.isCancelled());
    token.cancel(Reason::Disconnected);
    EXPECT_EQ(token.reason(), Reason::Disconnected);
}

TEST(CallContext, FirstReasonWinsThroughContext)
{
    auto token = std::make_shared<CancelToken>();
    const CallContext context(QDeadlineTimer(QDeadlineTimer::Forever), token);
    token->cancel(Reason::TimedOut);
    token->cancel(Reason::Aborted);
    ASSERT_TRUE(context.checkpoint().has_value());
    EXPECT_EQ(context.checkpoint()->code, ErrorCode::Timeout);
}

TEST(CallContext, CopiesShareTheToken)
{
    const CallContext owner(QDeadlineTimer(QDeadlineTimer::Forever), std::make_shared<CancelToken>());
    const CallContext worker = owner;
    EXPECT_EQ(worker.token(), owner.token());
    owner.token()->cancel(Reason::Aborted);
    EXPECT_TRUE(worker.cancelled());
    ASSERT_TRUE(worker.checkpoint().has_value());
    EXPECT_EQ(worker.checkpoint()->code, ErrorCode::Aborted);
}

TEST(CallContext, CallTimeoutClampsToCap)
{
    const CallContext context(QDeadlineTimer(3600 * 1000), std::make_shared<CancelToken>());
    EXPECT_EQ(context.callTimeoutMs(500), 500);
    EXPECT_EQ(context.callTimeoutMs(1), 1);
}

TEST(CallContext, CallTimeoutNeverExceedsRemainingBudget)
{
    const CallContext context(QDeadlineTimer(100 * 1000), std::make_shared<CancelToken>());
    const int timeout = context.callTimeoutMs(std::numeric_limits<int>::max());
    EXPECT_LE(timeout, 100 * 1000);
    EXPECT_GE(timeout, 1);
    EXPECT_LE(context.remainingMs(), 100 * 1000);
}

} // namespace

// The person used the keyboard or mouse while input was injected: an abort that says why, never
// retryable (keys may have gone in before it).
TEST(CallContext, UserInputIsAnAbortWithItsReasonAndNotRetryable)
{
    auto token = std::make_shared<CancelToken>();
    const CallContext context(QDeadlineTimer(QDeadlineTimer::Forever), token);
    token->cancel(Reason::UserInput);
    const auto error = context.checkpoint();
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, ErrorCode::Aborted);
    EXPECT_FALSE(error->retryable);
    EXPECT_EQ(error->details.value(QStringLiteral("reason")).toString(), QStringLiteral("user_input"));
    EXPECT_TRUE(error->details.value(QStringLiteral("mayHaveHadEffect")).toBool());
}
