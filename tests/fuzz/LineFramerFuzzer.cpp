// Fuzz target LineFramer (docs/testing.md): bridge/LineFramer fed one stream in arbitrary
// chunks. Its items must equal a plain split of the whole stream (no byte lost or duplicated
// across chunk boundaries, no line over the cap, TooLong exactly where a line passes the cap).
//
// Input: byte 0 picks the cap (0..63 bytes, or the default 16 MiB for 0xF0 and above), byte 1
// seeds the chunk sizes, the rest is the stream.

#include "FuzzCheck.h"
#include "bridge/protocol/LineFramer.h"

#include <QList>

using Bridge::LineFramer;

namespace {

struct Expected
{
    QList<QByteArray> lines;
    bool tooLong = false; ///< the stream ends with a TooLong (and nothing after it counts)
    QByteArray pending;   ///< the unfinished last line when there is no TooLong
};

// The framing rules of docs/architecture.md ("One request", step 2), applied to the whole stream.
Expected split(const QByteArray& stream, qsizetype max)
{
    Expected out;
    qsizetype start = 0;
    for (;;) {
        const qsizetype newline = stream.indexOf('\n', start);
        if (newline < 0)
            break;
        QByteArray line = stream.mid(start, newline - start);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.size() > max) {
            out.tooLong = true;
            return out;
        }
        out.lines.append(line);
        start = newline + 1;
    }
    out.pending = stream.mid(start);
    qsizetype counted = out.pending.size();
    if (out.pending.endsWith('\r'))
        --counted; // possibly the first half of a CRLF
    if (counted > max)
        out.tooLong = true;
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    const qsizetype max = data[0] >= 0xF0 ? LineFramer::kDefaultMaxLineBytes : qsizetype(data[0] % 64);
    quint32 state = 0x9E3779B9u ^ (quint32(data[1]) * 0x01000193u);
    const QByteArray stream(reinterpret_cast<const char*>(data) + 2, qsizetype(size - 2));
    const Expected expected = split(stream, max);

    LineFramer framer(max);
    MDH_FUZZ_CHECK(framer.maxLineBytes() == max);
    QList<QByteArray> got;
    bool tooLong = false;
    qsizetype offset = 0;
    bool alternate = false;
    while (!tooLong && offset <= stream.size()) {
        // Chunks of 0..16 bytes (an empty read included), from a small xorshift.
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        const qsizetype chunk = std::min<qsizetype>(state % 17, stream.size() - offset);
        if (alternate)
            framer.append(stream.mid(offset, chunk));
        else
            framer.append(stream.constData() + offset, chunk);
        alternate = !alternate;
        offset += chunk;
        while (auto item = framer.next()) {
            if (item->kind == LineFramer::Item::Kind::TooLong) {
                MDH_FUZZ_CHECK(item->line.isEmpty());
                tooLong = true;
                break;
            }
            MDH_FUZZ_CHECK_MSG(item->line.size() <= max, item->line);
            MDH_FUZZ_CHECK_MSG(!item->line.contains('\n'), item->line);
            got.append(item->line);
        }
        if (offset == stream.size())
            break;
    }

    MDH_FUZZ_CHECK(tooLong == expected.tooLong);
    MDH_FUZZ_CHECK(got.size() == expected.lines.size());
    for (qsizetype i = 0; i < got.size(); ++i)
        MDH_FUZZ_CHECK_MSG(got.at(i) == expected.lines.at(i), got.at(i) + " vs " + expected.lines.at(i));
    if (!tooLong)
        MDH_FUZZ_CHECK(framer.pendingBytes() == expected.pending.size());
    return 0;
}
