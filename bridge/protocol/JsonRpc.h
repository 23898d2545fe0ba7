#pragma once

#include "automation/Error.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>

#include <variant>

namespace Bridge::JsonRpc {

/// One parsed JSON-RPC 2.0 request object.
struct Request
{
    QJsonValue id;             ///< string, number (within ±kMaxExactId) or null
    bool notification = false; ///< a valid request without an "id" member: no answer is sent
    QString method;
    QJsonObject params;
};

/// A request object that failed the envelope checks; `id` is echoed when it was readable.
struct Invalid
{
    Automation::Error error;
    QJsonValue id;
};

/// The largest numeric id echoed exactly: 2^53 - 1, the largest integer every JSON reader (and
/// QJsonDocument, which reads numbers as double) holds without rounding.
inline constexpr double kMaxExactId = 9007199254740991.0;

/// Decodes one line: valid UTF-8 and valid JSON, else DESKTOP_INVALID_REQUEST with -32700.
Automation::Result<QJsonValue> decode(const QByteArray& line);

/// Checks the envelope of one request object (docs/protocol.md §3.1): jsonrpc "2.0", id string/number/null
/// or absent (a number beyond ±kMaxExactId is refused: it could not be echoed exactly), method a
/// string, params an object or absent.
std::variant<Request, Invalid> parseRequest(const QJsonValue& value);

/// The one place that says whether a parsed request object gets an answer: an invalid one always
/// does (id null when unreadable, JSON-RPC 2.0 §5), a valid one unless it is a notification.
bool isAnswered(const std::variant<Request, Invalid>& parsed);

/// A request object as a client sends it; without an id (undefined) it is a notification.
QJsonObject request(const QString& method, const QJsonObject& params, const QJsonValue& id);

QJsonObject resultResponse(const QJsonValue& id, const QJsonObject& result);
QJsonObject errorResponse(const QJsonValue& id, const Automation::Error& error);

/// Compact JSON plus '\n'.
QByteArray encodeLine(const QJsonObject& object);
QByteArray encodeLine(const QJsonArray& array);

} // namespace Bridge::JsonRpc
