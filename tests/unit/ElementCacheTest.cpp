// The element cache behind elementRefs (docs/protocol.md §4.5): what a later request reads of an
// element survives, the oldest are forgotten first, and a secure element stays secure.
#include "automation/ElementCache.h"

#include <gtest/gtest.h>

using namespace Automation;
using Automation::ElementCache;

namespace {

Snapshot snapshotOf(int count, const QString& titlePrefix, bool secondIsSecure = false)
{
    Snapshot snapshot;
    for (int i = 0; i < count; ++i) {
        Node node;
        node.role = i == 0 ? QStringLiteral("AXWindow") : QStringLiteral("AXButton");
        node.nativeRole = QStringLiteral("push button");
        node.title = titlePrefix + QString::number(i);
        node.frame = {i, 2 * i, 10, 20};
        node.handle = QStringLiteral(":1.5/org/a11y/atspi/accessible/%1").arg(i);
        if (secondIsSecure && i == 1) {
            node.role = QStringLiteral("AXTextField");
            node.nativeRole = QStringLiteral("password text");
        }
        snapshot.nodes.append(node);
    }
    return snapshot;
}

ResolvedRoute routeOf(qint64 pid)
{
    ResolvedRoute route;
    route.pid = pid;
    route.appName = QStringLiteral("app %1").arg(pid);
    route.windowTitle = QStringLiteral("window");
    return route;
}

TEST(ElementCache, KeepsWhatAFingerprintAndARouteNeed)
{
    ElementCache cache;
    Snapshot snapshot = snapshotOf(3, QStringLiteral("Button "), /*secondIsSecure=*/true);
    cache.adopt(snapshot, routeOf(42));
    ASSERT_EQ(cache.size(), 3);
    for (const Node& node : snapshot.nodes) {
        ASSERT_TRUE(node.elementId.startsWith(QStringLiteral("e:")));
        const auto entry = cache.find(node.elementId);
        ASSERT_TRUE(entry.has_value()) << node.elementId.toStdString();
        EXPECT_EQ(entry->node.elementId, node.elementId);
        EXPECT_EQ(entry->node.handle, node.handle);
        EXPECT_EQ(fingerprintOf(entry->node), fingerprintOf(node));
        EXPECT_EQ(entry->node.isSecure(), node.isSecure());
        EXPECT_EQ(entry->route.pid, 42);
    }
    EXPECT_TRUE(cache.find(snapshot.nodes[1].elementId)->node.isSecure());
    EXPECT_FALSE(cache.find(QStringLiteral("e:999999")).has_value());
    EXPECT_FALSE(cache.find(QStringLiteral("nonsense")).has_value());
}

TEST(ElementCache, ForgetsTheOldestFirstAndKeepsEachSnapshotsRoute)
{
    ElementCache cache(5);
    Snapshot first = snapshotOf(3, QStringLiteral("First "));
    cache.adopt(first, routeOf(1));
    Snapshot second = snapshotOf(3, QStringLiteral("Second "));
    cache.adopt(second, routeOf(2));
    EXPECT_LE(cache.size(), 5);
    EXPECT_FALSE(cache.find(first.nodes[0].elementId).has_value());
    for (const Node& node : second.nodes) {
        const auto entry = cache.find(node.elementId);
        ASSERT_TRUE(entry.has_value());
        EXPECT_EQ(entry->route.pid, 2);
        EXPECT_EQ(entry->node.title, node.title);
    }
    const auto survivor = cache.find(first.nodes[2].elementId);
    ASSERT_TRUE(survivor.has_value());
    EXPECT_EQ(survivor->route.pid, 1);
    EXPECT_EQ(survivor->node.title, QStringLiteral("First 2"));
}

TEST(ElementCache, TheSameElementSeenAgainGetsANewIdAndBothResolve)
{
    ElementCache cache;
    Snapshot a = snapshotOf(2, QStringLiteral("Same "));
    cache.adopt(a, routeOf(7));
    Snapshot b = snapshotOf(2, QStringLiteral("Same "));
    b.nodes[1].frame = {100, 100, 10, 20}; // moved meanwhile
    cache.adopt(b, routeOf(7));
    EXPECT_NE(a.nodes[1].elementId, b.nodes[1].elementId);
    EXPECT_EQ(cache.find(a.nodes[1].elementId)->node.frame, (Frame{1, 2, 10, 20}));
    EXPECT_EQ(cache.find(b.nodes[1].elementId)->node.frame, (Frame{100, 100, 10, 20}));
    EXPECT_EQ(cache.find(b.nodes[1].elementId)->node.handle, a.nodes[1].handle);
}

} // namespace
