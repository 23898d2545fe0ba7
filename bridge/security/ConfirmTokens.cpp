#include "bridge/security/ConfirmTokens.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QRandomGenerator>
#include <QUuid>

#include <array>

namespace Bridge {

QString ConfirmTokens::refusalName(Refusal refusal)
{
    switch (refusal) {
    case Refusal::UnknownToken:
        return QStringLiteral("unknown_token");
    case Refusal::PeerMismatch:
        return QStringLiteral("peer_mismatch");
    case Refusal::MethodMismatch:
        return QStringLiteral("method_mismatch");
    case Refusal::ParamsMismatch:
        return QStringLiteral("params_mismatch");
    case Refusal::Expired:
        return QStringLiteral("expired");
    case Refusal::Used:
        return QStringLiteral("used");
    }
    return QStringLiteral("unknown_token");
}

ConfirmTokens::ConfirmTokens(Clock clock, int capacity)
    : m_clock(clock ? std::move(clock) : Clock([] { return QDateTime::currentMSecsSinceEpoch(); })),
      m_capacity(std::max(1, capacity))
{
}

QString ConfirmTokens::newUuidV4()
{
    // QRandomGenerator::system() is the operating system's CSPRNG (getrandom(2) on Linux).
    std::array<quint32, 4> words{};
    QRandomGenerator::system()->fillRange(words.data(), static_cast<qsizetype>(words.size()));
    QByteArray bytes(reinterpret_cast<const char*>(words.data()), 16);
    bytes[6] = static_cast<char>((bytes[6] & 0x0F) | 0x40); // version 4
    bytes[8] = static_cast<char>((bytes[8] & 0x3F) | 0x80); // RFC 4122 variant
    return QUuid::fromRfc4122(bytes).toString(QUuid::WithoutBraces);
}

QString ConfirmTokens::tokenId(const QString& token)
{
    return QString::fromLatin1(QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256).toHex().left(12));
}

int ConfirmTokens::size() const
{
    QMutexLocker lock(&m_mutex);
    return static_cast<int>(m_tokens.size());
}

void ConfirmTokens::purgeLocked(qint64 now)
{
    for (auto it = m_tokens.begin(); it != m_tokens.end();) {
        if (now >= it->token.expiresAtMs + kRememberAfterExpiryMs)
            it = m_tokens.erase(it);
        else
            ++it;
    }
}

std::optional<ConfirmTokens::Token> ConfirmTokens::issue(const Scope& scope, const Peer& peer, qint64 ttlMs,
                                                         const QJsonObject& binding, bool byPerson)
{
    const qint64 now = m_clock();
    QMutexLocker lock(&m_mutex);
    if (m_tokens.size() >= m_capacity) {
        purgeLocked(now);
        // Still full: forget spent tokens (a late use of one then reads "unknown_token", still
        // refused) before refusing to issue.
        for (auto it = m_tokens.begin(); it != m_tokens.end() && m_tokens.size() >= m_capacity;) {
            if (it->used || now >= it->token.expiresAtMs)
                it = m_tokens.erase(it);
            else
                ++it;
        }
        if (m_tokens.size() >= m_capacity)
            return std::nullopt;
    }
    Token token;
    do {
        token.token = newUuidV4();
    } while (m_tokens.contains(token.token));
    token.scope = scope;
    token.peer = peer;
    token.issuedAtMs = now;
    token.expiresAtMs = now + std::max<qint64>(1, ttlMs);
    token.binding = binding;
    token.byPerson = byPerson;
    m_tokens.insert(token.token, Entry{token, false});
    return token;
}

ConfirmTokens::Verdict ConfirmTokens::consume(const QString& token, const Scope& scope, const Peer& peer)
{
    // Tokens are issued lower case; a client that upper-cases one still means the same token.
    const QUuid parsed(token);
    const QString key = parsed.isNull() ? token : parsed.toString(QUuid::WithoutBraces);
    const qint64 now = m_clock();
    QMutexLocker lock(&m_mutex);
    const auto it = m_tokens.find(key);
    if (it == m_tokens.end())
        return {Refusal::UnknownToken, std::nullopt};
    Entry& entry = *it;
    // docs/protocol.md §4.2 order: peer, scope, TTL, single use.
    std::optional<Refusal> refusal;
    if (entry.token.peer.pid != peer.pid || entry.token.peer.auditTokenDigest != peer.auditTokenDigest)
        refusal = Refusal::PeerMismatch;
    else if (entry.token.scope.method != scope.method)
        refusal = Refusal::MethodMismatch;
    else if (entry.token.scope.paramsDigest != scope.paramsDigest)
        refusal = Refusal::ParamsMismatch;
    else if (now >= entry.token.expiresAtMs)
        refusal = Refusal::Expired;
    else if (entry.used)
        refusal = Refusal::Used;
    if (!refusal)
        entry.used = true; // a valid use consumes it (docs/protocol.md §5.10); kept only to answer "used" later
    return {refusal, entry.token};
}

} // namespace Bridge
