#pragma once

#include "automation/Types.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>
#include <QStringList>
#include <QTimer>

#include <chrono>
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
/// a `gap` says so once it drains. A subscription whose connection went away lingers for a
/// while (setLingerMs): what it asked for is still watched and recorded, so a reader that comes
/// back with its cursor loses nothing. Element events are held apart from the other kinds, so
/// many of them never push a window's or an execution's event out. Lives on the owner thread.
class EventHub final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kDefaultCapacity = 4096;
    /// A subscriber whose connection holds more unread than this gets no more events until it
    /// reads (they are counted and reported as a gap).
    static constexpr qint64 kMaxBacklogBytes = qint64{1} * 1024 * 1024;
    /// The host's default for how long a subscription outlives its connection.
    static constexpr int kDefaultLingerMs = 10 * 60 * 1000;
    /// At most this many subscriptions linger at once (the oldest goes first).
    static constexpr int kMaxLingering = 64;
    /// How long a subscribe waits for the sources its kinds need to learn what is there.
    static constexpr int kSourceReadyTimeoutMs = 3000;

    /// Delivers one line to a connection; answers the bytes still unread there (-1: gone).
    using Deliver = std::function<qint64(quint64 connectionId, const QByteArray& line)>;

    explicit EventHub(int capacity = kDefaultCapacity, QObject* parent = nullptr);

    /// The kinds of event there are (docs/protocol.md §5.24).
    static QStringList knownKinds();
    /// focus.changed and element.*: sent only to subscribers that name them in `kinds`.
    static bool isElementKind(const QString& kind);
    /// window.created, window.closed, window.focused: from the window manager's list.
    static bool isWindowKind(const QString& kind);

    QString epoch() const { return m_epoch; }
    /// The cursor of the newest event (0: none yet).
    qint64 cursor() const { return m_next - 1; }
    /// Events the rings dropped to make room (oldest first).
    qint64 overwritten() const { return m_overwritten; }

    void setDeliver(Deliver deliver) { m_deliver = std::move(deliver); }
    /// How long a subscription whose connection went away keeps what it asked for watched and
    /// recorded (0: it ends with its connection).
    void setLingerMs(int ms);
    int lingerMs() const { return m_lingerMs; }

    /// Records an event and sends it to every subscriber whose filter takes it. `lineage`: an
    /// element event's element and ancestors (DesktopEvent::lineage), kept beside it, never sent.
    void publish(const QString& kind, const QJsonObject& payload = {}, const QJsonArray& lineage = {});

    struct Filter
    {
        QStringList kinds;   ///< empty: every kind
        QString app;         ///< events naming an app: only this one (name, executable, pid or <executable>.desktop)
        QString windowTitle; ///< events naming a window: its title contains this
        std::optional<qint64> pid; ///< events naming an app: only this process (route.app.pid)
        /// Events naming a window: its title matches (route.window.titlePattern).
        std::optional<QRegularExpression> windowPattern;
        /// Element events: only those whose element or one of its ancestors (`lineage`) this
        /// selector matches. Role and title criteria only (subscriptionSelector()).
        std::shared_ptr<const Automation::Selector> selector;
        bool takes(const QJsonObject& event, const QJsonArray& lineage = {}) const;
        /// Whether it names any element kind.
        bool namesElementKind() const;
    };
    /// Parses desktop.subscribe's `selector`: a selector of desktop.find (docs/protocol.md §4.4)
    /// with role and title criteria only (what the host knows of an element and its ancestors
    /// without asking the app); anything else is refused naming the field.
    static Automation::Result<Automation::Selector> subscriptionSelector(const QJsonValue& value);
    /// Parses desktop.subscribe's `route` into `filter`: the strings form `{app, window}` or the
    /// contract's Route object (`app.bundleId` / `app.pid`, `window.titlePattern`; docs/protocol.md
    /// §4.3), member by member. A member that only changes how the host behaves (`focusPolicy`)
    /// is accepted and noted in `ignored`; one that would narrow the stream and cannot
    /// (`window.id`, `display`) is refused naming the field.
    static Automation::Result<bool> applyRoute(const QJsonValue& route, Filter& filter, QJsonArray& ignored);

    /// desktop.subscribe: from now on `connectionId` gets the events `filter` takes; with `since`
    /// (and `epoch`), first those after it, or a gap. Replaces an earlier subscription.
    void subscribe(quint64 connectionId, const Filter& filter, std::optional<qint64> since,
                   const QString& sinceEpoch = {});
    /// A subscription that records from now but delivers nothing until activate() (the answer
    /// to desktop.subscribe goes first). Answers its generation, which activate() names.
    quint64 subscribeHeld(quint64 connectionId, const Filter& filter);
    /// Sends a held subscription what came after `since` (a gap first when needed), then lets
    /// live events through. False when the subscription is gone or was replaced since.
    bool activate(quint64 connectionId, quint64 generation, qint64 since, const QString& sinceEpoch);
    /// Whether the held subscription `generation` of the connection is still the one in force
    /// (not replaced by a later subscribe, not ended by unsubscribe).
    bool isCurrent(quint64 connectionId, quint64 generation) const
    {
        const auto it = m_subscribers.constFind(connectionId);
        return it != m_subscribers.cend() && it->generation == generation;
    }
    /// Sends a subscriber the held events after `since` its filter takes (see since()).
    void sendSince(quint64 connectionId, qint64 since, const QString& sinceEpoch);
    /// Ends a subscription at once (desktop.unsubscribe); false when there was none.
    bool unsubscribe(quint64 connectionId);
    /// The subscriber's connection went away: its subscription lingers (setLingerMs).
    void connectionGone(quint64 connectionId);
    bool isSubscribed(quint64 connectionId) const { return m_subscribers.contains(connectionId); }
    int subscriberCount() const { return static_cast<int>(m_subscribers.size()); }
    int lingeringCount() const { return static_cast<int>(m_lingering.size()); }
    /// Whether some subscription, live or lingering, takes events of `kind` (to run costly
    /// sources only then).
    bool wanted(const QString& kind) const;
    /// Whether some subscription, live or lingering, takes this very event (element events are
    /// recorded only then).
    bool takes(const QString& kind, const QJsonObject& payload, const QJsonArray& lineage = {}) const;
    /// What health says of the watch (docs/protocol.md §5.24): whether sources run for
    /// subscriptions, and until when when only lingering ones keep them running.
    QJsonObject watchState() const;
    /// What a source says of itself, shown in watchState()'s `sources` (e.g. "windows").
    void setSourceState(const QString& source, const QJsonObject& state) { m_sources.insert(source, state); }

    /// A source that a subscription's kinds need is learning what is there (the window list):
    /// answers to subscribe wait for sourceReady() (or kSourceReadyTimeoutMs).
    void sourceStarting();
    void sourceReady();
    /// Runs `then` once no source is starting (at once when none is).
    void whenSourcesReady(std::function<void()> then);

    /// The events after `since` held in the ring, or a gap event first when some are gone.
    QJsonArray since(qint64 since, const QString& sinceEpoch) const;

    /// The notification line for an event.
    static QByteArray notification(const QJsonObject& event);

    /// Whether some subscription, live or lingering, names an element kind (focus.changed, element.*).
    bool elementEventsWanted() const { return m_elementEventsWanted; }

Q_SIGNALS:
    void published(const QJsonObject& event);
    /// elementEventsWanted() changed (a subscription came, changed or went).
    void elementEventsWantedChanged(bool wanted);
    /// The subscriptions changed: one came, was replaced, ended, or stopped lingering. Sources
    /// look at wanted() again.
    void subscriptionsChanged();

private:
    using Clock = std::chrono::steady_clock;
    struct Held
    {
        QJsonObject event;
        QJsonArray lineage;
    };
    /// since(), with each event's lineage: with `filter`, only the events it takes, and one gap
    /// for each run of losses before one of them, counted only where the filter would have taken
    /// what was lost (element events lost are no loss to a filter that names no element kind).
    QList<Held> heldSince(qint64 since, const QString& sinceEpoch, const Filter* filter = nullptr) const;

    struct Subscriber
    {
        Filter filter;
        qint64 dropped = 0;
        qint64 lastDropped = 0;
        bool held = false;
        quint64 generation = 0;
    };
    struct Lingering
    {
        Filter filter;
        Clock::time_point until;
    };
    /// False when the connection is gone.
    bool deliver(quint64 connectionId, Subscriber& subscriber, const QJsonObject& event);
    /// A gap whose cursor is the last one lost (so a reader that resumes from it loses nothing more).
    QJsonObject gapEvent(qint64 lost, const QString& reason, qint64 lastLost) const;
    void linger(const Filter& filter);
    void expireLingering();
    void changed();
    void runReady();

    int m_capacity;
    QString m_epoch;
    qint64 m_next = 1;
    qint64 m_overwritten = 0;
    /// Every kind but the element ones, and the element ones, each ring bounded by m_capacity.
    std::deque<Held> m_ring;
    std::deque<Held> m_elementRing;
    /// The newest cursor each ring dropped (0: none).
    qint64 m_lastDropped = 0;
    qint64 m_lastElementDropped = 0;
    bool m_elementEventsWanted = false;
    void updateElementEventsWanted();
    QHash<quint64, Subscriber> m_subscribers;
    quint64 m_generation = 0;
    QList<Lingering> m_lingering;
    int m_lingerMs = 0;
    QTimer m_lingerTimer;
    int m_sourcesStarting = 0;
    QList<std::function<void()>> m_whenReady;
    QJsonObject m_sources;
    QTimer m_readyTimer;
    Deliver m_deliver;
};

} // namespace Bridge
