#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace Evidence {

/// A directory inside a workspace, opened component by component without following symlinks,
/// so a symlink planted anywhere below the workspace cannot redirect evidence outside it.
/// Files are written atomically (temp file + rename) relative to the open directory handle.
class Directory
{
public:
    /// Opens (creating what is missing) `<workspaceRealPath>/<relativeDir>`. `workspaceRealPath`
    /// must be absolute; `relativeDir` uses '/' separators and no "." or ".." components.
    /// Returns nullopt and sets `error` when any component is a symlink or cannot be created.
    static std::optional<Directory> open(const QString& workspaceRealPath, const QString& relativeDir, QString* error);
    /// Opens `<workspaceRealPath>/<relativeDir>` for reading: as open(), but creates nothing.
    static std::optional<Directory> openExisting(const QString& workspaceRealPath, const QString& relativeDir,
                                                 QString* error);

    /// The absolute path, ending in '/'.
    QString path() const { return m_path; }

    /// Writes `relativeFile` (which may name one or more subdirectories, created as needed)
    /// atomically. Returns an error message on failure.
    std::optional<QString> writeFile(const QString& relativeFile, const QByteArray& data) const;

    /// Appends to a file directly in this directory (created 0600 if missing, never through a
    /// symlink); with `sync`, the bytes are on disk when it returns.
    std::optional<QString> appendFile(const QString& fileName, const QByteArray& data, bool sync) const;

    /// Removes the temporary files an interrupted write left (".<name>.tmp-<random>") here and
    /// in its subdirectories (never following symlinks). Returns how many it removed.
    int removeTemporaries() const;

    /// Reads a file below this directory without following symlinks.
    std::optional<QByteArray> readFile(const QString& relativeFile, qint64 maxBytes = qint64{64} * 1024 * 1024) const;

    /// One entry of a directory, as lstat(2) sees it: a symlink is reported, never followed.
    struct Entry
    {
        enum class Type { File, Directory, Symlink, Other };
        QString name;
        Type type = Type::Other;
        qint64 size = 0;
        QDateTime modified;
    };
    /// The entries directly in this directory (without "." and ".."), sorted by name.
    QList<Entry> entries() const;
    /// An existing subdirectory (one plain name), opened without following a symlink.
    std::optional<Directory> subdirectory(const QString& name, QString* error) const;
    /// Reads a regular file below this directory without following symlinks: at most `maxBytes`
    /// from `offset`, or the last `maxBytes` when `offset` is negative; `*truncated` says whether
    /// the file holds more than was returned. nullopt with `error` set when the file is missing,
    /// a symlink, or not a regular file (a FIFO or device is never read).
    std::optional<QByteArray> readPart(const QString& relativeFile, qint64 offset, qint64 maxBytes, QString* error,
                                       bool* truncated = nullptr) const;

private:
    struct Handle;
    Directory(std::shared_ptr<Handle> handle, QString path);
    static std::optional<Directory> openBelow(const QString& workspaceRealPath, const QString& relativeDir, bool create,
                                              QString* error);

    std::shared_ptr<Handle> m_handle;
    QString m_path;
};

/// Whether a relative path is made only of plain components (no "", ".", ".." and no leading '/').
bool isPlainRelativePath(const QString& path);

} // namespace Evidence
