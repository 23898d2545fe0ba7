// Fuzz target JsonRpc (docs/testing.md): one line through bridge/JsonRpc as the dispatcher
// takes it (decode, then the envelope checks), and the answer built for it. Invariants: only
// valid UTF-8 decodes; a request that passes has a non-empty method and an id that is echoed
// exactly; every answer is exactly one line that reads back as JSON with the same id.
//
// Input: the line's bytes.

#include "FuzzCheck.h"
#include "automation/Error.h"
#include "bridge/protocol/JsonRpc.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace JsonRpc = Bridge::JsonRpc;
using Automation::ErrorCode;

namespace {

// An answer leaves as one line: compact JSON, one '\n' at the end, read back as the same object.
void checkAnswer(const QJsonObject& answer, const QJsonValue& id)
{
    const QByteArray line = JsonRpc::encodeLine(answer);
    MDH_FUZZ_CHECK_MSG(line.endsWith('\n') && line.count('\n') == 1, line);
    auto back = JsonRpc::decode(line.chopped(1));
    MDH_FUZZ_CHECK_MSG(back.ok(), line);
    MDH_FUZZ_CHECK_MSG(back.value().isObject(), line);
    const QJsonObject object = back.value().toObject();
    MDH_FUZZ_CHECK_MSG(object.value(QLatin1String("jsonrpc")) == QJsonValue(QStringLiteral("2.0")), line);
    // Exactly the id that came in (undefined is written as null).
    MDH_FUZZ_CHECK_MSG(object.value(QLatin1String("id")) == (id.isUndefined() ? QJsonValue() : id), line);
}

void checkError(const Automation::Error& error)
{
    MDH_FUZZ_CHECK(error.code == ErrorCode::InvalidRequest);
    MDH_FUZZ_CHECK(!error.message.isEmpty());
    const int jsonrpcCode = error.details.value(QLatin1String("jsonrpcCode")).toInt();
    MDH_FUZZ_CHECK(jsonrpcCode == -32700 || jsonrpcCode == -32600 || jsonrpcCode == -32602);
    const auto back = Automation::Error::fromJson(error.toJson());
    MDH_FUZZ_CHECK(back && back->code == error.code && back->message == error.message);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray line(reinterpret_cast<const char*>(data), qsizetype(size));
    auto decoded = JsonRpc::decode(line);
    if (!decoded) {
        checkError(decoded.error());
        MDH_FUZZ_CHECK(decoded.error().details.value(QLatin1String("jsonrpcCode")).toInt() == -32700);
        checkAnswer(JsonRpc::errorResponse(QJsonValue(), decoded.error()), QJsonValue());
        return 0;
    }
    // Only UTF-8 decodes: a valid line reads back as the same bytes (a leading BOM is dropped
    // by the decoder, so such a line is not compared).
    if (!line.startsWith("\xEF\xBB\xBF"))
        MDH_FUZZ_CHECK_MSG(QString::fromUtf8(line).toUtf8() == line, line);

    const QJsonValue value = decoded.value();
    // A batch is an array of request objects; each member goes through the same checks.
    QList<QJsonValue> members;
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (const QJsonValue& member : array)
            members.append(member);
    } else {
        members.append(value);
    }
    for (const QJsonValue& member : std::as_const(members)) {
        const auto parsed = JsonRpc::parseRequest(member);
        if (const auto* invalid = std::get_if<JsonRpc::Invalid>(&parsed)) {
            MDH_FUZZ_CHECK(JsonRpc::isAnswered(parsed));
            checkError(invalid->error);
            checkAnswer(JsonRpc::errorResponse(invalid->id, invalid->error), invalid->id);
            continue;
        }
        const auto& request = std::get<JsonRpc::Request>(parsed);
        MDH_FUZZ_CHECK(member.isObject());
        const QJsonObject object = member.toObject();
        MDH_FUZZ_CHECK(object.value(QLatin1String("jsonrpc")) == QJsonValue(QStringLiteral("2.0")));
        MDH_FUZZ_CHECK(!request.method.isEmpty());
        MDH_FUZZ_CHECK(request.method == object.value(QLatin1String("method")).toString());
        MDH_FUZZ_CHECK(request.notification == !object.contains(QLatin1String("id")));
        MDH_FUZZ_CHECK(JsonRpc::isAnswered(parsed) == !request.notification);
        if (!request.notification) {
            MDH_FUZZ_CHECK(request.id.isString() || request.id.isDouble() || request.id.isNull());
            MDH_FUZZ_CHECK(request.id == object.value(QLatin1String("id")));
        }
        if (request.id.isDouble())
            MDH_FUZZ_CHECK(std::fabs(request.id.toDouble()) <= JsonRpc::kMaxExactId);
        if (object.contains(QLatin1String("params")))
            MDH_FUZZ_CHECK(request.params == object.value(QLatin1String("params")).toObject());
        checkAnswer(JsonRpc::resultResponse(request.id, QJsonObject{{QStringLiteral("ok"), true}}), request.id);
    }
    return 0;
}
