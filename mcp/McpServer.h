#pragma once

#include "mcp/McpStdio.h"
#include "mcp/McpTools.h"

#include <QJsonObject>

namespace Mcp {

/// The MCP server on stdio (docs/msgcode.md): initialize, notifications/initialized,
/// tools/list, tools/call, ping. Unlike a server that stops at the first bad line, it answers
/// a line that is not JSON-RPC with a JSON-RPC error and reads on.
class Server
{
public:
    Server(Stdio& stdio, HostLink& host) : m_stdio(stdio), m_host(host) {}

    /// Serves until stdin ends; the exit code.
    int run();
    /// The answer to one message (empty for a notification).
    QJsonObject handle(const QJsonObject& message);

    /// The protocol versions answered as asked; any other gets the newest of them.
    static QStringList supportedProtocolVersions();

private:
    Stdio& m_stdio;
    HostLink& m_host;
};

} // namespace Mcp
