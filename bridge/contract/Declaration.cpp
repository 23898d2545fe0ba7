#include "bridge/contract/Declaration.h"

#include "bridge/contract/Families.h"

#include <algorithm>

namespace Contract {

const Action* Method::actionFor(const QJsonObject& params) const
{
    const QString name = params.value(QStringLiteral("action")).toString();
    for (const Action& action : actions) {
        if (action.name == name)
            return &action;
    }
    return nullptr;
}

bool Method::sideEffectFor(const QJsonObject& params) const
{
    if (actions.isEmpty())
        return sideEffect();
    // An action not declared is refused by the schema; until then it counts as a side effect.
    const Action* action = actionFor(params);
    return !action || action->kind == Kind::SideEffect;
}

ActionClass Method::actionClassFor(const QJsonObject& params) const
{
    const Action* action = actionFor(params);
    return action ? action->actionClass : actionClass;
}

QString actionClassName(ActionClass actionClass)
{
    switch (actionClass) {
    case ActionClass::Read:
        return QStringLiteral("read");
    case ActionClass::Type:
        return QStringLiteral("type");
    case ActionClass::Pointer:
        return QStringLiteral("pointer");
    case ActionClass::Keys:
        return QStringLiteral("keys");
    case ActionClass::Window:
        return QStringLiteral("window");
    case ActionClass::App:
        return QStringLiteral("app");
    case ActionClass::Clipboard:
        return QStringLiteral("clipboard");
    }
    return {};
}

QStringList actionClassNames()
{
    QStringList out;
    for (ActionClass c : {ActionClass::Read, ActionClass::Type, ActionClass::Pointer, ActionClass::Keys,
                          ActionClass::Window, ActionClass::App, ActionClass::Clipboard})
        out.append(actionClassName(c));
    return out;
}

std::optional<ActionClass> actionClassNamed(const QString& name)
{
    for (ActionClass c : {ActionClass::Read, ActionClass::Type, ActionClass::Pointer, ActionClass::Keys,
                          ActionClass::Window, ActionClass::App, ActionClass::Clipboard}) {
        if (actionClassName(c) == name)
            return c;
    }
    return std::nullopt;
}

QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::ReadOnly:
        return QStringLiteral("read-only");
    case Kind::SideEffect:
        return QStringLiteral("side effect");
    case Kind::Host:
        return QStringLiteral("host");
    }
    return {};
}

Node boolean(const QString& description)
{
    Node out;
    out.type = Node::Type::Boolean;
    out.description = description;
    return out;
}

Node integer(qint64 minimum, qint64 maximum, const QString& description)
{
    Node out;
    out.type = Node::Type::Integer;
    out.minimum = minimum;
    out.maximum = maximum;
    out.description = description;
    return out;
}

Node string(const QString& description)
{
    Node out;
    out.type = Node::Type::String;
    out.description = description;
    return out;
}

Node nonEmptyString(const QString& description)
{
    Node out = string(description);
    out.nonEmpty = true;
    return out;
}

Node oneOf(const QStringList& values, const QString& description)
{
    Node out = string(description);
    out.enumValues = values;
    return out;
}

Node object(QList<Field> fields, const QString& description)
{
    Node out;
    out.type = Node::Type::Object;
    out.fields = std::move(fields);
    out.description = description;
    return out;
}

Node openObject(const QString& description)
{
    Node out = object({}, description);
    out.closed = false;
    return out;
}

Node arrayOf(Node items, std::optional<int> minItems, std::optional<int> maxItems, const QString& description)
{
    Node out;
    out.type = Node::Type::Array;
    out.items = std::make_shared<Node>(std::move(items));
    out.minItems = minItems;
    out.maxItems = maxItems;
    out.description = description;
    return out;
}

Node ref(const QString& type, const QString& description)
{
    Node out;
    out.type = Node::Type::Ref;
    out.ref = type;
    out.description = description;
    return out;
}

Node anyOf(QList<Node> alternatives, const QString& description)
{
    Node out;
    out.type = Node::Type::Any;
    out.alternatives = std::move(alternatives);
    out.description = description;
    return out;
}

void when(Node& node, const QString& field, const QStringList& values, bool negate, Node then)
{
    auto rule = std::make_shared<Node::When>();
    rule->field = field;
    rule->values = values;
    rule->negate = negate;
    rule->then = std::move(then);
    node.when.append(std::move(rule));
}

Field optional(const QString& name, Node node)
{
    return Field{name, std::move(node), false, {}};
}

Field required(const QString& name, Node node)
{
    return Field{name, std::move(node), true, {}};
}

namespace {

const QHash<QString, Node>& shared()
{
    static const QHash<QString, Node> types = Families::sharedTypes();
    return types;
}

} // namespace

const Node* sharedType(const QString& name)
{
    const auto it = shared().constFind(name);
    return it == shared().constEnd() ? nullptr : &it.value();
}

QStringList sharedTypeNames()
{
    QStringList names = shared().keys();
    names.sort();
    return names;
}

const QList<Method>& methods()
{
    static const QList<Method> all = [] {
        const QList<std::pair<QList<Method> (*)(), const char*>> families{
            {Families::host, "Host"},     {Families::observe, "Observe"}, {Families::act, "Act"},
            {Families::wait, "Wait"},     {Families::confirm, "Confirm"}, {Families::remote, "Remote"},
            {Families::events, "Events"}, {Families::tools, "Tools"}};
        QList<Method> out;
        for (const auto& [family, file] : families) {
            for (Method method : family()) {
                method.declaredIn = QStringLiteral("bridge/contract/methods/%1.cpp").arg(QLatin1String(file));
                // A client passes one route object to every method (docs/protocol.md §4.3): a
                // method that has no use for it still takes it.
                if (!fieldOf(method.params, QStringLiteral("route")))
                    method.params.fields.append(optional(
                        QStringLiteral("route"),
                        ref(QStringLiteral("Route"), QStringLiteral("Taken as on every method; this one does not use "
                                                                    "it (docs/protocol.md §4.3)"))));
                // A client may send its confirm block with every call, as it sends its route.
                if (!fieldOf(method.params, QStringLiteral("confirm")))
                    method.params.fields.append(
                        optional(QStringLiteral("confirm"),
                                 ref(QStringLiteral("Confirm"), QStringLiteral("Taken as on every method; this one "
                                                                               "has no side effect to confirm"))));
                out.append(std::move(method));
            }
        }
        // In the contract's order: by docs/protocol.md section.
        const auto section = [](const Method& m) {
            const auto parts = m.docSection.split(QLatin1Char('.'));
            return std::pair(parts.value(0).toInt(), parts.value(1).toInt());
        };
        std::stable_sort(out.begin(), out.end(),
                         [&section](const Method& a, const Method& b) { return section(a) < section(b); });
        return out;
    }();
    return all;
}

const Method* find(const QString& name)
{
    for (const auto& method : methods()) {
        if (method.name == name)
            return &method;
    }
    return nullptr;
}

QStringList methodsOf(Kind kind)
{
    QStringList out;
    for (const auto& method : methods()) {
        if (method.kind == kind)
            out.append(method.name);
    }
    return out;
}

const Field* fieldOf(const Node& node, const QString& name)
{
    for (const auto& field : node.fields) {
        if (field.name == name)
            return &field;
    }
    return nullptr;
}

QJsonValue defaultOf(const Node& node, const QString& name)
{
    const Field* field = fieldOf(node, name);
    return field && field->node.defaultValue ? *field->node.defaultValue : QJsonValue();
}

} // namespace Contract
