#pragma once

#include "bridge/security/ConfirmationProvider.h"

#include "inspector/HighlightOverlay.h"
#include "inspector/WindowPlacement.h"

#include <QDialog>
#include <QElapsedTimer>
#include <QTimer>

#include <deque>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QToolButton;
class QPushButton;

namespace App {

/// The `ask` policy's human: non-modal (shown, never exec()), one request at a
/// time, the rest queued. Each shows
/// who asks, what, on which target, the keys or a (masked) preview of the text, and a
/// countdown. Deny is the default button; Escape, closing and expiry deny.
///
/// Focus: the dialog comes to the front without taking the keyboard (it is shown without
/// activating), so a person typing in another app keeps typing there; Approve needs a
/// deliberate click, and is armed only after a short delay so a stray Enter or double-click
/// meant for something else cannot approve.
class ConfirmationDialog final : public QDialog, public Bridge::Approver
{
    Q_OBJECT

public:
    static constexpr int kArmDelayMs = 800;
    /// How long after showing the dialog is placed again with the size its frame really has.
    static constexpr int kReplaceAfterShowMs = 150;

    explicit ConfirmationDialog(Bridge::AskConfirmationProvider& provider, QWidget* parent = nullptr);
    ~ConfirmationDialog() override;

    void ask(const Bridge::ApprovalRequest& request) override;
    void withdraw(quint64 id) override;

    std::optional<quint64> currentId() const;
    int queuedCount() const { return static_cast<int>(m_queue.size()); }
    QPushButton* approveButton() const { return m_approve; }
    /// "Allow this client for N minutes" (shown for the MCP door's requests) and its minutes.
    QCheckBox* grantCheck() const { return m_grant; }
    QSpinBox* grantMinutes() const { return m_grantMinutes; }
    /// An owner's ask: "once", "minutes" (with scopeMinutes) or "always" (docs/protocol.md, "Policy").
    QComboBox* scopeChoice() const { return m_scope; }
    QSpinBox* scopeMinutes() const { return m_scopeMinutes; }
    QPushButton* denyButton() const { return m_deny; }

Q_SIGNALS:
    void shown(quint64 id);
    void decided(quint64 id, bool approved);

protected:
    void reject() override;
    void closeEvent(QCloseEvent* event) override;

private:
    void showNext();
    void decide(bool approved);
    void updateCountdown();
    void fill(const Bridge::ApprovalRequest& request);
    /// Puts the dialog beside the target it asks about (never over it), or where it covers the
    /// least of it, saying so.
    void placeAwayFromTarget();

    Bridge::AskConfirmationProvider& m_provider;
    std::deque<Bridge::ApprovalRequest> m_queue;
    std::optional<Bridge::ApprovalRequest> m_current;
    QTimer m_tick;
    QTimer m_arm;
    QLabel* m_title = nullptr;
    QLabel* m_who = nullptr;
    QLabel* m_what = nullptr;
    QLabel* m_target = nullptr;
    /// The selector or elementRef as the request gave it, folded under the target.
public:
    const Inspector::HighlightOverlay& highlight() const { return m_highlight; }
    QLabel* targetLabel() const { return m_target; }
    /// Where the dialog was last put beside the target, and the note shown when it had to cover
    /// part of it.
    const Inspector::Placement& placement() const { return m_placement; }
    QLabel* coverNote() const { return m_coverNote; }
    /// The gap kept between the dialog and the target (room for the highlight's border).
    static constexpr int kTargetGap = Inspector::FrameWindow::kBorder + 12;

private:
    QToolButton* m_showRaw = nullptr;
    QLabel* m_raw = nullptr;
    /// The resolved target's frame on screen while its request is shown.
    Inspector::HighlightOverlay m_highlight;
    std::optional<QRect> m_targetFrame;
    Inspector::Placement m_placement;
    QLabel* m_coverNote = nullptr;
    QLabel* m_detail = nullptr;
    /// The owner's rule that asks, and the risk (docs/protocol.md, "Policy"); hidden when none.
    QLabel* m_policy = nullptr;
    QLabel* m_countdown = nullptr;
    QLabel* m_queueLabel = nullptr;
    QPushButton* m_approve = nullptr;
    QPushButton* m_deny = nullptr;
    QWidget* m_grantRow = nullptr;
    QCheckBox* m_grant = nullptr;
    QSpinBox* m_grantMinutes = nullptr;
    QWidget* m_scopeRow = nullptr;
    QComboBox* m_scope = nullptr;
    QSpinBox* m_scopeMinutes = nullptr;
};

} // namespace App
