#include "remote/RemoteAgent.h"

#include "bridge/Dispatcher.h"
#include "bridge/protocol/Meta.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QScreen>
#include <QSslCertificate>
#include <QSysInfo>

namespace Remote {

Q_LOGGING_CATEGORY(lcRemote, "msgcode.remote")

namespace {

/// The agent's connection ids start here, far above the socket server's (which count from 1).
constexpr quint64 kConnectionIdBase = quint64(1) << 48;
quint64 g_nextConnection = 0;

constexpr int kAuthFailed = -32001;
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;

QString normalizedFingerprint(const QString& text)
{
    QString out = text;
    out.remove(QLatin1Char(':'));
    return out.trimmed().toLower();
}

} // namespace

QString RemoteConfig::serverName() const
{
    QString name = QStringLiteral("%1:%2").arg(host).arg(port);
    if (tls)
        name += QStringLiteral(" (TLS)");
    return name;
}

QString RemoteConfig::tokenKey() const
{
    // The token is bound to how the server was reached: a token got over TLS (with a pin) is
    // never sent over plain TCP, or to a server whose certificate is not that pin.
    QString transport = tls ? QStringLiteral("tls") : QStringLiteral("tcp");
    if (const QString pin = normalizedFingerprint(fingerprint); tls && !pin.isEmpty())
        transport += QStringLiteral("-") + pin.left(16);
    return QStringLiteral("remote-device-token/%1/%2:%3").arg(transport, host).arg(port);
}

RemoteAgent::RemoteAgent(Bridge::Dispatcher& dispatcher, std::unique_ptr<TokenStore> tokens, QObject* parent)
    : QObject(parent), m_dispatcher(dispatcher), m_tokens(std::move(tokens))
{
    m_schedule = [this](int ms, std::function<void()> fn) { QTimer::singleShot(ms, this, std::move(fn)); };
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        hangUp(m_state == State::Authenticating ? tr("the server did not answer the authentication in time")
                                                : tr("the connection was not made in time"),
               true);
    });
}

RemoteAgent::~RemoteAgent()
{
    hangUp({}, false);
}

QString RemoteAgent::stateName(State state)
{
    switch (state) {
    case State::Off:
        return QStringLiteral("off");
    case State::Connecting:
        return QStringLiteral("connecting");
    case State::Authenticating:
        return QStringLiteral("authenticating");
    case State::Connected:
        return QStringLiteral("connected");
    case State::Waiting:
        return QStringLiteral("waiting");
    case State::NeedsBindCode:
        return QStringLiteral("needs_bind_code");
    case State::Failed:
        break;
    }
    return QStringLiteral("failed");
}

void RemoteAgent::setState(State state, const QString& error)
{
    if (!error.isEmpty()) {
        m_lastError = error;
        qCInfo(lcRemote).noquote() << m_config.serverName() << stateName(state) << ":" << error;
    }
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void RemoteAgent::start(const RemoteConfig& config, const QString& bindCode, BindCodeUse use)
{
    hangUp({}, false);
    m_config = config;
    m_bindCode = bindCode.trimmed();
    m_bindCodeWins = use == BindCodeUse::Always && !m_bindCode.isEmpty();
    m_token.clear();
    m_retries = 0;
    m_lastError.clear();
    m_deviceId.clear();
    m_projectId.clear();
    if (!m_config.isSet()) {
        setState(State::Off);
        return;
    }
    // The remote caller's evidence directory, private to this user.
    if (!m_config.workspace.isEmpty() && !QDir(m_config.workspace).exists() && QDir().mkpath(m_config.workspace))
        QFile::setPermissions(m_config.workspace,
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    readTokenThenDial();
}

void RemoteAgent::useBindCode(const QString& bindCode)
{
    if (!m_config.isSet() || bindCode.trimmed().isEmpty())
        return;
    hangUp({}, false);
    m_bindCode = bindCode.trimmed();
    m_bindCodeWins = true;
    m_retries = 0;
    dial();
}

void RemoteAgent::stop()
{
    hangUp({}, false);
    setState(State::Off);
}

void RemoteAgent::readTokenThenDial()
{
    setState(State::Connecting);
    if (!m_token.isEmpty() || m_bindCodeWins)
        return dial();
    const quint64 generation = ++m_generation;
    QPointer<RemoteAgent> self(this);
    m_tokens->read(m_config.tokenKey(), [self, generation](const TokenStore::Outcome& outcome) {
        if (!self || self->m_generation != generation)
            return;
        switch (outcome.status) {
        case TokenStore::Status::Ok:
            self->m_token = outcome.token;
            return self->dial();
        case TokenStore::Status::NotFound:
            if (!self->m_bindCode.isEmpty())
                return self->dial();
            self->setState(State::NeedsBindCode,
                           tr("this device has no token for %1 yet: enter the bind code the control server shows")
                               .arg(self->m_config.serverName()));
            Q_EMIT self->bindCodeNeeded(self->m_lastError);
            return;
        case TokenStore::Status::NoKeyring:
            // Without a keyring the token could not be kept safely: no connection at all.
            self->setState(State::Failed, tr("no keyring (secret service) is running, so the device token cannot be "
                                             "kept safely and the remote agent does not connect: %1")
                                              .arg(outcome.message));
            return;
        case TokenStore::Status::Failed:
            break;
        }
        self->setState(State::Failed, tr("the keyring refused to give the device token: %1").arg(outcome.message));
    });
}

void RemoteAgent::dial()
{
    hangUp({}, false);
    const quint64 generation = m_generation;
    setState(State::Connecting);
    m_socket = std::make_unique<QSslSocket>();
    QSslSocket* socket = m_socket.get();
    connect(socket, &QSslSocket::readyRead, this, &RemoteAgent::onReadyRead);
    connect(socket, &QSslSocket::disconnected, this, &RemoteAgent::onDisconnected);
    connect(socket, &QSslSocket::errorOccurred, this, [this, generation](QAbstractSocket::SocketError) {
        if (generation == m_generation && m_socket)
            hangUp(m_socket->errorString(), true);
    });
    m_deadline.start(kConnectTimeoutMs);
    if (!m_config.tls) {
        connect(socket, &QSslSocket::connected, this, &RemoteAgent::onConnected);
        socket->connectToHost(m_config.host, m_config.port);
        return;
    }
    const QString pin = normalizedFingerprint(m_config.fingerprint);
    connect(socket, &QSslSocket::sslErrors, this, [this, socket, pin, generation](const QList<QSslError>& errors) {
        // A pinned certificate is trusted for itself (self-signed servers); nothing else is.
        const QString seen = QString::fromLatin1(socket->peerCertificate().digest(QCryptographicHash::Sha256).toHex());
        if (!pin.isEmpty() && seen == pin) {
            socket->ignoreSslErrors(errors);
            return;
        }
        if (generation != m_generation)
            return;
        // Not a passing fault: trying again would meet the same certificate.
        QStringList why;
        for (const QSslError& error : errors)
            why.append(error.errorString());
        hangUp({}, false);
        setState(State::Failed, pin.isEmpty()
                                    ? tr("the server's certificate is not trusted (%1); pin it with its "
                                         "SHA-256 fingerprint %2 if it is the right one")
                                          .arg(why.join(QStringLiteral("; ")), seen)
                                    : tr("the server's certificate (SHA-256 %1) is not the pinned one").arg(seen));
    });
    connect(socket, &QSslSocket::encrypted, this, [this, socket, pin, generation] {
        if (generation != m_generation)
            return;
        const QString seen = QString::fromLatin1(socket->peerCertificate().digest(QCryptographicHash::Sha256).toHex());
        if (!pin.isEmpty() && seen != pin) {
            hangUp({}, false);
            setState(State::Failed, tr("the server's certificate (SHA-256 %1) is not the pinned one").arg(seen));
            return;
        }
        onConnected();
    });
    socket->connectToHostEncrypted(m_config.host, m_config.port);
}

QJsonObject RemoteAgent::deviceInfo() const
{
    QJsonObject info{
        {QStringLiteral("name"), m_config.deviceName.isEmpty() ? QSysInfo::machineHostName() : m_config.deviceName},
        {QStringLiteral("version"), QStringLiteral(MDH_VERSION)}};
    if (m_authWithToken)
        return info;
    info.insert(QStringLiteral("os"),
                QSysInfo::kernelType() == QLatin1String("darwin") ? QStringLiteral("macOS") : QStringLiteral("Linux"));
    info.insert(QStringLiteral("osVersion"), QSysInfo::productVersion());
    QString resolution = m_screenResolution ? m_screenResolution() : QString();
    if (!m_screenResolution && qGuiApp) {
        if (const QScreen* screen = QGuiApplication::primaryScreen()) {
            const QSize size = screen->size() * screen->devicePixelRatio();
            resolution = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        }
    }
    if (!resolution.isEmpty())
        info.insert(QStringLiteral("screenResolution"), resolution);
    for (auto it = m_deviceInfo.begin(); it != m_deviceInfo.end(); ++it)
        info.insert(it.key(), it.value());
    return info;
}

void RemoteAgent::onConnected()
{
    setState(State::Authenticating);
    m_authWithToken = !m_token.isEmpty() && !m_bindCodeWins;
    QJsonObject params{{QStringLiteral("deviceInfo"), deviceInfo()}};
    if (m_authWithToken)
        params.insert(QStringLiteral("deviceToken"), m_token);
    else
        params.insert(QStringLiteral("bindCode"), m_bindCode);
    send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                     {QStringLiteral("method"), QStringLiteral("auth")},
                     {QStringLiteral("params"), params},
                     {QStringLiteral("id"), 0}});
    m_deadline.start(kAuthTimeoutMs);
}

void RemoteAgent::onReadyRead()
{
    if (!m_socket)
        return;
    const quint64 generation = m_generation;
    if (m_discarding) {
        // Closing: what still comes is read and dropped, so that the close is not a reset that
        // would take the answer already sent with it.
        m_socket->readAll();
        return;
    }
    m_framer.append(m_socket->readAll());
    while (generation == m_generation) {
        auto item = m_framer.next();
        if (!item)
            break;
        if (item->kind == Bridge::LineFramer::Item::Kind::TooLong) {
            answerError(QJsonValue(), kInvalidRequest,
                        QStringLiteral("line exceeds %1 bytes; closing the connection").arg(kMaxLineBytes));
            m_socket->flush();
            m_discarding = true;
            m_framer = Bridge::LineFramer(kMaxLineBytes);
            QPointer<RemoteAgent> self(this);
            QTimer::singleShot(kCloseDrainMs, this, [self, generation] {
                if (self && self->m_generation == generation)
                    self->hangUp(tr("the server sent a line over %1 bytes").arg(kMaxLineBytes), true);
            });
            return;
        }
        handleLine(item->line);
    }
}

void RemoteAgent::onDisconnected()
{
    hangUp(tr("the server closed the connection"), true);
}

void RemoteAgent::handleLine(const QByteArray& line)
{
    if (line.trimmed().isEmpty())
        return;
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError)
        return answerError(QJsonValue(), kParseError, QStringLiteral("Parse error: %1").arg(error.errorString()));
    if (!document.isObject())
        return answerError(QJsonValue(), kInvalidRequest,
                           QStringLiteral("Invalid Request: expected one JSON-RPC object per line"));
    const QJsonObject message = document.object();
    const bool isRequest = message.contains(QStringLiteral("method"));
    if (m_state == State::Authenticating) {
        if (!isRequest && message.value(QStringLiteral("id")) == QJsonValue(0))
            return handleAuthAnswer(message);
        if (isRequest && message.contains(QStringLiteral("id")))
            return answerError(message.value(QStringLiteral("id")), kInvalidRequest,
                               QStringLiteral("Invalid Request: not authenticated yet"));
        return;
    }
    if (!isRequest) {
        qCDebug(lcRemote) << "ignored a response the agent did not ask for";
        return;
    }
    handleRequest(message);
}

void RemoteAgent::handleAuthAnswer(const QJsonObject& message)
{
    m_deadline.stop();
    if (message.contains(QStringLiteral("error"))) {
        const QJsonObject error = message.value(QStringLiteral("error")).toObject();
        const int code = error.value(QStringLiteral("code")).toInt();
        const QString text = error.value(QStringLiteral("message")).toString();
        if (code != kAuthFailed) {
            hangUp(tr("the server refused the authentication: %1 (%2)").arg(text).arg(code), true);
            return;
        }
        hangUp({}, false);
        if (m_authWithToken) {
            // A token the server no longer knows is forgotten; a person binds the device again.
            m_token.clear();
            m_tokens->remove(m_config.tokenKey(), [](const TokenStore::Outcome&) {});
            setState(State::NeedsBindCode,
                     tr("the server no longer accepts this device's token (%1): enter a new bind code").arg(text));
        } else {
            m_bindCode.clear();
            m_bindCodeWins = false;
            setState(State::NeedsBindCode, tr("the bind code was refused (%1): enter a new one").arg(text));
        }
        Q_EMIT bindCodeNeeded(m_lastError);
        return;
    }
    const QJsonObject result = message.value(QStringLiteral("result")).toObject();
    if (result.value(QStringLiteral("status")).toString() != QLatin1String("ok")) {
        hangUp(tr("the server's answer to auth was not ok"), true);
        return;
    }
    m_deviceId = result.value(QStringLiteral("deviceId")).toString();
    m_projectId = result.value(QStringLiteral("projectId")).toString();
    if (const QString token = result.value(QStringLiteral("deviceToken")).toString(); !token.isEmpty()) {
        m_token = token;
        QPointer<RemoteAgent> self(this);
        m_tokens->write(m_config.tokenKey(), token, [self](const TokenStore::Outcome& outcome) {
            if (self && outcome.status != TokenStore::Status::Ok)
                self->m_lastError = tr("the device token could not be saved in the keyring (%1): the next start "
                                       "needs a new bind code")
                                        .arg(outcome.message);
        });
    }
    m_bindCode.clear();
    m_bindCodeWins = false;
    m_retries = 0;
    m_connectedAt = QDateTime::currentDateTimeUtc();
    m_connectionId = kConnectionIdBase + ++g_nextConnection;
    m_dispatcher.sessionOpened(caller());
    m_lastError.clear();
    setState(State::Connected);
    qCInfo(lcRemote).noquote() << "connected to" << m_config.serverName() << "as device" << m_deviceId;
}

void RemoteAgent::handleRequest(const QJsonObject& message)
{
    const QJsonValue id = message.value(QStringLiteral("id"));
    const bool notification = !message.contains(QStringLiteral("id"));
    const QJsonValue method = message.value(QStringLiteral("method"));
    if (message.value(QStringLiteral("jsonrpc")) != QJsonValue(QStringLiteral("2.0")) || !method.isString() ||
        (!notification && !id.isString() && !id.isDouble())) {
        if (!notification)
            answerError(id.isString() || id.isDouble() ? id : QJsonValue(), kInvalidRequest,
                        QStringLiteral("Invalid Request: jsonrpc must be \"2.0\", method a string, id a string or "
                                       "number"));
        return;
    }
    if (notification)
        return; // Nothing the server sends without an id asks for an action.
    const QString name = method.toString();
    if (name == QLatin1String("ping"))
        return answer(id, QJsonObject{{QStringLiteral("pong"), true},
                                      {QStringLiteral("timestamp"), QDateTime::currentSecsSinceEpoch()}});
    if (name == QLatin1String("tools/list"))
        return answer(id, QJsonObject{{QStringLiteral("tools"), toolDefinitions()}});
    if (name != QLatin1String("tools/call"))
        return answerError(id, kMethodNotFound, QStringLiteral("Method not found: %1").arg(name));
    const QJsonValue params = message.value(QStringLiteral("params"));
    const QJsonValue tool = params.toObject().value(QStringLiteral("name"));
    const QJsonValue arguments = params.toObject().value(QStringLiteral("arguments"));
    if (!params.isObject() || !tool.isString() || (!arguments.isUndefined() && !arguments.isObject()))
        return answerError(id, ToolOutcome::kInvalidParams,
                           QStringLiteral("Invalid params: tools/call takes {name: string, arguments?: object}"));
    if (m_inFlight >= kMaxCallsInFlight)
        return answerError(id, ToolOutcome::kToolNotStarted,
                           QStringLiteral("Tool execution failed: %1 calls are already running; nothing was started")
                               .arg(kMaxCallsInFlight),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("too_many_calls")}});
    ++m_inFlight;
    const quint64 generation = m_generation;
    callTool(tool.toString(), arguments.toObject(), *this, [this, generation, id](const ToolOutcome& outcome) {
        if (generation != m_generation)
            return;
        --m_inFlight;
        ++m_callsServed;
        if (outcome.result)
            answer(id, *outcome.result);
        else
            answerError(id, outcome.errorCode, outcome.errorMessage, outcome.errorData);
    });
}

void RemoteAgent::send(const QJsonObject& message)
{
    if (!m_socket)
        return;
    QByteArray line = QJsonDocument(message).toJson(QJsonDocument::Compact);
    line.append('\n');
    m_socket->write(line);
}

void RemoteAgent::answer(const QJsonValue& id, const QJsonObject& result)
{
    send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                     {QStringLiteral("result"), result},
                     {QStringLiteral("id"), id}});
}

void RemoteAgent::answerError(const QJsonValue& id, int code, const QString& message, const QJsonObject& data)
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isEmpty())
        error.insert(QStringLiteral("data"), data);
    send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                     {QStringLiteral("error"), error},
                     {QStringLiteral("id"), id.isUndefined() ? QJsonValue() : id}});
}

void RemoteAgent::hangUp(const QString& why, bool retry)
{
    ++m_generation;
    m_deadline.stop();
    m_inFlight = 0;
    m_discarding = false;
    m_framer = Bridge::LineFramer(kMaxLineBytes);
    if (m_socket) {
        QSslSocket* socket = m_socket.release();
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
    if (m_connectionId) {
        // The server is gone: its running work is aborted and its pending approvals withdrawn.
        m_dispatcher.sessionClosed(m_connectionId);
        m_connectionId = 0;
    }
    if (!retry)
        return;
    if (!m_config.reconnect) {
        setState(State::Failed, tr("%1; reconnecting is off").arg(why));
        return;
    }
    m_lastError = why;
    scheduleRetry();
}

void RemoteAgent::scheduleRetry()
{
    const Backoff backoff{m_config.retryDelayMs, m_config.maxRetries};
    if (backoff.exhausted(m_retries)) {
        setState(State::Failed, tr("gave up after %n retries: %1", nullptr, m_retries).arg(m_lastError));
        return;
    }
    const int delay = backoff.delayMs(m_retries);
    Q_EMIT retryScheduled(m_retries, delay);
    ++m_retries;
    m_nextDelayMs = delay;
    setState(State::Waiting, tr("%1; next attempt in %2 ms").arg(m_lastError).arg(delay));
    const quint64 generation = m_generation;
    QPointer<RemoteAgent> self(this);
    m_schedule(delay, [self, generation] {
        if (self && self->m_generation == generation && self->m_state == State::Waiting)
            self->readTokenThenDial();
    });
}

Bridge::Caller RemoteAgent::caller() const
{
    Bridge::Caller caller;
    caller.transport = Bridge::Transport::Remote;
    caller.connectionId = m_connectionId;
    caller.remoteServer = m_config.serverName();
    // Tokens bind to the peer: for the remote caller, this connection to this server as this device.
    caller.peer.executable = QStringLiteral("remote:%1:%2").arg(m_config.host).arg(m_config.port);
    caller.peer.auditTokenDigest = QString::fromLatin1(
        QCryptographicHash::hash(
            QStringLiteral("%1|%2|%3").arg(caller.peer.executable, m_deviceId).arg(m_connectionId).toUtf8(),
            QCryptographicHash::Sha256)
            .toHex()
            .left(8));
    return caller;
}

void RemoteAgent::dispatch(const QString& method, QJsonObject params, int timeoutMs, Reply reply)
{
    Bridge::MetaFill fill;
    fill.workspacePath = m_config.workspace;
    fill.timeoutMs = timeoutMs;
    params = Bridge::fillMeta(std::move(params), fill);
    const quint64 generation = m_generation;
    QPointer<RemoteAgent> self(this);
    m_dispatcher.call(caller(), method, params,
                      [self, generation, reply = std::move(reply)](const Automation::Result<QJsonObject>& answer) {
                          if (!self || self->m_generation != generation)
                              return;
                          reply(answer ? QJsonObject{{QStringLiteral("result"), answer.value()}}
                                       : QJsonObject{{QStringLiteral("error"), answer.error().toJson()}});
                      });
}

void RemoteAgent::call(const QString& method, const QJsonObject& params, bool sideEffect, int timeoutMs, Reply reply)
{
    // The person is asked (the remote policy decides) only about elements that are there.
    DoorKit::call(static_cast<DoorKit::Engine&>(*this), method, params, sideEffect, timeoutMs, std::move(reply));
}

void RemoteAgent::request(const QString& method, const QJsonObject& params, int timeoutMs, Reply reply)
{
    dispatch(method, params, timeoutMs, std::move(reply));
}

int RemoteAgent::confirmTimeoutMs() const
{
    return std::min(m_dispatcher.security().approvalTimeoutMs + 5000, Bridge::Meta::kMaxTimeoutMs);
}

void RemoteAgent::sleep(int ms, std::function<void()> done)
{
    const quint64 generation = m_generation;
    QTimer::singleShot(ms, this, [this, generation, done = std::move(done)] {
        if (generation == m_generation)
            done();
    });
}

QJsonObject RemoteAgent::status() const
{
    QJsonObject out{{QStringLiteral("state"), stateName(m_state)},
                    {QStringLiteral("hasToken"), !m_token.isEmpty()},
                    {QStringLiteral("keyring"), m_tokens->name()}};
    if (m_config.isSet()) {
        out.insert(QStringLiteral("server"), m_config.serverName());
        out.insert(QStringLiteral("host"), m_config.host);
        out.insert(QStringLiteral("port"), m_config.port);
        out.insert(QStringLiteral("tls"), m_config.tls);
        out.insert(QStringLiteral("fingerprintPinned"), !m_config.fingerprint.isEmpty());
        out.insert(QStringLiteral("workspace"), m_config.workspace);
        out.insert(QStringLiteral("retryDelayMs"), m_config.retryDelayMs);
        out.insert(QStringLiteral("maxRetries"), m_config.maxRetries);
        Bridge::Caller remote;
        remote.transport = Bridge::Transport::Remote;
        out.insert(QStringLiteral("confirmPolicy"), m_dispatcher.gate().providerFor(remote)->policyName());
    }
    if (!m_lastError.isEmpty())
        out.insert(QStringLiteral("lastError"), m_lastError);
    if (m_state == State::Waiting) {
        out.insert(QStringLiteral("retries"), m_retries);
        out.insert(QStringLiteral("nextRetryMs"), m_nextDelayMs);
    }
    if (m_state == State::Connected) {
        out.insert(QStringLiteral("deviceId"), m_deviceId);
        out.insert(QStringLiteral("projectId"), m_projectId);
        out.insert(QStringLiteral("connectedAt"), m_connectedAt.toString(Qt::ISODateWithMs));
        out.insert(QStringLiteral("callsInFlight"), m_inFlight);
    }
    out.insert(QStringLiteral("callsServed"), static_cast<qint64>(m_callsServed));
    return out;
}

Automation::Result<QJsonObject> RemoteAgent::connectTo(const QJsonObject& params)
{
    using Automation::Error;
    RemoteConfig next = m_config;
    next.host = params.value(QStringLiteral("host")).toString().trimmed();
    if (next.host.isEmpty())
        return Error::invalidParam(QStringLiteral("host"), QStringLiteral("host must be a host name or address"));
    const int port = params.value(QStringLiteral("port")).toInt(0);
    if (port < 1 || port > 65535)
        return Error::invalidParam(QStringLiteral("port"), QStringLiteral("port must be 1-65535"));
    next.port = static_cast<quint16>(port);
    next.tls = params.value(QStringLiteral("tls")).toBool(false);
    next.fingerprint = normalizedFingerprint(params.value(QStringLiteral("fingerprint")).toString());
    static const QRegularExpression sha256(QStringLiteral("^[0-9a-f]{64}$"));
    if (!next.fingerprint.isEmpty() && !sha256.match(next.fingerprint).hasMatch())
        return Error::invalidParam(QStringLiteral("fingerprint"),
                                   QStringLiteral("fingerprint must be a SHA-256 digest: 64 hex digits"));
    if (!next.fingerprint.isEmpty() && !next.tls)
        return Error::invalidParam(QStringLiteral("fingerprint"), QStringLiteral("a fingerprint needs tls: true"));
    next.retryDelayMs = params.value(QStringLiteral("retryDelayMs")).toInt(next.retryDelayMs);
    next.maxRetries = params.value(QStringLiteral("maxRetries")).toInt(next.maxRetries);
    start(next, params.value(QStringLiteral("bindCode")).toString(), BindCodeUse::Always);
    return status();
}

QJsonObject RemoteAgent::disconnect()
{
    stop();
    return status();
}

void RemoteAgent::forget(const Respond& respond)
{
    stop();
    m_token.clear();
    if (!m_config.isSet())
        return respond(
            QJsonObject{{QStringLiteral("forgotten"), false}, {QStringLiteral("state"), stateName(m_state)}});
    // The server is still configured: the next connection needs a person's bind code.
    setState(State::NeedsBindCode,
             tr("the device token was forgotten: enter a bind code to connect to %1 again").arg(m_config.serverName()));
    Q_EMIT bindCodeNeeded(m_lastError);
    QPointer<RemoteAgent> self(this);
    m_tokens->remove(m_config.tokenKey(), [self, respond](const TokenStore::Outcome& outcome) {
        if (outcome.status == TokenStore::Status::Ok || outcome.status == TokenStore::Status::NotFound)
            return respond(
                QJsonObject{{QStringLiteral("forgotten"), outcome.status == TokenStore::Status::Ok},
                            {QStringLiteral("state"), self ? stateName(self->m_state) : QStringLiteral("off")}});
        respond(Automation::Error::make(Automation::ErrorCode::InternalError,
                                        tr("the keyring could not remove the device token: %1").arg(outcome.message),
                                        QJsonObject{{QStringLiteral("reason"), QStringLiteral("keyring")}}));
    });
}

} // namespace Remote
