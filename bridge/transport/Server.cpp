#include "bridge/transport/Server.h"

#include "automation/platform/ProcessInfo.h"
#include "common/Posix.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocalSocket>
#include <QLoggingCategory>

#include <QDateTime>

#include <cstring>

#include <cerrno>
#include <fcntl.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace Bridge {

Q_LOGGING_CATEGORY(lcServer, "msgcode.bridge.server")

using Automation::Error;
using Automation::ErrorCode;

namespace {

// Descriptors kept free for the host's own needs (threads' wakeup pipes, evidence files, the
// AT-SPI and X connections): GLib aborts the process when it cannot create a wakeup pipe.
constexpr int kDescriptorHeadroom = 32;

// The soft descriptor limit, raised to the hard one (as servers do) so the caps, not the
// limit, decide how many clients fit.
int descriptorLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 1024;
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised{limit.rlim_max, limit.rlim_max};
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY ? (1 << 20) : static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
}

QString describeProcess(qint64 pid)
{
    const QString exe = processExecutable(pid);
    return exe.isEmpty() ? QStringLiteral("pid %1").arg(pid) : QStringLiteral("pid %1, %2").arg(pid).arg(exe);
}

} // namespace

Connection::Connection(QLocalSocket* socket, quint64 id, const PeerInfo& peer, Transport transport, Server& server)
    : QObject(&server), m_socket(socket), m_id(id), m_peer(peer), m_transport(transport), m_server(server),
      m_framer(server.options().maxLineBytes)
{
    m_socket->setParent(this);
    m_socket->setReadBufferSize(qint64{1024} * 1024);
    m_partialTimer.setSingleShot(true);
    m_partialTimer.setInterval(server.options().partialLineTimeoutMs);
    connect(&m_partialTimer, &QTimer::timeout, this, &Connection::onPartialTimeout);
    if (server.options().firstRequestTimeoutMs > 0) {
        m_firstRequestTimer.setSingleShot(true);
        m_firstRequestTimer.setInterval(server.options().firstRequestTimeoutMs);
        connect(&m_firstRequestTimer, &QTimer::timeout, this, &Connection::onFirstRequestTimeout);
        m_firstRequestTimer.start();
    }
    connect(m_socket, &QLocalSocket::readyRead, this, &Connection::onReadyRead);
    connect(m_socket, &QLocalSocket::bytesWritten, this, [this] {
        if (m_paused && m_socket->bytesToWrite() < m_server.options().maxPendingWriteBytes / 2) {
            m_paused = false;
            onReadyRead();
        }
    });
    connect(m_socket, &QLocalSocket::disconnected, this, [this] {
        m_closing = true;
        m_partialTimer.stop();
        Q_EMIT closed(m_id);
        deleteLater();
    });
}

Connection::~Connection() = default;

void Connection::send(const QByteArray& line)
{
    if (m_socket->state() != QLocalSocket::ConnectedState)
        return;
    m_socket->write(line);
    m_server.noteActivity();
}

qint64 Connection::unread() const
{
    return m_socket->state() == QLocalSocket::ConnectedState ? m_socket->bytesToWrite() : -1;
}

qint64 Server::push(quint64 id, const QByteArray& line)
{
    const QPointer<Connection> connection = m_connections.value(id);
    if (!connection)
        return -1;
    if (!line.isEmpty())
        connection->send(line);
    return connection->unread();
}

void Connection::refuse(const Error& error)
{
    send(JsonRpc::encodeLine(JsonRpc::errorResponse(QJsonValue(), error)));
    m_closing = true;
    m_partialTimer.stop();
    // Closing a Unix socket that holds unread data resets the peer, which may then lose the
    // error line before reading it: discard what the client sends and close a moment later.
    m_socket->readAll();
    QTimer::singleShot(kRefuseGraceMs, this, [this] {
        m_socket->readAll();
        // disconnectFromServer() waits until the pending bytes are written, without blocking.
        m_socket->disconnectFromServer();
    });
}

void Connection::onReadyRead()
{
    if (m_closing) {
        m_socket->readAll();
        return;
    }
    if (m_paused)
        return;
    const QByteArray bytes = m_socket->readAll();
    if (!bytes.isEmpty())
        m_framer.append(bytes);
    processLines();
}

void Connection::processLines()
{
    while (!m_closing) {
        // Back-pressure: a client that does not read its answers stops being read.
        if (m_socket->bytesToWrite() > m_server.options().maxPendingWriteBytes) {
            m_paused = true;
            return;
        }
        auto item = m_framer.next();
        if (!item)
            break;
        if (item->kind == LineFramer::Item::Kind::TooLong) {
            qCWarning(lcServer) << "connection" << m_id << "(pid" << m_peer.pid << ") sent a line over"
                                << m_framer.maxLineBytes() << "bytes; closing it";
            refuse(Error::invalidRequest(
                QStringLiteral("line exceeds %1 bytes; closing the connection").arg(m_framer.maxLineBytes()), -32600,
                QJsonObject{{QStringLiteral("reason"), QStringLiteral("line_too_long")},
                            {QStringLiteral("maxLineBytes"), m_framer.maxLineBytes()}}));
            return;
        }
        if (item->line.trimmed().isEmpty())
            continue;
        // It has spoken: from now on it is never closed for being idle (subscribers, sessions).
        m_spoken = true;
        m_firstRequestTimer.stop();
        const auto decoded = JsonRpc::decode(item->line);
        if (!decoded) {
            send(JsonRpc::encodeLine(JsonRpc::errorResponse(QJsonValue(), decoded.error())));
            continue;
        }
        QPointer<Connection> self(this);
        m_server.dispatcher().dispatch(Caller{m_id, m_peer, m_transport}, decoded.value(),
                                       [self](const QByteArray& line) {
                                           if (self)
                                               self->send(line);
                                       });
    }
    if (m_closing)
        return;
    if (m_framer.pendingBytes() == 0)
        m_partialTimer.stop();
    else if (!m_partialTimer.isActive())
        m_partialTimer.start();
}

void Connection::onPartialTimeout()
{
    if (m_framer.pendingBytes() == 0 || m_closing)
        return;
    qCWarning(lcServer) << "connection" << m_id << "held a partial line for" << m_server.options().partialLineTimeoutMs
                        << "ms; closing it";
    refuse(Error::invalidRequest(QStringLiteral("a partial line was not completed within %1 ms; closing the connection")
                                     .arg(m_server.options().partialLineTimeoutMs),
                                 -32600,
                                 QJsonObject{{QStringLiteral("reason"), QStringLiteral("partial_line_timeout")},
                                             {QStringLiteral("timeoutMs"), m_server.options().partialLineTimeoutMs},
                                             {QStringLiteral("pendingBytes"), m_framer.pendingBytes()}}));
}

void Connection::onFirstRequestTimeout()
{
    if (m_spoken || m_closing)
        return;
    qCInfo(lcServer) << "connection" << m_id << "(pid" << m_peer.pid << ") sent no request within"
                     << m_server.options().firstRequestTimeoutMs << "ms; closing it";
    refuse(Error::invalidRequest(QStringLiteral("no request within %1 ms of connecting; closing the connection")
                                     .arg(m_server.options().firstRequestTimeoutMs),
                                 -32600,
                                 QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_request")},
                                             {QStringLiteral("timeoutMs"), m_server.options().firstRequestTimeoutMs}}));
}

Server::Server(Dispatcher& dispatcher, ServerOptions options, CallerPolicy callers, QObject* parent)
    : QObject(parent), m_dispatcher(dispatcher), m_options(std::move(options)), m_callers(std::move(callers))
{
    m_idleTrim.setSingleShot(true);
    connect(&m_idleTrim, &QTimer::timeout, this, &Server::onIdleTrim);
    // Compared with /proc/PID/exe, which has its symlinks resolved.
    if (!m_options.mcpDoorExecutable.isEmpty()) {
        const QString canonical = QFileInfo(m_options.mcpDoorExecutable).canonicalFilePath();
        if (!canonical.isEmpty())
            m_options.mcpDoorExecutable = canonical;
    }
}

Server::~Server()
{
    close();
}

void Server::noteActivity()
{
    // Per answer only a count; the timer is started once per quiet period, not per answer.
    ++m_activity;
    if (m_options.idleTrimMs <= 0 || m_idleTrim.isActive())
        return;
    m_activityAtArming = m_activity;
    m_idleTrim.start(m_options.idleTrimMs);
}

void Server::onIdleTrim()
{
    if (m_activity != m_activityAtArming) {
        // Answers went out meanwhile: wait for a quiet period.
        m_activityAtArming = m_activity;
        m_idleTrim.start(m_options.idleTrimMs);
        return;
    }
#if defined(__GLIBC__)
    // Every arena (each thread's included) gives its free pages back; what is in use stays.
    ::malloc_trim(0);
    qCDebug(lcServer) << "idle: the heap's free pages went back to the system";
#endif
}

bool Server::listen(QString* error, bool* alreadyServed)
{
    if (alreadyServed)
        *alreadyServed = false;
    const QString path = m_options.socketPath;
    if (!path.startsWith(QLatin1Char('/'))) {
        *error = QStringLiteral("the socket path must be absolute: %1").arg(path);
        return false;
    }
    const QString dirPath = QFileInfo(path).absolutePath();
    const QByteArray dirBytes = QFile::encodeName(dirPath);
    struct stat st
    {
    };
    if (::stat(dirBytes.constData(), &st) != 0) {
        if (!QDir().mkpath(dirPath)) {
            *error = QStringLiteral("cannot create the socket directory %1").arg(dirPath);
            return false;
        }
        ::chmod(dirBytes.constData(), 0700);
        ::stat(dirBytes.constData(), &st);
    }
    if (st.st_uid != ::getuid()) {
        *error = QStringLiteral("the socket directory %1 belongs to another user (uid %2)").arg(dirPath).arg(st.st_uid);
        return false;
    }
    if ((st.st_mode & 0077) != 0) {
        // Our own directory: keep it private. (A tests-only looser mode is applied to the socket.)
        if (!m_options.insecureSocketModeForTests)
            ::chmod(dirBytes.constData(), 0700);
    }

    m_lock = std::make_unique<QLockFile>(path + QStringLiteral(".lock"));
    m_lock->setStaleLockTime(0); // a live host is never displaced because its lock is old
    if (!m_lock->tryLock(0)) {
        qint64 pid = 0;
        QString hostName, appName;
        if (m_lock->error() == QLockFile::LockFailedError && m_lock->getLockInfo(&pid, &hostName, &appName) &&
            // A zombie keeps its pid until reaped, and nothing reaps it on some machines: a lock
            // held by one is stale.
            !Automation::Platform::processAlive(pid)) {
            m_lock->removeStaleLockFile();
        }
        if (!m_lock->tryLock(0)) {
            if (m_lock->error() == QLockFile::LockFailedError && alreadyServed)
                *alreadyServed = true;
            if (m_lock->error() == QLockFile::LockFailedError && m_lock->getLockInfo(&pid, &hostName, &appName))
                *error = QStringLiteral("another msgcode-desktop-host (%1) is already serving %2")
                             .arg(describeProcess(pid), path);
            else
                *error = QStringLiteral("cannot take the lock %1.lock").arg(path);
            m_lock.reset();
            return false;
        }
    }

    if (QFileInfo::exists(path)) {
        // We hold the lock, so no well-behaved host serves this path; a socket that still answers
        // belongs to something else and is left alone.
        QLocalSocket probe;
        probe.connectToServer(path);
        if (probe.waitForConnected(300)) {
            const auto owner = peerFromSocket(probe.socketDescriptor());
            if (alreadyServed)
                *alreadyServed = true;
            *error = QStringLiteral("another process (%1) is serving %2")
                         .arg(owner ? describeProcess(owner->pid) : QStringLiteral("unknown"), path);
            m_lock->unlock();
            m_lock.reset();
            return false;
        }
        qCInfo(lcServer) << "replacing the stale socket" << path;
        QLocalServer::removeServer(path);
    }

    const QByteArray pathBytes = QFile::encodeName(path);
    sockaddr_un address{};
    if (pathBytes.size() >= static_cast<qsizetype>(sizeof(address.sun_path))) {
        *error =
            QStringLiteral("the socket path is longer than %1 bytes: %2").arg(sizeof(address.sun_path) - 1).arg(path);
        m_lock->unlock();
        m_lock.reset();
        return false;
    }
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, pathBytes.constData(), static_cast<size_t>(pathBytes.size()));
    const int fd = Posix::socket(AF_UNIX, SOCK_STREAM, true);
    // The file is created 0600 (umask 0177 around bind), so there is no moment it is wider.
    const mode_t oldMask = ::umask(0177);
    const bool bound = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
    const int bindErrno = errno;
    ::umask(oldMask);
    if (!bound || ::listen(fd, m_options.listenBacklog) != 0) {
        *error = QStringLiteral("cannot listen on %1: %2")
                     .arg(path, QString::fromLocal8Bit(::strerror(bound ? errno : bindErrno)));
        if (fd >= 0)
            ::close(fd);
        m_lock->unlock();
        m_lock.reset();
        return false;
    }
    m_listenFd = fd;
    m_descriptorLimit = descriptorLimit();
    m_reserveFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    m_notifier = new QSocketNotifier(static_cast<qintptr>(m_listenFd), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &Server::onAcceptable);
    ::chmod(pathBytes.constData(), m_options.insecureSocketModeForTests ? 0666 : 0600);
    if (m_options.insecureSocketModeForTests)
        qCWarning(lcServer) << "TEST MODE: the socket" << path << "is world-accessible (0666)";
    return true;
}

QString Server::socketMode() const
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(m_options.socketPath).constData(), &st) != 0)
        return QString();
    return QStringLiteral("0%1").arg(st.st_mode & 0777, 3, 8, QLatin1Char('0'));
}

void Server::close()
{
    if (m_listenFd >= 0) {
        delete m_notifier;
        m_notifier = nullptr;
        ::close(m_listenFd);
        m_listenFd = -1;
        QFile::remove(m_options.socketPath);
    }
    if (m_reserveFd >= 0) {
        ::close(m_reserveFd);
        m_reserveFd = -1;
    }
    if (m_lock) {
        m_lock->unlock();
        m_lock.reset();
    }
}

void Server::flushAll(int waitMs)
{
    QDeadlineTimer deadline(waitMs);
    for (const auto& connection : std::as_const(m_connections)) {
        if (!connection)
            continue;
        auto* socket = connection->findChild<QLocalSocket*>();
        while (socket && socket->bytesToWrite() > 0 && !deadline.hasExpired())
            socket->waitForBytesWritten(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
    }
}

void Server::refuseRaw(int fd, const Error& error)
{
    // One best-effort error line without blocking, then close.
    const QByteArray line = JsonRpc::encodeLine(JsonRpc::errorResponse(QJsonValue(), error));
    [[maybe_unused]] const ssize_t sent =
        ::send(fd, line.constData(), static_cast<size_t>(line.size()), MSG_DONTWAIT | MSG_NOSIGNAL);
    ::close(fd);
}

void Server::logExhaustion()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_lastExhaustionLogMs < 0 || now - m_lastExhaustionLogMs > 5000) {
        qCWarning(lcServer) << "out of file descriptors while accepting (limit" << m_descriptorLimit << ","
                            << m_connections.size() << "connections open," << m_exhaustionRefusals
                            << "clients turned away so far); still listening";
        m_lastExhaustionLogMs = now;
    }
}

void Server::onAcceptable()
{
    // A bounded batch per wake-up, so one burst of clients cannot starve the event loop.
    for (int n = 0; n < 256 && m_listenFd >= 0; ++n) {
        const int fd = Posix::accept(m_listenFd);
        if (fd >= 0 && fd >= m_descriptorLimit - kDescriptorHeadroom) {
            // Descriptors are handed out lowest first: one this high means the host is nearly
            // out of them. Turn the client away now rather than let the host itself fail.
            ++m_exhaustionRefusals;
            refuseRaw(fd, Error::make(ErrorCode::HostNotReady,
                                      QStringLiteral("the host is running out of file descriptors; try again shortly"),
                                      QJsonObject{{QStringLiteral("reason"), QStringLiteral("out_of_descriptors")}}));
            logExhaustion();
            continue;
        }
        if (fd >= 0) {
            auto* socket = new QLocalSocket;
            if (!socket->setSocketDescriptor(fd, QLocalSocket::ConnectedState, QIODevice::ReadWrite)) {
                ::close(fd);
                delete socket;
                continue;
            }
            admit(socket);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            // Out of descriptors: spend the reserve one to take the waiting client, tell it why,
            // and close it (it would otherwise wait in the queue, and the notifier would spin).
            ++m_exhaustionRefusals;
            if (m_reserveFd >= 0) {
                ::close(m_reserveFd);
                m_reserveFd = -1;
            }
            const int spare = Posix::accept(m_listenFd);
            if (spare >= 0)
                refuseRaw(spare,
                          Error::make(ErrorCode::HostNotReady,
                                      QStringLiteral("the host has run out of file descriptors; try again shortly"),
                                      QJsonObject{{QStringLiteral("reason"), QStringLiteral("out_of_descriptors")}}));
            m_reserveFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
            logExhaustion();
            // Back off: give descriptors a moment to come back before accepting again.
            m_notifier->setEnabled(false);
            QTimer::singleShot(100, this, [this] {
                if (m_notifier)
                    m_notifier->setEnabled(true);
            });
            return;
        }
        qCWarning(lcServer) << "accept failed:" << ::strerror(errno) << "; still listening";
        return;
    }
}

void Server::admit(QLocalSocket* socket)
{
    auto peer = peerFromSocket(socket->socketDescriptor());
    const quint64 id = m_nextId++;
    // The MCP front door is told apart by its executable; the client a person approves for it
    // is the process that started it.
    Transport transport = Transport::LocalSocket;
    if (peer && !m_options.mcpDoorExecutable.isEmpty() && peer->executable == m_options.mcpDoorExecutable) {
        transport = Transport::McpDoor;
        peer->parentExecutable = parentExecutable(peer->pid);
    }
    auto* connection = new Connection(socket, id, peer.value_or(PeerInfo{}), transport, *this);
    // Checked once here; the identity is pinned for the connection's life (docs/architecture.md,
    // "Confirmation, caller policy, stop and audit").
    if (auto refused = m_callers.check(peer)) {
        qCWarning(lcServer).noquote() << "refused a connection from pid" << (peer ? peer->pid : -1) << "uid"
                                      << (peer ? peer->uid : -1) << (peer ? peer->executable : QString()) << ":"
                                      << refused->details.value(QStringLiteral("reason")).toString();
        Q_EMIT callerRefused(peer.value_or(PeerInfo{}), *refused);
        connection->refuse(*refused);
        return;
    }
    // Caps, so one process cannot take every connection (and descriptor) of the host.
    int fromPeer = 0;
    for (const auto& other : std::as_const(m_connections)) {
        if (other && peer && other->peer().pid == peer->pid)
            ++fromPeer;
    }
    const bool tooMany = m_connections.size() >= m_options.maxConnections;
    if (tooMany || fromPeer >= m_options.maxConnectionsPerPeer) {
        const int limit = tooMany ? m_options.maxConnections : m_options.maxConnectionsPerPeer;
        qCWarning(lcServer) << "refused a connection from pid" << (peer ? peer->pid : -1) << ":"
                            << (tooMany ? "too many connections" : "too many connections from this process") << limit;
        connection->refuse(Error::make(
            ErrorCode::HostNotReady,
            tooMany ? QStringLiteral("the host has %1 connections open; try again shortly").arg(limit)
                    : QStringLiteral("this process has %1 connections open; close some and try again").arg(limit),
            QJsonObject{{QStringLiteral("reason"), tooMany ? QStringLiteral("too_many_connections")
                                                           : QStringLiteral("too_many_connections_from_peer")},
                        {QStringLiteral("limit"), limit}}));
        return;
    }
    m_connections.insert(id, connection);
    m_dispatcher.sessionOpened(Caller{id, connection->peer(), transport});
    connect(connection, &Connection::closed, this, [this](quint64 closedId) {
        m_connections.remove(closedId);
        m_dispatcher.sessionClosed(closedId);
    });
}

} // namespace Bridge
