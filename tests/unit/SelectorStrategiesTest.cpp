// The selector strategies beyond role and text (docs/protocol.md §4.4): labelledBy, near, byPath,
// byRect, nth, description, inWindow; their parsing, ranking and the reasons in candidates.json.
#include "UnitTestSupport.h"
#include "automation/SelectorEngine.h"

#include <QJsonArray>

#include <gtest/gtest.h>

using namespace Automation;
using UnitTest::jsonObject;

namespace {

constexpr quint32 kNormal = StateVisible | StateShowing | StateEnabled;

struct Spec
{
    QString role;
    QString title;
    Frame frame;
    QString description = {};
};

// A form window "Settings" (node 0) with the given nodes as children, in document order; spec i
// becomes node i + 1.
Snapshot form(const QList<Spec>& specs)
{
    Snapshot snapshot;
    snapshot.windowTitle = QStringLiteral("Settings");
    Node root;
    root.role = QStringLiteral("AXWindow");
    root.title = snapshot.windowTitle;
    root.frame = {0, 0, 800, 600};
    root.states = kNormal;
    snapshot.nodes.append(root);
    for (int i = 0; i < specs.size(); ++i) {
        Node node;
        node.elementId = QStringLiteral("e:%1").arg(i + 1);
        node.role = specs.at(i).role;
        node.title = specs.at(i).title;
        node.description = specs.at(i).description;
        node.frame = specs.at(i).frame;
        node.states = kNormal;
        node.path = {i};
        node.parent = 0;
        snapshot.nodes[0].children.append(i + 1);
        snapshot.nodes.append(node);
    }
    return snapshot;
}

Selector parse(const char* json)
{
    auto parsed = Selector::fromJson(jsonObject(json));
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().message.toStdString());
    return parsed.ok() ? parsed.value() : Selector();
}

QList<int> indexesOf(const QList<Candidate>& candidates)
{
    QList<int> out;
    for (const auto& c : candidates)
        out.append(c.nodeIndex);
    return out;
}

QString reasonsOf(const Candidate& candidate)
{
    return candidate.reasons.join(QStringLiteral("; "));
}

const QString kStatic = QStringLiteral("AXStaticText");
const QString kField = QStringLiteral("AXTextField");

// Label "City" at the left of row 1 with its field; label "Zip" on row 2 with its field.
Snapshot cityZipForm()
{
    return form({
        {kStatic, QStringLiteral("City"), {10, 10, 40, 20}}, // 1
        {kField, QString(), {60, 8, 200, 24}},               // 2: right of City
        {kStatic, QStringLiteral("Zip"), {10, 50, 40, 20}},  // 3
        {kField, QString(), {60, 48, 200, 24}},              // 4: right of Zip
        {kField, QString(), {10, 300, 200, 24}},             // 5: far below everything
    });
}

} // namespace

TEST(SelectorStrategies, LabelledByUsesGeometryWhenThereIsNoRelation)
{
    const Snapshot snapshot = cityZipForm();
    const auto found =
        SelectorEngine::match(snapshot, parse(R"({"byRole":"AXTextField","labelledBy":{"titleEquals":"Zip"}})"));
    ASSERT_EQ(indexesOf(found), QList<int>({4}));
    EXPECT_TRUE(reasonsOf(found.first()).contains(QStringLiteral("labelled by \"Zip\" (geometry: right of it, 10 px)")))
        << reasonsOf(found.first()).toStdString();
}

TEST(SelectorStrategies, ALabelRelationOutranksGeometry)
{
    Snapshot snapshot = cityZipForm();
    // The toolkit says "City" labels the field far below; the field next to it is only near.
    snapshot.nodes[1].labelFor = {5};
    snapshot.nodes[1].relationsRead = true;
    const auto found =
        SelectorEngine::match(snapshot, parse(R"({"byRole":"AXTextField","labelledBy":{"titleEquals":"City"}})"));
    ASSERT_EQ(indexesOf(found), QList<int>({5, 2}));
    EXPECT_TRUE(reasonsOf(found.at(0)).contains(QStringLiteral("labelled by \"City\" (relation)")));
    EXPECT_TRUE(reasonsOf(found.at(1)).contains(QStringLiteral("(geometry: right of it")));
    EXPECT_GT(found.at(0).score, found.at(1).score);
}

TEST(SelectorStrategies, LabelledByFindsAFieldBelowItsLabel)
{
    const Snapshot snapshot = form({
        {kStatic, QStringLiteral("Notes"), {10, 10, 60, 20}},
        {kField, QString(), {10, 36, 300, 80}},
        {kField, QString(), {400, 36, 100, 24}}, // right, but not on the label's row nor under it
    });
    const auto found =
        SelectorEngine::match(snapshot, parse(R"({"byRole":"AXTextField","labelledBy":{"titleEquals":"Notes"}})"));
    ASSERT_EQ(indexesOf(found), QList<int>({2}));
    EXPECT_TRUE(reasonsOf(found.first()).contains(QStringLiteral("(geometry: below it, 6 px)")));
}

TEST(SelectorStrategies, NoLabelNoMatch)
{
    const auto found = SelectorEngine::match(
        cityZipForm(), parse(R"({"byRole":"AXTextField","labelledBy":{"titleEquals":"Country"}})"));
    EXPECT_TRUE(found.isEmpty());
}

TEST(SelectorStrategies, NearKeepsWhatIsWithinTheDistanceNearestFirst)
{
    const Snapshot snapshot = form({
        {QStringLiteral("AXButton"), QStringLiteral("Delete"), {100, 100, 60, 24}},
        {QStringLiteral("AXButton"), QStringLiteral("Delete"), {100, 400, 60, 24}},
        {kStatic, QStringLiteral("invoice-17.pdf"), {10, 400, 80, 20}},
        {QStringLiteral("AXButton"), QStringLiteral("Delete"), {200, 400, 60, 24}},
    });
    const auto found = SelectorEngine::match(
        snapshot, parse(R"({"titleEquals":"Delete","near":{"titleEquals":"invoice-17.pdf"},"maxDistance":150})"));
    ASSERT_EQ(indexesOf(found), QList<int>({2, 4}));
    EXPECT_TRUE(reasonsOf(found.first()).contains(QStringLiteral("near \"invoice-17.pdf\" (10 px)")));
    EXPECT_GT(found.at(0).score, found.at(1).score);
}

TEST(SelectorStrategies, ByPathAndByRect)
{
    const Snapshot snapshot = cityZipForm();
    const auto byPath = SelectorEngine::match(snapshot, parse(R"({"byPath":[2]})"));
    ASSERT_EQ(indexesOf(byPath), QList<int>({3}));
    EXPECT_TRUE(reasonsOf(byPath.first()).contains(QStringLiteral("path is 2")));

    const auto byRect = SelectorEngine::match(
        snapshot, parse(R"({"byRole":"AXTextField","byRect":{"x":0,"y":40,"width":400,"height":40}})"));
    ASSERT_EQ(indexesOf(byRect), QList<int>({4}));
    EXPECT_TRUE(reasonsOf(byRect.first()).contains(QStringLiteral("centre inside the rect")));
}

TEST(SelectorStrategies, NthCountsInDocumentOrderNotByRank)
{
    Snapshot snapshot = cityZipForm();
    // The second field is hidden, so it ranks last; nth still counts it where it stands.
    snapshot.nodes[4].states = StateEnabled;
    const Selector fields = parse(R"({"byRole":"AXTextField"})");
    EXPECT_EQ(indexesOf(SelectorEngine::match(snapshot, fields)), QList<int>({2, 5, 4}));
    Selector nth = fields;
    nth.nth = 1;
    const auto second = SelectorEngine::match(snapshot, nth);
    ASSERT_EQ(indexesOf(second), QList<int>({4}));
    EXPECT_TRUE(reasonsOf(second.first()).contains(QStringLiteral("nth 1 of 3 in document order")));
    nth.nth = -1;
    EXPECT_EQ(indexesOf(SelectorEngine::match(snapshot, nth)), QList<int>({5}));
    nth.nth = 3;
    EXPECT_TRUE(SelectorEngine::match(snapshot, nth).isEmpty());
    nth.nth = -4;
    EXPECT_TRUE(SelectorEngine::match(snapshot, nth).isEmpty());
}

TEST(SelectorStrategies, DescriptionAndInWindow)
{
    const Snapshot snapshot = form({
        {QStringLiteral("AXButton"), QStringLiteral("Go"), {10, 10, 40, 20}, QStringLiteral("Start the upload")},
        {QStringLiteral("AXButton"), QStringLiteral("Go"), {60, 10, 40, 20}, QStringLiteral("Cancel the upload")},
    });
    const auto found = SelectorEngine::match(snapshot, parse(R"({"descriptionContains":"start"})"));
    ASSERT_EQ(indexesOf(found), QList<int>({1}));
    EXPECT_TRUE(reasonsOf(found.first()).contains(QStringLiteral("description contains \"start\"")));

    const auto inSettings = SelectorEngine::match(snapshot, parse(R"({"titleEquals":"Go","inWindow":"^sett"})"));
    ASSERT_EQ(inSettings.size(), 2);
    EXPECT_TRUE(reasonsOf(inSettings.first()).contains(QStringLiteral("in window \"Settings\"")));
    EXPECT_TRUE(SelectorEngine::match(snapshot, parse(R"({"titleEquals":"Go","inWindow":"Preferences"})")).isEmpty());
}

TEST(SelectorStrategies, GeometryWaitsForDetailsInTheSearchOnlyPass)
{
    Snapshot snapshot = cityZipForm();
    for (Node& node : snapshot.nodes)
        node.detailed = false;
    const Selector selector = parse(R"({"byRole":"AXTextField","labelledBy":{"titleEquals":"Zip"},"nth":0,
                                       "visibleOnly":true})");
    // Without frames nothing is decided: every field passes, without a reason for the label.
    const auto first = SelectorEngine::match(snapshot, SelectorEngine::relaxed(selector));
    EXPECT_EQ(indexesOf(first), QList<int>({2, 4, 5}));
    for (const auto& c : first)
        EXPECT_FALSE(reasonsOf(c).contains(QStringLiteral("labelled by")));
    EXPECT_EQ(SelectorEngine::anchors(snapshot, selector), QList<int>({3}));
    for (Node& node : snapshot.nodes)
        node.detailed = true;
    EXPECT_EQ(indexesOf(SelectorEngine::match(snapshot, selector)), QList<int>({4}));
}

TEST(SelectorStrategies, EveryStrategyHasItsReasonInCandidatesJson)
{
    Snapshot snapshot = cityZipForm();
    snapshot.nodes[3].labelFor = {4};
    const QJsonObject request = jsonObject(R"({"byRole":"AXTextField","labelledBy":{"titleEquals":"Zip"},
        "near":{"titleEquals":"City"},"byPath":[3],"byRect":{"x":0,"y":0,"width":800,"height":100},
        "inWindow":"Settings","nth":0})");
    const Selector selector = parse(QJsonDocument(request).toJson().constData());
    const auto found = SelectorEngine::match(snapshot, selector);
    const QJsonObject json = SelectorEngine::candidatesJson(snapshot, selector, found, request);
    const QJsonArray candidates = json.value(QStringLiteral("candidates")).toArray();
    ASSERT_EQ(candidates.size(), 1);
    QStringList reasons;
    for (const auto& r : candidates.first().toObject().value(QStringLiteral("reasons")).toArray())
        reasons.append(r.toString());
    const QString all = reasons.join(QStringLiteral("; "));
    for (const char* expected :
         {"role is AXTextField", "path is 3", "centre inside the rect", "labelled by \"Zip\" (relation)",
          "near \"City\"", "in window \"Settings\"", "nth 0 of 1 in document order"})
        EXPECT_TRUE(all.contains(QLatin1String(expected))) << expected << " in " << all.toStdString();
}

TEST(SelectorStrategies, ParsingRoundTripsAndNamesTheField)
{
    const char* full = R"({"byRole":"AXTextField","descriptionMatches":"^Post","byPath":[0,2,1],
        "byRect":{"x":1,"y":2,"width":3,"height":4},"labelledBy":{"titleEquals":"City","near":{"byRole":"AXGroup"}},
        "near":{"titleContains":"Shipping"},"maxDistance":80,"nth":-1,"inWindow":"Checkout"})";
    const Selector selector = parse(full);
    auto again = Selector::fromJson(selector.toJson());
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(again.value() == selector);
    EXPECT_TRUE(selector.needsRelations());
    EXPECT_TRUE(selector.needsDescription());

    const struct
    {
        const char* json;
        const char* field;
    } bad[] = {
        {R"({"byPath":[0,-1]})", "selector.byPath"},
        {R"({"byPath":"0/1"})", "selector.byPath"},
        {R"({"byRect":{"x":0,"y":0,"width":0,"height":5}})", "selector.byRect"},
        {R"({"byRole":"AXButton","maxDistance":10})", "selector.maxDistance"},
        {R"({"byRole":"AXButton","nth":5000})", "selector.nth"},
        {R"({"byRole":"AXButton","inWindow":"("})", "selector.inWindow"},
        {R"({"labelledBy":{"titleEquals":"x","bogus":1}})", "selector.labelledBy.bogus"},
        {R"({"labelledBy":{}})", "selector.labelledBy.byRole"},
        {R"({"near":{"near":{"near":{"byRole":"AXButton"}}}})", "selector.near.near.near"},
        {R"({"nth":0})", "selector.byRole"},
        {R"({"descriptionEquals":"a","descriptionContains":"b"})", "selector.descriptionContains"},
    };
    for (const auto& row : bad) {
        const auto parsed = Selector::fromJson(jsonObject(row.json));
        ASSERT_FALSE(parsed.ok()) << row.json;
        EXPECT_EQ(parsed.error().details.value(QStringLiteral("field")).toString(), QLatin1String(row.field))
            << row.json << ": " << parsed.error().message.toStdString();
    }
}
