#pragma once

#include "bridge/Dispatcher.h"
#include "bridge/protocol/LineFramer.h"
#include "bridge/security/CallerPolicy.h"

#include <QLocalServer>
#include <QLockFile>
#include <QPointer>
#include <QSocketNotifier>
#include <QTimer>

#include <memory>

class QLocalSocket;

namespace Bridge {

struct ServerOptions
{
    QString socketPath;
    qsizetype maxLineBytes = LineFramer::kDefaultMaxLineBytes;
    int partialLineTimeoutMs = 10000;
    /// Responses a client has not read yet before the host stops reading its requests.
    qint64 maxPendingWriteBytes = qint64{64} * 1024 * 1024;
    /// Tests only: make the socket 0666 so another user can reach it (the uid check must still refuse).
    bool insecureSocketModeForTests = false;
    /// Connections open at once, in total and from one process; more are refused at accept
    /// (DESKTOP_HOST_NOT_READY, retryable). The defaults leave room for 200 clients of one process.
    int maxConnections = 1024;
    int maxConnectionsPerPeer = 256;
    /// A connection that has not completed a first request this long is closed; one that has
    /// spoken is never cut for being idle. 0: never.
    int firstRequestTimeoutMs = 30000;
    /// Connections the kernel queues before the host accepts them.
    int listenBacklog = 512;
    /// After this long without answering anything, the heap's free pages go back to the system
    /// (glibc keeps what a burst freed otherwise). 0: never.
    int idleTrimMs = 2000;
    /// The MCP front door's executable (symlinks resolved): a client running it is a
    /// Transport::McpDoor caller, with the door's confirmation policy. Empty: none is.
    QString mcpDoorExecutable;
};

class Server;

/// One client connection: NDJSON framing, the peer identity pinned at accept, replies in order
/// of completion (docs/protocol.md §1). Lives on the server's thread.
class Connection final : public QObject
{
    Q_OBJECT

public:
    Connection(QLocalSocket* socket, quint64 id, const PeerInfo& peer, Transport transport, Server& server);
    ~Connection() override;

    quint64 id() const { return m_id; }
    const PeerInfo& peer() const { return m_peer; }
    Transport transport() const { return m_transport; }
    void send(const QByteArray& line);
    /// Bytes written to the client that it has not read yet.
    qint64 unread() const;
    /// Sends one error line and closes shortly after (kRefuseGraceMs), discarding input meanwhile.
    void refuse(const Automation::Error& error);
    static constexpr int kRefuseGraceMs = 200;

Q_SIGNALS:
    void closed(quint64 id);

private:
    void onReadyRead();
    void processLines();
    void onPartialTimeout();
    void onFirstRequestTimeout();

    QLocalSocket* m_socket;
    quint64 m_id;
    PeerInfo m_peer;
    Transport m_transport = Transport::LocalSocket;
    Server& m_server;
    LineFramer m_framer;
    QTimer m_partialTimer;
    QTimer m_firstRequestTimer;
    bool m_spoken = false;
    bool m_closing = false;
    bool m_paused = false;
};

/// The local socket front door (docs/architecture.md, "One request"): a Unix socket at the socket path, directory 0700,
/// socket 0600, one live host per path, the caller policy (SO_PEERCRED uid, executable
/// allowlist) checked on every connection at accept. The host owns the listening socket and
/// accepts itself (QLocalServer closes its listener and deletes the socket file on any failed
/// accept, e.g. when descriptors run out): on EMFILE it uses a reserve descriptor to take the
/// waiting connection, tells it why and closes it, and backs off briefly; the listener stays.
class Server final : public QObject
{
    Q_OBJECT

public:
    Server(Dispatcher& dispatcher, ServerOptions options, CallerPolicy callers = CallerPolicy(),
           QObject* parent = nullptr);
    ~Server() override;

    /// Takes the instance lock, replaces a stale socket, listens. On failure `error` says why;
    /// when another host is serving the path it is named (pid and executable).
    bool listen(QString* error, bool* alreadyServed = nullptr);
    void close();
    /// Writes what each client is owed (bounded wait), for shutdown.
    void flushAll(int waitMs);

    QString socketPath() const { return m_options.socketPath; }
    bool isListening() const { return m_listenFd >= 0; }
    QString socketMode() const;
    int connectionCount() const { return static_cast<int>(m_connections.size()); }
    /// Sends `line` (when not empty) to connection `id` outside any answer (an event); answers the
    /// bytes that client has not read yet, or -1 when it is gone.
    qint64 push(quint64 id, const QByteArray& line);
    const ServerOptions& options() const { return m_options; }
    Dispatcher& dispatcher() { return m_dispatcher; }
    const CallerPolicy& callers() const { return m_callers; }
    /// Replaces the caller policy for connections accepted from now on; existing connections
    /// keep the identity they were admitted with.
    void setCallers(CallerPolicy callers) { m_callers = std::move(callers); }

Q_SIGNALS:
    /// A connection was refused at accept (one DESKTOP_CALLER_FORBIDDEN line, then closed).
    /// `peer` is empty when the credentials could not be read.
    void callerRefused(const Bridge::PeerInfo& peer, const Automation::Error& error);

private:
    friend class Connection;
    void onAcceptable();
    void admit(QLocalSocket* socket);
    void refuseRaw(int fd, const Automation::Error& error);
    void logExhaustion();
    /// An answer went out: the idle trim waits for a quiet period from now on.
    void noteActivity();
    void onIdleTrim();

    Dispatcher& m_dispatcher;
    ServerOptions m_options;
    CallerPolicy m_callers;
    int m_listenFd = -1;
    int m_reserveFd = -1; ///< spent to accept (and turn away) a client when descriptors run out
    int m_descriptorLimit = 1024;
    QSocketNotifier* m_notifier = nullptr;
    qint64 m_lastExhaustionLogMs = -1;
    int m_exhaustionRefusals = 0;
    std::unique_ptr<QLockFile> m_lock;
    QHash<quint64, QPointer<Connection>> m_connections;
    quint64 m_nextId = 1;
    QTimer m_idleTrim;
    quint64 m_activity = 0;         ///< answers sent
    quint64 m_activityAtArming = 0; ///< m_activity when the idle trim's timer was started
};

} // namespace Bridge
