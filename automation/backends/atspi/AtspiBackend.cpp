#include "automation/backends/atspi/AtspiBackend.h"

#include "automation/AppIdentity.h"
#include "automation/DesktopExec.h"
#include "automation/PngEncoder.h"
#include "automation/backends/atspi/AtspiApps.h"
#include "automation/backends/atspi/AtspiBus.h"
#include "automation/backends/atspi/AtspiInput.h"
#include "automation/backends/atspi/AtspiScroll.h"
#include "automation/backends/atspi/AtspiTreeReader.h"
#include "automation/backends/atspi/AtspiVerifier.h"
#include "automation/backends/atspi/X11Clipboard.h"
#include "automation/backends/atspi/X11InputWatch.h"
#include "automation/platform/ProcessInfo.h"

#include "automation/backends/atspi/AtspiRoles.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QMutex>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QThread>
#include <QTimeZone>

#include <csignal>

#include <sys/types.h>

namespace Automation {

// Declared in the order they depend on each other (and are destroyed in reverse).
struct AtspiBackend::Parts
{
    AtspiBus bus;
    X11InputWatch watch; // before x11, which notes its injections in it
    X11Session x11;
    X11Clipboard clipboard;
    AtspiApps apps{bus, x11};
    AtspiTreeReader tree{bus, apps, x11};
    AtspiVerifier verifier{bus};
    AtspiInput input{bus, apps, tree, verifier, x11, clipboard};
    AtspiScroll scroller{bus, apps, x11};
    int pngCompression = -1;
    bool watchTried = false;
    QString watchError;

    /// Arms the input watch for a call that injects input (started on the first such call;
    /// not at all while the setting is off).
    InjectionScope injecting(const CallContext& context)
    {
        if (watch.mode() == X11InputWatch::Mode::Off)
            return InjectionScope(nullptr, context);
        if (!watch.running() && !watchTried) {
            watchTried = true;
            if (!watch.start(&watchError))
                qWarning("the input watch could not start: %s; the person's input is not noticed",
                         qPrintable(watchError));
        }
        return InjectionScope(watch.running() ? &watch : nullptr, context);
    }
};

AtspiBackend::AtspiBackend() : d(std::make_unique<Parts>())
{
    d->x11.setInputWatch(&d->watch);
}

AtspiBackend::~AtspiBackend() = default;

void AtspiBackend::configure(const QJsonObject& settings)
{
    configure(BackendSettings::fromJson(settings));
}

void AtspiBackend::configure(const BackendSettings& settings)
{
    if (settings.cmdKey)
        d->x11.setCmdKey(*settings.cmdKey == BackendSettings::CmdKey::Super ? X11Session::CmdKey::Super
                                                                            : X11Session::CmdKey::Control);
    if (settings.pngCompression)
        d->pngCompression = *settings.pngCompression;
    if (settings.yieldToUser)
        d->watch.setMode(X11InputWatch::modeFromName(*settings.yieldToUser).value_or(X11InputWatch::Mode::Abort));
    if (settings.yieldQuietMs)
        d->watch.setQuietMs(*settings.yieldQuietMs);
}

QJsonArray AtspiBackend::takeYields()
{
    return d->watch.takeYields();
}

namespace {

// A pointer gesture on a window without accessibility: nothing the host can read says what it
// did (no app on the bus to report a change), so "no change seen" is not evidence of a no-op.
Result<ActionOutcome> unverifiableWhenBare(const ResolvedRoute& route, Result<ActionOutcome> outcome)
{
    if (!route.inaccessible || !outcome || outcome->verification.effect != Effect::SuspectedNoop)
        return outcome;
    Verification& v = outcome->verification;
    v.effect = Effect::Unverifiable;
    v.reason = QStringLiteral("the window exposes no accessibility: nothing can tell what the pointer did");
    v.observed.insert(QStringLiteral("accessible"), false);
    for (qsizetype i = 0; i < v.paths.size(); ++i) {
        QJsonObject path = v.paths.at(i).toObject();
        path.insert(QStringLiteral("effect"), effectName(v.effect));
        v.paths.replace(i, path);
    }
    outcome->verified = false;
    return outcome;
}

// The event stream's kind for an AT-SPI element event; empty for the ones it does not carry.
QString streamKind(const AtspiTreeCache::Notice& notice)
{
    if (notice.member == QLatin1String("StateChanged")) {
        if (notice.detail == QLatin1String("defunct"))
            return {};
        return notice.detail == QLatin1String("focused") && notice.detail1 == 1
                   ? QStringLiteral("focus.changed")
                   : QStringLiteral("element.stateChanged");
    }
    if (notice.member == QLatin1String("PropertyChange")) {
        if (notice.detail == QLatin1String("accessible-name"))
            return QStringLiteral("element.nameChanged");
        if (notice.detail == QLatin1String("accessible-value"))
            return QStringLiteral("element.valueChanged");
        return {};
    }
    if (notice.member == QLatin1String("TextChanged"))
        return QStringLiteral("element.valueChanged");
    if (notice.member == QLatin1String("ChildrenChanged"))
        return QStringLiteral("element.childrenChanged");
    return {};
}

// Who a bus name is: its pid (from the bus daemon) and executable, remembered per name.
struct ServiceNames
{
    QMutex mutex;
    QHash<QString, std::pair<qint64, QString>> known;

    std::pair<qint64, QString> of(const QString& connection, const QString& service)
    {
        {
            QMutexLocker lock(&mutex);
            const auto it = known.constFind(service);
            if (it != known.constEnd())
                return *it;
        }
        qint64 pid = 0;
        QString executable;
        if (QDBusConnectionInterface* bus = QDBusConnection(connection).interface()) {
            const auto reply = bus->servicePid(service);
            if (reply.isValid()) {
                pid = reply.value();
                executable = QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid))).fileName();
            }
        }
        QMutexLocker lock(&mutex);
        if (known.size() > 4096)
            known.clear();
        known.insert(service, {pid, executable});
        return {pid, executable};
    }
};

} // namespace

void AtspiBackend::setEventSink(DesktopEventSink sink)
{
    if (!sink) {
        d->bus.setTreeListener({});
        return;
    }
    auto names = std::make_shared<ServiceNames>();
    const QString connection = d->bus.connectionName();
    // On the tree cache's thread: only what the cache knew and the bus daemon says, never a
    // call into the app (an app that hangs cannot hold the stream up).
    d->bus.setTreeListener([sink = std::move(sink), names, connection](const AtspiTreeCache::Notice& notice) {
        const QString kind = streamKind(notice);
        if (kind.isEmpty())
            return;
        const auto [pid, executable] = names->of(connection, notice.service);
        // The host's own windows are never streamed, as they are never a route (host_itself).
        if (pid == QCoreApplication::applicationPid())
            return;
        const auto known = [](const std::optional<quint32>& role, const QString& title) {
            QJsonObject node;
            if (role) {
                const auto info = Atspi::roleInfo(*role);
                node.insert(QStringLiteral("role"), info.role);
                node.insert(QStringLiteral("nativeRole"), info.nativeRole);
                if (!info.subrole.isEmpty())
                    node.insert(QStringLiteral("subrole"), info.subrole);
            }
            node.insert(QStringLiteral("title"), title);
            return node;
        };
        QJsonObject element =
            known(notice.role, kind == QLatin1String("element.nameChanged") ? notice.newName : notice.name);
        QJsonArray lineage{element};
        for (const auto& [role, name] : notice.ancestors)
            lineage.append(known(role, name));
        element.remove(QStringLiteral("subrole"));
        QJsonObject payload{
            {QStringLiteral("element"), element},
            {QStringLiteral("app"),
             QJsonObject{{QStringLiteral("name"), notice.appName.isEmpty() ? executable : notice.appName},
                         {QStringLiteral("executable"), executable},
                         {QStringLiteral("pid"), pid}}}};
        if (!notice.windowTitle.isEmpty())
            payload.insert(QStringLiteral("window"), QJsonObject{{QStringLiteral("title"), notice.windowTitle}});
        if (kind == QLatin1String("element.stateChanged")) {
            payload.insert(QStringLiteral("state"), notice.detail);
            payload.insert(QStringLiteral("on"), notice.detail1 != 0);
        } else if (kind == QLatin1String("element.childrenChanged")) {
            payload.insert(QStringLiteral("change"), notice.detail.startsWith(QLatin1String("add"))
                                                         ? QStringLiteral("added")
                                                         : QStringLiteral("removed"));
        } else if (kind == QLatin1String("element.nameChanged")) {
            payload.insert(QStringLiteral("was"), notice.name);
        }
        sink(DesktopEvent{kind, payload, lineage});
    });
}

ChangeWait AtspiBackend::waitForChange(const ResolvedRoute& route, qint64 ms, const CallContext& context)
{
    AtspiTreeCache* tree = d->bus.tree();
    const Atspi::Ref root = Atspi::Ref::fromHandle(route.appHandle);
    if (!tree || root.service.isEmpty())
        return DesktopBackend::waitForChange(route, ms, context);
    // Any event of the app ends the wait: the condition is looked at again at once.
    const quint64 mark = tree->activityMark();
    QDeadlineTimer nap(std::max<qint64>(0, ms));
    while (!nap.hasExpired() && !context.checkpoint()) {
        if (!tree->activitySince(root.service, mark).isEmpty())
            return ChangeWait::Changed;
        QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(nap.remainingTime(), 1, 5)));
    }
    return ChangeWait::Quiet;
}

X11Session::CmdKey AtspiBackend::cmdKey() const
{
    return d->x11.cmdKey();
}

int AtspiBackend::pngCompression() const
{
    return d->pngCompression;
}

BackendInfo AtspiBackend::info()
{
    BackendInfo info;
    info.name = QStringLiteral("atspi");
    QString error;
    info.available = d->bus.connect(&error);
    info.message = info.available ? QStringLiteral("AT-SPI bus connected (%1)").arg(d->bus.address()) : error;
    const auto cache = d->bus.tree() ? d->bus.tree()->stats() : AtspiTreeCache::Stats{};
    info.details =
        QJsonObject{{QStringLiteral("busAddress"), d->bus.address()},
                    {QStringLiteral("treeCache"),
                     QJsonObject{{QStringLiteral("entries"), static_cast<qint64>(cache.entries)},
                                 {QStringLiteral("events"), static_cast<qint64>(cache.events)},
                                 {QStringLiteral("invalidations"), static_cast<qint64>(cache.invalidations)}}},
                    {QStringLiteral("eventsRegistered"), d->bus.eventsRegistered()},
                    {QStringLiteral("knownApps"), static_cast<int>(d->apps.knownCount())},
                    {QStringLiteral("display"), qEnvironmentVariable("DISPLAY")}};
    const qint64 lastForeign = d->watch.lastForeignAtMs();
    info.details.insert(
        QStringLiteral("userInput"),
        QJsonObject{{QStringLiteral("mode"), X11InputWatch::modeName(d->watch.mode())},
                    {QStringLiteral("watching"), d->watch.running() && d->watch.alive()},
                    {QStringLiteral("problem"), d->watchError.isEmpty() ? QJsonValue() : QJsonValue(d->watchError)},
                    {QStringLiteral("foreignEvents"), static_cast<qint64>(d->watch.foreignCount())},
                    {QStringLiteral("lastForeignAt"),
                     lastForeign > 0
                         ? QJsonValue(QDateTime::fromMSecsSinceEpoch(lastForeign, Qt::UTC).toString(Qt::ISODateWithMs))
                         : QJsonValue()}});
    const QJsonArray invisible = info.available ? d->apps.invisibleApps() : d->apps.lastInvisibleApps();
    info.details.insert(QStringLiteral("invisibleApps"), invisible);
    return info;
}

Result<ResolvedRoute> AtspiBackend::resolveRoute(const Route& route, const CallContext& context)
{
    return d->apps.resolveRoute(route, context);
}

Status AtspiBackend::focusWindow(const ResolvedRoute& route, const CallContext& context)
{
    return d->input.focusWindow(route, context);
}

Result<Snapshot> AtspiBackend::snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds,
                                        const CallContext& context)
{
    return d->tree.snapshot(route, bounds, context);
}

Status AtspiBackend::completeNodes(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    return d->tree.completeNodes(snapshot, indexes, context);
}

Result<Screenshot> AtspiBackend::screenshot(const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    QString error;
    QImage image;
    if (!d->x11.screenshot(&image, &error))
        return Error::make(ErrorCode::PermissionMissing, error,
                           QJsonObject{{QStringLiteral("permission"), QStringLiteral("screenRecording")}});
    const QDateTime takenAt = QDateTime::currentDateTimeUtc();
    const QByteArray png =
        PngEncoder::encode(image, d->pngCompression >= 0 ? d->pngCompression : PngEncoder::kDefaultLevel);
    if (png.isEmpty())
        return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be encoded as PNG"));
    return Screenshot{png, image.width(), image.height(), takenAt};
}

Result<ActionOutcome> AtspiBackend::press(const ResolvedRoute& route, const Node& element, const CallContext& context)
{
    return d->input.press(route, element, context);
}

Result<ActionOutcome> AtspiBackend::clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                            const Node* target)
{
    const auto scope = d->injecting(context);
    return unverifiableWhenBare(route, d->input.clickAt(route, point, context, target));
}

Result<TypeOutcome> AtspiBackend::typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                           const TypeOptions& options, const CallContext& context)
{
    const auto scope = d->injecting(context);
    return d->input.typeText(route, target, text, options, context);
}

Result<ActionOutcome> AtspiBackend::sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                              const CallContext& context)
{
    const auto scope = d->injecting(context);
    return d->input.sendChord(route, chord, delayMs, context);
}

Result<ActionOutcome> AtspiBackend::activateMenuItem(const ResolvedRoute& route, const Node& item, const Node* menu,
                                                     const CallContext& context)
{
    const auto scope = d->injecting(context);
    return d->input.activateMenuItem(route, item, menu, context);
}

Status AtspiBackend::readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    if (auto err = d->tree.readTexts(snapshot, indexes, context))
        return *err;
    return success();
}

QJsonObject AtspiBackend::environment(const ResolvedRoute* route, const CallContext& context)
{
    Q_UNUSED(context)
    const auto frameOf = [](const QRect& r) { return Frame{r.x(), r.y(), r.width(), r.height()}.toJson(); };
    const auto windowJson = [&](const X11Session::Covering& w) {
        return QJsonObject{{QStringLiteral("title"), w.title},
                           {QStringLiteral("pid"), w.pid},
                           {QStringLiteral("frame"), frameOf(w.rect)}};
    };
    QJsonObject out;
    if (const auto facts = d->x11.displayFacts()) {
        out.insert(QStringLiteral("display"), QJsonObject{{QStringLiteral("frame"), frameOf(facts->rect)},
                                                          {QStringLiteral("scale"), facts->scale},
                                                          {QStringLiteral("scaleSource"), facts->dpiSource}});
        QJsonObject input{
            {QStringLiteral("source"), QStringLiteral("xkb")}, {QStringLiteral("rules"), facts->xkb.value(0)},
            {QStringLiteral("model"), facts->xkb.value(1)},    {QStringLiteral("layout"), facts->xkb.value(2)},
            {QStringLiteral("variant"), facts->xkb.value(3)},  {QStringLiteral("options"), facts->xkb.value(4)}};
        // An input method framework (IBus, Fcitx) announces itself to apps through these.
        QJsonObject modules;
        for (const char* name : {"XMODIFIERS", "GTK_IM_MODULE", "QT_IM_MODULE"}) {
            const QString value = qEnvironmentVariable(name);
            if (!value.isEmpty())
                modules.insert(QLatin1String(name), value);
        }
        input.insert(QStringLiteral("imModules"), modules);
        out.insert(QStringLiteral("inputMethod"), input);
    }
    if (const auto active = d->x11.describeWindow(d->x11.activeWindow()))
        out.insert(QStringLiteral("frontmost"), windowJson(*active));
    if (route && route->pid > 0) {
        if (const auto window = d->x11.describeWindow(
                route->nativeWindow ? route->nativeWindow : d->x11.findWindow(route->pid, route->windowTitle))) {
            QJsonObject json = windowJson(*window);
            if (!route->windowId().isEmpty())
                json.insert(QStringLiteral("windowId"), route->windowId());
            out.insert(QStringLiteral("window"), json);
        }
    }
    return out;
}

Result<std::optional<CoveringWindow>> AtspiBackend::windowAbove(const ResolvedRoute& route, QPoint point,
                                                                const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const auto above = d->x11.windowAbove(
        route.nativeWindow ? route.nativeWindow : d->x11.findWindow(route.pid, route.windowTitle), point);
    if (!above)
        return std::optional<CoveringWindow>();
    return std::optional<CoveringWindow>(CoveringWindow{
        above->title, above->pid, Frame{above->rect.x(), above->rect.y(), above->rect.width(), above->rect.height()}});
}

Result<std::optional<Frame>> AtspiBackend::liveFrame(const ResolvedRoute& route, const Node& node,
                                                     const CallContext& context)
{
    if (route.inaccessible || node.handle.isEmpty())
        return std::optional<Frame>();
    const Atspi::App app = d->apps.appOf(route, context);
    // Screen coordinates, as the snapshot has them: a toolkit that reports its frames relative
    // to its window (GTK 4) gets the window's position added.
    std::optional<QPoint> origin;
    if (app.windowRelativeExtents()) {
        origin = d->x11.contentOrigin(d->x11.findWindow(route.pid, route.windowTitle));
        if (!origin)
            return std::optional<Frame>();
    }
    auto call = d->bus.send(Atspi::Ref::fromHandle(node.handle), Atspi::Interface::Component,
                            QStringLiteral("GetExtents"), {0u}, d->bus.callTimeout(context));
    call.waitForFinished();
    if (call.isError())
        return std::optional<Frame>();
    Frame frame = Atspi::extents(Atspi::firstArgument(call));
    if (origin) {
        frame.x += origin->x();
        frame.y += origin->y();
    }
    return std::optional<Frame>(frame);
}

Status AtspiBackend::readRelations(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    return d->tree.readRelations(snapshot, indexes, context);
}

Result<ActionOutcome> AtspiBackend::scroll(const ResolvedRoute& route, const Snapshot& snapshot, int element,
                                           const ScrollSpec& spec, const CallContext& context)
{
    const auto scope = d->injecting(context);
    return d->scroller.scroll(route, snapshot, element, spec, context);
}

Result<ActionOutcome> AtspiBackend::pointer(const ResolvedRoute& route, const PointerGesture& gesture,
                                            const CallContext& context)
{
    const auto scope = d->injecting(context);
    return unverifiableWhenBare(route, d->input.pointer(route, gesture, context));
}

Result<AppStart> AtspiBackend::startApp(const AppLaunchSpec& spec, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    if (spec.desktopId.isEmpty() && spec.executable.isEmpty())
        return Error::invalidParam(QStringLiteral("app.bundleId"),
                                   QStringLiteral("a bundle id names a macOS app; here, name a desktopId or an "
                                                  "executable that a desktop entry starts"));
    QString path;
    if (!spec.desktopId.isEmpty()) {
        path = desktopEntryPath(spec.desktopId);
    } else if (const DesktopEntry found = desktopEntryFor(spec.executable); !found.id.isEmpty()) {
        path = desktopEntryPath(found.id);
    }
    if (path.isEmpty())
        return Error::make(ErrorCode::ElementNotFound,
                           QStringLiteral("no desktop entry starts %1")
                               .arg(spec.desktopId.isEmpty() ? spec.executable : spec.desktopId),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_desktop_entry")}});
    const auto entry = readDesktopLaunch(path);
    if (!entry)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("%1 has no Exec line").arg(path),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_desktop_entry")}});
    if (entry->terminal)
        return Error::invalidParam(
            QStringLiteral("app"),
            QStringLiteral("%1 runs in a terminal (Terminal=true); launch the terminal instead").arg(entry->id));
    static const QRegularExpression takesFiles(QStringLiteral("%[fFuU]"));
    const bool files = takesFiles.match(entry->exec).hasMatch();
    QString error;
    auto argv = execArguments(*entry, files ? spec.args : QStringList{}, &error);
    if (!argv)
        return Error::make(ErrorCode::InternalError, QStringLiteral("%1: %2").arg(entry->id, error));
    if (!files)
        argv->append(spec.args);
    // Never the host's child, never in its service: a scope of the user's own manager when it
    // runs, else a session of its own.
    QString program;
    QStringList arguments;
    const QString manager = qEnvironmentVariable("XDG_RUNTIME_DIR") + QStringLiteral("/systemd/private");
    const QString systemdRun = QStandardPaths::findExecutable(QStringLiteral("systemd-run"));
    if (!systemdRun.isEmpty() && QFileInfo::exists(manager)) {
        program = systemdRun;
        arguments = QStringList{QStringLiteral("--user"), QStringLiteral("--scope"), QStringLiteral("--quiet"),
                                QStringLiteral("--collect"), QStringLiteral("--")} +
                    *argv;
    } else {
        program = QStandardPaths::findExecutable(QStringLiteral("setsid"));
        arguments = *argv;
        if (program.isEmpty()) {
            program = argv->first();
            arguments = argv->mid(1);
        }
    }
    QProcess process;
    process.setProgram(program);
    process.setArguments(arguments);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("GIO_LAUNCHED_DESKTOP_FILE"), path);
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(QDir::homePath());
    qint64 pid = 0;
    if (!process.startDetached(&pid) || pid <= 0)
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("%1 could not be started: %2").arg(argv->first(), process.errorString()));
    return AppStart{pid, QStringLiteral("desktop-entry"), entry->id, QFileInfo(argv->first()).fileName(), *argv};
}

Result<QString> AtspiBackend::quitApp(qint64 pid, bool force, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    if (force) {
        if (::kill(static_cast<pid_t>(pid), SIGKILL) != 0)
            return Error::make(ErrorCode::InternalError,
                               QStringLiteral("SIGKILL to %1: %2").arg(pid).arg(qt_error_string(errno)));
        return QStringLiteral("sigkill");
    }
    const auto windowsOf = [&]() -> QList<WindowInfo> {
        QList<WindowInfo> out;
        if (auto all = d->input.windows(context)) {
            for (const WindowInfo& window : all.value()) {
                if (window.pid == pid)
                    out.append(window);
            }
        }
        return out;
    };
    const QList<WindowInfo> shown = windowsOf();
    QSet<QString> closed;
    for (const WindowInfo& window : shown) {
        bool ok = false;
        const quint64 id = window.nativeId.toULongLong(&ok, 16);
        QString error;
        if (ok && d->x11.requestWindow(id, X11Session::WindowRequest::Close, {}, false, false, &error))
            closed.insert(window.nativeId);
    }
    // The app may ask to save: give it a moment, then look.
    QDeadlineTimer grace(std::min<qint64>(2000, std::max<qint64>(0, context.remainingMs() / 2)));
    while (!grace.hasExpired() && Platform::processAlive(pid)) {
        if (context.checkpoint())
            break;
        const QList<WindowInfo> now = windowsOf();
        if (std::any_of(now.begin(), now.end(), [&](const WindowInfo& w) { return !closed.contains(w.nativeId); }))
            return QStringLiteral("windows_closed"); // a window of its own asks the person: left to them
        if (now.isEmpty())
            break;
        QThread::msleep(50);
    }
    if (!Platform::processAlive(pid))
        return QStringLiteral("windows_closed");
    if (!windowsOf().isEmpty())
        return QStringLiteral("windows_closed");
    // No window left and still running (a tray app, a server): the polite signal.
    if (::kill(static_cast<pid_t>(pid), SIGTERM) != 0)
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("SIGTERM to %1: %2").arg(pid).arg(qt_error_string(errno)));
    return closed.isEmpty() ? QStringLiteral("sigterm") : QStringLiteral("windows_closed_then_sigterm");
}

Result<ClipboardContent> AtspiBackend::readClipboard(const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    // An owner that does not answer is given a second, at most what the call has left.
    return d->clipboard.read(static_cast<int>(std::clamp<qint64>(context.remainingMs(), 1, 2000)));
}

Result<ClipboardWrite> AtspiBackend::writeClipboard(const QString& text, int restoreAfterMs, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    return d->clipboard.write(text, restoreAfterMs,
                              static_cast<int>(std::clamp<qint64>(context.remainingMs(), 1, 2000)));
}

Result<QList<WindowInfo>> AtspiBackend::windows(const CallContext& context)
{
    return d->input.windows(context);
}

Result<QList<DisplayInfo>> AtspiBackend::displays(const CallContext& context)
{
    Q_UNUSED(context)
    const QList<X11Session::Monitor> monitors = d->x11.monitors();
    if (monitors.isEmpty())
        return Error::make(ErrorCode::PermissionMissing,
                           QStringLiteral("the X display %1 cannot be opened").arg(qEnvironmentVariable("DISPLAY")));
    // Xft.dpi is the one scale X has: every monitor shares it.
    const auto facts = d->x11.displayFacts();
    const double scale = facts ? facts->scale : 1.0;
    QList<DisplayInfo> out;
    bool primarySeen = false;
    for (const X11Session::Monitor& monitor : monitors) {
        DisplayInfo display;
        display.id = monitor.name;
        display.name = monitor.name;
        display.frame = Frame{monitor.rect.x(), monitor.rect.y(), monitor.rect.width(), monitor.rect.height()};
        display.scale = scale;
        display.primary = monitor.primary && !primarySeen;
        primarySeen = primarySeen || display.primary;
        out.append(display);
    }
    // No monitor is marked primary (none was set): the first the server lists is.
    if (!primarySeen)
        out.first().primary = true;
    std::stable_partition(out.begin(), out.end(), [](const DisplayInfo& d) { return d.primary; });
    return out;
}

Result<ActionOutcome> AtspiBackend::windowCommand(const ResolvedRoute& route, const WindowCommand& command,
                                                  const CallContext& context)
{
    return d->input.windowCommand(route, command, context);
}

} // namespace Automation
