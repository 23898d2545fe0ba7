// The macOS backend's logic over AxApi (docs/macos.md). Nothing here calls Apple: AxApiMac.mm
// does, and the tests run this file on Linux against FakeAxApi.
#include "automation/backends/macos/MacBackendPrivate.h"

#include <algorithm>

namespace Automation::Mac {

MacBackend::MacBackend(std::unique_ptr<AxApi> api) : m_api(std::move(api)), d(std::make_unique<Private>(*m_api)) {}

MacBackend::~MacBackend()
{
    if (m_notices)
        m_api->streamNotices({});
}

std::optional<DesktopEvent> MacBackend::eventOf(const AxNotice& notice, NoticeMemory& memory, qint64 ownPid)
{
    // The host's own windows are never streamed, as they are never a route (host_itself).
    if (notice.pid == ownPid || notice.pid <= 0)
        return std::nullopt;
    const auto known = [](const AxKnown& node, bool withSubrole) {
        QJsonObject out;
        if (!node.role.isEmpty()) {
            out.insert(QStringLiteral("role"), node.role);
            out.insert(QStringLiteral("nativeRole"), node.role);
        }
        if (withSubrole && !node.subrole.isEmpty())
            out.insert(QStringLiteral("subrole"), node.subrole);
        out.insert(QStringLiteral("title"), node.title);
        return out;
    };
    QString kind;
    QJsonObject extra;
    // A created element tells of its parent's children; every other notice of the element itself.
    const bool created = notice.notification == QLatin1String("AXCreated");
    const AxKnown subject = created ? notice.ancestors.value(0) : notice.element;
    QList<AxKnown> lineage = notice.ancestors;
    if (!created)
        lineage.prepend(notice.element);
    {
        QMutexLocker lock(&memory.mutex);
        ++memory.activity[notice.pid];
        memory.changed.wakeAll();
        if (memory.titles.size() > 4096)
            memory.titles.clear();
        if (memory.rows.size() > 4096)
            memory.rows.clear();
        const QString was = memory.titles.value(notice.elementKey);
        if (!notice.elementKey.isEmpty() && !created)
            memory.titles.insert(notice.elementKey, notice.element.title);
        if (notice.notification == QLatin1String("AXFocusedUIElementChanged")) {
            kind = QStringLiteral("focus.changed");
        } else if (notice.notification == QLatin1String("AXTitleChanged")) {
            kind = QStringLiteral("element.nameChanged");
            extra.insert(QStringLiteral("was"), was);
        } else if (notice.notification == QLatin1String("AXValueChanged")) {
            kind = QStringLiteral("element.valueChanged");
        } else if (created) {
            kind = QStringLiteral("element.childrenChanged");
            extra.insert(QStringLiteral("change"), QStringLiteral("added"));
        } else if (notice.notification == QLatin1String("AXRowCountChanged")) {
            kind = QStringLiteral("element.childrenChanged");
            const auto before = memory.rows.constFind(notice.elementKey);
            const bool knewBefore = before != memory.rows.constEnd();
            const qint64 previous = knewBefore ? *before : -1;
            if (notice.rowCount >= 0 && !notice.elementKey.isEmpty())
                memory.rows.insert(notice.elementKey, notice.rowCount);
            if (notice.rowCount >= 0 && knewBefore && notice.rowCount == previous)
                return std::nullopt;
            extra.insert(QStringLiteral("change"), notice.rowCount < 0 || !knewBefore ? QStringLiteral("changed")
                                                   : notice.rowCount > previous       ? QStringLiteral("added")
                                                                                      : QStringLiteral("removed"));
        } else {
            return std::nullopt;
        }
    }
    QJsonObject payload{
        {QStringLiteral("element"), known(subject, false)},
        {QStringLiteral("app"),
         QJsonObject{{QStringLiteral("name"), notice.appName.isEmpty() ? notice.executable : notice.appName},
                     {QStringLiteral("executable"), notice.executable},
                     {QStringLiteral("pid"), notice.pid}}}};
    if (!notice.windowTitle.isEmpty())
        payload.insert(QStringLiteral("window"), QJsonObject{{QStringLiteral("title"), notice.windowTitle}});
    for (auto it = extra.begin(); it != extra.end(); ++it)
        payload.insert(it.key(), it.value());
    QJsonArray chain;
    for (const AxKnown& node : std::as_const(lineage))
        chain.append(known(node, true));
    return DesktopEvent{kind, payload, chain};
}

QStringList MacBackend::streamedNotifications()
{
    return {QStringLiteral("AXFocusedUIElementChanged"), QStringLiteral("AXTitleChanged"),
            QStringLiteral("AXValueChanged"), QStringLiteral("AXCreated"), QStringLiteral("AXRowCountChanged")};
}

void MacBackend::setEventSink(DesktopEventSink sink)
{
    m_sink = std::move(sink);
    restream();
}

void MacBackend::setElementEventsWanted(bool wanted)
{
    m_eventsWanted = wanted;
    restream();
}

// Observers of every app cost each app a message per change: the stream runs only while a sink
// is set and someone subscribed to element events.
void MacBackend::restream()
{
    const bool run = m_sink && m_eventsWanted;
    if (run == static_cast<bool>(m_notices))
        return;
    if (!run) {
        m_api->streamNotices({});
        m_notices.reset();
        return;
    }
    auto memory = std::make_shared<NoticeMemory>();
    m_notices = memory;
    m_api->streamNotices([sink = m_sink, memory, ownPid = d->ownPid](const AxNotice& notice) {
        if (auto event = eventOf(notice, *memory, ownPid))
            sink(*event);
    });
}

ChangeWait MacBackend::waitForChange(const ResolvedRoute& route, qint64 ms, const CallContext& context)
{
    if (route.pid <= 0)
        return DesktopBackend::waitForChange(route, ms, context);
    QDeadlineTimer nap(std::max<qint64>(0, ms));
    if (!m_notices) {
        // No stream: an observer of the route's app alone, on the worker, for this wait.
        bool changed = false;
        if (m_api->observe(route.pid, streamedNotifications(),
                           [&changed](const AxElement&, const QString&) { changed = true; }) != AxError::Success)
            return DesktopBackend::waitForChange(route, ms, context);
        const auto unobserve = qScopeGuard([&] { m_api->unobserve(route.pid); });
        while (!changed && !nap.hasExpired() && !context.checkpoint())
            m_api->pumpNotifications(static_cast<int>(std::clamp<qint64>(nap.remainingTime(), 1, 20)));
        return changed ? ChangeWait::Changed : ChangeWait::Quiet;
    }
    NoticeMemory& memory = *m_notices;
    QMutexLocker lock(&memory.mutex);
    const quint64 mark = memory.activity.value(route.pid);
    while (!nap.hasExpired()) {
        if (memory.activity.value(route.pid) != mark)
            return ChangeWait::Changed;
        // In short slices, so a cancel or the deadline is seen soon.
        memory.changed.wait(&memory.mutex, QDeadlineTimer(std::clamp<qint64>(nap.remainingTime(), 1, 20)));
        lock.unlock();
        const bool cancelled = static_cast<bool>(context.checkpoint());
        lock.relock();
        if (cancelled)
            break;
    }
    return memory.activity.value(route.pid) != mark ? ChangeWait::Changed : ChangeWait::Quiet;
}

BackendInfo MacBackend::info()
{
    BackendInfo info;
    info.name = QStringLiteral("macos");
    info.available = m_api->isProcessTrusted(false);
    info.message = info.available
                       ? QStringLiteral("accessibility granted; AX API available")
                       : QStringLiteral("accessibility is not granted to the host: System Settings > Privacy & "
                                        "Security > Accessibility");
    info.details = QJsonObject{{QStringLiteral("screenCapture"), m_api->screenCaptureAllowed()},
                               {QStringLiteral("knownElements"), static_cast<int>(d->elements.size())},
                               {QStringLiteral("displays"), static_cast<int>(m_api->displays().size())},
                               {QStringLiteral("secureEventInput"), m_api->secureEventInputEnabled()}};
    return info;
}

void MacBackend::configure(const QJsonObject& settings)
{
    const BackendSettings parsed = BackendSettings::fromJson(settings);
    if (parsed.pngCompression)
        d->pngCompression = *parsed.pngCompression;
    if (parsed.giveBackFocus)
        d->giveBackFocus = *parsed.giveBackFocus;
}

Result<ResolvedRoute> MacBackend::resolveRoute(const Route& route, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    if (route.windowNativeId) // a narrowing member is honoured or refused, never ignored
        return Error::invalidParam(QStringLiteral("route.window.nativeId"),
                                   QStringLiteral("route.window.nativeId is not supported on macOS yet"));
    if (!m_api->isProcessTrusted(false))
        return Private::permissionMissing();
    if (route.pid && *route.pid == d->ownPid)
        return Error::make(ErrorCode::CallerForbidden, QStringLiteral("the host never automates its own windows"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("host_itself")}});
    const QList<RunningApp> apps = m_api->runningApplications();
    QJsonArray available;
    QList<RunningApp> candidates;
    const bool explicitApp = route.pid || route.bundleId;
    for (const auto& app : apps) {
        if (!app.regular || app.pid == d->ownPid)
            continue;
        available.append(QJsonObject{{QStringLiteral("name"), app.name},
                                     {QStringLiteral("bundleId"), app.bundleId},
                                     {QStringLiteral("pid"), app.pid}});
        if (route.pid && app.pid != *route.pid)
            continue;
        if (route.bundleId) {
            const QString& wanted = *route.bundleId;
            if (app.bundleId.compare(wanted, Qt::CaseInsensitive) != 0 &&
                app.name.compare(wanted, Qt::CaseInsensitive) != 0 &&
                QFileInfo(app.executable).fileName().compare(wanted, Qt::CaseInsensitive) != 0)
                continue;
        }
        if (!explicitApp && !app.active)
            continue; // the default route: the frontmost app
        candidates.append(app);
    }
    if (candidates.isEmpty())
        return Error::make(ErrorCode::ElementNotFound,
                           explicitApp ? QStringLiteral("no running application matches the route")
                                       : QStringLiteral("no application is frontmost"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("app_not_found")},
                                       {QStringLiteral("apps"), available}});
    const QRegularExpression titlePattern(route.windowTitlePattern.value_or(QString()));
    struct Choice
    {
        RunningApp app;
        Private::Window window;
        int rank = -1;
        QList<Private::Window> siblings;
    };
    Choice best;
    QJsonArray unresponsive;
    for (const auto& app : candidates) {
        if (d->recentlyHung(app.pid) && candidates.size() > 1) {
            unresponsive.append(app.name);
            continue;
        }
        auto windows = d->windowsOf(app, context);
        if (!windows) {
            if (candidates.size() == 1 || windows.error().code != ErrorCode::TargetUnresponsive)
                return windows.error();
            unresponsive.append(app.name);
            continue;
        }
        for (const auto& window : windows.value()) {
            if (route.windowTitlePattern && !titlePattern.match(window.title).hasMatch())
                continue;
            if (route.windowHandle && window.element.key() != *route.windowHandle)
                continue;
            const int rank = (window.focused ? 4 : 0) + (window.main ? 2 : 0) + (window.minimized ? 0 : 1);
            if (rank > best.rank)
                best = Choice{app, window, rank, windows.value()};
        }
    }
    if (best.rank < 0)
        return Error::make(ErrorCode::ElementNotFound,
                           route.windowHandle ? QStringLiteral("no window has the route's window id (it closed, or "
                                                               "its app restarted)")
                           : route.windowTitlePattern ? QStringLiteral("no window matches the route's titlePattern")
                                                      : QStringLiteral("the application has no window"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")},
                                       {QStringLiteral("apps"), available},
                                       {QStringLiteral("unresponsive"), unresponsive}});
    ResolvedRoute resolved;
    resolved.appName = best.app.name;
    resolved.bundleId = best.app.bundleId.isEmpty() ? best.app.name : best.app.bundleId;
    resolved.pid = best.app.pid;
    resolved.windowTitle = best.window.title;
    resolved.appHandle = m_api->applicationElement(best.app.pid).key();
    resolved.windowHandle = best.window.element.key();
    resolved.windowFocused = best.app.active && best.window.focused;
    if (!best.window.modal) {
        for (const auto& other : std::as_const(best.siblings)) {
            if (other.modal && !other.minimized && !(other.element == best.window.element)) {
                resolved.blockingModal = other.title;
                break;
            }
        }
    }
    return resolved;
}

Status MacBackend::focusWindow(const ResolvedRoute& route, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const auto window = d->element(route.windowHandle);
    if (!window)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the route's window is no longer known"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    const AxElement app = m_api->applicationElement(route.pid);
    d->budget(route.pid, app, context);
    // The person's app, to bring back when the side effect is over (the first one this execution
    // moved away from; never the host itself).
    if (const qint64 front = d->frontmostPid();
        d->giveBackFocus && d->giveBackTo == 0 && front > 0 && front != route.pid && front != d->ownPid) {
        d->giveBackTo = front;
        d->broughtForward = route.pid;
    }
    // AXFrontmost brings the app forward on every macOS; activateWithOptions: does nothing from a
    // background app on macOS 14 and later, and is kept for 12 and 13 where AXFrontmost is not
    // enough. Then the window is raised and made main.
    const AxError frontmost = m_api->setAttribute(app, QStringLiteral("AXFrontmost"), AxValue::ofBool(true));
    if (frontmost == AxError::ApiDisabled)
        return Private::permissionMissing();
    if (!m_api->activateApplication(route.pid))
        return Error::make(ErrorCode::FocusLost, QStringLiteral("the app could not be activated (it quit?)"),
                           QJsonObject{{QStringLiteral("pid"), route.pid}});
    m_api->performAction(*window, QStringLiteral("AXRaise"));
    m_api->setAttribute(*window, QStringLiteral("AXMain"), AxValue::ofBool(true));
    // Read back: the app frontmost and the window its focused one.
    QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(1000, context.remainingMs() - 50)));
    while (true) {
        const bool front = d->frontmostPid() == route.pid;
        auto focused = d->read(route.pid, app, {QStringLiteral("AXFocusedWindow")}, context);
        if (!focused)
            return focused.error();
        if (front && focused->at(0).value.element == *window)
            return success();
        if (until.hasExpired())
            break;
        m_api->pumpNotifications(20);
        QThread::msleep(30);
    }
    if (auto stop = context.checkpoint())
        return *stop;
    return Error::make(ErrorCode::FocusLost, QStringLiteral("the window did not become the focused one"),
                       QJsonObject{{QStringLiteral("window"), route.windowTitle},
                                   {QStringLiteral("frontmostPid"), d->frontmostPid()}});
}

Result<Snapshot> MacBackend::snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds,
                                      const CallContext& context)
{
    QElapsedTimer timer;
    timer.start();
    const AxElement app = m_api->applicationElement(route.pid);
    const AxElement root = route.windowHandle.isEmpty() ? app : d->element(route.windowHandle).value_or(AxElement());
    if (root.isNull())
        return Error::make(ErrorCode::StaleSnapshot,
                           QStringLiteral("the route's window is no longer known; resolve it again"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    d->askForWebContent(route.pid, app, context);
    Snapshot snapshot;
    snapshot.appName = route.appName;
    snapshot.bundleId = route.bundleId;
    snapshot.pid = route.pid;
    snapshot.windowTitle = route.windowTitle;
    snapshot.bounds = bounds;
    struct Pending
    {
        AxElement element;
        int parent = -1;
        int depth = 0;
        QList<int> path;
    };
    QList<Pending> stack{{root, -1, 0, {}}};
    QDeadlineTimer wall(bounds.maxWallTimeMs);
    const bool windowActive = route.windowFocused;
    while (!stack.isEmpty()) {
        if (wall.hasExpired()) {
            snapshot.truncated = true;
            snapshot.truncatedReason = QStringLiteral("maxWallTimeMs");
            break;
        }
        if (snapshot.nodes.size() >= bounds.maxNodes) {
            snapshot.truncated = true;
            snapshot.truncatedReason = QStringLiteral("maxNodes");
            break;
        }
        Pending item = stack.takeLast();
        auto reads = d->read(route.pid, item.element, nodeAttributes(), context, QStringLiteral("a tree read"));
        if (!reads) {
            if (item.parent >= 0 && reads.error().code == ErrorCode::ElementNotFound)
                continue; // went away while the tree was read
            return reads.error();
        }
        const QList<AxRead>& r = reads.value();
        d->remember(item.element);
        Node node;
        node.role = stringOf(r.at(Role));
        if (node.role.isEmpty())
            node.role = QStringLiteral("AXUnknown");
        node.subrole = stringOf(r.at(Subrole));
        node.nativeRole = node.role;
        node.title = stringOf(r.at(Title));
        if (node.title.isEmpty())
            node.title = stringOf(r.at(Description));
        node.identifier = stringOf(r.at(Identifier));
        node.description = stringOf(r.at(Help));
        node.frame = frameOf(r.at(Position), r.at(Size));
        node.handle = item.element.key();
        node.parent = item.parent;
        node.path = item.path;
        quint32 states = 0;
        if (boolOf(r.at(Enabled), true))
            states |= StateEnabled;
        if (boolOf(r.at(Focused)))
            states |= StateFocused;
        if (boolOf(r.at(Selected)))
            states |= StateSelected;
        if (boolOf(r.at(Expanded)))
            states |= StateExpanded;
        if (boolOf(r.at(Modal)))
            states |= StateModal;
        if (isTextRole(node.role))
            states |= StateEditable;
        if (node.isSecure())
            states |= StateSecure;
        if (isFocusableRole(node.role))
            states |= StateFocusable;
        if (node.frame.width > 0 && node.frame.height > 0)
            states |= StateVisible | StateShowing;
        if (item.parent < 0 && windowActive)
            states |= StateActive;
        // What the value says: a static text's label, a check box's state, a field's text.
        const bool wantsValue = valueIsTitle(node.role) || node.role == QLatin1String("AXCheckBox") ||
                                node.role == QLatin1String("AXRadioButton") || (bounds.includeText && !node.isSecure());
        if (wantsValue) {
            auto value = d->read(route.pid, item.element, {QStringLiteral("AXValue")}, context);
            if (!value && value.error().code != ErrorCode::ElementNotFound)
                return value.error();
            if (value) {
                const QString text = stringOf(value->at(0));
                if (valueIsTitle(node.role) && node.title.isEmpty())
                    node.title = text;
                if ((node.role == QLatin1String("AXCheckBox") || node.role == QLatin1String("AXRadioButton")) &&
                    text == QLatin1String("1"))
                    node.states |= StateChecked;
                if (bounds.includeText && !node.isSecure()) {
                    node.value = text;
                    node.hasValue = value->at(0).error == AxError::Success;
                }
            }
        }
        node.states |= states;
        if (bounds.searchOnly) {
            node.detailed = false;
        } else {
            QStringList actions;
            if (m_api->actionNames(item.element, &actions) == AxError::Success)
                node.actions = actions;
        }
        const int index = static_cast<int>(snapshot.nodes.size());
        if (item.parent >= 0)
            snapshot.nodes[item.parent].children.append(index);
        snapshot.nodes.append(node);
        // The children: counted, then read from the first, as many as the bounds leave room for
        // (a list of thousands of rows is never read whole for a find of fifty nodes).
        qint64 childCount = 0;
        const AxError counted = m_api->attributeCount(item.element, QStringLiteral("AXChildren"), &childCount);
        if (counted == AxError::CannotComplete)
            return d->unresponsive(route.pid, QStringLiteral("for a node's children"));
        if (counted != AxError::Success)
            childCount = 0;
        // macOS keeps an app's menus in the menu bar at the top of the screen, not in its
        // windows: the app's AXMenuBar is read as the window's last child, after all of the
        // window's own content (the bottom of the stack), so menuPick and a search for a menu
        // item find it, and a bound cuts the menus before the window.
        if (item.parent < 0 && !route.windowHandle.isEmpty()) {
            auto bar = d->read(route.pid, app, {QStringLiteral("AXMenuBar")}, context);
            if (!bar && bar.error().code != ErrorCode::ElementNotFound)
                return bar.error();
            if (bar && bar->at(0).error == AxError::Success && !bar->at(0).value.element.isNull())
                stack.prepend(Pending{bar->at(0).value.element, index, 1, {static_cast<int>(childCount)}});
        }
        if (childCount <= 0)
            continue;
        if (item.depth + 1 > bounds.maxDepth) {
            snapshot.truncated = true;
            if (snapshot.truncatedReason.isEmpty())
                snapshot.truncatedReason = QStringLiteral("maxDepth");
            continue;
        }
        const qint64 room = std::max<qint64>(0, bounds.maxNodes - snapshot.nodes.size() - stack.size());
        QList<AxElement> kids;
        if (room > 0) {
            const AxError paged = m_api->attributeValues(item.element, QStringLiteral("AXChildren"), 0,
                                                         std::min(childCount, room), &kids);
            if (paged == AxError::CannotComplete)
                return d->unresponsive(route.pid, QStringLiteral("for a node's children"));
        }
        if (kids.size() < childCount) {
            snapshot.truncated = true;
            if (snapshot.truncatedReason.isEmpty())
                snapshot.truncatedReason = QStringLiteral("maxNodes");
        }
        for (qsizetype i = kids.size() - 1; i >= 0; --i) {
            QList<int> path = item.path;
            path.append(static_cast<int>(i));
            stack.append(Pending{kids.at(i), index, item.depth + 1, path});
        }
    }
    if (snapshot.nodes.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the window has no accessible content"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    snapshot.elapsedMs = timer.elapsed();
    snapshot.takenAt = QDateTime::currentDateTimeUtc();
    return snapshot;
}

Status MacBackend::completeNodes(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    for (int index : indexes) {
        if (index < 0 || index >= snapshot.nodes.size())
            continue;
        Node& node = snapshot.nodes[index];
        if (node.detailed)
            continue;
        if (auto stop = context.checkpoint())
            return *stop;
        const auto element = d->element(node.handle);
        if (element) {
            QStringList actions;
            d->budget(snapshot.pid, m_api->applicationElement(snapshot.pid), context);
            if (m_api->actionNames(*element, &actions) == AxError::Success)
                node.actions = actions;
        }
        node.detailed = true;
    }
    return success();
}

QJsonObject MacBackend::sideEffectEnded(const CallContext& context)
{
    const qint64 back = std::exchange(d->giveBackTo, 0);
    const qint64 forward = std::exchange(d->broughtForward, 0);
    if (back == 0)
        return {};
    const auto person = d->appOf(back);
    QJsonObject out{
        {QStringLiteral("givenBackTo"),
         QJsonObject{{QStringLiteral("pid"), back}, {QStringLiteral("app"), person ? person->name : QString()}}}};
    // Only while the app the host brought forward is still in front: a person who went to
    // another app meanwhile keeps it.
    if (!person || d->frontmostPid() != forward) {
        out.insert(QStringLiteral("frontmost"), false);
        out.insert(QStringLiteral("why"),
                   person ? QStringLiteral("another app came to the front meanwhile") : QStringLiteral("the app quit"));
        return out;
    }
    const AxElement app = m_api->applicationElement(back);
    d->budget(back, app, context);
    m_api->setAttribute(app, QStringLiteral("AXFrontmost"), AxValue::ofBool(true));
    m_api->activateApplication(back);
    QDeadlineTimer until(500);
    while (d->frontmostPid() != back && !until.hasExpired())
        QThread::msleep(20);
    out.insert(QStringLiteral("frontmost"), d->frontmostPid() == back);
    return out;
}

Result<std::optional<Frame>> MacBackend::liveFrame(const ResolvedRoute& route, const Node& node,
                                                   const CallContext& context)
{
    const auto element = d->element(node.handle);
    if (!element)
        return std::optional<Frame>();
    auto read = d->read(route.pid, *element, {QStringLiteral("AXPosition"), QStringLiteral("AXSize")}, context);
    if (!read) {
        if (read.error().code == ErrorCode::ElementNotFound)
            return std::optional<Frame>();
        return read.error();
    }
    if (read->at(0).error != AxError::Success || read->at(1).error != AxError::Success)
        return std::optional<Frame>();
    return std::optional<Frame>(frameOf(read->at(0), read->at(1)));
}

Status MacBackend::readRelations(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    // AX points from a field to its label (AXTitleUIElement); labelFor is the other side.
    QHash<QString, int> anchors;
    for (int index : indexes)
        if (index >= 0 && index < snapshot.nodes.size())
            anchors.insert(snapshot.nodes.at(index).handle, index);
    for (int i = 0; i < snapshot.nodes.size() && !anchors.isEmpty(); ++i) {
        const Node& node = snapshot.nodes.at(i);
        if (!isFocusableRole(node.role))
            continue;
        auto label = d->readNode(snapshot.pid, node, QStringLiteral("AXTitleUIElement"), context);
        if (!label)
            return label.error();
        if (!label.value())
            continue;
        const AxRead& read = *label.value();
        const auto it = anchors.constFind(read.value.element.key());
        if (read.error == AxError::Success && it != anchors.constEnd())
            snapshot.nodes[*it].labelFor.append(i);
    }
    for (int index : indexes)
        if (index >= 0 && index < snapshot.nodes.size())
            snapshot.nodes[index].relationsRead = true;
    return success();
}

Result<Screenshot> MacBackend::screenshot(const CallContext& context)
{
    return captureDisplay(0, context);
}

Result<Screenshot> MacBackend::screenshotOfDisplay(const DisplayInfo& display, const CallContext& context)
{
    bool number = false;
    const quint32 id = display.id.toUInt(&number);
    if (!number || id == 0)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no display \"%1\"").arg(display.id),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("display_not_found")}});
    return captureDisplay(id, context);
}

Result<Screenshot> MacBackend::captureDisplay(quint32 displayId, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    if (!m_api->screenCaptureAllowed())
        return Error::make(ErrorCode::PermissionMissing,
                           QStringLiteral("screen recording is not granted to the host: System Settings > Privacy & "
                                          "Security > Screen Recording"),
                           QJsonObject{{QStringLiteral("permission"), QStringLiteral("screenRecording")}});
    QRectF frame;
    auto image = m_api->captureDisplay(displayId, &frame);
    if (!image || image->isNull() || frame.isEmpty()) {
        // A display unplugged or asleep since it was listed: not found, not a failure of ours.
        const QList<Display> attached = m_api->displays();
        if (displayId != 0 && std::none_of(attached.cbegin(), attached.cend(),
                                           [&](const Display& display) { return display.id == displayId; }))
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("display %1 is not attached any more").arg(displayId),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("display_not_found")}});
        return Error::make(ErrorCode::InternalError, QStringLiteral("the display could not be captured"),
                           QJsonObject{{QStringLiteral("displayId"), static_cast<qint64>(displayId)}});
    }
    // One pixel per point, the unit of every frame the host answers and takes: a window's frame
    // then crops the image as it is, and a point read off the image is a point to click.
    const QSize points = frame.size().toSize();
    if (image->size() != points)
        image = image->scaled(points, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    const QByteArray png =
        PngEncoder::encode(*image, d->pngCompression >= 0 ? d->pngCompression : PngEncoder::kDefaultLevel);
    if (png.isEmpty())
        return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be encoded as PNG"));
    Screenshot out{png, image->width(), image->height(), QDateTime::currentDateTimeUtc(), {}};
    out.origin = frame.topLeft().toPoint();
    return out;
}

QJsonObject MacBackend::environment(const ResolvedRoute* route, const CallContext& context)
{
    Q_UNUSED(context)
    QJsonObject out;
    const QList<Display> displays = m_api->displays();
    if (!displays.isEmpty())
        out.insert(QStringLiteral("display"),
                   QJsonObject{{QStringLiteral("frame"), frameJson(displays.first().frame)},
                               {QStringLiteral("scale"), displays.first().scale},
                               {QStringLiteral("scaleSource"), QStringLiteral("backingScaleFactor")},
                               {QStringLiteral("count"), static_cast<int>(displays.size())}});
    const QList<ServerWindow> windows = m_api->windowList();
    const qint64 front = d->frontmostPid();
    for (const auto& w : windows) {
        if (w.pid == front && w.layer == 0 && w.onScreen) {
            out.insert(QStringLiteral("frontmost"), QJsonObject{{QStringLiteral("title"), w.title},
                                                                {QStringLiteral("pid"), w.pid},
                                                                {QStringLiteral("frame"), frameJson(w.bounds)}});
            break;
        }
    }
    if (route && route->pid > 0) {
        for (const auto& w : windows) {
            if (w.pid == route->pid && w.layer == 0 && (w.title == route->windowTitle || w.title.isEmpty())) {
                QJsonObject json{{QStringLiteral("title"), route->windowTitle},
                                 {QStringLiteral("pid"), w.pid},
                                 {QStringLiteral("frame"), frameJson(w.bounds)}};
                if (!route->windowId().isEmpty())
                    json.insert(QStringLiteral("windowId"), route->windowId());
                out.insert(QStringLiteral("window"), json);
                break;
            }
        }
    }
    return out;
}

Status MacBackend::readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    for (int index : indexes) {
        if (index < 0 || index >= snapshot.nodes.size())
            continue;
        Node& node = snapshot.nodes[index];
        if (node.isSecure())
            continue;
        auto r = d->readNode(snapshot.pid, node, QStringLiteral("AXValue"), context);
        if (!r)
            return r.error();
        if (r.value() && r.value()->error == AxError::Success) {
            node.value = stringOf(*r.value());
            node.hasValue = true;
        }
    }
    return success();
}

} // namespace Automation::Mac
