#include "bridge/protocol/CanonicalJson.h"

#include <QCryptographicHash>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <utility>

namespace Bridge {

namespace {

constexpr double kMaxExactInteger = 9007199254740992.0; // 2^53

bool lessByUtf16(const QString& a, const QString& b)
{
    // QString's own ordering is not promised to stay UTF-16 code-unit order; spell it out.
    const char16_t* x = reinterpret_cast<const char16_t*>(a.utf16());
    const char16_t* y = reinterpret_cast<const char16_t*>(b.utf16());
    return std::lexicographical_compare(x, x + a.size(), y, y + b.size());
}

void appendUtf8(QByteArray& out, char32_t cp)
{
    if (cp < 0x80) {
        out.append(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.append(static_cast<char>(0xC0 | (cp >> 6)));
        out.append(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.append(static_cast<char>(0xE0 | (cp >> 12)));
        out.append(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.append(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.append(static_cast<char>(0xF0 | (cp >> 18)));
        out.append(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.append(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.append(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

void appendUnicodeEscape(QByteArray& out, char16_t unit)
{
    static const char hex[] = "0123456789abcdef";
    out.append("\\u");
    out.append(hex[(unit >> 12) & 0xF]);
    out.append(hex[(unit >> 8) & 0xF]);
    out.append(hex[(unit >> 4) & 0xF]);
    out.append(hex[unit & 0xF]);
}

} // namespace

QByteArray CanonicalJson::number(double value)
{
    if (!std::isfinite(value))
        return QByteArrayLiteral("null"); // JSON has no such numbers; never produced by a parser
    if (value == std::trunc(value) && std::fabs(value) <= kMaxExactInteger)
        return QByteArray::number(static_cast<qint64>(value)); // -0 becomes 0
    // The fewest significant digits that read back as the same double.
    QByteArray text;
    for (int precision = 1; precision <= 17; ++precision) {
        text = QByteArray::number(value, 'g', precision);
        bool ok = false;
        if (text.toDouble(&ok) == value && ok)
            break;
    }
    // One exponent form: "e", a minus sign only when negative, no leading zeros ("1e-7", "1e21").
    const qsizetype e = text.indexOf('e');
    if (e >= 0) {
        QByteArray exponent = text.mid(e + 1);
        bool negative = false;
        if (exponent.startsWith('+') || exponent.startsWith('-')) {
            negative = exponent.startsWith('-');
            exponent.remove(0, 1);
        }
        while (exponent.size() > 1 && exponent.startsWith('0'))
            exponent.remove(0, 1);
        text = text.left(e) + 'e' + (negative ? QByteArrayLiteral("-") : QByteArray()) + exponent;
    }
    return text;
}

QByteArray CanonicalJson::string(const QString& value)
{
    QByteArray out;
    out.reserve(value.size() + 2);
    out.append('"');
    const char16_t* units = reinterpret_cast<const char16_t*>(value.utf16());
    const qsizetype size = value.size();
    for (qsizetype i = 0; i < size; ++i) {
        const char16_t unit = units[i];
        switch (unit) {
        case u'"':
            out.append("\\\"");
            continue;
        case u'\\':
            out.append("\\\\");
            continue;
        case u'\b':
            out.append("\\b");
            continue;
        case u'\f':
            out.append("\\f");
            continue;
        case u'\n':
            out.append("\\n");
            continue;
        case u'\r':
            out.append("\\r");
            continue;
        case u'\t':
            out.append("\\t");
            continue;
        default:
            break;
        }
        if (QChar::isHighSurrogate(unit) && i + 1 < size && QChar::isLowSurrogate(units[i + 1])) {
            appendUtf8(out, QChar::surrogateToUcs4(unit, units[i + 1]));
            ++i;
        } else if (unit < 0x20 || QChar::isSurrogate(unit)) {
            // Control characters are escaped; so is a lone surrogate, which has no UTF-8 form
            // (escaping it keeps two different strings apart).
            appendUnicodeEscape(out, unit);
        } else {
            appendUtf8(out, unit);
        }
    }
    out.append('"');
    return out;
}

void CanonicalJson::write(QByteArray& out, const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out.append("null");
        return;
    case QJsonValue::Bool:
        out.append(value.toBool() ? "true" : "false");
        return;
    case QJsonValue::Double:
        out.append(number(value.toDouble()));
        return;
    case QJsonValue::String:
        out.append(string(value.toString()));
        return;
    case QJsonValue::Array: {
        out.append('[');
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (i > 0)
                out.append(',');
            write(out, array.at(i));
        }
        out.append(']');
        return;
    }
    case QJsonValue::Object: {
        // Members are read by iterating, never looked up by key: an object from Qt 6.4's parser
        // holds its keys in code-point order while QJsonObject::value() searches in UTF-16 order,
        // so value() misses a key above U+FFFF when a key in U+E000..U+FFFF sits beside it, and
        // that member's value would be written as null (docs/canonical-json.md: every value counts).
        const QJsonObject object = value.toObject();
        QList<std::pair<QString, QJsonValue>> members;
        members.reserve(object.size());
        for (auto it = object.constBegin(); it != object.constEnd(); ++it)
            members.append({it.key(), it.value()});
        std::sort(members.begin(), members.end(),
                  [](const auto& a, const auto& b) { return lessByUtf16(a.first, b.first); });
        out.append('{');
        bool first = true;
        for (const auto& [key, member] : std::as_const(members)) {
            if (!first)
                out.append(',');
            first = false;
            out.append(string(key));
            out.append(':');
            write(out, member);
        }
        out.append('}');
        return;
    }
    }
}

QByteArray CanonicalJson::serialize(const QJsonValue& value)
{
    QByteArray out;
    write(out, value);
    return out;
}

QJsonObject CanonicalJson::digestedParams(QJsonObject params)
{
    // docs/protocol.md §5.10: the digest names what will be done, not the envelope around it.
    params.remove(QStringLiteral("meta"));
    params.remove(QStringLiteral("confirm"));
    return params;
}

QString CanonicalJson::paramsDigest(const QJsonObject& params)
{
    const QByteArray canonical = serialize(digestedParams(params));
    return QString::fromLatin1(QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex().left(16));
}

} // namespace Bridge
