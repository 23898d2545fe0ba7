#include "app/ConfirmationController.h"

#include "app/ConfirmationDialog.h"
#include "bridge/Host.h"

namespace App {

ConfirmationController::ConfirmationController(Bridge::Host& host, QObject* parent) : QObject(parent), m_host(host)
{
    if (auto* ask = m_host.askProvider())
        m_dialog = std::make_unique<ConfirmationDialog>(*ask);
    if (auto* mcp = m_host.mcpAskProvider())
        m_mcpDialog = std::make_unique<ConfirmationDialog>(*mcp);
    if (auto* remote = m_host.remoteAskProvider())
        m_remoteDialog = std::make_unique<ConfirmationDialog>(*remote);
    // Direct: Host destroys the old provider right after the signal returns.
    connect(&m_host, &Bridge::Host::confirmationProviderChanged, this, &ConfirmationController::reattach,
            Qt::DirectConnection);
}

ConfirmationController::~ConfirmationController() = default;

void ConfirmationController::reattach()
{
    m_dialog.reset();
    if (auto* ask = m_host.askProvider())
        m_dialog = std::make_unique<ConfirmationDialog>(*ask);
    Q_EMIT dialogChanged(m_dialog.get());
}

} // namespace App
