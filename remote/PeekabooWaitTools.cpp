// wait and sleep.
#include "remote/PeekabooTools.h"

#include "remote/PeekabooToolSupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>

namespace Remote::Peekaboo {

void wait(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString kind =
        a.value(QStringLiteral("gone")).toBool() ? QStringLiteral("selectorGone") : QStringLiteral("selectorExists");
    const int timeoutMs = a.value(QStringLiteral("timeout_ms")).toInt(10000);
    const QJsonObject params =
        withRoute(QJsonObject{{QStringLiteral("condition"), QJsonObject{{kind, titled(str(a, "query"))}}},
                              {QStringLiteral("timeoutMs"), timeoutMs}},
                  str(a, "app"));
    engine.call(QStringLiteral("desktop.waitUntil"), params, false, std::min(timeoutMs + 5000, 600000),
                [done](const QJsonObject& response) {
                    if (failed(response))
                        return done(hostFailure(response));
                    const QJsonObject result = resultOf(response);
                    QJsonObject facts = evidenceFacts(result);
                    for (const char* key : {"ok", "matched", "elapsedMs", "polls"})
                        facts.insert(QLatin1String(key), result.value(QLatin1String(key)));
                    const bool held = result.value(QStringLiteral("ok")).toBool();
                    done(ToolOutcome::of(toolResult(held ? QStringLiteral("The condition holds")
                                                         : QStringLiteral("Error: the condition did not hold in time"),
                                                    facts, !held)));
                });
}

void sleep(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const int ms = a.value(QStringLiteral("ms")).toInt();
    engine.sleep(ms,
                 [done, ms] { done(ToolOutcome::of(toolResult(QStringLiteral("Slept %1 ms").arg(ms), {}, false))); });
}

} // namespace Remote::Peekaboo
