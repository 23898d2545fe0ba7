// What every OCR engine shares (automation/ocr/OcrEngine.h): Vision's normalised bottom-left
// boxes turned into the image's pixels, the contract's language names in Vision's terms, and a
// line's text, confidence and box made from its words. No engine runs here.
#include "automation/ocr/OcrEngine.h"

#include "UnitTestSupport.h"

#include <gtest/gtest.h>

#include <ostream>

using namespace Automation::Ocr;

// gtest would print a QRect as raw bytes otherwise; it finds this by argument-dependent lookup.
static void PrintTo(const QRect& rect, std::ostream* os)
{
    *os << "QRect(" << rect.x() << ", " << rect.y() << ", " << rect.width() << ", " << rect.height() << ')';
}

namespace {

Word word(const char* text, QRect box, double confidence)
{
    return Word{QString::fromUtf8(text), box, confidence};
}

} // namespace

TEST(OcrGeometry, BottomLeftBoxIsTheImagesBottomLeftPixels)
{
    // Vision's origin is the bottom left: a box there is the last rows of the image, not the first.
    EXPECT_EQ(fromNormalizedBottomLeft(QRectF(0, 0, 0.1, 0.1), QSize(200, 100)), QRect(0, 90, 20, 10));
    EXPECT_EQ(fromNormalizedBottomLeft(QRectF(0, 0, 1, 1), QSize(200, 100)), QRect(0, 0, 200, 100));
}

TEST(OcrGeometry, ScalesToTheImage)
{
    EXPECT_EQ(fromNormalizedBottomLeft(QRectF(0.25, 0.5, 0.5, 0.25), QSize(200, 100)), QRect(50, 25, 100, 25));
}

TEST(OcrGeometry, RoundsOutwards)
{
    // Left 1.25, right 3.75, top 6.25, bottom 8.75 pixels: every partly covered pixel is kept, so
    // a box never cuts off a glyph's edge.
    EXPECT_EQ(fromNormalizedBottomLeft(QRectF(0.125, 0.125, 0.25, 0.25), QSize(10, 10)), QRect(1, 6, 3, 3));
}

TEST(OcrGeometry, ClipsToTheImage)
{
    EXPECT_EQ(fromNormalizedBottomLeft(QRectF(-0.25, -0.25, 0.5, 0.5), QSize(100, 100)), QRect(0, 75, 25, 25));
    EXPECT_EQ(fromNormalizedBottomLeft(QRectF(0.75, 0.75, 0.5, 0.5), QSize(100, 100)), QRect(75, 0, 25, 25));
    EXPECT_TRUE(fromNormalizedBottomLeft(QRectF(1.5, 1.5, 0.25, 0.25), QSize(100, 100)).isEmpty());
}

TEST(OcrLanguages, VisionNamesTheContractsLanguages)
{
    EXPECT_EQ(visionLanguage(QStringLiteral("eng")), QStringLiteral("en-US"));
    EXPECT_EQ(visionLanguage(QStringLiteral("chi_sim")), QStringLiteral("zh-Hans"));
    // An engine answers ocr_unavailable for a language with no Vision name.
    EXPECT_TRUE(visionLanguage(QStringLiteral("deu")).isEmpty());
    EXPECT_TRUE(visionLanguage(QString()).isEmpty());
    for (const QString& language : supportedLanguages())
        EXPECT_FALSE(visionLanguage(language).isEmpty()) << language.toStdString();
}

TEST(OcrCompleteLine, JoinsLatinWordsWithASpace)
{
    Line line;
    line.words = {word("Save", QRect(0, 0, 30, 12), 0.5), word("As", QRect(34, 0, 14, 12), 1.0)};
    completeLine(line);
    EXPECT_EQ(line.text, QStringLiteral("Save As"));
}

TEST(OcrCompleteLine, JoinsCjkWordsWithoutASpace)
{
    Line line;
    line.words = {word("确定", QRect(0, 0, 24, 12), 0.9), word("取消", QRect(30, 0, 24, 12), 0.9)};
    completeLine(line);
    EXPECT_EQ(line.text, QString::fromUtf8("确定取消"));
}

TEST(OcrCompleteLine, KeepsTheSpaceBetweenLatinAndCjk)
{
    Line line;
    line.words = {word("OK", QRect(0, 0, 16, 12), 0.9), word("确定", QRect(20, 0, 24, 12), 0.9)};
    completeLine(line);
    EXPECT_EQ(line.text, QString::fromUtf8("OK 确定"));
}

TEST(OcrCompleteLine, ConfidenceIsTheMeanAndBoxTheUnion)
{
    Line line;
    line.words = {word("Open", QRect(0, 0, 10, 10), 0.5), word("File", QRect(20, 5, 10, 10), 1.0)};
    completeLine(line);
    EXPECT_DOUBLE_EQ(line.confidence, 0.75);
    EXPECT_EQ(line.box, QRect(0, 0, 30, 15));
}

TEST(OcrCompleteLine, NoWordsIsAnEmptyLine)
{
    Line line;
    completeLine(line);
    EXPECT_TRUE(line.text.isEmpty());
    EXPECT_DOUBLE_EQ(line.confidence, 0.0);
    EXPECT_TRUE(line.box.isEmpty());
}
