#include "E2eSupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>

#include <csignal>

namespace Testing {

AppProcess::AppProcess(const QString& program, const QStringList& args)
{
    m_process.setProgram(program);
    m_process.setArguments(args);
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    m_errorLog.setFileTemplate(QDir::tempPath() + QStringLiteral("/mdh-app-stderr-XXXXXX.log"));
    // Never a pipe: without the file, stderr goes nowhere.
    m_process.setStandardErrorFile(m_errorLog.open() ? m_errorLog.fileName() : QProcess::nullDevice(),
                                   QIODevice::Append);
}

AppProcess::~AppProcess()
{
    kill();
}

bool AppProcess::start(bool waitReady, int timeoutMs)
{
    m_process.start();
    if (!m_process.waitForStarted(timeoutMs))
        return false;
    if (!waitReady)
        return true;
    if (!waitEvent(QStringLiteral("ready"), {}, timeoutMs))
        return false;
    // The window is shown; give the toolkit a moment to publish its tree on the bus.
    QThread::msleep(300);
    return true;
}

void AppProcess::readLines()
{
    m_buffer += m_process.readAllStandardOutput();
    qsizetype newline;
    while ((newline = m_buffer.indexOf('\n')) >= 0) {
        const QJsonObject event = QJsonDocument::fromJson(m_buffer.left(newline)).object();
        m_buffer.remove(0, newline + 1);
        if (!event.isEmpty())
            m_events.append(event);
    }
}

std::optional<QJsonObject> AppProcess::waitEvent(const QString& event, const QJsonObject& fields, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (true) {
        readLines();
        for (qsizetype i = 0; i < m_events.size(); ++i) {
            const QJsonObject& e = m_events.at(i);
            if (e.value(QStringLiteral("event")).toString() != event)
                continue;
            bool match = true;
            for (auto it = fields.constBegin(); it != fields.constEnd(); ++it)
                match = match && e.value(it.key()) == it.value();
            if (match) {
                const QJsonObject found = e;
                m_events.remove(0, i + 1);
                return found;
            }
        }
        if (deadline.hasExpired() || m_process.state() == QProcess::NotRunning)
            return std::nullopt;
        m_process.waitForReadyRead(static_cast<int>(std::clamp<qint64>(deadline.remainingTime(), 1, 100)));
    }
}

QList<QJsonObject> AppProcess::events()
{
    readLines();
    return m_events;
}

QByteArray AppProcess::errorTail(qint64 bytes)
{
    QFile log(m_errorLog.fileName());
    if (!log.open(QIODevice::ReadOnly))
        return {};
    log.seek(std::max<qint64>(0, log.size() - bytes));
    return log.readAll();
}

void AppProcess::discardEvents()
{
    readLines();
    m_events.clear();
}

void AppProcess::kill()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    ::kill(static_cast<pid_t>(m_process.processId()), SIGTERM);
    if (!m_process.waitForFinished(3000)) {
        m_process.kill();
        m_process.waitForFinished(3000);
    }
}

bool DesktopSession::available(QString* why)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") || qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) {
        *why = QStringLiteral("needs the headless desktop of scripts/test (DISPLAY and a session bus)");
        return false;
    }
    return true;
}

DesktopSession::DesktopSession() = default;

bool DesktopSession::start()
{
    m_host = std::make_unique<HostProcess>(QString(), m_hostArgs);
    if (!m_host->start())
        return false;
    m_workspace = m_host->workspaceRoot() + QStringLiteral("/ws");
    QDir().mkpath(m_workspace);
    m_client = std::make_unique<Bridge::Client>();
    return m_client->connectToServer(m_host->socketPath(), 5000);
}

QJsonObject DesktopSession::call(const QString& method, QJsonObject params, int timeoutMs)
{
    Bridge::MetaFill fill;
    fill.workspacePath = m_workspace;
    fill.timeoutMs = timeoutMs;
    m_client->setMetaFill(fill);
    // The host's deadline, and 5 s for the answer to travel; empty when none came.
    return m_client->call(method, params, timeoutMs + 5000).response;
}

QJsonObject DesktopSession::route(qint64 pid, const QString& focusPolicy)
{
    QJsonObject route{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), pid}}}};
    if (!focusPolicy.isEmpty())
        route.insert(QStringLiteral("focusPolicy"), focusPolicy);
    return route;
}

QString DesktopSession::fixtureBinary()
{
    return QStringLiteral(MDH_FIXTURE_BINARY);
}

QString evidenceDir(const QJsonObject& response)
{
    return response.value(QStringLiteral("result"))
        .toObject()
        .value(QStringLiteral("evidence"))
        .toObject()
        .value(QStringLiteral("dir"))
        .toString();
}

DesktopSession* SessionSuite::s_session = nullptr;

void SessionSuite::SetUpTestSuite()
{
    QString why;
    if (!DesktopSession::available(&why))
        return;
    s_session = new DesktopSession;
    if (!s_session->start()) {
        delete s_session;
        s_session = nullptr;
    }
}

void SessionSuite::TearDownTestSuite()
{
    delete s_session;
    s_session = nullptr;
}

void SessionSuite::SetUp()
{
    QString why;
    if (!DesktopSession::available(&why))
        GTEST_SKIP() << why.toStdString();
    ASSERT_NE(s_session, nullptr) << "the host did not start";
}

QByteArray xclipOut(const QString& target)
{
    // The bytes as they are (an image is no text).
    QProcess xclip;
    xclip.start(QStringLiteral("xclip"), {QStringLiteral("-selection"), QStringLiteral("clipboard"),
                                          QStringLiteral("-o"), QStringLiteral("-t"), target});
    if (!xclip.waitForFinished(5000)) {
        xclip.kill();
        xclip.waitForFinished(1000);
        return {};
    }
    return xclip.readAllStandardOutput();
}

bool xclipIn(const QByteArray& data, const QString& target)
{
    QProcess xclip;
    xclip.start(QStringLiteral("xclip"), {QStringLiteral("-selection"), QStringLiteral("clipboard"),
                                          QStringLiteral("-t"), target, QStringLiteral("-i")});
    if (!xclip.waitForStarted(5000))
        return false;
    xclip.write(data);
    xclip.closeWriteChannel();
    if (!xclip.waitForFinished(5000) || xclip.exitCode() != 0)
        return false;
    // The copy is done once another client reads exactly these bytes as `target` (an earlier
    // owner may have offered the same type with other bytes).
    QDeadlineTimer until(5000);
    while (!until.hasExpired()) {
        if (xclipOut(target) == data)
            return true;
        QThread::msleep(20);
    }
    return false;
}

} // namespace Testing
