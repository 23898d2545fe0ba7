// End to end against galculator (GTK 3): a sum clicked on its keys, and rapid clicks that the
// app may coalesce. The display is read with pyatspi, outside the host.
#include "RealAppSupport.h"

#include <QDeadlineTimer>
#include <QThread>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class RealAppGalculator : public RealAppTest<RealAppGalculator>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        s_app->start(u"galculator"_s, {}, displayQuery());
    }

    /// The display: the one showing text view of the window (the formula entry is hidden).
    static ProbeQuery displayQuery()
    {
        ProbeQuery query;
        query.role = u"text"_s;
        query.states = {u"showing"_s};
        return query;
    }
    static QString display()
    {
        const ProbeResult seen = s_app->probe(displayQuery());
        return seen.nodes.size() == 1 ? seen.nodes.first().text.value_or(u"<no text>"_s) : u"<no display>"_s;
    }
    static QString waitForDisplay(const QString& expected, int timeoutMs = 3000)
    {
        QDeadlineTimer deadline(timeoutMs);
        QString shown;
        while ((shown = display()) != expected && !deadline.hasExpired())
            QThread::msleep(100);
        return shown;
    }
    static QJsonObject key(const QString& title) { return byRoleAndTitle(u"AXButton"_s, title); }
};

} // namespace

// The natural task: 7 + 8 = on the calculator's keys, each click confirmed, and the display says 15.
TEST_F(RealAppGalculator, AddsSevenAndEight)
{
    // A fresh app shows 0; after an earlier test of this process, clear it first (on a display
    // that already shows 0, AC has nothing to change, so its answer is not checked).
    if (display() != u"0"_s) {
        const QJsonObject cleared = s_app->click(key(u"AC"_s));
        ASSERT_EQ(waitForDisplay(u"0"_s), u"0"_s) << "AC answered " << dump(cleared);
    }
    for (const QString& title : {u"7"_s, u"+"_s, u"8"_s, u"="_s}) {
        const QJsonObject clicked = s_app->click(key(title));
        EXPECT_TRUE(isConfirmed(clicked, u"clicked"_s)) << "key " << title.toStdString();
    }
    EXPECT_EQ(waitForDisplay(u"15"_s).toStdString(), "15");
}

// Was: five clicks 0-50 ms apart answered five clicked: true while the app saw one.
// Sent back to back on one connection (as fast as the host takes them), every click that
// answers true must show on the display, and every digit on the display must have a true.
TEST_F(RealAppGalculator, RapidClicksAnswerTrueOnlyForClicksTheAppSaw)
{
    const QJsonObject cleared = s_app->click(key(u"AC"_s));
    ASSERT_EQ(waitForDisplay(u"0"_s), u"0"_s) << "AC answered " << dump(cleared);

    TestClient client(s_app->desktop().host().socketPath());
    ASSERT_TRUE(client.isConnected());
    const QJsonObject params{{u"route"_s, s_app->route()},
                             {u"confirm"_s, confirmPhrase()},
                             {u"target"_s, QJsonObject{{u"selector"_s, key(u"1"_s)}}}};
    constexpr int kClicks = 5;
    for (int id = 1; id <= kClicks; ++id)
        client.send(TestClient::request(u"desktop.click"_s,
                                        TestClient::withMeta(params, s_app->desktop().workspace(), 15000), id));
    int answeredTrueCount = 0;
    QStringList answers;
    for (int i = 0; i < kClicks; ++i) {
        const std::optional<QJsonObject> response = client.readObject(20000);
        ASSERT_TRUE(response.has_value()) << "no answer to click " << i + 1;
        answers << QString::fromStdString(dump(*response));
        if (answeredTrue(*response, u"clicked"_s))
            ++answeredTrueCount;
    }
    QThread::msleep(500); // late clicks, if the app still had any queued
    const QString shown = display();
    const int ones = static_cast<int>(shown.count(u'1'));

    // Nothing but the clicked digit (or the cleared "0" when no click arrived).
    EXPECT_TRUE(shown == QString(ones, u'1') || shown == u"0"_s) << "display " << shown.toStdString();
    EXPECT_GE(ones, 1) << "not one click reached the app";
    EXPECT_EQ(ones, answeredTrueCount) << "display " << shown.toStdString() << "; answers:\n"
                                       << answers.join(u'\n').toStdString();
}
