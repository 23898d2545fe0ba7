// Bridge::parseMeta: params.meta (docs/protocol.md §4.1).
#include "bridge/protocol/Meta.h"
#include "UnitTestSupport.h"

#include <gtest/gtest.h>

using Bridge::Meta;
using Bridge::parseMeta;
using UnitTest::jsonObject;

namespace {

struct RefusedRow
{
    const char* name;
    const char* params;
    bool workspaceRequired;
    const char* field;

    friend void PrintTo(const RefusedRow& row, std::ostream* os) { *os << row.name; }
};

class MetaRefused : public ::testing::TestWithParam<RefusedRow>
{
};

TEST_P(MetaRefused, NamesTheField)
{
    const RefusedRow& row = GetParam();
    const auto meta = parseMeta(jsonObject(row.params), row.workspaceRequired);
    ASSERT_FALSE(meta.ok());
    UnitTest::expectInvalidParam(meta.error(), QString::fromLatin1(row.field));
}

#define ID "\"requestId\":\"123e4567-e89b-12d3-a456-426614174000\""

INSTANTIATE_TEST_SUITE_P(
    Rows, MetaRefused,
    ::testing::Values(
        RefusedRow{"MetaMissing", R"({})", false, "meta"},
        RefusedRow{"MetaMissingBesideOtherParams", R"({"selector":{"byRole":"AXButton"}})", false, "meta"},
        RefusedRow{"MetaString", R"({"meta":"x"})", false, "meta"},
        RefusedRow{"MetaArray", R"({"meta":[]})", false, "meta"},
        RefusedRow{"MetaNull", R"({"meta":null})", false, "meta"},
        RefusedRow{"SchemaVersionMissing", "{\"meta\":{" ID "}}", false, "meta.schemaVersion"},
        RefusedRow{"SchemaVersion2", "{\"meta\":{\"schemaVersion\":2," ID "}}", false, "meta.schemaVersion"},
        RefusedRow{"SchemaVersion0", "{\"meta\":{\"schemaVersion\":0," ID "}}", false, "meta.schemaVersion"},
        RefusedRow{"SchemaVersionString", "{\"meta\":{\"schemaVersion\":\"1\"," ID "}}", false, "meta.schemaVersion"},
        RefusedRow{"SchemaVersionFraction", "{\"meta\":{\"schemaVersion\":1.5," ID "}}", false, "meta.schemaVersion"},
        RefusedRow{"SchemaVersionNull", "{\"meta\":{\"schemaVersion\":null," ID "}}", false, "meta.schemaVersion"},
        RefusedRow{"RequestIdMissing", R"({"meta":{"schemaVersion":1}})", false, "meta.requestId"},
        RefusedRow{"RequestIdNumber", R"({"meta":{"schemaVersion":1,"requestId":5}})", false, "meta.requestId"},
        RefusedRow{"RequestIdEmpty", R"({"meta":{"schemaVersion":1,"requestId":""}})", false, "meta.requestId"},
        RefusedRow{"RequestIdNotUuid", R"({"meta":{"schemaVersion":1,"requestId":"uuid"}})", false, "meta.requestId"},
        RefusedRow{"RequestIdBraced",
                   R"({"meta":{"schemaVersion":1,"requestId":"{123e4567-e89b-12d3-a456-426614174000}"}})", false,
                   "meta.requestId"},
        RefusedRow{"RequestIdWithoutHyphens",
                   R"({"meta":{"schemaVersion":1,"requestId":"123e4567e89b12d3a456426614174000"}})", false,
                   "meta.requestId"},
        RefusedRow{"RequestIdWrongSeparators",
                   R"({"meta":{"schemaVersion":1,"requestId":"123e4567_e89b_12d3_a456_426614174000"}})", false,
                   "meta.requestId"},
        RefusedRow{"RequestIdNotHex",
                   R"({"meta":{"schemaVersion":1,"requestId":"123e4567-e89b-12d3-a456-42661417400g"}})", false,
                   "meta.requestId"},
        RefusedRow{"RequestIdTrailingSpace",
                   R"({"meta":{"schemaVersion":1,"requestId":"123e4567-e89b-12d3-a456-426614174000 "}})", false,
                   "meta.requestId"},
        RefusedRow{"RequestIdPathLike",
                   R"({"meta":{"schemaVersion":1,"requestId":"../../../../../../../../../../etc/xy"}})", false,
                   "meta.requestId"},
        // The id becomes a directory name as sent: nothing but hex digits and four hyphens.
        RefusedRow{"RequestIdNonAsciiDigit",
                   "{\"meta\":{\"schemaVersion\":1,\"requestId\":\"123e4567-e89b-12d3-a456-42661417400\u0661\"}}",
                   false, "meta.requestId"},
        RefusedRow{"RequestIdSlashes",
                   R"({"meta":{"schemaVersion":1,"requestId":"123e4567/e89b/12d3/a456/426614174000"}})", false,
                   "meta.requestId"},
        RefusedRow{"RequestIdHyphensMoved",
                   R"({"meta":{"schemaVersion":1,"requestId":"123e4567e-89b-12d3-a456-426614174000"}})", false,
                   "meta.requestId"},
        RefusedRow{"RequestIdNil", R"({"meta":{"schemaVersion":1,"requestId":"00000000-0000-0000-0000-000000000000"}})",
                   false, "meta.requestId"},
        RefusedRow{"WorkspaceRequiredMissing", "{\"meta\":{\"schemaVersion\":1," ID "}}", true, "meta.workspacePath"},
        RefusedRow{"WorkspaceRequiredNull", "{\"meta\":{\"schemaVersion\":1," ID ",\"workspacePath\":null}}", true,
                   "meta.workspacePath"},
        RefusedRow{"WorkspaceRelative", "{\"meta\":{\"schemaVersion\":1," ID ",\"workspacePath\":\"ws/a\"}}", false,
                   "meta.workspacePath"},
        RefusedRow{"WorkspaceRelativeRequired", "{\"meta\":{\"schemaVersion\":1," ID ",\"workspacePath\":\"./ws\"}}",
                   true, "meta.workspacePath"},
        RefusedRow{"WorkspaceEmpty", "{\"meta\":{\"schemaVersion\":1," ID ",\"workspacePath\":\"\"}}", false,
                   "meta.workspacePath"},
        RefusedRow{"WorkspaceNumber", "{\"meta\":{\"schemaVersion\":1," ID ",\"workspacePath\":5}}", false,
                   "meta.workspacePath"},
        RefusedRow{"Timeout0", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":0}}", false, "meta.timeoutMs"},
        RefusedRow{"TimeoutNegative", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":-5}}", false,
                   "meta.timeoutMs"},
        RefusedRow{"Timeout600001", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":600001}}", false,
                   "meta.timeoutMs"},
        RefusedRow{"TimeoutFraction", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":1.5}}", false,
                   "meta.timeoutMs"},
        RefusedRow{"TimeoutString", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":\"100\"}}", false,
                   "meta.timeoutMs"},
        RefusedRow{"TimeoutNull", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":null}}", false,
                   "meta.timeoutMs"},
        RefusedRow{"TimeoutHuge", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":1e300}}", false,
                   "meta.timeoutMs"}),
    UnitTest::RowName());

struct AcceptedRow
{
    const char* name;
    const char* params;
    bool workspaceRequired;
    const char* requestId;
    const char* workspacePath; ///< nullptr: none
    int timeoutMs;

    friend void PrintTo(const AcceptedRow& row, std::ostream* os) { *os << row.name; }
};

class MetaAccepted : public ::testing::TestWithParam<AcceptedRow>
{
};

TEST_P(MetaAccepted, GivesTypedValues)
{
    const AcceptedRow& row = GetParam();
    const auto meta = parseMeta(jsonObject(row.params), row.workspaceRequired);
    ASSERT_TRUE(meta.ok()) << meta.error().message.toStdString();
    EXPECT_EQ(meta->schemaVersion, 1);
    EXPECT_EQ(meta->requestId, QString::fromLatin1(row.requestId));
    if (row.workspacePath) {
        ASSERT_TRUE(meta->workspacePath.has_value());
        EXPECT_EQ(*meta->workspacePath, QString::fromLatin1(row.workspacePath));
    } else {
        EXPECT_FALSE(meta->workspacePath.has_value());
    }
    EXPECT_EQ(meta->timeoutMs, row.timeoutMs);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, MetaAccepted,
    ::testing::Values(AcceptedRow{"Minimal", "{\"meta\":{\"schemaVersion\":1," ID "}}", false,
                                  "123e4567-e89b-12d3-a456-426614174000", nullptr, 60000},
                      AcceptedRow{"ContractExample",
                                  "{\"meta\":{\"schemaVersion\":1," ID ",\"workspacePath\":\"/abs/path/to/workspace\","
                                  "\"timeoutMs\":60000}}",
                                  true, "123e4567-e89b-12d3-a456-426614174000", "/abs/path/to/workspace", 60000},
                      AcceptedRow{"UpperCaseIdKeptAsSent",
                                  R"({"meta":{"schemaVersion":1,"requestId":"123E4567-E89B-12D3-A456-42661417400A"}})",
                                  false, "123E4567-E89B-12D3-A456-42661417400A", nullptr, 60000},
                      AcceptedRow{"MixedCaseIdKeptAsSent",
                                  R"({"meta":{"schemaVersion":1,"requestId":"123e4567-E89B-12d3-A456-42661417400a"}})",
                                  false, "123e4567-E89B-12d3-A456-42661417400a", nullptr, 60000},
                      AcceptedRow{"SchemaVersionOnePointZero", "{\"meta\":{\"schemaVersion\":1.0," ID "}}", false,
                                  "123e4567-e89b-12d3-a456-426614174000", nullptr, 60000},
                      AcceptedRow{"WorkspaceNullWhenNotRequired",
                                  "{\"meta\":{\"schemaVersion\":1," ID ",\"workspacePath\":null}}", false,
                                  "123e4567-e89b-12d3-a456-426614174000", nullptr, 60000},
                      AcceptedRow{"WorkspaceNotCheckedForExistenceHere",
                                  "{\"meta\":{\"schemaVersion\":1," ID ",\"workspacePath\":\"/no/such/dir\"}}", true,
                                  "123e4567-e89b-12d3-a456-426614174000", "/no/such/dir", 60000},
                      AcceptedRow{"Timeout1", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":1}}", false,
                                  "123e4567-e89b-12d3-a456-426614174000", nullptr, 1},
                      AcceptedRow{"Timeout600000", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":600000}}",
                                  false, "123e4567-e89b-12d3-a456-426614174000", nullptr, 600000},
                      AcceptedRow{"TimeoutExponent", "{\"meta\":{\"schemaVersion\":1," ID ",\"timeoutMs\":1.5e3}}",
                                  false, "123e4567-e89b-12d3-a456-426614174000", nullptr, 1500},
                      AcceptedRow{"UnknownMetaMembersIgnored",
                                  "{\"meta\":{\"schemaVersion\":1," ID ",\"client\":\"msgcode\"}}", false,
                                  "123e4567-e89b-12d3-a456-426614174000", nullptr, 60000}),
    UnitTest::RowName());

#undef ID

TEST(Meta, RequestIdsCompareCaseInsensitively)
{
    const auto meta = parseMeta(
        jsonObject(R"({"meta":{"schemaVersion":1,"requestId":"123E4567-E89B-12D3-A456-42661417400A"}})"), false);
    ASSERT_TRUE(meta.ok());
    EXPECT_TRUE(Bridge::sameRequestId(meta->requestId, QStringLiteral("123e4567-e89b-12d3-a456-42661417400a")));
    EXPECT_TRUE(Bridge::sameRequestId(meta->requestId, meta->requestId));
    EXPECT_FALSE(Bridge::sameRequestId(meta->requestId, QStringLiteral("123e4567-e89b-12d3-a456-42661417400b")));
}

TEST(Meta, Constants)
{
    EXPECT_EQ(Meta::kSchemaVersion, 1);
    EXPECT_EQ(Meta::kDefaultTimeoutMs, 60000);
    EXPECT_EQ(Meta::kMaxTimeoutMs, 600000);
}

TEST(Meta, UnsupportedSchemaVersionSaysWhichAreSupported)
{
    const auto meta = parseMeta(
        jsonObject(R"({"meta":{"schemaVersion":2,"requestId":"123e4567-e89b-12d3-a456-426614174000"}})"), false);
    ASSERT_FALSE(meta.ok());
    EXPECT_EQ(meta.error().details.value(QStringLiteral("supported")), QJsonValue(QJsonArray{1}));
}

// The first problem wins, in the order the contract lists the fields.
TEST(Meta, FirstProblemIsReported)
{
    const auto meta = parseMeta(jsonObject(R"({"meta":{"schemaVersion":3,"requestId":"x","timeoutMs":0}})"), true);
    ASSERT_FALSE(meta.ok());
    UnitTest::expectInvalidParam(meta.error(), QStringLiteral("meta.schemaVersion"));
}

} // namespace
