#include "automation/Operations.h"

#include <QCryptographicHash>

namespace Automation::Operations {

namespace {

QJsonObject contentJson(const ClipboardContent& content)
{
    QJsonObject out{{QStringLiteral("formats"), QJsonArray::fromStringList(content.formats)},
                    {QStringLiteral("concealed"), content.concealed},
                    {QStringLiteral("empty"), content.empty}};
    if (content.text)
        out.insert(QStringLiteral("length"), static_cast<int>(content.text->size()));
    if (!content.imageSize.isEmpty())
        out.insert(QStringLiteral("image"), QJsonObject{{QStringLiteral("width"), content.imageSize.width()},
                                                        {QStringLiteral("height"), content.imageSize.height()}});
    return out;
}

} // namespace

Result<ClipboardReadResult> readClipboard(JobContext& ctx, const ClipboardReadRequest& request)
{
    TraceStep step(ctx.trace, QStringLiteral("clipboard.read"));
    auto read = ctx.backend.readClipboard(ctx.call);
    if (!read) {
        step.finish(false, read.error().toJson());
        return read.error();
    }
    ClipboardReadResult out;
    out.content = read.value();
    // The trace keeps what was there, never the text itself.
    QJsonObject seen = contentJson(out.content);
    if (out.content.text) {
        const QString& text = *out.content.text;
        seen.insert(QStringLiteral("sha256"),
                    QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex()));
        switch (request.redaction) {
        case Redaction::None:
            out.text = text;
            break;
        case Redaction::Patterns:
            out.text = redactPatterns(text, &out.redactions);
            break;
        case Redaction::Hash:
            out.sha256 = seen.value(QStringLiteral("sha256")).toString();
            break;
        }
    }
    // An image is evidence, kept whole; the answer has its size.
    if (!out.content.png.isEmpty()) {
        if (auto failed = ctx.trace.keepImage(QStringLiteral("clipboard.png"), out.content.png))
            seen.insert(QStringLiteral("imageNotKept"), failed->message);
        else
            out.imageKept = QStringLiteral("clipboard.png");
    }
    step.finish(true, seen);
    return out;
}

Result<ClipboardWriteResult> writeClipboard(JobContext& ctx, const ClipboardWriteRequest& request)
{
    TraceStep step(ctx.trace, QStringLiteral("clipboard.write"));
    if (auto stop = ctx.call.checkpoint()) {
        step.finish(false, stop->toJson());
        return *stop;
    }
    auto written = ctx.backend.writeClipboard(request.text, request.restoreAfterMs, ctx.call);
    if (!written) {
        step.finish(false, written.error().toJson());
        return written.error();
    }
    ClipboardWriteResult out;
    out.write = written.value();
    out.verification.expected = QStringLiteral("the clipboard reads back the text");
    out.verification.effect = out.write.verified ? Effect::Confirmed : Effect::SuspectedNoop;
    out.verification.observed = QJsonObject{{QStringLiteral("readBack"), out.write.verified}};
    if (!out.write.verified)
        out.verification.reason = QStringLiteral("a reader of its own did not get the text back");
    QJsonObject details{{QStringLiteral("length"), static_cast<int>(request.text.size())},
                        {QStringLiteral("verified"), out.write.verified},
                        {QStringLiteral("previous"), contentJson(out.write.previous)},
                        {QStringLiteral("restoreScheduled"), out.write.restoreScheduled}};
    if (!out.write.notRestorable.isEmpty())
        details.insert(QStringLiteral("notRestorable"), out.write.notRestorable);
    step.finish(out.write.verified, details);
    return out;
}

} // namespace Automation::Operations
