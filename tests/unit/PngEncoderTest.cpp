// Screenshot PNG encoding: what PngEncoder writes decodes (with Qt's own PNG reader) to the
// very pixels it was given, for flat screens, text-like detail and noise, at every level
// (no fonts: the unit tests run without a QGuiApplication).
#include "automation/PngEncoder.h"

#include <QImage>
#include <QPainter>
#include <QRandomGenerator>

#include <gtest/gtest.h>

using Automation::PngEncoder;

namespace {

QImage screenLike(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(QColor(0xf6, 0xf5, 0xf4));
    QPainter painter(&image);
    painter.fillRect(10, 10, width / 2, 30, QColor(0x35, 0x84, 0xe4));
    QLinearGradient gradient(0, 0, width, height);
    gradient.setColorAt(0, Qt::white);
    gradient.setColorAt(1, Qt::darkGreen);
    painter.fillRect(0, height / 2, width, height / 4, gradient);
    // Glyph-like strokes: short dark runs on light rows, as text is.
    for (int y = 60; y + 8 < height / 2; y += 14) {
        for (int x = 12; x + 6 < width; x += 7 + (x * 7 + y) % 5)
            painter.fillRect(x, y, 1 + (x + y) % 4, 3 + (x * 3 + y) % 6, QColor(0x20, 0x20, 0x20));
    }
    return image;
}

QImage noise(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB32);
    QRandomGenerator random(42);
    for (int y = 0; y < height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < width; ++x)
            line[x] = 0xff000000u | (random.generate() & 0xffffffu);
    }
    return image;
}

void expectSamePixels(const QImage& original, const QByteArray& png)
{
    ASSERT_TRUE(png.startsWith("\x89PNG\r\n\x1a\n"));
    QImage decoded;
    ASSERT_TRUE(decoded.loadFromData(png, "PNG"));
    ASSERT_EQ(decoded.size(), original.size());
    const QImage a = original.convertToFormat(QImage::Format_RGB32);
    const QImage b = decoded.convertToFormat(QImage::Format_RGB32);
    int differing = 0;
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            if ((a.pixel(x, y) & 0xffffffu) != (b.pixel(x, y) & 0xffffffu))
                ++differing;
        }
    }
    EXPECT_EQ(differing, 0);
}

TEST(PngEncoder, DecodesToTheSamePixelsAtEveryLevel)
{
    const QImage screen = screenLike(333, 217); // odd sizes: no row or stride assumptions
    for (int level = 0; level <= 9; ++level) {
        SCOPED_TRACE(level);
        expectSamePixels(screen, PngEncoder::encode(screen, level));
    }
}

TEST(PngEncoder, NoiseAndTinyAndOtherFormats)
{
    expectSamePixels(noise(64, 48), PngEncoder::encode(noise(64, 48)));
    QImage one(1, 1, QImage::Format_RGB32);
    one.fill(QColor(1, 2, 3));
    expectSamePixels(one, PngEncoder::encode(one));
    const QImage rgb888 = screenLike(40, 30).convertToFormat(QImage::Format_RGB888);
    expectSamePixels(rgb888, PngEncoder::encode(rgb888));
    EXPECT_TRUE(PngEncoder::encode(QImage()).isEmpty());
}

TEST(PngEncoder, FlatScreensCompressWell)
{
    const QImage screen = screenLike(1280, 1024);
    const QByteArray png = PngEncoder::encode(screen);
    // Raw RGB is 3.9 MB; a screen of flat colour and text is a small fraction of that.
    EXPECT_LT(png.size(), 1280 * 1024 * 3 / 10);
}

} // namespace
