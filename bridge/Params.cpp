#include "Params.h"

#include <QJsonArray>
#include <QSet>

#include <cmath>

namespace Bridge::Params {

using Automation::Error;
using Automation::Result;

namespace {

// Reads the members of one JSON object, recording the first problem with the field's full
// path ("route.window.titlePattern"), so each parser reads like the contract's JSON.
class Reader
{
public:
    Reader(const QJsonObject& object, QString prefix) : m_object(object), m_prefix(std::move(prefix)) {}

    bool failed() const { return m_error.has_value(); }
    const Error& error() const { return *m_error; }
    QString path(const QString& key) const { return m_prefix.isEmpty() ? key : m_prefix + QLatin1Char('.') + key; }
    bool has(const QString& key) const
    {
        const auto v = m_object.value(key);
        return !v.isUndefined() && !v.isNull();
    }
    QJsonValue raw(const QString& key) const { return m_object.value(key); }

    void fail(const QString& key, const QString& message)
    {
        if (!m_error)
            m_error = Error::invalidParam(path(key), path(key) + QLatin1Char(' ') + message);
    }
    void fail(const Error& error)
    {
        if (!m_error)
            m_error = error;
    }

    // Members outside `known` are refused where a typo would silently widen what is matched.
    void rejectUnknown(const QStringList& known)
    {
        for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
            if (!known.contains(it.key())) {
                fail(it.key(), QStringLiteral("is not a known field (known: %1)").arg(known.join(QStringLiteral(", "))));
                return;
            }
        }
    }

    std::optional<QString> string(const QString& key, bool required = false, bool allowEmpty = true)
    {
        if (!has(key)) {
            if (required)
                fail(key, QStringLiteral("is required"));
            return std::nullopt;
        }
        const QJsonValue v = m_object.value(key);
        if (!v.isString()) {
            fail(key, QStringLiteral("must be a string"));
            return std::nullopt;
        }
        if (!allowEmpty && v.toString().isEmpty()) {
            fail(key, QStringLiteral("must not be empty"));
            return std::nullopt;
        }
        return v.toString();
    }

    std::optional<bool> boolean(const QString& key)
    {
        if (!has(key))
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        if (!v.isBool()) {
            fail(key, QStringLiteral("must be true or false"));
            return std::nullopt;
        }
        return v.toBool();
    }

    std::optional<qint64> integer(const QString& key, qint64 min, qint64 max, bool required = false)
    {
        if (!has(key)) {
            if (required)
                fail(key, QStringLiteral("is required"));
            return std::nullopt;
        }
        const QJsonValue v = m_object.value(key);
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || std::floor(d) != d || d < double(min) || d > double(max)) {
            fail(key, QStringLiteral("must be an integer from %1 to %2").arg(min).arg(max));
            return std::nullopt;
        }
        return static_cast<qint64>(d);
    }

    std::optional<QJsonObject> object(const QString& key, bool required = false)
    {
        if (!has(key)) {
            if (required)
                fail(key, QStringLiteral("is required"));
            return std::nullopt;
        }
        const QJsonValue v = m_object.value(key);
        if (!v.isObject()) {
            fail(key, QStringLiteral("must be an object"));
            return std::nullopt;
        }
        return v.toObject();
    }

private:
    const QJsonObject& m_object;
    QString m_prefix;
    std::optional<Error> m_error;
};

template <typename T>
Result<T> finish(const Reader& reader, T value)
{
    if (reader.failed())
        return reader.error();
    return value;
}

std::optional<Automation::TextMatch> textMatch(Reader& reader, const QString& equalsKey, const QString& containsKey,
                                               const QString& matchesKey, bool caseSensitive)
{
    using Mode = Automation::TextMatch::Mode;
    QStringList given;
    std::optional<Automation::TextMatch> out;
    if (auto s = reader.string(equalsKey)) {
        given.append(equalsKey);
        out = Automation::TextMatch{Mode::Equals, *s, {}};
    }
    if (auto s = reader.string(containsKey)) {
        given.append(containsKey);
        out = Automation::TextMatch{Mode::Contains, *s, {}};
    }
    if (auto s = reader.string(matchesKey)) {
        given.append(matchesKey);
        QRegularExpression re(*s, caseSensitive ? QRegularExpression::NoPatternOption
                                                : QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            reader.fail(matchesKey, QStringLiteral("is not a valid regular expression: %1").arg(re.errorString()));
            return std::nullopt;
        }
        out = Automation::TextMatch{Mode::Regex, *s, re};
    }
    if (given.size() > 1) {
        // Name a field the client sent: the second one conflicts with the first.
        reader.fail(given.at(1), QStringLiteral("conflicts with %1: give one of them").arg(given.at(0)));
        return std::nullopt;
    }
    return out;
}

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

Result<Automation::Route> route(const QJsonValue& value, const QString& field)
{
    if (!value.isObject())
        return Error::invalidParam(field, field + QStringLiteral(" must be an object"));
    const QJsonObject object = value.toObject();
    Reader r(object, field);
    r.rejectUnknown({QStringLiteral("app"), QStringLiteral("window"), QStringLiteral("focusPolicy"),
                     QStringLiteral("display")});
    Automation::Route out;
    if (auto app = r.object(QStringLiteral("app"))) {
        Reader ar(*app, r.path(QStringLiteral("app")));
        ar.rejectUnknown({QStringLiteral("bundleId"), QStringLiteral("pid")});
        out.bundleId = ar.string(QStringLiteral("bundleId"), false, false);
        out.pid = ar.integer(QStringLiteral("pid"), 1, std::numeric_limits<int>::max());
        if (ar.failed())
            r.fail(ar.error());
    }
    if (auto window = r.object(QStringLiteral("window"))) {
        Reader wr(*window, r.path(QStringLiteral("window")));
        wr.rejectUnknown({QStringLiteral("titlePattern")});
        if (auto pattern = wr.string(QStringLiteral("titlePattern"))) {
            const QRegularExpression re(*pattern);
            if (!re.isValid())
                wr.fail(QStringLiteral("titlePattern"),
                        QStringLiteral("is not a valid regular expression: %1").arg(re.errorString()));
            else
                out.windowTitlePattern = *pattern;
        }
        if (wr.failed())
            r.fail(wr.error());
    }
    if (r.has(QStringLiteral("display")))
        r.fail(QStringLiteral("display"), QStringLiteral("is not supported: the host drives the primary display"));
    if (auto policy = r.string(QStringLiteral("focusPolicy"))) {
        out.focusPolicy = Automation::focusPolicyFromName(*policy);
        if (!out.focusPolicy)
            r.fail(QStringLiteral("focusPolicy"),
                   QStringLiteral("must be one of focusIfNeeded, requireFocused, failIfNotFocused"));
    }
    return finish(r, out);
}

Result<Automation::Selector> selector(const QJsonValue& value, const QString& field)
{
    if (!value.isObject())
        return Error::invalidParam(field, field + QStringLiteral(" must be an object"));
    const QJsonObject object = value.toObject();
    Reader r(object, field);
    r.rejectUnknown({QStringLiteral("byRole"), QStringLiteral("titleContains"), QStringLiteral("titleEquals"),
                     QStringLiteral("titleMatches"), QStringLiteral("valueContains"), QStringLiteral("valueEquals"),
                     QStringLiteral("valueMatches"), QStringLiteral("byIdentifier"), QStringLiteral("enabledOnly"),
                     QStringLiteral("visibleOnly"), QStringLiteral("caseSensitive"), QStringLiteral("limit")});
    Automation::Selector out;
    out.caseSensitive = r.boolean(QStringLiteral("caseSensitive")).value_or(false);
    out.byRole = r.string(QStringLiteral("byRole"), false, false);
    out.title = textMatch(r, QStringLiteral("titleEquals"), QStringLiteral("titleContains"),
                          QStringLiteral("titleMatches"), out.caseSensitive);
    out.value = textMatch(r, QStringLiteral("valueEquals"), QStringLiteral("valueContains"),
                          QStringLiteral("valueMatches"), out.caseSensitive);
    out.byIdentifier = r.string(QStringLiteral("byIdentifier"), false, false);
    out.enabledOnly = r.boolean(QStringLiteral("enabledOnly")).value_or(false);
    out.visibleOnly = r.boolean(QStringLiteral("visibleOnly")).value_or(false);
    out.limit = static_cast<int>(r.integer(QStringLiteral("limit"), 1, 1000).value_or(10));
    if (!r.failed() && !out.byRole && !out.title && !out.value && !out.byIdentifier)
        r.fail(QStringLiteral("byRole"), QStringLiteral("or another criterion is required: an empty selector would "
                                                        "match every element"));
    return finish(r, out);
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
    return finish(r, out);
}

Result<ObserveParams> observe(const QJsonObject& params)
{
    Reader r(params, {});
    ObserveParams out;
    out.route = routeOrFail(r);
    if (auto options = r.object(QStringLiteral("options"))) {
        Reader o(*options, QStringLiteral("options"));
        out.includeScreenshot = o.boolean(QStringLiteral("includeScreenshot")).value_or(true);
        out.includeAxTree = o.boolean(QStringLiteral("includeAxTree")).value_or(true);
        out.bounds.maxDepth = static_cast<int>(o.integer(QStringLiteral("axMaxDepth"), 1, 256).value_or(8));
        out.bounds.maxNodes = static_cast<int>(o.integer(QStringLiteral("axMaxNodes"), 1, 100000).value_or(2000));
        out.bounds.maxWallTimeMs =
            static_cast<int>(o.integer(QStringLiteral("axMaxWallTimeMs"), 1, 600000).value_or(10000));
        out.bounds.includeText = o.boolean(QStringLiteral("includeText")).value_or(false);
        if (o.failed())
            r.fail(o.error());
    }
    return finish(r, out);
}

Result<FindParams> find(const QJsonObject& params)
{
    Reader r(params, {});
    FindParams out;
    out.route = routeOrFail(r);
    if (!r.has(QStringLiteral("selector"))) {
        r.fail(QStringLiteral("selector"), QStringLiteral("is required"));
    } else if (auto sel = selector(r.raw(QStringLiteral("selector")), QStringLiteral("selector")); !sel) {
        r.fail(sel.error());
    } else {
        out.selector = sel.value();
        out.selectorJson = r.raw(QStringLiteral("selector")).toObject();
    }
    return finish(r, out);
}

Result<ClickParams> click(const QJsonObject& params)
{
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
    return finish(r, out);
}

Result<TypeTextParams> typeText(const QJsonObject& params)
{
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
        if (o.failed())
            r.fail(o.error());
    }
    return finish(r, out);
}

Result<HotkeyParams> hotkey(const QJsonObject& params)
{
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
        QStringList names;
        const QJsonArray array = keys.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (!array.at(i).isString()) {
                r.fail(QStringLiteral("keys[%1]").arg(i), QStringLiteral("must be a string"));
                break;
            }
            names.append(array.at(i).toString());
        }
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
        out.delayMs = static_cast<int>(o.integer(QStringLiteral("delayMs"), 0, 5000).value_or(50));
        if (o.failed())
            r.fail(o.error());
    }
    return finish(r, out);
}

Result<WaitUntilParams> waitUntil(const QJsonObject& params)
{
    Reader r(params, {});
    WaitUntilParams out;
    out.route = routeOrFail(r);
    if (auto condition = r.object(QStringLiteral("condition"), true)) {
        Reader c(*condition, QStringLiteral("condition"));
        c.rejectUnknown({QStringLiteral("selectorExists")});
        if (!c.has(QStringLiteral("selectorExists"))) {
            c.fail(QStringLiteral("selectorExists"), QStringLiteral("is required (the only condition supported)"));
        } else if (auto sel = selector(c.raw(QStringLiteral("selectorExists")), QStringLiteral("condition.selectorExists"));
                   !sel) {
            c.fail(sel.error());
        } else {
            out.selector = sel.value();
            out.selectorJson = c.raw(QStringLiteral("selectorExists")).toObject();
        }
        if (c.failed())
            r.fail(c.error());
    }
    out.pollMs = static_cast<int>(r.integer(QStringLiteral("pollMs"), 10, 60000).value_or(500));
    out.timeoutMs = static_cast<int>(r.integer(QStringLiteral("timeoutMs"), 1, 600000, true).value_or(0));
    return finish(r, out);
}

Result<AbortParams> abort(const QJsonObject& params)
{
    Reader r(params, {});
    AbortParams out;
    out.executionId = r.string(QStringLiteral("executionId"), true, false).value_or(QString());
    return finish(r, out);
}

} // namespace Bridge::Params
