#include "mcp/McpStdio.h"

#include <QList>

namespace Mcp {

Stdio::Read Stdio::read()
{
    if (m_framing == Framing::Unknown) {
        int first = std::fgetc(m_in);
        // Blank lines before the first message say nothing about the framing.
        while (first == '\n' || first == '\r' || first == ' ' || first == '\t')
            first = std::fgetc(m_in);
        if (first == EOF)
            return {};
        std::ungetc(first, m_in);
        m_framing = first == 'C' ? Framing::ContentLength : Framing::Lines;
    }
    return m_framing == Framing::ContentLength ? readFrame() : readLine();
}

Stdio::Read Stdio::readLine()
{
    QByteArray line;
    bool tooLong = false;
    while (true) {
        const int c = std::fgetc(m_in);
        if (c == EOF) {
            // A message cut off by the end of input is not a message.
            return {};
        }
        if (c == '\n') {
            if (tooLong)
                return Read{Read::Kind::TooLong, {}};
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.trimmed().isEmpty()) {
                line.clear();
                continue; // blank lines between messages are allowed
            }
            return Read{Read::Kind::Message, line};
        }
        if (tooLong)
            continue;
        if (line.size() >= kMaxMessageBytes) {
            tooLong = true;
            line = QByteArray();
            continue;
        }
        line.append(static_cast<char>(c));
    }
}

Stdio::Read Stdio::readFrame()
{
    qint64 length = -1;
    QByteArray header;
    while (true) {
        const int c = std::fgetc(m_in);
        if (c == EOF)
            return {};
        if (c != '\n') {
            if (header.size() > 1024)
                return Read{Read::Kind::BadHeader, {}};
            header.append(static_cast<char>(c));
            continue;
        }
        if (header.endsWith('\r'))
            header.chop(1);
        if (header.isEmpty()) {
            if (length >= 0)
                break; // the blank line after the headers
            continue;  // blank lines between frames
        }
        const qsizetype colon = header.indexOf(':');
        if (colon > 0 && header.left(colon).trimmed().compare("content-length", Qt::CaseInsensitive) == 0) {
            bool ok = false;
            length = header.mid(colon + 1).trimmed().toLongLong(&ok);
            if (!ok || length < 0)
                return Read{Read::Kind::BadHeader, {}};
        }
        header.clear();
    }
    if (length > kMaxMessageBytes) {
        for (qint64 i = 0; i < length; ++i) {
            if (std::fgetc(m_in) == EOF)
                return {};
        }
        return Read{Read::Kind::TooLong, {}};
    }
    QByteArray body(length, Qt::Uninitialized);
    if (length > 0 && std::fread(body.data(), 1, static_cast<size_t>(length), m_in) != static_cast<size_t>(length))
        return {};
    return Read{Read::Kind::Message, body};
}

void Stdio::write(const QByteArray& message)
{
    if (m_framing == Framing::ContentLength) {
        const QByteArray header = "Content-Length: " + QByteArray::number(message.size()) + "\r\n\r\n";
        std::fwrite(header.constData(), 1, static_cast<size_t>(header.size()), m_out);
        std::fwrite(message.constData(), 1, static_cast<size_t>(message.size()), m_out);
    } else {
        std::fwrite(message.constData(), 1, static_cast<size_t>(message.size()), m_out);
        std::fputc('\n', m_out);
    }
    std::fflush(m_out);
}

} // namespace Mcp
