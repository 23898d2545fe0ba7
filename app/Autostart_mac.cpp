// "Start with my session" on macOS (Autostart.h): the user's LaunchAgent, RunAtLoad on or off.
#include "app/Autostart.h"

#include "bridge/LaunchAgent.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace App::Autostart {

namespace {

bool agentRunsAtLoad(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const auto agent = LaunchAgent::parse(file.readAll());
    return agent && agent->runAtLoad;
}

} // namespace

QString userEntryPath()
{
    return QDir::homePath() + QStringLiteral("/Library/LaunchAgents/") + QLatin1String(LaunchAgent::kFileName);
}

QString systemEntryPath()
{
    const QString path = QStringLiteral("/Library/LaunchAgents/") + QLatin1String(LaunchAgent::kFileName);
    return QFileInfo::exists(path) ? path : QString();
}

bool enabled()
{
    if (QFileInfo::exists(userEntryPath()))
        return agentRunsAtLoad(userEntryPath());
    const QString system = systemEntryPath();
    return !system.isEmpty() && agentRunsAtLoad(system);
}

bool setEnabled(bool on, const QString& executable)
{
    // The agent stays, off or on: it publishes the bridge's mach service, which starts the host
    // when a client connects.
    const QString user = userEntryPath();
    if (!QDir().mkpath(QFileInfo(user).path()))
        return false;
    QSaveFile file(user);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    const QByteArray text = LaunchAgent::plist(executable, on);
    return file.write(text) == text.size() && file.commit();
}

} // namespace App::Autostart
