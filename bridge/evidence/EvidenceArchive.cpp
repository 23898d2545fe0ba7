#include "bridge/evidence/EvidenceArchive.h"

#include "bridge/evidence/EvidenceLayout.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipfileinfo.h>
#include <quazip/quazipnewinfo.h>

namespace Evidence::Archive {

namespace {

using Automation::Error;

Error refusal(const QString& reason, const QString& message, const QString& entry = {})
{
    QJsonObject details{{QStringLiteral("reason"), reason}};
    if (!entry.isEmpty())
        details.insert(QStringLiteral("entry"), entry);
    return Error::invalidRequest(message, -32602, details);
}

QString sha256(const QByteArray& bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

// An entry name that cannot reach outside the directory it is unpacked into.
bool safeName(const QString& name)
{
    if (name.isEmpty() || name.startsWith(QLatin1Char('/')) || name.contains(QLatin1Char('\\')) ||
        (name.size() > 1 && name.at(1) == QLatin1Char(':')))
        return false;
    const QStringList parts = name.split(QLatin1Char('/'));
    for (const QString& part : parts) {
        if (part == QLatin1String("..") || part == QLatin1String("."))
            return false;
    }
    return true;
}

} // namespace

Automation::Result<QJsonObject> write(const EvidenceReader& reader, const QList<ExecutionInfo>& executions,
                                      const QString& zipPath)
{
    if (executions.isEmpty())
        return refusal(QStringLiteral("empty"), QStringLiteral("there is no execution to export"));
    // Written beside the target and renamed into place: a failed export leaves no zip behind.
    const QString partial = zipPath + QStringLiteral(".partial");
    QFile::remove(partial);
    QuaZip zip(partial);
    if (!zip.open(QuaZip::mdCreate))
        return refusal(QStringLiteral("unreadable"), QStringLiteral("cannot create %1").arg(zipPath));
    const auto fail = [&zip, &partial](const Error& error) {
        zip.close();
        QFile::remove(partial);
        return error;
    };
    QJsonArray listed;
    const auto add = [&zip](const QString& name, const QByteArray& bytes) {
        QuaZipFile out(&zip);
        if (!out.open(QIODevice::WriteOnly, QuaZipNewInfo(name)))
            return false;
        const bool written = out.write(bytes) == bytes.size();
        out.close();
        return written && out.getZipError() == 0;
    };
    for (const ExecutionInfo& info : executions) {
        auto loaded = reader.load(info);
        if (!loaded)
            return fail(loaded.error());
        QJsonArray files;
        for (const QString& file : loaded->artifacts) {
            auto bytes = reader.readFile(info, file, kMaxEntryBytes);
            if (!bytes)
                return bytes.error();
            const QString name = info.relativeDir + QLatin1Char('/') + file;
            if (!add(name, bytes.value()))
                return refusal(QStringLiteral("unreadable"),
                               QStringLiteral("cannot write %1 into %2").arg(name, zipPath));
            files.append(QJsonObject{{QStringLiteral("path"), name},
                                     {QStringLiteral("bytes"), static_cast<qint64>(bytes->size())},
                                     {QStringLiteral("sha256"), sha256(bytes.value())}});
        }
        listed.append(QJsonObject{{QStringLiteral("executionId"), info.executionId},
                                  {QStringLiteral("method"), info.method},
                                  {QStringLiteral("outcome"), info.outcome},
                                  {QStringLiteral("receivedAt"), info.receivedAt.toString(Qt::ISODateWithMs)},
                                  {QStringLiteral("files"), files}});
    }
    const QJsonObject manifest{
        {QStringLiteral("format"), QString::fromLatin1(kFormat)},
        {QStringLiteral("createdAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {QStringLiteral("hostVersion"), QStringLiteral(MDH_VERSION)},
        {QStringLiteral("executions"), listed}};
    if (!add(QString::fromLatin1(kManifest), QJsonDocument(manifest).toJson(QJsonDocument::Indented)))
        return fail(
            refusal(QStringLiteral("unreadable"), QStringLiteral("cannot write the manifest into %1").arg(zipPath)));
    zip.close();
    if (zip.getZipError() != 0 || (QFile::exists(zipPath) && !QFile::remove(zipPath)) ||
        !QFile::rename(partial, zipPath)) {
        QFile::remove(partial);
        return refusal(QStringLiteral("unreadable"), QStringLiteral("cannot finish %1").arg(zipPath));
    }
    return manifest;
}

Automation::Result<QJsonObject> open(const QString& zipPath, const QString& into)
{
    // Unpacked only into an empty directory that is not a link: every directory below it is then
    // made here, and none of them can lead elsewhere.
    const QFileInfo target(into);
    if (into.isEmpty() || !target.isDir() || target.isSymLink() ||
        !QDir(into).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System).isEmpty())
        return refusal(QStringLiteral("unsafe_entry"),
                       QStringLiteral("%1 is not an empty directory of its own").arg(into));
    const QString root = target.canonicalFilePath() + QLatin1Char('/');
    QuaZip zip(zipPath);
    if (!zip.open(QuaZip::mdUnzip))
        return refusal(QStringLiteral("unreadable"), QStringLiteral("%1 is not a readable zip").arg(zipPath));
    // Every entry is checked before anything is written.
    const QList<QuaZipFileInfo64> entries = zip.getFileInfoList64();
    if (entries.size() > kMaxEntries)
        return refusal(QStringLiteral("too_large"),
                       QStringLiteral("the archive has more than %1 entries").arg(kMaxEntries));
    qint64 total = 0;
    bool hasManifest = false;
    const QString prefix = Layout::artifactsRoot() + QLatin1Char('/');
    for (const QuaZipFileInfo64& entry : entries) {
        if (!safeName(entry.name))
            return refusal(QStringLiteral("unsafe_entry"),
                           QStringLiteral("the entry %1 would land outside the evidence").arg(entry.name), entry.name);
        if (entry.isSymbolicLink())
            return refusal(QStringLiteral("symlink"), QStringLiteral("the entry %1 is a link").arg(entry.name),
                           entry.name);
        if (entry.name == QLatin1String(kManifest))
            hasManifest = true;
        else if (!entry.name.startsWith(prefix) && !entry.name.endsWith(QLatin1Char('/')))
            return refusal(QStringLiteral("unsafe_entry"),
                           QStringLiteral("the entry %1 is not evidence").arg(entry.name), entry.name);
        if (static_cast<qint64>(entry.uncompressedSize) > kMaxEntryBytes)
            return refusal(QStringLiteral("too_large"), QStringLiteral("the entry %1 is too large").arg(entry.name),
                           entry.name);
        total += static_cast<qint64>(entry.uncompressedSize);
        if (total > kMaxTotalBytes)
            return refusal(QStringLiteral("too_large"), QStringLiteral("the archive unpacks to too much"));
    }
    if (!hasManifest)
        return refusal(QStringLiteral("no_manifest"),
                       QStringLiteral("the archive has no %1").arg(QLatin1String(kManifest)));

    QHash<QString, QJsonObject> unpacked; // name -> {bytes, sha256}
    QJsonObject manifest;
    const QDir targetDir(into);
    qint64 written = 0;
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        const QString name = zip.getCurrentFileName();
        if (name.endsWith(QLatin1Char('/')))
            continue;
        QuaZipFile in(&zip);
        if (!in.open(QIODevice::ReadOnly))
            return refusal(QStringLiteral("unreadable"), QStringLiteral("cannot read the entry %1").arg(name), name);
        // Read in pieces, no more than the limits whatever the headers say.
        QByteArray bytes;
        while (!in.atEnd()) {
            const QByteArray piece = in.read(qint64{64} * 1024);
            if (piece.isEmpty())
                break;
            bytes += piece;
            written += piece.size();
            if (bytes.size() > kMaxEntryBytes || written > kMaxTotalBytes)
                return refusal(QStringLiteral("too_large"), QStringLiteral("the entry %1 is too large").arg(name),
                               name);
        }
        in.close();
        if (in.getZipError() != 0)
            return refusal(QStringLiteral("unreadable"), QStringLiteral("the entry %1 is damaged").arg(name), name);
        if (name == QLatin1String(kManifest)) {
            manifest = QJsonDocument::fromJson(bytes).object();
            continue;
        }
        // The directories are made here, in a directory of our own: nothing in them is a link.
        const QString path = targetDir.filePath(name);
        if (!QDir().mkpath(QFileInfo(path).path()) ||
            !QString(QFileInfo(QFileInfo(path).path()).canonicalFilePath() + QLatin1Char('/')).startsWith(root))
            return refusal(QStringLiteral("unsafe_entry"), QStringLiteral("cannot unpack %1 inside %2").arg(name, into),
                           name);
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly | QIODevice::NewOnly) || out.write(bytes) != bytes.size())
            return refusal(QStringLiteral("unreadable"), QStringLiteral("cannot unpack %1").arg(name), name);
        unpacked.insert(name, QJsonObject{{QStringLiteral("bytes"), static_cast<qint64>(bytes.size())},
                                          {QStringLiteral("sha256"), sha256(bytes)}});
    }
    if (manifest.value(QStringLiteral("format")).toString() != QLatin1String(kFormat))
        return refusal(QStringLiteral("no_manifest"),
                       QStringLiteral("the manifest is not %1").arg(QLatin1String(kFormat)));
    // Every file the manifest names, with its size and hash; nothing it does not name.
    QSet<QString> named;
    for (const auto& execution : manifest.value(QStringLiteral("executions")).toArray()) {
        for (const auto& value : execution.toObject().value(QStringLiteral("files")).toArray()) {
            const QJsonObject file = value.toObject();
            const QString name = file.value(QStringLiteral("path")).toString();
            named.insert(name);
            const QJsonObject got = unpacked.value(name);
            if (got.isEmpty() || got.value(QStringLiteral("sha256")) != file.value(QStringLiteral("sha256")) ||
                got.value(QStringLiteral("bytes")).toInteger() != file.value(QStringLiteral("bytes")).toInteger())
                return refusal(QStringLiteral("hash_mismatch"),
                               QStringLiteral("%1 is missing or not what the manifest says").arg(name), name);
        }
    }
    for (auto it = unpacked.cbegin(); it != unpacked.cend(); ++it) {
        if (!named.contains(it.key()))
            return refusal(QStringLiteral("hash_mismatch"), QStringLiteral("%1 is not in the manifest").arg(it.key()),
                           it.key());
    }
    return manifest;
}

} // namespace Evidence::Archive
