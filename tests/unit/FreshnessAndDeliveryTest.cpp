// What a caller controls of freshness and delivery (docs/protocol.md §4.3, §4.5, click and
// typeText): snapshotIds that expire by age and by use, window ids in routes, and the one
// typing path a caller may name.
#include "UnitTestSupport.h"
#include "automation/ElementCache.h"
#include "automation/TypingLadder.h"

#include <QJsonArray>

#include <gtest/gtest.h>

#include <thread>

using namespace Automation;
using UnitTest::jsonObject;

namespace {

Snapshot threeNodes()
{
    Snapshot snapshot;
    for (int i = 0; i < 3; ++i) {
        Node node;
        node.role = QStringLiteral("AXButton");
        node.title = QStringLiteral("b%1").arg(i);
        node.handle = QStringLiteral(":1.9|/node/%1").arg(i);
        snapshot.nodes.append(node);
    }
    return snapshot;
}

QString reasonOf(const std::optional<Error>& error)
{
    return error ? error->details.value(QStringLiteral("why")).toString() : QString();
}

} // namespace

TEST(SnapshotId, EachAdoptedSnapshotHasOneAndItsElementsBelongToIt)
{
    ElementCache cache;
    Snapshot first = threeNodes();
    Snapshot second = threeNodes();
    cache.adopt(first, {});
    cache.adopt(second, {});
    EXPECT_EQ(first.snapshotId, QStringLiteral("s:1"));
    EXPECT_EQ(second.snapshotId, QStringLiteral("s:4"));
    EXPECT_FALSE(cache.useSnapshot(first.snapshotId, first.nodes.at(2).elementId).has_value());
    // An element of the second snapshot named with the first one's id is refused, naming the field.
    const auto mixed = cache.useSnapshot(first.snapshotId, second.nodes.at(0).elementId);
    ASSERT_TRUE(mixed.has_value());
    EXPECT_EQ(mixed->code, ErrorCode::InvalidRequest);
    EXPECT_EQ(mixed->details.value(QStringLiteral("field")).toString(), QStringLiteral("target.elementRef.snapshotId"));
    EXPECT_EQ(reasonOf(cache.useSnapshot(QStringLiteral("s:99"), QStringLiteral("e:99"))), QStringLiteral("forgotten"));
    EXPECT_EQ(reasonOf(cache.useSnapshot(QStringLiteral("bogus"), QStringLiteral("e:1"))), QStringLiteral("forgotten"));
}

TEST(SnapshotId, ExpiresAfterItsReuseCount)
{
    ElementCache cache(1000, 60000, 3);
    Snapshot snapshot = threeNodes();
    cache.adopt(snapshot, {});
    for (int i = 0; i < 3; ++i)
        EXPECT_FALSE(cache.useSnapshot(snapshot.snapshotId, snapshot.nodes.at(1).elementId).has_value()) << i;
    const auto spent = cache.useSnapshot(snapshot.snapshotId, snapshot.nodes.at(1).elementId);
    ASSERT_TRUE(spent.has_value());
    EXPECT_EQ(spent->code, ErrorCode::StaleSnapshot);
    EXPECT_EQ(spent->details.value(QStringLiteral("reason")).toString(), QStringLiteral("snapshot_expired"));
    EXPECT_EQ(reasonOf(spent), QStringLiteral("reuse"));
    EXPECT_EQ(spent->details.value(QStringLiteral("maxUses")).toInt(), 3);
}

TEST(SnapshotId, ExpiresAfterItsTtl)
{
    ElementCache cache(1000, 30, 20);
    Snapshot snapshot = threeNodes();
    cache.adopt(snapshot, {});
    EXPECT_FALSE(cache.useSnapshot(snapshot.snapshotId, snapshot.nodes.at(0).elementId).has_value());
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    const auto old = cache.useSnapshot(snapshot.snapshotId, snapshot.nodes.at(0).elementId);
    EXPECT_EQ(reasonOf(old), QStringLiteral("ttl"));
    EXPECT_GE(old->details.value(QStringLiteral("ageMs")).toInteger(), 30);
}

TEST(SnapshotId, IsForgottenWithItsElements)
{
    ElementCache cache(4);
    Snapshot first = threeNodes();
    Snapshot second = threeNodes();
    cache.adopt(first, {});
    cache.adopt(second, {});
    EXPECT_EQ(reasonOf(cache.useSnapshot(first.snapshotId, first.nodes.at(0).elementId)), QStringLiteral("forgotten"));
    EXPECT_FALSE(cache.useSnapshot(second.snapshotId, second.nodes.at(2).elementId).has_value());
}

TEST(WindowId, RoundTripsThroughARoute)
{
    ResolvedRoute resolved;
    resolved.windowHandle = QStringLiteral(":1.42|/org/a11y/atspi/accessible/7");
    const QString id = resolved.toJson().value(QStringLiteral("windowId")).toString();
    EXPECT_EQ(id, QStringLiteral("w::1.42|/org/a11y/atspi/accessible/7"));

    auto route = Route::fromJson(QJsonObject{{QStringLiteral("window"), QJsonObject{{QStringLiteral("id"), id}}}});
    ASSERT_TRUE(route.ok());
    EXPECT_EQ(route->windowHandle, resolved.windowHandle);
    EXPECT_EQ(route->toJson().value(QStringLiteral("window")).toObject().value(QStringLiteral("id")).toString(), id);

    const auto bad = Route::fromJson(jsonObject(R"({"window":{"id":"7"}})"));
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().details.value(QStringLiteral("field")).toString(), QStringLiteral("route.window.id"));
    EXPECT_FALSE(ResolvedRoute().toJson().contains(QStringLiteral("windowId")));
}

TEST(TypingDelivery, ANamedPathRunsAloneOrIsRefusedNamingThePathsTheFieldTakes)
{
    TypingLadder::Facts field;
    field.editable = true;
    field.lengthKnown = true;
    field.pasteKnown = true;
    const QStringList ladder = TypingLadder::paths(field);
    EXPECT_EQ(TypingLadder::chosen(ladder, std::nullopt).value(), ladder);
    EXPECT_EQ(TypingLadder::chosen(ladder, QStringLiteral("keys")).value(), QStringList{QStringLiteral("keys")});
    EXPECT_EQ(TypingLadder::chosen(ladder, QStringLiteral("clipboard")).value(),
              QStringList{QStringLiteral("clipboard")});

    TypingLadder::Facts secret = field;
    secret.secure = true;
    const auto refused = TypingLadder::chosen(TypingLadder::paths(secret), QStringLiteral("clipboard"));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::InvalidRequest);
    EXPECT_EQ(refused.error().details.value(QStringLiteral("reason")).toString(),
              QStringLiteral("delivery_unavailable"));
    EXPECT_EQ(refused.error().details.value(QStringLiteral("available")).toArray(),
              QJsonArray({QStringLiteral("editableText"), QStringLiteral("keys")}));
}
