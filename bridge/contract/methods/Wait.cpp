#include "bridge/contract/Families.h"

// desktop.waitUntil (docs/protocol.md §5.8).
namespace Contract::Families {

QList<Method> wait()
{
    Method m;
    m.name = QStringLiteral("desktop.waitUntil");
    m.summary = QStringLiteral("Waits until a condition holds (elements, windows, text, focus; all/any)");
    m.workspaceBound = true;
    m.params = object(
        {optional(QStringLiteral("route"), ref(QStringLiteral("Route"))),
         required(QStringLiteral("condition"), ref(QStringLiteral("Condition"))),
         optional(QStringLiteral("pollMs"), integer(10, 60000, QStringLiteral("How often to look")).byDefault(500)),
         required(QStringLiteral("timeoutMs"), integer(1, 600000, QStringLiteral("How long to wait at most"))),
         optional(QStringLiteral("refresh"),
                  boolean(QStringLiteral("Read the window afresh, none of it from what the host remembers of the tree"))
                      .byDefault(false))});
    m.result = {{QStringLiteral("executionId"), QStringLiteral("string"), QStringLiteral("Names the evidence")},
                {QStringLiteral("satisfied"), QStringLiteral("boolean"), QStringLiteral("The condition held")},
                {QStringLiteral("elapsedMs"), QStringLiteral("integer"), QStringLiteral("How long it took")},
                {QStringLiteral("evidence"), QStringLiteral("object"), QStringLiteral("dir and envPath")}};
    m.errors = {QStringLiteral("DESKTOP_TIMEOUT")};
    m.docSection = QStringLiteral("5.8");
    m.engine = QStringLiteral("automation/operations/Wait.cpp");
    m.example = QJsonObject{{QStringLiteral("condition"),
                             QJsonObject{{QStringLiteral("selectorExists"),
                                          QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                      {QStringLiteral("titleContains"), QStringLiteral("Send")}}}}},
                            {QStringLiteral("timeoutMs"), 5000}};
    return {m};
}

} // namespace Contract::Families
