#pragma once

#include "bridge/transport/PeerCredentials.h"

#include <QString>

namespace Bridge {

/// How a request reached the host. Tokens, audit and caller policy read it; each kind may have
/// a confirmation policy of its own (the host's --confirm-policy by default).
enum class Transport {
    /// A client of the local socket, identified by its peer credentials.
    LocalSocket,
    /// The host's own windows (a person clicked in them): in process, never over a socket.
    Gui,
    /// The MCP front door (msgcode-desktop-mcp, docs/msgcode.md) over the local socket: a
    /// client whose executable is the door's, with a confirmation policy of its own and
    /// the door's parent process (msgcode) as the client a person approves.
    McpDoor,
    /// The XPC front door on macOS (XpcListener).
    Xpc,
    /// The remote agent (docs/remote.md): a control server the host dialled out to, with a
    /// confirmation policy of its own; `Caller::remoteServer` names it.
    Remote,
};

/// Who sent a request: the transport, the connection (0 for in-process callers) and, for a
/// socket, the peer identity pinned at connect time.
struct Caller
{
    quint64 connectionId = 0;
    PeerInfo peer;
    Transport transport = Transport::LocalSocket;
    /// The remote agent's control server as a person reads it, e.g. "ctl.example.com:9876 (TLS)".
    QString remoteServer;

    /// The person at the host's own windows.
    static Caller gui()
    {
        Caller caller;
        caller.transport = Transport::Gui;
        return caller;
    }
    bool isGui() const { return transport == Transport::Gui; }
    /// The peer for audit lines: none for the GUI (the line says `via: gui`).
    const PeerInfo* auditPeer() const { return isGui() ? nullptr : &peer; }
    /// "local_socket", "gui", "mcp", "xpc" or "remote", as audit lines and evidence name it.
    QString transportName() const
    {
        switch (transport) {
        case Transport::Gui:
            return QStringLiteral("gui");
        case Transport::McpDoor:
            return QStringLiteral("mcp");
        case Transport::Xpc:
            return QStringLiteral("xpc");
        case Transport::Remote:
            return QStringLiteral("remote");
        case Transport::LocalSocket:
            break;
        }
        return QStringLiteral("local_socket");
    }
};

} // namespace Bridge
