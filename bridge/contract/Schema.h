#pragma once

#include "bridge/contract/Declaration.h"

#include <QJsonObject>

/// The JSON Schema (draft 2020-12) and OpenRPC 1.3.2 views of the declarations: what
/// `rpc.discover` answers and what docs/schema/ holds.
namespace Contract::Schema {

/// `node` as JSON Schema; shared types as `$ref`s to `refPrefix + name`.
QJsonObject of(const Node& node, const QString& refPrefix);
/// A method's whole params object, `meta` included.
QJsonObject params(const Method& method, const QString& refPrefix);
/// A method's answer (members it always or may carry; answers may carry more).
QJsonObject result(const Method& method);
/// The shared types a node reaches, transitively.
QStringList typesUsedBy(const Node& node);

/// A member of a method's params by its path ("direction", "options.clearBefore") as a
/// self-contained JSON Schema (shared types written out, no `$ref`): what the doors' tool
/// tables take their enums, ranges and descriptions from. An empty object for no such member.
QJsonObject member(const QString& method, const QString& path);
/// The enum values a member declares (empty when it has none).
QStringList enumOf(const QString& method, const QString& path);

/// docs/schema/<method>.json: the params schema with its `$defs`, the result under `$defs.Result`.
QJsonObject methodFile(const Method& method);
/// The OpenRPC 1.3.2 document `rpc.discover` answers (docs/schema/openrpc.json).
QJsonObject openRpc();

} // namespace Contract::Schema
