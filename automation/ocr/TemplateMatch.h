#pragma once

#include "automation/Types.h"

#include <QImage>
#include <QPoint>

/// An image found in another (waitUntil's imageOnScreen, docs/protocol.md §5.8): OpenCV's
/// normalised cross-correlation (Debian's libopencv-imgproc-dev) on Linux; where the platform
/// build has no OpenCV, a clear contract error.
namespace Automation::Ocr {

struct TemplateMatch
{
    QPoint at;        ///< the best place's top-left corner, in `haystack`'s pixels
    double score = 0; ///< -1..1 (1: the same pixels)
};

/// Where `needle` looks most like a part of `haystack`, and how much. DESKTOP_INVALID_REQUEST
/// (reason template_too_large) when it is larger than the haystack; reason
/// template_matching_unavailable where no matcher is built.
Result<TemplateMatch> findTemplate(const QImage& haystack, const QImage& needle);

} // namespace Automation::Ocr
