#include "automation/Types.h"

#include "automation/JsonFieldReader.h"

#include <QJsonDocument>

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>

namespace Automation {

QJsonObject Frame::toJson() const
{
    return QJsonObject{{QStringLiteral("x"), x},
                       {QStringLiteral("y"), y},
                       {QStringLiteral("width"), width},
                       {QStringLiteral("height"), height}};
}

std::optional<Frame> Frame::fromJson(const QJsonObject& object)
{
    const QStringList keys{QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("width"), QStringLiteral("height")};
    for (const auto& key : keys) {
        if (!object.value(key).isDouble())
            return std::nullopt;
    }
    return Frame{object.value(keys[0]).toInt(), object.value(keys[1]).toInt(), object.value(keys[2]).toInt(),
                 object.value(keys[3]).toInt()};
}

bool isSecureRole(const QString& role)
{
    return role.compare(QLatin1String("AXSecureTextField"), Qt::CaseInsensitive) == 0 ||
           role.compare(QLatin1String("password text"), Qt::CaseInsensitive) == 0;
}

QString numberText(double number)
{
    // Whole numbers up to 2^53 are exact in a double.
    constexpr double kExact = 9007199254740992.0;
    if (std::isfinite(number) && std::trunc(number) == number && std::fabs(number) <= kExact)
        return QString::number(static_cast<qint64>(number));
    return QString::number(number, 'g', 15);
}

bool Node::isSecure() const
{
    return has(StateSecure) || isSecureRole(subrole) || isSecureRole(role) || isSecureRole(nativeRole);
}

QStringList Node::stateNames() const
{
    static const std::pair<NodeState, const char*> kNames[] = {
        {StateEnabled, "enabled"}, {StateFocused, "focused"},   {StateSelected, "selected"},
        {StateChecked, "checked"}, {StateEditable, "editable"}, {StateSecure, "secure"},
        {StateVisible, "visible"}, {StateShowing, "showing"},   {StateFocusable, "focusable"},
        {StateActive, "active"},   {StateModal, "modal"},       {StateExpanded, "expanded"},
    };
    QStringList names;
    for (const auto& [bit, name] : kNames) {
        if ((states & bit) || (bit == StateSecure && isSecure()))
            names.append(QString::fromLatin1(name));
    }
    return names;
}

namespace {

// Members of one ax.json node, by the keys nodeJson() (SnapshotJson.cpp) writes, in document order (pre-order):
// the order the backends give the nodes, which the selector engine breaks ties by.
bool readNode(const QJsonObject& object, const QString& where, int parent, QList<Node>& nodes, JsonFieldReader& outer)
{
    JsonFieldReader r(object, where);
    Node node;
    node.elementId = r.string(QStringLiteral("elementId"), true).value_or(QString());
    node.role = r.string(QStringLiteral("role"), true).value_or(QString());
    node.nativeRole = r.string(QStringLiteral("nativeRole")).value_or(QString());
    node.subrole = r.string(QStringLiteral("subrole")).value_or(QString());
    node.title = r.string(QStringLiteral("title")).value_or(QString());
    node.identifier = r.string(QStringLiteral("identifier")).value_or(QString());
    node.description = r.string(QStringLiteral("description")).value_or(QString());
    if (auto value = r.string(QStringLiteral("value"))) {
        node.value = *value;
        node.hasValue = true;
    }
    const auto strings = [&](const QString& key, QStringList* out) {
        if (!r.has(key))
            return;
        if (!r.raw(key).isArray()) {
            r.fail(key, QStringLiteral("must be an array of strings"));
            return;
        }
        const QJsonArray array = r.raw(key).toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (!array.at(i).isString()) {
                r.fail(QStringLiteral("%1[%2]").arg(key).arg(i), QStringLiteral("must be a string"));
                return;
            }
            out->append(array.at(i).toString());
        }
    };
    strings(QStringLiteral("actions"), &node.actions);
    if (auto omitted = r.object(QStringLiteral("omitted"))) {
        node.omittedChildren = omitted->value(QStringLiteral("childCount")).toInteger();
        node.omittedReason = omitted->value(QStringLiteral("reason")).toString();
    }
    // Frame and states are written exactly for the nodes whose details were read.
    node.detailed = r.has(QStringLiteral("frame")) || r.has(QStringLiteral("states"));
    if (auto frame = r.object(QStringLiteral("frame"))) {
        if (auto parsed = Frame::fromJson(*frame))
            node.frame = *parsed;
        else
            r.fail(QStringLiteral("frame"), QStringLiteral("must hold the integers x, y, width and height"));
    }
    QStringList stateNames;
    strings(QStringLiteral("states"), &stateNames);
    for (const QString& name : std::as_const(stateNames)) {
        static const std::pair<const char*, NodeState> kStates[] = {
            {"enabled", StateEnabled}, {"focused", StateFocused},   {"selected", StateSelected},
            {"checked", StateChecked}, {"editable", StateEditable}, {"secure", StateSecure},
            {"visible", StateVisible}, {"showing", StateShowing},   {"focusable", StateFocusable},
            {"active", StateActive},   {"modal", StateModal},       {"expanded", StateExpanded},
        };
        // A name this build does not know (written by a newer host) sets no bit.
        for (const auto& [known, bit] : kStates) {
            if (name == QLatin1String(known))
                node.states |= bit;
        }
    }
    if (r.has(QStringLiteral("path"))) {
        const QJsonValue path = r.raw(QStringLiteral("path"));
        const QJsonArray steps = path.toArray();
        for (const QJsonValue& step : steps) {
            const double d = step.toDouble(-1);
            if (!step.isDouble() || d < 0 || d > std::numeric_limits<int>::max() || std::floor(d) != d) {
                r.fail(QStringLiteral("path"), QStringLiteral("must be an array of child indexes"));
                break;
            }
            node.path.append(static_cast<int>(d));
        }
        if (!path.isArray())
            r.fail(QStringLiteral("path"), QStringLiteral("must be an array of child indexes"));
    } else if (parent >= 0) {
        node.path = nodes.at(parent).path;
        node.path.append(static_cast<int>(nodes.at(parent).children.size()));
    }
    QJsonArray children;
    if (r.has(QStringLiteral("children"))) {
        if (r.raw(QStringLiteral("children")).isArray())
            children = r.raw(QStringLiteral("children")).toArray();
        else
            r.fail(QStringLiteral("children"), QStringLiteral("must be an array of nodes"));
    }
    if (r.failed()) {
        outer.fail(r.error());
        return false;
    }
    node.parent = parent;
    const int index = static_cast<int>(nodes.size());
    if (parent >= 0)
        nodes[parent].children.append(index);
    nodes.append(std::move(node));
    // Recursion is bounded by QJsonDocument's own nesting limit on the text it parsed.
    for (qsizetype i = 0; i < children.size(); ++i) {
        const QString childWhere = where % QStringLiteral(".children[") % QString::number(i) % QLatin1Char(']');
        if (!children.at(i).isObject()) {
            outer.fail(Error::invalidParam(childWhere, childWhere + QStringLiteral(" must be an object")));
            return false;
        }
        if (!readNode(children.at(i).toObject(), childWhere, index, nodes, outer))
            return false;
    }
    return true;
}

} // namespace

Result<Snapshot> Snapshot::fromJson(const QJsonObject& object)
{
    JsonFieldReader r(object, {});
    Snapshot out;
    out.bundleId = r.string(QStringLiteral("app")).value_or(QString());
    out.appName = r.string(QStringLiteral("appName")).value_or(QString());
    out.pid =
        r.integer(QStringLiteral("pid"), std::numeric_limits<qint64>::min() / 2, std::numeric_limits<qint64>::max() / 2)
            .value_or(0);
    out.windowTitle = r.string(QStringLiteral("window")).value_or(QString());
    if (auto bounds = r.object(QStringLiteral("bounds"))) {
        JsonFieldReader b(*bounds, QStringLiteral("bounds"));
        const int intMax = std::numeric_limits<int>::max();
        out.bounds.maxDepth = static_cast<int>(b.integer(QStringLiteral("maxDepth"), 0, intMax).value_or(8));
        out.bounds.maxNodes = static_cast<int>(b.integer(QStringLiteral("maxNodes"), 0, intMax).value_or(2000));
        out.bounds.maxWallTimeMs =
            static_cast<int>(b.integer(QStringLiteral("maxWallTimeMs"), 0, intMax).value_or(10000));
        out.bounds.includeText = b.boolean(QStringLiteral("includeText")).value_or(false);
        out.bounds.searchOnly = b.boolean(QStringLiteral("searchOnly")).value_or(false);
        if (b.failed())
            r.fail(b.error());
    }
    out.elapsedMs = r.integer(QStringLiteral("elapsedMs"), 0, std::numeric_limits<qint64>::max() / 2).value_or(0);
    out.truncated = r.boolean(QStringLiteral("truncated")).value_or(false);
    out.truncatedReason = r.string(QStringLiteral("truncatedReason")).value_or(QString());
    if (auto takenAt = r.string(QStringLiteral("takenAt")); takenAt && !takenAt->isEmpty()) {
        out.takenAt = QDateTime::fromString(*takenAt, Qt::ISODateWithMs);
        if (!out.takenAt.isValid())
            r.fail(QStringLiteral("takenAt"), QStringLiteral("must be a date and time (ISO 8601)"));
        out.takenAt = out.takenAt.toUTC();
    }
    // "root" is null for an empty snapshot, and missing in anything that is not a snapshot.
    if (!object.contains(QStringLiteral("root")))
        r.fail(QStringLiteral("root"), QStringLiteral("is required (null for an empty snapshot)"));
    else if (auto root = r.object(QStringLiteral("root")))
        readNode(*root, QStringLiteral("root"), -1, out.nodes, r);
    return r.finish(std::move(out));
}

Result<Snapshot> Snapshot::fromJsonText(const QByteArray& text)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("not JSON at offset %1: %2").arg(error.offset).arg(error.errorString()),
                           QJsonObject{{QStringLiteral("offset"), error.offset}});
    if (!document.isObject())
        return Error::make(ErrorCode::InvalidRequest, QStringLiteral("not a JSON object"));
    return fromJson(document.object());
}

std::optional<FocusPolicy> focusPolicyFromName(const QString& name)
{
    if (name == QLatin1String("focusIfNeeded"))
        return FocusPolicy::FocusIfNeeded;
    if (name == QLatin1String("requireFocused"))
        return FocusPolicy::RequireFocused;
    if (name == QLatin1String("failIfNotFocused"))
        return FocusPolicy::FailIfNotFocused;
    return std::nullopt;
}

QString focusPolicyName(FocusPolicy policy)
{
    switch (policy) {
    case FocusPolicy::FocusIfNeeded:
        return QStringLiteral("focusIfNeeded");
    case FocusPolicy::RequireFocused:
        return QStringLiteral("requireFocused");
    case FocusPolicy::FailIfNotFocused:
        return QStringLiteral("failIfNotFocused");
    }
    return {};
}

QJsonObject Route::toJson() const
{
    QJsonObject out;
    QJsonObject app;
    if (bundleId)
        app.insert(QStringLiteral("bundleId"), *bundleId);
    if (pid)
        app.insert(QStringLiteral("pid"), *pid);
    if (!app.isEmpty())
        out.insert(QStringLiteral("app"), app);
    QJsonObject window;
    if (windowTitlePattern)
        window.insert(QStringLiteral("titlePattern"), *windowTitlePattern);
    if (windowHandle)
        window.insert(QStringLiteral("id"), QString(QStringLiteral("w:") + *windowHandle));
    if (windowNativeId)
        window.insert(QStringLiteral("nativeId"), QStringLiteral("0x%1").arg(*windowNativeId, 0, 16));
    if (!window.isEmpty())
        out.insert(QStringLiteral("window"), window);
    if (displayId)
        out.insert(QStringLiteral("display"), QJsonObject{{QStringLiteral("id"), *displayId}});
    if (focusPolicy)
        out.insert(QStringLiteral("focusPolicy"), focusPolicyName(*focusPolicy));
    return out;
}

Result<Route> Route::fromJson(const QJsonValue& value, const QString& field)
{
    if (!value.isObject())
        return Error::invalidParam(field, field + QStringLiteral(" must be an object"));
    const QJsonObject object = value.toObject();
    JsonFieldReader r(object, field);
    r.rejectUnknown(
        {QStringLiteral("app"), QStringLiteral("window"), QStringLiteral("focusPolicy"), QStringLiteral("display")});
    Route out;
    if (auto app = r.object(QStringLiteral("app"))) {
        JsonFieldReader ar(*app, r.path(QStringLiteral("app")));
        ar.rejectUnknown({QStringLiteral("bundleId"), QStringLiteral("pid")});
        out.bundleId = ar.string(QStringLiteral("bundleId"), false, false);
        out.pid = ar.integer(QStringLiteral("pid"), 1, std::numeric_limits<int>::max());
        if (ar.failed())
            r.fail(ar.error());
    }
    if (auto window = r.object(QStringLiteral("window"))) {
        JsonFieldReader wr(*window, r.path(QStringLiteral("window")));
        wr.rejectUnknown({QStringLiteral("titlePattern"), QStringLiteral("id"), QStringLiteral("nativeId")});
        if (auto native = wr.string(QStringLiteral("nativeId"))) {
            // As desktop.windows answers it: "0x" and hex digits (a plain decimal is taken too).
            bool ok = false;
            const quint64 id = native->startsWith(QLatin1String("0x"), Qt::CaseInsensitive)
                                   ? native->mid(2).toULongLong(&ok, 16)
                                   : native->toULongLong(&ok, 10);
            if (!ok || id == 0)
                wr.fail(QStringLiteral("nativeId"),
                        QStringLiteral("is not a window's nativeId as desktop.windows answers it (\"0x...\")"));
            else
                out.windowNativeId = id;
        }
        if (auto id = wr.string(QStringLiteral("id"))) {
            if (const auto handle = ResolvedRoute::handleOfWindowId(*id))
                out.windowHandle = *handle;
            else
                wr.fail(QStringLiteral("id"), QStringLiteral("is not a window id (routeResolved.windowId: \"w:...\")"));
        }
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
    if (auto display = r.object(QStringLiteral("display"))) {
        // `id` as desktop.displays answers it; `displayId` as the contract's seed names it.
        JsonFieldReader dr(*display, r.path(QStringLiteral("display")));
        dr.rejectUnknown({QStringLiteral("id"), QStringLiteral("displayId")});
        const auto id = dr.string(QStringLiteral("id"), false, false);
        const auto displayId = dr.string(QStringLiteral("displayId"), false, false);
        if (id && displayId)
            dr.fail(QStringLiteral("displayId"), QStringLiteral("and id name the same thing: give one of them"));
        else if (!id && !displayId && !dr.failed())
            dr.fail(QStringLiteral("id"), QStringLiteral("is required: a display desktop.displays answered"));
        if (dr.failed())
            r.fail(dr.error());
        else
            out.displayId = id ? *id : *displayId;
    }
    if (auto policy = r.string(QStringLiteral("focusPolicy"))) {
        out.focusPolicy = focusPolicyFromName(*policy);
        if (!out.focusPolicy)
            r.fail(QStringLiteral("focusPolicy"),
                   QStringLiteral("must be one of focusIfNeeded, requireFocused, failIfNotFocused"));
    }
    return r.finish(out);
}

namespace {

std::optional<TextMatch> textMatch(JsonFieldReader& reader, const QString& equalsKey, const QString& containsKey,
                                   const QString& matchesKey, bool caseSensitive)
{
    using Mode = TextMatch::Mode;
    QStringList given;
    std::optional<TextMatch> out;
    if (auto s = reader.string(equalsKey)) {
        given.append(equalsKey);
        out = TextMatch{Mode::Equals, *s, {}};
    }
    if (auto s = reader.string(containsKey)) {
        given.append(containsKey);
        out = TextMatch{Mode::Contains, *s, {}};
    }
    if (auto s = reader.string(matchesKey)) {
        given.append(matchesKey);
        QRegularExpression re(*s, caseSensitive ? QRegularExpression::NoPatternOption
                                                : QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            reader.fail(matchesKey, QStringLiteral("is not a valid regular expression: %1").arg(re.errorString()));
            return std::nullopt;
        }
        out = TextMatch{Mode::Regex, *s, re};
    }
    if (given.size() > 1) {
        // Name a field the client sent: the second one conflicts with the first.
        reader.fail(given.at(1), QStringLiteral("conflicts with %1: give one of them").arg(given.at(0)));
        return std::nullopt;
    }
    return out;
}

void insertTextMatch(QJsonObject& out, const QString& field, const std::optional<TextMatch>& match)
{
    if (!match)
        return;
    switch (match->mode) {
    case TextMatch::Mode::Equals:
        out.insert(field + QStringLiteral("Equals"), match->pattern);
        break;
    case TextMatch::Mode::Contains:
        out.insert(field + QStringLiteral("Contains"), match->pattern);
        break;
    case TextMatch::Mode::Regex:
        out.insert(field + QStringLiteral("Matches"), match->pattern);
        break;
    }
}

} // namespace

bool Selector::needsText() const
{
    return value.has_value() || (labelledBy && labelledBy->needsText()) || (near && near->needsText());
}

bool Selector::needsDescription() const
{
    return description.has_value() || (labelledBy && labelledBy->needsDescription()) ||
           (near && near->needsDescription());
}

bool Selector::needsRelations() const
{
    return labelledBy != nullptr || (near && near->needsRelations());
}

bool operator==(const Selector& a, const Selector& b)
{
    const auto sameNested = [](const std::shared_ptr<const Selector>& x, const std::shared_ptr<const Selector>& y) {
        return (!x && !y) || (x && y && *x == *y);
    };
    return a.byRole == b.byRole && a.title == b.title && a.value == b.value && a.description == b.description &&
           a.byIdentifier == b.byIdentifier && a.byPath == b.byPath && a.byRect == b.byRect &&
           sameNested(a.labelledBy, b.labelledBy) && sameNested(a.near, b.near) && a.maxDistance == b.maxDistance &&
           a.nth == b.nth && a.inWindow == b.inWindow && a.enabledOnly == b.enabledOnly &&
           a.visibleOnly == b.visibleOnly && a.caseSensitive == b.caseSensitive && a.limit == b.limit &&
           a.source == b.source;
}

QJsonObject Selector::toJson() const
{
    QJsonObject out;
    if (source != Source::Ax)
        out.insert(QStringLiteral("source"), source == Source::Ocr ? QStringLiteral("ocr") : QStringLiteral("any"));
    if (byRole)
        out.insert(QStringLiteral("byRole"), *byRole);
    insertTextMatch(out, QStringLiteral("title"), title);
    insertTextMatch(out, QStringLiteral("value"), value);
    insertTextMatch(out, QStringLiteral("description"), description);
    if (byIdentifier)
        out.insert(QStringLiteral("byIdentifier"), *byIdentifier);
    if (byPath) {
        QJsonArray path;
        for (int i : *byPath)
            path.append(i);
        out.insert(QStringLiteral("byPath"), path);
    }
    if (byRect)
        out.insert(QStringLiteral("byRect"), byRect->toJson());
    if (labelledBy)
        out.insert(QStringLiteral("labelledBy"), labelledBy->toJson());
    if (near) {
        out.insert(QStringLiteral("near"), near->toJson());
        if (maxDistance != Selector().maxDistance)
            out.insert(QStringLiteral("maxDistance"), maxDistance);
    }
    if (nth)
        out.insert(QStringLiteral("nth"), *nth);
    if (inWindow)
        out.insert(QStringLiteral("inWindow"), *inWindow);
    if (enabledOnly)
        out.insert(QStringLiteral("enabledOnly"), true);
    if (visibleOnly)
        out.insert(QStringLiteral("visibleOnly"), true);
    if (caseSensitive)
        out.insert(QStringLiteral("caseSensitive"), true);
    if (limit != Selector().limit)
        out.insert(QStringLiteral("limit"), limit);
    return out;
}

Result<Selector> Selector::fromJson(const QJsonValue& value, const QString& field, int depth)
{
    if (!value.isObject())
        return Error::invalidParam(field, field + QStringLiteral(" must be an object"));
    const QJsonObject object = value.toObject();
    JsonFieldReader r(object, field);
    r.rejectUnknown({QStringLiteral("byRole"),
                     QStringLiteral("titleContains"),
                     QStringLiteral("titleEquals"),
                     QStringLiteral("titleMatches"),
                     QStringLiteral("valueContains"),
                     QStringLiteral("valueEquals"),
                     QStringLiteral("valueMatches"),
                     QStringLiteral("descriptionContains"),
                     QStringLiteral("descriptionEquals"),
                     QStringLiteral("descriptionMatches"),
                     QStringLiteral("byIdentifier"),
                     QStringLiteral("byPath"),
                     QStringLiteral("byRect"),
                     QStringLiteral("labelledBy"),
                     QStringLiteral("near"),
                     QStringLiteral("maxDistance"),
                     QStringLiteral("nth"),
                     QStringLiteral("inWindow"),
                     QStringLiteral("enabledOnly"),
                     QStringLiteral("visibleOnly"),
                     QStringLiteral("caseSensitive"),
                     QStringLiteral("limit"),
                     QStringLiteral("source")});
    Selector out;
    out.caseSensitive = r.boolean(QStringLiteral("caseSensitive")).value_or(false);
    out.byRole = r.string(QStringLiteral("byRole"), false, false);
    out.title = textMatch(r, QStringLiteral("titleEquals"), QStringLiteral("titleContains"),
                          QStringLiteral("titleMatches"), out.caseSensitive);
    out.value = textMatch(r, QStringLiteral("valueEquals"), QStringLiteral("valueContains"),
                          QStringLiteral("valueMatches"), out.caseSensitive);
    out.description = textMatch(r, QStringLiteral("descriptionEquals"), QStringLiteral("descriptionContains"),
                                QStringLiteral("descriptionMatches"), out.caseSensitive);
    out.byIdentifier = r.string(QStringLiteral("byIdentifier"), false, false);
    if (r.has(QStringLiteral("byPath"))) {
        const QJsonValue path = r.raw(QStringLiteral("byPath"));
        QList<int> indexes;
        bool good = path.isArray() && path.toArray().size() <= 64;
        for (const auto& v : path.toArray()) {
            const double d = v.toDouble(-1);
            good = good && v.isDouble() && d >= 0 && d <= 100000 && std::floor(d) == d;
            indexes.append(static_cast<int>(d));
        }
        if (good)
            out.byPath = indexes;
        else
            r.fail(QStringLiteral("byPath"),
                   QStringLiteral("must be an array of at most 64 child indexes (whole numbers from 0)"));
    }
    if (auto rect = r.object(QStringLiteral("byRect"))) {
        const auto frame = Frame::fromJson(*rect);
        if (!frame || frame->isEmpty())
            r.fail(QStringLiteral("byRect"),
                   QStringLiteral("must be {x, y, width, height} in screen pixels with a width and height above 0"));
        else
            out.byRect = frame;
    }
    for (const QString& key : {QStringLiteral("labelledBy"), QStringLiteral("near")}) {
        if (!r.has(key))
            continue;
        if (depth >= 2) {
            r.fail(key, QStringLiteral("nests too deep: selectors inside selectors go at most two levels down"));
            continue;
        }
        auto nested = fromJson(r.raw(key), r.path(key), depth + 1);
        if (!nested) {
            r.fail(nested.error());
            continue;
        }
        (key == QLatin1String("near") ? out.near : out.labelledBy) =
            std::make_shared<const Selector>(std::move(nested.value()));
    }
    if (auto distance = r.integer(QStringLiteral("maxDistance"), 0, 5000)) {
        if (!out.near && !r.failed())
            r.fail(QStringLiteral("maxDistance"), QStringLiteral("applies only with near"));
        out.maxDistance = static_cast<int>(*distance);
    }
    if (auto nth = r.integer(QStringLiteral("nth"), -1000, 1000))
        out.nth = static_cast<int>(*nth);
    if (auto window = r.string(QStringLiteral("inWindow"), false, false)) {
        QRegularExpression re(*window, out.caseSensitive ? QRegularExpression::NoPatternOption
                                                         : QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            r.fail(QStringLiteral("inWindow"),
                   QStringLiteral("is not a valid regular expression: %1").arg(re.errorString()));
        } else {
            out.inWindow = *window;
            out.inWindowRegex = re;
        }
    }
    out.enabledOnly = r.boolean(QStringLiteral("enabledOnly")).value_or(false);
    out.visibleOnly = r.boolean(QStringLiteral("visibleOnly")).value_or(false);
    out.limit = static_cast<int>(r.integer(QStringLiteral("limit"), 1, 1000).value_or(10));
    if (auto source = r.string(QStringLiteral("source"))) {
        if (depth > 0)
            r.fail(QStringLiteral("source"), QStringLiteral("is given on the outermost selector only"));
        else if (*source == QLatin1String("ocr"))
            out.source = Selector::Source::Ocr;
        else if (*source == QLatin1String("any"))
            out.source = Selector::Source::Any;
        else if (*source != QLatin1String("ax"))
            r.fail(QStringLiteral("source"), QStringLiteral("must be one of ax, ocr, any"));
    }
    if (!r.failed() && !out.byRole && !out.title && !out.value && !out.description && !out.byIdentifier &&
        !out.byPath && !out.byRect && !out.labelledBy && !out.near)
        r.fail(QStringLiteral("byRole"), QStringLiteral("or another criterion is required: an empty selector would "
                                                        "match every element"));
    return r.finish(out);
}

QString ResolvedRoute::windowId() const
{
    return windowHandle.isEmpty() ? QString() : QStringLiteral("w:") + windowHandle;
}

std::optional<QString> ResolvedRoute::handleOfWindowId(const QString& id)
{
    if (!id.startsWith(QLatin1String("w:")) || id.size() < 3 || id.size() > 512)
        return std::nullopt;
    return id.mid(2);
}

QJsonObject ResolvedRoute::toJson() const
{
    QJsonObject out{
        {QStringLiteral("frontmostBundleId"), bundleId},
        {QStringLiteral("windowTitle"), windowTitle},
        {QStringLiteral("appName"), appName},
        {QStringLiteral("pid"), pid},
        {QStringLiteral("windowFocused"), windowFocused},
    };
    if (!windowHandle.isEmpty())
        out.insert(QStringLiteral("windowId"), windowId());
    if (nativeWindow != 0)
        out.insert(QStringLiteral("nativeId"), QStringLiteral("0x%1").arg(nativeWindow, 0, 16));
    if (inaccessible)
        out.insert(QStringLiteral("accessible"), false);
    if (!display.isEmpty())
        out.insert(QStringLiteral("display"), display);
    return out;
}

QString fingerprintOf(const Node& node)
{
    return node.role % QLatin1Char('|') % node.title % QStringLiteral("|x=") % QString::number(node.frame.x) %
           QStringLiteral(",y=") % QString::number(node.frame.y) % QStringLiteral(",w=") %
           QString::number(node.frame.width) % QStringLiteral(",h=") % QString::number(node.frame.height);
}

ElementRef ElementRef::fromNode(const Node& node)
{
    ElementRef ref;
    ref.elementId = node.elementId;
    ref.fingerprint = fingerprintOf(node);
    ref.role = node.role;
    ref.title = node.title;
    if (node.hasValue && !node.isSecure())
        ref.value = node.value;
    ref.frame = node.frame;
    return ref;
}

QJsonObject ElementRef::toJson() const
{
    return QJsonObject{
        {QStringLiteral("elementId"), elementId},
        {QStringLiteral("fingerprint"), fingerprint},
        {QStringLiteral("role"), role},
        {QStringLiteral("title"), title},
        {QStringLiteral("value"), value ? QJsonValue(*value) : QJsonValue()},
        {QStringLiteral("frame"), frame.toJson()},
    };
}

QString scrollDirectionName(ScrollSpec::Direction direction)
{
    switch (direction) {
    case ScrollSpec::Direction::Up:
        return QStringLiteral("up");
    case ScrollSpec::Direction::Down:
        return QStringLiteral("down");
    case ScrollSpec::Direction::Left:
        return QStringLiteral("left");
    case ScrollSpec::Direction::Right:
        return QStringLiteral("right");
    case ScrollSpec::Direction::IntoView:
        break;
    }
    return QStringLiteral("intoView");
}

QString WaitCondition::kindName(Kind kind)
{
    switch (kind) {
    case Kind::SelectorExists:
        return QStringLiteral("selectorExists");
    case Kind::SelectorGone:
        return QStringLiteral("selectorGone");
    case Kind::WindowExists:
        return QStringLiteral("windowExists");
    case Kind::WindowGone:
        return QStringLiteral("windowGone");
    case Kind::TextMatches:
        return QStringLiteral("textMatches");
    case Kind::TextOnScreen:
        return QStringLiteral("textOnScreen");
    case Kind::ImageOnScreen:
        return QStringLiteral("imageOnScreen");
    case Kind::ValueEquals:
        return QStringLiteral("valueEquals");
    case Kind::Focused:
        return QStringLiteral("focused");
    case Kind::Enabled:
        return QStringLiteral("enabled");
    case Kind::All:
        return QStringLiteral("all");
    case Kind::Any:
        break;
    }
    return QStringLiteral("any");
}

bool WaitCondition::needsSnapshot() const
{
    if (selector)
        return true;
    return std::any_of(children.cbegin(), children.cend(), [](const WaitCondition& c) { return c.needsSnapshot(); });
}

bool WaitCondition::needsText() const
{
    if (kind == Kind::TextMatches || kind == Kind::ValueEquals || (selector && selector->needsText()))
        return true;
    return std::any_of(children.cbegin(), children.cend(), [](const WaitCondition& c) { return c.needsText(); });
}

QString gestureName(PointerGesture::Kind kind)
{
    switch (kind) {
    case PointerGesture::Kind::Move:
        return QStringLiteral("move");
    case PointerGesture::Kind::Click:
        return QStringLiteral("click");
    case PointerGesture::Kind::Press:
        return QStringLiteral("press");
    case PointerGesture::Kind::Drag:
        return QStringLiteral("drag");
    }
    return {};
}

QString windowActionName(WindowCommand::Action action)
{
    switch (action) {
    case WindowCommand::Action::Focus:
        return QStringLiteral("focus");
    case WindowCommand::Action::Minimize:
        return QStringLiteral("minimize");
    case WindowCommand::Action::Maximize:
        return QStringLiteral("maximize");
    case WindowCommand::Action::Restore:
        return QStringLiteral("restore");
    case WindowCommand::Action::Close:
        return QStringLiteral("close");
    case WindowCommand::Action::Move:
        return QStringLiteral("move");
    case WindowCommand::Action::Resize:
        return QStringLiteral("resize");
    }
    return {};
}

QJsonObject WindowInfo::toJson() const
{
    QJsonObject out{{QStringLiteral("title"), title},          {QStringLiteral("pid"), pid},
                    {QStringLiteral("frame"), frame.toJson()}, {QStringLiteral("active"), active},
                    {QStringLiteral("minimized"), minimized},  {QStringLiteral("maximized"), maximized},
                    {QStringLiteral("visible"), visible}};
    if (!appName.isEmpty())
        out.insert(QStringLiteral("app"), appName);
    if (!executable.isEmpty())
        out.insert(QStringLiteral("executable"), executable);
    if (!nativeId.isEmpty())
        out.insert(QStringLiteral("nativeId"), nativeId);
    if (!display.isEmpty())
        out.insert(QStringLiteral("display"), display);
    return out;
}

QJsonObject DisplayInfo::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("frame"), frame.toJson()},
                       {QStringLiteral("scale"), scale},
                       {QStringLiteral("primary"), primary}};
}

const DisplayInfo* displayOf(const QList<DisplayInfo>& displays, const Frame& frame)
{
    const QRect rect(frame.x, frame.y, frame.width, frame.height);
    const QPoint centre = rect.center();
    const DisplayInfo* best = nullptr;
    qint64 bestArea = 0;
    for (const DisplayInfo& display : displays) {
        const QRect on(display.frame.x, display.frame.y, display.frame.width, display.frame.height);
        if (on.contains(centre))
            return &display;
        const QRect common = on.intersected(rect);
        const qint64 area = qint64(common.width()) * common.height();
        if (!common.isEmpty() && area > bestArea) {
            best = &display;
            bestArea = area;
        }
    }
    return best;
}

} // namespace Automation
