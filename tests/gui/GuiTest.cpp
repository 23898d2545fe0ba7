// The tray app's windows, for real, in the headless desktop: a tray host
// (trayer), the real permission probe against the session's AT-SPI bus, the confirmation
// dialog answering confirm.issue over the socket. Each test saves what it shows under
// gui-screenshots/ in the build tree.
#include "GuiSupport.h"
#include "TestHost.h"
#include "app/ConfirmationDialog.h"
#include "app/OnboardingWindow.h"
#include "app/TrayController.h"
#include "automation/PlatformBackend.h"
#include "bridge/Host.h"

#include <QApplication>
#include <QCheckBox>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVariant>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSystemTrayIcon>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <future>
#include <unistd.h>

using namespace Testing;

namespace {

bool setAccessibility(bool enabled)
{
    QDBusMessage set =
        QDBusMessage::createMethodCall(QStringLiteral("org.a11y.Bus"), QStringLiteral("/org/a11y/bus"),
                                       QStringLiteral("org.freedesktop.DBus.Properties"), QStringLiteral("Set"));
    set << QStringLiteral("org.a11y.Status") << QStringLiteral("IsEnabled")
        << QVariant::fromValue(QDBusVariant(enabled));
    return QDBusConnection::sessionBus().call(set, QDBus::Block, 3000).type() == QDBusMessage::ReplyMessage;
}

// A system-tray host for the test, stopped with it.
class TrayHost
{
public:
    bool start()
    {
        if (QSystemTrayIcon::isSystemTrayAvailable())
            return true;
        m_process.start(QStringLiteral("trayer"),
                        {QStringLiteral("--edge"), QStringLiteral("top"), QStringLiteral("--align"),
                         QStringLiteral("right"), QStringLiteral("--widthtype"), QStringLiteral("pixel"),
                         QStringLiteral("--width"), QStringLiteral("200")});
        return QTest::qWaitFor([] { return QSystemTrayIcon::isSystemTrayAvailable(); }, 5000);
    }
    ~TrayHost()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(2000))
                m_process.kill();
        }
    }

private:
    QProcess m_process;
};

class Gui : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (qEnvironmentVariableIsEmpty("DISPLAY") || qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
            GTEST_SKIP() << "needs the headless desktop of scripts/test";
        ASSERT_TRUE(setAccessibility(true));
    }
    void TearDown() override { setAccessibility(true); }

    void startHost(int approvalTimeoutMs = 30000, bool realBackend = false)
    {
        m_workspace = m_dir.path() + QStringLiteral("/root/ws");
        Bridge::HostOptions options = askingHostOptions(m_dir.path(), m_desktop);
        // As msgcode's unattended set-up has it for the apps it drives (the policy's own
        // tests ask the built-in rules).
        options.ownerPolicy = Testing::allowEverything();
        if (realBackend)
            options.backendFactory = &Automation::createPlatformBackend;
        options.security.approvalTimeoutMs = approvalTimeoutMs;
        m_host = std::make_unique<Bridge::Host>(options);
        QString error;
        ASSERT_TRUE(m_host->start(&error)) << error.toStdString();
        ASSERT_NE(m_host->askProvider(), nullptr);
        m_dialog = std::make_unique<App::ConfirmationDialog>(*m_host->askProvider());
    }

    // confirm.issue from a client on another thread (the host runs on this, the GUI, thread).
    std::future<QJsonObject> issue(const QString& text)
    {
        const QString socket = m_host->server().socketPath();
        const QString workspace = m_workspace;
        return std::async(std::launch::async, [socket, workspace, text] {
            TestClient client(socket);
            const QJsonObject intent{{QStringLiteral("method"), QStringLiteral("desktop.typeText")},
                                     {QStringLiteral("params"), QJsonObject{{QStringLiteral("text"), text}}}};
            return client.call(QStringLiteral("desktop.confirm.issue"),
                               TestClient::withMeta({{QStringLiteral("intent"), intent}}, workspace), 60000);
        });
    }

    static QJsonObject wait(std::future<QJsonObject>& answer, int timeoutMs = 20000)
    {
        EXPECT_TRUE(QTest::qWaitFor(
            [&] { return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, timeoutMs));
        return answer.valid() && answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready ? answer.get()
                                                                                                       : QJsonObject();
    }

    QTemporaryDir m_dir;
    QString m_workspace;
    std::shared_ptr<FakeDesktop> m_desktop = std::make_shared<FakeDesktop>();
    std::unique_ptr<Bridge::Host> m_host;
    std::unique_ptr<App::ConfirmationDialog> m_dialog;
};

} // namespace

TEST_F(Gui, TrayIconAppearsAndChangesColourWithAccessibility)
{
    TrayHost trayHost;
    ASSERT_TRUE(trayHost.start()) << "no system tray host";
    startHost();
    App::TrayController tray(*m_host);
    tray.start();
    ASSERT_TRUE(tray.usesTray());
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return tray.trayIcon()->isVisible() && !tray.trayIcon()->geometry().isEmpty(); }, 5000));
    EXPECT_EQ(tray.state().level, App::TrayState::Level::Green) << tray.state().tooltip().toStdString();
    screenshot(QStringLiteral("tray-green"));

    QSignalSpy changed(&tray, &App::TrayController::stateChanged);
    QElapsedTimer timer;
    timer.start();
    ASSERT_TRUE(setAccessibility(false));
    ASSERT_TRUE(QTest::qWaitFor([&] { return tray.state().level != App::TrayState::Level::Green; }, 5000));
    std::printf("tray saw accessibility switched off after %lld ms\n", static_cast<long long>(timer.elapsed()));
    EXPECT_EQ(tray.state().level, App::TrayState::Level::Yellow);
    EXPECT_TRUE(tray.trayIcon()->toolTip().contains(QStringLiteral("IsEnabled")));
    screenshot(QStringLiteral("tray-yellow-accessibility-off"));

    ASSERT_TRUE(setAccessibility(true));
    ASSERT_TRUE(QTest::qWaitFor([&] { return tray.state().level == App::TrayState::Level::Green; }, 5000));
    EXPECT_GE(changed.count(), 2);
    // Stop turns it yellow too, and the menu offers Resume.
    m_host->stop();
    ASSERT_TRUE(QTest::qWaitFor([&] { return tray.state().level == App::TrayState::Level::Yellow; }, 3000));
    m_host->resume();
    EXPECT_TRUE(QTest::qWaitFor([&] { return tray.state().level == App::TrayState::Level::Green; }, 3000));
}

TEST_F(Gui, StatusWindowWhenTheDesktopHasNoTray)
{
    if (QSystemTrayIcon::isSystemTrayAvailable())
        GTEST_SKIP() << "a system tray host from outside the test is running";
    startHost();
    App::TrayController tray(*m_host);
    tray.start();
    EXPECT_FALSE(tray.usesTray());
    ASSERT_NE(tray.statusWindow(), nullptr);
    EXPECT_TRUE(QTest::qWaitForWindowExposed(tray.statusWindow(), 5000));
    const auto* text = tray.statusWindow()->findChild<QLabel*>(QStringLiteral("statusText"));
    ASSERT_NE(text, nullptr);
    EXPECT_TRUE(text->text().contains(tray.state().headline.toHtmlEscaped()));
    screenshot(QStringLiteral("status-window-no-tray"));
}

TEST_F(Gui, OnboardingButtonTurnsAccessibilityOn)
{
    ASSERT_TRUE(setAccessibility(false));
    startHost();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return m_host->permissions().current().accessibility.state == Automation::PermissionState::Denied; },
        5000));
    App::TrayController tray(*m_host);
    tray.start(); // something is missing: onboarding opens by itself
    ASSERT_NE(tray.onboarding(), nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(tray.onboarding(), 5000));
    QPushButton* button = tray.onboarding()->enableAccessibilityButton();
    ASSERT_TRUE(button->isEnabled());
    screenshot(QStringLiteral("onboarding-accessibility-off"));
    QTest::mouseClick(button, Qt::LeftButton);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return m_host->permissions().current().accessibility.state == Automation::PermissionState::Granted; },
        5000));
    const auto* state = tray.onboarding()->findChild<QLabel*>(QStringLiteral("accessibilityState"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !button->isEnabled(); }, 3000));
    EXPECT_TRUE(state->text().contains(App::OnboardingWindow::tr("Granted")));
    EXPECT_FALSE(state->text().contains(App::OnboardingWindow::tr("Not granted")));
    screenshot(QStringLiteral("onboarding-accessibility-on"));
}

TEST_F(Gui, ApproveReturnsAToken)
{
    startHost();
    QSignalSpy shown(m_dialog.get(), &App::ConfirmationDialog::shown);
    auto answer = issue(QStringLiteral("hello world"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 10000));
    EXPECT_TRUE(QTest::qWaitForWindowExposed(m_dialog.get(), 5000));
    // Not armed at first: a stray click or Enter cannot approve.
    EXPECT_FALSE(m_dialog->approveButton()->isEnabled());
    EXPECT_TRUE(m_dialog->denyButton()->isDefault());
    screenshot(QStringLiteral("confirmation-dialog"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return m_dialog->approveButton()->isEnabled(); }, 3000));
    QTest::mouseClick(m_dialog->approveButton(), Qt::LeftButton);
    const QJsonObject result = resultOf(wait(answer));
    EXPECT_EQ(result.value(QStringLiteral("token")).toString().size(), 36);
    EXPECT_EQ(result.value(QStringLiteral("scope")).toObject().value(QStringLiteral("method")).toString(),
              QStringLiteral("desktop.typeText"));
    EXPECT_FALSE(m_dialog->isVisible());
}

// Under the built-in rules, "Send" is high-risk: a phrase-only click opens the dialog during the
// call, which says why (the risk, the rule); the click happens once the person approves.
TEST_F(Gui, AHighRiskClickAsksThePersonDuringTheCallAndSaysWhy)
{
    startHost();
    m_host->setOwnerPolicy(Bridge::OwnerPolicy());
    QSignalSpy shown(m_dialog.get(), &App::ConfirmationDialog::shown);
    const QString socket = m_host->server().socketPath();
    const QString workspace = m_workspace;
    auto answer = std::async(std::launch::async, [socket, workspace] {
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
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 10000));
    EXPECT_TRUE(QTest::qWaitForWindowExposed(m_dialog.get(), 5000));
    auto* note = m_dialog->findChild<QLabel*>(QStringLiteral("policyNote"));
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->isVisible());
    EXPECT_TRUE(note->text().contains(QStringLiteral("High risk"))) << note->text().toStdString();
    EXPECT_TRUE(note->text().contains(QStringLiteral("Send"))) << note->text().toStdString();
    EXPECT_TRUE(note->text().contains(QStringLiteral("default:high-risk"))) << note->text().toStdString();
    EXPECT_TRUE(m_desktop->effects().isEmpty()) << "clicked before the person answered";
    screenshot(QStringLiteral("confirmation-dialog-high-risk"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return m_dialog->approveButton()->isEnabled(); }, 3000));
    QTest::mouseClick(m_dialog->approveButton(), Qt::LeftButton);
    const QJsonObject response = wait(answer);
    EXPECT_FALSE(resultOf(response).isEmpty()) << QJsonDocument(response).toJson().constData();
    EXPECT_TRUE(m_desktop->effects().join(QLatin1Char(' ')).contains(QStringLiteral("Send")))
        << m_desktop->effects().join(QLatin1Char(' ')).toStdString();
}

// A real GTK dialog's "Delete" under the built-in rules: a phrase-only click opens the host's
// dialog with the risk; the person says no and the GTK dialog is untouched. Unattended, the
// same click is refused at once, with no dialog.
TEST_F(Gui, AGtkDeleteButtonAsksWithTheRiskAndIsRefusedWhenUnattended)
{
    QProcess gtk;
    gtk.start(QStringLiteral("/usr/bin/python3"),
              {QStringLiteral(MDH_GTK_DIALOG), QStringLiteral("--title"), QStringLiteral("Delete the report?")});
    ASSERT_TRUE(gtk.waitForStarted(10000));
    QByteArray said;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            said += gtk.readAllStandardOutput();
            return said.contains("\"ready\"");
        },
        15000));
    startHost(30000, true);
    m_host->setOwnerPolicy(Bridge::OwnerPolicy());
    QSignalSpy shown(m_dialog.get(), &App::ConfirmationDialog::shown);
    const QString socket = m_host->server().socketPath();
    const QString workspace = m_workspace;
    const qint64 pid = gtk.processId();
    const auto clickDelete = [socket, workspace, pid] {
        TestClient client(socket);
        return client.call(
            QStringLiteral("desktop.click"),
            TestClient::withMeta(
                {{QStringLiteral("route"),
                  QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), pid}}}}},
                 {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}},
                 {QStringLiteral("target"),
                  QJsonObject{{QStringLiteral("selector"),
                               QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                           {QStringLiteral("titleEquals"), QStringLiteral("Delete")}}}}}},
                workspace),
            60000);
    };
    auto answer = std::async(std::launch::async, clickDelete);
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 15000));
    auto* note = m_dialog->findChild<QLabel*>(QStringLiteral("policyNote"));
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->text().contains(QStringLiteral("delete: its title says \"Delete\"")))
        << note->text().toStdString();
    screenshot(QStringLiteral("confirmation-dialog-gtk-delete"));
    QTest::mouseClick(m_dialog->denyButton(), Qt::LeftButton);
    const QJsonObject denied = wait(answer);
    EXPECT_EQ(errorCode(denied), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    EXPECT_EQ(errorOf(denied).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("denied"));
    QTest::qWait(300);
    said += gtk.readAllStandardOutput();
    EXPECT_FALSE(said.contains("\"response\"")) << said.constData();
    EXPECT_EQ(gtk.state(), QProcess::Running);

    Bridge::OwnerPolicy unattended;
    unattended.setUnattended(true);
    m_host->setOwnerPolicy(unattended);
    auto refused = std::async(std::launch::async, clickDelete);
    const QJsonObject response = wait(refused);
    const QJsonObject details = errorOf(response).value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("needs_person"))
        << QJsonDocument(response).toJson().constData();
    EXPECT_EQ(details.value(QStringLiteral("rule")).toString(), QStringLiteral("default:high-risk"));
    EXPECT_EQ(shown.count(), 1) << "a dialog opened in the unattended mode";
    said += gtk.readAllStandardOutput();
    EXPECT_FALSE(said.contains("\"response\"")) << said.constData();
    gtk.terminate();
    gtk.waitForFinished(5000);
}

TEST_F(Gui, DenyEscapeEnterAndExpiryAllDeny)
{
    startHost(2500);
    QSignalSpy shown(m_dialog.get(), &App::ConfirmationDialog::shown);
    const auto expectDenied = [](const QJsonObject& response) {
        EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
        EXPECT_EQ(
            errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
            QStringLiteral("denied"));
    };
    // Deny.
    auto denied = issue(QStringLiteral("one"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 10000));
    QTest::mouseClick(m_dialog->denyButton(), Qt::LeftButton);
    expectDenied(wait(denied));
    // Escape.
    auto escaped = issue(QStringLiteral("two"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 2; }, 10000));
    QTest::keyClick(m_dialog.get(), Qt::Key_Escape);
    expectDenied(wait(escaped));
    // Enter: the default button is Deny, even once Approve is armed.
    auto entered = issue(QStringLiteral("three"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 3; }, 10000));
    QTest::qWait(App::ConfirmationDialog::kArmDelayMs + 100);
    QTest::keyClick(m_dialog.get(), Qt::Key_Return);
    expectDenied(wait(entered));
    // Expiry: nobody answers within the approval timeout.
    QElapsedTimer timer;
    timer.start();
    auto expired = issue(QStringLiteral("four"));
    expectDenied(wait(expired));
    EXPECT_GE(timer.elapsed(), 2000);
    EXPECT_FALSE(m_dialog->isVisible());
}

TEST_F(Gui, ConcurrentRequestsQueue)
{
    startHost();
    QSignalSpy shown(m_dialog.get(), &App::ConfirmationDialog::shown);
    auto first = issue(QStringLiteral("first"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 10000));
    auto second = issue(QStringLiteral("second"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return m_dialog->queuedCount() == 1; }, 10000));
    screenshot(QStringLiteral("confirmation-dialog-queue"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return m_dialog->approveButton()->isEnabled(); }, 3000));
    QTest::mouseClick(m_dialog->approveButton(), Qt::LeftButton);
    EXPECT_FALSE(resultOf(wait(first)).value(QStringLiteral("token")).toString().isEmpty());
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 2; }, 5000));
    QTest::mouseClick(m_dialog->denyButton(), Qt::LeftButton);
    EXPECT_EQ(errorCode(wait(second)), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
}

TEST_F(Gui, TheDialogDoesNotTakeTheKeyboardFromAPersonTyping)
{
    startHost();
    QWidget editor;
    editor.setWindowTitle(QStringLiteral("Someone's editor"));
    auto* line = new QLineEdit(&editor);
    editor.resize(400, 80);
    editor.show();
    editor.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&editor, 5000));
    line->setFocus();
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("abc"));
    QSignalSpy shown(m_dialog.get(), &App::ConfirmationDialog::shown);
    auto answer = issue(QStringLiteral("x"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 10000));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(m_dialog.get(), 5000));
    QTest::qWait(500); // give the window manager every chance to move focus
    EXPECT_EQ(QApplication::activeWindow(), &editor);
    // Keys keep going where the person types, not into the dialog.
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("def"));
    EXPECT_EQ(line->text(), QStringLiteral("abcdef"));
    EXPECT_TRUE(m_dialog->currentId().has_value());
    screenshot(QStringLiteral("confirmation-dialog-without-focus"));
    QTest::mouseClick(m_dialog->denyButton(), Qt::LeftButton);
    wait(answer);
}

TEST_F(Gui, TheHostNeverTargetsItsOwnWindows)
{
    startHost(30000, true);
    QSignalSpy shown(m_dialog.get(), &App::ConfirmationDialog::shown);
    auto pending = issue(QStringLiteral("x")); // the host's own dialog is on screen and active
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 10000));
    const QString socket = m_host->server().socketPath();
    const QString workspace = m_workspace;
    const qint64 self = ::getpid();
    auto byPid = std::async(std::launch::async, [&] {
        TestClient client(socket);
        return client.call(
            QStringLiteral("desktop.click"),
            TestClient::withMeta(
                {{QStringLiteral("route"),
                  QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), self}}}}},
                 {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}},
                 {QStringLiteral("target"),
                  QJsonObject{{QStringLiteral("selector"),
                               QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                           {QStringLiteral("titleEquals"), QStringLiteral("Approve")}}}}}},
                workspace),
            20000);
    });
    const QJsonObject refused = wait(byPid);
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CALLER_FORBIDDEN"));
    // Nor by default: the frontmost window is the host's dialog, and it is never resolved.
    auto byDefault = std::async(std::launch::async, [&] {
        TestClient client(socket);
        return client.call(
            QStringLiteral("desktop.find"),
            TestClient::withMeta(
                {{QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                          {QStringLiteral("titleEquals"), QStringLiteral("Approve")}}}},
                workspace),
            20000);
    });
    const QJsonObject found = wait(byDefault);
    EXPECT_NE(
        resultOf(found).value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("pid")).toInteger(),
        self);
    EXPECT_EQ(resultOf(found).value(QStringLiteral("matched")).toInt(0), 0);
    EXPECT_TRUE(m_dialog->currentId().has_value()); // still waiting for a person
    QTest::mouseClick(m_dialog->denyButton(), Qt::LeftButton);
    wait(pending);
}

// A request of the MCP front door names its client ("MCP: node") and offers to allow it; a
// person who approves with "allow for 10 minutes" is not asked again for that client's next
// request (msgcode starts a new door for each call).
TEST(GuiMcp, TheDialogNamesTheMcpClientAndCanAllowItForMinutes)
{
    Bridge::AskConfirmationProvider ask;
    Bridge::McpConfirmationProvider mcp(&ask, Bridge::ConfirmPolicy::Ask);
    App::ConfirmationDialog dialog(ask);
    QSignalSpy shown(&dialog, &App::ConfirmationDialog::shown);
    const auto request = [](quint64 id) {
        Bridge::ApprovalRequest r = Bridge::ApprovalRequest::forIntent(
            QStringLiteral("desktop.click"),
            QJsonObject{{QStringLiteral("target"),
                         QJsonObject{{QStringLiteral("selector"),
                                      QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Send")}}}}}},
            QStringLiteral("digest"));
        r.id = id;
        r.via = QStringLiteral("mcp");
        r.client = QStringLiteral("/usr/bin/node");
        r.peer.pid = 4321;
        r.peer.uid = 1000;
        r.peer.executable = QStringLiteral("/opt/msgcode/bin/msgcode-desktop-mcp");
        r.timeoutMs = 30000;
        r.expiresAt = QDateTime::currentDateTimeUtc().addSecs(30);
        return r;
    };
    std::optional<Bridge::ApprovalDecision> first;
    mcp.request(request(1), [&](const Bridge::ApprovalDecision& d) { first = d; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.count() == 1; }, 5000));
    QString who;
    for (const QLabel* label : dialog.findChildren<QLabel*>())
        who += label->text() + QLatin1Char('\n');
    EXPECT_TRUE(who.contains(QStringLiteral("MCP: node"))) << who.toStdString();
    ASSERT_TRUE(dialog.grantCheck()->isVisible());
    dialog.grantCheck()->setChecked(true);
    dialog.grantMinutes()->setValue(10);
    ASSERT_TRUE(QTest::qWaitFor([&] { return dialog.approveButton()->isEnabled(); }, 3000));
    QTest::mouseClick(dialog.approveButton(), Qt::LeftButton);
    ASSERT_TRUE(first.has_value());
    EXPECT_TRUE(first->approved);
    EXPECT_EQ(first->grantMinutes, 10);

    std::optional<Bridge::ApprovalDecision> second;
    mcp.request(request(2), [&](const Bridge::ApprovalDecision& d) { second = d; });
    ASSERT_TRUE(second.has_value());
    EXPECT_TRUE(second->approved);
    EXPECT_EQ(second->decidedBy, QStringLiteral("grant"));
    EXPECT_EQ(shown.count(), 1);
}
