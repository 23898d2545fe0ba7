// HostSettings (the Settings dialog's store): validation, the QSettings round trip, what reaches the bridge and
// the backend; and the backend side of the `cmd` mapping.
#include "app/HostSettings.h"
#include "FakeBackend.h"
#include "app/Autostart.h"
#include "bridge/Executor.h"

#ifdef Q_OS_LINUX
#include "automation/backends/atspi/AtspiBackend.h"
#include "automation/backends/atspi/X11Session.h"
#endif

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using App::HostSettings;
using namespace Testing;

namespace {

QStringList fields(const QList<HostSettings::Problem>& problems)
{
    QStringList out;
    for (const auto& problem : problems)
        out.append(problem.field);
    return out;
}

HostSettings everythingChanged(const QTemporaryDir& dir)
{
    HostSettings s;
    s.workspaceRoot = dir.path();
    s.confirmPolicy = Bridge::ConfirmPolicy::Deny;
    s.requireToken = true;
    s.maxTokenTtlMs = 1000;
    s.approvalTimeoutMs = 600000;
    s.keepTypedText = true;
    s.keepFullTrees = true;
    s.pngCompression = 0;
    s.callerAllowlist = {QStringLiteral("/bin/sh"), QStringLiteral("/usr/bin/env")};
    s.cmdKey = HostSettings::CmdKey::Super;
    s.yieldToUser = QStringLiteral("wait");
    s.yieldQuietMs = 2500;
    s.language = QStringLiteral("zh_CN");
    s.remoteHost = QStringLiteral("ctl.example.com");
    s.remotePort = 9876;
    s.remoteTls = true;
    s.remoteFingerprint = QString(64, QLatin1Char('b'));
    s.remoteConfirmPolicy = Bridge::ConfirmPolicy::Deny;
    return s;
}

} // namespace

TEST(HostSettings, DefaultsAreValidAndSafe)
{
    const HostSettings s;
    EXPECT_TRUE(s.validate().isEmpty());
    EXPECT_EQ(s.confirmPolicy, Bridge::ConfirmPolicy::Ask);
    EXPECT_FALSE(s.keepTypedText);
    EXPECT_FALSE(s.keepFullTrees);
    EXPECT_FALSE(s.requireToken);
    EXPECT_EQ(s.cmdKey, HostSettings::CmdKey::Control);
    EXPECT_TRUE(s.language.isEmpty());
}

TEST(HostSettings, WorkspaceRootMustBeAnExistingDirectory)
{
    QTemporaryDir dir;
    HostSettings s;
    s.workspaceRoot = dir.path();
    EXPECT_TRUE(s.validate().isEmpty());
    s.workspaceRoot = dir.path() + QStringLiteral("/missing");
    EXPECT_EQ(fields(s.validate()), QStringList{QStringLiteral("workspaceRoot")});
    EXPECT_TRUE(s.validate().constFirst().message.contains(QStringLiteral("does not exist")));
    QFile file(dir.path() + QStringLiteral("/file"));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    s.workspaceRoot = file.fileName();
    EXPECT_TRUE(s.validate().constFirst().message.contains(QStringLiteral("not a directory")));
}

TEST(HostSettings, RangesAreChecked)
{
    struct Case
    {
        const char* name;
        std::function<void(HostSettings&)> change;
        QString field; // empty: valid
    };
    const Case cases[] = {
        {"ttl at min", [](HostSettings& s) { s.maxTokenTtlMs = 1000; }, {}},
        {"ttl at max", [](HostSettings& s) { s.maxTokenTtlMs = 600000; }, {}},
        {"ttl below", [](HostSettings& s) { s.maxTokenTtlMs = 999; }, QStringLiteral("maxTokenTtlMs")},
        {"ttl above", [](HostSettings& s) { s.maxTokenTtlMs = 600001; }, QStringLiteral("maxTokenTtlMs")},
        {"approval at min", [](HostSettings& s) { s.approvalTimeoutMs = 5000; }, {}},
        {"approval below", [](HostSettings& s) { s.approvalTimeoutMs = 4999; }, QStringLiteral("approvalTimeoutMs")},
        {"approval above", [](HostSettings& s) { s.approvalTimeoutMs = 600001; }, QStringLiteral("approvalTimeoutMs")},
        {"png 9", [](HostSettings& s) { s.pngCompression = 9; }, {}},
        {"png 10", [](HostSettings& s) { s.pngCompression = 10; }, QStringLiteral("evidence/pngCompression")},
        {"png -1", [](HostSettings& s) { s.pngCompression = -1; }, QStringLiteral("evidence/pngCompression")},
        {"caller exists", [](HostSettings& s) { s.callerAllowlist = {QStringLiteral("/bin/sh")}; }, {}},
        {"caller missing", [](HostSettings& s) { s.callerAllowlist = {QStringLiteral("/no/such/exe")}; },
         QStringLiteral("callerAllowlist")},
        {"caller is a dir", [](HostSettings& s) { s.callerAllowlist = {QStringLiteral("/usr")}; },
         QStringLiteral("callerAllowlist")},
        {"language en", [](HostSettings& s) { s.language = QStringLiteral("en"); }, {}},
        {"language fr", [](HostSettings& s) { s.language = QStringLiteral("fr"); }, QStringLiteral("language")},
    };
    for (const auto& c : cases) {
        HostSettings s;
        c.change(s);
        const auto problems = s.validate();
        if (c.field.isEmpty()) {
            EXPECT_TRUE(problems.isEmpty()) << c.name;
        } else {
            EXPECT_EQ(fields(problems), QStringList{c.field}) << c.name;
            EXPECT_FALSE(problems.value(0).message.isEmpty()) << c.name;
        }
    }
}

TEST(HostSettings, RoundTripThroughAnIniFile)
{
    QTemporaryDir dir;
    const QString ini = dir.path() + QStringLiteral("/settings.ini");
    const HostSettings written = everythingChanged(dir);
    ASSERT_TRUE(written.save(ini));
    const HostSettings read = HostSettings::load(ini);
    EXPECT_TRUE(read == written);
    // The keys other code reads: the translations read "language".
    QSettings raw(ini, QSettings::IniFormat);
    EXPECT_EQ(raw.value(QStringLiteral("language")).toString(), QStringLiteral("zh_CN"));
    EXPECT_EQ(raw.value(QStringLiteral("confirmPolicy")).toString(), QStringLiteral("deny"));
    EXPECT_EQ(raw.value(QStringLiteral("cmdKey")).toString(), QStringLiteral("super"));
    // The remote agent's server is stored; its device token never is (it lives in the keyring).
    EXPECT_EQ(raw.value(QStringLiteral("remote/host")).toString(), QStringLiteral("ctl.example.com"));
    raw.beginGroup(QStringLiteral("remote"));
    EXPECT_EQ(raw.childKeys().size(), 5);
    for (const QString& key : raw.childKeys())
        EXPECT_FALSE(key.contains(QStringLiteral("token"), Qt::CaseInsensitive)) << key.toStdString();
}

TEST(HostSettings, TheRemoteServerIsChecked)
{
    HostSettings s;
    s.remoteHost = QStringLiteral("ctl.example.com");
    EXPECT_EQ(s.validate().size(), 1) << "a server needs a port";
    s.remotePort = 9876;
    EXPECT_TRUE(s.validate().isEmpty());
    s.remoteFingerprint = QStringLiteral("12:34");
    EXPECT_EQ(s.validate().size(), 1);
    s.remoteFingerprint = QString(64, QLatin1Char('c'));
    EXPECT_EQ(s.validate().size(), 1) << "a pin needs TLS";
    s.remoteTls = true;
    EXPECT_TRUE(s.validate().isEmpty());
    EXPECT_EQ(s.securitySettings({}).remoteConfirmPolicy, Bridge::ConfirmPolicy::Ask);
}

TEST(HostSettings, MissingOrMalformedValuesKeepDefaults)
{
    QTemporaryDir dir;
    const QString ini = dir.path() + QStringLiteral("/settings.ini");
    EXPECT_TRUE(HostSettings::load(ini) == HostSettings());
    {
        QSettings raw(ini, QSettings::IniFormat);
        raw.setValue(QStringLiteral("confirmPolicy"), QStringLiteral("sometimes"));
        raw.setValue(QStringLiteral("maxTokenTtlMs"), QStringLiteral("lots"));
        raw.setValue(QStringLiteral("cmdKey"), QStringLiteral("hyper"));
    }
    const HostSettings read = HostSettings::load(ini);
    EXPECT_EQ(read.confirmPolicy, Bridge::ConfirmPolicy::Ask);
    EXPECT_EQ(read.maxTokenTtlMs, Bridge::SecuritySettings::kDefaultMaxTokenTtlMs);
    EXPECT_EQ(read.cmdKey, HostSettings::CmdKey::Control);
}

TEST(HostSettings, SecurityAndBackendSettings)
{
    QTemporaryDir dir;
    const HostSettings s = everythingChanged(dir);
    Bridge::SecuritySettings base;
    base.dataDir = QStringLiteral("/data");
    const auto security = s.securitySettings(base);
    EXPECT_EQ(security.confirmPolicy, Bridge::ConfirmPolicy::Deny);
    EXPECT_TRUE(security.requireToken);
    EXPECT_EQ(security.maxTokenTtlMs, 1000);
    EXPECT_EQ(security.approvalTimeoutMs, 600000);
    EXPECT_EQ(security.callerAllowlist, s.callerAllowlist);
    EXPECT_EQ(security.dataDir, QStringLiteral("/data"));
    EXPECT_EQ(s.backendSettings(), (QJsonObject{{QStringLiteral("cmdKey"), QStringLiteral("super")},
                                                {QStringLiteral("pngCompression"), 0},
                                                {QStringLiteral("yieldToUser"), QStringLiteral("wait")},
                                                {QStringLiteral("yieldQuietMs"), 2500},
                                                {QStringLiteral("giveBackFocus"), true}}));
}

TEST(HostSettings, ExecutorPassesBackendSettingsToTheWorker)
{
    auto desktop = std::make_shared<FakeDesktop>();
    Bridge::Executor executor([desktop] { return std::make_unique<FakeBackend>(desktop); });
    HostSettings s;
    s.cmdKey = HostSettings::CmdKey::Super;
    const QJsonObject settings = s.backendSettings();
    executor.configureBackend([settings](Automation::DesktopBackend& backend) { backend.configure(settings); });
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return desktop->backendSettings().value(QStringLiteral("cmdKey")).toString() == QLatin1String("super"); },
        5000));
    executor.shutdown();
}

#ifdef Q_OS_LINUX
TEST(CmdKeyMapping, X11SessionMapsCmdToControlOrSuper)
{
    Automation::X11Session x11; // the mapping needs no display
    const unsigned long control = x11.keysymForName(QStringLiteral("ctrl"));
    const unsigned long super = x11.keysymForName(QStringLiteral("super"));
    ASSERT_NE(control, 0u);
    ASSERT_NE(super, 0u);
    EXPECT_EQ(x11.keysymForName(QStringLiteral("cmd")), control);
    x11.setCmdKey(Automation::X11Session::CmdKey::Super);
    EXPECT_EQ(x11.keysymForName(QStringLiteral("cmd")), super);
    EXPECT_EQ(x11.keysymForName(QStringLiteral("ctrl")), control); // ctrl stays Control
}

TEST(CmdKeyMapping, AtspiBackendConfigure)
{
    Automation::AtspiBackend backend;
    EXPECT_EQ(backend.cmdKey(), Automation::X11Session::CmdKey::Control);
    EXPECT_EQ(backend.pngCompression(), -1);
    backend.configure(
        QJsonObject{{QStringLiteral("cmdKey"), QStringLiteral("super")}, {QStringLiteral("pngCompression"), 9}});
    EXPECT_EQ(backend.cmdKey(), Automation::X11Session::CmdKey::Super);
    EXPECT_EQ(backend.pngCompression(), 9);
    backend.configure(QJsonObject{{QStringLiteral("cmdKey"), QStringLiteral("ctrl")}});
    EXPECT_EQ(backend.cmdKey(), Automation::X11Session::CmdKey::Control);
    EXPECT_EQ(backend.pngCompression(), 9); // unchanged when not given
}
#endif

// "Start with my session": the user's autostart entry overrides the system's; on removes an
// override where the system's entry starts the host, or writes an entry where there is none.
TEST(Autostart, TheUsersEntryOverridesTheSystems)
{
    QTemporaryDir home;
    QTemporaryDir system;
    qputenv("XDG_CONFIG_HOME", home.path().toUtf8());
    qputenv("XDG_CONFIG_DIRS", system.path().toUtf8());
    EXPECT_FALSE(App::Autostart::enabled()) << "nothing installed, nothing written";
    ASSERT_TRUE(App::Autostart::setEnabled(true, QStringLiteral("/opt/msgcode/msgcode-desktop-host")));
    EXPECT_TRUE(App::Autostart::enabled());
    QFile written(App::Autostart::userEntryPath());
    ASSERT_TRUE(written.open(QIODevice::ReadOnly));
    EXPECT_TRUE(written.readAll().contains("Exec=\"/opt/msgcode/msgcode-desktop-host\""));
    written.close();

    // The package's entry is there: on means no override of our own; off, an override.
    QDir(system.path()).mkpath(QStringLiteral("autostart"));
    QFile installed(system.path() + QStringLiteral("/autostart/com.msgcode.desktop.host.desktop"));
    ASSERT_TRUE(installed.open(QIODevice::WriteOnly));
    installed.write("[Desktop Entry]\nType=Application\nName=msgcode Desktop Host\nExec=msgcode-desktop-host\n");
    installed.close();
    ASSERT_TRUE(App::Autostart::setEnabled(true, QStringLiteral("msgcode-desktop-host")));
    EXPECT_FALSE(QFileInfo::exists(App::Autostart::userEntryPath()));
    EXPECT_TRUE(App::Autostart::enabled());
    ASSERT_TRUE(App::Autostart::setEnabled(false, QStringLiteral("msgcode-desktop-host")));
    EXPECT_FALSE(App::Autostart::enabled());
    QFile override(App::Autostart::userEntryPath());
    ASSERT_TRUE(override.open(QIODevice::ReadOnly));
    EXPECT_TRUE(override.readAll().contains("Hidden=true"));
    qunsetenv("XDG_CONFIG_HOME");
    qunsetenv("XDG_CONFIG_DIRS");
}
