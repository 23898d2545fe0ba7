#pragma once

#include "app/HostSettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QVBoxLayout;

namespace App {

/// The settings dialog: shown with show()/open(), never exec(). Save validates
/// (problems appear next to their field and in a message line), stores the values and emits
/// saved(); whoever owns the host applies them (HostSettings::applyTo).
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    /// `socketPath` is shown read-only; `iniPath` empty: the user's settings, else that ini file.
    explicit SettingsDialog(QString socketPath, QString iniPath = {}, QWidget* parent = nullptr);

    /// Fills the fields from `settings`.
    void setValues(const HostSettings& settings);
    /// What the fields say now.
    HostSettings values() const;
    /// Validates, saves and emits saved(); false (with the problems shown) when invalid.
    bool save();
    /// Re-reads the store into the fields.
    void reload();

    /// Puts a section of its own at the top (the owner's rules, which apply as they are changed
    /// rather than on Save).
    void addSection(QWidget* section);
    QScrollArea* scrollArea() const { return m_scroll; }

    QPushButton* saveButton() const { return m_save; }
    QLabel* messageLabel() const { return m_message; }

Q_SIGNALS:
    void saved(const App::HostSettings& settings);
    /// The person asked to remove the remote agent's device token from the keyring.
    void forgetRemoteTokenRequested();

private:
    void showProblems(const QList<HostSettings::Problem>& problems);
    void chooseWorkspace();
    void addCaller();

    QString m_iniPath;
    QLineEdit* m_workspace = nullptr;
    QLabel* m_workspaceError = nullptr;
    QComboBox* m_policy = nullptr;
    QComboBox* m_mcpPolicy = nullptr;
    QLabel* m_autoWarning = nullptr;
    QCheckBox* m_requireToken = nullptr;
    QSpinBox* m_maxTtl = nullptr;
    QSpinBox* m_approvalTimeout = nullptr;
    QCheckBox* m_keepTypedText = nullptr;
    QCheckBox* m_keepFullTrees = nullptr;
    QSpinBox* m_pngCompression = nullptr;
    QPlainTextEdit* m_callers = nullptr;
    QLabel* m_callersError = nullptr;
    QLineEdit* m_socket = nullptr;
    QComboBox* m_cmdKey = nullptr;
    QComboBox* m_yieldToUser = nullptr;
    QSpinBox* m_yieldQuietMs = nullptr;
    QCheckBox* m_giveBackFocus = nullptr;
    QSpinBox* m_eventsLinger = nullptr;
    QComboBox* m_language = nullptr;
    QCheckBox* m_startWithSession = nullptr;
    QLineEdit* m_remoteHost = nullptr;
    QSpinBox* m_remotePort = nullptr;
    QCheckBox* m_remoteTls = nullptr;
    QLineEdit* m_remoteFingerprint = nullptr;
    QLineEdit* m_groundingUrl = nullptr;
    QLineEdit* m_groundingModel = nullptr;
    QSpinBox* m_groundingTimeout = nullptr;
    QLabel* m_visionError = nullptr;
    QScrollArea* m_scroll = nullptr;
    QVBoxLayout* m_sections = nullptr;
    QComboBox* m_remotePolicy = nullptr;
    QLabel* m_remoteError = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_save = nullptr;
};

} // namespace App
