#pragma once

#include "HostProcess.h"
#include "TestHost.h"
#include "bridge/protocol/Client.h"

#include <QJsonObject>
#include <QProcess>
#include <QTemporaryFile>

#include <gtest/gtest.h>

#include <memory>

namespace Testing {

/// A target application started for a test: its stdout JSON lines (the fixture's effects)
/// can be waited for. Its stderr goes to a file, as a desktop session's journal takes it: a
/// pipe nobody drains fills up, and an app that logs a warning per accessibility call (GTK 4:
/// "Screen coordinates not supported") then blocks in write(2) and looks hung to the host.
/// Stopped (SIGTERM, then SIGKILL) with the object.
class AppProcess
{
public:
    AppProcess(const QString& program, const QStringList& args);
    ~AppProcess();

    /// Starts and, for the fixture, waits for its {"event":"ready"} line.
    bool start(bool waitReady = true, int timeoutMs = 15000);
    qint64 pid() const { return m_process.processId(); }
    /// The first event named `event` (with the given fields, when any) seen since the last
    /// call that consumed events; nullopt on timeout.
    std::optional<QJsonObject> waitEvent(const QString& event, const QJsonObject& fields = {}, int timeoutMs = 5000);
    /// The events read so far that no waitEvent took.
    QList<QJsonObject> events();
    /// Forgets the events read so far, so the next waitEvent sees only what happens after.
    void discardEvents();
    void kill();
    QProcess& process() { return m_process; }
    /// The last `bytes` of what the app wrote to stderr, for a failure's message.
    QByteArray errorTail(qint64 bytes = 4000);

private:
    void readLines();

    QProcess m_process;
    QTemporaryFile m_errorLog;
    QByteArray m_buffer;
    QList<QJsonObject> m_events;
};

/// The real host, started once per suite in the test's headless desktop, and a client.
class DesktopSession
{
public:
    static bool available(QString* why);
    DesktopSession();
    /// Arguments for the host started by start() (e.g. another --confirm-policy).
    void setHostArguments(const QStringList& args) { m_hostArgs = args; }
    bool start();

    QString workspace() const { return m_workspace; }
    HostProcess& host() { return *m_host; }
    /// A request with params.meta filled in (timeoutMs as given).
    QJsonObject call(const QString& method, QJsonObject params, int timeoutMs = 20000);
    /// Route by pid (other apps may be on the desktop).
    static QJsonObject route(qint64 pid, const QString& focusPolicy = {});

    static QString fixtureBinary();

private:
    std::unique_ptr<HostProcess> m_host;
    std::unique_ptr<Bridge::Client> m_client;
    QString m_workspace;
    QStringList m_hostArgs;
};

QString evidenceDir(const QJsonObject& response);

/// xclip's view of the clipboard as `target` (another X client, as any app).
QByteArray xclipOut(const QString& target = QStringLiteral("UTF8_STRING"));
/// A person copies `data` as `target` with xclip, which stays to serve it as the copying app
/// would; true once another client sees it offered (xclip's child takes the selection only
/// after its parent exits).
bool xclipIn(const QByteArray& data, const QString& target = QStringLiteral("UTF8_STRING"));

/// A gtest fixture for suites that share one host on the headless desktop: started before the
/// suite's first test and stopped after its last. A test is skipped where there is no desktop,
/// and fails when the host did not start.
class SessionSuite : public ::testing::Test
{
protected:
    static void SetUpTestSuite();
    static void TearDownTestSuite();
    void SetUp() override;
    static DesktopSession& session() { return *s_session; }

private:
    static DesktopSession* s_session;
};

} // namespace Testing
