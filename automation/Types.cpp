#include "Types.h"

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
