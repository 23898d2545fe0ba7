#pragma once

#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>

namespace Testing {

/// The real msgcode-desktop-host executable, started for a test and stopped with it.
class HostProcess
{
public:
    /// `socketPath` empty: one in a private temp dir. WORKSPACE_ROOT: a temp dir unless given.
    /// `--data-dir`: a temp dir unless `extraArgs` give one.
    explicit HostProcess(QString socketPath = {}, QStringList extraArgs = {}, QProcessEnvironment env = {});
    ~HostProcess();

    /// Starts and waits until it prints that it serves (or exits).
    bool start(int timeoutMs = 10000);
    /// SIGTERM and wait; the exit code, or -1 if it did not exit.
    int terminate(int timeoutMs = 10000);
    void kill();

    QString socketPath() const { return m_socketPath; }
    QString workspaceRoot() const { return m_root; }
    QString dataDir() const { return m_dataDir; }
    /// The lines of `<dataDir>/audit.jsonl` (the host writes them a moment after the event).
    QList<QJsonObject> auditLines() const;
    QProcess& process() { return m_process; }
    QString output() const { return m_output; }
    QProcessEnvironment environment() const { return m_env; }

private:
    QTemporaryDir m_dir;
    QString m_socketPath;
    QString m_root;
    QString m_dataDir;
    QStringList m_args;
    QProcessEnvironment m_env;
    QProcess m_process;
    QString m_output;
};

struct CommandResult
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// A place another user can reach: a traversable temp directory with a run/ directory for the
/// socket and a copy of msgcode-desktopctl, for tests of the peer-uid check (root only).
class OtherUserSandbox
{
public:
    OtherUserSandbox();
    bool isValid() const { return m_valid; }
    QString socketPath() const { return m_dir.path() + QStringLiteral("/run/bridge.sock"); }
    /// msgcode-desktopctl ARGS run as `nobody` against socketPath().
    CommandResult ctlAsNobody(const QStringList& args) const;

private:
    QTemporaryDir m_dir;
    QString m_ctl;
    bool m_valid = false;
};

/// Runs a program to completion (30 s at most), with an optional environment.
CommandResult runCommand(const QString& program, const QStringList& args,
                         const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                         int timeoutMs = 30000);

} // namespace Testing
