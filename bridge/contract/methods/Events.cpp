#include "bridge/contract/Families.h"

#include <QJsonArray>

// The event stream (docs/protocol.md §5.24): notifications on the caller's own connection.
namespace Contract::Families {

QList<Method> events()
{
    QList<Method> out;
    {
        Method m;
        m.name = QStringLiteral("desktop.subscribe");
        m.summary = QStringLiteral("Streams desktop and host events to this connection as desktop.event notifications");
        m.kind = Kind::Host;
        m.alwaysAdmitted = true;
        const Node routeApp = fieldOf(*sharedType(QStringLiteral("Route")), QStringLiteral("app"))->node;
        Node window = object({optional(QStringLiteral("titlePattern"),
                                       string(QStringLiteral("Regular expression over the window title")))});
        Node route = object(
            {optional(QStringLiteral("app"), anyOf({string(QStringLiteral("App name, executable or pid")), routeApp})),
             optional(QStringLiteral("window"), anyOf({string(QStringLiteral("A part of the window title")), window})),
             optional(QStringLiteral("focusPolicy"),
                      fieldOf(*sharedType(QStringLiteral("Route")), QStringLiteral("focusPolicy"))->node)},
            QStringLiteral("Only events of this app and window: strings, or the contract's route object"));
        Node selector = object({optional(QStringLiteral("byRole"), nonEmptyString()),
                                optional(QStringLiteral("titleEquals"), string()),
                                optional(QStringLiteral("titleContains"), string()),
                                optional(QStringLiteral("titleMatches"), string(QStringLiteral("Regular expression"))),
                                optional(QStringLiteral("caseSensitive"), boolean().byDefault(false))},
                               QStringLiteral("Element events of an element this matches or of one under it (e.g. "
                                              "rows added to a list); name element kinds in kinds"));
        selector.exclusive.append(
            {QStringLiteral("titleEquals"), QStringLiteral("titleContains"), QStringLiteral("titleMatches")});
        selector.atLeastOne.append({QStringLiteral("byRole"), QStringLiteral("titleEquals"),
                                    QStringLiteral("titleContains"), QStringLiteral("titleMatches")});
        selector.example = QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXList")}};
        m.params = object(
            {optional(
                 QStringLiteral("kinds"),
                 arrayOf(oneOf({QStringLiteral("window.created"), QStringLiteral("window.closed"),
                                QStringLiteral("window.focused"), QStringLiteral("permissions.changed"),
                                QStringLiteral("execution.started"), QStringLiteral("execution.finished"),
                                QStringLiteral("stopped"), QStringLiteral("resumed"), QStringLiteral("remote.changed"),
                                QStringLiteral("user.input"), QStringLiteral("focus.changed"),
                                QStringLiteral("element.nameChanged"), QStringLiteral("element.valueChanged"),
                                QStringLiteral("element.stateChanged"), QStringLiteral("element.childrenChanged")}),
                         {}, {}, QStringLiteral("Only these kinds; default: every kind but element events"))),
             optional(QStringLiteral("route"), route), optional(QStringLiteral("selector"), selector),
             optional(QStringLiteral("since"),
                      integer(0, qint64{1} << 53, QStringLiteral("Replay from this cursor (with epoch)"))),
             optional(QStringLiteral("epoch"), string(QStringLiteral("The epoch the cursor belongs to")))});
        m.result = {
            {QStringLiteral("subscribed"), QStringLiteral("boolean"), QStringLiteral("Events follow")},
            {QStringLiteral("cursor"), QStringLiteral("integer"), QStringLiteral("The stream's position")},
            {QStringLiteral("epoch"), QStringLiteral("string"), QStringLiteral("Changes when the host restarts")},
            {QStringLiteral("kinds"), QStringLiteral("array"), QStringLiteral("What is streamed")}};
        m.errors = {QStringLiteral("DESKTOP_HOST_NOT_READY")};
        m.docSection = QStringLiteral("5.24");
        m.engine = QStringLiteral("bridge/EventHub.cpp");
        m.example = QJsonObject{{QStringLiteral("kinds"), QJsonArray{QStringLiteral("focus.changed")}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.unsubscribe");
        m.summary = QStringLiteral("Ends this connection's event stream");
        m.kind = Kind::Host;
        m.alwaysAdmitted = true;
        m.params = object({});
        m.result = {{QStringLiteral("unsubscribed"), QStringLiteral("boolean"), QStringLiteral("A stream ended")}};
        m.docSection = QStringLiteral("5.24");
        m.engine = QStringLiteral("bridge/EventHub.cpp");
        m.example = QJsonObject{};
        out.append(m);
    }
    return out;
}

} // namespace Contract::Families
