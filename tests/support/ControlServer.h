#pragma once

#include "remote/TokenStore.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <QTcpServer>
#include <QTcpSocket>

#include <memory>
#include <optional>

namespace Testing {

/// A control server of the remote protocol (Peekaboo's JSON-RPC over TCP), written for the
/// tests and driven from the test's thread with blocking calls: it listens, takes the agent's
/// connection, reads its lines and answers as a test says. Not a reimplementation of any real
/// server: just the wire.
class ControlServer
{
public:
    /// Listens on 127.0.0.1:`port` (0: a free one).
    explicit ControlServer(quint16 port = 0);
    /// From now on, speaks TLS with this certificate and key (PEM files).
    bool useTls(const QString& certificatePath, const QString& keyPath);
    /// Why the last TLS handshake failed (empty when none did).
    QString tlsError() const { return m_tlsError; }
    ~ControlServer();

    bool isListening() const { return m_server && m_server->isListening(); }
    quint16 port() const { return m_port; }
    /// Stops listening and drops the client (a server going down).
    void stop();
    /// Listens again on the same port (a server coming back).
    bool restart();

    /// Waits for the agent to connect; false on timeout.
    bool accept(int timeoutMs = 15000);
    bool hasClient() const { return m_client != nullptr; }
    /// The next message from the agent, or nullopt on timeout or close.
    std::optional<QJsonObject> read(int timeoutMs = 15000);
    void send(const QJsonObject& message);
    void sendRaw(const QByteArray& bytes);
    /// A request; the agent's answer with the same id, lines before it skipped.
    QJsonObject call(const QString& method, const QJsonObject& params, int timeoutMs = 30000);
    /// Whether the agent closed the connection within `timeoutMs`.
    bool waitClosed(int timeoutMs = 10000);
    /// Drops the agent's connection.
    void closeClient();

    /// The auth request, answered: a token for a first registration, "ok" with a token, or -32001.
    void answerAuth(const QJsonObject& auth, const QString& deviceToken = QStringLiteral("token-1"));
    void refuseAuth(const QJsonObject& auth, const QString& message);

private:
    class Listener;
    std::unique_ptr<QTcpServer> m_server;
    QByteArray m_certificate;
    QByteArray m_key;
    QString m_tlsError;
    std::unique_ptr<QTcpSocket> m_client;
    QByteArray m_buffer;
    quint16 m_port = 0;
    int m_nextId = 100;
};

/// The first text item of a tools/call answer (the sentence and the facts).
inline QString toolText(const QJsonObject& response)
{
    return response.value(QStringLiteral("result"))
        .toObject()
        .value(QStringLiteral("content"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("text"))
        .toString();
}

/// Whether a tools/call answer is a result with isError: true.
inline bool toolIsError(const QJsonObject& response)
{
    return response.value(QStringLiteral("result")).toObject().value(QStringLiteral("isError")).toBool(false);
}

/// A token store in memory, for the agent's tests that do not exercise the keyring itself;
/// answers arrive through the event loop like the keychain's. Thread-safe: the agent calls it
/// on the host's thread, the test reads it on its own.
class MemoryTokenStore final : public Remote::TokenStore
{
public:
    struct Shared
    {
        QMutex mutex;
        QHash<QString, QString> tokens;
        /// Every read/write/remove answers this instead of doing anything (NoKeyring, Failed).
        std::optional<Status> failWith;
        int reads = 0;
        int writes = 0;
        int removes = 0;
    };

    explicit MemoryTokenStore(std::shared_ptr<Shared> shared) : m_shared(std::move(shared)) {}
    void read(const QString& key, Done done) override;
    void write(const QString& key, const QString& token, Done done) override;
    void remove(const QString& key, Done done) override;
    QString name() const override { return QStringLiteral("memory (tests)"); }

private:
    std::shared_ptr<Shared> m_shared;
};

} // namespace Testing
