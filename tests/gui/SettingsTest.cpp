// The settings dialog and the tray's confirmation policy menu in the headless
// desktop: values persist across a restart, bad values are refused where the person looks, the
// policy switches live from the tray, and the `cmd` mapping reaches the backend.
#include "TestHost.h"
#include "app/ConfirmationController.h"
#include "app/ConfirmationDialog.h"
#include "app/HostSettings.h"
#include "app/SettingsDialog.h"
#include "app/TrayController.h"
#include "bridge/Host.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <future>

using namespace Testing;

namespace {

void screenshotOf(QWidget* widget, const QString& name)
{
    QDir().mkpath(QStringLiteral(MDH_SCREENSHOT_DIR));
    QApplication::processEvents();
    QTest::qWait(150);
    widget->grab().save(QStringLiteral(MDH_SCREENSHOT_DIR) + QLatin1Char('/') + name + QStringLiteral(".png"));
}

template <typename T> T* child(QWidget* parent, const char* name)
{
    T* found = parent->findChild<T*>(QString::fromLatin1(name));
    EXPECT_NE(found, nullptr) << name;
    return found;
}

void selectData(QComboBox* box, const QString& data)
{
    const int index = box->findData(data);
    ASSERT_GE(index, 0) << data.toStdString();
    box->setCurrentIndex(index);
}

class Settings : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (qEnvironmentVariableIsEmpty("DISPLAY"))
            GTEST_SKIP() << "needs the headless desktop of scripts/test";
        m_ini = m_dir.path() + QStringLiteral("/settings.ini");
        QDir(m_dir.path()).mkpath(QStringLiteral("root/ws"));
        QDir(m_dir.path()).mkpath(QStringLiteral("other"));
        m_workspace = m_dir.path() + QStringLiteral("/root/ws");
    }

    void startHost()
    {
        Bridge::HostOptions options;
        // As msgcode's unattended set-up has it for the apps it drives (the policy's own
        // tests ask the built-in rules).
        options.ownerPolicy = Testing::allowEverything();
        options.server.socketPath = m_dir.path() + QStringLiteral("/run/bridge.sock");
        options.workspaceRoot = m_dir.path() + QStringLiteral("/root");
        options.backendFactory = [desktop = m_desktop] { return std::make_unique<FakeBackend>(desktop); };
        options.security.confirmPolicy = Bridge::ConfirmPolicy::Ask;
        options.security.approvalTimeoutMs = 30000;
        options.security.dataDir = m_dir.path() + QStringLiteral("/data");
        m_host = std::make_unique<Bridge::Host>(options);
        QString error;
        ASSERT_TRUE(m_host->start(&error)) << error.toStdString();
        m_confirmations = std::make_unique<App::ConfirmationController>(*m_host);
    }

    std::future<QJsonObject> issue()
    {
        const QString socket = m_host->server().socketPath();
        const QString workspace = m_workspace;
        return std::async(std::launch::async, [socket, workspace] {
            TestClient client(socket);
            const QJsonObject intent{
                {QStringLiteral("method"), QStringLiteral("desktop.typeText")},
                {QStringLiteral("params"), QJsonObject{{QStringLiteral("text"), QStringLiteral("hi")}}}};
            return client.call(QStringLiteral("desktop.confirm.issue"),
                               TestClient::withMeta({{QStringLiteral("intent"), intent}}, workspace), 60000);
        });
    }

    static QJsonObject wait(std::future<QJsonObject>& answer, int timeoutMs = 20000)
    {
        EXPECT_TRUE(QTest::qWaitFor(
            [&] { return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, timeoutMs));
        return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready ? answer.get() : QJsonObject();
    }

    static QString reason(const QJsonObject& response)
    {
        return errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString();
    }

    void TearDown() override
    {
        // The dialog lets go of the provider before the host goes.
        m_confirmations.reset();
        m_host.reset();
    }

    QTemporaryDir m_dir;
    QString m_ini;
    QString m_workspace;
    std::shared_ptr<FakeDesktop> m_desktop = std::make_shared<FakeDesktop>();
    std::unique_ptr<Bridge::Host> m_host;
    std::unique_ptr<App::ConfirmationController> m_confirmations;
};

} // namespace

TEST_F(Settings, PersistAcrossRestart)
{
    const QString other = m_dir.path() + QStringLiteral("/other");
    {
        App::SettingsDialog dialog(QStringLiteral("/run/user/0/msgcode/bridge.sock"), m_ini);
        dialog.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog, 5000));
        auto* socket = child<QLineEdit>(&dialog, "socketPath");
        EXPECT_TRUE(socket->isReadOnly());
        EXPECT_EQ(socket->text(), QStringLiteral("/run/user/0/msgcode/bridge.sock"));
        child<QLineEdit>(&dialog, "workspaceRoot")->setText(other);
        auto* warning = child<QLabel>(&dialog, "autoWarning");
        EXPECT_FALSE(warning->isVisible());
        selectData(child<QComboBox>(&dialog, "confirmPolicy"), QStringLiteral("auto"));
        EXPECT_TRUE(warning->isVisible()); // choosing auto warns, loudly
        screenshotOf(&dialog, QStringLiteral("settings-dialog-auto-warning"));
        selectData(child<QComboBox>(&dialog, "confirmPolicy"), QStringLiteral("deny"));
        EXPECT_FALSE(warning->isVisible());
        child<QCheckBox>(&dialog, "requireToken")->setChecked(true);
        child<QSpinBox>(&dialog, "maxTokenTtlMs")->setValue(30000);
        child<QSpinBox>(&dialog, "approvalTimeoutMs")->setValue(20000);
        child<QCheckBox>(&dialog, "keepTypedText")->setChecked(true);
        child<QSpinBox>(&dialog, "pngCompression")->setValue(9);
        child<QPlainTextEdit>(&dialog, "callerAllowlist")->setPlainText(QStringLiteral("/bin/sh\n/usr/bin/env\n"));
        selectData(child<QComboBox>(&dialog, "cmdKey"), QStringLiteral("super"));
        selectData(child<QComboBox>(&dialog, "language"), QStringLiteral("zh_CN"));
        // A grounding endpoint that is not a URL is refused where it was typed.
        child<QLineEdit>(&dialog, "groundingUrl")->setText(QStringLiteral("localhost:8080"));
        QSignalSpy saved(&dialog, &App::SettingsDialog::saved);
        QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
        EXPECT_EQ(saved.count(), 0);
        EXPECT_TRUE(child<QLabel>(&dialog, "visionError")->isVisible());
        screenshotOf(&dialog, QStringLiteral("settings-dialog-invalid-grounding"));
        child<QLineEdit>(&dialog, "groundingUrl")->setText(QStringLiteral("http://127.0.0.1:8080/v1"));
        child<QLineEdit>(&dialog, "groundingModel")->setText(QStringLiteral("qwen2.5-vl-7b"));
        child<QSpinBox>(&dialog, "groundingTimeoutMs")->setValue(12000);
        QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
        ASSERT_EQ(saved.count(), 1) << dialog.messageLabel()->text().toStdString();
        EXPECT_FALSE(child<QLabel>(&dialog, "visionError")->isVisible());
        screenshotOf(&dialog, QStringLiteral("settings-dialog"));
    }
    // "Restart": a new dialog, and the host's start-up read, from the same store.
    App::SettingsDialog again(QStringLiteral("/s"), m_ini);
    const App::HostSettings shown = again.values();
    const App::HostSettings loaded = App::HostSettings::load(m_ini);
    EXPECT_TRUE(shown == loaded);
    EXPECT_EQ(loaded.workspaceRoot, other);
    EXPECT_EQ(loaded.confirmPolicy, Bridge::ConfirmPolicy::Deny);
    EXPECT_TRUE(loaded.requireToken);
    EXPECT_EQ(loaded.maxTokenTtlMs, 30000);
    EXPECT_EQ(loaded.approvalTimeoutMs, 20000);
    EXPECT_TRUE(loaded.keepTypedText);
    EXPECT_EQ(loaded.pngCompression, 9);
    EXPECT_EQ(loaded.callerAllowlist, (QStringList{QStringLiteral("/bin/sh"), QStringLiteral("/usr/bin/env")}));
    EXPECT_EQ(loaded.cmdKey, App::HostSettings::CmdKey::Super);
    EXPECT_EQ(loaded.language, QStringLiteral("zh_CN"));
    EXPECT_EQ(loaded.grounding.url, QStringLiteral("http://127.0.0.1:8080/v1"));
    EXPECT_EQ(loaded.grounding.model, QStringLiteral("qwen2.5-vl-7b"));
    EXPECT_EQ(loaded.grounding.timeoutMs, 12000);
}

TEST_F(Settings, AnInvalidWorkspaceRootIsRefusedVisibly)
{
    App::HostSettings before;
    before.workspaceRoot = m_workspace;
    ASSERT_TRUE(before.save(m_ini));
    App::SettingsDialog dialog(QStringLiteral("/s"), m_ini);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog, 5000));
    const QString missing = m_dir.path() + QStringLiteral("/no/such/dir");
    child<QLineEdit>(&dialog, "workspaceRoot")->setText(missing);
    QSignalSpy saved(&dialog, &App::SettingsDialog::saved);
    QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
    EXPECT_EQ(saved.count(), 0);
    auto* error = child<QLabel>(&dialog, "workspaceRootError");
    EXPECT_TRUE(error->isVisible());
    EXPECT_TRUE(error->text().contains(missing));
    EXPECT_TRUE(dialog.messageLabel()->text().contains(missing));
    screenshotOf(&dialog, QStringLiteral("settings-dialog-invalid-workspace"));
    EXPECT_EQ(App::HostSettings::load(m_ini).workspaceRoot, m_workspace); // nothing was written
    // The host refuses one too and keeps the old root.
    startHost();
    const QString root = m_host->dispatcher().workspace().rootRealPath();
    QString why;
    EXPECT_FALSE(m_host->setWorkspaceRoot(missing, &why));
    EXPECT_FALSE(why.isEmpty());
    EXPECT_EQ(m_host->dispatcher().workspace().rootRealPath(), root);
}

TEST_F(Settings, PolicySwitchesLiveFromTheTray)
{
    startHost();
    App::TrayController tray(*m_host);
    tray.setSettingsFile(m_ini);
    tray.start();
    ASSERT_NE(tray.policyAction(QStringLiteral("ask")), nullptr);
    EXPECT_TRUE(tray.policyAction(QStringLiteral("ask"))->isChecked());
    ASSERT_NE(m_confirmations->dialog(), nullptr);

    // A request pending with `ask` when the policy changes is denied.
    QSignalSpy shown(m_confirmations->dialog(), &App::ConfirmationDialog::shown);
    auto pending = issue();
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 10000));
    tray.policyAction(QStringLiteral("deny"))->trigger();
    const QJsonObject withdrawn = wait(pending);
    EXPECT_EQ(errorCode(withdrawn), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    EXPECT_EQ(reason(withdrawn), QStringLiteral("denied"));
    EXPECT_EQ(m_host->confirmPolicy(), Bridge::ConfirmPolicy::Deny);
    EXPECT_EQ(m_confirmations->dialog(), nullptr);
    EXPECT_TRUE(tray.policyAction(QStringLiteral("deny"))->isChecked());
    EXPECT_EQ(App::HostSettings::load(m_ini).confirmPolicy, Bridge::ConfirmPolicy::Deny);

    // deny: answered at once, no dialog.
    auto denied = issue();
    const QJsonObject refused = wait(denied);
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    EXPECT_EQ(reason(refused), QStringLiteral("denied"));
    EXPECT_EQ(errorOf(refused).value(QStringLiteral("details")).toObject().value(QStringLiteral("policy")).toString(),
              QStringLiteral("deny"));
    EXPECT_EQ(m_confirmations->dialog(), nullptr);

    // auto: the tray turns yellow.
    tray.policyAction(QStringLiteral("auto"))->trigger();
    EXPECT_TRUE(QTest::qWaitFor([&] { return tray.state().level == App::TrayState::Level::Yellow; }, 3000));

    // Back to ask: the dialog is there again and decides.
    tray.policyAction(QStringLiteral("ask"))->trigger();
    ASSERT_NE(m_confirmations->dialog(), nullptr);
    EXPECT_TRUE(m_host->askProvider()->hasApprover());
    QSignalSpy shownAgain(m_confirmations->dialog(), &App::ConfirmationDialog::shown);
    auto asked = issue();
    ASSERT_TRUE(QTest::qWaitFor([&] { return shownAgain.count() == 1; }, 10000));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(m_confirmations->dialog(), 5000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return m_confirmations->dialog()->approveButton()->isEnabled(); }, 3000));
    QTest::mouseClick(m_confirmations->dialog()->approveButton(), Qt::LeftButton);
    EXPECT_EQ(resultOf(wait(asked)).value(QStringLiteral("token")).toString().size(), 36);
    EXPECT_TRUE(QTest::qWaitFor([&] { return tray.state().level == App::TrayState::Level::Green; }, 3000))
        << tray.state().tooltip().toStdString();
    EXPECT_EQ(App::HostSettings::load(m_ini).confirmPolicy, Bridge::ConfirmPolicy::Ask);
}

TEST_F(Settings, SavedSettingsApplyToTheRunningHost)
{
    startHost();
    App::TrayController tray(*m_host);
    tray.setSettingsFile(m_ini);
    tray.start();
    tray.showSettings();
    App::SettingsDialog* dialog = tray.settingsDialog();
    ASSERT_NE(dialog, nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog, 5000));
    const QString other = m_dir.path() + QStringLiteral("/other");
    child<QLineEdit>(dialog, "workspaceRoot")->setText(other);
    selectData(child<QComboBox>(dialog, "cmdKey"), QStringLiteral("super"));
    child<QSpinBox>(dialog, "pngCompression")->setValue(1);
    child<QCheckBox>(dialog, "requireToken")->setChecked(true);
    child<QSpinBox>(dialog, "approvalTimeoutMs")->setValue(7000);
    child<QCheckBox>(dialog, "keepTypedText")->setChecked(true);
    child<QCheckBox>(dialog, "keepFullTrees")->setChecked(true);
    QTest::mouseClick(dialog->saveButton(), Qt::LeftButton);
    // The backend gets the cmd mapping (on the worker thread) ...
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return m_desktop->backendSettings().value(QStringLiteral("cmdKey")).toString() == QLatin1String("super");
        },
        5000));
    EXPECT_EQ(m_desktop->backendSettings().value(QStringLiteral("pngCompression")).toInt(), 1);
    // ... and the bridge the rest, without a restart.
    EXPECT_TRUE(m_host->dispatcher().security().requireToken);
    EXPECT_EQ(m_host->dispatcher().security().approvalTimeoutMs, 7000);
    EXPECT_TRUE(m_host->dispatcher().keepTypedText());
    EXPECT_TRUE(m_host->dispatcher().keepFullTrees());
    EXPECT_EQ(m_host->dispatcher().workspace().rootRealPath(), QDir(other).canonicalPath());
    EXPECT_EQ(m_host->confirmPolicy(), Bridge::ConfirmPolicy::Ask);
    screenshotOf(dialog, QStringLiteral("settings-dialog-applied"));
}
