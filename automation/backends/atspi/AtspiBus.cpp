#include "automation/backends/atspi/AtspiBus.h"

#include "automation/platform/ProcessInfo.h"

#include <QDBusArgument>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusVariant>
#include <QElapsedTimer>
#include <QThread>
#include <QUuid>

namespace Automation {

Q_LOGGING_CATEGORY(lcAtspi, "msgcode.automation.atspi")

namespace Atspi {

QString registryService()
{
    return QStringLiteral("org.a11y.atspi.Registry");
}

QString rootPath()
{
    return QStringLiteral("/org/a11y/atspi/accessible/root");
}

QString interfaceName(int iface)
{
    static const char* names[] = {"org.a11y.atspi.Accessible",   "org.a11y.atspi.Component",
                                  "org.a11y.atspi.Action",       "org.a11y.atspi.Text",
                                  "org.a11y.atspi.EditableText", "org.a11y.atspi.Value",
                                  "org.a11y.atspi.Cache",        "org.freedesktop.DBus.Properties",
                                  "org.a11y.atspi.Selection",    "org.a11y.atspi.Table"};
    return QString::fromLatin1(names[iface]);
}

Ref refFromArgument(const QDBusArgument& arg)
{
    Ref ref;
    QDBusObjectPath path;
    arg.beginStructure();
    arg >> ref.service >> path;
    arg.endStructure();
    ref.path = path.path();
    return ref;
}

QList<Ref> refList(const QVariant& value)
{
    QList<Ref> out;
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

bool actionNamesUsable(const QStringList& names)
{
    for (const auto& name : names) {
        if (name.isEmpty() || name.contains(QLatin1Char(';')))
            return false;
    }
    return true;
}

CallFailure failureOf(const QDBusError& error)
{
    switch (error.type()) {
    case QDBusError::NoError:
        return CallFailure::None;
    case QDBusError::NoReply:
    case QDBusError::Timeout:
    case QDBusError::TimedOut:
        return CallFailure::Unanswered;
    case QDBusError::Disconnected:
        return CallFailure::BusLost;
    case QDBusError::ServiceUnknown:
    case QDBusError::UnknownObject:
        return CallFailure::Gone;
    default:
        return CallFailure::Failed;
    }
}

CallFailure failureOf(const QDBusPendingCall& call)
{
    return call.isError() ? failureOf(call.error()) : CallFailure::None;
}

Ref Ref::fromHandle(const QString& handle)
{
    const auto bar = handle.indexOf(QLatin1Char('|'));
    if (bar < 0)
        return {};
    return Ref{handle.left(bar), handle.mid(bar + 1)};
}

bool App::windowRelativeExtents() const
{
    return toolkit.compare(QLatin1String("GTK"), Qt::CaseInsensitive) == 0 &&
           toolkitVersion.section(QLatin1Char('.'), 0, 0).toInt() >= 4;
}

bool App::isGtk3() const
{
    return toolkit.compare(QLatin1String("GTK"), Qt::CaseInsensitive) == 0 &&
           toolkitVersion.section(QLatin1Char('.'), 0, 0).toInt() == 3;
}

bool App::childrenEventsReliable() const
{
    // GTK reports every change of children. Qt 6.4 does not report new windows and rows, and
    // Gecko's tree fills in while a page loads without telling about every container; other
    // toolkits are not known well enough to be trusted.
    return toolkit.compare(QLatin1String("GTK"), Qt::CaseInsensitive) == 0;
}

bool App::isChromium() const
{
    return toolkit.contains(QLatin1String("Chrom"), Qt::CaseInsensitive);
}

bool App::isQt() const
{
    return toolkit.compare(QLatin1String("Qt"), Qt::CaseInsensitive) == 0;
}

bool App::utf16Units() const
{
    // (Gecko counts UTF-16 units as well, but pads each character outside the BMP with U+FEFF
    // in its GetText, so its offsets are characters of the text it returns.)
    return toolkit.compare(QLatin1String("Qt"), Qt::CaseInsensitive) == 0;
}

} // namespace Atspi

using Atspi::App;
using Atspi::Interface;
using Atspi::Ref;

AtspiBus::AtspiBus()
    : m_connectionName(QStringLiteral("mdh-atspi-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{
}

AtspiBus::~AtspiBus()
{
    disconnect();
}

bool AtspiBus::connect(QString* error)
{
    if (m_connected && QDBusConnection(m_connectionName).isConnected())
        return true;
    disconnect();
    // The address comes from org.a11y.Bus on the session bus, where every AT-SPI client finds
    // it; AT_SPI_BUS_ADDRESS (as libatspi honours it) only when the session bus cannot tell.
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
    // GTK offers Cache.GetItems only once some client listens for events (seen with GTK 3.24).
    // The events the tree cache lives on; apps send them only while someone listens.
    m_tree = std::make_unique<AtspiTreeCache>(m_connectionName);
    if (m_treeListener)
        m_tree->setListener(m_treeListener);
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
            QDBusMessage::createMethodCall(Atspi::registryService(), QStringLiteral("/org/a11y/atspi/registry"),
                                           QStringLiteral("org.a11y.atspi.Registry"), QStringLiteral("RegisterEvent"));
        reg << event << QStringList() << QString();
        const QDBusMessage regReply = bus.call(reg, QDBus::Block, 2000);
        m_eventsRegistered = m_eventsRegistered && regReply.type() == QDBusMessage::ReplyMessage;
    }
    qCInfo(lcAtspi) << "connected to the AT-SPI bus" << address << "events registered:" << m_eventsRegistered;
    m_lastError.clear();
    for (const auto& reset : std::as_const(m_onConnected))
        reset();
    return true;
}

void AtspiBus::disconnect()
{
    m_tree.reset();
    if (m_connected)
        QDBusConnection::disconnectFromBus(m_connectionName);
    m_connected = false;
}

QDBusPendingCall AtspiBus::send(const Ref& ref, Interface iface, const QString& method, const QVariantList& args,
                                int timeoutMs)
{
    QDBusMessage message =
        QDBusMessage::createMethodCall(ref.service, ref.path, Atspi::interfaceName(static_cast<int>(iface)), method);
    message.setArguments(args);
    return QDBusConnection(m_connectionName).asyncCall(message, timeoutMs);
}

int AtspiBus::callTimeout(const CallContext& context)
{
    return context.callTimeoutMs(Atspi::kCallCapMs);
}

int AtspiBus::batchTimeout(const CallContext& context)
{
    return context.callTimeoutMs(Atspi::kBatchCapMs);
}

std::optional<Error> AtspiBus::waitBatch(const QList<QDBusPendingCall*>& calls, const CallContext& context,
                                         const App& app, const QString& what, int quietMs, bool answeredBefore)
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
        } else if (quiet.elapsed() >= quietMs) {
            return unresponsive(app, what, quietMs, answeredBefore);
        }
        if (auto stop = context.checkpoint())
            return stop;
        QThread::usleep(static_cast<unsigned long>(pauseUs));
        pauseUs = std::min(pauseUs * 2, 1000);
    }
}

bool AtspiBus::isMarkedUnresponsive(const QString& service) const
{
    const auto it = m_hung.constFind(service);
    return it != m_hung.cend() && !it->hasExpired();
}

std::optional<Error> AtspiBus::unresponsive(const App& app, const QString& what, int timeoutMs, bool answeredBefore)
{
    markUnresponsive(app.root.service);
    // Say what is known: a stopped or exited process is not merely slow.
    if (const Platform::ProcessState state = Platform::processState(app.pid); state != Platform::ProcessState::Running)
        return refuseHung(app);
    QJsonObject details{{QStringLiteral("app"), app.name},
                        {QStringLiteral("pid"), app.pid},
                        {QStringLiteral("call"), what},
                        {QStringLiteral("timeoutMs"), timeoutMs},
                        {QStringLiteral("markedForMs"), Atspi::kHungMarkMs}};
    const QString name = app.name.isEmpty() ? app.root.service : app.name;
    if (!answeredBefore) {
        return Error::make(ErrorCode::TargetUnresponsive,
                           QStringLiteral("%1 (pid %2) did not answer %3 within %4 ms")
                               .arg(name)
                               .arg(app.pid)
                               .arg(what)
                               .arg(timeoutMs),
                           details);
    }
    // It answered this request's earlier calls and went quiet on the host's own: the host's calls
    // are what it is busy with (building thousands of objects, say), and asking again at once
    // would keep it so.
    details.insert(QStringLiteral("reason"), QStringLiteral("busy_with_host_calls"));
    return Error::make(ErrorCode::TargetUnresponsive,
                       QStringLiteral("%1 (pid %2) stopped answering during %3: it answered the request's first "
                                      "calls, then nothing for %4 ms; asking again may keep it busy")
                           .arg(name)
                           .arg(app.pid)
                           .arg(what)
                           .arg(timeoutMs),
                       details)
        .withRetryable(false);
}

std::optional<Error> AtspiBus::refuseHung(const App& app)
{
    const auto it = m_hung.constFind(app.root.service);
    const qint64 left = it != m_hung.cend() ? std::max<qint64>(0, it->remainingTime()) : 0;
    const Platform::ProcessState state = Platform::processState(app.pid);
    if (state == Platform::ProcessState::Gone) {
        // A dead app does not come back: asking again cannot help.
        return Error::make(ErrorCode::TargetUnresponsive,
                           QStringLiteral("%1 (pid %2) has exited").arg(app.name).arg(app.pid),
                           QJsonObject{{QStringLiteral("app"), app.name},
                                       {QStringLiteral("pid"), app.pid},
                                       {QStringLiteral("reason"), QStringLiteral("process_gone")}})
            .withRetryable(false);
    }
    const bool stopped = state == Platform::ProcessState::Stopped;
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

bool AtspiBus::stillHung(const App& app, const CallContext& context)
{
    if (Platform::processState(app.pid) != Platform::ProcessState::Running)
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

std::optional<Error> AtspiBus::wait(QDBusPendingCall& call, const CallContext& context, const QString& what,
                                    const App* app)
{
    call.waitForFinished();
    if (auto stop = context.checkpoint())
        return stop;
    return errorFor(call, what, app, callTimeout(context));
}

std::optional<Error> AtspiBus::errorFor(const QDBusPendingCall& call, const QString& what, const App* app,
                                        int timeoutMs)
{
    switch (Atspi::failureOf(call)) {
    case Atspi::CallFailure::None:
        return std::nullopt;
    case Atspi::CallFailure::Unanswered:
        if (app)
            return unresponsive(*app, what, timeoutMs);
        return Error::make(ErrorCode::TargetUnresponsive, QStringLiteral("no answer to %1").arg(what));
    case Atspi::CallFailure::BusLost:
        disconnect();
        return Error::make(ErrorCode::HostNotReady, QStringLiteral("the AT-SPI bus went away; retry"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("atspi_bus_lost")}});
    case Atspi::CallFailure::Gone:
        return Error::make(ErrorCode::StaleSnapshot,
                           QStringLiteral("the target went away during %1 (%2)").arg(what, call.error().message()),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    case Atspi::CallFailure::Failed:
        break;
    }
    return Error::make(
        ErrorCode::InternalError,
        QStringLiteral("AT-SPI %1 failed: %2 %3").arg(what, call.error().name(), call.error().message()));
}

void AtspiBus::onConnected(std::function<void()> reset)
{
    m_onConnected.append(std::move(reset));
}

void AtspiBus::setTreeListener(AtspiTreeCache::Listener listener)
{
    m_treeListener = std::move(listener);
    if (m_tree)
        m_tree->setListener(m_treeListener);
}

QDBusPendingCall AtspiBus::connectionPid(const QString& service, int timeoutMs)
{
    QDBusMessage pid = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
        QStringLiteral("org.freedesktop.DBus"), QStringLiteral("GetConnectionUnixProcessID"));
    pid << service;
    return QDBusConnection(m_connectionName).asyncCall(pid, timeoutMs);
}

void AtspiBus::markUnresponsive(const QString& service)
{
    m_hung.insert(service, QDeadlineTimer(Atspi::kHungMarkMs));
}

} // namespace Automation
