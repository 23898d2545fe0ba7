#pragma once

#include "remote/RemoteTools.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

/// What the remote door's tool families share: Peekaboo's result shape (a sentence, then the facts
/// as one JSON line), the host's answers read through DoorKit::Outcome, and its arguments read.
namespace Remote::Peekaboo {

/// The sentence a person reads, then the facts as one JSON line a program reads.
QJsonObject toolResult(const QString& sentence, const QJsonObject& facts, bool isError,
                       const QByteArray& pngBase64 = {});
bool failed(const QJsonObject& response);
QJsonObject resultOf(const QJsonObject& response);
/// A host error as the tool's failure: the code and message first, the whole error as facts. The
/// host's refusal of the params (-32602: nothing was asked or done) is the tool's -32602.
ToolOutcome hostFailure(const QJsonObject& response);
/// {executionId, evidence} of a result.
QJsonObject evidenceFacts(const QJsonObject& result);
/// A side effect's answer: done only when the host says so and saw no sign that nothing happened.
ToolOutcome sideEffectOutcome(const QJsonObject& response, const QString& doneKey, const QString& what);
/// -32602 with `message`.
ToolOutcome badArgument(const QString& message);

/// The route to the app named `app`; empty for none (the frontmost).
QJsonObject routeForApp(const QString& app);
/// `params` with the route to `app`, when one is named.
QJsonObject withRoute(QJsonObject params, const QString& app);
QString str(const QJsonObject& arguments, const char* key);
/// timeout_ms, 30 s by default.
int timeoutOf(const QJsonObject& arguments);
/// "x,y" as a point; nullopt when it is not two numbers.
std::optional<QJsonObject> pointOf(const QString& text);
/// An element named by its visible title (Peekaboo's query / on): the engine's titleContains.
QJsonObject titled(const QString& title);
/// {selector}.
QJsonObject targetOf(const QJsonObject& selector);

} // namespace Remote::Peekaboo
