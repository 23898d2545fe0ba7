// Automation types: frames, fingerprints, element refs and the ax.json tree (docs/protocol.md §4.5).
#include "automation/Types.h"
#include "UnitTestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTimeZone>

#include <gtest/gtest.h>

#include <functional>

using namespace Automation;
using UnitTest::jsonObject;
using UnitTest::keysOf;

namespace {

TEST(Frame, JsonRoundTrip)
{
    const Frame frame{12, 34, 56, 20};
    EXPECT_EQ(frame.toJson(), jsonObject(R"({"x":12,"y":34,"width":56,"height":20})"));
    EXPECT_EQ(Frame::fromJson(frame.toJson()), std::optional<Frame>(frame));
    EXPECT_EQ(Frame::fromJson(jsonObject(R"({"x":-5,"y":0,"width":1,"height":1})")),
              std::optional<Frame>(Frame{-5, 0, 1, 1}));
}

TEST(Frame, FromJsonRefusesIncompleteOrMistyped)
{
    for (const char* text : {R"({})", R"({"x":1,"y":2,"width":3})", R"({"x":"1","y":2,"width":3,"height":4})",
                             R"({"x":1,"y":2,"width":3,"height":null})"}) {
        SCOPED_TRACE(text);
        EXPECT_FALSE(Frame::fromJson(jsonObject(text)).has_value());
    }
}

TEST(Frame, EmptyAndCenter)
{
    EXPECT_TRUE((Frame{0, 0, 0, 10}).isEmpty());
    EXPECT_TRUE((Frame{0, 0, 10, -1}).isEmpty());
    EXPECT_FALSE((Frame{0, 0, 1, 1}).isEmpty());
    EXPECT_EQ((Frame{10, 20, 31, 41}).center(), QPoint(25, 40));
}

Node button()
{
    Node node;
    node.elementId = QStringLiteral("e:123");
    node.role = QStringLiteral("AXButton");
    node.nativeRole = QStringLiteral("push button");
    node.title = QStringLiteral("Send");
    node.frame = {12, 34, 56, 20};
    node.states = StateEnabled | StateVisible | StateShowing | StateFocusable;
    node.handle = QStringLiteral(":1.42/org/a11y/atspi/accessible/7");
    return node;
}

TEST(ElementRef, FingerprintIsTheContractFormat)
{
    EXPECT_EQ(fingerprintOf(button()), QStringLiteral("AXButton|Send|x=12,y=34,w=56,h=20"));
    Node untitled = button();
    untitled.title.clear();
    untitled.frame = {-3, 0, 0, 0};
    EXPECT_EQ(fingerprintOf(untitled), QStringLiteral("AXButton||x=-3,y=0,w=0,h=0"));
}

TEST(ElementRef, FromNodeMatchesContractExample)
{
    const ElementRef ref = ElementRef::fromNode(button());
    EXPECT_EQ(ref.toJson(), jsonObject(R"({"elementId":"e:123","fingerprint":"AXButton|Send|x=12,y=34,w=56,h=20",
        "role":"AXButton","title":"Send","value":null,"frame":{"x":12,"y":34,"width":56,"height":20}})"));
}

TEST(ElementRef, ValueOnlyWhenReadAndNotSecure)
{
    Node field = button();
    field.role = QStringLiteral("AXTextField");
    field.value = QStringLiteral("hello");
    EXPECT_FALSE(ElementRef::fromNode(field).value.has_value()); // not read

    field.hasValue = true;
    EXPECT_EQ(ElementRef::fromNode(field).value, std::optional<QString>(QStringLiteral("hello")));
    EXPECT_EQ(ElementRef::fromNode(field).toJson().value(QStringLiteral("value")), QJsonValue(QStringLiteral("hello")));

    field.states |= StateSecure;
    EXPECT_FALSE(ElementRef::fromNode(field).value.has_value());
    EXPECT_TRUE(ElementRef::fromNode(field).toJson().value(QStringLiteral("value")).isNull());
}

TEST(Node, StateNames)
{
    Node node;
    EXPECT_TRUE(node.stateNames().isEmpty());
    node.states = StateEnabled | StateSecure | StateModal;
    EXPECT_EQ(node.stateNames(),
              (QStringList{QStringLiteral("enabled"), QStringLiteral("secure"), QStringLiteral("modal")}));
    EXPECT_TRUE(node.has(StateSecure));
    EXPECT_FALSE(node.has(StateFocused));
}

// One definition of a secure element: the state bit, or a secure role or subrole in the AX
// vocabulary or the platform's, whichever a backend filled in.
TEST(Node, IsSecureByStateRoleOrSubrole)
{
    Node field = button();
    field.role = QStringLiteral("AXTextField");
    field.nativeRole = QStringLiteral("text");
    EXPECT_FALSE(field.isSecure());
    for (const auto& [what, apply] : std::initializer_list<std::pair<const char*, std::function<void(Node&)>>>{
             {"state", [](Node& n) { n.states |= StateSecure; }},
             {"subrole", [](Node& n) { n.subrole = QStringLiteral("AXSecureTextField"); }},
             {"AX role", [](Node& n) { n.role = QStringLiteral("AXSecureTextField"); }},
             {"AT-SPI role", [](Node& n) { n.nativeRole = QStringLiteral("password text"); }}}) {
        SCOPED_TRACE(what);
        Node secure = field;
        secure.value = QStringLiteral("hunter2");
        secure.hasValue = true;
        apply(secure);
        EXPECT_TRUE(secure.isSecure());
        EXPECT_TRUE(secure.stateNames().contains(QStringLiteral("secure")));
        EXPECT_FALSE(ElementRef::fromNode(secure).value.has_value());
        Snapshot snapshot;
        snapshot.nodes.append(secure);
        EXPECT_FALSE(QJsonDocument(snapshot.toJson()).toJson().contains("hunter2"));
    }
    EXPECT_TRUE(isSecureRole(QStringLiteral("password text")));
    EXPECT_TRUE(isSecureRole(QStringLiteral("axsecuretextfield")));
    EXPECT_FALSE(isSecureRole(QStringLiteral("AXTextField")));
    EXPECT_FALSE(isSecureRole(QString()));
}

// ax.json is written straight from the nodes; it must parse to the very document toJson()
// builds, whatever the strings hold.
TEST(Snapshot, JsonTextIsTheSameDocumentAsToJson)
{
    Snapshot snapshot;
    snapshot.appName = QStringLiteral("Tëst \"app\"");
    snapshot.pid = 42;
    snapshot.windowTitle = QStringLiteral("tab\there, newline\nthere, bell\a, 你好 🙂");
    Node window = button();
    window.role = QStringLiteral("AXWindow");
    window.title = snapshot.windowTitle;
    window.children = {1, 2, 3};
    window.path = {};
    Node field = button();
    field.role = QStringLiteral("AXTextField");
    field.title = QStringLiteral("back\\slash / \"quoted\" \x01\x1f");
    field.value = QStringLiteral("value with \r\n and \u2028");
    field.hasValue = true;
    field.identifier = QStringLiteral("id");
    field.description = QStringLiteral("described");
    field.subrole = QStringLiteral("AXSearchField");
    field.actions = {QStringLiteral("activate"), QStringLiteral("focus")};
    field.parent = 0;
    field.path = {0};
    Node secret = field;
    secret.states |= StateSecure;
    secret.value = QStringLiteral("hunter2");
    secret.path = {1};
    secret.children = {4};
    Node searchOnly = button();
    searchOnly.detailed = false;
    searchOnly.actions.clear();
    searchOnly.path = {2};
    Node leaf = button();
    leaf.path = {1, 0};
    leaf.parent = 2;
    snapshot.nodes = {window, field, secret, searchOnly, leaf};
    snapshot.truncated = true;
    snapshot.truncatedReason = QStringLiteral("maxNodes");
    const QJsonObject extra{{QStringLiteral("timing"), QJsonObject{{QStringLiteral("skewMs"), 3}}}};

    QJsonObject expected = snapshot.toJson();
    expected.insert(QStringLiteral("timing"), extra.value(QStringLiteral("timing")));
    QJsonParseError error{};
    const QJsonDocument parsed = QJsonDocument::fromJson(snapshot.toJsonText(extra), &error);
    ASSERT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString();
    EXPECT_EQ(parsed.object(), expected);
    EXPECT_FALSE(snapshot.toJsonText().contains("hunter2"));

    Snapshot empty;
    EXPECT_EQ(QJsonDocument::fromJson(empty.toJsonText()).object(), empty.toJson());
}

TEST(FocusPolicyNames, RoundTripAndUnknown)
{
    for (const auto policy : {FocusPolicy::FocusIfNeeded, FocusPolicy::RequireFocused, FocusPolicy::FailIfNotFocused})
        EXPECT_EQ(focusPolicyFromName(focusPolicyName(policy)), std::optional<FocusPolicy>(policy));
    EXPECT_FALSE(focusPolicyFromName(QStringLiteral("FocusIfNeeded")).has_value());
    EXPECT_FALSE(focusPolicyFromName(QString()).has_value());
}

TEST(Snapshot, JsonTreeKeepsHandlesInside)
{
    Snapshot snapshot;
    snapshot.appName = QStringLiteral("Fixture");
    snapshot.bundleId = QStringLiteral("org.example.fixture");
    snapshot.pid = 4242;
    snapshot.windowTitle = QStringLiteral("Main");
    snapshot.takenAt = QDateTime(QDate(2026, 2, 9), QTime(12, 0), QTimeZone::utc());
    Node root;
    root.elementId = QStringLiteral("e:0");
    root.role = QStringLiteral("AXWindow");
    root.handle = QStringLiteral("secret-handle-0");
    root.children = {1};
    Node child = button();
    child.parent = 0;
    child.path = {0};
    child.hasValue = true;
    child.value = QString();
    snapshot.nodes = {root, child};

    const QJsonObject json = snapshot.toJson();
    EXPECT_EQ(json.value(QStringLiteral("nodeCount")), QJsonValue(2));
    EXPECT_EQ(json.value(QStringLiteral("truncated")), QJsonValue(false));
    EXPECT_TRUE(json.value(QStringLiteral("truncatedReason")).isNull());
    EXPECT_EQ(json.value(QStringLiteral("takenAt")), QJsonValue(QStringLiteral("2026-02-09T12:00:00.000Z")));
    const QJsonObject rootJson = json.value(QStringLiteral("root")).toObject();
    EXPECT_EQ(rootJson.value(QStringLiteral("role")), QJsonValue(QStringLiteral("AXWindow")));
    EXPECT_FALSE(rootJson.contains(QStringLiteral("title"))); // empty title left out
    EXPECT_FALSE(rootJson.contains(QStringLiteral("value"))); // value not read
    const QJsonObject childJson = rootJson.value(QStringLiteral("children")).toArray().at(0).toObject();
    EXPECT_EQ(childJson.value(QStringLiteral("title")), QJsonValue(QStringLiteral("Send")));
    EXPECT_EQ(childJson.value(QStringLiteral("value")), QJsonValue(QString())); // read, and empty
    EXPECT_EQ(childJson.value(QStringLiteral("path")), QJsonValue(QJsonArray{0}));
    EXPECT_EQ(childJson.value(QStringLiteral("states")),
              QJsonValue(QJsonArray{QStringLiteral("enabled"), QStringLiteral("visible"), QStringLiteral("showing"),
                                    QStringLiteral("focusable")}));
    const QByteArray text = QJsonDocument(json).toJson();
    EXPECT_FALSE(text.contains("handle"));
    EXPECT_FALSE(text.contains("secret-handle-0"));
    EXPECT_FALSE(text.contains(":1.42/org/a11y"));

    snapshot.truncated = true;
    snapshot.truncatedReason = QStringLiteral("maxNodes");
    EXPECT_EQ(snapshot.metadataJson().value(QStringLiteral("truncatedReason")), QJsonValue(QStringLiteral("maxNodes")));
    EXPECT_TRUE(Snapshot().toJson().value(QStringLiteral("root")).isNull());
}

} // namespace
