#pragma once

#include <QJsonObject>
#include <QString>

#include <memory>

namespace Automation {

enum class PermissionState { Granted, Denied, Unknown };
QString permissionStateName(PermissionState state);

/// One permission as seen now, with what to do about it when it is missing.
struct PermissionStatus
{
    PermissionState state = PermissionState::Unknown;
    QString message;   ///< what was seen, and the fix when not granted
    QJsonObject details;
};

/// The platform's permissions, probed without touching the automation backend.
struct PermissionReport
{
    PermissionStatus accessibility;
    PermissionStatus screenCapture;
    QString platform;       ///< "linux", "macos"
    QString displayServer;  ///< "x11", "wayland", "none", "quartz"
};

/// Probes the accessibility and screen-capture permissions. Blocking but bounded (each check
/// has a short timeout); call it off the GUI thread.
class PermissionProbe
{
public:
    virtual ~PermissionProbe();
    virtual PermissionReport probe() = 0;

    /// The probe for the platform this build runs on, defined by the backend library that
    /// automation/CMakeLists.txt chooses.
    static std::unique_ptr<PermissionProbe> createDefault();
};

} // namespace Automation
