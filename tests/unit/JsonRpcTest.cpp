// Bridge::JsonRpc: decoding one line and checking the JSON-RPC 2.0 envelope (docs/protocol.md §3).
#include "bridge/protocol/JsonRpc.h"
#include "UnitTestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <gtest/gtest.h>

using Automation::Error;
using Automation::ErrorCode;
using namespace Bridge::JsonRpc;
using UnitTest::jsonObject;
using UnitTest::jsonValue;
using UnitTest::keysOf;

namespace {

// --- decode: UTF-8 -----------------------------------------------------------------------------

struct BytesRow
{
    const char* name;
    QByteArray line;

    friend void PrintTo(const BytesRow& row, std::ostream* os) { *os << row.name; }
};

class DecodeInvalidUtf8 : public ::testing::TestWithParam<BytesRow>
{
};

TEST_P(DecodeInvalidUtf8, IsParseErrorWithReason)
{
    const auto result = decode(GetParam().line);
    ASSERT_FALSE(result.ok());
    const Error& error = result.error();
    EXPECT_EQ(error.code, ErrorCode::InvalidRequest);
    EXPECT_FALSE(error.retryable);
    EXPECT_EQ(error.details.value(QStringLiteral("jsonrpcCode")), QJsonValue(-32700));
    EXPECT_EQ(error.details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("invalid_utf8")));
}

INSTANTIATE_TEST_SUITE_P(Rows, DecodeInvalidUtf8,
                         ::testing::Values(BytesRow{"BareFfFe", QByteArray("\xff\xfe")},
                                           BytesRow{"FfInsideString", QByteArray("{\"a\":\"x\xffy\"}")},
                                           BytesRow{"OverlongSlash", QByteArray("{\"a\":\"\xc0\xaf\"}")},
                                           BytesRow{"OverlongNul", QByteArray("{\"a\":\"\xc0\x80\"}")},
                                           BytesRow{"OverlongThreeByte", QByteArray("{\"a\":\"\xe0\x80\xaf\"}")},
                                           BytesRow{"LoneHighSurrogate", QByteArray("{\"a\":\"\xed\xa0\x80\"}")},
                                           BytesRow{"LoneLowSurrogate", QByteArray("{\"a\":\"\xed\xbf\xbf\"}")},
                                           BytesRow{"AboveU10FFFF", QByteArray("{\"a\":\"\xf4\x90\x80\x80\"}")},
                                           BytesRow{"LoneContinuationByte", QByteArray("{\"a\":\"\x80\"}")},
                                           BytesRow{"TruncatedInsideString", QByteArray("{\"a\":\"\xe4\xbd\"}")},
                                           BytesRow{"InvalidInKey", QByteArray("{\"\xfe\":1}")}),
                         UnitTest::RowName());

TEST(JsonRpcDecode, ValidUtf8IsKept)
{
    const auto result = decode(QByteArray("{\"text\":\"\xe4\xbd\xa0\xe5\xa5\xbd \xe2\x9c\x93 \xf0\x9f\x98\x80\"}"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result.value().toObject().value(QStringLiteral("text")).toString(),
              QString::fromUtf8("\xe4\xbd\xa0\xe5\xa5\xbd \xe2\x9c\x93 \xf0\x9f\x98\x80"));
}

// --- decode: JSON ------------------------------------------------------------------------------

class DecodeInvalidJson : public ::testing::TestWithParam<BytesRow>
{
};

TEST_P(DecodeInvalidJson, IsParseError)
{
    const auto result = decode(GetParam().line);
    ASSERT_FALSE(result.ok());
    const Error& error = result.error();
    EXPECT_EQ(error.code, ErrorCode::InvalidRequest);
    EXPECT_EQ(error.details.value(QStringLiteral("jsonrpcCode")), QJsonValue(-32700));
    EXPECT_EQ(error.details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("invalid_json")));
    EXPECT_TRUE(error.details.value(QStringLiteral("offset")).isDouble());
}

INSTANTIATE_TEST_SUITE_P(Rows, DecodeInvalidJson,
                         ::testing::Values(BytesRow{"Empty", QByteArray()}, BytesRow{"Text", QByteArray("not json")},
                                           BytesRow{"UnclosedObject", QByteArray("{\"a\":1")},
                                           BytesRow{"MissingValue", QByteArray("{\"a\":}")},
                                           BytesRow{"TrailingComma", QByteArray("{\"a\":1,}")},
                                           BytesRow{"UnclosedArray", QByteArray("[1,2")},
                                           BytesRow{"SingleQuotes", QByteArray("{'a':1}")},
                                           BytesRow{"GarbageAfterValue", QByteArray("{\"a\":1} x")}),
                         UnitTest::RowName());

// Qt's parser dropped a raw U+FEFF at the start of a string: text to type lost its first
// character (found by the CanonicalJson fuzz target).
TEST(JsonRpcDecode, ARawZeroWidthNoBreakSpaceStartingAStringIsKept)
{
    const QByteArray line = QByteArrayLiteral("{\"text\":\"\xEF\xBB\xBF"
                                              "abc\",\"mid\":\"a\xEF\xBB\xBF"
                                              "b\"}");
    const auto decoded = decode(line);
    ASSERT_TRUE(decoded.ok());
    const QJsonObject object = decoded.value().toObject();
    EXPECT_EQ(object.value(QStringLiteral("text")).toString(), QString(QChar(0xFEFF)) + QStringLiteral("abc"));
    EXPECT_EQ(object.value(QStringLiteral("mid")).toString(),
              QStringLiteral("a") + QString(QChar(0xFEFF)) + QStringLiteral("b"));
}

TEST(JsonRpcDecode, ObjectAndArray)
{
    const auto object = decode(QByteArray("{\"jsonrpc\":\"2.0\",\"id\":1}"));
    ASSERT_TRUE(object.ok());
    EXPECT_EQ(object.value(), QJsonValue(jsonObject(R"({"jsonrpc":"2.0","id":1})")));

    const auto array = decode(QByteArray("[{\"a\":1},{\"b\":2}]"));
    ASSERT_TRUE(array.ok());
    ASSERT_TRUE(array.value().isArray());
    EXPECT_EQ(array.value().toArray().size(), 2);
}

// A bare scalar is valid JSON but never a request: it must not turn into an empty object.
TEST(JsonRpcDecode, ScalarIsNotAnEmptyObject)
{
    for (const char* text : {"42", "\"x\"", "null", "true"}) {
        SCOPED_TRACE(text);
        const auto result = decode(QByteArray(text));
        if (result.ok()) {
            EXPECT_FALSE(result.value().isObject());
        } else {
            EXPECT_EQ(result.error().code, ErrorCode::InvalidRequest);
            const int code = result.error().details.value(QStringLiteral("jsonrpcCode")).toInt();
            EXPECT_TRUE(code == -32700 || code == -32600) << code;
        }
    }
}

// --- parseRequest ------------------------------------------------------------------------------

struct InvalidRow
{
    const char* name;
    const char* request; ///< any JSON value
    int jsonrpcCode;
    const char* field;    ///< details.field, or nullptr for none
    const char* echoedId; ///< the id echoed in the answer, as JSON

    friend void PrintTo(const InvalidRow& row, std::ostream* os) { *os << row.name; }
};

class ParseRequestInvalid : public ::testing::TestWithParam<InvalidRow>
{
};

TEST_P(ParseRequestInvalid, IsRefused)
{
    const InvalidRow& row = GetParam();
    const auto parsed = parseRequest(jsonValue(row.request));
    ASSERT_TRUE(std::holds_alternative<Invalid>(parsed));
    const Invalid& invalid = std::get<Invalid>(parsed);
    EXPECT_EQ(invalid.error.code, ErrorCode::InvalidRequest);
    EXPECT_FALSE(invalid.error.retryable);
    EXPECT_EQ(invalid.error.details.value(QStringLiteral("jsonrpcCode")), QJsonValue(row.jsonrpcCode));
    if (row.field)
        EXPECT_EQ(invalid.error.details.value(QStringLiteral("field")), QJsonValue(QString::fromLatin1(row.field)));
    else
        EXPECT_FALSE(invalid.error.details.contains(QStringLiteral("field")));
    EXPECT_EQ(invalid.id, jsonValue(row.echoedId));
}

INSTANTIATE_TEST_SUITE_P(
    Rows, ParseRequestInvalid,
    ::testing::Values(
        InvalidRow{"NumberNotObject", "42", -32600, nullptr, "null"},
        InvalidRow{"StringNotObject", R"("desktop.health")", -32600, nullptr, "null"},
        InvalidRow{"NullNotObject", "null", -32600, nullptr, "null"},
        InvalidRow{"ArrayNotObject", R"([{"jsonrpc":"2.0","id":1,"method":"m"}])", -32600, nullptr, "null"},
        InvalidRow{"JsonrpcMissing", R"({"id":1,"method":"m"})", -32600, "jsonrpc", "1"},
        InvalidRow{"Jsonrpc10", R"({"jsonrpc":"1.0","id":"a","method":"m"})", -32600, "jsonrpc", R"("a")"},
        InvalidRow{"JsonrpcNumber", R"({"jsonrpc":2.0,"id":7,"method":"m"})", -32600, "jsonrpc", "7"},
        InvalidRow{"JsonrpcNull", R"({"jsonrpc":null,"id":7,"method":"m"})", -32600, "jsonrpc", "7"},
        InvalidRow{"JsonrpcMissingInNotification", R"({"method":"m"})", -32600, "jsonrpc", "null"},
        InvalidRow{"IdBool", R"({"jsonrpc":"2.0","id":true,"method":"m"})", -32600, "id", "null"},
        InvalidRow{"IdObject", R"({"jsonrpc":"2.0","id":{"a":1},"method":"m"})", -32600, "id", "null"},
        InvalidRow{"IdArray", R"({"jsonrpc":"2.0","id":[1],"method":"m"})", -32600, "id", "null"},
        InvalidRow{"MethodMissing", R"({"jsonrpc":"2.0","id":1})", -32600, "method", "1"},
        InvalidRow{"MethodNumber", R"({"jsonrpc":"2.0","id":1,"method":5})", -32600, "method", "1"},
        InvalidRow{"MethodEmpty", R"({"jsonrpc":"2.0","id":"x","method":""})", -32600, "method", R"("x")"},
        InvalidRow{"MethodNull", R"({"jsonrpc":"2.0","id":null,"method":null})", -32600, "method", "null"},
        InvalidRow{"ParamsArray", R"({"jsonrpc":"2.0","id":1,"method":"m","params":[1,2]})", -32602, "params", "1"},
        InvalidRow{"ParamsString", R"({"jsonrpc":"2.0","id":2,"method":"m","params":"x"})", -32602, "params", "2"},
        InvalidRow{"ParamsNull", R"({"jsonrpc":"2.0","id":3,"method":"m","params":null})", -32602, "params", "3"},
        // Numbers are read as double: beyond 2^53 - 1 an id could not be echoed exactly.
        InvalidRow{"IdBeyondTwoTo53", R"({"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"m"})", -32600,
                   "id", "null"},
        InvalidRow{"IdTwoTo53", R"({"jsonrpc":"2.0","id":9007199254740992,"method":"m"})", -32600, "id", "null"},
        InvalidRow{"IdMinusTwoTo53", R"({"jsonrpc":"2.0","id":-9007199254740992,"method":"m"})", -32600, "id", "null"},
        InvalidRow{"IdHugeExponent", R"({"jsonrpc":"2.0","id":1e300,"method":"m"})", -32600, "id", "null"},
        InvalidRow{"IdHugeWithBadMethod", R"({"jsonrpc":"2.0","id":1e20,"method":5})", -32600, "id", "null"}),
    UnitTest::RowName());

struct ValidRow
{
    const char* name;
    const char* request;
    const char* id; ///< as JSON
    bool notification;
    const char* method;
    const char* params; ///< as JSON

    friend void PrintTo(const ValidRow& row, std::ostream* os) { *os << row.name; }
};

class ParseRequestValid : public ::testing::TestWithParam<ValidRow>
{
};

TEST_P(ParseRequestValid, IsAccepted)
{
    const ValidRow& row = GetParam();
    const auto parsed = parseRequest(jsonValue(row.request));
    ASSERT_TRUE(std::holds_alternative<Request>(parsed)) << std::get<Invalid>(parsed).error.message.toStdString();
    const Request& request = std::get<Request>(parsed);
    EXPECT_EQ(request.id, jsonValue(row.id));
    EXPECT_EQ(request.notification, row.notification);
    EXPECT_EQ(request.method, QString::fromLatin1(row.method));
    EXPECT_EQ(request.params, jsonObject(row.params));
}

INSTANTIATE_TEST_SUITE_P(
    Rows, ParseRequestValid,
    ::testing::Values(
        ValidRow{"IdString", R"({"jsonrpc":"2.0","id":"abc","method":"desktop.health"})", R"("abc")", false,
                 "desktop.health", "{}"},
        ValidRow{"IdEmptyString", R"({"jsonrpc":"2.0","id":"","method":"m"})", R"("")", false, "m", "{}"},
        ValidRow{"IdInteger", R"({"jsonrpc":"2.0","id":42,"method":"m"})", "42", false, "m", "{}"},
        ValidRow{"IdNegativeFraction", R"({"jsonrpc":"2.0","id":-1.5,"method":"m"})", "-1.5", false, "m", "{}"},
        ValidRow{"IdNull", R"({"jsonrpc":"2.0","id":null,"method":"m"})", "null", false, "m", "{}"},
        ValidRow{"IdLargestExact", R"({"jsonrpc":"2.0","id":9007199254740991,"method":"m"})", "9007199254740991", false,
                 "m", "{}"},
        ValidRow{"IdSmallestExact", R"({"jsonrpc":"2.0","id":-9007199254740991,"method":"m"})", "-9007199254740991",
                 false, "m", "{}"},
        ValidRow{"NoIdIsNotification", R"({"jsonrpc":"2.0","method":"desktop.abort"})", "null", true, "desktop.abort",
                 "{}"},
        ValidRow{"ParamsObject",
                 R"({"jsonrpc":"2.0","id":1,"method":"desktop.find","params":{"meta":{"schemaVersion":1},"x":[1]}})",
                 "1", false, "desktop.find", R"({"meta":{"schemaVersion":1},"x":[1]})"},
        ValidRow{"ParamsEmptyObject", R"({"jsonrpc":"2.0","id":1,"method":"m","params":{}})", "1", false, "m", "{}"},
        ValidRow{"UnknownMembersIgnored", R"({"jsonrpc":"2.0","id":1,"method":"m","extra":true})", "1", false, "m",
                 "{}"}),
    UnitTest::RowName());

TEST(JsonRpcParse, IdBeyondTwoTo53SaysToUseAStringId)
{
    const auto parsed =
        parseRequest(jsonValue(R"({"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"m"})"));
    ASSERT_TRUE(std::holds_alternative<Invalid>(parsed));
    const Error& error = std::get<Invalid>(parsed).error;
    EXPECT_TRUE(error.message.contains(QStringLiteral("use a string id"))) << error.message.toStdString();
    EXPECT_EQ(error.details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("id_not_exact")));
    EXPECT_EQ(kMaxExactId, 9007199254740991.0);
}

// --- which request objects are answered (one decision, JSON-RPC 2.0 §4.1 and §5) ----------------

struct AnsweredRow
{
    const char* name;
    const char* request;
    bool answered;

    friend void PrintTo(const AnsweredRow& row, std::ostream* os) { *os << row.name; }
};

class IsAnswered : public ::testing::TestWithParam<AnsweredRow>
{
};

TEST_P(IsAnswered, DecidesOnce)
{
    const AnsweredRow& row = GetParam();
    EXPECT_EQ(isAnswered(parseRequest(jsonValue(row.request))), row.answered);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, IsAnswered,
    ::testing::Values(AnsweredRow{"ValidNotification", R"({"jsonrpc":"2.0","method":"desktop.health"})", false},
                      AnsweredRow{"ValidNotificationWithParams", R"({"jsonrpc":"2.0","method":"m","params":{"a":1}})",
                                  false},
                      AnsweredRow{"InvalidMethodWithoutId", R"({"jsonrpc":"2.0","method":5})", true},
                      AnsweredRow{"InvalidJsonrpcWithoutId", R"({"jsonrpc":"1.0","method":"m"})", true},
                      AnsweredRow{"InvalidParamsWithoutId", R"({"jsonrpc":"2.0","method":"m","params":[1]})", true},
                      AnsweredRow{"NotAnObject", "42", true},
                      AnsweredRow{"IdNull", R"({"jsonrpc":"2.0","id":null,"method":"m"})", true},
                      AnsweredRow{"IdNumber", R"({"jsonrpc":"2.0","id":1,"method":"m"})", true}),
    UnitTest::RowName());

// --- responses ---------------------------------------------------------------------------------

TEST(JsonRpcResponse, ResultShape)
{
    const QJsonObject response =
        resultResponse(QJsonValue(QStringLiteral("req-1")), jsonObject(R"({"executionId":"e","ok":true})"));
    EXPECT_EQ(keysOf(response),
              (QStringList{QStringLiteral("id"), QStringLiteral("jsonrpc"), QStringLiteral("result")}));
    EXPECT_EQ(response.value(QStringLiteral("jsonrpc")), QJsonValue(QStringLiteral("2.0")));
    EXPECT_EQ(response.value(QStringLiteral("id")), QJsonValue(QStringLiteral("req-1")));
    EXPECT_EQ(response.value(QStringLiteral("result")), QJsonValue(jsonObject(R"({"executionId":"e","ok":true})")));
}

TEST(JsonRpcResponse, ResultKeepsNumericAndNullIds)
{
    EXPECT_EQ(resultResponse(QJsonValue(7), {}).value(QStringLiteral("id")), QJsonValue(7));
    const QJsonObject withNull = resultResponse(QJsonValue(QJsonValue::Null), {});
    ASSERT_TRUE(withNull.contains(QStringLiteral("id")));
    EXPECT_TRUE(withNull.value(QStringLiteral("id")).isNull());
}

TEST(JsonRpcResponse, ErrorShape)
{
    const Error error =
        Error::make(ErrorCode::Timeout, QStringLiteral("timed out"), QJsonObject{{QStringLiteral("timeoutMs"), 60000}});
    const QJsonObject response = errorResponse(QJsonValue(QStringLiteral("uuid")), error);
    EXPECT_EQ(keysOf(response),
              (QStringList{QStringLiteral("error"), QStringLiteral("id"), QStringLiteral("jsonrpc")}));
    EXPECT_EQ(response.value(QStringLiteral("jsonrpc")), QJsonValue(QStringLiteral("2.0")));
    EXPECT_EQ(response.value(QStringLiteral("id")), QJsonValue(QStringLiteral("uuid")));
    const QJsonObject body = response.value(QStringLiteral("error")).toObject();
    EXPECT_EQ(keysOf(body), (QStringList{QStringLiteral("code"), QStringLiteral("details"), QStringLiteral("message"),
                                         QStringLiteral("retryable")}));
    EXPECT_EQ(body, jsonObject(R"({"code":"DESKTOP_TIMEOUT","message":"timed out","retryable":true,
                                   "details":{"timeoutMs":60000}})"));
}

TEST(JsonRpcResponse, ErrorWithNullId)
{
    const QJsonObject response =
        errorResponse(QJsonValue(), Error::invalidRequest(QStringLiteral("Parse error"), -32700));
    ASSERT_TRUE(response.contains(QStringLiteral("id")));
    EXPECT_TRUE(response.value(QStringLiteral("id")).isNull());
    EXPECT_EQ(response.value(QStringLiteral("error")).toObject().value(QStringLiteral("details")),
              QJsonValue(jsonObject(R"({"jsonrpcCode":-32700})")));
}

TEST(JsonRpcEncode, CompactOneLine)
{
    // A newline inside a value must stay escaped: one message is one line.
    const QJsonObject object = jsonObject(R"({"a":"two\nlines","b":[1,2]})");
    const QByteArray line = encodeLine(object);
    EXPECT_TRUE(line.endsWith('\n'));
    EXPECT_EQ(line.count('\n'), 1);
    EXPECT_FALSE(line.contains(' '));
    EXPECT_EQ(QJsonDocument::fromJson(line).object(), object);

    const QByteArray arrayLine = encodeLine(QJsonArray{1, QStringLiteral("x")});
    EXPECT_EQ(arrayLine, QByteArray("[1,\"x\"]\n"));
}

TEST(JsonRpcEncode, RoundTripThroughDecodeAndParse)
{
    const QJsonObject request = jsonObject(R"({"jsonrpc":"2.0","id":"r","method":"desktop.health","params":{"k":1}})");
    QByteArray line = encodeLine(request);
    line.chop(1);
    const auto decoded = decode(line);
    ASSERT_TRUE(decoded.ok());
    const auto parsed = parseRequest(decoded.value());
    ASSERT_TRUE(std::holds_alternative<Request>(parsed));
    EXPECT_EQ(std::get<Request>(parsed).params, jsonObject(R"({"k":1})"));
}

} // namespace
