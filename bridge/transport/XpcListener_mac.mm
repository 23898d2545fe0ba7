// The XPC front door on macOS (XpcListener.h; docs/macos.md, "The XPC transport"): an
// NSXPCListener on the LaunchAgent's mach service, one exported object per connection, every
// message handed to the Dispatcher on its thread. Compiled with -fobjc-arc.
//
// Threads: NSXPCListener asks its delegate on a private serial queue; each connection delivers
// its messages on a serial queue of its own. Both only read or change the shared state under
// its mutex and hop onto the Dispatcher's thread with a queued call. listen() and close() run
// on the Dispatcher's thread.
#include "bridge/transport/XpcListener.h"

#include "bridge/Dispatcher.h"
#include "bridge/protocol/JsonRpc.h"
#include "bridge/protocol/LineFramer.h"
#include "bridge/security/CodeSignature.h"
#include "bridge/transport/XpcProtocol_mac.h"

#include <QLoggingCategory>
#include <QMetaObject>

#import <Foundation/Foundation.h>

#include <mach/mach.h>
#include <servers/bootstrap.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#if !__has_feature(objc_arc)
#error "XpcListener_mac.mm is compiled with -fobjc-arc (bridge/CMakeLists.txt, scripts/check-macos)"
#endif

namespace Bridge {

Q_LOGGING_CATEGORY(lcXpc, "msgcode.bridge.xpc")

namespace {

using ReplyBlock = void (^)(NSString* response);

/// An XPC reply block, called exactly once: with the answer, or with an empty string when the
/// last reference goes without one (a notification, a batch of notifications, a request
/// dropped because the connection or the listener closed first), so the client's block is
/// always called. Any thread may answer or drop it.
class OnceReply
{
public:
    explicit OnceReply(ReplyBlock block) : m_block([block copy]) {}
    ~OnceReply() { send(@""); }
    OnceReply(const OnceReply&) = delete;
    OnceReply& operator=(const OnceReply&) = delete;

    /// One encoded line (JsonRpc::encodeLine), sent without its newline.
    void sendLine(const QByteArray& line)
    {
        const qsizetype length = line.endsWith('\n') ? line.size() - 1 : line.size();
        NSString* response = [[NSString alloc] initWithBytes:line.constData()
                                                      length:static_cast<NSUInteger>(length)
                                                    encoding:NSUTF8StringEncoding];
        send(response);
    }

    void send(NSString* response)
    {
        ReplyBlock block = nil;
        {
            std::lock_guard lock(m_mutex);
            block = m_block;
            m_block = nil;
        }
        if (!block)
            return;
        @autoreleasepool {
            block(response ? response : @"");
        }
    }

private:
    std::mutex m_mutex;
    ReplyBlock m_block;
};

} // namespace

/// What the listener, its delegate, the exported objects and the connections' handlers share.
/// The delegate, the exported objects and the handlers hold it weakly: once the XpcListener is
/// gone, what arrives is dropped (and answered with an empty string).
struct XpcListener::Shared : std::enable_shared_from_this<XpcListener::Shared>
{
    Dispatcher* dispatcher = nullptr;
    Identify identify;
    Admit admit;
    std::atomic<qsizetype> maxMessageBytes{LineFramer::kDefaultMaxLineBytes};

    // Set and cleared by listen() and close() on the Dispatcher's thread only.
    NSXPCListener* listener = nil;
    id<NSXPCListenerDelegate> delegate = nil;
    // Set before the listener is resumed, read by the delegate afterwards.
    NSXPCInterface* interface = nil;

    mutable std::mutex mutex;
    bool open = false;
    quint64 nextId = kFirstConnectionId;
    std::map<quint64, NSXPCConnection*> connections;
    /// accept() calls in identify or admit now; close() waits for them, so that neither is
    /// called once it has returned (admit may reach into the host).
    int identifying = 0;
    std::condition_variable identified;

    /// The delegate's decision, on the listener's queue.
    bool accept(NSXPCConnection* connection);
    bool identifyAndAdmit(NSXPCConnection* connection);
    /// One message of connection `caller.connectionId`, on the connection's queue.
    void received(const Caller& caller, NSString* request, std::shared_ptr<OnceReply> reply);
    /// The connection was invalidated or interrupted, on the connection's queue.
    void ended(quint64 connectionId);

    bool isOpen() const
    {
        std::lock_guard lock(mutex);
        return open;
    }
    bool isLive(quint64 connectionId) const
    {
        std::lock_guard lock(mutex);
        return open && connections.count(connectionId) != 0;
    }
};

} // namespace Bridge

using SharedRef = std::weak_ptr<Bridge::XpcListener::Shared>;

/// The object exported to one connection: its messages, with the Caller pinned at accept.
@interface MDHBridgeXpcSession : NSObject <BridgeXPCProtocol>
- (instancetype)initWithShared:(const SharedRef&)shared caller:(const Bridge::Caller&)caller;
@end

@implementation MDHBridgeXpcSession {
    SharedRef _shared;
    Bridge::Caller _caller;
}

- (instancetype)initWithShared:(const SharedRef&)shared caller:(const Bridge::Caller&)caller
{
    if ((self = [super init])) {
        _shared = shared;
        _caller = caller;
    }
    return self;
}

- (void)sendMessage:(NSString*)request reply:(void (^)(NSString* response))reply
{
    auto answer = std::make_shared<Bridge::OnceReply>(reply);
    if (const auto shared = _shared.lock())
        shared->received(_caller, request, std::move(answer));
    // Else the listener is gone: `answer` goes here, replying with an empty string.
}

@end

/// The listener's delegate: admits or refuses each new connection.
@interface MDHBridgeXpcListenerDelegate : NSObject <NSXPCListenerDelegate>
- (instancetype)initWithShared:(const SharedRef&)shared;
@end

@implementation MDHBridgeXpcListenerDelegate {
    SharedRef _shared;
}

- (instancetype)initWithShared:(const SharedRef&)shared
{
    if ((self = [super init]))
        _shared = shared;
    return self;
}

- (BOOL)listener:(NSXPCListener*)listener shouldAcceptNewConnection:(NSXPCConnection*)connection
{
    Q_UNUSED(listener);
    const auto shared = _shared.lock();
    return shared && shared->accept(connection) ? YES : NO;
}

@end

namespace Bridge {

namespace {

void refuse(qint64 pid, const QString& executable, const QString& why)
{
    const QString who = executable.isEmpty() ? QStringLiteral("pid %1").arg(pid)
                                             : QStringLiteral("pid %1, %2").arg(QString::number(pid), executable);
    qCWarning(lcXpc).noquote() << QStringLiteral("refused an XPC connection from %1: %2").arg(who, why);
}

} // namespace

bool XpcListener::Shared::accept(NSXPCConnection* connection)
{
    {
        std::lock_guard lock(mutex);
        if (!open)
            return false;
        ++identifying;
    }
    const bool admitted = identifyAndAdmit(connection);
    {
        std::lock_guard lock(mutex);
        --identifying;
    }
    identified.notify_all();
    return admitted;
}

bool XpcListener::Shared::identifyAndAdmit(NSXPCConnection* connection)
{
    const qint64 pid = connection.processIdentifier;
    std::optional<PeerInfo> peer = identify ? identify(pid) : peerFromPid(pid);
    if (!peer) {
        refuse(pid, QString(), QStringLiteral("its identity cannot be read"));
        return false;
    }
    // The connection's effective uid is the kernel's (from its audit token), the peer's was read
    // by pid: they differ for a setuid program, or when the pid already names another process.
    const qint64 kernelUid = connection.effectiveUserIdentifier;
    if (kernelUid != peer->uid) {
        refuse(pid, peer->executable,
               QStringLiteral("the connection's effective uid %1 is not the process's uid %2")
                   .arg(kernelUid)
                   .arg(peer->uid));
        return false;
    }
    if (!peer->codeSignature)
        peer->codeSignature = codeSignatureOfPid(pid);
    // Read by pid: if the process ended and the pid was reused meanwhile, the start time differs.
    if (peer->startTime != 0 && processStartTime(pid) != peer->startTime) {
        refuse(pid, peer->executable, QStringLiteral("the process changed while it was being identified"));
        return false;
    }
    QString why;
    if (admit && !admit(*peer, &why)) {
        refuse(pid, peer->executable, why.isEmpty() ? QStringLiteral("not admitted by the caller policy") : why);
        return false;
    }

    Caller caller;
    caller.peer = *peer;
    caller.transport = Transport::Xpc;
    {
        std::lock_guard lock(mutex);
        if (!open)
            return false;
        if (connections.size() >= static_cast<size_t>(kMaxConnections)) {
            refuse(pid, peer->executable, QStringLiteral("%1 XPC connections are open already").arg(kMaxConnections));
            return false;
        }
        caller.connectionId = nextId++;
        const quint64 id = caller.connectionId;
        const SharedRef weak = weak_from_this();
        connection.exportedInterface = interface;
        connection.exportedObject = [[MDHBridgeXpcSession alloc] initWithShared:weak caller:caller];
        // Both may come (an interruption, then the invalidation); ended() acts once.
        connection.interruptionHandler = ^{
          if (const auto shared = weak.lock())
              shared->ended(id);
        };
        connection.invalidationHandler = ^{
          if (const auto shared = weak.lock())
              shared->ended(id);
        };
        connections.emplace(id, connection);
        // Queued before the connection is resumed, so before any of its messages.
        const auto self = shared_from_this();
        QMetaObject::invokeMethod(
            dispatcher,
            [self, caller] {
                // close() may have closed every session meanwhile: then it is not opened.
                if (self->isOpen())
                    self->dispatcher->sessionOpened(caller);
            },
            Qt::QueuedConnection);
    }
    qCDebug(lcXpc) << "XPC connection" << caller.connectionId << "from pid" << pid << peer->executable;
    [connection resume];
    return true;
}

void XpcListener::Shared::received(const Caller& caller, NSString* request, std::shared_ptr<OnceReply> reply)
{
    const qsizetype limit = maxMessageBytes.load();
    // Every UTF-16 unit is at least one UTF-8 byte: a longer string is too long unconverted.
    const bool tooLong = request.length > static_cast<NSUInteger>(limit);
    const QByteArray line = tooLong ? QByteArray() : QString::fromNSString(request).toUtf8();
    if (tooLong || line.size() > limit) {
        reply->sendLine(JsonRpc::encodeLine(JsonRpc::errorResponse(
            QJsonValue(), Automation::Error::invalidRequest(
                              QStringLiteral("the message exceeds %1 bytes").arg(limit), -32600,
                              QJsonObject{{QStringLiteral("reason"), QStringLiteral("message_too_long")},
                                          {QStringLiteral("maxMessageBytes"), limit}}))));
        return;
    }
    // Parsed here, off the Dispatcher's thread; malformed JSON is answered at once (-32700).
    auto decoded = JsonRpc::decode(line);
    if (!decoded) {
        reply->sendLine(JsonRpc::encodeLine(JsonRpc::errorResponse(QJsonValue(), decoded.error())));
        return;
    }
    std::lock_guard lock(mutex);
    // Closed meanwhile: dropped, and `reply` answers empty as it goes.
    if (!open || connections.count(caller.connectionId) == 0)
        return;
    const auto self = shared_from_this();
    QMetaObject::invokeMethod(
        dispatcher,
        [self, caller, message = std::move(decoded.value()), reply = std::move(reply)] {
            // A connection that ended (or a listener that closed) after this was queued has had
            // its session closed, or is about to: nothing more is started for it.
            if (!self->isLive(caller.connectionId))
                return;
            self->dispatcher->dispatch(caller, message, [reply](const QByteArray& answer) { reply->sendLine(answer); });
        },
        Qt::QueuedConnection);
}

void XpcListener::Shared::ended(quint64 connectionId)
{
    // Held until after the lock: the last reference to the connection may go with it.
    NSXPCConnection* connection = nil;
    {
        std::lock_guard lock(mutex);
        const auto it = connections.find(connectionId);
        if (it == connections.end())
            return;
        connection = it->second;
        connections.erase(it);
        // After every message of the connection already queued.
        Dispatcher* const target = dispatcher;
        QMetaObject::invokeMethod(
            target, [target, connectionId] { target->sessionClosed(connectionId); }, Qt::QueuedConnection);
    }
    qCDebug(lcXpc) << "XPC connection" << connectionId << "of pid" << connection.processIdentifier << "closed";
}

XpcListener::XpcListener(Dispatcher& dispatcher, Identify identify, Admit admit, QObject* parent)
    : QObject(parent), m_dispatcher(dispatcher), m_shared(std::make_shared<Shared>())
{
    m_shared->dispatcher = &dispatcher;
    m_shared->identify = std::move(identify);
    m_shared->admit = std::move(admit);
}

XpcListener::~XpcListener()
{
    close();
}

bool XpcListener::isSupported()
{
    return true;
}

bool XpcListener::listen(const QString& serviceName, QString* error)
{
    const auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (m_shared->listener)
        return fail(QStringLiteral("already listening on the mach service %1").arg(m_serviceName));
    const QByteArray name = serviceName.toUtf8();
    if (name.isEmpty() || name.size() >= static_cast<qsizetype>(sizeof(name_t)))
        return fail(QStringLiteral("not a mach service name: \"%1\"").arg(serviceName));
    // NSXPCListener cannot say that it failed to check in (it logs and never calls its delegate).
    // What can be checked is that launchd knows the name in this session: not when the
    // LaunchAgent is not loaded, or the host runs outside the GUI session (ssh).
    mach_port_t port = MACH_PORT_NULL;
    const kern_return_t found = bootstrap_look_up(bootstrap_port, name.constData(), &port);
    if (found != KERN_SUCCESS)
        return fail(QStringLiteral("the mach service %1 is not registered with launchd in this session (%2); the "
                                   "LaunchAgent com.msgcode.desktop.host registers it (docs/macos.md)")
                        .arg(serviceName, QString::fromLocal8Bit(bootstrap_strerror(found))));
    mach_port_deallocate(mach_task_self(), port);

    @autoreleasepool {
        const SharedRef weak = m_shared;
        m_shared->interface = [NSXPCInterface interfaceWithProtocol:@protocol(BridgeXPCProtocol)];
        m_shared->delegate = [[MDHBridgeXpcListenerDelegate alloc] initWithShared:weak];
        m_shared->listener = [[NSXPCListener alloc] initWithMachServiceName:serviceName.toNSString()];
        m_shared->listener.delegate = m_shared->delegate;
        {
            std::lock_guard lock(m_shared->mutex);
            m_shared->open = true;
        }
        [m_shared->listener resume];
    }
    m_serviceName = serviceName;
    qCInfo(lcXpc).noquote() << QStringLiteral("serving XPC on the mach service %1").arg(serviceName);
    return true;
}

void XpcListener::close()
{
    std::map<quint64, NSXPCConnection*> dropped;
    {
        std::unique_lock lock(m_shared->mutex);
        m_shared->open = false;
        // A connection being identified now is refused once identified (open is false).
        m_shared->identified.wait(lock, [this] { return m_shared->identifying == 0; });
        dropped.swap(m_shared->connections);
    }
    @autoreleasepool {
        [m_shared->listener invalidate];
        m_shared->listener = nil;
        m_shared->delegate = nil;
        for (const auto& [id, connection] : dropped) {
            m_dispatcher.sessionClosed(id);
            [connection invalidate];
        }
        dropped.clear();
    }
}

bool XpcListener::isListening() const
{
    return m_shared->isOpen();
}

QString XpcListener::serviceName() const
{
    return m_serviceName;
}

int XpcListener::connectionCount() const
{
    std::lock_guard lock(m_shared->mutex);
    return static_cast<int>(m_shared->connections.size());
}

void XpcListener::setMaxMessageBytes(qsizetype bytes)
{
    m_shared->maxMessageBytes.store(bytes > 0 ? bytes : LineFramer::kDefaultMaxLineBytes);
}

qsizetype XpcListener::maxMessageBytes() const
{
    return m_shared->maxMessageBytes.load();
}

} // namespace Bridge
