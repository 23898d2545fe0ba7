#pragma once

#include <QJsonObject>
#include <QString>

namespace Automation {

/// Whom to grant a missing permission to, and where (docs/protocol.md, "Policy"): the exact program (the host's
/// app bundle on macOS, its executable elsewhere), the setting's name, and how, in words. An
/// error or a doctor check that says "not granted" says this too.
struct PermissionGrant
{
    QString permission; ///< "accessibility" or "screenRecording"
    QString program;    ///< the bundle or executable path the setting must name
    QString setting;    ///< the setting's name as the system shows it
    QString how;        ///< the steps, in one sentence

    QJsonObject toJson() const;
    /// "Grant Accessibility to /Applications/…app in System Settings > …": for messages.
    QString sentence() const;
};

/// For this platform and this running host. `executablePath` empty: the running program's.
PermissionGrant permissionGrant(const QString& permission, const QString& executablePath = {});

/// The app bundle holding `executablePath` (…/X.app/Contents/MacOS/x → …/X.app), or the path itself.
QString bundleOf(const QString& executablePath);

} // namespace Automation
