#pragma once

#include "bridge/transport/PeerCredentials.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace Bridge {

class Dispatcher;

/// The XPC front door on macOS, beside the local socket (docs/macos.md, "The XPC transport"): an
/// NSXPCListener on a launchd mach service (com.msgcode.desktop.bridge, declared by the
/// LaunchAgent's MachServices) exporting msgcode's BridgeXPCProtocol,
///
///     - (void)sendMessage:(NSString *)request reply:(void (^)(NSString *response))reply;
///
/// (the selector `sendMessage:reply:` of msgcode's Swift `sendMessage(_ requestJson:, reply:)`)
///
/// One JSON-RPC message (a request object or a batch, one line of JSON) per call; the reply block
/// is called exactly once, with the response line (without the newline), or with an empty string
/// when nothing is due (notifications) or the host went away before answering. Requests go to
/// the same Dispatcher as the socket's, as a Caller with Transport::Xpc, its own connection id
/// and the peer read from the connection's pid (with its code signature), pinned at connect.
///
/// `identify` and `admit` are called on an XPC queue, not on this object's thread: they must be
/// safe to call from any thread; neither is called once close() has returned (it waits for one
/// that is running). listen(), close() and the destructor are called on the Dispatcher's thread,
/// and this object goes before the Dispatcher does. Elsewhere (CMake builds
/// XpcListener_unsupported.cpp) listen() fails.
class XpcListener final : public QObject
{
    Q_OBJECT

public:
    /// The identity of a connecting process from its pid; nullopt refuses the connection.
    using Identify = std::function<std::optional<PeerInfo>(qint64 pid)>;
    /// Whether `peer` may connect (the host's CallerPolicy); false refuses, `why` says why.
    using Admit = std::function<bool(const PeerInfo& peer, QString* why)>;

    /// The mach service of the bridge contract, as the LaunchAgent registers it.
    static QString defaultServiceName() { return QStringLiteral("com.msgcode.desktop.bridge"); }
    /// XPC connection ids count from here, far above the socket server's (which count from 1).
    static constexpr quint64 kFirstConnectionId = quint64{1} << 40;
    /// Connections open at once; more are refused.
    static constexpr int kMaxConnections = 1024;
    /// Whether this platform has XPC (macOS), so the host tries listen() only there.
    static bool isSupported();

    /// `admit` empty: every identified caller is admitted (the host passes its CallerPolicy).
    explicit XpcListener(Dispatcher& dispatcher, Identify identify = &peerFromPid, Admit admit = {},
                         QObject* parent = nullptr);
    ~XpcListener() override;

    XpcListener(const XpcListener&) = delete;
    XpcListener& operator=(const XpcListener&) = delete;

    /// Starts listening on the mach service `serviceName`. False with `error` set when it is not
    /// registered with launchd in this session (the LaunchAgent is not loaded, or the host runs
    /// outside the GUI session), when already listening, or on platforms without XPC. A mach
    /// service is checked in once per process: listen again after close() is not supported.
    bool listen(const QString& serviceName, QString* error);
    /// Stops accepting, closes every connection (Dispatcher::sessionClosed for each) and drops
    /// the requests not yet handed to the Dispatcher (their replies are empty). Waits for an
    /// identify or admit call in progress. Idempotent.
    void close();

    bool isListening() const;
    QString serviceName() const;
    int connectionCount() const;

    /// Messages longer than this (UTF-8 bytes) are answered with DESKTOP_INVALID_REQUEST
    /// (-32600, reason message_too_long) and not parsed; the socket's line limit by default.
    void setMaxMessageBytes(qsizetype bytes);
    qsizetype maxMessageBytes() const;

    /// The platform's state, defined by XpcListener_mac.mm or XpcListener_unsupported.cpp.
    struct Shared;

private:
    Dispatcher& m_dispatcher;
    std::shared_ptr<Shared> m_shared;
    QString m_serviceName;
};

} // namespace Bridge
