#include "app/TrayController.h"

#include "app/HostSettings.h"
#include "app/OnboardingWindow.h"
#include "app/RulesPage.h"
#include "app/SettingsDialog.h"
#include "bridge/Executor.h"
#include "bridge/Host.h"
#include "inspector/InspectorWindow.h"
#include "remote/RemoteAgent.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QMenu>
#include <QPushButton>
#include <QSystemTrayIcon>
#include <QVBoxLayout>

namespace App {

Q_LOGGING_CATEGORY(lcTray, "msgcode.app.tray")

TrayController::TrayController(Bridge::Host& host, QObject* parent) : QObject(parent), m_host(host) {}

TrayController::~TrayController()
{
    delete m_inspector;
    delete m_evidence;
    delete m_statusWindow;
    delete m_onboarding;
    delete m_settings;
}

void TrayController::start()
{
    buildMenu();
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(this);
        m_tray->setObjectName(QStringLiteral("trayIcon"));
        m_tray->setContextMenu(m_menu.get());
        connect(m_tray, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
            if (reason == QSystemTrayIcon::Trigger && m_state.level != TrayState::Level::Green)
                showOnboarding();
        });
    } else {
        // No tray on this desktop: a small window says the same, rather than nothing at all.
        buildStatusWindow();
    }
    // Permission changes are probed every second on the monitor's thread (a change shows within 2 s).
    connect(&m_host.permissions(), &Bridge::PermissionMonitor::changed, this, &TrayController::refresh,
            Qt::QueuedConnection);
    connect(&m_host.dispatcher(), &Bridge::Dispatcher::pausedChanged, this, &TrayController::refresh);
    connect(&m_host.ownerRules(), &Bridge::OwnerRules::changed, this, &TrayController::refresh);
    // The person took the keyboard or mouse while the host was typing or clicking: say what the
    // host did about it.
    connect(&m_host.executor(), &Bridge::Executor::userInputNoticed, this,
            [this](const QString&, const QString& action, const QJsonArray& waits) {
                const QString text =
                    action == QLatin1String("aborted")
                        ? tr("You used the keyboard or mouse, so the host stopped the automation that was typing or "
                             "clicking.")
                        : tr("You used the keyboard or mouse, so the automation waited for you (%n time(s)).", nullptr,
                             static_cast<int>(waits.size()));
                if (m_tray)
                    m_tray->showMessage(tr("The host yielded to you"), text, QSystemTrayIcon::Information, 8000);
            });
    // Queued: the confirmation dialog re-attaches in a direct slot of the same signal first.
    connect(&m_host, &Bridge::Host::confirmationProviderChanged, this, &TrayController::refresh, Qt::QueuedConnection);
    refresh();
    if (m_tray)
        m_tray->show();
    else
        m_statusWindow->show();
    if (m_state.level == TrayState::Level::Red ||
        m_host.permissions().current().accessibility.state != Automation::PermissionState::Granted)
        showOnboarding();
}

void TrayController::buildMenu()
{
    m_menu = std::make_unique<QMenu>();
    m_menu->setObjectName(QStringLiteral("trayMenu"));
    for (int i = 0; i < 8; ++i) {
        QAction* line = m_menu->addAction(QString());
        line->setEnabled(false);
        m_stateActions.append(line);
    }
    m_menu->addSeparator();
    m_menu->addAction(tr("Onboarding…"), this, &TrayController::showOnboarding);
    QMenu* policies = m_menu->addMenu(tr("Confirmation policy"));
    policies->setObjectName(QStringLiteral("policyMenu"));
    m_policyGroup = new QActionGroup(policies);
    m_policyGroup->setExclusive(true);
    const std::pair<Bridge::ConfirmPolicy, QString> entries[] = {
        {Bridge::ConfirmPolicy::Ask, tr("Ask me (recommended)")},
        {Bridge::ConfirmPolicy::Auto, tr("Approve automatically (unsafe)")},
        {Bridge::ConfirmPolicy::Deny, tr("Deny everything")},
    };
    for (const auto& [policy, text] : entries) {
        QAction* action = policies->addAction(text);
        action->setCheckable(true);
        action->setData(Bridge::SecuritySettings::policyName(policy));
        action->setObjectName(QStringLiteral("policy_") + Bridge::SecuritySettings::policyName(policy));
        m_policyGroup->addAction(action);
        connect(action, &QAction::triggered, this, [this, policy = policy] { choosePolicy(policy); });
    }
    m_stop = m_menu->addAction(tr("Stop all automation"), this, [this] { m_host.stop(); });
    m_resume = m_menu->addAction(tr("Resume automation"), this, [this] { m_host.resume(QStringLiteral("user")); });
    // The owner's unattended mode (docs/protocol.md, "Policy"): every ask is refused, never a
    // dialog nobody answers. The person at the tray may enter or leave it.
    m_unattended = m_menu->addAction(tr("Unattended mode"));
    m_unattended->setObjectName(QStringLiteral("unattendedAction"));
    m_unattended->setCheckable(true);
    connect(m_unattended, &QAction::triggered, this, [this](bool on) { m_host.ownerRules().setUnattended(on); });
    m_bindCode = m_menu->addAction(tr("Enter the remote control's bind code…"), this, &TrayController::askBindCode);
    m_bindCode->setVisible(false);
    m_menu->addSeparator();
    m_menu->addAction(tr("Inspector…"), this, &TrayController::showInspector);
    m_menu->addAction(tr("Evidence…"), this, &TrayController::showEvidence);
    m_menu->addAction(tr("Settings…"), this, &TrayController::showSettings);
    m_menu->addSeparator();
    m_menu->addAction(tr("Quit"), this, &TrayController::quitRequested);
}

void TrayController::buildStatusWindow()
{
    auto* window = new QWidget(nullptr, Qt::Window);
    window->setObjectName(QStringLiteral("statusWindow"));
    window->setWindowTitle(tr("msgcode Desktop Host"));
    auto* layout = new QVBoxLayout(window);
    auto* top = new QHBoxLayout;
    m_statusIcon = new QLabel(window);
    m_statusText = new QLabel(window);
    m_statusText->setObjectName(QStringLiteral("statusText"));
    m_statusText->setWordWrap(true);
    top->addWidget(m_statusIcon, 0, Qt::AlignTop);
    top->addWidget(m_statusText, 1);
    layout->addLayout(top);
    auto* note = new QLabel(tr("This desktop has no system tray, so the host shows its state here."), window);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto* buttons = new QHBoxLayout;
    auto* onboarding = new QPushButton(tr("Onboarding…"), window);
    auto* stop = new QPushButton(tr("Stop all automation"), window);
    auto* resume = new QPushButton(tr("Resume automation"), window);
    auto* settings = new QPushButton(tr("Settings…"), window);
    auto* quit = new QPushButton(tr("Quit"), window);
    for (auto* b : {onboarding, stop, resume, settings, quit})
        buttons->addWidget(b);
    layout->addLayout(buttons);
    connect(onboarding, &QPushButton::clicked, this, &TrayController::showOnboarding);
    connect(stop, &QPushButton::clicked, this, [this] { m_host.stop(); });
    connect(resume, &QPushButton::clicked, this, [this] { m_host.resume(QStringLiteral("user")); });
    connect(settings, &QPushButton::clicked, this, &TrayController::showSettings);
    connect(quit, &QPushButton::clicked, this, &TrayController::quitRequested);
    m_stopButton = stop;
    m_resumeButton = resume;
    window->setMaximumWidth(640);
    m_statusWindow = window;
}

void TrayController::showOnboarding()
{
    if (!m_onboarding)
        m_onboarding = new OnboardingWindow(m_host.permissions());
    m_onboarding->refresh();
    m_onboarding->show();
    m_onboarding->raise();
}

QAction* TrayController::policyAction(const QString& name) const
{
    if (!m_policyGroup)
        return nullptr;
    const QList<QAction*> actions = m_policyGroup->actions();
    for (QAction* action : actions) {
        if (action->data().toString() == name)
            return action;
    }
    return nullptr;
}

void TrayController::choosePolicy(Bridge::ConfirmPolicy policy)
{
    if (policy != m_host.confirmPolicy())
        m_host.setConfirmPolicy(policy);
    HostSettings stored = HostSettings::load(m_settingsFile);
    stored.confirmPolicy = policy;
    if (!stored.save(m_settingsFile))
        qCWarning(lcTray) << "could not save the confirmation policy to the settings";
    if (m_settings) {
        HostSettings shown = m_settings->values();
        shown.confirmPolicy = policy;
        m_settings->setValues(shown);
    }
    refresh();
}

void TrayController::showInspector()
{
    if (!m_inspector) {
        m_inspector = new Inspector::InspectorWindow(m_host);
        m_inspector->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_inspector->show();
    m_inspector->raise();
    m_inspector->activateWindow();
}

void TrayController::showEvidence()
{
    if (!m_evidence) {
        m_evidence = new EvidenceViewer::EvidenceWindow({m_host.dispatcher().workspace().rootRealPath()});
        m_evidence->setAttribute(Qt::WA_DeleteOnClose);
        m_evidence->setDispatcher(&m_host.dispatcher());
    }
    m_evidence->show();
    m_evidence->raise();
    m_evidence->activateWindow();
}

void TrayController::showSettings()
{
    if (!m_settings) {
        m_savedRemote = HostSettings::load(m_settingsFile);
        m_settings = new SettingsDialog(m_host.server().socketPath(), m_settingsFile);
        m_settings->setAttribute(Qt::WA_DeleteOnClose);
        m_settings->addSection(new RulesPage(m_host.ownerRules()));
        connect(m_settings, &SettingsDialog::forgetRemoteTokenRequested, this, [this] {
            if (!m_remote)
                return;
            QPointer<TrayController> self(this);
            m_remote->forget([self](const Automation::Result<QJsonObject>& done) {
                if (!self)
                    return;
                if (self->m_settings)
                    self->m_settings->messageLabel()->setText(
                        done ? (done->value(QStringLiteral("forgotten")).toBool()
                                    ? tr("The device token was removed from the keyring.")
                                    : tr("No device token was stored."))
                             : done.error().message);
                self->refresh();
            });
        });
        connect(m_settings, &SettingsDialog::saved, this, [this](const HostSettings& settings) {
            // The server takes effect when the person changed it here; saving other settings
            // leaves a server from the command line or `remote connect` alone.
            if (m_remote &&
                (settings.remoteHost != m_savedRemote.remoteHost || settings.remotePort != m_savedRemote.remotePort ||
                 settings.remoteTls != m_savedRemote.remoteTls ||
                 settings.remoteFingerprint != m_savedRemote.remoteFingerprint)) {
                Remote::RemoteConfig next = m_remote->config();
                next.host = settings.remoteHost;
                next.port = static_cast<quint16>(settings.remotePort);
                next.tls = settings.remoteTls;
                next.fingerprint = settings.remoteFingerprint;
                m_remote->start(next);
            }
            m_savedRemote = settings;
            const auto problems = settings.applyTo(m_host);
            if (!problems.isEmpty() && m_settings) {
                QStringList messages;
                for (const auto& problem : problems)
                    messages.append(problem.message);
                m_settings->messageLabel()->setText(messages.join(QLatin1Char('\n')));
            }
            refresh();
        });
    } else if (!m_settings->isVisible()) {
        m_settings->reload();
    }
    m_settings->show();
    m_settings->raise();
}

void TrayController::setRemote(Remote::RemoteAgent* remote)
{
    m_remote = remote;
    if (!remote)
        return;
    connect(remote, &Remote::RemoteAgent::stateChanged, this, &TrayController::refresh);
    connect(remote, &Remote::RemoteAgent::bindCodeNeeded, this, [this](const QString& why) {
        refresh();
        if (m_tray)
            m_tray->showMessage(tr("Remote control needs a bind code"), why, TrayState::icon(m_state.level), 15000);
    });
    if (m_menu)
        refresh();
}

void TrayController::askBindCode()
{
    if (!m_remote)
        return;
    if (m_bindCodeDialog) {
        m_bindCodeDialog->raise();
        return;
    }
    // Non-modal: the GUI thread never waits in a nested loop for it.
    auto* dialog = new QInputDialog();
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("bindCodeDialog"));
    dialog->setWindowTitle(tr("Remote control"));
    dialog->setLabelText(tr("The bind code the control server %1 shows:").arg(m_remote->config().serverName()));
    dialog->setTextEchoMode(QLineEdit::Normal);
    connect(dialog, &QInputDialog::textValueSelected, this, [this](const QString& code) {
        if (m_remote && !code.trimmed().isEmpty())
            m_remote->useBindCode(code);
    });
    m_bindCodeDialog = dialog;
    dialog->show();
}

void TrayController::refresh()
{
    TrayState::Inputs inputs;
    inputs.permissions = m_host.permissions().current();
    inputs.serving = m_host.server().isListening();
    inputs.socketPath = m_host.server().socketPath();
    inputs.policy = Bridge::SecuritySettings::policyName(m_host.confirmPolicy());
    inputs.paused = m_host.dispatcher().isPaused();
    inputs.approverAttached = m_host.askProvider() && m_host.askProvider()->hasApprover();
    inputs.unattended = m_host.ownerPolicy().unattended();
    inputs.rulesFileTrusted = m_host.ownerRules().fileTrusted();
    if (m_remote) {
        inputs.remoteState = Remote::RemoteAgent::stateName(m_remote->state());
        inputs.remoteServer = m_remote->config().serverName();
        inputs.remoteError = m_remote->lastError();
    }
    const TrayState next = TrayState::evaluate(inputs);
    const bool levelChanged = !m_hasState || next.level != m_state.level;
    const TrayState previous = m_state;
    const bool hadState = m_hasState;
    m_state = next;
    m_hasState = true;

    for (int i = 0; i < m_stateActions.size(); ++i) {
        m_stateActions[i]->setVisible(i < m_state.lines.size() + 1);
        m_stateActions[i]->setText(i == 0 ? m_state.headline : m_state.lines.value(i - 1));
    }
    if (QAction* live = policyAction(inputs.policy))
        live->setChecked(true);
    if (m_bindCode)
        m_bindCode->setVisible(inputs.remoteState == QLatin1String("needs_bind_code"));
    m_stop->setVisible(!inputs.paused);
    m_resume->setVisible(inputs.paused);
    if (m_unattended)
        m_unattended->setChecked(inputs.unattended);
    if (m_stopButton)
        m_stopButton->setVisible(!inputs.paused);
    if (m_resumeButton)
        m_resumeButton->setVisible(inputs.paused);
    if (m_tray) {
        m_tray->setIcon(TrayState::icon(m_state.level));
        m_tray->setToolTip(m_state.tooltip());
        if (hadState && levelChanged)
            m_tray->showMessage(m_state.headline,
                                m_state.problems.isEmpty() ? m_state.lines.join(QLatin1Char('\n'))
                                                           : m_state.problems.join(QLatin1Char('\n')),
                                TrayState::icon(m_state.level), 8000);
    }
    if (m_statusWindow) {
        m_statusIcon->setPixmap(TrayState::icon(m_state.level).pixmap(48, 48));
        QString text = QStringLiteral("<b>%1</b><br>").arg(m_state.headline.toHtmlEscaped());
        for (const auto& line : m_state.lines)
            text += line.toHtmlEscaped() + QStringLiteral("<br>");
        for (const auto& problem : m_state.problems)
            text += QStringLiteral("• ") + problem.toHtmlEscaped() + QStringLiteral("<br>");
        m_statusText->setText(text);
        m_statusWindow->setWindowIcon(TrayState::icon(m_state.level));
    }
    Q_UNUSED(previous);
    if (levelChanged)
        Q_EMIT stateChanged(m_state.level);
}

} // namespace App
