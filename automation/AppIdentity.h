#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace Automation {

struct ResolvedRoute;

/// Who an app is, as route.app and the owner's rules name it (docs/protocol.md, "Policy"): its
/// pid, name, bundle id (macOS), executable and desktop entry (Linux), with the entry's
/// categories (TerminalEmulator, Settings, …).
struct AppIdentity
{
    qint64 pid = 0;
    QString name;
    QString bundleId;   ///< macOS; empty on Linux
    QString executable; ///< the program's file name ("xterm"); the path is in `executablePath`
    QString executablePath;
    QString desktopId; ///< "org.gnome.Terminal.desktop"; empty when no entry names the program
    QStringList categories;

    QJsonObject toJson() const;
};

/// The identity of the app a route resolved to. On Linux the desktop entry is the one the app
/// was launched from (GIO_LAUNCHED_DESKTOP_FILE in its environment), else the first entry in
/// the XDG data folders whose Exec or TryExec runs the same program.
AppIdentity identify(const ResolvedRoute& route);

/// The desktop entry (id and categories) whose Exec or TryExec runs `executable` (a file name),
/// from `dataDirs` (each holding an `applications` folder; empty: XDG_DATA_HOME and
/// XDG_DATA_DIRS). Entries are read once per folder set and kept a minute.
struct DesktopEntry
{
    QString id;
    QStringList categories;
};
DesktopEntry desktopEntryFor(const QString& executable, const QStringList& dataDirs = {});
/// The entry in one .desktop file; empty id when it cannot be read.
DesktopEntry readDesktopEntry(const QString& path);

} // namespace Automation
