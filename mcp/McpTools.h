#pragma once

#include "mcp/HostLink.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

namespace Mcp {

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
