#include "bridge/Params.h"

#include "automation/ocr/OcrEngine.h"

#include "automation/JsonFieldReader.h"
#include "bridge/contract/Validate.h"

#include <QDir>
#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace Bridge::Params {

using Automation::Error;
using Automation::Result;

namespace {

// Types, ranges, enums, patterns, unknown members and the rules across members, as the method's
// declaration says (bridge/contract/methods/): the parsers below only turn checked JSON into
// typed structs and add what JSON Schema cannot say.
std::optional<Error> declared(const char* method, const QJsonObject& params)
{
    const Contract::Method* declaration = Contract::find(QString::fromLatin1(method));
    Q_ASSERT(declaration);
    return Contract::checkParams(*declaration, params);
}

// The members of one JSON object, the first problem recorded with the field's full path
// ("route.window.titlePattern"): the reader automation's fromJson parsers use too, so a field
// is refused with the same words wherever it is parsed.
using Reader = Automation::JsonFieldReader;

std::optional<TargetParams> target(const QJsonValue& value, const QString& field, Reader& outer)
{
    if (!value.isObject()) {
        outer.fail(QStringLiteral("target"), QStringLiteral("must be an object"));
        return std::nullopt;
    }
    const QJsonObject object = value.toObject();
    Reader r(object, field);
    r.rejectUnknown({QStringLiteral("elementRef"), QStringLiteral("selector")});
    TargetParams out;
    if (auto ref = r.object(QStringLiteral("elementRef"))) {
        Reader rr(*ref, r.path(QStringLiteral("elementRef")));
        ElementRefParams p;
        // A client may echo the whole ElementRef it got from find; only these two are used.
        p.elementId = rr.string(QStringLiteral("elementId"), true, false).value_or(QString());
        p.fingerprint = rr.string(QStringLiteral("fingerprint"));
        p.snapshotId = rr.string(QStringLiteral("snapshotId"), false, false);
        if (rr.failed())
            r.fail(rr.error());
        out.elementRef = p;
    }
    if (r.has(QStringLiteral("selector"))) {
        auto sel = selector(r.raw(QStringLiteral("selector")), r.path(QStringLiteral("selector")));
        if (!sel)
            r.fail(sel.error());
        else {
            out.selector = sel.value();
            out.selectorJson = r.raw(QStringLiteral("selector")).toObject();
        }
    }
    if (!r.failed() && !out.elementRef && !out.selector)
        r.fail(QStringLiteral("elementRef"), QStringLiteral("or target.selector is required"));
    if (r.failed()) {
        outer.fail(r.error());
        return std::nullopt;
    }
    return out;
}

Automation::Route routeOrFail(Reader& reader)
{
    if (!reader.has(QStringLiteral("route")))
        return {};
    auto parsed = route(reader.raw(QStringLiteral("route")), QStringLiteral("route"));
    if (!parsed) {
        reader.fail(parsed.error());
        return {};
    }
    return parsed.value();
}

// The elements of the array member `key`, each a string (not blank with `nonBlank`); the first
// that is not is refused by its index ("keys[2]").
QStringList strings(Reader& reader, const QString& key, const QJsonArray& array, bool nonBlank)
{
    QStringList out;
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue v = array.at(i);
        if (!v.isString() || (nonBlank && v.toString().trimmed().isEmpty())) {
            reader.fail(key + QStringLiteral("[%1]").arg(i),
                        nonBlank ? QStringLiteral("must be a non-empty string") : QStringLiteral("must be a string"));
            break;
        }
        out.append(v.toString());
    }
    return out;
}

// The params' required `selector`, parsed, and as the caller wrote it.
void requiredSelector(Reader& reader, Automation::Selector& out, QJsonObject& json)
{
    if (!reader.has(QStringLiteral("selector"))) {
        reader.fail(QStringLiteral("selector"), QStringLiteral("is required"));
    } else if (auto sel = selector(reader.raw(QStringLiteral("selector")), QStringLiteral("selector")); !sel) {
        reader.fail(sel.error());
    } else {
        out = sel.value();
        json = reader.raw(QStringLiteral("selector")).toObject();
    }
}

std::optional<ConfirmParams> confirmOrFail(Reader& reader)
{
    if (!reader.has(QStringLiteral("confirm")))
        return ConfirmParams{};
    auto parsed = confirm(reader.raw(QStringLiteral("confirm")), QStringLiteral("confirm"));
    if (!parsed) {
        reader.fail(parsed.error());
        return std::nullopt;
    }
    return parsed.value();
}

} // namespace

void noteIgnored(IgnoredMembers& ignored, const QString& field, const QString& why)
{
    ignored.append(QJsonObject{{QStringLiteral("field"), field}, {QStringLiteral("why"), why}});
}

Result<Automation::Route> route(const QJsonValue& value, const QString& field)
{
    return Automation::Route::fromJson(value, field);
}

Result<Automation::Selector> selector(const QJsonValue& value, const QString& field)
{
    return Automation::Selector::fromJson(value, field);
}

Result<ConfirmParams> confirm(const QJsonValue& value, const QString& field)
{
    if (!value.isObject())
        return Error::invalidParam(field, field + QStringLiteral(" must be an object"));
    const QJsonObject object = value.toObject();
    Reader r(object, field);
    ConfirmParams out;
    out.token = r.string(QStringLiteral("token"), false, false);
    out.phrase = r.string(QStringLiteral("phrase"));
    out.approvedAt = r.string(QStringLiteral("approvedAt"));
    out.approver = r.string(QStringLiteral("approver"));
    return r.finish(out);
}

Result<ObserveParams> observe(const QJsonObject& params)
{
    if (auto refused = declared("desktop.observe", params))
        return *refused;
    Reader r(params, {});
    ObserveParams out;
    out.route = routeOrFail(r);
    if (auto options = r.object(QStringLiteral("options"))) {
        Reader o(*options, QStringLiteral("options"));
        out.includeScreenshot = o.boolean(QStringLiteral("includeScreenshot")).value_or(true);
        out.includeAxTree = o.boolean(QStringLiteral("includeAxTree")).value_or(true);
        out.bounds.maxDepth = static_cast<int>(o.integer(QStringLiteral("axMaxDepth")).value_or(8));
        out.bounds.maxNodes = static_cast<int>(o.integer(QStringLiteral("axMaxNodes")).value_or(2000));
        out.bounds.maxWallTimeMs = static_cast<int>(o.integer(QStringLiteral("axMaxWallTimeMs")).value_or(10000));
        out.bounds.includeText = o.boolean(QStringLiteral("includeText")).value_or(false);
        if (auto width = o.integer(QStringLiteral("maxWidth")))
            out.maxWidth = static_cast<int>(*width);
        out.maxPixels = o.integer(QStringLiteral("maxPixels"));
        if (o.failed())
            r.fail(o.error());
    }
    out.bounds.refresh = r.boolean(QStringLiteral("refresh")).value_or(false);
    return r.finish(out);
}

Result<FindParams> find(const QJsonObject& params)
{
    if (auto refused = declared("desktop.find", params))
        return *refused;
    Reader r(params, {});
    FindParams out;
    out.route = routeOrFail(r);
    requiredSelector(r, out.selector, out.selectorJson);
    if (r.has(QStringLiteral("include"))) {
        const QJsonValue include = r.raw(QStringLiteral("include"));
        if (!include.isArray()) {
            r.fail(QStringLiteral("include"), QStringLiteral("must be an array of \"text\", \"states\""));
        } else {
            const QJsonArray array = include.toArray();
            for (qsizetype i = 0; i < array.size(); ++i) {
                const QString what = array.at(i).toString();
                if (what == QLatin1String("text"))
                    out.includeText = true;
                else if (what == QLatin1String("states"))
                    out.includeStates = true;
                else {
                    r.fail(QStringLiteral("include[%1]").arg(i), QStringLiteral("must be \"text\" or \"states\""));
                    break;
                }
            }
        }
    }
    out.refresh = r.boolean(QStringLiteral("refresh")).value_or(false);
    // The bounds of the tree read, as dumpTree takes them.
    if (auto depth = r.integer(QStringLiteral("maxDepth")))
        out.maxDepth = static_cast<int>(*depth);
    if (auto nodes = r.integer(QStringLiteral("maxNodes")))
        out.maxNodes = static_cast<int>(*nodes);
    if (auto ms = r.integer(QStringLiteral("maxWallTimeMs")))
        out.maxWallTimeMs = static_cast<int>(*ms);
    return r.finish(out);
}

Result<ClickParams> click(const QJsonObject& params)
{
    if (auto refused = declared("desktop.click", params))
        return *refused;
    Reader r(params, {});
    ClickParams out;
    out.route = routeOrFail(r);
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    if (!r.has(QStringLiteral("target")))
        r.fail(QStringLiteral("target"), QStringLiteral("is required"));
    else if (auto t = target(r.raw(QStringLiteral("target")), QStringLiteral("target"), r))
        out.target = *t;
    out.allowCoordinateFallback = r.boolean(QStringLiteral("allowCoordinateFallback")).value_or(false);
    out.delivery = r.string(QStringLiteral("delivery"));
    return r.finish(out);
}

Result<TypeTextParams> typeText(const QJsonObject& params)
{
    if (auto refused = declared("desktop.typeText", params))
        return *refused;
    Reader r(params, {});
    TypeTextParams out;
    out.route = routeOrFail(r);
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    if (r.has(QStringLiteral("target"))) {
        if (auto t = target(r.raw(QStringLiteral("target")), QStringLiteral("target"), r))
            out.target = *t;
    }
    out.text = r.string(QStringLiteral("text"), true).value_or(QString());
    if (auto options = r.object(QStringLiteral("options"))) {
        Reader o(*options, QStringLiteral("options"));
        out.clearBefore = o.boolean(QStringLiteral("clearBefore")).value_or(false);
        out.keyDelayMs = static_cast<int>(o.integer(QStringLiteral("keyDelayMs")).value_or(0));
        if (o.failed())
            r.fail(o.error());
    }
    out.delivery = r.string(QStringLiteral("delivery"));
    return r.finish(out);
}

Result<HotkeyParams> hotkey(const QJsonObject& params)
{
    if (auto refused = declared("desktop.hotkey", params))
        return *refused;
    Reader r(params, {});
    HotkeyParams out;
    out.route = routeOrFail(r);
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    const QJsonValue keys = params.value(QStringLiteral("keys"));
    if (keys.isUndefined() || keys.isNull()) {
        r.fail(QStringLiteral("keys"), QStringLiteral("is required"));
    } else if (!keys.isArray()) {
        r.fail(QStringLiteral("keys"), QStringLiteral("must be an array of key names"));
    } else {
        const QStringList names = strings(r, QStringLiteral("keys"), keys.toArray(), false);
        if (!r.failed()) {
            auto chord = Automation::parseKeyChord(names);
            if (!chord)
                r.fail(chord.error());
            else
                out.chord = chord.value();
        }
    }
    if (auto options = r.object(QStringLiteral("options"))) {
        Reader o(*options, QStringLiteral("options"));
        out.delayMs = static_cast<int>(o.integer(QStringLiteral("delayMs")).value_or(50));
        if (o.failed())
            r.fail(o.error());
    }
    return r.finish(out);
}

Result<Automation::WaitCondition> waitCondition(const QJsonValue& value, const QString& field, int depth)
{
    using Kind = Automation::WaitCondition::Kind;
    static const QList<std::pair<QString, Kind>> kinds{
        {QStringLiteral("selectorExists"), Kind::SelectorExists},
        {QStringLiteral("selectorGone"), Kind::SelectorGone},
        {QStringLiteral("windowExists"), Kind::WindowExists},
        {QStringLiteral("windowGone"), Kind::WindowGone},
        {QStringLiteral("textMatches"), Kind::TextMatches},
        {QStringLiteral("valueEquals"), Kind::ValueEquals},
        {QStringLiteral("focused"), Kind::Focused},
        {QStringLiteral("enabled"), Kind::Enabled},
        {QStringLiteral("textOnScreen"), Kind::TextOnScreen},
        {QStringLiteral("imageOnScreen"), Kind::ImageOnScreen},
        {QStringLiteral("all"), Kind::All},
        {QStringLiteral("any"), Kind::Any},
    };
    QStringList names;
    for (const auto& [name, kind] : kinds)
        names.append(name);
    if (!value.isObject())
        return Error::invalidParam(field, field + QStringLiteral(" must be an object"));
    const QJsonObject object = value.toObject();
    if (object.size() != 1)
        return Error::invalidParam(
            field, field + QStringLiteral(" must have exactly one of: %1").arg(names.join(QStringLiteral(", "))));
    const QString name = object.constBegin().key();
    const QJsonValue body = object.constBegin().value();
    const QString where = field + QLatin1Char('.') + name;
    const auto found = std::find_if(kinds.cbegin(), kinds.cend(), [&](const auto& k) { return k.first == name; });
    if (found == kinds.cend())
        return Error::invalidParam(
            where,
            where + QStringLiteral(" is not a known condition (known: %1)").arg(names.join(QStringLiteral(", "))));
    Automation::WaitCondition out;
    out.kind = found->second;
    switch (out.kind) {
    case Kind::SelectorExists:
    case Kind::SelectorGone:
    case Kind::Focused:
    case Kind::Enabled: {
        auto sel = selector(body, where);
        if (!sel)
            return sel.error();
        out.selector = sel.value();
        out.selectorJson = body.toObject();
        return out;
    }
    case Kind::WindowExists:
    case Kind::WindowGone:
    case Kind::TextMatches:
    case Kind::ValueEquals: {
        if (!body.isObject())
            return Error::invalidParam(where, where + QStringLiteral(" must be an object"));
        const QJsonObject fields = body.toObject();
        Reader r(fields, where);
        const bool window = out.kind == Kind::WindowExists || out.kind == Kind::WindowGone;
        if (window) {
            r.rejectUnknown({QStringLiteral("titlePattern")});
            out.pattern = r.string(QStringLiteral("titlePattern"), true, false).value_or(QString());
        } else {
            const QString key = out.kind == Kind::TextMatches ? QStringLiteral("pattern") : QStringLiteral("value");
            r.rejectUnknown({QStringLiteral("selector"), key});
            if (!r.has(QStringLiteral("selector"))) {
                r.fail(QStringLiteral("selector"), QStringLiteral("is required"));
            } else if (auto sel = selector(r.raw(QStringLiteral("selector")), r.path(QStringLiteral("selector")));
                       !sel) {
                r.fail(sel.error());
            } else {
                out.selector = sel.value();
                out.selectorJson = r.raw(QStringLiteral("selector")).toObject();
            }
            if (out.kind == Kind::TextMatches)
                out.pattern = r.string(key, true, false).value_or(QString());
            else
                out.value = r.string(key, true).value_or(QString());
        }
        if (r.failed())
            return r.error();
        if (!out.pattern.isEmpty()) {
            out.regex = QRegularExpression(out.pattern);
            if (!out.regex.isValid()) {
                const QString key = window ? QStringLiteral("titlePattern") : QStringLiteral("pattern");
                return Error::invalidParam(where + QLatin1Char('.') + key,
                                           where + QLatin1Char('.') + key +
                                               QStringLiteral(" is not a valid regular expression: ") +
                                               out.regex.errorString());
            }
        }
        return out;
    }
    case Kind::TextOnScreen:
    case Kind::ImageOnScreen: {
        // The declaration checked the shape: text (or path and threshold), and optionally rect
        // and route.
        const QJsonObject fields = body.toObject();
        out.value = fields.value(QStringLiteral("text")).toString();
        if (out.kind == Kind::ImageOnScreen) {
            out.imagePath = fields.value(QStringLiteral("path")).toString();
            if (out.imagePath.trimmed().isEmpty())
                return Error::invalidParam(where + QStringLiteral(".path"),
                                           where + QStringLiteral(".path must name a PNG in the workspace"));
            out.threshold = fields.value(QStringLiteral("threshold")).toInt(90) / 100.0;
        }
        if (fields.contains(QStringLiteral("rect"))) {
            const QJsonObject rect = fields.value(QStringLiteral("rect")).toObject();
            out.rect = Automation::Frame{
                rect.value(QStringLiteral("x")).toInt(), rect.value(QStringLiteral("y")).toInt(),
                rect.value(QStringLiteral("width")).toInt(), rect.value(QStringLiteral("height")).toInt()};
        }
        if (fields.contains(QStringLiteral("route"))) {
            auto route =
                Automation::Route::fromJson(fields.value(QStringLiteral("route")), where + QStringLiteral(".route"));
            if (!route)
                return route.error();
            out.ocrRoute = route.value();
        }
        if (out.rect && out.ocrRoute)
            return Error::invalidParam(where + QStringLiteral(".rect"),
                                       where + QStringLiteral(".rect and route cannot both be given"));
        return out;
    }
    case Kind::All:
    case Kind::Any: {
        if (depth >= 4)
            return Error::invalidParam(where, where + QStringLiteral(" nests too deep (all/any at most 4 levels)"));
        if (!body.isArray() || body.toArray().isEmpty() || body.toArray().size() > 16)
            return Error::invalidParam(where, where + QStringLiteral(" must be an array of 1 to 16 conditions"));
        const QJsonArray array = body.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            auto child = waitCondition(array.at(i), where + QStringLiteral("[%1]").arg(i), depth + 1);
            if (!child)
                return child.error();
            out.children.append(child.value());
        }
        return out;
    }
    }
    return out;
}

Result<WaitUntilParams> waitUntil(const QJsonObject& params)
{
    if (auto refused = declared("desktop.waitUntil", params))
        return *refused;
    Reader r(params, {});
    WaitUntilParams out;
    out.route = routeOrFail(r);
    if (!r.has(QStringLiteral("condition"))) {
        r.fail(QStringLiteral("condition"), QStringLiteral("is required"));
    } else if (auto condition = waitCondition(r.raw(QStringLiteral("condition")), QStringLiteral("condition"));
               !condition) {
        r.fail(condition.error());
    } else {
        out.condition = condition.value();
    }
    out.pollMs = static_cast<int>(r.integer(QStringLiteral("pollMs")).value_or(500));
    out.timeoutMs = static_cast<int>(r.integer(QStringLiteral("timeoutMs"), true).value_or(0));
    out.refresh = r.boolean(QStringLiteral("refresh")).value_or(false);
    // The contract gives waitUntil the same route as every method (docs/protocol.md §4.3): a
    // client passes one route object everywhere. A wait only looks and never raises or focuses a
    // window, so the policy is accepted and said to be ignored.
    if (out.route.focusPolicy)
        noteIgnored(out.ignored, QStringLiteral("route.focusPolicy"),
                    QStringLiteral("a wait never changes focus (wait for the focused condition instead)"));
    return r.finish(out);
}

Result<AbortParams> abort(const QJsonObject& params)
{
    if (auto refused = declared("desktop.abort", params))
        return *refused;
    Reader r(params, {});
    AbortParams out;
    out.executionId = r.string(QStringLiteral("executionId"), true, false).value_or(QString());
    return r.finish(out);
}

Result<DumpTreeParams> dumpTree(const QJsonObject& params)
{
    if (auto refused = declared("desktop.dumpTree", params))
        return *refused;
    Reader r(params, {});
    DumpTreeParams out;
    out.route = routeOrFail(r);
    out.bounds.maxDepth = static_cast<int>(r.integer(QStringLiteral("maxDepth")).value_or(8));
    out.bounds.maxNodes = static_cast<int>(r.integer(QStringLiteral("maxNodes")).value_or(2000));
    out.bounds.maxWallTimeMs = static_cast<int>(r.integer(QStringLiteral("maxWallTimeMs")).value_or(10000));
    out.bounds.includeText = r.boolean(QStringLiteral("includeText")).value_or(false);
    return r.finish(out);
}

namespace {

// `route` or `rect` (screen coordinates), or neither (the display): capture's and ocr's area.
void areaOf(Reader& r, std::optional<Automation::Route>& route, std::optional<Automation::Frame>& rect)
{
    if (r.has(QStringLiteral("route")))
        route = routeOrFail(r);
    if (auto given = r.object(QStringLiteral("rect"))) {
        Reader f(*given, QStringLiteral("rect"));
        f.rejectUnknown({QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("width"), QStringLiteral("height")});
        Automation::Frame frame;
        frame.x = static_cast<int>(f.integer(QStringLiteral("x"), true).value_or(0));
        frame.y = static_cast<int>(f.integer(QStringLiteral("y"), true).value_or(0));
        frame.width = static_cast<int>(f.integer(QStringLiteral("width"), true).value_or(0));
        frame.height = static_cast<int>(f.integer(QStringLiteral("height"), true).value_or(0));
        if (f.failed())
            r.fail(f.error());
        rect = frame;
    }
    if (route && rect)
        r.fail(QStringLiteral("rect"),
               QStringLiteral("and route cannot both be given (a rect is in screen coordinates)"));
}

} // namespace

Result<CaptureParams> capture(const QJsonObject& params)
{
    if (auto refused = declared("desktop.capture", params))
        return *refused;
    Reader r(params, {});
    CaptureParams out;
    areaOf(r, out.route, out.rect);
    out.inlinePng = r.boolean(QStringLiteral("inline")).value_or(false);
    if (auto width = r.integer(QStringLiteral("maxWidth")))
        out.maxWidth = static_cast<int>(*width);
    out.maxPixels = r.integer(QStringLiteral("maxPixels"));
    return r.finish(out);
}

Result<OcrParams> ocr(const QJsonObject& params)
{
    if (auto refused = declared("desktop.ocr", params))
        return *refused;
    Reader r(params, {});
    OcrParams out;
    areaOf(r, out.route, out.rect);
    out.languages = Automation::Ocr::defaultLanguages();
    if (r.has(QStringLiteral("languages"))) {
        // The declaration checked each name; a language asked twice is read once.
        out.languages.clear();
        for (const QJsonValue& language : r.raw(QStringLiteral("languages")).toArray()) {
            if (!out.languages.contains(language.toString()))
                out.languages.append(language.toString());
        }
    }
    out.minConfidence = static_cast<int>(r.integer(QStringLiteral("minConfidence")).value_or(40));
    if (auto mode = r.string(QStringLiteral("redactionMode")))
        out.redactionMode = *mode;
    return r.finish(out);
}

Result<GroundParams> ground(const QJsonObject& params)
{
    if (auto refused = declared("desktop.ground", params))
        return *refused;
    Reader r(params, {});
    GroundParams out;
    out.description = r.string(QStringLiteral("description")).value_or(QString()).trimmed();
    if (out.description.isEmpty())
        r.fail(QStringLiteral("description"), QStringLiteral("must say what to find"));
    else if (out.description.size() > 500)
        r.fail(QStringLiteral("description"), QStringLiteral("is longer than 500 characters"));
    areaOf(r, out.route, out.rect);
    return r.finish(out);
}

Result<ReadTextParams> readText(const QJsonObject& params)
{
    if (auto refused = declared("desktop.readText", params))
        return *refused;
    Reader r(params, {});
    ReadTextParams out;
    out.route = routeOrFail(r);
    requiredSelector(r, out.selector, out.selectorJson);
    out.limitBytes = r.integer(QStringLiteral("limitBytes")).value_or(65536);
    if (auto mode = r.string(QStringLiteral("redactionMode")))
        out.redactionMode = *mode;
    return r.finish(out);
}

Result<AppParams> app(const QJsonObject& params)
{
    if (auto refused = declared("desktop.app", params))
        return *refused;
    Reader r(params, {});
    AppParams out;
    out.action = r.string(QStringLiteral("action")).value_or(QString());
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    const QJsonObject app = params.value(QStringLiteral("app")).toObject();
    out.bundleId = app.value(QStringLiteral("bundleId")).toString();
    out.desktopId = app.value(QStringLiteral("desktopId")).toString();
    out.executable = app.value(QStringLiteral("executable")).toString();
    if (app.contains(QStringLiteral("pid")))
        out.pid = app.value(QStringLiteral("pid")).toInteger();
    for (const QJsonValue& arg : params.value(QStringLiteral("args")).toArray())
        out.args.append(arg.toString());
    out.force = params.value(QStringLiteral("force")).toBool();
    return r.finish(out);
}

Result<ClipboardParams> clipboard(const QJsonObject& params)
{
    if (auto refused = declared("desktop.clipboard", params))
        return *refused;
    Reader r(params, {});
    ClipboardParams out;
    out.action = r.string(QStringLiteral("action")).value_or(QString());
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    out.text = r.string(QStringLiteral("text")).value_or(QString());
    if (auto mode = r.string(QStringLiteral("redactionMode")))
        out.redactionMode = *mode;
    out.restoreAfterMs = static_cast<int>(r.integer(QStringLiteral("restoreAfterMs")).value_or(0));
    return r.finish(out);
}

Result<FileDialogParams> fileDialog(const QJsonObject& params)
{
    if (auto refused = declared("desktop.fileDialog", params))
        return *refused;
    Reader r(params, {});
    FileDialogParams out;
    out.route = routeOrFail(r);
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    out.path = QDir::cleanPath(r.string(QStringLiteral("path")).value_or(QString()));
    out.save = r.string(QStringLiteral("action")).value_or(QString()) == QLatin1String("save");
    out.replace = r.string(QStringLiteral("overwrite")).value_or(QString()) == QLatin1String("replace");
    if (out.path.endsWith(QLatin1Char('/')))
        r.fail(QStringLiteral("path"), QStringLiteral("names a folder: give the folder and the file's name"));
    return r.finish(out);
}

Result<ScrollParams> scroll(const QJsonObject& params)
{
    if (auto refused = declared("desktop.scroll", params))
        return *refused;
    using Direction = Automation::ScrollSpec::Direction;
    Reader r(params, {});
    ScrollParams out;
    out.route = routeOrFail(r);
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    if (!r.has(QStringLiteral("target")))
        r.fail(QStringLiteral("target"), QStringLiteral("is required"));
    else if (auto t = target(r.raw(QStringLiteral("target")), QStringLiteral("target"), r))
        out.target = *t;
    if (auto direction = r.string(QStringLiteral("direction"))) {
        static const QHash<QString, Direction> names{{QStringLiteral("up"), Direction::Up},
                                                     {QStringLiteral("down"), Direction::Down},
                                                     {QStringLiteral("left"), Direction::Left},
                                                     {QStringLiteral("right"), Direction::Right}};
        out.spec.direction = names.value(*direction);
    }
    const bool intoView = out.spec.direction == Direction::IntoView;
    if (intoView && (r.has(QStringLiteral("amount")) || r.has(QStringLiteral("unit"))))
        r.fail(QStringLiteral("direction"),
               QStringLiteral("is required with amount or unit (without one the target is brought into view)"));
    out.spec.amount = static_cast<int>(r.integer(QStringLiteral("amount")).value_or(3));
    if (auto unit = r.string(QStringLiteral("unit")))
        out.spec.pages = *unit == QLatin1String("page");
    if (!r.has(QStringLiteral("amount")) && out.spec.pages)
        out.spec.amount = 1;
    return r.finish(out);
}

namespace {

// A point {x, y} in screen coordinates, refused with the field's path.
std::optional<QPoint> point(Reader& r, const QString& key, bool required)
{
    if (!r.has(key)) {
        if (required)
            r.fail(key, QStringLiteral("is required"));
        return std::nullopt;
    }
    auto object = r.object(key);
    if (!object)
        return std::nullopt;
    Reader p(*object, r.path(key));
    p.rejectUnknown({QStringLiteral("x"), QStringLiteral("y")});
    const auto x = p.integer(QStringLiteral("x"), true);
    const auto y = p.integer(QStringLiteral("y"), true);
    if (p.failed()) {
        r.fail(p.error());
        return std::nullopt;
    }
    return QPoint(static_cast<int>(*x), static_cast<int>(*y));
}

} // namespace

Result<PointerParams> pointer(const QJsonObject& params)
{
    if (auto refused = declared("desktop.pointer", params))
        return *refused;
    using Kind = Automation::PointerGesture::Kind;
    Reader r(params, {});
    PointerParams out;
    out.route = routeOrFail(r);
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    static const QHash<QString, Kind> kinds{{QStringLiteral("move"), Kind::Move},
                                            {QStringLiteral("click"), Kind::Click},
                                            {QStringLiteral("press"), Kind::Press},
                                            {QStringLiteral("drag"), Kind::Drag}};
    if (auto gesture = r.string(QStringLiteral("gesture")))
        out.gesture.kind = kinds.value(*gesture);
    else if (!r.has(QStringLiteral("gesture")))
        r.fail(QStringLiteral("gesture"), QStringLiteral("is required"));
    if (r.has(QStringLiteral("target"))) {
        if (auto t = target(r.raw(QStringLiteral("target")), QStringLiteral("target"), r))
            out.target = *t;
    }
    out.point = point(r, QStringLiteral("point"), false);
    if (r.has(QStringLiteral("target")) == r.has(QStringLiteral("point")))
        r.fail(QStringLiteral("target"), QStringLiteral("or point is required (one of them, not both)"));
    const bool drag = out.gesture.kind == Kind::Drag;
    if (r.has(QStringLiteral("toTarget"))) {
        if (auto t = target(r.raw(QStringLiteral("toTarget")), QStringLiteral("toTarget"), r))
            out.toTarget = *t;
    }
    out.to = point(r, QStringLiteral("to"), false);
    if (drag && r.has(QStringLiteral("toTarget")) == r.has(QStringLiteral("to")))
        r.fail(QStringLiteral("to"), QStringLiteral("or toTarget is required for a drag (one of them, not both)"));
    if (!drag && (r.has(QStringLiteral("to")) || r.has(QStringLiteral("toTarget"))))
        r.fail(QStringLiteral("to"), QStringLiteral("is only for gesture \"drag\""));
    if (auto button = r.string(QStringLiteral("button")))
        out.gesture.button = *button == QLatin1String("left") ? 1 : *button == QLatin1String("middle") ? 2 : 3;
    out.gesture.count = static_cast<int>(r.integer(QStringLiteral("count")).value_or(1));
    if (r.has(QStringLiteral("count")) && out.gesture.kind != Kind::Click)
        r.fail(QStringLiteral("count"), QStringLiteral("is only for gesture \"click\""));
    out.gesture.holdMs = static_cast<int>(r.integer(QStringLiteral("holdMs"))
                                              .value_or(out.gesture.kind == Kind::Press ? 1000
                                                        : drag                          ? 100
                                                                                        : 0));
    out.gesture.durationMs = static_cast<int>(r.integer(QStringLiteral("durationMs")).value_or(500));
    if (drag && out.gesture.button != 1 && r.has(QStringLiteral("button")))
        r.fail(QStringLiteral("button"), QStringLiteral("must be left for a drag"));
    return r.finish(out);
}

Result<WindowsParams> windows(const QJsonObject& params)
{
    if (auto refused = declared("desktop.windows", params))
        return *refused;
    Reader r(params, {});
    WindowsParams out;
    out.app = r.string(QStringLiteral("app"));
    out.includeMinimized = r.boolean(QStringLiteral("includeMinimized")).value_or(true);
    return r.finish(out);
}

Result<DisplaysParams> displays(const QJsonObject& params)
{
    if (auto refused = declared("desktop.displays", params))
        return *refused;
    return DisplaysParams{};
}

Result<WindowParams> window(const QJsonObject& params)
{
    if (auto refused = declared("desktop.window", params))
        return *refused;
    using Action = Automation::WindowCommand::Action;
    Reader r(params, {});
    WindowParams out;
    if (!r.has(QStringLiteral("route")))
        r.fail(QStringLiteral("route"), QStringLiteral("is required (which window)"));
    out.route = routeOrFail(r);
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    // Focus is the action's own business (minimizing a window must not raise it first).
    if (out.route.focusPolicy)
        noteIgnored(out.ignored, QStringLiteral("route.focusPolicy"),
                    QStringLiteral("a window action decides focus itself (action \"focus\" raises and focuses)"));
    static const QHash<QString, Action> actions{
        {QStringLiteral("focus"), Action::Focus},       {QStringLiteral("minimize"), Action::Minimize},
        {QStringLiteral("maximize"), Action::Maximize}, {QStringLiteral("restore"), Action::Restore},
        {QStringLiteral("close"), Action::Close},       {QStringLiteral("move"), Action::Move},
        {QStringLiteral("resize"), Action::Resize}};
    if (auto action = r.string(QStringLiteral("action")))
        out.command.action = actions.value(*action);
    else if (!r.has(QStringLiteral("action")))
        r.fail(QStringLiteral("action"), QStringLiteral("is required"));
    if (out.command.action == Action::Move) {
        if (auto p = point(r, QStringLiteral("position"), true))
            out.command.position = *p;
    } else if (r.has(QStringLiteral("position"))) {
        r.fail(QStringLiteral("position"), QStringLiteral("is only for action \"move\""));
    }
    if (out.command.action == Action::Resize) {
        if (auto size = r.object(QStringLiteral("size"))) {
            Reader z(*size, r.path(QStringLiteral("size")));
            z.rejectUnknown({QStringLiteral("width"), QStringLiteral("height")});
            const auto w = z.integer(QStringLiteral("width"), true);
            const auto h = z.integer(QStringLiteral("height"), true);
            if (z.failed())
                r.fail(z.error());
            else
                out.command.size = QSize(static_cast<int>(*w), static_cast<int>(*h));
        } else if (!r.has(QStringLiteral("size"))) {
            r.fail(QStringLiteral("size"), QStringLiteral("is required for action \"resize\""));
        }
    } else if (r.has(QStringLiteral("size"))) {
        r.fail(QStringLiteral("size"), QStringLiteral("is only for action \"resize\""));
    }
    return r.finish(out);
}

Result<ElementAtParams> elementAt(const QJsonObject& params)
{
    if (auto refused = declared("desktop.elementAt", params))
        return *refused;
    Reader r(params, {});
    ElementAtParams out;
    if (r.has(QStringLiteral("route")))
        out.route = routeOrFail(r);
    if (auto p = point(r, QStringLiteral("point"), true))
        out.point = *p;
    return r.finish(out);
}

Result<MenuPickParams> menuPick(const QJsonObject& params)
{
    if (auto refused = declared("desktop.menuPick", params))
        return *refused;
    Reader r(params, {});
    MenuPickParams out;
    out.route = routeOrFail(r);
    if (auto c = confirmOrFail(r))
        out.confirm = *c;
    const QJsonValue path = params.value(QStringLiteral("path"));
    if (path.isUndefined() || path.isNull()) {
        r.fail(QStringLiteral("path"), QStringLiteral("is required"));
    } else if (!path.isArray() || path.toArray().isEmpty() || path.toArray().size() > 8) {
        r.fail(QStringLiteral("path"), QStringLiteral("must be an array of 1 to 8 menu titles"));
    } else {
        out.path = strings(r, QStringLiteral("path"), path.toArray(), true);
    }
    return r.finish(out);
}

} // namespace Bridge::Params
