// Pointer gestures (XTest) and window actions (EWMH) of the Linux backend.
#include "automation/backends/atspi/AtspiApps.h"
#include "automation/backends/atspi/AtspiInput.h"
#include "automation/backends/atspi/AtspiVerifier.h"
#include "automation/backends/atspi/X11Session.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>

#include <cmath>

namespace Automation {

using namespace Atspi;

namespace {

constexpr int kClickHoldMs = 30;
constexpr int kClickGapMs = 80;

// Sleeps `ms` in short slices; false as soon as the call is cancelled.
bool pause(int ms, const CallContext& context)
{
    QDeadlineTimer until(ms);
    while (!until.hasExpired()) {
        if (context.checkpoint())
            return false;
        QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(until.remainingTime(), 1, 20)));
    }
    return !context.checkpoint();
}

QJsonObject pointJson(QPoint p)
{
    return QJsonObject{{QStringLiteral("x"), p.x()}, {QStringLiteral("y"), p.y()}};
}

Frame frameOf(const QRect& rect)
{
    return Frame{rect.x(), rect.y(), rect.width(), rect.height()};
}

} // namespace

Result<ActionOutcome> AtspiInput::pointer(const ResolvedRoute& route, const PointerGesture& gesture,
                                          const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const App app = m_apps.appOf(route, context);
    const AtspiVerifier::Baseline before = m_verifier.baseline(app, nullptr, context);
    QString error;
    int held = 0; // the button down now, released whatever happens next
    const auto release = [&] {
        if (held) {
            QString ignored;
            m_x11.pointerButton(held, false, &ignored);
            held = 0;
        }
    };
    const auto fail = [&](const QString& what) -> Error {
        release();
        if (auto stop = context.checkpoint())
            return *stop;
        return Error::make(ErrorCode::PermissionMissing, what);
    };
    if (!m_x11.movePointer(gesture.at, &error))
        return fail(error);
    QJsonObject details{{QStringLiteral("gesture"), gestureName(gesture.kind)},
                        {QStringLiteral("at"), pointJson(gesture.at)},
                        {QStringLiteral("button"), gesture.button}};
    switch (gesture.kind) {
    case PointerGesture::Kind::Move:
        break;
    case PointerGesture::Kind::Click:
        // Timed like a person's clicks: a button held ~30 ms, ~80 ms between the clicks of a
        // double or triple click (well inside the toolkits' 400 ms double-click interval). Sent
        // back to back, Qt's xcb input merged a double click's second press and release away
        // (the app saw one click in about one run of six).
        for (int i = 0; i < gesture.count; ++i) {
            if ((i > 0 && !pause(kClickGapMs, context)) || context.checkpoint() ||
                !m_x11.pointerButton(gesture.button, true, &error))
                return fail(error.isEmpty() ? QStringLiteral("cancelled") : error);
            held = gesture.button;
            if (!pause(kClickHoldMs, context))
                return fail(QStringLiteral("cancelled"));
            if (!m_x11.pointerButton(gesture.button, false, &error))
                return fail(error);
            held = 0;
        }
        details.insert(QStringLiteral("count"), gesture.count);
        break;
    case PointerGesture::Kind::Press:
        if (!m_x11.pointerButton(gesture.button, true, &error))
            return fail(error);
        held = gesture.button;
        if (!pause(gesture.holdMs, context))
            return fail(QStringLiteral("cancelled"));
        release();
        details.insert(QStringLiteral("holdMs"), gesture.holdMs);
        break;
    case PointerGesture::Kind::Drag: {
        if (!m_x11.pointerButton(gesture.button, true, &error))
            return fail(error);
        held = gesture.button;
        if (!pause(gesture.holdMs, context))
            return fail(QStringLiteral("cancelled"));
        // Steps of about 16 ms, so toolkits see a motion, not a jump.
        const int steps = std::max(2, gesture.durationMs / 16);
        for (int i = 1; i <= steps; ++i) {
            const QPoint p(gesture.at.x() + (gesture.to.x() - gesture.at.x()) * i / steps,
                           gesture.at.y() + (gesture.to.y() - gesture.at.y()) * i / steps);
            if (!m_x11.movePointer(p, &error))
                return fail(error);
            if (!pause(gesture.durationMs / steps, context))
                return fail(QStringLiteral("cancelled"));
        }
        release();
        details.insert(QStringLiteral("to"), pointJson(gesture.to));
        details.insert(QStringLiteral("steps"), steps);
        details.insert(QStringLiteral("holdMs"), gesture.holdMs);
        details.insert(QStringLiteral("durationMs"), gesture.durationMs);
        break;
    }
    }
    const QPoint expectedAt = gesture.kind == PointerGesture::Kind::Drag ? gesture.to : gesture.at;
    const auto position = m_x11.pointerPosition();
    if (position)
        details.insert(QStringLiteral("pointerAfter"), pointJson(*position));
    Verification v;
    if (gesture.kind == PointerGesture::Kind::Move) {
        // A hover's own effect is the pointer being there; what the app does about it (a
        // tooltip, a highlight) is reported but not required.
        v = m_verifier.verifyChange(app, before, QStringLiteral("the pointer at the point"), 300, context);
        const bool there = position && *position == expectedAt;
        v.observed.insert(QStringLiteral("pointerAt"), position ? QJsonValue(pointJson(*position)) : QJsonValue());
        v.observed.insert(QStringLiteral("appChanged"), v.effect == Effect::Confirmed);
        v.expected = QStringLiteral("the pointer at the point");
        v.effect = there ? Effect::Confirmed : Effect::SuspectedNoop;
        v.reason = there ? QString() : QStringLiteral("the pointer is not where it was moved");
    } else {
        v = m_verifier.verifyChange(app, before,
                                    QStringLiteral("a change in the app after the %1").arg(gestureName(gesture.kind)),
                                    600, context);
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("pointer")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("pointer"), v.effect == Effect::Confirmed, details, v};
}

Result<QList<WindowInfo>> AtspiInput::windows(const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    QString error;
    if (!m_x11.open(&error))
        return Error::make(ErrorCode::PermissionMissing, error);
    QHash<qint64, QString> names, executables;
    if (auto apps = m_apps.listApps(context)) {
        for (const App& app : apps.value()) {
            names.insert(app.pid, app.name);
            executables.insert(app.pid, app.executable);
        }
    } else if (apps.error().code == ErrorCode::Aborted || apps.error().code == ErrorCode::Timeout) {
        return apps.error();
    }
    const qint64 own = QCoreApplication::applicationPid();
    QList<WindowInfo> out;
    for (const auto& facts : m_x11.stackedWindows()) {
        if (facts.window.pid == own)
            continue; // the host never automates its own windows
        WindowInfo info;
        info.title = facts.window.title;
        info.pid = facts.window.pid;
        info.appName = names.value(facts.window.pid);
        info.executable = executables.value(facts.window.pid);
        info.frame = frameOf(facts.window.rect);
        info.active = facts.active;
        info.minimized = facts.hidden;
        info.maximized = facts.maximized;
        info.visible = facts.viewable;
        info.nativeId = QStringLiteral("0x%1").arg(facts.window.window, 0, 16);
        out.append(info);
    }
    return out;
}

Result<ActionOutcome> AtspiInput::windowCommand(const ResolvedRoute& route, const WindowCommand& command,
                                                const CallContext& context)
{
    using Action = WindowCommand::Action;
    if (auto stop = context.checkpoint())
        return *stop;
    const quint64 window = m_x11.findWindow(route.pid, route.windowTitle);
    const auto before = window ? m_x11.windowFacts(window) : std::nullopt;
    if (!before)
        return Error::make(
            ErrorCode::ElementNotFound,
            QStringLiteral("the window manager lists no window \"%1\" of pid %2").arg(route.windowTitle).arg(route.pid),
            QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    QString error;
    const QRect rect(command.position, command.size);
    bool sent = true;
    switch (command.action) {
    case Action::Focus:
        sent = m_x11.activate(window, static_cast<int>(std::min<qint64>(1000, context.remainingMs())),
                              [&context] { return context.checkpoint().has_value(); });
        break;
    case Action::Minimize:
        sent = m_x11.requestWindow(window, X11Session::WindowRequest::Minimize, {}, false, false, &error);
        break;
    case Action::Maximize:
        sent = m_x11.requestWindow(window, X11Session::WindowRequest::Maximize, {}, false, false, &error);
        break;
    case Action::Restore:
        sent = m_x11.requestWindow(window, X11Session::WindowRequest::Restore, {}, false, false, &error);
        break;
    case Action::Close:
        sent = m_x11.requestWindow(window, X11Session::WindowRequest::Close, {}, false, false, &error);
        break;
    case Action::Move:
        sent = m_x11.requestWindow(window, X11Session::WindowRequest::MoveResize, rect, true, false, &error);
        break;
    case Action::Resize:
        sent = m_x11.requestWindow(window, X11Session::WindowRequest::MoveResize, rect, false, true, &error);
        break;
    }
    if (!sent) {
        if (auto stop = context.checkpoint())
            return *stop;
        return Error::make(ErrorCode::PermissionMissing, error);
    }
    // What the window manager did, read back until it shows or a second has passed.
    const auto done = [&](const std::optional<X11Session::WindowFacts>& now) {
        switch (command.action) {
        case Action::Close:
            return !now.has_value();
        case Action::Focus:
            return now && now->active;
        case Action::Minimize:
            return now && now->hidden;
        case Action::Maximize:
            return now && now->maximized;
        case Action::Restore:
            return now && !now->hidden && !now->maximized && now->viewable;
        case Action::Move:
            return now && (now->window.rect.topLeft() - command.position).manhattanLength() <= 2;
        case Action::Resize:
            return now && std::abs(now->window.rect.width() - command.size.width()) <= 2 &&
                   std::abs(now->window.rect.height() - command.size.height()) <= 2;
        }
        return false;
    };
    QElapsedTimer timer;
    timer.start();
    std::optional<X11Session::WindowFacts> after = m_x11.windowFacts(window);
    while (!done(after) && timer.elapsed() < 1000 && pause(25, context))
        after = m_x11.windowFacts(window);
    if (auto stop = context.checkpoint())
        return *stop;
    const auto describe = [](const std::optional<X11Session::WindowFacts>& facts) -> QJsonValue {
        if (!facts)
            return QJsonValue(QStringLiteral("gone"));
        return QJsonObject{{QStringLiteral("frame"), frameOf(facts->window.rect).toJson()},
                           {QStringLiteral("active"), facts->active},
                           {QStringLiteral("minimized"), facts->hidden},
                           {QStringLiteral("maximized"), facts->maximized},
                           {QStringLiteral("visible"), facts->viewable}};
    };
    Verification v;
    v.expected = QStringLiteral("the window manager shows the window %1").arg(windowActionName(command.action));
    v.observed = QJsonObject{{QStringLiteral("before"), describe(before)}, {QStringLiteral("after"), describe(after)}};
    v.verifyMs = timer.elapsed();
    if (done(after)) {
        v.effect = Effect::Confirmed;
    } else {
        v.effect = Effect::SuspectedNoop;
        v.reason = command.action == Action::Close
                       ? QStringLiteral("the window is still open (the app may be asking something first)")
                       : QStringLiteral("the window manager did not do it within a second");
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("windowManager")},
                               {QStringLiteral("effect"), effectName(v.effect)}});
    return ActionOutcome{QStringLiteral("windowManager"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("action"), windowActionName(command.action)},
                                     {QStringLiteral("nativeId"), QStringLiteral("0x%1").arg(window, 0, 16)}},
                         v};
}

} // namespace Automation
