#include "app/SettingsDialog.h"

#include "app/Autostart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace App {

namespace {

QLabel* errorLabel(QWidget* parent, const QString& name)
{
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #b00020;"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->hide();
    return label;
}

QLabel* note(QWidget* parent, const QString& text)
{
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: palette(mid);"));
    return label;
}

} // namespace

SettingsDialog::SettingsDialog(QString socketPath, QString iniPath, QWidget* parent)
    : QDialog(parent), m_iniPath(std::move(iniPath))
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("msgcode Desktop Host Settings"));
    setModal(false);
    // The groups scroll (they are taller than a small screen); the message and the buttons stay.
    auto* outer = new QVBoxLayout(this);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("settingsScroll"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto* page = new QWidget(m_scroll);
    auto* layout = new QVBoxLayout(page);

    // Security.
    auto* security = new QGroupBox(tr("Security"), this);
    auto* securityForm = new QFormLayout(security);
    auto* workspaceRow = new QHBoxLayout;
    m_workspace = new QLineEdit(security);
    m_workspace->setObjectName(QStringLiteral("workspaceRoot"));
    m_workspace->setPlaceholderText(tr("$WORKSPACE_ROOT at start"));
    auto* choose = new QPushButton(tr("Choose…"), security);
    choose->setObjectName(QStringLiteral("chooseWorkspaceRoot"));
    workspaceRow->addWidget(m_workspace, 1);
    workspaceRow->addWidget(choose);
    securityForm->addRow(tr("Workspace root:"), workspaceRow);
    m_workspaceError = errorLabel(security, QStringLiteral("workspaceRootError"));
    securityForm->addRow(QString(), m_workspaceError);

    m_policy = new QComboBox(security);
    m_policy->setObjectName(QStringLiteral("confirmPolicy"));
    m_policy->addItem(tr("Ask a person (recommended)"), QStringLiteral("ask"));
    m_policy->addItem(tr("Approve automatically"), QStringLiteral("auto"));
    m_policy->addItem(tr("Deny everything"), QStringLiteral("deny"));
    securityForm->addRow(tr("Confirmation policy:"), m_policy);
    m_mcpPolicy = new QComboBox(security);
    m_mcpPolicy->setObjectName(QStringLiteral("mcpConfirmPolicy"));
    m_mcpPolicy->addItem(tr("The same as above"), QString());
    m_mcpPolicy->addItem(tr("Ask a person, who may allow the client for some minutes"), QStringLiteral("ask"));
    m_mcpPolicy->addItem(tr("Approve automatically"), QStringLiteral("auto"));
    m_mcpPolicy->addItem(tr("Deny everything"), QStringLiteral("deny"));
    m_mcpPolicy->setToolTip(tr("For requests of the MCP front door (msgcode-desktop-mcp, which msgcode starts for "
                               "each tool call)."));
    securityForm->addRow(tr("MCP door policy:"), m_mcpPolicy);
    m_autoWarning = new QLabel(tr("Warning: with \"Approve automatically\" every click, typed text and hotkey a "
                                  "client asks for is approved without asking you. Use it only on a headless "
                                  "server or in tests."),
                               security);
    m_autoWarning->setObjectName(QStringLiteral("autoWarning"));
    m_autoWarning->setWordWrap(true);
    m_autoWarning->setStyleSheet(QStringLiteral("color: #b00020; font-weight: bold;"));
    m_autoWarning->hide();
    securityForm->addRow(QString(), m_autoWarning);
    const auto warnAuto = [this] {
        m_autoWarning->setVisible(m_policy->currentData().toString() == QLatin1String("auto") ||
                                  m_mcpPolicy->currentData().toString() == QLatin1String("auto"));
    };
    connect(m_policy, &QComboBox::currentIndexChanged, this, warnAuto);
    connect(m_mcpPolicy, &QComboBox::currentIndexChanged, this, warnAuto);

    m_requireToken = new QCheckBox(tr("Require a confirmation token (refuse the CONFIRM phrase)"), security);
    m_requireToken->setObjectName(QStringLiteral("requireToken"));
    securityForm->addRow(QString(), m_requireToken);
    m_maxTtl = new QSpinBox(security);
    m_maxTtl->setObjectName(QStringLiteral("maxTokenTtlMs"));
    m_maxTtl->setRange(static_cast<int>(HostSettings::kMinTokenTtlMs), static_cast<int>(HostSettings::kMaxTokenTtlMs));
    m_maxTtl->setSingleStep(1000);
    m_maxTtl->setSuffix(tr(" ms"));
    securityForm->addRow(tr("Longest token lifetime:"), m_maxTtl);
    m_approvalTimeout = new QSpinBox(security);
    m_approvalTimeout->setObjectName(QStringLiteral("approvalTimeoutMs"));
    m_approvalTimeout->setRange(HostSettings::kMinApprovalTimeoutMs, HostSettings::kMaxApprovalTimeoutMs);
    m_approvalTimeout->setSingleStep(1000);
    m_approvalTimeout->setSuffix(tr(" ms"));
    securityForm->addRow(tr("Time to approve:"), m_approvalTimeout);

    m_callers = new QPlainTextEdit(security);
    m_callers->setObjectName(QStringLiteral("callerAllowlist"));
    m_callers->setPlaceholderText(tr("Any program of your user may connect. One executable path per line limits "
                                     "it to those; on macOS, team:TEAMID admits every app its developer signed."));
    m_callers->setMinimumHeight(m_callers->fontMetrics().lineSpacing() * 4 + 16);
    auto* callersColumn = new QVBoxLayout;
    auto* callersRow = new QHBoxLayout;
    callersRow->addWidget(m_callers, 1);
    auto* addCaller = new QPushButton(tr("Add executable…"), security);
    callersRow->addWidget(addCaller, 0, Qt::AlignTop);
    callersColumn->addLayout(callersRow);
    callersColumn->addWidget(note(security, tr("Applies to new connections; connected clients keep the identity "
                                               "they were admitted with.")));
    securityForm->addRow(tr("Allowed callers:"), callersColumn);
    m_callersError = errorLabel(security, QStringLiteral("callerAllowlistError"));
    securityForm->addRow(QString(), m_callersError);
    layout->addWidget(security);

    // Evidence.
    auto* evidence = new QGroupBox(tr("Evidence"), this);
    auto* evidenceForm = new QFormLayout(evidence);
    m_keepTypedText =
        new QCheckBox(tr("Keep typed text in request.json (otherwise only its length and SHA-256)"), evidence);
    m_keepTypedText->setObjectName(QStringLiteral("keepTypedText"));
    evidenceForm->addRow(m_keepTypedText);
    m_keepFullTrees = new QCheckBox(
        tr("Keep full trees for side effects (slower; lets the selector lab decide every selector later)"), evidence);
    m_keepFullTrees->setObjectName(QStringLiteral("keepFullTrees"));
    evidenceForm->addRow(m_keepFullTrees);
    m_pngCompression = new QSpinBox(evidence);
    m_pngCompression->setObjectName(QStringLiteral("pngCompression"));
    m_pngCompression->setRange(0, 9);
    evidenceForm->addRow(tr("Screenshot PNG compression (0 fastest, 9 smallest):"), m_pngCompression);
    layout->addWidget(evidence);

    // Host.
    auto* host = new QGroupBox(tr("Host"), this);
    auto* hostForm = new QFormLayout(host);
    m_socket = new QLineEdit(socketPath, host);
    m_socket->setObjectName(QStringLiteral("socketPath"));
    m_socket->setReadOnly(true);
    hostForm->addRow(tr("Socket:"), m_socket);
    m_cmdKey = new QComboBox(host);
    m_cmdKey->setObjectName(QStringLiteral("cmdKey"));
    m_cmdKey->addItem(tr("Control"), QStringLiteral("ctrl"));
    m_cmdKey->addItem(tr("Super (the Windows key)"), QStringLiteral("super"));
    hostForm->addRow(tr("The \"cmd\" key presses:"), m_cmdKey);
    m_yieldToUser = new QComboBox(host);
    m_yieldToUser->setObjectName(QStringLiteral("yieldToUser"));
    m_yieldToUser->addItem(tr("Stop the automation"), QStringLiteral("abort"));
    m_yieldToUser->addItem(tr("Wait until I am quiet"), QStringLiteral("wait"));
    m_yieldToUser->addItem(tr("Carry on (off)"), QStringLiteral("off"));
    hostForm->addRow(tr("When I use the keyboard or mouse while it types or clicks:"), m_yieldToUser);
    m_yieldQuietMs = new QSpinBox(host);
    m_yieldQuietMs->setObjectName(QStringLiteral("yieldQuietMs"));
    m_yieldQuietMs->setRange(100, 60000);
    m_yieldQuietMs->setSingleStep(100);
    m_yieldQuietMs->setSuffix(tr(" ms"));
    hostForm->addRow(tr("Quiet for:"), m_yieldQuietMs);
    m_giveBackFocus = new QCheckBox(tr("Bring my app back to the front after an action (macOS)"), host);
    m_giveBackFocus->setObjectName(QStringLiteral("giveBackFocus"));
    m_giveBackFocus->setToolTip(tr("An action on an app behind yours brings that app forward; afterwards the app you "
                                   "were using comes back to the front."));
    hostForm->addRow(QString(), m_giveBackFocus);
    m_eventsLinger = new QSpinBox(host);
    m_eventsLinger->setObjectName(QStringLiteral("eventsLingerSeconds"));
    m_eventsLinger->setRange(0, App::HostSettings::kMaxEventsLingerSeconds);
    m_eventsLinger->setSingleStep(60);
    m_eventsLinger->setSuffix(tr(" s"));
    m_eventsLinger->setToolTip(tr("After an event reader (msgcode) disconnects, keep watching and recording what it "
                                  "asked for this long, so that it misses nothing when it comes back."));
    hostForm->addRow(tr("Keep events for a disconnected reader:"), m_eventsLinger);
    m_language = new QComboBox(host);
    m_language->setObjectName(QStringLiteral("language"));
    m_language->addItem(tr("System"), QString());
    m_language->addItem(tr("English"), QStringLiteral("en"));
    m_language->addItem(tr("Simplified Chinese (简体中文)"), QStringLiteral("zh_CN"));
    hostForm->addRow(tr("Language:"), m_language);
    m_startWithSession = new QCheckBox(tr("Start with my session"), host);
    m_startWithSession->setObjectName(QStringLiteral("startWithSession"));
    m_startWithSession->setToolTip(tr("Your own autostart entry (~/.config/autostart), which overrides the system's."));
    hostForm->addRow(QString(), m_startWithSession);
    hostForm->addRow(QString(), note(host, tr("The language applies after a restart of the host; the other "
                                              "settings apply when saved.")));
    layout->addWidget(host);

    // Remote control (docs/remote.md).
    auto* remote = new QGroupBox(tr("Remote control"), this);
    auto* remoteForm = new QFormLayout(remote);
    m_remoteHost = new QLineEdit(remote);
    m_remoteHost->setObjectName(QStringLiteral("remoteHost"));
    m_remoteHost->setPlaceholderText(tr("Off: no control server"));
    remoteForm->addRow(tr("Control server:"), m_remoteHost);
    m_remotePort = new QSpinBox(remote);
    m_remotePort->setObjectName(QStringLiteral("remotePort"));
    m_remotePort->setRange(0, 65535);
    remoteForm->addRow(tr("Port:"), m_remotePort);
    m_remoteTls = new QCheckBox(tr("Use TLS"), remote);
    m_remoteTls->setObjectName(QStringLiteral("remoteTls"));
    remoteForm->addRow(QString(), m_remoteTls);
    m_remoteFingerprint = new QLineEdit(remote);
    m_remoteFingerprint->setObjectName(QStringLiteral("remoteFingerprint"));
    m_remoteFingerprint->setPlaceholderText(tr("Optional: the certificate's SHA-256, to trust only it"));
    remoteForm->addRow(tr("Pinned certificate:"), m_remoteFingerprint);
    m_remotePolicy = new QComboBox(remote);
    m_remotePolicy->setObjectName(QStringLiteral("remoteConfirmPolicy"));
    m_remotePolicy->addItem(tr("Ask a person (recommended)"), QStringLiteral("ask"));
    m_remotePolicy->addItem(tr("Approve automatically"), QStringLiteral("auto"));
    m_remotePolicy->addItem(tr("Deny everything"), QStringLiteral("deny"));
    remoteForm->addRow(tr("Its actions:"), m_remotePolicy);
    m_remoteError = errorLabel(remote, QStringLiteral("remoteError"));
    remoteForm->addRow(QString(), m_remoteError);
    auto* forget = new QPushButton(tr("Forget the device token"), remote);
    forget->setObjectName(QStringLiteral("forgetRemoteToken"));
    remoteForm->addRow(QString(), forget);
    remoteForm->addRow(QString(), note(remote, tr("The host dials the server; its device token is kept in your "
                                                  "keyring, never in a file. The first connection asks for the "
                                                  "bind code the server shows.")));
    layout->addWidget(remote);
    connect(forget, &QPushButton::clicked, this, &SettingsDialog::forgetRemoteTokenRequested);

    // Pixels where accessibility is blind: the owner's own vision model (docs/protocol.md §5.27).
    auto* vision = new QGroupBox(tr("Vision"), this);
    auto* visionForm = new QFormLayout(vision);
    m_groundingUrl = new QLineEdit(vision);
    m_groundingUrl->setObjectName(QStringLiteral("groundingUrl"));
    m_groundingUrl->setPlaceholderText(tr("Off: e.g. http://127.0.0.1:8080/v1"));
    visionForm->addRow(tr("Grounding endpoint:"), m_groundingUrl);
    m_groundingModel = new QLineEdit(vision);
    m_groundingModel->setObjectName(QStringLiteral("groundingModel"));
    m_groundingModel->setPlaceholderText(tr("The model's name, as the endpoint knows it"));
    visionForm->addRow(tr("Model:"), m_groundingModel);
    m_groundingTimeout = new QSpinBox(vision);
    m_groundingTimeout->setObjectName(QStringLiteral("groundingTimeoutMs"));
    m_groundingTimeout->setRange(Bridge::GroundingSettings::kMinTimeoutMs, Bridge::GroundingSettings::kMaxTimeoutMs);
    m_groundingTimeout->setSingleStep(1000);
    m_groundingTimeout->setSuffix(tr(" ms"));
    visionForm->addRow(tr("Timeout:"), m_groundingTimeout);
    m_visionError = errorLabel(vision, QStringLiteral("visionError"));
    visionForm->addRow(QString(), m_visionError);
    visionForm->addRow(QString(), note(vision, tr("An OpenAI-compatible server with a vision model that you run "
                                                  "yourself. Only when it is set, and only to find what text and the "
                                                  "accessibility tree cannot, the host sends it a screenshot.")));
    layout->addWidget(vision);
    m_sections = layout;
    m_scroll->setWidget(page);
    outer->addWidget(m_scroll, 1);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("messageLabel"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(m_message);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
    m_save = buttons->button(QDialogButtonBox::Save);
    outer->addWidget(buttons);
    // As tall as the groups need, within the screen.
    const QSize wanted = page->sizeHint() + QSize(m_scroll->verticalScrollBar()->sizeHint().width() + 24, 110);
    const QRect room = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 1024);
    resize(std::min(wanted.width(), room.width() - 40), std::min(wanted.height(), room.height() - 80));

    connect(choose, &QPushButton::clicked, this, &SettingsDialog::chooseWorkspace);
    connect(addCaller, &QPushButton::clicked, this, &SettingsDialog::addCaller);
    connect(m_save, &QPushButton::clicked, this, [this] { save(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    reload();
}

void SettingsDialog::reload()
{
    setValues(HostSettings::load(m_iniPath));
    m_startWithSession->setChecked(Autostart::enabled());
    showProblems({});
    m_message->clear();
}

void SettingsDialog::setValues(const HostSettings& settings)
{
    m_workspace->setText(settings.workspaceRoot);
    m_policy->setCurrentIndex(m_policy->findData(Bridge::SecuritySettings::policyName(settings.confirmPolicy)));
    m_mcpPolicy->setCurrentIndex(
        std::max(0, m_mcpPolicy->findData(settings.mcpConfirmPolicy
                                              ? Bridge::SecuritySettings::policyName(*settings.mcpConfirmPolicy)
                                              : QString())));
    m_requireToken->setChecked(settings.requireToken);
    m_maxTtl->setValue(static_cast<int>(settings.maxTokenTtlMs));
    m_approvalTimeout->setValue(settings.approvalTimeoutMs);
    m_keepTypedText->setChecked(settings.keepTypedText);
    m_keepFullTrees->setChecked(settings.keepFullTrees);
    m_pngCompression->setValue(settings.pngCompression);
    m_callers->setPlainText(settings.callerAllowlist.join(QLatin1Char('\n')));
    m_cmdKey->setCurrentIndex(m_cmdKey->findData(HostSettings::cmdKeyName(settings.cmdKey)));
    m_yieldToUser->setCurrentIndex(std::max(0, m_yieldToUser->findData(settings.yieldToUser)));
    m_yieldQuietMs->setValue(settings.yieldQuietMs);
    m_giveBackFocus->setChecked(settings.giveBackFocus);
    m_eventsLinger->setValue(settings.eventsLingerSeconds);
    m_language->setCurrentIndex(std::max(0, m_language->findData(settings.language)));
    m_remoteHost->setText(settings.remoteHost);
    m_remotePort->setValue(settings.remotePort);
    m_remoteTls->setChecked(settings.remoteTls);
    m_remoteFingerprint->setText(settings.remoteFingerprint);
    m_remotePolicy->setCurrentIndex(
        std::max(0, m_remotePolicy->findData(Bridge::SecuritySettings::policyName(settings.remoteConfirmPolicy))));
    m_groundingUrl->setText(settings.grounding.url);
    m_groundingModel->setText(settings.grounding.model);
    m_groundingTimeout->setValue(settings.grounding.timeoutMs);
}

HostSettings SettingsDialog::values() const
{
    HostSettings out;
    out.workspaceRoot = m_workspace->text().trimmed();
    out.confirmPolicy = Bridge::SecuritySettings::policyFromName(m_policy->currentData().toString())
                            .value_or(Bridge::ConfirmPolicy::Ask);
    out.mcpConfirmPolicy = Bridge::SecuritySettings::policyFromName(m_mcpPolicy->currentData().toString());
    out.requireToken = m_requireToken->isChecked();
    out.maxTokenTtlMs = m_maxTtl->value();
    out.approvalTimeoutMs = m_approvalTimeout->value();
    out.keepTypedText = m_keepTypedText->isChecked();
    out.keepFullTrees = m_keepFullTrees->isChecked();
    out.pngCompression = m_pngCompression->value();
    const QStringList lines = m_callers->toPlainText().split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        if (!line.trimmed().isEmpty())
            out.callerAllowlist.append(line.trimmed());
    }
    out.cmdKey = m_cmdKey->currentData().toString() == QLatin1String("super") ? HostSettings::CmdKey::Super
                                                                              : HostSettings::CmdKey::Control;
    out.language = m_language->currentData().toString();
    out.yieldToUser = m_yieldToUser->currentData().toString();
    out.yieldQuietMs = m_yieldQuietMs->value();
    out.giveBackFocus = m_giveBackFocus->isChecked();
    out.eventsLingerSeconds = m_eventsLinger->value();
    out.remoteHost = m_remoteHost->text().trimmed();
    out.remotePort = m_remotePort->value();
    out.remoteTls = m_remoteTls->isChecked();
    out.remoteFingerprint = m_remoteFingerprint->text().trimmed();
    out.remoteConfirmPolicy = Bridge::SecuritySettings::policyFromName(m_remotePolicy->currentData().toString())
                                  .value_or(Bridge::ConfirmPolicy::Ask);
    out.grounding.url = m_groundingUrl->text().trimmed();
    out.grounding.model = m_groundingModel->text().trimmed();
    out.grounding.timeoutMs = m_groundingTimeout->value();
    return out;
}

bool SettingsDialog::save()
{
    const HostSettings settings = values();
    const auto problems = settings.validate();
    showProblems(problems);
    if (!problems.isEmpty())
        return false;
    if (!settings.save(m_iniPath)) {
        m_message->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_message->setText(tr("The settings could not be written."));
        return false;
    }
    m_message->setStyleSheet(QString());
    // Not a stored setting: the autostart entry is the state (other desktop tools change it too).
    if (m_startWithSession->isChecked() != Autostart::enabled() &&
        !Autostart::setEnabled(m_startWithSession->isChecked(), QCoreApplication::applicationFilePath())) {
        m_message->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_message->setText(
            tr("Saved, but the autostart entry %1 could not be written.").arg(Autostart::userEntryPath()));
        Q_EMIT saved(settings);
        return true;
    }
    m_message->setText(tr("Saved and applied. A new language shows after a restart."));
    Q_EMIT saved(settings);
    return true;
}

void SettingsDialog::showProblems(const QList<HostSettings::Problem>& problems)
{
    QStringList workspace, callers, remote, vision, all;
    for (const auto& problem : problems) {
        all.append(problem.message);
        if (problem.field.startsWith(QLatin1String("remote/")))
            remote.append(problem.message);
        else if (problem.field.startsWith(QLatin1String("grounding/")))
            vision.append(problem.message);
        else if (problem.field == QLatin1String("workspaceRoot"))
            workspace.append(problem.message);
        else if (problem.field == QLatin1String("callerAllowlist"))
            callers.append(problem.message);
    }
    m_workspaceError->setText(workspace.join(QLatin1Char('\n')));
    m_workspaceError->setVisible(!workspace.isEmpty());
    m_callersError->setText(callers.join(QLatin1Char('\n')));
    m_callersError->setVisible(!callers.isEmpty());
    m_remoteError->setText(remote.join(QLatin1Char('\n')));
    m_remoteError->setVisible(!remote.isEmpty());
    m_visionError->setText(vision.join(QLatin1Char('\n')));
    m_visionError->setVisible(!vision.isEmpty());
    // The first group that says what is wrong is scrolled into view.
    for (QLabel* error : {m_workspaceError, m_callersError, m_remoteError, m_visionError}) {
        if (!error->isHidden()) {
            m_scroll->ensureWidgetVisible(error);
            break;
        }
    }
    if (!all.isEmpty()) {
        m_message->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_message->setText(tr("Not saved: %1").arg(all.join(QLatin1Char(' '))));
    }
}

void SettingsDialog::chooseWorkspace()
{
    // open(), never exec(): the request path must not wait on a nested event loop.
    auto* chooser = new QFileDialog(this, tr("Workspace root"), m_workspace->text());
    chooser->setFileMode(QFileDialog::Directory);
    chooser->setOption(QFileDialog::ShowDirsOnly);
    chooser->setAttribute(Qt::WA_DeleteOnClose);
    connect(chooser, &QFileDialog::fileSelected, this, [this](const QString& dir) { m_workspace->setText(dir); });
    chooser->open();
}

void SettingsDialog::addCaller()
{
    auto* chooser = new QFileDialog(this, tr("Allowed caller"));
    chooser->setFileMode(QFileDialog::ExistingFile);
    chooser->setAttribute(Qt::WA_DeleteOnClose);
    connect(chooser, &QFileDialog::fileSelected, this, [this](const QString& file) {
        QString text = m_callers->toPlainText();
        if (!text.isEmpty() && !text.endsWith(QLatin1Char('\n')))
            text += QLatin1Char('\n');
        m_callers->setPlainText(text + file);
    });
    chooser->open();
}

} // namespace App

namespace App {

void SettingsDialog::addSection(QWidget* section)
{
    section->setParent(m_scroll->widget());
    m_sections->insertWidget(0, section);
}

} // namespace App
