// The macOS OCR engine: Apple Vision's VNRecognizeTextRequest, revision 2, accurate level
// (automation/ocr/OcrEngine.h). Compiled with -fobjc-arc: Objective-C objects are ARC's; the Core
// Graphics objects this file creates are held by CfOwned and released when it goes.
//
// What makes it fit a UI rather than a scanned page:
//   - language correction is off: buttons, menus and file names are not prose, and correcting
//     them towards a dictionary turns "Cmd+S" or "README.md" into words that are not on screen;
//   - the revision is pinned, so that a new macOS does not change what the same pixels read as;
//   - the request runs on the calling thread (the automation worker) inside an autorelease pool
//     of its own: the worker is a QThread, whose event loop never drains one.
#include "automation/ocr/OcrEngine.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QLoggingCategory>

#import <CoreGraphics/CoreGraphics.h>
#import <Foundation/Foundation.h>
#import <Vision/Vision.h>

#include <objc/message.h>

#include <algorithm>
#include <utility>

#if !__has_feature(objc_arc)
#error "VisionOcr_mac.mm is compiled with -fobjc-arc (automation/CMakeLists.txt, scripts/check-macos)"
#endif

namespace Automation::Ocr {

Q_LOGGING_CATEGORY(lcVisionOcr, "msgcode.automation.ocr")

namespace {

constexpr NSUInteger kRevision = VNRecognizeTextRequestRevision2;

/// A Core Foundation object this file created (the Create rule), released when it goes.
template <typename T> class CfOwned
{
public:
    explicit CfOwned(T ref) : m_ref(ref) {}
    ~CfOwned()
    {
        if (m_ref)
            CFRelease(m_ref);
    }
    CfOwned(const CfOwned&) = delete;
    CfOwned& operator=(const CfOwned&) = delete;

    T get() const { return m_ref; }
    explicit operator bool() const { return m_ref != nullptr; }

private:
    T m_ref;
};

// The data provider owns a shallow copy of the QImage: the pixels stay alive as long as Core
// Graphics or Vision holds the CGImage, without copying them.
void releaseImage(void* info, const void*, size_t)
{
    delete static_cast<QImage*>(info);
}

/// The image as a CGImage over its own pixels; null when Core Graphics refuses it.
CGImageRef toCgImage(const QImage& image)
{
    // RGB32 and ARGB32 are 0xAARRGGBB words in host order, which is little-endian on both Mac
    // architectures: B, G, R, A in memory. The alpha byte is skipped: a screenshot is opaque.
    QImage pixels = image;
    if (pixels.format() != QImage::Format_RGB32 && pixels.format() != QImage::Format_ARGB32 &&
        pixels.format() != QImage::Format_ARGB32_Premultiplied)
        pixels = pixels.convertToFormat(QImage::Format_RGB32);
    auto* held = new QImage(std::move(pixels));
    const size_t bytes = static_cast<size_t>(held->sizeInBytes());
    // From here the provider owns `held` and releases it through releaseImage. Should Core
    // Graphics fail to make a provider (out of memory), the copy is left rather than risk
    // releasing it twice.
    CfOwned<CGDataProviderRef> provider(CGDataProviderCreateWithData(held, held->constBits(), bytes, releaseImage));
    if (!provider)
        return nullptr;
    CfOwned<CGColorSpaceRef> space(CGColorSpaceCreateWithName(kCGColorSpaceSRGB));
    const CGBitmapInfo info =
        static_cast<CGBitmapInfo>(kCGImageAlphaNoneSkipFirst) | static_cast<CGBitmapInfo>(kCGBitmapByteOrder32Little);
    return CGImageCreate(static_cast<size_t>(held->width()), static_cast<size_t>(held->height()), 8, 32,
                         static_cast<size_t>(held->bytesPerLine()), space.get(), info, provider.get(), nullptr, false,
                         kCGRenderingIntentDefault);
}

QRect toPixels(CGRect normalized, QSize image)
{
    return fromNormalizedBottomLeft(
        QRectF(normalized.origin.x, normalized.origin.y, normalized.size.width, normalized.size.height), image);
}

/// The words of a line as Vision read it: the runs between white space. Chinese is written
/// without spaces, so a run of CJK characters stays one word, as Vision's own text has it.
QList<Word> wordsOf(VNRecognizedText* candidate, const QString& text, const QRect& lineBox, QSize image)
{
    QList<Word> words;
    const qsizetype length = text.size();
    qsizetype start = 0;
    while (start < length) {
        while (start < length && text.at(start).isSpace())
            ++start;
        qsizetype end = start;
        while (end < length && !text.at(end).isSpace())
            ++end;
        if (end > start) {
            Word word;
            word.text = text.mid(start, end - start);
            word.confidence = candidate.confidence;
            // QString and NSString index the same UTF-16 code units, so the run's range is
            // Vision's range too.
            VNRectangleObservation* box = [candidate
                boundingBoxForRange:NSMakeRange(static_cast<NSUInteger>(start), static_cast<NSUInteger>(end - start))
                              error:nil];
            // A word Vision gives no box of its own still lies within its line's.
            word.box = box ? toPixels(box.boundingBox, image) : lineBox;
            words.append(word);
        }
        start = end;
    }
    return words;
}

QString describe(NSError* error)
{
    return error ? QString::fromNSString(error.localizedDescription) : QStringLiteral("no reason given");
}

class VisionEngine final : public Engine
{
public:
    QString name() const override { return QStringLiteral("vision"); }

    // Vision loads and compiles its recognition model on the first request, which takes seconds.
    bool warmAtStart() const override { return true; }

    void warmUp(const QStringList& languages) override
    {
        QImage blank(64, 32, QImage::Format_RGB32);
        blank.fill(Qt::white);
        auto read = recognize(blank, languages, QDeadlineTimer(QDeadlineTimer::Forever));
        if (!read)
            qCWarning(lcVisionOcr) << "Vision did not warm up:" << read.error().message;
    }

    Result<Page> recognize(const QImage& image, const QStringList& requested, QDeadlineTimer deadline) override
    {
        if (deadline.hasExpired())
            return Error::make(ErrorCode::Timeout, QStringLiteral("the OCR did not finish in time"),
                               QJsonObject{{QStringLiteral("stage"), QStringLiteral("ocr")}});
        const QStringList languages = requested.isEmpty() ? defaultLanguages() : requested;
        QElapsedTimer timer;
        timer.start();
        Page page;
        page.regions = 1;
        page.engine = QJsonObject{{QStringLiteral("name"), name()},
                                  {QStringLiteral("revision"), static_cast<int>(kRevision)},
                                  {QStringLiteral("languages"), QJsonArray::fromStringList(languages)},
                                  {QStringLiteral("mode"), QStringLiteral("accurate")}};
        @autoreleasepool {
            NSMutableArray<NSString*>* visionLanguages = [NSMutableArray arrayWithCapacity:languages.size()];
            for (const QString& language : languages) {
                const QString vision = visionLanguage(language);
                if (vision.isEmpty())
                    return unavailable(QStringLiteral("Apple Vision does not read the language %1").arg(language),
                                       QJsonObject{{QStringLiteral("language"), language}});
                [visionLanguages addObject:vision.toNSString()];
            }
            if (image.isNull()) {
                page.recognizeMs = timer.elapsed();
                return page;
            }

            VNRecognizeTextRequest* request = [[VNRecognizeTextRequest alloc] init];
            request.revision = kRevision;
            request.recognitionLevel = VNRequestTextRecognitionLevelAccurate;
            request.usesLanguageCorrection = NO;
            request.recognitionLanguages = visionLanguages;
            // automaticallyDetectsLanguage arrived with macOS 13; against SDK 12 it has no
            // declaration, so it is set by message where the running system answers to it.
            const SEL detect = @selector(setAutomaticallyDetectsLanguage:);
            if ([request respondsToSelector:detect])
                reinterpret_cast<void (*)(id, SEL, BOOL)>(objc_msgSend)(request, detect, YES);

            // A language this system's Vision lacks is the caller's to know (ocr_unavailable),
            // not a failure of the engine.
            NSError* error = nil;
            NSArray<NSString*>* supported = [request supportedRecognitionLanguagesAndReturnError:&error];
            if (!supported)
                return Error::make(ErrorCode::InternalError,
                                   QStringLiteral("Vision did not list its languages: %1").arg(describe(error)));
            for (qsizetype i = 0; i < languages.size(); ++i) {
                if (![supported containsObject:visionLanguages[static_cast<NSUInteger>(i)]])
                    return unavailable(
                        QStringLiteral("this Mac's Vision does not read %1 (%2) at the accurate level, revision %3")
                            .arg(languages.at(i), QString::fromNSString(visionLanguages[static_cast<NSUInteger>(i)]))
                            .arg(kRevision),
                        QJsonObject{{QStringLiteral("language"), languages.at(i)}});
            }

            CfOwned<CGImageRef> picture(toCgImage(image));
            if (!picture)
                return Error::make(ErrorCode::InternalError,
                                   QStringLiteral("Core Graphics refused a %1x%2 image for Vision")
                                       .arg(image.width())
                                       .arg(image.height()));
            VNImageRequestHandler* handler = [[VNImageRequestHandler alloc] initWithCGImage:picture.get() options:@{}];
            // Synchronous, and Vision offers no way to stop it part-way: the deadline is checked
            // before, and a late answer is still answered (below), since the work is done.
            if (![handler performRequests:@[ request ] error:&error])
                return Error::make(ErrorCode::InternalError,
                                   QStringLiteral("Vision failed to recognise text: %1").arg(describe(error)));

            const QSize size = image.size();
            for (VNRecognizedTextObservation* observation in request.results) {
                VNRecognizedText* candidate = [observation topCandidates:1].firstObject;
                if (!candidate || candidate.string.length == 0)
                    continue;
                Line line;
                // Vision's own line text: it knows where the spaces were, which a join of the
                // words (completeLine) can only guess.
                line.text = QString::fromNSString(candidate.string);
                line.confidence = candidate.confidence;
                line.box = toPixels(observation.boundingBox, size);
                line.words = wordsOf(candidate, line.text, line.box, size);
                page.lines.append(line);
            }
        }
        page.recognizeMs = timer.elapsed();
        if (!deadline.isForever() && deadline.hasExpired())
            page.engine.insert(QStringLiteral("lateMs"),
                               std::max<qint64>(0, QDeadlineTimer::current().deadline() - deadline.deadline()));
        return page;
    }
};

} // namespace

std::unique_ptr<Engine> createPlatformEngine()
{
    return std::make_unique<VisionEngine>();
}

} // namespace Automation::Ocr
