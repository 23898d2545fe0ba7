// see and image: a window's UI state and screenshots.
#include "remote/PeekabooTools.h"

#include "remote/PeekabooToolSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>

namespace Remote::Peekaboo {

void see(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    if (a.contains(QStringLiteral("path")))
        return done(badArgument(QStringLiteral("path: the host writes screenshots only into its evidence directory; "
                                               "the image comes back in this answer")));
    const QString app = str(a, "app_target");
    // The image a model reads: at most 1280 wide, as the doors answer it (docs/remote.md).
    QJsonObject params = withRoute({}, app);
    params.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("maxWidth"), 1280}});
    engine.call(QStringLiteral("desktop.observe"), params, false, timeoutOf(a),
                [done, app](const QJsonObject& response) {
                    if (failed(response))
                        return done(hostFailure(response));
                    const QJsonObject result = resultOf(response);
                    const QJsonObject evidence = result.value(QStringLiteral("evidence")).toObject();
                    const QJsonObject tree = result.value(QStringLiteral("axTree")).toObject();
                    const QJsonObject route = result.value(QStringLiteral("routeResolved")).toObject();
                    QByteArray png;
                    const QJsonObject sized = result.value(QStringLiteral("screenshot")).toObject();
                    if (const QString shot = sized.value(QStringLiteral("path"))
                                                 .toString(evidence.value(QStringLiteral("screenshotPath")).toString());
                        !shot.isEmpty()) {
                        QFile file(QDir(evidence.value(QStringLiteral("dir")).toString()).filePath(shot));
                        if (file.open(QIODevice::ReadOnly))
                            png = file.readAll().toBase64();
                    }
                    QJsonObject facts = evidenceFacts(result);
                    facts.insert(QStringLiteral("routeResolved"), route);
                    facts.insert(QStringLiteral("axTree"), tree);
                    if (!sized.isEmpty())
                        facts.insert(QStringLiteral("image"), sized);
                    done(ToolOutcome::of(toolResult(QStringLiteral("Captured %1 window \"%2\" with %3 UI elements")
                                                        .arg(route.value(QStringLiteral("appName")).toString(),
                                                             route.value(QStringLiteral("windowTitle")).toString())
                                                        .arg(tree.value(QStringLiteral("nodeCount")).toInt()),
                                                    facts, false, png)));
                });
}

void image(const QJsonObject& a, Engine& engine, const ToolDone& done)
{
    const QString app = str(a, "app_target");
    const QString mode =
        a.value(QStringLiteral("mode")).toString(app.isEmpty() ? QStringLiteral("screen") : QStringLiteral("window"));
    QJsonObject params{{QStringLiteral("inline"), true}, {QStringLiteral("maxWidth"), 1280}};
    if (mode == QLatin1String("window") || mode == QLatin1String("frontmost"))
        params.insert(QStringLiteral("route"), routeForApp(mode == QLatin1String("window") ? app : QString()));
    engine.call(QStringLiteral("desktop.capture"), params, false, timeoutOf(a), [done](const QJsonObject& response) {
        if (failed(response))
            return done(hostFailure(response));
        QJsonObject result = resultOf(response);
        const QByteArray png = result.take(QStringLiteral("pngBase64")).toString().toLatin1();
        QJsonObject facts = evidenceFacts(result);
        for (const char* key : {"source", "frame", "bytes", "takenAt", "image"})
            facts.insert(QLatin1String(key), result.value(QLatin1String(key)));
        const QJsonObject frame = result.value(QStringLiteral("frame")).toObject();
        done(ToolOutcome::of(toolResult(QStringLiteral("Captured the %1 (%2x%3)")
                                            .arg(result.value(QStringLiteral("source")).toString())
                                            .arg(frame.value(QStringLiteral("width")).toInt())
                                            .arg(frame.value(QStringLiteral("height")).toInt()),
                                        facts, false, png)));
    });
}

} // namespace Remote::Peekaboo
