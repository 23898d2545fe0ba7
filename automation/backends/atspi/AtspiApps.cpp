#include "automation/backends/atspi/AtspiApps.h"

#include "automation/backends/atspi/AtspiRoles.h"
#include "automation/backends/atspi/X11Session.h"
#include "automation/platform/ProcessInfo.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <iterator>
#include <utility>

namespace Automation {

using Atspi::App;
using Atspi::firstArgument;
using Atspi::Interface;
using Atspi::Ref;
using Atspi::refList;
using Atspi::uintList;
using Atspi::unwrap;
using Atspi::Window;

AtspiApps::AtspiApps(AtspiBus& bus, X11Session& x11)
    : m_bus(bus), m_x11(x11), m_ownPid(QCoreApplication::applicationPid())
{
    m_bus.onConnected([this] { m_appCache.clear(); });
}

QJsonArray AtspiApps::invisibleApps()
{
    // Apps with windows on screen that the registry does not list cannot be automated: started
    // before the accessibility bus or registry was replaced, or with accessibility off. Looked
    // for at most every 2 s (this runs after every execution).
    if (!m_invisibleCheckedAt.isValid() || m_invisibleCheckedAt.hasExpired(2000)) {
        m_invisibleCheckedAt.start();
        const CallContext quick(QDeadlineTimer(1000), std::make_shared<CancelToken>());
        if (auto apps = listApps(quick)) {
            QSet<qint64> registered;
            for (const auto& app : apps.value())
                registered.insert(app.pid);
            QJsonArray invisible;
            for (qint64 pid : m_x11.clientPids()) {
                if (pid == m_ownPid || registered.contains(pid) ||
                    Platform::processState(pid) != Platform::ProcessState::Running)
                    continue;
                invisible.append(QJsonObject{
                    {QStringLiteral("pid"), pid},
                    {QStringLiteral("executable"), QFileInfo(Platform::processExecutable(pid)).fileName()}});
            }
            m_invisibleApps = invisible;
        }
    }
    return m_invisibleApps;
}

void AtspiApps::readToolkit(App& app, const CallContext& context)
{
    if (!app.toolkit.isEmpty())
        return;
    // An app that did not say recently is not asked on every call (each ask may wait).
    if (const auto retry = m_toolkitRetry.constFind(app.root.service);
        retry != m_toolkitRetry.cend() && !retry->hasExpired())
        return;
    const QString iface = QStringLiteral("org.a11y.atspi.Application");
    auto name = m_bus.send(app.root, Interface::Properties, QStringLiteral("Get"),
                           {iface, QStringLiteral("ToolkitName")}, context.callTimeoutMs(Atspi::kDiscoveryCapMs));
    auto version = m_bus.send(app.root, Interface::Properties, QStringLiteral("Get"),
                              {iface, QStringLiteral("Version")}, context.callTimeoutMs(Atspi::kDiscoveryCapMs));
    name.waitForFinished();
    version.waitForFinished();
    if (name.isError()) {
        m_toolkitRetry.insert(app.root.service, QDeadlineTimer(5000));
        return;
    }
    app.toolkit = unwrap(firstArgument(name)).toString();
    if (!version.isError())
        app.toolkitVersion = unwrap(firstArgument(version)).toString();
    if (app.toolkit.isEmpty())
        app.toolkit = QStringLiteral("unknown");
    if (m_appCache.contains(app.root.service))
        m_appCache[app.root.service] = app;
}

App AtspiApps::appFor(const ResolvedRoute& route) const
{
    const Ref root = Ref::fromHandle(route.appHandle);
    App app = m_appCache.value(root.service);
    app.root = root;
    app.pid = route.pid;
    if (app.name.isEmpty())
        app.name = route.appName;
    return app;
}

App AtspiApps::appOf(const ResolvedRoute& route, const CallContext& context)
{
    if (route.inaccessible)
        return App{}; // not on the bus: nothing to ask
    App app = appFor(route);
    readToolkit(app, context);
    return app;
}

Result<QList<App>> AtspiApps::listApps(const CallContext& context)
{
    QString error;
    if (!m_bus.connect(&error))
        return Error::make(ErrorCode::PermissionMissing, error,
                           QJsonObject{{QStringLiteral("permission"), QStringLiteral("accessibility")}});
    auto children = m_bus.send(Ref{Atspi::registryService(), Atspi::rootPath()}, Interface::Accessible,
                               QStringLiteral("GetChildren"), {}, m_bus.callTimeout(context));
    if (auto err = m_bus.wait(children, context, QStringLiteral("the registry's GetChildren"))) {
        // A registry that restarted: reconnect once (the bus may have moved too).
        if (err->code != ErrorCode::Aborted && err->code != ErrorCode::Timeout) {
            m_bus.disconnect();
            if (!m_bus.connect(&error))
                return *err;
            children = m_bus.send(Ref{Atspi::registryService(), Atspi::rootPath()}, Interface::Accessible,
                                  QStringLiteral("GetChildren"), {}, m_bus.callTimeout(context));
            if (auto again = m_bus.wait(children, context, QStringLiteral("the registry's GetChildren")))
                return *again;
        } else {
            return *err;
        }
    }
    const QList<Ref> roots = refList(firstArgument(children));

    // pid from the bus daemon (never hangs), name from the app (cached; skipped while hung).
    QList<App> apps;
    QList<std::pair<int, QDBusPendingCall>> pidCalls, nameCalls;
    for (const auto& root : roots) {
        if (root.isNull())
            continue;
        App app;
        app.root = root;
        if (const auto cached = m_appCache.constFind(root.service); cached != m_appCache.cend()) {
            app = *cached;
        } else {
            pidCalls.append(
                {static_cast<int>(apps.size()), m_bus.connectionPid(root.service, m_bus.callTimeout(context))});
            if (!m_bus.isMarkedUnresponsive(root.service)) {
                nameCalls.append({static_cast<int>(apps.size()),
                                  m_bus.send(root, Interface::Properties, QStringLiteral("Get"),
                                             {QStringLiteral("org.a11y.atspi.Accessible"), QStringLiteral("Name")},
                                             context.callTimeoutMs(Atspi::kDiscoveryCapMs))});
            }
        }
        apps.append(app);
    }
    for (auto& [index, call] : pidCalls) {
        call.waitForFinished();
        if (!call.isError())
            apps[index].pid = firstArgument(call).toLongLong();
        apps[index].executable = QFileInfo(Platform::processExecutable(apps[index].pid)).fileName();
    }
    for (auto& [index, call] : nameCalls) {
        call.waitForFinished();
        if (!call.isError()) {
            apps[index].name = unwrap(firstArgument(call)).toString();
            m_appCache.insert(apps[index].root.service, apps[index]);
        } else if (Atspi::failureOf(call) == Atspi::CallFailure::Unanswered) {
            m_bus.markUnresponsive(apps[index].root.service);
        }
    }
    if (auto stop = context.checkpoint())
        return *stop;
    // The host never automates itself: its own windows (confirmation, onboarding) are where a
    // person approves what it does.
    apps.removeIf([this](const App& app) { return app.pid == m_ownPid || app.pid <= 0; });
    return apps;
}

Result<QList<Window>> AtspiApps::windowsOf(const App& app, const CallContext& context, int timeoutMs)
{
    auto children = m_bus.send(app.root, Interface::Accessible, QStringLiteral("GetChildren"), {}, timeoutMs);
    if (auto err = m_bus.wait(children, context, QStringLiteral("GetChildren of the app"), &app))
        return *err;
    QList<Window> windows;
    QList<QDBusPendingCall> roles, states, names;
    for (const auto& ref : refList(firstArgument(children))) {
        Window window;
        window.ref = ref;
        windows.append(window);
        roles.append(m_bus.send(ref, Interface::Accessible, QStringLiteral("GetRole"), {}, timeoutMs));
        states.append(m_bus.send(ref, Interface::Accessible, QStringLiteral("GetState"), {}, timeoutMs));
        names.append(m_bus.send(ref, Interface::Properties, QStringLiteral("Get"),
                                {QStringLiteral("org.a11y.atspi.Accessible"), QStringLiteral("Name")}, timeoutMs));
    }
    for (int i = 0; i < windows.size(); ++i) {
        if (auto err = m_bus.wait(roles[i], context, QStringLiteral("GetRole of a window"), &app))
            return *err;
        if (auto err = m_bus.wait(states[i], context, QStringLiteral("GetState of a window"), &app))
            return *err;
        if (auto err = m_bus.wait(names[i], context, QStringLiteral("the name of a window"), &app))
            return *err;
        windows[i].role = firstArgument(roles[i]).toUInt();
        const auto bits = uintList(firstArgument(states[i]));
        const quint32 low = bits.value(0), high = bits.value(1);
        windows[i].active = Atspi::hasState(low, high, Atspi::StateActive);
        windows[i].showing = Atspi::hasState(low, high, Atspi::StateShowing);
        windows[i].modal = Atspi::hasState(low, high, Atspi::StateModal);
        windows[i].title = unwrap(firstArgument(names[i])).toString();
    }
    return windows;
}

QString AtspiApps::titleOf(const QList<X11Session::WindowFacts>& stacked, quint64 native)
{
    for (const auto& facts : stacked) {
        if (facts.window.window == native)
            return facts.window.title;
    }
    return {};
}

QList<quint64> AtspiApps::nativeWindowsOf(qint64 pid, const QList<Window>& windows,
                                          const QList<X11Session::WindowFacts>& stacked)
{
    QList<quint64> out(windows.size(), 0);
    QList<const X11Session::WindowFacts*> mine; // the app's X windows, minimized ones too
    for (const auto& facts : stacked) {
        if (facts.window.pid == pid)
            mine.append(&facts);
    }
    const auto xCount = [&](const QString& title) {
        return std::count_if(mine.cbegin(), mine.cend(), [&](const auto* f) { return f->window.title == title; });
    };
    const auto aCount = [&](const QString& title) {
        return std::count_if(windows.cbegin(), windows.cend(), [&](const Window& w) { return w.title == title; });
    };
    // A title that only one window has on each side names the same window (two windows of the
    // same title are never told apart by it).
    QList<quint64> claimed;
    for (qsizetype i = 0; i < windows.size(); ++i) {
        const QString& title = windows.at(i).title;
        if (aCount(title) != 1 || xCount(title) != 1)
            continue;
        for (const auto* facts : std::as_const(mine)) {
            if (facts->window.title == title) {
                out[i] = facts->window.window;
                claimed.append(facts->window.window);
            }
        }
    }
    // One showing window left on each side: the same window under two titles.
    QList<qsizetype> unnamed;
    for (qsizetype i = 0; i < windows.size(); ++i) {
        if (out.at(i) == 0 && windows.at(i).showing)
            unnamed.append(i);
    }
    QList<quint64> unclaimed;
    for (const auto* facts : std::as_const(mine)) {
        if (facts->viewable && !claimed.contains(facts->window.window))
            unclaimed.append(facts->window.window);
    }
    if (unnamed.size() == 1 && unclaimed.size() == 1)
        out[unnamed.first()] = unclaimed.first();
    return out;
}

Error AtspiApps::noAccessibility(const X11Session::WindowFacts& window, bool frontmost)
{
    const QString id = QStringLiteral("0x%1").arg(window.window.window, 0, 16);
    return Error::make(
               ErrorCode::ElementNotFound,
               frontmost
                   ? QStringLiteral("the active window \"%1\" (%2) exposes no accessibility: nothing "
                                    "is done in another app's window instead")
                         .arg(window.window.title, id)
                   : QStringLiteral("the window \"%1\" (%2) exposes no accessibility").arg(window.window.title, id),
               QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_accessibility")},
                           {QStringLiteral("window"), QJsonObject{{QStringLiteral("title"), window.window.title},
                                                                  {QStringLiteral("nativeId"), id},
                                                                  {QStringLiteral("pid"), window.window.pid}}},
                           {QStringLiteral("suggestedSource"), QStringLiteral("ocr")},
                           {QStringLiteral("suggestion"),
                            QStringLiteral("its text is on screen: find it with selector.source \"ocr\" (or "
                                           "\"any\"), or read it with desktop.ocr")}})
        .withRetryable(false);
}

ResolvedRoute AtspiApps::bareRoute(const X11Session::WindowFacts& window, bool frontmost)
{
    ResolvedRoute out;
    out.pid = window.window.pid;
    out.appName = QFileInfo(Platform::processExecutable(out.pid)).fileName();
    if (out.appName.isEmpty())
        out.appName = m_x11.windowClassName(window.window.window);
    out.bundleId = out.appName;
    out.windowTitle = window.window.title;
    out.nativeWindow = window.window.window;
    const QRect& rect = window.window.rect;
    out.nativeFrame = Frame{rect.x(), rect.y(), rect.width(), rect.height()};
    out.windowFocused = m_x11.activeWindow() == window.window.window;
    out.inaccessible = noAccessibility(window, frontmost);
    return out;
}

Result<ResolvedRoute> AtspiApps::resolveRoute(const Route& route, const CallContext& context)
{
    auto apps = listApps(context);
    if (!apps)
        return apps.error();
    if (route.pid && *route.pid == m_ownPid)
        return Error::make(ErrorCode::CallerForbidden, QStringLiteral("the host never automates its own windows"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("host_itself")}});

    QList<App> candidates;
    for (const auto& app : apps.value()) {
        if (route.pid && app.pid != *route.pid)
            continue;
        if (route.bundleId) {
            const QString wanted = *route.bundleId;
            const QString desktopId = app.executable + QStringLiteral(".desktop");
            const bool matches = app.name.compare(wanted, Qt::CaseInsensitive) == 0 ||
                                 app.executable.compare(wanted, Qt::CaseInsensitive) == 0 ||
                                 desktopId.compare(wanted, Qt::CaseInsensitive) == 0;
            if (!matches)
                continue;
        }
        candidates.append(app);
    }
    QJsonArray available;
    for (const auto& app : apps.value())
        available.append(QJsonObject{{QStringLiteral("name"), app.name},
                                     {QStringLiteral("executable"), app.executable},
                                     {QStringLiteral("pid"), app.pid}});
    // The window manager's windows: a route's nativeId names one of them, its titlePattern may
    // name one by the window manager's title, and without a route the active one is the target.
    const bool frontmost =
        !route.pid && !route.bundleId && !route.windowTitlePattern && !route.windowHandle && !route.windowNativeId;
    // Read once, and for a titlePattern only when an accessible name does not match it (a route
    // polled by waitUntil pays nothing more).
    QList<X11Session::WindowFacts> stacked;
    bool stackedRead = false;
    const auto readStacked = [&]() -> const QList<X11Session::WindowFacts>& {
        if (!std::exchange(stackedRead, true))
            stacked = m_x11.stackedWindows();
        return stacked;
    };
    if (route.windowNativeId || frontmost)
        readStacked();
    std::optional<X11Session::WindowFacts> named; // the X window the route names, or the active one
    const quint64 wantedNative = route.windowNativeId ? *route.windowNativeId : frontmost ? m_x11.activeWindow() : 0;
    for (const auto& facts : std::as_const(stacked)) {
        if (wantedNative != 0 && facts.window.window == wantedNative)
            named = facts;
    }
    if (route.windowNativeId && !named)
        return Error::make(ErrorCode::ElementNotFound,
                           QStringLiteral("no window has the route's nativeId 0x%1").arg(*route.windowNativeId, 0, 16),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    // Whether the named window's app is known by its pid; when not (no _NET_WM_PID, or a pid
    // the bus does not know), it is looked for by its title among every app's windows.
    bool namedByPid = false;
    if (named) {
        if (named->window.pid == m_ownPid)
            return Error::make(ErrorCode::CallerForbidden,
                               QStringLiteral("the window \"%1\" is the host's own").arg(named->window.title),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("host_itself")}});
        const auto owns = [&](const App& app) { return named->window.pid > 0 && app.pid == named->window.pid; };
        namedByPid = std::any_of(apps->cbegin(), apps->cend(), owns);
        if (namedByPid) {
            // Only the app that owns that window: input never goes to another app than the one
            // the person sees in front (or the one the route names).
            QList<App> owners;
            std::copy_if(candidates.cbegin(), candidates.cend(), std::back_inserter(owners), owns);
            if (owners.isEmpty())
                return Error::make(ErrorCode::ElementNotFound,
                                   QStringLiteral("the window with nativeId 0x%1 is not the route's app's")
                                       .arg(named->window.window, 0, 16),
                                   QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
            candidates = owners;
        }
    }
    if (candidates.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no accessible application matches the route"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("app_not_found")},
                                       {QStringLiteral("apps"), available}});

    const bool explicitApp = route.pid || route.bundleId;
    const QRegularExpression titlePattern(route.windowTitlePattern.value_or(QString()));
    struct Choice
    {
        App app;
        Window window;
        int rank = -1;
        QList<Window> siblings; ///< every window of the app
    };
    Choice best;
    QJsonArray skipped;
    // Later apps in the registry are newer: on equal rank the newest wins.
    for (const auto& app : candidates) {
        if (m_bus.stillHung(app, context)) {
            if (explicitApp && candidates.size() == 1)
                return *m_bus.refuseHung(app);
            skipped.append(app.name);
            continue;
        }
        const int timeout = explicitApp ? m_bus.callTimeout(context) : context.callTimeoutMs(Atspi::kDiscoveryCapMs);
        auto windows = windowsOf(app, context, timeout);
        if (!windows) {
            if (windows.error().code == ErrorCode::Aborted || windows.error().code == ErrorCode::Timeout ||
                (explicitApp && candidates.size() == 1))
                return windows.error();
            skipped.append(app.name);
            continue;
        }
        // The X window of each of the app's windows, paired when first needed.
        std::optional<QList<quint64>> natives;
        const auto nativeAt = [&](qsizetype i) {
            if (!natives)
                natives = nativeWindowsOf(app.pid, windows.value(), readStacked());
            return natives->at(i);
        };
        for (qsizetype i = 0; i < windows->size(); ++i) {
            const Window& window = windows->at(i);
            // The accessible name or the window manager's title (a dialog listed as "Confirm
            // File Format" may be named "Question" in its tree).
            if (route.windowTitlePattern && !titlePattern.match(window.title).hasMatch() &&
                !(nativeAt(i) != 0 && titlePattern.match(titleOf(stacked, nativeAt(i))).hasMatch()))
                continue;
            if (route.windowHandle && window.ref.handle() != *route.windowHandle)
                continue;
            if (route.windowNativeId && nativeAt(i) != *route.windowNativeId)
                continue;
            // Rank: the window the window manager calls active first, then the one the app
            // says is active, then any showing one, then the rest.
            int rank = window.active ? 3 : window.showing ? 2 : 1;
            if (named && (namedByPid ? nativeAt(i) == named->window.window
                                     : window.showing && window.title == named->window.title))
                rank = 4;
            if (rank >= best.rank) {
                best = Choice{app, window, rank, windows.value()};
            }
        }
    }
    if (named && (namedByPid ? best.rank < 0 : best.rank < 4)) {
        // Not known to be without accessibility while an app that may own it did not answer.
        if (!skipped.isEmpty())
            return Error::make(ErrorCode::TargetUnresponsive,
                               QStringLiteral("cannot tell the window \"%1\": %2 did not answer")
                                   .arg(named->window.title, skipped.at(0).toString()),
                               QJsonObject{{QStringLiteral("unresponsive"), skipped}});
        if (!namedByPid || frontmost)
            return bareRoute(*named, frontmost);
        // Its app is accessible and lists no window that is it.
        return Error::make(ErrorCode::ElementNotFound,
                           QStringLiteral("no accessible window of pid %1 is the window 0x%2")
                               .arg(named->window.pid)
                               .arg(named->window.window, 0, 16),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    }
    if (best.rank < 0 && route.windowTitlePattern && skipped.isEmpty()) {
        // A window the window manager lists by that title whose process no accessible app is:
        // the topmost showing one (keys, the pointer and capture reach it; reads say why not).
        const auto& all = readStacked();
        for (qsizetype i = all.size() - 1; i >= 0; --i) { // topmost first
            const auto& facts = all.at(i);
            if (!facts.viewable || facts.window.pid == m_ownPid || !titlePattern.match(facts.window.title).hasMatch())
                continue;
            if (route.pid && facts.window.pid != *route.pid)
                continue;
            const bool accessible =
                std::any_of(apps->cbegin(), apps->cend(), [&](const App& app) { return app.pid == facts.window.pid; });
            if (!accessible && !route.bundleId)
                return bareRoute(facts, false);
        }
    }
    if (best.rank < 0) {
        return Error::make(ErrorCode::ElementNotFound,
                           route.windowHandle ? QStringLiteral("no window has the route's window id (it closed, or "
                                                               "its app restarted)")
                           : route.windowTitlePattern ? QStringLiteral("no window matches the route's titlePattern")
                                                      : QStringLiteral("the application has no window"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")},
                                       {QStringLiteral("apps"), available},
                                       {QStringLiteral("unresponsive"), skipped}});
    }
    if (frontmost && best.rank < 3 && !skipped.isEmpty()) {
        // No active window among the apps that answered, while others did not answer: the
        // frontmost may be one of those.
        return Error::make(
            ErrorCode::TargetUnresponsive,
            QStringLiteral("cannot tell the frontmost window: %1 did not answer").arg(skipped.at(0).toString()),
            QJsonObject{{QStringLiteral("unresponsive"), skipped}});
    }
    ResolvedRoute resolved;
    resolved.appName = best.app.name;
    resolved.bundleId = best.app.executable.isEmpty() ? best.app.name : best.app.executable;
    resolved.pid = best.app.pid;
    resolved.windowTitle = best.window.title;
    resolved.appHandle = best.app.root.handle();
    resolved.windowHandle = best.window.ref.handle();
    resolved.windowFocused = best.window.active;
    // A modal dialog of the same app, showing, blocks every other window of it.
    // Accessibility says modal (GTK), or the window manager does (Qt 6.4 says so only there).
    const auto isModal = [&](const Window& w) {
        return w.modal || m_x11.isModal(m_x11.findWindow(best.app.pid, w.title, true));
    };
    if (best.siblings.size() > 1 && !isModal(best.window)) {
        for (const Window& other : best.siblings) {
            if (other.showing && !(other.ref == best.window.ref) && isModal(other)) {
                resolved.blockingModal = other.title;
                break;
            }
        }
    }
    return resolved;
}

} // namespace Automation
