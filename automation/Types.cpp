#include "Types.h"

#include <QJsonDocument>

#include <QJsonArray>

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
    const QStringList keys{QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("width"),
                           QStringLiteral("height")};
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
        {StateActive, "active"},   {StateModal, "modal"},
    };
    QStringList names;
    for (const auto& [bit, name] : kNames) {
        if ((states & bit) || (bit == StateSecure && isSecure()))
            names.append(QString::fromLatin1(name));
    }
    return names;
}

namespace {

QJsonObject nodeJson(const Snapshot& snapshot, int index)
{
    const Node& node = snapshot.nodes.at(index);
    QJsonObject object{
        {QStringLiteral("elementId"), node.elementId},
        {QStringLiteral("role"), node.role},
        {QStringLiteral("nativeRole"), node.nativeRole},
        {QStringLiteral("path"), [&] {
             QJsonArray path;
             for (int step : node.path)
                 path.append(step);
             return path;
         }()},
    };
    if (node.detailed) {
        object.insert(QStringLiteral("frame"), node.frame.toJson());
        object.insert(QStringLiteral("states"), QJsonArray::fromStringList(node.stateNames()));
    }
    if (!node.subrole.isEmpty())
        object.insert(QStringLiteral("subrole"), node.subrole);
    if (!node.title.isEmpty())
        object.insert(QStringLiteral("title"), node.title);
    // Secure fields never show a value, whatever a backend read.
    if (node.hasValue && !node.isSecure())
        object.insert(QStringLiteral("value"), node.value);
    if (!node.identifier.isEmpty())
        object.insert(QStringLiteral("identifier"), node.identifier);
    if (!node.description.isEmpty())
        object.insert(QStringLiteral("description"), node.description);
    if (!node.actions.isEmpty())
        object.insert(QStringLiteral("actions"), QJsonArray::fromStringList(node.actions));
    if (!node.children.isEmpty()) {
        QJsonArray children;
        for (int child : node.children)
            children.append(nodeJson(snapshot, child));
        object.insert(QStringLiteral("children"), children);
    }
    return object;
}

} // namespace

QJsonObject Snapshot::metadataJson() const
{
    return QJsonObject{
        {QStringLiteral("app"), bundleId},
        {QStringLiteral("appName"), appName},
        {QStringLiteral("pid"), pid},
        {QStringLiteral("window"), windowTitle},
        {QStringLiteral("bounds"),
         QJsonObject{{QStringLiteral("maxDepth"), bounds.maxDepth},
                     {QStringLiteral("maxNodes"), bounds.maxNodes},
                     {QStringLiteral("maxWallTimeMs"), bounds.maxWallTimeMs},
                     {QStringLiteral("includeText"), bounds.includeText},
                     {QStringLiteral("searchOnly"), bounds.searchOnly}}},
        {QStringLiteral("nodeCount"), static_cast<int>(nodes.size())},
        {QStringLiteral("elapsedMs"), elapsedMs},
        {QStringLiteral("truncated"), truncated},
        {QStringLiteral("truncatedReason"), truncated ? QJsonValue(truncatedReason) : QJsonValue()},
        {QStringLiteral("takenAt"), takenAt.toUTC().toString(Qt::ISODateWithMs)},
    };
}

namespace {

void appendJsonString(QByteArray& out, const QString& text)
{
    out.append('"');
    const QByteArray utf8 = text.toUtf8();
    for (const char c : utf8) {
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\b':
            out.append("\\b");
            break;
        case '\f':
            out.append("\\f");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                static const char hex[] = "0123456789abcdef";
                out.append("\\u00");
                out.append(hex[(c >> 4) & 0xf]);
                out.append(hex[c & 0xf]);
            } else {
                out.append(c);
            }
        }
    }
    out.append('"');
}

void appendIndent(QByteArray& out, int level)
{
    out.append(QByteArray(level * 4, ' '));
}

void appendStringArray(QByteArray& out, const QStringList& items, int level)
{
    out.append("[\n");
    for (qsizetype i = 0; i < items.size(); ++i) {
        appendIndent(out, level + 1);
        appendJsonString(out, items.at(i));
        out.append(i + 1 < items.size() ? ",\n" : "\n");
    }
    appendIndent(out, level);
    out.append(']');
}

// One node and its subtree, members in the order QJsonObject keeps them (by key), so the text
// parses to exactly nodeJson()'s object.
void appendNode(QByteArray& out, const Snapshot& snapshot, int index, int level)
{
    const Node& node = snapshot.nodes.at(index);
    bool first = true;
    const auto key = [&](const char* name) {
        out.append(first ? "{\n" : ",\n");
        first = false;
        appendIndent(out, level + 1);
        out.append('"').append(name).append("\": ");
    };
    if (!node.actions.isEmpty()) {
        key("actions");
        appendStringArray(out, node.actions, level + 1);
    }
    if (!node.children.isEmpty()) {
        key("children");
        out.append("[\n");
        for (qsizetype i = 0; i < node.children.size(); ++i) {
            appendIndent(out, level + 2);
            appendNode(out, snapshot, node.children.at(i), level + 2);
            out.append(i + 1 < node.children.size() ? ",\n" : "\n");
        }
        appendIndent(out, level + 1);
        out.append(']');
    }
    if (!node.description.isEmpty()) {
        key("description");
        appendJsonString(out, node.description);
    }
    key("elementId");
    appendJsonString(out, node.elementId);
    if (node.detailed) {
        key("frame");
        out.append("{\n");
        const std::pair<const char*, int> members[] = {
            {"height", node.frame.height}, {"width", node.frame.width}, {"x", node.frame.x}, {"y", node.frame.y}};
        for (size_t i = 0; i < std::size(members); ++i) {
            appendIndent(out, level + 2);
            out.append('"').append(members[i].first).append("\": ").append(QByteArray::number(members[i].second));
            out.append(i + 1 < std::size(members) ? ",\n" : "\n");
        }
        appendIndent(out, level + 1);
        out.append('}');
    }
    if (!node.identifier.isEmpty()) {
        key("identifier");
        appendJsonString(out, node.identifier);
    }
    key("nativeRole");
    appendJsonString(out, node.nativeRole);
    key("path");
    out.append('[');
    for (qsizetype i = 0; i < node.path.size(); ++i) {
        if (i)
            out.append(',');
        out.append(QByteArray::number(node.path.at(i)));
    }
    out.append(']');
    key("role");
    appendJsonString(out, node.role);
    if (node.detailed) {
        key("states");
        appendStringArray(out, node.stateNames(), level + 1);
    }
    if (!node.subrole.isEmpty()) {
        key("subrole");
        appendJsonString(out, node.subrole);
    }
    if (!node.title.isEmpty()) {
        key("title");
        appendJsonString(out, node.title);
    }
    // Secure fields never show a value, whatever a backend read.
    if (node.hasValue && !node.isSecure()) {
        key("value");
        appendJsonString(out, node.value);
    }
    out.append("\n");
    appendIndent(out, level);
    out.append('}');
}

} // namespace

QByteArray Snapshot::toJsonText(const QJsonObject& extra) const
{
    QJsonObject head = metadataJson();
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        head.insert(it.key(), it.value());
    head.remove(QStringLiteral("root"));
    QByteArray out = QJsonDocument(head).toJson(QJsonDocument::Indented);
    // "{...\n}\n": reopen the object and add the tree as its last member.
    const qsizetype close = out.lastIndexOf('}');
    out.truncate(close);
    while (out.endsWith('\n'))
        out.chop(1);
    out.reserve(out.size() + nodes.size() * 400);
    out.append(head.isEmpty() ? "\n" : ",\n");
    out.append("    \"root\": ");
    if (nodes.isEmpty())
        out.append("null");
    else
        appendNode(out, *this, 0, 1);
    out.append("\n}\n");
    return out;
}

QJsonObject Snapshot::toJson() const
{
    QJsonObject object = metadataJson();
    object.insert(QStringLiteral("root"), nodes.isEmpty() ? QJsonValue() : QJsonValue(nodeJson(*this, 0)));
    return object;
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

QJsonObject ResolvedRoute::toJson() const
{
    return QJsonObject{
        {QStringLiteral("frontmostBundleId"), bundleId},
        {QStringLiteral("windowTitle"), windowTitle},
        {QStringLiteral("appName"), appName},
        {QStringLiteral("pid"), pid},
        {QStringLiteral("windowFocused"), windowFocused},
    };
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

} // namespace Automation
