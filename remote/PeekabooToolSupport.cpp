// The helpers the remote door's tool families share (PeekabooToolSupport.h).
#include "remote/PeekabooToolSupport.h"

#include "client-kit/Outcome.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace Remote::Peekaboo {

namespace {

constexpr int kDefaultTimeoutMs = 30000;

QString compact(const QJsonObject& object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QJsonObject textItem(const QString& text)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
}

} // namespace

// The sentence a person reads, then the facts as one JSON line a program reads.
QJsonObject toolResult(const QString& sentence, const QJsonObject& facts, bool isError, const QByteArray& pngBase64)
{
    QJsonArray content{textItem(facts.isEmpty() ? sentence : sentence + QLatin1Char('\n') + compact(facts))};
    if (!pngBase64.isEmpty())
        content.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                                   {QStringLiteral("data"), QString::fromLatin1(pngBase64)},
                                   {QStringLiteral("mimeType"), QStringLiteral("image/png")}});
    return QJsonObject{{QStringLiteral("content"), content}, {QStringLiteral("isError"), isError}};
}

bool failed(const QJsonObject& response)
{
    return response.contains(QStringLiteral("error"));
}

QJsonObject resultOf(const QJsonObject& response)
{
    return response.value(QStringLiteral("result")).toObject();
}

// A host error as the tool's failure: the code and message first, the whole error as facts. The
// host's refusal of the params (-32602: nothing was asked or done) is the tool's -32602.
ToolOutcome hostFailure(const QJsonObject& response)
{
    const auto outcome = DoorKit::Outcome::fromAnswer(response);
    const QJsonObject details = outcome.details();
    if (outcome.code() == QLatin1String("DESKTOP_INVALID_REQUEST") &&
        details.value(QStringLiteral("jsonrpcCode")).toInt() == ToolOutcome::kInvalidParams)
        return ToolOutcome::error(ToolOutcome::kInvalidParams,
                                  QStringLiteral("Invalid params: %1").arg(outcome.message()), details);
    return ToolOutcome::of(toolResult(QStringLiteral("Error: %1: %2").arg(outcome.code(), outcome.message()),
                                      QJsonObject{{QStringLiteral("error"), outcome.error()}}, true));
}

QJsonObject evidenceFacts(const QJsonObject& result)
{
    return QJsonObject{{QStringLiteral("executionId"), result.value(QStringLiteral("executionId"))},
                       {QStringLiteral("evidence"), result.value(QStringLiteral("evidence"))}};
}

// A side effect's answer: done only when the host says so and saw no sign that nothing happened.
ToolOutcome sideEffectOutcome(const QJsonObject& response, const QString& doneKey, const QString& what)
{
    const auto outcome = DoorKit::Outcome::fromAnswer(response, doneKey);
    if (outcome.failed())
        return hostFailure(response);
    const QJsonObject facts = outcome.withFacts(evidenceFacts(outcome.result()),
                                                {"effect", "deliveredBy", "verification", "target", "routeResolved"});
    const QString effect = outcome.effect();
    const QString reason = outcome.verificationReason();
    const QString because = reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(reason);
    if (outcome.partial())
        return ToolOutcome::of(
            toolResult(QStringLiteral("Error: %1 only partly took effect%2").arg(what, because), facts, true));
    if (outcome.showedNoEffect())
        return ToolOutcome::of(toolResult(
            QStringLiteral("Error: %1 was sent but the app showed no effect%2").arg(what, because), facts, true));
    // Delivered, and the app gives no way to see the effect: not an error, and not claimed either.
    if (outcome.unverifiable())
        return ToolOutcome::of(toolResult(
            QStringLiteral("%1 delivered; its effect could not be verified%2").arg(what, because), facts, false));
    return ToolOutcome::of(toolResult(
        QStringLiteral("%1 done (%2)").arg(what, effect.isEmpty() ? QStringLiteral("ok") : effect), facts, false));
}

ToolOutcome badArgument(const QString& message)
{
    return ToolOutcome::error(ToolOutcome::kInvalidParams, message);
}

QJsonObject routeForApp(const QString& app)
{
    if (app.isEmpty())
        return {};
    return QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), app}}}};
}

QJsonObject withRoute(QJsonObject params, const QString& app)
{
    if (!app.isEmpty())
        params.insert(QStringLiteral("route"), routeForApp(app));
    return params;
}

QString str(const QJsonObject& arguments, const char* key)
{
    return arguments.value(QLatin1String(key)).toString();
}

int timeoutOf(const QJsonObject& arguments)
{
    return arguments.value(QStringLiteral("timeout_ms")).toInt(kDefaultTimeoutMs);
}

// "x,y" as a point; nullopt when it is not two numbers.
std::optional<QJsonObject> pointOf(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$)"));
    const auto match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    return QJsonObject{{QStringLiteral("x"), qRound(match.captured(1).toDouble())},
                       {QStringLiteral("y"), qRound(match.captured(2).toDouble())}};
}

// An element named by its visible title (Peekaboo's query / on): the engine's titleContains.
QJsonObject titled(const QString& title)
{
    return QJsonObject{{QStringLiteral("titleContains"), title}};
}

QJsonObject targetOf(const QJsonObject& selector)
{
    return QJsonObject{{QStringLiteral("selector"), selector}};
}

} // namespace Remote::Peekaboo
