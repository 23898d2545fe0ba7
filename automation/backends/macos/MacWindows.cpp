// The macOS backend's windows (MacBackend.h): the window server's list and window actions,
// each read back from the window itself.
#include "automation/backends/macos/MacBackendPrivate.h"

namespace Automation::Mac {

Result<QList<DisplayInfo>> MacBackend::displays(const CallContext& context)
{
    Q_UNUSED(context)
    // CoreGraphics' active displays, the main one (with the menu bar) first; the id is the
    // CGDirectDisplayID, as route.display takes it.
    QList<DisplayInfo> out;
    for (const Display& display : m_api->displays()) {
        DisplayInfo info;
        info.id = QString::number(display.id);
        info.name = display.builtIn ? QStringLiteral("Built-in display") : QStringLiteral("Display %1").arg(display.id);
        info.frame = Frame{qRound(display.frame.x()), qRound(display.frame.y()), qRound(display.frame.width()),
                           qRound(display.frame.height())};
        info.scale = display.scale;
        info.primary = out.isEmpty();
        out.append(info);
    }
    if (out.isEmpty())
        return Error::make(ErrorCode::InternalError, QStringLiteral("CoreGraphics lists no active display"));
    return out;
}

Result<QList<WindowInfo>> MacBackend::windows(const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    QHash<qint64, RunningApp> apps;
    for (const auto& app : m_api->runningApplications())
        apps.insert(app.pid, app);
    const qint64 front = d->frontmostPid();
    QList<WindowInfo> out;
    bool activeSeen = false;
    // The window server lists front to back; the contract's order is bottom to top.
    for (const auto& w : m_api->windowList()) {
        if (w.layer != 0 || w.pid == d->ownPid)
            continue;
        // What a person can see as a window: not an invisible overlay, not a 1x1 focus proxy,
        // not a window of a process that is no regular app (defect 18).
        if (w.alpha <= 0.0 || w.bounds.width() <= 1 || w.bounds.height() <= 1 || !apps.value(w.pid).regular)
            continue;
        WindowInfo info;
        info.title = w.title;
        info.pid = w.pid;
        info.appName = apps.value(w.pid).name;
        info.executable = QFileInfo(apps.value(w.pid).executable).fileName();
        info.frame = Frame{static_cast<int>(w.bounds.x()), static_cast<int>(w.bounds.y()),
                           static_cast<int>(w.bounds.width()), static_cast<int>(w.bounds.height())};
        // Off screen is not minimized (another Space, a hidden app): the window server cannot
        // tell, so minimized stays false here; desktop.window reads AXMinimized itself.
        info.visible = w.onScreen;
        info.active = !activeSeen && w.onScreen && w.pid == front;
        activeSeen = activeSeen || info.active;
        info.nativeId = QString::number(w.number);
        out.prepend(info);
    }
    return out;
}

Result<ActionOutcome> MacBackend::windowCommand(const ResolvedRoute& route, const WindowCommand& command,
                                                const CallContext& context)
{
    using Action = WindowCommand::Action;
    if (auto stop = context.checkpoint())
        return *stop;
    const auto window = d->element(route.windowHandle);
    if (!window)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the route's window is no longer known"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    struct Facts
    {
        Frame frame;
        bool minimized = false;
        bool focused = false;
        bool fullScreen = false; ///< in a full-screen Space: not what maximize means
    };
    const AxElement app = m_api->applicationElement(route.pid);
    // The window as AX shows it now; nullopt once it is gone.
    const auto facts = [&]() -> Result<std::optional<Facts>> {
        auto r = d->read(route.pid, *window,
                         {QStringLiteral("AXPosition"), QStringLiteral("AXSize"), QStringLiteral("AXMinimized"),
                          QStringLiteral("AXFullScreen")},
                         context, QStringLiteral("about its window"));
        if (!r) {
            if (r.error().code == ErrorCode::ElementNotFound)
                return std::optional<Facts>();
            return r.error();
        }
        auto focused =
            d->read(route.pid, app, {QStringLiteral("AXFocusedWindow"), QStringLiteral("AXWindows")}, context);
        if (!focused)
            return focused.error();
        if (!focused->at(1).value.elements.contains(*window))
            return std::optional<Facts>();
        return std::optional<Facts>(Facts{frameOf(r->at(0), r->at(1)), boolOf(r->at(2)),
                                          d->frontmostPid() == route.pid && focused->at(0).value.element == *window,
                                          boolOf(r->at(3))});
    };
    auto before = facts();
    if (!before)
        return before.error();
    if (!before.value())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the window is gone"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    const Frame old = before.value()->frame;
    // macOS has no maximized state: a window that fills its display (but for the menu bar and
    // the Dock) is taken as zoomed.
    const auto fills = [displays = m_api->displays()](const Frame& f) {
        const QPointF centre(f.x + f.width / 2.0, f.y + f.height / 2.0);
        for (const Display& display : displays)
            if (display.frame.contains(centre))
                return f.width >= display.frame.width() - 24 && f.height >= display.frame.height() - 120;
        return false;
    };
    const bool wasZoomed = fills(old);
    // A title-bar button (close, zoom) by its attribute, pressed.
    const auto pressButton = [&](const QString& attribute) -> AxError {
        auto button = d->read(route.pid, *window, {attribute}, context);
        if (!button || button->at(0).error != AxError::Success || button->at(0).value.element.isNull())
            return AxError::AttributeUnsupported;
        return m_api->performAction(button->at(0).value.element, QStringLiteral("AXPress"));
    };
    // Zoom, never full screen: since 10.10 the green button of a window that can go full screen
    // is an AXFullScreenButton, whose press enters full screen (a Space of its own); its zoom is
    // the extra action AXZoomWindow. A button with neither zooms by its press (older windows).
    const auto zoom = [&]() -> AxError {
        auto button = d->read(route.pid, *window, {QStringLiteral("AXZoomButton")}, context);
        if (!button || button->at(0).error != AxError::Success || button->at(0).value.element.isNull())
            return AxError::AttributeUnsupported;
        const AxElement green = button->at(0).value.element;
        QStringList actions;
        if (const AxError listed = m_api->actionNames(green, &actions); listed != AxError::Success)
            return listed;
        if (actions.contains(QStringLiteral("AXZoomWindow")))
            return m_api->performAction(green, QStringLiteral("AXZoomWindow"));
        auto subrole = d->read(route.pid, green, {QStringLiteral("AXSubrole")}, context);
        if (subrole && stringOf(subrole->at(0)) == QLatin1String("AXFullScreenButton")) {
            // No zoom action: the display's visible frame set directly.
            const QList<Display> displays = m_api->displays();
            if (displays.isEmpty())
                return AxError::Failure;
            const QRectF visible = displays.constFirst().frame.adjusted(0, 25, 0, 0);
            const AxError moved =
                m_api->setAttribute(*window, QStringLiteral("AXPosition"), AxValue::ofPoint(visible.topLeft()));
            return moved == AxError::Success
                       ? m_api->setAttribute(*window, QStringLiteral("AXSize"), AxValue::ofSize(visible.size()))
                       : moved;
        }
        return m_api->performAction(green, QStringLiteral("AXPress"));
    };
    AxError sent = AxError::Success;
    switch (command.action) {
    case Action::Focus: {
        Status focused = focusWindow(route, context);
        if (!focused && focused.error().code != ErrorCode::FocusLost)
            return focused.error();
        break;
    }
    case Action::Minimize:
        sent = m_api->setAttribute(*window, QStringLiteral("AXMinimized"), AxValue::ofBool(true));
        break;
    case Action::Restore:
        // Out of the Dock, out of full screen, or back from zoomed to its own size (zoom toggles).
        if (before.value()->minimized)
            sent = m_api->setAttribute(*window, QStringLiteral("AXMinimized"), AxValue::ofBool(false));
        else if (before.value()->fullScreen)
            sent = m_api->setAttribute(*window, QStringLiteral("AXFullScreen"), AxValue::ofBool(false));
        else if (wasZoomed)
            sent = zoom();
        break;
    case Action::Maximize:
        // macOS "zooms" a window to fill the screen, and zoom toggles, so a window that fills its
        // display already is left as it is.
        if (before.value()->fullScreen)
            sent = m_api->setAttribute(*window, QStringLiteral("AXFullScreen"), AxValue::ofBool(false));
        if (!wasZoomed || before.value()->fullScreen)
            sent = sent == AxError::Success ? zoom() : sent;
        break;
    case Action::Close:
        sent = pressButton(QStringLiteral("AXCloseButton"));
        break;
    case Action::Move:
        sent = m_api->setAttribute(*window, QStringLiteral("AXPosition"), AxValue::ofPoint(QPointF(command.position)));
        break;
    case Action::Resize:
        sent = m_api->setAttribute(*window, QStringLiteral("AXSize"), AxValue::ofSize(QSizeF(command.size)));
        break;
    }
    if (sent == AxError::ApiDisabled)
        return Private::permissionMissing();
    if (sent != AxError::Success && sent != AxError::CannotComplete)
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("the window does not take \"%1\" (%2)")
                               .arg(windowActionName(command.action), axErrorName(sent)),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("unsupported")}});
    const auto done = [&](const std::optional<Facts>& now) {
        switch (command.action) {
        case Action::Close:
            return !now.has_value();
        case Action::Focus:
            return now && now->focused;
        case Action::Minimize:
            return now && now->minimized;
        case Action::Restore:
            return now && !now->minimized && !now->fullScreen &&
                   (before.value()->minimized || before.value()->fullScreen || !wasZoomed || !fills(now->frame));
        case Action::Maximize:
            return now && !now->minimized && !now->fullScreen && fills(now->frame);
        case Action::Move:
            return now &&
                   std::abs(now->frame.x - command.position.x()) + std::abs(now->frame.y - command.position.y()) <= 2;
        case Action::Resize:
            return now && std::abs(now->frame.width - command.size.width()) <= 2 &&
                   std::abs(now->frame.height - command.size.height()) <= 2;
        }
        return false;
    };
    QElapsedTimer timer;
    timer.start();
    auto after = facts();
    while (after && !done(after.value()) && timer.elapsed() < 1000 && !context.checkpoint()) {
        m_api->pumpNotifications(10);
        QThread::msleep(25);
        after = facts();
    }
    if (auto stop = context.checkpoint())
        return stop->withRetryable(false);
    if (!after)
        return Error(after.error()).withRetryable(false);
    const auto describe = [](const std::optional<Facts>& f) -> QJsonValue {
        if (!f)
            return QJsonValue(QStringLiteral("gone"));
        return QJsonObject{{QStringLiteral("frame"), f->frame.toJson()},
                           {QStringLiteral("minimized"), f->minimized},
                           {QStringLiteral("active"), f->focused}};
    };
    Verification v;
    v.expected = QStringLiteral("the window shows itself %1").arg(windowActionName(command.action));
    v.observed = QJsonObject{{QStringLiteral("before"), describe(before.value())},
                             {QStringLiteral("after"), describe(after.value())}};
    v.verifyMs = timer.elapsed();
    if (done(after.value())) {
        v.effect = Effect::Confirmed;
    } else {
        v.effect = Effect::SuspectedNoop;
        v.reason = command.action == Action::Close
                       ? QStringLiteral("the window is still open (the app may be asking something first)")
                       : QStringLiteral("the window did not do it within a second");
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("accessibility")},
                               {QStringLiteral("effect"), effectName(v.effect)}});
    return ActionOutcome{QStringLiteral("accessibility"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("action"), windowActionName(command.action)},
                                     {QStringLiteral("window"), route.windowTitle}},
                         v};
}

} // namespace Automation::Mac
