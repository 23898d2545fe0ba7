#pragma once

#include "FakeBackend.h"
#include "Host.h"

#include <QJsonObject>
#include <QLocalSocket>
#include <QTemporaryDir>
#include <QThread>

#include <memory>

namespace Testing {

/// A bridge Host with a FakeBackend, running on its own thread (standing in for the GUI
/// thread), so test code can talk to it with blocking clients.
class TestHost
{
public:
    struct Options
    {
        qsizetype maxLineBytes = 16 * 1024 * 1024;
        int partialLineTimeoutMs = 10000;
        int queueCapacity = 64;
        bool workspaceRoot = true;
        /// Confirmation policy, tokens, allowlist; dataDir empty: `<temp>/data`.
        Bridge::SecuritySettings security;
        /// The token store's clock (default: the system clock).
        Bridge::ConfirmTokens::Clock tokenClock;
        qint64 auditMaxBytes = Bridge::AuditLog::kDefaultMaxBytes;
    };

    TestHost();
    explicit TestHost(Options options);
    ~TestHost();

    QString socketPath() const { return m_socketPath; }
    /// WORKSPACE_ROOT (real path).
    QString root() const { return m_root; }
    /// A workspace inside the root.
    QString workspace() const { return m_workspace; }
    FakeDesktop& desktop() { return *m_desktop; }
    std::shared_ptr<FakeDesktop> desktopPtr() { return m_desktop; }
    /// Runs `f` on the host's thread and waits.
    void onHostThread(const std::function<void(Bridge::Host&)>& f);
    /// Stops the host now (what SIGTERM does in the executable).
    void shutdown();
    /// The host's data directory (audit.jsonl lives there).
    QString dataDir() const { return m_dataDir; }
    /// Every audit line written so far (waits for pending writes first).
    QList<QJsonObject> auditLines();
    /// The audit lines of one event.
    QList<QJsonObject> auditLines(const QString& event);

private:
    QTemporaryDir m_dir;
    QString m_socketPath;
    QString m_root;
    QString m_workspace;
    QString m_dataDir;
    std::shared_ptr<FakeDesktop> m_desktop = std::make_shared<FakeDesktop>();
    QThread m_thread;
    QObject* m_context = nullptr;
    Bridge::Host* m_host = nullptr;
};

/// A blocking JSON-RPC client for tests, usable from any thread (one client per thread).
class TestClient
{
public:
    explicit TestClient(const QString& socketPath);
    bool isConnected() const { return m_socket.state() == QLocalSocket::ConnectedState; }

    /// params.meta filled in (fresh requestId, the workspace, timeoutMs) unless given.
    static QJsonObject withMeta(QJsonObject params, const QString& workspace, int timeoutMs = 60000);
    static QJsonObject request(const QString& method, const QJsonObject& params, const QJsonValue& id);

    void sendLine(const QByteArray& line);
    void send(const QJsonObject& message);
    /// The next line as JSON (object or array) or nullopt on timeout/close.
    std::optional<QJsonValue> readValue(int timeoutMs = 10000);
    std::optional<QJsonObject> readObject(int timeoutMs = 10000);
    /// Sends and waits for the response with the same id.
    QJsonObject call(const QString& method, const QJsonObject& params, int timeoutMs = 10000);
    /// Whether the server closed the connection within `timeoutMs`.
    bool waitClosed(int timeoutMs);
    QLocalSocket& socket() { return m_socket; }

private:
    QLocalSocket m_socket;
    QByteArray m_buffer;
    int m_nextId = 1;
};

/// The error object of a response (empty when it has none).
QJsonObject errorOf(const QJsonObject& response);
QString errorCode(const QJsonObject& response);
QJsonObject resultOf(const QJsonObject& response);
QString newRequestId();

} // namespace Testing
