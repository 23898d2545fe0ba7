#include "automation/PermissionGrant.h"

#include <QCoreApplication>

namespace Automation {

namespace {

class Text
{
    Q_DECLARE_TR_FUNCTIONS(Permissions)
};

} // namespace

QString bundleOf(const QString& executablePath)
{
    const qsizetype at = executablePath.indexOf(QLatin1String(".app/Contents/MacOS/"));
    return at < 0 ? executablePath : executablePath.left(at + 4);
}

QJsonObject PermissionGrant::toJson() const
{
    return QJsonObject{{QStringLiteral("permission"), permission},
                       {QStringLiteral("program"), program},
                       {QStringLiteral("setting"), setting},
                       {QStringLiteral("how"), how}};
}

QString PermissionGrant::sentence() const
{
    return Text::tr("Grant it to %1 in %2: %3").arg(program, setting, how);
}

PermissionGrant permissionGrant(const QString& permission, const QString& executablePath)
{
    PermissionGrant grant;
    grant.permission = permission;
    const QString executable = executablePath.isEmpty() ? QCoreApplication::applicationFilePath() : executablePath;
    const bool screen = permission == QLatin1String("screenRecording");
#ifdef Q_OS_MACOS
    // TCC grants an app bundle; a bare executable started from a terminal makes the terminal the
    // responsible process, so the grant would go there.
    grant.program = bundleOf(executable);
    grant.setting = screen ? Text::tr("System Settings > Privacy & Security > Screen Recording")
                           : Text::tr("System Settings > Privacy & Security > Accessibility");
    grant.how = grant.program.endsWith(QLatin1String(".app"))
                    ? Text::tr("turn on %1 in the list (add it with + if it is missing), then restart the host")
                          .arg(grant.program)
                    : Text::tr("this host is not an app bundle, so macOS asks about the program that started it "
                               "(the terminal); start the host from its bundle instead");
#else
    grant.program = executable;
    if (screen) {
        grant.setting = Text::tr("the X display (DISPLAY and its XAUTHORITY cookie)");
        grant.how = Text::tr("start %1 in the desktop session, with DISPLAY and XAUTHORITY of that session; on "
                             "Wayland run an X11 session")
                        .arg(grant.program);
    } else {
        grant.setting = Text::tr("the session's accessibility (org.a11y.Status IsEnabled)");
        grant.how = Text::tr("Linux grants it to the whole session, not to one program: gsettings set "
                             "org.gnome.desktop.interface toolkit-accessibility true, then restart the apps; %1 "
                             "needs the session's D-Bus (DBUS_SESSION_BUS_ADDRESS)")
                        .arg(grant.program);
    }
#endif
    return grant;
}

} // namespace Automation
