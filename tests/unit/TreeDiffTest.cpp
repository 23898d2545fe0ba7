// What changed between two recorded trees: the pairing the selector lab and the replay use to
// say why a selector's result differs.
#include "bridge/evidence/TreeDiff.h"

#include <gtest/gtest.h>

using namespace Automation;
using Evidence::NodeChange;
using Evidence::TreeDiff;

namespace {

// A small tree builder: add(parent, role, title) returns the index.
struct Tree
{
    Snapshot s;
    int add(int parent, const QString& role, const QString& title, quint32 states = StateEnabled | StateShowing)
    {
        Node n;
        n.elementId = QStringLiteral("e:%1").arg(s.nodes.size() + 1);
        n.role = role;
        n.title = title;
        n.states = states;
        n.frame = Frame{int(s.nodes.size()) * 10, 0, 50, 20};
        n.parent = parent;
        const int index = int(s.nodes.size());
        if (parent >= 0)
            s.nodes[parent].children.append(index);
        s.nodes.append(n);
        return index;
    }
};

Tree chatWindow(const QString& sendTitle, int rows)
{
    Tree t;
    const int app = t.add(-1, QStringLiteral("AXApplication"), QStringLiteral("Chat"));
    const int window = t.add(app, QStringLiteral("AXWindow"), QStringLiteral("Chat — Ann"));
    const int list = t.add(window, QStringLiteral("AXList"), QStringLiteral("Messages"));
    for (int i = 0; i < rows; ++i)
        t.add(list, QStringLiteral("AXRow"), QStringLiteral("message %1").arg(i + 1));
    t.add(window, QStringLiteral("AXTextField"), QStringLiteral("Message"));
    t.add(window, QStringLiteral("AXButton"), sendTitle);
    t.add(window, QStringLiteral("AXButton"), QStringLiteral("Attach"));
    return t;
}

int find(const Snapshot& s, const QString& title)
{
    for (int i = 0; i < s.nodes.size(); ++i) {
        if (s.nodes.at(i).title == title)
            return i;
    }
    return -1;
}

} // namespace

TEST(TreeDiff, TheSameTreeIsIdenticalAndEveryNodeIsPaired)
{
    const Tree a = chatWindow(QStringLiteral("Send"), 3);
    const TreeDiff diff = TreeDiff::compare(a.s, a.s);
    EXPECT_TRUE(diff.identical());
    for (int i = 0; i < a.s.nodes.size(); ++i)
        EXPECT_EQ(diff.afterOf(i), std::optional<int>(i));
}

TEST(TreeDiff, ARenamedButtonIsTheSameButtonWithANewTitle)
{
    const Tree a = chatWindow(QStringLiteral("Send"), 2);
    const Tree b = chatWindow(QStringLiteral("Submit"), 2);
    const TreeDiff diff = TreeDiff::compare(a.s, b.s);
    const int send = find(a.s, QStringLiteral("Send"));
    ASSERT_EQ(diff.afterOf(send), std::optional<int>(find(b.s, QStringLiteral("Submit"))));
    const auto change = diff.changeOf(send);
    ASSERT_TRUE(change);
    EXPECT_EQ(change->kind, NodeChange::Kind::Changed);
    EXPECT_EQ(change->attributes, quint32(NodeChange::Title));
    EXPECT_EQ(diff.changedNodes(), 1);
    EXPECT_EQ(diff.addedNodes(), 0);
    EXPECT_EQ(diff.removedNodes(), 0);
}

TEST(TreeDiff, ANewRowIsAddedAndAGoneButtonIsRemovedNotRenamed)
{
    Tree a = chatWindow(QStringLiteral("Send"), 2);
    Tree b = chatWindow(QStringLiteral("Send"), 3);
    // In b, Attach is gone; a different row at another place is not "Attach renamed".
    b.s.nodes.removeLast();
    b.s.nodes[1].children.removeLast();
    const TreeDiff diff = TreeDiff::compare(a.s, b.s);
    EXPECT_EQ(diff.addedNodes(), 1);
    EXPECT_EQ(diff.removedNodes(), 1);
    const auto gone = diff.removalOf(find(a.s, QStringLiteral("Attach")));
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->kind, NodeChange::Kind::Removed);
    EXPECT_FALSE(diff.afterOf(find(a.s, QStringLiteral("Attach"))));
    EXPECT_EQ(diff.beforeOf(find(b.s, QStringLiteral("message 3"))), std::nullopt);
}

TEST(TreeDiff, ARemovedSubtreeCountsItsNodesAndNamesItsRootForEveryNodeInside)
{
    const Tree a = chatWindow(QStringLiteral("Send"), 4);
    Tree b;
    const int app = b.add(-1, QStringLiteral("AXApplication"), QStringLiteral("Chat"));
    b.add(app, QStringLiteral("AXWindow"), QStringLiteral("Chat — Ann"));
    const TreeDiff diff = TreeDiff::compare(a.s, b.s);
    EXPECT_EQ(diff.removedNodes(), int(a.s.nodes.size()) - 2);
    const auto gone = diff.removalOf(find(a.s, QStringLiteral("message 3")));
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->before, find(a.s, QStringLiteral("Messages")));
    EXPECT_EQ(gone->subtreeNodes, 5);
}

TEST(TreeDiff, StatesAndFramesAreComparedOnlyWhereBothTreesReadThem)
{
    Tree a = chatWindow(QStringLiteral("Send"), 1);
    Tree b = chatWindow(QStringLiteral("Send"), 1);
    const int send = find(b.s, QStringLiteral("Send"));
    b.s.nodes[send].states = StateShowing; // disabled now
    b.s.nodes[send].frame.x += 5;
    {
        const TreeDiff diff = TreeDiff::compare(a.s, b.s);
        const auto change = diff.changeOf(find(a.s, QStringLiteral("Send")));
        ASSERT_TRUE(change);
        EXPECT_EQ(change->attributes, quint32(NodeChange::States | NodeChange::Frame));
    }
    // A find's search-only tree has neither: no difference is claimed.
    for (Node& node : a.s.nodes)
        node.detailed = false;
    EXPECT_TRUE(TreeDiff::compare(a.s, b.s).identical());
}

TEST(TreeDiff, ValuesAreComparedOnlyWhereBothTreesReadText)
{
    Tree a = chatWindow(QStringLiteral("Send"), 1);
    Tree b = chatWindow(QStringLiteral("Send"), 1);
    const int field = find(a.s, QStringLiteral("Message"));
    a.s.nodes[field].value = QStringLiteral("hello");
    a.s.nodes[field].hasValue = true;
    b.s.nodes[field].value = QStringLiteral("");
    EXPECT_TRUE(TreeDiff::compare(a.s, b.s).identical());
    b.s.nodes[field].hasValue = true;
    const auto change = TreeDiff::compare(a.s, b.s).changeOf(field);
    ASSERT_TRUE(change);
    EXPECT_EQ(change->attributes, quint32(NodeChange::Value));
}

TEST(TreeDiff, OneWindowComparedWithAnotherAndTheWindowOfANode)
{
    const Tree a = chatWindow(QStringLiteral("Send"), 2);
    const int send = find(a.s, QStringLiteral("Send"));
    EXPECT_EQ(TreeDiff::windowOf(a.s, send), 1);
    EXPECT_EQ(TreeDiff::windowOf(a.s, 0), -1);
    EXPECT_EQ(TreeDiff::indexOf(a.s, a.s.nodes.at(send).elementId), send);
    EXPECT_EQ(TreeDiff::indexOf(a.s, QStringLiteral("e:999")), -1);
    Tree b = chatWindow(QStringLiteral("Send"), 2);
    b.s.nodes[0].title = QStringLiteral("Chat (2)");
    const TreeDiff whole = TreeDiff::compare(a.s, b.s);
    EXPECT_EQ(whole.changedNodes(), 1);
    EXPECT_TRUE(TreeDiff::compare(a.s, b.s, 1, 1).identical()) << "the application node is outside the window";
}

TEST(TreeDiff, MalformedLinksAndLoopsDoNotHangOrCrash)
{
    Tree a = chatWindow(QStringLiteral("Send"), 1);
    a.s.nodes[2].children.append(0);   // a child link back to the root
    a.s.nodes[2].children.append(999); // out of range
    a.s.nodes[2].parent = 3;           // a parent loop: the list's parent is its own row
    const Tree b = chatWindow(QStringLiteral("Send"), 1);
    const TreeDiff diff = TreeDiff::compare(a.s, b.s);
    EXPECT_FALSE(diff.identical());
    EXPECT_EQ(TreeDiff::windowOf(a.s, 3), -1);
    EXPECT_EQ(TreeDiff::windowOf(a.s, 5), 1);
}

TEST(TreeDiff, ARenameAfterAnInsertedSiblingIsStillARename)
{
    Tree a;
    const int wa = a.add(-1, QStringLiteral("AXWindow"), QStringLiteral("Chat"));
    a.add(wa, QStringLiteral("AXTextField"), QStringLiteral("Message"));
    a.add(wa, QStringLiteral("AXButton"), QStringLiteral("Send"));
    Tree b;
    const int wb = b.add(-1, QStringLiteral("AXWindow"), QStringLiteral("Chat"));
    b.add(wb, QStringLiteral("AXButton"), QStringLiteral("Emoji")); // inserted before
    b.add(wb, QStringLiteral("AXTextField"), QStringLiteral("Message"));
    b.add(wb, QStringLiteral("AXButton"), QStringLiteral("Submit"));
    const TreeDiff diff = TreeDiff::compare(a.s, b.s);
    const auto change = diff.changeOf(find(a.s, QStringLiteral("Send")));
    ASSERT_TRUE(change);
    EXPECT_TRUE(change->attributes & NodeChange::Title) << "it moved too, to make room";
    EXPECT_EQ(diff.addedNodes(), 1) << "Emoji";
}

TEST(TreeDiff, ThousandsOfSiblingsCompareInLinearTime)
{
    // 3000 rows, one removed at the top and one added at the bottom: nothing is a rename.
    const auto rows = [](int first, int last) {
        Tree t;
        const int list = t.add(-1, QStringLiteral("AXList"), QStringLiteral("Messages"));
        for (int i = first; i <= last; ++i)
            t.add(list, QStringLiteral("AXRow"), QStringLiteral("message %1").arg(i));
        for (Node& node : t.s.nodes)
            node.detailed = false; // as a find keeps them: no frames (the rows scrolled)
        return t;
    };
    const Tree a = rows(1, 3000);
    const Tree b = rows(2, 3001);
    const TreeDiff diff = TreeDiff::compare(a.s, b.s);
    EXPECT_EQ(diff.changedNodes(), 0);
    EXPECT_EQ(diff.removedNodes(), 1);
    EXPECT_EQ(diff.addedNodes(), 1);
}
