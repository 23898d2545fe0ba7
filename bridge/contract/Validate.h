#pragma once

#include "automation/Error.h"
#include "bridge/contract/Declaration.h"

#include <QJsonObject>

#include <optional>

namespace Contract {

/// Checks `value` against `node` as the JSON Schema generated from it does: type, range, enum,
/// pattern, required and unknown members, the object rules. The first problem is answered as
/// DESKTOP_INVALID_REQUEST (-32602) naming the field by its path ("route.window.id"). A member
/// given as null counts as absent.
std::optional<Automation::Error> check(const Node& node, const QJsonValue& value, const QString& path);

/// A request's params against its method's declaration; `meta` is Meta::parse's business.
std::optional<Automation::Error> checkParams(const Method& method, const QJsonObject& params);

} // namespace Contract
