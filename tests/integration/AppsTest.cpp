// desktop.app over a real socket on the fake backend (docs/protocol.md §5.30): `list` is
// read-only; `launch` starts a real process and waits for its window (shown late, as real
// apps' are); `quit` checks that the process ended; a forced quit is high-risk; the owner's
// rules decide about the app named, never about whatever is in front.
#include "TestHost.h"
#include "automation/platform/ProcessInfo.h"
#include "bridge/protocol/Meta.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <csignal>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

TestHost::Options autoPolicy()
{
    TestHost::Options options;
    options.security.confirmPolicy = Bridge::ConfirmPolicy::Auto;
    return options;
}

QJsonObject app(TestClient& client, const TestHost& host, QJsonObject params, bool phrase = true)
{
    params.insert(
        QStringLiteral("meta"),
        Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = 20000, .requestId = newRequestId()}));
    if (phrase)
        params.insert(QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}});
    return client.call(QStringLiteral("desktop.app"), params, 25000);
}

QJsonObject named(const QString& desktopId)
{
    return QJsonObject{{QStringLiteral("desktopId"), desktopId}};
}

} // namespace

// launch waits for the window of the process it started; list shows it; quit ends it.
TEST(Apps, LaunchWaitsForTheWindowListShowsItQuitEndsTheProcess)
{
    TestHost host(autoPolicy());
    host.desktop().addLaunchable(QStringLiteral("org.example.Notes"), QStringLiteral("Notes"), 300);
    TestClient client(host.socketPath());
    const QJsonObject launched = resultOf(app(client, host,
                                              {{QStringLiteral("action"), QStringLiteral("launch")},
                                               {QStringLiteral("app"), named(QStringLiteral("org.example.Notes"))}}));
    const qint64 pid = launched.value(QStringLiteral("pid")).toInteger();
    ASSERT_GT(pid, 0) << dump(launched);
    EXPECT_EQ(launched.value(QStringLiteral("window")).toObject().value(QStringLiteral("title")).toString(),
              QStringLiteral("Notes"));
    EXPECT_FALSE(launched.value(QStringLiteral("reusedInstance")).toBool());
    EXPECT_EQ(launched.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"));
    EXPECT_TRUE(Automation::Platform::processAlive(pid));

    const QJsonObject listed = resultOf(app(client, host, {{QStringLiteral("action"), QStringLiteral("list")}}, false));
    QList<qint64> pids;
    for (const QJsonValue& a : listed.value(QStringLiteral("apps")).toArray())
        pids.append(a.toObject().value(QStringLiteral("pid")).toInteger());
    EXPECT_TRUE(pids.contains(pid)) << dump(listed);
    EXPECT_TRUE(pids.contains(4242));

    const QJsonObject quit = resultOf(app(client, host,
                                          {{QStringLiteral("action"), QStringLiteral("quit")},
                                           {QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), pid}}}}));
    EXPECT_TRUE(quit.value(QStringLiteral("exited")).toBool()) << dump(quit);
    EXPECT_EQ(quit.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"));
    EXPECT_FALSE(Automation::Platform::processAlive(pid));
}

// Launch, quit and relaunch need a confirmation; list does not. An app nothing starts is a clear
// error, and a quit of an app that does not run says so.
TEST(Apps, SideEffectsNeedAConfirmationAndBadTargetsSaySo)
{
    TestHost host(autoPolicy());
    TestClient client(host.socketPath());
    const QJsonObject unconfirmed = app(client, host,
                                        {{QStringLiteral("action"), QStringLiteral("launch")},
                                         {QStringLiteral("app"), named(QStringLiteral("org.example.Notes"))}},
                                        false);
    EXPECT_EQ(errorCode(unconfirmed), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(unconfirmed);
    const QJsonObject unknown = app(client, host,
                                    {{QStringLiteral("action"), QStringLiteral("launch")},
                                     {QStringLiteral("app"), named(QStringLiteral("org.example.Nothing"))}});
    EXPECT_EQ(errorCode(unknown), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")) << dump(unknown);
    EXPECT_EQ(errorOf(unknown).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("no_desktop_entry"));
    const QJsonObject gone = app(client, host,
                                 {{QStringLiteral("action"), QStringLiteral("quit")},
                                  {QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), 4194000}}}});
    EXPECT_EQ(errorOf(gone).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("app_not_running"))
        << dump(gone);
    const QJsonObject noApp = app(client, host, {{QStringLiteral("action"), QStringLiteral("quit")}});
    EXPECT_EQ(errorCode(noApp), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(noApp);
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
}

// A forced quit is high-risk: with nobody to ask, the built-in rule refuses it and the app runs on.
// The owner's rule for the app class decides about the app named (its desktop id), not the
// frontmost one.
TEST(Apps, AForcedQuitIsHighRiskAndTheRulesSeeTheAppNamed)
{
    TestHost::Options options = autoPolicy();
    auto rules = Bridge::OwnerPolicy::fromJson(QJsonDocument::fromJson(R"({"rules": [
        {"name": "no-launching-notes", "app": {"desktopId": "org.example.Notes"}, "classes": ["app"], "decision": "deny"},
        {"name": "apps-ok", "classes": ["app"], "decision": "allow"}]})")
                                                   .object());
    ASSERT_TRUE(rules.ok());
    options.ownerPolicy = rules.value();
    TestHost host(options);
    host.desktop().addLaunchable(QStringLiteral("org.example.Notes"), QStringLiteral("Notes"));
    host.desktop().addLaunchable(QStringLiteral("org.example.Paint"), QStringLiteral("Paint"));
    TestClient client(host.socketPath());
    const QJsonObject denied = app(client, host,
                                   {{QStringLiteral("action"), QStringLiteral("launch")},
                                    {QStringLiteral("app"), named(QStringLiteral("org.example.Notes"))}});
    EXPECT_EQ(errorOf(denied).value(QStringLiteral("details")).toObject().value(QStringLiteral("rule")).toString(),
              QStringLiteral("no-launching-notes"))
        << dump(denied);
    const QJsonObject paint = resultOf(app(client, host,
                                           {{QStringLiteral("action"), QStringLiteral("launch")},
                                            {QStringLiteral("app"), named(QStringLiteral("org.example.Paint"))}}));
    const qint64 pid = paint.value(QStringLiteral("pid")).toInteger();
    ASSERT_GT(pid, 0) << dump(paint);
    // Under the built-in rules alone, a forced quit is high-risk and nobody can be asked.
    host.onHostThread([](Bridge::Host& h) { h.setOwnerPolicy(Bridge::OwnerPolicy()); });
    const QJsonObject forced = app(client, host,
                                   {{QStringLiteral("action"), QStringLiteral("quit")},
                                    {QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), pid}}},
                                    {QStringLiteral("force"), true}});
    const QJsonObject details = errorOf(forced).value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("needs_person")) << dump(forced);
    EXPECT_EQ(details.value(QStringLiteral("rule")).toString(), QStringLiteral("default:high-risk"));
    EXPECT_EQ(details.value(QStringLiteral("risk")).toString(), QStringLiteral("high"));
    EXPECT_TRUE(Automation::Platform::processAlive(pid));
    ::kill(static_cast<pid_t>(pid), SIGKILL);
}
