#include "bridge/contract/Validate.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <cmath>

namespace Contract {

using Automation::Error;

namespace {

QString join(const QString& path, const QString& key)
{
    // A member named "" is named as such: every refusal names a field.
    const QString name = key.isEmpty() ? QStringLiteral("\"\"") : key;
    return path.isEmpty() ? name : path + QLatin1Char('.') + name;
}

Error refuse(const QString& path, const QString& words)
{
    return Error::invalidParam(path, path + QLatin1Char(' ') + words);
}

bool given(const QJsonObject& object, const QString& key)
{
    const QJsonValue v = object.value(key);
    return !v.isUndefined() && !v.isNull();
}

bool isInteger(const QJsonValue& value)
{
    if (!value.isDouble())
        return false;
    const double d = value.toDouble();
    return std::isfinite(d) && std::floor(d) == d;
}

QString typeWords(const Node& node)
{
    switch (node.type) {
    case Node::Type::Boolean:
        return QStringLiteral("must be true or false");
    case Node::Type::Integer:
        return QStringLiteral("must be an integer");
    case Node::Type::String:
        return QStringLiteral("must be a string");
    case Node::Type::Object:
        return QStringLiteral("must be an object");
    case Node::Type::Array:
        return QStringLiteral("must be an array");
    case Node::Type::Ref:
    case Node::Type::Any:
        break;
    }
    return QStringLiteral("has the wrong type");
}

QString rangeWords(const Node& node)
{
    if (node.minimum && node.maximum)
        return QStringLiteral("must be an integer from %1 to %2").arg(*node.minimum).arg(*node.maximum);
    if (node.minimum)
        return QStringLiteral("must be an integer of %1 or more").arg(*node.minimum);
    return QStringLiteral("must be an integer of %1 or less").arg(node.maximum.value_or(0));
}

std::optional<Error> checkObjectRules(const Node& node, const QJsonObject& object, const QString& path);

std::optional<Error> checkValue(const Node& node, const QJsonValue& value, const QString& path, int depth)
{
    if (depth > 64)
        return refuse(path, QStringLiteral("nests too deep"));
    switch (node.type) {
    case Node::Type::Ref: {
        const Node* type = sharedType(node.ref);
        if (!type)
            return Error::make(Automation::ErrorCode::InternalError,
                               QStringLiteral("the contract names an undeclared type %1").arg(node.ref));
        return checkValue(*type, value, path, depth + 1);
    }
    case Node::Type::Any: {
        if (node.alternatives.isEmpty())
            return std::nullopt;
        std::optional<Error> first;
        for (const Node& alternative : node.alternatives) {
            auto problem = checkValue(alternative, value, path, depth + 1);
            if (!problem)
                return std::nullopt;
            if (!first)
                first = problem;
        }
        // Of the same type as an alternative: that one's words say what is wrong inside it.
        for (const Node& alternative : node.alternatives) {
            if ((alternative.type == Node::Type::Object && value.isObject()) ||
                (alternative.type == Node::Type::String && value.isString()))
                return checkValue(alternative, value, path, depth + 1);
        }
        return first;
    }
    case Node::Type::Boolean:
        if (!value.isBool())
            return refuse(path, typeWords(node));
        return std::nullopt;
    case Node::Type::Integer: {
        if (!isInteger(value))
            return refuse(path, node.minimum || node.maximum ? rangeWords(node) : typeWords(node));
        const double d = value.toDouble();
        if ((node.minimum && d < double(*node.minimum)) || (node.maximum && d > double(*node.maximum)))
            return refuse(path, rangeWords(node));
        return std::nullopt;
    }
    case Node::Type::String: {
        if (!value.isString())
            return refuse(path,
                          node.enumValues.isEmpty()
                              ? typeWords(node)
                              : QStringLiteral("must be one of %1").arg(node.enumValues.join(QStringLiteral(", "))));
        const QString text = value.toString();
        if (!node.enumValues.isEmpty() && !node.enumValues.contains(text))
            return refuse(path, QStringLiteral("must be one of %1").arg(node.enumValues.join(QStringLiteral(", "))));
        if (node.nonEmpty && text.isEmpty())
            return refuse(path, QStringLiteral("must not be empty"));
        if (!node.pattern.isEmpty()) {
            static thread_local QHash<QString, QRegularExpression> compiled;
            auto it = compiled.find(node.pattern);
            if (it == compiled.end())
                it = compiled.insert(node.pattern, QRegularExpression(node.pattern));
            if (!it->match(text).hasMatch())
                return refuse(path, QStringLiteral("is not in the form %1").arg(node.pattern));
        }
        return std::nullopt;
    }
    case Node::Type::Array: {
        if (!value.isArray())
            return refuse(path, typeWords(node));
        const QJsonArray array = value.toArray();
        if ((node.minItems && array.size() < *node.minItems) || (node.maxItems && array.size() > *node.maxItems)) {
            return refuse(path, QStringLiteral("must hold %1 to %2 items")
                                    .arg(node.minItems.value_or(0))
                                    .arg(node.maxItems ? QString::number(*node.maxItems) : QStringLiteral("any")));
        }
        if (node.items) {
            for (qsizetype i = 0; i < array.size(); ++i) {
                if (auto problem =
                        checkValue(*node.items, array.at(i), path + QStringLiteral("[%1]").arg(i), depth + 1))
                    return problem;
            }
        }
        return std::nullopt;
    }
    case Node::Type::Object: {
        if (!value.isObject())
            return refuse(path, typeWords(node));
        const QJsonObject object = value.toObject();
        if (node.closed) {
            for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
                if (!fieldOf(node, it.key())) {
                    QStringList known;
                    for (const auto& field : node.fields)
                        known.append(field.name);
                    return refuse(
                        join(path, it.key()),
                        QStringLiteral("is not a known field (known: %1)").arg(known.join(QStringLiteral(", "))));
                }
            }
        }
        if ((node.minProperties && object.size() < *node.minProperties) ||
            (node.maxProperties && object.size() > *node.maxProperties)) {
            QStringList names;
            for (const auto& field : node.fields)
                names.append(field.name);
            return refuse(path, QStringLiteral("must have exactly one of: %1").arg(names.join(QStringLiteral(", "))));
        }
        for (const auto& field : node.fields) {
            if (!given(object, field.name)) {
                if (field.required)
                    return refuse(join(path, field.name), QStringLiteral("is required"));
                continue;
            }
            if (auto problem = checkValue(field.node, object.value(field.name), join(path, field.name), depth + 1))
                return problem;
        }
        return checkObjectRules(node, object, path);
    }
    }
    return std::nullopt;
}

std::optional<Error> checkObjectRules(const Node& node, const QJsonObject& object, const QString& path)
{
    for (const auto& group : node.exclusive) {
        QStringList present;
        for (const auto& name : group) {
            if (given(object, name))
                present.append(name);
        }
        if (present.size() > 1)
            return refuse(join(path, present.at(1)),
                          QStringLiteral("conflicts with %1: give one of them").arg(present.at(0)));
    }
    for (const auto& group : node.atLeastOne) {
        if (std::none_of(group.cbegin(), group.cend(), [&](const QString& name) { return given(object, name); }))
            return refuse(join(path, group.first()),
                          QStringLiteral("or another of %1 is required").arg(group.mid(1).join(QStringLiteral(", "))));
    }
    for (const auto& [member, other] : node.needs) {
        if (given(object, member) && !given(object, other))
            return refuse(join(path, member), QStringLiteral("applies only with %1").arg(other));
    }
    for (const auto& [member, others] : node.requiredWith) {
        const bool any =
            std::any_of(others.cbegin(), others.cend(), [&](const QString& o) { return given(object, o); });
        if (any && !given(object, member))
            return refuse(join(path, member),
                          QStringLiteral("is required with %1").arg(others.join(QStringLiteral(" or "))));
    }
    for (const auto& name : node.forbidden) {
        if (given(object, name))
            return refuse(join(path, name),
                          node.forbiddenWhy.isEmpty() ? QStringLiteral("is not allowed here") : node.forbiddenWhy);
    }
    for (const auto& rule : node.when) {
        const QJsonValue selector = object.value(rule->field);
        const bool holds = selector.isString() && rule->values.contains(selector.toString());
        if (holds == rule->negate)
            continue;
        const QString condition = QStringLiteral("%1 %2\"%3\"")
                                      .arg(rule->field, rule->negate ? QStringLiteral("other than ") : QString(),
                                           rule->values.join(QStringLiteral("\", \"")));
        for (const auto& name : rule->then.forbidden) {
            if (given(object, name))
                return refuse(join(path, name), rule->negate
                                                    ? QStringLiteral("is only for %1 \"%2\"")
                                                          .arg(rule->field, rule->values.join(QStringLiteral("\", \"")))
                                                    : QStringLiteral("is not allowed with %1").arg(condition));
        }
        for (const auto& field : rule->then.fields) {
            if (!given(object, field.name)) {
                if (field.required)
                    return refuse(join(path, field.name), QStringLiteral("is required for %1").arg(condition));
                continue;
            }
            if (auto problem = checkValue(field.node, object.value(field.name), join(path, field.name), 0))
                return problem;
        }
        Node rules = rule->then;
        rules.forbidden.clear();
        if (auto problem = checkObjectRules(rules, object, path))
            return problem;
    }
    return std::nullopt;
}

} // namespace

std::optional<Error> check(const Node& node, const QJsonValue& value, const QString& path)
{
    return checkValue(node, value, path, 0);
}

std::optional<Error> checkParams(const Method& method, const QJsonObject& params)
{
    QJsonObject rest = params;
    rest.remove(QStringLiteral("meta"));
    return check(method.params, rest, {});
}

} // namespace Contract
