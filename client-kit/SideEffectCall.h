#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace DoorKit {

/// What a door's calls run on: one bridge request at a time, answered once. The MCP door answers
/// at once over its socket (HostLink); the remote agent answers later, in process (RemoteAgent).
class Engine
{
public:
    /// `response` is {result} or {error: {code, message, retryable?, details?}}, as on the wire.
    using Reply = std::function<void(const QJsonObject& response)>;

    virtual ~Engine() = default;
    /// One bridge method with meta filled in; `reply` is called once (or never, when the one who
    /// asked is gone).
    virtual void request(const QString& method, const QJsonObject& params, int timeoutMs, Reply reply) = 0;
    /// How long desktop.confirm.issue may wait for the person to answer.
    virtual int confirmTimeoutMs() const = 0;
};

/// The members of `params` that name an element by selector (`target`, `toTarget` and any other
/// whose value is an object with a non-empty `selector`), in the order they are looked for:
/// `target`, `toTarget`, then the others by name.
QStringList targetMembers(const QJsonObject& params);

/// The error a side effect gets when the element a member names is not there: nothing was asked
/// or done. `found` is desktop.find's result.
QJsonObject elementNotFound(const QString& member, const QJsonObject& selector, const QJsonObject& found);

/// A method through `engine`; a side effect goes look -> confirm -> call: every target member's
/// selector is looked for first (one rule: nobody is asked about an element that is not there),
/// then desktop.confirm.issue asks under the host's policy for a token for exactly these params,
/// then the method runs with it. The first error ends the flow and is the reply.
void call(Engine& engine, const QString& method, const QJsonObject& params, bool sideEffect, int timeoutMs,
          Engine::Reply reply);

} // namespace DoorKit
