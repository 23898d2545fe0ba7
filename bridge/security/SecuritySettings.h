#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace Bridge {

/// Who approves a confirmation token (docs/protocol.md §5.10).
enum class ConfirmPolicy {
    Ask,  ///< a person, through the GUI; with no GUI attached every request is denied
    Auto, ///< approved at once, without a person (headless servers, tests; logged loudly)
    Deny, ///< never approved
};

/// The host's security settings: confirmation policy, token limits, caller allowlist
/// and where the audit log lives.
struct SecuritySettings
{
    static constexpr qint64 kDefaultTokenTtlMs = 60000;
    static constexpr qint64 kDefaultMaxTokenTtlMs = 600000;
    static constexpr int kDefaultApprovalTimeoutMs = 60000;

    /// The headless default is deny: nobody is there to say yes.
    ConfirmPolicy confirmPolicy = ConfirmPolicy::Deny;
    /// When on, the phrase fallback of docs/protocol.md §4.2 is refused (`phrase_disabled`).
    bool requireToken = false;
    /// The longest `ttlMs` confirm.issue accepts.
    qint64 maxTokenTtlMs = kDefaultMaxTokenTtlMs;
    /// How long a person has to answer an approval request before it counts as denied.
    int approvalTimeoutMs = kDefaultApprovalTimeoutMs;
    /// Executables allowed to connect (resolved with realpath); empty: any process of the user.
    QStringList callerAllowlist;
    /// The MCP front door's own policy (docs/msgcode.md); none: the host's confirmPolicy.
    std::optional<ConfirmPolicy> mcpConfirmPolicy;
    /// The remote agent's own policy (docs/remote.md): ask unless set, whatever the host's is.
    ConfirmPolicy remoteConfirmPolicy = ConfirmPolicy::Ask;
    /// The host's data directory (audit.jsonl); empty: no audit file, log lines only.
    QString dataDir;

    static QString policyName(ConfirmPolicy policy);
    static std::optional<ConfirmPolicy> policyFromName(const QString& name);
};

} // namespace Bridge
