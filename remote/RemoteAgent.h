#pragma once

#include "bridge/RemoteControl.h"
#include "bridge/protocol/LineFramer.h"
#include "bridge/transport/Caller.h"
#include "client-kit/SideEffectCall.h"
#include "remote/Backoff.h"
#include "remote/RemoteTools.h"
#include "remote/TokenStore.h"

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QSslSocket>
#include <QTimer>

#include <functional>
#include <memory>

namespace Bridge {
class Dispatcher;
}

namespace Remote {

/// Where and how the agent dials (docs/remote.md). The device token is not here: it lives in
/// the keyring only.
struct RemoteConfig
{
    QString host;
    quint16 port = 0;
    bool tls = false;
    /// The server certificate's SHA-256, hex (colons and case do not matter); empty: the
    /// system's trust decides.
    QString fingerprint;
    int retryDelayMs = 1000;
    int maxRetries = 0;
    /// Off: one attempt, no backoff (Peekaboo's --no-reconnect).
    bool reconnect = true;
    /// Where the remote caller's evidence goes (inside the workspace root).
    QString workspace;
    /// deviceInfo.name; empty: the machine's host name.
    QString deviceName;

    bool isSet() const { return !host.isEmpty() && port != 0; }
    /// "host:port", with " (TLS)" when encrypted: what the dialog and the tray show.
    QString serverName() const;
    /// The keyring entry's key: one token per server and way of reaching it (TCP, TLS, the pin).
    QString tokenKey() const;
};

/// The remote agent: the host dials out to a control server and serves it Peekaboo's JSON-RPC
/// protocol (auth, ping, tools/list, tools/call; newline-delimited JSON-RPC 2.0 over TCP or TLS),
/// running every tool through the engine in process as the remote principal (Transport::Remote,
/// its own confirmation policy). Lives on the GUI thread and never blocks it: the socket,
/// the keyring and the engine all answer through the event loop.
class RemoteAgent final : public QObject, public Bridge::RemoteControl, private Remote::Engine, private DoorKit::Engine
{
    Q_OBJECT

public:
    enum class State {
        Off,            ///< not configured, or disconnected by a person
        Connecting,     ///< reading the keyring, dialling, TLS handshake
        Authenticating, ///< auth sent, no answer yet
        Connected,      ///< authenticated: the server may send commands
        Waiting,        ///< between attempts (backoff)
        NeedsBindCode,  ///< no token, or the server refused it or the bind code: a person must act
        Failed,         ///< no keyring, attempts used up, or a configuration the agent cannot use
    };
    Q_ENUM(State)

    /// Runs `fn` after `ms` (tests replace it to record the delays and run at once).
    using Scheduler = std::function<void(int ms, std::function<void()> fn)>;

    /// The longest line accepted from the server; a longer one is answered -32600 and the
    /// connection closed.
    static constexpr qsizetype kMaxLineBytes = qsizetype(4) * 1024 * 1024;
    /// Tool calls running at once on one connection; more are answered -32003.
    static constexpr int kMaxCallsInFlight = 16;
    static constexpr int kConnectTimeoutMs = 10000;
    static constexpr int kAuthTimeoutMs = 15000;
    /// After refusing an over-long line: how long the rest is read and dropped before closing.
    static constexpr int kCloseDrainMs = 1000;

    RemoteAgent(Bridge::Dispatcher& dispatcher, std::unique_ptr<TokenStore> tokens, QObject* parent = nullptr);
    ~RemoteAgent() override;

    void setScheduler(Scheduler scheduler) { m_schedule = std::move(scheduler); }
    /// deviceInfo's version, os, osVersion and screenResolution (tests pin them).
    void setDeviceInfo(const QJsonObject& info) { m_deviceInfo = info; }
    /// Where deviceInfo.screenResolution comes from ("1920x1080"; empty: not sent). Default: the
    /// primary screen of a QGuiApplication, when there is one.
    void setScreenResolution(std::function<QString()> resolution) { m_screenResolution = std::move(resolution); }

    /// How a bind code given to start() is used.
    enum class BindCodeUse {
        IfNoToken, ///< only when the keyring holds no token for the server (the command line's)
        Always,    ///< instead of a stored token: a deliberate new registration (remote connect)
    };
    /// Starts with `config` (a bind code for a first registration). Replaces any connection.
    void start(const RemoteConfig& config, const QString& bindCode = {}, BindCodeUse use = BindCodeUse::IfNoToken);
    /// A person typed a bind code (the tray's prompt): dials with it now.
    void useBindCode(const QString& bindCode);
    /// Hangs up; no more attempts until start().
    void stop();

    State state() const { return m_state; }
    static QString stateName(State state);
    const RemoteConfig& config() const { return m_config; }
    /// Why the last attempt failed, for a person (the tray, status).
    QString lastError() const { return m_lastError; }

    /// What the tools run on: the engine in process as the remote principal, with side effects
    /// looked for, confirmed and called through the client kit (tests drive it directly).
    Remote::Engine& toolEngine() { return *this; }

    // Bridge::RemoteControl
    QJsonObject status() const override;
    Automation::Result<QJsonObject> connectTo(const QJsonObject& params) override;
    QJsonObject disconnect() override;
    void forget(const Respond& respond) override;

Q_SIGNALS:
    void stateChanged(Remote::RemoteAgent::State state);
    /// The server refused the token or the bind code, or there is none: the tray asks a person.
    void bindCodeNeeded(const QString& why);
    /// The retries in a row before the next attempt, and its delay (tests, the benchmark).
    void retryScheduled(int retry, int delayMs);

private:
    using Reply = Remote::Engine::Reply;

    // Remote::Engine: the tools' calls.
    void call(const QString& method, const QJsonObject& params, bool sideEffect, int timeoutMs, Reply reply) override;
    void sleep(int ms, std::function<void()> done) override;
    // DoorKit::Engine: one dispatcher call at a time for the kit's look -> confirm -> call.
    void request(const QString& method, const QJsonObject& params, int timeoutMs, Reply reply) override;
    int confirmTimeoutMs() const override;

    void setState(State state, const QString& error = {});
    void readTokenThenDial();
    void dial();
    void onConnected();
    void onReadyRead();
    void onDisconnected();
    void handleLine(const QByteArray& line);
    void handleAuthAnswer(const QJsonObject& message);
    void handleRequest(const QJsonObject& message);
    void send(const QJsonObject& message);
    void answer(const QJsonValue& id, const QJsonObject& result);
    void answerError(const QJsonValue& id, int code, const QString& message, const QJsonObject& data = {});
    /// Ends the connection (the engine's work for it is aborted) and, when `retry`, schedules
    /// the next attempt.
    void hangUp(const QString& why, bool retry);
    void scheduleRetry();
    Bridge::Caller caller() const;
    /// One dispatcher call as the remote principal; `reply` is dropped when the connection went.
    void dispatch(const QString& method, QJsonObject params, int timeoutMs, Reply reply);
    QJsonObject deviceInfo() const;

    Bridge::Dispatcher& m_dispatcher;
    std::unique_ptr<TokenStore> m_tokens;
    Scheduler m_schedule;
    RemoteConfig m_config;
    QString m_bindCode;
    /// The bind code goes first, even with a token stored (a person's or a client's new binding).
    bool m_bindCodeWins = false;
    /// The token of this run, once read or received (also kept in the keyring).
    QString m_token;
    bool m_authWithToken = false;
    QJsonObject m_deviceInfo;
    std::function<QString()> m_screenResolution;
    State m_state = State::Off;
    QString m_lastError;
    std::unique_ptr<QSslSocket> m_socket;
    Bridge::LineFramer m_framer{kMaxLineBytes};
    QTimer m_deadline;
    /// Bumped at every start, stop and hang-up: answers and timers of an older one are dropped.
    quint64 m_generation = 0;
    /// The connection id of the current connection, in the range reserved for the agent.
    quint64 m_connectionId = 0;
    int m_retries = 0;
    int m_nextDelayMs = 0;
    int m_inFlight = 0;
    /// Refused an over-long line: reading and dropping until the connection is closed.
    bool m_discarding = false;
    QString m_deviceId;
    QString m_projectId;
    QDateTime m_connectedAt;
    quint64 m_callsServed = 0;
};

} // namespace Remote
