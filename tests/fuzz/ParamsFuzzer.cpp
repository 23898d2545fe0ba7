// Fuzz target Params (docs/testing.md): one JSON object through every typed params parser of
// bridge/Params and through bridge/Meta's parseMeta, as the dispatcher does after the envelope.
// A parser either refuses with DESKTOP_INVALID_REQUEST (-32602) naming a field, or returns values
// within the contract's ranges.
//
// Input: a JSON request line ({"jsonrpc":"2.0","method":...,"params":{...}}, whose params are
// used) or a bare params object.

#include "FuzzCheck.h"
#include "automation/Error.h"
#include "automation/Keys.h"
#include "bridge/Params.h"
#include "bridge/protocol/CanonicalJson.h"
#include "bridge/protocol/JsonRpc.h"
#include "bridge/protocol/Meta.h"

#include <QJsonArray>
#include <QUuid>

#include <limits>

namespace Params = Bridge::Params;
using Automation::ErrorCode;
using Automation::Result;

namespace {

template <typename T> bool accepted(const Result<T>& result)
{
    if (result.ok())
        return true;
    const auto& error = result.error();
    MDH_FUZZ_CHECK_MSG(error.code == ErrorCode::InvalidRequest, error.message);
    MDH_FUZZ_CHECK_MSG(error.details.value(QLatin1String("jsonrpcCode")).toInt() == -32602, error.message);
    MDH_FUZZ_CHECK_MSG(!error.details.value(QLatin1String("field")).toString().isEmpty(), error.message);
    MDH_FUZZ_CHECK(!error.message.isEmpty());
    return false;
}

void checkSelector(const Automation::Selector& selector, const QJsonObject& json)
{
    MDH_FUZZ_CHECK(selector.limit >= 1 && selector.limit <= 1000);
    MDH_FUZZ_CHECK(selector.byRole || selector.title || selector.value || selector.byIdentifier);
    for (const auto& match : {selector.title, selector.value}) {
        if (match && match->mode == Automation::TextMatch::Mode::Regex)
            MDH_FUZZ_CHECK_MSG(match->regex.isValid(), match->pattern);
    }
    MDH_FUZZ_CHECK(selector.byRole.value_or(QStringLiteral("x")) != QString());
    // The selector as sent is what evidence records.
    MDH_FUZZ_CHECK(!json.isEmpty());
}

// A parsed condition: every element condition has its selector, every pattern compiles, and
// all/any hold 1 to 16 conditions at most 4 levels deep.
void checkCondition(const Automation::WaitCondition& condition, int depth)
{
    using Kind = Automation::WaitCondition::Kind;
    MDH_FUZZ_CHECK(depth <= 4);
    switch (condition.kind) {
    case Kind::All:
    case Kind::Any:
        MDH_FUZZ_CHECK(!condition.children.isEmpty() && condition.children.size() <= 16);
        for (const auto& child : condition.children)
            checkCondition(child, depth + 1);
        return;
    case Kind::WindowExists:
    case Kind::WindowGone:
        MDH_FUZZ_CHECK(!condition.pattern.isEmpty() && condition.regex.isValid());
        return;
    default:
        MDH_FUZZ_CHECK(condition.selector.has_value());
        checkSelector(*condition.selector, condition.selectorJson);
        if (condition.kind == Kind::TextMatches)
            MDH_FUZZ_CHECK(condition.regex.isValid());
        return;
    }
}

void checkRoute(const Automation::Route& route)
{
    if (route.pid)
        MDH_FUZZ_CHECK(*route.pid >= 1 && *route.pid <= std::numeric_limits<int>::max());
    if (route.bundleId)
        MDH_FUZZ_CHECK(!route.bundleId->isEmpty());
    if (route.windowTitlePattern)
        MDH_FUZZ_CHECK_MSG(QRegularExpression(*route.windowTitlePattern).isValid(), *route.windowTitlePattern);
}

void checkTarget(const Bridge::TargetParams& target)
{
    MDH_FUZZ_CHECK(target.elementRef || target.selector);
    if (target.elementRef)
        MDH_FUZZ_CHECK(!target.elementRef->elementId.isEmpty());
    if (target.selector)
        checkSelector(*target.selector, target.selectorJson);
}

void checkConfirm(const Bridge::ConfirmParams& confirm)
{
    if (confirm.token)
        MDH_FUZZ_CHECK(!confirm.token->isEmpty());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto decoded = Bridge::JsonRpc::decode(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
    if (!decoded || !decoded.value().isObject())
        return 0;
    QJsonObject params = decoded.value().toObject();
    if (params.value(QLatin1String("params")).isObject() && params.value(QLatin1String("method")).isString())
        params = params.value(QLatin1String("params")).toObject();

    for (const bool workspaceRequired : {false, true}) {
        const auto meta = Bridge::parseMeta(params, workspaceRequired);
        if (!accepted(meta))
            continue;
        MDH_FUZZ_CHECK(meta->schemaVersion == Bridge::Meta::kSchemaVersion);
        MDH_FUZZ_CHECK_MSG(meta->requestId.size() == 36, meta->requestId);
        MDH_FUZZ_CHECK(!QUuid::fromString(meta->requestId).isNull());
        MDH_FUZZ_CHECK(meta->timeoutMs >= 1 && meta->timeoutMs <= Bridge::Meta::kMaxTimeoutMs);
        if (workspaceRequired)
            MDH_FUZZ_CHECK(meta->workspacePath.has_value());
        if (meta->workspacePath)
            MDH_FUZZ_CHECK(meta->workspacePath->startsWith(QLatin1Char('/')));
        // A request id matches itself in any case (RFC 9562 §4).
        MDH_FUZZ_CHECK(Bridge::sameRequestId(meta->requestId, meta->requestId.toUpper()));
    }

    if (const auto observe = Params::observe(params); accepted(observe)) {
        checkRoute(observe->route);
        const auto& bounds = observe->bounds;
        MDH_FUZZ_CHECK(bounds.maxDepth >= 1 && bounds.maxDepth <= 256);
        MDH_FUZZ_CHECK(bounds.maxNodes >= 1 && bounds.maxNodes <= 100000);
        MDH_FUZZ_CHECK(bounds.maxWallTimeMs >= 1 && bounds.maxWallTimeMs <= 600000);
    }
    if (const auto find = Params::find(params); accepted(find)) {
        checkRoute(find->route);
        checkSelector(find->selector, find->selectorJson);
        MDH_FUZZ_CHECK(find->selectorJson == params.value(QLatin1String("selector")).toObject());
    }
    if (const auto click = Params::click(params); accepted(click)) {
        checkRoute(click->route);
        checkTarget(click->target);
        checkConfirm(click->confirm);
    }
    if (const auto typeText = Params::typeText(params); accepted(typeText)) {
        checkRoute(typeText->route);
        if (typeText->target)
            checkTarget(*typeText->target);
        checkConfirm(typeText->confirm);
        MDH_FUZZ_CHECK(typeText->text == params.value(QLatin1String("text")).toString());
    }
    if (const auto hotkey = Params::hotkey(params); accepted(hotkey)) {
        checkRoute(hotkey->route);
        checkConfirm(hotkey->confirm);
        MDH_FUZZ_CHECK(hotkey->delayMs >= 0 && hotkey->delayMs <= 5000);
        const QStringList names = hotkey->chord.names();
        MDH_FUZZ_CHECK(!names.isEmpty());
        // The normalised chord parses to itself.
        const auto again = Automation::parseKeyChord(names);
        MDH_FUZZ_CHECK_MSG(again.ok(), names.join(QLatin1Char(',')));
        MDH_FUZZ_CHECK_MSG(again->names() == names, names.join(QLatin1Char(',')));
        for (const QString& modifier : hotkey->chord.modifiers)
            MDH_FUZZ_CHECK_MSG(Automation::modifierNames().contains(modifier), modifier);
        if (!hotkey->chord.key.isEmpty())
            MDH_FUZZ_CHECK_MSG(Automation::keyNames().contains(hotkey->chord.key), hotkey->chord.key);
    }
    if (const auto waitUntil = Params::waitUntil(params); accepted(waitUntil)) {
        checkRoute(waitUntil->route);
        checkCondition(waitUntil->condition, 0);
        MDH_FUZZ_CHECK(waitUntil->pollMs >= 10 && waitUntil->pollMs <= 60000);
        MDH_FUZZ_CHECK(waitUntil->timeoutMs >= 1 && waitUntil->timeoutMs <= 600000);
    }
    if (const auto abort = Params::abort(params); accepted(abort))
        MDH_FUZZ_CHECK(!abort->executionId.isEmpty());
    if (const auto dump = Params::dumpTree(params); accepted(dump)) {
        checkRoute(dump->route);
        MDH_FUZZ_CHECK(dump->bounds.maxNodes >= 1 && dump->bounds.maxNodes <= 100000);
    }
    if (const auto capture = Params::capture(params); accepted(capture)) {
        // A rect and a route never both; a rect is never empty.
        MDH_FUZZ_CHECK(!(capture->rect && capture->route));
        if (capture->rect)
            MDH_FUZZ_CHECK(!capture->rect->isEmpty());
    }
    if (const auto read = Params::readText(params); accepted(read)) {
        checkSelector(read->selector, read->selectorJson);
        MDH_FUZZ_CHECK(read->limitBytes >= 1 && read->limitBytes <= 1048576);
        static const QStringList modes{QStringLiteral("none"), QStringLiteral("patterns"), QStringLiteral("hash")};
        MDH_FUZZ_CHECK(modes.contains(read->redactionMode));
    }
    if (const auto scroll = Params::scroll(params); accepted(scroll)) {
        checkTarget(scroll->target);
        checkConfirm(scroll->confirm);
        MDH_FUZZ_CHECK(scroll->spec.amount >= 1 && scroll->spec.amount <= 100);
    }
    if (const auto pick = Params::menuPick(params); accepted(pick)) {
        checkConfirm(pick->confirm);
        MDH_FUZZ_CHECK(!pick->path.isEmpty() && pick->path.size() <= 8);
        for (const QString& title : pick->path)
            MDH_FUZZ_CHECK(!title.trimmed().isEmpty());
    }

    // The building blocks on whatever the members hold, not only on objects.
    if (const auto route = Params::route(params.value(QLatin1String("route")), QStringLiteral("route"));
        accepted(route))
        checkRoute(route.value());
    if (const auto selector = Params::selector(params.value(QLatin1String("selector")), QStringLiteral("selector"));
        accepted(selector))
        checkSelector(selector.value(), params.value(QLatin1String("selector")).toObject());
    if (const auto confirm = Params::confirm(params.value(QLatin1String("confirm")), QStringLiteral("confirm"));
        accepted(confirm))
        checkConfirm(confirm.value());

    // The params digest a confirmation token is bound to (docs/protocol.md §5.10): 16 lower-case hex digits,
    // blind to meta and confirm.
    const QString digest = Bridge::CanonicalJson::paramsDigest(params);
    MDH_FUZZ_CHECK_MSG(digest.size() == 16, digest);
    for (const QChar c : digest)
        MDH_FUZZ_CHECK_MSG((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f'), digest);
    QJsonObject withEnvelope = params;
    withEnvelope.insert(QStringLiteral("meta"), QJsonObject{{QStringLiteral("timeoutMs"), 5}});
    withEnvelope.insert(QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}});
    MDH_FUZZ_CHECK(Bridge::CanonicalJson::paramsDigest(withEnvelope) == digest);
    return 0;
}
