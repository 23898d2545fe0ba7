#pragma once

#include "bridge/protocol/Client.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

namespace Mcp {

/// The front door's link to the running host: one connection over its socket, requests with
/// meta filled in (the workspace is the process's working directory), side effects confirmed
/// through desktop.confirm.issue first, so the host's confirmation policy decides.
class HostLink
{
public:
    HostLink(QString socketPath, QString workspace);

    /// The host's response to `method` (a result or an error object). When the host cannot be
    /// reached, or answers nothing in time, a DESKTOP_HOST_NOT_RUNNING / DESKTOP_TIMEOUT error
    /// object made here says so.
    QJsonObject call(const QString& method, const QJsonObject& params, bool sideEffect, int timeoutMs = 30000);
    QString workspace() const { return m_workspace; }

private:
    QJsonObject request(const QString& method, const QJsonObject& params, int timeoutMs);

    QString m_socketPath;
    QString m_workspace;
    Bridge::Client m_client;
};

/// One MCP tool: its name, description and input schema (tools/list), and what a call does.
struct Tool
{
    QString name;
    QString description;
    QJsonObject inputSchema;
    /// The tools/call result: {content: [...], isError}.
    std::function<QJsonObject(const QJsonObject& arguments, HostLink& host)> call;
};

/// The door's tool table: ghost-os's tool names and arguments that msgcode dispatches, mapped
/// onto the host's methods, and the host's own tools (desktop_status). docs/msgcode.md.
const QList<Tool>& tools();
/// tools/list's `tools`.
QJsonArray toolDefinitions();
/// tools/call: the named tool's result; an unknown tool is a result with isError, as ghost-os
/// answers it.
QJsonObject callTool(const QString& name, const QJsonObject& arguments, HostLink& host);

/// A text result holding `toolResult` (keys sorted: {success, data?, error?, suggestion?}).
QJsonObject textResult(const QJsonObject& toolResult);

} // namespace Mcp
