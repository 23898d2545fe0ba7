// The Linux OCR engine (automation/ocr/TesseractOcr_linux.cpp) on images drawn here with the fonts a
// desktop has: what it reads, where, in which polarity and script, what it remembers, and how it
// says no. Its own main: drawing text needs a QGuiApplication (the offscreen platform).
#include "automation/ocr/OcrEngine.h"
#include "automation/Operations.h"
#include "automation/ocr/TemplateMatch.h"
#include "automation/ocr/TextRegions.h"

#include <QFont>
#include <QGuiApplication>
#include <QJsonArray>
#include <QPainter>

#include <gtest/gtest.h>

using namespace Automation;
using namespace Qt::StringLiterals;

namespace {

struct Drawn
{
    QString text;
    QRect box; // where it was drawn
};

QImage canvas(int width, int height, QColor background = Qt::white)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(background);
    return image;
}

// Draws `text` at `at` (its top left) in a UI font and says where it went.
Drawn draw(QImage& image, const QString& text, QPoint at, int pixelSize = 14, QColor colour = Qt::black,
           const QString& family = u"DejaVu Sans"_s)
{
    QPainter painter(&image);
    QFont font(family);
    font.setPixelSize(pixelSize);
    painter.setFont(font);
    painter.setPen(colour);
    const QRect box = painter.boundingRect(QRect(at, QSize(1000, 200)), Qt::AlignLeft | Qt::AlignTop, text);
    painter.drawText(box, Qt::AlignLeft | Qt::AlignTop, text);
    return {text, box};
}

const Ocr::Line* lineWith(const Ocr::Page& page, const QString& text)
{
    for (const Ocr::Line& line : page.lines) {
        if (line.text.contains(text))
            return &line;
    }
    return nullptr;
}

QString allText(const Ocr::Page& page)
{
    QStringList out;
    for (const Ocr::Line& line : page.lines)
        out.append(line.text);
    return out.join(u" | "_s);
}

class TesseractEngine : public ::testing::Test
{
protected:
    std::unique_ptr<Ocr::Engine> engine = Ocr::createPlatformEngine();
    const QStringList eng{u"eng"_s};
};

} // namespace

TEST_F(TesseractEngine, ReadsUiTextWhereItWasDrawn)
{
    QImage image = canvas(640, 240);
    const QList<Drawn> drawn{draw(image, u"Save changes"_s, {20, 20}), draw(image, u"Cancel"_s, {400, 20}),
                             draw(image, u"Message:"_s, {20, 120}, 12),
                             draw(image, u"Quarterly report 2026"_s, {200, 180})};
    auto page = engine->recognize(image, eng, QDeadlineTimer(30000));
    ASSERT_TRUE(page) << page.error().message.toStdString();
    EXPECT_EQ(page->engine.value(u"name"_s).toString(), u"tesseract"_s);
    for (const Drawn& d : drawn) {
        const Ocr::Line* line = lineWith(page.value(), d.text);
        ASSERT_NE(line, nullptr) << d.text.toStdString() << " not read; read: " << allText(page.value()).toStdString();
        EXPECT_TRUE(d.box.adjusted(-3, -3, 3, 3).contains(line->box.center())) << d.text.toStdString();
        EXPECT_GT(line->confidence, 0.6) << d.text.toStdString();
        for (const Ocr::Word& word : line->words)
            EXPECT_TRUE(line->box.contains(word.box)) << word.text.toStdString();
    }
}

TEST_F(TesseractEngine, ReadsLightTextOnADarkBackground)
{
    QImage image = canvas(400, 100, QColor(30, 30, 40));
    const Drawn d = draw(image, u"Dark mode toolbar"_s, {20, 30}, 15, QColor(235, 235, 235));
    auto page = engine->recognize(image, eng, QDeadlineTimer(30000));
    ASSERT_TRUE(page);
    const Ocr::Line* line = lineWith(page.value(), d.text);
    ASSERT_NE(line, nullptr) << allText(page.value()).toStdString();
    EXPECT_TRUE(d.box.adjusted(-3, -3, 3, 3).contains(line->box.center()));
}

TEST_F(TesseractEngine, ReadsSimplifiedChineseBesideEnglish)
{
    QImage image = canvas(480, 120);
    const Drawn zh = draw(image, u"确定保存设置"_s, {20, 20}, 18, Qt::black, u"WenQuanYi Micro Hei"_s);
    const Drawn en = draw(image, u"Open file"_s, {20, 70}, 15);
    auto page = engine->recognize(image, {u"eng"_s, u"chi_sim"_s}, QDeadlineTimer(60000));
    ASSERT_TRUE(page);
    const Ocr::Line* line = nullptr;
    for (const Ocr::Line& l : page->lines) {
        if (QString(l.text).remove(u' ').contains(u"确定保存"_s))
            line = &l;
    }
    ASSERT_NE(line, nullptr) << allText(page.value()).toStdString();
    EXPECT_TRUE(zh.box.adjusted(-3, -3, 3, 3).contains(line->box.center()));
    EXPECT_NE(lineWith(page.value(), en.text), nullptr) << allText(page.value()).toStdString();
}

// Each piece is remembered by its pixels: an unchanged image is answered without recognising,
// and after one label changes only its piece is read again.
TEST_F(TesseractEngine, AnUnchangedPieceIsAnsweredFromWhatWasReadBefore)
{
    QImage image = canvas(640, 200);
    draw(image, u"First label"_s, {20, 20});
    draw(image, u"Second label"_s, {20, 80});
    draw(image, u"Third label"_s, {20, 140});
    auto first = engine->recognize(image, eng, QDeadlineTimer(30000));
    ASSERT_TRUE(first);
    EXPECT_EQ(first->regionsCached, 0);
    auto second = engine->recognize(image, eng, QDeadlineTimer(30000));
    ASSERT_TRUE(second);
    EXPECT_EQ(second->regionsCached, second->regions);
    EXPECT_EQ(allText(second.value()), allText(first.value()));

    QPainter(&image).fillRect(QRect(0, 75, 640, 40), Qt::white);
    draw(image, u"Changed label"_s, {20, 80});
    auto third = engine->recognize(image, eng, QDeadlineTimer(30000));
    ASSERT_TRUE(third);
    EXPECT_EQ(third->regionsCached, third->regions - 1);
    EXPECT_NE(lineWith(third.value(), u"Changed label"_s), nullptr) << allText(third.value()).toStdString();
    // The same pixels read in another language set are not answered from the English reading.
    auto chinese = engine->recognize(image, {u"eng"_s, u"chi_sim"_s}, QDeadlineTimer(60000));
    ASSERT_TRUE(chinese);
    EXPECT_EQ(chinese->regionsCached, 0);
}

TEST_F(TesseractEngine, ALanguageWithoutTraineddataIsRefusedPlainly)
{
    QImage image = canvas(200, 60);
    draw(image, u"Hello"_s, {10, 10});
    auto page = engine->recognize(image, {u"klingon"_s}, QDeadlineTimer(30000));
    ASSERT_FALSE(page);
    EXPECT_EQ(page.error().code, ErrorCode::InvalidRequest);
    EXPECT_EQ(page.error().details.value(u"reason"_s).toString(), u"ocr_unavailable"_s);
    EXPECT_EQ(page.error().details.value(u"missing"_s).toArray().first().toString(), u"klingon"_s);
}

TEST_F(TesseractEngine, APassedDeadlineIsATimeout)
{
    QImage image = canvas(300, 80);
    draw(image, u"Too late"_s, {10, 10});
    auto page = engine->recognize(image, eng, QDeadlineTimer(0));
    ASSERT_FALSE(page);
    EXPECT_EQ(page.error().code, ErrorCode::Timeout);
}

// Window borders and dividers are rules, not glyphs: the text beside them stays in pieces of its
// own, and an empty panel gives none.
TEST(TextRegions, RulesDoNotJoinTheTextBesideThemAndEmptyPanelsGiveNothing)
{
    QImage image = canvas(600, 300);
    {
        QPainter painter(&image);
        painter.setPen(Qt::gray);
        painter.drawLine(300, 0, 300, 299);
        painter.drawRect(0, 0, 599, 299);
    }
    draw(image, u"Left pane"_s, {20, 20});
    draw(image, u"Right pane"_s, {320, 200});
    const QList<QRect> pieces = Ocr::findTextRegions(image.convertToFormat(QImage::Format_Grayscale8));
    ASSERT_EQ(pieces.size(), 2);
    EXPECT_LT(pieces[0].right(), 300);
    EXPECT_GT(pieces[1].left(), 300);
    EXPECT_LT(pieces[0].height(), 40);

    EXPECT_TRUE(Ocr::findTextRegions(canvas(400, 300).convertToFormat(QImage::Format_Grayscale8)).isEmpty());
}

// Screenshots sized for a model (desktop.capture's and observe's maxWidth / maxPixels): the
// bound that bites decides, the aspect is kept, and the scale maps image points back.
TEST(ModelSizing, TheImageIsBoundedAndItsScaleMapsItsPointsBack)
{
    QImage wide = canvas(2560, 1440);
    const Drawn mark = draw(wide, u"Target"_s, {2000, 1000}, 40);
    double scale = 0;
    const QImage sized = Operations::sizedForModel(wide, Operations::ModelSizing{1280, std::nullopt}, &scale);
    EXPECT_EQ(sized.size(), QSize(1280, 720));
    EXPECT_DOUBLE_EQ(scale, 0.5);
    // A point read off the image, mapped back, lands on what was drawn there.
    const QPoint onImage(qRound(mark.box.center().x() * 0.5), qRound(mark.box.center().y() * 0.5));
    const QPoint back(qRound(onImage.x() / scale), qRound(onImage.y() / scale));
    EXPECT_TRUE(mark.box.adjusted(-2, -2, 2, 2).contains(back));

    const QImage byPixels = Operations::sizedForModel(wide, Operations::ModelSizing{std::nullopt, 921600}, &scale);
    EXPECT_EQ(byPixels.size(), QSize(1280, 720));
    EXPECT_DOUBLE_EQ(scale, 0.5);
    // Both given: the smaller result wins.
    const QImage both = Operations::sizedForModel(wide, Operations::ModelSizing{1920, 921600}, &scale);
    EXPECT_EQ(both.width(), 1280);

    const QImage small = canvas(800, 600);
    const QImage same = Operations::sizedForModel(small, Operations::ModelSizing{1280, 4000000}, &scale);
    EXPECT_EQ(same.size(), small.size());
    EXPECT_DOUBLE_EQ(scale, 1.0);
}

// imageOnScreen's matcher: a piece cut from a busy image is found where it was cut, scoring
// about 1; noise is not found; a template larger than the image is refused for that.
TEST(TemplateMatch, APieceIsFoundWhereItWasCutAndNoiseIsNot)
{
    QImage image(320, 200, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        quint32 seed = 7;
        const auto next = [&seed](int below) {
            seed = seed * 1664525U + 1013904223U;
            return static_cast<int>((seed >> 8) % static_cast<quint32>(below));
        };
        for (int i = 0; i < 60; ++i)
            painter.fillRect(next(300), next(180), 5 + next(40), 5 + next(30), QColor(next(256), next(256), next(256)));
        painter.setFont(QFont(QStringLiteral("DejaVu Sans"), 12));
        painter.drawText(QPoint(130, 100), QStringLiteral("Record"));
    }
    const QImage piece = image.copy(120, 82, 70, 26);
    const auto found = Automation::Ocr::findTemplate(image, piece);
    ASSERT_TRUE(found.ok()) << found.error().message.toStdString();
    EXPECT_EQ(found->at, QPoint(120, 82));
    EXPECT_GT(found->score, 0.99);

    QImage noise(70, 26, QImage::Format_RGB32);
    quint32 n = 3;
    for (int y = 0; y < noise.height(); ++y) {
        for (int x = 0; x < noise.width(); ++x) {
            n = n * 22695477U + 1U;
            noise.setPixel(
                x, y,
                qRgb(static_cast<int>(n >> 24), static_cast<int>((n >> 16) & 255U), static_cast<int>((n >> 8) & 255U)));
        }
    }
    const auto unlike = Automation::Ocr::findTemplate(image, noise);
    ASSERT_TRUE(unlike.ok());
    EXPECT_LT(unlike->score, 0.5);

    const auto large = Automation::Ocr::findTemplate(piece, image);
    ASSERT_FALSE(large.ok());
    EXPECT_EQ(large.error().details.value(QStringLiteral("reason")).toString(), QStringLiteral("template_too_large"));
}

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    return RUN_ALL_TESTS();
}
