#include "cli/LegacyCommands.h"

#include "bridge/protocol/Client.h"
#include "bridge/protocol/JsonRpc.h"
#include "bridge/protocol/Meta.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

namespace LegacyCommands {

namespace {

/// meta as the original filled it: schemaVersion 1, a fresh requestId and timeoutMs 10 000
/// unless given; the workspace always the command line's.
QJsonObject withMeta(QJsonObject params, const QString& workspace, const QString& requestId, int timeoutMs)
{
    QJsonObject meta = params.value(QStringLiteral("meta")).toObject();
    if (!meta.contains(QStringLiteral("schemaVersion")))
        meta.insert(QStringLiteral("schemaVersion"), 1);
    if (!meta.contains(QStringLiteral("requestId")))
        meta.insert(QStringLiteral("requestId"), requestId);
    if (!meta.contains(QStringLiteral("timeoutMs")))
        meta.insert(QStringLiteral("timeoutMs"), timeoutMs);
    meta.insert(QStringLiteral("workspacePath"), workspace);
    params.insert(QStringLiteral("meta"), meta);
    return params;
}

QByteArray compact(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

void errLine(const QString& text)
{
    std::fprintf(stderr, "%s\n", qPrintable(text));
    std::fflush(stderr);
}

/// One call on `client` (connecting when it is not): the answer, or why there is none.
struct Outcome
{
    std::optional<QJsonObject> response;
    QString failure; ///< set when there is no response: the host cannot be reached, or did not answer
};

Outcome send(Bridge::Client& client, const QString& socketPath, const QJsonObject& request, int waitMs)
{
    // A connection the host closed while nobody was looking still says connected until its
    // events are read: read them, so a restarted host gets a new connection, not a dead one.
    if (client.isConnected())
        client.socket().waitForReadyRead(0);
    if (!client.isConnected())
        client.disconnectFromServer();
    if (!client.isConnected() && !client.connectToServer(socketPath, 3000))
        return {std::nullopt,
                QStringLiteral("cannot reach msgcode-desktop-host at %1 (%2)").arg(socketPath, client.errorString())};
    const Bridge::Client::Reply reply = client.callRequest(request, waitMs);
    if (reply.ok())
        return {reply.response, {}};
    using TransportError = Bridge::Client::TransportError;
    switch (reply.error) {
    case TransportError::Timeout:
        return {std::nullopt, QStringLiteral("Request timeout")};
    case TransportError::Closed:
    case TransportError::NotConnected:
    case TransportError::ConnectFailed:
        return {std::nullopt, QStringLiteral("the host closed the connection without answering")};
    default:
        return {std::nullopt, QStringLiteral("the host sent something that is not a JSON-RPC answer")};
    }
}

int waitFor(const QJsonObject& params)
{
    // The host answers by meta.timeoutMs itself (DESKTOP_TIMEOUT); 5 s more for the answer to travel.
    return params.value(QStringLiteral("meta")).toObject().value(QStringLiteral("timeoutMs")).toInt(10000) + 5000;
}

} // namespace

int rpc(const QString& socketPath, const QString& workspace, const QString& method, const QString& paramsJson)
{
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(paramsJson.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        // The original's answer to a bad --params-json, exit code included.
        errLine(QStringLiteral("Error: Invalid --params-json, must be valid JSON"));
        return ConnectionFailed;
    }
    const QString requestId = Bridge::newRequestId();
    const QJsonObject params = withMeta(doc.object(), workspace, requestId, 10000);
    Bridge::Client client;
    const Outcome outcome =
        send(client, socketPath, Bridge::JsonRpc::request(method, params, requestId), waitFor(params));
    if (!outcome.response) {
        errLine(QStringLiteral("Error: ") + outcome.failure);
        return ConnectionFailed;
    }
    std::fprintf(stdout, "%s\n", compact(*outcome.response).constData());
    std::fflush(stdout);
    return outcome.response->contains(QStringLiteral("error")) ? RpcError : Success;
}

int session(const QString& socketPath, const QString& workspace, int idleMs)
{
    if (!QFileInfo(workspace).isDir()) {
        errLine(QStringLiteral("Error: Workspace path does not exist or is not a directory: ") + workspace);
        return ConnectionFailed;
    }
    // stdin is read on a thread of its own, so that the idle time runs while nothing comes.
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::string> lines;
    bool ended = false;
    std::thread reader([&] {
        std::string line;
        while (std::getline(std::cin, line)) {
            std::lock_guard lock(mutex);
            lines.push_back(line);
            ready.notify_one();
        }
        std::lock_guard lock(mutex);
        ended = true;
        ready.notify_one();
    });
    reader.detach(); // a blocked read of stdin cannot be interrupted; the process ends with it

    const auto log = [](const QString& text) { errLine(QStringLiteral("[Session] ") + text); };
    const auto answer = [](const QJsonValue& id, int exitCode, const QString& out, const QString& err) {
        const QJsonObject envelope{{QStringLiteral("id"), id},
                                   {QStringLiteral("exitCode"), exitCode},
                                   {QStringLiteral("stdout"), out},
                                   {QStringLiteral("stderr"), err}};
        std::fprintf(stdout, "%s\n", compact(envelope).constData());
        std::fflush(stdout);
    };

    Bridge::Client client; // one connection for the whole session, made again when it drops
    QDeadlineTimer idle(idleMs);
    while (true) {
        std::string raw;
        {
            std::unique_lock lock(mutex);
            // After the end of input the session still waits out its idle time, as the original.
            ready.wait_for(lock, std::chrono::milliseconds(std::max<qint64>(1, idle.remainingTime())),
                           [&] { return !lines.empty() || idle.hasExpired(); });
            if (lines.empty()) {
                if (!idle.hasExpired())
                    continue;
                log(QStringLiteral("Idle timeout, exiting session"));
                std::fflush(stdout);
                std::_Exit(Success);
            }
            raw = std::move(lines.front());
            lines.pop_front();
        }
        const QByteArray bytes = QByteArray::fromStdString(raw).trimmed();
        if (bytes.isEmpty())
            continue;
        idle = QDeadlineTimer(idleMs);
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            log(QStringLiteral("Invalid JSON request: ") + QString::fromUtf8(bytes.left(200)));
            answer(QJsonValue(), RpcError, QString(),
                   QStringLiteral("invalid JSON request: ") + parseError.errorString());
            continue;
        }
        const QJsonObject line = doc.object();
        const QJsonValue id = line.value(QStringLiteral("id"));
        const QString method = line.value(QStringLiteral("method")).toString();
        if (!id.isString() || method.isEmpty() || !line.value(QStringLiteral("params")).isObject()) {
            log(QStringLiteral("Missing required fields in request: ") + QString::fromUtf8(bytes.left(200)));
            answer(id.isString() ? id : QJsonValue(), RpcError, QString(),
                   QStringLiteral("a request line needs a string id, a method and a params object"));
            continue;
        }
        // The line's id is the request's id and meta.requestId; its workspacePath, when it has one,
        // is the workspace, else the command line's.
        const QString lineWorkspace = line.value(QStringLiteral("workspacePath")).toString(workspace);
        const int timeoutMs = line.value(QStringLiteral("timeoutMs")).toInt(10000);
        QJsonObject params =
            withMeta(line.value(QStringLiteral("params")).toObject(), lineWorkspace, id.toString(), timeoutMs);
        QJsonObject meta = params.value(QStringLiteral("meta")).toObject();
        meta.insert(QStringLiteral("requestId"), id.toString());
        params.insert(QStringLiteral("meta"), meta);
        const Outcome outcome = send(client, socketPath, Bridge::JsonRpc::request(method, params, id), waitFor(params));
        if (!outcome.response) {
            client.disconnectFromServer();
            answer(id, ConnectionFailed, QString(), outcome.failure);
        } else {
            answer(id, outcome.response->contains(QStringLiteral("error")) ? RpcError : Success,
                   QString::fromUtf8(compact(*outcome.response)), QString());
        }
        idle = QDeadlineTimer(idleMs);
    }
}

} // namespace LegacyCommands
