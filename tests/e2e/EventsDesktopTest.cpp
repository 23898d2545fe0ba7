// The event stream on the headless desktop (docs/protocol.md §5.24): the real host sees the Qt
// fixture app's window appear, take focus and close, and says so on a subscriber's connection.
#include "E2eSupport.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

class EventsDesktop : public SessionSuite
{
};

std::optional<QJsonObject> nextOf(Bridge::Client& client, const QString& kind, const QString& app, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const auto line = client.readUnmatched(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        if (!line)
            return std::nullopt;
        const QJsonObject message = QJsonDocument::fromJson(*line).object();
        const QJsonObject event = message.value(QStringLiteral("params")).toObject();
        if (message.value(QStringLiteral("method")).toString() == QLatin1String("desktop.event") &&
            event.value(QStringLiteral("kind")).toString() == kind &&
            event.value(QStringLiteral("app")).toObject().value(QStringLiteral("name")).toString() == app)
            return event;
    }
    return std::nullopt;
}

} // namespace

TEST_F(EventsDesktop, AWindowThatAppearsTakesFocusAndClosesIsStreamed)
{
    Bridge::Client listener;
    ASSERT_TRUE(listener.connectToServer(session().host().socketPath(), 5000));
    Bridge::MetaFill fill;
    fill.timeoutMs = 10000;
    listener.setMetaFill(fill);
    const auto answer =
        listener.call(QStringLiteral("desktop.subscribe"),
                      QJsonObject{{QStringLiteral("kinds"),
                                   QJsonArray{QStringLiteral("window.created"), QStringLiteral("window.focused"),
                                              QStringLiteral("window.closed")}}},
                      15000);
    ASSERT_TRUE(answer.ok());
    ASSERT_TRUE(
        answer.response.value(QStringLiteral("result")).toObject().value(QStringLiteral("subscribed")).toBool());
    QThread::msleep(1500); // the first look only learns what is there
    auto app = std::make_unique<AppProcess>(DesktopSession::fixtureBinary(), QStringList{});
    ASSERT_TRUE(app->start());
    const QString name = QStringLiteral("mdh-target-app");
    const auto created = nextOf(listener, QStringLiteral("window.created"), name, 10000);
    ASSERT_TRUE(created) << "no window.created for the fixture";
    EXPECT_EQ(created->value(QStringLiteral("app")).toObject().value(QStringLiteral("pid")).toInteger(), app->pid());
    EXPECT_FALSE(
        created->value(QStringLiteral("window")).toObject().value(QStringLiteral("title")).toString().isEmpty());
    EXPECT_TRUE(nextOf(listener, QStringLiteral("window.focused"), name, 10000)) << "the new window takes focus";
    app.reset();
    EXPECT_TRUE(nextOf(listener, QStringLiteral("window.closed"), name, 10000));
}
