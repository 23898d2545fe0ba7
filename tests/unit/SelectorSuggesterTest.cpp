// The inspector's "Suggest selector" (automation/SelectorSuggester): for every node of the fake
// window the first suggestion matches that node alone, in the engine's own matcher; the
// strategies come most robust first; a duplicated title falls through to what tells the nodes
// apart; the suggestion's JSON is what desktop.find parses.
#include "FakeBackend.h"

#include "automation/SelectorEngine.h"
#include "automation/SelectorSuggester.h"

#include <QJsonDocument>

#include <gtest/gtest.h>

using namespace Automation;

namespace {

Snapshot fakeWindow(QList<Node> nodes = Testing::FakeDesktop::defaultTree())
{
    Testing::FakeDesktop desktop;
    desktop.setTree(std::move(nodes));
    return desktop.snapshotNow();
}

} // namespace

TEST(SelectorSuggester, EveryNodeGetsASelectorThatMatchesItAlone)
{
    const Snapshot snapshot = fakeWindow();
    ASSERT_GT(snapshot.nodes.size(), 5);
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        const auto suggestion = SelectorSuggester::suggest(snapshot, i);
        ASSERT_TRUE(suggestion) << snapshot.nodes.at(i).title.toStdString();
        EXPECT_TRUE(suggestion->unique);
        EXPECT_EQ(suggestion->matches, 1);
        // Parsed as desktop.find parses it, it finds the node and nothing else.
        const auto parsed = Selector::fromJson(suggestion->json);
        ASSERT_TRUE(parsed) << QJsonDocument(suggestion->json).toJson().toStdString();
        const QList<Candidate> found = SelectorEngine::match(snapshot, parsed.value());
        ASSERT_EQ(found.size(), 1) << QJsonDocument(suggestion->json).toJson().toStdString();
        EXPECT_EQ(found.constFirst().nodeIndex, i);
        EXPECT_FALSE(suggestion->why.isEmpty());
    }
    // A titled button is named as a person names it.
    const auto send = SelectorSuggester::suggest(snapshot, 2);
    ASSERT_TRUE(send);
    EXPECT_EQ(send->strategy, QStringLiteral("roleTitle"));
    EXPECT_EQ(send->json, (QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                       {QStringLiteral("titleEquals"), QStringLiteral("Send")}}));
}

TEST(SelectorSuggester, AnIdentifierComesFirstAndAPathLast)
{
    QList<Node> nodes = Testing::FakeDesktop::defaultTree();
    nodes[2].identifier = QStringLiteral("sendButton");
    const Snapshot snapshot = fakeWindow(nodes);
    const QList<SelectorSuggestion> all = SelectorSuggester::candidates(snapshot, 2);
    ASSERT_GE(all.size(), 3);
    EXPECT_EQ(all.constFirst().strategy, QStringLiteral("identifier"));
    EXPECT_EQ(all.constLast().strategy, QStringLiteral("path"));
    EXPECT_EQ(SelectorSuggester::suggest(snapshot, 2)->json,
              (QJsonObject{{QStringLiteral("byIdentifier"), QStringLiteral("sendButton")}}));
}

TEST(SelectorSuggester, TwinTitlesFallThroughToWhatTellsThemApart)
{
    QList<Node> nodes = Testing::FakeDesktop::defaultTree();
    Node twin = nodes[2]; // a second "Send" button
    twin.frame = {320, 200, 80, 24};
    nodes.append(twin);
    const Snapshot snapshot = fakeWindow(nodes);
    const int last = static_cast<int>(snapshot.nodes.size()) - 1;
    const QList<SelectorSuggestion> all = SelectorSuggester::candidates(snapshot, last);
    EXPECT_EQ(all.at(0).strategy, QStringLiteral("roleTitle"));
    EXPECT_EQ(all.at(0).matches, 2);
    EXPECT_FALSE(all.at(0).unique);
    const auto chosen = SelectorSuggester::suggest(snapshot, last);
    ASSERT_TRUE(chosen);
    EXPECT_EQ(chosen->strategy, QStringLiteral("path"));
    EXPECT_TRUE(chosen->unique);
}

TEST(SelectorSuggester, ALabelRelationNamesAnUntitledField)
{
    QList<Node> nodes = Testing::FakeDesktop::defaultTree();
    nodes[1].title.clear();               // the field has no name of its own...
    nodes[4].labelFor = {1};              // ...but "Status" is its label
    nodes[5].frame = {400, 300, 300, 24}; // and the password field is not on Status's row or below it
    Snapshot snapshot = fakeWindow(nodes);
    for (Node& node : snapshot.nodes)
        node.relationsRead = true;
    const auto chosen = SelectorSuggester::suggest(snapshot, 1);
    ASSERT_TRUE(chosen);
    EXPECT_EQ(chosen->strategy, QStringLiteral("labelledBy"));
    EXPECT_TRUE(chosen->why.contains(QStringLiteral("Status")));
}

TEST(SelectorSuggester, AnIndexOutOfRangeGetsNothing)
{
    const Snapshot snapshot = fakeWindow();
    EXPECT_TRUE(SelectorSuggester::candidates(snapshot, -1).isEmpty());
    EXPECT_FALSE(SelectorSuggester::suggest(snapshot, static_cast<int>(snapshot.nodes.size())));
}
