#pragma once

#include "app/OnboardingWindow.h"
#include "app/SettingsDialog.h"
#include "app/TrayState.h"
#include "bridge/security/SecuritySettings.h"
#include "evidence-viewer/EvidenceWindow.h"
#include "inspector/InspectorWindow.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QSystemTrayIcon;
class QWidget;

namespace Bridge {
class Host;
}
namespace Remote {
class RemoteAgent;
}

namespace App {

class ConfirmationDialog;

/// The face of the host: a tray icon whose colour and menu tell the truth, kept
/// live from the permission monitor and the host's pause state; a small status window where
/// the desktop has no system tray.
class TrayController final : public QObject
{
    Q_OBJECT

public:
    /// The policy shown and offered is the host's live one (Host::confirmPolicy()).
    explicit TrayController(Bridge::Host& host, QObject* parent = nullptr);
    ~TrayController() override;

    /// Shows the tray icon (or the status window) and, when something is missing, onboarding.
    void start();

    TrayState state() const { return m_state; }
    bool usesTray() const { return m_tray != nullptr; }
    QSystemTrayIcon* trayIcon() const { return m_tray; }
    QWidget* statusWindow() const { return m_statusWindow; }
    QMenu* menu() const { return m_menu.get(); }
    OnboardingWindow* onboarding() const { return m_onboarding; }
    void showOnboarding();
    /// Opens (or raises) the settings dialog, non-modal.
    void showSettings();
    SettingsDialog* settingsDialog() const { return m_settings; }
    /// Opens (or raises) the accessibility inspector (docs/inspector.md).
    void showInspector();
    /// Opens (or raises) the evidence browser on the workspace root (docs/evidence-viewer.md).
    void showEvidence();
    EvidenceViewer::EvidenceWindow* evidence() const { return m_evidence; }
    Inspector::InspectorWindow* inspector() const { return m_inspector; }
    /// Where policy changes and the dialog store settings: empty is the user's QSettings (tests
    /// pass an ini file).
    void setSettingsFile(const QString& iniPath) { m_settingsFile = iniPath; }
    /// The menu's "Confirmation policy" entries, by name ("ask", "auto", "deny").
    QAction* policyAction(const QString& name) const;
    /// What the "Confirmation policy" entries do: switches the live policy and saves it.
    void choosePolicy(Bridge::ConfirmPolicy policy);
    /// Shows the remote agent's state and asks for a bind code when it needs one (not owned).
    void setRemote(Remote::RemoteAgent* remote);
    /// The menu's "Unattended mode" entry.
    QAction* unattendedAction() const { return m_unattended; }
    /// Opens the non-modal "bind code" prompt (the menu's "Enter bind code…").
    void askBindCode();

Q_SIGNALS:
    void stateChanged(App::TrayState::Level level);
    void quitRequested();

private:
    void refresh();
    void buildMenu();
    void buildStatusWindow();

    Bridge::Host& m_host;
    QString m_settingsFile;
    QPointer<SettingsDialog> m_settings;
    /// The settings as stored when the dialog opened or last saved (to tell a changed server).
    HostSettings m_savedRemote;
    QPointer<Inspector::InspectorWindow> m_inspector;
    QPointer<EvidenceViewer::EvidenceWindow> m_evidence;
    QActionGroup* m_policyGroup = nullptr;
    TrayState m_state;
    bool m_hasState = false;
    QSystemTrayIcon* m_tray = nullptr;
    QPointer<QWidget> m_statusWindow;
    QLabel* m_statusIcon = nullptr;
    QLabel* m_statusText = nullptr;
    std::unique_ptr<QMenu> m_menu;
    QList<QAction*> m_stateActions;
    QAction* m_stop = nullptr;
    QAction* m_resume = nullptr;
    QPointer<QWidget> m_stopButton;
    QPointer<QWidget> m_resumeButton;
    QPointer<OnboardingWindow> m_onboarding;
    Remote::RemoteAgent* m_remote = nullptr;
    QAction* m_bindCode = nullptr;
    QAction* m_unattended = nullptr;
    QPointer<QWidget> m_bindCodeDialog;
};

} // namespace App
