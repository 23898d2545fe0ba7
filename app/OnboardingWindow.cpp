#include "OnboardingWindow.h"

#include "PermissionMonitor.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusVariant>
#include <QDesktopServices>
#include <QGroupBox>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace App {

namespace {

QString stateText(Automation::PermissionState state)
{
    switch (state) {
    // A coloured disc (U+25CF is in every common font; emoji are not) and the word.
    case Automation::PermissionState::Granted:
        return QStringLiteral("<span style=\"color:#2ea043\">&#9679;</span> <b>%1</b>").arg(OnboardingWindow::tr("Granted"));
    case Automation::PermissionState::Denied:
        return QStringLiteral("<span style=\"color:#d02c2c\">&#9679;</span> <b>%1</b>").arg(OnboardingWindow::tr("Not granted"));
    case Automation::PermissionState::Unknown:
        return QStringLiteral("<span style=\"color:#e0a800\">&#9679;</span> <b>%1</b>").arg(OnboardingWindow::tr("Not known yet"));
    }
    return {};
}

} // namespace

OnboardingWindow::OnboardingWindow(Bridge::PermissionMonitor& permissions, QWidget* parent)
    : QWidget(parent, Qt::Window), m_permissions(permissions)
{
    setObjectName(QStringLiteral("onboardingWindow"));
    setWindowTitle(tr("Set up msgcode Desktop Host"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("msgcode Desktop Host needs two permissions to see and operate apps on your "
                                "desktop for msgcode. msgcode itself never gets them: it asks this host, and you "
                                "approve every action."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    // contract 5.2: the permissions' purposes.
    auto* accessibility = new QGroupBox(tr("Accessibility — AX observe/find/action"), this);
    auto* a = new QVBoxLayout(accessibility);
    m_accessibilityState = new QLabel(accessibility);
    m_accessibilityState->setObjectName(QStringLiteral("accessibilityState"));
    m_accessibilityState->setWordWrap(true);
    m_accessibilityHow = new QLabel(accessibility);
    m_accessibilityHow->setWordWrap(true);
    m_accessibilityHow->setOpenExternalLinks(true);
    a->addWidget(m_accessibilityState);
    a->addWidget(m_accessibilityHow);
#if defined(Q_OS_MACOS)
    m_enable = new QPushButton(tr("Open Privacy & Security → Accessibility"), accessibility);
#else
    m_enable = new QPushButton(tr("Turn accessibility on"), accessibility);
#endif
    m_enable->setObjectName(QStringLiteral("enableAccessibility"));
    a->addWidget(m_enable);
    layout->addWidget(accessibility);
    connect(m_enable, &QPushButton::clicked, this, &OnboardingWindow::enableAccessibility);

    auto* capture = new QGroupBox(tr("Screen capture — Screenshot capture"), this);
    auto* c = new QVBoxLayout(capture);
    m_captureState = new QLabel(capture);
    m_captureState->setObjectName(QStringLiteral("captureState"));
    m_captureState->setWordWrap(true);
    m_captureHow = new QLabel(capture);
    m_captureHow->setWordWrap(true);
    m_captureHow->setOpenExternalLinks(true);
    c->addWidget(m_captureState);
    c->addWidget(m_captureHow);
    layout->addWidget(capture);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    auto* close = new QPushButton(tr("Close"), this);
    connect(close, &QPushButton::clicked, this, &QWidget::close);
    layout->addWidget(close, 0, Qt::AlignRight);

    connect(&m_permissions, &Bridge::PermissionMonitor::changed, this, &OnboardingWindow::refresh,
            Qt::QueuedConnection);
    setMinimumWidth(520);
    setMaximumWidth(720);
    refresh();
}

void OnboardingWindow::refresh()
{
    const auto report = m_permissions.current();
    const bool accessibility = report.accessibility.state == Automation::PermissionState::Granted;
    const bool capture = report.screenCapture.state == Automation::PermissionState::Granted;
    m_accessibilityState->setText(stateText(report.accessibility.state) + QStringLiteral(" — ") +
                                  report.accessibility.message.toHtmlEscaped());
    m_captureState->setText(stateText(report.screenCapture.state) + QStringLiteral(" — ") +
                            report.screenCapture.message.toHtmlEscaped());
#if defined(Q_OS_MACOS)
    m_accessibilityHow->setText(
        tr("Open System Settings → Privacy & Security → Accessibility and switch on msgcode Desktop Host. If it "
           "is on but automation still fails after an update, the system may be holding a stale grant: remove "
           "it there (or run <code>tccutil reset Accessibility com.msgcode.desktop-host</code>) and grant it "
           "again. <a href=\"x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility\">"
           "Open the setting</a>"));
    m_captureHow->setText(
        tr("Open System Settings → Privacy & Security → Screen Recording and switch on msgcode Desktop Host; "
           "after an update a grant can look on and still fail: remove and add it again (or run <code>tccutil "
           "reset ScreenCapture com.msgcode.desktop-host</code>). <a "
           "href=\"x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture\">Open the "
           "setting</a>"));
#else
    m_accessibilityHow->setText(
        accessibility ? tr("Apps started before accessibility was switched on must be restarted to appear.")
                      : tr("Press the button to switch accessibility on for this session (org.a11y.Status) and "
                           "for the desktop's settings (toolkit-accessibility). Apps that are already running "
                           "must be restarted afterwards."));
    if (report.displayServer == QLatin1String("wayland"))
        m_captureHow->setText(tr("This is a Wayland session. Capturing the screen and injecting input through the "
                                 "Wayland portals is not supported yet: log in to an X11 session (\"GNOME on "
                                 "Xorg\") to use the host."));
    else if (capture)
        m_captureHow->setText(tr("On X11 any program of your session may read the screen; nothing to grant."));
    else
        m_captureHow->setText(tr("There is no X11 display to capture. Start the host inside your desktop "
                                 "session (DISPLAY must be set)."));
#endif
    m_enable->setEnabled(!accessibility);
    m_summary->setText(accessibility && capture ? tr("All set: the host can see and operate apps.")
                                                : tr("The tray icon turns green once both are granted."));
}

void OnboardingWindow::enableAccessibility()
{
#if defined(Q_OS_MACOS)
    QDesktopServices::openUrl(
        QUrl(QStringLiteral("x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility")));
    Q_EMIT accessibilityRequested(true, QString());
#else
    m_enable->setEnabled(false);
    // Both asynchronous: the GUI thread never waits on the bus or on a process.
    QDBusMessage set = QDBusMessage::createMethodCall(QStringLiteral("org.a11y.Bus"), QStringLiteral("/org/a11y/bus"),
                                                      QStringLiteral("org.freedesktop.DBus.Properties"),
                                                      QStringLiteral("Set"));
    set << QStringLiteral("org.a11y.Status") << QStringLiteral("IsEnabled")
        << QVariant::fromValue(QDBusVariant(true));
    auto* watcher = new QDBusPendingCallWatcher(QDBusConnection::sessionBus().asyncCall(set, 3000), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher] {
        watcher->deleteLater();
        const bool ok = !watcher->isError();
        Q_EMIT accessibilityRequested(ok, ok ? QString() : watcher->error().message());
        if (!ok)
            m_enable->setEnabled(true);
    });
    auto* gsettings = new QProcess(this);
    connect(gsettings, &QProcess::finished, gsettings, &QObject::deleteLater);
    connect(gsettings, &QProcess::errorOccurred, gsettings, &QObject::deleteLater);
    gsettings->start(QStringLiteral("gsettings"), {QStringLiteral("set"), QStringLiteral("org.gnome.desktop.interface"),
                                                   QStringLiteral("toolkit-accessibility"), QStringLiteral("true")});
#endif
}

} // namespace App
