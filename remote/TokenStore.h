#pragma once

#include <QString>

#include <functional>
#include <memory>

namespace Remote {

/// Where the remote agent keeps its device token: the desktop's secret service through
/// QtKeychain (docs/remote.md). Never QSettings, never a plain file. Asynchronous: every answer
/// arrives on the caller's thread through the event loop.
class TokenStore
{
public:
    enum class Status {
        Ok,        ///< done (read: `token` holds it)
        NotFound,  ///< read or remove: no token is stored under the key
        NoKeyring, ///< there is no secret service to keep it in
        Failed,    ///< the keyring said no (locked, refused, ...): `message`
    };
    struct Outcome
    {
        Status status = Status::Failed;
        QString token;
        QString message;
    };
    using Done = std::function<void(const Outcome&)>;

    virtual ~TokenStore() = default;
    virtual void read(const QString& key, Done done) = 0;
    virtual void write(const QString& key, const QString& token, Done done) = 0;
    virtual void remove(const QString& key, Done done) = 0;
    /// What the store is, for status and logs, e.g. "secret service".
    virtual QString name() const = 0;

    /// The desktop's keyring (QtKeychain, no plain-text fallback), under `service`.
    static std::unique_ptr<TokenStore> keychain(const QString& service = QStringLiteral("msgcode-desktop-host"));
};

} // namespace Remote
