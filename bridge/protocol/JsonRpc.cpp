#include "bridge/protocol/JsonRpc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringDecoder>

#include <cmath>

namespace Bridge::JsonRpc {

using Automation::Error;

namespace {

bool isValidUtf8(const QByteArray& bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    // decode() is lazy: the conversion to QString is what runs the decoder.
    const QString decoded = decoder.decode(bytes);
    Q_UNUSED(decoded);
    return !decoder.hasError();
}

} // namespace

Automation::Result<QJsonValue> decode(const QByteArray& line)
{
    // Qt's JSON parser replaces broken UTF-8 silently; the contract says UTF-8, so refuse it.
    if (!isValidUtf8(line))
        return Error::invalidRequest(QStringLiteral("Parse error: the line is not valid UTF-8"), -32700,
                                     QJsonObject{{QStringLiteral("reason"), QStringLiteral("invalid_utf8")}});
    // Qt's parser drops a raw U+FEFF at the start of a string ("\uFEFFabc" would type "abc").
    // Outside a string U+FEFF is not JSON at all, so writing every raw one but a leading
    // byte-order mark as the escape \ufeff keeps strings whole and changes nothing else.
    static const QByteArray kRawFeff("\xEF\xBB\xBF");
    QByteArray escaped;
    const QByteArray* text = &line;
    if (line.indexOf(kRawFeff, 1) > 0) {
        escaped = line.left(1) + line.mid(1).replace(kRawFeff, QByteArrayLiteral("\\ufeff"));
        text = &escaped;
    }
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(*text, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error::invalidRequest(QStringLiteral("Parse error: ") + parseError.errorString(), -32700,
                                     QJsonObject{{QStringLiteral("reason"), QStringLiteral("invalid_json")},
                                                 {QStringLiteral("offset"), parseError.offset}});
    if (doc.isArray())
        return QJsonValue(doc.array());
    return QJsonValue(doc.object());
}

std::variant<Request, Invalid> parseRequest(const QJsonValue& value)
{
    if (!value.isObject())
        return Invalid{Error::invalidRequest(QStringLiteral("Invalid request: expected a JSON object"), -32600), {}};
    const QJsonObject object = value.toObject();

    Request request;
    const auto idIt = object.constFind(QLatin1String("id"));
    if (idIt == object.constEnd()) {
        request.notification = true;
    } else if (idIt->isDouble() && std::abs(idIt->toDouble()) > kMaxExactId) {
        // QJsonDocument reads numbers as double: such an id would be echoed rounded
        // (123456789012345678901234567890 -> 1.2345678901234568e+29), which no client could match.
        return Invalid{Error::invalidRequest(QStringLiteral("Invalid request: a numeric id must lie between "
                                                            "-9007199254740991 and 9007199254740991 (2^53 - 1) to be "
                                                            "echoed exactly; use a string id"),
                                             -32600,
                                             QJsonObject{{QStringLiteral("field"), QStringLiteral("id")},
                                                         {QStringLiteral("reason"), QStringLiteral("id_not_exact")}}),
                       {}};
    } else if (idIt->isString() || idIt->isDouble() || idIt->isNull()) {
        request.id = *idIt;
    } else {
        return Invalid{Error::invalidRequest(QStringLiteral("Invalid request: id must be a string, number or null"),
                                             -32600, QJsonObject{{QStringLiteral("field"), QStringLiteral("id")}}),
                       {}};
    }

    if (object.value(QLatin1String("jsonrpc")) != QJsonValue(QStringLiteral("2.0")))
        return Invalid{Error::invalidRequest(QStringLiteral("Invalid request: jsonrpc must be \"2.0\""), -32600,
                                             QJsonObject{{QStringLiteral("field"), QStringLiteral("jsonrpc")}}),
                       request.id};

    const QJsonValue method = object.value(QLatin1String("method"));
    if (!method.isString() || method.toString().isEmpty())
        return Invalid{Error::invalidRequest(QStringLiteral("Invalid request: method must be a non-empty string"),
                                             -32600, QJsonObject{{QStringLiteral("field"), QStringLiteral("method")}}),
                       request.id};
    request.method = method.toString();

    const auto paramsIt = object.constFind(QLatin1String("params"));
    if (paramsIt != object.constEnd()) {
        if (!paramsIt->isObject())
            return Invalid{Error::invalidParam(QStringLiteral("params"), QStringLiteral("params must be an object")),
                           request.id};
        request.params = paramsIt->toObject();
    }
    return request;
}

bool isAnswered(const std::variant<Request, Invalid>& parsed)
{
    const auto* request = std::get_if<Request>(&parsed);
    return !request || !request->notification;
}

QJsonObject request(const QString& method, const QJsonObject& params, const QJsonValue& id)
{
    QJsonObject object{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("method"), method},
                       {QStringLiteral("params"), params}};
    if (!id.isUndefined())
        object.insert(QStringLiteral("id"), id);
    return object;
}

QJsonObject resultResponse(const QJsonValue& id, const QJsonObject& result)
{
    return QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("result"), result}};
}

QJsonObject errorResponse(const QJsonValue& id, const Error& error)
{
    return QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("error"), error.toJson()}};
}

QByteArray encodeLine(const QJsonObject& object)
{
    QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
    line.append('\n');
    return line;
}

QByteArray encodeLine(const QJsonArray& array)
{
    QByteArray line = QJsonDocument(array).toJson(QJsonDocument::Compact);
    line.append('\n');
    return line;
}

} // namespace Bridge::JsonRpc
