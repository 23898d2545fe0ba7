#pragma once

#include "client-kit/SideEffectCall.h"
#include "client-kit/ToolSchema.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace Remote {

/// What the remote agent's tools run on: the host's engine, called in process as the remote
/// principal (RemoteAgent), and a timer.
class Engine
{
public:
    /// `response` is {result} or {error: {code, message, retryable, details}}, as on the wire.
    using Reply = DoorKit::Engine::Reply;

    virtual ~Engine() = default;
    /// One bridge method with meta filled in (the remote workspace, a fresh request id,
    /// `timeoutMs`). A side effect goes through DoorKit::call: every target member's selector is
    /// looked for first, then it is confirmed through desktop.confirm.issue under the remote policy. `reply` is called
    /// once, or never when the connection that asked is gone.
    virtual void call(const QString& method, const QJsonObject& params, bool sideEffect, int timeoutMs,
                      Reply reply) = 0;
    /// `done` after `ms`, or never when the connection that asked is gone.
    virtual void sleep(int ms, std::function<void()> done) = 0;
};

/// A tools/call's answer: a result {content, isError} or a JSON-RPC error of the seed's table.
struct ToolOutcome
{
    static constexpr int kInvalidParams = -32602;
    static constexpr int kToolNotFound = -32002;
    static constexpr int kToolNotStarted = -32003;

    std::optional<QJsonObject> result;
    int errorCode = 0;
    QString errorMessage;
    QJsonObject errorData;

    static ToolOutcome of(QJsonObject result) { return ToolOutcome{std::move(result), 0, {}, {}}; }
    static ToolOutcome error(int code, QString message, QJsonObject data = {})
    {
        return ToolOutcome{std::nullopt, code, std::move(message), std::move(data)};
    }
};
using ToolDone = std::function<void(const ToolOutcome&)>;

/// One tool of the remote door: Peekaboo's name, a description, the JSON Schema of its
/// arguments and what a call does.
struct Tool
{
    QString name;
    QString description;
    QJsonObject inputSchema;
    /// Runs with arguments already checked against inputSchema.
    std::function<void(const QJsonObject& arguments, Engine& engine, const ToolDone& done)> run;
};

/// The door's tools (docs/remote.md, "Tools").
const QList<Tool>& tools();
/// tools/list's `tools`: [{name, description, inputSchema}].
QJsonArray toolDefinitions();
/// Why a tool of the seed's table is not served here; nullopt for one that is, or no such tool.
std::optional<QString> unsupportedReason(const QString& name);
/// Where `arguments` break `schema`: the kit's checker (DoorKit::Schema::checkArguments).
using DoorKit::Schema::checkArguments;
/// tools/call: unknown or unsupported tools -32002, bad arguments -32602, else the tool's answer.
void callTool(const QString& name, const QJsonObject& arguments, Engine& engine, const ToolDone& done);

} // namespace Remote
