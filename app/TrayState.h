#pragma once

#include "automation/PermissionProbe.h"

#include <QCoreApplication>
#include <QIcon>
#include <QStringList>

namespace App {

/// What the tray shows at a glance: green when everything is granted and the bridge
/// serves, yellow when it serves with something degraded, red when it cannot serve.
struct TrayState
{
    Q_DECLARE_TR_FUNCTIONS(TrayState)

public:
    enum class Level { Green, Yellow, Red };

    struct Inputs
    {
        Automation::PermissionReport permissions;
        bool serving = false;
        QString socketPath;
        QString policy; ///< "ask", "auto", "deny"
        bool paused = false;
        bool approverAttached = false;
        /// The owner's unattended mode: every ask is refused (docs/protocol.md, "Policy").
        bool unattended = false;
        /// The rule file holds changes made outside the host that wait for a person.
        bool rulesFileTrusted = true;
        /// The remote agent (docs/remote.md): its state name ("" or "off": not shown), server
        /// and last error.
        QString remoteState;
        QString remoteServer;
        QString remoteError;
    };

    Level level = Level::Red;
    QString headline;     ///< one line: the state in words
    QStringList lines;    ///< one line per fact, for the menu and the status window
    QStringList problems; ///< what keeps it from green, in words

    static TrayState evaluate(const Inputs& inputs);

    QString tooltip() const;
    static QIcon icon(Level level);
    static QString levelName(Level level);
};

} // namespace App
