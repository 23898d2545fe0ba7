#include "mcp/McpAnnotate.h"

#include <QBuffer>
#include <QImage>

#include <array>

namespace Mcp {

namespace {

// Digits 0-9 as 3x5 bitmaps, one row per entry, the high bit of three the leftmost pixel.
constexpr std::array<std::array<quint8, 5>, 10> kDigits{{
    {0b111, 0b101, 0b101, 0b101, 0b111},
    {0b010, 0b110, 0b010, 0b010, 0b111},
    {0b111, 0b001, 0b111, 0b100, 0b111},
    {0b111, 0b001, 0b111, 0b001, 0b111},
    {0b101, 0b101, 0b111, 0b001, 0b001},
    {0b111, 0b100, 0b111, 0b001, 0b111},
    {0b111, 0b100, 0b111, 0b101, 0b111},
    {0b111, 0b001, 0b010, 0b010, 0b010},
    {0b111, 0b101, 0b111, 0b101, 0b111},
    {0b111, 0b101, 0b111, 0b001, 0b111},
}};
constexpr int kScale = 2; // each font pixel is 2x2 screen pixels
constexpr QRgb kBox = qRgb(230, 30, 60);
constexpr QRgb kText = qRgb(255, 255, 255);

void fill(QImage& image, const QRect& rect, QRgb colour)
{
    const QRect clipped = rect.intersected(image.rect());
    for (int y = clipped.top(); y <= clipped.bottom(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = clipped.left(); x <= clipped.right(); ++x)
            line[x] = colour;
    }
}

void outline(QImage& image, const QRect& rect, int width, QRgb colour)
{
    fill(image, QRect(rect.left(), rect.top(), rect.width(), width), colour);
    fill(image, QRect(rect.left(), rect.bottom() - width + 1, rect.width(), width), colour);
    fill(image, QRect(rect.left(), rect.top(), width, rect.height()), colour);
    fill(image, QRect(rect.right() - width + 1, rect.top(), width, rect.height()), colour);
}

void badge(QImage& image, QPoint at, int number)
{
    const QString digits = QString::number(number);
    const int glyph = 3 * kScale, gap = kScale, pad = 2;
    const int width = pad * 2 + static_cast<int>(digits.size()) * (glyph + gap) - gap;
    const int height = pad * 2 + 5 * kScale;
    // Inside the image even for an element at its edge.
    at.setX(std::clamp(at.x(), 0, std::max(0, image.width() - width)));
    at.setY(std::clamp(at.y(), 0, std::max(0, image.height() - height)));
    fill(image, QRect(at, QSize(width, height)), kBox);
    int x = at.x() + pad;
    for (const QChar c : digits) {
        const auto& rows = kDigits.at(static_cast<size_t>(c.digitValue()));
        for (int row = 0; row < 5; ++row) {
            for (int column = 0; column < 3; ++column) {
                if (rows.at(static_cast<size_t>(row)) & (0b100 >> column))
                    fill(image, QRect(x + column * kScale, at.y() + pad + row * kScale, kScale, kScale), kText);
            }
        }
        x += glyph + gap;
    }
}

} // namespace

QByteArray annotatePng(const QByteArray& png, QPoint origin, const QList<AnnotationLabel>& labels)
{
    QImage image;
    if (!image.loadFromData(png, "PNG"))
        return {};
    image = image.convertToFormat(QImage::Format_RGB32);
    for (const AnnotationLabel& label : labels) {
        const QRect rect = label.rect.translated(-origin);
        outline(image, rect, 2, kBox);
        badge(image, rect.topLeft(), label.number);
    }
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return {};
    return out;
}

} // namespace Mcp
