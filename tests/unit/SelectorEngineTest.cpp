// Automation::SelectorEngine on hand-built snapshots (selectors: docs/protocol.md §4.4).
#include "automation/SelectorEngine.h"
#include "UnitTestSupport.h"

#include <QJsonArray>

#include <gtest/gtest.h>

using namespace Automation;
using UnitTest::jsonObject;

namespace {

constexpr quint32 kShown = StateVisible | StateShowing;
constexpr quint32 kNormal = kShown | StateEnabled;

struct NodeSpec
{
    QString role;
    QString title;
    quint32 states = kNormal;
    QString nativeRole = {};
    QString value = {};
    bool hasValue = false;
    QString identifier = {};
    QString subrole = {};
};

/// A window (node 0) holding the given nodes as its children, in document order. Node i of the
/// spec list becomes snapshot node i + 1, with elementId "e:<i+1>".
Snapshot snapshotOf(const QList<NodeSpec>& specs)
{
    Snapshot snapshot;
    snapshot.appName = QStringLiteral("Fixture");
    snapshot.bundleId = QStringLiteral("org.example.fixture");
    snapshot.pid = 4242;
    snapshot.windowTitle = QStringLiteral("Main");
    Node root;
    root.elementId = QStringLiteral("e:0");
    root.role = QStringLiteral("AXWindow");
    root.nativeRole = QStringLiteral("frame");
    root.title = QStringLiteral("Main");
    root.frame = {0, 0, 800, 600};
    root.states = kNormal;
    snapshot.nodes.append(root);
    for (int i = 0; i < specs.size(); ++i) {
        const NodeSpec& spec = specs.at(i);
        Node node;
        node.elementId = QStringLiteral("e:") + QString::number(i + 1);
        node.role = spec.role;
        node.subrole = spec.subrole;
        node.nativeRole = spec.nativeRole;
        node.title = spec.title;
        node.value = spec.value;
        node.hasValue = spec.hasValue;
        node.identifier = spec.identifier;
        node.states = spec.states;
        node.frame = {10 * i, 20, 100, 30};
        node.path = {i};
        node.parent = 0;
        snapshot.nodes[0].children.append(i + 1);
        snapshot.nodes.append(node);
    }
    return snapshot;
}

TextMatch text(TextMatch::Mode mode, const QString& pattern, bool caseSensitive = false)
{
    TextMatch match{mode, pattern, {}};
    if (mode == TextMatch::Mode::Regex)
        match.regex = QRegularExpression(pattern, caseSensitive ? QRegularExpression::NoPatternOption
                                                                : QRegularExpression::CaseInsensitiveOption);
    return match;
}

Selector titleSelector(TextMatch::Mode mode, const QString& pattern)
{
    Selector selector;
    selector.title = text(mode, pattern);
    return selector;
}

QList<int> indexes(const QList<Candidate>& candidates)
{
    QList<int> out;
    for (const auto& c : candidates)
        out.append(c.nodeIndex);
    return out;
}

QList<int> scores(const QList<Candidate>& candidates)
{
    QList<int> out;
    for (const auto& c : candidates)
        out.append(c.score);
    return out;
}

// --- roles ---------------------------------------------------------------------------------------

struct RoleRow
{
    const char* name;
    const char* query;
    bool matches;

    friend void PrintTo(const RoleRow& row, std::ostream* os) { *os << row.name; }
};

class SelectorRole : public ::testing::TestWithParam<RoleRow>
{
};

TEST_P(SelectorRole, AxOrNativeName)
{
    Node node;
    node.role = QStringLiteral("AXButton");
    node.nativeRole = QStringLiteral("push button");
    EXPECT_EQ(SelectorEngine::roleMatches(node, QString::fromLatin1(GetParam().query)), GetParam().matches);
}

INSTANTIATE_TEST_SUITE_P(Rows, SelectorRole,
                         ::testing::Values(RoleRow{"AxExact", "AXButton", true},
                                           RoleRow{"AxIsCaseSensitive", "axbutton", false},
                                           RoleRow{"NativeWithSpace", "push button", true},
                                           RoleRow{"NativeWithUnderscore", "push_button", true},
                                           RoleRow{"NativeCaseInsensitive", "Push Button", true},
                                           RoleRow{"NativeUnderscoreUpperCase", "PUSH_BUTTON", true},
                                           RoleRow{"NativePrefixOnly", "push", false},
                                           RoleRow{"NativeSuffixOnly", "button", false},
                                           RoleRow{"OtherAxRole", "AXTextField", false}, RoleRow{"Empty", "", false}),
                         UnitTest::RowName());

TEST(SelectorRoleMatches, SubroleAndMissingNativeRole)
{
    Node secure;
    secure.role = QStringLiteral("AXTextField");
    secure.subrole = QStringLiteral("AXSecureTextField");
    secure.nativeRole = QStringLiteral("password text");
    EXPECT_TRUE(SelectorEngine::roleMatches(secure, QStringLiteral("AXTextField")));
    EXPECT_TRUE(SelectorEngine::roleMatches(secure, QStringLiteral("AXSecureTextField")));
    EXPECT_TRUE(SelectorEngine::roleMatches(secure, QStringLiteral("password_text")));

    Node bare;
    bare.role = QStringLiteral("AXGroup");
    EXPECT_TRUE(SelectorEngine::roleMatches(bare, QStringLiteral("AXGroup")));
    EXPECT_FALSE(SelectorEngine::roleMatches(bare, QString()));
    EXPECT_FALSE(SelectorEngine::roleMatches(bare, QStringLiteral("group")));
}

TEST(SelectorEngine, ByRoleKeepsOnlyThatRole)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("Send"), kNormal, QStringLiteral("push button")},
        {QStringLiteral("AXStaticText"), QStringLiteral("Send"), kNormal, QStringLiteral("label")},
        {QStringLiteral("AXButton"), QStringLiteral("Cancel"), kNormal, QStringLiteral("push button")},
    });
    Selector byAx;
    byAx.byRole = QStringLiteral("AXButton");
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, byAx)), (QList<int>{1, 3}));

    Selector byNative;
    byNative.byRole = QStringLiteral("push_button");
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, byNative)), (QList<int>{1, 3}));

    Selector window;
    window.byRole = QStringLiteral("AXWindow");
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, window)), (QList<int>{0}));
}

TEST(SelectorEngine, AllCriteriaMustHold)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXStaticText"), QStringLiteral("Send")},
        {QStringLiteral("AXButton"), QStringLiteral("Cancel")},
        {QStringLiteral("AXButton"), QStringLiteral("Send")},
    });
    Selector selector = titleSelector(TextMatch::Mode::Contains, QStringLiteral("Send"));
    selector.byRole = QStringLiteral("AXButton");
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, selector)), (QList<int>{3}));
}

// --- text ----------------------------------------------------------------------------------------

TEST(SelectorEngine, TitleContainsIsCaseInsensitiveByDefault)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("send later")},
        {QStringLiteral("AXButton"), QStringLiteral("Cancel")},
        {QStringLiteral("AXButton"), QStringLiteral("SEND NOW")},
        {QStringLiteral("AXButton"), QStringLiteral("Send")},
    });
    const auto candidates =
        SelectorEngine::match(snapshot, titleSelector(TextMatch::Mode::Contains, QStringLiteral("send")));
    // The whole-title hit first, then the partial ones in document order.
    EXPECT_EQ(indexes(candidates), (QList<int>{4, 1, 3}));
    EXPECT_EQ(scores(candidates), (QList<int>{190 + 12, 100 + 12, 100 + 12}));
}

TEST(SelectorEngine, CaseSensitiveIsRespected)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("Send")},
        {QStringLiteral("AXButton"), QStringLiteral("send later")},
    });
    Selector contains = titleSelector(TextMatch::Mode::Contains, QStringLiteral("send"));
    contains.caseSensitive = true;
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, contains)), (QList<int>{2}));

    Selector equals = titleSelector(TextMatch::Mode::Equals, QStringLiteral("send"));
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, equals)), (QList<int>{1}));
    equals.caseSensitive = true;
    EXPECT_TRUE(SelectorEngine::match(snapshot, equals).isEmpty());
}

TEST(SelectorEngine, ExactTitleOutranksContainsEvenWhenHiddenAndDisabled)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("Send later"), kNormal},
        {QStringLiteral("AXButton"), QStringLiteral("Send"), 0},
    });
    const auto candidates =
        SelectorEngine::match(snapshot, titleSelector(TextMatch::Mode::Contains, QStringLiteral("Send")));
    EXPECT_EQ(indexes(candidates), (QList<int>{2, 1}));
    EXPECT_EQ(scores(candidates), (QList<int>{190, 112}));
}

TEST(SelectorEngine, TitleEqualsDoesNotMatchPartial)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("Send later")},
        {QStringLiteral("AXButton"), QStringLiteral("send")},
    });
    const auto candidates =
        SelectorEngine::match(snapshot, titleSelector(TextMatch::Mode::Equals, QStringLiteral("Send")));
    EXPECT_EQ(indexes(candidates), (QList<int>{2}));
    EXPECT_EQ(scores(candidates), (QList<int>{200 + 12}));
}

TEST(SelectorEngine, VisibleAndEnabledOutrankAtEqualTextScore)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("OK"), 0},                           // hidden, disabled
        {QStringLiteral("AXButton"), QStringLiteral("OK"), StateVisible},                // visible, disabled
        {QStringLiteral("AXButton"), QStringLiteral("OK"), StateEnabled},                // hidden, enabled
        {QStringLiteral("AXButton"), QStringLiteral("OK"), StateShowing | StateEnabled}, // visible, enabled
    });
    const auto candidates =
        SelectorEngine::match(snapshot, titleSelector(TextMatch::Mode::Equals, QStringLiteral("OK")));
    EXPECT_EQ(indexes(candidates), (QList<int>{4, 2, 3, 1}));
    EXPECT_EQ(scores(candidates), (QList<int>{212, 208, 204, 200}));
}

TEST(SelectorEngine, DocumentOrderBreaksTies)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("Other")},
        {QStringLiteral("AXButton"), QStringLiteral("Go")},
        {QStringLiteral("AXButton"), QStringLiteral("Go")},
        {QStringLiteral("AXButton"), QStringLiteral("Go")},
    });
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, titleSelector(TextMatch::Mode::Equals, QStringLiteral("Go")))),
              (QList<int>{2, 3, 4}));
}

TEST(SelectorEngine, EnabledOnlyAndVisibleOnlyFilter)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("OK"), 0},
        {QStringLiteral("AXButton"), QStringLiteral("OK"), StateVisible},
        {QStringLiteral("AXButton"), QStringLiteral("OK"), StateEnabled},
        {QStringLiteral("AXButton"), QStringLiteral("OK"), StateShowing | StateEnabled},
    });
    Selector selector = titleSelector(TextMatch::Mode::Equals, QStringLiteral("OK"));
    selector.enabledOnly = true;
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, selector)), (QList<int>{4, 3}));
    selector.enabledOnly = false;
    selector.visibleOnly = true;
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, selector)), (QList<int>{4, 2}));
    selector.enabledOnly = true;
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, selector)), (QList<int>{4}));
}

TEST(SelectorEngine, ValueNeverMatchesSecureOrUnreadNodes)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXTextField"), QStringLiteral("Password"), kNormal | StateSecure,
         QStringLiteral("password text"), QStringLiteral("hello secret"), true},
        {QStringLiteral("AXTextField"), QStringLiteral("Unread"), kNormal, QStringLiteral("text"),
         QStringLiteral("hello unread"), false},
        {QStringLiteral("AXTextField"), QStringLiteral("Message"), kNormal, QStringLiteral("text"),
         QStringLiteral("hello world"), true},
    });
    for (const auto mode : {TextMatch::Mode::Contains, TextMatch::Mode::Regex}) {
        Selector selector;
        selector.value = text(mode, QStringLiteral("hello"));
        EXPECT_EQ(indexes(SelectorEngine::match(snapshot, selector)), (QList<int>{3}));
    }
    Selector equals;
    equals.value = text(TextMatch::Mode::Equals, QStringLiteral("hello secret"));
    EXPECT_TRUE(SelectorEngine::match(snapshot, equals).isEmpty());
}

TEST(SelectorEngine, EmptyReadValueMatchesEmptyEquals)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXTextField"), QString(), kNormal, {}, QString(), true},
        {QStringLiteral("AXTextField"), QString(), kNormal, {}, QString(), false},
    });
    Selector selector;
    selector.value = text(TextMatch::Mode::Equals, QString());
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, selector)), (QList<int>{1}));
}

TEST(SelectorEngine, Regex)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("Send")},
        {QStringLiteral("AXButton"), QStringLiteral("Sender")},
        {QStringLiteral("AXButton"), QStringLiteral("send")},
        {QStringLiteral("AXButton"), QStringLiteral("Resend")},
    });
    const auto candidates =
        SelectorEngine::match(snapshot, titleSelector(TextMatch::Mode::Regex, QStringLiteral("^se.d$")));
    EXPECT_EQ(indexes(candidates), (QList<int>{1, 3}));
    EXPECT_EQ(scores(candidates), (QList<int>{162, 162}));

    Selector unanchored = titleSelector(TextMatch::Mode::Regex, QStringLiteral("end"));
    EXPECT_EQ(indexes(SelectorEngine::match(snapshot, unanchored)), (QList<int>{1, 2, 3, 4}));
}

TEST(SelectorEngine, ByIdentifierIsExact)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("Send"), kNormal, {}, {}, false, QStringLiteral("sendButton")},
        {QStringLiteral("AXButton"), QStringLiteral("Send"), kNormal, {}, {}, false, QStringLiteral("SendButton")},
        {QStringLiteral("AXButton"), QStringLiteral("Send"), kNormal, {}, {}, false, QStringLiteral("sendButton2")},
    });
    Selector selector;
    selector.byIdentifier = QStringLiteral("sendButton");
    const auto candidates = SelectorEngine::match(snapshot, selector);
    EXPECT_EQ(indexes(candidates), (QList<int>{1}));
    EXPECT_EQ(scores(candidates), (QList<int>{412}));
}

// --- reasons -------------------------------------------------------------------------------------

struct ReasonRow
{
    const char* name;
    Selector selector;
    quint32 states;
    QStringList reasons;
    int score;

    friend void PrintTo(const ReasonRow& row, std::ostream* os) { *os << row.name; }
};

Selector withRole(Selector selector)
{
    selector.byRole = QStringLiteral("AXButton");
    return selector;
}

class SelectorReasons : public ::testing::TestWithParam<ReasonRow>
{
};

TEST_P(SelectorReasons, ListWhatMatched)
{
    const ReasonRow& row = GetParam();
    const Snapshot snapshot =
        snapshotOf({{QStringLiteral("AXButton"), QStringLiteral("Send"), row.states, QStringLiteral("push button"),
                     QStringLiteral("hello"), true, QStringLiteral("sendButton")}});
    const auto candidates = SelectorEngine::match(snapshot, row.selector);
    ASSERT_EQ(candidates.size(), 1);
    EXPECT_EQ(candidates.at(0).nodeIndex, 1);
    EXPECT_EQ(candidates.at(0).reasons, row.reasons);
    EXPECT_EQ(candidates.at(0).score, row.score);
}

Selector identifierAndValue()
{
    Selector selector;
    selector.byIdentifier = QStringLiteral("sendButton");
    selector.value = text(TextMatch::Mode::Contains, QStringLiteral("hel"));
    return selector;
}

INSTANTIATE_TEST_SUITE_P(
    Rows, SelectorReasons,
    ::testing::Values(
        ReasonRow{"RoleAndContains",
                  withRole(titleSelector(TextMatch::Mode::Contains, QStringLiteral("Sen"))),
                  kNormal,
                  {QStringLiteral("role is AXButton"), QStringLiteral("title contains \"Sen\""),
                   QStringLiteral("visible"), QStringLiteral("enabled")},
                  50 + 100 + 12},
        ReasonRow{"WholeTitleContains",
                  titleSelector(TextMatch::Mode::Contains, QStringLiteral("send")),
                  kNormal,
                  {QStringLiteral("title is \"send\""), QStringLiteral("visible"), QStringLiteral("enabled")},
                  190 + 12},
        ReasonRow{"Equals",
                  titleSelector(TextMatch::Mode::Equals, QStringLiteral("Send")),
                  0,
                  {QStringLiteral("title equals \"Send\""), QStringLiteral("hidden"), QStringLiteral("disabled")},
                  200},
        ReasonRow{"Regex",
                  titleSelector(TextMatch::Mode::Regex, QStringLiteral("^S")),
                  StateShowing,
                  {QStringLiteral("title matches /^S/"), QStringLiteral("visible"), QStringLiteral("disabled")},
                  158},
        ReasonRow{"IdentifierAndValue",
                  identifierAndValue(),
                  StateEnabled,
                  {QStringLiteral("identifier is sendButton"), QStringLiteral("value contains \"hel\""),
                   QStringLiteral("hidden"), QStringLiteral("enabled")},
                  400 + 100 + 4}),
    UnitTest::RowName());

// --- candidates.json -----------------------------------------------------------------------------

TEST(SelectorEngine, CandidatesJson)
{
    const Snapshot snapshot = snapshotOf({
        {QStringLiteral("AXButton"), QStringLiteral("Send later"), kNormal, QStringLiteral("push button")},
        {QStringLiteral("AXButton"), QStringLiteral("Send"), kNormal, QStringLiteral("push button")},
        {QStringLiteral("AXButton"), QStringLiteral("Send"), 0, QStringLiteral("push button")},
    });
    Selector selector = titleSelector(TextMatch::Mode::Contains, QStringLiteral("Send"));
    selector.limit = 2;
    const QJsonObject selectorJson = jsonObject(R"({"titleContains":"Send","limit":2})");
    const auto candidates = SelectorEngine::match(snapshot, selector);
    ASSERT_EQ(indexes(candidates), (QList<int>{2, 3, 1}));

    const QJsonObject json = SelectorEngine::candidatesJson(snapshot, selector, candidates, selectorJson);
    EXPECT_EQ(json.value(QStringLiteral("selector")), QJsonValue(selectorJson));
    EXPECT_EQ(json.value(QStringLiteral("limit")), QJsonValue(2));
    EXPECT_EQ(json.value(QStringLiteral("matched")), QJsonValue(3));
    EXPECT_EQ(json.value(QStringLiteral("snapshot")).toObject().value(QStringLiteral("nodeCount")), QJsonValue(4));
    EXPECT_EQ(json.value(QStringLiteral("snapshot")).toObject().value(QStringLiteral("app")),
              QJsonValue(QStringLiteral("org.example.fixture")));

    const QJsonArray list = json.value(QStringLiteral("candidates")).toArray();
    ASSERT_EQ(list.size(), 3);
    const int expectedScores[] = {202, 190, 112};
    const bool expectedReturned[] = {true, true, false};
    const char* expectedIds[] = {"e:2", "e:3", "e:1"};
    for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE(i);
        const QJsonObject entry = list.at(i).toObject();
        EXPECT_EQ(entry.value(QStringLiteral("rank")), QJsonValue(i + 1));
        EXPECT_EQ(entry.value(QStringLiteral("score")), QJsonValue(expectedScores[i]));
        EXPECT_EQ(entry.value(QStringLiteral("returned")), QJsonValue(expectedReturned[i]));
        EXPECT_EQ(entry.value(QStringLiteral("elementId")), QJsonValue(QString::fromLatin1(expectedIds[i])));
        EXPECT_EQ(entry.value(QStringLiteral("nativeRole")), QJsonValue(QStringLiteral("push button")));
        EXPECT_EQ(entry.value(QStringLiteral("reasons")).toArray(),
                  QJsonArray::fromStringList(candidates.at(i).reasons));
        EXPECT_FALSE(entry.contains(QStringLiteral("handle")));
    }
    const QJsonObject first = list.at(0).toObject();
    EXPECT_EQ(first.value(QStringLiteral("role")), QJsonValue(QStringLiteral("AXButton")));
    EXPECT_EQ(first.value(QStringLiteral("title")), QJsonValue(QStringLiteral("Send")));
    EXPECT_EQ(first.value(QStringLiteral("fingerprint")),
              QJsonValue(QStringLiteral("AXButton|Send|x=10,y=20,w=100,h=30")));
    EXPECT_EQ(first.value(QStringLiteral("frame")),
              QJsonValue(jsonObject(R"({"x":10,"y":20,"width":100,"height":30})")));
    EXPECT_EQ(first.value(QStringLiteral("reasons")).toArray(),
              (QJsonArray{QStringLiteral("title is \"Send\""), QStringLiteral("visible"), QStringLiteral("enabled")}));
}

TEST(SelectorEngine, CandidatesJsonNeverShowsSecureValue)
{
    Snapshot snapshot = snapshotOf({{QStringLiteral("AXTextField"), QStringLiteral("Password"), kNormal | StateSecure,
                                     QStringLiteral("password text"), QStringLiteral("hunter2"), true}});
    Selector selector;
    selector.byRole = QStringLiteral("AXTextField");
    const auto candidates = SelectorEngine::match(snapshot, selector);
    ASSERT_EQ(candidates.size(), 1);
    const QJsonObject json = SelectorEngine::candidatesJson(snapshot, selector, candidates, {});
    const QJsonObject entry = json.value(QStringLiteral("candidates")).toArray().at(0).toObject();
    ASSERT_TRUE(entry.contains(QStringLiteral("value")));
    EXPECT_TRUE(entry.value(QStringLiteral("value")).isNull());
    EXPECT_FALSE(QJsonDocument(json).toJson().contains("hunter2"));
}

TEST(SelectorEngine, NoCandidates)
{
    const Snapshot empty;
    Selector selector;
    selector.byRole = QStringLiteral("AXButton");
    EXPECT_TRUE(SelectorEngine::match(empty, selector).isEmpty());

    const Snapshot snapshot = snapshotOf({{QStringLiteral("AXButton"), QStringLiteral("Send")}});
    const auto none = SelectorEngine::match(snapshot, titleSelector(TextMatch::Mode::Contains, QStringLiteral("zzz")));
    EXPECT_TRUE(none.isEmpty());
    const QJsonObject json = SelectorEngine::candidatesJson(snapshot, selector, none, {});
    EXPECT_EQ(json.value(QStringLiteral("matched")), QJsonValue(0));
    EXPECT_TRUE(json.value(QStringLiteral("candidates")).toArray().isEmpty());
    EXPECT_EQ(json.value(QStringLiteral("limit")), QJsonValue(10));
}

} // namespace

TEST(SelectorRoleMatches, AToggleButtonIsAButton)
{
    // galculator's keys are GTK toggle buttons: AXCheckBox/AXToggle. A person writes AXButton.
    Node key;
    key.role = QStringLiteral("AXCheckBox");
    key.subrole = QStringLiteral("AXToggle");
    key.nativeRole = QStringLiteral("toggle button");
    EXPECT_TRUE(SelectorEngine::roleMatches(key, QStringLiteral("AXButton")));
    EXPECT_TRUE(SelectorEngine::roleMatches(key, QStringLiteral("AXCheckBox")));
    // A plain check box is not a button.
    Node box;
    box.role = QStringLiteral("AXCheckBox");
    box.nativeRole = QStringLiteral("check box");
    EXPECT_FALSE(SelectorEngine::roleMatches(box, QStringLiteral("AXButton")));
}
