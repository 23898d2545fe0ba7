// Bridge::LineFramer: newline framing with a cap on one line (docs/protocol.md §1).
#include "bridge/protocol/LineFramer.h"
#include "UnitTestSupport.h"

#include <QList>

#include <gtest/gtest.h>

using Bridge::LineFramer;
using Kind = LineFramer::Item::Kind;

namespace {

/// What one next() gave, in a form that compares and prints.
struct Got
{
    bool tooLong = false;
    QByteArray line;

    friend bool operator==(const Got&, const Got&) = default;
    friend void PrintTo(const Got& got, std::ostream* os)
    {
        if (got.tooLong)
            *os << "TooLong";
        else
            *os << "Line(\"" << got.line.toStdString() << "\")";
    }
};

Got line(const char* text)
{
    return Got{false, QByteArray(text)};
}

const Got kTooLong{true, {}};

/// "line-0042": ten bytes with its newline.
QByteArray numbered(int i)
{
    return QByteArray("line-") + QByteArray::number(i).rightJustified(4, '0');
}

/// Every item available now. Stops after a TooLong that leaves an over-cap partial line behind,
/// since the framer repeats that marker until the caller closes the stream.
QList<Got> drain(LineFramer& framer)
{
    QList<Got> out;
    while (auto item = framer.next()) {
        if (item->kind == Kind::TooLong) {
            EXPECT_TRUE(item->line.isEmpty());
            out.append(kTooLong);
            if (framer.pendingBytes() > framer.maxLineBytes())
                break;
        } else {
            out.append(Got{false, item->line});
        }
    }
    return out;
}

struct FramingRow
{
    const char* name;
    QByteArray input;
    qsizetype cap;
    QList<Got> expected;
    qsizetype pendingAfter;

    friend void PrintTo(const FramingRow& row, std::ostream* os) { *os << row.name; }
};

class LineFramerTable : public ::testing::TestWithParam<FramingRow>
{
};

TEST_P(LineFramerTable, OneAppend)
{
    const FramingRow& row = GetParam();
    LineFramer framer(row.cap);
    framer.append(row.input);
    EXPECT_EQ(drain(framer), row.expected);
    EXPECT_EQ(framer.pendingBytes(), row.pendingAfter);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, LineFramerTable,
    ::testing::Values(
        FramingRow{"EmptyInput", QByteArray(), 16, {}, 0},
        FramingRow{"OneLine", QByteArray("abc\n"), 16, {line("abc")}, 0},
        FramingRow{"NoNewlineYet", QByteArray("abc"), 16, {}, 3},
        FramingRow{"SeveralLines", QByteArray("one\ntwo\nthree\n"), 16, {line("one"), line("two"), line("three")}, 0},
        FramingRow{"SeveralLinesThenPartial", QByteArray("one\ntwo\nthr"), 16, {line("one"), line("two")}, 3},
        FramingRow{"CrlfStripped", QByteArray("one\r\ntwo\r\n"), 16, {line("one"), line("two")}, 0},
        FramingRow{"OnlyOneCrStripped", QByteArray("a\r\r\n"), 16, {line("a\r")}, 0},
        FramingRow{"CrInsideLineKept", QByteArray("a\rb\n"), 16, {line("a\rb")}, 0},
        FramingRow{"EmptyLines", QByteArray("\n\r\n\n"), 16, {line(""), line(""), line("")}, 0},
        FramingRow{"EmptyLineBetween", QByteArray("a\n\nb\n"), 16, {line("a"), line(""), line("b")}, 0},
        FramingRow{"ExactlyAtCap", QByteArray("abcd\n"), 4, {line("abcd")}, 0},
        FramingRow{"ExactlyAtCapWithCrlf", QByteArray("abcd\r\n"), 4, {line("abcd")}, 0},
        FramingRow{"PartialExactlyAtCap", QByteArray("abcd"), 4, {}, 4},
        FramingRow{"CompleteLineOverCap", QByteArray("abcde\nok\n"), 4, {kTooLong, line("ok")}, 0},
        FramingRow{"PartialLineOverCap", QByteArray("abcde"), 4, {kTooLong}, 5},
        FramingRow{"LinesBeforeOverCapPartial", QByteArray("ab\ncd\nefghij"), 4, {line("ab"), line("cd"), kTooLong}, 6},
        FramingRow{"NulBytesKept", QByteArray("a\0b\n", 4), 16, {Got{false, QByteArray("a\0b", 3)}}, 0}),
    UnitTest::RowName());

TEST(LineFramer, DefaultCapIs16MiB)
{
    EXPECT_EQ(LineFramer().maxLineBytes(), 16 * 1024 * 1024);
    EXPECT_EQ(LineFramer::kDefaultMaxLineBytes, 16 * 1024 * 1024);
    EXPECT_EQ(LineFramer(100).maxLineBytes(), 100);
}

TEST(LineFramer, ByteByByte)
{
    const QByteArray stream("{\"a\":1}\r\nsecond\n\nthird\n");
    LineFramer framer(64);
    QList<Got> got;
    qsizetype pending = 0;
    for (char c : stream) {
        framer.append(&c, 1);
        const auto item = framer.next();
        if (c != '\n') {
            // Nothing is returned before its newline, and every byte counts as pending.
            EXPECT_FALSE(item.has_value());
            EXPECT_EQ(framer.pendingBytes(), ++pending);
            continue;
        }
        ASSERT_TRUE(item.has_value());
        ASSERT_EQ(item->kind, Kind::Line);
        got.append(Got{false, item->line});
        EXPECT_FALSE(framer.next().has_value());
        EXPECT_EQ(framer.pendingBytes(), 0);
        pending = 0;
    }
    EXPECT_EQ(got, (QList<Got>{line("{\"a\":1}"), line("second"), line(""), line("third")}));
}

TEST(LineFramer, SplitAppendsJoinIntoOneLine)
{
    LineFramer framer(64);
    framer.append(QByteArray("{\"jsonrpc\":"));
    EXPECT_FALSE(framer.next().has_value());
    framer.append(QByteArray("\"2.0\"}\r"));
    EXPECT_FALSE(framer.next().has_value());
    EXPECT_EQ(framer.pendingBytes(), 18);
    framer.append(QByteArray("\nnext"));
    EXPECT_EQ(drain(framer), (QList<Got>{line("{\"jsonrpc\":\"2.0\"}")}));
    EXPECT_EQ(framer.pendingBytes(), 4);
}

TEST(LineFramer, PartialLineOverCapIsReportedBeforeItsNewline)
{
    LineFramer framer(8);
    framer.append(QByteArray("12345678"));
    EXPECT_FALSE(framer.next().has_value()); // at the cap: may still end here
    EXPECT_EQ(framer.pendingBytes(), 8);
    framer.append(QByteArray("9"));
    const auto item = framer.next();
    ASSERT_TRUE(item.has_value());
    EXPECT_EQ(item->kind, Kind::TooLong);
    EXPECT_TRUE(item->line.isEmpty());
    // The stream cannot resynchronise: the marker stays until the caller closes it.
    const auto again = framer.next();
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->kind, Kind::TooLong);
}

TEST(LineFramer, CompleteLineOverCapIsSkippedWhole)
{
    LineFramer framer(3);
    framer.append(QByteArray("toolong\nok\n"));
    const auto first = framer.next();
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->kind, Kind::TooLong);
    EXPECT_TRUE(first->line.isEmpty());
    const auto second = framer.next();
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(second->kind, Kind::Line);
    EXPECT_EQ(second->line, QByteArray("ok"));
}

// Reads far past the point where the framer drops consumed bytes (> 4096 consumed and more than
// half the buffer), with a partial line spanning the compaction.
TEST(LineFramer, ManyLinesAcrossCompaction)
{
    LineFramer framer(64);
    QByteArray stream;
    for (int i = 0; i < 1000; ++i)
        stream += numbered(i) + '\n';
    stream += QByteArray("tail");
    framer.append(stream);

    for (int i = 0; i < 600; ++i) {
        const auto item = framer.next();
        ASSERT_TRUE(item.has_value());
        ASSERT_EQ(item->kind, Kind::Line);
        ASSERT_EQ(item->line, numbered(i));
    }
    EXPECT_EQ(framer.pendingBytes(), 400 * 10 + 4);

    framer.append(QByteArray("-end\n"));
    for (int i = 600; i < 1000; ++i) {
        const auto item = framer.next();
        ASSERT_TRUE(item.has_value());
        ASSERT_EQ(item->line, numbered(i));
    }
    EXPECT_EQ(drain(framer), (QList<Got>{line("tail-end")}));
    EXPECT_EQ(framer.pendingBytes(), 0);
    EXPECT_FALSE(framer.next().has_value());
}

TEST(LineFramer, PartialLineGrowsAcrossManyAppendsAfterCompaction)
{
    LineFramer framer(10000);
    framer.append(QByteArray(5000, 'x') + '\n');
    ASSERT_TRUE(framer.next().has_value());
    for (int i = 0; i < 100; ++i) {
        framer.append(QByteArray(50, 'y'));
        ASSERT_FALSE(framer.next().has_value());
    }
    EXPECT_EQ(framer.pendingBytes(), 5000);
    framer.append(QByteArray("\n"));
    EXPECT_EQ(drain(framer), (QList<Got>{Got{false, QByteArray(5000, 'y')}}));
}

// Regression (bridge/LineFramer.cpp, next(), the no-newline branch): a partial line was measured with
// its trailing '\r', a complete line without it. So a line of exactly the cap followed by CRLF was
// accepted when "\r\n" arrives in one read but refused (TooLong, connection dropped) when the
// read happens to end between '\r' and '\n'. Framing must not depend on how the bytes were split.
TEST(LineFramer, CrlfLineAtCapDoesNotDependOnReadBoundaries)
{
    LineFramer framer(4);
    framer.append(QByteArray("abcd\r"));
    EXPECT_FALSE(framer.next().has_value()); // actual: TooLong
    framer.append(QByteArray("\n"));
    EXPECT_EQ(drain(framer), (QList<Got>{line("abcd")}));
}

} // namespace
