#pragma once

#include "automation/Error.h"
#include "bridge/transport/PeerCredentials.h"

#include <QStringList>

#include <optional>

namespace Bridge {

/// Who may connect (docs/architecture.md, "Who may connect"): processes of the host's own uid and,
/// when the allowlist is not empty, only those whose executable (Linux: /proc/PID/exe, symlinks
/// resolved) is on it. Checked once at connect; the identity is then pinned for the connection.
class CallerPolicy
{
public:
    /// `allowlist` entries are resolved with realpath now; an entry that does not resolve can
    /// match nothing but still makes the list non-empty. `hostUid` -1: this process's uid.
    explicit CallerPolicy(const QStringList& allowlist = {}, qint64 hostUid = -1);

    bool restricted() const { return m_restricted; }
    /// The resolved entries.
    QStringList allowed() const { return m_allowed; }
    /// Entries that did not resolve (for a warning at start).
    QStringList unresolved() const { return m_unresolved; }
    qint64 hostUid() const { return m_hostUid; }

    /// nullopt when `peer` may connect; else DESKTOP_CALLER_FORBIDDEN with `details.reason`
    /// uid_mismatch, executable_unknown or not_allowlisted. `peer` nullopt: credentials unreadable.
    std::optional<Automation::Error> check(const std::optional<PeerInfo>& peer) const;

private:
    QStringList m_allowed;
    QStringList m_unresolved;
    bool m_restricted = false;
    qint64 m_hostUid = -1;
};

} // namespace Bridge
