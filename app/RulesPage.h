#pragma once

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace Bridge {
class OwnerRules;
}

namespace App {

/// The owner's rules in Settings (docs/protocol.md, "Policy"): every rule in force with the
/// built-in ones, the grants a person gave in the dialog, the unattended mode, a rule file
/// changed outside the host with what it leaves out, and a form to add a rule. The person here
/// is the owner: what they change applies at once (OwnerRules' GUI setters).
class RulesPage final : public QGroupBox
{
    Q_OBJECT

public:
    explicit RulesPage(Bridge::OwnerRules& rules, QWidget* parent = nullptr);

    QTreeWidget* rulesList() const { return m_rules; }
    QTreeWidget* grantsList() const { return m_grants; }
    QLabel* fileNote() const { return m_fileNote; }
    QPushButton* trustButton() const { return m_trust; }
    QLineEdit* nameEdit() const { return m_name; }
    QComboBox* appKind() const { return m_appKind; }
    QLineEdit* appEdit() const { return m_app; }
    QLineEdit* windowEdit() const { return m_window; }
    QCheckBox* classCheck(const QString& actionClass) const;
    QCheckBox* highRiskOnly() const { return m_highRisk; }
    QComboBox* decision() const { return m_decision; }
    QPushButton* addButton() const { return m_add; }
    QPushButton* removeButton() const { return m_remove; }
    QPushButton* revokeButton() const { return m_revoke; }
    QCheckBox* unattended() const { return m_unattended; }
    QLabel* errorLabel() const { return m_error; }

    /// Adds the rule the form describes; false with the problem shown.
    bool addRule();

private:
    void reload();

    Bridge::OwnerRules& m_owner;
    QLabel* m_fileNote = nullptr;
    QPushButton* m_trust = nullptr;
    QTreeWidget* m_rules = nullptr;
    QPushButton* m_remove = nullptr;
    QTreeWidget* m_grants = nullptr;
    QPushButton* m_revoke = nullptr;
    QCheckBox* m_unattended = nullptr;
    QLineEdit* m_name = nullptr;
    QComboBox* m_appKind = nullptr;
    QLineEdit* m_app = nullptr;
    QLineEdit* m_window = nullptr;
    QList<QCheckBox*> m_classes;
    QCheckBox* m_highRisk = nullptr;
    QComboBox* m_decision = nullptr;
    QPushButton* m_add = nullptr;
    QLabel* m_error = nullptr;
};

} // namespace App
