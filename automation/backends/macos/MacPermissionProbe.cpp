// The macOS permission probe over AxApi: accessibility (AXIsProcessTrustedWithOptions) and
// screen recording (CGPreflightScreenCaptureAccess), with what a person does to grant them.
#include "automation/backends/macos/MacBackend.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QPointer>
#include <QTimer>
#include <QUrl>

namespace Automation::Mac {

namespace {

// Shown to people (onboarding, tray, doctor): translated like the GUI's.
class Text
{
    Q_DECLARE_TR_FUNCTIONS(Permissions)
};

const char* const kAccessibilityPane = "x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility";
const char* const kScreenCapturePane = "x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture";

} // namespace

MacPermissionProbe::MacPermissionProbe(std::unique_ptr<AxApi> api, std::function<void(const QUrl&)> openSettings)
    : m_api(std::move(api)), m_openSettings(std::move(openSettings))
{
    if (!m_openSettings)
        m_openSettings = [](const QUrl& url) { QDesktopServices::openUrl(url); };
}

PermissionReport MacPermissionProbe::probe()
{
    PermissionReport report;
    report.platform = QStringLiteral("macos");
    report.displayServer = QStringLiteral("quartz");
    const bool trusted = m_api->isProcessTrusted(false);
    report.accessibility.state = trusted ? PermissionState::Granted : PermissionState::Denied;
    report.accessibility.message =
        trusted ? Text::tr("Accessibility is granted to the host.")
                : Text::tr("Accessibility is not granted: System Settings > Privacy & Security > Accessibility, "
                           "turn on msgcode Desktop Host.");
    report.accessibility.details =
        QJsonObject{{QStringLiteral("settingsUrl"), QString::fromLatin1(kAccessibilityPane)}};
    const bool capture = m_api->screenCaptureAllowed();
    report.screenCapture.state = capture ? PermissionState::Granted : PermissionState::Denied;
    report.screenCapture.message =
        capture ? Text::tr("Screen recording is granted to the host.")
                : Text::tr("Screen recording is not granted: System Settings > Privacy & Security > Screen Recording, "
                           "turn on msgcode Desktop Host, then restart it.");
    report.screenCapture.details =
        QJsonObject{{QStringLiteral("settingsUrl"), QString::fromLatin1(kScreenCapturePane)}};
    return report;
}

PermissionGuide MacPermissionProbe::guide(const PermissionReport& report) const
{
    PermissionGuide guide;
    const bool accessibility = report.accessibility.state == PermissionState::Granted;
    const bool capture = report.screenCapture.state == PermissionState::Granted;
    guide.accessibility =
        accessibility
            ? Text::tr("Granted. macOS keeps the grant for this signed copy of the host; a copy signed differently "
                       "must be granted again (tccutil reset Accessibility com.msgcode.desktop.host starts over).")
            : Text::tr("Press the button: macOS asks whether to let the host control the computer and opens "
                       "System Settings > Privacy & Security > Accessibility, where you turn the host on.");
    guide.screenCapture =
        capture ? Text::tr("Granted.")
                : Text::tr("Press the button: macOS lists the host under System Settings > Privacy & Security > "
                           "Screen Recording (it lists only apps that asked) and opens that pane, where you turn the "
                           "host on; macOS applies it after the host restarts.");
    guide.grantLabel = Text::tr("Open Accessibility settings");
    if (!capture)
        guide.captureGrantLabel = Text::tr("Allow screen recording");
    return guide;
}

void MacPermissionProbe::requestAccessibility(QObject* context, GrantDone done)
{
    // The prompt option shows macOS's own dialog once; the settings pane is where a person
    // turns the switch on. Neither blocks: the answer comes when the person has acted.
    const bool trusted = m_api->isProcessTrusted(true);
    if (!trusted)
        m_openSettings(QUrl(QString::fromLatin1(kAccessibilityPane)));
    QPointer<QObject> guard(context);
    QTimer::singleShot(0, context, [guard, trusted, done = std::move(done)] {
        if (guard)
            done(trusted, trusted ? QString()
                                  : Text::tr("Turn msgcode Desktop Host on in System Settings > Privacy & Security > "
                                             "Accessibility."));
    });
}

void MacPermissionProbe::requestScreenCapture(QObject* context, GrantDone done)
{
    // An app that never asked is not even listed under Screen Recording, so there would be no
    // switch to turn on: ask first (macOS shows its prompt once), then open the pane.
    const bool allowed = m_api->requestScreenCaptureAccess();
    if (!allowed)
        m_openSettings(QUrl(QString::fromLatin1(kScreenCapturePane)));
    QPointer<QObject> guard(context);
    QTimer::singleShot(0, context, [guard, allowed, done = std::move(done)] {
        if (guard)
            done(allowed, allowed ? QString()
                                  : Text::tr("Turn msgcode Desktop Host on in System Settings > Privacy & Security > "
                                             "Screen Recording, then restart the host."));
    });
}

} // namespace Automation::Mac
