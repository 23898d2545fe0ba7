#include "bridge/transport/PeerCredentials.h"

#include "automation/platform/ProcessInfo.h"

#include <QCryptographicHash>
#include <QFile>

namespace Bridge {

QJsonObject PeerInfo::toJson() const
{
    return QJsonObject{{QStringLiteral("pid"), pid}, {QStringLiteral("auditTokenDigest"), auditTokenDigest}};
}

QJsonObject PeerInfo::toDetailedJson() const
{
    QJsonObject out{{QStringLiteral("pid"), pid},
                    {QStringLiteral("uid"), uid},
                    {QStringLiteral("gid"), gid},
                    {QStringLiteral("executable"), executable},
                    {QStringLiteral("auditTokenDigest"), auditTokenDigest}};
    if (!parentExecutable.isEmpty())
        out.insert(QStringLiteral("parentExecutable"), parentExecutable);
    if (codeSignature)
        out.insert(QStringLiteral("codeSignature"), codeSignature->toJson());
    return out;
}

QString auditTokenDigest(qint64 pid, quint64 startTime, qint64 uid, const QString& executable)
{
    const QByteArray input = QByteArray::number(pid) + ':' + QByteArray::number(startTime) + ':' +
                             QByteArray::number(uid) + ':' + QFile::encodeName(executable);
    return QString::fromLatin1(QCryptographicHash::hash(input, QCryptographicHash::Sha256).toHex().left(8));
}

QString parentExecutable(qint64 pid)
{
    const qint64 parent = Automation::Platform::parentPid(pid);
    return parent > 0 ? Automation::Platform::processExecutable(parent) : QString();
}

quint64 processStartTime(qint64 pid)
{
    return Automation::Platform::processStartTime(pid);
}

QString processExecutable(qint64 pid)
{
    return Automation::Platform::processExecutable(pid);
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
    const auto cred = Automation::Platform::socketPeer(fd);
    if (!cred)
        return std::nullopt;
    PeerInfo info;
    info.pid = cred->pid;
    info.uid = cred->uid;
    info.gid = cred->gid;
    return complete(info);
}

std::optional<PeerInfo> peerFromPid(qint64 pid)
{
    const auto cred = Automation::Platform::processCredentials(pid);
    if (!cred)
        return std::nullopt;
    PeerInfo info;
    info.pid = pid;
    info.uid = cred->uid;
    info.gid = cred->gid;
    return complete(info);
}

} // namespace Bridge
