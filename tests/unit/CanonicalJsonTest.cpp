// The canonical JSON form and paramsDigest of docs/protocol.md §5.10, against the vectors published in
// docs/canonical-json.md (keep the two in step).
#include "bridge/protocol/CanonicalJson.h"
#include "UnitTestSupport.h"

#include <QCryptographicHash>

using Bridge::CanonicalJson;

namespace {

QJsonValue parse(const QByteArray& text)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << text.toStdString();
    return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
}

struct Vector
{
    const char* name;
    QByteArray input;
    QByteArray canonical;
    const char* digest; ///< paramsDigest, for objects
};

// docs/canonical-json.md, "Test vectors".
const Vector kVectors[] = {
    {"KeysSorted", R"({"b":1,"a":2})", R"({"a":2,"b":1})", "d3626ac30a87e6f7"},
    {"Contract510Example",
     R"({ "text" : "hello world", "target": {"selector": {"titleContains": "Send", "byRole": "AXButton"}}})",
     R"({"target":{"selector":{"byRole":"AXButton","titleContains":"Send"}},"text":"hello world"})",
     "add4470e86f2d860"},
    {"MetaAndConfirmLeftOut",
     R"({"meta":{"schemaVersion":1,"requestId":"x"},"confirm":{"phrase":"CONFIRM"},"keys":["cmd","v"]})",
     R"({"confirm":{"phrase":"CONFIRM"},"keys":["cmd","v"],"meta":{"requestId":"x","schemaVersion":1}})",
     "42b26903201786c9"},
    {"WithoutMeta", R"({"keys":["cmd","v"]})", R"({"keys":["cmd","v"]})", "42b26903201786c9"},
    {"AddedField", R"({"keys":["cmd","v"],"options":{"delayMs":50}})",
     R"({"keys":["cmd","v"],"options":{"delayMs":50}})", "845c7593364f107e"},
    {"NestedMetaKept", R"({"target":{"meta":1,"confirm":2}})", R"({"target":{"confirm":2,"meta":1}})",
     "6c771907196abf2c"},
    {"Numbers",
     R"([1, 1.0, -0, -0.0, 100, 1e2, 0.1, -2.5, 1e-7, 0.000001, 0.0001, 123456.789, 1.5e300, 1e21,
         9007199254740992, 9007199254740993, 9007199254740994, 12345678901234567890, -9007199254740992, 5e-324])",
     "[1,1,0,0,100,100,0.1,-2.5,1e-7,1e-6,0.0001,123456.789,1.5e300,1e21,9007199254740992,9007199254740992,"
     "9007199254740994,1.2345678901234567e19,-9007199254740992,5e-324]",
     nullptr},
    {"Strings", R"({"s":"a\"b\\c\/d\u0001\n\t\r\b\f\u001f\u007f é 中 😀"})",
     "{\"s\":\"a\\\"b\\\\c/d\\u0001\\n\\t\\r\\b\\f\\u001f\x7f \xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80\"}",
     "1734c61e59aa3ed4"},
    {"KeysInUtf16Order", R"({"z":1,"Z":2,"é":3,"Ａ":4,"😀":5,"a":6,"aa":7,"":8})",
     R"({"":8,"Z":2,"a":6,"aa":7,"z":1,"é":3,"😀":5,"Ａ":4})", "4f71cb6abdf14d51"},
    {"Literals", R"([{"b":[],"a":{}}, null, true, false, ""])", R"([{"a":{},"b":[]},null,true,false,""])", nullptr},
};

class CanonicalVectors : public ::testing::TestWithParam<Vector>
{
};

} // namespace

TEST_P(CanonicalVectors, MatchTheDocumentedForm)
{
    const Vector& v = GetParam();
    const QJsonValue value = parse(v.input);
    EXPECT_EQ(CanonicalJson::serialize(value), v.canonical);
    if (v.digest) {
        EXPECT_EQ(CanonicalJson::paramsDigest(value.toObject()), QString::fromLatin1(v.digest));
        // The digest is SHA-256 of the canonical params without meta and confirm, first 16 hex.
        const QByteArray without = CanonicalJson::serialize(CanonicalJson::digestedParams(value.toObject()));
        EXPECT_EQ(QString::fromLatin1(QCryptographicHash::hash(without, QCryptographicHash::Sha256).toHex().left(16)),
                  QString::fromLatin1(v.digest));
    }
}

INSTANTIATE_TEST_SUITE_P(Docs, CanonicalVectors, ::testing::ValuesIn(kVectors),
                         [](const ::testing::TestParamInfo<Vector>& info) { return std::string(info.param.name); });

TEST(CanonicalJson, KeyOrderAndSpacingDoNotChangeTheDigest)
{
    const QString a = CanonicalJson::paramsDigest(
        parse(R"({"target":{"selector":{"byRole":"AXButton","titleContains":"Send"}},"route":{"app":{"pid":42}}})")
            .toObject());
    const QString b = CanonicalJson::paramsDigest(parse(R"({
        "route" : { "app" : { "pid" : 42.0 } },
        "target" : { "selector" : { "titleContains" : "Send" , "byRole" : "AXButton" } }
    })")
                                                      .toObject());
    EXPECT_EQ(a, b);
    EXPECT_EQ(a.size(), 16);
}

TEST(CanonicalJson, AnyValueChangeChangesTheDigest)
{
    const QJsonObject base = parse(R"({"text":"hello","target":{"selector":{"byRole":"AXTextField"}}})").toObject();
    const QString digest = CanonicalJson::paramsDigest(base);
    const char* variants[] = {
        R"({"text":"hello!","target":{"selector":{"byRole":"AXTextField"}}})",
        R"({"text":"Hello","target":{"selector":{"byRole":"AXTextField"}}})",
        R"({"text":"hello","target":{"selector":{"byRole":"AXButton"}}})",
        R"({"text":"hello","target":{"selector":{"byRole":"AXTextField","limit":1}}})",
        R"({"text":"hello","target":{"selector":{"byRole":"AXTextField"}},"options":{"clearBefore":false}})",
        R"({"text":"hello","target":{"selector":{"byRole":["AXTextField"]}}})",
        R"({"text":"hello"})",
        R"({"text":"hello ","target":{"selector":{"byRole":"AXTextField"}}})",
    };
    for (const char* variant : variants)
        EXPECT_NE(CanonicalJson::paramsDigest(parse(variant).toObject()), digest) << variant;
}

TEST(CanonicalJson, KeysBeyondTheBmpKeepTheirValues)
{
    // Found by the CanonicalJson fuzz target (docs/testing.md): in an object read by Qt's parser,
    // a key above U+FFFF sent as raw UTF-8 beside a key in U+E000..U+FFFF sent escaped cannot be
    // looked up by value(); its value must still be written, and must still change the digest.
    const QJsonObject five = parse(R"({"😀":5,"\uffff":6})").toObject();
    const QJsonObject seven = parse(R"({"😀":7,"\uffff":6})").toObject();
    EXPECT_EQ(CanonicalJson::serialize(five), QByteArray("{\"\xf0\x9f\x98\x80\":5,\"\xef\xbf\xbf\":6}"));
    EXPECT_NE(CanonicalJson::paramsDigest(five), CanonicalJson::paramsDigest(seven));
    EXPECT_EQ(CanonicalJson::serialize(parse(CanonicalJson::serialize(five))), CanonicalJson::serialize(five));
}

TEST(CanonicalJson, MetaAndConfirmNeverTakePart)
{
    const QJsonObject bare = parse(R"({"keys":["enter"]})").toObject();
    const QJsonObject wrapped = parse(R"({"keys":["enter"],"meta":{"requestId":"a","timeoutMs":5},
                                          "confirm":{"token":"t","phrase":"CONFIRM"}})")
                                    .toObject();
    EXPECT_EQ(CanonicalJson::paramsDigest(bare), CanonicalJson::paramsDigest(wrapped));
    EXPECT_FALSE(CanonicalJson::digestedParams(wrapped).contains(QStringLiteral("meta")));
    EXPECT_FALSE(CanonicalJson::digestedParams(wrapped).contains(QStringLiteral("confirm")));
}

TEST(CanonicalJson, NumbersHaveOneForm)
{
    EXPECT_EQ(CanonicalJson::number(0.0), QByteArray("0"));
    EXPECT_EQ(CanonicalJson::number(-0.0), QByteArray("0"));
    EXPECT_EQ(CanonicalJson::number(3.0), QByteArray("3"));
    EXPECT_EQ(CanonicalJson::number(-3.0), QByteArray("-3"));
    EXPECT_EQ(CanonicalJson::number(0.3), QByteArray("0.3"));
    EXPECT_EQ(CanonicalJson::number(0.1 + 0.2), QByteArray("0.30000000000000004"));
    EXPECT_EQ(CanonicalJson::number(1.0 / 3.0), QByteArray("0.3333333333333333"));
    EXPECT_EQ(CanonicalJson::number(2e-5), QByteArray("2e-5"));
    EXPECT_EQ(CanonicalJson::number(-1.25e-300), QByteArray("-1.25e-300"));
    // Above 2^53 integers are doubles like any other: 2^55 in its shortest form.
    EXPECT_EQ(CanonicalJson::number(9007199254740992.0 * 4), QByteArray("3.602879701896397e16"));
    EXPECT_EQ(CanonicalJson::number(1e300), QByteArray("1e300"));
    // Every form reads back as the same double.
    for (const double d :
         {0.1, 1e-7, 123456.789, 1.2345678901234567e19, 5e-324, 1.7976931348623157e308, 0.30000000000000004}) {
        bool ok = false;
        EXPECT_EQ(CanonicalJson::number(d).toDouble(&ok), d) << d;
        EXPECT_TRUE(ok);
    }
}

TEST(CanonicalJson, StringsAreEscapedOneWay)
{
    EXPECT_EQ(CanonicalJson::string(QStringLiteral("a/b")), QByteArray(R"("a/b")"));
    EXPECT_EQ(CanonicalJson::string(QString(QChar(0x1b))), QByteArray(R"("\u001b")"));
    EXPECT_EQ(CanonicalJson::string(QString(QChar(0x7f))), QByteArray("\"\x7f\""));
    EXPECT_EQ(CanonicalJson::string(QString(QChar(0x2028))), QByteArray("\"\xe2\x80\xa8\""));
    // A lone surrogate has no UTF-8 form: it is escaped, so two different strings stay apart.
    EXPECT_EQ(CanonicalJson::string(QString(QChar(0xd800))), QByteArray(R"("\ud800")"));
    EXPECT_EQ(CanonicalJson::string(QStringLiteral("x") + QChar(0xdc00) + QStringLiteral("y")),
              QByteArray(R"("x\udc00y")"));
    EXPECT_NE(CanonicalJson::string(QString(QChar(0xd800))), CanonicalJson::string(QString(QChar(0xd801))));
}

TEST(CanonicalJson, SerializingTheCanonicalFormIsIdempotent)
{
    for (const Vector& v : kVectors) {
        const QByteArray once = CanonicalJson::serialize(parse(v.input));
        if (once.contains("\\ud8") || once.contains("\\udc"))
            continue;
        EXPECT_EQ(CanonicalJson::serialize(parse(once)), once) << v.name;
    }
}
