#include "automation/ocr/OcrEngine.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace Automation::Ocr {

Engine::~Engine() = default;

QStringList supportedLanguages()
{
    return {QStringLiteral("eng"), QStringLiteral("chi_sim")};
}

QStringList defaultLanguages()
{
    return {QStringLiteral("eng"), QStringLiteral("chi_sim")};
}

QString visionLanguage(const QString& language)
{
    if (language == QLatin1String("eng"))
        return QStringLiteral("en-US");
    if (language == QLatin1String("chi_sim"))
        return QStringLiteral("zh-Hans");
    return {};
}

QRect fromNormalizedBottomLeft(const QRectF& normalized, QSize image)
{
    const double left = normalized.x() * image.width();
    const double right = (normalized.x() + normalized.width()) * image.width();
    // y grows upwards from the bottom edge: the box's top is the image's height less its top edge.
    const double top = (1.0 - (normalized.y() + normalized.height())) * image.height();
    const double bottom = (1.0 - normalized.y()) * image.height();
    const QRect outward(QPoint(static_cast<int>(std::floor(left)), static_cast<int>(std::floor(top))),
                        QPoint(static_cast<int>(std::ceil(right)) - 1, static_cast<int>(std::ceil(bottom)) - 1));
    return outward.intersected(QRect(QPoint(0, 0), image));
}

namespace {

bool isCjk(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 0x3000 && u <= 0x30ff) || (u >= 0x3400 && u <= 0x4dbf) || (u >= 0x4e00 && u <= 0x9fff) ||
           (u >= 0xf900 && u <= 0xfaff) || (u >= 0xff00 && u <= 0xffef);
}

} // namespace

void completeLine(Line& line)
{
    QString text;
    double sum = 0;
    QRect box;
    for (const Word& word : line.words) {
        if (!text.isEmpty() && !word.text.isEmpty() && !(isCjk(text.back()) && isCjk(word.text.front())))
            text += QLatin1Char(' ');
        text += word.text;
        sum += word.confidence;
        box = box.united(word.box);
    }
    line.text = text;
    line.confidence = line.words.isEmpty() ? 0 : sum / static_cast<double>(line.words.size());
    if (line.box.isEmpty())
        line.box = box;
}

Error unavailable(const QString& why, QJsonObject details)
{
    details.insert(QStringLiteral("reason"), QStringLiteral("ocr_unavailable"));
    return Error::make(ErrorCode::InvalidRequest, why, details).withRetryable(false);
}

} // namespace Automation::Ocr
