#include "bridge/contract/Schema.h"

#include <QJsonArray>
#include <QSet>

namespace Contract::Schema {

namespace {

const QString kDefs = QStringLiteral("#/$defs/");

QJsonObject notNull()
{
    return QJsonObject{{QStringLiteral("not"), QJsonObject{{QStringLiteral("type"), QStringLiteral("null")}}}};
}

// Member `name` is there and not null (the host reads a null member as absent).
QJsonObject present(const QStringList& names)
{
    QJsonObject properties;
    for (const auto& name : names)
        properties.insert(name, notNull());
    return QJsonObject{{QStringLiteral("required"), QJsonArray::fromStringList(names)},
                       {QStringLiteral("properties"), properties}};
}

// An optional member may be null: the host reads it as absent.
QJsonObject nullable(QJsonObject schema)
{
    const QJsonValue type = schema.value(QStringLiteral("type"));
    if (type.isString() && !schema.contains(QStringLiteral("$ref"))) {
        schema.insert(QStringLiteral("type"), QJsonArray{type, QStringLiteral("null")});
        if (schema.contains(QStringLiteral("enum"))) {
            QJsonArray values = schema.value(QStringLiteral("enum")).toArray();
            values.append(QJsonValue::Null);
            schema.insert(QStringLiteral("enum"), values);
        }
        return schema;
    }
    QJsonObject out{
        {QStringLiteral("anyOf"), QJsonArray{schema, QJsonObject{{QStringLiteral("type"), QStringLiteral("null")}}}}};
    if (schema.contains(QStringLiteral("description")))
        out.insert(QStringLiteral("description"), schema.value(QStringLiteral("description")));
    return out;
}

// The object rules of `node` (exclusive, atLeastOne, needs, forbidden, when) as allOf members.
QJsonArray rules(const Node& node, const QString& refPrefix)
{
    QJsonArray out;
    for (const auto& group : node.exclusive) {
        for (qsizetype i = 0; i < group.size(); ++i) {
            for (qsizetype j = i + 1; j < group.size(); ++j)
                out.append(QJsonObject{{QStringLiteral("not"), present({group.at(i), group.at(j)})}});
        }
    }
    for (const auto& group : node.atLeastOne) {
        QJsonArray any;
        for (const auto& name : group)
            any.append(present({name}));
        out.append(QJsonObject{{QStringLiteral("anyOf"), any}});
    }
    for (const auto& [member, other] : node.needs)
        out.append(QJsonObject{{QStringLiteral("if"), present({member})}, {QStringLiteral("then"), present({other})}});
    for (const auto& [member, others] : node.requiredWith) {
        for (const auto& other : others)
            out.append(
                QJsonObject{{QStringLiteral("if"), present({other})}, {QStringLiteral("then"), present({member})}});
    }
    for (const auto& name : node.forbidden)
        out.append(QJsonObject{{QStringLiteral("not"), present({name})}});
    for (const auto& rule : node.when) {
        QJsonObject then;
        QJsonObject properties;
        QStringList requiredNames;
        for (const auto& field : rule->then.fields) {
            properties.insert(field.name,
                              field.required ? of(field.node, refPrefix) : nullable(of(field.node, refPrefix)));
            if (field.required)
                requiredNames.append(field.name);
        }
        if (!properties.isEmpty())
            then.insert(QStringLiteral("properties"), properties);
        if (!requiredNames.isEmpty())
            then.insert(QStringLiteral("required"), QJsonArray::fromStringList(requiredNames));
        const QJsonArray inner = rules(rule->then, refPrefix);
        if (!inner.isEmpty())
            then.insert(QStringLiteral("allOf"), inner);
        const QJsonObject condition{
            {QStringLiteral("properties"),
             QJsonObject{
                 {rule->field, QJsonObject{{QStringLiteral("enum"), QJsonArray::fromStringList(rule->values)}}}}},
            {QStringLiteral("required"), QJsonArray{rule->field}}};
        out.append(QJsonObject{{QStringLiteral("if"), condition},
                               {rule->negate ? QStringLiteral("else") : QStringLiteral("then"), then}});
    }
    return out;
}

void collectTypes(const Node& node, QSet<QString>& seen)
{
    if (node.type == Node::Type::Ref) {
        if (seen.contains(node.ref))
            return;
        seen.insert(node.ref);
        if (const Node* type = sharedType(node.ref))
            collectTypes(*type, seen);
        return;
    }
    for (const auto& field : node.fields)
        collectTypes(field.node, seen);
    for (const auto& alternative : node.alternatives)
        collectTypes(alternative, seen);
    for (const auto& rule : node.when)
        collectTypes(rule->then, seen);
    if (node.items)
        collectTypes(*node.items, seen);
}

} // namespace

QJsonObject of(const Node& node, const QString& refPrefix)
{
    QJsonObject out;
    switch (node.type) {
    case Node::Type::Boolean:
        out.insert(QStringLiteral("type"), QStringLiteral("boolean"));
        break;
    case Node::Type::Integer:
        out.insert(QStringLiteral("type"), QStringLiteral("integer"));
        if (node.minimum)
            out.insert(QStringLiteral("minimum"), *node.minimum);
        if (node.maximum)
            out.insert(QStringLiteral("maximum"), *node.maximum);
        break;
    case Node::Type::String:
        out.insert(QStringLiteral("type"), QStringLiteral("string"));
        if (!node.enumValues.isEmpty())
            out.insert(QStringLiteral("enum"), QJsonArray::fromStringList(node.enumValues));
        if (node.nonEmpty)
            out.insert(QStringLiteral("minLength"), 1);
        if (!node.pattern.isEmpty())
            out.insert(QStringLiteral("pattern"), node.pattern);
        break;
    case Node::Type::Array:
        out.insert(QStringLiteral("type"), QStringLiteral("array"));
        if (node.items)
            out.insert(QStringLiteral("items"), of(*node.items, refPrefix));
        if (node.minItems)
            out.insert(QStringLiteral("minItems"), *node.minItems);
        if (node.maxItems)
            out.insert(QStringLiteral("maxItems"), *node.maxItems);
        break;
    case Node::Type::Ref:
        out.insert(QStringLiteral("$ref"), QString(refPrefix + node.ref));
        break;
    case Node::Type::Any:
        if (!node.alternatives.isEmpty()) {
            QJsonArray any;
            for (const auto& alternative : node.alternatives)
                any.append(of(alternative, refPrefix));
            out.insert(QStringLiteral("anyOf"), any);
        }
        break;
    case Node::Type::Object: {
        out.insert(QStringLiteral("type"), QStringLiteral("object"));
        QJsonObject properties;
        QStringList requiredNames;
        for (const auto& field : node.fields) {
            QJsonObject property = of(field.node, refPrefix);
            if (!field.since.isEmpty())
                property.insert(QStringLiteral("x-since"), field.since);
            properties.insert(field.name, field.required ? property : nullable(property));
            if (field.required)
                requiredNames.append(field.name);
        }
        out.insert(QStringLiteral("properties"), properties);
        if (!requiredNames.isEmpty())
            out.insert(QStringLiteral("required"), QJsonArray::fromStringList(requiredNames));
        if (node.closed)
            out.insert(QStringLiteral("additionalProperties"), false);
        if (node.minProperties)
            out.insert(QStringLiteral("minProperties"), *node.minProperties);
        if (node.maxProperties)
            out.insert(QStringLiteral("maxProperties"), *node.maxProperties);
        const QJsonArray all = rules(node, refPrefix);
        if (!all.isEmpty())
            out.insert(QStringLiteral("allOf"), all);
        break;
    }
    }
    if (!node.description.isEmpty())
        out.insert(QStringLiteral("description"), node.description);
    if (node.defaultValue)
        out.insert(QStringLiteral("default"), *node.defaultValue);
    return out;
}

QJsonObject params(const Method& method, const QString& refPrefix)
{
    Node whole = method.params;
    Node meta = ref(QStringLiteral("Meta"));
    whole.fields.prepend(required(QStringLiteral("meta"), meta));
    QJsonObject out = of(whole, refPrefix);
    if (method.workspaceBound) {
        // Evidence goes to the workspace: meta.workspacePath is required here.
        QJsonObject properties = out.value(QStringLiteral("properties")).toObject();
        properties.insert(
            QStringLiteral("meta"),
            QJsonObject{{QStringLiteral("allOf"),
                         QJsonArray{QJsonObject{{QStringLiteral("$ref"), QString(refPrefix + QStringLiteral("Meta"))}},
                                    present({QStringLiteral("workspacePath")})}}});
        out.insert(QStringLiteral("properties"), properties);
    }
    return out;
}

QJsonObject result(const Method& method)
{
    QJsonObject properties;
    for (const auto& field : method.result) {
        QJsonObject property{{QStringLiteral("description"), field.description}};
        if (!field.type.isEmpty())
            property.insert(QStringLiteral("type"), field.type);
        properties.insert(field.name, property);
    }
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
}

QStringList typesUsedBy(const Node& node)
{
    QSet<QString> seen;
    collectTypes(node, seen);
    QStringList out(seen.cbegin(), seen.cend());
    out.sort();
    return out;
}

namespace {

const Node* memberNode(const QString& method, const QString& path)
{
    const Method* declared = find(method);
    if (!declared)
        return nullptr;
    const Node* node = &declared->params;
    for (const auto& name : path.split(QLatin1Char('.'))) {
        if (node->type == Node::Type::Ref)
            node = sharedType(node->ref);
        const Field* field = node ? fieldOf(*node, name) : nullptr;
        if (!field)
            return nullptr;
        node = &field->node;
    }
    return node;
}

// `schema` with every $ref replaced by the shared type it names, `depth` levels deep (a
// selector's labelledBy and near are selectors again: below that, a plain object).
QJsonValue inlineRefs(const QJsonValue& value, int depth)
{
    if (value.isArray()) {
        QJsonArray out;
        for (const auto& item : value.toArray())
            out.append(inlineRefs(item, depth));
        return out;
    }
    if (!value.isObject())
        return value;
    QJsonObject object = value.toObject();
    if (object.contains(QStringLiteral("$ref"))) {
        const QString name = object.value(QStringLiteral("$ref")).toString().section(QLatin1Char('/'), -1);
        const Node* type = sharedType(name);
        QJsonObject out = type && depth > 0 ? inlineRefs(of(*type, kDefs), depth - 1).toObject()
                                            : QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}};
        if (object.contains(QStringLiteral("description")))
            out.insert(QStringLiteral("description"), object.value(QStringLiteral("description")));
        return out;
    }
    for (auto it = object.begin(); it != object.end(); ++it)
        it.value() = inlineRefs(it.value(), depth);
    return object;
}

} // namespace

QJsonObject member(const QString& method, const QString& path)
{
    const Node* node = memberNode(method, path);
    return node ? inlineRefs(of(*node, kDefs), 3).toObject() : QJsonObject();
}

QStringList enumOf(const QString& method, const QString& path)
{
    const Node* node = memberNode(method, path);
    if (node && node->type == Node::Type::Array && node->items)
        node = node->items.get();
    return node ? node->enumValues : QStringList();
}

QJsonObject methodFile(const Method& method)
{
    QJsonObject out = params(method, kDefs);
    QJsonObject defs;
    QStringList used = typesUsedBy(method.params);
    if (!used.contains(QStringLiteral("Meta")))
        used.append(QStringLiteral("Meta"));
    for (const auto& name : used)
        defs.insert(name, of(*sharedType(name), kDefs));
    defs.insert(QStringLiteral("Result"), result(method));
    out.insert(QStringLiteral("$defs"), defs);
    out.insert(QStringLiteral("$schema"), QStringLiteral("https://json-schema.org/draft/2020-12/schema"));
    out.insert(QStringLiteral("$id"), QString(method.name + QStringLiteral(".json")));
    out.insert(QStringLiteral("title"), method.name);
    out.insert(QStringLiteral("description"), method.summary);
    out.insert(QStringLiteral("x-kind"), kindName(method.kind));
    return out;
}

QJsonObject openRpc()
{
    const QString components = QStringLiteral("#/components/schemas/");
    QJsonArray list;
    for (const auto& method : methods()) {
        QJsonArray descriptors{QJsonObject{
            {QStringLiteral("name"), QStringLiteral("meta")},
            {QStringLiteral("required"), true},
            {QStringLiteral("schema"),
             params(method, components).value(QStringLiteral("properties")).toObject().value(QStringLiteral("meta"))}}};
        const QJsonObject whole = params(method, components);
        const QJsonObject properties = whole.value(QStringLiteral("properties")).toObject();
        for (const auto& field : method.params.fields) {
            QJsonObject descriptor{{QStringLiteral("name"), field.name},
                                   {QStringLiteral("required"), field.required},
                                   {QStringLiteral("schema"), properties.value(field.name)}};
            if (!field.node.description.isEmpty())
                descriptor.insert(QStringLiteral("description"), field.node.description);
            descriptors.append(descriptor);
        }
        QJsonObject entry{{QStringLiteral("name"), method.name},
                          {QStringLiteral("summary"), method.summary},
                          {QStringLiteral("paramStructure"), QStringLiteral("by-name")},
                          {QStringLiteral("params"), descriptors},
                          {QStringLiteral("result"), QJsonObject{{QStringLiteral("name"), QStringLiteral("result")},
                                                                 {QStringLiteral("schema"), result(method)}}},
                          {QStringLiteral("x-kind"), kindName(method.kind)},
                          // The whole params object, with the rules across members the
                          // per-param descriptors cannot say (one of, not both, only with).
                          {QStringLiteral("x-paramsSchema"), whole}};
        if (!method.errors.isEmpty())
            entry.insert(QStringLiteral("x-errors"), QJsonArray::fromStringList(method.errors));
        if (!method.actions.isEmpty()) {
            QJsonArray actions;
            for (const auto& action : method.actions)
                actions.append(QJsonObject{{QStringLiteral("name"), action.name},
                                           {QStringLiteral("kind"), kindName(action.kind)},
                                           {QStringLiteral("description"), action.description}});
            entry.insert(QStringLiteral("x-actions"), actions);
        }
        if (!method.since.isEmpty())
            entry.insert(QStringLiteral("x-since"), method.since);
        list.append(entry);
    }
    QJsonObject schemas;
    for (const auto& name : sharedTypeNames())
        schemas.insert(name, of(*sharedType(name), components));
    return QJsonObject{
        {QStringLiteral("openrpc"), QStringLiteral("1.3.2")},
        {QStringLiteral("info"),
         QJsonObject{{QStringLiteral("title"), QStringLiteral("msgcode Desktop Host bridge")},
                     {QStringLiteral("version"), QStringLiteral("1")},
                     {QStringLiteral("description"),
                      QStringLiteral("JSON-RPC 2.0 over the host's local socket (docs/protocol.md). Errors carry the "
                                     "contract's string codes (DESKTOP_*), listed per method as x-errors.")}}},
        {QStringLiteral("methods"), list},
        {QStringLiteral("components"), QJsonObject{{QStringLiteral("schemas"), schemas}}}};
}

} // namespace Contract::Schema
