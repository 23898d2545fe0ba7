// The event stream's ring (bridge/EventHub): cursors, filters, since with and without a gap, an
// epoch change, a slow reader losing events (counted, then said) without holding anyone up.
#include "bridge/EventHub.h"

#include <QDateTime>
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

// A subscription whose connection went away lingers (docs/protocol.md §5.24): what it asked for
// is still wanted and recorded, so a reader coming back with its cursor gets it; an explicit
// unsubscribe ends at once; the linger ends by itself.
TEST(EventHub, ASubscriptionOutlivesItsConnectionForTheLinger)
{
    EventHub hub;
    hub.setLingerMs(60000);
    Sink sink;
    hub.setDeliver(sink.deliver());
    QList<bool> told;
    QObject::connect(&hub, &EventHub::elementEventsWantedChanged, [&](bool wanted) { told.append(wanted); });
    hub.subscribe(1, EventHub::Filter{{QStringLiteral("window.closed"), QStringLiteral("focus.changed")}, {}, {}},
                  std::nullopt);
    EXPECT_EQ(hub.watchState().value(QStringLiteral("until")), QJsonValue()) << "a live reader: no end";
    hub.connectionGone(1);
    EXPECT_FALSE(hub.isSubscribed(1));
    EXPECT_EQ(hub.lingeringCount(), 1);
    EXPECT_TRUE(hub.wanted(QStringLiteral("window.closed")));
    EXPECT_FALSE(hub.wanted(QStringLiteral("window.created")));
    EXPECT_TRUE(hub.elementEventsWanted());
    EXPECT_EQ(told, QList<bool>{true}) << "still wanted: the backend keeps streaming";
    const QJsonObject state = hub.watchState();
    EXPECT_TRUE(state.value(QStringLiteral("running")).toBool());
    EXPECT_TRUE(QDateTime::fromString(state.value(QStringLiteral("until")).toString(), Qt::ISODateWithMs).isValid())
        << QJsonDocument(state).toJson().toStdString();
    // An explicit unsubscribe does not linger.
    hub.subscribe(2, EventHub::Filter{{QStringLiteral("stopped")}, {}, {}}, std::nullopt);
    hub.unsubscribe(2);
    EXPECT_EQ(hub.lingeringCount(), 1);
    // Shortened to nothing: the linger ends, and element events are no longer wanted.
    hub.setLingerMs(0);
    EXPECT_EQ(hub.lingeringCount(), 0);
    EXPECT_FALSE(hub.wanted(QStringLiteral("window.closed")));
    EXPECT_EQ(told, (QList<bool>{true, false}));
}

// A lingering subscription records only the element events its filter takes, and element events
// never push other kinds out of the ring: a window that closed while the reader was away is
// still there for it after thousands of element events.
TEST(EventHub, ElementEventsNeverPushOtherKindsOut)
{
    EventHub hub(8);
    hub.setLingerMs(60000);
    Sink sink;
    hub.setDeliver(sink.deliver());
    EventHub::Filter filter{
        {QStringLiteral("window.closed"), QStringLiteral("element.valueChanged")}, QStringLiteral("mousepad"), {}};
    hub.subscribe(1, filter, std::nullopt);
    const qint64 cursor = hub.cursor();
    hub.connectionGone(1);
    const QJsonObject mousepad{
        {QStringLiteral("app"), QJsonObject{{QStringLiteral("name"), QStringLiteral("mousepad")}}}};
    const QJsonObject other{{QStringLiteral("app"), QJsonObject{{QStringLiteral("name"), QStringLiteral("gedit")}}}};
    EXPECT_TRUE(hub.takes(QStringLiteral("element.valueChanged"), mousepad));
    EXPECT_FALSE(hub.takes(QStringLiteral("element.valueChanged"), other)) << "another app: not the filter's";
    EXPECT_FALSE(hub.takes(QStringLiteral("element.nameChanged"), mousepad)) << "another kind";
    hub.publish(QStringLiteral("window.closed"), mousepad);
    for (int i = 0; i < 100; ++i)
        hub.publish(QStringLiteral("element.valueChanged"), mousepad);
    EXPECT_EQ(hub.overwritten(), 92) << "the element ring dropped its oldest";

    // Coming back: the window event is held; the element events lost are said by a gap.
    hub.subscribe(2, filter, cursor);
    const QStringList kinds = sink.kinds(2);
    ASSERT_GE(kinds.size(), 3) << kinds.join(QLatin1Char(',')).toStdString();
    EXPECT_EQ(kinds.at(0), QStringLiteral("window.closed"));
    EXPECT_EQ(kinds.at(1), QStringLiteral("gap"));
    EXPECT_EQ(sink.got[2].at(1).value(QStringLiteral("lost")).toInteger(), 92);
    EXPECT_EQ(sink.got[2].at(1).value(QStringLiteral("cursor")).toInteger(), cursor + 1 + 92)
        << "the last one lost: resuming from it loses nothing more";
    EXPECT_EQ(kinds.size(), 2 + 8);
    // A reader that names no element kind loses nothing it wanted: no gap.
    hub.subscribe(3, EventHub::Filter{{QStringLiteral("window.closed")}, {}, {}}, cursor);
    EXPECT_EQ(sink.kinds(3), QStringList{QStringLiteral("window.closed")});
    // Cursors stay in order for a reader that takes every kind.
    qint64 last = 0;
    for (const QJsonObject& event : sink.got[2]) {
        EXPECT_GT(event.value(QStringLiteral("cursor")).toInteger(), last);
        last = event.value(QStringLiteral("cursor")).toInteger();
    }
}

// desktop.subscribe's answer goes before any event: a held subscription records but delivers
// nothing until it is activated, then gets what came since its cursor; a replaced one is not
// activated by an old answer.
TEST(EventHub, AHeldSubscriptionGetsWhatCameAfterItsAnswer)
{
    EventHub hub;
    Sink sink;
    hub.setDeliver(sink.deliver());
    const quint64 first = hub.subscribeHeld(1, {});
    const qint64 at = hub.cursor();
    EXPECT_TRUE(hub.wanted(QStringLiteral("window.created"))) << "its sources start at once";
    hub.publish(QStringLiteral("window.created"));
    EXPECT_TRUE(sink.got.value(1).isEmpty());
    EXPECT_TRUE(hub.activate(1, first, at, {}));
    EXPECT_EQ(sink.kinds(1), QStringList{QStringLiteral("window.created")});
    hub.publish(QStringLiteral("stopped"));
    EXPECT_EQ(sink.kinds(1), (QStringList{QStringLiteral("window.created"), QStringLiteral("stopped")}));
    const quint64 older = hub.subscribeHeld(2, {});
    const quint64 newer = hub.subscribeHeld(2, {});
    EXPECT_FALSE(hub.activate(2, older, 0, {}));
    EXPECT_TRUE(hub.activate(2, newer, hub.cursor(), {}));

    // Answers wait while a source is starting, and no longer than that.
    int answered = 0;
    hub.sourceStarting();
    hub.whenSourcesReady([&answered] { ++answered; });
    EXPECT_EQ(answered, 0);
    hub.sourceReady();
    EXPECT_EQ(answered, 1);
    hub.whenSourcesReady([&answered] { ++answered; });
    EXPECT_EQ(answered, 2);
}

// The contract's route object filters the stream as the strings form does; focusPolicy is
// accepted and said to be ignored; a window id is refused.
TEST(EventHub, TheContractsRouteFiltersTheStream)
{
    EventHub::Filter filter;
    QJsonArray ignored;
    const QJsonObject route{
        {QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("mousepad")}}},
        {QStringLiteral("window"), QJsonObject{{QStringLiteral("titlePattern"), QStringLiteral("^Untitled")}}},
        {QStringLiteral("focusPolicy"), QStringLiteral("focusIfNeeded")}};
    ASSERT_TRUE(EventHub::applyRoute(route, filter, ignored).ok());
    ASSERT_EQ(ignored.size(), 1);
    EXPECT_EQ(ignored.at(0).toObject().value(QStringLiteral("field")).toString(), QStringLiteral("route.focusPolicy"));
    const auto event = [](const QString& app, const QString& title, qint64 pid) {
        return QJsonObject{{QStringLiteral("kind"), QStringLiteral("window.created")},
                           {QStringLiteral("app"), QJsonObject{{QStringLiteral("name"), app},
                                                               {QStringLiteral("executable"), app},
                                                               {QStringLiteral("pid"), pid}}},
                           {QStringLiteral("window"), QJsonObject{{QStringLiteral("title"), title}}}};
    };
    EXPECT_TRUE(filter.takes(event(QStringLiteral("mousepad"), QStringLiteral("Untitled 1"), 5)));
    EXPECT_FALSE(filter.takes(event(QStringLiteral("mousepad"), QStringLiteral("Save As"), 5)));
    EXPECT_FALSE(filter.takes(event(QStringLiteral("gedit"), QStringLiteral("Untitled 1"), 5)));

    EventHub::Filter byPid;
    ASSERT_TRUE(EventHub::applyRoute(QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), 7}}},
                                                 {QStringLiteral("window"), QStringLiteral("Untitled")}},
                                     byPid, ignored)
                    .ok());
    EXPECT_TRUE(byPid.takes(event(QStringLiteral("x"), QStringLiteral("Untitled 2"), 7)));
    EXPECT_FALSE(byPid.takes(event(QStringLiteral("x"), QStringLiteral("Untitled 2"), 8)));

    EventHub::Filter refused;
    for (const auto& [member, value] :
         {std::pair{QStringLiteral("window"), QJsonValue(QJsonObject{{QStringLiteral("id"), QStringLiteral("w:1")}})},
          std::pair{QStringLiteral("display"), QJsonValue(1)},
          std::pair{QStringLiteral("app"), QJsonValue(QJsonObject{{QStringLiteral("name"), QStringLiteral("x")}})},
          std::pair{QStringLiteral("focusPolicy"), QJsonValue(QStringLiteral("sometimes"))}}) {
        const auto applied = EventHub::applyRoute(QJsonObject{{member, value}}, refused, ignored);
        ASSERT_FALSE(applied.ok()) << member.toStdString();
        EXPECT_TRUE(applied.error()
                        .details.value(QStringLiteral("field"))
                        .toString()
                        .startsWith(QStringLiteral("route.") + member))
            << applied.error().details.value(QStringLiteral("field")).toString().toStdString();
    }
}

// Losses between events a reader does not take make one gap, said before the next event it
// takes: a window-only reader is not flooded with a gap per element event dropped.
TEST(EventHub, LossesAroundEventsAReaderSkipsMakeOneGap)
{
    EventHub hub(4);
    Sink sink;
    hub.setDeliver(sink.deliver());
    // Window and element events alternate, then more window events than the ring holds.
    for (int i = 0; i < 6; ++i) {
        hub.publish(QStringLiteral("window.created"));
        hub.publish(QStringLiteral("element.valueChanged"));
    }
    for (int i = 0; i < 4; ++i)
        hub.publish(QStringLiteral("window.closed"));
    hub.subscribe(1, EventHub::Filter{{QStringLiteral("window.created"), QStringLiteral("window.closed")}, {}, {}},
                  qint64{0});
    const QStringList kinds = sink.kinds(1);
    EXPECT_EQ(kinds.count(QStringLiteral("gap")), 1) << kinds.join(QLatin1Char(',')).toStdString();
    EXPECT_EQ(kinds.first(), QStringLiteral("gap"));
    EXPECT_EQ(kinds.count(QStringLiteral("window.closed")), 4);
    // Cursors still rise for the reader.
    qint64 last = 0;
    for (const QJsonObject& event : sink.got[1]) {
        EXPECT_GT(event.value(QStringLiteral("cursor")).toInteger(), last);
        last = event.value(QStringLiteral("cursor")).toInteger();
    }
}

// A subscription replaced, or ended, before its answer went out is not the one in force; one whose
// connection closes before its answer does not linger (it has no cursor to come back with).
TEST(EventHub, AHeldSubscriptionThatWasReplacedOrLeftDoesNotStreamOrLinger)
{
    EventHub hub;
    hub.setLingerMs(60000);
    Sink sink;
    hub.setDeliver(sink.deliver());
    const quint64 first = hub.subscribeHeld(1, {});
    const quint64 second = hub.subscribeHeld(1, {});
    EXPECT_FALSE(hub.isCurrent(1, first));
    EXPECT_TRUE(hub.isCurrent(1, second));
    hub.unsubscribe(1);
    EXPECT_FALSE(hub.isCurrent(1, second));
    hub.subscribeHeld(2, {});
    hub.connectionGone(2);
    EXPECT_EQ(hub.lingeringCount(), 0);
    hub.subscribe(3, {}, std::nullopt);
    hub.connectionGone(3);
    EXPECT_EQ(hub.lingeringCount(), 1) << "an answered one lingers";
}
