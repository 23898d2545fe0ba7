#pragma once

#include "automation/Types.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <deque>
#include <functional>
#include <memory>
#include <optional>

namespace Bridge {

/// The event stream (docs/protocol.md §5.24, desktop.subscribe): a bounded ring of what happened
/// on the host and the desktop, each event with a monotonic cursor and the stream's epoch (new at
/// every start), delivered as JSON-RPC notifications `desktop.event` to the connections that
/// subscribed. A reader that comes back passes `since` and gets what it missed, or one event of
/// kind `gap` when the ring no longer holds it (or the epoch changed). A slow reader never holds
/// the host up: when its connection has too much unread, its events are dropped and counted, and
/// a `gap` says so once it drains. Lives on the owner thread.
class EventHub final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kDefaultCapacity = 4096;
    /// A subscriber whose connection holds more unread than this gets no more events until it
    /// reads (they are counted and reported as a gap).
    static constexpr qint64 kMaxBacklogBytes = qint64{1} * 1024 * 1024;

    /// Delivers one line to a connection; answers the bytes still unread there (-1: gone).
    using Deliver = std::function<qint64(quint64 connectionId, const QByteArray& line)>;

    explicit EventHub(int capacity = kDefaultCapacity, QObject* parent = nullptr);

    /// The kinds of event there are (docs/protocol.md §5.24).
    static QStringList knownKinds();
    /// focus.changed and element.*: sent only to subscribers that name them in `kinds`.
    static bool isElementKind(const QString& kind);

    QString epoch() const { return m_epoch; }
    /// The cursor of the newest event (0: none yet).
    qint64 cursor() const { return m_next - 1; }
    /// Events the ring dropped to make room (oldest first).
    qint64 overwritten() const { return m_overwritten; }

    void setDeliver(Deliver deliver) { m_deliver = std::move(deliver); }

    /// Records an event and sends it to every subscriber whose filter takes it. `lineage`: an
    /// element event's element and ancestors (DesktopEvent::lineage), kept beside it, never sent.
    void publish(const QString& kind, const QJsonObject& payload = {}, const QJsonArray& lineage = {});

    struct Filter
    {
        QStringList kinds;   ///< empty: every kind
        QString app;         ///< events naming an app: only this one (name, executable or pid)
        QString windowTitle; ///< events naming a window: its title contains this
        /// Element events: only those whose element or one of its ancestors (`lineage`) this
        /// selector matches. Role and title criteria only (subscriptionSelector()).
        std::shared_ptr<const Automation::Selector> selector;
        bool takes(const QJsonObject& event, const QJsonArray& lineage = {}) const;
    };
    /// Parses desktop.subscribe's `selector`: a selector of desktop.find (docs/protocol.md §4.4)
    /// with role and title criteria only (what the host knows of an element and its ancestors
    /// without asking the app); anything else is refused naming the field.
    static Automation::Result<Automation::Selector> subscriptionSelector(const QJsonValue& value);
    /// desktop.subscribe: from now on `connectionId` gets the events `filter` takes; with `since`
    /// (and `epoch`), first those after it, or a gap. Replaces an earlier subscription.
    void subscribe(quint64 connectionId, const Filter& filter, std::optional<qint64> since,
                   const QString& sinceEpoch = {});
    /// Sends a subscriber the held events after `since` its filter takes (see since()).
    void sendSince(quint64 connectionId, qint64 since, const QString& sinceEpoch);
    /// Ends a subscription; false when there was none.
    bool unsubscribe(quint64 connectionId);
    bool isSubscribed(quint64 connectionId) const { return m_subscribers.contains(connectionId); }
    int subscriberCount() const { return static_cast<int>(m_subscribers.size()); }
    /// Whether some subscriber's filter takes events of `kind` (to start costly sources lazily).
    bool wanted(const QString& kind) const;

    /// The events after `since` held in the ring, or a gap event first when some are gone.
    QJsonArray since(qint64 since, const QString& sinceEpoch) const;

    /// The notification line for an event.
    static QByteArray notification(const QJsonObject& event);

    /// Whether some subscriber names an element kind (focus.changed, element.*).
    bool elementEventsWanted() const { return m_elementEventsWanted; }

Q_SIGNALS:
    void published(const QJsonObject& event);
    /// elementEventsWanted() changed (a subscription came, changed or went).
    void elementEventsWantedChanged(bool wanted);

private:
    struct Held
    {
        QJsonObject event;
        QJsonArray lineage;
    };
    /// since(), with each event's lineage.
    QList<Held> heldSince(qint64 since, const QString& sinceEpoch) const;

    struct Subscriber
    {
        Filter filter;
        qint64 dropped = 0;
        qint64 lastDropped = 0;
    };
    /// False when the connection is gone.
    bool deliver(quint64 connectionId, Subscriber& subscriber, const QJsonObject& event);
    /// A gap whose cursor is the last one lost (so a reader that resumes from it loses nothing more).
    QJsonObject gapEvent(qint64 lost, const QString& reason, qint64 lastLost) const;

    int m_capacity;
    QString m_epoch;
    qint64 m_next = 1;
    qint64 m_overwritten = 0;
    std::deque<Held> m_ring;
    bool m_elementEventsWanted = false;
    void updateElementEventsWanted();
    QHash<quint64, Subscriber> m_subscribers;
    Deliver m_deliver;
};

} // namespace Bridge
