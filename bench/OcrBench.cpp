// Bench.Ocr: the OCR engine (automation/ocr/TesseractOcr_linux.cpp) against libtesseract run with its
// defaults on the same images in the same run: the Qt fixture's window and the whole screen, with
// eng+chi_sim and with eng, 5 runs each. Prints medians, the ratio, and "words found": the recall
// of the words accessibility reports for the fixture window. Also the repeated read of an
// unchanged window (answered from the pieces remembered). Asserts no time: it fails only when
// something did not work (no display, no window, no engine). README "Benchmarks" has a full run.
#include "automation/CallContext.h"
#include "automation/PlatformBackend.h"
#include "automation/ocr/OcrEngine.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QThread>

#include <tesseract/baseapi.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

using namespace Automation;

namespace {

constexpr int kRuns = 5;

struct Figures
{
    std::vector<qint64> ms;
    QStringList words;

    qint64 median() const
    {
        std::vector<qint64> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        return sorted.empty() ? 0 : sorted[sorted.size() / 2];
    }
};

bool isCjk(QChar c)
{
    return c.unicode() >= 0x3400 && c.unicode() <= 0x9fff;
}

// Words as compared: letters and digits, case folded; CJK text one character at a time.
QSet<QString> tokens(const QStringList& texts)
{
    static const QRegularExpression split(QStringLiteral("[^\\w]+"));
    QSet<QString> out;
    for (const QString& text : texts) {
        for (const QString& part : text.toCaseFolded().split(split, Qt::SkipEmptyParts)) {
            QString latin;
            for (QChar c : part) {
                if (isCjk(c))
                    out.insert(QString(c));
                else
                    latin += c;
            }
            if (latin.size() >= 2)
                out.insert(latin);
        }
    }
    return out;
}

double recall(const QSet<QString>& truth, const QStringList& read)
{
    if (truth.isEmpty())
        return 0;
    const QSet<QString> seen = tokens(read);
    int found = 0;
    for (const QString& t : truth)
        found += seen.contains(t) ? 1 : 0;
    return double(found) / truth.size();
}

Figures ours(Ocr::Engine& engine, const QImage& image, const QStringList& languages, bool cold)
{
    Figures f;
    engine.warmUp(languages);
    for (int run = 0; run < kRuns; ++run) {
        if (cold)
            engine.forget();
        QElapsedTimer timer;
        timer.start();
        auto page = engine.recognize(image, languages, QDeadlineTimer(120000));
        f.ms.push_back(timer.elapsed());
        if (!page) {
            std::fprintf(stderr, "ocr-bench: the engine failed: %s\n", qPrintable(page.error().message));
            std::exit(1);
        }
        f.words.clear();
        for (const Ocr::Line& line : page->lines) {
            for (const Ocr::Word& word : line.words) {
                if (word.confidence >= 0.4)
                    f.words.append(word.text);
            }
        }
    }
    return f;
}

// libtesseract as a program that takes its defaults would run it: Init with the languages, the
// whole image, the API's own page mode and engine, every word it gives.
Figures defaults(const QImage& image, const QStringList& languages)
{
    Figures f;
    tesseract::TessBaseAPI api;
    if (api.Init(nullptr, languages.join(QLatin1Char('+')).toUtf8().constData()) != 0) {
        std::fprintf(stderr, "ocr-bench: libtesseract could not load %s\n", qPrintable(languages.join(u'+')));
        std::exit(1);
    }
    const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
    for (int run = 0; run < kRuns; ++run) {
        QElapsedTimer timer;
        timer.start();
        api.SetImage(rgb.constBits(), rgb.width(), rgb.height(), 3, static_cast<int>(rgb.bytesPerLine()));
        api.Recognize(nullptr);
        f.words.clear();
        std::unique_ptr<tesseract::ResultIterator> it(api.GetIterator());
        if (it) {
            do {
                std::unique_ptr<char[]> text(it->GetUTF8Text(tesseract::RIL_WORD));
                if (text && it->Confidence(tesseract::RIL_WORD) >= 40)
                    f.words.append(QString::fromUtf8(text.get()));
            } while (it->Next(tesseract::RIL_WORD));
        }
        f.ms.push_back(timer.elapsed());
        api.Clear();
    }
    return f;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsEmpty("DISPLAY")) {
        std::printf("ocr-bench: no display (run it in scripts/test's desktop): skipped\n");
        return 77;
    }
    QProcess fixture;
    fixture.start(QStringLiteral(MDH_FIXTURE_BINARY), {QStringLiteral("--title"), QStringLiteral("OCR bench"),
                                                       QStringLiteral("--label"), QStringLiteral("确定保存设置")});
    if (!fixture.waitForStarted(5000)) {
        std::fprintf(stderr, "ocr-bench: the fixture did not start\n");
        return 1;
    }
    std::unique_ptr<DesktopBackend> backend = createPlatformBackend();
    const CallContext call(QDeadlineTimer(60000), std::make_shared<CancelToken>());
    Route route;
    route.pid = fixture.processId();
    std::optional<ResolvedRoute> resolved;
    std::optional<Snapshot> snapshot;
    for (int attempt = 0; attempt < 100 && !snapshot; ++attempt) {
        QThread::msleep(200);
        auto r = backend->resolveRoute(route, call);
        if (!r)
            continue;
        SnapshotBounds bounds;
        bounds.maxDepth = 40;
        bounds.maxNodes = 4000;
        bounds.includeText = true;
        auto s = backend->snapshot(r.value(), bounds, call);
        if (s && s->nodes.size() > 10) {
            resolved = r.value();
            snapshot = std::move(s.value());
        }
    }
    if (!snapshot) {
        std::fprintf(stderr, "ocr-bench: the fixture's window was not found through accessibility\n");
        fixture.kill();
        return 1;
    }
    QThread::msleep(500); // painted
    QStringList texts;
    for (const Node& node : std::as_const(snapshot->nodes)) {
        if (node.isSecure())
            continue;
        if (!node.title.isEmpty())
            texts.append(node.title);
        if (node.hasValue && !node.value.isEmpty())
            texts.append(node.value);
    }
    const QSet<QString> truth = tokens(texts);
    auto shot = backend->screenshot(call);
    QImage screen;
    if (!shot || !screen.loadFromData(shot->png, "PNG")) {
        std::fprintf(stderr, "ocr-bench: no screenshot\n");
        fixture.kill();
        return 1;
    }
    const Frame f = snapshot->nodes.first().frame;
    const QImage window = screen.copy(QRect(f.x, f.y, f.width, f.height));
    std::unique_ptr<Ocr::Engine> engine = Ocr::createPlatformEngine();

    std::printf("ocr-bench: %d runs per row; truth: %lld words accessibility reports for the fixture window\n", kRuns,
                static_cast<long long>(truth.size()));
    std::printf("%-22s %-12s %-26s %9s %9s %7s %7s\n", "image", "languages", "engine", "median", "vs dflt", "words",
                "recall");
    const QList<QPair<QString, QImage>> images{
        {QStringLiteral("window %1x%2").arg(window.width()).arg(window.height()), window},
        {QStringLiteral("screen %1x%2").arg(screen.width()).arg(screen.height()), screen}};
    const QList<QStringList> languageSets{{QStringLiteral("eng"), QStringLiteral("chi_sim")}, {QStringLiteral("eng")}};
    for (const auto& [name, image] : images) {
        for (const QStringList& languages : languageSets) {
            const Figures base = defaults(image, languages);
            const Figures cold = ours(*engine, image, languages, true);
            const Figures warm = ours(*engine, image, languages, false);
            const QString langs = languages.join(u'+');
            const auto row = [&](const char* label, const Figures& fig) {
                std::printf("%-22s %-12s %-26s %7lldms %8.2fx %7lld %6.0f%%\n", qPrintable(name), qPrintable(langs),
                            label, static_cast<long long>(fig.median()),
                            fig.median() > 0 ? double(base.median()) / fig.median() : 0.0,
                            static_cast<long long>(fig.words.size()), 100 * recall(truth, fig.words));
            };
            row("libtesseract defaults", base);
            row("host engine", cold);
            row("host, unchanged (cache)", warm);
        }
    }
    std::printf("ocr-bench: goals: a window <= 300 ms median, the screen <= 1000 ms, >= 2x the defaults, an "
                "unchanged window <= 30 ms, recall at least the defaults'\n");
    fixture.kill();
    fixture.waitForFinished(3000);
    return 0;
}
