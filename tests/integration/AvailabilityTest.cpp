// Nobody of the same uid can switch the bridge off: the listener survives running out of file
// descriptors, 200 clients may connect at the same moment, one process cannot take every
// connection, and a connection that never speaks is closed while one that spoke is kept.
// Each test runs the real host binary.
#include "HostProcess.h"
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace Testing;

namespace {

QJsonObject healthParams()
{
    return QJsonObject{{QStringLiteral("meta"), Bridge::buildMeta({.timeoutMs = 5000})}};
}

bool healthy(const QString& socketPath)
{
    TestClient client(socketPath);
    if (!client.isConnected())
        return false;
    return !resultOf(client.call(QStringLiteral("desktop.health"), healthParams(), 5000)).isEmpty();
}

// A raw non-blocking connect, as a burst of clients does it: -1 with errno on failure.
int connectRaw(const QString& path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray bytes = QFile::encodeName(path);
    std::memcpy(address.sun_path, bytes.constData(), static_cast<size_t>(bytes.size()));
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 && errno != EINPROGRESS) {
        const int saved = errno;
        ::close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

// Reads one line from a raw socket within `timeoutMs`.
QByteArray readLineRaw(int fd, int timeoutMs)
{
    QByteArray line;
    QElapsedTimer timer;
    timer.start();
    char c = 0;
    while (timer.elapsed() < timeoutMs) {
        const ssize_t n = ::recv(fd, &c, 1, MSG_DONTWAIT);
        if (n == 1) {
            if (c == '\n')
                return line;
            line.append(c);
        } else if (n == 0) {
            break;
        } else {
            QThread::msleep(2);
        }
    }
    return line;
}

} // namespace

TEST(Availability, ListenerSurvivesRunningOutOfDescriptors)
{
    HostProcess host;
    // A small descriptor limit, then more idle clients than it allows.
    host.process().setChildProcessModifier([] {
        rlimit limit{64, 64};
        ::setrlimit(RLIMIT_NOFILE, &limit);
    });
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    std::vector<std::unique_ptr<QLocalSocket>> idle;
    for (int i = 0; i < 120; ++i) {
        auto socket = std::make_unique<QLocalSocket>();
        socket->connectToServer(host.socketPath());
        socket->waitForConnected(200);
        idle.push_back(std::move(socket));
    }
    QThread::msleep(500);
    // The host is still alive, still has its socket, and answers once descriptors are back.
    EXPECT_EQ(host.process().state(), QProcess::Running);
    EXPECT_TRUE(QFile::exists(host.socketPath()));
    idle.clear();
    bool answered = false;
    QElapsedTimer timer;
    timer.start();
    while (!answered && timer.elapsed() < 5000) {
        answered = healthy(host.socketPath());
        if (!answered)
            QThread::msleep(100);
    }
    host.process().waitForReadyRead(200);
    const QString output = host.output() + QString::fromUtf8(host.process().readAllStandardOutput()) +
                           QString::fromUtf8(host.process().readAllStandardError());
    EXPECT_TRUE(answered) << "no health answer after the clients left; host output:\n" << output.toStdString();
    // It said so (the limit was really reached).
    EXPECT_TRUE(output.contains(QStringLiteral("out of file descriptors"))) << output.toStdString();
}

TEST(Availability, TwoHundredClientsConnectAtTheSameMoment)
{
    HostProcess host;
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    // Stop the host from accepting while the burst arrives, so every client waits in the backlog.
    ASSERT_EQ(::kill(static_cast<pid_t>(host.process().processId()), SIGSTOP), 0);
    std::vector<int> fds;
    int refused = 0;
    for (int i = 0; i < 200; ++i) {
        const int fd = connectRaw(host.socketPath());
        if (fd < 0)
            ++refused;
        else
            fds.push_back(fd);
    }
    ::kill(static_cast<pid_t>(host.process().processId()), SIGCONT);
    EXPECT_EQ(refused, 0) << "connects refused by a full listen backlog";
    // Every connected client is served.
    int answered = 0;
    for (int fd : fds) {
        const QByteArray request =
            QJsonDocument(TestClient::request(QStringLiteral("desktop.health"), healthParams(), 1))
                .toJson(QJsonDocument::Compact) +
            '\n';
        if (::send(fd, request.constData(), static_cast<size_t>(request.size()), MSG_NOSIGNAL) == request.size() &&
            readLineRaw(fd, 5000).contains("\"result\""))
            ++answered;
        ::close(fd);
    }
    EXPECT_EQ(answered, 200);
}

TEST(Availability, OneProcessCannotTakeEveryConnection)
{
    HostProcess host({}, {QStringLiteral("--max-connections-per-peer"), QStringLiteral("3")});
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    std::vector<std::unique_ptr<TestClient>> clients;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(std::make_unique<TestClient>(host.socketPath()));
        ASSERT_FALSE(resultOf(clients.back()->call(QStringLiteral("desktop.health"), healthParams())).isEmpty());
    }
    TestClient fourth(host.socketPath());
    const auto refusal = fourth.readObject(3000);
    ASSERT_TRUE(refusal.has_value());
    EXPECT_EQ(errorCode(*refusal), QStringLiteral("DESKTOP_HOST_NOT_READY"));
    EXPECT_EQ(errorOf(*refusal).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("too_many_connections_from_peer"));
    EXPECT_TRUE(errorOf(*refusal).value(QStringLiteral("retryable")).toBool());
    EXPECT_TRUE(fourth.waitClosed(3000));
    // One leaves: there is room again.
    clients.pop_back();
    QThread::msleep(200);
    EXPECT_TRUE(healthy(host.socketPath()));
}

TEST(Availability, SilentConnectionIsClosedButOneThatSpokeIsKept)
{
    HostProcess host({}, {QStringLiteral("--first-request-timeout-ms"), QStringLiteral("300")});
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    TestClient spoke(host.socketPath());
    ASSERT_FALSE(resultOf(spoke.call(QStringLiteral("desktop.health"), healthParams())).isEmpty());
    TestClient silent(host.socketPath());
    const auto closing = silent.readObject(3000);
    ASSERT_TRUE(closing.has_value());
    EXPECT_EQ(errorOf(*closing).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("no_request"));
    EXPECT_TRUE(silent.waitClosed(3000));
    // Well past the timeout, the one that spoke is still served.
    QThread::msleep(800);
    ASSERT_TRUE(spoke.isConnected());
    EXPECT_FALSE(resultOf(spoke.call(QStringLiteral("desktop.health"), healthParams())).isEmpty());
}

TEST(ReplayAcrossRestart, ACapturedSideEffectRequestIsRefusedByTheNextHost)
{
    QTemporaryDir shared;
    const QString dataDir = shared.path() + QStringLiteral("/data");
    const QString root = shared.path() + QStringLiteral("/root");
    ASSERT_TRUE(QDir().mkpath(root));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("WORKSPACE_ROOT"), root);
    // The same request twice: a phrase-confirmed hotkey, as a captured line would be replayed.
    const QJsonObject request = TestClient::request(
        QStringLiteral("desktop.hotkey"),
        QJsonObject{
            {QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                                 {QStringLiteral("requestId"), newRequestId()},
                                                 {QStringLiteral("workspacePath"), root},
                                                 {QStringLiteral("timeoutMs"), 3000}}},
            {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}},
            {QStringLiteral("route"), QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), 1}}}}},
            {QStringLiteral("keys"), QJsonArray{QStringLiteral("esc")}}},
        1);
    {
        HostProcess first({}, {QStringLiteral("--data-dir"), dataDir}, env);
        ASSERT_TRUE(first.start()) << first.output().toStdString();
        TestClient client(first.socketPath());
        client.send(request);
        const auto answer = client.readObject(5000);
        ASSERT_TRUE(answer.has_value());
        // Whatever the first host made of it, it was not a replay.
        EXPECT_NE(
            errorOf(*answer).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
            QStringLiteral("replayed_request_id"));
        EXPECT_EQ(first.terminate(), 0);
    }
    HostProcess second({}, {QStringLiteral("--data-dir"), dataDir}, env);
    ASSERT_TRUE(second.start()) << second.output().toStdString();
    TestClient client(second.socketPath());
    client.send(request);
    const auto answer = client.readObject(5000);
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(errorOf(*answer).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("replayed_request_id"));
}
