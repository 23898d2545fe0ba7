// ghost_app: the running apps, and launching and quitting one (desktop.app), and
// ghost_file_dialog: a path saved or opened through an app's dialog (desktop.fileDialog).
// ghost-os has neither, so they are named in its style.
#include "mcp/GhostToolSupport.h"
#include "mcp/GhostTools.h"

namespace Mcp::Ghost {

QJsonObject appTool(const QJsonObject& arguments, HostLink& host)
{
    const QString action = arguments.value(QStringLiteral("action")).toString();
    if (action == QLatin1String("list")) {
        const QJsonObject response =
            host.call(QStringLiteral("desktop.app"), QJsonObject{{QStringLiteral("action"), action}}, false);
        if (response.contains(QStringLiteral("error")))
            return hostFailure(response);
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        return success(QJsonObject{{QStringLiteral("apps"), result.value(QStringLiteral("apps"))},
                                   {QStringLiteral("count"), result.value(QStringLiteral("count"))}});
    }
    if (action != QLatin1String("launch") && action != QLatin1String("quit") && action != QLatin1String("relaunch"))
        return failure(QStringLiteral("Unknown app action: %1").arg(action),
                       QStringLiteral("Use list, launch, quit or relaunch."));
    QJsonObject app;
    for (const auto& [from, to] : {std::pair{"bundle_id", "bundleId"}, std::pair{"desktop_id", "desktopId"},
                                   std::pair{"executable", "executable"}}) {
        if (const QString value = arguments.value(QString::fromLatin1(from)).toString(); !value.isEmpty())
            app.insert(QString::fromLatin1(to), value);
    }
    if (const auto pid = numberArg(arguments, QStringLiteral("pid")))
        app.insert(QStringLiteral("pid"), static_cast<qint64>(*pid));
    if (app.isEmpty())
        return failure(QStringLiteral("Missing required parameter: bundle_id, desktop_id, executable or pid"));
    QJsonObject params{{QStringLiteral("action"), action}, {QStringLiteral("app"), app}};
    if (arguments.value(QStringLiteral("force")).toBool())
        params.insert(QStringLiteral("force"), true);
    const QJsonObject response = host.call(QStringLiteral("desktop.app"), params, true);
    QJsonObject data{{QStringLiteral("action"), action}};
    if (!response.contains(QStringLiteral("error"))) {
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        for (const char* key : {"pid", "window", "reusedInstance", "exited"}) {
            const QString name = QString::fromLatin1(key);
            if (result.contains(name))
                data.insert(name, result.value(name));
        }
    }
    return sideEffectResult(
        response, action == QLatin1String("quit") ? QStringLiteral("exited") : QStringLiteral("launched"), data);
}

QJsonObject fileDialogTool(const QJsonObject& arguments, HostLink& host)
{
    const QString path = arguments.value(QStringLiteral("path")).toString();
    if (path.isEmpty())
        return failure(QStringLiteral("Missing required parameter: path"));
    const QString action = arguments.value(QStringLiteral("action")).toString(QStringLiteral("save"));
    QJsonObject params{{QStringLiteral("path"), path}, {QStringLiteral("action"), action}};
    if (arguments.contains(QStringLiteral("overwrite")))
        params.insert(QStringLiteral("overwrite"), arguments.value(QStringLiteral("overwrite")));
    const QJsonObject response = host.call(QStringLiteral("desktop.fileDialog"), withRoute(params, arguments), true);
    QJsonObject data{{QStringLiteral("path"), path}, {QStringLiteral("action"), action}};
    if (!response.contains(QStringLiteral("error"))) {
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        for (const char* key : {"savedPathVerified", "size", "replaced", "dialogClosed", "effect"}) {
            const QString name = QString::fromLatin1(key);
            if (result.contains(name))
                data.insert(name, result.value(name));
        }
    }
    return sideEffectResult(response,
                            action == QLatin1String("open") ? QStringLiteral("opened") : QStringLiteral("saved"), data);
}

} // namespace Mcp::Ghost
