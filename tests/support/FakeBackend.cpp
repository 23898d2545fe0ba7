#include "FakeBackend.h"

#include "automation/platform/ProcessInfo.h"

#include <QBuffer>
#include <QDeadlineTimer>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QThread>

#include <csignal>

namespace Testing {

using namespace Automation;

namespace {

Node makeNode(const QString& role, const QString& nativeRole, const QString& title, Frame frame, quint32 states,
              QStringList actions, int parent)
{
    Node node;
    node.role = role;
    node.nativeRole = nativeRole;
    node.title = title;
    node.frame = frame;
    node.states = states;
    node.actions = std::move(actions);
    node.parent = parent;
    return node;
}

constexpr quint32 kNormal = StateEnabled | StateVisible | StateShowing;

} // namespace

FakeDesktop::FakeDesktop()
{
    setTree(defaultTree());
    m_window.title = QStringLiteral("Fake Window");
    m_window.pid = 4242;
    m_window.appName = QStringLiteral("Fake App");
    m_window.frame = {0, 0, 800, 600};
    m_window.active = true;
    m_window.visible = true;
    m_displays = {DisplayInfo{QStringLiteral("FAKE-0"), QStringLiteral("FAKE-0"), Frame{0, 0, 1280, 1024}, 1.0, true}};
}

QList<Node> FakeDesktop::defaultTree()
{
    QList<Node> nodes;
    nodes.append(makeNode(QStringLiteral("AXWindow"), QStringLiteral("frame"), QStringLiteral("Fake Window"),
                          {0, 0, 800, 600}, kNormal | StateActive, {}, -1));
    Node field = makeNode(QStringLiteral("AXTextField"), QStringLiteral("text"), QStringLiteral("Message"),
                          {10, 10, 300, 24}, kNormal | StateEditable | StateFocusable, {}, 0);
    field.hasValue = true;
    nodes.append(field);
    nodes.append(makeNode(QStringLiteral("AXButton"), QStringLiteral("push button"), QStringLiteral("Send"),
                          {320, 10, 80, 24}, kNormal | StateFocusable, {QStringLiteral("press")}, 0));
    nodes.append(makeNode(QStringLiteral("AXButton"), QStringLiteral("push button"), QStringLiteral("Cancel"),
                          {410, 10, 80, 24}, StateVisible | StateShowing, {QStringLiteral("press")}, 0));
    Node status = makeNode(QStringLiteral("AXStaticText"), QStringLiteral("label"), QStringLiteral("Status"),
                           {10, 50, 200, 20}, kNormal, {}, 0);
    status.hasValue = true;
    status.value = QStringLiteral("idle");
    nodes.append(status);
    Node secret = makeNode(QStringLiteral("AXTextField"), QStringLiteral("password text"), QStringLiteral("Password"),
                           {10, 80, 300, 24}, kNormal | StateEditable | StateSecure, {}, 0);
    secret.subrole = QStringLiteral("AXSecureTextField");
    nodes.append(secret);
    nodes.append(makeNode(QStringLiteral("AXImage"), QStringLiteral("image"), QStringLiteral("Logo"),
                          {600, 500, 64, 64}, kNormal, {}, 0));
    return nodes;
}

QList<Node> FakeDesktop::gridTree(int rows, int columns)
{
    QList<Node> nodes;
    Node window;
    window.role = QStringLiteral("AXWindow");
    window.title = QStringLiteral("Fake Window");
    window.frame = {0, 0, 800, 600};
    window.states = StateVisible | StateShowing | StateEnabled;
    nodes.append(window);
    Node table = window;
    table.role = QStringLiteral("AXTable");
    table.title = QStringLiteral("Grid");
    table.parent = 0;
    nodes.append(table);
    for (int r = 0; r < rows; ++r) {
        Node row = table;
        row.role = QStringLiteral("AXRow");
        row.title = QStringLiteral("Row %1").arg(r);
        row.parent = 1;
        nodes.append(row);
        const int rowIndex = static_cast<int>(nodes.size()) - 1;
        for (int c = 0; c < columns; ++c) {
            Node cell = row;
            cell.role = QStringLiteral("AXCell");
            cell.title = QStringLiteral("R%1C%2").arg(r).arg(c);
            cell.parent = rowIndex;
            nodes.append(cell);
        }
    }
    return nodes;
}

void FakeDesktop::setTree(QList<Node> nodes)
{
    QMutexLocker lock(&m_mutex);
    for (Node& node : nodes) {
        node.children.clear();
        node.handle = QStringLiteral("h:") + node.title + QLatin1Char(':') + node.role;
    }
    for (int i = 0; i < nodes.size(); ++i) {
        if (nodes[i].parent >= 0) {
            nodes[i].path = nodes[nodes[i].parent].path;
            nodes[i].path.append(static_cast<int>(nodes[nodes[i].parent].children.size()));
            nodes[nodes[i].parent].children.append(i);
        }
    }
    m_nodes = std::move(nodes);
}

Snapshot FakeDesktop::snapshotNow()
{
    QMutexLocker lock(&m_mutex);
    Snapshot snapshot;
    snapshot.appName = QStringLiteral("Fake App");
    snapshot.bundleId = QStringLiteral("fake-app");
    snapshot.pid = 4242;
    snapshot.windowTitle = QStringLiteral("Fake Window");
    snapshot.nodes = m_nodes;
    snapshot.takenAt = QDateTime::currentDateTimeUtc();
    return snapshot;
}

void FakeDesktop::setDelay(const QString& operation, Delay delay)
{
    QMutexLocker lock(&m_mutex);
    m_delays.insert(operation, delay);
}

void FakeDesktop::setFailure(const QString& operation, std::optional<Error> error)
{
    QMutexLocker lock(&m_mutex);
    if (error)
        m_failures.insert(operation, *error);
    else
        m_failures.remove(operation);
}

void FakeDesktop::setFocused(bool focused)
{
    QMutexLocker lock(&m_mutex);
    m_focused = focused;
}

void FakeDesktop::onPress(std::function<void(FakeDesktop&, const Node&)> hook)
{
    QMutexLocker lock(&m_mutex);
    m_onPress = std::move(hook);
}

QStringList FakeDesktop::effects() const
{
    QMutexLocker lock(&m_mutex);
    return m_effects;
}

void FakeDesktop::clearEffects()
{
    QMutexLocker lock(&m_mutex);
    m_effects.clear();
    m_keyTimes.clear();
}

QList<std::chrono::steady_clock::time_point> FakeDesktop::keyTimes() const
{
    QMutexLocker lock(&m_mutex);
    return m_keyTimes;
}

int FakeDesktop::callCount(const QString& operation) const
{
    QMutexLocker lock(&m_mutex);
    return m_calls.value(operation);
}

bool FakeDesktop::sawCancel() const
{
    QMutexLocker lock(&m_mutex);
    return m_sawCancel;
}

int FakeDesktop::focusRequests() const
{
    QMutexLocker lock(&m_mutex);
    return m_focusRequests;
}

void FakeDesktop::addEffect(const QString& effect)
{
    QMutexLocker lock(&m_mutex);
    m_effects.append(effect);
}

void FakeDesktop::addEffectLocked(const QString& effect)
{
    m_effects.append(effect);
}

std::optional<Error> FakeBackend::enter(const QString& operation, const CallContext& context)
{
    FakeDesktop::Delay delay;
    std::optional<Error> failure;
    {
        QMutexLocker lock(&m_desktop->m_mutex);
        m_desktop->m_calls[operation]++;
        delay = m_desktop->m_delays.value(operation);
        if (m_desktop->m_failures.contains(operation))
            failure = m_desktop->m_failures.value(operation);
    }
    QDeadlineTimer until(delay.ms);
    while (!until.hasExpired()) {
        if (!delay.ignoreCancel && context.checkpoint())
            break;
        QThread::msleep(2);
    }
    if (auto stop = context.checkpoint()) {
        QMutexLocker lock(&m_desktop->m_mutex);
        m_desktop->m_sawCancel = true;
        return stop;
    }
    return failure;
}

QJsonObject FakeDesktop::backendSettings() const
{
    QMutexLocker lock(&m_mutex);
    return m_backendSettings;
}

void FakeBackend::configure(const QJsonObject& settings)
{
    QMutexLocker lock(&m_desktop->m_mutex);
    for (auto it = settings.begin(); it != settings.end(); ++it)
        m_desktop->m_backendSettings.insert(it.key(), it.value());
}

BackendInfo FakeBackend::info()
{
    return BackendInfo{QStringLiteral("fake"), true, QStringLiteral("scripted test backend"), {}};
}

Result<ResolvedRoute> FakeBackend::resolveRoute(const Route& route, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("resolveRoute"), context))
        return *err;
    if ((route.bundleId && route.bundleId->compare(QStringLiteral("fake-app"), Qt::CaseInsensitive) != 0) ||
        (route.pid && *route.pid != 4242))
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no such app"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("app_not_found")}});
    if (route.windowHandle && *route.windowHandle != QLatin1String("fake|window"))
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no window has the route's window id"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    ResolvedRoute resolved;
    resolved.appName = QStringLiteral("Fake App");
    resolved.bundleId = QStringLiteral("fake-app");
    resolved.pid = 4242;
    resolved.windowTitle = QStringLiteral("Fake Window");
    resolved.windowHandle = QStringLiteral("fake|window");
    QMutexLocker lock(&m_desktop->m_mutex);
    resolved.windowFocused = m_desktop->m_focused;
    return resolved;
}

Status FakeBackend::focusWindow(const ResolvedRoute&, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("focusWindow"), context))
        return *err;
    QMutexLocker lock(&m_desktop->m_mutex);
    ++m_desktop->m_focusRequests;
    m_desktop->m_focused = true;
    return success();
}

Result<Snapshot> FakeBackend::snapshot(const ResolvedRoute&, const SnapshotBounds& bounds, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("snapshot"), context))
        return *err;
    Snapshot snapshot = m_desktop->snapshotNow();
    snapshot.bounds = bounds;
    if (snapshot.nodes.size() > bounds.maxNodes) {
        snapshot.nodes.resize(bounds.maxNodes);
        for (auto& node : snapshot.nodes)
            node.children.removeIf([&](int child) { return child >= bounds.maxNodes; });
        snapshot.truncated = true;
        snapshot.truncatedReason = QStringLiteral("maxNodes");
    }
    if (!bounds.includeText) {
        for (auto& node : snapshot.nodes) {
            if (node.role == QLatin1String("AXTextField")) {
                node.hasValue = false;
                node.value.clear();
            }
        }
    }
    return snapshot;
}

Result<Screenshot> FakeBackend::screenshot(const CallContext& context)
{
    if (auto err = enter(QStringLiteral("screenshot"), context))
        return *err;
    QImage image(8, 6, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    {
        // Displays set by a test: one screen over them all, each its own colour, as X's root
        // window covers every RandR monitor.
        QMutexLocker lock(&m_desktop->m_mutex);
        if (m_desktop->m_displaysSet) {
            QRect all;
            for (const DisplayInfo& d : std::as_const(m_desktop->m_displays))
                all |= QRect(d.frame.x, d.frame.y, d.frame.width, d.frame.height);
            image = QImage(all.right() + 1, all.bottom() + 1, QImage::Format_RGB32);
            image.fill(Qt::black);
            QPainter painter(&image);
            for (int i = 0; i < m_desktop->m_displays.size(); ++i) {
                const Frame& f = m_desktop->m_displays.at(i).frame;
                painter.fillRect(QRect(f.x, f.y, f.width, f.height), FakeDesktop::displayColour(i));
            }
        }
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return Screenshot{png, image.width(), image.height(), QDateTime::currentDateTimeUtc()};
}

Result<ActionOutcome> FakeBackend::press(const ResolvedRoute&, const Node& element, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("press"), context))
        return *err;
    if (element.actions.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element has no press action"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_action")}});
    m_desktop->addEffect(QStringLiteral("press:") + element.title);
    std::function<void(FakeDesktop&, const Node&)> hook;
    {
        QMutexLocker lock(&m_desktop->m_mutex);
        hook = m_desktop->m_onPress;
    }
    if (hook)
        hook(*m_desktop, element);
    // The fake desktop itself records the press: that is its observable effect.
    return ActionOutcome{QStringLiteral("accessibilityAction:press"), true, {}, [] {
                             Verification v;
                             v.effect = Effect::Confirmed;
                             v.expected = QStringLiteral("the fake desktop recorded the press");
                             return v;
                         }()};
}

Result<ActionOutcome> FakeBackend::clickAt(const ResolvedRoute&, QPoint point, const CallContext& context, const Node*)
{
    if (auto err = enter(QStringLiteral("clickAt"), context))
        return *err;
    m_desktop->addEffect(QStringLiteral("pointer:%1,%2").arg(point.x()).arg(point.y()));
    // A pointer click on the fake desktop changes nothing it could show.
    return ActionOutcome{QStringLiteral("pointer"), false, {}, [] {
                             Verification v;
                             v.effect = Effect::Unverifiable;
                             v.expected = QStringLiteral("a change in the app after the click");
                             v.reason = QStringLiteral("the fake desktop has no app state to compare");
                             return v;
                         }()};
}

Result<ActionOutcome> FakeBackend::pointer(const ResolvedRoute&, const PointerGesture& gesture,
                                           const CallContext& context)
{
    if (auto err = enter(QStringLiteral("pointer"), context))
        return *err;
    QString effect =
        QStringLiteral("pointer:%1:%2,%3").arg(gestureName(gesture.kind)).arg(gesture.at.x()).arg(gesture.at.y());
    if (gesture.kind == PointerGesture::Kind::Drag)
        effect += QStringLiteral("->%1,%2").arg(gesture.to.x()).arg(gesture.to.y());
    effect += QStringLiteral(":b%1x%2").arg(gesture.button).arg(gesture.count);
    m_desktop->addEffect(effect);
    Verification v;
    v.effect = Effect::Unverifiable;
    v.expected = QStringLiteral("a change in the app after the gesture");
    v.reason = QStringLiteral("the fake desktop has no app state to compare");
    return ActionOutcome{QStringLiteral("pointer"), false, {}, v};
}

void FakeDesktop::addLaunchable(const QString& desktopId, const QString& title, int showAfterMs)
{
    QMutexLocker lock(&m_mutex);
    m_launchable.insert(desktopId, Launchable{title, showAfterMs});
}

QList<WindowInfo> FakeDesktop::launchedWindows()
{
    QMutexLocker lock(&m_mutex);
    QList<WindowInfo> out;
    const auto now = std::chrono::steady_clock::now();
    for (const Launched& app : std::as_const(m_launched)) {
        if (!app.closed && now >= app.showsAt && Automation::Platform::processAlive(app.window.pid))
            out.append(app.window);
    }
    return out;
}

Result<AppStart> FakeBackend::startApp(const AppLaunchSpec& spec, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("startApp"), context))
        return *err;
    QMutexLocker lock(&m_desktop->m_mutex);
    const auto it = m_desktop->m_launchable.constFind(spec.desktopId);
    if (it == m_desktop->m_launchable.cend())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no desktop entry starts %1").arg(spec.desktopId),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_desktop_entry")}});
    // A real process, never this one's child for long: its end is what quit checks.
    qint64 pid = 0;
    if (!QProcess::startDetached(QStringLiteral("sleep"), {QStringLiteral("300")}, {}, &pid) || pid <= 0)
        return Error::make(ErrorCode::InternalError, QStringLiteral("sleep could not be started"));
    FakeDesktop::Launched app;
    app.window.title = it->title;
    app.window.pid = pid;
    app.window.appName = spec.desktopId;
    app.window.frame = {100, 100, 400, 300};
    app.window.visible = true;
    app.window.active = true;
    app.window.nativeId = QStringLiteral("0x%1").arg(0x100000 + m_desktop->m_launched.size(), 0, 16);
    app.showsAt = std::chrono::steady_clock::now() + std::chrono::milliseconds(it->showAfterMs);
    m_desktop->m_launched.append(app);
    m_desktop->addEffectLocked(QStringLiteral("launch:%1").arg(spec.desktopId));
    return AppStart{pid,
                    QStringLiteral("desktop-entry"),
                    spec.desktopId,
                    QStringLiteral("sleep"),
                    {QStringLiteral("sleep"), QStringLiteral("300")}};
}

Result<QString> FakeBackend::quitApp(qint64 pid, bool force, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("quitApp"), context))
        return *err;
    QMutexLocker lock(&m_desktop->m_mutex);
    for (FakeDesktop::Launched& app : m_desktop->m_launched) {
        if (app.window.pid != pid)
            continue;
        app.closed = true;
        m_desktop->addEffectLocked(QStringLiteral("quit:%1").arg(app.window.title));
        // The app ends once its window is closed (force: at once), a little later, as real ones do.
        ::kill(static_cast<pid_t>(pid), force ? SIGKILL : SIGTERM);
        return force ? QStringLiteral("sigkill") : QStringLiteral("windows_closed");
    }
    return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the fake desktop did not launch %1").arg(pid),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("app_not_running")}});
}

void FakeDesktop::setDisplays(QList<DisplayInfo> displays)
{
    QMutexLocker lock(&m_mutex);
    m_displays = std::move(displays);
    m_displaysSet = true;
}

QColor FakeDesktop::displayColour(int index)
{
    static const QList<QColor> colours{QColor(200, 40, 40), QColor(40, 160, 60), QColor(40, 60, 200),
                                       QColor(200, 180, 40)};
    return colours.at(index % colours.size());
}

void FakeDesktop::setWindowFrame(const Frame& frame)
{
    QMutexLocker lock(&m_mutex);
    m_window.frame = frame;
}

void FakeDesktop::setClipboard(const ClipboardContent& content)
{
    QMutexLocker lock(&m_mutex);
    m_clipboard = content;
    ++m_clipboardSerial;
}

void FakeDesktop::restoreIfDue()
{
    if (m_restore && std::chrono::steady_clock::now() >= m_restoreAt) {
        if (m_clipboardSerial == m_writeSerial)
            m_clipboard = *m_restore;
        m_restore.reset();
    }
}

ClipboardContent FakeDesktop::clipboard()
{
    QMutexLocker lock(&m_mutex);
    restoreIfDue();
    return m_clipboard;
}

Result<ClipboardContent> FakeBackend::readClipboard(const CallContext& context)
{
    if (auto err = enter(QStringLiteral("readClipboard"), context))
        return *err;
    QMutexLocker lock(&m_desktop->m_mutex);
    m_desktop->restoreIfDue();
    ClipboardContent out = m_desktop->m_clipboard;
    // A concealed clipboard's content is never read, as the real backends do.
    if (out.concealed) {
        out.text.reset();
        out.png.clear();
        out.imageSize = {};
    }
    return out;
}

Result<ClipboardWrite> FakeBackend::writeClipboard(const QString& text, int restoreAfterMs, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("writeClipboard"), context))
        return *err;
    m_desktop->addEffect(QStringLiteral("clipboard:write:%1").arg(text.size()));
    QMutexLocker lock(&m_desktop->m_mutex);
    m_desktop->restoreIfDue();
    ClipboardWrite out;
    out.previous = m_desktop->m_clipboard;
    if (out.previous.concealed)
        out.previous.text.reset();
    m_desktop->m_clipboard = ClipboardContent{
        {QStringLiteral("UTF8_STRING"), QStringLiteral("text/plain;charset=utf-8")}, text, {}, {}, false, false};
    m_desktop->m_writeSerial = ++m_desktop->m_clipboardSerial;
    out.verified = m_desktop->m_clipboard.text == text;
    if (restoreAfterMs > 0) {
        if (out.previous.concealed || (!out.previous.empty && !out.previous.text)) {
            out.notRestorable = out.previous.concealed ? QStringLiteral("concealed") : QStringLiteral("not_text");
        } else {
            m_desktop->m_restore = out.previous;
            m_desktop->m_restoreAt = std::chrono::steady_clock::now() + std::chrono::milliseconds(restoreAfterMs);
            out.restoreScheduled = true;
        }
    }
    return out;
}

Result<QList<WindowInfo>> FakeBackend::windows(const CallContext& context)
{
    if (auto err = enter(QStringLiteral("windows"), context))
        return *err;
    QMutexLocker lock(&m_desktop->m_mutex);
    QList<WindowInfo> out{m_desktop->m_window};
    const auto now = std::chrono::steady_clock::now();
    for (const FakeDesktop::Launched& app : std::as_const(m_desktop->m_launched)) {
        if (!app.closed && now >= app.showsAt && Automation::Platform::processAlive(app.window.pid))
            out.append(app.window);
    }
    return out;
}

Result<QList<DisplayInfo>> FakeBackend::displays(const CallContext& context)
{
    if (auto err = enter(QStringLiteral("displays"), context))
        return *err;
    QMutexLocker lock(&m_desktop->m_mutex);
    return m_desktop->m_displays;
}

Result<ActionOutcome> FakeBackend::windowCommand(const ResolvedRoute&, const WindowCommand& command,
                                                 const CallContext& context)
{
    using Action = WindowCommand::Action;
    if (auto err = enter(QStringLiteral("windowCommand"), context))
        return *err;
    m_desktop->addEffect(QStringLiteral("window:") + windowActionName(command.action));
    {
        QMutexLocker lock(&m_desktop->m_mutex);
        WindowInfo& w = m_desktop->m_window;
        switch (command.action) {
        case Action::Focus:
            w.active = true;
            break;
        case Action::Minimize:
            w.minimized = true;
            w.visible = false;
            break;
        case Action::Maximize:
            w.maximized = true;
            break;
        case Action::Restore:
            w.minimized = w.maximized = false;
            w.visible = true;
            break;
        case Action::Close:
            w.visible = false;
            break;
        case Action::Move:
            w.frame.x = command.position.x();
            w.frame.y = command.position.y();
            break;
        case Action::Resize:
            w.frame.width = command.size.width();
            w.frame.height = command.size.height();
            break;
        }
    }
    Verification v;
    v.effect = Effect::Confirmed;
    v.expected = QStringLiteral("the fake window changed");
    return ActionOutcome{QStringLiteral("windowManager"), true,
                         QJsonObject{{QStringLiteral("action"), windowActionName(command.action)}}, v};
}

Result<TypeOutcome> FakeBackend::typeText(const ResolvedRoute&, const Node* target, const QString& text,
                                          const TypeOptions& options, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("typeText"), context))
        return *err;
    // Type one character at a time so a cancel between keys is honoured, as a real backend must.
    int perKeyMs = 0;
    {
        QMutexLocker lock(&m_desktop->m_mutex);
        perKeyMs = m_desktop->m_delays.value(QStringLiteral("perKey")).ms;
    }
    QString typed;
    for (const QChar c : text) {
        if (auto stop = context.checkpoint()) {
            QMutexLocker lock(&m_desktop->m_mutex);
            m_desktop->m_sawCancel = true;
            return *stop;
        }
        typed.append(c);
        {
            // The key is "injected" now: stop tests bound this time.
            QMutexLocker lock(&m_desktop->m_mutex);
            m_desktop->m_keyTimes.append(std::chrono::steady_clock::now());
        }
        QDeadlineTimer pace(perKeyMs);
        while (!pace.hasExpired() && !context.checkpoint())
            QThread::msleep(1);
    }
    m_desktop->addEffect(QStringLiteral("type:") + (target ? target->title : QStringLiteral("(focus)")) +
                         QLatin1Char(':') + QString::number(typed.size()) +
                         (options.clearBefore ? QStringLiteral(":clear") : QString()));
    TypeOutcome outcome;
    outcome.path = QStringLiteral("editableText");
    const bool secure = target && target->has(StateSecure);
    outcome.readBack = !secure;
    if (!secure)
        outcome.matched = true;
    outcome.verification.effect = Effect::Confirmed;
    outcome.verification.expected = QStringLiteral("the fake desktop recorded the text");
    return outcome;
}

Result<ActionOutcome> FakeBackend::sendChord(const ResolvedRoute&, const KeyChord& chord, int,
                                             const CallContext& context)
{
    if (auto err = enter(QStringLiteral("sendChord"), context))
        return *err;
    m_desktop->addEffect(QStringLiteral("chord:") + chord.names().join(QLatin1Char('+')));
    return ActionOutcome{QStringLiteral("keyboard"), true, {}, [] {
                             Verification v;
                             v.effect = Effect::Confirmed;
                             v.expected = QStringLiteral("the fake desktop recorded the keys");
                             return v;
                         }()};
}

Status FakeBackend::readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("readTexts"), context))
        return *err;
    // The fake's nodes carry their values already; a node without one has no text to read.
    for (int index : indexes) {
        Node& node = snapshot.nodes[index];
        if (!node.isSecure() && !node.hasValue && node.role == QLatin1String("AXTextField")) {
            node.hasValue = true;
            node.value.clear();
        }
    }
    return success();
}

Result<ActionOutcome> FakeBackend::scroll(const ResolvedRoute&, const Snapshot& snapshot, int element,
                                          const ScrollSpec& spec, const CallContext& context)
{
    if (auto err = enter(QStringLiteral("scroll"), context))
        return *err;
    m_desktop->addEffect(QStringLiteral("scroll:%1:%2:%3%4")
                             .arg(snapshot.nodes.at(element).title, scrollDirectionName(spec.direction))
                             .arg(spec.amount)
                             .arg(spec.pages ? QStringLiteral("p") : QString()));
    ActionOutcome out{QStringLiteral("accessibility:value"), true, {}, {}};
    out.verification.effect = Effect::Confirmed;
    out.verification.expected = QStringLiteral("the fake desktop recorded the scroll");
    out.details.insert(QStringLiteral("frameAfter"), snapshot.nodes.at(element).frame.toJson());
    return out;
}

PermissionReport FakePermissionProbe::probe()
{
    PermissionReport report;
    report.platform = QStringLiteral("linux");
    report.displayServer = QStringLiteral("x11");
    report.accessibility = {PermissionState::Granted, QStringLiteral("fake: granted"), {}};
    report.screenCapture = {PermissionState::Granted, QStringLiteral("fake: granted"), {}};
    return report;
}

} // namespace Testing
