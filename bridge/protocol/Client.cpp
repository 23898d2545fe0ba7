#include "bridge/protocol/Client.h"

#include "bridge/protocol/JsonRpc.h"

#include <QDeadlineTimer>
#include <QJsonDocument>

#include <algorithm>
#include <limits>
#include <utility>

namespace Bridge {

namespace {

int remainingMs(const QDeadlineTimer& deadline)
{
    return static_cast<int>(std::clamp<qint64>(deadline.remainingTime(), 1, std::numeric_limits<int>::max()));
}

// JSON-RPC 2.0 §5: a response has an id and exactly one of result and error; anything with a
// method is a request or notification from the other side, never an answer.
bool isResponse(const QJsonObject& object)
{
    return object.contains(QLatin1String("id")) && !object.contains(QLatin1String("method")) &&
           (object.contains(QLatin1String("result")) || object.contains(QLatin1String("error")));
}

} // namespace

QString idKey(const QJsonValue& id)
{
    switch (id.type()) {
    case QJsonValue::String:
        return QLatin1String("s:") + id.toString();
    case QJsonValue::Double:
        return QLatin1String("n:") + QString::number(id.toDouble(), 'g', 17);
    case QJsonValue::Null:
        return QStringLiteral("null");
    default:
        return QStringLiteral("invalid");
    }
}

Client::Client(QObject* parent) : QObject(parent), m_framer(kDefaultMaxLineBytes)
{
    connect(&m_socket, &QLocalSocket::readyRead, this, &Client::onReadyRead);
    connect(&m_socket, &QLocalSocket::disconnected, this, &Client::onDisconnected);
    connect(&m_socket, &QLocalSocket::connected, this, [this] {
        m_connecting = false;
        Q_EMIT connected();
    });
    connect(&m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError) {
        // Errors of an open connection end in disconnected(); only a connect attempt fails here.
        if (!std::exchange(m_connecting, false))
            return;
        Q_EMIT transportError(TransportError::ConnectFailed, m_socket.errorString());
    });
}

Client::~Client()
{
    // The socket is destroyed after the members its slots use: no signal may reach them then.
    disconnect(&m_socket, nullptr, this, nullptr);
    m_socket.abort();
}

bool Client::connectToServer(const QString& socketPath, int timeoutMs)
{
    m_framer = LineFramer(m_maxLineBytes);
    m_connecting = true;
    m_socket.connectToServer(socketPath);
    const bool connected = m_socket.waitForConnected(timeoutMs);
    m_connecting = false;
    return connected;
}

void Client::connectToServerAsync(const QString& socketPath)
{
    m_framer = LineFramer(m_maxLineBytes);
    m_connecting = true;
    m_socket.connectToServer(socketPath);
}

void Client::disconnectFromServer()
{
    m_socket.disconnectFromServer();
}

QJsonValue Client::nextId()
{
    return QJsonValue(static_cast<double>(m_nextId++));
}

void Client::track(const QJsonValue& id, bool blocking)
{
    m_pending.insert(idKey(id), Pending{id, blocking});
}

void Client::writeLine(const QByteArray& line)
{
    m_socket.write(line);
    // Hand the bytes to the kernel now: a blocking caller goes on to wait for the answer.
    m_socket.flush();
}

QJsonValue Client::send(const QString& method, const QJsonObject& params, const QJsonValue& id)
{
    const QJsonValue sent = id.isUndefined() ? nextId() : id;
    sendRequest(JsonRpc::request(method, fillMeta(params, m_metaFill), sent));
    return sent;
}

void Client::sendRequest(const QJsonObject& request)
{
    const auto idIt = request.constFind(QLatin1String("id"));
    if (!isConnected()) {
        if (idIt != request.constEnd()) {
            const QJsonValue id = *idIt;
            // Queued, so the caller has the id before it hears of the failure.
            QMetaObject::invokeMethod(
                this,
                [this, id] {
                    Q_EMIT requestFailed(id, TransportError::NotConnected, QStringLiteral("not connected to the host"));
                },
                Qt::QueuedConnection);
        }
        return;
    }
    if (idIt != request.constEnd())
        track(*idIt, false);
    writeLine(JsonRpc::encodeLine(request));
}

void Client::sendBatch(const QJsonArray& requests)
{
    if (!isConnected())
        return;
    for (const QJsonValue& member : requests) {
        const QJsonObject request = member.toObject();
        const auto idIt = request.constFind(QLatin1String("id"));
        if (idIt != request.constEnd())
            track(*idIt, false);
    }
    writeLine(JsonRpc::encodeLine(requests));
}

void Client::sendRaw(const QByteArray& bytes)
{
    if (isConnected())
        writeLine(bytes);
}

Client::Reply Client::call(const QString& method, const QJsonObject& params, int timeoutMs, const QJsonValue& id)
{
    const QJsonValue sent = id.isUndefined() ? nextId() : id;
    return callRequest(JsonRpc::request(method, fillMeta(params, m_metaFill), sent), timeoutMs);
}

Client::Reply Client::callRequest(const QJsonObject& request, int timeoutMs)
{
    if (!isConnected())
        return Reply{{}, TransportError::NotConnected, QStringLiteral("not connected to the host"), 0};
    const QJsonValue id = request.value(QLatin1String("id"));
    const QString key = idKey(id);
    track(id, true);
    writeLine(JsonRpc::encodeLine(request));
    return wait(key, timeoutMs);
}

Client::Reply Client::wait(const QString& key, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    m_malformed = false;
    while (true) {
        onReadyRead();
        const auto done = m_done.constFind(key);
        if (done != m_done.constEnd())
            return m_done.take(key);
        if (m_malformed) {
            m_pending.remove(key);
            return Reply{{}, TransportError::Malformed, QStringLiteral("the host sent a line that is not JSON-RPC"), 0};
        }
        if (!isConnected()) {
            m_pending.remove(key);
            return Reply{
                {}, TransportError::Closed, QStringLiteral("the host closed the connection without answering"), 0};
        }
        if (deadline.hasExpired()) {
            // A late answer is kept as an unmatched line.
            m_pending.remove(key);
            return Reply{{}, TransportError::Timeout, QStringLiteral("no answer from the host in time"), 0};
        }
        m_socket.waitForReadyRead(remainingMs(deadline));
    }
}

std::optional<QByteArray> Client::readUnmatched(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (true) {
        onReadyRead();
        if (!m_unmatched.isEmpty())
            return m_unmatched.takeFirst().bytes;
        if (deadline.hasExpired() || !isConnected())
            return std::nullopt;
        m_socket.waitForReadyRead(remainingMs(deadline));
    }
}

void Client::dropUnmatchedBefore(qint64 line)
{
    m_unmatched.removeIf([line](const Unmatched& u) { return u.line < line; });
}

bool Client::waitForDisconnected(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (isConnected() && !deadline.hasExpired()) {
        m_socket.waitForReadyRead(remainingMs(deadline));
        onReadyRead();
    }
    onReadyRead();
    return !isConnected();
}

void Client::onReadyRead()
{
    // Never "one read is one answer": a read may hold part of a line, or several lines.
    while (m_socket.bytesAvailable() > 0) {
        m_framer.append(m_socket.readAll());
        while (auto item = m_framer.next()) {
            if (item->kind == LineFramer::Item::Kind::TooLong) {
                // The stream cannot be resynchronised past an overlong line.
                const QString message =
                    QStringLiteral("the host sent a line over %1 bytes").arg(m_framer.maxLineBytes());
                failAll(TransportError::LineTooLong, message);
                Q_EMIT transportError(TransportError::LineTooLong, message);
                m_framer = LineFramer(m_maxLineBytes);
                m_socket.abort();
                return;
            }
            handleLine(item->line);
        }
    }
}

void Client::onDisconnected()
{
    onReadyRead(); // the lines that came with the close
    if (!m_pending.isEmpty()) {
        // A partial line left in the framer is an answer cut off by the close: it is dropped.
        const QString message = QStringLiteral("the host closed the connection without answering");
        failAll(TransportError::Closed, message);
        Q_EMIT transportError(TransportError::Closed, message);
    }
    Q_EMIT disconnected();
}

void Client::handleLine(const QByteArray& line)
{
    const qint64 number = ++m_lines;
    const auto queue = [&](const QByteArray& bytes) {
        m_unmatched.append(Unmatched{number, bytes});
        Q_EMIT unmatchedReceived(bytes);
    };
    const auto decoded = JsonRpc::decode(line);
    if (!decoded) {
        m_malformed = true;
        queue(line);
        return;
    }
    const QJsonValue& value = decoded.value();
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        if (!isResponse(object) || !complete(idKey(object.value(QLatin1String("id"))), object))
            queue(line);
        return;
    }
    // A batch's answers: each member is matched on its own; what nobody waited for is kept.
    const QJsonArray batch = value.toArray();
    QJsonArray rest;
    for (const QJsonValue& member : batch) {
        const QJsonObject object = member.toObject();
        if (member.isObject() && isResponse(object) && complete(idKey(object.value(QLatin1String("id"))), object))
            continue;
        rest.append(member);
    }
    if (rest.size() == batch.size())
        queue(line);
    else if (!rest.isEmpty())
        queue(QJsonDocument(rest).toJson(QJsonDocument::Compact));
}

bool Client::complete(const QString& key, const QJsonObject& response)
{
    const auto it = m_pending.constFind(key);
    if (it == m_pending.constEnd())
        return false;
    const Pending pending = m_pending.take(key);
    if (pending.blocking)
        m_done.insert(key, Reply{response, TransportError::None, {}, m_lines});
    Q_EMIT responseReceived(pending.id, response);
    return true;
}

void Client::failAll(TransportError error, const QString& message)
{
    const QHash<QString, Pending> pending = std::exchange(m_pending, {});
    for (auto it = pending.constBegin(); it != pending.constEnd(); ++it) {
        if (it->blocking)
            m_done.insert(it.key(), Reply{{}, error, message, 0});
        Q_EMIT requestFailed(it->id, error, message);
    }
}

} // namespace Bridge
