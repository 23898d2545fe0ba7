#pragma once

#include <cerrno>

#include <QDateTime>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/// The few POSIX calls whose Linux forms (SOCK_CLOEXEC, SOCK_NONBLOCK, accept4, fdatasync,
/// st_mtim) macOS lacks, written once for both. On Linux each is the atomic call; on macOS the
/// flags are set with fcntl right after the descriptor is made, so the shared sources build on a
/// Mac (docs/macos.md, "Building on a Mac"). The host starts no child between the two calls, so
/// no descriptor can leak into one.
namespace Posix {

namespace detail {
inline bool setFlags(int fd, bool nonBlocking)
{
    const int fdFlags = ::fcntl(fd, F_GETFD);
    if (fdFlags < 0 || ::fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) != 0)
        return false;
    if (!nonBlocking)
        return true;
    const int flFlags = ::fcntl(fd, F_GETFL);
    return flFlags >= 0 && ::fcntl(fd, F_SETFL, flFlags | O_NONBLOCK) == 0;
}

inline int closeKeepingErrno(int fd)
{
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
}
} // namespace detail

/// socket(2), close-on-exec, and non-blocking when asked. -1 with errno on failure.
inline int socket(int domain, int type, bool nonBlocking)
{
#if defined(SOCK_CLOEXEC) && defined(SOCK_NONBLOCK)
    return ::socket(domain, type | SOCK_CLOEXEC | (nonBlocking ? SOCK_NONBLOCK : 0), 0);
#else
    const int fd = ::socket(domain, type, 0);
    if (fd < 0 || detail::setFlags(fd, nonBlocking))
        return fd;
    return detail::closeKeepingErrno(fd);
#endif
}

/// socketpair(2), both ends close-on-exec. false with errno on failure.
inline bool socketPair(int domain, int type, int fds[2])
{
#ifdef SOCK_CLOEXEC
    return ::socketpair(domain, type | SOCK_CLOEXEC, 0, fds) == 0;
#else
    if (::socketpair(domain, type, 0, fds) != 0)
        return false;
    if (detail::setFlags(fds[0], false) && detail::setFlags(fds[1], false))
        return true;
    detail::closeKeepingErrno(fds[0]);
    detail::closeKeepingErrno(fds[1]);
    fds[0] = fds[1] = -1;
    return false;
#endif
}

/// accept(2) of a connection, close-on-exec and blocking (whatever the listening socket is).
inline int accept(int listenFd)
{
#ifdef SOCK_CLOEXEC
    return ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
#else
    const int fd = ::accept(listenFd, nullptr, nullptr);
    if (fd < 0)
        return fd;
    // On BSD an accepted socket inherits O_NONBLOCK from the listening one; Linux's does not.
    const int flFlags = ::fcntl(fd, F_GETFL);
    if (flFlags >= 0 && (flFlags & O_NONBLOCK) != 0)
        ::fcntl(fd, F_SETFL, flFlags & ~O_NONBLOCK);
    if (detail::setFlags(fd, false))
        return fd;
    return detail::closeKeepingErrno(fd);
#endif
}

/// The file's data on stable storage: fdatasync on Linux; on macOS F_FULLFSYNC (fsync there
/// only reaches the drive's cache), falling back to fsync where the file system refuses it.
inline int syncData(int fd)
{
#ifdef __APPLE__
    if (::fcntl(fd, F_FULLFSYNC) == 0)
        return 0;
    return ::fsync(fd);
#else
    return ::fdatasync(fd);
#endif
}

/// A stat's modification time, UTC, to the millisecond.
inline QDateTime modified(const struct stat& st)
{
#ifdef __APPLE__
    const timespec& time = st.st_mtimespec;
#else
    const timespec& time = st.st_mtim;
#endif
    return QDateTime::fromMSecsSinceEpoch(qint64(time.tv_sec) * 1000 + time.tv_nsec / 1000000, Qt::UTC);
}

} // namespace Posix
