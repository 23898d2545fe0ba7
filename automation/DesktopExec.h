#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace Automation {

/// What a desktop entry says about starting its app (the Desktop Entry Specification 1.5).
struct DesktopLaunch
{
    QString id;   ///< "org.gnome.TextEditor.desktop"
    QString path; ///< the file it was read from
    QString name;
    QString exec; ///< the Exec key, its string escapes undone
    QString tryExec;
    QString icon;
    bool terminal = false;
    bool hidden = false; ///< Hidden=true or NoDisplay=true: still launchable, not listed
};

/// The file of a desktop id in `dataDirs` (each holding applications/; empty: XDG_DATA_HOME,
/// then XDG_DATA_DIRS), a dash in the id also standing for a subfolder as the specification
/// says ("kde-konsole.desktop" may be applications/kde/konsole.desktop). Empty when none.
QString desktopEntryPath(const QString& desktopId, const QStringList& dataDirs = {});

/// The [Desktop Entry] group of one file; nullopt when it cannot be read or has no Exec.
std::optional<DesktopLaunch> readDesktopLaunch(const QString& path);

/// An Exec line as the program and its arguments: arguments split at unquoted spaces, double
/// quotes with their backslash escapes undone, the field codes expanded (%f %u: the first of
/// `files`, %F %U: all of them, %i: --icon and the icon, %c: the name, %k: the file's path,
/// %%: a percent; the deprecated %d %D %n %N %v %m removed). nullopt with `error` when the line
/// is not well formed (an open quote, a field code inside quotes, nothing to run).
std::optional<QStringList> execArguments(const DesktopLaunch& entry, const QStringList& files, QString* error);

} // namespace Automation
