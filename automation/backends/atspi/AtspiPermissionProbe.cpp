#include "automation/backends/atspi/AtspiPermissionProbe.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusReply>
#include <QDBusVariant>
#include <QProcess>
#include <QUuid>

#include <X11/Xlib.h>

namespace Automation {

namespace {

// The messages are shown to people (onboarding, tray, doctor): translated like the GUI's.
class Text
{
    Q_DECLARE_TR_FUNCTIONS(Permissions)
};

constexpr int kCallTimeoutMs = 500;

const QString kBusService = QStringLiteral("org.a11y.Bus");
const QString kBusPath = QStringLiteral("/org/a11y/bus");

} // namespace

AtspiPermissionProbe::AtspiPermissionProbe()
    : m_connectionName(QStringLiteral("mdh-permission-probe-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{
}

AtspiPermissionProbe::~AtspiPermissionProbe()
{
    QDBusConnection::disconnectFromBus(m_connectionName);
}

PermissionReport AtspiPermissionProbe::probe()
{
    PermissionReport report;
    report.platform = QStringLiteral("linux");
    report.accessibility = probeAccessibility();
    report.screenCapture = probeScreenCapture(&report.displayServer);
    return report;
}

PermissionStatus AtspiPermissionProbe::probeAccessibility()
{
    PermissionStatus status;
    status.state = PermissionState::Denied;
    // A private connection: the probe runs on its own thread, and a session bus that went
    // away and came back must be seen afresh rather than through a dead shared connection.
    QDBusConnection bus = QDBusConnection::connectToBus(QDBusConnection::SessionBus, m_connectionName);
    if (!bus.isConnected()) {
        QDBusConnection::disconnectFromBus(m_connectionName);
        status.message = Text::tr("No D-Bus session bus: AT-SPI cannot be reached (is DBUS_SESSION_BUS_ADDRESS "
                                  "set and the session bus running?)");
        status.details.insert(QStringLiteral("sessionBus"), false);
        return status;
    }
    status.details.insert(QStringLiteral("sessionBus"), true);

    QDBusMessage getAddress = QDBusMessage::createMethodCall(kBusService, kBusPath, QStringLiteral("org.a11y.Bus"),
                                                             QStringLiteral("GetAddress"));
    const QDBusReply<QString> address = bus.call(getAddress, QDBus::Block, kCallTimeoutMs);
    if (!address.isValid()) {
        QDBusConnection::disconnectFromBus(m_connectionName);
        status.message = Text::tr("The AT-SPI bus does not answer (org.a11y.Bus.GetAddress: %1). Install "
                                  "at-spi2-core and make sure at-spi-bus-launcher can start.")
                             .arg(address.error().message());
        status.details.insert(QStringLiteral("atspiBus"), false);
        return status;
    }
    status.details.insert(QStringLiteral("atspiBus"), true);
    status.details.insert(QStringLiteral("atspiBusAddress"), address.value());

    QDBusMessage getEnabled = QDBusMessage::createMethodCall(
        kBusService, kBusPath, QStringLiteral("org.freedesktop.DBus.Properties"), QStringLiteral("Get"));
    getEnabled << QStringLiteral("org.a11y.Status") << QStringLiteral("IsEnabled");
    const QDBusReply<QDBusVariant> enabled = bus.call(getEnabled, QDBus::Block, kCallTimeoutMs);
    if (!enabled.isValid()) {
        status.message = Text::tr("Cannot read org.a11y.Status.IsEnabled: %1").arg(enabled.error().message());
        return status;
    }
    const bool isEnabled = enabled.value().variant().toBool();
    status.details.insert(QStringLiteral("isEnabled"), isEnabled);
    if (!isEnabled) {
        status.message = Text::tr("Accessibility is switched off (org.a11y.Status.IsEnabled is false), so apps "
                                  "do not expose their UI. Turn it on with: gsettings set "
                                  "org.gnome.desktop.interface toolkit-accessibility true (then restart the "
                                  "apps), or from the host's onboarding window.");
        return status;
    }
    status.state = PermissionState::Granted;
    status.message = Text::tr("The AT-SPI bus answers and accessibility is enabled");
    return status;
}

PermissionStatus AtspiPermissionProbe::probeScreenCapture(QString* displayServer)
{
    PermissionStatus status;
    status.state = PermissionState::Denied;
    const QByteArray display = qgetenv("DISPLAY");
    const QByteArray wayland = qgetenv("WAYLAND_DISPLAY");
    status.details.insert(QStringLiteral("display"), QString::fromLocal8Bit(display));
    if (display.isEmpty()) {
        *displayServer = wayland.isEmpty() ? QStringLiteral("none") : QStringLiteral("wayland");
        status.message = wayland.isEmpty()
                             ? Text::tr("No display: DISPLAY is not set, so there is no screen to capture")
                             : Text::tr("Wayland without XWayland: screen capture and input injection through "
                                        "the Wayland portals are not supported yet; run an X11 session");
        return status;
    }
    *displayServer = wayland.isEmpty() ? QStringLiteral("x11") : QStringLiteral("xwayland");
    Display* dpy = XOpenDisplay(display.constData());
    if (!dpy) {
        status.message = Text::tr("Cannot open the X display %1").arg(QString::fromLocal8Bit(display));
        return status;
    }
    const int screen = DefaultScreen(dpy);
    status.details.insert(QStringLiteral("width"), DisplayWidth(dpy, screen));
    status.details.insert(QStringLiteral("height"), DisplayHeight(dpy, screen));
    XCloseDisplay(dpy);
    status.state = PermissionState::Granted;
    status.message = wayland.isEmpty()
                         ? Text::tr("X11 display %1 is available for capture").arg(QString::fromLocal8Bit(display))
                         : Text::tr("XWayland display %1: only X11 windows can be captured and driven")
                               .arg(QString::fromLocal8Bit(display));
    return status;
}

PermissionGuide AtspiPermissionProbe::guide(const PermissionReport& report) const
{
    PermissionGuide guide;
    const bool accessibility = report.accessibility.state == PermissionState::Granted;
    const bool capture = report.screenCapture.state == PermissionState::Granted;
    guide.accessibility =
        accessibility ? Text::tr("Apps started before accessibility was switched on must be restarted to appear.")
                      : Text::tr("Press the button to switch accessibility on for this session (org.a11y.Status) and "
                                 "for the desktop's settings (toolkit-accessibility). Apps that are already running "
                                 "must be restarted afterwards.");
    if (report.displayServer == QLatin1String("wayland"))
        guide.screenCapture = Text::tr("This is a Wayland session. Capturing the screen and injecting input through "
                                       "the Wayland portals is not supported yet: log in to an X11 session (\"GNOME "
                                       "on Xorg\") to use the host.");
    else if (capture)
        guide.screenCapture = Text::tr("On X11 any program of your session may read the screen; nothing to grant.");
    else
        guide.screenCapture = Text::tr("There is no X11 display to capture. Start the host inside your desktop "
                                       "session (DISPLAY must be set).");
    guide.grantLabel = Text::tr("Turn accessibility on");
    return guide;
}

void AtspiPermissionProbe::requestAccessibility(QObject* context, GrantDone done)
{
    // Both asynchronous: the caller (onboarding, on the GUI thread) never waits on the bus or on
    // a process.
    QDBusMessage set = QDBusMessage::createMethodCall(
        kBusService, kBusPath, QStringLiteral("org.freedesktop.DBus.Properties"), QStringLiteral("Set"));
    set << QStringLiteral("org.a11y.Status") << QStringLiteral("IsEnabled") << QVariant::fromValue(QDBusVariant(true));
    auto* watcher = new QDBusPendingCallWatcher(QDBusConnection::sessionBus().asyncCall(set, 3000), context);
    QObject::connect(watcher, &QDBusPendingCallWatcher::finished, context, [watcher, done = std::move(done)] {
        watcher->deleteLater();
        const bool ok = !watcher->isError();
        done(ok, ok ? QString() : watcher->error().message());
    });
    auto* gsettings = new QProcess(context);
    QObject::connect(gsettings, &QProcess::finished, gsettings, &QObject::deleteLater);
    QObject::connect(gsettings, &QProcess::errorOccurred, gsettings, &QObject::deleteLater);
    gsettings->start(QStringLiteral("gsettings"), {QStringLiteral("set"), QStringLiteral("org.gnome.desktop.interface"),
                                                   QStringLiteral("toolkit-accessibility"), QStringLiteral("true")});
}

} // namespace Automation
