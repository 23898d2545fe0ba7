#include "bridge/EventHub.h"

#include "bridge/contract/Declaration.h"

#include "automation/SelectorEngine.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QUuid>

#include <algorithm>
#include <limits>
#include <utility>

namespace Bridge {

EventHub::EventHub(int capacity, QObject* parent)
    : QObject(parent), m_capacity(std::max(1, capacity)), m_epoch(QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    m_lingerTimer.setSingleShot(true);
    connect(&m_lingerTimer, &QTimer::timeout, this, &EventHub::expireLingering);
    m_readyTimer.setSingleShot(true);
    // A source that never says it is ready (no display) does not hold subscribers' answers.
    connect(&m_readyTimer, &QTimer::timeout, this, &EventHub::runReady);
}

QStringList EventHub::knownKinds()
{
    // Declared once, with desktop.subscribe (bridge/contract/methods/Events.cpp).
    static const QStringList kinds = [] {
        const Contract::Method* subscribe = Contract::find(QStringLiteral("desktop.subscribe"));
        const Contract::Field* field = Contract::fieldOf(subscribe->params, QStringLiteral("kinds"));
        return field->node.items->enumValues;
    }();
    return kinds;
}

bool EventHub::isElementKind(const QString& kind)
{
    return kind == QLatin1String("focus.changed") || kind.startsWith(QLatin1String("element."));
}

bool EventHub::isWindowKind(const QString& kind)
{
    return kind.startsWith(QLatin1String("window."));
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

bool EventHub::Filter::namesElementKind() const
{
    return std::any_of(kinds.cbegin(), kinds.cend(), &EventHub::isElementKind);
}

bool EventHub::Filter::takes(const QJsonObject& event, const QJsonArray& lineage) const
{
    const QString kind = event.value(QStringLiteral("kind")).toString();
    const bool element = isElementKind(kind);
    // Element events are many: only for a subscriber that names their kind.
    if (kinds.isEmpty() && element)
        return false;
    if (element && selector && !lineageMatches(*selector, lineage))
        return false;
    if (!kinds.isEmpty() && !kinds.contains(kind) && kind != QLatin1String("gap"))
        return false;
    if ((!app.isEmpty() || pid) && event.contains(QStringLiteral("app"))) {
        const QJsonObject named = event.value(QStringLiteral("app")).toObject();
        const QString executable = named.value(QStringLiteral("executable")).toString();
        const qint64 namedPid = named.value(QStringLiteral("pid")).toInteger();
        // Window events name the app as X knows it (its class name), element events as its
        // accessibility does: either is taken, in any case.
        if (!app.isEmpty() && named.value(QStringLiteral("name")).toString().compare(app, Qt::CaseInsensitive) != 0 &&
            executable.compare(app, Qt::CaseInsensitive) != 0 && QString::number(namedPid) != app &&
            (executable.isEmpty() ||
             QString(executable + QStringLiteral(".desktop")).compare(app, Qt::CaseInsensitive) != 0))
            return false;
        if (pid && namedPid != *pid)
            return false;
    }
    if (event.contains(QStringLiteral("window"))) {
        const QString title =
            event.value(QStringLiteral("window")).toObject().value(QStringLiteral("title")).toString();
        if (!windowTitle.isEmpty() && !title.contains(windowTitle))
            return false;
        if (windowPattern && !windowPattern->match(title).hasMatch())
            return false;
    }
    return true;
}

Automation::Result<bool> EventHub::applyRoute(const QJsonValue& route, Filter& filter, QJsonArray& ignored)
{
    if (route.isUndefined())
        return true;
    if (!route.isObject())
        return Automation::Error::invalidParam(
            QStringLiteral("route"),
            QStringLiteral("route must be {app?, window?}: strings, or the contract's route object"));
    // The strings form names the app and the window title directly; what is not a string is
    // the contract's Route (docs/protocol.md §4.3), parsed by the same parser as every method's.
    QJsonObject contract;
    const QJsonObject object = route.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const bool member = it.key() == QLatin1String("app") || it.key() == QLatin1String("window");
        if (member && it.value().isString()) {
            (it.key() == QLatin1String("app") ? filter.app : filter.windowTitle) = it.value().toString();
            continue;
        }
        contract.insert(it.key(), it.value());
    }
    if (contract.isEmpty())
        return true;
    auto parsed = Automation::Route::fromJson(contract, QStringLiteral("route"));
    if (!parsed)
        return parsed.error();
    if (parsed->windowHandle)
        return Automation::Error::invalidParam(
            QStringLiteral("route.window.id"),
            QStringLiteral("route.window.id cannot filter events: events name windows by their title and nativeId "
                           "(use route.window.titlePattern)"));
    if (parsed->windowNativeId)
        return Automation::Error::invalidParam(
            QStringLiteral("route.window.nativeId"),
            QStringLiteral("route.window.nativeId cannot filter events yet (use route.window.titlePattern)"));
    if (parsed->bundleId)
        filter.app = *parsed->bundleId;
    filter.pid = parsed->pid;
    if (parsed->windowTitlePattern)
        filter.windowPattern = QRegularExpression(*parsed->windowTitlePattern);
    if (parsed->focusPolicy)
        ignored.append(QJsonObject{{QStringLiteral("field"), QStringLiteral("route.focusPolicy")},
                                   {QStringLiteral("why"), QStringLiteral("a subscription only listens: it never "
                                                                          "changes focus")}});
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
    // Element events have a ring of their own: many of them never push out a window's or an
    // execution's event that a reader coming back still wants.
    const bool element = isElementKind(kind);
    std::deque<Held>& ring = element ? m_elementRing : m_ring;
    qint64& lastDropped = element ? m_lastElementDropped : m_lastDropped;
    ring.push_back(Held{event, lineage});
    while (static_cast<int>(ring.size()) > m_capacity) {
        lastDropped = ring.front().event.value(QStringLiteral("cursor")).toInteger();
        ring.pop_front();
        ++m_overwritten;
    }
    QList<quint64> gone;
    for (auto it = m_subscribers.begin(); it != m_subscribers.end(); ++it) {
        if (it->held)
            continue; // its answer has not gone yet: activate() sends this from the ring
        if (it->filter.takes(event, lineage) && !deliver(it.key(), it.value(), event))
            gone.append(it.key());
    }
    // A connection that went away without saying so: its subscription lingers from here.
    for (quint64 id : std::as_const(gone))
        connectionGone(id);
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

QList<EventHub::Held> EventHub::heldSince(qint64 since, const QString& sinceEpoch, const Filter* filter) const
{
    // Both rings, in cursor order.
    QList<const Held*> merged;
    merged.reserve(static_cast<qsizetype>(m_ring.size()) + static_cast<qsizetype>(m_elementRing.size()));
    auto a = m_ring.cbegin();
    auto b = m_elementRing.cbegin();
    const auto cursorOf = [](const Held& held) { return held.event.value(QStringLiteral("cursor")).toInteger(); };
    while (a != m_ring.cend() || b != m_elementRing.cend()) {
        if (b == m_elementRing.cend() || (a != m_ring.cend() && cursorOf(*a) < cursorOf(*b)))
            merged.append(&*a++);
        else
            merged.append(&*b++);
    }
    QList<Held> out;
    // Another host's cursor (its epoch, or a cursor this host never gave): what came before is
    // lost, and everything this one holds is news.
    if ((!sinceEpoch.isEmpty() && sinceEpoch != m_epoch) || since > cursor()) {
        out.append(Held{gapEvent(-1, QStringLiteral("epoch_changed"), 0), {}});
        for (const Held* held : std::as_const(merged))
            out.append(*held);
        return out;
    }
    // Every cursor was given to one event of one ring, and the rings drop their oldest first:
    // a cursor between two held ones is an event that was dropped. A run of them above the
    // newest cursor the other ring dropped all come from one ring, and the element ring's are
    // no loss to a reader whose filter names no element kind.
    const bool wantsElements = !filter || filter->namesElementKind();
    const bool wantsOthers = !filter || filter->kinds.isEmpty() ||
                             std::any_of(filter->kinds.cbegin(), filter->kinds.cend(),
                                         [](const QString& kind) { return !isElementKind(kind); });
    // Consecutive losses, with the events the reader does not take between them, make one gap,
    // said just before the next event it takes.
    qint64 lostCount = 0, lastLost = 0;
    const auto lost = [&](qint64 from, qint64 to) {
        if (from > to)
            return;
        const bool others = m_lastDropped >= from;
        const bool elements = m_lastElementDropped >= from;
        if ((others && wantsOthers) || (elements && wantsElements)) {
            lostCount += to - from + 1;
            lastLost = to;
        }
    };
    const auto flush = [&] {
        if (lostCount > 0)
            out.append(Held{gapEvent(lostCount, QStringLiteral("overflow"), lastLost), {}});
        lostCount = 0;
    };
    qint64 expected = since + 1;
    for (const Held* held : std::as_const(merged)) {
        const qint64 at = cursorOf(*held);
        if (at <= since)
            continue;
        lost(expected, at - 1);
        expected = at + 1;
        if (filter && !filter->takes(held->event, held->lineage))
            continue;
        flush();
        out.append(*held);
    }
    lost(expected, cursor());
    flush();
    return out;
}

void EventHub::sendSince(quint64 connectionId, qint64 sinceCursor, const QString& sinceEpoch)
{
    const auto it = m_subscribers.constFind(connectionId);
    if (it == m_subscribers.cend() || !m_deliver)
        return;
    for (const Held& held : heldSince(sinceCursor, sinceEpoch, &it->filter)) {
        if (it->filter.takes(held.event, held.lineage))
            m_deliver(connectionId, notification(held.event));
    }
}

void EventHub::subscribe(quint64 connectionId, const Filter& filter, std::optional<qint64> sinceCursor,
                         const QString& sinceEpoch)
{
    Subscriber& subscriber = m_subscribers[connectionId];
    subscriber = Subscriber{filter, 0, 0, false, ++m_generation};
    changed();
    if (sinceCursor)
        sendSince(connectionId, *sinceCursor, sinceEpoch);
}

quint64 EventHub::subscribeHeld(quint64 connectionId, const Filter& filter)
{
    Subscriber& subscriber = m_subscribers[connectionId];
    subscriber = Subscriber{filter, 0, 0, true, ++m_generation};
    const quint64 generation = subscriber.generation;
    changed();
    return generation;
}

bool EventHub::activate(quint64 connectionId, quint64 generation, qint64 sinceCursor, const QString& sinceEpoch)
{
    const auto it = m_subscribers.find(connectionId);
    if (it == m_subscribers.end() || it->generation != generation)
        return false;
    it->held = false;
    sendSince(connectionId, sinceCursor, sinceEpoch);
    return true;
}

bool EventHub::unsubscribe(quint64 connectionId)
{
    const bool was = m_subscribers.remove(connectionId) > 0;
    if (was)
        changed();
    return was;
}

void EventHub::connectionGone(quint64 connectionId)
{
    const auto it = m_subscribers.constFind(connectionId);
    if (it == m_subscribers.cend())
        return;
    const Filter filter = it->filter;
    // One whose answer never went out has no cursor to come back with: it does not linger.
    const bool answered = !it->held;
    m_subscribers.erase(it);
    if (answered)
        linger(filter);
    changed();
}

void EventHub::setLingerMs(int ms)
{
    m_lingerMs = std::max(0, ms);
    // Shorter now: those past the new bound end at the next look.
    const Clock::time_point latest = Clock::now() + std::chrono::milliseconds(m_lingerMs);
    for (Lingering& lingering : m_lingering)
        lingering.until = std::min(lingering.until, latest);
    expireLingering();
}

void EventHub::linger(const Filter& filter)
{
    if (m_lingerMs <= 0)
        return;
    m_lingering.append(Lingering{filter, Clock::now() + std::chrono::milliseconds(m_lingerMs)});
    while (m_lingering.size() > kMaxLingering)
        m_lingering.removeFirst();
    expireLingering();
}

void EventHub::expireLingering()
{
    const Clock::time_point now = Clock::now();
    const qsizetype before = m_lingering.size();
    m_lingering.removeIf([now](const Lingering& lingering) { return lingering.until <= now; });
    m_lingerTimer.stop();
    if (!m_lingering.isEmpty()) {
        Clock::time_point next = m_lingering.first().until;
        for (const Lingering& lingering : std::as_const(m_lingering))
            next = std::min(next, lingering.until);
        const auto ms = std::chrono::ceil<std::chrono::milliseconds>(next - now).count();
        m_lingerTimer.start(static_cast<int>(std::clamp<qint64>(ms, 1, std::numeric_limits<int>::max())));
    }
    if (m_lingering.size() != before)
        changed();
}

void EventHub::changed()
{
    updateElementEventsWanted();
    Q_EMIT subscriptionsChanged();
}

void EventHub::updateElementEventsWanted()
{
    bool wanted = false;
    for (const auto& subscriber : std::as_const(m_subscribers))
        wanted = wanted || subscriber.filter.namesElementKind();
    for (const auto& lingering : std::as_const(m_lingering))
        wanted = wanted || lingering.filter.namesElementKind();
    if (wanted == m_elementEventsWanted)
        return;
    m_elementEventsWanted = wanted;
    Q_EMIT elementEventsWantedChanged(wanted);
}

bool EventHub::wanted(const QString& kind) const
{
    const auto wants = [&kind](const Filter& filter) {
        return (filter.kinds.isEmpty() && !isElementKind(kind)) || filter.kinds.contains(kind);
    };
    for (const auto& subscriber : m_subscribers) {
        if (wants(subscriber.filter))
            return true;
    }
    return std::any_of(m_lingering.cbegin(), m_lingering.cend(),
                       [&wants](const Lingering& lingering) { return wants(lingering.filter); });
}

bool EventHub::takes(const QString& kind, const QJsonObject& payload, const QJsonArray& lineage) const
{
    QJsonObject event = payload;
    event.insert(QStringLiteral("kind"), kind);
    for (const auto& subscriber : m_subscribers) {
        if (subscriber.filter.takes(event, lineage))
            return true;
    }
    const Clock::time_point now = Clock::now();
    return std::any_of(m_lingering.cbegin(), m_lingering.cend(), [&](const Lingering& lingering) {
        return lingering.until > now && lingering.filter.takes(event, lineage);
    });
}

QJsonObject EventHub::watchState() const
{
    const bool live = !m_subscribers.isEmpty();
    QJsonValue until;
    if (!live && !m_lingering.isEmpty()) {
        Clock::time_point last = m_lingering.first().until;
        for (const Lingering& lingering : m_lingering)
            last = std::max(last, lingering.until);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(last - Clock::now()).count();
        until = QDateTime::currentDateTimeUtc().addMSecs(std::max<qint64>(0, ms)).toString(Qt::ISODateWithMs);
    }
    return QJsonObject{{QStringLiteral("running"), live || !m_lingering.isEmpty()},
                       {QStringLiteral("until"), until},
                       {QStringLiteral("subscribers"), static_cast<int>(m_subscribers.size())},
                       {QStringLiteral("lingering"), static_cast<int>(m_lingering.size())},
                       {QStringLiteral("lingerMs"), m_lingerMs},
                       {QStringLiteral("sources"), m_sources}};
}

void EventHub::sourceStarting()
{
    ++m_sourcesStarting;
}

void EventHub::sourceReady()
{
    if (m_sourcesStarting > 0)
        --m_sourcesStarting;
    if (m_sourcesStarting == 0)
        runReady();
}

void EventHub::whenSourcesReady(std::function<void()> then)
{
    if (m_sourcesStarting == 0 && m_whenReady.isEmpty()) {
        then();
        return;
    }
    m_whenReady.append(std::move(then));
    if (!m_readyTimer.isActive())
        m_readyTimer.start(kSourceReadyTimeoutMs);
}

void EventHub::runReady()
{
    m_readyTimer.stop();
    // A continuation may subscribe again (and wait again): take the list first.
    const QList<std::function<void()>> waiting = std::exchange(m_whenReady, {});
    for (const auto& then : waiting)
        then();
}

} // namespace Bridge
