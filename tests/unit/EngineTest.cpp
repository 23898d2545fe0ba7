// The typed engine, called in process the way the host's own windows (inspector, evidence
// browser) call it: no socket, no JSON-RPC envelope, no workspace, nothing written.
#include "FakeBackend.h"
#include "automation/Operations.h"
#include "bridge/Executor.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace Automation;
using Testing::FakeBackend;
using Testing::FakeDesktop;

namespace {

Selector byRoleAndTitle(const QString& role, const QString& title)
{
    Selector selector;
    selector.byRole = role;
    selector.title = TextMatch{TextMatch::Mode::Equals, title, {}};
    return selector;
}

/// Keeps what the engine reports, for the test to look at.
class RecordingTrace final : public Trace
{
public:
    void step(const QString& name, qint64, bool ok, const QJsonObject&) override
    {
        steps.append(name + (ok ? QStringLiteral(":ok") : QStringLiteral(":failed")));
    }
    std::optional<Error> keepTree(const Snapshot& snapshot, const QJsonObject&) override
    {
        trees.append(static_cast<int>(snapshot.nodes.size()));
        return std::nullopt;
    }
    std::optional<Error> keepCandidates(const Snapshot&, const Selector&, const QList<Candidate>& candidates,
                                        const QJsonObject&) override
    {
        candidateCounts.append(static_cast<int>(candidates.size()));
        return std::nullopt;
    }

    QStringList steps;
    QList<int> trees;
    QList<int> candidateCounts;
};

class EngineTest : public ::testing::Test
{
protected:
    JobContext context(Trace& trace)
    {
        return JobContext{backend, CallContext(QDeadlineTimer(10000), std::make_shared<CancelToken>()), trace,
                          elements};
    }

    std::shared_ptr<FakeDesktop> desktop = std::make_shared<FakeDesktop>();
    FakeBackend backend{desktop};
    ElementCache elements;
};

TEST_F(EngineTest, FindRanksTheMatchesAndGivesThemElementIds)
{
    NullTrace trace;
    auto ctx = context(trace);
    const auto found =
        Operations::find(ctx, {Route{}, byRoleAndTitle(QStringLiteral("AXButton"), QStringLiteral("Send")), {}});
    ASSERT_TRUE(found.ok()) << found.error().message.toStdString();
    ASSERT_EQ(found->candidates.size(), 1);
    const Node& send = found->snapshot.nodes.at(found->candidates.first().nodeIndex);
    EXPECT_EQ(send.title, QStringLiteral("Send"));
    EXPECT_EQ(found->route.pid, 4242);
    // The element is known to the cache: an elementRef from this find works for a later click.
    ASSERT_TRUE(elements.find(send.elementId).has_value());
    EXPECT_EQ(desktop->effects(), QStringList()) << "a find has no effect";
}

TEST_F(EngineTest, ClickPressesTheElementAnElementRefNames)
{
    NullTrace trace;
    auto ctx = context(trace);
    const auto found =
        Operations::find(ctx, {Route{}, byRoleAndTitle(QStringLiteral("AXButton"), QStringLiteral("Send")), {}});
    ASSERT_TRUE(found.ok());
    const Node& send = found->snapshot.nodes.at(found->candidates.first().nodeIndex);

    Operations::ClickRequest request;
    request.target.elementRef = ElementRefSpec{send.elementId, fingerprintOf(send)};
    const auto clicked = Operations::click(ctx, request);
    ASSERT_TRUE(clicked.ok()) << clicked.error().message.toStdString();
    EXPECT_EQ(clicked->target.via, QStringLiteral("elementRef"));
    EXPECT_EQ(clicked->target.node.title, QStringLiteral("Send"));
    // The effect as the desktop saw it, not only the engine's word for it.
    EXPECT_EQ(desktop->effects(), QStringList{QStringLiteral("press:Send")});
}

TEST_F(EngineTest, EveryStepAndTheMaterialOfEveryDecisionGoToTheTrace)
{
    RecordingTrace trace;
    auto ctx = context(trace);
    Operations::ClickRequest request;
    request.target.selector = byRoleAndTitle(QStringLiteral("AXButton"), QStringLiteral("Send"));
    const auto clicked = Operations::click(ctx, request);
    ASSERT_TRUE(clicked.ok()) << clicked.error().message.toStdString();
    EXPECT_EQ(clicked->target.via, QStringLiteral("selector"));
    EXPECT_EQ(trace.steps, (QStringList{QStringLiteral("route.resolve:ok"), QStringLiteral("snapshot:ok"),
                                        QStringLiteral("select:ok"), QStringLiteral("target.selector:ok"),
                                        QStringLiteral("click.press:ok")}));
    EXPECT_EQ(trace.trees.size(), 1);
    EXPECT_EQ(trace.candidateCounts, QList<int>{1});
}

TEST_F(EngineTest, NoMatchIsElementNotFoundAndNothingIsPressed)
{
    NullTrace trace;
    auto ctx = context(trace);
    Operations::ClickRequest request;
    request.target.selector = byRoleAndTitle(QStringLiteral("AXButton"), QStringLiteral("Launch"));
    const auto clicked = Operations::click(ctx, request);
    ASSERT_FALSE(clicked.ok());
    EXPECT_EQ(clicked.error().code, ErrorCode::ElementNotFound);
    EXPECT_TRUE(desktop->effects().isEmpty());
}

TEST_F(EngineTest, ACancelledCallStopsBeforeAnyEffect)
{
    NullTrace trace;
    auto cancel = std::make_shared<CancelToken>();
    cancel->cancel(CancelToken::Reason::Aborted);
    JobContext ctx{backend, CallContext(QDeadlineTimer(10000), cancel), trace, elements};
    Operations::ClickRequest request;
    request.target.selector = byRoleAndTitle(QStringLiteral("AXButton"), QStringLiteral("Send"));
    const auto clicked = Operations::click(ctx, request);
    ASSERT_FALSE(clicked.ok());
    EXPECT_EQ(clicked.error().code, ErrorCode::Aborted);
    EXPECT_TRUE(desktop->effects().isEmpty());
}

// The executor runs typed jobs for any caller: no record means no evidence anywhere, and the
// single worker, deadlines and stop apply all the same.
class ExecutorTypedJobTest : public ::testing::Test
{
protected:
    template <typename T> std::optional<Result<T>> waitFor(std::shared_ptr<std::optional<Result<T>>> answer)
    {
        QDeadlineTimer deadline(10000);
        while (!*answer && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        return *answer;
    }

    std::shared_ptr<FakeDesktop> desktop = std::make_shared<FakeDesktop>();
    Bridge::Executor executor{[d = desktop] { return std::make_unique<FakeBackend>(d); }};
};

TEST_F(ExecutorTypedJobTest, ATypedJobWithoutEvidenceAnswersItsOwnType)
{
    QTemporaryDir cwd;
    ASSERT_TRUE(cwd.isValid());
    const QString previous = QDir::currentPath();
    QDir::setCurrent(cwd.path());
    Bridge::JobSpec spec;
    spec.executionId = QStringLiteral("inspector-1");
    spec.method = QStringLiteral("find");
    spec.deadline = QDeadlineTimer(5000);
    auto answer = std::make_shared<std::optional<Result<int>>>();
    const auto refused = executor.submit<int>(
        spec,
        [](JobContext& ctx) -> Result<int> {
            Selector buttons;
            buttons.byRole = QStringLiteral("AXButton");
            auto found = Operations::find(ctx, {Route{}, buttons, {}});
            if (!found)
                return found.error();
            return static_cast<int>(found->candidates.size());
        },
        [answer](const Result<int>& result) { *answer = result; });
    ASSERT_FALSE(refused.has_value());
    const auto result = waitFor(answer);
    QDir::setCurrent(previous);
    ASSERT_TRUE(result.has_value());
    ASSERT_TRUE(result->ok()) << result->error().message.toStdString();
    EXPECT_EQ(result->value(), 2) << "Send and Cancel (disabled, but enabledOnly is off)";
    EXPECT_TRUE(QDir(cwd.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty())
        << "a job without a record writes nothing";
}

TEST_F(ExecutorTypedJobTest, StopAbortsATypedJobLikeAnyOther)
{
    desktop->setDelay(QStringLiteral("snapshot"), {3000, false});
    Bridge::JobSpec spec;
    spec.executionId = QStringLiteral("inspector-2");
    spec.method = QStringLiteral("snapshot");
    spec.deadline = QDeadlineTimer(10000);
    auto answer = std::make_shared<std::optional<Result<int>>>();
    ASSERT_FALSE(executor
                     .submit<int>(
                         spec,
                         [](JobContext& ctx) -> Result<int> {
                             auto found = Operations::find(ctx, {Route{}, Selector{}, {}});
                             if (!found)
                                 return found.error();
                             return 0;
                         },
                         [answer](const Result<int>& result) { *answer = result; })
                     .has_value());
    QDeadlineTimer started(5000);
    while (!executor.isBusy() && !started.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    EXPECT_EQ(executor.abortAll(Bridge::Executor::AbortAllReason::Stop), 1);
    const auto result = waitFor(answer);
    ASSERT_TRUE(result.has_value());
    ASSERT_FALSE(result->ok());
    EXPECT_EQ(result->error().code, ErrorCode::Aborted);
    EXPECT_FALSE(result->error().details.contains(QStringLiteral("evidenceDir")));
}

TEST_F(ExecutorTypedJobTest, AnInspectionIsTypedAndBoundedByItsTimeout)
{
    auto answer = std::make_shared<std::optional<Result<QString>>>();
    executor.inspect<QString>(
        2000,
        [](JobContext& ctx) -> Result<QString> {
            auto route = ctx.backend.resolveRoute(Route{}, ctx.call);
            if (!route)
                return route.error();
            return route->windowTitle;
        },
        [answer](const Result<QString>& result) { *answer = result; });
    const auto result = waitFor(answer);
    ASSERT_TRUE(result.has_value());
    ASSERT_TRUE(result->ok());
    EXPECT_EQ(result->value(), QStringLiteral("Fake Window"));

    desktop->setDelay(QStringLiteral("resolveRoute"), {2000, true});
    auto late = std::make_shared<std::optional<Result<QString>>>();
    executor.inspect<QString>(
        200,
        [](JobContext& ctx) -> Result<QString> {
            auto route = ctx.backend.resolveRoute(Route{}, ctx.call);
            if (!route)
                return route.error();
            return route->windowTitle;
        },
        [late](const Result<QString>& result) { *late = result; });
    const auto timedOut = waitFor(late);
    ASSERT_TRUE(timedOut.has_value());
    ASSERT_FALSE(timedOut->ok());
    EXPECT_EQ(timedOut->error().code, ErrorCode::Timeout);
}

} // namespace
