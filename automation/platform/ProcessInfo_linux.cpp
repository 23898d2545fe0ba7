#include "automation/platform/ProcessInfo.h"

#include <QFile>

#include <sys/socket.h>

namespace Automation::Platform {

namespace {

QByteArray procFile(qint64 pid, const char* name, bool* ok)
{
    QFile file(QStringLiteral("/proc/%1/").arg(pid) + QLatin1String(name));
    *ok = file.open(QIODevice::ReadOnly);
    return *ok ? file.readAll() : QByteArray();
}

} // namespace

ProcessState processState(qint64 pid)
{
    // /proc/PID/status "State:": Z (zombie) and X (dead) will never answer; T (stopped) and t
    // (stopped by a debugger) answer once continued. Everything else runs or sleeps.
    bool ok = false;
    const QByteArray status = procFile(pid, "status", &ok);
    if (!ok)
        return ProcessState::Gone;
    for (const QByteArray& line : status.split('\n')) {
        if (line.startsWith("State:")) {
            const QByteArray state = line.mid(6).trimmed();
            if (state.startsWith('Z') || state.startsWith('X'))
                return ProcessState::Gone;
            if (state.startsWith('T') || state.startsWith('t'))
                return ProcessState::Stopped;
            return ProcessState::Running;
        }
    }
    return ProcessState::Running;
}

QString processExecutable(qint64 pid)
{
    return QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid));
}

std::optional<QString> processEnvironment(qint64 pid, const QString& name)
{
    bool ok = false;
    const QByteArray environment = procFile(pid, "environ", &ok);
    if (!ok)
        return std::nullopt;
    const QByteArray prefix = name.toLocal8Bit() + '=';
    for (const QByteArray& entry : environment.split('\0')) {
        if (entry.startsWith(prefix))
            return QString::fromLocal8Bit(entry.mid(prefix.size()));
    }
    return std::nullopt;
}

quint64 processStartTime(qint64 pid)
{
    bool ok = false;
    const QByteArray stat = procFile(pid, "stat", &ok);
    if (!ok)
        return 0;
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0)
        return 0;
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    // fields[0] is field 3 (state), so field 22 (starttime) is fields[19].
    if (fields.size() < 20)
        return 0;
    return fields.at(19).toULongLong();
}

qint64 parentPid(qint64 pid)
{
    bool ok = false;
    const QByteArray stat = procFile(pid, "stat", &ok);
    const qsizetype close = stat.lastIndexOf(')');
    if (!ok || close < 0)
        return 0;
    // fields[1] is field 4 (ppid).
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    return fields.size() > 1 ? fields.at(1).toLongLong() : 0;
}

std::optional<ProcessCredentials> socketPeer(qintptr fd)
{
    struct ucred cred
    {
    };
    socklen_t length = sizeof cred;
    if (::getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0 || length != sizeof cred)
        return std::nullopt;
    return ProcessCredentials{cred.pid, cred.uid, cred.gid};
}

std::optional<ProcessCredentials> processCredentials(qint64 pid)
{
    bool ok = false;
    const QByteArray status = procFile(pid, "status", &ok);
    if (!ok)
        return std::nullopt;
    ProcessCredentials credentials;
    credentials.pid = pid;
    for (const QByteArray& line : status.split('\n')) {
        if (line.startsWith("Uid:"))
            credentials.uid = line.mid(4).simplified().split(' ').value(0).toLongLong();
        else if (line.startsWith("Gid:"))
            credentials.gid = line.mid(4).simplified().split(' ').value(0).toLongLong();
    }
    return credentials;
}

} // namespace Automation::Platform
