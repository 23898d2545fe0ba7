// Snapshot, Selector and Route read back from the JSON they write: ax.json loads into a snapshot
// the selector engine treats exactly as the one that was written (docs/architecture.md,
// "Evidence: the read side").
#include "UnitTestSupport.h"
#include "automation/SelectorEngine.h"
#include "automation/Types.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTimeZone>

#include <gtest/gtest.h>

using namespace Automation;
using UnitTest::expectInvalidParam;
using UnitTest::jsonObject;
using UnitTest::jsonValue;

namespace {

// --- Selector and Route ---------------------------------------------------------------------------

TEST(SelectorJson, RequestSelectorsRoundTrip)
{
    // What a request sends, minus defaults, is what toJson gives back.
    for (const char* text : {
             R"({"byRole":"AXButton"})",
             R"({"byRole":"push_button","titleEquals":"Save","limit":1})",
             R"({"titleContains":"Sa","valueMatches":"^\\d+$","caseSensitive":true})",
             R"({"titleMatches":"(?i)save.*","valueEquals":"","byIdentifier":"name-field"})",
             R"({"valueContains":"你好 🙂","enabledOnly":true,"visibleOnly":true,"limit":1000})",
         }) {
        SCOPED_TRACE(text);
        const auto parsed = Selector::fromJson(jsonValue(text));
        ASSERT_TRUE(parsed.ok()) << parsed.error().message.toStdString();
        EXPECT_EQ(parsed->toJson(), jsonObject(text));
        const auto again = Selector::fromJson(parsed->toJson());
        ASSERT_TRUE(again.ok());
        EXPECT_TRUE(again.value() == parsed.value());
    }
}

TEST(SelectorJson, DefaultsAreLeftOutAndAccepted)
{
    const auto parsed =
        Selector::fromJson(jsonValue(R"({"byRole":"AXButton","limit":10,"enabledOnly":false,"caseSensitive":false})"));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->toJson(), jsonObject(R"({"byRole":"AXButton"})"));
}

TEST(SelectorJson, BuiltSelectorsRoundTrip)
{
    Selector selector;
    selector.title = TextMatch{TextMatch::Mode::Regex, QStringLiteral("^Sa"),
                               QRegularExpression(QStringLiteral("^Sa"), QRegularExpression::CaseInsensitiveOption)};
    selector.value = TextMatch{TextMatch::Mode::Contains, QStringLiteral("x"), {}};
    selector.limit = 3;
    const auto back = Selector::fromJson(selector.toJson());
    ASSERT_TRUE(back.ok()) << back.error().message.toStdString();
    EXPECT_TRUE(back.value() == selector);

    // Case sensitivity is part of the compiled regex, so it survives too.
    selector.caseSensitive = true;
    selector.title->regex = QRegularExpression(QStringLiteral("^Sa"));
    const auto sensitive = Selector::fromJson(selector.toJson());
    ASSERT_TRUE(sensitive.ok());
    EXPECT_TRUE(sensitive.value() == selector);
    EXPECT_EQ(sensitive->title->regex.patternOptions(), QRegularExpression::NoPatternOption);
}

TEST(SelectorJson, ErrorsNameTheFieldBelowTheGivenPrefix)
{
    expectInvalidParam(Selector::fromJson(jsonValue(R"("AXButton")")).error(), QStringLiteral("selector"));
    expectInvalidParam(Selector::fromJson(jsonValue(R"({})"), QStringLiteral("target.selector")).error(),
                       QStringLiteral("target.selector.byRole"));
    const auto typo = Selector::fromJson(jsonValue(R"({"titleContain":"x"})"), QStringLiteral("sel"));
    expectInvalidParam(typo.error(), QStringLiteral("sel.titleContain"));
    EXPECT_TRUE(typo.error().message.startsWith(QStringLiteral("sel.titleContain is not a known field (known: ")))
        << typo.error().message.toStdString();
}

TEST(RouteJson, RequestRoutesRoundTrip)
{
    for (
        const char* text : {
            R"({})",
            R"({"app":{"bundleId":"org.example.app"}})",
            R"({"app":{"pid":4242},"focusPolicy":"requireFocused"})",
            R"({"app":{"bundleId":"gedit","pid":1},"window":{"titlePattern":"^Untitled.*"},"focusPolicy":"failIfNotFocused"})",
            R"({"window":{"titlePattern":""},"focusPolicy":"focusIfNeeded"})",
            R"({"window":{"nativeId":"0x6008bd","titlePattern":"^Tk"}})",
        }) {
        SCOPED_TRACE(text);
        const auto parsed = Route::fromJson(jsonValue(text));
        ASSERT_TRUE(parsed.ok()) << parsed.error().message.toStdString();
        EXPECT_EQ(parsed->toJson(), jsonObject(text));
        const auto again = Route::fromJson(parsed->toJson());
        ASSERT_TRUE(again.ok());
        EXPECT_TRUE(again.value() == parsed.value());
    }
}

TEST(RouteJson, ErrorsNameTheField)
{
    expectInvalidParam(Route::fromJson(jsonValue("[]")).error(), QStringLiteral("route"));
    expectInvalidParam(Route::fromJson(jsonValue(R"({"app":{"pid":0}})")).error(), QStringLiteral("route.app.pid"));
    expectInvalidParam(Route::fromJson(jsonValue(R"({"window":{"titlePattern":"("}})"), QStringLiteral("r")).error(),
                       QStringLiteral("r.window.titlePattern"));
    expectInvalidParam(Route::fromJson(jsonValue(R"({"display":1})")).error(), QStringLiteral("route.display"));
    expectInvalidParam(Route::fromJson(jsonValue(R"({"window":{"nativeId":"window 3"}})")).error(),
                       QStringLiteral("route.window.nativeId"));
    expectInvalidParam(Route::fromJson(jsonValue(R"({"window":{"nativeId":"0x0"}})")).error(),
                       QStringLiteral("route.window.nativeId"));
    expectInvalidParam(Route::fromJson(jsonValue(R"({"window":{"nativeId":17}})")).error(),
                       QStringLiteral("route.window.nativeId"));
}

// --- Snapshot -------------------------------------------------------------------------------------

// Text that JSON escaping and UTF-8 must carry unchanged.
const QStringList kTexts = {
    QString(),
    QStringLiteral("Save"),
    QStringLiteral("save"),
    QStringLiteral("Save As…"),
    QStringLiteral("\"quoted\" and back\\slash"),
    QStringLiteral("tab\there, newline\nthere"),
    QStringLiteral("你好 🙂"),
    QStringLiteral("e\u0301 Straße İstanbul"),
    QString::fromUtf16(u"\u0001\u001f\u2028"),
    QStringLiteral("a+b (c) [d] {e} ^$ .*?"),
    QStringLiteral("Password"),
};
const QStringList kRoles = {QStringLiteral("AXButton"),     QStringLiteral("AXTextField"),
                            QStringLiteral("AXStaticText"), QStringLiteral("AXGroup"),
                            QStringLiteral("AXCheckBox"),   QStringLiteral("AXSecureTextField"),
                            QStringLiteral("AXMenuItem")};
const QStringList kNativeRoles = {QStringLiteral("push button"),
                                  QStringLiteral("text"),
                                  QStringLiteral("label"),
                                  QStringLiteral("panel"),
                                  QStringLiteral("toggle button"),
                                  QStringLiteral("password text"),
                                  QString()};
const QStringList kSubroles = {QString(),
                               QString(),
                               QString(),
                               QStringLiteral("AXToggle"),
                               QStringLiteral("AXSecureTextField"),
                               QStringLiteral("AXSearchField")};

class RandomSnapshot
{
public:
    explicit RandomSnapshot(quint32 seed) : m_random(seed) {}

    Snapshot make()
    {
        Snapshot s;
        s.appName = pick(kTexts);
        s.bundleId = QStringLiteral("org.example.app") + QString::number(m_random.bounded(100));
        s.pid = m_random.bounded(1, 1 << 22);
        s.windowTitle = pick(kTexts);
        s.bounds.maxDepth = m_random.bounded(1, 256);
        s.bounds.maxNodes = m_random.bounded(1, 100000);
        s.bounds.maxWallTimeMs = m_random.bounded(1, 600000);
        s.bounds.includeText = m_random.bounded(2) == 1;
        s.bounds.searchOnly = m_random.bounded(2) == 1;
        s.elapsedMs = m_random.bounded(100000);
        s.truncated = m_random.bounded(3) == 0;
        if (s.truncated)
            s.truncatedReason = QStringLiteral("maxNodes");
        s.takenAt =
            QDateTime::fromMSecsSinceEpoch(1'700'000'000'000LL + m_random.bounded(1'000'000'000), QTimeZone::utc());
        if (m_random.bounded(10) > 0)
            addNode(s, -1, 0);
        return s;
    }

private:
    QString pick(const QStringList& list) { return list.at(m_random.bounded(static_cast<int>(list.size()))); }

    // Nodes appended in document order (pre-order), as the backends give them.
    void addNode(Snapshot& s, int parent, int depth)
    {
        Node node;
        const int index = static_cast<int>(s.nodes.size());
        node.elementId = QStringLiteral("e:") + QString::number(index + 17);
        const int kind = m_random.bounded(static_cast<int>(kRoles.size()));
        node.role = kRoles.at(kind);
        node.nativeRole = kNativeRoles.at(kind);
        node.subrole = pick(kSubroles);
        node.title = pick(kTexts);
        node.identifier = m_random.bounded(4) == 0 ? pick(kTexts) : QString();
        node.description = m_random.bounded(4) == 0 ? pick(kTexts) : QString();
        node.hasValue = m_random.bounded(2) == 1;
        if (node.hasValue)
            node.value = pick(kTexts);
        node.handle = QStringLiteral(":1.%1/org/a11y/atspi/accessible/%2").arg(m_random.bounded(50)).arg(index);
        // A search-only node carries neither frame nor states in ax.json (see the test below).
        node.detailed = m_random.bounded(4) > 0;
        if (node.detailed) {
            node.frame = Frame{m_random.bounded(-100, 2000), m_random.bounded(-100, 2000), m_random.bounded(0, 500),
                               m_random.bounded(0, 500)};
            node.states = m_random.bounded(1u << 11);
            if (m_random.bounded(2) == 1)
                node.actions = {QStringLiteral("press"), pick(kTexts)};
        }
        node.parent = parent;
        if (parent >= 0) {
            node.path = s.nodes.at(parent).path;
            node.path.append(static_cast<int>(s.nodes.at(parent).children.size()));
            s.nodes[parent].children.append(index);
        }
        s.nodes.append(node);
        const int childCount = depth < 5 && s.nodes.size() < 80 ? m_random.bounded(0, 5 - depth) : 0;
        for (int i = 0; i < childCount; ++i)
            addNode(s, index, depth + 1);
    }

    QRandomGenerator m_random;
};

std::optional<QString> visibleValue(const Node& node)
{
    return node.hasValue && !node.isSecure() ? std::optional<QString>(node.value) : std::nullopt;
}

// Every field the selector engine, ElementRef and candidates.json use; the secure state bit may
// differ where a role already makes the node secure (ax.json writes "secure" for both).
void expectSameForMatching(const Snapshot& loaded, const Snapshot& written)
{
    EXPECT_EQ(loaded.appName, written.appName);
    EXPECT_EQ(loaded.bundleId, written.bundleId);
    EXPECT_EQ(loaded.pid, written.pid);
    EXPECT_EQ(loaded.windowTitle, written.windowTitle);
    EXPECT_EQ(loaded.bounds.maxDepth, written.bounds.maxDepth);
    EXPECT_EQ(loaded.bounds.maxNodes, written.bounds.maxNodes);
    EXPECT_EQ(loaded.bounds.maxWallTimeMs, written.bounds.maxWallTimeMs);
    EXPECT_EQ(loaded.bounds.includeText, written.bounds.includeText);
    EXPECT_EQ(loaded.bounds.searchOnly, written.bounds.searchOnly);
    EXPECT_EQ(loaded.elapsedMs, written.elapsedMs);
    EXPECT_EQ(loaded.truncated, written.truncated);
    EXPECT_EQ(loaded.truncatedReason, written.truncatedReason);
    EXPECT_EQ(loaded.takenAt, written.takenAt);
    ASSERT_EQ(loaded.nodes.size(), written.nodes.size());
    for (qsizetype i = 0; i < written.nodes.size(); ++i) {
        SCOPED_TRACE(i);
        const Node& a = loaded.nodes.at(i);
        const Node& b = written.nodes.at(i);
        EXPECT_EQ(a.elementId, b.elementId);
        EXPECT_EQ(a.role, b.role);
        EXPECT_EQ(a.subrole, b.subrole);
        EXPECT_EQ(a.nativeRole, b.nativeRole);
        EXPECT_EQ(a.title, b.title);
        EXPECT_EQ(visibleValue(a), visibleValue(b));
        EXPECT_EQ(a.identifier, b.identifier);
        EXPECT_EQ(a.description, b.description);
        EXPECT_EQ(a.detailed, b.detailed);
        EXPECT_EQ(a.frame, b.frame);
        EXPECT_EQ(a.states & ~quint32(StateSecure), b.states & ~quint32(StateSecure));
        EXPECT_EQ(a.isSecure(), b.isSecure());
        EXPECT_EQ(a.actions, b.actions);
        EXPECT_EQ(a.path, b.path);
        EXPECT_EQ(a.parent, b.parent);
        EXPECT_EQ(a.children, b.children);
        EXPECT_TRUE(a.handle.isEmpty()); // handles never leave the host
    }
}

QList<Selector> selectorsFor(QRandomGenerator& random)
{
    QList<Selector> out;
    for (int i = 0; i < 40; ++i) {
        QJsonObject json;
        switch (random.bounded(3)) {
        case 0:
            json.insert(QStringLiteral("byRole"), random.bounded(2) ? kRoles.at(random.bounded(int(kRoles.size())))
                                                                    : QStringLiteral("push_button"));
            break;
        case 1:
            json.insert(QStringLiteral("byIdentifier"), kTexts.at(random.bounded(1, int(kTexts.size()))));
            break;
        default:
            break;
        }
        const QString& text = kTexts.at(random.bounded(1, int(kTexts.size())));
        static const char* const kText[] = {"titleEquals", "titleContains", "titleMatches",
                                            "valueEquals", "valueContains", "valueMatches"};
        const char* key = kText[random.bounded(6)];
        json.insert(QLatin1String(key), QString::fromLatin1(key).endsWith(QLatin1String("Matches"))
                                            ? QRegularExpression::escape(text.left(3))
                                            : text.left(random.bounded(1, 5)));
        if (random.bounded(3) == 0)
            json.insert(QStringLiteral("caseSensitive"), true);
        if (random.bounded(3) == 0)
            json.insert(QStringLiteral("enabledOnly"), true);
        if (random.bounded(3) == 0)
            json.insert(QStringLiteral("visibleOnly"), true);
        const auto selector = Selector::fromJson(json);
        EXPECT_TRUE(selector.ok()) << QJsonDocument(json).toJson().toStdString();
        if (selector.ok())
            out.append(selector.value());
    }
    Selector everyButton;
    everyButton.byRole = QStringLiteral("AXButton");
    out.append(everyButton);
    return out;
}

TEST(SnapshotJson, AxJsonLoadsBackForTheSelectorEngine)
{
    for (quint32 seed = 1; seed <= 60; ++seed) {
        SCOPED_TRACE(seed);
        const Snapshot written = RandomSnapshot(seed).make();
        const QByteArray text =
            written.toJsonText(QJsonObject{{QStringLiteral("timing"), QJsonObject{{QStringLiteral("skewMs"), 3}}}});
        const auto loaded = Snapshot::fromJsonText(text);
        ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
        expectSameForMatching(loaded.value(), written);
        // Written again, it is the same file (without the extra members the loader ignores).
        EXPECT_EQ(loaded->toJsonText(), written.toJsonText());
        EXPECT_EQ(loaded->toJson(), written.toJson());

        QRandomGenerator random(seed);
        for (const Selector& selector : selectorsFor(random)) {
            const QList<Candidate> live = SelectorEngine::match(written, selector);
            const QList<Candidate> replayed = SelectorEngine::match(loaded.value(), selector);
            ASSERT_EQ(replayed.size(), live.size()) << QJsonDocument(selector.toJson()).toJson().toStdString();
            for (qsizetype i = 0; i < live.size(); ++i) {
                EXPECT_EQ(replayed.at(i).nodeIndex, live.at(i).nodeIndex);
                EXPECT_EQ(replayed.at(i).score, live.at(i).score);
                EXPECT_EQ(replayed.at(i).reasons, live.at(i).reasons);
            }
            EXPECT_EQ(SelectorEngine::candidatesJson(loaded.value(), selector, replayed, selector.toJson()),
                      SelectorEngine::candidatesJson(written, selector, live, selector.toJson()));
        }
    }
}

TEST(SnapshotJson, EmptySnapshotAndUnsetTime)
{
    const Snapshot empty;
    const auto loaded = Snapshot::fromJsonText(empty.toJsonText());
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_TRUE(loaded->nodes.isEmpty());
    EXPECT_FALSE(loaded->takenAt.isValid());
    EXPECT_EQ(loaded->toJsonText(), empty.toJsonText());
}

// ax.json holds no states for a node whose details were not read (a search-only walk): such a
// node loads with none, whatever the live node carried. Its role still says whether it is secure.
TEST(SnapshotJson, SearchOnlyNodesLoadWithoutStates)
{
    Snapshot s;
    Node password;
    password.elementId = QStringLiteral("e:1");
    password.role = QStringLiteral("AXTextField");
    password.nativeRole = QStringLiteral("password text");
    password.detailed = false;
    password.states = StateSecure | StateShowing;
    password.hasValue = true;
    password.value = QStringLiteral("hunter2");
    s.nodes = {password};
    const QByteArray text = s.toJsonText();
    EXPECT_FALSE(text.contains("hunter2"));
    const auto loaded = Snapshot::fromJsonText(text);
    ASSERT_TRUE(loaded.ok());
    EXPECT_FALSE(loaded->nodes.at(0).detailed);
    EXPECT_EQ(loaded->nodes.at(0).states, 0u);
    EXPECT_TRUE(loaded->nodes.at(0).isSecure());
    EXPECT_FALSE(loaded->nodes.at(0).hasValue);
}

TEST(SnapshotJson, UnknownStatesAndMembersAreIgnored)
{
    const auto loaded = Snapshot::fromJson(jsonObject(R"({"future":1,"root":{"elementId":"e:1","role":"AXButton",
        "states":["enabled","levitating"],"frame":{"x":1,"y":2,"width":3,"height":4},"extra":{}}})"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded->nodes.at(0).states, quint32(StateEnabled));
    EXPECT_EQ(loaded->nodes.at(0).frame, (Frame{1, 2, 3, 4}));
}

struct MalformedRow
{
    const char* name;
    const char* json;
    const char* field;

    friend void PrintTo(const MalformedRow& row, std::ostream* os) { *os << row.name; }
};

class SnapshotMalformed : public ::testing::TestWithParam<MalformedRow>
{
};

TEST_P(SnapshotMalformed, NamesTheField)
{
    const auto loaded = Snapshot::fromJson(jsonObject(GetParam().json));
    ASSERT_FALSE(loaded.ok());
    expectInvalidParam(loaded.error(), QString::fromUtf8(GetParam().field));
}

INSTANTIATE_TEST_SUITE_P(
    Rows, SnapshotMalformed,
    ::testing::Values(
        MalformedRow{"NoRoot", R"({"app":"x"})", "root"}, MalformedRow{"RootNotObject", R"({"root":[]})", "root"},
        MalformedRow{"RoleMissing", R"({"root":{"elementId":"e:1"}})", "root.role"},
        MalformedRow{"TitleNotString", R"({"root":{"elementId":"e:1","role":"AXWindow","title":7}})", "root.title"},
        MalformedRow{"ChildNotObject", R"({"root":{"elementId":"e:1","role":"AXWindow","children":[1]}})",
                     "root.children[0]"},
        MalformedRow{"DeepChild",
                     R"({"root":{"elementId":"e:1","role":"AXWindow","children":[{"elementId":"e:2","role":"AXGroup",
                         "children":[{"elementId":"e:3","role":"AXButton","states":["enabled",3]}]}]}})",
                     "root.children[0].children[0].states[1]"},
        MalformedRow{"BadFrame", R"({"root":{"elementId":"e:1","role":"AXWindow","frame":{"x":1}}})", "root.frame"},
        MalformedRow{"BadPath", R"({"root":{"elementId":"e:1","role":"AXWindow","path":[-1]}})", "root.path"},
        MalformedRow{"BadPid", R"({"pid":"42","root":null})", "pid"},
        MalformedRow{"BadBounds", R"({"bounds":{"maxDepth":true},"root":null})", "bounds.maxDepth"},
        MalformedRow{"BadTakenAt", R"({"takenAt":"yesterday","root":null})", "takenAt"}),
    UnitTest::RowName());

TEST(SnapshotJson, TextCutShortIsRefused)
{
    Snapshot s = RandomSnapshot(7).make();
    const QByteArray text = s.toJsonText();
    for (const qsizetype cut : {qsizetype(0), qsizetype(1), text.size() / 2, text.size() - 3}) {
        SCOPED_TRACE(cut);
        const auto loaded = Snapshot::fromJsonText(text.left(cut));
        ASSERT_FALSE(loaded.ok());
        EXPECT_EQ(loaded.error().code, ErrorCode::InvalidRequest);
        EXPECT_FALSE(loaded.error().message.isEmpty());
    }
    EXPECT_FALSE(Snapshot::fromJsonText("[1,2]").ok());
}

} // namespace

// A node whose children the snapshot leaves out says so in ax.json, both writers alike, with its
// count as an integer, and the tree lists it; reading ax.json back keeps it.
TEST(TypesJson, OmittedChildrenAreWrittenAndReadBack)
{
    Automation::Snapshot snapshot;
    Automation::Node window;
    window.role = QStringLiteral("AXWindow");
    window.title = QStringLiteral("Untitled 1 - LibreOffice Calc");
    Automation::Node sheet;
    sheet.role = QStringLiteral("AXTable");
    sheet.title = QStringLiteral("Sheet Sheet1");
    sheet.parent = 0;
    sheet.path = {0};
    sheet.omittedChildren = 2147483647;
    sheet.omittedReason = QStringLiteral("huge_container");
    window.children = {1};
    snapshot.nodes = {window, sheet};
    snapshot.truncated = true;
    snapshot.truncatedReason = QStringLiteral("huge_container");
    const QJsonObject built = snapshot.toJson();
    const QJsonObject written = QJsonDocument::fromJson(snapshot.toJsonText()).object();
    EXPECT_EQ(written, built) << "the two writers agree";
    const QJsonArray omitted = built.value(QStringLiteral("omitted")).toArray();
    ASSERT_EQ(omitted.size(), 1);
    EXPECT_EQ(omitted.at(0).toObject().value(QStringLiteral("childCount")).toInteger(), 2147483647);
    EXPECT_TRUE(QJsonDocument(built).toJson(QJsonDocument::Compact).contains("\"childCount\":2147483647"))
        << "never 2.14748e+09";
    const auto loaded = Automation::Snapshot::fromJson(built);
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded->nodes.at(1).omittedChildren, 2147483647);
    EXPECT_EQ(loaded->nodes.at(1).omittedReason, QStringLiteral("huge_container"));
}

// A pane's value of 2^31-1 is said as the integer it is, never as "2.14748e+09"; fractions keep
// their digits without binary noise.
TEST(TypesJson, NumericValuesStayIntegersWhereTheyAreWhole)
{
    EXPECT_EQ(Automation::numberText(2147483647.0), QStringLiteral("2147483647"));
    EXPECT_EQ(Automation::numberText(-3.0), QStringLiteral("-3"));
    EXPECT_EQ(Automation::numberText(0.0), QStringLiteral("0"));
    EXPECT_EQ(Automation::numberText(9007199254740992.0), QStringLiteral("9007199254740992"));
    EXPECT_EQ(Automation::numberText(0.1), QStringLiteral("0.1"));
    EXPECT_EQ(Automation::numberText(12.5), QStringLiteral("12.5"));
    EXPECT_EQ(Automation::numberText(1e300), QStringLiteral("1e+300"));
}
