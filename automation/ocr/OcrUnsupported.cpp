// A platform without an OCR engine: every recognition answers so, plainly.
#include "automation/ocr/OcrEngine.h"

namespace Automation::Ocr {

namespace {

class NoEngine final : public Engine
{
public:
    QString name() const override { return QStringLiteral("none"); }
    Result<Page> recognize(const QImage&, const QStringList&, QDeadlineTimer) override
    {
        return unavailable(QStringLiteral("this platform has no OCR engine"));
    }
};

} // namespace

std::unique_ptr<Engine> createPlatformEngine()
{
    return std::make_unique<NoEngine>();
}

} // namespace Automation::Ocr
