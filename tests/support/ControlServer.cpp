#include "ControlServer.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslSocket>
#include <QTimer>

namespace Testing {

// Hands every connection over as a QSslSocket that starts the server side of TLS when the
// server has a certificate.
class ControlServer::Listener final : public QTcpServer
{
public:
    explicit Listener(const ControlServer& owner) : m_owner(owner) {}

protected:
    void incomingConnection(qintptr descriptor) override
    {
        auto* socket = new QSslSocket(this);
        socket->setSocketDescriptor(descriptor);
        if (!m_owner.m_certificate.isEmpty()) {
            socket->setLocalCertificate(QSslCertificate(m_owner.m_certificate, QSsl::Pem));
            socket->setPrivateKey(QSslKey(m_owner.m_key, QSsl::Rsa, QSsl::Pem));
            socket->setPeerVerifyMode(QSslSocket::VerifyNone);
            socket->startServerEncryption();
        }
        addPendingConnection(socket);
    }

private:
    const ControlServer& m_owner;
};

bool ControlServer::useTls(const QString& certificatePath, const QString& keyPath)
{
    QFile certificate(certificatePath);
    QFile key(keyPath);
    if (!certificate.open(QIODevice::ReadOnly) || !key.open(QIODevice::ReadOnly))
        return false;
    m_certificate = certificate.readAll();
    m_key = key.readAll();
    return true;
}

ControlServer::ControlServer(quint16 port) : m_port(port)
{
    restart();
}

ControlServer::~ControlServer()
{
    stop();
}

void ControlServer::stop()
{
    closeClient();
    if (m_server)
        m_server->close();
    m_server.reset();
}

bool ControlServer::restart()
{
    stop();
    m_server = std::make_unique<Listener>(*this);
    if (!m_server->listen(QHostAddress::LocalHost, m_port))
        return false;
    m_port = m_server->serverPort();
    return true;
}

bool ControlServer::accept(int timeoutMs)
{
    closeClient();
    if (!m_server || !m_server->waitForNewConnection(timeoutMs))
        return false;
    m_client.reset(m_server->nextPendingConnection());
    if (m_client)
        m_client->setParent(nullptr);
    m_buffer.clear();
    m_tlsError.clear();
    if (m_client && !m_certificate.isEmpty()) {
        auto* tls = static_cast<QSslSocket*>(m_client.get());
        if (!tls->waitForEncrypted(timeoutMs)) {
            m_tlsError = tls->errorString();
            closeClient();
            return false;
        }
    }
    return m_client != nullptr;
}

std::optional<QJsonObject> ControlServer::read(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (m_client) {
        const qsizetype newline = m_buffer.indexOf('\n');
        if (newline >= 0) {
            const QByteArray line = m_buffer.left(newline);
            m_buffer.remove(0, newline + 1);
            if (line.trimmed().isEmpty())
                continue;
            const QJsonDocument document = QJsonDocument::fromJson(line);
            return document.isObject() ? std::optional(document.object()) : std::optional(QJsonObject());
        }
        if (deadline.hasExpired())
            return std::nullopt;
        if (m_client->bytesAvailable() == 0 &&
            !m_client->waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime()))))
            return m_client->bytesAvailable() ? read(0) : std::nullopt;
        m_buffer.append(m_client->readAll());
    }
    return std::nullopt;
}

void ControlServer::send(const QJsonObject& message)
{
    sendRaw(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
}

void ControlServer::sendRaw(const QByteArray& bytes)
{
    if (!m_client)
        return;
    m_client->write(bytes);
    while (m_client->bytesToWrite() > 0 && m_client->state() == QAbstractSocket::ConnectedState) {
        if (!m_client->waitForBytesWritten(5000))
            break;
    }
}

QJsonObject ControlServer::call(const QString& method, const QJsonObject& params, int timeoutMs)
{
    const int id = m_nextId++;
    send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                     {QStringLiteral("method"), method},
                     {QStringLiteral("params"), params},
                     {QStringLiteral("id"), id}});
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const auto message = read(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        if (!message)
            return {};
        if (message->value(QStringLiteral("id")) == QJsonValue(id))
            return *message;
    }
    return {};
}

bool ControlServer::waitClosed(int timeoutMs)
{
    if (!m_client)
        return true;
    QDeadlineTimer deadline(timeoutMs);
    while (m_client->state() != QAbstractSocket::UnconnectedState && !deadline.hasExpired()) {
        m_client->waitForReadyRead(50);
        m_buffer.append(m_client->readAll());
    }
    return m_client->state() == QAbstractSocket::UnconnectedState;
}

void ControlServer::closeClient()
{
    if (!m_client)
        return;
    m_client->abort();
    m_client.reset();
    m_buffer.clear();
}

void ControlServer::answerAuth(const QJsonObject& auth, const QString& deviceToken)
{
    QJsonObject result{{QStringLiteral("status"), QStringLiteral("ok")},
                       {QStringLiteral("deviceId"), QStringLiteral("550e8400-e29b-41d4-a716-446655440000")},
                       {QStringLiteral("projectId"), QStringLiteral("660e8400-e29b-41d4-a716-446655440001")}};
    const QJsonObject params = auth.value(QStringLiteral("params")).toObject();
    if (params.contains(QStringLiteral("bindCode"))) {
        result.insert(QStringLiteral("deviceToken"), deviceToken);
        result.insert(QStringLiteral("message"), QStringLiteral("Device registered successfully"));
    } else {
        result.insert(QStringLiteral("message"), QStringLiteral("Reconnected successfully"));
    }
    send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                     {QStringLiteral("result"), result},
                     {QStringLiteral("id"), auth.value(QStringLiteral("id"))}});
}

void ControlServer::refuseAuth(const QJsonObject& auth, const QString& message)
{
    send(QJsonObject{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), -32001}, {QStringLiteral("message"), message}}},
        {QStringLiteral("id"), auth.value(QStringLiteral("id"))}});
}

namespace {

void later(Remote::TokenStore::Done done, Remote::TokenStore::Outcome outcome)
{
    QTimer::singleShot(0, [done = std::move(done), outcome] { done(outcome); });
}

} // namespace

void MemoryTokenStore::read(const QString& key, Done done)
{
    QMutexLocker lock(&m_shared->mutex);
    ++m_shared->reads;
    if (m_shared->failWith)
        return later(std::move(done), {*m_shared->failWith, {}, QStringLiteral("scripted failure")});
    const auto it = m_shared->tokens.constFind(key);
    if (it == m_shared->tokens.cend())
        return later(std::move(done), {Status::NotFound, {}, QStringLiteral("no such entry")});
    later(std::move(done), {Status::Ok, *it, {}});
}

void MemoryTokenStore::write(const QString& key, const QString& token, Done done)
{
    QMutexLocker lock(&m_shared->mutex);
    ++m_shared->writes;
    if (m_shared->failWith)
        return later(std::move(done), {*m_shared->failWith, {}, QStringLiteral("scripted failure")});
    m_shared->tokens.insert(key, token);
    later(std::move(done), {Status::Ok, {}, {}});
}

void MemoryTokenStore::remove(const QString& key, Done done)
{
    QMutexLocker lock(&m_shared->mutex);
    ++m_shared->removes;
    if (m_shared->failWith)
        return later(std::move(done), {*m_shared->failWith, {}, QStringLiteral("scripted failure")});
    const bool had = m_shared->tokens.remove(key) > 0;
    later(std::move(done), {had ? Status::Ok : Status::NotFound, {}, {}});
}

} // namespace Testing
