#include "AtspiBackend.h"

#include "AtspiRoles.h"

#include <QBuffer>
#include <QDBusArgument>
#include <QDBusMessage>
#include <QDBusPendingReply>
#include <QDBusVariant>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QImage>
#include <QImageWriter>
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

const QString kRegistry = QStringLiteral("org.a11y.atspi.Registry");
const QString kRootPath = QStringLiteral("/org/a11y/atspi/accessible/root");

QString interfaceName(int iface)
{
    static const char* names[] = {"org.a11y.atspi.Accessible", "org.a11y.atspi.Component",
                                  "org.a11y.atspi.Action",     "org.a11y.atspi.Text",
                                  "org.a11y.atspi.EditableText", "org.a11y.atspi.Value",
                                  "org.a11y.atspi.Cache",      "org.freedesktop.DBus.Properties"};
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

bool isPressAction(const QString& name)
{
    static const QStringList names{QStringLiteral("press"), QStringLiteral("click"), QStringLiteral("activate"),
                                   QStringLiteral("toggle"), QStringLiteral("jump"), QStringLiteral("open")};
    return names.contains(name.toLower());
}

int pressRank(const QString& name)
{
    static const QStringList order{QStringLiteral("press"), QStringLiteral("click"), QStringLiteral("activate"),
                                   QStringLiteral("toggle"), QStringLiteral("jump"), QStringLiteral("open")};
    const auto i = order.indexOf(name.toLower());
    return i < 0 ? 1000 : static_cast<int>(i);
}

} // namespace

AtspiBackend::Ref AtspiBackend::Ref::fromHandle(const QString& handle)
{
    const auto bar = handle.indexOf(QLatin1Char('|'));
    if (bar < 0)
        return {};
    return Ref{handle.left(bar), handle.mid(bar + 1)};
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
        QDBusMessage get = QDBusMessage::createMethodCall(QStringLiteral("org.a11y.Bus"), QStringLiteral("/org/a11y/bus"),
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
    for (const QString& event : {QStringLiteral("object:children-changed"), QStringLiteral("object:property-change"),
                                 QStringLiteral("object:state-changed")}) {
        QDBusMessage reg = QDBusMessage::createMethodCall(kRegistry, QStringLiteral("/org/a11y/atspi/registry"),
                                                          QStringLiteral("org.a11y.atspi.Registry"),
                                                          QStringLiteral("RegisterEvent"));
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
    info.details = QJsonObject{{QStringLiteral("busAddress"), m_busAddress},
                               {QStringLiteral("treeCache"),
                                QJsonObject{{QStringLiteral("entries"), static_cast<qint64>(cache.entries)},
                                            {QStringLiteral("events"), static_cast<qint64>(cache.events)},
                                            {QStringLiteral("invalidations"), static_cast<qint64>(cache.invalidations)}}},
                               {QStringLiteral("eventsRegistered"), m_eventsRegistered},
                               {QStringLiteral("knownApps"), static_cast<int>(m_appCache.size())},
                               {QStringLiteral("display"), qEnvironmentVariable("DISPLAY")}};
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

bool AtspiBackend::isMarkedUnresponsive(const QString& service) const
{
    const auto it = m_hung.constFind(service);
    return it != m_hung.cend() && !it->hasExpired();
}

std::optional<Error> AtspiBackend::unresponsive(const App& app, const QString& what, int timeoutMs)
{
    m_hung.insert(app.root.service, QDeadlineTimer(kHungMarkMs));
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
    auto children = send(Ref{kRegistry, kRootPath}, Interface::Accessible, QStringLiteral("GetChildren"), {},
                         callTimeout(context));
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
        apps[index].executable = QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(apps[index].pid))).fileName();
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
        if (isMarkedUnresponsive(app.root.service) || processStoppedOrDead(app.pid)) {
            if (explicitApp && candidates.size() == 1)
                return *unresponsive(app, QStringLiteral("requests (marked unresponsive)"), kHungMarkMs);
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
        return Error::make(ErrorCode::TargetUnresponsive,
                           QStringLiteral("cannot tell the frontmost window: %1 did not answer")
                               .arg(skipped.at(0).toString()),
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
            node.path.append(static_cast<int>(nodes[node.parent].children.indexOf(static_cast<int>(&node - nodes.data()))));
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
    if (isMarkedUnresponsive(app.root.service) || processStoppedOrDead(app.pid))
        return *unresponsive(app, QStringLiteral("requests (marked unresponsive)"), kHungMarkMs);
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
    if (warm || !tryCache(app, window, bounds, context, &snapshot, &error)) {
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
                snapshot.truncatedReason = wall.hasExpired() ? QStringLiteral("maxWallTimeMs") : QStringLiteral("maxNodes");
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
    // Round trips, not work, dominate (HEADLESS.md): each level's calls go out together, and
    // only for what the cache does not know. Qt 6.4 answers neither Properties.GetAll nor
    // AccessibleId, so per unknown node it is role, name and children: up to three calls.
    while (!level.isEmpty()) {
        QList<NodeIds> next;
        bool stop = false;
        for (qsizetype start = 0; start < level.size() && !stop; start += kBatch / 3) {
            const auto chunk = level.mid(start, kBatch / 3);
            const int timeout = callTimeout(context);
            const quint64 generation = m_tree->generation(app.root.service);
            struct Pending
            {
                std::optional<AtspiTreeCache::Entry> known;
                std::optional<QDBusPendingCall> role, name, children;
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
                if (ids.depth < bounds.maxDepth && (!p.known || !p.known->children))
                    p.children = send(ids.ref, Interface::Accessible, QStringLiteral("GetChildren"), {}, timeout);
                const int calls = int(p.role.has_value()) + int(p.name.has_value()) + int(p.children.has_value());
                asked += calls;
                cached += 3 - calls;
            }
            for (qsizetype i = 0; i < chunk.size(); ++i) {
                Pending& p = pending[i];
                bool failed = false;
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
                const bool haveChildren = p.children.has_value() || (p.known && p.known->children);
                if (p.children) {
                    for (const auto& ref : refList(firstArgument(*p.children)))
                        children.append({ref.service, ref.path});
                } else if (p.known && p.known->children) {
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
    App app = m_appCache.value(snapshot.nodes.isEmpty() ? QString() : Ref::fromHandle(snapshot.nodes[0].handle).service);
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
            // Never read a secure field (DESIGN.md 7).
            if (node.has(StateSecure) || node.subrole == QLatin1String("AXSecureTextField"))
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
    App app = m_appCache.value(snapshot.nodes.isEmpty() ? QString() : Ref::fromHandle(snapshot.nodes[0].handle).service);
    app.pid = snapshot.pid;
    for (qsizetype start = 0; start < indexes.size(); start += kBatch / 3) {
        const auto chunk = indexes.mid(start, kBatch / 3);
        const int timeout = callTimeout(context);
        QList<QDBusPendingCall> states, frames, ifaces;
        for (int index : chunk) {
            const Ref ref = Ref::fromHandle(snapshot.nodes[index].handle);
            states.append(send(ref, Interface::Accessible, QStringLiteral("GetState"), {}, timeout));
            frames.append(send(ref, Interface::Component, QStringLiteral("GetExtents"), {0u}, timeout));
            ifaces.append(send(ref, Interface::Accessible, QStringLiteral("GetInterfaces"), {}, timeout));
        }
        QList<std::pair<int, QDBusPendingCall>> actions;
        for (int i = 0; i < chunk.size(); ++i) {
            Node& node = snapshot.nodes[chunk[i]];
            for (auto* call : {&states[i], &frames[i], &ifaces[i]}) {
                call->waitForFinished();
                if (call->isError() &&
                    (call->error().type() == QDBusError::NoReply || call->error().type() == QDBusError::Timeout))
                    return *unresponsive(app, QStringLiteral("reading element details"), timeout);
            }
            if (!states[i].isError()) {
                const auto bits = uintList(firstArgument(states[i]));
                const quint32 low = bits.value(0), high = bits.value(1);
                const bool secure = node.has(StateSecure);
                node.states = Atspi::nodeStates(low, high, secure);
                if (Atspi::hasState(low, high, Atspi::StateMultiLine) && node.role == QLatin1String("AXTextField") &&
                    !secure)
                    node.role = QStringLiteral("AXTextArea");
            }
            if (!frames[i].isError())
                node.frame = extents(firstArgument(frames[i]));
            if (!ifaces[i].isError() &&
                firstArgument(ifaces[i]).toStringList().contains(QStringLiteral("org.a11y.atspi.Action")))
                actions.append({chunk[i], send(Ref::fromHandle(node.handle), Interface::Action,
                                               QStringLiteral("GetActions"), {}, timeout)});
            node.detailed = true;
        }
        for (auto& [index, call] : actions) {
            call.waitForFinished();
            if (!call.isError())
                snapshot.nodes[index].actions = actionNames(firstArgument(call));
        }
        if (auto stop = context.checkpoint())
            return *stop;
    }
    return success();
}

Result<ActionOutcome> AtspiBackend::press(const ResolvedRoute& route, const Node& element, const CallContext& context)
{
    App app = m_appCache.value(Ref::fromHandle(route.appHandle).service);
    app.pid = route.pid;
    const Ref ref = Ref::fromHandle(element.handle);
    auto list = send(ref, Interface::Action, QStringLiteral("GetActions"), {}, callTimeout(context));
    QStringList names;
    if (!wait(list, context, QStringLiteral("Action.GetActions"), &app))
        names = actionNames(firstArgument(list));
    if (auto stop = context.checkpoint())
        return *stop;
    int best = -1;
    for (int i = 0; i < names.size(); ++i) {
        if (isPressAction(names[i]) && (best < 0 || pressRank(names[i]) < pressRank(names[best])))
            best = i;
    }
    if (best < 0)
        return Error::make(ErrorCode::ElementNotFound,
                           QStringLiteral("the element has no press, click or activate action"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_action")},
                                       {QStringLiteral("actions"), QJsonArray::fromStringList(names)}});
    auto done = send(ref, Interface::Action, QStringLiteral("DoAction"), {best}, callTimeout(context));
    if (auto err = wait(done, context, QStringLiteral("Action.DoAction"), &app))
        return *err;
    if (!firstArgument(done).toBool())
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("the application refused the action \"%1\"").arg(names[best]),
                           QJsonObject{{QStringLiteral("action"), names[best]}});
    return ActionOutcome{QStringLiteral("accessibilityAction:") + names[best].toLower(), false,
                         QJsonObject{{QStringLiteral("action"), names[best]}, {QStringLiteral("index"), best}}};
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
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "PNG");
    if (m_pngCompression >= 0)
        writer.setCompression(m_pngCompression);
    writer.write(image);
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

Result<ActionOutcome> AtspiBackend::clickAt(const ResolvedRoute&, QPoint point, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    QString error;
    if (!m_x11.click(point, [&context] { return context.checkpoint().has_value(); }, &error)) {
        if (auto stop = context.checkpoint())
            return *stop;
        return Error::make(ErrorCode::PermissionMissing, error);
    }
    return ActionOutcome{QStringLiteral("pointer"), false,
                         QJsonObject{{QStringLiteral("x"), point.x()}, {QStringLiteral("y"), point.y()}}};
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

std::optional<Error> AtspiBackend::typeByKeys(const QString& text, const CallContext& context)
{
    for (const QChar c : text) {
        if (auto stop = context.checkpoint())
            return stop;
        QString error;
        if (!m_x11.typeCharacter(c, &error))
            return Error::make(ErrorCode::InternalError, error);
    }
    return std::nullopt;
}

Result<TypeOutcome> AtspiBackend::typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                           const TypeOptions& options, const CallContext& context)
{
    App app = m_appCache.value(Ref::fromHandle(route.appHandle).service);
    app.pid = route.pid;
    const bool secure = target && (target->has(StateSecure) || target->subrole == QLatin1String("AXSecureTextField"));
    TypeOutcome outcome;
    const auto readBack = [&](const Ref& ref) {
        auto back = send(ref, Interface::Text, QStringLiteral("GetText"), {0, -1}, callTimeout(context));
        if (!wait(back, context, QStringLiteral("Text.GetText"), &app)) {
            const QString now = firstArgument(back).toString();
            outcome.readBack = true;
            outcome.matched = options.clearBefore ? now == text : now.contains(text);
        }
    };
    if (target) {
        const Ref ref = Ref::fromHandle(target->handle);
        auto ifaces = send(ref, Interface::Accessible, QStringLiteral("GetInterfaces"), {}, callTimeout(context));
        if (auto err = wait(ifaces, context, QStringLiteral("GetInterfaces"), &app))
            return *err;
        const QStringList names = firstArgument(ifaces).toStringList();
        if (names.contains(QStringLiteral("org.a11y.atspi.Component"))) {
            auto grab = send(ref, Interface::Component, QStringLiteral("GrabFocus"), {}, callTimeout(context));
            if (auto err = wait(grab, context, QStringLiteral("Component.GrabFocus"), &app);
                err && (err->code == ErrorCode::Aborted || err->code == ErrorCode::Timeout))
                return *err;
        }
        if (names.contains(QStringLiteral("org.a11y.atspi.EditableText"))) {
            if (auto stop = context.checkpoint())
                return *stop;
            int position = 0;
            if (!options.clearBefore) {
                auto count = send(ref, Interface::Properties, QStringLiteral("Get"),
                                  {QStringLiteral("org.a11y.atspi.Text"), QStringLiteral("CharacterCount")},
                                  callTimeout(context));
                if (!wait(count, context, QStringLiteral("Text.CharacterCount"), &app))
                    position = unwrap(firstArgument(count)).toInt();
            }
            auto edit = options.clearBefore
                            ? send(ref, Interface::EditableText, QStringLiteral("SetTextContents"), {text},
                                   callTimeout(context))
                            : send(ref, Interface::EditableText, QStringLiteral("InsertText"),
                                   {position, text, static_cast<int>(text.size())}, callTimeout(context));
            if (auto err = wait(edit, context, QStringLiteral("EditableText"), &app))
                return *err;
            if (firstArgument(edit).toBool()) {
                outcome.path = QStringLiteral("editableText");
                if (!secure)
                    readBack(ref);
                return outcome;
            }
            // The toolkit refused the edit: fall back to the keyboard.
        }
    }
    // Clipboard, then keyboard: the route's focus policy raised the window, the element grabbed focus.
    if (options.clearBefore) {
        const unsigned long control = X11Session::keysymControl();
        const unsigned long a = m_x11.keysymForName(QStringLiteral("a"));
        for (const auto& [keysym, press] : {std::pair{control, true}, std::pair{a, true}, std::pair{a, false},
                                            std::pair{control, false}}) {
            if (auto err = injectKey(keysym, press, context))
                return *err;
        }
        for (bool press : {true, false}) {
            if (auto err = injectKey(X11Session::keysymBackSpace(), press, context))
                return *err;
        }
    }
    // Paste (contract 5.6's stable path) when the clipboard's content can be put back afterwards.
    if (auto stop = context.checkpoint())
        return *stop;
    const unsigned long control = X11Session::keysymControl();
    const unsigned long v = m_x11.keysymForName(QStringLiteral("v"));
    std::optional<Error> pasteError;
    const auto pasted = m_clipboard.paste(
        text,
        [&] {
            for (const auto& [keysym, press] : {std::pair{control, true}, std::pair{v, true}, std::pair{v, false},
                                                std::pair{control, false}}) {
                if (auto err = injectKey(keysym, press, context)) {
                    pasteError = err;
                    injectKey(control, false, context);
                    return false;
                }
            }
            return true;
        },
        static_cast<int>(std::min<qint64>(1000, context.remainingMs())));
    if (pasteError)
        return *pasteError;
    if (pasted.outcome == X11Clipboard::Outcome::Pasted) {
        outcome.path = QStringLiteral("clipboard");
        outcome.details = QJsonObject{{QStringLiteral("clipboardRestored"), pasted.restored},
                                      {QStringLiteral("clipboardChangedMeanwhile"), pasted.changedMeanwhile}};
    } else {
        // Not restorable (non-text content) or nobody asked for the text: type it key by key.
        outcome.details = QJsonObject{{QStringLiteral("clipboard"),
                                       pasted.outcome == X11Clipboard::Outcome::NotRestorable
                                           ? QStringLiteral("holds non-text content: left alone")
                                           : QStringLiteral("the target did not paste")}};
        if (!pasted.error.isEmpty())
            outcome.details.insert(QStringLiteral("clipboardError"), pasted.error);
        if (auto err = typeByKeys(text, context))
            return *err;
        outcome.path = QStringLiteral("keys");
    }
    if (target && !secure) {
        QThread::msleep(30);
        readBack(Ref::fromHandle(target->handle));
    }
    return outcome;
}

Result<ActionOutcome> AtspiBackend::sendChord(const ResolvedRoute&, const KeyChord& chord, int delayMs,
                                              const CallContext& context)
{
    QList<unsigned long> keys;
    for (const auto& name : chord.names()) {
        const unsigned long keysym = m_x11.keysymForName(name);
        if (!keysym)
            return Error::invalidParam(QStringLiteral("keys"), QStringLiteral("no X key for \"%1\"").arg(name));
        keys.append(keysym);
    }
    QList<unsigned long> pressed;
    std::optional<Error> failure;
    for (unsigned long keysym : keys) {
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
    if (failure)
        return *failure;
    return ActionOutcome{QStringLiteral("keyboard"), false,
                         QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(chord.names())}}};
}

} // namespace Automation
