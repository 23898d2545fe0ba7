#include "bridge/protocol/LineFramer.h"

namespace Bridge {

std::optional<LineFramer::Item> LineFramer::next()
{
    const qsizetype newline = m_buffer.indexOf('\n', m_scan);
    if (newline < 0) {
        m_scan = m_buffer.size();
        // A trailing '\r' may be the first half of a CRLF split across reads: it is not counted,
        // as it will not be once the '\n' arrives.
        qsizetype pending = pendingBytes();
        if (pending > 0 && m_buffer.endsWith('\r'))
            --pending;
        if (pending > m_max)
            return Item{Item::Kind::TooLong, {}};
        compact();
        return std::nullopt;
    }
    qsizetype end = newline;
    if (end > m_start && m_buffer.at(end - 1) == '\r')
        --end;
    const qsizetype length = end - m_start;
    Item item;
    if (length > m_max)
        item.kind = Item::Kind::TooLong;
    else
        item.line = m_buffer.mid(m_start, length);
    m_start = m_scan = newline + 1;
    compact();
    return item;
}

void LineFramer::compact()
{
    // Drop consumed bytes once they are the larger part, so appends stay amortised O(1).
    if (m_start == m_buffer.size()) {
        m_buffer.clear();
        m_start = m_scan = 0;
    } else if (m_start > 4096 && m_start * 2 > m_buffer.size()) {
        m_buffer.remove(0, m_start);
        m_scan -= m_start;
        m_start = 0;
    }
}

} // namespace Bridge
