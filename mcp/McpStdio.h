#pragma once

#include <QByteArray>

#include <cstdio>
#include <optional>

namespace Mcp {

/// MCP's stdio transport as clients speak it: newline-delimited JSON, or LSP-style
/// `Content-Length: N\r\n\r\n{json}` frames; which one is decided by the first byte (`C` for
/// frames, anything else lines) and answers go out the same way. Blocking, one thread.
class Stdio
{
public:
    enum class Framing { Unknown, Lines, ContentLength };
    /// What reading one message gave.
    struct Read
    {
        enum class Kind { Message, TooLong, BadHeader, End };
        Kind kind = Kind::End;
        QByteArray bytes; ///< the message (Message), without its newline
    };

    /// Messages longer than this are refused and skipped (the host caps its own lines at 16 MiB).
    static constexpr qsizetype kMaxMessageBytes = 16 * 1024 * 1024;

    Stdio(std::FILE* in, std::FILE* out) : m_in(in), m_out(out) {}

    Read read();
    void write(const QByteArray& message);
    Framing framing() const { return m_framing; }

private:
    Read readLine();
    Read readFrame();

    std::FILE* m_in;
    std::FILE* m_out;
    Framing m_framing = Framing::Unknown;
};

} // namespace Mcp
