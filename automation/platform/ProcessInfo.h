#pragma once

#include <QString>

#include <optional>

/// Facts about processes, from the operating system. One implementation file per platform,
/// chosen by automation/CMakeLists.txt (ProcessInfo_linux.cpp reads /proc and SO_PEERCRED).
namespace Automation::Platform {

/// Whether a process can answer: running, stopped (SIGSTOP or a debugger: it answers once it is
/// continued) or gone (exited, a zombie, or never existed).
enum class ProcessState { Running, Stopped, Gone };
ProcessState processState(qint64 pid);
/// Whether a process is alive (running or stopped).
inline bool processAlive(qint64 pid)
{
    return processState(pid) != ProcessState::Gone;
}

/// The process's executable with symlinks resolved; empty when unreadable.
QString processExecutable(qint64 pid);
/// One variable of the process's environment as it started (Linux: /proc/PID/environ, readable
/// for the same user); nullopt when unset or unreadable, and on other platforms.
std::optional<QString> processEnvironment(qint64 pid, const QString& name);
/// When the process started, in the platform's own unit (Linux: clock ticks since boot, field 22
/// of /proc/PID/stat), so that a recycled pid is told apart; 0 when unreadable.
quint64 processStartTime(qint64 pid);
/// The pid of the process's parent; 0 when unreadable.
qint64 parentPid(qint64 pid);

/// Who runs a process.
struct ProcessCredentials
{
    qint64 pid = -1;
    qint64 uid = -1;
    qint64 gid = -1;
};
/// The peer of a connected local socket, as the kernel saw it when the connection was made.
std::optional<ProcessCredentials> socketPeer(qintptr fd);
/// The uid and gid of a running process; nullopt when it does not exist.
std::optional<ProcessCredentials> processCredentials(qint64 pid);

} // namespace Automation::Platform
