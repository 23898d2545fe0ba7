#pragma once

#include "bridge/evidence/EvidenceReader.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace Evidence {

/// Portable evidence (docs/evidence-viewer.md, "Export"): executions as a zip that holds them in
/// the workspace layout (artifacts/desktop/<date>/<executionId>/…) with a manifest.json naming
/// every file with its size and SHA-256; opened elsewhere read-only, every entry checked first.
/// Written with QuaZip. Files are copied as the host wrote them, so what was redacted stays so.
namespace Archive {

inline constexpr char kManifest[] = "manifest.json";
inline constexpr char kFormat[] = "msgcode-evidence/1";
/// Limits on what an archive may unpack to (a zip bomb is refused, not extracted).
inline constexpr qint64 kMaxEntryBytes = qint64{512} * 1024 * 1024;
inline constexpr qint64 kMaxTotalBytes = qint64{2} * 1024 * 1024 * 1024;
inline constexpr int kMaxEntries = 200000;

/// Writes `executions` of `reader`'s workspace to `zipPath` (replaced). Answers the manifest.
Automation::Result<QJsonObject> write(const EvidenceReader& reader, const QList<ExecutionInfo>& executions,
                                      const QString& zipPath);

/// Unpacks `zipPath` into `into` (an empty directory), which then is a workspace the reader can
/// list. Refused before anything is written: an entry with an absolute path, a `..` component, a
/// backslash or a drive letter, a symlink entry, one outside artifacts/desktop/ (but the
/// manifest), too many or too large entries. After unpacking, every file is checked against the
/// manifest's size and SHA-256: a mismatch or a file the manifest does not name is refused.
/// Errors: DESKTOP_INVALID_REQUEST with `details.reason` (`unsafe_entry`, `symlink`,
/// `too_large`, `no_manifest`, `hash_mismatch`, `unreadable`) and `details.entry`.
Automation::Result<QJsonObject> open(const QString& zipPath, const QString& into);

} // namespace Archive
} // namespace Evidence
