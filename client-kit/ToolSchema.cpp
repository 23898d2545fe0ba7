#include "client-kit/ToolSchema.h"

#include "bridge/contract/Schema.h"

#include <cmath>

namespace DoorKit::Schema {

QJsonObject declared(const QString& method, const QString& path, const QString& description)
{
    QJsonObject out = Contract::Schema::member(method, path);
    Q_ASSERT_X(!out.isEmpty(), "DoorKit::Schema::declared", "no such declared member");
    if (!description.isEmpty())
        out.insert(QStringLiteral("description"), description);
    return out;
}

QJsonObject declaredChoice(const QStringList& before, const QString& method, const QString& path,
                           const QString& description)
{
    return choice(before + Contract::Schema::enumOf(method, path), description);
}

QJsonObject property(const QString& type, const QString& description)
{
    return QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("description"), description}};
}

QJsonObject choice(const QStringList& values, const QString& description)
{
    QJsonObject out = property(QStringLiteral("string"), description);
    out.insert(QStringLiteral("enum"), QJsonArray::fromStringList(values));
    return out;
}

QJsonObject ranged(const QString& type, double minimum, double maximum, const QString& description)
{
    QJsonObject out = property(type, description);
    out.insert(QStringLiteral("minimum"), minimum);
    out.insert(QStringLiteral("maximum"), maximum);
    return out;
}

QJsonObject arrayOf(const QString& itemType, const QString& description)
{
    QJsonObject out = property(QStringLiteral("array"), description);
    out.insert(QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), itemType}});
    return out;
}

QJsonObject object(const QJsonObject& properties, const QStringList& required, Extra extra)
{
    QJsonObject out{{QStringLiteral("type"), QStringLiteral("object")}, {QStringLiteral("properties"), properties}};
    if (extra == Extra::Refused)
        out.insert(QStringLiteral("additionalProperties"), false);
    if (!required.isEmpty())
        out.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    return out;
}

QJsonObject toolDefinition(const QString& name, const QString& description, const QJsonObject& inputSchema)
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("description"), description},
                       {QStringLiteral("inputSchema"), inputSchema}};
}

QString typeName(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        return QStringLiteral("boolean");
    case QJsonValue::Double:
        return QStringLiteral("number");
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Array:
        return QStringLiteral("array");
    case QJsonValue::Object:
        return QStringLiteral("object");
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("null");
}

std::optional<QString> checkArguments(const QJsonObject& schema, const QJsonObject& arguments)
{
    const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    for (const auto& required : schema.value(QStringLiteral("required")).toArray()) {
        if (!arguments.contains(required.toString()))
            return QStringLiteral("%1 is required").arg(required.toString());
    }
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        if (!properties.contains(it.key())) {
            if (schema.value(QStringLiteral("additionalProperties")).toBool(true))
                continue;
            return QStringLiteral("%1 is not an argument of this tool (it takes: %2)")
                .arg(it.key(), properties.keys().join(QStringLiteral(", ")));
        }
        const QJsonObject rule = properties.value(it.key()).toObject();
        const QString type = rule.value(QStringLiteral("type")).toString();
        const QJsonValue value = it.value();
        const bool isInteger =
            value.isDouble() && std::floor(value.toDouble()) == value.toDouble() && std::abs(value.toDouble()) < 9.0e15;
        const bool typeOk = type == typeName(value) || (type == QLatin1String("integer") && isInteger);
        if (!typeOk)
            return QStringLiteral("%1 must be %2 %3, not %4")
                .arg(it.key(), type == QLatin1String("integer") ? QStringLiteral("an") : QStringLiteral("a"), type,
                     typeName(value));
        if (const QJsonArray allowed = rule.value(QStringLiteral("enum")).toArray();
            !allowed.isEmpty() && !allowed.contains(value)) {
            QStringList names;
            for (const auto& v : allowed)
                names.append(v.toString());
            return QStringLiteral("%1 must be one of: %2").arg(it.key(), names.join(QStringLiteral(", ")));
        }
        if (value.isDouble()) {
            if (rule.contains(QStringLiteral("minimum")) &&
                value.toDouble() < rule.value(QStringLiteral("minimum")).toDouble())
                return QStringLiteral("%1 must be at least %2")
                    .arg(it.key())
                    .arg(rule.value(QStringLiteral("minimum")).toDouble());
            if (rule.contains(QStringLiteral("maximum")) &&
                value.toDouble() > rule.value(QStringLiteral("maximum")).toDouble())
                return QStringLiteral("%1 must be at most %2")
                    .arg(it.key())
                    .arg(rule.value(QStringLiteral("maximum")).toDouble());
        }
    }
    return std::nullopt;
}

} // namespace DoorKit::Schema
