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
    /// match nothing but still makes the list non-empty. An entry `team:ABCDE12345` admits a
    /// process whose code signature holds and names that Team ID (macOS: Developer ID and Apple
    /// Development signatures); a malformed one is unresolved. `hostUid` -1: this process's uid.
    explicit CallerPolicy(const QStringList& allowlist = {}, qint64 hostUid = -1);

    bool restricted() const { return m_restricted; }
    /// The resolved entries.
    QStringList allowed() const { return m_allowed; }
    /// The Team IDs of `team:` entries.
    QStringList teams() const { return m_teams; }
    /// Entries that did not resolve (for a warning at start).
    QStringList unresolved() const { return m_unresolved; }
    /// What to warn of at start: each unresolved entry and why, and `team:` entries on a
    /// platform without code signatures.
    QStringList warnings() const;
    qint64 hostUid() const { return m_hostUid; }

    /// nullopt when `peer` may connect; else DESKTOP_CALLER_FORBIDDEN with `details.reason`
    /// uid_mismatch, executable_unknown or not_allowlisted. `peer` nullopt: credentials unreadable.
    /// With `team:` entries, a peer without a code signature read has it read now by pid.
    std::optional<Automation::Error> check(const std::optional<PeerInfo>& peer) const;

private:
    QStringList m_allowed;
    QStringList m_teams;
    QStringList m_unresolved;
    bool m_restricted = false;
    qint64 m_hostUid = -1;
};

} // namespace Bridge
