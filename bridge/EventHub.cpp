#include "bridge/EventHub.h"

#include "automation/SelectorEngine.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QUuid>

namespace Bridge {

EventHub::EventHub(int capacity, QObject* parent)
    : QObject(parent), m_capacity(std::max(1, capacity)), m_epoch(QUuid::createUuid().toString(QUuid::WithoutBraces))
{
}

QStringList EventHub::knownKinds()
{
    return {QStringLiteral("window.created"),
            QStringLiteral("window.closed"),
            QStringLiteral("window.focused"),
            QStringLiteral("permissions.changed"),
            QStringLiteral("execution.started"),
            QStringLiteral("execution.finished"),
            QStringLiteral("stopped"),
            QStringLiteral("resumed"),
            QStringLiteral("remote.changed"),
            QStringLiteral("user.input"),
            QStringLiteral("focus.changed"),
            QStringLiteral("element.nameChanged"),
            QStringLiteral("element.valueChanged"),
            QStringLiteral("element.stateChanged"),
            QStringLiteral("element.childrenChanged")};
}

bool EventHub::isElementKind(const QString& kind)
{
    return kind == QLatin1String("focus.changed") || kind.startsWith(QLatin1String("element."));
}

namespace {

// Whether `selector` matches the element of an event or one of its ancestors (the lineage, the
// element first), with the selector engine's own matcher.
bool lineageMatches(const Automation::Selector& selector, const QJsonArray& lineage)
{
    Automation::Snapshot chain;
    for (qsizetype i = lineage.size() - 1; i >= 0; --i) {
        const QJsonObject known = lineage.at(i).toObject();
        // An element the host never read matches nothing (not even an empty title).
        if (known.value(QStringLiteral("role")).toString().isEmpty())
            continue;
        Automation::Node node;
        node.role = known.value(QStringLiteral("role")).toString();
        node.nativeRole = known.value(QStringLiteral("nativeRole")).toString();
        node.subrole = known.value(QStringLiteral("subrole")).toString();
        node.title = known.value(QStringLiteral("title")).toString();
        node.detailed = false;
        node.parent = static_cast<int>(chain.nodes.size()) - 1;
        if (node.parent >= 0)
            chain.nodes[node.parent].children.append(static_cast<int>(chain.nodes.size()));
        chain.nodes.append(node);
    }
    return !Automation::SelectorEngine::match(chain, selector).isEmpty();
}

} // namespace

Automation::Result<Automation::Selector> EventHub::subscriptionSelector(const QJsonValue& value)
{
    if (!value.isObject())
        return Automation::Error::invalidParam(QStringLiteral("selector"),
                                               QStringLiteral("selector must be an object (as desktop.find's)"));
    static const QStringList allowed{QStringLiteral("byRole"), QStringLiteral("titleEquals"),
                                     QStringLiteral("titleContains"), QStringLiteral("titleMatches"),
                                     QStringLiteral("caseSensitive")};
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!allowed.contains(it.key()))
            return Automation::Error::invalidParam(
                QStringLiteral("selector.") + it.key(),
                QStringLiteral("an event subscription's selector takes %1: what the host knows of an element and "
                               "its ancestors without asking the app")
                    .arg(allowed.join(QStringLiteral(", "))));
    }
    return Automation::Selector::fromJson(value, QStringLiteral("selector"));
}

bool EventHub::Filter::takes(const QJsonObject& event, const QJsonArray& lineage) const
{
    const bool element = isElementKind(event.value(QStringLiteral("kind")).toString());
    // Element events are many: only for a subscriber that names their kind.
    if (kinds.isEmpty() && element)
        return false;
    if (element && selector && !lineageMatches(*selector, lineage))
        return false;
    if (!kinds.isEmpty() && !kinds.contains(event.value(QStringLiteral("kind")).toString()) &&
        event.value(QStringLiteral("kind")).toString() != QLatin1String("gap"))
        return false;
    if (!app.isEmpty() && event.contains(QStringLiteral("app"))) {
        const QJsonObject named = event.value(QStringLiteral("app")).toObject();
        if (named.value(QStringLiteral("name")).toString() != app &&
            named.value(QStringLiteral("executable")).toString() != app &&
            QString::number(named.value(QStringLiteral("pid")).toInteger()) != app)
            return false;
    }
    if (!windowTitle.isEmpty() && event.contains(QStringLiteral("window")) &&
        !event.value(QStringLiteral("window"))
             .toObject()
             .value(QStringLiteral("title"))
             .toString()
             .contains(windowTitle))
        return false;
    return true;
}

QByteArray EventHub::notification(const QJsonObject& event)
{
    QByteArray line = QJsonDocument(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                                {QStringLiteral("method"), QStringLiteral("desktop.event")},
                                                {QStringLiteral("params"), event}})
                          .toJson(QJsonDocument::Compact);
    line.append('\n');
    return line;
}

QJsonObject EventHub::gapEvent(qint64 lost, const QString& reason, qint64 lastLost) const
{
    return QJsonObject{{QStringLiteral("cursor"), lastLost},
                       {QStringLiteral("epoch"), m_epoch},
                       {QStringLiteral("kind"), QStringLiteral("gap")},
                       {QStringLiteral("lost"), lost},
                       {QStringLiteral("reason"), reason},
                       {QStringLiteral("at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
}

void EventHub::publish(const QString& kind, const QJsonObject& payload, const QJsonArray& lineage)
{
    QJsonObject event = payload;
    event.insert(QStringLiteral("cursor"), m_next++);
    event.insert(QStringLiteral("epoch"), m_epoch);
    event.insert(QStringLiteral("kind"), kind);
    event.insert(QStringLiteral("at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    m_ring.push_back(Held{event, lineage});
    while (static_cast<int>(m_ring.size()) > m_capacity) {
        m_ring.pop_front();
        ++m_overwritten;
    }
    QList<quint64> gone;
    for (auto it = m_subscribers.begin(); it != m_subscribers.end(); ++it) {
        if (it->filter.takes(event, lineage) && !deliver(it.key(), it.value(), event))
            gone.append(it.key());
    }
    // A connection that went away without saying so ends its subscription here.
    for (quint64 id : std::as_const(gone))
        m_subscribers.remove(id);
    if (!gone.isEmpty())
        updateElementEventsWanted();
    Q_EMIT published(event);
}

bool EventHub::deliver(quint64 connectionId, Subscriber& subscriber, const QJsonObject& event)
{
    if (!m_deliver)
        return true;
    // A connection that does not read loses events, counted; it never holds the host up.
    const qint64 backlog = m_deliver(connectionId, QByteArray());
    if (backlog < 0)
        return false;
    const qint64 at = event.value(QStringLiteral("cursor")).toInteger();
    if (backlog > kMaxBacklogBytes) {
        ++subscriber.dropped;
        subscriber.lastDropped = at;
        return true;
    }
    if (subscriber.dropped > 0) {
        m_deliver(connectionId,
                  notification(gapEvent(subscriber.dropped, QStringLiteral("slow_reader"), subscriber.lastDropped)));
        subscriber.dropped = 0;
    }
    m_deliver(connectionId, notification(event));
    return true;
}

QJsonArray EventHub::since(qint64 since, const QString& sinceEpoch) const
{
    QJsonArray out;
    for (const Held& held : heldSince(since, sinceEpoch))
        out.append(held.event);
    return out;
}

QList<EventHub::Held> EventHub::heldSince(qint64 since, const QString& sinceEpoch) const
{
    QList<Held> out;
    // Another host's cursor (its epoch, or a cursor this host never gave): what came before is
    // lost, and everything this one holds is news.
    if ((!sinceEpoch.isEmpty() && sinceEpoch != m_epoch) || since > cursor()) {
        out.append(Held{gapEvent(-1, QStringLiteral("epoch_changed"), 0), {}});
        out.append(QList<Held>(m_ring.begin(), m_ring.end()));
        return out;
    }
    const qint64 oldest = m_ring.empty() ? m_next : m_ring.front().event.value(QStringLiteral("cursor")).toInteger();
    if (since + 1 < oldest)
        out.append(Held{gapEvent(oldest - since - 1, QStringLiteral("overflow"), oldest - 1), {}});
    for (const Held& held : m_ring) {
        if (held.event.value(QStringLiteral("cursor")).toInteger() > since)
            out.append(held);
    }
    return out;
}

void EventHub::sendSince(quint64 connectionId, qint64 sinceCursor, const QString& sinceEpoch)
{
    const auto it = m_subscribers.constFind(connectionId);
    if (it == m_subscribers.cend() || !m_deliver)
        return;
    for (const Held& held : heldSince(sinceCursor, sinceEpoch)) {
        if (it->filter.takes(held.event, held.lineage))
            m_deliver(connectionId, notification(held.event));
    }
}

void EventHub::subscribe(quint64 connectionId, const Filter& filter, std::optional<qint64> sinceCursor,
                         const QString& sinceEpoch)
{
    Subscriber& subscriber = m_subscribers[connectionId];
    subscriber.filter = filter;
    subscriber.dropped = 0;
    updateElementEventsWanted();
    if (sinceCursor)
        sendSince(connectionId, *sinceCursor, sinceEpoch);
}

bool EventHub::unsubscribe(quint64 connectionId)
{
    const bool was = m_subscribers.remove(connectionId) > 0;
    updateElementEventsWanted();
    return was;
}

void EventHub::updateElementEventsWanted()
{
    bool wanted = false;
    for (const auto& subscriber : std::as_const(m_subscribers)) {
        for (const QString& kind : subscriber.filter.kinds)
            wanted = wanted || isElementKind(kind);
    }
    if (wanted == m_elementEventsWanted)
        return;
    m_elementEventsWanted = wanted;
    Q_EMIT elementEventsWantedChanged(wanted);
}

bool EventHub::wanted(const QString& kind) const
{
    for (const auto& subscriber : m_subscribers) {
        if ((subscriber.filter.kinds.isEmpty() && !isElementKind(kind)) || subscriber.filter.kinds.contains(kind))
            return true;
    }
    return false;
}

} // namespace Bridge
