// The MCP door driven by a client we did not write: the official MCP TypeScript SDK
// (@modelcontextprotocol/sdk 1.x, tests/e2e/sdk/client.mjs, installed by scripts/setup), against
// the real host (auto confirmation) on the Qt fixture and on mousepad. Effects are checked in
// the apps; the abort is checked in the host's evidence.
#include "RealAppSupport.h"

#include <QDirIterator>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

// Runs the SDK driver with `calls`; its one line of JSON output.
QJsonObject runSdkClient(RealAppSession& app, const QJsonArray& calls, int abortAfterMs = -1)
{
    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"MSGCODE_DESKTOP_SOCKET"_s, app.desktop().host().socketPath());
    env.insert(u"MSGCODE_DESKTOP_RECIPES_DIR"_s, app.dir() + u"/recipes"_s);
    node.setProcessEnvironment(env);
    QStringList args{QStringLiteral(MDH_SDK_CLIENT),
                     u"--server"_s,
                     QStringLiteral(MDH_MCP_BINARY),
                     u"--cwd"_s,
                     app.desktop().workspace(),
                     u"--calls"_s,
                     QString::fromUtf8(QJsonDocument(calls).toJson(QJsonDocument::Compact))};
    if (abortAfterMs >= 0)
        args << u"--abort-after-ms"_s << QString::number(abortAfterMs);
    node.start(u"node"_s, args);
    if (!node.waitForStarted(10000))
        return QJsonObject{{u"fatal"_s, QString(u"node did not start: "_s + node.errorString())}};
    if (!node.waitForFinished(180000)) {
        node.kill();
        return QJsonObject{{u"fatal"_s, u"the SDK client did not finish"_s}};
    }
    const QByteArray out = node.readAllStandardOutput();
    const QJsonObject parsed = QJsonDocument::fromJson(out.trimmed()).object();
    if (parsed.isEmpty())
        return QJsonObject{{u"fatal"_s, QString::fromUtf8(out + node.readAllStandardError())}};
    return parsed;
}

QJsonObject call(const QString& name, const QJsonObject& arguments)
{
    return QJsonObject{{u"name"_s, name}, {u"arguments"_s, arguments}};
}

// The structured JSON of result `index` (its first text item), and that result.
QJsonObject resultAt(const QJsonObject& run, int index)
{
    return run.value(u"results"_s).toArray().at(index).toObject().value(u"result"_s).toObject();
}

QJsonObject structuredAt(const QJsonObject& run, int index)
{
    for (const auto& item : resultAt(run, index).value(u"content"_s).toArray()) {
        if (item.toObject().value(u"type"_s).toString() == u"text"_s)
            return QJsonDocument::fromJson(item.toObject().value(u"text"_s).toString().toUtf8()).object();
    }
    return {};
}

class McpSdkFixture : public RealAppTest<McpSdkFixture>
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
        s_app->start(DesktopSession::fixtureBinary(), {u"--title"_s, u"SDK client"_s}, ready);
    }
};

class McpSdkMousepad : public RealAppTest<McpSdkMousepad>
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
};

} // namespace

// The SDK lists the tools (ghost-os's 26, ghost_clipboard, and the host's own, every schema an object) and calls
// find, type, click, wait, screenshot, window and annotate on the fixture; the fixture reports
// the typing and the click. An unknown tool and bad arguments are errors the SDK receives.
TEST_F(McpSdkFixture, TheOfficialClientListsAndCallsTheTools)
{
    const QJsonObject app{{u"app"_s, u"mdh-target-app"_s}};
    const auto with = [&](QJsonObject arguments) {
        arguments.insert(u"app"_s, u"mdh-target-app"_s);
        return arguments;
    };
    const QJsonObject run = runSdkClient(
        *s_app,
        {call(u"ghost_find"_s, with({{u"query"_s, u"Send"_s}, {u"role"_s, u"AXButton"_s}})),
         call(u"ghost_type"_s, with({{u"text"_s, u"via the SDK"_s}, {u"into"_s, u"Message"_s}, {u"clear"_s, true}})),
         call(u"ghost_click"_s, with({{u"query"_s, u"Send"_s}, {u"role"_s, u"AXButton"_s}})),
         call(u"ghost_wait"_s,
              with({{u"condition"_s, u"elementExists"_s}, {u"value"_s, u"Sent: via the SDK"_s}, {u"timeout"_s, 5}})),
         call(u"ghost_screenshot"_s, {}), call(u"ghost_window"_s, with({{u"action"_s, u"list"_s}})),
         call(u"ghost_annotate"_s, app), call(u"ghost_fly"_s, {}), call(u"ghost_click"_s, {{u"query"_s, 5}})});
    ASSERT_FALSE(run.contains(u"fatal"_s)) << dump(run);

    const QJsonArray tools = run.value(u"tools"_s).toArray();
    int ghost = 0;
    for (const auto& name : tools)
        ghost += name.toString().startsWith(u"ghost_"_s);
    // ghost-os's 26, and ghost_clipboard, ghost_app, ghost_displays and ghost_file_dialog in its style.
    EXPECT_EQ(ghost, 30) << dump(run);
    for (const char* own : {"desktop_status", "desktop_abort", "desktop_evidence"})
        EXPECT_TRUE(tools.contains(QString::fromLatin1(own))) << own;
    EXPECT_TRUE(run.value(u"toolSchemasValid"_s).toBool());
    EXPECT_EQ(run.value(u"serverVersion"_s).toObject().value(u"name"_s).toString(), u"msgcode-desktop-mcp"_s);
    EXPECT_FALSE(run.value(u"instructions"_s).toString().isEmpty());

    EXPECT_EQ(structuredAt(run, 0).value(u"data"_s).toObject().value(u"count"_s).toInt(), 1) << dump(run);
    EXPECT_TRUE(structuredAt(run, 1).value(u"success"_s).toBool()) << dump(structuredAt(run, 1));
    EXPECT_TRUE(s_app->app()
                    .waitEvent(u"textChanged"_s, {{u"name"_s, u"Message"_s}, {u"text"_s, u"via the SDK"_s}})
                    .has_value());
    EXPECT_TRUE(structuredAt(run, 2).value(u"success"_s).toBool()) << dump(structuredAt(run, 2));
    EXPECT_TRUE(s_app->app().waitEvent(u"clicked"_s, {{u"name"_s, u"Send"_s}}).has_value());
    EXPECT_TRUE(structuredAt(run, 3).value(u"data"_s).toObject().value(u"met"_s).toBool())
        << dump(structuredAt(run, 3));

    // The screenshot: a PNG of the display's size.
    const QJsonArray shot = resultAt(run, 4).value(u"content"_s).toArray();
    ASSERT_EQ(shot.size(), 2) << dump(resultAt(run, 4));
    QImage image;
    ASSERT_TRUE(image.loadFromData(QByteArray::fromBase64(shot.at(0).toObject().value(u"data"_s).toString().toLatin1()),
                                   "PNG"));
    const QStringList size = runCommand(u"xdotool"_s, {u"getdisplaygeometry"_s}).out.trimmed().split(u' ');
    ASSERT_EQ(size.size(), 2);
    EXPECT_EQ(image.size(), QSize(size.at(0).toInt(), size.at(1).toInt()));

    const QJsonArray windows = structuredAt(run, 5).value(u"data"_s).toObject().value(u"windows"_s).toArray();
    ASSERT_EQ(windows.size(), 1) << dump(structuredAt(run, 5));
    EXPECT_EQ(windows.first().toObject().value(u"title"_s).toString(), u"SDK client"_s);

    const QJsonArray annotated = resultAt(run, 6).value(u"content"_s).toArray();
    ASSERT_EQ(annotated.size(), 2) << dump(resultAt(run, 6));
    EXPECT_TRUE(annotated.at(1).toObject().value(u"text"_s).toString().contains(u"Button \"Send\""_s));

    EXPECT_TRUE(resultAt(run, 7).value(u"isError"_s).toBool());
    EXPECT_EQ(structuredAt(run, 7).value(u"error"_s).toString(), u"Unknown tool: ghost_fly"_s);
    EXPECT_TRUE(resultAt(run, 8).value(u"isError"_s).toBool());
    EXPECT_TRUE(structuredAt(run, 8).value(u"error"_s).toString().startsWith(u"Missing required parameter"_s))
        << dump(structuredAt(run, 8));
}

// The vision tools through the official client: ghost_parse_screen merges the tree and the text
// on screen, ghost_ground finds a button by the tree and drawn text (a Tk canvas, which no tree
// names) by OCR, and a click at the point it gives lands: the Tk window prints what was clicked.
TEST_F(McpSdkFixture, TheVisionToolsAnswerFromTheTreeAndFromThePixels)
{
    QProcess tk;
    tk.start(u"wish"_s, {QStringLiteral(MDH_E2E_DATA_DIR) + u"/tk_ocr.tcl"_s});
    ASSERT_TRUE(tk.waitForStarted(5000));
    QByteArray output;
    QDeadlineTimer until(15000);
    while (!output.contains("ready") && !until.hasExpired()) {
        tk.waitForReadyRead(200);
        output += tk.readAllStandardOutput();
    }
    ASSERT_TRUE(output.contains("ready")) << "wish did not show its window";
    const QJsonObject run =
        runSdkClient(*s_app, {call(u"ghost_parse_screen"_s, {{u"app"_s, u"mdh-target-app"_s}, {u"marks"_s, true}}),
                              call(u"ghost_ground"_s, {{u"description"_s, u"Send"_s}, {u"app"_s, u"mdh-target-app"_s}}),
                              call(u"ghost_ground"_s, {{u"description"_s, u"Launch rocket"_s}}),
                              call(u"ghost_ground"_s, {{u"description"_s, u"Self-destruct sequence"_s}})});
    ASSERT_FALSE(run.contains(u"fatal"_s)) << dump(run);

    const QJsonArray elements = structuredAt(run, 0).value(u"data"_s).toObject().value(u"elements"_s).toArray();
    bool sendFromTree = false;
    for (const auto& e : elements) {
        const QJsonObject element = e.toObject();
        if (element.value(u"label"_s).toString() == u"Send"_s && element.value(u"source"_s).toString() == u"ax"_s)
            sendFromTree = true;
        EXPECT_TRUE(element.contains(u"position"_s) && element.contains(u"size"_s) && element.contains(u"confidence"_s))
            << dump(element);
    }
    EXPECT_TRUE(sendFromTree) << dump(structuredAt(run, 0));
    // Asked for marks: the app's window with each element's number drawn on it, the elements
    // numbered 1, 2, … in order.
    QImage marked;
    for (const auto& item : resultAt(run, 0).value(u"content"_s).toArray()) {
        if (item.toObject().value(u"type"_s).toString() == u"image"_s)
            marked.loadFromData(QByteArray::fromBase64(item.toObject().value(u"data"_s).toString().toLatin1()), "PNG");
    }
    EXPECT_FALSE(marked.isNull()) << "no marked image";
    EXPECT_LE(marked.width(), 1280);
    for (int i = 0; i < elements.size(); ++i)
        EXPECT_EQ(elements.at(i).toObject().value(u"mark"_s).toInt(), i + 1);

    const QJsonObject send = structuredAt(run, 1).value(u"data"_s).toObject();
    EXPECT_EQ(send.value(u"method"_s).toString(), u"ax"_s) << dump(structuredAt(run, 1));
    EXPECT_GE(send.value(u"confidence"_s).toDouble(), 0.9);

    const QJsonObject rocket = structuredAt(run, 2).value(u"data"_s).toObject();
    ASSERT_EQ(rocket.value(u"method"_s).toString(), u"ocr"_s) << dump(structuredAt(run, 2));
    EXPECT_GT(rocket.value(u"confidence"_s).toDouble(), 0.5);
    EXPECT_FALSE(structuredAt(run, 3).value(u"success"_s).toBool(true)) << dump(structuredAt(run, 3));
    EXPECT_TRUE(structuredAt(run, 3).value(u"error"_s).toString().contains(u"no vision provider"_s));

    const QJsonObject click = runSdkClient(
        *s_app, {call(u"ghost_click"_s, {{u"x"_s, rocket.value(u"x"_s)}, {u"y"_s, rocket.value(u"y"_s)}})});
    ASSERT_FALSE(click.contains(u"fatal"_s)) << dump(click);
    QDeadlineTimer clicked(5000);
    while (!output.contains("canvas:Launch rocket") && !clicked.hasExpired()) {
        tk.waitForReadyRead(200);
        output += tk.readAllStandardOutput();
    }
    EXPECT_TRUE(output.contains("canvas:Launch rocket")) << dump(structuredAt(click, 0));
    tk.kill();
    tk.waitForFinished(3000);
}

// The SDK closes its client in the middle of a ghost_wait: the door goes away, and the host aborts
// the wait. Its evidence says DESKTOP_ABORTED, reason disconnected.
TEST_F(McpSdkFixture, ClosingTheClientMidWaitAbortsTheExecution)
{
    const QJsonObject run = runSdkClient(*s_app,
                                         {call(u"ghost_wait"_s, {{u"app"_s, u"mdh-target-app"_s},
                                                                 {u"condition"_s, u"elementExists"_s},
                                                                 {u"value"_s, u"Never shown"_s},
                                                                 {u"timeout"_s, 60}})},
                                         1500);
    ASSERT_FALSE(run.contains(u"fatal"_s)) << dump(run);
    EXPECT_TRUE(run.value(u"results"_s).toArray().at(0).toObject().value(u"aborted"_s).toBool()) << dump(run);

    // The newest execution of the workspace: the wait, aborted because its caller left.
    QJsonObject response;
    QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        QDirIterator it(s_app->desktop().workspace() + u"/artifacts/desktop"_s, {u"response.json"_s}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const QJsonObject candidate = QJsonDocument::fromJson(file.readAll()).object();
            if (candidate.value(u"error"_s).toObject().value(u"code"_s).toString() == u"DESKTOP_ABORTED"_s)
                response = candidate;
        }
        if (!response.isEmpty())
            break;
        QThread::msleep(200);
    }
    ASSERT_FALSE(response.isEmpty()) << "no aborted execution in the workspace's evidence";
    EXPECT_EQ(response.value(u"error"_s).toObject().value(u"details"_s).toObject().value(u"reason"_s).toString(),
              u"disconnected"_s)
        << dump(response);
}

// On mousepad (GTK 3): typing into the document through the SDK, read back by pyatspi.
TEST_F(McpSdkMousepad, TheOfficialClientTypesIntoMousepad)
{
    const QJsonObject run =
        runSdkClient(*s_app, {call(u"ghost_type"_s, {{u"app"_s, u"mousepad"_s}, {u"text"_s, u"typed by the SDK"_s}}),
                              call(u"ghost_read"_s, {{u"app"_s, u"mousepad"_s}})});
    ASSERT_FALSE(run.contains(u"fatal"_s)) << dump(run);
    EXPECT_TRUE(structuredAt(run, 0).value(u"success"_s).toBool()) << dump(structuredAt(run, 0));
    EXPECT_EQ(readUntil([] { return soleText(*s_app, documentQuery()).value_or(QString()); }, u"typed by the SDK"_s),
              u"typed by the SDK"_s);
    EXPECT_TRUE(
        structuredAt(run, 1).value(u"data"_s).toObject().value(u"content"_s).toString().contains(u"typed by the SDK"_s))
        << dump(structuredAt(run, 1));
}
