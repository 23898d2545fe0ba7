#pragma once

#include "bridge/security/CodeSignature.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <sys/types.h>

namespace Bridge {

/// Who is on the other end of a local socket, pinned when the connection is accepted.
struct PeerInfo
{
    qint64 pid = -1;
    qint64 uid = -1;
    qint64 gid = -1;
    QString executable;       ///< /proc/PID/exe, symlinks resolved; empty if unreadable
    quint64 startTime = 0;    ///< /proc/PID/stat field 22, so a recycled pid is told apart
    QString auditTokenDigest; ///< sha256("pid:starttime:uid:exe"), first 8 hex digits: names the process
                              ///< in audit lines and binds tokens to it (a recycled pid differs)
    /// The parent's executable (symlinks resolved), read for the MCP door only: the client that
    /// started it (msgcode's node), which a person approves; empty otherwise.
    QString parentExecutable;
    /// The code signature (macOS), read at connect time; nullopt where there is none to read.
    std::optional<CodeSignature> codeSignature;

    /// docs/protocol.md §5.1 `peer`: {pid, auditTokenDigest}.
    QJsonObject toJson() const;
    /// The full identity for evidence and audit.
    QJsonObject toDetailedJson() const;
};

/// The kernel's record of a connected local socket's peer (Linux: SO_PEERCRED), completed with
/// the process facts of Automation::Platform.
std::optional<PeerInfo> peerFromSocket(qintptr fd);
/// The identity of a process (its uid/gid from the platform), e.g. this process.
std::optional<PeerInfo> peerFromPid(qint64 pid);

/// The audit digest of PeerInfo::auditTokenDigest.
QString auditTokenDigest(qint64 pid, quint64 startTime, qint64 uid, const QString& executable);
/// When the process started (Linux: field 22 of /proc/PID/stat); 0 when unreadable.
quint64 processStartTime(qint64 pid);
/// The executable, symlinks resolved (Linux: /proc/PID/exe); empty when unreadable.
QString processExecutable(qint64 pid);
/// The executable of the process's parent, symlinks resolved; empty when unreadable.
QString parentExecutable(qint64 pid);

} // namespace Bridge
