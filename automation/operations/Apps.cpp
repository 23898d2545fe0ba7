#include "automation/AppIdentity.h"
#include "automation/Operations.h"
#include "automation/platform/ProcessInfo.h"

#include <QElapsedTimer>
#include <QSet>
#include <QThread>

namespace Automation::Operations {

namespace {

/// How long a launch whose process handed it to a running instance and ended waits for that
/// instance to show a new window or come to the front before it names the instance as it is.
constexpr qint64 kHandOffGraceMs = 2000;

AppIdentity identityOf(const WindowInfo& window)
{
    ResolvedRoute route;
    route.pid = window.pid;
    route.appName = window.appName;
    return identify(route);
}

bool sameApp(const AppIdentity& app, const AppSelector& wanted)
{
    if (wanted.pid && app.pid != *wanted.pid)
        return false;
    if (!wanted.bundleId.isEmpty() && wanted.bundleId.compare(app.bundleId, Qt::CaseInsensitive) != 0)
        return false;
    if (!wanted.desktopId.isEmpty()) {
        const QString id = wanted.desktopId.endsWith(QLatin1String(".desktop"))
                               ? wanted.desktopId
                               : wanted.desktopId + QStringLiteral(".desktop");
        if (id.compare(app.desktopId, Qt::CaseInsensitive) != 0)
            return false;
    }
    if (!wanted.executable.isEmpty() && wanted.executable.compare(app.executable, Qt::CaseInsensitive) != 0 &&
        wanted.executable != app.executablePath)
        return false;
    return true;
}

/// Whether `pid` is `root` or one of its descendants (a launcher script's child).
bool descendsFrom(qint64 pid, qint64 root)
{
    for (int depth = 0; pid > 1 && depth < 8; ++depth) {
        if (pid == root)
            return true;
        pid = Platform::parentPid(pid);
    }
    return false;
}

} // namespace

Result<QList<RunningApp>> listApps(JobContext& ctx)
{
    TraceStep step(ctx.trace, QStringLiteral("apps.list"));
    auto windows = ctx.backend.windows(ctx.call);
    if (!windows) {
        step.finish(false, windows.error().toJson());
        return windows.error();
    }
    QList<RunningApp> out;
    QHash<qint64, qsizetype> index;
    for (const WindowInfo& window : windows.value()) {
        if (window.pid <= 0)
            continue;
        auto it = index.constFind(window.pid);
        if (it == index.cend()) {
            it = index.insert(window.pid, out.size());
            out.append(RunningApp{identityOf(window), {}});
        }
        out[*it].windows.append(window);
    }
    step.finish(true, QJsonObject{{QStringLiteral("apps"), static_cast<int>(out.size())}});
    return out;
}

Result<LaunchResult> launchApp(JobContext& ctx, const AppLaunchSpec& spec)
{
    TraceStep step(ctx.trace, QStringLiteral("apps.launch"));
    // Who shows windows now: a window that appears for another process afterwards is an
    // instance the launch was handed to.
    QSet<QString> before;
    qint64 activeBefore = 0;
    const auto key = [](const WindowInfo& w) {
        return w.nativeId.isEmpty() ? QString::number(w.pid) + QLatin1Char('|') + w.title : w.nativeId;
    };
    if (auto windows = ctx.backend.windows(ctx.call)) {
        for (const WindowInfo& window : windows.value()) {
            before.insert(key(window));
            if (window.active)
                activeBefore = window.pid;
        }
    }
    auto started = ctx.backend.startApp(spec, ctx.call);
    if (!started) {
        step.finish(false, started.error().toJson());
        return started.error();
    }
    LaunchResult out;
    out.start = started.value();
    QJsonObject details{{QStringLiteral("pid"), out.start.pid},
                        {QStringLiteral("launchedBy"), out.start.launchedBy},
                        {QStringLiteral("desktopId"), out.start.desktopId},
                        {QStringLiteral("argv"), QJsonArray::fromStringList(out.start.argv)}};
    QElapsedTimer waited;
    waited.start();
    bool exitedSeen = false;
    QElapsedTimer exitedFor;
    while (true) {
        if (auto stop = ctx.call.checkpoint()) {
            // It was started: the answer must not invite a blind retry.
            Error error = *stop;
            error.details.insert(QStringLiteral("pid"), out.start.pid);
            error.details.insert(QStringLiteral("started"), true);
            step.finish(false, details);
            return error.withRetryable(false);
        }
        if (auto windows = ctx.backend.windows(ctx.call)) {
            for (const WindowInfo& window : windows.value()) {
                if (window.pid > 0 && descendsFrom(window.pid, out.start.pid)) {
                    out.pid = window.pid;
                    out.window = window;
                    out.waitedMs = waited.elapsed();
                    details.insert(QStringLiteral("window"), window.toJson());
                    step.finish(true, details);
                    return out;
                }
            }
            // The process is gone without a window of its own: an instance already running
            // took the launch. It shows a new window, or comes to the front; one that does
            // neither within a grace period is still the instance the launch went to.
            if (exitedSeen) {
                const WindowInfo* taken = nullptr;
                const WindowInfo* existing = nullptr;
                for (const WindowInfo& window : windows.value()) {
                    if (window.pid <= 0 || !sameApp(identityOf(window), AppSelector::of(spec)))
                        continue;
                    const bool fresh = !before.contains(key(window));
                    const bool raised = window.active && window.pid != activeBefore;
                    if ((fresh || raised) && !taken)
                        taken = &window;
                    if (!existing || window.active)
                        existing = &window;
                }
                if (!taken && exitedFor.isValid() && exitedFor.elapsed() >= kHandOffGraceMs)
                    taken = existing;
                if (taken) {
                    out.pid = taken->pid;
                    out.window = *taken;
                    out.reusedInstance = true;
                    out.waitedMs = waited.elapsed();
                    details.insert(QStringLiteral("reusedInstance"), true);
                    details.insert(QStringLiteral("window"), taken->toJson());
                    step.finish(true, details);
                    return out;
                }
            }
        }
        if (!exitedSeen && !Platform::processAlive(out.start.pid)) {
            exitedSeen = true;
            exitedFor.start();
        }
        QThread::msleep(100);
    }
}

Result<QuitResult> quitApp(JobContext& ctx, qint64 pid, bool force)
{
    TraceStep step(ctx.trace, QStringLiteral("apps.quit"));
    if (!Platform::processAlive(pid)) {
        const Error error = Error::make(
            ErrorCode::ElementNotFound, QStringLiteral("no process %1 runs").arg(pid),
            QJsonObject{{QStringLiteral("reason"), QStringLiteral("app_not_running")}, {QStringLiteral("pid"), pid}});
        step.finish(false, error.toJson());
        return error;
    }
    auto asked = ctx.backend.quitApp(pid, force, ctx.call);
    if (!asked) {
        step.finish(false, asked.error().toJson());
        return asked.error();
    }
    QuitResult out;
    out.pid = pid;
    out.how = asked.value();
    QElapsedTimer waited;
    waited.start();
    // It ended, or the budget did: a dialog asking to save may keep it.
    while (Platform::processAlive(pid)) {
        if (ctx.call.checkpoint() || ctx.call.remainingMs() < 150)
            break;
        QThread::msleep(50);
    }
    out.exited = !Platform::processAlive(pid);
    out.waitedMs = waited.elapsed();
    out.verification.expected = QStringLiteral("the process ended");
    out.verification.effect = out.exited ? Effect::Confirmed : Effect::SuspectedNoop;
    out.verification.observed =
        QJsonObject{{QStringLiteral("alive"), !out.exited}, {QStringLiteral("waitedMs"), out.waitedMs}};
    if (!out.exited)
        out.verification.reason =
            QStringLiteral("the app still runs: a window may be asking to save, or it ignores %1").arg(out.how);
    step.finish(out.exited, QJsonObject{{QStringLiteral("pid"), pid},
                                        {QStringLiteral("how"), out.how},
                                        {QStringLiteral("exited"), out.exited}});
    return out;
}

} // namespace Automation::Operations
