// ghost_clipboard: the clipboard, read or written (desktop.clipboard), and ghost_displays: the
// displays (desktop.displays). ghost-os has neither, so they are named in its style.
#include "mcp/GhostToolSupport.h"
#include "mcp/GhostTools.h"

namespace Mcp::Ghost {

QJsonObject clipboardTool(const QJsonObject& arguments, HostLink& host)
{
    const QString action = arguments.value(QStringLiteral("action")).toString();
    if (action == QLatin1String("read")) {
        QJsonObject params{{QStringLiteral("action"), action}};
        if (arguments.contains(QStringLiteral("redaction")))
            params.insert(QStringLiteral("redactionMode"), arguments.value(QStringLiteral("redaction")));
        const QJsonObject response = host.call(QStringLiteral("desktop.clipboard"), params, false);
        if (response.contains(QStringLiteral("error")))
            return hostFailure(response);
        const QJsonObject result = response.value(QStringLiteral("result")).toObject();
        QJsonObject data{{QStringLiteral("formats"), result.value(QStringLiteral("formats"))},
                         {QStringLiteral("concealed"), result.value(QStringLiteral("concealed"))},
                         {QStringLiteral("empty"), result.value(QStringLiteral("empty"))},
                         {QStringLiteral("evidence"), evidenceOf(result)}};
        for (const char* key : {"text", "length", "sha256", "image"}) {
            const QString name = QString::fromLatin1(key);
            if (result.contains(name))
                data.insert(name, result.value(name));
        }
        return success(data);
    }
    if (action == QLatin1String("write")) {
        if (!arguments.value(QStringLiteral("text")).isString())
            return failure(QStringLiteral("Missing required parameter: text"));
        QJsonObject params{{QStringLiteral("action"), action},
                           {QStringLiteral("text"), arguments.value(QStringLiteral("text"))}};
        if (const auto restore = numberArg(arguments, QStringLiteral("restore_after")))
            params.insert(QStringLiteral("restoreAfterMs"), qRound(*restore * 1000));
        const QJsonObject response = host.call(QStringLiteral("desktop.clipboard"), params, true);
        QJsonObject data{
            {QStringLiteral("length"), static_cast<int>(arguments.value(QStringLiteral("text")).toString().size())}};
        if (!response.contains(QStringLiteral("error")))
            data.insert(QStringLiteral("previous"),
                        response.value(QStringLiteral("result")).toObject().value(QStringLiteral("previous")));
        return sideEffectResult(response, QStringLiteral("written"), data);
    }
    return failure(QStringLiteral("Unknown clipboard action: %1").arg(action), QStringLiteral("Use read or write."));
}

QJsonObject displaysTool(const QJsonObject& arguments, HostLink& host)
{
    Q_UNUSED(arguments)
    const QJsonObject response = host.call(QStringLiteral("desktop.displays"), {}, false);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    return success(QJsonObject{{QStringLiteral("displays"), result.value(QStringLiteral("displays"))},
                               {QStringLiteral("count"), result.value(QStringLiteral("count"))},
                               {QStringLiteral("evidence"), evidenceOf(result)}});
}

} // namespace Mcp::Ghost
