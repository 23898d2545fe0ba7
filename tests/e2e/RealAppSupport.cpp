#include "RealAppSupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QThread>

#include <csignal>

using namespace Qt::StringLiterals;

namespace Testing {

namespace {

QString probeScript()
{
    return QStringLiteral(MDH_E2E_DATA_DIR "/atspi_probe.py");
}

std::optional<QRect> rectFrom(const QJsonValue& value)
{
    const QJsonArray box = value.toArray();
    if (box.size() != 4)
        return std::nullopt;
    return QRect(box.at(0).toInt(), box.at(1).toInt(), box.at(2).toInt(), box.at(3).toInt());
}

} // namespace

ProbeResult probe(qint64 pid, const ProbeQuery& query)
{
    QStringList args{probeScript(), u"--pid"_s, QString::number(pid)};
    if (!query.role.isEmpty())
        args << u"--role"_s << query.role;
    if (query.name)
        args << u"--name"_s << *query.name;
    if (!query.nameContains.isEmpty())
        args << u"--name-contains"_s << query.nameContains;
    for (const QString& state : query.states)
        args << u"--state"_s << state;
    if (query.windowName)
        args << u"--window-name"_s << *query.windowName;
    args << u"--min-count"_s << QString::number(query.minCount);
    if (query.maxCount >= 0)
        args << u"--max-count"_s << QString::number(query.maxCount);
    if (query.waitMs > 0)
        args << u"--wait-ms"_s << QString::number(query.waitMs);
    if (query.press)
        args << u"--press"_s;
    // The distribution's interpreter: the one on PATH may be a build without pyatspi.
    const CommandResult run =
        runCommand(u"/usr/bin/python3"_s, args, QProcessEnvironment::systemEnvironment(), query.waitMs + 20000);
    ProbeResult result;
    result.error = run.err.trimmed();
    result.ok = run.exitCode == 0;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out.toUtf8(), &parseError);
    if (!doc.isArray()) {
        result.ok = false;
        result.error = u"probe printed no JSON array (exit %1): %2 %3"_s.arg(run.exitCode).arg(run.out, run.err);
        return result;
    }
    for (const QJsonValue& value : doc.array()) {
        const QJsonObject o = value.toObject();
        ProbeNode node;
        node.role = o.value(u"role"_s).toString();
        node.name = o.value(u"name"_s).toString();
        for (const QJsonValue& s : o.value(u"states"_s).toArray())
            node.states << s.toString();
        if (o.value(u"text"_s).isString())
            node.text = o.value(u"text"_s).toString();
        node.extents = rectFrom(o.value(u"extents"_s));
        node.window = o.value(u"window"_s).toString();
        result.nodes << node;
    }
    return result;
}

QList<XWindow> xWindows(qint64 pid)
{
    QList<XWindow> windows;
    const CommandResult ids =
        runCommand(u"xdotool"_s, {u"search"_s, u"--onlyvisible"_s, u"--pid"_s, QString::number(pid)});
    for (const QString& id : ids.out.split(u'\n', Qt::SkipEmptyParts)) {
        XWindow window;
        window.id = id.trimmed();
        const CommandResult geometry = runCommand(u"xdotool"_s, {u"getwindowgeometry"_s, u"--shell"_s, window.id});
        if (geometry.exitCode != 0)
            continue; // gone meanwhile
        QHash<QString, int> values;
        for (const QString& line : geometry.out.split(u'\n', Qt::SkipEmptyParts)) {
            const qsizetype eq = line.indexOf(u'=');
            if (eq > 0)
                values.insert(line.left(eq), line.mid(eq + 1).toInt());
        }
        window.geometry =
            QRect(values.value(u"X"_s), values.value(u"Y"_s), values.value(u"WIDTH"_s), values.value(u"HEIGHT"_s));
        window.name = runCommand(u"xdotool"_s, {u"getwindowname"_s, window.id}).out;
        if (window.name.endsWith(u'\n'))
            window.name.chop(1);
        windows << window;
    }
    return windows;
}

std::optional<XWindow> mainXWindow(qint64 pid)
{
    std::optional<XWindow> best;
    for (const XWindow& window : xWindows(pid)) {
        const qint64 area = qint64(window.geometry.width()) * window.geometry.height();
        if (!best || area > qint64(best->geometry.width()) * best->geometry.height())
            best = window;
    }
    return best;
}

QString waitForWindowTitle(qint64 pid, const std::function<bool(const QString&)>& accept, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    QString title;
    while (true) {
        if (const auto window = mainXWindow(pid))
            title = window->name;
        if (accept(title) || deadline.hasExpired())
            return title;
        QThread::msleep(100);
    }
}

std::optional<QPointF> redCentre(const QImage& image)
{
    double sx = 0;
    double sy = 0;
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() > 200 && c.green() < 60 && c.blue() < 60) {
                sx += x;
                sy += y;
                ++n;
            }
        }
    }
    if (n == 0)
        return std::nullopt;
    return QPointF(sx / n, sy / n);
}

std::optional<QByteArray> waitForFile(const QString& path, const QByteArray& expected, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    std::optional<QByteArray> content;
    while (true) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly))
            content = file.readAll();
        if ((content && *content == expected) || deadline.hasExpired())
            return content;
        QThread::msleep(100);
    }
}

std::string dump(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString();
}

::testing::AssertionResult isConfirmed(const QJsonObject& response, const QString& booleanField)
{
    const QJsonObject result = resultOf(response);
    if (result.isEmpty())
        return ::testing::AssertionFailure() << "an error, not a result: " << dump(response);
    if (!result.value(booleanField).toBool())
        return ::testing::AssertionFailure() << booleanField.toStdString() << " is not true: " << dump(result);
    if (result.value(u"effect"_s).toString() != u"confirmed"_s)
        return ::testing::AssertionFailure() << "effect is not \"confirmed\": " << dump(result);
    return ::testing::AssertionSuccess();
}

bool answeredTrue(const QJsonObject& response, const QString& booleanField)
{
    return resultOf(response).value(booleanField).toBool();
}

RealAppSession::RealAppSession() : m_env(QProcessEnvironment::systemEnvironment())
{
    // Each app starts from nothing: no settings, drafts or sessions of an earlier run.
    const QString home = m_dir.path();
    m_env.insert(u"HOME"_s, home);
    m_env.insert(u"XDG_CONFIG_HOME"_s, home + u"/.config"_s);
    m_env.insert(u"XDG_DATA_HOME"_s, home + u"/.local/share"_s);
    m_env.insert(u"XDG_STATE_HOME"_s, home + u"/.local/state"_s);
    m_env.insert(u"XDG_CACHE_HOME"_s, home + u"/.cache"_s);
    m_env.remove(u"NO_AT_BRIDGE"_s);
}

RealAppSession::~RealAppSession()
{
    if (m_app) {
        // A test that stopped the app (SIGSTOP) must not leave it unable to act on SIGTERM.
        ::kill(static_cast<pid_t>(m_app->pid()), SIGCONT);
        m_app->kill();
    }
}

bool RealAppSession::start(const QString& program, const QStringList& args, const ProbeQuery& ready, int readyTimeoutMs)
{
    if (!m_dir.isValid()) {
        m_failure = u"no temporary directory: "_s + m_dir.errorString();
        return false;
    }
    if (!m_desktop.start()) {
        m_failure = u"the host did not start: "_s + m_desktop.host().output();
        return false;
    }
    m_app = std::make_unique<AppProcess>(program, args);
    m_app->process().setProcessEnvironment(m_env);
    m_app->process().setWorkingDirectory(m_dir.path());
    if (!m_app->start(false)) {
        m_failure = u"cannot start %1 (scripts/setup installs it): %2"_s.arg(program, m_app->process().errorString());
        return false;
    }
    ProbeQuery wait = ready;
    wait.minCount = std::max(1, wait.minCount);
    wait.waitMs = readyTimeoutMs;
    const ProbeResult seen = probe(wait);
    if (!seen.ok) {
        m_failure = u"%1 did not show its accessibility tree within %2 ms (%3): %4; its stderr ends: %5"_s.arg(
            program, QString::number(readyTimeoutMs),
            m_app->process().state() == QProcess::Running ? u"running"_s : u"exited"_s, seen.error,
            QString::fromUtf8(m_app->errorTail(1500)));
        return false;
    }
    return true;
}

QJsonObject RealAppSession::answer(const QJsonObject& response)
{
    if (!response.isEmpty())
        return response;
    // No answer at all: say whether the host is still there, and what it last printed.
    QProcess& host = m_desktop.host().process();
    const QString output = QString::fromUtf8(host.readAllStandardOutput() + host.readAllStandardError()).right(2000);
    return QJsonObject{{u"noAnswer"_s, QJsonObject{{u"hostRunning"_s, host.state() == QProcess::Running},
                                                   {u"hostExitCode"_s, host.exitCode()},
                                                   {u"hostOutput"_s, output}}}};
}

QJsonObject RealAppSession::route(const QString& windowTitlePattern) const
{
    QJsonObject route = DesktopSession::route(pid());
    if (!windowTitlePattern.isEmpty())
        route.insert(u"window"_s, QJsonObject{{u"titlePattern"_s, windowTitlePattern}});
    return route;
}

QJsonObject RealAppSession::call(const QString& method, QJsonObject params, bool sideEffect, int timeoutMs)
{
    if (!params.contains(u"route"_s) && !params.contains(u"rect"_s))
        params.insert(u"route"_s, route());
    if (sideEffect)
        params.insert(u"confirm"_s, confirmPhrase());
    return answer(m_desktop.call(method, params, timeoutMs));
}

QJsonObject RealAppSession::find(const QJsonObject& selector, const QString& window, int timeoutMs)
{
    return answer(
        m_desktop.call(u"desktop.find"_s, {{u"route"_s, route(window)}, {u"selector"_s, selector}}, timeoutMs));
}

QJsonObject RealAppSession::click(const QJsonObject& selector, const QString& window, int timeoutMs)
{
    return answer(m_desktop.call(u"desktop.click"_s,
                                 {{u"route"_s, route(window)},
                                  {u"confirm"_s, confirmPhrase()},
                                  {u"target"_s, QJsonObject{{u"selector"_s, selector}}}},
                                 timeoutMs));
}

QJsonObject RealAppSession::typeText(const QJsonObject& selector, const QString& text, bool clearBefore,
                                     const QString& window, int timeoutMs)
{
    QJsonObject params{{u"route"_s, route(window)}, {u"confirm"_s, confirmPhrase()}, {u"text"_s, text}};
    if (!selector.isEmpty())
        params.insert(u"target"_s, QJsonObject{{u"selector"_s, selector}});
    if (clearBefore)
        params.insert(u"options"_s, QJsonObject{{u"clearBefore"_s, true}});
    return answer(m_desktop.call(u"desktop.typeText"_s, params, timeoutMs));
}

QJsonObject RealAppSession::approvalForTyping(const QJsonObject& selector, const QString& text, int timeoutMs)
{
    const auto approvals = [this] {
        QList<QJsonObject> lines;
        for (const QJsonObject& line : m_desktop.host().auditLines()) {
            if (line.value(u"event"_s).toString() == u"approval"_s)
                lines.append(line);
        }
        return lines;
    };
    const qsizetype before = approvals().size();
    const QJsonObject intent{
        {u"method"_s, u"desktop.typeText"_s},
        {u"params"_s,
         QJsonObject{{u"route"_s, route()}, {u"target"_s, QJsonObject{{u"selector"_s, selector}}}, {u"text"_s, text}}}};
    m_desktop.call(u"desktop.confirm.issue"_s, {{u"intent"_s, intent}}, timeoutMs);
    QDeadlineTimer deadline(5000);
    while (!deadline.hasExpired()) {
        const auto lines = approvals();
        if (lines.size() > before)
            return lines.last();
        QThread::msleep(50);
    }
    return {};
}

QJsonObject RealAppSession::hotkey(const QStringList& keys, int timeoutMs)
{
    return answer(m_desktop.call(
        u"desktop.hotkey"_s,
        {{u"route"_s, route()}, {u"confirm"_s, confirmPhrase()}, {u"keys"_s, QJsonArray::fromStringList(keys)}},
        timeoutMs));
}

QJsonObject RealAppSession::waitUntil(const QJsonObject& selector, int timeoutMs, int pollMs, const QString& window)
{
    return answer(m_desktop.call(u"desktop.waitUntil"_s,
                                 {{u"route"_s, route(window)},
                                  {u"condition"_s, QJsonObject{{u"selectorExists"_s, selector}}},
                                  {u"pollMs"_s, pollMs},
                                  {u"timeoutMs"_s, timeoutMs}},
                                 timeoutMs + 5000));
}

CoverWindow::CoverWindow(const QProcessEnvironment& environment, const QRect& rect, const QString& title)
{
    m_process.setProcessEnvironment(environment);
    m_process.start(u"/usr/bin/python3"_s,
                    {QStringLiteral(MDH_E2E_DATA_DIR "/cover_window.py"), QString::number(rect.x()),
                     QString::number(rect.y()), QString::number(rect.width()), QString::number(rect.height()), title});
    if (!m_process.waitForStarted(5000))
        return;
    QDeadlineTimer deadline(10000);
    QByteArray out;
    while (!deadline.hasExpired() && !out.contains("shown")) {
        m_process.waitForReadyRead(200);
        out += m_process.readAllStandardOutput();
    }
    while (!deadline.hasExpired() && !m_shown) {
        m_shown = !xWindows(m_process.processId()).isEmpty();
        if (!m_shown)
            QThread::msleep(100);
    }
}

CoverWindow::~CoverWindow()
{
    close();
}

void CoverWindow::close()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    const qint64 pid = m_process.processId();
    m_process.kill();
    m_process.waitForFinished(5000);
    // Until the window manager has unmapped it, it still covers what it covered.
    QDeadlineTimer deadline(5000);
    while (!deadline.hasExpired() && !xWindows(pid).isEmpty())
        QThread::msleep(100);
}

ProbeQuery documentQuery()
{
    ProbeQuery query;
    query.role = u"text"_s;
    query.states = {u"multi line"_s, u"editable"_s};
    return query;
}

std::optional<QString> soleText(const RealAppSession& app, const ProbeQuery& query)
{
    const ProbeResult seen = app.probe(query);
    if (seen.nodes.size() != 1)
        return std::nullopt;
    return seen.nodes.first().text;
}

QJsonObject byRoleAndTitle(const QString& role, const QString& title)
{
    return QJsonObject{{u"byRole"_s, role}, {u"titleEquals"_s, title}};
}

QJsonObject confirmPhrase()
{
    return QJsonObject{{u"phrase"_s, u"CONFIRM"_s}};
}

// One tool call in a fresh door process, msgcode's sequence; the tools/call result.
QJsonObject callTool(RealAppSession& app, const QString& name, const QJsonObject& arguments)
{
    QProcess door;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"MSGCODE_DESKTOP_SOCKET"_s, app.desktop().host().socketPath());
    env.insert(u"MSGCODE_DESKTOP_RECIPES_DIR"_s, app.dir() + u"/recipes"_s);
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

} // namespace Testing
