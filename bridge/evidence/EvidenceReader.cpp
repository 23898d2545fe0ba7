#include "bridge/evidence/EvidenceReader.h"

#include "bridge/evidence/EvidenceLayout.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>

#include <algorithm>
#include <cstdlib>
#include <deque>

namespace Evidence {

Q_LOGGING_CATEGORY(lcEvidenceReader, "msgcode.evidence.reader")

using Automation::Error;
using Automation::ErrorCode;
using Automation::Result;

namespace {

// What the listing reads of each execution: enough for its small files, never a big one whole.
constexpr qint64 kSmallFileBytes = qint64{1024} * 1024;
constexpr qint64 kTraceEdgeBytes = qint64{64} * 1024;
constexpr qint64 kTraceScanBytes = qint64{8} * 1024 * 1024;
// summary.md's "Received" and the time derived from the trace differ by the clock's resolution.
constexpr qint64 kReceivedToleranceMs = 2000;
// Artifacts sit at most a few folders deep (selectors/candidates.json).
constexpr int kMaxArtifactDepth = 4;

Error readError(const QString& reason, const QString& message, const QString& file = {})
{
    QJsonObject details{{QStringLiteral("reason"), reason}};
    if (!file.isEmpty())
        details.insert(QStringLiteral("file"), file);
    return Error::make(ErrorCode::InvalidRequest, message, details);
}

// The record's own files: a directory holding none of them is not an execution.
bool isRecordFile(const QString& name)
{
    return name == Layout::requestFile() || name == Layout::traceFile() || name == Layout::summaryFile() ||
           name == Layout::responseFile();
}

const Directory::Entry* entryNamed(const QList<Directory::Entry>& entries, const QString& name)
{
    for (const auto& entry : entries) {
        if (entry.name == name)
            return &entry;
    }
    return nullptr;
}

std::optional<QJsonObject> parseObject(const QByteArray& bytes, QString* error)
{
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("not JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString());
        return std::nullopt;
    }
    if (!document.isObject()) {
        *error = QStringLiteral("not a JSON object");
        return std::nullopt;
    }
    return document.object();
}

std::optional<TraceStep> parseStep(const QByteArray& line, QString* error)
{
    const auto object = parseObject(line, error);
    if (!object)
        return std::nullopt;
    TraceStep step;
    step.step = object->value(QStringLiteral("step")).toString();
    if (step.step.isEmpty()) {
        *error = QStringLiteral("no step name");
        return std::nullopt;
    }
    step.t = QDateTime::fromString(object->value(QStringLiteral("t")).toString(), Qt::ISODateWithMs);
    if (step.t.isValid())
        step.t = step.t.toUTC();
    const QJsonValue since = object->value(QStringLiteral("sinceStartMs"));
    step.sinceStartMs = since.isDouble() ? static_cast<qint64>(since.toDouble()) : -1;
    step.ms = static_cast<qint64>(object->value(QStringLiteral("ms")).toDouble());
    step.ok = object->value(QStringLiteral("ok")).toBool();
    step.details = object->value(QStringLiteral("details")).toObject();
    return step;
}

// The complete lines of a part of trace.jsonl: without the first when the part starts inside the
// file (it is probably cut), without a last one that has no newline yet (being written).
QList<QByteArray> completeLines(const QByteArray& part, bool startsInside)
{
    QList<QByteArray> lines = part.split('\n');
    if (!lines.isEmpty())
        lines.removeLast(); // after the last '\n': empty, or a line not finished
    if (startsInside && !lines.isEmpty())
        lines.removeFirst();
    lines.removeIf([](const QByteArray& line) { return line.trimmed().isEmpty(); });
    return lines;
}

// summary.md's first line, "# <method> — <executionId>" (ExecutionRecord's summary; no
// translated text in it).
QString methodFromSummary(const QByteArray& summary, const QString& executionId)
{
    const QString first = QString::fromUtf8(summary.left(summary.indexOf('\n')));
    const QString tail = QStringLiteral(" — ") + executionId;
    if (!first.startsWith(QLatin1String("# ")) || !first.endsWith(tail))
        return {};
    const QString method = first.mid(2, first.size() - 2 - tail.size());
    return method.contains(QLatin1Char(' ')) ? QString() : method;
}

// The timestamps written as "- <label>: <ISO time with ms>" in summary.md's first list (the
// file list and the trace table follow a "## " heading). The labels are translated, so the
// value's form is what finds the "Received" line.
QList<QDateTime> summaryTimes(const QByteArray& summary)
{
    QList<QDateTime> out;
    for (const QByteArray& raw : summary.split('\n')) {
        if (raw.startsWith("## "))
            break;
        if (!raw.startsWith("- "))
            continue;
        const qsizetype colon = raw.indexOf(": ");
        if (colon < 0)
            continue;
        const QString value = QString::fromUtf8(raw.mid(colon + 2)).trimmed();
        const QDateTime time = QDateTime::fromString(value, Qt::ISODateWithMs);
        if (time.isValid() && value.contains(QLatin1Char('T')))
            out.append(time.toUTC());
    }
    return out;
}

QDateTime sortTime(const ExecutionInfo& info)
{
    return info.receivedAt.isValid() ? info.receivedAt : QDateTime(info.date, QTime(0, 0), Qt::UTC);
}

} // namespace

EvidenceReader::EvidenceReader(const QString& workspacePath)
{
    const QFileInfo info(workspacePath);
    if (info.isDir()) {
        const QString real = info.canonicalFilePath();
        if (real.startsWith(QLatin1Char('/')))
            m_workspace = real;
    }
}

Result<EvidenceReader::Listing> EvidenceReader::list() const
{
    if (m_workspace.isEmpty())
        return readError(QStringLiteral("not_found"), QStringLiteral("the workspace does not exist"));
    Listing listing;
    QString error;
    const auto root = Directory::openExisting(m_workspace, Layout::artifactsRoot(), &error);
    if (!root) {
        // No evidence yet is an empty list; anything else in the way (a link, a file) is an error.
        QString walked = m_workspace;
        for (const QString& part : Layout::artifactsRoot().split(QLatin1Char('/'))) {
            walked += QLatin1Char('/') + part;
            const QFileInfo component(walked);
            if (component.isSymLink())
                break;
            if (!component.exists())
                return listing;
        }
        return readError(error.contains(QLatin1String("symbolic link")) ? QStringLiteral("symlink")
                                                                        : QStringLiteral("unreadable"),
                         error);
    }
    const QString rootRelative = Layout::artifactsRoot() + QLatin1Char('/');
    for (const auto& dateEntry : root->entries()) {
        const QString datePath = rootRelative + dateEntry.name;
        if (dateEntry.type == Directory::Entry::Type::Symlink) {
            listing.skipped.append({datePath, QStringLiteral("symlink")});
            continue;
        }
        const auto date = Layout::dateOfFolder(dateEntry.name);
        if (dateEntry.type != Directory::Entry::Type::Directory || !date) {
            listing.skipped.append({datePath, QStringLiteral("not_a_date_folder")});
            continue;
        }
        const auto dateDir = root->subdirectory(dateEntry.name, &error);
        if (!dateDir) {
            listing.skipped.append({datePath, QStringLiteral("unreadable")});
            continue;
        }
        for (const auto& entry : dateDir->entries()) {
            const QString path = datePath + QLatin1Char('/') + entry.name;
            if (entry.type == Directory::Entry::Type::Symlink) {
                listing.skipped.append({path, QStringLiteral("symlink")});
                continue;
            }
            if (entry.type != Directory::Entry::Type::Directory) {
                listing.skipped.append({path, QStringLiteral("not_a_directory")});
                continue;
            }
            const auto dir = dateDir->subdirectory(entry.name, &error);
            if (!dir) {
                listing.skipped.append({path, QStringLiteral("unreadable")});
                continue;
            }
            QString reason;
            if (auto info = describe(*dir, entry.name, *date, &reason))
                listing.executions.append(std::move(*info));
            else
                listing.skipped.append({path, reason});
        }
    }
    std::stable_sort(listing.executions.begin(), listing.executions.end(),
                     [](const ExecutionInfo& a, const ExecutionInfo& b) {
                         const QDateTime ta = sortTime(a), tb = sortTime(b);
                         if (ta != tb)
                             return ta > tb;
                         return a.executionId > b.executionId;
                     });
    return listing;
}

std::optional<ExecutionInfo> EvidenceReader::describe(const Directory& dir, const QString& id, const QDate& date,
                                                      QString* skipReason) const
{
    const QList<Directory::Entry> entries = dir.entries();
    const auto file = [&](const QString& name) -> const Directory::Entry* {
        const auto* entry = entryNamed(entries, name);
        return entry && entry->type == Directory::Entry::Type::File ? entry : nullptr;
    };
    if (std::none_of(entries.cbegin(), entries.cend(), [](const Directory::Entry& entry) {
            return entry.type == Directory::Entry::Type::File && isRecordFile(entry.name);
        })) {
        *skipReason = QStringLiteral("not_an_execution");
        return std::nullopt;
    }
    ExecutionInfo info;
    info.executionId = id;
    info.date = date;
    info.relativeDir = Layout::artifactsRoot() + QLatin1Char('/') + date.toString(Qt::ISODate) + QLatin1Char('/') + id;
    info.dirPath = dir.path();

    QString error;
    if (const auto* request = file(Layout::requestFile()); request && request->size <= kSmallFileBytes) {
        if (auto bytes = dir.readPart(Layout::requestFile(), 0, kSmallFileBytes, &error)) {
            if (auto object = parseObject(*bytes, &error))
                info.method = object->value(QStringLiteral("method")).toString();
        }
    }
    QByteArray summary;
    if (const auto* entry = file(Layout::summaryFile()); entry && entry->size <= kSmallFileBytes)
        summary = dir.readPart(Layout::summaryFile(), 0, kSmallFileBytes, &error).value_or(QByteArray());
    const QString summaryMethod = methodFromSummary(summary, id);
    if (info.method.isEmpty())
        info.method = summaryMethod;

    // The trace: its first step dates the receipt, the answer step (near the end) gives the
    // outcome and duration, an "interrupted" step (appended last) says the host stopped.
    QDateTime estimate;
    if (const auto* trace = file(Layout::traceFile())) {
        bool more = false;
        const QByteArray head =
            dir.readPart(Layout::traceFile(), 0, kTraceEdgeBytes, &error, &more).value_or(QByteArray());
        for (const QByteArray& line : completeLines(head, false)) {
            if (auto step = parseStep(line, &error); step && step->t.isValid() && step->sinceStartMs >= 0) {
                estimate = step->t.addMSecs(-step->sinceStartMs);
                break;
            }
        }
        QList<QByteArray> lines;
        if (!more) {
            lines = completeLines(head, false);
        } else {
            const QByteArray tail =
                dir.readPart(Layout::traceFile(), -1, kTraceEdgeBytes, &error).value_or(QByteArray());
            lines = completeLines(tail, true);
        }
        const auto scan = [&](const QList<QByteArray>& candidates) {
            // NOLINTNEXTLINE(modernize-loop-convert): in reverse; clang 14 cannot build std::views::reverse
            for (auto it = candidates.crbegin(); it != candidates.crend(); ++it) {
                const auto step = parseStep(*it, &error);
                if (!step)
                    continue;
                if (step->step == Layout::interruptedStep())
                    info.interrupted = true;
                if (step->step == Layout::answerStep() && !info.answered) {
                    info.answered = true;
                    info.outcome = step->details.value(QStringLiteral("outcome")).toString();
                    info.durationMs = step->sinceStartMs;
                }
            }
        };
        scan(lines);
        // Late steps after the answer are few; a trace that buries its answer deeper is read
        // further, up to a bound.
        if (!info.answered && more && trace->size <= kTraceScanBytes) {
            if (auto whole = dir.readPart(Layout::traceFile(), 0, kTraceScanBytes, &error))
                scan(completeLines(*whole, false));
        }
    }
    if (!info.answered) {
        // No answer in the trace (cut short, or missing): response.json still says what was answered.
        if (const auto* response = file(Layout::responseFile()); response && response->size <= kSmallFileBytes) {
            if (auto bytes = dir.readPart(Layout::responseFile(), 0, kSmallFileBytes, &error)) {
                if (auto object = parseObject(*bytes, &error)) {
                    if (object->contains(QStringLiteral("result"))) {
                        info.answered = true;
                        info.outcome = QStringLiteral("ok");
                    } else if (const QString code = object->value(QStringLiteral("error"))
                                                        .toObject()
                                                        .value(QStringLiteral("code"))
                                                        .toString();
                               !code.isEmpty()) {
                        info.answered = true;
                        info.outcome = code;
                    }
                }
            }
        }
    }

    // summary.md holds the exact time, among other bullets whose labels are translated: the one
    // that agrees with the trace's estimate; else, in the host's own summary, the last time before
    // the file list (only the caller's executable follows it); else the estimate.
    const QList<QDateTime> times = summaryTimes(summary);
    for (const QDateTime& time : times) {
        if (estimate.isValid() && std::abs(time.msecsTo(estimate)) <= kReceivedToleranceMs) {
            info.receivedAt = time;
            break;
        }
    }
    if (!info.receivedAt.isValid() && !summaryMethod.isEmpty() && !times.isEmpty())
        info.receivedAt = times.last();
    if (!info.receivedAt.isValid())
        info.receivedAt = estimate;
    return info;
}

Result<ExecutionInfo> EvidenceReader::find(const QString& executionId) const
{
    if (!isPlainRelativePath(executionId) || executionId.contains(QLatin1Char('/')))
        return readError(QStringLiteral("invalid_id"),
                         QStringLiteral("\"%1\" is not an execution id (a directory name)").arg(executionId));
    if (m_workspace.isEmpty())
        return readError(QStringLiteral("not_found"), QStringLiteral("the workspace does not exist"));
    QString error;
    const auto root = Directory::openExisting(m_workspace, Layout::artifactsRoot(), &error);
    if (root) {
        const auto dates = root->entries();
        // Newest date first: an id found there is the newest execution of that name.
        // NOLINTNEXTLINE(modernize-loop-convert): newest first; clang 14 cannot build std::views::reverse
        for (auto dateIt = dates.crbegin(); dateIt != dates.crend(); ++dateIt) {
            const auto& dateEntry = *dateIt;
            const auto date = Layout::dateOfFolder(dateEntry.name);
            if (dateEntry.type != Directory::Entry::Type::Directory || !date)
                continue;
            const auto dateDir = root->subdirectory(dateEntry.name, &error);
            if (!dateDir)
                continue;
            for (const auto& entry : dateDir->entries()) {
                if (entry.name.compare(executionId, Qt::CaseInsensitive) != 0)
                    continue;
                const QString path =
                    Layout::artifactsRoot() + QLatin1Char('/') + dateEntry.name + QLatin1Char('/') + entry.name;
                if (entry.type == Directory::Entry::Type::Symlink)
                    return readError(
                        QStringLiteral("symlink"),
                        QStringLiteral("%1 is a symbolic link; evidence is never read through one").arg(path));
                if (entry.type != Directory::Entry::Type::Directory)
                    return readError(QStringLiteral("not_an_execution"),
                                     QStringLiteral("%1 is not a directory").arg(path));
                const auto dir = dateDir->subdirectory(entry.name, &error);
                if (!dir)
                    return readError(QStringLiteral("unreadable"), error);
                QString reason;
                if (auto info = describe(*dir, entry.name, *date, &reason))
                    return *info;
                return readError(reason, QStringLiteral("%1 holds no execution record").arg(path));
            }
        }
    }
    return readError(QStringLiteral("not_found"), QStringLiteral("no execution %1 in this workspace").arg(executionId));
}

std::optional<Directory> EvidenceReader::openExecution(const ExecutionInfo& info, Error* error) const
{
    if (m_workspace.isEmpty()) {
        *error = readError(QStringLiteral("not_found"), QStringLiteral("the workspace does not exist"));
        return std::nullopt;
    }
    const QStringList parts = info.relativeDir.split(QLatin1Char('/'));
    const QString expectedPrefix = Layout::artifactsRoot() + QLatin1Char('/');
    if (!isPlainRelativePath(info.relativeDir) || !info.relativeDir.startsWith(expectedPrefix) ||
        parts.size() != Layout::artifactsRoot().count(QLatin1Char('/')) + 3) {
        *error = readError(QStringLiteral("invalid_id"),
                           QStringLiteral("%1 is not an execution's directory").arg(info.relativeDir));
        return std::nullopt;
    }
    QString message;
    auto dir = Directory::openExisting(m_workspace, info.relativeDir, &message);
    if (!dir) {
        const bool link = message.contains(QLatin1String("symbolic link"));
        *error = readError(link ? QStringLiteral("symlink") : QStringLiteral("not_found"), message);
    }
    return dir;
}

Result<Execution> EvidenceReader::load(const QString& executionId) const
{
    auto info = find(executionId);
    if (!info)
        return info.error();
    return load(info.value());
}

Result<Execution> EvidenceReader::load(const ExecutionInfo& info, qint64 maxTreeBytes) const
{
    Error error;
    const auto dir = openExecution(info, &error);
    if (!dir)
        return error;
    Execution out;
    out.info = info;

    // Every regular file below the directory; links are reported, never followed.
    struct Pending
    {
        Directory dir;
        QString prefix;
        int depth;
    };
    std::deque<Pending> pending{{*dir, QString(), 0}};
    bool anyRecordFile = false;
    while (!pending.empty()) {
        const Pending current = pending.front();
        pending.pop_front();
        for (const auto& entry : current.dir.entries()) {
            const QString relative = current.prefix + entry.name;
            switch (entry.type) {
            case Directory::Entry::Type::File:
                if (Layout::isTemporaryName(entry.name)) {
                    out.problems.append({relative, QStringLiteral("a temporary file left by an interrupted write")});
                } else {
                    out.artifacts.append(relative);
                    anyRecordFile = anyRecordFile || (current.depth == 0 && isRecordFile(entry.name));
                }
                break;
            case Directory::Entry::Type::Directory:
                if (current.depth < kMaxArtifactDepth) {
                    QString message;
                    if (auto sub = current.dir.subdirectory(entry.name, &message))
                        pending.push_back({*sub, relative + QLatin1Char('/'), current.depth + 1});
                    else
                        out.problems.append({relative, message});
                }
                break;
            case Directory::Entry::Type::Symlink:
                out.problems.append({relative, QStringLiteral("a symbolic link; evidence is never read through one")});
                break;
            case Directory::Entry::Type::Other:
                out.problems.append({relative, QStringLiteral("not a regular file")});
                break;
            }
        }
    }
    if (!anyRecordFile)
        return readError(QStringLiteral("not_an_execution"),
                         QStringLiteral("%1 holds no execution record").arg(info.relativeDir));
    out.artifacts.sort();

    const auto readJson = [&](const QString& name, bool expected) -> std::optional<QJsonObject> {
        if (!out.artifacts.contains(name)) {
            if (expected)
                out.problems.append({name, QStringLiteral("missing")});
            return std::nullopt;
        }
        QString message;
        bool more = false;
        const auto bytes = dir->readPart(name, 0, kMaxJsonBytes, &message, &more);
        if (!bytes) {
            out.problems.append({name, message});
            return std::nullopt;
        }
        if (more) {
            out.problems.append({name, QStringLiteral("larger than %1 bytes; not read").arg(kMaxJsonBytes)});
            return std::nullopt;
        }
        auto object = parseObject(*bytes, &message);
        if (!object)
            out.problems.append({name, message});
        return object;
    };
    out.request = readJson(Layout::requestFile(), true);
    out.env = readJson(Layout::envFile(), true);
    out.response = readJson(Layout::responseFile(), info.answered && !info.interrupted);

    if (out.artifacts.contains(Layout::traceFile())) {
        QString message;
        bool more = false;
        const auto bytes = dir->readPart(Layout::traceFile(), 0, kMaxJsonBytes, &message, &more);
        if (!bytes) {
            out.problems.append({Layout::traceFile(), message});
        } else {
            if (more)
                out.problems.append(
                    {Layout::traceFile(),
                     QStringLiteral("larger than %1 bytes; only its beginning was read").arg(kMaxJsonBytes)});
            const QList<QByteArray> lines = bytes->split('\n');
            for (qsizetype i = 0; i < lines.size(); ++i) {
                if (lines.at(i).trimmed().isEmpty())
                    continue;
                if (auto step = parseStep(lines.at(i), &message))
                    out.trace.append(std::move(*step));
                else
                    out.problems.append({Layout::traceFile(), QStringLiteral("line %1: %2").arg(i + 1).arg(message)});
            }
        }
    } else {
        out.problems.append({Layout::traceFile(), QStringLiteral("missing")});
    }

    if (out.artifacts.contains(Layout::axTreeFile())) {
        auto loaded = snapshot(info, maxTreeBytes);
        if (loaded)
            out.snapshot = std::move(loaded.value());
        else
            out.problems.append({Layout::axTreeFile(), loaded.error().message});
    }
    return out;
}

Result<QByteArray> EvidenceReader::readFile(const ExecutionInfo& info, const QString& relativeFile,
                                            qint64 maxBytes) const
{
    Error error;
    const auto dir = openExecution(info, &error);
    if (!dir)
        return error;
    QString message;
    bool more = false;
    const auto bytes = dir->readPart(relativeFile, 0, maxBytes, &message, &more);
    if (!bytes) {
        // Only to name the reason: the read itself never followed anything.
        const QFileInfo seen(dir->path() + relativeFile);
        const QString reason = message.contains(QLatin1String("symbolic link")) ? QStringLiteral("symlink")
                               : !seen.isSymLink() && !seen.exists()            ? QStringLiteral("not_found")
                                                                                : QStringLiteral("unreadable");
        return readError(reason, message, relativeFile);
    }
    if (more)
        return readError(QStringLiteral("too_large"),
                         QStringLiteral("%1 is larger than %2 bytes").arg(relativeFile).arg(maxBytes), relativeFile);
    return *bytes;
}

Result<Automation::Snapshot> EvidenceReader::snapshot(const ExecutionInfo& info, qint64 maxBytes) const
{
    auto bytes = readFile(info, Layout::axTreeFile(), maxBytes);
    if (!bytes)
        return bytes.error();
    auto loaded = Automation::Snapshot::fromJsonText(bytes.value());
    if (!loaded) {
        Error error = loaded.error();
        error.message = Layout::axTreeFile() + QStringLiteral(": ") + error.message;
        error.withDetail(QStringLiteral("reason"), QStringLiteral("malformed"))
            .withDetail(QStringLiteral("file"), Layout::axTreeFile());
        qCDebug(lcEvidenceReader) << "cannot load" << info.relativeDir << error.message;
        return error;
    }
    return loaded;
}

} // namespace Evidence
