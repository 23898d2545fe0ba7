// Bridge::Params: each method's params become a typed struct or an error naming the field
// (docs/protocol.md §4 and §5).
#include "bridge/Params.h"
#include "UnitTestSupport.h"

#include <gtest/gtest.h>

using Automation::Error;
using Automation::FocusPolicy;
using Automation::TextMatch;
using namespace Bridge;
using UnitTest::jsonObject;

namespace {

// --- happy paths: the contract's own examples ----------------------------------------------------

TEST(ParamsObserve, ContractExample)
{
    const auto p = Params::observe(jsonObject(R"({
        "meta": {"schemaVersion": 1, "requestId": "123e4567-e89b-12d3-a456-426614174000"},
        "route": {"app": {"bundleId": "com.apple.Safari"}, "window": {"titlePattern": ".*Safari.*"},
                  "focusPolicy": "focusIfNeeded"},
        "options": {"includeScreenshot": true, "includeAxTree": true, "axMaxDepth": 8, "axMaxNodes": 2000}
    })"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_EQ(p->route.bundleId, std::optional<QString>(QStringLiteral("com.apple.Safari")));
    EXPECT_FALSE(p->route.pid.has_value());
    EXPECT_EQ(p->route.windowTitlePattern, std::optional<QString>(QStringLiteral(".*Safari.*")));
    EXPECT_EQ(p->route.focusPolicy, std::optional<FocusPolicy>(FocusPolicy::FocusIfNeeded));
    EXPECT_TRUE(p->includeScreenshot);
    EXPECT_TRUE(p->includeAxTree);
    EXPECT_EQ(p->bounds.maxDepth, 8);
    EXPECT_EQ(p->bounds.maxNodes, 2000);
    EXPECT_EQ(p->bounds.maxWallTimeMs, 10000);
    EXPECT_FALSE(p->bounds.includeText);
}

TEST(ParamsObserve, DefaultsAndEveryOption)
{
    const auto defaults = Params::observe(QJsonObject{});
    ASSERT_TRUE(defaults.ok());
    EXPECT_FALSE(defaults->route.bundleId.has_value());
    EXPECT_FALSE(defaults->route.focusPolicy.has_value());
    EXPECT_TRUE(defaults->includeScreenshot);
    EXPECT_TRUE(defaults->includeAxTree);
    EXPECT_EQ(defaults->bounds.maxDepth, 8);
    EXPECT_EQ(defaults->bounds.maxNodes, 2000);
    EXPECT_EQ(defaults->bounds.maxWallTimeMs, 10000);
    EXPECT_FALSE(defaults->bounds.includeText);

    const auto all = Params::observe(jsonObject(R"({
        "route": {"app": {"pid": 4242}},
        "options": {"includeScreenshot": false, "includeAxTree": false, "axMaxDepth": 3, "axMaxNodes": 50,
                    "axMaxWallTimeMs": 500, "includeText": true}
    })"));
    ASSERT_TRUE(all.ok()) << all.error().message.toStdString();
    EXPECT_EQ(all->route.pid, std::optional<qint64>(4242));
    EXPECT_FALSE(all->includeScreenshot);
    EXPECT_FALSE(all->includeAxTree);
    EXPECT_EQ(all->bounds.maxDepth, 3);
    EXPECT_EQ(all->bounds.maxNodes, 50);
    EXPECT_EQ(all->bounds.maxWallTimeMs, 500);
    EXPECT_TRUE(all->bounds.includeText);
}

TEST(ParamsFind, ContractExample)
{
    const QJsonObject selectorJson =
        jsonObject(R"({"byRole": "AXButton", "titleContains": "Send", "valueContains": "hello", "limit": 5})");
    const auto p = Params::find(QJsonObject{{QStringLiteral("selector"), selectorJson}});
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_EQ(p->selector.byRole, std::optional<QString>(QStringLiteral("AXButton")));
    ASSERT_TRUE(p->selector.title.has_value());
    EXPECT_EQ(p->selector.title->mode, TextMatch::Mode::Contains);
    EXPECT_EQ(p->selector.title->pattern, QStringLiteral("Send"));
    ASSERT_TRUE(p->selector.value.has_value());
    EXPECT_EQ(p->selector.value->mode, TextMatch::Mode::Contains);
    EXPECT_EQ(p->selector.value->pattern, QStringLiteral("hello"));
    EXPECT_FALSE(p->selector.byIdentifier.has_value());
    EXPECT_FALSE(p->selector.caseSensitive);
    EXPECT_FALSE(p->selector.enabledOnly);
    EXPECT_FALSE(p->selector.visibleOnly);
    EXPECT_EQ(p->selector.limit, 5);
    EXPECT_TRUE(p->selector.needsText());
    EXPECT_EQ(p->selectorJson, selectorJson);
}

TEST(ParamsFind, LimitDefaultsToTen)
{
    const auto p = Params::find(jsonObject(R"({"selector": {"byRole": "AXButton"}})"));
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->selector.limit, 10);
    EXPECT_FALSE(p->selector.title.has_value());
    EXPECT_FALSE(p->selector.needsText());
}

TEST(ParamsFind, EveryCriterion)
{
    const auto p = Params::find(jsonObject(R"({"selector": {"titleEquals": "Send", "valueMatches": "^h.*o$",
        "byIdentifier": "sendButton", "enabledOnly": true, "visibleOnly": true, "caseSensitive": true,
        "limit": 1000}})"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_FALSE(p->selector.byRole.has_value());
    ASSERT_TRUE(p->selector.title.has_value());
    EXPECT_EQ(p->selector.title->mode, TextMatch::Mode::Equals);
    EXPECT_EQ(p->selector.title->pattern, QStringLiteral("Send"));
    ASSERT_TRUE(p->selector.value.has_value());
    EXPECT_EQ(p->selector.value->mode, TextMatch::Mode::Regex);
    EXPECT_EQ(p->selector.value->pattern, QStringLiteral("^h.*o$"));
    EXPECT_TRUE(p->selector.value->regex.isValid());
    // caseSensitive: the regex is compiled without the case-insensitive option.
    EXPECT_FALSE(p->selector.value->regex.patternOptions().testFlag(QRegularExpression::CaseInsensitiveOption));
    EXPECT_EQ(p->selector.byIdentifier, std::optional<QString>(QStringLiteral("sendButton")));
    EXPECT_TRUE(p->selector.enabledOnly);
    EXPECT_TRUE(p->selector.visibleOnly);
    EXPECT_TRUE(p->selector.caseSensitive);
    EXPECT_EQ(p->selector.limit, 1000);
}

TEST(ParamsFind, RegexIsCaseInsensitiveByDefault)
{
    const auto p = Params::find(jsonObject(R"({"selector": {"titleMatches": "^send$"}})"));
    ASSERT_TRUE(p.ok());
    ASSERT_TRUE(p->selector.title.has_value());
    EXPECT_TRUE(p->selector.title->regex.patternOptions().testFlag(QRegularExpression::CaseInsensitiveOption));
    EXPECT_TRUE(p->selector.title->regex.match(QStringLiteral("SEND")).hasMatch());
}

TEST(ParamsClick, ContractExampleWithElementRef)
{
    const auto p = Params::click(jsonObject(R"({
        "meta": {"schemaVersion": 1},
        "confirm": {"phrase": "CONFIRM:uuid"},
        "target": {"elementRef": {"elementId": "e:123", "fingerprint": "AXButton|Send|x=12,y=34,w=56,h=20"}}
    })"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_EQ(p->confirm.phrase, std::optional<QString>(QStringLiteral("CONFIRM:uuid")));
    EXPECT_FALSE(p->confirm.token.has_value());
    ASSERT_TRUE(p->target.elementRef.has_value());
    EXPECT_EQ(p->target.elementRef->elementId, QStringLiteral("e:123"));
    EXPECT_EQ(p->target.elementRef->fingerprint,
              std::optional<QString>(QStringLiteral("AXButton|Send|x=12,y=34,w=56,h=20")));
    EXPECT_FALSE(p->target.selector.has_value());
    EXPECT_FALSE(p->allowCoordinateFallback);
}

TEST(ParamsClick, SelectorTargetAndBoth)
{
    const auto bySelector = Params::click(jsonObject(R"({"target": {"selector": {"byRole": "AXButton",
        "titleContains": "Send"}}, "allowCoordinateFallback": true})"));
    ASSERT_TRUE(bySelector.ok()) << bySelector.error().message.toStdString();
    EXPECT_FALSE(bySelector->target.elementRef.has_value());
    ASSERT_TRUE(bySelector->target.selector.has_value());
    EXPECT_EQ(bySelector->target.selector->byRole, std::optional<QString>(QStringLiteral("AXButton")));
    EXPECT_EQ(bySelector->target.selectorJson, jsonObject(R"({"byRole": "AXButton", "titleContains": "Send"})"));
    EXPECT_TRUE(bySelector->allowCoordinateFallback);
    EXPECT_FALSE(bySelector->confirm.phrase.has_value()); // confirm is checked later, not here

    // A client may echo the whole ElementRef from find; the ref goes first, the selector is the fallback.
    const auto both = Params::click(jsonObject(R"({"target": {
        "elementRef": {"elementId": "e:1", "fingerprint": "f", "role": "AXButton", "title": "Send", "value": null,
                       "frame": {"x": 1, "y": 2, "width": 3, "height": 4}},
        "selector": {"titleEquals": "Send"}}})"));
    ASSERT_TRUE(both.ok()) << both.error().message.toStdString();
    ASSERT_TRUE(both->target.elementRef.has_value());
    EXPECT_EQ(both->target.elementRef->elementId, QStringLiteral("e:1"));
    ASSERT_TRUE(both->target.selector.has_value());
}

TEST(ParamsConfirm, AllFields)
{
    const auto c = Params::confirm(jsonObject(R"({"token": "2c1d7a1e-0000-4000-8000-000000000001",
        "phrase": "CONFIRM:x", "approvedAt": "2026-02-09T12:00:00Z", "approver": "user"})"),
                                   QStringLiteral("confirm"));
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->token, std::optional<QString>(QStringLiteral("2c1d7a1e-0000-4000-8000-000000000001")));
    EXPECT_EQ(c->phrase, std::optional<QString>(QStringLiteral("CONFIRM:x")));
    EXPECT_EQ(c->approvedAt, std::optional<QString>(QStringLiteral("2026-02-09T12:00:00Z")));
    EXPECT_EQ(c->approver, std::optional<QString>(QStringLiteral("user")));
}

TEST(ParamsTypeText, ContractExample)
{
    const auto p = Params::typeText(jsonObject(R"({
        "confirm": {"phrase": "CONFIRM:uuid"},
        "target": {"elementRef": {"elementId": "e:7"}, "selector": {"byRole": "AXTextField"}},
        "text": "hello world",
        "options": {"clearBefore": false}
    })"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_EQ(p->text, QStringLiteral("hello world"));
    EXPECT_FALSE(p->clearBefore);
    EXPECT_EQ(p->confirm.phrase, std::optional<QString>(QStringLiteral("CONFIRM:uuid")));
    ASSERT_TRUE(p->target.has_value());
    ASSERT_TRUE(p->target->elementRef.has_value());
    EXPECT_EQ(p->target->elementRef->elementId, QStringLiteral("e:7"));
    EXPECT_FALSE(p->target->elementRef->fingerprint.has_value());
    ASSERT_TRUE(p->target->selector.has_value());
    EXPECT_EQ(p->target->selector->byRole, std::optional<QString>(QStringLiteral("AXTextField")));
}

TEST(ParamsTypeText, TargetOptionalAndTextKeptVerbatim)
{
    const auto p = Params::typeText(
        jsonObject("{\"text\": \"  \xe4\xbd\xa0\xe5\xa5\xbd\\n\\ttab \", \"options\": {\"clearBefore\": true}}"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_FALSE(p->target.has_value());
    EXPECT_EQ(p->text, QString::fromUtf8("  \xe4\xbd\xa0\xe5\xa5\xbd\n\ttab "));
    EXPECT_TRUE(p->clearBefore);
}

TEST(ParamsHotkey, ContractExample)
{
    const auto p = Params::hotkey(jsonObject(R"({
        "confirm": {"phrase": "CONFIRM:uuid"},
        "keys": ["cmd", "v"],
        "options": {"delayMs": 50}
    })"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_EQ(p->chord.modifiers, QStringList{QStringLiteral("cmd")});
    EXPECT_EQ(p->chord.key, QStringLiteral("v"));
    EXPECT_EQ(p->delayMs, 50);
    EXPECT_EQ(p->confirm.phrase, std::optional<QString>(QStringLiteral("CONFIRM:uuid")));
}

TEST(ParamsHotkey, DefaultDelayAndAliases)
{
    const auto p = Params::hotkey(jsonObject(R"({"keys": ["Command", "Return"], "options": {"delayMs": 0}})"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_EQ(p->chord.names(), (QStringList{QStringLiteral("cmd"), QStringLiteral("enter")}));
    EXPECT_EQ(p->delayMs, 0);
    const auto q = Params::hotkey(jsonObject(R"({"keys": ["enter"]})"));
    ASSERT_TRUE(q.ok());
    EXPECT_EQ(q->delayMs, 50);
}

TEST(ParamsHotkey, UnknownKeyIsNamed)
{
    const auto p = Params::hotkey(jsonObject(R"({"keys": ["cmd", "hyper"]})"));
    ASSERT_FALSE(p.ok());
    UnitTest::expectInvalidParam(p.error(), QStringLiteral("keys[1]"));
    EXPECT_EQ(p.error().details.value(QStringLiteral("key")), QJsonValue(QStringLiteral("hyper")));
}

TEST(ParamsWaitUntil, ContractExample)
{
    const auto p = Params::waitUntil(jsonObject(R"({
        "condition": {"selectorExists": {"byRole": "AXButton", "titleContains": "Send"}},
        "pollMs": 500,
        "timeoutMs": 15000
    })"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_EQ(p->condition.kind, Automation::WaitCondition::Kind::SelectorExists);
    ASSERT_TRUE(p->condition.selector.has_value());
    EXPECT_EQ(p->condition.selector->byRole, std::optional<QString>(QStringLiteral("AXButton")));
    ASSERT_TRUE(p->condition.selector->title.has_value());
    EXPECT_EQ(p->condition.selector->title->pattern, QStringLiteral("Send"));
    EXPECT_EQ(p->condition.selectorJson, jsonObject(R"({"byRole": "AXButton", "titleContains": "Send"})"));
    EXPECT_EQ(p->pollMs, 500);
    EXPECT_EQ(p->timeoutMs, 15000);
}

TEST(ParamsWaitUntil, NestedConditions)
{
    const auto p = Params::waitUntil(jsonObject(R"({
        "condition": {"all": [
            {"windowExists": {"titlePattern": "^Save"}},
            {"any": [{"textMatches": {"selector": {"byRole": "AXStaticText"}, "pattern": "Sent: \\w+"}},
                     {"valueEquals": {"selector": {"byRole": "AXTextField"}, "value": ""}},
                     {"focused": {"byRole": "AXTextField"}},
                     {"enabled": {"byRole": "AXButton"}},
                     {"selectorGone": {"byRole": "AXDialog"}}]}]},
        "timeoutMs": 1000
    })"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    using Kind = Automation::WaitCondition::Kind;
    ASSERT_EQ(p->condition.kind, Kind::All);
    ASSERT_EQ(p->condition.children.size(), 2);
    EXPECT_EQ(p->condition.children[0].kind, Kind::WindowExists);
    EXPECT_TRUE(p->condition.children[0].regex.match(QStringLiteral("Save As")).hasMatch());
    const auto& any = p->condition.children[1];
    ASSERT_EQ(any.children.size(), 5);
    EXPECT_EQ(any.children[0].kind, Kind::TextMatches);
    EXPECT_TRUE(any.children[0].regex.match(QStringLiteral("Sent: hi")).hasMatch());
    EXPECT_EQ(any.children[1].kind, Kind::ValueEquals);
    EXPECT_EQ(any.children[1].value, QString());
    EXPECT_EQ(any.children[4].kind, Kind::SelectorGone);
    EXPECT_TRUE(p->condition.needsSnapshot());
    EXPECT_TRUE(p->condition.needsText());
    EXPECT_FALSE(p->condition.children[0].needsSnapshot());
}

TEST(ParamsWaitUntil, PollDefault)
{
    const auto p =
        Params::waitUntil(jsonObject(R"({"condition": {"selectorExists": {"byIdentifier": "x"}}, "timeoutMs": 1})"));
    ASSERT_TRUE(p.ok()) << p.error().message.toStdString();
    EXPECT_EQ(p->pollMs, 500);
    EXPECT_EQ(p->timeoutMs, 1);
}

TEST(ParamsAbort, ContractExample)
{
    const auto p = Params::abort(jsonObject(R"({"executionId": "123e4567-e89b-12d3-a456-426614174000"})"));
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->executionId, QStringLiteral("123e4567-e89b-12d3-a456-426614174000"));
}

struct PolicyRow
{
    const char* name;
    const char* wire;
    FocusPolicy policy;

    friend void PrintTo(const PolicyRow& row, std::ostream* os) { *os << row.name; }
};

class RouteFocusPolicy : public ::testing::TestWithParam<PolicyRow>
{
};

TEST_P(RouteFocusPolicy, IsParsed)
{
    const PolicyRow& row = GetParam();
    const auto route = Params::route(QJsonObject{{QStringLiteral("focusPolicy"), QString::fromLatin1(row.wire)}},
                                     QStringLiteral("route"));
    ASSERT_TRUE(route.ok()) << route.error().message.toStdString();
    EXPECT_EQ(route->focusPolicy, std::optional<FocusPolicy>(row.policy));
    EXPECT_EQ(Automation::focusPolicyName(row.policy), QString::fromLatin1(row.wire));
}

INSTANTIATE_TEST_SUITE_P(Rows, RouteFocusPolicy,
                         ::testing::Values(PolicyRow{"FocusIfNeeded", "focusIfNeeded", FocusPolicy::FocusIfNeeded},
                                           PolicyRow{"RequireFocused", "requireFocused", FocusPolicy::RequireFocused},
                                           PolicyRow{"FailIfNotFocused", "failIfNotFocused",
                                                     FocusPolicy::FailIfNotFocused}),
                         UnitTest::RowName());

// --- refusals: every one names the field with its full path --------------------------------------

enum class Method { Observe, Find, Click, TypeText, Hotkey, WaitUntil, Abort };

std::optional<Error> parseError(Method method, const QJsonObject& params)
{
    const auto errorOf = [](const auto& result) -> std::optional<Error> {
        if (result.ok())
            return std::nullopt;
        return result.error();
    };
    switch (method) {
    case Method::Observe:
        return errorOf(Params::observe(params));
    case Method::Find:
        return errorOf(Params::find(params));
    case Method::Click:
        return errorOf(Params::click(params));
    case Method::TypeText:
        return errorOf(Params::typeText(params));
    case Method::Hotkey:
        return errorOf(Params::hotkey(params));
    case Method::WaitUntil:
        return errorOf(Params::waitUntil(params));
    case Method::Abort:
        return errorOf(Params::abort(params));
    }
    return std::nullopt;
}

struct RefusedRow
{
    const char* name;
    Method method;
    const char* params;
    const char* field;

    friend void PrintTo(const RefusedRow& row, std::ostream* os) { *os << row.name; }
};

class ParamsRefused : public ::testing::TestWithParam<RefusedRow>
{
};

TEST_P(ParamsRefused, NamesTheField)
{
    const RefusedRow& row = GetParam();
    const auto error = parseError(row.method, jsonObject(row.params));
    ASSERT_TRUE(error.has_value()) << "accepted: " << row.params;
    UnitTest::expectInvalidParam(*error, QString::fromLatin1(row.field));
}

using M = Method;

INSTANTIATE_TEST_SUITE_P(
    Observe, ParamsRefused,
    ::testing::Values(
        RefusedRow{"RouteString", M::Observe, R"({"route": "Safari"})", "route"},
        RefusedRow{"RouteUnknownField", M::Observe, R"({"route": {"apps": {}}})", "route.apps"},
        RefusedRow{"RouteAppNotObject", M::Observe, R"({"route": {"app": "Safari"}})", "route.app"},
        RefusedRow{"RouteAppPidString", M::Observe, R"({"route": {"app": {"pid": "12"}}})", "route.app.pid"},
        RefusedRow{"RouteAppPidZero", M::Observe, R"({"route": {"app": {"pid": 0}}})", "route.app.pid"},
        RefusedRow{"RouteAppPidFraction", M::Observe, R"({"route": {"app": {"pid": 1.5}}})", "route.app.pid"},
        RefusedRow{"RouteAppPidTooLarge", M::Observe, R"({"route": {"app": {"pid": 2147483648}}})", "route.app.pid"},
        RefusedRow{"RouteAppBundleIdEmpty", M::Observe, R"({"route": {"app": {"bundleId": ""}}})",
                   "route.app.bundleId"},
        RefusedRow{"RouteAppBundleIdNumber", M::Observe, R"({"route": {"app": {"bundleId": 5}}})",
                   "route.app.bundleId"},
        RefusedRow{"RouteAppUnknownField", M::Observe, R"({"route": {"app": {"bundle": "x"}}})", "route.app.bundle"},
        RefusedRow{"RouteWindowBadRegex", M::Observe, R"({"route": {"window": {"titlePattern": "("}}})",
                   "route.window.titlePattern"},
        RefusedRow{"RouteWindowPatternNumber", M::Observe, R"({"route": {"window": {"titlePattern": 1}}})",
                   "route.window.titlePattern"},
        RefusedRow{"RouteWindowUnknownField", M::Observe, R"({"route": {"window": {"title": "x"}}})",
                   "route.window.title"},
        RefusedRow{"RouteDisplay", M::Observe, R"({"route": {"display": 1}})", "route.display"},
        RefusedRow{"RouteFocusPolicyUnknown", M::Observe, R"({"route": {"focusPolicy": "always"}})",
                   "route.focusPolicy"},
        RefusedRow{"RouteFocusPolicyNumber", M::Observe, R"({"route": {"focusPolicy": 1}})", "route.focusPolicy"},
        RefusedRow{"OptionsNotObject", M::Observe, R"({"options": true})", "options"},
        RefusedRow{"AxMaxDepthString", M::Observe, R"({"options": {"axMaxDepth": "8"}})", "options.axMaxDepth"},
        RefusedRow{"AxMaxDepthZero", M::Observe, R"({"options": {"axMaxDepth": 0}})", "options.axMaxDepth"},
        RefusedRow{"AxMaxDepth257", M::Observe, R"({"options": {"axMaxDepth": 257}})", "options.axMaxDepth"},
        RefusedRow{"AxMaxNodesTooMany", M::Observe, R"({"options": {"axMaxNodes": 100001}})", "options.axMaxNodes"},
        RefusedRow{"AxMaxWallTimeFraction", M::Observe, R"({"options": {"axMaxWallTimeMs": 0.5}})",
                   "options.axMaxWallTimeMs"},
        RefusedRow{"IncludeScreenshotString", M::Observe, R"({"options": {"includeScreenshot": "yes"}})",
                   "options.includeScreenshot"},
        RefusedRow{"IncludeTextNumber", M::Observe, R"({"options": {"includeText": 1}})", "options.includeText"}),
    UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    Find, ParamsRefused,
    ::testing::Values(
        RefusedRow{"SelectorMissing", M::Find, R"({})", "selector"},
        RefusedRow{"SelectorNull", M::Find, R"({"selector": null})", "selector"},
        RefusedRow{"SelectorString", M::Find, R"({"selector": "AXButton"})", "selector"},
        RefusedRow{"SelectorEmpty", M::Find, R"({"selector": {}})", "selector.byRole"},
        RefusedRow{"SelectorOnlyLimit", M::Find, R"({"selector": {"limit": 3}})", "selector.byRole"},
        RefusedRow{"TypoTitleContain", M::Find, R"({"selector": {"titleContain": "Send"}})", "selector.titleContain"},
        RefusedRow{"UnknownFieldBesideGoodOnes", M::Find, R"({"selector": {"byRole": "AXButton", "role": "x"}})",
                   "selector.role"},
        RefusedRow{"LimitString", M::Find, R"({"selector": {"byRole": "AXButton", "limit": "5"}})", "selector.limit"},
        RefusedRow{"LimitZero", M::Find, R"({"selector": {"byRole": "AXButton", "limit": 0}})", "selector.limit"},
        RefusedRow{"Limit1001", M::Find, R"({"selector": {"byRole": "AXButton", "limit": 1001}})", "selector.limit"},
        RefusedRow{"LimitFraction", M::Find, R"({"selector": {"byRole": "AXButton", "limit": 2.5}})", "selector.limit"},
        RefusedRow{"TitleEqualsAndContains", M::Find, R"({"selector": {"titleEquals": "a", "titleContains": "a"}})",
                   "selector.titleContains"},
        RefusedRow{"ValueEqualsAndContains", M::Find, R"({"selector": {"valueEquals": "a", "valueContains": "a"}})",
                   "selector.valueContains"},
        RefusedRow{"TitleBadRegex", M::Find, R"({"selector": {"titleMatches": "("}})", "selector.titleMatches"},
        RefusedRow{"ValueBadRegex", M::Find, R"({"selector": {"valueMatches": "[a-"}})", "selector.valueMatches"},
        RefusedRow{"TitleContainsNumber", M::Find, R"({"selector": {"titleContains": 5}})", "selector.titleContains"},
        RefusedRow{"ByRoleEmpty", M::Find, R"({"selector": {"byRole": ""}})", "selector.byRole"},
        RefusedRow{"ByRoleNumber", M::Find, R"({"selector": {"byRole": 5}})", "selector.byRole"},
        RefusedRow{"ByIdentifierEmpty", M::Find, R"({"selector": {"byIdentifier": ""}})", "selector.byIdentifier"},
        RefusedRow{"CaseSensitiveString", M::Find, R"({"selector": {"byRole": "x", "caseSensitive": "yes"}})",
                   "selector.caseSensitive"},
        RefusedRow{"EnabledOnlyNumber", M::Find, R"({"selector": {"byRole": "x", "enabledOnly": 1}})",
                   "selector.enabledOnly"},
        RefusedRow{"VisibleOnlyString", M::Find, R"({"selector": {"byRole": "x", "visibleOnly": "true"}})",
                   "selector.visibleOnly"},
        RefusedRow{"RouteCheckedToo", M::Find, R"({"route": {"app": {"pid": -1}}, "selector": {"byRole": "x"}})",
                   "route.app.pid"}),
    UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    Click, ParamsRefused,
    ::testing::Values(
        RefusedRow{"TargetMissing", M::Click, R"({"confirm": {"phrase": "CONFIRM"}})", "target"},
        RefusedRow{"TargetString", M::Click, R"({"target": "e:1"})", "target"},
        RefusedRow{"TargetEmpty", M::Click, R"({"target": {}})", "target.elementRef"},
        RefusedRow{"TargetUnknownField", M::Click, R"({"target": {"element": {"elementId": "e:1"}}})",
                   "target.element"},
        RefusedRow{"ElementRefNotObject", M::Click, R"({"target": {"elementRef": "e:1"}})", "target.elementRef"},
        RefusedRow{"ElementIdMissing", M::Click, R"({"target": {"elementRef": {"fingerprint": "f"}}})",
                   "target.elementRef.elementId"},
        RefusedRow{"ElementIdEmpty", M::Click, R"({"target": {"elementRef": {"elementId": ""}}})",
                   "target.elementRef.elementId"},
        RefusedRow{"ElementIdNumber", M::Click, R"({"target": {"elementRef": {"elementId": 123}}})",
                   "target.elementRef.elementId"},
        RefusedRow{"FingerprintNumber", M::Click,
                   R"({"target": {"elementRef": {"elementId": "e:1", "fingerprint": 1}}})",
                   "target.elementRef.fingerprint"},
        RefusedRow{"TargetSelectorTypo", M::Click, R"({"target": {"selector": {"titleContain": "Send"}}})",
                   "target.selector.titleContain"},
        RefusedRow{"TargetSelectorLimit", M::Click, R"({"target": {"selector": {"byRole": "x", "limit": "x"}}})",
                   "target.selector.limit"},
        RefusedRow{"TargetSelectorEmpty", M::Click, R"({"target": {"selector": {}}})", "target.selector.byRole"},
        RefusedRow{"ConfirmString", M::Click, R"({"confirm": "CONFIRM", "target": {"elementRef": {"elementId": "e"}}})",
                   "confirm"},
        RefusedRow{"ConfirmTokenEmpty", M::Click,
                   R"({"confirm": {"token": ""}, "target": {"elementRef": {"elementId": "e"}}})", "confirm.token"},
        RefusedRow{"ConfirmPhraseNumber", M::Click,
                   R"({"confirm": {"phrase": 5}, "target": {"elementRef": {"elementId": "e"}}})", "confirm.phrase"},
        RefusedRow{"CoordinateFallbackString", M::Click,
                   R"({"target": {"elementRef": {"elementId": "e"}}, "allowCoordinateFallback": "yes"})",
                   "allowCoordinateFallback"}),
    UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    TypeText, ParamsRefused,
    ::testing::Values(RefusedRow{"TextMissing", M::TypeText, R"({"confirm": {"phrase": "CONFIRM"}})", "text"},
                      RefusedRow{"TextNull", M::TypeText, R"({"text": null})", "text"},
                      RefusedRow{"TextNumber", M::TypeText, R"({"text": 5})", "text"},
                      RefusedRow{"TextArray", M::TypeText, R"({"text": ["a"]})", "text"},
                      RefusedRow{"TargetEmpty", M::TypeText, R"({"target": {}, "text": "x"})", "target.elementRef"},
                      RefusedRow{"TargetString", M::TypeText, R"({"target": "x", "text": "x"})", "target"},
                      RefusedRow{"OptionsClearBeforeString", M::TypeText,
                                 R"({"text": "x", "options": {"clearBefore": "no"}})", "options.clearBefore"},
                      RefusedRow{"ConfirmApproverNumber", M::TypeText, R"({"text": "x", "confirm": {"approver": 1}})",
                                 "confirm.approver"}),
    UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    Hotkey, ParamsRefused,
    ::testing::Values(
        RefusedRow{"KeysMissing", M::Hotkey, R"({"confirm": {"phrase": "CONFIRM"}})", "keys"},
        RefusedRow{"KeysString", M::Hotkey, R"({"keys": "cmd+v"})", "keys"},
        RefusedRow{"KeysObject", M::Hotkey, R"({"keys": {"0": "cmd"}})", "keys"},
        RefusedRow{"KeysEmpty", M::Hotkey, R"({"keys": []})", "keys"},
        RefusedRow{"KeyNumber", M::Hotkey, R"({"keys": ["cmd", 1]})", "keys[1]"},
        RefusedRow{"KeyNull", M::Hotkey, R"({"keys": [null]})", "keys[0]"},
        RefusedRow{"KeyUnknown", M::Hotkey, R"({"keys": ["cmd", "nope"]})", "keys[1]"},
        RefusedRow{"ModifierAfterKey", M::Hotkey, R"({"keys": ["v", "cmd"]})", "keys[1]"},
        RefusedRow{"TwoKeys", M::Hotkey, R"({"keys": ["cmd", "a", "b"]})", "keys[2]"},
        RefusedRow{"DelayNegative", M::Hotkey, R"({"keys": ["enter"], "options": {"delayMs": -1}})", "options.delayMs"},
        RefusedRow{"Delay5001", M::Hotkey, R"({"keys": ["enter"], "options": {"delayMs": 5001}})", "options.delayMs"}),
    UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    WaitUntil, ParamsRefused,
    ::testing::Values(
        RefusedRow{"ConditionMissing", M::WaitUntil, R"({"timeoutMs": 1000})", "condition"},
        RefusedRow{"ConditionString", M::WaitUntil, R"({"condition": "exists", "timeoutMs": 1000})", "condition"},
        RefusedRow{"ConditionEmpty", M::WaitUntil, R"({"condition": {}, "timeoutMs": 1000})", "condition"},
        RefusedRow{"ConditionUnknown", M::WaitUntil, R"({"condition": {"selectorAppears": {}}, "timeoutMs": 1000})",
                   "condition.selectorAppears"},
        RefusedRow{"ConditionTwo", M::WaitUntil,
                   R"({"condition": {"selectorExists": {"byRole": "x"}, "focused": {"byRole": "x"}}, "timeoutMs": 1})",
                   "condition"},
        RefusedRow{"SelectorGoneEmpty", M::WaitUntil, R"({"condition": {"selectorGone": {}}, "timeoutMs": 1000})",
                   "condition.selectorGone.byRole"},
        RefusedRow{"WindowNoPattern", M::WaitUntil, R"({"condition": {"windowExists": {}}, "timeoutMs": 1000})",
                   "condition.windowExists.titlePattern"},
        RefusedRow{"WindowBadPattern", M::WaitUntil,
                   R"({"condition": {"windowGone": {"titlePattern": "("}}, "timeoutMs": 1000})",
                   "condition.windowGone.titlePattern"},
        RefusedRow{"TextMatchesNoSelector", M::WaitUntil,
                   R"({"condition": {"textMatches": {"pattern": "x"}}, "timeoutMs": 1000})",
                   "condition.textMatches.selector"},
        RefusedRow{"ValueEqualsNoValue", M::WaitUntil,
                   R"({"condition": {"valueEquals": {"selector": {"byRole": "x"}}}, "timeoutMs": 1000})",
                   "condition.valueEquals.value"},
        RefusedRow{"AllEmpty", M::WaitUntil, R"({"condition": {"all": []}, "timeoutMs": 1000})", "condition.all"},
        RefusedRow{"AnyChildBad", M::WaitUntil,
                   R"({"condition": {"any": [{"focused": {"byRole": "x"}}, {"enabled": "x"}]}, "timeoutMs": 1000})",
                   "condition.any[1].enabled"},
        RefusedRow{
            "TooDeep", M::WaitUntil,
            R"({"condition": {"all": [{"all": [{"all": [{"all": [{"all": [{"focused": {"byRole": "x"}}]}]}]}]}]}, "timeoutMs": 1})",
            "condition.all[0].all[0].all[0].all[0].all"},
        RefusedRow{"SelectorExistsString", M::WaitUntil, R"({"condition": {"selectorExists": "x"}, "timeoutMs": 1000})",
                   "condition.selectorExists"},
        RefusedRow{"SelectorExistsTypo", M::WaitUntil,
                   R"({"condition": {"selectorExists": {"titleContain": "x"}}, "timeoutMs": 1000})",
                   "condition.selectorExists.titleContain"},
        RefusedRow{"SelectorExistsEmpty", M::WaitUntil, R"({"condition": {"selectorExists": {}}, "timeoutMs": 1000})",
                   "condition.selectorExists.byRole"},
        RefusedRow{"SelectorExistsLimit", M::WaitUntil,
                   R"({"condition": {"selectorExists": {"byRole": "x", "limit": 0}}, "timeoutMs": 1000})",
                   "condition.selectorExists.limit"},
        RefusedRow{"TimeoutMissing", M::WaitUntil, R"({"condition": {"selectorExists": {"byRole": "x"}}})",
                   "timeoutMs"},
        RefusedRow{"TimeoutZero", M::WaitUntil, R"({"condition": {"selectorExists": {"byRole": "x"}}, "timeoutMs": 0})",
                   "timeoutMs"},
        RefusedRow{"Timeout600001", M::WaitUntil,
                   R"({"condition": {"selectorExists": {"byRole": "x"}}, "timeoutMs": 600001})", "timeoutMs"},
        RefusedRow{"TimeoutString", M::WaitUntil,
                   R"({"condition": {"selectorExists": {"byRole": "x"}}, "timeoutMs": "15000"})", "timeoutMs"},
        RefusedRow{"PollTooShort", M::WaitUntil,
                   R"({"condition": {"selectorExists": {"byRole": "x"}}, "pollMs": 5, "timeoutMs": 100})", "pollMs"},
        RefusedRow{"PollTooLong", M::WaitUntil,
                   R"({"condition": {"selectorExists": {"byRole": "x"}}, "pollMs": 60001, "timeoutMs": 100})",
                   "pollMs"}),
    UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    Abort, ParamsRefused,
    ::testing::Values(RefusedRow{"ExecutionIdMissing", M::Abort, R"({})", "executionId"},
                      RefusedRow{"ExecutionIdEmpty", M::Abort, R"({"executionId": ""})", "executionId"},
                      RefusedRow{"ExecutionIdNumber", M::Abort, R"({"executionId": 5})", "executionId"}),
    UnitTest::RowName());

// Regression (bridge/Params.cpp, textMatch()): the conflict was always reported
// on the "...Contains" key, even when the client sent titleEquals and titleMatches and no
// titleContains at all, so details.field names a field that is not in the request.
TEST(ParamsFind, ConflictNamesAFieldThatWasSent)
{
    const auto error =
        parseError(Method::Find, jsonObject(R"({"selector": {"titleEquals": "a", "titleMatches": "a"}})"));
    ASSERT_TRUE(error.has_value());
    const QString field = error->details.value(QStringLiteral("field")).toString();
    EXPECT_TRUE(field == QLatin1String("selector.titleEquals") || field == QLatin1String("selector.titleMatches"))
        << field.toStdString(); // actual: "selector.titleContains"
}

} // namespace
