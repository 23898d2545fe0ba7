// The event stream's ring (bridge/EventHub): cursors, filters, since with and without a gap, an
// epoch change, a slow reader losing events (counted, then said) without holding anyone up.
#include "bridge/EventHub.h"

#include <QJsonDocument>

#include <gtest/gtest.h>

using Bridge::EventHub;

namespace {

struct Sink
{
    QHash<quint64, QList<QJsonObject>> got;
    QHash<quint64, qint64> backlog;
    EventHub::Deliver deliver()
    {
        return [this](quint64 connection, const QByteArray& line) -> qint64 {
            if (!line.isEmpty())
                got[connection].append(
                    QJsonDocument::fromJson(line).object().value(QStringLiteral("params")).toObject());
            return backlog.value(connection, 0);
        };
    }
    QStringList kinds(quint64 connection) const
    {
        QStringList out;
        for (const auto& event : got.value(connection))
            out.append(event.value(QStringLiteral("kind")).toString());
        return out;
    }
};

} // namespace

TEST(EventHub, CursorsRiseAndFiltersChooseWhatEachSubscriberGets)
{
    EventHub hub;
    Sink sink;
    hub.setDeliver(sink.deliver());
    hub.subscribe(1, {}, std::nullopt);
    hub.subscribe(2, EventHub::Filter{{QStringLiteral("stopped")}, {}, {}}, std::nullopt);
    hub.subscribe(3, EventHub::Filter{{}, QStringLiteral("gedit"), {}}, std::nullopt);
    hub.publish(QStringLiteral("execution.started"), {{QStringLiteral("executionId"), QStringLiteral("a")}});
    hub.publish(QStringLiteral("stopped"));
    hub.publish(QStringLiteral("window.created"),
                {{QStringLiteral("app"), QJsonObject{{QStringLiteral("name"), QStringLiteral("mousepad")}}}});
    EXPECT_EQ(sink.kinds(1), (QStringList{QStringLiteral("execution.started"), QStringLiteral("stopped"),
                                          QStringLiteral("window.created")}));
    EXPECT_EQ(sink.kinds(2), QStringList{QStringLiteral("stopped")});
    EXPECT_EQ(sink.kinds(3), (QStringList{QStringLiteral("execution.started"), QStringLiteral("stopped")}))
        << "events naming another app are left out; the others pass";
    EXPECT_EQ(sink.got[1].at(0).value(QStringLiteral("cursor")).toInteger(), 1);
    EXPECT_EQ(sink.got[1].at(2).value(QStringLiteral("cursor")).toInteger(), 3);
    EXPECT_EQ(sink.got[1].at(0).value(QStringLiteral("epoch")).toString(), hub.epoch());
    EXPECT_TRUE(hub.unsubscribe(1));
    hub.publish(QStringLiteral("resumed"));
    EXPECT_EQ(sink.got[1].size(), 3);
}

TEST(EventHub, SinceGivesWhatWasMissedOrAGap)
{
    EventHub hub(4);
    for (int i = 0; i < 3; ++i)
        hub.publish(QStringLiteral("stopped"));
    QJsonArray missed = hub.since(1, hub.epoch());
    ASSERT_EQ(missed.size(), 2);
    EXPECT_EQ(missed.at(0).toObject().value(QStringLiteral("cursor")).toInteger(), 2);
    for (int i = 0; i < 5; ++i)
        hub.publish(QStringLiteral("resumed"));
    // The ring holds 5..8: what came after 1 is partly gone.
    missed = hub.since(1, hub.epoch());
    ASSERT_EQ(missed.size(), 5);
    EXPECT_EQ(missed.at(0).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("gap"));
    EXPECT_EQ(missed.at(0).toObject().value(QStringLiteral("lost")).toInteger(), 3);
    EXPECT_EQ(missed.at(0).toObject().value(QStringLiteral("cursor")).toInteger(), 4)
        << "a gap's cursor is the last one lost: resuming from it loses nothing more";
    EXPECT_EQ(missed.at(1).toObject().value(QStringLiteral("cursor")).toInteger(), 5);
    // Another host's epoch: a gap, then all this one holds.
    missed = hub.since(100, QStringLiteral("another-epoch"));
    EXPECT_EQ(missed.at(0).toObject().value(QStringLiteral("reason")).toString(), QStringLiteral("epoch_changed"));
    EXPECT_EQ(missed.size(), 5);
    // Up to date: nothing.
    EXPECT_TRUE(hub.since(hub.cursor(), hub.epoch()).isEmpty());
    // A cursor this host never gave (an earlier host's, without its epoch): a gap, then all held.
    missed = hub.since(hub.cursor() + 50, {});
    EXPECT_EQ(missed.at(0).toObject().value(QStringLiteral("reason")).toString(), QStringLiteral("epoch_changed"));
}

TEST(EventHub, ASlowReaderLosesEventsCountedAndIsToldOnceItReads)
{
    EventHub hub;
    Sink sink;
    hub.setDeliver(sink.deliver());
    hub.subscribe(7, {}, std::nullopt);
    sink.backlog[7] = EventHub::kMaxBacklogBytes + 1;
    for (int i = 0; i < 10; ++i)
        hub.publish(QStringLiteral("stopped"));
    EXPECT_TRUE(sink.got[7].isEmpty());
    sink.backlog[7] = 0;
    hub.publish(QStringLiteral("resumed"));
    ASSERT_EQ(sink.got[7].size(), 2);
    EXPECT_EQ(sink.got[7].at(0).value(QStringLiteral("kind")).toString(), QStringLiteral("gap"));
    EXPECT_EQ(sink.got[7].at(0).value(QStringLiteral("lost")).toInteger(), 10);
    EXPECT_EQ(sink.got[7].at(1).value(QStringLiteral("kind")).toString(), QStringLiteral("resumed"));
    // A connection that is gone ends its subscription.
    sink.backlog[7] = -1;
    hub.publish(QStringLiteral("stopped"));
    EXPECT_FALSE(hub.isSubscribed(7));
    EXPECT_FALSE(hub.wanted(QStringLiteral("stopped")));
}

namespace {

QJsonObject known(const QString& role, const QString& title, const QString& nativeRole = {})
{
    QJsonObject node{{QStringLiteral("role"), role}, {QStringLiteral("title"), title}};
    if (!nativeRole.isEmpty())
        node.insert(QStringLiteral("nativeRole"), nativeRole);
    return node;
}

} // namespace

// A subscription's selector takes the element events of an element it matches or of one under it
// (a row added to the chat list, not to the contacts list), live and from `since`; the lineage
// it is matched against never reaches the subscriber.
TEST(EventHub, ASelectorTakesElementEventsUnderWhatItMatches)
{
    EventHub hub;
    Sink sink;
    hub.setDeliver(sink.deliver());
    const auto chats =
        EventHub::subscriptionSelector(QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXList")},
                                                   {QStringLiteral("titleEquals"), QStringLiteral("Chats")}});
    ASSERT_TRUE(chats.ok());
    EventHub::Filter filter{{QStringLiteral("element.childrenChanged")}, {}, {}};
    filter.selector = std::make_shared<const Automation::Selector>(chats.value());
    hub.subscribe(1, filter, std::nullopt);
    // The native role names it too, in any case ("list" is AT-SPI's).
    const auto native = EventHub::subscriptionSelector(QJsonObject{{QStringLiteral("byRole"), QStringLiteral("LIST")}});
    ASSERT_TRUE(native.ok());
    EventHub::Filter byNative{{QStringLiteral("element.childrenChanged")}, {}, {}};
    byNative.selector = std::make_shared<const Automation::Selector>(native.value());
    hub.subscribe(2, byNative, std::nullopt);

    const QJsonObject payload{{QStringLiteral("element"), known(QStringLiteral("AXGroup"), {})},
                              {QStringLiteral("change"), QStringLiteral("added")}};
    const QJsonObject window = known(QStringLiteral("AXWindow"), QStringLiteral("Messenger"));
    // Under the chat list (a group inside it).
    hub.publish(QStringLiteral("element.childrenChanged"), payload,
                QJsonArray{known(QStringLiteral("AXGroup"), {}),
                           known(QStringLiteral("AXList"), QStringLiteral("Chats"), QStringLiteral("list")), window});
    // The chat list itself.
    hub.publish(QStringLiteral("element.childrenChanged"), payload,
                QJsonArray{known(QStringLiteral("AXList"), QStringLiteral("Chats"), QStringLiteral("list")), window});
    // The contacts list, and an element the host knows nothing above.
    hub.publish(
        QStringLiteral("element.childrenChanged"), payload,
        QJsonArray{known(QStringLiteral("AXList"), QStringLiteral("Contacts"), QStringLiteral("list")), window});
    hub.publish(QStringLiteral("element.childrenChanged"), payload, QJsonArray{known(QStringLiteral("AXGroup"), {})});
    // Other kinds are not the selector's business.
    hub.publish(QStringLiteral("stopped"));
    EXPECT_EQ(sink.got.value(1).size(), 2);
    for (const auto& event : sink.got.value(1))
        EXPECT_FALSE(event.contains(QStringLiteral("lineage")));
    EXPECT_EQ(sink.got.value(1).at(0).value(QStringLiteral("cursor")).toInteger(), 1);
    EXPECT_EQ(sink.got.value(1).at(1).value(QStringLiteral("cursor")).toInteger(), 2);
    EXPECT_EQ(sink.got.value(2).size(), 3) << "both lists, not the unknown one";
    // An element the host never read (no role) matches nothing, not even an empty title.
    const auto anything = EventHub::subscriptionSelector(QJsonObject{{QStringLiteral("titleContains"), QString()}});
    ASSERT_TRUE(anything.ok());
    EventHub::Filter unread{{QStringLiteral("element.childrenChanged")}, {}, {}};
    unread.selector = std::make_shared<const Automation::Selector>(anything.value());
    hub.subscribe(4, unread, std::nullopt);
    hub.publish(QStringLiteral("element.childrenChanged"), payload, QJsonArray{QJsonObject{}, QJsonObject{}});
    EXPECT_TRUE(sink.got.value(4).isEmpty());
    hub.unsubscribe(4);

    // A reader that comes back gets what it missed under the same selector.
    sink.got.clear();
    hub.subscribe(3, filter, qint64{0});
    EXPECT_EQ(sink.kinds(3),
              (QStringList{QStringLiteral("element.childrenChanged"), QStringLiteral("element.childrenChanged")}));
}

TEST(EventHub, ASubscriptionSelectorTakesRoleAndTitleOnly)
{
    EXPECT_TRUE(EventHub::subscriptionSelector(QJsonObject{{QStringLiteral("titleMatches"), QStringLiteral("^Ch")},
                                                           {QStringLiteral("caseSensitive"), true}})
                    .ok());
    for (const char* field : {"valueContains", "byIdentifier", "byPath", "nth", "near", "visibleOnly", "limit"}) {
        QJsonObject selector{{QStringLiteral("byRole"), QStringLiteral("AXList")}};
        selector.insert(QLatin1String(field), 1);
        const auto parsed = EventHub::subscriptionSelector(selector);
        ASSERT_FALSE(parsed.ok()) << field;
        EXPECT_EQ(parsed.error().details.value(QStringLiteral("field")).toString(),
                  QStringLiteral("selector.") + QLatin1String(field));
    }
    EXPECT_FALSE(EventHub::subscriptionSelector(QJsonValue(QStringLiteral("AXList"))).ok());
    EXPECT_FALSE(EventHub::subscriptionSelector(QJsonObject{{QStringLiteral("caseSensitive"), true}}).ok())
        << "flags alone would match everything";
    EXPECT_FALSE(
        EventHub::subscriptionSelector(QJsonObject{{QStringLiteral("titleMatches"), QStringLiteral("(")}}).ok());
}

// Whether anyone wants element events, as the backend is told (it may start costly sources only
// then): a subscription naming one, changed, ended, or its connection gone.
TEST(EventHub, SaysWhenElementEventsAreWanted)
{
    EventHub hub;
    Sink sink;
    hub.setDeliver(sink.deliver());
    QList<bool> told;
    QObject::connect(&hub, &EventHub::elementEventsWantedChanged, [&](bool wanted) { told.append(wanted); });
    hub.subscribe(1, {}, std::nullopt);
    EXPECT_FALSE(hub.elementEventsWanted()) << "every kind but the element ones";
    hub.subscribe(2, EventHub::Filter{{QStringLiteral("focus.changed")}, {}, {}}, std::nullopt);
    EXPECT_TRUE(hub.elementEventsWanted());
    hub.subscribe(2, EventHub::Filter{{QStringLiteral("stopped")}, {}, {}}, std::nullopt);
    EXPECT_FALSE(hub.elementEventsWanted());
    hub.subscribe(3, EventHub::Filter{{QStringLiteral("element.valueChanged")}, {}, {}}, std::nullopt);
    sink.backlog[3] = -1; // its connection went away
    hub.publish(QStringLiteral("element.valueChanged"), {}, {});
    EXPECT_FALSE(hub.elementEventsWanted());
    EXPECT_EQ(told, (QList<bool>{true, false, true, false}));
}
