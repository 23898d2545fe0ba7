#pragma once

#include "automation/OwnedThread.h"

#include <QDBusMessage>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace Automation {

/// Roles, names and children of accessible objects, as libatspi caches them: kept across
/// requests and invalidated by the applications' own AT-SPI events (children-changed,
/// property-change, state-changed:defunct, an app leaving the bus). The events arrive on a
/// thread of the cache's own, so they are seen while the backend's thread is busy in a request.
///
/// Correctness rests on two rules:
///  - sync() after a round trip to an app: every event the app sent before its reply has then
///    been applied (D-Bus keeps one sender's messages in order; the events thread is a FIFO);
///  - a value read at sequence S is stored only if no event has touched that object since S, so
///    an answer read before an invalidating event is never stored after it. (Events are
///    counted per object: busy apps, e.g. one with a spinner, keep emitting events for other
///    objects, and those must not keep the whole tree out of the cache.)
class AtspiTreeCache final : public QObject
{
    Q_OBJECT

public:
    struct Child
    {
        QString service;
        QString path;
    };
    struct Entry
    {
        std::optional<quint32> role;
        std::optional<QString> name;
        std::optional<QList<Child>> children;
        /// What an object implements does not change while it lives: kept until its role goes.
        std::optional<QStringList> interfaces;
        /// Action names: dropped at any event about the object (Gecko renames a checkbox's
        /// action from "check" to "uncheck" when its state changes).
        std::optional<QStringList> actions;
    };

    explicit AtspiTreeCache(QString connectionName);
    ~AtspiTreeCache() override;

    /// Subscribes to the events on the backend's connection; call once per connection.
    void start();
    /// Waits until every event received so far has been applied.
    void sync();

    /// The current event sequence: pass it to store() for values read after this call.
    quint64 generation(const QString& service) const;
    std::optional<Entry> lookup(const QString& service, const QString& path) const;
    void store(const QString& service, const QString& path, quint64 generation, std::optional<quint32> role,
               std::optional<QString> name, std::optional<QList<Child>> children);
    /// Stores what completeNodes read of an object besides its role, name and children, under
    /// the same rule as store().
    void storeDetails(const QString& service, const QString& path, quint64 generation,
                      std::optional<QStringList> interfaces, std::optional<QStringList> actions);
    void clear();

    struct Stats
    {
        quint64 events = 0;
        quint64 invalidations = 0;
        qsizetype entries = 0;
    };
    Stats stats() const;

    /// One event an app sent, as seen by the host: what verification of an action looks at
    /// (docs/architecture.md, "Honest outcomes").
    struct Activity
    {
        quint64 seq = 0;
        qint64 atMs = 0; ///< on the clock of nowMs()
        QString service;
        QString path;
        QString kind; ///< signal member and detail, e.g. "StateChanged:checked", "Create:"
        QString data; ///< for TextChanged: the text inserted or deleted (at most 4096 characters)
    };
    /// The sequence number of the latest event received (sync() first to include everything sent).
    quint64 activityMark() const;
    /// The events of `service` after `mark`, oldest first (the most recent kMaxActivity are kept).
    QList<Activity> activitySince(const QString& service, quint64 mark) const;
    /// The events of `service` received at or after `sinceMs` on nowMs()'s clock.
    QList<Activity> activityAfterTime(const QString& service, qint64 sinceMs) const;
    qint64 nowMs() const;

    /// An element event as the cache saw it arrive, with what the cache knew of the element,
    /// its app and its window just before (for the event stream; docs/protocol.md §5.24).
    struct Notice
    {
        QString member; ///< StateChanged, PropertyChange, ChildrenChanged, TextChanged
        QString detail; ///< e.g. "focused", "accessible-name", "add"
        int detail1 = 0;
        QString service;
        QString path;
        std::optional<quint32> role;
        QString name;
        QString newName; ///< PropertyChange accessible-name: the new name
        QString appName;
        QString windowTitle;
        /// What the cache knew of the element's ancestors (role, name), its parent first, as far
        /// as cached children lists reach (for a subscription's selector).
        QList<std::pair<std::optional<quint32>, QString>> ancestors;
    };
    using Listener = std::function<void(const Notice&)>;
    /// Called on the cache's thread for every element event; thread-safe to set.
    void setListener(Listener listener);

private Q_SLOTS:
    void onChildrenChanged(const QDBusMessage& message);
    void onPropertyChange(const QDBusMessage& message);
    void onStateChanged(const QDBusMessage& message);
    void onNameOwnerChanged(const QString& name, const QString& oldOwner, const QString& newOwner);
    /// Events that change nothing the cache holds but tell that the app changed.
    void onActivity(const QDBusMessage& message);

private:
    void invalidate(const QString& service, const QString& path, bool role, bool name, bool children);
    void record(const QDBusMessage& message); ///< with m_mutex held
    /// Tells the listener of an element event (before the cache forgets what it knew).
    void notify(const QDBusMessage& message);
    QList<Activity> activityWhere(const QString& service, const std::function<bool(const Activity&)>& keep) const;

    struct App
    {
        QHash<QString, Entry> entries;
        QHash<QString, quint64> touched;  ///< path -> sequence of the last event about it
        QHash<QString, QString> parentOf; ///< child path -> the path whose cached children hold it
        quint64 floor = 0;                ///< reads before this are refused (after `touched` was pruned)
    };

    QString m_connectionName;
    quint64 m_sequence = 1;
    std::unique_ptr<OwnedThread> m_thread;
    mutable QMutex m_mutex;
    QHash<QString, App> m_apps;
    Stats m_stats;
    QList<Activity> m_activity; ///< a ring: the newest kMaxActivity events
    qsizetype m_activityHead = 0;
    quint64 m_activitySeq = 0;
    QElapsedTimer m_clock;
    Listener m_listener; ///< guarded by m_mutex
};

} // namespace Automation
