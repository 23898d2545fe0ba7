#pragma once

#include <QObject>

#include <memory>

namespace Bridge {
class Host;
}

namespace App {

class ConfirmationDialog;

/// Keeps a ConfirmationDialog attached to the host's `ask` provider while the policy changes at
/// runtime (from the settings dialog or the tray): the dialog lets go of the old provider before it
/// is destroyed and a new one attaches whenever the policy is `ask` again.
class ConfirmationController final : public QObject
{
    Q_OBJECT

public:
    explicit ConfirmationController(Bridge::Host& host, QObject* parent = nullptr);
    ~ConfirmationController() override;

    /// The dialog attached now; nullptr unless the policy is `ask`.
    ConfirmationDialog* dialog() const { return m_dialog.get(); }
    /// The dialog of the MCP front door's requests (its own ask provider), for the host's life.
    ConfirmationDialog* mcpDialog() const { return m_mcpDialog.get(); }
    /// The dialog of the remote agent's ask policy (docs/remote.md).
    ConfirmationDialog* remoteDialog() const { return m_remoteDialog.get(); }

Q_SIGNALS:
    /// The dialog was replaced or removed.
    void dialogChanged(App::ConfirmationDialog* dialog);

private:
    void reattach();

    Bridge::Host& m_host;
    std::unique_ptr<ConfirmationDialog> m_dialog;
    std::unique_ptr<ConfirmationDialog> m_mcpDialog;
    std::unique_ptr<ConfirmationDialog> m_remoteDialog;
};

} // namespace App
