// A real app that hangs for a moment (SIGSTOP, then SIGCONT) must be seen again as soon as it
// answers: galculator (GTK 3), asked for its main window, which only the app itself can name.
#include "RealAppSupport.h"

#include <QElapsedTimer>
#include <QThread>

#include <csignal>
#include <thread>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class RealAppHung : public RealAppTest<RealAppHung>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        ProbeQuery ready;
        ready.role = u"frame"_s;
        ready.name = u"galculator"_s;
        s_app->start(u"galculator"_s, {}, ready);
    }
    void SetUp() override
    {
        RealAppTest::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        // Healthy first: the host sees the window before the app stops.
        const QJsonObject found = s_app->find(window());
        ASSERT_EQ(resultOf(found).value(u"matched"_s).toInt(), 1) << dump(found);
    }
    void TearDown() override
    {
        if (s_app && s_app->pid() > 0)
            ::kill(static_cast<pid_t>(s_app->pid()), SIGCONT);
    }

    static QJsonObject window() { return byRoleAndTitle(u"AXWindow"_s, u"galculator"_s); }
    static void signalApp(int signal) { ASSERT_EQ(::kill(static_cast<pid_t>(s_app->pid()), signal), 0); }
};

} // namespace

// Was: an app that hung for 2 s was never seen again by a waitUntil polling every 200 ms
// (the "unresponsive" mark was re-armed by every refused request).
TEST_F(RealAppHung, WaitUntilSeesTheAppAgainAfterATwoSecondStop)
{
    signalApp(SIGSTOP);
    const QJsonObject refused = s_app->find(window(), {}, 5000);
    EXPECT_EQ(errorCode(refused), u"DESKTOP_TARGET_UNRESPONSIVE"_s) << dump(refused);
    // It says why: the app is stopped, not slow; and it may be asked again.
    EXPECT_EQ(errorOf(refused).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"process_stopped"_s)
        << dump(refused);
    EXPECT_TRUE(errorOf(refused).value(u"retryable"_s).toBool());

    const qint64 pid = s_app->pid();
    std::thread resume([pid] {
        std::this_thread::sleep_for(std::chrono::seconds(2));
        ::kill(static_cast<pid_t>(pid), SIGCONT);
    });
    QElapsedTimer elapsed;
    elapsed.start();
    const QJsonObject waited = s_app->waitUntil(window(), 8000, 200);
    const qint64 tookMs = elapsed.elapsed();
    resume.join();

    EXPECT_TRUE(resultOf(waited).value(u"ok"_s).toBool()) << "after " << tookMs << " ms: " << dump(waited);
}

// Was: a client polling faster than the mark's 1.5 s was locked out for as long as it
// polled. Polling every 200 ms, the first answer must come within about a second of the resume.
TEST_F(RealAppHung, FastPollingClientIsAnsweredSoonAfterTheResume)
{
    constexpr qint64 kStoppedMs = 3000;
    constexpr qint64 kGiveUpMs = kStoppedMs + 6000;
    signalApp(SIGSTOP);
    QElapsedTimer clock;
    clock.start();
    std::optional<qint64> resumedAt;
    std::optional<qint64> answeredAt;
    QJsonObject last;
    while (clock.elapsed() < kGiveUpMs) {
        const qint64 pollStart = clock.elapsed();
        if (!resumedAt && pollStart >= kStoppedMs) {
            signalApp(SIGCONT);
            resumedAt = clock.elapsed();
        }
        last = s_app->find(window(), {}, 2000);
        if (resumedAt && resultOf(last).value(u"matched"_s).toInt() == 1) {
            answeredAt = clock.elapsed();
            break;
        }
        const qint64 nextPoll = pollStart + 200;
        if (clock.elapsed() < nextPoll)
            QThread::msleep(static_cast<unsigned long>(nextPoll - clock.elapsed()));
    }
    ASSERT_TRUE(resumedAt.has_value());
    ASSERT_TRUE(answeredAt.has_value()) << "no answer within " << (kGiveUpMs - *resumedAt)
                                        << " ms of the resume; last: " << dump(last);
    EXPECT_LE(*answeredAt - *resumedAt, 1500)
        << "first answer " << (*answeredAt - *resumedAt) << " ms after the resume";
}
