#pragma once

#include <QJsonObject>
#include <QString>

#include <functional>
#include <memory>

class QObject;

namespace Automation {

enum class PermissionState { Granted, Denied, Unknown };
QString permissionStateName(PermissionState state);

/// One permission as seen now, with what to do about it when it is missing.
struct PermissionStatus
{
    PermissionState state = PermissionState::Unknown;
    QString message; ///< what was seen, and the fix when not granted
    QJsonObject details;
};

/// The platform's permissions, probed without touching the automation backend.
struct PermissionReport
{
    PermissionStatus accessibility;
    PermissionStatus screenCapture;
    QString platform;      ///< "linux", "macos"
    QString displayServer; ///< "x11", "wayland", "none", "quartz"
};

/// What a person does to grant the permissions, in words for onboarding (translated).
struct PermissionGuide
{
    QString accessibility;     ///< how to grant accessibility, or what to know once it is granted
    QString screenCapture;     ///< how to grant screen capture, or what to know once it is granted
    QString grantLabel;        ///< the text of the button that runs requestAccessibility; empty: none
    QString captureGrantLabel; ///< the text of the button that runs requestScreenCapture; empty: none
};

/// Probes the accessibility and screen-capture permissions. Blocking but bounded (each check
/// has a short timeout); call it off the GUI thread.
class PermissionProbe
{
public:
    virtual ~PermissionProbe();
    virtual PermissionReport probe() = 0;
    /// How to grant what `report` (this probe's last answer) shows missing. The default says
    /// nothing (a platform without a way to grant).
    virtual PermissionGuide guide(const PermissionReport& report) const;
    /// Grants accessibility as far as a program may (or opens the setting where a person must),
    /// without blocking: `done` runs later on `context`'s thread, unless `context` is destroyed
    /// first. The default has no way and answers at once with an error.
    using GrantDone = std::function<void(bool ok, const QString& error)>;
    virtual void requestAccessibility(QObject* context, GrantDone done);
    /// Asks the system for screen capture as far as a program may (macOS lists an app under
    /// Screen Recording only once it has asked), then opens the setting; as requestAccessibility.
    virtual void requestScreenCapture(QObject* context, GrantDone done);

    /// The probe for the platform this build runs on, defined by the backend library that
    /// automation/CMakeLists.txt chooses.
    static std::unique_ptr<PermissionProbe> createDefault();
};

} // namespace Automation
