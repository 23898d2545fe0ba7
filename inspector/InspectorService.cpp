#include "inspector/InspectorService.h"

#include "bridge/Params.h"

#include <QElapsedTimer>
#include <QRegularExpression>

namespace Inspector {

namespace Ops = Automation::Operations;
using Automation::JobContext;
using Automation::Result;

InspectorService::InspectorService(Bridge::Executor& executor, QObject* parent) : QObject(parent), m_executor(executor)
{
    connect(&executor, &Bridge::Executor::desktopEvent, this,
            [this](const QString&, const QJsonObject& payload, const QJsonArray&) {
                const qint64 pid =
                    payload.value(QStringLiteral("app")).toObject().value(QStringLiteral("pid")).toInteger();
                if (pid > 0)
                    Q_EMIT appChanged(pid);
            });
}

void InspectorService::windows(std::function<void(const Result<QList<Automation::WindowInfo>>&)> done)
{
    m_executor.inspect<QList<Automation::WindowInfo>>(
        kReadTimeoutMs, [](JobContext& ctx) { return Ops::windows(ctx, Ops::WindowsRequest{}); }, std::move(done));
}

void InspectorService::tree(const Automation::Route& route,
                            std::function<void(const Result<Ops::DumpTreeResult>&)> done)
{
    Ops::DumpTreeRequest request;
    request.route = route;
    request.bounds.maxDepth = kMaxDepth;
    request.bounds.maxNodes = kMaxNodes;
    request.bounds.maxWallTimeMs = kReadTimeoutMs;
    m_executor.inspect<Ops::DumpTreeResult>(
        kReadTimeoutMs,
        [request](JobContext& ctx) -> Result<Ops::DumpTreeResult> {
            auto read = Ops::dumpTree(ctx, request);
            // The window manager's title is not always the accessible window's name (GTK names
            // some windows otherwise): then the app's own window, by its pid alone.
            if (!read && request.route.windowTitlePattern &&
                read.error().details.value(QStringLiteral("reason")).toString() == QLatin1String("window_not_found")) {
                Ops::DumpTreeRequest byPid = request;
                byPid.route.windowTitlePattern.reset();
                return Ops::dumpTree(ctx, byPid);
            }
            return read;
        },
        std::move(done));
}

void InspectorService::find(const QJsonObject& params, std::function<void(const Result<FindAnswer>&)> done)
{
    auto parsed = Bridge::Params::find(params);
    if (!parsed)
        return done(parsed.error());
    const Ops::FindRequest request{parsed->route, parsed->selector, parsed->selectorJson, false, parsed->refresh};
    m_executor.inspect<FindAnswer>(
        kReadTimeoutMs,
        [request](JobContext& ctx) -> Result<FindAnswer> {
            QElapsedTimer timer;
            timer.start();
            auto found = Ops::find(ctx, request);
            if (!found)
                return found.error();
            return FindAnswer{std::move(found.value()), timer.elapsed()};
        },
        std::move(done));
}

void InspectorService::ocr(const Automation::Route& route, std::function<void(const Result<Ops::OcrResult>&)> done)
{
    Ops::OcrRequest request;
    request.route = route;
    request.languages = {QStringLiteral("eng"), QStringLiteral("chi_sim")};
    request.redaction = Ops::Redaction::None;
    request.keepEvidence = false;
    m_executor.inspect<Ops::OcrResult>(
        kReadTimeoutMs, [request](JobContext& ctx) { return Ops::ocr(ctx, request); }, std::move(done));
}

void InspectorService::elementAt(QPoint point, std::function<void(const Result<Ops::ElementAtResult>&)> done)
{
    Ops::ElementAtRequest request;
    request.point = point;
    m_executor.inspect<Ops::ElementAtResult>(
        kReadTimeoutMs, [request](JobContext& ctx) { return Ops::elementAt(ctx, request); }, std::move(done));
}

QString InspectorService::busyText() const
{
    if (!m_executor.isBusy())
        return {};
    return tr("waiting: %1 running").arg(m_executor.runningMethod());
}

Automation::Route InspectorService::routeFor(const Automation::WindowInfo& window)
{
    Automation::Route route;
    route.pid = window.pid;
    route.windowTitlePattern = QStringLiteral("^") + QRegularExpression::escape(window.title) + QStringLiteral("$");
    return route;
}

} // namespace Inspector
