#include "bridge/EventHub.h"

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

bool EventHub::Filter::takes(const QJsonObject& event) const
{
    // Element events are many: only for a subscriber that names their kind.
    if (kinds.isEmpty() && isElementKind(event.value(QStringLiteral("kind")).toString()))
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

void EventHub::publish(const QString& kind, const QJsonObject& payload)
{
    QJsonObject event = payload;
    event.insert(QStringLiteral("cursor"), m_next++);
    event.insert(QStringLiteral("epoch"), m_epoch);
    event.insert(QStringLiteral("kind"), kind);
    event.insert(QStringLiteral("at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    m_ring.push_back(event);
    while (static_cast<int>(m_ring.size()) > m_capacity) {
        m_ring.pop_front();
        ++m_overwritten;
    }
    QList<quint64> gone;
    for (auto it = m_subscribers.begin(); it != m_subscribers.end(); ++it) {
        if (it->filter.takes(event) && !deliver(it.key(), it.value(), event))
            gone.append(it.key());
    }
    // A connection that went away without saying so ends its subscription here.
    for (quint64 id : std::as_const(gone))
        m_subscribers.remove(id);
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
    // Another host's cursor (its epoch, or a cursor this host never gave): what came before is
    // lost, and everything this one holds is news.
    if ((!sinceEpoch.isEmpty() && sinceEpoch != m_epoch) || since > cursor()) {
        out.append(gapEvent(-1, QStringLiteral("epoch_changed"), 0));
        for (const QJsonObject& event : m_ring)
            out.append(event);
        return out;
    }
    const qint64 oldest = m_ring.empty() ? m_next : m_ring.front().value(QStringLiteral("cursor")).toInteger();
    if (since + 1 < oldest)
        out.append(gapEvent(oldest - since - 1, QStringLiteral("overflow"), oldest - 1));
    for (const QJsonObject& event : m_ring) {
        if (event.value(QStringLiteral("cursor")).toInteger() > since)
            out.append(event);
    }
    return out;
}

void EventHub::sendSince(quint64 connectionId, qint64 sinceCursor, const QString& sinceEpoch)
{
    const auto it = m_subscribers.constFind(connectionId);
    if (it == m_subscribers.cend() || !m_deliver)
        return;
    for (const auto& value : since(sinceCursor, sinceEpoch)) {
        const QJsonObject event = value.toObject();
        if (it->filter.takes(event))
            m_deliver(connectionId, notification(event));
    }
}

void EventHub::subscribe(quint64 connectionId, const Filter& filter, std::optional<qint64> sinceCursor,
                         const QString& sinceEpoch)
{
    Subscriber& subscriber = m_subscribers[connectionId];
    subscriber.filter = filter;
    subscriber.dropped = 0;
    if (sinceCursor)
        sendSince(connectionId, *sinceCursor, sinceEpoch);
}

bool EventHub::unsubscribe(quint64 connectionId)
{
    return m_subscribers.remove(connectionId) > 0;
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
