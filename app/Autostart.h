#pragma once

#include <QString>

namespace App {

/// "Start with my session" (Settings): the user's own autostart entry,
/// $XDG_CONFIG_HOME/autostart/com.msgcode.desktop.host.desktop, which overrides the one the
/// package puts in /etc/xdg/autostart (XDG Autostart): absent means the system's entry decides;
/// `Hidden=true` turns it off; a full entry turns it on where the system has none (a host built
/// from source). Without widgets, so it is unit-tested.
namespace Autostart {

inline constexpr char kFileName[] = "com.msgcode.desktop.host.desktop";

/// The user's entry's path (XDG_CONFIG_HOME, else ~/.config).
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
