// The macOS backend's clipboard (MacBackend.h): the general pasteboard, read and written through
// AxApi; a copy marked org.nspasteboard.ConcealedType is never read.
#include "automation/backends/macos/MacBackendPrivate.h"

#include <QBuffer>
#include <QImage>
#include <QTimer>

namespace Automation::Mac {

namespace {

const QString kText = QStringLiteral("public.utf8-plain-text");
const QString kPng = QStringLiteral("public.png");
const QString kTiff = QStringLiteral("public.tiff");
const QString kConcealed = QStringLiteral("org.nspasteboard.ConcealedType");

ClipboardContent readPasteboard(AxApi& api)
{
    ClipboardContent out;
    out.formats = api.pasteboardTypes();
    out.empty = out.formats.isEmpty();
    out.concealed = out.formats.contains(kConcealed);
    if (out.concealed || out.empty)
        return out;
    if (out.formats.contains(kText))
        out.text = api.pasteboardString();
    // An image as PNG (a TIFF, as screenshots are copied, converted).
    QByteArray png = out.formats.contains(kPng) ? api.pasteboardData(kPng) : QByteArray();
    if (png.isEmpty() && out.formats.contains(kTiff)) {
        const QImage tiff = QImage::fromData(api.pasteboardData(kTiff), "TIFF");
        if (!tiff.isNull()) {
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            tiff.save(&buffer, "PNG");
        }
    }
    if (!png.isEmpty()) {
        const QImage image = QImage::fromData(png, "PNG");
        if (!image.isNull()) {
            out.png = png;
            out.imageSize = image.size();
        }
    }
    return out;
}

} // namespace

Result<ClipboardContent> MacBackend::readClipboard(const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    return readPasteboard(*m_api);
}

Result<ClipboardWrite> MacBackend::writeClipboard(const QString& text, int restoreAfterMs, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    ClipboardWrite out;
    out.previous = readPasteboard(*m_api);
    if (!m_api->setPasteboardString(text))
        return Error::make(ErrorCode::InternalError, QStringLiteral("the pasteboard did not take the text"));
    const qint64 ours = m_api->pasteboardChangeCount();
    out.verified = m_api->pasteboardString() == std::optional<QString>(text);
    if (restoreAfterMs > 0) {
        if (out.previous.concealed) {
            out.notRestorable = QStringLiteral("concealed");
        } else if (!out.previous.empty && !out.previous.text) {
            out.notRestorable = QStringLiteral("not_text");
        } else {
            // On the worker's own event loop, later: only while nobody copied since.
            const std::weak_ptr<bool> alive = d->alive;
            const std::optional<QString> previous = out.previous.text;
            AxApi* api = m_api.get();
            QTimer::singleShot(restoreAfterMs, [alive, api, ours, previous] {
                if (alive.expired() || api->pasteboardChangeCount() != ours)
                    return;
                api->setPasteboardString(previous.value_or(QString()));
            });
            out.restoreScheduled = true;
        }
    }
    return out;
}

} // namespace Automation::Mac
