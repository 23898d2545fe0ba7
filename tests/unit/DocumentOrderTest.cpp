// Nodes gathered breadth first are put in document order with indexes and paths fixed.
#include "automation/DocumentOrder.h"

#include <gtest/gtest.h>

using namespace Automation;

TEST(DocumentOrder, BreadthFirstBecomesPreOrder)
{
    // 0 (a) has children 1 (b) and 2 (c); 1 has child 3 (d).
    Snapshot snapshot;
    for (const char* title : {"a", "b", "c", "d"}) {
        Node node;
        node.title = QString::fromLatin1(title);
        snapshot.nodes.append(node);
    }
    snapshot.nodes[0].children = {1, 2};
    snapshot.nodes[1].parent = 0;
    snapshot.nodes[1].children = {3};
    snapshot.nodes[2].parent = 0;
    snapshot.nodes[3].parent = 1;
    toDocumentOrder(snapshot);
    QStringList titles;
    for (const auto& node : snapshot.nodes)
        titles.append(node.title);
    EXPECT_EQ(titles,
              (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("d"), QStringLiteral("c")}));
    EXPECT_EQ(snapshot.nodes[0].children, (QList<int>{1, 3}));
    EXPECT_EQ(snapshot.nodes[1].children, (QList<int>{2}));
    EXPECT_EQ(snapshot.nodes[2].parent, 1);
    EXPECT_EQ(snapshot.nodes[3].parent, 0);
    EXPECT_EQ(snapshot.nodes[0].path, QList<int>{});
    EXPECT_EQ(snapshot.nodes[2].path, (QList<int>{0, 0}));
    EXPECT_EQ(snapshot.nodes[3].path, (QList<int>{1}));

    Snapshot empty;
    toDocumentOrder(empty);
    EXPECT_TRUE(empty.nodes.isEmpty());
}
