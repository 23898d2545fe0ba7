#include "cli/EvidenceCommands.h"

#include "bridge/evidence/EvidenceArchive.h"
#include "bridge/evidence/EvidenceReader.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace EvidenceCommands {

namespace {

// The commands' human text, context "Ctl" like the rest of the CLI.
class Text
{
    Q_DECLARE_TR_FUNCTIONS(Ctl)
};

void out(const QString& text)
{
    std::fprintf(stdout, "%s\n", qPrintable(text));
}

void err(const QString& text)
{
    std::fprintf(stderr, "%s\n", qPrintable(text));
}

QJsonObject infoJson(const Evidence::ExecutionInfo& info)
{
    return QJsonObject{{QStringLiteral("executionId"), info.executionId},
                       {QStringLiteral("date"), info.date.toString(Qt::ISODate)},
                       {QStringLiteral("dir"), info.dirPath},
                       {QStringLiteral("method"), info.method},
                       {QStringLiteral("receivedAt"), info.receivedAt.isValid()
                                                          ? QJsonValue(info.receivedAt.toString(Qt::ISODateWithMs))
                                                          : QJsonValue()},
                       {QStringLiteral("outcome"), info.outcome},
                       {QStringLiteral("durationMs"), info.durationMs},
                       {QStringLiteral("answered"), info.answered},
                       {QStringLiteral("interrupted"), info.interrupted}};
}

QString outcomeText(const Evidence::ExecutionInfo& info)
{
    if (info.interrupted)
        return Text::tr("interrupted");
    if (!info.answered)
        return Text::tr("unanswered");
    return info.outcome;
}

int failed(const Automation::Error& error, bool json)
{
    if (json)
        out(QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("error"), error.toJson()}}).toJson(QJsonDocument::Compact)));
    err(Text::tr("error: %1").arg(error.message));
    return 1;
}

} // namespace

int list(const Options& options)
{
    const Evidence::EvidenceReader reader(options.workspace);
    const auto listing = reader.list();
    if (!listing)
        return failed(listing.error(), options.json);
    QList<Evidence::ExecutionInfo> shown;
    for (const auto& info : listing->executions) {
        if (!options.method.isEmpty() && info.method != options.method)
            continue;
        if (options.errorsOnly && !(info.isError() || !info.answered))
            continue;
        shown.append(info);
    }
    if (options.json) {
        QJsonArray executions;
        for (const auto& info : shown)
            executions.append(infoJson(info));
        QJsonArray skipped;
        for (const auto& entry : listing->skipped)
            skipped.append(
                QJsonObject{{QStringLiteral("path"), entry.relativePath}, {QStringLiteral("reason"), entry.reason}});
        out(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("workspace"), reader.workspace()},
                                                        {QStringLiteral("executions"), executions},
                                                        {QStringLiteral("skipped"), skipped}})
                                  .toJson(QJsonDocument::Compact)));
        return 0;
    }
    for (const auto& info : shown)
        out(QStringLiteral("%1  %2  %3  %4  %5")
                .arg(info.receivedAt.isValid() ? info.receivedAt.toString(Qt::ISODate)
                                               : info.date.toString(Qt::ISODate),
                     info.method.leftJustified(20), outcomeText(info).leftJustified(26),
                     info.durationMs >= 0 ? QStringLiteral("%1 ms").arg(info.durationMs).rightJustified(9)
                                          : QStringLiteral("-").rightJustified(9),
                     info.executionId));
    out(Text::tr("%n execution(s) in %1", nullptr, static_cast<int>(shown.size())).arg(reader.workspace()));
    for (const auto& entry : listing->skipped)
        err(Text::tr("skipped %1 (%2)").arg(entry.relativePath, entry.reason));
    return 0;
}

int exportZip(const Options& options, const QStringList& executionIds, const QString& zipPath)
{
    const Evidence::EvidenceReader reader(options.workspace);
    QList<Evidence::ExecutionInfo> chosen;
    if (executionIds.isEmpty()) {
        const auto listing = reader.list();
        if (!listing)
            return failed(listing.error(), options.json);
        for (const auto& info : listing->executions) {
            if (!options.method.isEmpty() && info.method != options.method)
                continue;
            if (options.errorsOnly && !(info.isError() || !info.answered))
                continue;
            chosen.append(info);
        }
    } else {
        for (const QString& id : executionIds) {
            const auto found = reader.find(id);
            if (!found)
                return failed(found.error(), options.json);
            chosen.append(found.value());
        }
    }
    const auto manifest = Evidence::Archive::write(reader, chosen, zipPath);
    if (!manifest)
        return failed(manifest.error(), options.json);
    if (options.json)
        out(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("zip"), QFileInfo(zipPath).absoluteFilePath()},
                                                        {QStringLiteral("manifest"), manifest.value()}})
                                  .toJson(QJsonDocument::Compact)));
    else
        out(Text::tr("%n execution(s) exported to %1", nullptr, static_cast<int>(chosen.size()))
                .arg(QFileInfo(zipPath).absoluteFilePath()));
    return 0;
}

int show(const Options& options, const QString& executionId)
{
    const Evidence::EvidenceReader reader(options.workspace);
    const auto loaded = reader.load(executionId);
    if (!loaded)
        return failed(loaded.error(), options.json);
    const Evidence::Execution& execution = loaded.value();
    if (options.json) {
        QJsonArray trace;
        for (const auto& step : execution.trace)
            trace.append(QJsonObject{{QStringLiteral("t"), step.t.toString(Qt::ISODateWithMs)},
                                     {QStringLiteral("sinceStartMs"), step.sinceStartMs},
                                     {QStringLiteral("step"), step.step},
                                     {QStringLiteral("ms"), step.ms},
                                     {QStringLiteral("ok"), step.ok},
                                     {QStringLiteral("details"), step.details}});
        QJsonArray problems;
        for (const auto& problem : execution.problems)
            problems.append(
                QJsonObject{{QStringLiteral("file"), problem.file}, {QStringLiteral("message"), problem.message}});
        QJsonObject document{{QStringLiteral("execution"), infoJson(execution.info)},
                             {QStringLiteral("trace"), trace},
                             {QStringLiteral("artifacts"), QJsonArray::fromStringList(execution.artifacts)},
                             {QStringLiteral("problems"), problems}};
        if (execution.request)
            document.insert(QStringLiteral("request"), *execution.request);
        if (execution.response)
            document.insert(QStringLiteral("response"), *execution.response);
        if (execution.env)
            document.insert(QStringLiteral("env"), *execution.env);
        out(QString::fromUtf8(QJsonDocument(document).toJson(QJsonDocument::Compact)));
        return 0;
    }
    const auto& info = execution.info;
    out(Text::tr("execution %1: %2, %3").arg(info.executionId, info.method, outcomeText(info)));
    if (info.receivedAt.isValid())
        out(Text::tr("received %1, %2 ms").arg(info.receivedAt.toString(Qt::ISODateWithMs)).arg(info.durationMs));
    out(Text::tr("directory %1").arg(info.dirPath));
    for (const auto& step : execution.trace)
        out(QStringLiteral("  %1 %2 %3 ms%4")
                .arg(QString::number(step.sinceStartMs).rightJustified(7), step.step.leftJustified(28))
                .arg(step.ms)
                .arg(step.ok ? QString() : QStringLiteral("  ✗")));
    out(Text::tr("files: %1").arg(execution.artifacts.join(QStringLiteral(", "))));
    for (const auto& problem : execution.problems)
        err(Text::tr("damaged: %1: %2").arg(problem.file, problem.message));
    return 0;
}

} // namespace EvidenceCommands
