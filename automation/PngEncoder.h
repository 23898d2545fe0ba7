#pragma once

#include <QByteArray>
#include <QImage>

namespace Automation {

/// Encodes screenshots as PNG (8-bit RGB, no alpha) with zlib directly: the "Up" filter on
/// every row and a low deflate level. Screens are
/// mostly flat colour and text, where this gives files the size of QImageWriter's at a fraction
/// of its time (bench figures in the README).
class PngEncoder
{
public:
    /// zlib level 0-9; 3 by default.
    static QByteArray encode(const QImage& image, int level = kDefaultLevel);
    static constexpr int kDefaultLevel = 3;
};

} // namespace Automation
