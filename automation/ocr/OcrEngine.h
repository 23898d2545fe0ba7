#pragma once

#include "automation/Error.h"

#include <QDeadlineTimer>
#include <QImage>
#include <QJsonObject>
#include <QList>
#include <QRect>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <memory>

// Text read off pixels, where accessibility is blind (docs/architecture.md, "Pixels"). One
// interface, one engine per platform, chosen by automation/CMakeLists.txt: Tesseract 5 on Linux
// (TesseractOcr_linux.cpp), Apple Vision on macOS (VisionOcr_mac.mm), none elsewhere.
namespace Automation::Ocr {

/// A word as an engine recognised it: `box` in the pixels of the image it was given.
struct Word
{
    QString text;
    QRect box;
    double confidence = 0; ///< 0..1
};

/// A line of words, in reading order.
struct Line
{
    QString text;
    QRect box;
    double confidence = 0; ///< 0..1: the mean of its words'
    QList<Word> words;
};

/// What an engine read in one image.
struct Page
{
    QList<Line> lines;
    QJsonObject engine; ///< name, version, languages, mode: as answered in `engine`
    qint64 recognizeMs = 0;
    int regions = 0;       ///< the pieces of the image recognised
    int regionsCached = 0; ///< of those, answered from an earlier identical piece
};

/// The languages a caller may ask for, by Tesseract's names (the contract's): "eng", "chi_sim".
QStringList supportedLanguages();
/// What desktop.ocr reads when the caller names no language: ["eng", "chi_sim"].
QStringList defaultLanguages();
/// Apple Vision's name for one of supportedLanguages() ("en-US", "zh-Hans"); empty for another.
QString visionLanguage(const QString& language);

/// Vision's boxes are normalised to the image (0..1) with the origin at the bottom left; this
/// gives the box in the image's pixels, origin top left, rounded outwards and clipped to it.
QRect fromNormalizedBottomLeft(const QRectF& normalized, QSize image);

/// A line's text and confidence made from its words (text joined with a space, or without one
/// between two CJK characters, as the scripts write).
void completeLine(Line& line);

class Engine
{
public:
    virtual ~Engine();
    /// "tesseract", "vision" or "none".
    virtual QString name() const = 0;
    /// Loads what the first recognition needs (models, traineddata), so that it is not paid by
    /// the first caller. Cheap when already done. Called on the thread that recognises.
    virtual void warmUp(const QStringList& languages) { Q_UNUSED(languages) }
    /// Whether the host warms it right after start: an engine whose first recognition takes
    /// seconds (Vision) says yes; one that loads in a moment (Tesseract) is loaded on first use,
    /// so that hosts which never read pixels never pay for it.
    virtual bool warmAtStart() const { return false; }
    /// Forgets every piece read so far (the next recognition reads everything afresh).
    virtual void forget() {}
    /// Recognises the text of `image` (any format; RGB32 is cheapest) in `languages`.
    /// DESKTOP_TIMEOUT when the deadline passes first; DESKTOP_INVALID_REQUEST (reason
    /// ocr_unavailable) where no engine or traineddata exists.
    virtual Result<Page> recognize(const QImage& image, const QStringList& languages, QDeadlineTimer deadline) = 0;
};

/// This platform's engine (automation/CMakeLists.txt picks the file that defines it).
std::unique_ptr<Engine> createPlatformEngine();

/// The error of a platform without an engine, or of a missing language.
Error unavailable(const QString& why, QJsonObject details = {});

} // namespace Automation::Ocr
