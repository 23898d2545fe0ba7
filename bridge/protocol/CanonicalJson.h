#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace Bridge {

/// The one canonical text of a JSON value, and the params digest of docs/protocol.md §5.10
/// (docs/canonical-json.md): object keys sorted by UTF-16 code units at every level, no
/// whitespace, numbers as IEEE-754 doubles in one form, strings escaped one way, UTF-8.
class CanonicalJson
{
public:
    /// The canonical UTF-8 text of `value` (undefined is written as null).
    static QByteArray serialize(const QJsonValue& value);
    /// A number's canonical text: integers in [-2^53, 2^53] plainly, others in the shortest
    /// form that reads back as the same double.
    static QByteArray number(double value);
    /// A string's canonical text, quotes included.
    static QByteArray string(const QString& value);
    /// docs/protocol.md §5.10 `paramsDigest`: SHA-256 of the canonical params without the top-level
    /// `meta` and `confirm`, first 16 lower-case hex digits.
    static QString paramsDigest(const QJsonObject& params);
    /// The params that take part in the digest: `params` without top-level `meta` and `confirm`.
    static QJsonObject digestedParams(QJsonObject params);

private:
    static void write(QByteArray& out, const QJsonValue& value);
};

} // namespace Bridge
