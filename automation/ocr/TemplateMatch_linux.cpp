// imageOnScreen's matcher on Linux: OpenCV's TM_CCOEFF_NORMED over the colour pixels.
#include "automation/ocr/TemplateMatch.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace Automation::Ocr {

namespace {

// A QImage's pixels as a 3-channel OpenCV matrix (a copy: the QImage's own may be shared).
cv::Mat matOf(const QImage& image)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
    cv::Mat view(rgb.height(), rgb.width(), CV_8UC3, const_cast<uchar*>(rgb.constBits()),
                 static_cast<size_t>(rgb.bytesPerLine()));
    return view.clone();
}

} // namespace

Result<TemplateMatch> findTemplate(const QImage& haystack, const QImage& needle)
{
    if (needle.isNull() || haystack.isNull())
        return Error::make(ErrorCode::InvalidRequest, QStringLiteral("an empty image cannot be matched"));
    if (needle.width() > haystack.width() || needle.height() > haystack.height())
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("the template (%1x%2) is larger than where it is looked for (%3x%4)")
                               .arg(needle.width())
                               .arg(needle.height())
                               .arg(haystack.width())
                               .arg(haystack.height()),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("template_too_large")}})
            .withRetryable(false);
    cv::Mat scores;
    cv::matchTemplate(matOf(haystack), matOf(needle), scores, cv::TM_CCOEFF_NORMED);
    double best = 0;
    cv::Point where;
    cv::minMaxLoc(scores, nullptr, &best, nullptr, &where);
    // A flat template (one colour) has no variance: its score is undefined; an exact same-colour
    // patch is the only honest match then.
    if (!std::isfinite(best))
        best = 0;
    return TemplateMatch{QPoint(where.x, where.y), best};
}

} // namespace Automation::Ocr
