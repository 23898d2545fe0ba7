#include "translations/Translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLoggingCategory>
#include <QSettings>
#include <QTranslator>

namespace Translations {

namespace {

Q_LOGGING_CATEGORY(lcTranslations, "msgcode.translations", QtInfoMsg)

const QString kResourceDir = QStringLiteral(":/i18n");
const QString kBaseName = QStringLiteral("msgcode-desktop-host");

bool followsSystem(const QString& name)
{
    return name.isEmpty() || name.compare(QLatin1String("system"), Qt::CaseInsensitive) == 0;
}

} // namespace

QLocale chooseLocale(const QString& environment, const QString& setting, const QLocale& system)
{
    for (const QString& name : {environment.trimmed(), setting.trimmed()}) {
        if (followsSystem(name))
            continue;
        const QLocale locale(name);
        if (locale.language() == QLocale::C && name != QLatin1String("C") && name != QLatin1String("POSIX"))
            qCWarning(lcTranslations) << "unknown language" << name << "- showing the untranslated text";
        return locale;
    }
    return system;
}

QLocale install()
{
    auto* app = QCoreApplication::instance();
    Q_ASSERT(app);
    // Explicit names: the CLI runs under its own application name and still follows the host's setting.
    const QSettings settings(QStringLiteral("msgcode"), QStringLiteral("msgcode-desktop-host"));
    const QLocale locale = chooseLocale(qEnvironmentVariable(kEnvironmentVariable),
                                        settings.value(QLatin1String(kSettingsKey)).toString());

    // C/POSIX asks for no localisation: the source text as written, "(s)" plurals included.
    if (locale.language() == QLocale::C) {
        qCDebug(lcTranslations) << "C locale: untranslated";
        return locale;
    }

    auto* own = new QTranslator(app);
    // QTranslator walks locale.uiLanguages() (zh-Hans-CN, zh-CN, zh, ...). Where no translation
    // matches, the text is the English source, and the English file still supplies its plurals.
    const bool translated = own->load(locale, kBaseName, QStringLiteral("_"), kResourceDir);
    if (translated || own->load(QLocale(QLocale::English), kBaseName, QStringLiteral("_"), kResourceDir)) {
        QCoreApplication::installTranslator(own);
    } else {
        delete own;
    }
    qCDebug(lcTranslations) << "locale" << locale.name() << (translated ? "translated" : "English (no translation)");

    // Qt's own strings (standard buttons, --help boilerplate) only with ours, so they match.
    if (translated && locale.language() != QLocale::English) {
        auto* qt = new QTranslator(app);
        if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(qt);
        else
            delete qt;
    }
    return locale;
}

} // namespace Translations
