#pragma once

#include "bridge/protocol/LineFramer.h"
#include "bridge/protocol/Meta.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QLocalSocket>
#include <QObject>

#include <optional>

namespace Bridge {

/// A JSON-RPC client of the bridge: one connection to the host's socket, requests with params.meta
/// filled in, answers read as capped '\n'-framed lines and matched to their requests by id.
/// Async (send + signals) and blocking (call) use may be mixed; one thread uses one client.
class Client : public QObject
{
    Q_OBJECT

public:
    /// Why a request got no answer.
    enum class TransportError {
        None,
        ConnectFailed, ///< nobody serves the socket (or it refused the connection)
        NotConnected,  ///< the request was not sent: there is no connection
        Timeout,       ///< no answer in time (the request may still be answered later)
        Closed,        ///< the host closed the connection before answering
        LineTooLong,   ///< a line passed maxLineBytes(); the connection was dropped
        Malformed,     ///< a line was not a JSON object or array (a blocking call stops there)
    };
    Q_ENUM(TransportError)

    /// The outcome of a blocking call: the response object, or why there is none.
    struct Reply
    {
        QJsonObject response;
        TransportError error = TransportError::None;
        QString errorString;
        /// The number of the line that carried the answer (lines count from 1 per client).
        qint64 line = 0;

        bool ok() const { return error == TransportError::None; }
    };

    /// Lines no request in flight was waiting for: a notification, an answer with an unknown or
    /// null id, an answer to a request written with sendRaw, a line that is not JSON.
    struct Unmatched
    {
        qint64 line = 0;  ///< its number, as in Reply::line
        QByteArray bytes; ///< without the '\n'
    };

    /// Host answers are far below this; the host's own cap on request lines is 16 MiB.
    static constexpr qsizetype kDefaultMaxLineBytes = 4 * LineFramer::kDefaultMaxLineBytes;

    explicit Client(QObject* parent = nullptr);
    ~Client() override;

    /// The cap on one incoming line; takes effect for the next connection.
    void setMaxLineBytes(qsizetype bytes) { m_maxLineBytes = bytes; }
    qsizetype maxLineBytes() const { return m_maxLineBytes; }
    /// What send() and call() put in params.meta (a fresh requestId each time unless given).
    void setMetaFill(const MetaFill& fill) { m_metaFill = fill; }
    const MetaFill& metaFill() const { return m_metaFill; }

    /// Connects and waits up to `timeoutMs`; false with errorString() when nobody serves it.
    bool connectToServer(const QString& socketPath, int timeoutMs = 5000);
    /// Connects without waiting: connected() or transportError(ConnectFailed) follows.
    void connectToServerAsync(const QString& socketPath);
    bool isConnected() const { return m_socket.state() == QLocalSocket::ConnectedState; }
    void disconnectFromServer();
    QString errorString() const { return m_socket.errorString(); }
    QLocalSocket& socket() { return m_socket; }

    /// Sends `method` with params.meta filled in (fields the caller gave win); returns the id
    /// sent: `id`, or the next integer when it is undefined. responseReceived or requestFailed
    /// follows.
    QJsonValue send(const QString& method, const QJsonObject& params, const QJsonValue& id = QJsonValue::Undefined);
    /// Sends a request object as it is (no meta filled in); answered through responseReceived
    /// when it has an id.
    void sendRequest(const QJsonObject& request);
    /// Sends a batch as it is; each member with an id is answered on its own.
    void sendBatch(const QJsonArray& requests);
    /// Writes bytes as they are; answers to them arrive as unmatched lines.
    void sendRaw(const QByteArray& bytes);

    /// Sends `method` as send() does and waits up to `timeoutMs` for its answer.
    Reply call(const QString& method, const QJsonObject& params, int timeoutMs,
               const QJsonValue& id = QJsonValue::Undefined);
    /// Sends `request` as it is and waits up to `timeoutMs` for the answer with its id.
    Reply callRequest(const QJsonObject& request, int timeoutMs);

    /// The oldest unmatched line, waiting up to `timeoutMs`; nullopt on timeout or close.
    std::optional<QByteArray> readUnmatched(int timeoutMs);
    /// The unmatched lines received and not read yet.
    const QList<Unmatched>& unmatched() const { return m_unmatched; }
    /// Forgets the unmatched lines numbered below `line`.
    void dropUnmatchedBefore(qint64 line);
    /// Whether the host closed the connection within `timeoutMs`; lines received meanwhile are kept.
    bool waitForDisconnected(int timeoutMs);
    /// Requests sent through send/sendRequest/sendBatch/call and not answered yet.
    qsizetype pendingCount() const { return m_pending.size(); }

Q_SIGNALS:
    void connected();
    /// The answer to a request in flight (for a batch, one signal per member).
    void responseReceived(const QJsonValue& id, const QJsonObject& response);
    /// A request in flight that will get no answer on this connection.
    void requestFailed(const QJsonValue& id, Bridge::Client::TransportError error, const QString& message);
    /// A line no request was waiting for (see Unmatched).
    void unmatchedReceived(const QByteArray& line);
    /// The connection failed or was dropped (after requestFailed for each request in flight).
    void transportError(Bridge::Client::TransportError error, const QString& message);
    void disconnected();

private:
    struct Pending
    {
        QJsonValue id;
        bool blocking = false;
    };

    void onReadyRead();
    void onDisconnected();
    void handleLine(const QByteArray& line);
    /// Completes the request `key` with `response`; false when none is in flight under it.
    bool complete(const QString& key, const QJsonObject& response);
    void failAll(TransportError error, const QString& message);
    QJsonValue nextId();
    void track(const QJsonValue& id, bool blocking);
    void writeLine(const QByteArray& line);
    Reply wait(const QString& key, int timeoutMs);

    QLocalSocket m_socket;
    LineFramer m_framer;
    qsizetype m_maxLineBytes = kDefaultMaxLineBytes;
    MetaFill m_metaFill;
    QHash<QString, Pending> m_pending;
    QHash<QString, Reply> m_done; ///< answers of blocking calls not collected yet
    QList<Unmatched> m_unmatched;
    qint64 m_lines = 0;
    qint64 m_nextId = 1;
    bool m_connecting = false;
    bool m_malformed = false; ///< a line that was not JSON arrived since the last blocking wait began
};

/// The key a JSON-RPC id is matched under: strings and numbers never collide ("1" vs 1).
QString idKey(const QJsonValue& id);

} // namespace Bridge
