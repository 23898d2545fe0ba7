#pragma once

#include "automation/Error.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <cmath>
#include <optional>

namespace Automation {

/// Reads the members of one JSON object, recording the first problem as DESKTOP_INVALID_REQUEST
/// (-32602) with the field's full path ("route.window.titlePattern"), so each parser reads like
/// the contract's JSON. Shared by the request parsers (bridge/Params) and the types' fromJson.
class JsonFieldReader
{
public:
    JsonFieldReader(const QJsonObject& object, QString prefix) : m_object(object), m_prefix(std::move(prefix)) {}

    bool failed() const { return m_error.has_value(); }
    const Error& error() const { return *m_error; }
    QString path(const QString& key) const { return m_prefix.isEmpty() ? key : m_prefix + QLatin1Char('.') + key; }
    bool has(const QString& key) const
    {
        const auto v = m_object.value(key);
        return !v.isUndefined() && !v.isNull();
    }
    QJsonValue raw(const QString& key) const { return m_object.value(key); }

    void fail(const QString& key, const QString& message)
    {
        if (!m_error)
            m_error = Error::invalidParam(path(key), path(key) + QLatin1Char(' ') + message);
    }
    void fail(const Error& error)
    {
        if (!m_error)
            m_error = error;
    }

    /// Members outside `known` are refused where a typo would silently widen what is matched.
    void rejectUnknown(const QStringList& known)
    {
        for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
            if (!known.contains(it.key())) {
                fail(it.key(),
                     QStringLiteral("is not a known field (known: %1)").arg(known.join(QStringLiteral(", "))));
                return;
            }
        }
    }

    std::optional<QString> string(const QString& key, bool required = false, bool allowEmpty = true)
    {
        if (!has(key)) {
            if (required)
                fail(key, QStringLiteral("is required"));
            return std::nullopt;
        }
        const QJsonValue v = m_object.value(key);
        if (!v.isString()) {
            fail(key, QStringLiteral("must be a string"));
            return std::nullopt;
        }
        if (!allowEmpty && v.toString().isEmpty()) {
            fail(key, QStringLiteral("must not be empty"));
            return std::nullopt;
        }
        return v.toString();
    }

    std::optional<bool> boolean(const QString& key)
    {
        if (!has(key))
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        if (!v.isBool()) {
            fail(key, QStringLiteral("must be true or false"));
            return std::nullopt;
        }
        return v.toBool();
    }

    std::optional<qint64> integer(const QString& key, qint64 min, qint64 max, bool required = false)
    {
        if (!has(key)) {
            if (required)
                fail(key, QStringLiteral("is required"));
            return std::nullopt;
        }
        const QJsonValue v = m_object.value(key);
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || std::floor(d) != d || d < double(min) || d > double(max)) {
            fail(key, QStringLiteral("must be an integer from %1 to %2").arg(min).arg(max));
            return std::nullopt;
        }
        return static_cast<qint64>(d);
    }

    /// A whole number whose range a declaration has already checked (bridge/contract/).
    std::optional<qint64> integer(const QString& key, bool required = false)
    {
        constexpr qint64 kExact = qint64{1} << 53; // the whole numbers a double holds exactly
        return integer(key, -kExact, kExact, required);
    }

    std::optional<QJsonObject> object(const QString& key, bool required = false)
    {
        if (!has(key)) {
            if (required)
                fail(key, QStringLiteral("is required"));
            return std::nullopt;
        }
        const QJsonValue v = m_object.value(key);
        if (!v.isObject()) {
            fail(key, QStringLiteral("must be an object"));
            return std::nullopt;
        }
        return v.toObject();
    }

    /// The value, or the first error recorded.
    template <typename T> Result<T> finish(T value) const
    {
        if (failed())
            return error();
        return value;
    }

private:
    const QJsonObject& m_object;
    QString m_prefix;
    std::optional<Error> m_error;
};

} // namespace Automation
