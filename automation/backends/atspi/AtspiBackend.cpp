#include "AtspiBackend.h"

#include "PngEncoder.h"

#include "AtspiRoles.h"
#include "TextDelivery.h"

#include <QCryptographicHash>
#include <QDBusArgument>
#include <QDBusMessage>
#include <QDBusPendingReply>
#include <QDBusVariant>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QThread>
#include <QUuid>

#include <unistd.h>

namespace Automation {

Q_LOGGING_CATEGORY(lcAtspi, "msgcode.automation.atspi")

namespace {

// libatspi's default call timeout is 800 ms; an app slower than this is treated as hung.
constexpr int kCallCapMs = 1000;
// While discovering apps, one that does not answer quickly is skipped rather than waited for.
constexpr int kDiscoveryCapMs = 400;
// An app that timed out is not asked again for this long (as Orca does).
constexpr int kHungMarkMs = 1500;
// Calls kept in flight at once (the a11y bus allows 50000 pending replies per connection).
constexpr int kBatch = 4096;
// The timeout of calls sent as a batch: a large Qt tree's first read makes the app build
// thousands of accessible objects, a second or more of steady answering.
constexpr int kBatchCapMs = 30000;

const QString kRegistry = QStringLiteral("org.a11y.atspi.Registry");
const QString kRootPath = QStringLiteral("/org/a11y/atspi/accessible/root");

QString interfaceName(int iface)
{
    static const char* names[] = {"org.a11y.atspi.Accessible",   "org.a11y.atspi.Component",
                                  "org.a11y.atspi.Action",       "org.a11y.atspi.Text",
                                  "org.a11y.atspi.EditableText", "org.a11y.atspi.Value",
                                  "org.a11y.atspi.Cache",        "org.freedesktop.DBus.Properties"};
    return QString::fromLatin1(names[iface]);
}

AtspiBackend::Ref refFromArgument(const QDBusArgument& arg)
{
    AtspiBackend::Ref ref;
    QDBusObjectPath path;
    arg.beginStructure();
    arg >> ref.service >> path;
    arg.endStructure();
    ref.path = path.path();
    return ref;
}

QList<AtspiBackend::Ref> refList(const QVariant& value)
{
    QList<AtspiBackend::Ref> out;
    if (!value.canConvert<QDBusArgument>())
        return out;
    const QDBusArgument arg = value.value<QDBusArgument>();
    arg.beginArray();
    while (!arg.atEnd())
        out.append(refFromArgument(arg));
    arg.endArray();
    return out;
}

QList<quint32> uintList(const QVariant& value)
{
    if (value.canConvert<QDBusArgument>())
        return qdbus_cast<QList<quint32>>(value.value<QDBusArgument>());
    return value.value<QList<quint32>>();
}

Frame extents(const QVariant& value)
{
    Frame frame;
    if (!value.canConvert<QDBusArgument>())
        return frame;
    const QDBusArgument arg = value.value<QDBusArgument>();
    arg.beginStructure();
    arg >> frame.x >> frame.y >> frame.width >> frame.height;
    arg.endStructure();
    return frame;
}

QStringList actionNames(const QVariant& value)
{
    QStringList out;
    if (!value.canConvert<QDBusArgument>())
        return out;
    const QDBusArgument arg = value.value<QDBusArgument>();
    arg.beginArray();
    while (!arg.atEnd()) {
        QString name, description, keybinding;
        arg.beginStructure();
        arg >> name >> description >> keybinding;
        arg.endStructure();
        out.append(name);
    }
    arg.endArray();
    return out;
}

QVariant firstArgument(const QDBusPendingCall& call)
{
    const QDBusMessage reply = call.reply();
    return reply.arguments().isEmpty() ? QVariant() : reply.arguments().constFirst();
}

QVariant unwrap(const QVariant& value)
{
    if (value.canConvert<QDBusVariant>())
        return value.value<QDBusVariant>().variant();
    return value;
}

// /proc/PID/status state: an app that is stopped or a zombie will not answer (as Orca checks).
enum class ProcessState { Running, Stopped, Gone };

ProcessState processState(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return ProcessState::Gone;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("State:")) {
            const QByteArray state = line.mid(6).trimmed();
            if (state.startsWith('Z') || state.startsWith('X'))
                return ProcessState::Gone;
            if (state.startsWith('T') || state.startsWith('t'))
                return ProcessState::Stopped;
            return ProcessState::Running;
        }
    }
    return ProcessState::Running;
}

bool processStoppedOrDead(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return true;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("State:")) {
            const QByteArray state = line.mid(6).trimmed();
            return state.startsWith('Z') || state.startsWith('T') || state.startsWith('X');
        }
    }
    return false;
}

// The actions that click an element, best first. Qt's menu-bar entries offer only "showMenu".
const QStringList& pressActions()
{
    // Gecko names its actions after what they do: "check"/"uncheck" on a checkbox, "select"
    // on a radio button, "switch" on a tab, "jump" on a link.
    static const QStringList order{QStringLiteral("press"),  QStringLiteral("click"),   QStringLiteral("activate"),
                                   QStringLiteral("toggle"), QStringLiteral("check"),   QStringLiteral("uncheck"),
                                   QStringLiteral("select"), QStringLiteral("switch"),  QStringLiteral("jump"),
                                   QStringLiteral("open"),   QStringLiteral("showmenu")};
    return order;
}

bool isPressAction(const QString& name)
{
    return pressActions().contains(name.toLower());
}

int pressRank(const QString& name)
{
    const auto i = pressActions().indexOf(name.toLower());
    return i < 0 ? 1000 : static_cast<int>(i);
}

// Gecko answers GetActions with entries whose name is empty or ";;" (its keybinding slot),
// while GetName(i) gives the real name: such a list must be read index by index.
bool actionNamesUsable(const QStringList& names)
{
    for (const auto& name : names) {
        if (name.isEmpty() || name.contains(QLatin1Char(';')))
            return false;
    }
    return true;
}

// Kinds of events that accompany focusing a window rather than an action's effect.
bool isActivationEvent(const QString& kind)
{
    return kind.startsWith(QLatin1String("Activate:")) || kind.startsWith(QLatin1String("Deactivate:")) ||
           kind == QLatin1String("StateChanged:active");
}

} // namespace

AtspiBackend::Ref AtspiBackend::Ref::fromHandle(const QString& handle)
{
    const auto bar = handle.indexOf(QLatin1Char('|'));
    if (bar < 0)
        return {};
    return Ref{handle.left(bar), handle.mid(bar + 1)};
}

bool AtspiBackend::App::windowRelativeExtents() const
{
    return toolkit.compare(QLatin1String("GTK"), Qt::CaseInsensitive) == 0 &&
           toolkitVersion.section(QLatin1Char('.'), 0, 0).toInt() >= 4;
}

bool AtspiBackend::App::childrenEventsReliable() const
{
    // GTK reports every change of children. Qt 6.4 does not report new windows and rows, and
    // Gecko's tree fills in while a page loads without telling about every container; other
    // toolkits are not known well enough to be trusted.
    return toolkit.compare(QLatin1String("GTK"), Qt::CaseInsensitive) == 0;
}

bool AtspiBackend::App::isQt() const
{
    return toolkit.compare(QLatin1String("Qt"), Qt::CaseInsensitive) == 0;
}

bool AtspiBackend::App::utf16Units() const
{
    // (Gecko counts UTF-16 units as well, but pads each character outside the BMP with U+FEFF
    // in its GetText, so its offsets are characters of the text it returns.)
    return toolkit.compare(QLatin1String("Qt"), Qt::CaseInsensitive) == 0;
}

AtspiBackend::AtspiBackend()
    : m_connectionName(QStringLiteral("mdh-atspi-") + QUuid::createUuid().toString(QUuid::WithoutBraces)),
      m_ownPid(::getpid())
{
}

AtspiBackend::~AtspiBackend()
{
    disconnect();
}

bool AtspiBackend::connect(QString* error)
{
    if (m_connected && QDBusConnection(m_connectionName).isConnected())
        return true;
    disconnect();
    // The address comes from org.a11y.Bus on the session bus (DESIGN.md 8); AT_SPI_BUS_ADDRESS
    // (as libatspi honours it) only when the session bus cannot tell.
    const QString sessionName = m_connectionName + QStringLiteral("-session");
    QDBusConnection session = QDBusConnection::connectToBus(QDBusConnection::SessionBus, sessionName);
    QString address;
    if (session.isConnected()) {
        QDBusMessage get =
            QDBusMessage::createMethodCall(QStringLiteral("org.a11y.Bus"), QStringLiteral("/org/a11y/bus"),
                                           QStringLiteral("org.a11y.Bus"), QStringLiteral("GetAddress"));
        const QDBusMessage reply = session.call(get, QDBus::Block, 2000);
        if (reply.type() == QDBusMessage::ReplyMessage && !reply.arguments().isEmpty())
            address = reply.arguments().constFirst().toString();
    }
    QDBusConnection::disconnectFromBus(sessionName);
    if (address.isEmpty())
        address = qEnvironmentVariable("AT_SPI_BUS_ADDRESS");
    if (address.isEmpty()) {
        *error = QStringLiteral("the AT-SPI bus address is unknown: no session bus answers org.a11y.Bus.GetAddress");
        m_lastError = *error;
        return false;
    }
    QDBusConnection bus = QDBusConnection::connectToBus(address, m_connectionName);
    if (!bus.isConnected()) {
        *error = QStringLiteral("cannot connect to the AT-SPI bus at %1: %2").arg(address, bus.lastError().message());
        QDBusConnection::disconnectFromBus(m_connectionName);
        m_lastError = *error;
        return false;
    }
    m_busAddress = address;
    m_connected = true;
    m_eventsRegistered = false;
    m_appCache.clear();
    m_cacheSupport.clear();
    // GTK offers Cache.GetItems only once some client listens for events (HEADLESS.md).
    // The events the tree cache lives on; apps send them only while someone listens.
    m_tree = std::make_unique<AtspiTreeCache>(m_connectionName);
    m_tree->start();
    m_eventsRegistered = true;
    // The rest tell verification that an app changed after an action (text typed, a window
    // opened, focus moved).
    for (const QString& event :
         {QStringLiteral("object:children-changed"), QStringLiteral("object:property-change"),
          QStringLiteral("object:state-changed"), QStringLiteral("object:text-changed"),
          QStringLiteral("object:text-caret-moved"), QStringLiteral("object:text-selection-changed"),
          QStringLiteral("object:active-descendant-changed"), QStringLiteral("object:selection-changed"),
          QStringLiteral("window:"), QStringLiteral("focus:")}) {
        QDBusMessage reg =
            QDBusMessage::createMethodCall(kRegistry, QStringLiteral("/org/a11y/atspi/registry"),
                                           QStringLiteral("org.a11y.atspi.Registry"), QStringLiteral("RegisterEvent"));
        reg << event << QStringList() << QString();
        const QDBusMessage regReply = bus.call(reg, QDBus::Block, 2000);
        m_eventsRegistered = m_eventsRegistered && regReply.type() == QDBusMessage::ReplyMessage;
    }
    qCInfo(lcAtspi) << "connected to the AT-SPI bus" << address << "events registered:" << m_eventsRegistered;
    m_lastError.clear();
    return true;
}

void AtspiBackend::disconnect()
{
    m_tree.reset();
    if (m_connected)
        QDBusConnection::disconnectFromBus(m_connectionName);
    m_connected = false;
}

void AtspiBackend::configure(const QJsonObject& settings)
{
    const QString cmd = settings.value(QStringLiteral("cmdKey")).toString();
    if (cmd == QLatin1String("super"))
        m_x11.setCmdKey(X11Session::CmdKey::Super);
    else if (cmd == QLatin1String("ctrl"))
        m_x11.setCmdKey(X11Session::CmdKey::Control);
    const QJsonValue compression = settings.value(QStringLiteral("pngCompression"));
    if (compression.isDouble())
        m_pngCompression = std::clamp(compression.toInt(), -1, 9);
}

BackendInfo AtspiBackend::info()
{
    BackendInfo info;
    info.name = QStringLiteral("atspi");
    QString error;
    info.available = connect(&error);
    info.message = info.available ? QStringLiteral("AT-SPI bus connected (%1)").arg(m_busAddress) : error;
    const auto cache = m_tree ? m_tree->stats() : AtspiTreeCache::Stats{};
    info.details =
        QJsonObject{{QStringLiteral("busAddress"), m_busAddress},
                    {QStringLiteral("treeCache"),
                     QJsonObject{{QStringLiteral("entries"), static_cast<qint64>(cache.entries)},
                                 {QStringLiteral("events"), static_cast<qint64>(cache.events)},
                                 {QStringLiteral("invalidations"), static_cast<qint64>(cache.invalidations)}}},
                    {QStringLiteral("eventsRegistered"), m_eventsRegistered},
                    {QStringLiteral("knownApps"), static_cast<int>(m_appCache.size())},
                    {QStringLiteral("display"), qEnvironmentVariable("DISPLAY")}};
    // Apps with windows on screen that the registry does not list cannot be automated: started
    // before the accessibility bus or registry was replaced, or with accessibility off. Looked
    // for at most every 2 s (this runs after every execution).
    if (info.available && (!m_invisibleCheckedAt.isValid() || m_invisibleCheckedAt.hasExpired(2000))) {
        m_invisibleCheckedAt.start();
        const CallContext quick(QDeadlineTimer(1000), std::make_shared<CancelToken>());
        if (auto apps = listApps(quick)) {
            QSet<qint64> registered;
            for (const auto& app : apps.value())
                registered.insert(app.pid);
            QJsonArray invisible;
            for (qint64 pid : m_x11.clientPids()) {
                if (pid == m_ownPid || registered.contains(pid) || processStoppedOrDead(pid))
                    continue;
                invisible.append(
                    QJsonObject{{QStringLiteral("pid"), pid},
                                {QStringLiteral("executable"),
                                 QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(pid))).fileName()}});
            }
            m_invisibleApps = invisible;
        }
    }
    info.details.insert(QStringLiteral("invisibleApps"), m_invisibleApps);
    return info;
}

QDBusPendingCall AtspiBackend::send(const Ref& ref, Interface iface, const QString& method, const QVariantList& args,
                                    int timeoutMs)
{
    QDBusMessage message =
        QDBusMessage::createMethodCall(ref.service, ref.path, interfaceName(static_cast<int>(iface)), method);
    message.setArguments(args);
    return QDBusConnection(m_connectionName).asyncCall(message, timeoutMs);
}

int AtspiBackend::callTimeout(const CallContext& context) const
{
    return context.callTimeoutMs(kCallCapMs);
}

int AtspiBackend::batchTimeout(const CallContext& context) const
{
    return context.callTimeoutMs(kBatchCapMs);
}

std::optional<Error> AtspiBackend::waitBatch(const QList<QDBusPendingCall*>& calls, const CallContext& context,
                                             const App& app, const QString& what)
{
    // Replies come back roughly in the order the calls went out: a cursor over the answered
    // prefix tells progress without looking at every call each time.
    qsizetype cursor = 0;
    QElapsedTimer quiet;
    quiet.start();
    int pauseUs = 20;
    while (true) {
        const qsizetype before = cursor;
        while (cursor < calls.size() && calls[cursor]->isFinished())
            ++cursor;
        if (cursor == calls.size())
            return std::nullopt;
        if (cursor > before) {
            quiet.restart();
            pauseUs = 20;
        } else if (quiet.elapsed() >= kCallCapMs) {
            return unresponsive(app, what, kCallCapMs);
        }
        if (auto stop = context.checkpoint())
            return stop;
        QThread::usleep(static_cast<unsigned long>(pauseUs));
        pauseUs = std::min(pauseUs * 2, 1000);
    }
}

bool AtspiBackend::isMarkedUnresponsive(const QString& service) const
{
    const auto it = m_hung.constFind(service);
    return it != m_hung.cend() && !it->hasExpired();
}

std::optional<Error> AtspiBackend::unresponsive(const App& app, const QString& what, int timeoutMs)
{
    m_hung.insert(app.root.service, QDeadlineTimer(kHungMarkMs));
    // Say what is known: a stopped or exited process is not merely slow.
    if (const ProcessState state = processState(app.pid); state != ProcessState::Running)
        return refuseHung(app);
    return Error::make(ErrorCode::TargetUnresponsive,
                       QStringLiteral("%1 (pid %2) did not answer %3 within %4 ms")
                           .arg(app.name.isEmpty() ? app.root.service : app.name)
                           .arg(app.pid)
                           .arg(what)
                           .arg(timeoutMs),
                       QJsonObject{{QStringLiteral("app"), app.name},
                                   {QStringLiteral("pid"), app.pid},
                                   {QStringLiteral("call"), what},
                                   {QStringLiteral("timeoutMs"), timeoutMs},
                                   {QStringLiteral("markedForMs"), kHungMarkMs}});
}

std::optional<Error> AtspiBackend::refuseHung(const App& app)
{
    const auto it = m_hung.constFind(app.root.service);
    const qint64 left = it != m_hung.cend() ? std::max<qint64>(0, it->remainingTime()) : 0;
    const ProcessState state = processState(app.pid);
    if (state == ProcessState::Gone) {
        // A dead app does not come back: asking again cannot help.
        return Error::make(ErrorCode::TargetUnresponsive,
                           QStringLiteral("%1 (pid %2) has exited").arg(app.name).arg(app.pid),
                           QJsonObject{{QStringLiteral("app"), app.name},
                                       {QStringLiteral("pid"), app.pid},
                                       {QStringLiteral("reason"), QStringLiteral("process_gone")}})
            .withRetryable(false);
    }
    const bool stopped = state == ProcessState::Stopped;
    return Error::make(
        ErrorCode::TargetUnresponsive,
        stopped ? QStringLiteral("%1 (pid %2) is stopped (SIGSTOP or a debugger); it answers once "
                                 "it is continued")
                      .arg(app.name)
                      .arg(app.pid)
                : QStringLiteral("%1 (pid %2) did not answer recently and still does not").arg(app.name).arg(app.pid),
        QJsonObject{{QStringLiteral("app"), app.name},
                    {QStringLiteral("pid"), app.pid},
                    {QStringLiteral("reason"),
                     stopped ? QStringLiteral("process_stopped") : QStringLiteral("marked_unresponsive")},
                    {QStringLiteral("markExpiresInMs"), left}});
}

bool AtspiBackend::stillHung(const App& app, const CallContext& context)
{
    if (processStoppedOrDead(app.pid))
        return true;
    if (!isMarkedUnresponsive(app.root.service))
        return false;
    // A cheap call the app answers from its main loop, as any request would be: if it answers,
    // the app is back and the mark goes. Refusing does not re-arm the mark; it expires by itself.
    auto probe = send(app.root, Interface::Accessible, QStringLiteral("GetRole"), {}, context.callTimeoutMs(150));
    probe.waitForFinished();
    if (probe.isError())
        return true;
    m_hung.remove(app.root.service);
    qCInfo(lcAtspi) << app.name << "answers again: unresponsive mark lifted";
    return false;
}

void AtspiBackend::readToolkit(App& app, const CallContext& context)
{
    if (!app.toolkit.isEmpty())
        return;
    // An app that did not say recently is not asked on every call (each ask may wait).
    if (const auto retry = m_toolkitRetry.constFind(app.root.service);
        retry != m_toolkitRetry.cend() && !retry->hasExpired())
        return;
    const QString iface = QStringLiteral("org.a11y.atspi.Application");
    auto name = send(app.root, Interface::Properties, QStringLiteral("Get"), {iface, QStringLiteral("ToolkitName")},
                     context.callTimeoutMs(kDiscoveryCapMs));
    auto version = send(app.root, Interface::Properties, QStringLiteral("Get"), {iface, QStringLiteral("Version")},
                        context.callTimeoutMs(kDiscoveryCapMs));
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

AtspiBackend::App AtspiBackend::appOf(const ResolvedRoute& route, const CallContext& context)
{
    const Ref root = Ref::fromHandle(route.appHandle);
    App app = m_appCache.value(root.service);
    app.root = root;
    app.pid = route.pid;
    if (app.name.isEmpty())
        app.name = route.appName;
    readToolkit(app, context);
    return app;
}

QStringList AtspiBackend::actionNamesOf(const Ref& ref, const App& app, const CallContext& context)
{
    auto list = send(ref, Interface::Action, QStringLiteral("GetActions"), {}, callTimeout(context));
    QStringList names;
    if (!wait(list, context, QStringLiteral("Action.GetActions"), &app))
        names = actionNames(firstArgument(list));
    if (actionNamesUsable(names) && !names.isEmpty())
        return names;
    auto count = send(ref, Interface::Properties, QStringLiteral("Get"),
                      {QStringLiteral("org.a11y.atspi.Action"), QStringLiteral("NActions")}, callTimeout(context));
    if (wait(count, context, QStringLiteral("Action.NActions"), &app))
        return names;
    const int n = std::clamp(unwrap(firstArgument(count)).toInt(), 0, 64);
    QList<QDBusPendingCall> calls;
    for (int i = 0; i < n; ++i)
        calls.append(send(ref, Interface::Action, QStringLiteral("GetName"), {i}, callTimeout(context)));
    QStringList out;
    for (auto& call : calls) {
        call.waitForFinished();
        out.append(call.isError() ? QString() : firstArgument(call).toString());
    }
    return out;
}

std::optional<Error> AtspiBackend::wait(QDBusPendingCall& call, const CallContext& context, const QString& what,
                                        const App* app)
{
    call.waitForFinished();
    if (auto stop = context.checkpoint())
        return stop;
    if (!call.isError())
        return std::nullopt;
    const QDBusError error = call.error();
    switch (error.type()) {
    case QDBusError::NoReply:
    case QDBusError::Timeout:
    case QDBusError::TimedOut:
        if (app)
            return unresponsive(*app, what, callTimeout(context));
        return Error::make(ErrorCode::TargetUnresponsive, QStringLiteral("no answer to %1").arg(what));
    case QDBusError::Disconnected:
        disconnect();
        return Error::make(ErrorCode::HostNotReady, QStringLiteral("the AT-SPI bus went away; retry"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("atspi_bus_lost")}});
    case QDBusError::ServiceUnknown:
    case QDBusError::UnknownObject:
        return Error::make(ErrorCode::StaleSnapshot,
                           QStringLiteral("the target went away during %1 (%2)").arg(what, error.message()),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    default:
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("AT-SPI %1 failed: %2 %3").arg(what, error.name(), error.message()));
    }
}

Result<QList<AtspiBackend::App>> AtspiBackend::listApps(const CallContext& context)
{
    QString error;
    if (!connect(&error))
        return Error::make(ErrorCode::PermissionMissing, error,
                           QJsonObject{{QStringLiteral("permission"), QStringLiteral("accessibility")}});
    auto children =
        send(Ref{kRegistry, kRootPath}, Interface::Accessible, QStringLiteral("GetChildren"), {}, callTimeout(context));
    if (auto err = wait(children, context, QStringLiteral("the registry's GetChildren"))) {
        // A registry that restarted: reconnect once (the bus may have moved too).
        if (err->code != ErrorCode::Aborted && err->code != ErrorCode::Timeout) {
            disconnect();
            if (!connect(&error))
                return *err;
            children = send(Ref{kRegistry, kRootPath}, Interface::Accessible, QStringLiteral("GetChildren"), {},
                            callTimeout(context));
            if (auto again = wait(children, context, QStringLiteral("the registry's GetChildren")))
                return *again;
        } else {
            return *err;
        }
    }
    const QList<Ref> roots = refList(firstArgument(children));

    // pid from the bus daemon (never hangs), name from the app (cached; skipped while hung).
    QDBusConnection bus(m_connectionName);
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
            QDBusMessage pid = QDBusMessage::createMethodCall(
                QStringLiteral("org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
                QStringLiteral("org.freedesktop.DBus"), QStringLiteral("GetConnectionUnixProcessID"));
            pid << root.service;
            pidCalls.append({static_cast<int>(apps.size()), bus.asyncCall(pid, callTimeout(context))});
            if (!isMarkedUnresponsive(root.service)) {
                nameCalls.append({static_cast<int>(apps.size()),
                                  send(root, Interface::Properties, QStringLiteral("Get"),
                                       {QStringLiteral("org.a11y.atspi.Accessible"), QStringLiteral("Name")},
                                       context.callTimeoutMs(kDiscoveryCapMs))});
            }
        }
        apps.append(app);
    }
    for (auto& [index, call] : pidCalls) {
        call.waitForFinished();
        if (!call.isError())
            apps[index].pid = firstArgument(call).toLongLong();
        apps[index].executable =
            QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(apps[index].pid))).fileName();
    }
    for (auto& [index, call] : nameCalls) {
        call.waitForFinished();
        if (!call.isError()) {
            apps[index].name = unwrap(firstArgument(call)).toString();
            m_appCache.insert(apps[index].root.service, apps[index]);
        } else if (call.error().type() == QDBusError::NoReply || call.error().type() == QDBusError::Timeout) {
            m_hung.insert(apps[index].root.service, QDeadlineTimer(kHungMarkMs));
        }
    }
    if (auto stop = context.checkpoint())
        return *stop;
    // The host never automates itself (DESIGN.md 6).
    apps.removeIf([this](const App& app) { return app.pid == m_ownPid || app.pid <= 0; });
    return apps;
}

Result<QList<AtspiBackend::Window>> AtspiBackend::windowsOf(const App& app, const CallContext& context, int timeoutMs)
{
    auto children = send(app.root, Interface::Accessible, QStringLiteral("GetChildren"), {}, timeoutMs);
    if (auto err = wait(children, context, QStringLiteral("GetChildren of the app"), &app))
        return *err;
    QList<Window> windows;
    QList<QDBusPendingCall> roles, states, names;
    for (const auto& ref : refList(firstArgument(children))) {
        Window window;
        window.ref = ref;
        windows.append(window);
        roles.append(send(ref, Interface::Accessible, QStringLiteral("GetRole"), {}, timeoutMs));
        states.append(send(ref, Interface::Accessible, QStringLiteral("GetState"), {}, timeoutMs));
        names.append(send(ref, Interface::Properties, QStringLiteral("Get"),
                          {QStringLiteral("org.a11y.atspi.Accessible"), QStringLiteral("Name")}, timeoutMs));
    }
    for (int i = 0; i < windows.size(); ++i) {
        if (auto err = wait(roles[i], context, QStringLiteral("GetRole of a window"), &app))
            return *err;
        if (auto err = wait(states[i], context, QStringLiteral("GetState of a window"), &app))
            return *err;
        if (auto err = wait(names[i], context, QStringLiteral("the name of a window"), &app))
            return *err;
        windows[i].role = firstArgument(roles[i]).toUInt();
        const auto bits = uintList(firstArgument(states[i]));
        const quint32 low = bits.value(0), high = bits.value(1);
        windows[i].active = Atspi::hasState(low, high, Atspi::StateActive);
        windows[i].showing = Atspi::hasState(low, high, Atspi::StateShowing);
        windows[i].title = unwrap(firstArgument(names[i])).toString();
    }
    return windows;
}

Result<ResolvedRoute> AtspiBackend::resolveRoute(const Route& route, const CallContext& context)
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
    };
    Choice best;
    QJsonArray skipped;
    // Later apps in the registry are newer: on equal rank the newest wins.
    for (const auto& app : candidates) {
        if (stillHung(app, context)) {
            if (explicitApp && candidates.size() == 1)
                return *refuseHung(app);
            skipped.append(app.name);
            continue;
        }
        const int timeout = explicitApp ? callTimeout(context) : context.callTimeoutMs(kDiscoveryCapMs);
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
            // Rank: the active window first, then any showing one, then the rest.
            const int rank = window.active ? 3 : window.showing ? 2 : 1;
            if (rank >= best.rank) {
                best = Choice{app, window, rank};
            }
        }
    }
    if (best.rank < 0) {
        return Error::make(ErrorCode::ElementNotFound,
                           route.windowTitlePattern ? QStringLiteral("no window matches the route's titlePattern")
                                                    : QStringLiteral("the application has no window"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")},
                                       {QStringLiteral("apps"), available},
                                       {QStringLiteral("unresponsive"), skipped}});
    }
    if (!explicitApp && !route.windowTitlePattern && best.rank < 3 && !skipped.isEmpty()) {
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
    m_lastApp = best.app;
    return resolved;
}

namespace {

struct NodeIds
{
    AtspiBackend::Ref ref;
    int parent = -1;
    int depth = 0;
    int indexInParent = 0;
};

// Re-orders nodes gathered breadth first into document order (pre-order), fixing the
// parent/children indexes and paths. The selector engine breaks ties by this order.
void toDocumentOrder(Snapshot& snapshot)
{
    if (snapshot.nodes.isEmpty())
        return;
    QList<int> order;
    order.reserve(snapshot.nodes.size());
    QList<int> stack{0};
    while (!stack.isEmpty()) {
        const int i = stack.takeLast();
        order.append(i);
        const auto& children = snapshot.nodes.at(i).children;
        for (auto it = children.crbegin(); it != children.crend(); ++it)
            stack.append(*it);
    }
    QList<int> newIndex(snapshot.nodes.size(), -1);
    for (int i = 0; i < order.size(); ++i)
        newIndex[order[i]] = i;
    QList<Node> nodes;
    nodes.reserve(order.size());
    for (int old : order) {
        Node node = snapshot.nodes.at(old);
        node.parent = node.parent >= 0 ? newIndex[node.parent] : -1;
        for (auto& child : node.children)
            child = newIndex[child];
        nodes.append(std::move(node));
    }
    for (auto& node : nodes) {
        node.path = node.parent >= 0 ? nodes[node.parent].path : QList<int>{};
        if (node.parent >= 0)
            node.path.append(
                static_cast<int>(nodes[node.parent].children.indexOf(static_cast<int>(&node - nodes.data()))));
    }
    snapshot.nodes = std::move(nodes);
}

void applyRole(Node& node, quint32 role, bool multiLine)
{
    const auto info = Atspi::roleInfo(role, multiLine);
    node.role = info.role;
    node.subrole = info.subrole;
    node.nativeRole = info.nativeRole;
}

} // namespace

Result<Snapshot> AtspiBackend::snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds,
                                        const CallContext& context)
{
    QElapsedTimer timer;
    timer.start();
    App app = m_appCache.value(Ref::fromHandle(route.appHandle).service);
    app.root = Ref::fromHandle(route.appHandle);
    app.pid = route.pid;
    if (app.name.isEmpty())
        app.name = route.appName;
    if (stillHung(app, context))
        return *refuseHung(app);
    readToolkit(app, context);
    Window window;
    window.ref = Ref::fromHandle(route.windowHandle);
    window.title = route.windowTitle;

    Snapshot snapshot;
    std::optional<Error> error;
    // When the tree cache already knows the window (seeded by GetItems or an earlier walk and
    // kept current by the app's events), a walk over it costs no calls at all.
    m_tree->sync();
    const auto known = m_tree->lookup(window.ref.service, window.ref.path);
    // The walk asks only for what the cache lacks (e.g. children GetItems left out).
    const bool warm = known.has_value() && m_cacheSupport.value(app.root.service, false);
    // GetItems lists the objects a toolkit has registered so far; Gecko creates a page's
    // objects lazily and leaves them out until someone walks there. Only a toolkit that
    // reports its children faithfully (GTK) gets its snapshot from it.
    if (warm || !app.childrenEventsReliable() || !tryCache(app, window, bounds, context, &snapshot, &error)) {
        if (error)
            return *error;
        auto walked = walk(app, window, bounds, context);
        if (!walked)
            return walked.error();
        snapshot = walked.value();
    }
    snapshot.appName = route.appName;
    snapshot.bundleId = route.bundleId;
    snapshot.pid = route.pid;
    snapshot.windowTitle = route.windowTitle;
    snapshot.bounds = bounds;
    toDocumentOrder(snapshot);
    if (auto err = normalizeRoles(snapshot, app, context))
        return *err;
    if (!bounds.searchOnly) {
        QList<int> all;
        for (int i = 0; i < snapshot.nodes.size(); ++i) {
            if (!snapshot.nodes.at(i).detailed)
                all.append(i);
        }
        const auto done = completeNodes(snapshot, all, context);
        if (!done)
            return done.error();
    }
    snapshot.elapsedMs = timer.elapsed();
    snapshot.takenAt = QDateTime::currentDateTimeUtc();
    return snapshot;
}

std::optional<Error> AtspiBackend::normalizeRoles(Snapshot& snapshot, const App& app, const CallContext& context)
{
    // Plain text roles are AXTextArea when multi-line: a state, which a search-only walk does
    // not read. Read it for those nodes (once per element; it does not change) so that the
    // role is the same whichever pass computed it.
    QList<std::pair<int, QDBusPendingCall>> states;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        Node& node = snapshot.nodes[i];
        const bool plainText = node.nativeRole == QLatin1String("text") || node.nativeRole == QLatin1String("entry");
        if (!plainText || node.isSecure())
            continue;
        if (const auto known = m_multiLine.constFind(node.handle); known != m_multiLine.cend()) {
            node.role = *known ? QStringLiteral("AXTextArea") : QStringLiteral("AXTextField");
            continue;
        }
        if (node.detailed) {
            m_multiLine.insert(node.handle, node.role == QLatin1String("AXTextArea"));
            continue;
        }
        states.append({i, send(Ref::fromHandle(node.handle), Interface::Accessible, QStringLiteral("GetState"), {},
                               callTimeout(context))});
    }
    for (auto& [index, call] : states) {
        if (auto err = wait(call, context, QStringLiteral("GetState of a text element"), &app)) {
            if (err->code == ErrorCode::StaleSnapshot || err->code == ErrorCode::InternalError)
                continue;
            return err;
        }
        const auto bits = uintList(firstArgument(call));
        const bool multi = Atspi::hasState(bits.value(0), bits.value(1), Atspi::StateMultiLine);
        Node& node = snapshot.nodes[index];
        node.role = multi ? QStringLiteral("AXTextArea") : QStringLiteral("AXTextField");
        if (m_multiLine.size() > 50000)
            m_multiLine.clear();
        m_multiLine.insert(node.handle, multi);
    }
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        Node& node = snapshot.nodes[i];
        // Entries of a menu bar are AXMenuBarItem, whatever role the toolkit gives them
        // (Qt: menu item, GTK: menu).
        if (node.parent >= 0 && snapshot.nodes.at(node.parent).role == QLatin1String("AXMenuBar") &&
            (node.role == QLatin1String("AXMenuItem") || node.role == QLatin1String("AXMenu"))) {
            node.role = QStringLiteral("AXMenuBarItem");
            node.subrole.clear();
        }
    }
    // A window whose role is a chooser (GTK's file chooser dialog) is a dialog.
    if (!snapshot.nodes.isEmpty()) {
        Node& root = snapshot.nodes[0];
        if (root.nativeRole == QLatin1String("file chooser") || root.nativeRole == QLatin1String("font chooser") ||
            root.nativeRole == QLatin1String("color chooser")) {
            root.role = QStringLiteral("AXWindow");
            root.subrole = QStringLiteral("AXDialog");
        }
    }
    return std::nullopt;
}

bool AtspiBackend::tryCache(const App& app, const Window& window, const SnapshotBounds& bounds,
                            const CallContext& context, Snapshot* out, std::optional<Error>* error)
{
    const auto support = m_cacheSupport.constFind(app.root.service);
    if (support != m_cacheSupport.cend() && !*support)
        return false;
    // Values read by this call may be cached only if no event touched them since it was sent.
    const quint64 generation = m_tree->generation(app.root.service);
    auto call = send(Ref{app.root.service, QStringLiteral("/org/a11y/atspi/cache")}, Interface::Cache,
                     QStringLiteral("GetItems"), {}, callTimeout(context));
    call.waitForFinished();
    if (auto stop = context.checkpoint()) {
        *error = stop;
        return false;
    }
    if (call.isError()) {
        if (call.error().type() == QDBusError::NoReply || call.error().type() == QDBusError::Timeout) {
            *error = unresponsive(app, QStringLiteral("Cache.GetItems"), callTimeout(context));
            return false;
        }
        m_cacheSupport.insert(app.root.service, false);
        return false;
    }
    const QDBusMessage reply = call.reply();
    if (reply.arguments().isEmpty() || reply.signature() != QLatin1String("a((so)(so)(so)iiassusau)")) {
        // Qt answers an empty array in an older layout: walk instead (HEADLESS.md).
        m_cacheSupport.insert(app.root.service, false);
        return false;
    }
    struct Item
    {
        Ref self, parent;
        int index = 0;
        int childCount = 0;
        QStringList interfaces;
        QString name, description;
        quint32 role = 0;
        QList<quint32> states;
    };
    QHash<QString, QList<Item>> byParent;
    const QDBusArgument arg = reply.arguments().constFirst().value<QDBusArgument>();
    int count = 0;
    arg.beginArray();
    while (!arg.atEnd()) {
        Item item;
        Ref appRef;
        arg.beginStructure();
        item.self = refFromArgument(arg);
        appRef = refFromArgument(arg);
        item.parent = refFromArgument(arg);
        arg >> item.index >> item.childCount >> item.interfaces >> item.name >> item.role >> item.description;
        arg >> item.states;
        arg.endStructure();
        byParent[item.parent.path].append(item);
        ++count;
    }
    arg.endArray();
    if (count == 0 || !byParent.contains(window.ref.path)) {
        m_cacheSupport.insert(app.root.service, count > 0);
        return false;
    }
    m_cacheSupport.insert(app.root.service, true);

    // Seed the tree cache. Children are stored only where the items hold all of them (the
    // cache leaves out the children of MANAGES_DESCENDANTS nodes, for instance).
    {
        for (const auto& list : std::as_const(byParent)) {
            for (const auto& item : list) {
                auto kids = byParent.value(item.self.path);
                std::optional<QList<AtspiTreeCache::Child>> children;
                if (kids.size() == item.childCount) {
                    std::sort(kids.begin(), kids.end(), [](const Item& a, const Item& b) { return a.index < b.index; });
                    QList<AtspiTreeCache::Child> refs;
                    for (const auto& kid : kids)
                        refs.append({kid.self.service, kid.self.path});
                    children = refs;
                }
                m_tree->store(item.self.service, item.self.path, generation, item.role, item.name, children);
            }
        }
    }

    Snapshot snapshot;
    // The window itself is a child of the app root, which the cache leaves out: look it up
    // among the items by path.
    std::optional<Item> windowItem;
    for (const auto& list : std::as_const(byParent)) {
        for (const auto& item : list) {
            if (item.self.path == window.ref.path)
                windowItem = item;
        }
    }
    const auto makeNode = [&](const Item& item) {
        Node node;
        const quint32 low = item.states.value(0), high = item.states.value(1);
        applyRole(node, item.role, Atspi::hasState(low, high, Atspi::StateMultiLine));
        node.title = item.name;
        node.description = item.description;
        node.handle = item.self.handle();
        const bool secure = item.role == Atspi::kRolePasswordText;
        node.states = Atspi::nodeStates(low, high, secure);
        node.detailed = false; // frame and actions are read on demand
        return node;
    };
    if (windowItem) {
        snapshot.nodes.append(makeNode(*windowItem));
    } else {
        Node root;
        applyRole(root, Atspi::kRoleFrame, false);
        root.title = window.title;
        root.handle = window.ref.handle();
        root.detailed = false;
        snapshot.nodes.append(root);
    }
    QList<std::pair<int, int>> queue{{0, 0}}; // node index, depth
    QDeadlineTimer wall(bounds.maxWallTimeMs);
    for (int q = 0; q < queue.size(); ++q) {
        const auto [index, depth] = queue.at(q);
        const QString path = Ref::fromHandle(snapshot.nodes.at(index).handle).path;
        auto children = byParent.value(path);
        if (children.isEmpty())
            continue;
        if (depth >= bounds.maxDepth) {
            snapshot.truncated = true;
            snapshot.truncatedReason = QStringLiteral("maxDepth");
            continue;
        }
        std::sort(children.begin(), children.end(), [](const Item& a, const Item& b) { return a.index < b.index; });
        for (const auto& item : children) {
            if (snapshot.nodes.size() >= bounds.maxNodes || wall.hasExpired()) {
                snapshot.truncated = true;
                snapshot.truncatedReason =
                    wall.hasExpired() ? QStringLiteral("maxWallTimeMs") : QStringLiteral("maxNodes");
                break;
            }
            Node node = makeNode(item);
            node.parent = index;
            snapshot.nodes[index].children.append(static_cast<int>(snapshot.nodes.size()));
            snapshot.nodes.append(node);
            queue.append({static_cast<int>(snapshot.nodes.size()) - 1, depth + 1});
        }
    }
    if (bounds.includeText) {
        QList<int> texts;
        for (int i = 0; i < snapshot.nodes.size(); ++i)
            texts.append(i);
        if (auto err = readTexts(snapshot, texts, context)) {
            *error = err;
            return false;
        }
    }
    *out = snapshot;
    return true;
}

Result<Snapshot> AtspiBackend::walk(const App& app, const Window& window, const SnapshotBounds& bounds,
                                    const CallContext& context)
{
    Snapshot snapshot;
    QDeadlineTimer wall(bounds.maxWallTimeMs);
    QList<NodeIds> level{NodeIds{window.ref, -1, 0, 0}};
    const QString accessible = QStringLiteral("org.a11y.atspi.Accessible");
    // The route was resolved with a round trip to this app, so after this barrier the cache
    // reflects every event the app sent before answering.
    m_tree->sync();
    int asked = 0, cached = 0;
    // Children are taken from the cache only where the toolkit reports their changes.
    const bool trustChildren = app.childrenEventsReliable();
    // Round trips, not work, dominate (HEADLESS.md): each level's calls go out together, and
    // only for what the cache does not know. Qt 6.4 answers neither Properties.GetAll nor
    // AccessibleId, so per unknown node it is role, name and children: up to three calls.
    while (!level.isEmpty()) {
        QList<NodeIds> next;
        bool stop = false;
        for (qsizetype start = 0; start < level.size() && !stop; start += kBatch / 3) {
            const auto chunk = level.mid(start, kBatch / 3);
            const int timeout = batchTimeout(context);
            const quint64 generation = m_tree->generation(app.root.service);
            struct Pending
            {
                std::optional<AtspiTreeCache::Entry> known;
                std::optional<QDBusPendingCall> role, name, children, count;
                bool childrenVouched = false;
            };
            QList<Pending> pending(chunk.size());
            for (qsizetype i = 0; i < chunk.size(); ++i) {
                const auto& ids = chunk[i];
                Pending& p = pending[i];
                p.known = m_tree->lookup(ids.ref.service, ids.ref.path);
                if (!p.known || !p.known->role)
                    p.role = send(ids.ref, Interface::Accessible, QStringLiteral("GetRole"), {}, timeout);
                if (!p.known || !p.known->name)
                    p.name = send(ids.ref, Interface::Properties, QStringLiteral("Get"),
                                  {accessible, QStringLiteral("Name")}, timeout);
                // Where the toolkit does not report new children, only Qt's controls that never
                // hold any (buttons, labels, fields...) keep their cached empty list (in a web
                // page a label may hold a checkbox).
                p.childrenVouched =
                    p.known && p.known->children &&
                    (trustChildren || (app.isQt() && p.known->role && Atspi::isLeafControl(*p.known->role) &&
                                       p.known->children->isEmpty()));
                if (ids.depth < bounds.maxDepth && !p.childrenVouched) {
                    // A container's cached children are checked against its ChildCount, which
                    // the app answers without building every child (Qt's GetChildren on a
                    // container of thousands costs it hundreds of milliseconds).
                    if (p.known && p.known->children)
                        p.count = send(ids.ref, Interface::Properties, QStringLiteral("Get"),
                                       {accessible, QStringLiteral("ChildCount")}, timeout);
                    else
                        p.children = send(ids.ref, Interface::Accessible, QStringLiteral("GetChildren"), {}, timeout);
                }
                const int calls = int(p.role.has_value()) + int(p.name.has_value()) + int(p.children.has_value()) +
                                  int(p.count.has_value());
                asked += calls;
                cached += 3 - calls;
            }
            {
                QList<QDBusPendingCall*> sent;
                for (auto& p : pending) {
                    for (auto* call : {&p.role, &p.name, &p.children, &p.count}) {
                        if (*call)
                            sent.append(&**call);
                    }
                }
                if (auto err = waitBatch(sent, context, app, QStringLiteral("the tree walk")))
                    return *err;
            }
            for (qsizetype i = 0; i < chunk.size(); ++i) {
                Pending& p = pending[i];
                bool failed = false;
                if (p.count) {
                    // Still the same number of children: the cached list stands (a child that
                    // went away is reported defunct, which drops its parent's list too).
                    p.count->waitForFinished();
                    if (!p.count->isError() &&
                        unwrap(firstArgument(*p.count)).toInt() == static_cast<int>(p.known->children->size())) {
                        p.childrenVouched = true;
                    } else {
                        p.children = send(chunk[i].ref, Interface::Accessible, QStringLiteral("GetChildren"), {},
                                          callTimeout(context));
                        ++asked;
                    }
                }
                for (auto* call : {&p.role, &p.name, &p.children}) {
                    if (!*call)
                        continue;
                    (*call)->waitForFinished();
                    if (!(*call)->isError())
                        continue;
                    failed = true;
                    const auto type = (*call)->error().type();
                    if (type == QDBusError::NoReply || type == QDBusError::Timeout)
                        return *unresponsive(app, QStringLiteral("the tree walk"), timeout);
                    if (type == QDBusError::Disconnected) {
                        disconnect();
                        return Error::make(ErrorCode::HostNotReady, QStringLiteral("the AT-SPI bus went away; retry"),
                                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("atspi_bus_lost")}});
                    }
                }
                if (auto halt = context.checkpoint())
                    return *halt;
                const NodeIds& ids = chunk[i];
                if (failed) {
                    if (ids.parent < 0)
                        return Error::make(ErrorCode::StaleSnapshot, QStringLiteral("the target window went away"),
                                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
                    continue; // an element that vanished meanwhile
                }
                if (snapshot.nodes.size() >= bounds.maxNodes) {
                    snapshot.truncated = true;
                    snapshot.truncatedReason = QStringLiteral("maxNodes");
                    stop = true;
                    break;
                }
                const quint32 role = p.role ? firstArgument(*p.role).toUInt() : *p.known->role;
                const QString name = p.name ? unwrap(firstArgument(*p.name)).toString() : *p.known->name;
                QList<AtspiTreeCache::Child> children;
                const bool haveChildren = p.children.has_value() || p.childrenVouched;
                if (p.children) {
                    for (const auto& ref : refList(firstArgument(*p.children)))
                        children.append({ref.service, ref.path});
                } else if (p.childrenVouched) {
                    children = *p.known->children;
                }
                m_tree->store(ids.ref.service, ids.ref.path, generation,
                              p.role ? std::optional<quint32>(role) : std::nullopt,
                              p.name ? std::optional<QString>(name) : std::nullopt,
                              p.children ? std::optional<QList<AtspiTreeCache::Child>>(children) : std::nullopt);

                Node node;
                applyRole(node, role, false);
                node.title = name;
                node.handle = ids.ref.handle();
                node.detailed = false;
                if (role == Atspi::kRolePasswordText)
                    node.states |= StateSecure;
                node.parent = ids.parent;
                const int index = static_cast<int>(snapshot.nodes.size());
                if (node.parent >= 0)
                    snapshot.nodes[node.parent].children.append(index);
                snapshot.nodes.append(node);
                if (!haveChildren) {
                    // At maxDepth: whether it has children is not known without another call.
                    snapshot.truncated = true;
                    if (snapshot.truncatedReason.isEmpty())
                        snapshot.truncatedReason = QStringLiteral("maxDepth");
                    continue;
                }
                int n = 0;
                for (const auto& child : children) {
                    const Ref ref{child.service, child.path};
                    if (!ref.isNull())
                        next.append(NodeIds{ref, index, ids.depth + 1, n});
                    ++n;
                }
            }
        }
        if (stop)
            break;
        if (wall.hasExpired() && !next.isEmpty()) {
            snapshot.truncated = true;
            snapshot.truncatedReason = QStringLiteral("maxWallTimeMs");
            break;
        }
        level = next;
    }
    qCDebug(lcAtspi) << "walk:" << snapshot.nodes.size() << "nodes," << asked << "calls," << cached << "from the cache";
    if (snapshot.nodes.isEmpty())
        return Error::make(ErrorCode::StaleSnapshot, QStringLiteral("the target window went away"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    if (bounds.includeText) {
        QList<int> all;
        for (int i = 0; i < snapshot.nodes.size(); ++i)
            all.append(i);
        if (auto err = readTexts(snapshot, all, context))
            return *err;
    }
    return snapshot;
}

std::optional<Error> AtspiBackend::readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    App app =
        m_appCache.value(snapshot.nodes.isEmpty() ? QString() : Ref::fromHandle(snapshot.nodes[0].handle).service);
    app.pid = snapshot.pid;
    for (qsizetype start = 0; start < indexes.size(); start += kBatch) {
        const auto chunk = indexes.mid(start, kBatch);
        const int timeout = callTimeout(context);
        QList<QDBusPendingCall> ifaces;
        for (int index : chunk)
            ifaces.append(send(Ref::fromHandle(snapshot.nodes[index].handle), Interface::Accessible,
                               QStringLiteral("GetInterfaces"), {}, timeout));
        QList<std::pair<int, QDBusPendingCall>> texts, values;
        for (int i = 0; i < chunk.size(); ++i) {
            ifaces[i].waitForFinished();
            if (ifaces[i].isError())
                continue;
            Node& node = snapshot.nodes[chunk[i]];
            // Never read a secure field (docs/architecture.md, "Secure elements").
            if (node.isSecure())
                continue;
            const QStringList names = firstArgument(ifaces[i]).toStringList();
            const Ref ref = Ref::fromHandle(node.handle);
            if (names.contains(QStringLiteral("org.a11y.atspi.Text")))
                texts.append({chunk[i], send(ref, Interface::Text, QStringLiteral("GetText"), {0, -1}, timeout)});
            else if (names.contains(QStringLiteral("org.a11y.atspi.Value")))
                values.append({chunk[i], send(ref, Interface::Properties, QStringLiteral("Get"),
                                              {QStringLiteral("org.a11y.atspi.Value"), QStringLiteral("CurrentValue")},
                                              timeout)});
        }
        for (auto& [index, call] : texts) {
            if (auto err = wait(call, context, QStringLiteral("Text.GetText"), &app)) {
                if (err->code != ErrorCode::StaleSnapshot && err->code != ErrorCode::InternalError)
                    return err;
                continue;
            }
            snapshot.nodes[index].value = firstArgument(call).toString();
            snapshot.nodes[index].hasValue = true;
        }
        for (auto& [index, call] : values) {
            if (auto err = wait(call, context, QStringLiteral("Value.CurrentValue"), &app)) {
                if (err->code != ErrorCode::StaleSnapshot && err->code != ErrorCode::InternalError)
                    return err;
                continue;
            }
            snapshot.nodes[index].value = QString::number(unwrap(firstArgument(call)).toDouble());
            snapshot.nodes[index].hasValue = true;
        }
        if (auto stop = context.checkpoint())
            return stop;
    }
    return std::nullopt;
}

Status AtspiBackend::completeNodes(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    App app =
        m_appCache.value(snapshot.nodes.isEmpty() ? QString() : Ref::fromHandle(snapshot.nodes[0].handle).service);
    app.pid = snapshot.pid;
    if (app.root.service.isEmpty() && !snapshot.nodes.isEmpty())
        app.root = Ref{Ref::fromHandle(snapshot.nodes[0].handle).service, kRootPath};
    readToolkit(app, context);
    // Frames are screen coordinates in answers and evidence: a toolkit that reports them
    // relative to its window gets the window's position on screen added.
    std::optional<QPoint> origin;
    if (app.windowRelativeExtents()) {
        origin = m_x11.contentOrigin(m_x11.findWindow(snapshot.pid, snapshot.windowTitle));
        if (!origin)
            qCWarning(lcAtspi) << "no X window for" << app.name << ": its frames stay window-relative";
    }
    // States and frames change without reliable events, so they are read every time; what an
    // object implements, and its action names, come from the tree cache when it has them (read
    // once, then kept until an event about the object drops them).
    m_tree->sync();
    for (qsizetype start = 0; start < indexes.size(); start += kBatch / 3) {
        const auto chunk = indexes.mid(start, kBatch / 3);
        const int timeout = batchTimeout(context);
        QList<QDBusPendingCall> states, frames;
        QList<std::optional<QDBusPendingCall>> ifaces;
        QList<std::optional<AtspiTreeCache::Entry>> known;
        QList<quint64> generations;
        for (int index : chunk) {
            const Ref ref = Ref::fromHandle(snapshot.nodes[index].handle);
            generations.append(m_tree->generation(ref.service));
            known.append(m_tree->lookup(ref.service, ref.path));
            states.append(send(ref, Interface::Accessible, QStringLiteral("GetState"), {}, timeout));
            frames.append(send(ref, Interface::Component, QStringLiteral("GetExtents"), {0u}, timeout));
            if (known.last() && known.last()->interfaces)
                ifaces.append(std::nullopt);
            else
                ifaces.append(send(ref, Interface::Accessible, QStringLiteral("GetInterfaces"), {}, timeout));
        }
        struct ActionRead
        {
            int index = -1;
            int position = -1; ///< in chunk
            std::optional<QDBusPendingCall> call;
        };
        {
            QList<QDBusPendingCall*> sent;
            for (int i = 0; i < chunk.size(); ++i) {
                sent << &states[i] << &frames[i];
                if (ifaces[i])
                    sent << &*ifaces[i];
            }
            if (auto err = waitBatch(sent, context, app, QStringLiteral("reading element details")))
                return *err;
        }
        QList<ActionRead> actions;
        QList<std::optional<QStringList>> readInterfaces(chunk.size());
        for (int i = 0; i < chunk.size(); ++i) {
            Node& node = snapshot.nodes[chunk[i]];
            for (QDBusPendingCall* call : {&states[i], &frames[i], ifaces[i] ? &*ifaces[i] : nullptr}) {
                if (!call)
                    continue;
                call->waitForFinished();
                if (call->isError() &&
                    (call->error().type() == QDBusError::NoReply || call->error().type() == QDBusError::Timeout))
                    return *unresponsive(app, QStringLiteral("reading element details"), timeout);
            }
            if (!states[i].isError()) {
                const auto bits = uintList(firstArgument(states[i]));
                const quint32 low = bits.value(0), high = bits.value(1);
                const bool secure = node.isSecure();
                node.states = Atspi::nodeStates(low, high, secure);
                if (Atspi::hasState(low, high, Atspi::StateMultiLine) && node.role == QLatin1String("AXTextField") &&
                    !secure)
                    node.role = QStringLiteral("AXTextArea");
            }
            if (!frames[i].isError()) {
                node.frame = extents(firstArgument(frames[i]));
                if (origin && !node.frame.isEmpty()) {
                    node.frame.x += origin->x();
                    node.frame.y += origin->y();
                }
            }
            std::optional<QStringList> interfaces;
            if (!ifaces[i])
                interfaces = known[i]->interfaces;
            else if (!ifaces[i]->isError())
                interfaces = readInterfaces[i] = firstArgument(*ifaces[i]).toStringList();
            if (interfaces && interfaces->contains(QStringLiteral("org.a11y.atspi.Action"))) {
                if (known[i] && known[i]->actions)
                    node.actions = *known[i]->actions;
                else
                    actions.append({chunk[i], i,
                                    send(Ref::fromHandle(node.handle), Interface::Action, QStringLiteral("GetActions"),
                                         {}, timeout)});
            }
            node.detailed = true;
        }
        QList<std::optional<QStringList>> readActions(chunk.size());
        {
            QList<QDBusPendingCall*> sent;
            for (auto& read : actions)
                sent << &*read.call;
            if (auto err = waitBatch(sent, context, app, QStringLiteral("reading element actions")))
                return *err;
        }
        for (auto& read : actions) {
            read.call->waitForFinished();
            Node& node = snapshot.nodes[read.index];
            if (!read.call->isError())
                node.actions = actionNames(firstArgument(*read.call));
            // Gecko: names only through GetName(i).
            if (!actionNamesUsable(node.actions))
                node.actions = actionNamesOf(Ref::fromHandle(node.handle), app, context);
            if (!read.call->isError())
                readActions[read.position] = node.actions;
        }
        for (int i = 0; i < chunk.size(); ++i) {
            if (readInterfaces[i] || readActions[i]) {
                const Ref ref = Ref::fromHandle(snapshot.nodes[chunk[i]].handle);
                m_tree->storeDetails(ref.service, ref.path, generations[i], readInterfaces[i], readActions[i]);
            }
        }
        if (auto stop = context.checkpoint())
            return *stop;
    }
    return success();
}

Result<Screenshot> AtspiBackend::screenshot(const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    QString error;
    QImage image;
    if (!m_x11.screenshot(&image, &error))
        return Error::make(ErrorCode::PermissionMissing, error,
                           QJsonObject{{QStringLiteral("permission"), QStringLiteral("screenRecording")}});
    const QDateTime takenAt = QDateTime::currentDateTimeUtc();
    const QByteArray png = PngEncoder::encode(image, m_pngCompression >= 0 ? m_pngCompression : PngEncoder::kDefaultLevel);
    if (png.isEmpty())
        return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be encoded as PNG"));
    return Screenshot{png, image.width(), image.height(), takenAt};
}

Status AtspiBackend::focusWindow(const ResolvedRoute& route, const CallContext& context)
{
    const quint64 window = m_x11.findWindow(route.pid, route.windowTitle);
    if (window) {
        m_x11.activate(window, static_cast<int>(std::min<qint64>(1000, context.remainingMs())),
                       [&context] { return context.checkpoint().has_value(); });
        if (auto stop = context.checkpoint())
            return *stop;
        return success();
    }
    // No X window known for it: ask the toolkit.
    auto grab = send(Ref::fromHandle(route.windowHandle), Interface::Component, QStringLiteral("GrabFocus"), {},
                     callTimeout(context));
    if (auto err = wait(grab, context, QStringLiteral("Component.GrabFocus")))
        return *err;
    return success();
}

// ---- Honest outcomes (docs/architecture.md): what is read before an action, and what the
// host waits to see after it.

AtspiBackend::ElementState AtspiBackend::readElementState(const Ref& ref, int timeoutMs)
{
    ElementState state;
    auto states = send(ref, Interface::Accessible, QStringLiteral("GetState"), {}, timeoutMs);
    auto name = send(ref, Interface::Properties, QStringLiteral("Get"),
                     {QStringLiteral("org.a11y.atspi.Accessible"), QStringLiteral("Name")}, timeoutMs);
    auto count = send(ref, Interface::Properties, QStringLiteral("Get"),
                      {QStringLiteral("org.a11y.atspi.Accessible"), QStringLiteral("ChildCount")}, timeoutMs);
    for (auto* call : {&states, &name, &count})
        call->waitForFinished();
    if (states.isError()) {
        const auto type = states.error().type();
        state.gone = type == QDBusError::UnknownObject || type == QDBusError::ServiceUnknown ||
                     type == QDBusError::UnknownMethod;
        return state;
    }
    state.read = true;
    const auto bits = uintList(firstArgument(states));
    state.low = bits.value(0);
    state.high = bits.value(1);
    // A defunct element is gone as far as the person can see.
    state.gone = Atspi::hasState(state.low, state.high, Atspi::StateDefunct);
    state.nameRead = !name.isError();
    if (state.nameRead)
        state.name = unwrap(firstArgument(name)).toString();
    state.countRead = !count.isError();
    if (state.countRead)
        state.childCount = unwrap(firstArgument(count)).toInt();
    return state;
}

Result<QStringList> AtspiBackend::windowPaths(const App& app, int timeoutMs)
{
    auto children = send(app.root, Interface::Accessible, QStringLiteral("GetChildren"), {}, timeoutMs);
    children.waitForFinished();
    if (children.isError())
        return Error::make(ErrorCode::TargetUnresponsive, children.error().message());
    QStringList out;
    for (const auto& ref : refList(firstArgument(children)))
        out.append(ref.path);
    return out;
}

AtspiBackend::Baseline AtspiBackend::baseline(const App& app, const Ref* target, const CallContext& context)
{
    Baseline before;
    before.service = app.root.service;
    // Let what the app is still reporting about earlier steps (focusing its window) arrive
    // first, so it is not taken for the action's effect: wait until it has been quiet for 40 ms.
    QDeadlineTimer quiet(std::min<qint64>(300, std::max<qint64>(0, context.remainingMs() / 4)));
    while (true) {
        m_tree->sync();
        const auto recent = m_tree->activityAfterTime(before.service, m_tree->nowMs() - 40);
        if (recent.isEmpty() || quiet.hasExpired() || context.checkpoint())
            break;
        QThread::msleep(10);
    }
    before.mark = m_tree->activityMark();
    before.atMs = m_tree->nowMs();
    // What keeps firing by itself (a spinner, a clock) is not evidence of anything. Only what
    // came after the host's previous action had settled counts: its own effects are not noise.
    QHash<QString, int> counts;
    const qint64 since = std::max<qint64>(before.atMs - 1000, m_settledAt.value(before.service, before.atMs - 1000));
    for (const auto& a : m_tree->activityAfterTime(before.service, since))
        ++counts[a.path + QLatin1Char('|') + a.kind];
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() >= 3)
            before.noisy.insert(it.key());
    }
    const int timeout = context.callTimeoutMs(300);
    if (target) {
        before.target = *target;
        before.targetState = readElementState(*target, timeout);
    }
    if (auto windows = windowPaths(app, timeout)) {
        before.windows = windows.value();
        before.windowsRead = true;
    }
    return before;
}

void AtspiBackend::settle(const Baseline& before, const CallContext& context)
{
    // The answer leaves once the app has consumed the action: its reports have stopped for
    // 100 ms (at most 600 ms). The next action then starts from a settled app, and late
    // effects of this one (a toggle springing back) are not taken for the next one's.
    QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(600, context.remainingMs() - 150)));
    while (!until.hasExpired() && !context.checkpoint()) {
        m_tree->sync();
        bool recent = false;
        for (const auto& a : m_tree->activityAfterTime(before.service, m_tree->nowMs() - 100))
            recent = recent || !before.noisy.contains(a.path + QLatin1Char('|') + a.kind);
        if (!recent)
            break;
        QThread::msleep(20);
    }
}

Verification AtspiBackend::verifyChange(const App& app, const Baseline& before, const QString& expected, int budgetMs,
                                        const CallContext& context, bool* answered)
{
    QElapsedTimer timer;
    timer.start();
    Verification v;
    v.expected = expected;
    bool sawAnswer = false, lastAnswered = false;
    const qint64 budget = std::max<qint64>(0, std::min<qint64>(budgetMs, context.remainingMs() - 150));
    QDeadlineTimer until(budget);
    QStringList seen;
    while (true) {
        const int timeout = static_cast<int>(std::clamp<qint64>(until.remainingTime(), 100, 250));
        // A round trip the app answers only after handling what came before it.
        ElementState now;
        if (!before.target.isNull())
            now = readElementState(before.target, timeout);
        auto windows = windowPaths(app, timeout);
        const bool appAnswered = windows.ok() || now.read;
        sawAnswer = sawAnswer || appAnswered;
        lastAnswered = appAnswered;
        m_tree->sync();
        QJsonArray events;
        for (const auto& a : m_tree->activitySince(before.service, before.mark)) {
            if (before.noisy.contains(a.path + QLatin1Char('|') + a.kind) || isActivationEvent(a.kind))
                continue;
            // The target taking focus, or a button's transient pressed/armed look, is not the effect.
            if (a.path == before.target.path &&
                (a.kind == QLatin1String("StateChanged:focused") || a.kind == QLatin1String("StateChanged:pressed") ||
                 a.kind == QLatin1String("StateChanged:armed") || a.kind.startsWith(QLatin1String("Focus:"))))
                continue;
            if (events.size() < 8)
                events.append(QJsonObject{{QStringLiteral("kind"), a.kind}, {QStringLiteral("path"), a.path}});
            else
                break;
        }
        QStringList changes;
        if (!events.isEmpty())
            changes.append(QStringLiteral("the app reported changes"));
        if (!before.target.isNull() && before.targetState.read) {
            if (now.gone) {
                changes.append(QStringLiteral("the target is gone"));
            } else if (now.read) {
                const quint32 ignore = (1u << Atspi::StateFocused) | (1u << Atspi::StateActive) | (1u << 2 /*armed*/) |
                                       (1u << 20 /*pressed*/);
                if ((now.low & ~ignore) != (before.targetState.low & ~ignore) || now.high != before.targetState.high)
                    changes.append(QStringLiteral("the target's state changed"));
                if (now.nameRead && before.targetState.nameRead && now.name != before.targetState.name)
                    changes.append(QStringLiteral("the target's name changed"));
                if (now.countRead && before.targetState.countRead && now.childCount != before.targetState.childCount)
                    changes.append(QStringLiteral("the target's children changed"));
            }
        }
        if (windows && before.windowsRead && windows.value() != before.windows) {
            const int delta = static_cast<int>(windows->size() - before.windows.size());
            changes.append(delta > 0   ? QStringLiteral("a window appeared")
                           : delta < 0 ? QStringLiteral("a window closed")
                                       : QStringLiteral("the app's windows changed"));
        }
        if (!changes.isEmpty()) {
            v.effect = Effect::Confirmed;
            v.observed = QJsonObject{{QStringLiteral("changes"), QJsonArray::fromStringList(changes)},
                                     {QStringLiteral("events"), events}};
            break;
        }
        if (until.hasExpired() || context.checkpoint())
            break;
        QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(until.remainingTime(), 1, 25)));
    }
    if (v.effect != Effect::Confirmed && sawAnswer && !lastAnswered) {
        // The last look may have had little time: before calling the app busy, ask it once more.
        auto probe = send(app.root, Interface::Accessible, QStringLiteral("GetRole"), {},
                          static_cast<int>(std::clamp<qint64>(context.remainingMs() - 100, 1, 200)));
        probe.waitForFinished();
        lastAnswered = !probe.isError();
    }
    if (v.effect != Effect::Confirmed && sawAnswer && lastAnswered && context.remainingMs() > 700) {
        // Before saying nothing happened, one late look: a handler that runs a moment later
        // (Qt presses a button 100 ms after the action, later still on a loaded machine) and
        // then keeps the app busy is an effect, not a no-op.
        QThread::msleep(150);
        m_tree->sync();
        auto probe = send(app.root, Interface::Accessible, QStringLiteral("GetRole"), {}, 300);
        probe.waitForFinished();
        lastAnswered = !probe.isError();
        for (const auto& a : m_tree->activitySince(before.service, before.mark)) {
            if (!before.noisy.contains(a.path + QLatin1Char('|') + a.kind) && !isActivationEvent(a.kind) &&
                a.path != before.target.path) {
                v.effect = Effect::Confirmed;
                v.observed = QJsonObject{
                    {QStringLiteral("changes"), QJsonArray{QStringLiteral("the app reported changes")}},
                    {QStringLiteral("events"),
                     QJsonArray{QJsonObject{{QStringLiteral("kind"), a.kind}, {QStringLiteral("path"), a.path}}}}};
                break;
            }
        }
    }
    if (v.effect != Effect::Confirmed) {
        if (sawAnswer && lastAnswered) {
            v.effect = Effect::SuspectedNoop;
            v.reason = QStringLiteral("nothing changed in the app within %1 ms").arg(timer.elapsed());
        } else {
            // An app that stops answering right after an action is most likely busy with it.
            v.effect = Effect::Unverifiable;
            v.reason = sawAnswer
                           ? QStringLiteral("the app stopped answering right after the action (it is probably "
                                            "still handling it)")
                           : QStringLiteral("the app has not answered since the action (it may still be handling it)");
        }
        v.observed = QJsonObject{{QStringLiteral("changes"), QJsonArray()},
                                 {QStringLiteral("appAnswered"), sawAnswer},
                                 {QStringLiteral("appAnswering"), lastAnswered}};
    } else {
        settle(before, context);
    }
    m_settledAt.insert(before.service, m_tree->nowMs());
    v.verifyMs = timer.elapsed();
    if (answered)
        *answered = sawAnswer;
    return v;
}

Result<ActionOutcome> AtspiBackend::press(const ResolvedRoute& route, const Node& element, const CallContext& context)
{
    const App app = appOf(route, context);
    const Ref ref = Ref::fromHandle(element.handle);
    QStringList names = actionNamesOf(ref, app, context);
    if (auto stop = context.checkpoint())
        return *stop;
    const auto bestAction = [&names] {
        int best = -1;
        for (int i = 0; i < names.size(); ++i) {
            if (isPressAction(names[i]) && (best < 0 || pressRank(names[i]) < pressRank(names[best])))
                best = i;
        }
        return best;
    };
    int best = bestAction();
    // A control that always has an action may not have it yet: Gecko fills in a new page's
    // actions a moment after the element appears. Ask again for a while before giving up.
    static const QStringList actionable{QStringLiteral("AXButton"),      QStringLiteral("AXCheckBox"),
                                        QStringLiteral("AXRadioButton"), QStringLiteral("AXLink"),
                                        QStringLiteral("AXMenuItem"),    QStringLiteral("AXMenuBarItem"),
                                        QStringLiteral("AXMenuButton"),  QStringLiteral("AXPopUpButton")};
    if (best < 0 && actionable.contains(element.role)) {
        QDeadlineTimer until(std::min<qint64>(1500, context.remainingMs() / 3));
        while (best < 0 && !until.hasExpired()) {
            if (auto stop = context.checkpoint())
                return *stop;
            QThread::msleep(100);
            names = actionNamesOf(ref, app, context);
            best = bestAction();
        }
    }
    if (best < 0)
        return Error::make(ErrorCode::ElementNotFound,
                           QStringLiteral("the element has no press, click or activate action"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_action")},
                                       {QStringLiteral("actions"), QJsonArray::fromStringList(names)}});
    // Like a person, wait for a control that is still disabled to become usable (a dialog's
    // Save turns sensitive a moment after its name field is filled): pressing it now would do
    // nothing. Give up after a while, having sent nothing.
    {
        QDeadlineTimer until(std::min<qint64>(2000, context.remainingMs() / 3));
        ElementState state = readElementState(ref, callTimeout(context));
        while (state.read && !Atspi::hasState(state.low, state.high, Atspi::StateSensitive) && !until.hasExpired()) {
            if (auto stop = context.checkpoint())
                return *stop;
            QThread::msleep(25);
            state = readElementState(ref, callTimeout(context));
        }
        if (state.read && !Atspi::hasState(state.low, state.high, Atspi::StateSensitive))
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("the element is disabled; nothing was pressed"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("disabled")},
                                           {QStringLiteral("element"), ElementRef::fromNode(element).toJson()}});
    }
    const Baseline before = baseline(app, &ref, context);
    if (auto stop = context.checkpoint())
        return *stop;
    // Qt answers DoAction only once the slot returns, so an action that opens a modal dialog
    // has no reply until the dialog closes. Wait briefly for the reply, then look at the app
    // instead: a dialog that appeared is the effect, and the app is not hung.
    const int replyWaitMs = context.callTimeoutMs(700);
    auto done = send(ref, Interface::Action, QStringLiteral("DoAction"), {best}, replyWaitMs);
    done.waitForFinished();
    if (auto stop = context.checkpoint())
        return *stop;
    bool pending = false;
    if (done.isError()) {
        const auto type = done.error().type();
        if (type == QDBusError::NoReply || type == QDBusError::Timeout || type == QDBusError::TimedOut) {
            pending = true;
        } else if (type == QDBusError::UnknownObject || type == QDBusError::ServiceUnknown) {
            return Error::make(ErrorCode::StaleSnapshot, QStringLiteral("the element went away before it was pressed"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
        } else {
            return Error::make(
                       ErrorCode::InternalError,
                       QStringLiteral("AT-SPI DoAction failed: %1 %2").arg(done.error().name(), done.error().message()))
                .withRetryable(false);
        }
    } else if (!firstArgument(done).toBool()) {
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("the application refused the action \"%1\"").arg(names[best]),
                           QJsonObject{{QStringLiteral("action"), names[best]},
                                       {QStringLiteral("reason"), QStringLiteral("refused")}})
            .withRetryable(false);
    }
    bool answered = false;
    Verification v = verifyChange(app, before, QStringLiteral("a change in the app after the action"),
                                  pending ? 2000 : 600, context, &answered);
    if (pending && v.effect == Effect::SuspectedNoop) {
        // The action has not returned: it may still be doing its work (a nested event loop
        // without a new window). Retrying would run it twice.
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the action has not returned yet and nothing has changed so far");
    }
    const QString deliveredBy = QStringLiteral("accessibilityAction:") + names[best].toLower();
    QJsonObject path{{QStringLiteral("path"), deliveredBy},
                     {QStringLiteral("effect"), effectName(v.effect)},
                     {QStringLiteral("observed"), v.observed},
                     {QStringLiteral("replied"), !pending}};
    v.paths.append(path);
    if (pending && v.effect == Effect::Confirmed)
        v.observed.insert(QStringLiteral("actionStillRunning"), true);
    QJsonObject details{{QStringLiteral("action"), names[best]}, {QStringLiteral("index"), best}};
    if (pending)
        details.insert(QStringLiteral("reply"),
                       QStringLiteral("none yet: the app is still in the action (e.g. a modal dialog)"));
    ActionOutcome outcome{deliveredBy, v.effect == Effect::Confirmed, details, v};
    return outcome;
}

Result<ActionOutcome> AtspiBackend::clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                            const Node* target)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const App app = appOf(route, context);
    // The element under the pointer taking focus (or looking pressed) is not the click's effect.
    const Ref targetRef = target ? Ref::fromHandle(target->handle) : Ref{};
    const Baseline before = baseline(app, target ? &targetRef : nullptr, context);
    QString error;
    if (!m_x11.click(
            point, [&context] { return context.checkpoint().has_value(); }, &error)) {
        if (auto stop = context.checkpoint())
            return *stop;
        return Error::make(ErrorCode::PermissionMissing, error);
    }
    Verification v = verifyChange(app, before, QStringLiteral("a change in the app after the click"), 600, context);
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("pointer")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("pointer"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("x"), point.x()}, {QStringLiteral("y"), point.y()}}, v};
}

std::optional<Error> AtspiBackend::injectKey(unsigned long keysym, bool press, const CallContext& context)
{
    // Never a key after a stop, an abort or the deadline (plan 4.5).
    if (press) {
        if (auto stop = context.checkpoint())
            return stop;
    }
    QString error;
    if (!m_x11.key(keysym, press, &error))
        return Error::make(ErrorCode::InternalError, error);
    return std::nullopt;
}

std::optional<Error> AtspiBackend::sendKeys(const QList<unsigned long>& chord, const CallContext& context, int delayMs,
                                            bool* anyPressed)
{
    QList<unsigned long> pressed;
    std::optional<Error> failure;
    for (unsigned long keysym : chord) {
        if ((failure = injectKey(keysym, true, context)))
            break;
        pressed.append(keysym);
        QDeadlineTimer pause(delayMs);
        while (!pause.hasExpired() && !context.checkpoint())
            QThread::msleep(1);
    }
    // Whatever happened, release what was pressed: a stuck modifier would follow the person.
    for (auto it = pressed.crbegin(); it != pressed.crend(); ++it)
        injectKey(*it, false, context);
    if (anyPressed)
        *anyPressed = !pressed.isEmpty();
    return failure;
}

std::optional<Error> AtspiBackend::typeByKeys(const QString& text, const CallContext& context)
{
    // By Unicode scalar value: a character outside the BMP is one key, not two surrogates.
    for (const char32_t c : QStringView(text).toUcs4()) {
        if (auto stop = context.checkpoint())
            return stop;
        QString error;
        if (!m_x11.typeCodePoint(c, &error))
            return Error::make(ErrorCode::InternalError, error);
    }
    return std::nullopt;
}

Result<TypeOutcome> AtspiBackend::typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                           const TypeOptions& options, const CallContext& context)
{
    const App app = appOf(route, context);
    const bool secure = target && target->isSecure();
    bool terminal = target && target->nativeRole == QLatin1String("terminal");
    TypeOutcome outcome;
    Verification& v = outcome.verification;
    QElapsedTimer verifyTimer;
    qint64 verifyMs = 0;

    Ref ref;
    bool hasText = false, hasEditable = false;
    if (target) {
        ref = Ref::fromHandle(target->handle);
        auto ifaces = send(ref, Interface::Accessible, QStringLiteral("GetInterfaces"), {}, callTimeout(context));
        if (auto err = wait(ifaces, context, QStringLiteral("GetInterfaces"), &app))
            return *err;
        const QStringList names = firstArgument(ifaces).toStringList();
        hasText = names.contains(QStringLiteral("org.a11y.atspi.Text"));
        hasEditable = names.contains(QStringLiteral("org.a11y.atspi.EditableText"));
        if (names.contains(QStringLiteral("org.a11y.atspi.Component"))) {
            auto grab = send(ref, Interface::Component, QStringLiteral("GrabFocus"), {}, callTimeout(context));
            if (auto err = wait(grab, context, QStringLiteral("Component.GrabFocus"), &app);
                err && (err->code == ErrorCode::Aborted || err->code == ErrorCode::Timeout))
                return *err;
        }
    }

    // What the field holds now, where the caret is, and what it should hold afterwards.
    const auto readText = [&](QString* out, int timeoutMs = -1) {
        auto back = send(ref, Interface::Text, QStringLiteral("GetText"), {0, -1},
                         timeoutMs > 0 ? std::min(timeoutMs, callTimeout(context)) : callTimeout(context));
        back.waitForFinished();
        if (back.isError())
            return false;
        *out = firstArgument(back).toString();
        return true;
    };
    const auto readCount = [&](int timeoutMs = -1) {
        auto count = send(ref, Interface::Properties, QStringLiteral("Get"),
                          {QStringLiteral("org.a11y.atspi.Text"), QStringLiteral("CharacterCount")},
                          timeoutMs > 0 ? std::min(timeoutMs, callTimeout(context)) : callTimeout(context));
        count.waitForFinished();
        return count.isError() ? -1 : unwrap(firstArgument(count)).toInt();
    };
    const bool canRead = target && hasText && !secure;
    QString before;
    bool haveBefore = canRead && readText(&before);
    int countBefore = (target && hasText) ? readCount() : -1;
    int caret = -1;
    if (target && hasText) {
        auto c = send(ref, Interface::Properties, QStringLiteral("Get"),
                      {QStringLiteral("org.a11y.atspi.Text"), QStringLiteral("CaretOffset")}, callTimeout(context));
        c.waitForFinished();
        if (!c.isError())
            caret = unwrap(firstArgument(c)).toInt();
    }
    if (auto stop = context.checkpoint())
        return *stop;
    const bool utf16 = app.utf16Units();
    const qsizetype insertIndex =
        options.clearBefore ? 0 : TextDelivery::indexOfOffset(before, caret < 0 ? -1 : caret, utf16);
    const QString expected = TextDelivery::expectedAfter(before, insertIndex, text, options.clearBefore);
    const int insertOffset = TextDelivery::offsetOfIndex(before, insertIndex, utf16);
    const int textUnits = utf16 ? static_cast<int>(text.size()) : static_cast<int>(QStringView(text).toUcs4().size());
    const int expectedCount = options.clearBefore ? textUnits : (countBefore < 0 ? -1 : countBefore + textUnits);

    // Verifies the field after one delivery path: polls until it holds the expected text, or
    // until it stops changing, within `budgetMs`.
    QString lastRead = before;
    Effect lastEffect = Effect::SuspectedNoop;
    const auto verifyField = [&](int budgetMs, QJsonObject* observed) -> Effect {
        verifyTimer.restart();
        QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(budgetMs, context.remainingMs() - 150)));
        // Each read waits no longer than what is left of this path's verification.
        const auto readTimeout = [&until] {
            return static_cast<int>(std::clamp<qint64>(until.remainingTime(), 50, 500));
        };
        Effect effect = Effect::SuspectedNoop;
        if (canRead && haveBefore) {
            QString now = before, how;
            bool anyRead = false;
            QElapsedTimer stable;
            stable.start();
            QString previous = before;
            while (true) {
                if (readText(&now, readTimeout())) {
                    anyRead = true;
                    if (now != previous) {
                        previous = now;
                        stable.restart();
                    }
                    effect = TextDelivery::classify(before, expected, now, text, &how, options.clearBefore);
                    // Settled: confirmed, or something arrived and has not changed for 250 ms.
                    if (effect == Effect::Confirmed || (effect == Effect::Partial && stable.elapsed() >= 250))
                        break;
                }
                if (until.hasExpired() || context.checkpoint())
                    break;
                QThread::msleep(20);
            }
            if (!anyRead) {
                // The app did not answer a single read after the input: it may be busy with it.
                // Nothing can be said, and moving on to another path could type the text twice.
                effect = Effect::Unverifiable;
                how = QStringLiteral("unreadable");
            } else {
                lastRead = now;
            }
            *observed = TextDelivery::observation(now);
            observed->insert(QStringLiteral("comparison"), how);
        } else if (target && hasText && countBefore >= 0) {
            // A secure field is never read; its length is the signal.
            int now = countBefore;
            while (true) {
                now = readCount(readTimeout());
                if (now == expectedCount || until.hasExpired() || context.checkpoint())
                    break;
                QThread::msleep(20);
            }
            // A length that was already the expected one tells nothing (re-entering a PIN of
            // the same length into a field that ignored the clearing).
            effect = now < 0                        ? Effect::Unverifiable
                     : expectedCount == countBefore ? Effect::Unverifiable
                     : now == expectedCount         ? Effect::Confirmed
                     : now == countBefore           ? Effect::SuspectedNoop
                                                    : Effect::Partial;
            *observed =
                QJsonObject{{QStringLiteral("characterCount"), now}, {QStringLiteral("expectedCount"), expectedCount}};
        } else {
            effect = Effect::Unverifiable;
        }
        verifyMs += verifyTimer.elapsed();
        lastEffect = effect;
        return effect;
    };
    // Puts the field back as it was before a path that did not deliver, so the next one does
    // not double the text. False when that cannot be done (the ladder then stops).
    const auto restore = [&]() {
        // A field that is never read (a secure one) can be tried again only when nothing arrived.
        if (!haveBefore)
            return lastEffect == Effect::SuspectedNoop;
        if (lastRead == before)
            return true;
        if (!hasEditable)
            return false;
        auto set =
            send(ref, Interface::EditableText, QStringLiteral("SetTextContents"), {before}, callTimeout(context));
        set.waitForFinished();
        QString now;
        const bool ok = !set.isError() && readText(&now) && now == before;
        if (ok)
            lastRead = before;
        return ok;
    };
    const auto placeCaret = [&]() {
        if (!target || !hasText)
            return;
        auto set = send(ref, Interface::Text, QStringLiteral("SetCaretOffset"), {insertOffset}, callTimeout(context));
        set.waitForFinished();
    };
    const auto clearByKeys = [&]() -> std::optional<Error> {
        if (hasEditable) {
            auto set = send(ref, Interface::EditableText, QStringLiteral("SetTextContents"), {QString()},
                            callTimeout(context));
            set.waitForFinished();
            // Accepted is not done (Gecko accepts and ignores): the field must read back empty.
            QString now;
            const bool empty = canRead ? readText(&now) && now.isEmpty() : readCount() == 0;
            if (!set.isError() && firstArgument(set).toBool() && empty)
                return std::nullopt;
        }
        const unsigned long control = X11Session::keysymControl();
        if (auto err = sendKeys({control, m_x11.keysymForName(QStringLiteral("a"))}, context))
            return err;
        return sendKeys({X11Session::keysymBackSpace()}, context);
    };

    // Without a target there is nothing to read back: the app's own events tell what happened.
    std::optional<Baseline> noTargetBaseline;
    if (!target || !hasText)
        noTargetBaseline = baseline(app, target ? &ref : nullptr, context);

    // Without a target, the paste chord depends on what has focus (a terminal takes
    // Ctrl+Shift+V; to a shell Ctrl+V is a control character): the app's last focus report
    // tells. When nothing tells, the clipboard is skipped and the keys type the text.
    bool pasteKnown = target != nullptr;
    if (!target) {
        QString focusedPath;
        for (const auto& a : m_tree->activityAfterTime(app.root.service, 0)) {
            if (a.kind.startsWith(QLatin1String("Focus:")))
                focusedPath = a.path;
        }
        if (!focusedPath.isEmpty()) {
            auto role = send(Ref{app.root.service, focusedPath}, Interface::Accessible, QStringLiteral("GetRole"), {},
                             callTimeout(context));
            role.waitForFinished();
            if (!role.isError()) {
                pasteKnown = true;
                terminal = Atspi::roleInfo(firstArgument(role).toUInt()).nativeRole == QLatin1String("terminal");
            }
        }
    }
    // A secret never goes through the clipboard (other programs read it, clipboard managers
    // keep it), and a secure field whose length cannot be read gets keystrokes, as a person
    // types a password: Gecko accepts InsertText into a password input and ignores it, and
    // nothing could tell.
    const bool secureUnmeasurable = secure && countBefore < 0;
    QStringList ladder;
    if (hasEditable && !terminal && !secureUnmeasurable)
        ladder << QStringLiteral("editableText");
    if (pasteKnown && !secure)
        ladder << QStringLiteral("clipboard");
    ladder << QStringLiteral("keys");
    Effect effect = Effect::SuspectedNoop;
    bool stopped = false;
    for (const QString& path : ladder) {
        if (auto stop = context.checkpoint())
            return *stop;
        if (!v.paths.isEmpty() && !restore()) {
            stopped = true;
            v.reason = QStringLiteral("the field could not be put back after a partial delivery; stopped so as not to "
                                      "type the text twice");
            break;
        }
        QJsonObject observed;
        QJsonObject pathDetails;
        outcome.path = path;
        if (path == QLatin1String("editableText")) {
            const int length = TextDelivery::insertLength(text, utf16);
            auto edit = options.clearBefore ? send(ref, Interface::EditableText, QStringLiteral("SetTextContents"),
                                                   {text}, callTimeout(context))
                                            : send(ref, Interface::EditableText, QStringLiteral("InsertText"),
                                                   {insertOffset, text, length}, callTimeout(context));
            if (auto err = wait(edit, context, QStringLiteral("EditableText"), &app))
                return err->withRetryable(false);
            pathDetails.insert(QStringLiteral("accepted"), firstArgument(edit).toBool());
            pathDetails.insert(QStringLiteral("lengthUnit"),
                               utf16 ? QStringLiteral("utf16") : QStringLiteral("utf8Bytes"));
            effect = firstArgument(edit).toBool() ? verifyField(400, &observed) : Effect::SuspectedNoop;
        } else if (path == QLatin1String("clipboard")) {
            if (options.clearBefore) {
                if (auto err = clearByKeys())
                    return err->withRetryable(false);
            }
            placeCaret();
            // A terminal pastes with Ctrl+Shift+V; Ctrl+V would reach the shell as a control character.
            QList<unsigned long> chord{X11Session::keysymControl()};
            if (terminal)
                chord << m_x11.keysymForName(QStringLiteral("shift"));
            chord << m_x11.keysymForName(QStringLiteral("v"));
            std::optional<Error> pasteError;
            const auto pasted = m_clipboard.paste(
                text,
                [&] {
                    pasteError = sendKeys(chord, context);
                    return !pasteError.has_value();
                },
                static_cast<int>(std::min<qint64>(1000, context.remainingMs())));
            if (pasteError)
                return pasteError->withRetryable(false);
            pathDetails.insert(QStringLiteral("chord"),
                               terminal ? QStringLiteral("ctrl+shift+v") : QStringLiteral("ctrl+v"));
            if (pasted.outcome == X11Clipboard::Outcome::Pasted) {
                pathDetails.insert(QStringLiteral("clipboardRestored"), pasted.restored);
                pathDetails.insert(QStringLiteral("clipboardChangedMeanwhile"), pasted.changedMeanwhile);
                outcome.details.insert(QStringLiteral("clipboardRestored"), pasted.restored);
                outcome.details.insert(QStringLiteral("clipboardChangedMeanwhile"), pasted.changedMeanwhile);
                effect = (target && hasText) ? verifyField(1500, &observed) : Effect::Unverifiable;
            } else {
                pathDetails.insert(QStringLiteral("clipboard"),
                                   pasted.outcome == X11Clipboard::Outcome::NotRestorable
                                       ? QStringLiteral("holds non-text content: left alone")
                                       : QStringLiteral("the target did not paste"));
                if (!pasted.error.isEmpty())
                    pathDetails.insert(QStringLiteral("clipboardError"), pasted.error);
                // Nobody took the text: nothing arrived.
                effect = Effect::SuspectedNoop;
                if (target && hasText) {
                    verifyField(100, &observed);
                    if (lastRead != before)
                        effect = Effect::Partial;
                }
            }
        } else {
            if (options.clearBefore && !(target && hasText && lastRead.isEmpty() && haveBefore)) {
                if (auto err = clearByKeys())
                    return err->withRetryable(false);
            }
            placeCaret();
            auto typed = typeByKeys(text, context);
            if (typed) {
                m_x11.releaseBorrowedKeys();
                return typed->withRetryable(false);
            }
            // Wait until the target has consumed the keys (its text shows them, or stops changing).
            const int codePoints = static_cast<int>(QStringView(text).toUcs4().size());
            if (target && hasText) {
                effect = verifyField(1000 + 15 * codePoints, &observed);
            } else {
                // Nothing to read back: wait until the app has shown the keys' effect and gone
                // quiet, so the borrowed keycodes are given back only after it read them.
                QDeadlineTimer until(
                    std::max<qint64>(0, std::min<qint64>(1000 + 15 * codePoints, context.remainingMs() - 150)));
                while (!until.hasExpired() && !context.checkpoint()) {
                    m_tree->sync();
                    const bool any =
                        !m_tree->activitySince(noTargetBaseline->service, noTargetBaseline->mark).isEmpty();
                    const bool recent =
                        !m_tree->activityAfterTime(noTargetBaseline->service, m_tree->nowMs() - 150).isEmpty();
                    if (any && !recent)
                        break;
                    QThread::msleep(20);
                }
                effect = Effect::Unverifiable;
            }
            m_x11.releaseBorrowedKeys();
        }
        QJsonObject record{{QStringLiteral("path"), path},
                           {QStringLiteral("effect"), effectName(effect)},
                           {QStringLiteral("observed"), observed}};
        for (auto it = pathDetails.constBegin(); it != pathDetails.constEnd(); ++it)
            record.insert(it.key(), it.value());
        v.paths.append(record);
        v.observed = observed;
        if (effect == Effect::Confirmed || effect == Effect::Unverifiable)
            break;
    }
    Q_UNUSED(stopped)

    if (canRead && haveBefore) {
        outcome.readBack = true;
        outcome.matched = effect == Effect::Confirmed;
        v.expected = QStringLiteral("the field reads back the text inserted at the caret");
        v.observed.insert(QStringLiteral("expected"), TextDelivery::observation(expected));
    } else if (target && hasText && countBefore >= 0) {
        v.expected = QStringLiteral("the secure field's length grows by the text's length");
    }
    if (effect == Effect::Unverifiable && noTargetBaseline) {
        // No field to read: what the app itself reported after the input.
        Verification seen =
            verifyChange(app, *noTargetBaseline, QStringLiteral("the app reports a text change"), 500, context);
        verifyMs += seen.verifyMs;
        // What the app says it inserted, and where: the text inserted into one element since
        // the input must hold what was sent (the element's old content does not count).
        QStringList inserted;
        QHash<QString, QString> insertedText;
        for (const auto& a : m_tree->activitySince(noTargetBaseline->service, noTargetBaseline->mark)) {
            if (!a.kind.startsWith(QLatin1String("TextChanged:insert")))
                continue;
            if (!inserted.contains(a.path))
                inserted.append(a.path);
            insertedText[a.path] += a.data;
        }
        v.expected = QStringLiteral("the app reports inserting the text into the focused element");
        v.observed = seen.observed;
        bool found = false;
        for (const QString& path : std::as_const(inserted)) {
            const QString got = QString(insertedText.value(path)).remove(QChar(0xFEFF));
            if (got.contains(text)) {
                found = true;
                QJsonObject readBack = TextDelivery::observation(got);
                readBack.insert(QStringLiteral("element"), path);
                v.observed.insert(QStringLiteral("inserted"), readBack);
                break;
            }
        }
        if (found) {
            effect = Effect::Confirmed;
            outcome.readBack = true;
            outcome.matched = true;
        } else if (!inserted.isEmpty() && std::any_of(insertedText.cbegin(), insertedText.cend(),
                                                      [](const QString& t) { return !t.isEmpty(); })) {
            effect = Effect::Partial;
            v.reason = QStringLiteral("the app inserted text, but not the text that was sent");
        } else if (!inserted.isEmpty()) {
            effect = Effect::Unverifiable;
            v.reason =
                QStringLiteral("the app reports inserting text but not which; pass a target to have it read back");
        } else if (seen.effect == Effect::SuspectedNoop) {
            effect = Effect::SuspectedNoop;
            v.reason = QStringLiteral("the app reported no change after the text was sent");
        } else {
            effect = Effect::Unverifiable;
            v.reason = QStringLiteral("no target was given and the app reported no inserted text to read back");
        }
        if (!v.paths.isEmpty()) {
            QJsonObject last = v.paths.last().toObject();
            last.insert(QStringLiteral("effect"), effectName(effect));
            v.paths.replace(v.paths.size() - 1, last);
        }
    }
    v.effect = effect;
    v.verifyMs = verifyMs;
    // The field's own reports of this typing are not noise for the next action.
    m_settledAt.insert(app.root.service, m_tree->nowMs());
    if (effect == Effect::SuspectedNoop && v.reason.isEmpty())
        v.reason = QStringLiteral("the text did not arrive by any path");
    if (effect == Effect::Unverifiable && v.reason.isEmpty())
        v.reason = QStringLiteral("the field could not be read back after the input");
    if (effect == Effect::Partial && v.reason.isEmpty())
        v.reason = QStringLiteral("the field does not hold the expected text");
    return outcome;
}

Result<ActionOutcome> AtspiBackend::sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                              const CallContext& context)
{
    QList<unsigned long> keys;
    for (const auto& name : chord.names()) {
        const unsigned long keysym = m_x11.keysymForName(name);
        if (!keysym)
            return Error::invalidParam(QStringLiteral("keys"), QStringLiteral("no X key for \"%1\"").arg(name));
        keys.append(keysym);
    }
    const App app = appOf(route, context);
    const Baseline before = baseline(app, nullptr, context);
    // Keys go to the window with X focus: whose it is, is the evidence of where they went.
    const qint64 focusPid = m_x11.focusOwnerPid();
    bool anyPressed = false;
    if (auto failure = sendKeys(keys, context, delayMs, &anyPressed))
        return anyPressed ? failure->withRetryable(false) : *failure;
    Verification v = verifyChange(app, before, QStringLiteral("a change in the app after the keys"), 600, context);
    v.observed.insert(QStringLiteral("focusedWindowPid"), focusPid);
    if (v.effect == Effect::SuspectedNoop && focusPid == route.pid) {
        // The keys reached the app's focused window; a chord may act on what the accessibility
        // tree does not show (a canvas, a terminal's shell, nothing at all).
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the keys went to the app's focused window, but nothing it exposes changed");
    } else if (v.effect == Effect::SuspectedNoop) {
        v.reason = focusPid
                       ? QStringLiteral("the keys went to another app's window (pid %1) and the app did not change")
                             .arg(focusPid)
                       : QStringLiteral("no window had the keyboard focus and the app did not change");
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("keyboard")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("keyboard"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(chord.names())}}, v};
}

} // namespace Automation
