#include "bridge/evidence/EvidenceDirectory.h"

#include "bridge/evidence/EvidenceLayout.h"
#include "common/Posix.h"

#include <QFile>
#include <QRandomGenerator>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Evidence {

struct Directory::Handle
{
    int fd = -1;
    ~Handle()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

namespace {

QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

// Opens `name` below `dirfd` as a directory, creating it (0700) when missing. O_NOFOLLOW makes a
// symlink fail with ELOOP/ENOTDIR instead of being followed.
int openOrCreateDir(int dirfd, const QByteArray& name, bool create, QString* error, const QString& shown)
{
    int fd = ::openat(dirfd, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && create) {
        if (::mkdirat(dirfd, name.constData(), 0700) != 0 && errno != EEXIST) {
            *error = QStringLiteral("cannot create %1: %2").arg(shown, errnoText(errno));
            return -1;
        }
        fd = ::openat(dirfd, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (fd < 0) {
        const int err = errno;
        struct stat st
        {
        };
        if (::fstatat(dirfd, name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
            *error = QStringLiteral("%1 is a symbolic link; evidence is never written through one").arg(shown);
        else
            *error = QStringLiteral("cannot open %1: %2").arg(shown, errnoText(err));
    }
    return fd;
}

} // namespace

bool isPlainRelativePath(const QString& path)
{
    if (path.isEmpty() || path.startsWith(QLatin1Char('/')))
        return false;
    const auto parts = path.split(QLatin1Char('/'));
    for (const auto& part : parts) {
        if (part.isEmpty() || part == QLatin1String(".") || part == QLatin1String(".."))
            return false;
    }
    return true;
}

Directory::Directory(std::shared_ptr<Handle> handle, QString path)
    : m_handle(std::move(handle)), m_path(std::move(path))
{
}

std::optional<Directory> Directory::open(const QString& workspaceRealPath, const QString& relativeDir, QString* error)
{
    return openBelow(workspaceRealPath, relativeDir, true, error);
}

std::optional<Directory> Directory::openExisting(const QString& workspaceRealPath, const QString& relativeDir,
                                                 QString* error)
{
    return openBelow(workspaceRealPath, relativeDir, false, error);
}

std::optional<Directory> Directory::openBelow(const QString& workspaceRealPath, const QString& relativeDir, bool create,
                                              QString* error)
{
    if (!workspaceRealPath.startsWith(QLatin1Char('/')) || !isPlainRelativePath(relativeDir)) {
        *error = QStringLiteral("invalid evidence path");
        return std::nullopt;
    }
    auto handle = std::make_shared<Handle>();
    handle->fd = ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (handle->fd < 0) {
        *error = QStringLiteral("cannot open /: %1").arg(errnoText(errno));
        return std::nullopt;
    }
    // The workspace itself was resolved with realpath(), so none of its components may be a
    // symlink now; walking it without following links closes the window between check and use.
    QString shown;
    const auto walk = [&](const QString& components, bool create) {
        for (const auto& part : components.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
            shown += QLatin1Char('/') + part;
            const int next = openOrCreateDir(handle->fd, QFile::encodeName(part), create, error, shown);
            if (next < 0)
                return false;
            ::close(handle->fd);
            handle->fd = next;
        }
        return true;
    };
    if (!walk(workspaceRealPath, false) || !walk(relativeDir, create))
        return std::nullopt;
    return Directory(std::move(handle), shown + QLatin1Char('/'));
}

std::optional<QString> Directory::writeFile(const QString& relativeFile, const QByteArray& data) const
{
    if (!isPlainRelativePath(relativeFile))
        return QStringLiteral("invalid evidence file name: %1").arg(relativeFile);
    auto parts = relativeFile.split(QLatin1Char('/'));
    const QString fileName = parts.takeLast();

    int dirfd = m_handle->fd;
    int ownedFd = -1;
    QString error;
    QString shown = m_path;
    for (const auto& part : parts) {
        shown += part;
        const int next = openOrCreateDir(dirfd, QFile::encodeName(part), true, &error, shown);
        if (ownedFd >= 0)
            ::close(ownedFd);
        if (next < 0)
            return error;
        dirfd = ownedFd = next;
        shown += QLatin1Char('/');
    }

    const QByteArray finalName = QFile::encodeName(fileName);
    const QByteArray tempName = Layout::temporaryName(finalName, QRandomGenerator::global()->generate64());
    const int fd = ::openat(dirfd, tempName.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        error = QStringLiteral("cannot create %1%2: %3").arg(shown, fileName, errnoText(errno));
        if (ownedFd >= 0)
            ::close(ownedFd);
        return error;
    }
    qsizetype written = 0;
    while (written < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + written, static_cast<size_t>(data.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            error = QStringLiteral("cannot write %1%2: %3").arg(shown, fileName, errnoText(errno));
            break;
        }
        written += n;
    }
    ::close(fd);
    if (error.isEmpty() && ::renameat(dirfd, tempName.constData(), dirfd, finalName.constData()) != 0)
        error = QStringLiteral("cannot rename into %1%2: %3").arg(shown, fileName, errnoText(errno));
    if (!error.isEmpty())
        ::unlinkat(dirfd, tempName.constData(), 0);
    if (ownedFd >= 0)
        ::close(ownedFd);
    if (!error.isEmpty())
        return error;
    return std::nullopt;
}

std::optional<QString> Directory::appendFile(const QString& fileName, const QByteArray& data, bool sync) const
{
    if (!isPlainRelativePath(fileName) || fileName.contains(QLatin1Char('/')))
        return QStringLiteral("not a plain file name: %1").arg(fileName);
    const int fd = ::openat(m_handle->fd, QFile::encodeName(fileName).constData(),
                            O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return QStringLiteral("cannot open %1%2: %3").arg(m_path, fileName, errnoText(errno));
    QString error;
    qsizetype written = 0;
    while (written < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + written, static_cast<size_t>(data.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            error = QStringLiteral("cannot write %1%2: %3").arg(m_path, fileName, errnoText(errno));
            break;
        }
        written += n;
    }
    if (error.isEmpty() && sync)
        Posix::syncData(fd);
    ::close(fd);
    if (!error.isEmpty())
        return error;
    return std::nullopt;
}

namespace {

int removeTemporariesIn(int dirfd, int depth)
{
    const int listFd = ::dup(dirfd);
    if (listFd < 0)
        return 0;
    DIR* listing = ::fdopendir(listFd);
    if (!listing) {
        ::close(listFd);
        return 0;
    }
    int removed = 0;
    QList<QByteArray> subdirs;
    while (const dirent* entry = ::readdir(listing)) {
        const QByteArray name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        if (Layout::isTemporaryName(name)) {
            if (::unlinkat(dirfd, name.constData(), 0) == 0)
                ++removed;
        } else if (entry->d_type == DT_DIR && depth < 4) {
            subdirs.append(name);
        }
    }
    ::closedir(listing);
    for (const QByteArray& name : std::as_const(subdirs)) {
        const int sub = ::openat(dirfd, name.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0)
            continue;
        removed += removeTemporariesIn(sub, depth + 1);
        ::close(sub);
    }
    return removed;
}

} // namespace

int Directory::removeTemporaries() const
{
    return removeTemporariesIn(m_handle->fd, 0);
}

std::optional<QByteArray> Directory::readFile(const QString& relativeFile, qint64 maxBytes) const
{
    if (!isPlainRelativePath(relativeFile))
        return std::nullopt;
    auto parts = relativeFile.split(QLatin1Char('/'));
    const QString fileName = parts.takeLast();
    int dirfd = m_handle->fd;
    int ownedFd = -1;
    QString error;
    for (const auto& part : parts) {
        const int next = openOrCreateDir(dirfd, QFile::encodeName(part), false, &error, part);
        if (ownedFd >= 0)
            ::close(ownedFd);
        if (next < 0)
            return std::nullopt;
        dirfd = ownedFd = next;
    }
    const int fd = ::openat(dirfd, QFile::encodeName(fileName).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (ownedFd >= 0)
        ::close(ownedFd);
    if (fd < 0)
        return std::nullopt;
    QByteArray out;
    char buffer[65536];
    while (out.size() <= maxBytes) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        out.append(buffer, n);
    }
    ::close(fd);
    if (out.size() > maxBytes)
        return std::nullopt;
    return out;
}

QList<Directory::Entry> Directory::entries() const
{
    QList<Entry> out;
    const int listFd = ::dup(m_handle->fd);
    if (listFd < 0)
        return out;
    DIR* listing = ::fdopendir(listFd);
    if (!listing) {
        ::close(listFd);
        return out;
    }
    ::rewinddir(listing); // the duplicate shares its offset with the handle
    while (const dirent* entry = ::readdir(listing)) {
        const QByteArray name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        Entry e;
        e.name = QFile::decodeName(name);
        struct stat st
        {
        };
        if (::fstatat(m_handle->fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue; // gone meanwhile
        if (S_ISREG(st.st_mode))
            e.type = Entry::Type::File;
        else if (S_ISDIR(st.st_mode))
            e.type = Entry::Type::Directory;
        else if (S_ISLNK(st.st_mode))
            e.type = Entry::Type::Symlink;
        e.size = static_cast<qint64>(st.st_size);
        e.modified = Posix::modified(st);
        out.append(std::move(e));
    }
    ::closedir(listing);
    std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
    return out;
}

std::optional<Directory> Directory::subdirectory(const QString& name, QString* error) const
{
    if (!isPlainRelativePath(name) || name.contains(QLatin1Char('/'))) {
        *error = QStringLiteral("not a plain directory name: %1").arg(name);
        return std::nullopt;
    }
    auto handle = std::make_shared<Handle>();
    handle->fd = openOrCreateDir(m_handle->fd, QFile::encodeName(name), false, error, m_path + name);
    if (handle->fd < 0)
        return std::nullopt;
    return Directory(std::move(handle), m_path + name + QLatin1Char('/'));
}

std::optional<QByteArray> Directory::readPart(const QString& relativeFile, qint64 offset, qint64 maxBytes,
                                              QString* error, bool* truncated) const
{
    if (truncated)
        *truncated = false;
    if (!isPlainRelativePath(relativeFile)) {
        *error = QStringLiteral("invalid evidence file name: %1").arg(relativeFile);
        return std::nullopt;
    }
    auto parts = relativeFile.split(QLatin1Char('/'));
    const QString fileName = parts.takeLast();
    int dirfd = m_handle->fd;
    int ownedFd = -1;
    QString shown = m_path;
    for (const auto& part : parts) {
        shown += part;
        const int next = openOrCreateDir(dirfd, QFile::encodeName(part), false, error, shown);
        if (ownedFd >= 0)
            ::close(ownedFd);
        if (next < 0)
            return std::nullopt;
        dirfd = ownedFd = next;
        shown += QLatin1Char('/');
    }
    shown += fileName;
    // O_NONBLOCK: opening a FIFO planted in the evidence must not wait for a writer.
    const int fd =
        ::openat(dirfd, QFile::encodeName(fileName).constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    const int openErr = errno;
    struct stat st
    {
    };
    const bool isLink = fd < 0 &&
                        ::fstatat(dirfd, QFile::encodeName(fileName).constData(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                        S_ISLNK(st.st_mode);
    if (ownedFd >= 0)
        ::close(ownedFd);
    if (fd < 0) {
        *error = isLink ? QStringLiteral("%1 is a symbolic link; evidence is never read through one").arg(shown)
                        : QStringLiteral("cannot open %1: %2").arg(shown, errnoText(openErr));
        return std::nullopt;
    }
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *error = QStringLiteral("%1 is not a regular file").arg(shown);
        ::close(fd);
        return std::nullopt;
    }
    const qint64 size = static_cast<qint64>(st.st_size);
    qint64 start = offset < 0 ? std::max<qint64>(0, size - maxBytes) : offset;
    if (start > 0 && ::lseek(fd, static_cast<off_t>(start), SEEK_SET) < 0) {
        *error = QStringLiteral("cannot read %1: %2").arg(shown, errnoText(errno));
        ::close(fd);
        return std::nullopt;
    }
    QByteArray out;
    out.reserve(static_cast<qsizetype>(std::min(maxBytes, std::max<qint64>(0, size - start))));
    char buffer[65536];
    // One byte past the limit tells whether there is more.
    while (out.size() <= maxBytes) {
        const qint64 want = std::min<qint64>(qint64(sizeof buffer), maxBytes + 1 - out.size());
        const ssize_t n = ::read(fd, buffer, static_cast<size_t>(want));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *error = QStringLiteral("cannot read %1: %2").arg(shown, errnoText(errno));
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0)
            break;
        out.append(buffer, n);
    }
    ::close(fd);
    const bool more = out.size() > maxBytes || start > 0;
    if (out.size() > maxBytes)
        out.truncate(static_cast<qsizetype>(maxBytes));
    if (truncated)
        *truncated = more;
    return out;
}

} // namespace Evidence
