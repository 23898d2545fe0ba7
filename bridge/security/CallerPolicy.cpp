#include "bridge/security/CallerPolicy.h"

#include "bridge/protocol/Meta.h"

#include <unistd.h>

namespace Bridge {

using Automation::Error;
using Automation::ErrorCode;

CallerPolicy::CallerPolicy(const QStringList& allowlist, qint64 hostUid)
    : m_restricted(!allowlist.isEmpty()), m_hostUid(hostUid >= 0 ? hostUid : static_cast<qint64>(::getuid()))
{
    for (const QString& entry : allowlist) {
        if (const auto real = WorkspacePolicy::realPath(entry)) {
            if (!m_allowed.contains(*real))
                m_allowed.append(*real);
        } else {
            m_unresolved.append(entry);
        }
    }
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
