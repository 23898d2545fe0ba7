#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

/// The one JSON Schema dialect of the doors' tool tables (tools/list's inputSchema), and the
/// checker of arguments against it. A property is a plain QJsonObject, so a schema taken from
/// elsewhere (the bridge's method declarations) can be put in as it is.
namespace DoorKit::Schema {

/// {type, description}.
QJsonObject property(const QString& type, const QString& description);
/// A string with one of `values`.
QJsonObject choice(const QStringList& values, const QString& description);
/// A number or integer in [minimum, maximum].
QJsonObject ranged(const QString& type, double minimum, double maximum, const QString& description);
/// An array of `itemType`.
QJsonObject arrayOf(const QString& itemType, const QString& description);

/// A member of a bridge method's params as the method's declaration gives it (its type, enum,
/// range, default and description; bridge/contract/methods/), with the door's own description
/// when `description` is set: the doors keep their vocabularies and take the rest from there.
QJsonObject declared(const QString& method, const QString& path, const QString& description = {});
/// A string choice of `before` (the door's own values) followed by the member's declared enum.
QJsonObject declaredChoice(const QStringList& before, const QString& method, const QString& path,
                           const QString& description);

/// Whether an object takes members its properties do not name.
enum class Extra { Allowed, Refused };

/// {type: object, properties, required?, additionalProperties: false when Refused}.
QJsonObject object(const QJsonObject& properties, const QStringList& required = {}, Extra extra = Extra::Allowed);

/// One tools/list entry: {name, description, inputSchema}.
QJsonObject toolDefinition(const QString& name, const QString& description, const QJsonObject& inputSchema);

/// tools/list's `tools` of a table whose rows have name, description and inputSchema.
template <typename Table> QJsonArray toolDefinitions(const Table& table)
{
    QJsonArray out;
    for (const auto& tool : table)
        out.append(toolDefinition(tool.name, tool.description, tool.inputSchema));
    return out;
}

/// The JSON Schema type name of `value` ("number" for every number).
QString typeName(const QJsonValue& value);

/// Where `arguments` break `schema` (the subset these tables use: object, properties with type,
/// enum, minimum, maximum and items, required, additionalProperties false): a message naming the
/// argument, or nullopt.
std::optional<QString> checkArguments(const QJsonObject& schema, const QJsonObject& arguments);

} // namespace DoorKit::Schema
