#include "automation/backends/atspi/AtspiTreeCache.h"

#include "automation/backends/atspi/AtspiRoles.h"

#include <QDBusConnection>
#include <QDBusVariant>
#include <QThread>

namespace Automation {

namespace {
// A cap per app, so a huge or churning tree cannot grow without bound.
constexpr qsizetype kMaxEntriesPerApp = 100000;
// Recent events kept for verifying actions; a few seconds' worth even for a busy desktop.
constexpr qsizetype kMaxActivity = 4096;
// What an element event keeps of its ancestors (for a subscription's selector; the ring holds
// thousands of events).
constexpr qsizetype kMaxNoticeAncestors = 32;
constexpr qsizetype kMaxNoticeTitle = 256;
// Object events that change nothing cached but show that an app changed.
const char* const kActivityMembers[] = {"TextChanged",          "TextCaretMoved",
                                        "TextSelectionChanged", "ActiveDescendantChanged",
                                        "SelectionChanged",     "AttributesChanged"};
const QString kEventObject = QStringLiteral("org.a11y.atspi.Event.Object");
} // namespace

AtspiTreeCache::AtspiTreeCache(QString connectionName) : m_connectionName(std::move(connectionName))
{
    m_clock.start();
    // Events are applied on a thread of their own; the cache itself lives there.
    m_thread = std::make_unique<OwnedThread>(QStringLiteral("mdh-atspi-events"));
    moveToThread(m_thread->thread());
}

AtspiTreeCache::~AtspiTreeCache()
{
    QDBusConnection bus(m_connectionName);
    if (bus.isConnected()) {
        bus.disconnect(QString(), QString(), kEventObject, QStringLiteral("ChildrenChanged"), this,
                       SLOT(onChildrenChanged(QDBusMessage)));
        bus.disconnect(QString(), QString(), kEventObject, QStringLiteral("PropertyChange"), this,
                       SLOT(onPropertyChange(QDBusMessage)));
        bus.disconnect(QString(), QString(), kEventObject, QStringLiteral("StateChanged"), this,
                       SLOT(onStateChanged(QDBusMessage)));
        for (const char* member : kActivityMembers)
            bus.disconnect(QString(), QString(), kEventObject, QString::fromLatin1(member), this,
                           SLOT(onActivity(QDBusMessage)));
        bus.disconnect(QString(), QString(), QStringLiteral("org.a11y.atspi.Event.Window"), QString(), this,
                       SLOT(onActivity(QDBusMessage)));
        bus.disconnect(QString(), QString(), QStringLiteral("org.a11y.atspi.Event.Focus"), QString(), this,
                       SLOT(onActivity(QDBusMessage)));
    }
    m_thread->stop();
}

void AtspiTreeCache::start()
{
    QDBusConnection bus(m_connectionName);
    bus.connect(QString(), QString(), kEventObject, QStringLiteral("ChildrenChanged"), this,
                SLOT(onChildrenChanged(QDBusMessage)));
    bus.connect(QString(), QString(), kEventObject, QStringLiteral("PropertyChange"), this,
                SLOT(onPropertyChange(QDBusMessage)));
    bus.connect(QString(), QString(), kEventObject, QStringLiteral("StateChanged"), this,
                SLOT(onStateChanged(QDBusMessage)));
    for (const char* member : kActivityMembers)
        bus.connect(QString(), QString(), kEventObject, QString::fromLatin1(member), this,
                    SLOT(onActivity(QDBusMessage)));
    // Every signal of these interfaces (an empty name matches them all).
    bus.connect(QString(), QString(), QStringLiteral("org.a11y.atspi.Event.Window"), QString(), this,
                SLOT(onActivity(QDBusMessage)));
    bus.connect(QString(), QString(), QStringLiteral("org.a11y.atspi.Event.Focus"), QString(), this,
                SLOT(onActivity(QDBusMessage)));
    bus.connect(QStringLiteral("org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
                QStringLiteral("org.freedesktop.DBus"), QStringLiteral("NameOwnerChanged"), this,
                SLOT(onNameOwnerChanged(QString, QString, QString)));
}

void AtspiTreeCache::sync()
{
    // A FIFO barrier: when this runs on the events thread, every event queued before it ran too.
    QMetaObject::invokeMethod(
        this, [] {}, Qt::BlockingQueuedConnection);
}

quint64 AtspiTreeCache::generation(const QString&) const
{
    QMutexLocker lock(&m_mutex);
    return m_sequence;
}

std::optional<AtspiTreeCache::Entry> AtspiTreeCache::lookup(const QString& service, const QString& path) const
{
    QMutexLocker lock(&m_mutex);
    const auto app = m_apps.constFind(service);
    if (app == m_apps.cend())
        return std::nullopt;
    const auto entry = app->entries.constFind(path);
    if (entry == app->entries.cend())
        return std::nullopt;
    return *entry;
}

void AtspiTreeCache::store(const QString& service, const QString& path, quint64 generation, std::optional<quint32> role,
                           std::optional<QString> name, std::optional<QList<Child>> children)
{
    QMutexLocker lock(&m_mutex);
    App& app = m_apps[service];
    // Something changed since the value was read: it may be stale.
    if (generation < app.floor || app.touched.value(path, 0) >= generation)
        return;
    if (app.entries.size() >= kMaxEntriesPerApp && !app.entries.contains(path))
        return;
    Entry& entry = app.entries[path];
    if (role)
        entry.role = role;
    if (name)
        entry.name = std::move(name);
    if (children) {
        if (app.parentOf.size() > 2 * kMaxEntriesPerApp)
            app.parentOf.clear();
        for (const auto& child : std::as_const(*children)) {
            if (child.service == service)
                app.parentOf.insert(child.path, path);
        }
        entry.children = std::move(children);
    }
}

void AtspiTreeCache::storeDetails(const QString& service, const QString& path, quint64 generation,
                                  std::optional<QStringList> interfaces, std::optional<QStringList> actions)
{
    QMutexLocker lock(&m_mutex);
    App& app = m_apps[service];
    if (generation < app.floor || app.touched.value(path, 0) >= generation)
        return;
    // Details only for objects whose role is known: an entry is never created for them alone.
    const auto entry = app.entries.find(path);
    if (entry == app.entries.end() || !entry->role)
        return;
    if (interfaces)
        entry->interfaces = std::move(interfaces);
    if (actions)
        entry->actions = std::move(actions);
}

void AtspiTreeCache::clear()
{
    QMutexLocker lock(&m_mutex);
    ++m_sequence;
    for (auto& app : m_apps) {
        app.entries.clear();
        app.touched.clear();
        app.parentOf.clear();
        app.floor = m_sequence;
    }
}

AtspiTreeCache::Stats AtspiTreeCache::stats() const
{
    QMutexLocker lock(&m_mutex);
    Stats stats = m_stats;
    for (const auto& app : m_apps)
        stats.entries += app.entries.size();
    return stats;
}

quint64 AtspiTreeCache::activityMark() const
{
    QMutexLocker lock(&m_mutex);
    return m_activitySeq;
}

QList<AtspiTreeCache::Activity> AtspiTreeCache::activityWhere(const QString& service,
                                                              const std::function<bool(const Activity&)>& keep) const
{
    QMutexLocker lock(&m_mutex);
    QList<Activity> out;
    const qsizetype n = m_activity.size();
    for (qsizetype i = 0; i < n; ++i) {
        const Activity& a = m_activity.at((m_activityHead + i) % n);
        if (a.service == service && keep(a))
            out.append(a);
    }
    return out;
}

QList<AtspiTreeCache::Activity> AtspiTreeCache::activitySince(const QString& service, quint64 mark) const
{
    return activityWhere(service, [mark](const Activity& a) { return a.seq > mark; });
}

QList<AtspiTreeCache::Activity> AtspiTreeCache::activityAfterTime(const QString& service, qint64 sinceMs) const
{
    return activityWhere(service, [sinceMs](const Activity& a) { return a.atMs >= sinceMs; });
}

qint64 AtspiTreeCache::nowMs() const
{
    return m_clock.elapsed();
}

void AtspiTreeCache::record(const QDBusMessage& message)
{
    Activity activity{++m_activitySeq,
                      m_clock.elapsed(),
                      message.service(),
                      message.path(),
                      message.member() + QLatin1Char(':') + message.arguments().value(0).toString(),
                      QString()};
    if (message.member() == QLatin1String("TextChanged")) {
        const QVariant any = message.arguments().value(3);
        activity.data =
            (any.canConvert<QDBusVariant>() ? any.value<QDBusVariant>().variant() : any).toString().left(4096);
    }
    if (m_activity.size() < kMaxActivity) {
        m_activity.append(std::move(activity));
    } else {
        // Overwrite the oldest; the head then points at the next oldest.
        m_activity[m_activityHead] = std::move(activity);
        m_activityHead = (m_activityHead + 1) % kMaxActivity;
    }
}

void AtspiTreeCache::setListener(Listener listener)
{
    QMutexLocker lock(&m_mutex);
    m_listener = std::move(listener);
}

void AtspiTreeCache::notify(const QDBusMessage& message)
{
    const QString member = message.member();
    if (member != QLatin1String("StateChanged") && member != QLatin1String("PropertyChange") &&
        member != QLatin1String("ChildrenChanged") && member != QLatin1String("TextChanged"))
        return;
    Listener listener;
    Notice notice;
    {
        QMutexLocker lock(&m_mutex);
        if (!m_listener)
            return;
        listener = m_listener;
        const QList<QVariant> args = message.arguments();
        notice.member = member;
        notice.detail = args.value(0).toString();
        notice.detail1 = args.value(1).toInt();
        notice.service = message.service();
        notice.path = message.path();
        if (member == QLatin1String("PropertyChange") && notice.detail == QLatin1String("accessible-name")) {
            const QVariant any = args.value(3);
            notice.newName = (any.canConvert<QDBusVariant>() ? any.value<QDBusVariant>().variant() : any).toString();
        }
        const auto appIt = m_apps.constFind(notice.service);
        if (appIt != m_apps.constEnd()) {
            const App& app = *appIt;
            const auto entry = app.entries.constFind(notice.path);
            if (entry != app.entries.constEnd()) {
                notice.role = entry->role;
                notice.name = entry->name.value_or(QString());
            }
            const auto root = app.entries.constFind(QStringLiteral("/org/a11y/atspi/accessible/root"));
            if (root != app.entries.constEnd())
                notice.appName = root->name.value_or(QString());
            // The ancestors as far as the cache knows them, and the window: the nearest of them
            // the cache knows as a window (frame, dialog, window).
            QString at = app.parentOf.value(notice.path);
            for (int depth = 0; depth < 64 && !at.isEmpty(); ++depth) {
                const auto known = app.entries.constFind(at);
                if (known == app.entries.constEnd()) {
                    if (notice.ancestors.size() < kMaxNoticeAncestors)
                        notice.ancestors.append({std::nullopt, QString()});
                    at = app.parentOf.value(at);
                    continue;
                }
                if (notice.ancestors.size() < kMaxNoticeAncestors)
                    notice.ancestors.append({known->role, known->name.value_or(QString()).left(kMaxNoticeTitle)});
                if (notice.windowTitle.isEmpty() && known->role &&
                    Atspi::roleInfo(*known->role).role == QLatin1String("AXWindow"))
                    notice.windowTitle = known->name.value_or(QString());
                at = app.parentOf.value(at);
            }
            // The element itself may be the window.
            if (notice.role && Atspi::roleInfo(*notice.role).role == QLatin1String("AXWindow"))
                notice.windowTitle = notice.name;
        }
    }
    listener(notice);
}

void AtspiTreeCache::onActivity(const QDBusMessage& message)
{
    notify(message);
    QMutexLocker lock(&m_mutex);
    ++m_stats.events;
    record(message);
}

void AtspiTreeCache::invalidate(const QString& service, const QString& path, bool role, bool name, bool children)
{
    QMutexLocker lock(&m_mutex);
    ++m_stats.events;
    App& app = m_apps[service];
    const quint64 now = m_sequence++;
    app.touched.insert(path, now);
    if (app.touched.size() > 50000) {
        // Forget per-object history, and refuse every read that started before now.
        app.touched.clear();
        app.floor = m_sequence;
    }
    const auto entry = app.entries.find(path);
    if (entry == app.entries.end())
        return;
    ++m_stats.invalidations;
    entry->actions.reset();
    if (role) {
        entry->role.reset();
        entry->interfaces.reset();
    }
    if (name)
        entry->name.reset();
    if (children)
        entry->children.reset();
}

void AtspiTreeCache::onChildrenChanged(const QDBusMessage& message)
{
    notify(message);
    {
        QMutexLocker lock(&m_mutex);
        record(message);
    }
    invalidate(message.service(), message.path(), false, false, true);
}

void AtspiTreeCache::onPropertyChange(const QDBusMessage& message)
{
    notify(message);
    {
        QMutexLocker lock(&m_mutex);
        record(message);
    }
    const QString detail = message.arguments().value(0).toString();
    const bool role = detail == QLatin1String("accessible-role");
    const bool name = detail == QLatin1String("accessible-name");
    // Other properties (description, value, parent...) are not cached, but a change still
    // bumps the generation, which is what keeps in-flight reads from being stored.
    invalidate(message.service(), message.path(), role, name, detail == QLatin1String("accessible-parent"));
}

void AtspiTreeCache::onStateChanged(const QDBusMessage& message)
{
    notify(message);
    QString parent;
    const bool defunct = message.arguments().value(0).toString() == QLatin1String("defunct");
    {
        QMutexLocker lock(&m_mutex);
        record(message);
        if (defunct)
            parent = m_apps.value(message.service()).parentOf.value(message.path());
    }
    // A defunct object is gone: forget it all, and the list of children that held it (a
    // toolkit that sends no ChildrenChanged still reports its objects dying).
    invalidate(message.service(), message.path(), defunct, defunct, defunct);
    if (!parent.isEmpty())
        invalidate(message.service(), parent, false, false, true);
}

void AtspiTreeCache::onNameOwnerChanged(const QString& name, const QString& oldOwner, const QString& newOwner)
{
    Q_UNUSED(oldOwner);
    if (!newOwner.isEmpty() || !name.startsWith(QLatin1Char(':')))
        return;
    QMutexLocker lock(&m_mutex);
    ++m_stats.events;
    ++m_sequence;
    m_apps.remove(name);
}

} // namespace Automation
