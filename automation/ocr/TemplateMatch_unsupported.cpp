// imageOnScreen where the build has no OpenCV (macOS, other platforms): a clear contract error.
#include "automation/ocr/TemplateMatch.h"

namespace Automation::Ocr {

Result<TemplateMatch> findTemplate(const QImage& /*haystack*/, const QImage& /*needle*/)
{
    return Error::make(ErrorCode::InvalidRequest,
                       QStringLiteral("imageOnScreen is not available in this build: it has no template matcher "
                                      "(OpenCV)"),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("template_matching_unavailable")}})
        .withRetryable(false);
}

} // namespace Automation::Ocr
