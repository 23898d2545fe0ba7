#pragma once

#include <QString>

namespace App {

/// "Start with my session" (Settings), the platform's way (app/CMakeLists.txt picks the file):
/// - Linux (Autostart_linux.cpp): the user's own autostart entry,
///   $XDG_CONFIG_HOME/autostart/com.msgcode.desktop.host.desktop, which overrides the one the
///   package puts in /etc/xdg/autostart (XDG Autostart): absent means the system's entry decides;
///   `Hidden=true` turns it off; a full entry turns it on where the system has none (a host built
///   from source).
/// - macOS (Autostart_mac.cpp): the user's LaunchAgent,
///   ~/Library/LaunchAgents/com.msgcode.desktop.host.plist (bridge/LaunchAgent.h), its
///   RunAtLoad on or off; it keeps publishing the bridge's mach service either way, so msgcode
///   still starts the host on demand. launchd reads it at the next login.
/// Without widgets, so it is unit-tested.
namespace Autostart {

/// The user's entry's path (Linux: under XDG_CONFIG_HOME, else ~/.config).
QString userEntryPath();
/// The system's entry (/etc/xdg/autostart, or the first of XDG_CONFIG_DIRS that has it).
QString systemEntryPath();
/// Whether the host starts with the session now.
bool enabled();
/// Turns it on or off; `executable` is what a user entry of its own runs. False when the file
/// could not be written or removed.
bool setEnabled(bool on, const QString& executable);

} // namespace Autostart
} // namespace App
