#pragma once

#include <QByteArray>
#include <QList>
#include <QPoint>
#include <QRect>
#include <QString>

namespace Mcp {

/// One numbered element of an annotated screenshot, its rect in screen coordinates.
struct AnnotationLabel
{
    int number = 0;
    QRect rect;
};

/// The PNG `png` (whose top-left pixel is the screen point `origin`) with a box around each
/// label's rect and its number in a badge at the box's top-left corner. Drawn pixel by pixel
/// with a built-in digit font, so it needs no fonts and no display. Empty when `png` is not a
/// PNG.
QByteArray annotatePng(const QByteArray& png, QPoint origin, const QList<AnnotationLabel>& labels);

} // namespace Mcp
