// The Linux OCR engine: Tesseract 5's LSTM through libtesseract, with the traineddata Debian's
// tesseract-ocr-eng and tesseract-ocr-chi-sim ship (docs/architecture.md, "Pixels").
//
// What makes it fit a UI rather than a scanned page:
//   - only the pieces of the image that hold text-like edges are read (TextRegions.cpp), each
//     as one block, so the page's layout analysis never runs over empty panels;
//   - each piece is turned dark-on-light before it is read, so Tesseract's own inversion pass
//     (a second recognition of every line) is off;
//   - the pieces not read before are stacked into one strip and read in one recognition, so the
//     fixed cost of a recognition is paid once, not once per label;
//   - each piece read is remembered by its pixels: an unchanged window is answered from memory,
//     and after a change only the changed pieces are read again;
//   - one TessBaseAPI per language set, initialised once and kept, on the worker thread, with
//     OpenMP (where the library has it) held to one thread.
#include "automation/ocr/OcrEngine.h"
#include "automation/ocr/TextRegions.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QPainter>

#include <tesseract/baseapi.h>
#include <tesseract/ocrclass.h>
#include <tesseract/resultiterator.h>
#include <tesseract/version.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

namespace Automation::Ocr {

namespace {

// Pieces remembered, by their pixels; beyond this the oldest half is forgotten.
constexpr int kCacheLimit = 4096;

QString tessdataDir()
{
    const QByteArray env = qgetenv("TESSDATA_PREFIX");
    if (!env.isEmpty())
        return QString::fromLocal8Bit(env);
    for (const QString& dir :
         {QStringLiteral("/usr/share/tesseract-ocr/5/tessdata"),
          QStringLiteral("/usr/share/tesseract-ocr/4.00/tessdata"), QStringLiteral("/usr/share/tessdata")}) {
        if (QFileInfo::exists(dir + QStringLiteral("/eng.traineddata")))
            return dir;
    }
    return QStringLiteral("/usr/share/tesseract-ocr/5/tessdata");
}

// A grid's cells lower than this, and any piece lower than kTinyText (in pixels), are read at
// twice their size.
constexpr int kEnlargeBelow = 24;
constexpr int kTinyText = 14;
// White around and between the pieces of a strip, and the tallest strip read at once.
constexpr int kGap = 12;
constexpr int kStripHeight = 4000;

// Where a piece lies in a strip: its rows.
struct Slot
{
    int top;
    int bottom; // exclusive
};

struct Cached
{
    QList<Line> lines; // in the piece's own pixels
    quint64 age = 0;
};

class TesseractEngine final : public Engine
{
public:
    TesseractEngine()
    {
        // Threads bounded: the worker recognises, nothing else; an OpenMP build would take
        // every core otherwise. Set before the library's first call reads it.
        if (qEnvironmentVariableIsEmpty("OMP_THREAD_LIMIT"))
            qputenv("OMP_THREAD_LIMIT", "1");
    }

    QString name() const override { return QStringLiteral("tesseract"); }

    void warmUp(const QStringList& languages) override { (void)api(languages); }

    void forget() override { m_cache.clear(); }

    Result<Page> recognize(const QImage& image, const QStringList& languages, QDeadlineTimer deadline) override
    {
        QElapsedTimer timer;
        timer.start();
        auto tess = api(languages);
        if (!tess)
            return tess.error();
        const QImage gray = image.convertToFormat(QImage::Format_Grayscale8);
        const QList<QRect> pieces = findTextRegions(gray);
        Page page;
        page.regions = static_cast<int>(pieces.size());
        const QString key = languages.join(QLatin1Char('+'));
        QList<QImage> parts(pieces.size());
        QList<QByteArray> ids(pieces.size());
        QList<QList<Line>> read(pieces.size());
        QList<int> unread;
        for (int i = 0; i < pieces.size(); ++i) {
            parts[i] = gray.copy(pieces[i]);
            ids[i] = idOf(key, parts[i]);
            if (auto hit = m_cache.find(ids[i]); hit != m_cache.end()) {
                hit->age = ++m_clock;
                read[i] = hit->lines;
                ++page.regionsCached;
            } else {
                unread.append(i);
            }
        }
        // The pieces not read before, stacked into strips: one recognition per strip instead of
        // one per piece, whose fixed cost would otherwise dominate a UI's many short labels.
        // What goes into the strips: each unread piece cleaned of the boxes drawn around its
        // text, and a piece that was a grid of boxes (a keypad) split into its cells again.
        struct Item
        {
            int piece;
            QPoint offset; // in the piece
            QImage image;
            bool cell = false; // one box of a grid
            int scale = 1;
        };
        QList<Item> items;
        for (int index : std::as_const(unread)) {
            const QImage cleaned = darkOnLight(withoutBox(parts[index]));
            // A cell may hold one flat symbol ("=", "-"): no height is too small there.
            TextRegionOptions inCells;
            inCells.minHeight = 1;
            const QList<QRect> cells =
                cleaned == darkOnLight(parts[index]) ? QList<QRect>{} : findTextRegions(cleaned, inCells);
            if (cells.size() > 1) {
                for (const QRect& cell : cells)
                    items.append(Item{index, cell.topLeft(), cleaned.copy(cell), true});
            } else {
                items.append(Item{index, QPoint(0, 0), cleaned});
            }
        }
        // A box's lone symbol (a key) and very small text are enlarged: the LSTM misreads them
        // at their size. Ordinary UI text is not: at twice the size it costs more than it gains.
        for (Item& item : items) {
            if (item.image.height() < (item.cell ? kEnlargeBelow : kTinyText)) {
                item.scale = 2;
                item.image = item.image.scaled(item.image.size() * 2, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
            }
        }
        for (int first = 0; first < items.size();) {
            if (deadline.hasExpired())
                return Error::make(ErrorCode::Timeout, QStringLiteral("the OCR did not finish in time"),
                                   QJsonObject{{QStringLiteral("stage"), QStringLiteral("ocr")},
                                               {QStringLiteral("regionsRead"), first}});
            int last = first;
            int height = kGap;
            int width = 0;
            while (last < items.size()) {
                const QImage& image = items[last].image;
                if (last > first && height + image.height() + kGap > kStripHeight)
                    break;
                height += image.height() + kGap;
                width = std::max(width, static_cast<int>(image.width()));
                ++last;
            }
            QImage strip(width + 2 * kGap, height, QImage::Format_Grayscale8);
            strip.fill(255);
            QList<Slot> places;
            {
                QPainter painter(&strip);
                int y = kGap;
                for (int k = first; k < last; ++k) {
                    painter.drawImage(kGap, y, items[k].image);
                    places.append(Slot{y, y + static_cast<int>(items[k].image.height())});
                    y += items[k].image.height() + kGap;
                }
            }
            auto lines = readStrip(*tess.value(), strip, places, deadline);
            if (!lines)
                return lines.error();
            for (int k = first; k < last; ++k) {
                const auto back = [&](const QRect& box) {
                    const int f = items[k].scale;
                    return QRect(QPoint(box.left() / f, box.top() / f), QPoint(box.right() / f, box.bottom() / f))
                        .translated(items[k].offset);
                };
                for (Line line : lines.value()[k - first]) {
                    line.box = back(line.box);
                    for (Word& word : line.words)
                        word.box = back(word.box);
                    read[items[k].piece].append(line);
                }
            }
            first = last;
        }
        for (int index : std::as_const(unread))
            remember(ids[index], read[index]);
        for (int i = 0; i < pieces.size(); ++i) {
            for (Line line : std::as_const(read[i])) {
                line.box.translate(pieces[i].topLeft());
                for (Word& word : line.words)
                    word.box.translate(pieces[i].topLeft());
                page.lines.append(line);
            }
        }
        page.recognizeMs = timer.elapsed();
        page.engine = QJsonObject{{QStringLiteral("name"), name()},
                                  {QStringLiteral("version"), QStringLiteral(TESSERACT_VERSION_STR)},
                                  {QStringLiteral("languages"), QJsonArray::fromStringList(languages)},
                                  {QStringLiteral("mode"), QStringLiteral("lstm, text regions as blocks")}};
        return page;
    }

private:
    Result<tesseract::TessBaseAPI*> api(const QStringList& languages)
    {
        const QString key = languages.join(QLatin1Char('+'));
        if (auto it = m_apis.find(key); it != m_apis.end())
            return it->second.get();
        const QString dir = tessdataDir();
        QStringList missing;
        for (const QString& language : languages) {
            if (!QFileInfo::exists(dir + QLatin1Char('/') + language + QStringLiteral(".traineddata")))
                missing.append(language);
        }
        if (!missing.isEmpty())
            return unavailable(QStringLiteral("no Tesseract traineddata for %1 in %2 (scripts/setup installs "
                                              "tesseract-ocr-eng and tesseract-ocr-chi-sim)")
                                   .arg(missing.join(QStringLiteral(", ")), dir),
                               QJsonObject{{QStringLiteral("missing"), QJsonArray::fromStringList(missing)},
                                           {QStringLiteral("tessdata"), dir}});
        auto tess = std::make_unique<tesseract::TessBaseAPI>();
        const QByteArray path = dir.toLocal8Bit();
        // UI text is labels, names and numbers, not prose: the dictionaries would only "correct"
        // them, and cost time in the LSTM's search.
        const std::vector<std::string> vars{"load_system_dawg", "load_freq_dawg"};
        const std::vector<std::string> values{"0", "0"};
        if (tess->Init(path.constData(), key.toUtf8().constData(), tesseract::OEM_LSTM_ONLY, nullptr, 0, &vars, &values,
                       false) != 0)
            return unavailable(QStringLiteral("Tesseract could not load %1 from %2").arg(key, dir));
        tess->SetPageSegMode(tesseract::PSM_SINGLE_BLOCK);
        tess->SetVariable("tessedit_do_invert", "0");
        tess->SetVariable("debug_file", "/dev/null");
        tesseract::TessBaseAPI* raw = tess.get();
        m_apis.emplace(key, std::move(tess));
        return raw;
    }

    void remember(const QByteArray& id, const QList<Line>& lines)
    {
        if (m_cache.size() >= kCacheLimit) {
            std::vector<quint64> ages;
            ages.reserve(m_cache.size());
            for (const Cached& c : std::as_const(m_cache))
                ages.push_back(c.age);
            const auto middle = static_cast<std::ptrdiff_t>(ages.size() / 2);
            std::nth_element(ages.begin(), ages.begin() + middle, ages.end());
            const quint64 median = ages[static_cast<size_t>(middle)];
            for (auto it = m_cache.begin(); it != m_cache.end();)
                it = it->age <= median ? m_cache.erase(it) : std::next(it);
        }
        m_cache.insert(id, Cached{lines, ++m_clock});
    }

    static QByteArray idOf(const QString& languages, const QImage& part)
    {
        QCryptographicHash hash(QCryptographicHash::Sha1);
        hash.addData(languages.toUtf8());
        hash.addData(QByteArray(QByteArray::number(part.width()) + 'x' + QByteArray::number(part.height())));
        for (int y = 0; y < part.height(); ++y)
            hash.addData(QByteArrayView(reinterpret_cast<const char*>(part.constScanLine(y)), part.width()));
        return hash.result();
    }

    // Dark on light: the background is what the piece's border mostly is.
    static QImage darkOnLight(QImage part)
    {
        qint64 border = 0;
        int count = 0;
        for (int x = 0; x < part.width(); ++x) {
            border += part.constScanLine(0)[x] + part.constScanLine(part.height() - 1)[x];
            count += 2;
        }
        if (count && border / count < 128)
            part.invertPixels();
        return part;
    }

    // A text field's or a button's frame drawn around its text: Tesseract reads its sides as
    // letters ("|Ada|" as "haa"). When a piece has a line along its top and along its bottom (a
    // box), those lines, and the sides along its two ends, are painted with the background.
    static QImage withoutBox(QImage part)
    {
        const int w = part.width();
        const int h = part.height();
        if (w < 12 || h < 12)
            return part;
        int histogram[256] = {};
        for (int y = 0; y < h; ++y) {
            const uchar* row = part.constScanLine(y);
            for (int x = 0; x < w; ++x)
                ++histogram[row[x]];
        }
        const int background = static_cast<int>(std::max_element(histogram, histogram + 256) - histogram);
        const auto ink = [&](int x, int y) { return std::abs(part.constScanLine(y)[x] - background) > 40; };
        const auto rowShare = [&](int y) {
            int n = 0;
            for (int x = 0; x < w; ++x)
                n += ink(x, y) ? 1 : 0;
            return double(n) / w;
        };
        const auto columnShare = [&](int x) {
            int n = 0;
            for (int y = 0; y < h; ++y)
                n += ink(x, y) ? 1 : 0;
            return double(n) / h;
        };
        const int band = std::min(7, h / 3);
        QList<int> rows;
        bool top = false;
        bool bottom = false;
        for (int y = 0; y < band; ++y) {
            if (rowShare(y) >= 0.7) {
                rows.append(y);
                top = true;
            }
            if (rowShare(h - 1 - y) >= 0.7) {
                rows.append(h - 1 - y);
                bottom = true;
            }
        }
        if (!top || !bottom)
            return part;
        // A grid of boxes (a keypad) is one piece: the lines between its rows go too.
        for (int y = band; y < h - band; ++y) {
            if (rowShare(y) >= 0.75)
                rows.append(y);
        }
        // The box's sides, and the sides of the boxes beside it in a row of keys (a keypad, a
        // toolbar): lines from the top line to the bottom one, which no glyph inside is.
        QList<int> columns;
        for (int x = 0; x < w; ++x) {
            const bool end = x < band || x >= w - band;
            if (columnShare(x) >= (end ? 0.6 : 0.75))
                columns.append(x);
        }
        for (int y : rows)
            std::memset(part.scanLine(y), background, static_cast<size_t>(w));
        for (int x : columns) {
            for (int y = 0; y < h; ++y)
                part.scanLine(y)[x] = static_cast<uchar>(background);
        }
        return part;
    }

    // One recognition of a strip of stacked pieces; each word goes back to the piece whose rows
    // hold its centre, in that piece's own pixels.
    static Result<QList<QList<Line>>> readStrip(tesseract::TessBaseAPI& tess, const QImage& strip,
                                                const QList<Slot>& places, QDeadlineTimer deadline)
    {
        tess.SetImage(strip.constBits(), strip.width(), strip.height(), 1, static_cast<int>(strip.bytesPerLine()));
        tess.SetSourceResolution(140);
        tesseract::ETEXT_DESC monitor;
        const qint64 left = deadline.isForever() ? 600000 : std::max<qint64>(1, deadline.remainingTime());
        monitor.set_deadline_msecs(static_cast<int>(std::min<qint64>(left, 600000)));
        if (tess.Recognize(&monitor) != 0) {
            tess.Clear();
            if (deadline.hasExpired())
                return Error::make(ErrorCode::Timeout, QStringLiteral("the OCR did not finish in time"),
                                   QJsonObject{{QStringLiteral("stage"), QStringLiteral("ocr")}});
            return Error::make(ErrorCode::InternalError, QStringLiteral("Tesseract failed to recognise the text"));
        }
        QList<QList<Line>> out(places.size());
        std::unique_ptr<tesseract::ResultIterator> it(tess.GetIterator());
        if (it) {
            Line line;
            int lineSlot = -1;
            const auto flush = [&] {
                if (!line.words.isEmpty() && lineSlot >= 0) {
                    completeLine(line);
                    out[lineSlot].append(line);
                }
                line = Line{};
            };
            do {
                std::unique_ptr<char[]> text(it->GetUTF8Text(tesseract::RIL_WORD));
                const QString word = text ? QString::fromUtf8(text.get()).trimmed() : QString();
                int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
                if (word.isEmpty() || !it->BoundingBox(tesseract::RIL_WORD, &x0, &y0, &x1, &y1))
                    continue;
                const int centre = (y0 + y1) / 2;
                int slot = -1;
                for (int k = 0; k < places.size(); ++k) {
                    if (centre >= places[k].top && centre < places[k].bottom) {
                        slot = k;
                        break;
                    }
                }
                if (slot < 0)
                    continue; // in a gap: nothing of any piece
                if (it->IsAtBeginningOf(tesseract::RIL_TEXTLINE) || slot != lineSlot) {
                    flush();
                    lineSlot = slot;
                }
                const QRect box(QPoint(x0 - kGap, y0 - places[slot].top),
                                QPoint(x1 - 1 - kGap, y1 - 1 - places[slot].top));
                line.words.append(Word{word, box, std::clamp(it->Confidence(tesseract::RIL_WORD) / 100.0, 0.0, 1.0)});
            } while (it->Next(tesseract::RIL_WORD));
            flush();
        }
        tess.Clear();
        return out;
    }

    std::map<QString, std::unique_ptr<tesseract::TessBaseAPI>> m_apis;
    QHash<QByteArray, Cached> m_cache;
    quint64 m_clock = 0;
};

} // namespace

std::unique_ptr<Engine> createPlatformEngine()
{
    return std::make_unique<TesseractEngine>();
}

} // namespace Automation::Ocr
