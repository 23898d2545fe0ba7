#pragma once

#include <QImage>
#include <QList>
#include <QRect>

// Where text may be in a screenshot of a UI, found without recognising any (TesseractOcr_linux.cpp):
// the engine then reads only these pieces, each alone, and remembers each piece it has read by
// its pixels, so that a repeated read of an unchanged window recognises nothing again.
namespace Automation::Ocr {

struct TextRegionOptions
{
    int contrast = 40;      ///< grey levels between neighbours that make an edge
    int wordGap = 10;       ///< edges closer than this, in a row, belong to one piece
    int longestStroke = 48; ///< an edge that runs down more rows than this is a rule, not a glyph
    int minHeight = 5;      ///< pieces lower than this are noise
    int padding = 3;        ///< added around each piece (clipped to the image)
};

/// The pieces of `gray` (Format_Grayscale8) that hold text-like edges, top to bottom, then left
/// to right; pieces that overlap once padded are one. Never returns an empty rect.
QList<QRect> findTextRegions(const QImage& gray, const TextRegionOptions& options = {});

} // namespace Automation::Ocr
