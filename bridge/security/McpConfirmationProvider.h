#pragma once

#include "bridge/security/ConfirmationProvider.h"
#include "bridge/security/SecuritySettings.h"

#include <QDateTime>
#include <QHash>

#include <functional>

namespace Bridge {

/// The MCP front door's confirmation policy (docs/msgcode.md, "Confirmation"). msgcode starts
/// a new door process for every tool call, so a person's "allow this client for N minutes" is
/// kept for the client, not the door: the uid and the real path of the door's parent
/// executable. Under `ask`, a request of a client allowed until later is approved at once
/// (decidedBy "grant"); any other goes to the host's ask provider with the offer to allow the
/// client. `auto` and `deny` decide as their providers do.
class McpConfirmationProvider final : public ConfirmationProvider
{
public:
    using Clock = std::function<QDateTime()>;

    /// `ask`: the host's ask provider (not owned), used while the policy is ask.
    McpConfirmationProvider(AskConfirmationProvider* ask, ConfirmPolicy policy, Clock clock = {});

    QString policyName() const override;
    void request(const ApprovalRequest& request, Done done) override;
    void cancel(quint64 id) override;

    void setPolicy(ConfirmPolicy policy);
    ConfirmPolicy policy() const { return m_policy; }
    /// Until when `request`'s client is allowed; invalid when it is not.
    QDateTime grantedUntil(const ApprovalRequest& request) const;
    /// Forgets every grant (the policy changed, or a person said so).
    void clearGrants() { m_grants.clear(); }

    /// The key of a client: "uid:parent executable".
    static QString clientKey(const ApprovalRequest& request);

private:
    AskConfirmationProvider* m_ask;
    ConfirmPolicy m_policy;
    Clock m_clock;
    AutoConfirmationProvider m_auto;
    DenyConfirmationProvider m_deny;
    QHash<QString, QDateTime> m_grants;
};

} // namespace Bridge
