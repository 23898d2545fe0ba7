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
    PermissionGuide guide(const PermissionReport& report) const override;
    /// Sets org.a11y.Status.IsEnabled on the session bus (for this session) and GNOME's
    /// toolkit-accessibility setting (for the next ones); apps already running must be restarted.
    void requestAccessibility(QObject* context, GrantDone done) override;

private:
    PermissionStatus probeAccessibility();
    PermissionStatus probeScreenCapture(QString* displayServer);

    QString m_connectionName;
};

} // namespace Automation
