#include "HostProcess.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <csignal>
#include <sys/stat.h>

namespace Testing {

HostProcess::HostProcess(QString socketPath, QStringList extraArgs, QProcessEnvironment env)
    : m_socketPath(std::move(socketPath)), m_args(std::move(extraArgs)), m_env(std::move(env))
{
    if (m_env.isEmpty())
        m_env = QProcessEnvironment::systemEnvironment();
    // Tests read the host's human output: keep it in the source language whatever the locale.
    m_env.insert(QStringLiteral("MSGCODE_DESKTOP_LANG"), QStringLiteral("C"));
    if (m_socketPath.isEmpty())
        m_socketPath = m_dir.path() + QStringLiteral("/run/bridge.sock");
    QDir(m_dir.path()).mkpath(QStringLiteral("root"));
    m_root = m_dir.path() + QStringLiteral("/root");
    if (!m_env.contains(QStringLiteral("WORKSPACE_ROOT")))
        m_env.insert(QStringLiteral("WORKSPACE_ROOT"), m_root);
    else
        m_root = m_env.value(QStringLiteral("WORKSPACE_ROOT"));
    const qsizetype dataArg = m_args.indexOf(QStringLiteral("--data-dir"));
    if (dataArg >= 0 && dataArg + 1 < m_args.size()) {
        m_dataDir = m_args.at(dataArg + 1);
    } else {
        m_dataDir = m_dir.path() + QStringLiteral("/data");
        m_args << QStringLiteral("--data-dir") << m_dataDir;
    }
    // The owner's rules, as msgcode's unattended set-up has them for the apps it drives: every
    // action allowed, unless the test names its own policy (the policy tests).
    if (!m_args.contains(QStringLiteral("--policy"))) {
        const QString policy = m_dir.path() + QStringLiteral("/policy.json");
        QFile file(policy);
        if (file.open(QIODevice::WriteOnly))
            file.write(R"({"rules": [{"name": "tests-allow-all", "decision": "allow"}]})");
        m_args << QStringLiteral("--policy") << policy;
    }
    m_process.setProcessEnvironment(m_env);
    m_process.setProgram(QStringLiteral(MDH_HOST_BINARY));
    m_process.setArguments(QStringList{QStringLiteral("--headless"), QStringLiteral("--socket"), m_socketPath} +
                           m_args);
}

HostProcess::~HostProcess()
{
    if (m_process.state() != QProcess::NotRunning) {
        terminate(5000);
        if (m_process.state() != QProcess::NotRunning)
            kill();
    }
}

bool HostProcess::start(int timeoutMs)
{
    m_process.start();
    if (!m_process.waitForStarted(timeoutMs))
        return false;
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (m_process.canReadLine() || m_process.waitForReadyRead(100)) {
            m_output += QString::fromUtf8(m_process.readAllStandardOutput());
            if (m_output.contains(QStringLiteral("serving on")))
                return true;
        }
        if (m_process.state() == QProcess::NotRunning)
            return false;
    }
    return false;
}

int HostProcess::terminate(int timeoutMs)
{
    if (m_process.state() == QProcess::NotRunning)
        return m_process.exitCode();
    ::kill(static_cast<pid_t>(m_process.processId()), SIGTERM);
    if (!m_process.waitForFinished(timeoutMs))
        return -1;
    return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
}

QList<QJsonObject> HostProcess::auditLines() const
{
    QList<QJsonObject> lines;
    QFile file(m_dataDir + QStringLiteral("/audit.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return lines;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (!line.trimmed().isEmpty())
            lines.append(QJsonDocument::fromJson(line).object());
    }
    return lines;
}

void HostProcess::kill()
{
    m_process.kill();
    m_process.waitForFinished(5000);
}

CommandResult runCommand(const QString& program, const QStringList& args, const QProcessEnvironment& env, int timeoutMs)
{
    QProcess process;
    // Tests read the programs' human output: keep it in the source language whatever the locale.
    QProcessEnvironment environment = env;
    environment.insert(QStringLiteral("MSGCODE_DESKTOP_LANG"), QStringLiteral("C"));
    process.setProcessEnvironment(environment);
    process.start(program, args);
    CommandResult result;
    if (!process.waitForStarted(5000))
        return result;
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

namespace {

// Where another user can reach the sandbox: /tmp, unless this machine keeps it to root (0700),
// then /var/tmp.
QString sandboxBase()
{
    const QFileInfo tmp(QStringLiteral("/tmp"));
    return tmp.permission(QFile::ExeOther) ? QStringLiteral("/tmp") : QStringLiteral("/var/tmp");
}

} // namespace

OtherUserSandbox::OtherUserSandbox() : m_dir(sandboxBase() + QStringLiteral("/mdh-uid-XXXXXX"))
{
    if (!m_dir.isValid())
        return;
    // The tests-only 0666 socket mode lets nobody connect through these 0755 directories, so
    // only the SO_PEERCRED uid check can refuse it.
    ::chmod(QFile::encodeName(m_dir.path()).constData(), 0755);
    QDir(m_dir.path()).mkpath(QStringLiteral("run"));
    ::chmod(QFile::encodeName(m_dir.path() + QStringLiteral("/run")).constData(), 0755);
    m_ctl = m_dir.path() + QStringLiteral("/msgcode-desktopctl");
    m_valid =
        QFile::copy(QStringLiteral(MDH_CTL_BINARY), m_ctl) && ::chmod(QFile::encodeName(m_ctl).constData(), 0755) == 0;
}

CommandResult OtherUserSandbox::ctlAsNobody(const QStringList& args) const
{
    return runCommand(QStringLiteral("runuser"),
                      QStringList{QStringLiteral("-u"), QStringLiteral("nobody"), QStringLiteral("--"), m_ctl,
                                  QStringLiteral("--socket"), socketPath()} +
                          args);
}

} // namespace Testing
