#include "TestHost.h"

#include "bridge/protocol/JsonRpc.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

#include <gtest/gtest.h>

#include <limits>

namespace Testing {

TestHost::TestHost() : TestHost(Options{}) {}

Bridge::OwnerPolicy allowEverything()
{
    Bridge::OwnerPolicy policy;
    Bridge::OwnerPolicy::Rule rule;
    rule.name = QStringLiteral("tests-allow-all");
    rule.decision = Bridge::OwnerPolicy::Decision::Allow;
    policy.setOwnerRules({rule});
    return policy;
}

TestHost::TestHost(Options options)
{
    m_socketPath = m_dir.path() + QStringLiteral("/run/bridge.sock");
    QDir(m_dir.path()).mkpath(QStringLiteral("root/ws"));
    m_root = Bridge::WorkspacePolicy::realPath(m_dir.path() + QStringLiteral("/root")).value_or(QString());
    m_workspace = m_root + QStringLiteral("/ws");

    Bridge::HostOptions hostOptions;
    hostOptions.server.socketPath = m_socketPath;
    hostOptions.server.maxLineBytes = options.maxLineBytes;
    hostOptions.server.partialLineTimeoutMs = options.partialLineTimeoutMs;
    hostOptions.executor.queueCapacity = options.queueCapacity;
    hostOptions.workspaceRoot = options.workspaceRoot ? m_root : QString();
    if (options.backendFactory)
        hostOptions.backendFactory = options.backendFactory;
    else
        hostOptions.backendFactory = [desktop = m_desktop] { return std::make_unique<FakeBackend>(desktop); };
    if (options.probeFactory)
        hostOptions.probeFactory = options.probeFactory;
    else
        hostOptions.probeFactory = [] { return std::make_unique<FakePermissionProbe>(); };
    hostOptions.security = options.security;
    if (hostOptions.security.dataDir.isEmpty())
        hostOptions.security.dataDir = m_dir.path() + QStringLiteral("/data");
    m_dataDir = hostOptions.security.dataDir;
    hostOptions.tokenClock = options.tokenClock;
    hostOptions.auditMaxBytes = options.auditMaxBytes;
    hostOptions.keepTypedText = options.keepTypedText;
    hostOptions.server.mcpDoorExecutable = options.mcpDoorExecutable;
    hostOptions.ownerPolicy = options.ownerPolicy;
    hostOptions.policyFile = options.policyFile;
    hostOptions.policyFileTrusted = options.policyFileTrusted;

    m_thread.setObjectName(QStringLiteral("test-host"));
    m_thread.start();
    m_context = new QObject;
    m_context->moveToThread(&m_thread);
    QString error;
    bool started = false;
    QMetaObject::invokeMethod(
        m_context,
        [&] {
            m_host = new Bridge::Host(hostOptions);
            started = m_host->start(&error);
        },
        Qt::BlockingQueuedConnection);
    if (!started)
        ADD_FAILURE() << "test host did not start: " << error.toStdString();
}

TestHost::~TestHost()
{
    shutdown();
    QMetaObject::invokeMethod(
        m_context, [this] { delete m_context; }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void TestHost::shutdown()
{
    if (!m_host)
        return;
    QMetaObject::invokeMethod(
        m_context,
        [this] {
            m_host->shutdown();
            delete m_host;
            m_host = nullptr;
        },
        Qt::BlockingQueuedConnection);
}

void TestHost::onHostThread(const std::function<void(Bridge::Host&)>& f)
{
    QMetaObject::invokeMethod(
        m_context, [&] { f(*m_host); }, Qt::BlockingQueuedConnection);
}

void ScriptedApprover::ask(const Bridge::ApprovalRequest& request)
{
    Mode mode;
    {
        QMutexLocker lock(&m_mutex);
        m_asked.append(request);
        mode = m_mode;
    }
    if (mode == Mode::Never || !provider)
        return;
    const bool approve = mode == Mode::Approve;
    const quint64 id = request.id;
    int grant = request.offerGrant ? grantMinutes : 0;
    // An owner's ask: the scope this approver was told to choose.
    const QString chosen = request.kind == Bridge::ApprovalRequest::Kind::Action ? scope : QString();
    if (chosen == QLatin1String("minutes"))
        grant = grantMinutes;
    QTimer::singleShot(m_answerAfterMs, provider, [p = provider, id, approve, grant, chosen] {
        p->answer(id, approve, QStringLiteral("user"), grant, chosen);
    });
}

void ScriptedApprover::withdraw(quint64 id)
{
    QMutexLocker lock(&m_mutex);
    m_withdrawn.append(id);
}

QList<Bridge::ApprovalRequest> ScriptedApprover::asked() const
{
    QMutexLocker lock(&m_mutex);
    return m_asked;
}

QList<quint64> ScriptedApprover::withdrawn() const
{
    QMutexLocker lock(&m_mutex);
    return m_withdrawn;
}

void TestHost::attachApprover(ScriptedApprover& approver)
{
    onHostThread([&](Bridge::Host& host) {
        ASSERT_NE(host.askProvider(), nullptr) << "the host does not run the ask policy";
        approver.provider = host.askProvider();
        host.askProvider()->attach(&approver);
    });
}

void TestHost::attachMcpApprover(ScriptedApprover& approver)
{
    onHostThread([&](Bridge::Host& host) {
        approver.provider = host.mcpAskProvider();
        host.mcpAskProvider()->attach(&approver);
    });
}

void TestHost::attachRemoteApprover(ScriptedApprover& approver)
{
    onHostThread([&](Bridge::Host& host) {
        approver.provider = host.remoteAskProvider();
        host.remoteAskProvider()->attach(&approver);
    });
}

void TestHost::answerApproval(quint64 id, bool approved)
{
    onHostThread([&](Bridge::Host& host) { host.askProvider()->answer(id, approved); });
}

QList<QJsonObject> TestHost::auditLines()
{
    if (m_host)
        onHostThread([](Bridge::Host& host) { host.audit().flush(); });
    QList<QJsonObject> lines;
    QFile file(m_dataDir + QStringLiteral("/audit.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return lines;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (!line.trimmed().isEmpty())
            lines.append(QJsonDocument::fromJson(line).object());
    }
    return lines;
}

QList<QJsonObject> TestHost::auditLines(const QString& event)
{
    QList<QJsonObject> out;
    for (const auto& line : auditLines()) {
        if (line.value(QStringLiteral("event")).toString() == event)
            out.append(line);
    }
    return out;
}

TestClient::TestClient(const QString& socketPath)
{
    m_client.connectToServer(socketPath, 5000);
}

QJsonObject TestClient::withMeta(QJsonObject params, const QString& workspace, int timeoutMs)
{
    Bridge::MetaFill fill;
    fill.workspacePath = workspace;
    fill.timeoutMs = timeoutMs;
    return Bridge::fillMeta(std::move(params), fill);
}

QJsonObject TestClient::request(const QString& method, const QJsonObject& params, const QJsonValue& id)
{
    return Bridge::JsonRpc::request(method, params, id);
}

void TestClient::sendLine(const QByteArray& line)
{
    m_client.sendRaw(line);
}

void TestClient::send(const QJsonObject& message)
{
    // Raw, so its answer stays a line for readObject rather than one the client matches.
    m_client.sendRaw(Bridge::JsonRpc::encodeLine(message));
}

std::optional<QByteArray> TestClient::readLine(int timeoutMs)
{
    return m_client.readUnmatched(timeoutMs);
}

std::optional<QJsonValue> TestClient::readValue(int timeoutMs)
{
    const auto line = readLine(timeoutMs);
    if (!line)
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(*line);
    if (doc.isArray())
        return QJsonValue(doc.array());
    return QJsonValue(doc.object());
}

std::optional<QJsonObject> TestClient::readObject(int timeoutMs)
{
    auto value = readValue(timeoutMs);
    if (!value || !value->isObject())
        return std::nullopt;
    return value->toObject();
}

QJsonObject TestClient::call(const QString& method, const QJsonObject& params, int timeoutMs)
{
    const Bridge::Client::Reply reply = m_client.callRequest(request(method, params, m_nextId++), timeoutMs);
    if (!reply.ok()) {
        // It read (and skipped) everything that came while it waited.
        m_client.dropUnmatchedBefore(std::numeric_limits<qint64>::max());
        return {};
    }
    // A call reads past what came before its answer; those lines are not read again.
    m_client.dropUnmatchedBefore(reply.line);
    return reply.response;
}

bool TestClient::waitClosed(int timeoutMs)
{
    return m_client.waitForDisconnected(timeoutMs);
}

QJsonObject errorOf(const QJsonObject& response)
{
    return response.value(QStringLiteral("error")).toObject();
}

QString errorCode(const QJsonObject& response)
{
    return errorOf(response).value(QStringLiteral("code")).toString();
}

QJsonObject resultOf(const QJsonObject& response)
{
    return response.value(QStringLiteral("result")).toObject();
}

QString newRequestId()
{
    return Bridge::newRequestId();
}

} // namespace Testing
