// desktop_abort, desktop_evidence, desktop_status: the host itself.
#include "mcp/GhostTools.h"

#include "client-kit/Outcome.h"
#include "mcp/GhostToolSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace Mcp::Ghost {

QJsonObject abortTool(const QJsonObject& arguments, HostLink& host)
{
    QString id = arguments.value(QStringLiteral("execution_id")).toString();
    if (id.isEmpty()) {
        // What is running now, as the host's health says.
        const QJsonObject health = host.call(QStringLiteral("desktop.health"), {}, false, 5000);
        if (health.contains(QStringLiteral("error")))
            return hostFailure(health);
        id = health.value(QStringLiteral("result"))
                 .toObject()
                 .value(QStringLiteral("bridge"))
                 .toObject()
                 .value(QStringLiteral("runningExecutionId"))
                 .toString();
        if (id.isEmpty())
            return success(QJsonObject{{QStringLiteral("aborted"), false},
                                       {QStringLiteral("reason"), QStringLiteral("nothing is running")}});
    }
    const QJsonObject response =
        host.call(QStringLiteral("desktop.abort"), QJsonObject{{QStringLiteral("executionId"), id}}, false, 5000);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    QJsonObject data = response.value(QStringLiteral("result")).toObject();
    data.insert(QStringLiteral("execution_id"), id);
    return success(data);
}

QJsonObject evidenceTool(const QJsonObject& arguments, HostLink& host)
{
    // The evidence of this workspace's executions, newest first (the door's cwd is the workspace).
    const int limit = std::clamp(static_cast<int>(numberArg(arguments, QStringLiteral("limit")).value_or(10)), 1, 100);
    const QDir root(QDir(host.workspace()).filePath(QStringLiteral("artifacts/desktop")));
    struct Entry
    {
        QString dir;
        QDateTime at;
    };
    QList<Entry> entries;
    for (const QFileInfo& day : root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name | QDir::Reversed)) {
        for (const QFileInfo& execution :
             QDir(day.filePath()).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time))
            entries.append({execution.filePath(), execution.lastModified()});
        if (entries.size() >= static_cast<qsizetype>(limit) * 4)
            break;
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.at > b.at; });
    const auto readJson = [](const QString& path) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return QJsonObject{};
        return QJsonDocument::fromJson(file.read(qint64{4} * 1024 * 1024)).object();
    };
    QJsonArray executions;
    for (const Entry& entry : std::as_const(entries)) {
        if (executions.size() >= limit)
            break;
        const QDir dir(entry.dir);
        const QJsonObject request = readJson(dir.filePath(QStringLiteral("request.json")));
        const QJsonObject response = readJson(dir.filePath(QStringLiteral("response.json")));
        const auto outcome = DoorKit::Outcome::fromAnswer(response);
        executions.append(QJsonObject{{QStringLiteral("dir"), QString(entry.dir + QLatin1Char('/'))},
                                      {QStringLiteral("execution_id"), dir.dirName()},
                                      {QStringLiteral("method"), request.value(QStringLiteral("method"))},
                                      {QStringLiteral("at"), entry.at.toUTC().toString(Qt::ISODateWithMs)},
                                      {QStringLiteral("outcome"), response.isEmpty() ? QStringLiteral("unfinished")
                                                                  : outcome.error().isEmpty() ? QStringLiteral("ok")
                                                                                              : outcome.code()},
                                      {QStringLiteral("effect"), outcome.result().value(QStringLiteral("effect"))}});
    }
    return success(QJsonObject{{QStringLiteral("workspace"), host.workspace()},
                               {QStringLiteral("root"), root.path()},
                               {QStringLiteral("executions"), executions},
                               {QStringLiteral("count"), executions.size()}});
}

QJsonObject statusTool(const QJsonObject&, HostLink& host)
{
    const QJsonObject response = host.call(QStringLiteral("desktop.health"), {}, false, 5000);
    if (response.contains(QStringLiteral("error")))
        return hostFailure(response);
    const QJsonObject health = response.value(QStringLiteral("result")).toObject();
    const QJsonObject bridge = health.value(QStringLiteral("bridge")).toObject();
    // The answer to "can I use the desktop now?": stopped, busy (with what, how many waiting) or idle.
    const bool paused = bridge.value(QStringLiteral("paused")).toBool();
    const bool running = bridge.value(QStringLiteral("running")).toBool();
    const QJsonValue active = health.value(QStringLiteral("userInput")).toObject().value(QStringLiteral("active"));
    QJsonObject data{{QStringLiteral("state"), paused    ? QStringLiteral("stopped")
                                               : running ? QStringLiteral("busy")
                                                         : QStringLiteral("idle")},
                     {QStringLiteral("queued"), bridge.value(QStringLiteral("queued"))},
                     {QStringLiteral("confirm_policy"), bridge.value(QStringLiteral("confirmPolicy"))},
                     {QStringLiteral("permissions"), health.value(QStringLiteral("permissions"))},
                     // Presence: whether the person used the keyboard or mouse lately (null: not watched).
                     {QStringLiteral("user_active"), active.isBool() ? active : QJsonValue()},
                     {QStringLiteral("host"), health}};
    if (running)
        data.insert(QStringLiteral("running"),
                    QJsonObject{{QStringLiteral("execution_id"), bridge.value(QStringLiteral("runningExecutionId"))},
                                {QStringLiteral("method"), bridge.value(QStringLiteral("runningMethod"))}});
    if (paused)
        data.insert(QStringLiteral("note"), QStringLiteral("A person stopped all actions; only they can resume (the "
                                                           "tray's Resume)."));
    return success(data);
}

} // namespace Mcp::Ghost
