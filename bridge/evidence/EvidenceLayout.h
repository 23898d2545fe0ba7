#pragma once

#include <QByteArray>
#include <QDate>
#include <QDateTime>
#include <QString>

#include <optional>

/// The names of everything the host writes as evidence, in one place for the writers
/// (ExecutionRecord, Journal, the methods) and the readers (EvidenceReader):
/// `<workspace>/artifacts/desktop/<YYYY-MM-DD, UTC>/<executionId>/` (docs/architecture.md,
/// "Evidence"). Header-only, so every target that compiles the evidence sources gets it.
namespace Evidence::Layout {

/// Below the workspace: the date folders of every execution.
inline QString artifactsRoot()
{
    return QStringLiteral("artifacts/desktop");
}

/// The request as received (typed text replaced by its length and SHA-256 unless kept by choice).
inline QString requestFile()
{
    return QStringLiteral("request.json");
}

/// Host, OS, display, permissions, backend and caller at the time of the request.
inline QString envFile()
{
    return QStringLiteral("env.json");
}

/// One JSON object per line and step: t, sinceStartMs, step, ms, ok, details.
inline QString traceFile()
{
    return QStringLiteral("trace.jsonl");
}

/// The JSON-RPC answer as sent.
inline QString responseFile()
{
    return QStringLiteral("response.json");
}

/// A human-readable page: outcome, times, files, the trace as a table.
inline QString summaryFile()
{
    return QStringLiteral("summary.md");
}

/// The accessibility tree (Automation::Snapshot::toJsonText).
inline QString axTreeFile()
{
    return QStringLiteral("ax.json");
}

/// The folder of selector results, and the ranked candidates of the execution's selector.
inline QString selectorsFolder()
{
    return QStringLiteral("selectors");
}
inline QString candidatesFile()
{
    return QStringLiteral("selectors/candidates.json");
}

/// Screenshots: desktop.observe's, and those around an input.
inline QString observeScreenshot()
{
    return QStringLiteral("observe.png");
}
/// observe.png sized as options.maxWidth / maxPixels asked (only when smaller).
inline QString observeSizedScreenshot()
{
    return QStringLiteral("observe.sized.png");
}
inline QString beforeScreenshot()
{
    return QStringLiteral("before.png");
}
inline QString afterScreenshot()
{
    return QStringLiteral("after.png");
}
/// desktop.capture's image.
inline QString captureFile()
{
    return QStringLiteral("capture.png");
}

/// desktop.ocr's capture as recognised (covered parts and secure fields blank; not kept with
/// redactionMode "hash") and what it read (texts redacted as the request asked).
inline QString ocrScreenshot()
{
    return QStringLiteral("ocr.png");
}
inline QString ocrFile()
{
    return QStringLiteral("ocr.json");
}

/// The trace step written last by an execution that answered (details.outcome: "ok" or the
/// error code; sinceStartMs: the execution's duration)...
inline QString answerStep()
{
    return QStringLiteral("answer");
}
/// ...and the one the next host appends to an execution it found open in the journal.
inline QString interruptedStep()
{
    return QStringLiteral("interrupted");
}

/// The host's journal of open executions, in its data directory (not in a workspace).
inline QString journalFile()
{
    return QStringLiteral("open-executions.txt");
}

/// The date folder of an execution received at `receivedAt`: its UTC date, YYYY-MM-DD.
inline QString dateFolder(const QDateTime& receivedAt)
{
    return receivedAt.toUTC().date().toString(Qt::ISODate);
}

/// The date a folder name stands for, or nullopt when the name is not exactly YYYY-MM-DD.
inline std::optional<QDate> dateOfFolder(const QString& name)
{
    if (name.size() != 10)
        return std::nullopt;
    const QDate date = QDate::fromString(name, Qt::ISODate);
    if (!date.isValid() || date.toString(Qt::ISODate) != name)
        return std::nullopt;
    return date;
}

/// artifacts/desktop/<UTC date>/<executionId>, relative to the workspace.
inline QString relativeDir(const QDateTime& receivedAt, const QString& executionId)
{
    return artifactsRoot() + QLatin1Char('/') + dateFolder(receivedAt) + QLatin1Char('/') + executionId;
}

/// A file being written goes first to ".<name>.tmp-<random hex>" next to it, then is renamed.
inline QByteArray temporaryName(const QByteArray& finalName, quint64 random)
{
    return QByteArrayLiteral(".") + finalName + QByteArrayLiteral(".tmp-") + QByteArray::number(random, 16);
}

/// Whether a file name is such a temporary file (left behind when a write was interrupted).
inline bool isTemporaryName(const QByteArray& name)
{
    return name.startsWith('.') && name.contains(".tmp-");
}
inline bool isTemporaryName(const QString& name)
{
    return name.startsWith(QLatin1Char('.')) && name.contains(QLatin1String(".tmp-"));
}

} // namespace Evidence::Layout
