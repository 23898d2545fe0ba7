// Automation::Error: the contract's error codes and shape (docs/protocol.md §3.3 and §6).
#include "automation/Error.h"
#include "UnitTestSupport.h"

#include <QSet>

#include <gtest/gtest.h>

using Automation::Done;
using Automation::Error;
using Automation::ErrorCode;
using Automation::Result;
using Automation::Status;
using UnitTest::jsonObject;
using UnitTest::keysOf;

namespace {

struct CodeRow
{
    const char* name; ///< test name
    ErrorCode code;
    const char* wire;
    bool retryable;

    friend void PrintTo(const CodeRow& row, std::ostream* os) { *os << row.wire; }
};

// Every code, spelled as docs/protocol.md §6 spells it. retryable only where the
// same request, unchanged, can succeed later.
const CodeRow kCodes[] = {
    {"HostNotReady", ErrorCode::HostNotReady, "DESKTOP_HOST_NOT_READY", true},
    {"HostNotRunning", ErrorCode::HostNotRunning, "DESKTOP_HOST_NOT_RUNNING", true},
    {"PermissionMissing", ErrorCode::PermissionMissing, "DESKTOP_PERMISSION_MISSING", false},
    {"WorkspaceForbidden", ErrorCode::WorkspaceForbidden, "DESKTOP_WORKSPACE_FORBIDDEN", false},
    {"ConfirmRequired", ErrorCode::ConfirmRequired, "DESKTOP_CONFIRM_REQUIRED", false},
    {"ElementNotFound", ErrorCode::ElementNotFound, "DESKTOP_ELEMENT_NOT_FOUND", true},
    {"Timeout", ErrorCode::Timeout, "DESKTOP_TIMEOUT", true},
    {"Aborted", ErrorCode::Aborted, "DESKTOP_ABORTED", false},
    {"InternalError", ErrorCode::InternalError, "DESKTOP_INTERNAL_ERROR", false},
    {"InvalidRequest", ErrorCode::InvalidRequest, "DESKTOP_INVALID_REQUEST", false},
    {"StaleSnapshot", ErrorCode::StaleSnapshot, "DESKTOP_STALE_SNAPSHOT", true},
    {"FocusLost", ErrorCode::FocusLost, "DESKTOP_FOCUS_LOST", true},
    {"ModalBlocking", ErrorCode::ModalBlocking, "DESKTOP_MODAL_BLOCKING", false},
    {"AxTraversalLimit", ErrorCode::AxTraversalLimit, "DESKTOP_AX_TRAVERSAL_LIMIT", false},
    {"TargetUnresponsive", ErrorCode::TargetUnresponsive, "DESKTOP_TARGET_UNRESPONSIVE", true},
    {"CallerForbidden", ErrorCode::CallerForbidden, "DESKTOP_CALLER_FORBIDDEN", false},
};

class ErrorCodes : public ::testing::TestWithParam<CodeRow>
{
};

TEST_P(ErrorCodes, WireNameAndRetryable)
{
    const CodeRow& row = GetParam();
    EXPECT_EQ(Automation::errorCodeName(row.code), QString::fromLatin1(row.wire));
    EXPECT_EQ(Automation::errorCodeFromName(QString::fromLatin1(row.wire)), std::optional<ErrorCode>(row.code));
    EXPECT_EQ(Automation::defaultRetryable(row.code), row.retryable);

    const Error made = Error::make(row.code, QStringLiteral("m"));
    EXPECT_EQ(made.code, row.code);
    EXPECT_EQ(made.retryable, row.retryable);
    EXPECT_EQ(made.toJson().value(QStringLiteral("code")).toString(), QString::fromLatin1(row.wire));

    const auto back = Error::fromJson(made.toJson());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->code, row.code);
    EXPECT_EQ(back->retryable, row.retryable);
}

INSTANTIATE_TEST_SUITE_P(All, ErrorCodes, ::testing::ValuesIn(kCodes), UnitTest::RowName());

// The table above holds every enumerator exactly once (CallerForbidden is the last one).
TEST(ErrorCode, TableCoversEveryEnumerator)
{
    const int count = static_cast<int>(ErrorCode::CallerForbidden) + 1;
    ASSERT_EQ(count, static_cast<int>(std::size(kCodes)));
    QSet<int> seen;
    QSet<QString> names;
    for (const CodeRow& row : kCodes) {
        seen.insert(static_cast<int>(row.code));
        names.insert(Automation::errorCodeName(row.code));
    }
    EXPECT_EQ(seen.size(), count);
    EXPECT_EQ(names.size(), count);
}

TEST(ErrorCode, ContractP0ListIsKnown)
{
    // docs/protocol.md §6, verbatim.
    for (const char* wire : {"DESKTOP_HOST_NOT_READY", "DESKTOP_PERMISSION_MISSING", "DESKTOP_WORKSPACE_FORBIDDEN",
                             "DESKTOP_CONFIRM_REQUIRED", "DESKTOP_ELEMENT_NOT_FOUND", "DESKTOP_TIMEOUT",
                             "DESKTOP_ABORTED", "DESKTOP_INTERNAL_ERROR", "DESKTOP_INVALID_REQUEST"}) {
        SCOPED_TRACE(wire);
        const auto code = Automation::errorCodeFromName(QString::fromLatin1(wire));
        ASSERT_TRUE(code.has_value());
        EXPECT_EQ(Automation::errorCodeName(*code), QString::fromLatin1(wire));
    }
}

TEST(ErrorCode, UnknownNamesAreRefused)
{
    for (const char* wire :
         {"", "DESKTOP_NOPE", "desktop_timeout", "TIMEOUT", "DESKTOP_TIMEOUT ", " DESKTOP_TIMEOUT"}) {
        SCOPED_TRACE(wire);
        EXPECT_FALSE(Automation::errorCodeFromName(QString::fromLatin1(wire)).has_value());
    }
}

TEST(Error, ToJsonHasExactlyTheContractKeys)
{
    const Error error = Error::make(ErrorCode::ElementNotFound, QStringLiteral("no match"),
                                    QJsonObject{{QStringLiteral("selector"), QStringLiteral("s")}});
    const QJsonObject json = error.toJson();
    EXPECT_EQ(keysOf(json), (QStringList{QStringLiteral("code"), QStringLiteral("details"), QStringLiteral("message"),
                                         QStringLiteral("retryable")}));
    EXPECT_EQ(json, jsonObject(R"({"code":"DESKTOP_ELEMENT_NOT_FOUND","message":"no match","retryable":true,
                                   "details":{"selector":"s"}})"));
}

TEST(Error, EmptyDetailsAreAnEmptyObject)
{
    const QJsonObject json = Error::make(ErrorCode::InternalError, QStringLiteral("x")).toJson();
    ASSERT_TRUE(json.value(QStringLiteral("details")).isObject());
    EXPECT_TRUE(json.value(QStringLiteral("details")).toObject().isEmpty());
    EXPECT_EQ(json.value(QStringLiteral("retryable")), QJsonValue(false));
}

TEST(Error, InvalidRequestCarriesJsonRpcCode)
{
    const Error error = Error::invalidRequest(QStringLiteral("bad"), -32600,
                                              QJsonObject{{QStringLiteral("field"), QStringLiteral("id")}});
    EXPECT_EQ(error.code, ErrorCode::InvalidRequest);
    EXPECT_FALSE(error.retryable);
    EXPECT_EQ(error.message, QStringLiteral("bad"));
    EXPECT_EQ(error.details, jsonObject(R"({"field":"id","jsonrpcCode":-32600})"));
}

TEST(Error, InvalidParamNamesTheField)
{
    const Error error = Error::invalidParam(QStringLiteral("selector.limit"), QStringLiteral("must be an integer"));
    UnitTest::expectInvalidParam(error, QStringLiteral("selector.limit"));
    EXPECT_EQ(error.message, QStringLiteral("must be an integer"));
    EXPECT_EQ(error.details, jsonObject(R"({"field":"selector.limit","jsonrpcCode":-32602})"));
}

TEST(Error, WithDetailAndWithRetryable)
{
    Error error = Error::make(ErrorCode::Timeout, QStringLiteral("late"));
    error.withDetail(QStringLiteral("timeoutMs"), 15000).withRetryable(false);
    EXPECT_FALSE(error.retryable);
    EXPECT_EQ(error.details, jsonObject(R"({"timeoutMs":15000})"));
    error.withDetail(QStringLiteral("timeoutMs"), 20000);
    EXPECT_EQ(error.details, jsonObject(R"({"timeoutMs":20000})"));
}

TEST(Error, FromJsonKeepsWhatWasSent)
{
    const auto error = Error::fromJson(jsonObject(
        R"({"code":"DESKTOP_TIMEOUT","message":"等待超时","retryable":false,"details":{"timeoutMs":60000}})"));
    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, ErrorCode::Timeout);
    EXPECT_EQ(error->message, QString::fromUtf8("等待超时"));
    EXPECT_FALSE(error->retryable); // as sent, not the default
    EXPECT_EQ(error->details, jsonObject(R"({"timeoutMs":60000})"));
}

TEST(Error, FromJsonRefusesUnknownCode)
{
    EXPECT_FALSE(Error::fromJson(jsonObject(R"({"code":"E_TIMEOUT","message":"x"})")).has_value());
    EXPECT_FALSE(Error::fromJson(jsonObject(R"({"message":"x"})")).has_value());
    EXPECT_FALSE(Error::fromJson(jsonObject(R"({"code":7})")).has_value());
}

TEST(Result, HoldsValueOrError)
{
    Result<int> value(5);
    EXPECT_TRUE(value.ok());
    EXPECT_TRUE(static_cast<bool>(value));
    EXPECT_EQ(value.value(), 5);

    Result<int> failed(Error::make(ErrorCode::Aborted, QStringLiteral("stop")));
    EXPECT_FALSE(failed.ok());
    EXPECT_FALSE(static_cast<bool>(failed));
    EXPECT_EQ(failed.error().code, ErrorCode::Aborted);

    Result<QString> text(QStringLiteral("abc"));
    EXPECT_EQ(text->size(), 3);

    const Status done = Automation::success();
    EXPECT_TRUE(done.ok());
    const Status notDone(Error::make(ErrorCode::InternalError, QStringLiteral("x")));
    EXPECT_FALSE(notDone.ok());
}

} // namespace
