#pragma once

#include "app/HostSettings.h"
#include "bridge/Host.h"
#include "remote/RemoteAgent.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QProcessEnvironment>

#include <variant>

namespace App {

/// The host's command line: its options (one table, for --help and anything else that lists
/// them) and how they merge with the stored settings and the environment into the host's
/// options. Without widgets, so it is unit-tested.
///
/// Precedence: an option given on the command line wins; else, in GUI mode, the settings the
/// person saved; else the environment ($WORKSPACE_ROOT, $MSGCODE_DESKTOP_SOCKET); else the
/// default. --headless reads no stored settings (a server's behaviour is what its command line
/// says) and confirms nothing unless told to (--confirm-policy defaults to deny).
class HostCommandLine
{
    Q_DECLARE_TR_FUNCTIONS(Host)

public:
    HostCommandLine();

    /// Every option, in --help order.
    const QList<QCommandLineOption>& options() const { return m_options; }
    /// A parser with the description, --help, --version and every option.
    void configure(QCommandLineParser& parser) const;
    /// msgcode-desktop-host(1), written from the same option table (`--help-man` prints it).
    QString manPage() const;
    /// The hidden option that prints it.
    static QCommandLineOption helpManOption();

    /// What the merge gives: the host's options, headless or not, and the stored settings it
    /// used (in GUI mode) for the parts the windows read.
    struct Merged
    {
        Bridge::HostOptions host;
        bool headless = false;
        HostSettings stored;
        /// The remote agent's configuration (not set: off) and a bind code given to start it.
        Remote::RemoteConfig remote;
        QString remoteBindCode;
        /// --inspector: open the inspector (in the running host, when one already serves).
        bool openInspector = false;
        /// --evidence DIR: only the evidence browser, on DIR (no host is started).
        QString evidenceDir;
    };
    /// A usage error, for stderr (exit code 2).
    using Outcome = std::variant<Merged, QString>;

    /// `parser` has been given the arguments (process() or parse()). `stored` is what the
    /// settings store holds (ignored with --headless); `dataLocation` the default data dir.
    Outcome merge(const QCommandLineParser& parser, const HostSettings& stored, const QProcessEnvironment& environment,
                  const QString& dataLocation) const;

    /// Whether the raw arguments ask for --headless or only for --help/--version (both need no
    /// display), before any QCoreApplication exists.
    static bool wantsHeadless(int argc, char** argv);
    static bool wantsInfoOnly(int argc, char** argv);

private:
    QCommandLineOption m_headless;
    QCommandLineOption m_socket;
    QCommandLineOption m_workspaceRoot;
    QCommandLineOption m_maxLine;
    QCommandLineOption m_partialTimeout;
    QCommandLineOption m_maxConnections;
    QCommandLineOption m_maxConnectionsPerPeer;
    QCommandLineOption m_firstRequestTimeout;
    QCommandLineOption m_queueCapacity;
    QCommandLineOption m_insecureSocket;
    QCommandLineOption m_confirmPolicy;
    QCommandLineOption m_mcpConfirmPolicy;
    QCommandLineOption m_requireToken;
    QCommandLineOption m_maxTokenTtl;
    QCommandLineOption m_approvalTimeout;
    QCommandLineOption m_allowCaller;
    QCommandLineOption m_dataDir;
    QCommandLineOption m_remoteHost;
    QCommandLineOption m_remotePort;
    QCommandLineOption m_remoteTls;
    QCommandLineOption m_remoteFingerprint;
    QCommandLineOption m_remoteBindCode;
    QCommandLineOption m_remoteWorkspace;
    QCommandLineOption m_remoteConfirmPolicy;
    QCommandLineOption m_remoteRetryDelay;
    QCommandLineOption m_remoteMaxRetries;
    QCommandLineOption m_remoteNoReconnect;
    QCommandLineOption m_remoteDeviceName;
    QCommandLineOption m_inspector;
    QCommandLineOption m_evidence;
    QCommandLineOption m_yieldToUser;
    QCommandLineOption m_yieldQuietMs;
    QCommandLineOption m_eventsLinger;
    QCommandLineOption m_groundingEndpoint;
    QCommandLineOption m_groundingModel;
    QCommandLineOption m_policy;
    QCommandLineOption m_unattended;
    QList<QCommandLineOption> m_options;
};

} // namespace App
