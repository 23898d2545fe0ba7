#include "app/Autostart.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>

namespace App::Autostart {

namespace {

constexpr char kFileName[] = "com.msgcode.desktop.host.desktop";

QString configHome()
{
    const QString home = qEnvironmentVariable("XDG_CONFIG_HOME");
    return home.isEmpty() ? QDir::homePath() + QStringLiteral("/.config") : home;
}

// Hidden=true (or X-GNOME-Autostart-enabled=false) turns an entry off.
bool entryOn(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return false;
    bool on = true;
    for (const QByteArray& raw : file.readAll().split('\n')) {
        const QByteArray line = raw.trimmed();
        QByteArray compact = line;
        compact.replace(' ', "");
        if (compact == "Hidden=true" || compact == "X-GNOME-Autostart-enabled=false")
            on = false;
    }
    return on;
}

} // namespace

QString userEntryPath()
{
    return configHome() + QStringLiteral("/autostart/") + QLatin1String(kFileName);
}

QString systemEntryPath()
{
    QStringList dirs = qEnvironmentVariable("XDG_CONFIG_DIRS").split(QLatin1Char(':'), Qt::SkipEmptyParts);
    if (dirs.isEmpty())
        dirs.append(QStringLiteral("/etc/xdg"));
    for (const QString& dir : dirs) {
        const QString path = dir + QStringLiteral("/autostart/") + QLatin1String(kFileName);
        if (QFileInfo::exists(path))
            return path;
    }
    return {};
}

bool enabled()
{
    if (QFileInfo::exists(userEntryPath()))
        return entryOn(userEntryPath());
    const QString system = systemEntryPath();
    return !system.isEmpty() && entryOn(system);
}

bool setEnabled(bool on, const QString& executable)
{
    const QString user = userEntryPath();
    if (on && !systemEntryPath().isEmpty() && entryOn(systemEntryPath())) {
        // The system's entry starts it: the user's own override goes.
        return !QFileInfo::exists(user) || QFile::remove(user);
    }
    if (!QDir().mkpath(QFileInfo(user).path()))
        return false;
    QFile file(user);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text))
        return false;
    QByteArray text = "[Desktop Entry]\nType=Application\nName=msgcode Desktop Host\nIcon=com.msgcode.desktop.host\n"
                      "NoDisplay=true\n";
    // Quoted as the desktop-entry spec says, so a path with spaces or % stays one argument.
    QString quoted = executable;
    quoted.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    quoted.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    quoted.replace(QLatin1Char('`'), QStringLiteral("\\`"));
    quoted.replace(QLatin1Char('$'), QStringLiteral("\\$"));
    quoted.replace(QLatin1Char('%'), QStringLiteral("%%"));
    text += "Exec=\"" + quoted.toUtf8() + "\"\n";
    text += on ? "X-GNOME-Autostart-enabled=true\n" : "Hidden=true\n";
    return file.write(text) == text.size();
}

} // namespace App::Autostart
