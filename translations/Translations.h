#pragma once

#include <QLocale>
#include <QString>

/// The language of the host's and the CLI's human text: the translations built
/// from translations/*.ts and embedded under :/i18n, plus Qt's own where Debian ships them.
namespace Translations {

/// The override variable: a locale name such as `zh_CN` or `en`; empty means no override.
inline constexpr char kEnvironmentVariable[] = "MSGCODE_DESKTOP_LANG";
/// The QSettings key (organization "msgcode", application "msgcode-desktop-host") the settings
/// dialog writes; empty or "system" means follow the system.
inline constexpr char kSettingsKey[] = "language";

/// The locale to show: `environment` wins over `setting`; when both are empty (or "system"),
/// `system`. "C" (like an unknown name) means the untranslated source text.
QLocale chooseLocale(const QString& environment, const QString& setting, const QLocale& system = QLocale::system());

/// Reads the override variable and the setting, loads the matching translations and installs
/// them on the running QCoreApplication (call it right after creating the application).
/// Returns the locale chosen; its text stays English where no translation exists.
QLocale install();

} // namespace Translations
