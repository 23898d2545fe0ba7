#include "automation/ocr/TextRegions.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace Automation::Ocr {

namespace {

// Union-find over the runs of the smeared edge mask.
struct Runs
{
    std::vector<int> parent;
    int find(int i)
    {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }
    void join(int a, int b)
    {
        a = find(a);
        b = find(b);
        if (a != b)
            parent[std::max(a, b)] = std::min(a, b);
    }
};

struct Run
{
    int y;
    int x0;
    int x1; // inclusive
};

} // namespace

QList<QRect> findTextRegions(const QImage& gray, const TextRegionOptions& options)
{
    const int w = gray.width();
    const int h = gray.height();
    if (w < 2 || h < 2 || gray.format() != QImage::Format_Grayscale8)
        return {};

    // 1. Horizontal edges: a pixel that differs from its left neighbour by the contrast.
    std::vector<quint8> edge(static_cast<size_t>(w) * h, 0);
    for (int y = 0; y < h; ++y) {
        const uchar* row = gray.constScanLine(y);
        quint8* out = edge.data() + static_cast<size_t>(y) * w;
        for (int x = 1; x < w; ++x)
            out[x] = std::abs(int(row[x]) - int(row[x - 1])) >= options.contrast ? 1 : 0;
    }
    // 2. Rules are not glyphs: an edge that runs down more rows than any glyph is dropped (window
    //    borders, panel dividers), so that it does not join every line beside it into one piece.
    for (int x = 1; x < w; ++x) {
        int start = -1;
        for (int y = 0; y <= h; ++y) {
            const bool on = y < h && edge[static_cast<size_t>(y) * w + x];
            if (on && start < 0)
                start = y;
            if (!on && start >= 0) {
                if (y - start > options.longestStroke) {
                    for (int k = start; k < y; ++k)
                        edge[static_cast<size_t>(k) * w + x] = 0;
                }
                start = -1;
            }
        }
    }
    // 3. Runs per row: edges closer than a word gap are one run.
    std::vector<Run> runs;
    std::vector<int> rowStart(static_cast<size_t>(h) + 1, 0);
    for (int y = 0; y < h; ++y) {
        rowStart[y] = static_cast<int>(runs.size());
        const quint8* row = edge.data() + static_cast<size_t>(y) * w;
        int x0 = -1;
        int last = -1;
        for (int x = 1; x < w; ++x) {
            if (!row[x])
                continue;
            if (x0 >= 0 && x - last <= options.wordGap) {
                last = x;
                continue;
            }
            if (x0 >= 0)
                runs.push_back({y, x0, last});
            x0 = x;
            last = x;
        }
        if (x0 >= 0)
            runs.push_back({y, x0, last});
    }
    rowStart[h] = static_cast<int>(runs.size());
    // 4. Runs that overlap in neighbouring rows are one piece.
    Runs sets;
    sets.parent.resize(runs.size());
    std::iota(sets.parent.begin(), sets.parent.end(), 0);
    for (int y = 1; y < h; ++y) {
        int i = rowStart[y - 1];
        int j = rowStart[y];
        while (i < rowStart[y] && j < rowStart[y + 1]) {
            const Run& a = runs[i];
            const Run& b = runs[j];
            if (a.x1 + 1 >= b.x0 && b.x1 + 1 >= a.x0)
                sets.join(i, j);
            if (a.x1 < b.x1)
                ++i;
            else
                ++j;
        }
    }
    std::vector<QRect> boxes(runs.size());
    for (size_t i = 0; i < runs.size(); ++i) {
        const int root = sets.find(static_cast<int>(i));
        const QRect r(QPoint(runs[i].x0 - 1, runs[i].y), QPoint(runs[i].x1, runs[i].y));
        boxes[root] = boxes[root].isNull() ? r : boxes[root].united(r);
    }
    // 5. Padded, noise dropped, and pieces that then overlap merged until none does.
    const QRect whole(0, 0, w, h);
    QList<QRect> pieces;
    for (size_t i = 0; i < runs.size(); ++i) {
        if (sets.parent[i] != static_cast<int>(i))
            continue;
        const QRect& b = boxes[i];
        if (b.height() < options.minHeight || b.width() < 3)
            continue;
        pieces.append(
            b.adjusted(-options.padding, -options.padding, options.padding, options.padding).intersected(whole));
    }
    bool merged = true;
    while (merged) {
        merged = false;
        for (int i = 0; i < pieces.size() && !merged; ++i) {
            for (int j = i + 1; j < pieces.size(); ++j) {
                if (pieces[i].intersects(pieces[j])) {
                    pieces[i] = pieces[i].united(pieces[j]);
                    pieces.removeAt(j);
                    merged = true;
                    break;
                }
            }
        }
    }
    std::sort(pieces.begin(), pieces.end(), [](const QRect& a, const QRect& b) {
        return a.top() != b.top() ? a.top() < b.top() : a.left() < b.left();
    });
    return pieces;
}

} // namespace Automation::Ocr
