// The MCP front door end to end, as msgcode drives it (one `msgcode-desktop-mcp mcp` process per
// tool call: initialize, initialized, tools/list, tools/call, SIGTERM), against the real host
// with the auto confirmation policy, on the Qt fixture app and on mousepad (GTK 3). Effects are
// checked in the apps: the fixture's own event lines, pyatspi reading mousepad's document.
#include "RealAppSupport.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

// One tool call in a fresh door process, msgcode's sequence; the tools/call result.
QJsonObject callTool(RealAppSession& app, const QString& name, const QJsonObject& arguments)
{
    QProcess door;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"MSGCODE_DESKTOP_SOCKET"_s, app.desktop().host().socketPath());
    door.setProcessEnvironment(env);
    door.setWorkingDirectory(app.desktop().workspace());
    door.start(QStringLiteral(MDH_MCP_BINARY), {u"mcp"_s});
    if (!door.waitForStarted(5000))
        return {};
    const auto send = [&](const QJsonObject& message) {
        door.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
    };
    QByteArray buffer;
    const auto answer = [&](const QString& id) {
        QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            const qsizetype end = buffer.indexOf('\n');
            if (end >= 0) {
                const QJsonObject message = QJsonDocument::fromJson(buffer.left(end)).object();
                buffer.remove(0, end + 1);
                if (message.value(u"id"_s).toString() == id)
                    return message;
                continue;
            }
            door.waitForReadyRead(200);
            buffer += door.readAllStandardOutput();
        }
        return QJsonObject();
    };
    send({{u"jsonrpc"_s, u"2.0"_s},
          {u"id"_s, u"init"_s},
          {u"method"_s, u"initialize"_s},
          {u"params"_s, QJsonObject{{u"protocolVersion"_s, u"2024-11-05"_s}, {u"capabilities"_s, QJsonObject()}}}});
    answer(u"init"_s);
    send({{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, u"notifications/initialized"_s}, {u"params"_s, QJsonObject()}});
    send(
        {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, u"list"_s}, {u"method"_s, u"tools/list"_s}, {u"params"_s, QJsonObject()}});
    answer(u"list"_s);
    send({{u"jsonrpc"_s, u"2.0"_s},
          {u"id"_s, u"call"_s},
          {u"method"_s, u"tools/call"_s},
          {u"params"_s, QJsonObject{{u"name"_s, name}, {u"arguments"_s, arguments}}}});
    const QJsonObject result = answer(u"call"_s).value(u"result"_s).toObject();
    door.terminate();
    if (!door.waitForFinished(3000))
        door.kill();
    return result;
}

QJsonObject structured(const QJsonObject& result)
{
    for (const auto& item : result.value(u"content"_s).toArray()) {
        if (item.toObject().value(u"type"_s).toString() == u"text"_s)
            return QJsonDocument::fromJson(item.toObject().value(u"text"_s).toString().toUtf8()).object();
    }
    return {};
}

class McpDoorFixture : public RealAppTest<McpDoorFixture>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        s_app->desktop().setHostArguments({u"--confirm-policy"_s, u"auto"_s});
        ProbeQuery ready;
        ready.role = u"push button"_s;
        ready.name = u"Send"_s;
        s_app->start(DesktopSession::fixtureBinary(), {u"--title"_s, u"MCP door"_s}, ready);
    }
    static QJsonObject tool(const QString& name, QJsonObject arguments)
    {
        arguments.insert(u"app"_s, u"mdh-target-app"_s);
        return callTool(*s_app, name, arguments);
    }
};

class McpDoorMousepad : public RealAppTest<McpDoorMousepad>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        s_app->desktop().setHostArguments({u"--confirm-policy"_s, u"auto"_s});
        s_app->start(u"mousepad"_s, {u"--disable-server"_s}, documentQuery());
    }
    static QJsonObject tool(const QString& name, QJsonObject arguments)
    {
        arguments.insert(u"app"_s, u"mousepad"_s);
        return callTool(*s_app, name, arguments);
    }
};

} // namespace

// find, type, click and wait through the door: the fixture reports the text and the click, and
// the wait sees the "Sent: ..." label the click made.
TEST_F(McpDoorFixture, FindsTypesClicksAndWaitsOnTheFixture)
{
    const QJsonObject found = structured(tool(u"ghost_find"_s, {{u"query"_s, u"Send"_s}, {u"role"_s, u"AXButton"_s}}));
    EXPECT_EQ(found.value(u"data"_s).toObject().value(u"count"_s).toInt(), 1) << dump(found);

    s_app->app().events();
    const QJsonObject typed = structured(
        tool(u"ghost_type"_s, {{u"text"_s, u"from msgcode"_s}, {u"into"_s, u"Message"_s}, {u"clear"_s, true}}));
    EXPECT_TRUE(typed.value(u"success"_s).toBool()) << dump(typed);
    EXPECT_TRUE(s_app->app()
                    .waitEvent(u"textChanged"_s, {{u"name"_s, u"Message"_s}, {u"text"_s, u"from msgcode"_s}})
                    .has_value())
        << dump(typed);

    const QJsonObject clicked =
        structured(tool(u"ghost_click"_s, {{u"query"_s, u"Send"_s}, {u"role"_s, u"AXButton"_s}}));
    EXPECT_TRUE(clicked.value(u"success"_s).toBool()) << dump(clicked);
    EXPECT_TRUE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}).has_value()) << dump(clicked);

    const QJsonObject waited = structured(
        tool(u"ghost_wait"_s,
             {{u"condition"_s, u"elementExists"_s}, {u"value"_s, u"Sent: from msgcode"_s}, {u"timeout"_s, 5}}));
    EXPECT_TRUE(waited.value(u"data"_s).toObject().value(u"met"_s).toBool()) << dump(waited);

    const QJsonObject context = structured(tool(u"ghost_context"_s, {}));
    EXPECT_EQ(context.value(u"data"_s).toObject().value(u"window"_s).toString(), u"MCP door"_s) << dump(context);
}

// The screenshot is a PNG of the display's size (xdotool's), with its caption.
TEST_F(McpDoorFixture, TakesAScreenshotOfTheDisplay)
{
    const QJsonObject shot = callTool(*s_app, u"ghost_screenshot"_s, {});
    const QJsonArray content = shot.value(u"content"_s).toArray();
    ASSERT_EQ(content.size(), 2) << dump(shot);
    QImage image;
    ASSERT_TRUE(image.loadFromData(
        QByteArray::fromBase64(content.at(0).toObject().value(u"data"_s).toString().toLatin1()), "PNG"));
    const QStringList size = runCommand(u"xdotool"_s, {u"getdisplaygeometry"_s}).out.trimmed().split(u' ');
    ASSERT_EQ(size.size(), 2);
    EXPECT_EQ(image.width(), size.at(0).toInt());
    EXPECT_EQ(image.height(), size.at(1).toInt());
    EXPECT_TRUE(content.at(1).toObject().value(u"text"_s).toString().startsWith(u"Screenshot: "_s));
}

// Untargeted typing into mousepad's focused document, read back by pyatspi and by ghost_read.
TEST_F(McpDoorMousepad, TypesIntoTheDocumentAndReadsItBack)
{
    const QJsonObject typed = structured(tool(u"ghost_type"_s, {{u"text"_s, u"hello from msgcode"_s}}));
    EXPECT_TRUE(typed.value(u"success"_s).toBool()) << dump(typed);
    EXPECT_EQ(readUntil([] { return soleText(*s_app, documentQuery()).value_or(QString()); }, u"hello from msgcode"_s),
              u"hello from msgcode"_s)
        << dump(typed);
    const QJsonObject read = structured(tool(u"ghost_read"_s, {}));
    EXPECT_TRUE(read.value(u"data"_s).toObject().value(u"content"_s).toString().contains(u"hello from msgcode"_s))
        << dump(read);
}
