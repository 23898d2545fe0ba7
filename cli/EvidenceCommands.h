#pragma once

#include <QString>

/// `msgcode-desktopctl evidence list|show` (docs/evidence.md, "From the command line"): the
/// executions kept in a workspace, read with the evidence reader, without the host and without
/// a GUI, so msgcode can find and hand over evidence. Exit codes: 0 done, 1 the workspace or the
/// execution could not be read, 2 usage.
namespace EvidenceCommands {

struct Options
{
    QString workspace;
    bool json = false;
    QString method;          ///< list: only this method
    bool errorsOnly = false; ///< list: only executions that answered an error or never answered
};

int list(const Options& options);
int show(const Options& options, const QString& executionId);
/// The executions named (none: every one the filters keep) as a zip at `zipPath`, with a
/// manifest of hashes (Evidence::Archive).
int exportZip(const Options& options, const QStringList& executionIds, const QString& zipPath);

} // namespace EvidenceCommands
