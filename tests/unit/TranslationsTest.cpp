// Translations: every .ts entry finished, the .ts files in step with the sources,
// and the embedded translations really used by Translations::install().
#include "translations/Translations.h"
#include "UnitTestSupport.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTranslator>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <map>
#include <optional>

namespace {

struct TsMessage
{
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    QString type; ///< the translation's type attribute: "", "unfinished", "obsolete", "vanished"
    QString text; ///< the translation when not numerus
    QStringList forms;

    QString key() const { return context + QLatin1Char('|') + source + QLatin1Char('|') + comment; }
    QString where() const { return context + QStringLiteral(": \"") + source + QLatin1Char('"'); }
};

struct TsFile
{
    QString language;
    std::vector<TsMessage> messages;
    std::map<QString, const TsMessage*> byKey() const
    {
        std::map<QString, const TsMessage*> out;
        for (const auto& m : messages)
            out.emplace(m.key(), &m);
        return out;
    }
};

std::optional<TsFile> readTs(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": ") + file.errorString();
        return std::nullopt;
    }
    TsFile ts;
    QString context;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("TS")) {
            ts.language = xml.attributes().value(QLatin1String("language")).toString();
        } else if (name == QLatin1String("context")) {
            context.clear();
        } else if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            TsMessage m;
            m.context = context;
            m.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            while (xml.readNextStartElement()) {
                const auto part = xml.name();
                if (part == QLatin1String("source")) {
                    m.source = xml.readElementText();
                } else if (part == QLatin1String("comment")) {
                    m.comment = xml.readElementText();
                } else if (part == QLatin1String("translation")) {
                    m.type = xml.attributes().value(QLatin1String("type")).toString();
                    if (m.numerus) {
                        while (xml.readNextStartElement()) {
                            if (xml.name() == QLatin1String("numerusform"))
                                m.forms.append(xml.readElementText());
                            else
                                xml.skipCurrentElement();
                        }
                    } else {
                        m.text = xml.readElementText();
                    }
                } else {
                    xml.skipCurrentElement();
                }
            }
            ts.messages.push_back(std::move(m));
        }
    }
    if (xml.hasError()) {
        *error = path + QStringLiteral(": ") + xml.errorString();
        return std::nullopt;
    }
    return ts;
}

QSet<QString> placeholders(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("%(\\d+|n)"));
    QSet<QString> out;
    for (const auto& match : re.globalMatch(text))
        out.insert(match.captured());
    return out;
}

// A translation identical to an English source with words in it is a copy, not a translation,
// unless it is a name that is the same in every language (the product, option values).
bool copiedFromEnglish(const QString& translation, const QString& source)
{
    static const QSet<QString> sameInEveryLanguage{QStringLiteral("msgcode Desktop Host"),
                                                   QStringLiteral("ask|auto|deny")};
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{2,}"));
    return translation == source && source.contains(word) && !sameInEveryLanguage.contains(source);
}

struct TsCase
{
    QString path;
    bool pluralsOnly; ///< the source language's file: plural forms only (lupdate -pluralonly)
    int forms;        ///< numerus forms of the language
};

const std::vector<TsCase>& tsCases()
{
    static const std::vector<TsCase> cases{{QStringLiteral(MDH_TS_FULL), false, 1},
                                           {QStringLiteral(MDH_TS_PLURALS), true, 2}};
    return cases;
}

/// Sets an environment variable for one scope.
class ScopedEnv
{
public:
    ScopedEnv(const char* name, const QByteArray& value)
        : m_name(name), m_old(qgetenv(name)), m_had(qEnvironmentVariableIsSet(name))
    {
        qputenv(name, value);
    }
    ~ScopedEnv()
    {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }

private:
    const char* m_name;
    QByteArray m_old;
    bool m_had;
};

/// Removes what Translations::install() put on the application, so later tests see the source text.
void uninstallTranslators()
{
    for (auto* translator : QCoreApplication::instance()->findChildren<QTranslator*>(Qt::FindDirectChildrenOnly)) {
        QCoreApplication::removeTranslator(translator);
        delete translator;
    }
}

} // namespace

// Fails on unfinished, empty, obsolete or wrongly shaped entries, and on %1/%n lost in translation.
TEST(Translations, EveryEntryIsTranslated)
{
    for (const auto& c : tsCases()) {
        SCOPED_TRACE(c.path.toStdString());
        QString error;
        const auto ts = readTs(c.path, &error);
        ASSERT_TRUE(ts) << error.toStdString();
        EXPECT_FALSE(ts->messages.empty());
        for (const auto& m : ts->messages) {
            const std::string where = m.where().toStdString();
            EXPECT_TRUE(m.type.isEmpty()) << where << ": translation type \"" << m.type.toStdString()
                                          << "\" (translate it; remove stale ones with update_translations)";
            if (c.pluralsOnly) {
                EXPECT_TRUE(m.numerus) << where << ": the source language's file holds plural forms only";
            }
            const QStringList texts = m.numerus ? m.forms : QStringList{m.text};
            if (m.numerus) {
                EXPECT_EQ(m.forms.size(), c.forms) << where << ": numerus forms";
            }
            for (const auto& text : texts) {
                EXPECT_FALSE(text.trimmed().isEmpty()) << where << ": empty translation";
                EXPECT_EQ(placeholders(text), placeholders(m.source))
                    << where << ": placeholders differ in \"" << text.toStdString() << '"';
                if (!c.pluralsOnly) {
                    EXPECT_FALSE(copiedFromEnglish(text, m.source)) << where << ": copied, not translated";
                }
            }
        }
    }
}

// Reruns lupdate (as update_translations does) into a copy of each .ts: nothing may be added or removed.
TEST(Translations, TsFilesMatchTheSources)
{
    for (const auto& c : tsCases()) {
        SCOPED_TRACE(c.path.toStdString());
        QTemporaryDir dir;
        ASSERT_TRUE(dir.isValid());
        const QString copy = dir.filePath(c.path.section(QLatin1Char('/'), -1));
        ASSERT_TRUE(QFile::copy(c.path, copy));
        QStringList args = QStringLiteral(MDH_LUPDATE_OPTIONS).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (c.pluralsOnly)
            args << QStringLiteral("-pluralonly");
        args << QStringLiteral("-silent") << QStringLiteral("@" MDH_LUPDATE_INPUTS) << QStringLiteral("-ts") << copy;
        QProcess lupdate;
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        lupdate.start(QStringLiteral(MDH_LUPDATE), args);
        ASSERT_TRUE(lupdate.waitForFinished(60000)) << lupdate.errorString().toStdString();
        ASSERT_EQ(lupdate.exitCode(), 0) << lupdate.readAll().toStdString();

        QString error;
        const auto before = readTs(c.path, &error);
        ASSERT_TRUE(before) << error.toStdString();
        const auto after = readTs(copy, &error);
        ASSERT_TRUE(after) << error.toStdString();
        const auto known = before->byKey();
        const auto current = after->byKey();
        for (const auto& [key, m] : current) {
            EXPECT_TRUE(known.count(key)) << "new string, not in the .ts (build update_translations and translate it): "
                                          << m->where().toStdString();
        }
        for (const auto& [key, m] : known) {
            EXPECT_TRUE(current.count(key))
                << "string no longer in the sources (build update_translations): " << m->where().toStdString();
        }
        EXPECT_EQ(after->messages.size(), before->messages.size());
    }
}

TEST(Translations, ChineseIsEmbeddedAndInstalled)
{
    QTranslator translator;
    ASSERT_TRUE(translator.load(QStringLiteral(":/i18n/msgcode-desktop-host_zh_CN.qm")));
    EXPECT_EQ(translator.translate("App::TrayController", "Quit"), QStringLiteral("退出"));

    const ScopedEnv env(Translations::kEnvironmentVariable, "zh_CN");
    EXPECT_EQ(Translations::install().name(), QStringLiteral("zh_CN"));
    EXPECT_EQ(QCoreApplication::translate("App::TrayController", "Quit"), QStringLiteral("退出"));
    EXPECT_EQ(QCoreApplication::translate("TrayState", "msgcode Desktop Host is ready"),
              QStringLiteral("msgcode Desktop Host 已就绪"));
    EXPECT_EQ(QCoreApplication::translate("Ctl", "stopped: %n execution(s) aborted", nullptr, 3),
              QStringLiteral("已停止：中止了 3 个执行"));
    EXPECT_EQ(QCoreApplication::translate("Evidence", "Outcome"), QStringLiteral("结果"));
    uninstallTranslators();
}

TEST(Translations, EnglishGetsItsPlurals)
{
    const ScopedEnv env(Translations::kEnvironmentVariable, "en");
    EXPECT_EQ(Translations::install().language(), QLocale::English);
    EXPECT_EQ(QCoreApplication::translate("Ctl", "stopped: %n execution(s) aborted", nullptr, 1),
              QStringLiteral("stopped: 1 execution aborted"));
    EXPECT_EQ(QCoreApplication::translate("Ctl", "stopped: %n execution(s) aborted", nullptr, 2),
              QStringLiteral("stopped: 2 executions aborted"));
    EXPECT_EQ(QCoreApplication::translate("App::TrayController", "Quit"), QStringLiteral("Quit"));
    uninstallTranslators();
}

TEST(Translations, CLocaleIsTheUntranslatedSource)
{
    const ScopedEnv env(Translations::kEnvironmentVariable, "C");
    EXPECT_EQ(Translations::install().language(), QLocale::C);
    EXPECT_EQ(QCoreApplication::translate("Ctl", "stopped: %n execution(s) aborted", nullptr, 2),
              QStringLiteral("stopped: 2 execution(s) aborted"));
    uninstallTranslators();
}

TEST(Translations, EnvironmentBeatsSettingBeatsSystem)
{
    const QLocale german(QLocale::German, QLocale::Germany);
    EXPECT_EQ(Translations::chooseLocale(QStringLiteral("zh_CN"), QStringLiteral("en"), german).name(),
              QStringLiteral("zh_CN"));
    EXPECT_EQ(Translations::chooseLocale(QString(), QStringLiteral("zh_CN"), german).name(), QStringLiteral("zh_CN"));
    EXPECT_EQ(Translations::chooseLocale(QStringLiteral(" system "), QStringLiteral("en"), german).language(),
              QLocale::English);
    EXPECT_EQ(Translations::chooseLocale(QString(), QStringLiteral("system"), german), german);
    EXPECT_EQ(Translations::chooseLocale(QString(), QString(), german), german);
    EXPECT_EQ(Translations::chooseLocale(QStringLiteral("C"), QStringLiteral("zh_CN"), german).language(), QLocale::C);
}
