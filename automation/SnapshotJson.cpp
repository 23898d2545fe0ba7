// A snapshot written out: the QJsonObject form (Snapshot::toJson) and the streaming text
// writer (Snapshot::toJsonText) that ax.json files use, which parses to exactly the same object.
// Reading it back (Snapshot::fromJson) stays in Types.cpp beside the other types' readers.
#include "automation/Types.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Automation {

namespace {

QJsonObject nodeJson(const Snapshot& snapshot, int index)
{
    const Node& node = snapshot.nodes.at(index);
    QJsonObject object{
        {QStringLiteral("elementId"), node.elementId},
        {QStringLiteral("role"), node.role},
        {QStringLiteral("nativeRole"), node.nativeRole},
        {QStringLiteral("path"),
         [&] {
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
    if (node.omittedChildren > 0)
        object.insert(QStringLiteral("omitted"), QJsonObject{{QStringLiteral("childCount"), node.omittedChildren},
                                                             {QStringLiteral("reason"), node.omittedReason}});
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
        {QStringLiteral("bounds"), QJsonObject{{QStringLiteral("maxDepth"), bounds.maxDepth},
                                               {QStringLiteral("maxNodes"), bounds.maxNodes},
                                               {QStringLiteral("maxWallTimeMs"), bounds.maxWallTimeMs},
                                               {QStringLiteral("includeText"), bounds.includeText},
                                               {QStringLiteral("includeDescription"), bounds.includeDescription},
                                               {QStringLiteral("refresh"), bounds.refresh},
                                               {QStringLiteral("searchOnly"), bounds.searchOnly}}},
        {QStringLiteral("snapshotId"), snapshotId.isEmpty() ? QJsonValue() : QJsonValue(snapshotId)},
        {QStringLiteral("nodeCount"), static_cast<int>(nodes.size())},
        {QStringLiteral("elapsedMs"), elapsedMs},
        {QStringLiteral("truncated"), truncated},
        {QStringLiteral("truncatedReason"), truncated ? QJsonValue(truncatedReason) : QJsonValue()},
        {QStringLiteral("omitted"), omittedJson()},
        {QStringLiteral("takenAt"), takenAt.toUTC().toString(Qt::ISODateWithMs)},
    };
}

QJsonArray Snapshot::omittedJson() const
{
    QJsonArray out;
    for (const Node& node : nodes) {
        if (node.omittedChildren <= 0)
            continue;
        QJsonArray path;
        for (int step : node.path)
            path.append(step);
        out.append(QJsonObject{{QStringLiteral("path"), path},
                               {QStringLiteral("role"), node.role},
                               {QStringLiteral("title"), node.title},
                               {QStringLiteral("childCount"), node.omittedChildren},
                               {QStringLiteral("reason"), node.omittedReason}});
    }
    return out;
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
    out.append(QByteArray(qsizetype{level} * 4, ' '));
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
    if (node.omittedChildren > 0) {
        key("omitted");
        out.append("{\n");
        appendIndent(out, level + 2);
        out.append("\"childCount\": ").append(QByteArray::number(node.omittedChildren)).append(",\n");
        appendIndent(out, level + 2);
        out.append("\"reason\": ");
        appendJsonString(out, node.omittedReason);
        out.append("\n");
        appendIndent(out, level + 1);
        out.append('}');
    }
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

} // namespace Automation
