// The remote agent end to end (docs/remote.md): the real host, started headless with a control
// server on its command line, the headless desktop's gnome-keyring holding the device token, the
// Qt fixture app as the target. The control server is the test's own (ControlServer): bind →
// token in the keyring → server restart → reconnect with the token → tools/list checked as JSON
// Schema by Ajv → tools/call with the effects read from the app → desktop.stop aborting a remote
// call → desktopctl remote status and forget.
#include "ControlServer.h"
#include "E2eSupport.h"

#include <QDeadlineTimer>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryFile>
#include <QThread>
#include <QUuid>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

const QString kKeyringService = QStringLiteral("msgcode-desktop-host");

// What the keyring holds for `key` (QtKeychain's libsecret entries: user = key, server =
// service), read with secret-tool as a person would; empty when nothing.
QString keyringLookup(const QString& key)
{
    QProcess tool;
    tool.start(QStringLiteral("secret-tool"),
               {QStringLiteral("lookup"), QStringLiteral("user"), key, QStringLiteral("server"), kKeyringService});
    if (!tool.waitForFinished(10000))
        return {};
    return QString::fromUtf8(tool.readAllStandardOutput()).trimmed();
}

void keyringClear(const QString& key)
{
    QProcess tool;
    tool.start(QStringLiteral("secret-tool"),
               {QStringLiteral("clear"), QStringLiteral("user"), key, QStringLiteral("server"), kKeyringService});
    tool.waitForFinished(10000);
}

QJsonObject toolCall(ControlServer& server, const QString& name, const QJsonObject& arguments, int timeoutMs = 40000)
{
    return server.call(QStringLiteral("tools/call"),
                       QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}},
                       timeoutMs);
}

struct Ctl
{
    int exitCode = -1;
    QString out;
};

Ctl desktopctl(const QString& socket, const QStringList& args)
{
    QProcess child;
    child.start(QStringLiteral(MDH_CTL_BINARY), QStringList{QStringLiteral("--socket"), socket} + args);
    Ctl run;
    if (!child.waitForFinished(20000)) {
        child.kill();
        return run;
    }
    run.exitCode = child.exitCode();
    run.out = QString::fromUtf8(child.readAllStandardOutput());
    return run;
}

bool fileHolds(const QString& dir, const QByteArray& needle)
{
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            return true;
    }
    return false;
}

class RemoteAgentDesktop : public ::testing::Test
{
protected:
    void SetUp() override
    {
        QString why;
        if (!DesktopSession::available(&why))
            GTEST_SKIP() << why.toStdString();
    }
};

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace

TEST_F(RemoteAgentDesktop, BindsKeepsTheTokenInTheKeyringAndDrivesTheFixture)
{
    ControlServer server;
    ASSERT_TRUE(server.isListening());
    const QString key = QStringLiteral("remote-device-token/tcp/127.0.0.1:%1").arg(server.port());
    keyringClear(key);
    const QString token = QStringLiteral("e2e-token-") + QUuid::createUuid().toString(QUuid::WithoutBraces);

    DesktopSession session;
    session.setHostArguments(
        {QStringLiteral("--remote-host"), QStringLiteral("127.0.0.1"), QStringLiteral("--remote-port"),
         QString::number(server.port()), QStringLiteral("--remote-bind-code"), QStringLiteral("ABC123"),
         QStringLiteral("--remote-confirm-policy"), QStringLiteral("auto"), QStringLiteral("--remote-retry-delay-ms"),
         QStringLiteral("200"), QStringLiteral("--remote-device-name"), QStringLiteral("e2e-desktop")});
    ASSERT_TRUE(session.start());
    const QString socket = session.host().socketPath();

    // First registration: the bind code, the whole deviceInfo.
    ASSERT_TRUE(server.accept(20000));
    const auto bind = server.read();
    ASSERT_TRUE(bind);
    const QJsonObject bindParams = bind->value(QStringLiteral("params")).toObject();
    EXPECT_EQ(bindParams.value(QStringLiteral("bindCode")).toString(), QStringLiteral("ABC123"));
    const QJsonObject info = bindParams.value(QStringLiteral("deviceInfo")).toObject();
    EXPECT_EQ(info.value(QStringLiteral("name")).toString(), QStringLiteral("e2e-desktop"));
    EXPECT_EQ(info.value(QStringLiteral("os")).toString(), QStringLiteral("Linux"));
    EXPECT_TRUE(info.value(QStringLiteral("screenResolution")).toString().contains(QLatin1Char('x'))) << dump(info);
    server.answerAuth(*bind, token);

    // The token is in the desktop's keyring, and in none of the host's files.
    QDeadlineTimer stored(10000);
    while (keyringLookup(key) != token && !stored.hasExpired())
        QThread::msleep(100);
    EXPECT_EQ(keyringLookup(key), token);
    EXPECT_FALSE(fileHolds(session.host().dataDir(), token.toUtf8()));
    EXPECT_FALSE(fileHolds(session.host().workspaceRoot(), token.toUtf8()));

    // The server restarts: the host comes back with the token.
    server.stop();
    ASSERT_TRUE(server.restart());
    ASSERT_TRUE(server.accept(20000));
    const auto again = server.read();
    ASSERT_TRUE(again);
    EXPECT_EQ(again->value(QStringLiteral("params")).toObject().value(QStringLiteral("deviceToken")).toString(), token);
    EXPECT_FALSE(again->value(QStringLiteral("params")).toObject().contains(QStringLiteral("bindCode")));
    server.answerAuth(*again);

    // tools/list, each inputSchema compiled by Ajv (JSON Schema 2020-12, strict).
    const QJsonArray tools = server.call(QStringLiteral("tools/list"), {})
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("tools"))
                                 .toArray();
    ASSERT_FALSE(tools.isEmpty());
    QTemporaryFile listFile;
    ASSERT_TRUE(listFile.open());
    listFile.write(QJsonDocument(tools).toJson());
    listFile.flush();
    QProcess ajv;
    ajv.start(QStringLiteral("node"), {QStringLiteral(MDH_SCHEMA_CHECK), listFile.fileName()});
    ASSERT_TRUE(ajv.waitForFinished(30000));
    EXPECT_EQ(ajv.exitCode(), 0) << ajv.readAllStandardError().toStdString()
                                 << ajv.readAllStandardOutput().toStdString();

    // tools/call, the effects read back from the app.
    AppProcess app(DesktopSession::fixtureBinary(), {});
    ASSERT_TRUE(app.start());
    const QString appName = QStringLiteral("mdh-target-app");
    const QJsonObject clicked =
        toolCall(server, QStringLiteral("click"),
                 QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")}, {QStringLiteral("app"), appName}});
    EXPECT_FALSE(toolIsError(clicked)) << dump(clicked);
    EXPECT_TRUE(
        app.waitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), QStringLiteral("Send")}}).has_value());

    const QJsonObject typed = toolCall(server, QStringLiteral("type"),
                                       QJsonObject{{QStringLiteral("text"), QStringLiteral("from afar")},
                                                   {QStringLiteral("target"), QStringLiteral("Message")},
                                                   {QStringLiteral("clear"), true},
                                                   {QStringLiteral("app"), appName}});
    EXPECT_FALSE(toolIsError(typed)) << dump(typed);
    const auto changed =
        app.waitEvent(QStringLiteral("textChanged"), {{QStringLiteral("name"), QStringLiteral("Message")},
                                                      {QStringLiteral("text"), QStringLiteral("from afar")}});
    EXPECT_TRUE(changed.has_value());

    const QJsonObject seen =
        toolCall(server, QStringLiteral("see"), QJsonObject{{QStringLiteral("app_target"), appName}});
    EXPECT_FALSE(toolIsError(seen)) << dump(seen);
    const QJsonArray content =
        seen.value(QStringLiteral("result")).toObject().value(QStringLiteral("content")).toArray();
    ASSERT_EQ(content.size(), 2);
    EXPECT_TRUE(QByteArray::fromBase64(content.at(1).toObject().value(QStringLiteral("data")).toString().toLatin1())
                    .startsWith("\x89PNG"));
    EXPECT_TRUE(toolText(seen).contains(session.host().workspaceRoot() + QStringLiteral("/remote")))
        << "evidence goes to the remote workspace: " << toolText(seen).toStdString();

    // A tool that ran and failed: the facts, isError.
    const QJsonObject missing = toolCall(
        server, QStringLiteral("click"),
        QJsonObject{{QStringLiteral("query"), QStringLiteral("No such button")}, {QStringLiteral("app"), appName}});
    EXPECT_TRUE(toolIsError(missing));
    EXPECT_TRUE(toolText(missing).contains(QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"))) << dump(missing);

    // Status through desktopctl.
    const Ctl status =
        desktopctl(socket, {QStringLiteral("--json"), QStringLiteral("remote"), QStringLiteral("status")});
    EXPECT_EQ(status.exitCode, 0);
    const QJsonObject statusResult =
        QJsonDocument::fromJson(status.out.toUtf8()).object().value(QStringLiteral("result")).toObject();
    EXPECT_EQ(statusResult.value(QStringLiteral("state")).toString(), QStringLiteral("connected"))
        << status.out.toStdString();
    EXPECT_FALSE(status.out.contains(token));

    // desktop.stop aborts the running remote call.
    server.send(QJsonObject{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("method"), QStringLiteral("tools/call")},
        {QStringLiteral("params"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("wait")},
                     {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Never shown")},
                                                               {QStringLiteral("app"), appName},
                                                               {QStringLiteral("timeout_ms"), 30000}}}}},
        {QStringLiteral("id"), 777}});
    QDeadlineTimer running(15000);
    while (!running.hasExpired()) {
        const QJsonObject health = session.call(QStringLiteral("desktop.health"), {});
        if (health.value(QStringLiteral("result"))
                .toObject()
                .value(QStringLiteral("bridge"))
                .toObject()
                .value(QStringLiteral("running"))
                .toBool())
            break;
        QThread::msleep(50);
    }
    const Ctl stop = desktopctl(socket, {QStringLiteral("stop")});
    EXPECT_EQ(stop.exitCode, 0) << stop.out.toStdString();
    const auto aborted = server.read(20000);
    ASSERT_TRUE(aborted);
    EXPECT_EQ(aborted->value(QStringLiteral("id")), QJsonValue(777));
    EXPECT_TRUE(toolIsError(*aborted));
    EXPECT_TRUE(toolText(*aborted).contains(QStringLiteral("DESKTOP_ABORTED"))) << dump(*aborted);

    // forget: the token leaves the keyring.
    const Ctl forget = desktopctl(socket, {QStringLiteral("remote"), QStringLiteral("forget")});
    EXPECT_EQ(forget.exitCode, 0) << forget.out.toStdString();
    EXPECT_TRUE(keyringLookup(key).isEmpty());
    EXPECT_TRUE(server.waitClosed());
}
