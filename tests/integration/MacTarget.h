// The macOS backend with FakeAxApi's conformance app behind a real bridge host, for the tests
// of the macOS backend's logic on Linux (MacBackendBridgeTest.cpp, MacFakeBehaviourTest.cpp).
#pragma once

#include "BackendConformance.h"
#include "FakeAxApi.h"
#include "TestHost.h"
#include "automation/backends/macos/MacBackend.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include <functional>

namespace MacTesting {

using namespace Testing;

constexpr qint64 kPid = 4242;

inline std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

/// Waits up to 2 s for `done`.
template <typename F> bool eventually(F done)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > 2000)
            return false;
        QThread::msleep(10);
    }
    return true;
}

inline TestHost::Options macHost(const std::shared_ptr<FakeAxWorld>& world)
{
    TestHost::Options options;
    options.backendFactory = [world] {
        return std::make_unique<Automation::Mac::MacBackend>(std::make_unique<FakeAxApi>(world));
    };
    options.probeFactory = [world] {
        return std::make_unique<Automation::Mac::MacPermissionProbe>(std::make_unique<FakeAxApi>(world));
    };
    return options;
}

/// The macOS backend with FakeAxApi's conformance app, behind a real bridge host.
class MacTarget final : public Conformance::Target
{
public:
    /// `behaviour` sets up the world (a behaviour of a real Mac: FakeAxWorld's setters) before
    /// the app is added and the host starts.
    explicit MacTarget(const std::function<void(FakeAxWorld&)>& behaviour = {}) : world(std::make_shared<FakeAxWorld>())
    {
        if (behaviour)
            behaviour(*world);
        window = addConformanceApp(*world, kPid);
        host = std::make_unique<TestHost>(macHost(world));
        client = std::make_unique<TestClient>(host->socketPath());
    }

    QJsonObject call(const QString& method, QJsonObject params) override
    {
        if (!params.contains(QStringLiteral("route")))
            params.insert(QStringLiteral("route"),
                          QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), kPid}}}});
        return client->call(method, TestClient::withMeta(params, host->workspace(), 20000), 25000);
    }
    bool appSawPressed(const QString& button) override
    {
        const QString key = world->find(QStringLiteral("AXButton"), button) + QStringLiteral(":AXPress");
        return eventually([&] { return world->actionLog().mid(m_seenActions).contains(key); });
    }
    std::optional<QString> appFieldText(const QString& field, const QString& expected) override
    {
        const QString key = world->find(QStringLiteral("AXTextField"), field);
        if (key.isEmpty())
            return std::nullopt;
        eventually([&] { return world->text(key) == expected; });
        return world->text(key);
    }
    std::optional<int> appSecretLength(const QString& field, int expected) override
    {
        const QString key = world->find(QStringLiteral("AXTextField"), field);
        if (key.isEmpty())
            return std::nullopt;
        eventually([&] { return world->text(key).size() == expected; });
        return static_cast<int>(world->text(key).size());
    }
    bool appSawChecked(const QString& box, bool checked) override
    {
        const QString key = world->find(QStringLiteral("AXCheckBox"), box);
        return eventually([&] {
            return (world->attribute(key, QStringLiteral("AXValue")).value_or(Automation::Mac::AxValue()).number !=
                    0) == checked;
        });
    }
    void forgetReports() override { m_seenActions = static_cast<int>(world->actionLog().size()); }

    std::shared_ptr<FakeAxWorld> world;
    QString window;
    std::unique_ptr<TestHost> host;
    std::unique_ptr<TestClient> client;

private:
    int m_seenActions = 0;
};

inline QJsonObject selector(const QString& role, const QString& title)
{
    return QJsonObject{{QStringLiteral("byRole"), role}, {QStringLiteral("titleEquals"), title}};
}

inline QJsonObject confirm()
{
    return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
}

} // namespace MacTesting
