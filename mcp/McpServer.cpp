#include "mcp/McpServer.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace Mcp {

namespace {

QJsonObject errorResponse(const QJsonValue& id, int code, const QString& message)
{
    return QJsonObject{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("id"), id},
        {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}};
}

QJsonObject resultResponse(const QJsonValue& id, const QJsonObject& result)
{
    return QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("result"), result}};
}

// What a model is told about the tools, in the server's own words.
QString instructions()
{
    return QStringLiteral(
        "msgcode Desktop Host drives the apps on this desktop through their accessibility tree. Start with "
        "ghost_context (the app, its window, the focused element and what can be acted on) or ghost_find "
        "(elements by visible title and role), then act with ghost_click, ghost_type, ghost_press or "
        "ghost_hotkey, naming elements by their visible title (query) and role, and check the effect with "
        "ghost_read, ghost_context or ghost_screenshot. Every action says whether the app showed its effect "
        "(`effect`: confirmed, unverifiable, suspected_noop); success is false when nothing was seen to happen. "
        "The person at the desktop may be asked to allow an action, may refuse it, and can stop everything: an "
        "error that says so is final, do not retry it. Each call leaves evidence (screenshots, the tree, a "
        "trace) under the workspace's artifacts/desktop; its directory is in data.evidence. Where your client "
        "offers them, desktop_status says whether the desktop is idle, busy with another task (and with what) or "
        "stopped, desktop_abort stops what runs, and desktop_evidence lists the evidence of recent calls. "
        "ghost_recipes lists saved multi-step tasks; ghost_run runs one step by step.");
}

} // namespace

QStringList Server::supportedProtocolVersions()
{
    return {QStringLiteral("2025-06-18"), QStringLiteral("2025-03-26"), QStringLiteral("2024-11-05")};
}

QJsonObject Server::handle(const QJsonObject& message)
{
    const QJsonValue id = message.value(QStringLiteral("id"));
    const bool notification = !message.contains(QStringLiteral("id"));
    const QJsonValue methodValue = message.value(QStringLiteral("method"));
    if (!methodValue.isString())
        return notification ? QJsonObject()
                            : errorResponse(id, -32600, QStringLiteral("Invalid request: missing method"));
    const QString method = methodValue.toString();
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    if (notification)
        return {}; // notifications/initialized, notifications/cancelled, ...: nothing to answer
    if (method == QLatin1String("initialize")) {
        const QString asked = params.value(QStringLiteral("protocolVersion")).toString();
        const QStringList supported = supportedProtocolVersions();
        return resultResponse(
            id, QJsonObject{{QStringLiteral("protocolVersion"), supported.contains(asked) ? asked : supported.first()},
                            {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("tools"), QJsonObject()}}},
                            {QStringLiteral("serverInfo"),
                             QJsonObject{{QStringLiteral("name"), QStringLiteral("msgcode-desktop-mcp")},
                                         {QStringLiteral("version"), QStringLiteral(MDH_VERSION)}}},
                            {QStringLiteral("instructions"), instructions()}});
    }
    if (method == QLatin1String("ping"))
        return resultResponse(id, {});
    if (method == QLatin1String("tools/list"))
        return resultResponse(id, QJsonObject{{QStringLiteral("tools"), toolDefinitions()}});
    if (method == QLatin1String("tools/call")) {
        const QJsonValue name = params.value(QStringLiteral("name"));
        if (!name.isString())
            return errorResponse(id, -32602, QStringLiteral("Invalid params: tools/call needs a tool name"));
        const QJsonValue arguments = params.value(QStringLiteral("arguments"));
        if (!arguments.isUndefined() && !arguments.isNull() && !arguments.isObject())
            return errorResponse(id, -32602, QStringLiteral("Invalid params: arguments must be an object"));
        return resultResponse(id, callTool(name.toString(), arguments.toObject(), m_host));
    }
    return errorResponse(id, -32601, QStringLiteral("Method not found: %1").arg(method));
}

int Server::run()
{
    while (true) {
        const Stdio::Read read = m_stdio.read();
        switch (read.kind) {
        case Stdio::Read::Kind::End:
            return 0;
        case Stdio::Read::Kind::TooLong:
            m_stdio.write(
                QJsonDocument(errorResponse(QJsonValue(), -32600,
                                            QStringLiteral("Invalid request: the message is longer than %1 bytes")
                                                .arg(Stdio::kMaxMessageBytes)))
                    .toJson(QJsonDocument::Compact));
            continue;
        case Stdio::Read::Kind::BadHeader:
            m_stdio.write(
                QJsonDocument(errorResponse(QJsonValue(), -32700, QStringLiteral("Parse error: bad frame header")))
                    .toJson(QJsonDocument::Compact));
            return 1;
        case Stdio::Read::Kind::Message:
            break;
        }
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(read.bytes, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject()) {
            m_stdio.write(
                QJsonDocument(errorResponse(QJsonValue(), error.error != QJsonParseError::NoError ? -32700 : -32600,
                                            error.error != QJsonParseError::NoError
                                                ? QStringLiteral("Parse error: %1").arg(error.errorString())
                                                : QStringLiteral("Invalid request: not a JSON object")))
                    .toJson(QJsonDocument::Compact));
            continue;
        }
        const QJsonObject answer = handle(document.object());
        if (!answer.isEmpty())
            m_stdio.write(QJsonDocument(answer).toJson(QJsonDocument::Compact));
    }
}

} // namespace Mcp
