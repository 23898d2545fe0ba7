#include "automation/backends/atspi/AtspiApps.h"

#include "automation/backends/atspi/AtspiRoles.h"
#include "automation/backends/atspi/X11Session.h"
#include "automation/platform/ProcessInfo.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

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
        for (const auto& window : windows.value()) {
            if (route.windowTitlePattern && !titlePattern.match(window.title).hasMatch())
                continue;
            if (route.windowHandle && window.ref.handle() != *route.windowHandle)
                continue;
            // Rank: the active window first, then any showing one, then the rest.
            const int rank = window.active ? 3 : window.showing ? 2 : 1;
            if (rank >= best.rank) {
                best = Choice{app, window, rank, windows.value()};
            }
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
    if (!explicitApp && !route.windowTitlePattern && !route.windowHandle && best.rank < 3 && !skipped.isEmpty()) {
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
