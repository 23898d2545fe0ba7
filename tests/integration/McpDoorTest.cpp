// msgcode-desktop-mcp, the MCP front door msgcode mounts (docs/msgcode.md), as msgcode uses it:
// `version`, `status`, `doctor`, then per tool call a fresh `mcp` process over stdio
// (initialize, notifications/initialized, tools/list, tools/call), against a host with the fake
// backend; effects checked on the fake desktop, answers in the shape msgcode parses.
#include "HostProcess.h"
#include "TestHost.h"

#include "bridge/security/SecuritySettings.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

TestHost::Options autoPolicy()
{
    TestHost::Options options;
    options.security.confirmPolicy = Bridge::ConfirmPolicy::Auto;
    return options;
}

QProcessEnvironment doorEnvironment(const QString& socketPath)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("MSGCODE_DESKTOP_SOCKET"), socketPath);
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    return env;
}

// One `mcp` process, as msgcode starts it: the workspace as working directory, NDJSON on stdio.
class Door
{
public:
    Door(const QString& socketPath, const QString& workspace)
    {
        m_process.setProcessEnvironment(doorEnvironment(socketPath));
        m_process.setWorkingDirectory(workspace);
        m_process.start(QStringLiteral(MDH_MCP_BINARY), {QStringLiteral("mcp")});
        m_started = m_process.waitForStarted(5000);
    }
    ~Door()
    {
        m_process.terminate(); // msgcode's SIGTERM after the answer
        if (!m_process.waitForFinished(3000))
            m_process.kill();
    }
    bool started() const { return m_started; }
    void sendRaw(const QByteArray& bytes)
    {
        m_process.write(bytes);
        // QProcess writes from its event loop; a test that sleeps instead must push it out.
        while (m_process.bytesToWrite() > 0 && m_process.waitForBytesWritten(5000)) {
        }
    }
    void send(const QJsonObject& message) { sendRaw(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n'); }
    /// The next line from stdout as JSON, or an empty object after `timeoutMs`.
    QJsonObject next(int timeoutMs = 15000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!m_buffer.contains('\n') && !deadline.hasExpired()) {
            m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
            m_buffer += m_process.readAllStandardOutput();
        }
        const qsizetype end = m_buffer.indexOf('\n');
        if (end < 0)
            return {};
        const QByteArray line = m_buffer.left(end);
        m_buffer.remove(0, end + 1);
        return QJsonDocument::fromJson(line).object();
    }
    QJsonObject request(const QString& id, const QString& method, const QJsonObject& params = {})
    {
        send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                         {QStringLiteral("id"), id},
                         {QStringLiteral("method"), method},
                         {QStringLiteral("params"), params}});
        return next();
    }
    /// msgcode's sequence up to the call: initialize, initialized, tools/list; then the call.
    QJsonObject callTool(const QString& name, const QJsonObject& arguments)
    {
        const QJsonObject init =
            request(QStringLiteral("init"), QStringLiteral("initialize"),
                    QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2024-11-05")},
                                {QStringLiteral("capabilities"), QJsonObject()},
                                {QStringLiteral("clientInfo"),
                                 QJsonObject{{QStringLiteral("name"), QStringLiteral("msgcode")},
                                             {QStringLiteral("version"), QStringLiteral("2.4.0")}}}});
        EXPECT_EQ(init.value(QStringLiteral("result")).toObject().value(QStringLiteral("protocolVersion")).toString(),
                  QStringLiteral("2024-11-05"));
        send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                         {QStringLiteral("method"), QStringLiteral("notifications/initialized")},
                         {QStringLiteral("params"), QJsonObject()}});
        const QJsonObject list = request(QStringLiteral("list"), QStringLiteral("tools/list"));
        bool listed = false;
        for (const auto& tool :
             list.value(QStringLiteral("result")).toObject().value(QStringLiteral("tools")).toArray())
            listed = listed || tool.toObject().value(QStringLiteral("name")).toString() == name;
        EXPECT_TRUE(listed) << name.toStdString();
        return request(QStringLiteral("call"), QStringLiteral("tools/call"),
                       QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}})
            .value(QStringLiteral("result"))
            .toObject();
    }
    QProcess& process() { return m_process; }

private:
    QProcess m_process;
    QByteArray m_buffer;
    bool m_started = false;
};

// The first text item parsed as JSON, as msgcode does.
QJsonObject structured(const QJsonObject& result)
{
    for (const auto& item : result.value(QStringLiteral("content")).toArray()) {
        if (item.toObject().value(QStringLiteral("type")).toString() == QLatin1String("text"))
            return QJsonDocument::fromJson(item.toObject().value(QStringLiteral("text")).toString().toUtf8()).object();
    }
    return {};
}

std::string dump(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString();
}

CommandResult door(const QString& socketPath, const QString& command)
{
    return runCommand(QStringLiteral(MDH_MCP_BINARY), {command}, doorEnvironment(socketPath));
}

} // namespace

// msgcode's health check: version, then status must say "Status: Ready" (a host with the fake
// backend has both permissions); doctor names each permission.
TEST(McpDoor, VersionStatusAndDoctorAsMsgcodeReadsThem)
{
    TestHost host;
    const CommandResult version = door(host.socketPath(), QStringLiteral("version"));
    EXPECT_EQ(version.exitCode, 0);
    EXPECT_EQ(version.out.trimmed(), QStringLiteral("msgcode-desktop-mcp 0.1.0"));
    const CommandResult status = door(host.socketPath(), QStringLiteral("status"));
    EXPECT_EQ(status.exitCode, 0);
    EXPECT_TRUE(QRegularExpression(QStringLiteral("Status:\\s*Ready"), QRegularExpression::CaseInsensitiveOption)
                    .match(status.out)
                    .hasMatch())
        << status.out.toStdString();
    EXPECT_TRUE(status.out.contains(QStringLiteral("Accessibility: granted"))) << status.out.toStdString();
    const CommandResult doctor = door(host.socketPath(), QStringLiteral("doctor"));
    EXPECT_EQ(doctor.exitCode, 0);
    EXPECT_TRUE(doctor.out.contains(QStringLiteral("[ok] Accessibility: granted"))) << doctor.out.toStdString();
    EXPECT_TRUE(doctor.out.contains(QStringLiteral("[ok] Screen Recording: granted"))) << doctor.out.toStdString();
}

// No host: still a report (exit 0, msgcode discards a failing command's output), not Ready, and
// doctor's lines match msgcode's "not granted" test for both permissions, each with a Fix line.
TEST(McpDoor, WithoutAHostTheReportSaysWhyAndExitsZero)
{
    QTemporaryDir dir;
    const QString nowhere = dir.path() + QStringLiteral("/none.sock");
    const CommandResult status = door(nowhere, QStringLiteral("status"));
    EXPECT_EQ(status.exitCode, 0);
    EXPECT_FALSE(status.out.contains(QStringLiteral("Status: Ready"))) << status.out.toStdString();
    EXPECT_TRUE(status.out.contains(QStringLiteral("Host: not running"))) << status.out.toStdString();
    const CommandResult doctor = door(nowhere, QStringLiteral("doctor"));
    EXPECT_EQ(doctor.exitCode, 0);
    const QString lower = doctor.out.toLower();
    EXPECT_TRUE(lower.contains(QStringLiteral("accessibility: not granted"))) << doctor.out.toStdString();
    EXPECT_TRUE(lower.contains(QStringLiteral("screen recording: not granted"))) << doctor.out.toStdString();
    EXPECT_TRUE(doctor.out.contains(QStringLiteral("Fix:"))) << doctor.out.toStdString();
    EXPECT_EQ(door(nowhere, QStringLiteral("bogus")).exitCode, 2);
}

// tools/list has the 26 ghost_ tools msgcode dispatches and ghost_clipboard, each with an object input schema.
TEST(McpDoor, ListsTheToolsMsgcodeDispatches)
{
    TestHost host;
    Door mcp(host.socketPath(), host.workspace());
    ASSERT_TRUE(mcp.started());
    mcp.request(QStringLiteral("init"), QStringLiteral("initialize"),
                QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2024-11-05")}});
    const QJsonArray tools = mcp.request(QStringLiteral("list"), QStringLiteral("tools/list"))
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("tools"))
                                 .toArray();
    QStringList names;
    for (const auto& tool : tools) {
        names.append(tool.toObject().value(QStringLiteral("name")).toString());
        EXPECT_EQ(
            tool.toObject().value(QStringLiteral("inputSchema")).toObject().value(QStringLiteral("type")).toString(),
            QStringLiteral("object"));
    }
    for (const char* name :
         {"ghost_context",     "ghost_state",       "ghost_find",          "ghost_read",         "ghost_inspect",
          "ghost_element_at",  "ghost_screenshot",  "ghost_click",         "ghost_type",         "ghost_press",
          "ghost_hotkey",      "ghost_scroll",      "ghost_hover",         "ghost_long_press",   "ghost_drag",
          "ghost_focus",       "ghost_window",      "ghost_wait",          "ghost_recipes",      "ghost_run",
          "ghost_recipe_show", "ghost_recipe_save", "ghost_recipe_delete", "ghost_parse_screen", "ghost_ground",
          "ghost_annotate",    "ghost_clipboard",   "ghost_app",           "ghost_displays"})
        EXPECT_TRUE(names.contains(QLatin1String(name))) << name;
}

// find, click (confirmed by the host's policy), type and a screenshot, each in a fresh process;
// the fake desktop records the effects; evidence lands in the workspace.
TEST(McpDoor, FindsClicksTypesAndTakesAScreenshot)
{
    TestHost host(autoPolicy());
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject found = structured(mcp.callTool(
            QStringLiteral("ghost_find"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")},
                                                      {QStringLiteral("role"), QStringLiteral("AXButton")}}));
        EXPECT_TRUE(found.value(QStringLiteral("success")).toBool()) << dump(found);
        EXPECT_EQ(found.value(QStringLiteral("data")).toObject().value(QStringLiteral("count")).toInt(), 1)
            << dump(found);
        EXPECT_TRUE(found.value(QStringLiteral("data"))
                        .toObject()
                        .value(QStringLiteral("evidence"))
                        .toObject()
                        .value(QStringLiteral("dir"))
                        .toString()
                        .startsWith(host.workspace()))
            << dump(found);
    }
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject result = mcp.callTool(QStringLiteral("ghost_click"),
                                                QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")},
                                                            {QStringLiteral("role"), QStringLiteral("AXButton")}});
        EXPECT_FALSE(result.value(QStringLiteral("isError")).toBool()) << dump(result);
        EXPECT_TRUE(structured(result).value(QStringLiteral("success")).toBool()) << dump(result);
        EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("press:Send")});
    }
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject typed = structured(mcp.callTool(
            QStringLiteral("ghost_type"), QJsonObject{{QStringLiteral("text"), QStringLiteral("hi")},
                                                      {QStringLiteral("into"), QStringLiteral("Message")}}));
        EXPECT_TRUE(typed.value(QStringLiteral("data")).toObject().contains(QStringLiteral("effect"))) << dump(typed);
        // The fake desktop records where the text went and how long it was.
        EXPECT_TRUE(host.desktop().effects().contains(QStringLiteral("type:Message:2")))
            << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
    }
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject shot = mcp.callTool(QStringLiteral("ghost_screenshot"), {});
        const QJsonArray content = shot.value(QStringLiteral("content")).toArray();
        ASSERT_EQ(content.size(), 2) << dump(shot);
        const QJsonObject image = content.at(0).toObject();
        EXPECT_EQ(image.value(QStringLiteral("mimeType")).toString(), QStringLiteral("image/png"));
        QImage png;
        EXPECT_TRUE(
            png.loadFromData(QByteArray::fromBase64(image.value(QStringLiteral("data")).toString().toLatin1()), "PNG"));
        EXPECT_TRUE(content.at(1)
                        .toObject()
                        .value(QStringLiteral("text"))
                        .toString()
                        .startsWith(QStringLiteral("Screenshot: ")));
    }
}

// Errors a model can act on: what was not found (isError, the host's code in the text); an
// unknown tool; vision says no provider.
TEST(McpDoor, FailuresAreFactsAModelCanActOn)
{
    TestHost host(autoPolicy());
    const auto call = [&](const QString& name, const QJsonObject& arguments) {
        Door mcp(host.socketPath(), host.workspace());
        return mcp.callTool(name, arguments);
    };
    const QJsonObject missing =
        call(QStringLiteral("ghost_click"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Nowhere")}});
    EXPECT_TRUE(missing.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(structured(missing)
                    .value(QStringLiteral("error"))
                    .toString()
                    .startsWith(QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")))
        << dump(missing);
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    Door mcp(host.socketPath(), host.workspace());
    mcp.request(QStringLiteral("init"), QStringLiteral("initialize"), {});
    const QJsonObject unknown = mcp.request(QStringLiteral("u"), QStringLiteral("tools/call"),
                                            QJsonObject{{QStringLiteral("name"), QStringLiteral("ghost_teleport")}})
                                    .value(QStringLiteral("result"))
                                    .toObject();
    EXPECT_TRUE(unknown.value(QStringLiteral("isError")).toBool());
    EXPECT_EQ(structured(unknown).value(QStringLiteral("error")).toString(),
              QStringLiteral("Unknown tool: ghost_teleport"));
    const QJsonObject vision =
        structured(mcp.request(QStringLiteral("g"), QStringLiteral("tools/call"),
                               QJsonObject{{QStringLiteral("name"), QStringLiteral("ghost_ground")},
                                           {QStringLiteral("arguments"),
                                            QJsonObject{{QStringLiteral("description"), QStringLiteral("x")}}}})
                       .value(QStringLiteral("result"))
                       .toObject());
    EXPECT_TRUE(vision.value(QStringLiteral("error")).toString().contains(QStringLiteral("no vision provider")))
        << dump(vision);
    const QJsonObject badArgs = mcp.request(QStringLiteral("b"), QStringLiteral("tools/call"),
                                            QJsonObject{{QStringLiteral("name"), QStringLiteral("ghost_find")},
                                                        {QStringLiteral("arguments"), QStringLiteral("query")}});
    EXPECT_EQ(badArgs.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32602)
        << dump(badArgs);
}

// Bad input on stdio: garbage gets a parse error and the server reads on; a 20 MB line is
// refused and skipped; Content-Length framing works too; a closed stdin ends the process.
TEST(McpDoor, BadInputOnStdioIsAnsweredAndSurvived)
{
    TestHost host;
    {
        Door mcp(host.socketPath(), host.workspace());
        mcp.sendRaw("this is not json\n");
        EXPECT_EQ(mcp.next().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32700);
        mcp.sendRaw(QByteArray(qsizetype{20} * 1024 * 1024, 'x') + '\n');
        EXPECT_EQ(mcp.next(30000).value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
                  -32600);
        EXPECT_TRUE(mcp.request(QStringLiteral("p"), QStringLiteral("ping")).contains(QStringLiteral("result")));
        const QJsonObject unknown = mcp.request(QStringLiteral("m"), QStringLiteral("resources/list"));
        EXPECT_EQ(unknown.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32601);
        // Half a message, then stdin closes: the process ends on its own.
        mcp.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":1,");
        mcp.process().closeWriteChannel();
        EXPECT_TRUE(mcp.process().waitForFinished(5000));
        EXPECT_EQ(mcp.process().exitCode(), 0);
    }
    {
        Door mcp(host.socketPath(), host.workspace());
        const QByteArray body = R"({"jsonrpc":"2.0","id":7,"method":"ping"})";
        mcp.sendRaw("Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QDeadlineTimer deadline(10000);
        QByteArray out;
        while (!out.contains("\"id\":7") && !deadline.hasExpired()) {
            mcp.process().waitForReadyRead(200);
            out += mcp.process().readAllStandardOutput();
        }
        EXPECT_TRUE(out.startsWith("Content-Length: ")) << out.constData();
        EXPECT_TRUE(out.contains("\"result\":{}")) << out.constData();
    }
}

// msgcode SIGTERMs the door when its own timeout ends a call: the connection to the host drops
// with it, and the host aborts the wait it was running for the door; its evidence says so.
TEST(McpDoor, SigtermDuringAWaitAbortsTheHostsExecution)
{
    TestHost host;
    Door mcp(host.socketPath(), host.workspace());
    ASSERT_TRUE(mcp.started());
    mcp.request(QStringLiteral("init"), QStringLiteral("initialize"), {});
    mcp.send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                         {QStringLiteral("id"), QStringLiteral("call")},
                         {QStringLiteral("method"), QStringLiteral("tools/call")},
                         {QStringLiteral("params"),
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("ghost_wait")},
                                      {QStringLiteral("arguments"),
                                       QJsonObject{{QStringLiteral("condition"), QStringLiteral("elementExists")},
                                                   {QStringLiteral("value"), QStringLiteral("Never there")},
                                                   {QStringLiteral("timeout"), 30}}}}}});
    // The wait runs (its evidence directory exists) before the door is stopped.
    const auto responses = [&] {
        QStringList found;
        QDirIterator it(host.workspace() + QStringLiteral("/artifacts"), {QStringLiteral("request.json")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            found.append(QFileInfo(it.next()).path());
        return found;
    };
    QDeadlineTimer started(10000);
    while (responses().isEmpty() && !started.hasExpired())
        QThread::msleep(50);
    ASSERT_EQ(responses().size(), 1) << "the wait never started; the door said: " << dump(mcp.next(100));
    // Meanwhile another call (another chat) asks what the desktop is doing: busy, with the wait.
    {
        Door other(host.socketPath(), host.workspace());
        const QJsonObject status = structured(other.callTool(QStringLiteral("desktop_status"), {}));
        const QJsonObject data = status.value(QStringLiteral("data")).toObject();
        EXPECT_EQ(data.value(QStringLiteral("state")).toString(), QStringLiteral("busy")) << dump(status);
        // Presence: null here (the fake backend watches no keyboard or mouse), a boolean on a desktop.
        EXPECT_TRUE(data.contains(QStringLiteral("user_active"))) << dump(status);
        EXPECT_EQ(data.value(QStringLiteral("running")).toObject().value(QStringLiteral("method")).toString(),
                  QStringLiteral("desktop.waitUntil"))
            << dump(status);
    }
    QThread::msleep(300);
    mcp.process().terminate();
    ASSERT_TRUE(mcp.process().waitForFinished(5000));

    const QString dir = responses().constFirst();
    QDeadlineTimer deadline(10000);
    QJsonObject response;
    while (!deadline.hasExpired()) {
        QFile file(dir + QStringLiteral("/response.json"));
        if (file.open(QIODevice::ReadOnly)) {
            response = QJsonDocument::fromJson(file.readAll()).object();
            if (!response.isEmpty())
                break;
        }
        QThread::msleep(50);
    }
    const QJsonObject error = response.value(QStringLiteral("error")).toObject();
    EXPECT_EQ(error.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_ABORTED")) << dump(response);
    EXPECT_EQ(error.value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("disconnected"))
        << dump(response);
}

// The door has a confirmation policy of its own: with the host on auto and the door on deny, a
// click through the door is refused and nothing happens, while a plain client's click is done.
TEST(McpDoor, TheDoorsOwnPolicyDecidesForItsCallsOnly)
{
    TestHost::Options options = autoPolicy();
    options.security.mcpConfirmPolicy = Bridge::ConfirmPolicy::Deny;
    options.mcpDoorExecutable = QStringLiteral(MDH_MCP_BINARY);
    TestHost host(options);
    Door mcp(host.socketPath(), host.workspace());
    const QJsonObject refused = structured(
        mcp.callTool(QStringLiteral("ghost_click"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")},
                                                                {QStringLiteral("role"), QStringLiteral("AXButton")}}));
    EXPECT_FALSE(refused.value(QStringLiteral("success")).toBool()) << dump(refused);
    EXPECT_TRUE(
        refused.value(QStringLiteral("error")).toString().startsWith(QStringLiteral("DESKTOP_CONFIRM_REQUIRED")))
        << dump(refused);
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    // The same click from a client that is not the door: the host's auto policy.
    TestClient client(host.socketPath());
    const QJsonObject token = client.call(
        QStringLiteral("desktop.confirm.issue"),
        TestClient::withMeta(
            QJsonObject{
                {QStringLiteral("intent"),
                 QJsonObject{
                     {QStringLiteral("method"), QStringLiteral("desktop.click")},
                     {QStringLiteral("params"),
                      QJsonObject{
                          {QStringLiteral("target"),
                           QJsonObject{{QStringLiteral("selector"),
                                        QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                    {QStringLiteral("titleContains"), QStringLiteral("Send")}}}}}}}}}},
            host.workspace()));
    EXPECT_TRUE(token.value(QStringLiteral("result")).toObject().contains(QStringLiteral("token"))) << dump(token);

    // The audit line of the refusal names the door and its client (this test, its parent).
    bool audited = false;
    for (const QJsonObject& line : host.auditLines()) {
        if (line.value(QStringLiteral("event")).toString() == QLatin1String("approval") &&
            line.value(QStringLiteral("decision")).toString() == QLatin1String("denied"))
            audited = line.value(QStringLiteral("peer"))
                          .toObject()
                          .value(QStringLiteral("exe"))
                          .toString()
                          .endsWith(QStringLiteral("msgcode-desktop-mcp"));
    }
    EXPECT_TRUE(audited);
}

// The door's ask policy: the person is asked with the client named and the offer to allow it;
// allowed for some minutes, the client's next call (a new door process, as msgcode starts one
// per call) is approved without asking. The grant is for this client only.
TEST(McpDoor, AllowingTheClientForMinutesSparesTheNextQuestion)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Approve, 10); // outlives the host
    approver.grantMinutes = 5;
    TestHost::Options options = autoPolicy();
    options.security.mcpConfirmPolicy = Bridge::ConfirmPolicy::Ask;
    options.mcpDoorExecutable = QStringLiteral(MDH_MCP_BINARY);
    TestHost host(options);
    host.attachMcpApprover(approver);
    const QJsonObject click{{QStringLiteral("query"), QStringLiteral("Send")},
                            {QStringLiteral("role"), QStringLiteral("AXButton")}};
    for (int call = 0; call < 2; ++call) {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject done = structured(mcp.callTool(QStringLiteral("ghost_click"), click));
        EXPECT_TRUE(done.value(QStringLiteral("success")).toBool()) << call << dump(done);
    }
    EXPECT_EQ(host.desktop().effects(), (QStringList{QStringLiteral("press:Send"), QStringLiteral("press:Send")}));
    const QList<Bridge::ApprovalRequest> asked = approver.asked();
    ASSERT_EQ(asked.size(), 1);
    EXPECT_EQ(asked.first().via, QStringLiteral("mcp"));
    EXPECT_TRUE(asked.first().offerGrant);
    // The door's parent: this test process.
    EXPECT_EQ(asked.first().client, QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath());
    int granted = 0;
    for (const QJsonObject& line : host.auditLines())
        granted += line.value(QStringLiteral("decidedBy")).toString() == QLatin1String("grant");
    EXPECT_EQ(granted, 1);
}

// A click on an element that is not there is answered as such without asking the person, and
// the error itself says what was looked for (msgcode passes on the error string alone).
TEST(McpDoor, NobodyIsAskedAboutAnElementThatIsNotThere)
{
    ScriptedApprover approver(ScriptedApprover::Mode::Approve, 10); // outlives the host
    TestHost::Options options;
    options.security.confirmPolicy = Bridge::ConfirmPolicy::Ask;
    options.mcpDoorExecutable = QStringLiteral(MDH_MCP_BINARY);
    TestHost host(options);
    host.attachMcpApprover(approver);
    Door mcp(host.socketPath(), host.workspace());
    const QJsonObject missing = structured(
        mcp.callTool(QStringLiteral("ghost_click"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Launch")},
                                                                {QStringLiteral("role"), QStringLiteral("AXButton")}}));
    EXPECT_FALSE(missing.value(QStringLiteral("success")).toBool());
    const QString error = missing.value(QStringLiteral("error")).toString();
    EXPECT_TRUE(error.startsWith(QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("titled 'Launch' with role AXButton"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("ghost_find"))) << error.toStdString();
    // The details say which of the call's elements was missing (the client kit's one rule).
    EXPECT_EQ(missing.value(QStringLiteral("data")).toObject().value(QStringLiteral("field")).toString(),
              QStringLiteral("target"))
        << dump(missing);
    EXPECT_TRUE(approver.asked().isEmpty());
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

// The owner's rules decide for the door as for any client (docs/protocol.md, "Policy"): a rule
// denying clicks in Fake App refuses the door's ghost_click, and the same click as a recipe's
// step, naming the rule; nothing is pressed.
TEST(McpDoor, TheOwnersRuleRefusesTheDoorsClickAndTheRecipeStep)
{
    TestHost::Options options = autoPolicy();
    auto rules = Bridge::OwnerPolicy::fromJson(QJsonDocument::fromJson(R"({"rules": [
        {"name": "no-clicks-in-fake", "app": {"name": "Fake App"}, "classes": ["pointer"], "decision": "deny"}]})")
                                                   .object());
    ASSERT_TRUE(rules.ok());
    options.ownerPolicy = rules.value();
    TestHost host(options);
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject refused = structured(mcp.callTool(
            QStringLiteral("ghost_click"), QJsonObject{{QStringLiteral("query"), QStringLiteral("Send")},
                                                       {QStringLiteral("role"), QStringLiteral("AXButton")}}));
        EXPECT_FALSE(refused.value(QStringLiteral("success")).toBool()) << dump(refused);
        EXPECT_TRUE(dump(refused).find("DESKTOP_CALLER_FORBIDDEN") != std::string::npos) << dump(refused);
        EXPECT_TRUE(dump(refused).find("no-clicks-in-fake") != std::string::npos) << dump(refused);
    }
    QTemporaryDir recipes;
    qputenv("MSGCODE_DESKTOP_RECIPES_DIR", recipes.path().toUtf8());
    const QJsonObject recipe{
        {QStringLiteral("schema_version"), 2},
        {QStringLiteral("name"), QStringLiteral("press-send")},
        {QStringLiteral("description"), QStringLiteral("Press Send")},
        {QStringLiteral("steps"),
         QJsonArray{QJsonObject{{QStringLiteral("id"), 1},
                                {QStringLiteral("action"), QStringLiteral("click")},
                                {QStringLiteral("target"),
                                 QJsonObject{{QStringLiteral("criteria"), QJsonArray{}},
                                             {QStringLiteral("computedNameContains"), QStringLiteral("Send")}}}}}}};
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject saved = structured(
            mcp.callTool(QStringLiteral("ghost_recipe_save"),
                         QJsonObject{{QStringLiteral("recipe_json"),
                                      QString::fromUtf8(QJsonDocument(recipe).toJson(QJsonDocument::Compact))}}));
        EXPECT_TRUE(saved.value(QStringLiteral("success")).toBool()) << dump(saved);
    }
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject ran = structured(mcp.callTool(
            QStringLiteral("ghost_run"), QJsonObject{{QStringLiteral("recipe"), QStringLiteral("press-send")}}));
        EXPECT_FALSE(ran.value(QStringLiteral("success")).toBool()) << dump(ran);
        EXPECT_TRUE(dump(ran).find("no-clicks-in-fake") != std::string::npos) << dump(ran);
    }
    qunsetenv("MSGCODE_DESKTOP_RECIPES_DIR");
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << host.desktop().effects().join(QLatin1Char(' ')).toStdString();
    bool audited = false;
    for (const QJsonObject& line : host.auditLines()) {
        audited = audited || line.value(QStringLiteral("rule")).toString() == QLatin1String("no-clicks-in-fake");
    }
    EXPECT_TRUE(audited);
}

// ghost_clipboard: a write is confirmed through the door and read back; a read answers the text.
TEST(McpDoor, TheClipboardToolWritesAndReads)
{
    TestHost host(autoPolicy());
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject written = structured(mcp.callTool(
            QStringLiteral("ghost_clipboard"), QJsonObject{{QStringLiteral("action"), QStringLiteral("write")},
                                                           {QStringLiteral("text"), QStringLiteral("via the door")}}));
        EXPECT_TRUE(written.value(QStringLiteral("success")).toBool()) << dump(written);
    }
    EXPECT_EQ(host.desktop().clipboard().text.value_or(QString()), QStringLiteral("via the door"));
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject read = structured(mcp.callTool(
            QStringLiteral("ghost_clipboard"), QJsonObject{{QStringLiteral("action"), QStringLiteral("read")},
                                                           {QStringLiteral("redaction"), QStringLiteral("none")}}));
        EXPECT_EQ(read.value(QStringLiteral("data")).toObject().value(QStringLiteral("text")).toString(),
                  QStringLiteral("via the door"))
            << dump(read);
    }
}

// ghost_app: a launch through the door is confirmed and waits for the window; quit ends it.
TEST(McpDoor, TheAppToolLaunchesAndQuits)
{
    TestHost host(autoPolicy());
    host.desktop().addLaunchable(QStringLiteral("org.example.Notes"), QStringLiteral("Notes"));
    qint64 pid = 0;
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject launched =
            structured(mcp.callTool(QStringLiteral("ghost_app"),
                                    QJsonObject{{QStringLiteral("action"), QStringLiteral("launch")},
                                                {QStringLiteral("desktop_id"), QStringLiteral("org.example.Notes")}}));
        EXPECT_TRUE(launched.value(QStringLiteral("success")).toBool()) << dump(launched);
        pid = launched.value(QStringLiteral("data")).toObject().value(QStringLiteral("pid")).toInteger();
        ASSERT_GT(pid, 0) << dump(launched);
    }
    {
        Door mcp(host.socketPath(), host.workspace());
        const QJsonObject quit = structured(
            mcp.callTool(QStringLiteral("ghost_app"), QJsonObject{{QStringLiteral("action"), QStringLiteral("quit")},
                                                                  {QStringLiteral("pid"), pid}}));
        EXPECT_TRUE(quit.value(QStringLiteral("success")).toBool()) << dump(quit);
    }
}

// ghost_displays: the host's displays, as desktop.displays lists them.
TEST(McpDoor, TheDisplaysToolListsTheDisplays)
{
    TestHost host;
    host.desktop().setDisplays(
        {Automation::DisplayInfo{QStringLiteral("LEFT"), QStringLiteral("LEFT"), {0, 0, 1280, 1024}, 1.0, true},
         Automation::DisplayInfo{QStringLiteral("RIGHT"), QStringLiteral("RIGHT"), {1280, 0, 1280, 1024}, 1.0, false}});
    Door mcp(host.socketPath(), host.workspace());
    const QJsonObject listed = structured(mcp.callTool(QStringLiteral("ghost_displays"), {}));
    EXPECT_TRUE(listed.value(QStringLiteral("success")).toBool()) << dump(listed);
    const QJsonArray displays =
        listed.value(QStringLiteral("data")).toObject().value(QStringLiteral("displays")).toArray();
    ASSERT_EQ(displays.size(), 2) << dump(listed);
    EXPECT_EQ(displays.at(1).toObject().value(QStringLiteral("id")).toString(), QStringLiteral("RIGHT"));
}
