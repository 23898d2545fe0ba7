// Bench.Events: the event stream's latency, from the moment the host publishes an event to the
// moment each subscriber has read its notification line off the socket, for 1 and for 20
// subscribers (median and p99 over 300 events), against a named baseline measured in the same
// run: a desktop.health request's round trip on one connection of the same host. A host with the
// fake backend, in process; subscribers are Bridge::Client connections on their own threads.
// Window events add the window manager's poll (once a second) before the publish: that part is
// the poll's, not the stream's, and is not in these figures. Asserts nothing about time.
#include "FakeBackend.h"
#include "bridge/EventHub.h"
#include "bridge/Host.h"
#include "bridge/protocol/Client.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto last = static_cast<double>(values.size() - 1);
    const auto at = static_cast<qsizetype>(std::min(last, p * last + 0.5));
    return values.at(at);
}

struct Subscriber
{
    std::thread thread;
    QMutex mutex;
    QHash<qint64, Clock::time_point> seen; ///< cursor -> when its line was read
    std::atomic<bool> ready{false};
};

void spinUntil(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    QDir(dir.path()).mkpath(QStringLiteral("root/ws"));
    Bridge::HostOptions options;
    options.server.socketPath = dir.path() + QStringLiteral("/bridge.sock");
    options.workspaceRoot = dir.path() + QStringLiteral("/root");
    options.backendFactory = [desktop = std::make_shared<Testing::FakeDesktop>()] {
        return std::make_unique<Testing::FakeBackend>(desktop);
    };
    options.security.confirmPolicy = Bridge::ConfirmPolicy::Auto;
    options.security.dataDir = dir.path() + QStringLiteral("/data");
    Bridge::Host host(options);
    QString error;
    if (!host.start(&error)) {
        std::printf("the host did not start: %s\n", qPrintable(error));
        return 1;
    }
    const QString socket = host.server().socketPath();
    constexpr int kEvents = 300;

    // Baseline: health round trips on one connection.
    QList<double> roundTrips;
    {
        std::atomic<bool> done{false};
        std::thread client([&] {
            Bridge::Client c;
            if (!c.connectToServer(socket, 5000)) {
                done = true;
                return;
            }
            Bridge::MetaFill fill;
            fill.workspacePath = dir.path() + QStringLiteral("/root/ws");
            c.setMetaFill(fill);
            QList<double> local;
            for (int i = 0; i < kEvents; ++i) {
                const auto t0 = Clock::now();
                if (!c.call(QStringLiteral("desktop.health"), QJsonObject{}, 5000).ok())
                    break;
                local.append(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            }
            roundTrips = local;
            done = true;
        });
        spinUntil([&] { return done.load(); }, 120000);
        client.join();
    }
    if (roundTrips.size() != kEvents) {
        std::printf("the baseline's health requests failed\n");
        return 1;
    }

    std::printf("Bench.Events: publish -> notification read by every subscriber, %d events each\n\n", kEvents);
    std::printf("| subscribers | median ms | p99 ms | baseline: health round trip median ms | ratio (median) |\n");
    std::printf("|---|---|---|---|---|\n");
    const double baseline = percentile(roundTrips, 0.5);
    for (const int count : {1, 20}) {
        std::atomic<bool> stop{false};
        std::vector<std::unique_ptr<Subscriber>> subscribers;
        for (int s = 0; s < count; ++s) {
            auto sub = std::make_unique<Subscriber>();
            Subscriber* raw = sub.get();
            sub->thread = std::thread([raw, socket, &stop] {
                Bridge::Client c;
                if (!c.connectToServer(socket, 5000))
                    return;
                Bridge::MetaFill fill;
                fill.timeoutMs = 10000;
                c.setMetaFill(fill);
                const auto answer =
                    c.call(QStringLiteral("desktop.subscribe"),
                           QJsonObject{{QStringLiteral("kinds"), QJsonArray{QStringLiteral("stopped")}}}, 10000);
                if (!answer.ok())
                    return;
                raw->ready = true;
                while (!stop.load()) {
                    const auto line = c.readUnmatched(100);
                    if (!line)
                        continue;
                    const auto at = Clock::now();
                    const qint64 cursor = QJsonDocument::fromJson(*line)
                                              .object()
                                              .value(QStringLiteral("params"))
                                              .toObject()
                                              .value(QStringLiteral("cursor"))
                                              .toInteger();
                    QMutexLocker lock(&raw->mutex);
                    raw->seen.insert(cursor, at);
                }
            });
            subscribers.push_back(std::move(sub));
        }
        spinUntil(
            [&] {
                return std::all_of(subscribers.begin(), subscribers.end(),
                                   [](const auto& s) { return s->ready.load(); });
            },
            20000);
        QList<double> latencies;
        int missing = 0;
        for (int i = 0; i < kEvents; ++i) {
            const auto t0 = Clock::now();
            host.events().publish(QStringLiteral("stopped"));
            const qint64 cursor = host.events().cursor();
            const auto allSeen = [&] {
                return std::all_of(subscribers.begin(), subscribers.end(), [&](const auto& s) {
                    QMutexLocker lock(&s->mutex);
                    return s->seen.contains(cursor);
                });
            };
            spinUntil(allSeen, 5000);
            for (const auto& s : subscribers) {
                QMutexLocker lock(&s->mutex);
                if (s->seen.contains(cursor))
                    latencies.append(std::chrono::duration<double, std::milli>(s->seen.value(cursor) - t0).count());
                else
                    ++missing;
            }
        }
        stop = true;
        for (auto& s : subscribers)
            s->thread.join();
        if (missing > 0) {
            std::printf("%d notifications never arrived with %d subscriber(s)\n", missing, count);
            return 1;
        }
        const double median = percentile(latencies, 0.5);
        std::printf("| %d | %.3f | %.3f | %.3f | %.2f |\n", count, median, percentile(latencies, 0.99), baseline,
                    baseline > 0 ? median / baseline : 0.0);
    }
    return 0;
}
