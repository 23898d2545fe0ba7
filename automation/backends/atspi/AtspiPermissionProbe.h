#pragma once

#include "../../PermissionProbe.h"

#include <QString>

namespace Automation {

/// Linux: accessibility is "the AT-SPI bus answers and org.a11y.Status.IsEnabled is true";
/// screen capture is "an X11 display can be opened". Wayland is reported as not supported yet.
class AtspiPermissionProbe final : public PermissionProbe
{
public:
    AtspiPermissionProbe();
    ~AtspiPermissionProbe() override;
    PermissionReport probe() override;

private:
    PermissionStatus probeAccessibility();
    PermissionStatus probeScreenCapture(QString* displayServer);

    QString m_connectionName;
};

} // namespace Automation
