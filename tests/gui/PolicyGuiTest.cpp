// The owner's rules on screen (docs/protocol.md, "Policy"): the dialog's "allow in this app for
// N minutes" becoming a grant, the rules section of Settings listing it with the built-in rules,
// a rule added from its form deciding the next call, the grant revoked there, and the
// unattended mode shown by the tray. Screenshots in gui-screenshots/.
#include "FakeBackend.h"
#include "GuiSupport.h"
#include "TestHost.h"
#include "app/ConfirmationDialog.h"
#include "app/RulesPage.h"
#include "app/SettingsDialog.h"
#include "app/TrayController.h"
#include "bridge/Host.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <future>

using namespace Testing;

namespace {

class PolicyGui : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (qEnvironmentVariableIsEmpty("DISPLAY"))
            GTEST_SKIP() << "needs the headless desktop of scripts/test";
        m_workspace = m_dir.path() + QStringLiteral("/root/ws");
        Bridge::HostOptions options = askingHostOptions(m_dir.path(), m_desktop);
        // The built-in rules only, kept in a file as the installed host keeps them.
        options.policyFile = m_dir.path() + QStringLiteral("/config/policy.json");
        m_host = std::make_unique<Bridge::Host>(options);
        QString error;
        ASSERT_TRUE(m_host->start(&error)) << error.toStdString();
        m_dialog = std::make_unique<App::ConfirmationDialog>(*m_host->askProvider());
    }

    /// A phrase-only click on "Send" (high-risk) from a client on another thread.
    std::future<QJsonObject> clickSend()
    {
        return std::async(std::launch::async, [socket = m_host->server().socketPath(), workspace = m_workspace] {
            TestClient client(socket);
            return client.call(
                QStringLiteral("desktop.click"),
                TestClient::withMeta(
                    {{QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}},
                     {QStringLiteral("target"),
                      QJsonObject{{QStringLiteral("selector"),
                                   QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                               {QStringLiteral("titleEquals"), QStringLiteral("Send")}}}}}},
                    workspace),
                60000);
        });
    }

    static QJsonObject wait(std::future<QJsonObject>& answer)
    {
        EXPECT_TRUE(QTest::qWaitFor(
            [&] { return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, 20000));
        return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready ? answer.get() : QJsonObject();
    }

    QTemporaryDir m_dir;
    QString m_workspace;
    std::shared_ptr<FakeDesktop> m_desktop = std::make_shared<FakeDesktop>();
    std::unique_ptr<Bridge::Host> m_host;
    std::unique_ptr<App::ConfirmationDialog> m_dialog;
};

} // namespace

TEST_F(PolicyGui, AllowingForAWhileMakesAGrantThatSettingsListsAndRevokes)
{
    QSignalSpy shown(m_dialog.get(), &App::ConfirmationDialog::shown);
    auto first = clickSend();
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 10000));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(m_dialog.get(), 5000));
    QComboBox* scope = m_dialog->scopeChoice();
    ASSERT_TRUE(scope->isVisible());
    ASSERT_EQ(scope->count(), 3);
    EXPECT_EQ(scope->currentData().toString(), QStringLiteral("once")) << "the default allows once";
    EXPECT_TRUE(scope->itemText(1).contains(QStringLiteral("Fake App"))) << scope->itemText(1).toStdString();
    scope->setCurrentIndex(1);
    m_dialog->scopeMinutes()->setValue(5);
    EXPECT_TRUE(m_dialog->scopeMinutes()->isEnabled());
    screenshot(QStringLiteral("confirmation-dialog-allow-for-a-while"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return m_dialog->approveButton()->isEnabled(); }, 3000));
    QTest::mouseClick(m_dialog->approveButton(), Qt::LeftButton);
    EXPECT_FALSE(resultOf(wait(first)).isEmpty());
    ASSERT_EQ(m_host->ownerPolicy().grants().size(), 1);

    // The grant answers the next one: no dialog.
    auto second = clickSend();
    const QJsonObject again = wait(second);
    EXPECT_FALSE(resultOf(again).isEmpty()) << QJsonDocument(again).toJson().constData();
    EXPECT_EQ(shown.count(), 1);

    // Settings lists it beside every rule in force; the person adds a rule and revokes the grant.
    App::TrayController tray(*m_host);
    tray.start();
    tray.showSettings();
    App::SettingsDialog* settings = tray.settingsDialog();
    ASSERT_NE(settings, nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(settings, 5000));
    auto* page = settings->findChild<App::RulesPage*>();
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(page->grantsList()->topLevelItemCount(), 1);
    EXPECT_EQ(page->rulesList()->topLevelItemCount(), 6);
    EXPECT_EQ(page->rulesList()->topLevelItem(4)->text(0), QStringLiteral("default:high-risk"));
    page->nameEdit()->setText(QStringLiteral("no-typing-in-fake"));
    page->appKind()->setCurrentIndex(page->appKind()->findData(QStringLiteral("name")));
    page->appEdit()->setText(QStringLiteral("Fake App"));
    page->classCheck(QStringLiteral("type"))->setChecked(true);
    page->decision()->setCurrentIndex(page->decision()->findData(QStringLiteral("deny")));
    QTest::mouseClick(page->addButton(), Qt::LeftButton);
    EXPECT_FALSE(page->errorLabel()->isVisible()) << page->errorLabel()->text().toStdString();
    ASSERT_EQ(page->rulesList()->topLevelItemCount(), 7);
    EXPECT_EQ(page->rulesList()->topLevelItem(0)->text(0), QStringLiteral("no-typing-in-fake"));
    settings->scrollArea()->verticalScrollBar()->setValue(0);
    screenshot(QStringLiteral("settings-owner-rules"));

    // The rule decides the next call.
    auto typing = std::async(std::launch::async, [socket = m_host->server().socketPath(), workspace = m_workspace] {
        return TestClient(socket).call(
            QStringLiteral("desktop.typeText"),
            TestClient::withMeta(
                {{QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}},
                 {QStringLiteral("text"), QStringLiteral("hi")}},
                workspace));
    });
    const QJsonObject typed = wait(typing);
    EXPECT_EQ(errorOf(typed).value(QStringLiteral("details")).toObject().value(QStringLiteral("rule")).toString(),
              QStringLiteral("no-typing-in-fake"));

    page->grantsList()->setCurrentItem(page->grantsList()->topLevelItem(0));
    QTest::mouseClick(page->revokeButton(), Qt::LeftButton);
    EXPECT_EQ(page->grantsList()->topLevelItemCount(), 0);
    EXPECT_TRUE(m_host->ownerPolicy().grants().isEmpty());
    auto third = clickSend();
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 2; }, 10000)) << "the revoked grant still answered";
    QTest::mouseClick(m_dialog->denyButton(), Qt::LeftButton);
    EXPECT_EQ(errorCode(wait(third)), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));

    // The unattended mode, from Settings, in the tray's menu and state.
    QTest::mouseClick(page->unattended(), Qt::LeftButton);
    EXPECT_TRUE(m_host->ownerPolicy().unattended());
    EXPECT_TRUE(tray.unattendedAction()->isChecked());
    // In the language the GUI speaks now (an earlier test may have switched it).
    EXPECT_TRUE(tray.state().lines.contains(
        App::TrayState::tr("Mode: unattended (what the owner's rules ask a person is refused)")))
        << tray.state().lines.join(QLatin1Char('\n')).toStdString();
    settings->close();
}
