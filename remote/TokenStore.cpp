#include "remote/TokenStore.h"

#include <QObject>

#include <qt6keychain/keychain.h>

namespace Remote {

namespace {

TokenStore::Outcome outcomeOf(const QKeychain::Job& job)
{
    using Status = TokenStore::Status;
    switch (job.error()) {
    case QKeychain::NoError:
        return {Status::Ok, {}, {}};
    case QKeychain::EntryNotFound:
        return {Status::NotFound, {}, job.errorString()};
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        return {Status::NoKeyring, {}, job.errorString()};
    case QKeychain::OtherError:
        // libsecret without a secrets service on the bus ends here ("... org.freedesktop.secrets
        // was not provided by any .service files").
        if (job.errorString().contains(QLatin1String("org.freedesktop.secrets")))
            return {Status::NoKeyring, {}, job.errorString()};
        break;
    case QKeychain::CouldNotDeleteEntry:
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
        break;
    }
    return {Status::Failed, {}, job.errorString()};
}

class KeychainTokenStore final : public TokenStore
{
public:
    explicit KeychainTokenStore(QString service) : m_service(std::move(service)) {}

    void read(const QString& key, Done done) override
    {
        auto* job = new QKeychain::ReadPasswordJob(m_service);
        prepare(job, key);
        QObject::connect(job, &QKeychain::Job::finished, job, [done = std::move(done)](QKeychain::Job* finished) {
            Outcome outcome = outcomeOf(*finished);
            if (outcome.status == Status::Ok)
                outcome.token = static_cast<QKeychain::ReadPasswordJob*>(finished)->textData();
            done(outcome);
        });
        job->start();
    }

    void write(const QString& key, const QString& token, Done done) override
    {
        auto* job = new QKeychain::WritePasswordJob(m_service);
        prepare(job, key);
        job->setTextData(token);
        QObject::connect(job, &QKeychain::Job::finished, job,
                         [done = std::move(done)](QKeychain::Job* finished) { done(outcomeOf(*finished)); });
        job->start();
    }

    void remove(const QString& key, Done done) override
    {
        auto* job = new QKeychain::DeletePasswordJob(m_service);
        prepare(job, key);
        QObject::connect(job, &QKeychain::Job::finished, job,
                         [done = std::move(done)](QKeychain::Job* finished) { done(outcomeOf(*finished)); });
        job->start();
    }

    QString name() const override { return QStringLiteral("secret service"); }

private:
    static void prepare(QKeychain::Job* job, const QString& key)
    {
        job->setKey(key);
        job->setAutoDelete(true);
        // Never a plain-text file when the keyring is missing.
        job->setInsecureFallback(false);
    }

    QString m_service;
};

} // namespace

std::unique_ptr<TokenStore> TokenStore::keychain(const QString& service)
{
    return std::make_unique<KeychainTokenStore>(service);
}

} // namespace Remote
