// desktop.health round trips over the bridge's local socket against a raw QLocalSocket echo
// server measured in the same run (the goals: p50 within 2x of the echo; >= 20,000 requests/s
// with 8 clients). Prints Google Benchmark's table, then p50/p99 and the ratios.
#include "automation/DesktopBackend.h"
#include "bridge/Host.h"
#include "bridge/protocol/JsonRpc.h"
#include "bridge/protocol/LineFramer.h"
#include "bridge/protocol/Meta.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QThread>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

class StaticProbe final : public Automation::PermissionProbe
{
public:
    Automation::PermissionReport probe() override
    {
        Automation::PermissionReport report;
        report.platform = QStringLiteral("linux");
        report.displayServer = QStringLiteral("x11");
        report.accessibility.state = Automation::PermissionState::Granted;
        report.screenCapture.state = Automation::PermissionState::Granted;
        return report;
    }
};

// The baseline: the same framing (read a line, write a line) with no protocol work at all.
class EchoServer final : public QObject
{
public:
    explicit EchoServer(const QString& path)
    {
        connect(&m_server, &QLocalServer::newConnection, this, [this] {
            while (QLocalSocket* socket = m_server.nextPendingConnection()) {
                auto buffer = std::make_shared<QByteArray>();
                connect(socket, &QLocalSocket::readyRead, socket, [socket, buffer] {
                    buffer->append(socket->readAll());
                    qsizetype newline;
                    while ((newline = buffer->indexOf('\n')) >= 0) {
                        socket->write(buffer->constData(), newline + 1);
                        buffer->remove(0, newline + 1);
                    }
                });
                connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        m_server.listen(path);
    }

private:
    QLocalServer m_server;
};

// Both servers run on one thread with an event loop, as the GUI thread would in the host.
struct Servers
{
    QTemporaryDir dir;
    QThread thread;
    QObject* context = nullptr;
    Bridge::Host* host = nullptr;
    EchoServer* echo = nullptr;
    QString bridgePath;
    QString echoPath;
    QString workspace;

    Servers()
    {
        bridgePath = dir.path() + QStringLiteral("/bridge.sock");
        echoPath = dir.path() + QStringLiteral("/echo.sock");
        workspace = dir.path();
        thread.start();
        context = new QObject;
        context->moveToThread(&thread);
        QMetaObject::invokeMethod(
            context,
            [this] {
                Bridge::HostOptions options;
                options.server.socketPath = bridgePath;
                options.workspaceRoot = workspace;
                options.backendFactory = [] {
                    return std::make_unique<Automation::UnavailableBackend>(QStringLiteral("benchmark"));
                };
                options.probeFactory = [] { return std::make_unique<StaticProbe>(); };
                host = new Bridge::Host(options);
                QString error;
                if (!host->start(&error))
                    std::fprintf(stderr, "bridge did not start: %s\n", qPrintable(error));
                echo = new EchoServer(echoPath);
            },
            Qt::BlockingQueuedConnection);
    }
    ~Servers()
    {
        QMetaObject::invokeMethod(
            context,
            [this] {
                delete echo;
                host->shutdown();
                delete host;
                delete context;
            },
            Qt::BlockingQueuedConnection);
        thread.quit();
        thread.wait();
    }
};

Servers* g_servers = nullptr;

// A plain POSIX client: the same cost on both sides of the comparison. Not Bridge::Client, whose
// JSON decoding and id matching would be paid for the bridge's answers and not for the echo's
// (the echo sends back the request itself, which answers no id). The framing and the request
// lines are the shared ones (LineFramer, JsonRpc::request, buildMeta).
class RawClient
{
public:
    explicit RawClient(const QString& path)
    {
        m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        const QByteArray p = path.toUtf8();
        std::memcpy(addr.sun_path, p.constData(), std::min<size_t>(p.size(), sizeof addr.sun_path - 1));
        if (::connect(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ~RawClient()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    bool ok() const { return m_fd >= 0; }

    // One request line out, one answer line back.
    bool roundTrip(const QByteArray& line)
    {
        if (::write(m_fd, line.constData(), line.size()) != line.size())
            return false;
        while (true) {
            if (const auto item = m_framer.next())
                return item->kind == Bridge::LineFramer::Item::Kind::Line;
            char chunk[65536];
            const ssize_t n = ::read(m_fd, chunk, sizeof chunk);
            if (n <= 0)
                return false;
            m_framer.append(chunk, n);
        }
    }

private:
    int m_fd = -1;
    Bridge::LineFramer m_framer;
};

QByteArray healthLine(const QString& workspace)
{
    const QJsonObject params = Bridge::fillMeta({}, {.workspacePath = workspace, .timeoutMs = 60000, .requestId = {}});
    return Bridge::JsonRpc::encodeLine(Bridge::JsonRpc::request(QStringLiteral("desktop.health"), params, 1));
}

struct Figures
{
    std::vector<double> rttUs;
    double seconds = 0;
    qint64 requests = 0;
};
std::mutex g_mutex;
std::map<std::string, Figures> g_figures;

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[static_cast<size_t>(p * (values.size() - 1))];
}

void run(benchmark::State& state, bool bridge, const std::string& name)
{
    RawClient client(bridge ? g_servers->bridgePath : g_servers->echoPath);
    if (!client.ok()) {
        state.SkipWithError("cannot connect");
        return;
    }
    // Fresh request ids (the bridge refuses replays), prepared outside the timed loop.
    std::vector<QByteArray> lines;
    lines.reserve(static_cast<size_t>(state.max_iterations));
    for (benchmark::IterationCount i = 0; i < state.max_iterations; ++i)
        lines.push_back(healthLine(g_servers->workspace));
    std::vector<double> rtt;
    rtt.reserve(lines.size());
    size_t next = 0;
    const auto began = std::chrono::steady_clock::now();
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        if (!client.roundTrip(lines[next++])) {
            state.SkipWithError("round trip failed");
            break;
        }
        rtt.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    state.SetItemsProcessed(state.iterations());
    state.counters["p50_us"] = benchmark::Counter(percentile(rtt, 0.5), benchmark::Counter::kAvgThreads);
    state.counters["p99_us"] = benchmark::Counter(percentile(rtt, 0.99), benchmark::Counter::kAvgThreads);
    std::lock_guard lock(g_mutex);
    auto& figures = g_figures[name];
    figures.rttUs.insert(figures.rttUs.end(), rtt.begin(), rtt.end());
    figures.seconds = std::max(figures.seconds, seconds);
    figures.requests += static_cast<qint64>(rtt.size());
}

} // namespace

int main(int argc, char** argv)
{
    QLoggingCategory::setFilterRules(QStringLiteral("msgcode.*.debug=false\nmsgcode.*.info=false"));
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    Servers servers;
    g_servers = &servers;

    constexpr int kSequential = 20000;
    constexpr int kPerThread = 10000;
    benchmark::RegisterBenchmark("echo/1-client", [](benchmark::State& s) { run(s, false, "echo/1"); })
        ->Iterations(kSequential)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("health/1-client", [](benchmark::State& s) { run(s, true, "health/1"); })
        ->Iterations(kSequential)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("echo/8-clients", [](benchmark::State& s) { run(s, false, "echo/8"); })
        ->Iterations(kPerThread)
        ->Threads(8)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("health/8-clients", [](benchmark::State& s) { run(s, true, "health/8"); })
        ->Iterations(kPerThread)
        ->Threads(8)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();

    std::printf("\n%-18s %10s %10s %12s\n", "scenario", "p50 us", "p99 us", "requests/s");
    std::map<std::string, double> p50, rps;
    for (const auto& [name, f] : g_figures) {
        p50[name] = percentile(f.rttUs, 0.5);
        rps[name] = f.seconds > 0 ? f.requests / f.seconds : 0;
        std::printf("%-18s %10.1f %10.1f %12.0f\n", name.c_str(), p50[name], percentile(f.rttUs, 0.99), rps[name]);
    }
    if (p50["echo/1"] > 0 && p50["echo/8"] > 0) {
        std::printf("\nbaseline: raw QLocalSocket echo server, same framing, same thread model, same run\n");
        std::printf("health/1 p50 vs echo/1 p50: %.2fx (target <= 2x)\n", p50["health/1"] / p50["echo/1"]);
        std::printf("health/8 p50 vs echo/8 p50: %.2fx\n", p50["health/8"] / p50["echo/8"]);
        std::printf("health/8 throughput: %.0f requests/s (target >= 20000), %.2fx of echo/8\n", rps["health/8"],
                    rps["health/8"] / rps["echo/8"]);
    }
    return 0;
}
