#pragma once

#include <QByteArray>

#include <optional>

namespace Bridge {

/// Splits a byte stream into '\n'-terminated lines with a cap on the length of one line (one
/// message is one line of compact JSON; past the cap the stream is dropped, docs/architecture.md
/// "One request"). Never assumes that one read is one message. Used by the host and the client.
class LineFramer
{
public:
    static constexpr qsizetype kDefaultMaxLineBytes = qsizetype{16} * 1024 * 1024;

    struct Item
    {
        enum class Kind { Line, TooLong };
        Kind kind = Kind::Line;
        QByteArray line; ///< without the '\n' and a trailing '\r'
    };

    explicit LineFramer(qsizetype maxLineBytes = kDefaultMaxLineBytes) : m_max(maxLineBytes) {}

    void append(const QByteArray& bytes) { m_buffer.append(bytes); }
    void append(const char* data, qsizetype size) { m_buffer.append(data, size); }

    /// The next complete line, a TooLong marker once the current line passes the cap (the
    /// stream cannot be resynchronised after that: the caller closes it), or nullopt.
    std::optional<Item> next();

    /// Bytes of a line that has begun but not ended.
    qsizetype pendingBytes() const { return m_buffer.size() - m_start; }
    qsizetype maxLineBytes() const { return m_max; }

private:
    void compact();

    QByteArray m_buffer;
    qsizetype m_start = 0; ///< start of the current line in m_buffer
    qsizetype m_scan = 0;  ///< where the search for '\n' goes on
    qsizetype m_max;
};

} // namespace Bridge
