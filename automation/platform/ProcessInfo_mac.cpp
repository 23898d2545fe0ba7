#include "automation/platform/ProcessInfo.h"

#include <QFile>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <libproc.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/sysctl.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

// The process facts on macOS: the kernel's process table (sysctl KERN_PROC_PID), libproc for the
// executable and the local socket's peer options. ProcessInfo_linux.cpp is its twin.
namespace Automation::Platform {

namespace {

/// The kernel's record of `pid` (also of a zombie); false when there is none.
bool kernelRecord(qint64 pid, struct kinfo_proc* info)
{
    if (pid <= 0 || pid > INT_MAX)
        return false;
    int mib[4] = {CTL_KERN, KERN_PROC, KERN_PROC_PID, static_cast<int>(pid)};
    size_t size = sizeof *info;
    *info = {};
    // A pid without a process answers success with nothing in it.
    return ::sysctl(mib, 4, info, &size, nullptr, 0) == 0 && size >= sizeof *info;
}

} // namespace

ProcessState processState(qint64 pid)
{
    struct kinfo_proc info;
    if (!kernelRecord(pid, &info)) {
        // sysctl refused (not "no such process"): fall back on whether a signal could reach it.
        if (pid <= 0 || pid > INT_MAX)
            return ProcessState::Gone;
        return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM ? ProcessState::Running : ProcessState::Gone;
    }
    // SZOMB will never answer; SSTOP (SIGSTOP or a debugger) answers once continued.
    switch (info.kp_proc.p_stat) {
    case SZOMB:
        return ProcessState::Gone;
    case SSTOP:
        return ProcessState::Stopped;
    default:
        return ProcessState::Running;
    }
}

QString processExecutable(qint64 pid)
{
    if (pid <= 0 || pid > INT_MAX)
        return {};
    char path[PROC_PIDPATHINFO_MAXSIZE] = {};
    if (::proc_pidpath(static_cast<int>(pid), path, sizeof path) <= 0)
        return {};
    // proc_pidpath gives the path the process was started from; symlinks resolved as on Linux.
    char resolved[PATH_MAX] = {};
    if (!::realpath(path, resolved))
        return {};
    return QFile::decodeName(resolved);
}

std::optional<QString> processEnvironment(qint64, const QString&)
{
    return std::nullopt; // only Linux's /proc gives another process's environment
}

quint64 processStartTime(qint64 pid)
{
    // Microseconds since the epoch: a recycled pid starts later.
    struct kinfo_proc info;
    if (!kernelRecord(pid, &info))
        return 0;
    const struct timeval& start = info.kp_proc.p_starttime;
    if (start.tv_sec < 0)
        return 0;
    return static_cast<quint64>(start.tv_sec) * 1000000u + static_cast<quint64>(start.tv_usec);
}

qint64 parentPid(qint64 pid)
{
    struct kinfo_proc info;
    if (!kernelRecord(pid, &info))
        return 0;
    return info.kp_eproc.e_ppid;
}

std::optional<ProcessCredentials> socketPeer(qintptr fd)
{
    // LOCAL_PEERPID and the peer's credentials (getpeereid reads LOCAL_PEERCRED), both as the
    // kernel recorded them when the connection was made.
    const int socket = static_cast<int>(fd);
    pid_t pid = 0;
    socklen_t length = sizeof pid;
    if (::getsockopt(socket, SOL_LOCAL, LOCAL_PEERPID, &pid, &length) != 0 || length != sizeof pid)
        return std::nullopt;
    uid_t uid = 0;
    gid_t gid = 0;
    if (::getpeereid(socket, &uid, &gid) != 0)
        return std::nullopt;
    return ProcessCredentials{pid, uid, gid};
}

std::optional<ProcessCredentials> processCredentials(qint64 pid)
{
    // The real uid and gid, as ProcessInfo_linux.cpp reads them (the first of Uid: and Gid:).
    struct kinfo_proc info;
    if (!kernelRecord(pid, &info))
        return std::nullopt;
    return ProcessCredentials{pid, info.kp_eproc.e_pcred.p_ruid, info.kp_eproc.e_pcred.p_rgid};
}

} // namespace Automation::Platform
