// msgcode's original desktopctl commands, `rpc` and `session`, run as msgcode ran them against a
// real bridge host (fake backend): their output, their exit codes (0, 2, 10), the meta they
// fill in, the evidence they point at, a host that goes away mid-session and the idle exit.
#include "HostProcess.h"
#include "TestHost.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QUuid>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

CommandResult rpc(const QString& socket, const QString& workspace, const QString& method, const QString& params)
{
    return runCommand(QStringLiteral(MDH_CTL_BINARY),
                      {QStringLiteral("--socket"), socket, QStringLiteral("rpc"), workspace, QStringLiteral("--method"),
                       method, QStringLiteral("--params-json"), params});
}

QJsonObject json(const QString& text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

/// A `session` process with its stdin and stdout.
class Session
{
public:
    Session(const QString& socket, const QString& workspace, int idleMs)
    {
        m_process.start(QStringLiteral(MDH_CTL_BINARY),
                        {QStringLiteral("--socket"), socket, QStringLiteral("session"), workspace,
                         QStringLiteral("--idle-ms"), QString::number(idleMs)});
        m_started = m_process.waitForStarted(5000);
    }
    ~Session()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(3000);
        }
    }
    bool started() const { return m_started; }
    void send(const QJsonObject& line) { m_process.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n'); }
    void sendRaw(const QByteArray& bytes) { m_process.write(bytes); }
    /// The next envelope line, or {} after `ms`.
    QJsonObject next(int ms = 15000)
    {
        QElapsedTimer timer;
        timer.start();
        while (!m_process.canReadLine() && timer.elapsed() < ms)
            m_process.waitForReadyRead(100);
        if (!m_process.canReadLine())
            return {};
        return QJsonDocument::fromJson(m_process.readLine()).object();
    }
    QProcess& process() { return m_process; }

private:
    QProcess m_process;
    bool m_started = false;
};

QJsonObject line(const QString& id, const QString& method, const QJsonObject& params, const QString& workspace)
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("workspacePath"), workspace},
                       {QStringLiteral("method"), method},
                       {QStringLiteral("params"), params},
                       {QStringLiteral("timeoutMs"), 10000}};
}

QJsonObject sendSelector()
{
    return QJsonObject{
        {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                 {QStringLiteral("titleContains"), QStringLiteral("Send")}}}};
}

/// Ids as msgcode's runner makes them (randomUUID): the line's id is also meta.requestId.
QString uuid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

} // namespace

// One request per process: the answer on stdout, 0 for a result, 2 for an error answer, meta
// filled in with the command line's workspace (it wins over one inside meta), and the evidence
// object naming env.json.
TEST(LegacyRpc, AnswersOnStdoutWithTheOriginalsExitCodes)
{
    TestHost host;
    QDir(host.root()).mkpath(QStringLiteral("other"));
    const QString elsewhere = host.root() + QStringLiteral("/other");
    const CommandResult found =
        rpc(host.socketPath(), host.workspace(), QStringLiteral("desktop.find"),
            QString::fromUtf8(
                QJsonDocument(
                    QJsonObject{{QStringLiteral("selector"), sendSelector().value(QStringLiteral("selector"))},
                                {QStringLiteral("meta"), QJsonObject{{QStringLiteral("workspacePath"), elsewhere}}}})
                    .toJson(QJsonDocument::Compact)));
    EXPECT_EQ(found.exitCode, 0) << found.err.toStdString();
    const QJsonObject response = json(found.out);
    const QJsonObject result = response.value(QStringLiteral("result")).toObject();
    EXPECT_EQ(result.value(QStringLiteral("matched")).toInt(), 1) << dump(response);
    const QJsonObject evidence = result.value(QStringLiteral("evidence")).toObject();
    EXPECT_EQ(evidence.value(QStringLiteral("envPath")).toString(), QStringLiteral("env.json"));
    const QString dir = evidence.value(QStringLiteral("dir")).toString();
    EXPECT_TRUE(dir.startsWith(host.workspace() + QLatin1Char('/'))) << dir.toStdString();
    EXPECT_TRUE(QFile::exists(dir + QLatin1Char('/') + evidence.value(QStringLiteral("envPath")).toString()));
    const QJsonObject request = QJsonDocument::fromJson([&] {
                                    QFile f(dir + QStringLiteral("/request.json"));
                                    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
                                }())
                                    .object();
    const QJsonObject meta =
        request.value(QStringLiteral("params")).toObject().value(QStringLiteral("meta")).toObject();
    EXPECT_EQ(meta.value(QStringLiteral("schemaVersion")).toInt(), 1) << dump(request);
    EXPECT_EQ(meta.value(QStringLiteral("timeoutMs")).toInt(), 10000) << dump(request);
    EXPECT_EQ(meta.value(QStringLiteral("workspacePath")).toString(), host.workspace()) << dump(request);

    // A side effect without confirmation: an error answer, exit code 2, the answer on stdout.
    const CommandResult refused =
        rpc(host.socketPath(), host.workspace(), QStringLiteral("desktop.click"),
            QStringLiteral(R"({"target":{"selector":{"byRole":"AXButton","titleContains":"Send"}}})"));
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_EQ(json(refused.out).value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("DESKTOP_CONFIRM_REQUIRED"))
        << refused.out.toStdString();
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    // With the phrase it runs.
    const CommandResult clicked = rpc(
        host.socketPath(), host.workspace(), QStringLiteral("desktop.click"),
        QStringLiteral(
            R"({"target":{"selector":{"byRole":"AXButton","titleContains":"Send"}},"confirm":{"phrase":"CONFIRM"}})"));
    EXPECT_EQ(clicked.exitCode, 0) << clicked.out.toStdString();
    EXPECT_EQ(host.desktop().effects().size(), 1);
}

TEST(LegacyRpc, ExitCodeTenWhenTheHostCannotBeReachedOrTheParamsAreNotJson)
{
    TestHost host;
    const CommandResult nobody = rpc(host.socketPath() + QStringLiteral(".none"), host.workspace(),
                                     QStringLiteral("desktop.health"), QStringLiteral("{}"));
    EXPECT_EQ(nobody.exitCode, 10);
    EXPECT_TRUE(nobody.out.isEmpty());
    EXPECT_TRUE(nobody.err.startsWith(QStringLiteral("Error: "))) << nobody.err.toStdString();
    const CommandResult garbage =
        rpc(host.socketPath(), host.workspace(), QStringLiteral("desktop.health"), QStringLiteral("{not json"));
    EXPECT_EQ(garbage.exitCode, 10);
    EXPECT_TRUE(garbage.err.contains(QStringLiteral("Invalid --params-json"))) << garbage.err.toStdString();
    // The other commands are unchanged.
    const CommandResult health = runCommand(QStringLiteral(MDH_CTL_BINARY),
                                            {QStringLiteral("--socket"), host.socketPath(), QStringLiteral("health")});
    EXPECT_EQ(health.exitCode, 0) << health.err.toStdString();
}

// Several requests on one session, each answered with its envelope; an error answer; a line that
// is not JSON; the idle exit.
TEST(LegacySession, AnswersEachLineAndExitsWhenIdle)
{
    TestHost host;
    Session session(host.socketPath(), host.workspace(), 1500);
    ASSERT_TRUE(session.started());
    const QString r1 = uuid(), r2 = uuid(), r3 = uuid();
    session.send(line(r1, QStringLiteral("desktop.health"), {}, host.workspace()));
    session.send(line(r2, QStringLiteral("desktop.find"), sendSelector(), host.workspace()));
    session.send(line(r3, QStringLiteral("desktop.click"), QJsonObject{{QStringLiteral("target"), sendSelector()}},
                      host.workspace()));
    session.sendRaw("{this is not json\n");
    const QJsonObject first = session.next();
    const QJsonObject second = session.next();
    const QJsonObject third = session.next();
    const QJsonObject fourth = session.next();
    EXPECT_EQ(first.value(QStringLiteral("id")).toString(), r1) << dump(first);
    EXPECT_EQ(first.value(QStringLiteral("exitCode")).toInt(), 0);
    EXPECT_TRUE(json(first.value(QStringLiteral("stdout")).toString()).contains(QStringLiteral("result")));
    EXPECT_EQ(second.value(QStringLiteral("id")).toString(), r2);
    EXPECT_EQ(second.value(QStringLiteral("exitCode")).toInt(), 0) << dump(second);
    const QJsonObject found = json(second.value(QStringLiteral("stdout")).toString());
    EXPECT_EQ(found.value(QStringLiteral("id")).toString(), r2);
    EXPECT_EQ(found.value(QStringLiteral("result")).toObject().value(QStringLiteral("matched")).toInt(), 1);
    EXPECT_EQ(third.value(QStringLiteral("id")).toString(), r3);
    EXPECT_EQ(third.value(QStringLiteral("exitCode")).toInt(), 2) << dump(third);
    EXPECT_TRUE(third.value(QStringLiteral("stdout")).toString().contains(QStringLiteral("DESKTOP_CONFIRM_REQUIRED")));
    EXPECT_TRUE(fourth.value(QStringLiteral("id")).isNull()) << dump(fourth);
    EXPECT_EQ(fourth.value(QStringLiteral("exitCode")).toInt(), 2);
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    // Nothing more: the session ends by itself, saying why.
    ASSERT_TRUE(session.process().waitForFinished(8000));
    EXPECT_EQ(session.process().exitCode(), 0);
    EXPECT_TRUE(session.process().readAllStandardError().contains("Idle timeout, exiting session"));
}

// The host goes away mid-session: the next request's envelope says 10, and the session goes on.
TEST(LegacySession, SaysTenWhenTheHostWentAway)
{
    TestHost host;
    Session session(host.socketPath(), host.workspace(), 20000);
    ASSERT_TRUE(session.started());
    session.send(line(uuid(), QStringLiteral("desktop.health"), {}, host.workspace()));
    EXPECT_EQ(session.next().value(QStringLiteral("exitCode")).toInt(), 0);
    host.shutdown();
    const QString b = uuid();
    session.send(line(b, QStringLiteral("desktop.health"), {}, host.workspace()));
    const QJsonObject gone = session.next();
    EXPECT_EQ(gone.value(QStringLiteral("id")).toString(), b) << dump(gone);
    EXPECT_EQ(gone.value(QStringLiteral("exitCode")).toInt(), 10) << dump(gone);
    EXPECT_TRUE(gone.value(QStringLiteral("stdout")).toString().isEmpty());
    EXPECT_FALSE(gone.value(QStringLiteral("stderr")).toString().isEmpty());
    EXPECT_EQ(session.process().state(), QProcess::Running);
}
