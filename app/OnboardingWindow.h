#pragma once

#include "automation/PermissionProbe.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;

namespace Bridge {
class PermissionMonitor;
}

namespace App {

/// Leads a person to green: each permission with its state, what it is for and how to grant
/// it. How to grant, and the grant button's action, come from the platform's permission probe
/// (PermissionProbe::guide, requestAccessibility); the states follow the permission monitor live.
class OnboardingWindow final : public QWidget
{
    Q_OBJECT

public:
    explicit OnboardingWindow(Bridge::PermissionMonitor& permissions, QWidget* parent = nullptr);

    QPushButton* enableAccessibilityButton() const { return m_enable; }
    QPushButton* enableScreenCaptureButton() const { return m_enableCapture; }
    /// Re-reads the permission states (called on the monitor's changes).
    void refresh();

Q_SIGNALS:
    /// The accessibility switch was flipped (or failed: `error` says why).
    void accessibilityRequested(bool ok, const QString& error);
    /// Screen capture was asked for (or could not be: `error` says why, or what to do next).
    void screenCaptureRequested(bool ok, const QString& error);

private:
    void enableAccessibility();
    void enableScreenCapture();

    Bridge::PermissionMonitor& m_permissions;
    std::unique_ptr<Automation::PermissionProbe> m_probe; ///< for the guide and the grant action
    QLabel* m_accessibilityState = nullptr;
    QLabel* m_accessibilityHow = nullptr;
    QLabel* m_captureState = nullptr;
    QLabel* m_captureHow = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_enable = nullptr;
    QPushButton* m_enableCapture = nullptr;
};

} // namespace App
