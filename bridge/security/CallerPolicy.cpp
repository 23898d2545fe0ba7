#include "bridge/security/CallerPolicy.h"

#include "bridge/protocol/Meta.h"
#include "bridge/security/CodeSignature.h"

#include <QRegularExpression>

#include <unistd.h>

namespace Bridge {

using Automation::Error;
using Automation::ErrorCode;

CallerPolicy::CallerPolicy(const QStringList& allowlist, qint64 hostUid)
    : m_restricted(!allowlist.isEmpty()), m_hostUid(hostUid >= 0 ? hostUid : static_cast<qint64>(::getuid()))
{
    static const QRegularExpression teamId(QStringLiteral("^team:([A-Z0-9]{10})$"));
    for (const QString& entry : allowlist) {
        if (entry.startsWith(QLatin1String("team:"))) {
            // Apple's Team IDs are ten characters, digits and capital letters.
            const auto match = teamId.match(entry.trimmed());
            if (match.hasMatch() && !m_teams.contains(match.captured(1)))
                m_teams.append(match.captured(1));
            else if (!match.hasMatch())
                m_unresolved.append(entry);
            continue;
        }
        if (const auto real = WorkspacePolicy::realPath(entry)) {
            if (!m_allowed.contains(*real))
                m_allowed.append(*real);
        } else {
            m_unresolved.append(entry);
        }
    }
}

QStringList CallerPolicy::warnings() const
{
    QStringList out;
    for (const QString& entry : m_unresolved) {
        out << (entry.startsWith(QLatin1String("team:"))
                    ? QStringLiteral("allowed caller %1 is not a Team ID (team: and ten capital letters or digits); "
                                     "it can match no process")
                          .arg(entry)
                    : QStringLiteral("allowed caller %1 does not exist; it can match no process").arg(entry));
    }
#ifndef Q_OS_MACOS
    if (!m_teams.isEmpty())
        out << QStringLiteral(
                   "allowed callers by Team ID (%1) match only on macOS, where programs carry code signatures")
                   .arg(m_teams.join(QStringLiteral(", ")));
#endif
    return out;
}

std::optional<Error> CallerPolicy::check(const std::optional<PeerInfo>& peer) const
{
    if (!peer || peer->uid != m_hostUid) {
        return Error::make(ErrorCode::CallerForbidden,
                           QStringLiteral("only processes of the host's own user may connect"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("uid_mismatch")},
                                       {QStringLiteral("peerUid"), peer ? peer->uid : -1},
                                       {QStringLiteral("hostUid"), m_hostUid}});
    }
    if (!m_restricted)
        return std::nullopt;
    // A Team ID entry: the signature must hold and name it (read by pid where the transport did
    // not read it; nullopt where the platform has no code signatures).
    if (!m_teams.isEmpty()) {
        const std::optional<CodeSignature> signature =
            peer->codeSignature ? peer->codeSignature : codeSignatureOfPid(peer->pid);
        if (signature && signature->signedValid && !signature->teamId.isEmpty() && m_teams.contains(signature->teamId))
            return std::nullopt;
    }
    // The kernel's path of the executable, resolved again: a deleted or replaced binary no
    // longer resolves and is refused.
    const auto real = peer->executable.isEmpty() ? std::nullopt : WorkspacePolicy::realPath(peer->executable);
    if (!real) {
        return Error::make(ErrorCode::CallerForbidden,
                           QStringLiteral("the caller's executable cannot be determined, and only listed executables "
                                          "may connect"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("executable_unknown")},
                                       {QStringLiteral("pid"), peer->pid}});
    }
    if (!m_allowed.contains(*real)) {
        return Error::make(ErrorCode::CallerForbidden,
                           QStringLiteral("%1 is not on this host's list of allowed callers").arg(*real),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("not_allowlisted")},
                                       {QStringLiteral("executable"), *real},
                                       {QStringLiteral("pid"), peer->pid}});
    }
    return std::nullopt;
}

} // namespace Bridge
