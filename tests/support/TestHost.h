#pragma once

#include "FakeBackend.h"
#include "bridge/Host.h"
#include "bridge/protocol/Client.h"

#include <QJsonObject>
#include <QLocalSocket>
#include <QMutex>
#include <QTemporaryDir>
#include <QThread>

#include <memory>

namespace Testing {

/// A scripted GUI for the `ask` policy: records what it is asked and withdrawn, and answers
/// (asynchronously, like a person) as its mode says. Thread-safe: the host calls it on its
/// thread, the test reads it on its own.
class ScriptedApprover final : public Bridge::Approver
{
public:
    enum class Mode { Never, Approve, Deny };
    explicit ScriptedApprover(Mode mode = Mode::Never, int answerAfterMs = 20)
        : m_mode(mode), m_answerAfterMs(answerAfterMs)
    {
    }

    void ask(const Bridge::ApprovalRequest& request) override;
    void withdraw(quint64 id) override;

    QList<Bridge::ApprovalRequest> asked() const;
    QList<quint64> withdrawn() const;
    /// Set by TestHost::attachApprover.
    Bridge::AskConfirmationProvider* provider = nullptr;
    /// With an approval of a request that offers it: also allow its client this long.
    int grantMinutes = 0;
    /// With an approval of an owner's ask: "once", "minutes" (grantMinutes) or "always".
    QString scope;

private:
    mutable QMutex m_mutex;
    Mode m_mode;
    int m_answerAfterMs;
    QList<Bridge::ApprovalRequest> m_asked;
    QList<quint64> m_withdrawn;
};

/// A policy whose one rule ("tests-allow-all") allows every action in every app.
Bridge::OwnerPolicy allowEverything();

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
        /// The user's opt-in to keep typed text in request.json.
        bool keepTypedText = false;
        /// The MCP front door's executable (ServerOptions::mcpDoorExecutable).
        QString mcpDoorExecutable;
        /// Another backend than the FakeBackend (e.g. the macOS backend over FakeAxApi), made on
        /// the worker thread; desktop() is then unused.
        std::function<std::unique_ptr<Automation::DesktopBackend>()> backendFactory;
        /// Another permission probe than FakePermissionProbe.
        std::function<std::unique_ptr<Automation::PermissionProbe>()> probeFactory;
        /// The owner's rules. By default one rule allows everything, as msgcode's unattended
        /// set-up does for the apps it drives: the suites that test something else are not
        /// asked about "Send". The policy tests set their own (an empty policy: the built-ins).
        Bridge::OwnerPolicy ownerPolicy = allowEverything();
        /// A rule file instead (HostOptions::policyFile); trusted as it is when policyFileTrusted,
        /// else the trusted copy is kept in the data directory.
        QString policyFile;
        bool policyFileTrusted = false;
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
    /// Attaches `approver` to the `ask` provider (the host must run with ConfirmPolicy::Ask).
    /// The approver must outlive the host.
    void attachApprover(ScriptedApprover& approver);
    /// Attaches `approver` to the MCP front door's ask provider (Host::mcpAskProvider).
    void attachMcpApprover(ScriptedApprover& approver);
    /// Attaches `approver` to the remote agent's ask provider (Host::remoteAskProvider).
    void attachRemoteApprover(ScriptedApprover& approver);
    /// A person's answer to approval request `id`, as the GUI would give it.
    void answerApproval(quint64 id, bool approved);
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

/// A blocking JSON-RPC client for tests, usable from any thread (one client per thread): a
/// Bridge::Client for call(), and line-level access for the tests that write and read the wire.
class TestClient
{
public:
    explicit TestClient(const QString& socketPath);
    bool isConnected() const { return m_client.isConnected(); }

    /// params.meta filled in (fresh requestId, the workspace, timeoutMs); fields given in
    /// params.meta win.
    static QJsonObject withMeta(QJsonObject params, const QString& workspace, int timeoutMs = 60000);
    static QJsonObject request(const QString& method, const QJsonObject& params, const QJsonValue& id);

    /// Bytes as they are.
    void sendLine(const QByteArray& line);
    /// One message as it is; its answer is read with readLine/readValue/readObject.
    void send(const QJsonObject& message);
    /// The next line as sent (without its newline) or nullopt on timeout/close.
    std::optional<QByteArray> readLine(int timeoutMs = 10000);
    /// The next line as JSON (object or array) or nullopt on timeout/close.
    std::optional<QJsonValue> readValue(int timeoutMs = 10000);
    std::optional<QJsonObject> readObject(int timeoutMs = 10000);
    /// Sends and waits for the response with the same id; the lines that came before it are
    /// skipped. Empty on timeout/close.
    QJsonObject call(const QString& method, const QJsonObject& params, int timeoutMs = 10000);
    /// Whether the server closed the connection within `timeoutMs`.
    bool waitClosed(int timeoutMs);
    QLocalSocket& socket() { return m_client.socket(); }
    Bridge::Client& client() { return m_client; }

private:
    Bridge::Client m_client;
    int m_nextId = 1;
};

/// The error object of a response (empty when it has none).
QJsonObject errorOf(const QJsonObject& response);
QString errorCode(const QJsonObject& response);
QJsonObject resultOf(const QJsonObject& response);
QString newRequestId();

} // namespace Testing
