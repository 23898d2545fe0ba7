// The macOS backend's apps (MacBackend.h): launched through LaunchServices by bundle id, so the
// app is its own responsible process and has none of the host's permissions; quit with
// terminate, or forceTerminate.
#include "automation/backends/macos/MacBackendPrivate.h"

namespace Automation::Mac {

Result<AppStart> MacBackend::startApp(const AppLaunchSpec& spec, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    if (spec.bundleId.isEmpty())
        return Error::invalidParam(QStringLiteral("app.bundleId"),
                                   QStringLiteral("on macOS an app is launched by its bundle id"));
    QString error;
    const auto pid = m_api->launchApplication(spec.bundleId, spec.args, &error);
    if (!pid)
        return Error::make(ErrorCode::ElementNotFound, error,
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_app_bundle")},
                                       {QStringLiteral("bundleId"), spec.bundleId}});
    return AppStart{*pid, QStringLiteral("launch-services"), {}, {}, QStringList{spec.bundleId} + spec.args};
}

Result<QString> MacBackend::quitApp(qint64 pid, bool force, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    if (!m_api->terminateApplication(pid, force))
        return Error::make(ErrorCode::ElementNotFound,
                           QStringLiteral("no app with pid %1 runs, or it refused to be asked").arg(pid),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("app_not_running")}});
    return force ? QStringLiteral("force_terminate") : QStringLiteral("terminate");
}

} // namespace Automation::Mac
