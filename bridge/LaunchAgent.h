#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

/// The host's macOS LaunchAgent (docs/macos.md, "The LaunchAgent"), as text: written by
/// "Start with my session" on macOS (app/Autostart_mac.cpp) and read by desktop.doctor, which
/// names any other agent that claims the bridge's mach service (msgcode's old bridge). Plain
/// text work with no Apple API, so it is tested on Linux.
namespace LaunchAgent {

inline constexpr char kLabel[] = "com.msgcode.desktop.host";
inline constexpr char kMachService[] = "com.msgcode.desktop.bridge";
inline constexpr char kFileName[] = "com.msgcode.desktop.host.plist";

/// The agent's plist: runs `executable` in the person's GUI session, restarts it after a crash
/// but not after a quit, publishes the bridge's mach service (so a client starts it on demand
/// even when it does not run at load), and runs at login when `runAtLoad`.
QByteArray plist(const QString& executable, bool runAtLoad);

/// What an agent plist (XML) says: its label, whether it runs at load, and the mach services it
/// publishes. nullopt when it is no XML property list.
struct Agent
{
    QString label;
    bool runAtLoad = false;
    QStringList machServices;
};
std::optional<Agent> parse(const QByteArray& xml);

/// An agent other than ours that publishes `service`: it would own the name, so clients reach it
/// and not us, while our listener still finds the name registered.
struct ForeignOwner
{
    QString path;
    QString label;
};
/// The foreign owners among the plists in `directories` (e.g. ~/Library/LaunchAgents,
/// /Library/LaunchAgents).
QList<ForeignOwner> foreignOwners(const QStringList& directories, const QString& service = QLatin1String(kMachService));

/// The commands that remove a foreign owner for good (launchctl bootout, then the file).
QString removalCommands(const ForeignOwner& owner);

} // namespace LaunchAgent
