#include "PeerCredentials.h"

#include <QCryptographicHash>
#include <QFile>

#include <sys/socket.h>
#include <unistd.h>

namespace Bridge {

QJsonObject PeerInfo::toJson() const
{
    return QJsonObject{{QStringLiteral("pid"), pid}, {QStringLiteral("auditTokenDigest"), auditTokenDigest}};
}

QJsonObject PeerInfo::toDetailedJson() const
{
    return QJsonObject{{QStringLiteral("pid"), pid},
                       {QStringLiteral("uid"), uid},
                       {QStringLiteral("gid"), gid},
                       {QStringLiteral("executable"), executable},
                       {QStringLiteral("auditTokenDigest"), auditTokenDigest}};
}

QString auditTokenDigest(qint64 pid, quint64 startTime, qint64 uid, const QString& executable)
{
    const QByteArray input = QByteArray::number(pid) + ':' + QByteArray::number(startTime) + ':' +
                             QByteArray::number(uid) + ':' + QFile::encodeName(executable);
    return QString::fromLatin1(QCryptographicHash::hash(input, QCryptographicHash::Sha256).toHex().left(8));
}

quint64 processStartTime(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray stat = file.readAll();
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

QString processExecutable(qint64 pid)
{
    return QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid));
}

namespace {

PeerInfo complete(PeerInfo info)
{
    info.executable = processExecutable(info.pid);
    info.startTime = processStartTime(info.pid);
    info.auditTokenDigest = auditTokenDigest(info.pid, info.startTime, info.uid, info.executable);
    return info;
}

} // namespace

std::optional<PeerInfo> peerFromSocket(qintptr fd)
{
    struct ucred cred{};
    socklen_t length = sizeof cred;
    if (::getsockopt(static_cast<int>(fd), SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0 || length != sizeof cred)
        return std::nullopt;
    PeerInfo info;
    info.pid = cred.pid;
    info.uid = cred.uid;
    info.gid = cred.gid;
    return complete(info);
}

std::optional<PeerInfo> peerFromPid(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return std::nullopt;
    PeerInfo info;
    info.pid = pid;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("Uid:"))
            info.uid = line.mid(4).simplified().split(' ').value(0).toLongLong();
        else if (line.startsWith("Gid:"))
            info.gid = line.mid(4).simplified().split(' ').value(0).toLongLong();
    }
    return complete(info);
}

} // namespace Bridge
