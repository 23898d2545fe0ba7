// msgcode's runner before March 2026 (src/runners/desktop.ts there): it spawned
// `msgcode-desktopctl rpc <workspace> --method M --params-json J` in the workspace, found the host
// through the standard socket (here MSGCODE_DESKTOP_SOCKET), and read the JSON-RPC answer from
// stdout: result.evidence.dir, and evidence.envPath. Its sequence, unchanged, against the Qt
// fixture app; the click is checked in the app.
#include "E2eSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QUuid>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

struct RunnerResult
{
    int exitCode = -1;
    QJsonObject response;
    QString err;
};

/// One runDesktopTool call as msgcode makes it.
RunnerResult runDesktopTool(const QString& socket, const QString& workspace, const QString& method, QJsonObject params)
{
    // msgcode filled meta itself (schemaVersion 1, a fresh requestId, the workspace, timeoutMs).
    params.insert(QStringLiteral("meta"),
                  QJsonObject{{QStringLiteral("schemaVersion"), 1},
                              {QStringLiteral("requestId"), QUuid::createUuid().toString(QUuid::WithoutBraces)},
                              {QStringLiteral("workspacePath"), workspace},
                              {QStringLiteral("timeoutMs"), 20000}});
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("MSGCODE_DESKTOP_SOCKET"), socket);
    env.insert(QStringLiteral("PWD"), workspace);
    child.setProcessEnvironment(env);
    child.setWorkingDirectory(workspace);
    child.start(QStringLiteral(MDH_CTL_BINARY),
                {QStringLiteral("rpc"), workspace, QStringLiteral("--method"), method, QStringLiteral("--params-json"),
                 QString::fromUtf8(QJsonDocument(params).toJson(QJsonDocument::Compact))});
    RunnerResult run;
    if (!child.waitForFinished(40000)) {
        child.kill();
        child.waitForFinished(3000);
        return run;
    }
    run.exitCode = child.exitCode();
    run.response = QJsonDocument::fromJson(child.readAllStandardOutput().trimmed()).object();
    run.err = QString::fromUtf8(child.readAllStandardError());
    return run;
}

class LegacyRunner : public SessionSuite
{
};

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace

TEST_F(LegacyRunner, DrivesTheFixtureThroughRpcUnchanged)
{
    AppProcess app(DesktopSession::fixtureBinary(), {});
    ASSERT_TRUE(app.start());
    const QString socket = session().host().socketPath();
    const QString workspace = session().workspace();
    const QJsonObject route{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), app.pid()}}}};
    const QJsonObject send{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                           {QStringLiteral("titleContains"), QStringLiteral("Send")}};

    const RunnerResult health = runDesktopTool(socket, workspace, QStringLiteral("desktop.health"), {});
    EXPECT_EQ(health.exitCode, 0) << health.err.toStdString();
    EXPECT_TRUE(health.response.value(QStringLiteral("result")).toObject().contains(QStringLiteral("hostVersion")))
        << dump(health.response);

    for (const auto& [method, params] :
         {std::pair{QStringLiteral("desktop.observe"), QJsonObject{{QStringLiteral("route"), route}}},
          std::pair{QStringLiteral("desktop.find"),
                    QJsonObject{{QStringLiteral("route"), route}, {QStringLiteral("selector"), send}}}}) {
        const RunnerResult run = runDesktopTool(socket, workspace, method, params);
        EXPECT_EQ(run.exitCode, 0) << method.toStdString() << run.err.toStdString();
        // What the runner made its artifacts of: the evidence directory and env.json in it.
        const QJsonObject evidence =
            run.response.value(QStringLiteral("result")).toObject().value(QStringLiteral("evidence")).toObject();
        const QString dir = evidence.value(QStringLiteral("dir")).toString();
        EXPECT_TRUE(dir.startsWith(workspace)) << dump(run.response);
        EXPECT_TRUE(QFile::exists(dir + QLatin1Char('/') + evidence.value(QStringLiteral("envPath")).toString()))
            << dump(run.response);
    }

    const RunnerResult clicked = runDesktopTool(
        socket, workspace, QStringLiteral("desktop.click"),
        QJsonObject{{QStringLiteral("route"), route},
                    {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), send}}},
                    {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}}});
    EXPECT_EQ(clicked.exitCode, 0) << dump(clicked.response);
    EXPECT_TRUE(clicked.response.value(QStringLiteral("result")).toObject().value(QStringLiteral("clicked")).toBool());
    EXPECT_TRUE(
        app.waitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), QStringLiteral("Send")}}).has_value());

    // An error answer: exit code 2, the answer still on stdout.
    const RunnerResult missing = runDesktopTool(
        socket, workspace, QStringLiteral("desktop.click"),
        QJsonObject{{QStringLiteral("route"), route},
                    {QStringLiteral("target"),
                     QJsonObject{{QStringLiteral("selector"),
                                  QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                              {QStringLiteral("titleContains"), QStringLiteral("Nowhere")}}}}},
                    {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}}});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_EQ(missing.response.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"))
        << dump(missing.response);
}
