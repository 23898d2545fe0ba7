#pragma once

#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QString>

#include <functional>
#include <optional>

namespace Bridge {

/// The single-use confirmation tokens of docs/protocol.md §4.2 and §5.10: each is bound to a
/// peer (pid + auditTokenDigest), a method and a paramsDigest, and expires. Verification and
/// consumption are one step under a mutex, so of two concurrent uses exactly one proceeds.
class ConfirmTokens
{
public:
    /// Milliseconds since the epoch (UTC); injectable so tests can move time.
    using Clock = std::function<qint64()>;

    struct Scope
    {
        QString method;
        QString paramsDigest;
    };
    struct Peer
    {
        qint64 pid = -1;
        QString auditTokenDigest;
    };
    struct Token
    {
        QString token; ///< UUID v4, lower case, no braces
        Scope scope;
        Peer peer;
        qint64 issuedAtMs = 0;
        qint64 expiresAtMs = 0;
        /// The target resolved when it was issued (docs/protocol.md, "Policy": an approval is
        /// bound to the element): {bound: "element"|"window", pid, windowId, window, role,
        /// title, handle}, or {bound: "none"} when nothing could be resolved; empty when the
        /// method has nothing to look at.
        QJsonObject binding;
        /// A person approved it in the host's dialog (not a policy): it answers an owner's ask.
        bool byPerson = false;
    };
    /// Why a token was refused; the names are contract `details.reason` values.
    enum class Refusal { UnknownToken, PeerMismatch, MethodMismatch, ParamsMismatch, Expired, Used };
    static QString refusalName(Refusal refusal);

    struct Verdict
    {
        std::optional<Refusal> refusal; ///< nullopt: the token was valid and is now consumed
        std::optional<Token> token;     ///< the stored token, when there is one
    };

    /// Used and expired tokens are remembered this long past their expiry, so a late use is
    /// told "used" or "expired" rather than "unknown_token".
    static constexpr qint64 kRememberAfterExpiryMs = qint64{10} * 60 * 1000;

    explicit ConfirmTokens(Clock clock = {}, int capacity = 16384);

    /// A new token; nullopt when `capacity` live (unused, unexpired) tokens exist already.
    std::optional<Token> issue(const Scope& scope, const Peer& peer, qint64 ttlMs, const QJsonObject& binding = {},
                               bool byPerson = false);
    /// Checks peer, scope, expiry and single use (docs/protocol.md §4.2 order) and consumes the
    /// token when all pass. A refused token stays as it was: only a valid use consumes it.
    Verdict consume(const QString& token, const Scope& scope, const Peer& peer);

    qint64 now() const { return m_clock(); }
    int size() const;

    /// A random UUID v4 from the system's cryptographic generator (getrandom(2) / /dev/urandom).
    static QString newUuidV4();
    /// A short, non-secret name of a token for logs and audit: SHA-256, first 12 hex.
    static QString tokenId(const QString& token);

private:
    struct Entry
    {
        Token token;
        bool used = false;
    };
    void purgeLocked(qint64 now);

    Clock m_clock;
    int m_capacity;
    mutable QMutex m_mutex;
    QHash<QString, Entry> m_tokens;
};

} // namespace Bridge
