#include "bridge/contract/Families.h"

// desktop.confirm.issue (docs/protocol.md §5.10).
namespace Contract::Families {

QList<Method> confirm()
{
    Method m;
    m.name = QStringLiteral("desktop.confirm.issue");
    m.summary = QStringLiteral("Asks a person to approve one side effect; answers a single-use token");
    m.kind = Kind::Host;
    m.workspaceBound = true;
    Node intent = object(
        {required(QStringLiteral("method"), string(QStringLiteral("The side effect's method"))),
         required(QStringLiteral("params"), openObject(QStringLiteral("Its params exactly as they will be sent")))},
        QStringLiteral("The call the token will allow"));
    intent.closed = false;
    m.params = object({required(QStringLiteral("intent"), intent),
                       optional(QStringLiteral("ttlMs"),
                                integer(1, 600000, QStringLiteral("How long the token lives")).byDefault(60000))});
    m.result = {
        {QStringLiteral("token"), QStringLiteral("string"), QStringLiteral("Single use, bound to you and the params")},
        {QStringLiteral("expiresAt"), QStringLiteral("string"), QStringLiteral("When it lapses")}};
    m.errors = {QStringLiteral("DESKTOP_CONFIRM_REQUIRED")};
    m.docSection = QStringLiteral("5.10");
    m.engine = QStringLiteral("bridge/security/ConfirmationGate.cpp");
    m.example = QJsonObject{
        {QStringLiteral("intent"),
         QJsonObject{{QStringLiteral("method"), QStringLiteral("desktop.typeText")},
                     {QStringLiteral("params"), QJsonObject{{QStringLiteral("text"), QStringLiteral("hello")}}}}},
        {QStringLiteral("ttlMs"), 60000}};
    return {m};
}

} // namespace Contract::Families
