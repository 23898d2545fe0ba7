#pragma once

#include "automation/Error.h"
#include "bridge/protocol/Meta.h"
#include "bridge/security/ConfirmationProvider.h"
#include "bridge/security/OwnerPolicy.h"
#include "bridge/transport/Caller.h"

#include <QFileSystemWatcher>
#include <QJsonObject>
#include <QObject>

#include <functional>

namespace Bridge {

class ConfirmationGate;

/// The owner's rules as they are kept and changed (docs/protocol.md, "Policy"): the rule file
/// (0600, under the host's config folder, or the one `--policy` names), the copy of it the host
/// last wrote or a person confirmed, the grants a person gave in the dialog, and desktop.policy.
///
/// A change that only tightens (OwnerPolicy::onlyTightens) takes effect at once; one that
/// loosens needs a person: from the GUI it is theirs, from a client the host's dialog asks, and
/// with nobody there it is refused. A rule file changed behind the host's back is not trusted:
/// until a person confirms it, only its tightening changes apply. Lives on the owner thread.
class OwnerRules final : public QObject
{
    Q_OBJECT

public:
    using Respond = std::function<void(const Automation::Result<QJsonObject>&)>;

    explicit OwnerRules(ConfirmationGate& gate, QObject* parent = nullptr);
    ~OwnerRules() override;

    /// The rule file the host uses when none is named: `policy.json` in the host's config folder
    /// (`$XDG_CONFIG_HOME/msgcode/desktop-host/` on Linux).
    static QString defaultPath();

    /// Without a file: `policy` is the owner's, trusted, kept in memory (tests, embedders).
    void useMemory(const OwnerPolicy& policy);
    /// Reads the rule file. `trustedCopy` is where the host keeps the copy it trusts (empty: the
    /// file is trusted as it is now, e.g. named on the host's command line by its owner). False
    /// with `error` when the file cannot be read or parsed and nothing trusted stands in for it.
    bool useFile(const QString& path, const QString& trustedCopy, QString* error);
    /// The host's command line asks for the unattended mode for this run.
    void forceUnattended();

    /// The rules in force (the gate gets a copy at each change).
    const OwnerPolicy& policy() const { return m_policy; }
    QString path() const { return m_path; }
    /// The rule file holds changes nobody confirmed: what is left out of the rules in force.
    bool fileTrusted() const { return m_ignored.isEmpty() && m_fileError.isEmpty(); }
    QJsonObject fileState() const;

    /// desktop.policy (docs/protocol.md §5.28).
    void handle(const Caller& caller, const Meta& meta, const QJsonObject& params, const Respond& respond);

    /// The GUI's own changes: a person made them, they apply at once. The error names the field.
    std::optional<Automation::Error> setRule(const OwnerPolicy::Rule& rule, int position = -1);
    void removeRule(const QString& name);
    void revokeGrant(const QString& id);
    void setUnattended(bool on);
    /// A person looked at the rule file as it is now and trusts it.
    void trustFile();

Q_SIGNALS:
    /// The rules in force, the grants, the unattended mode or the file's trust changed.
    void changed();

private:
    struct Change
    {
        QString what; ///< in words, for the dialog and the audit
        QJsonObject json;
        std::function<Automation::Result<OwnerPolicy>(const OwnerPolicy& current)> apply;
    };
    /// Applies a change from a client: at once when it only tightens, else after a person's yes.
    void changeFromClient(const Caller& caller, const Meta& meta, Change change, const Respond& respond);
    /// Writes the file and the trusted copy, then puts the rules in force.
    std::optional<Automation::Error> commit(OwnerPolicy next, const QString& what, const QString& who);
    void enforce();
    void fileTouched();
    /// The dialog's "allow in this app for N minutes" and "always allow in this app".
    void personAllowed(const ApprovalRequest& request, const ApprovalDecision& decision);
    QJsonObject state() const;
    void audit(const QString& event, const QJsonObject& fields);

    ConfirmationGate& m_gate;
    OwnerPolicy m_trusted; ///< what the host wrote or a person confirmed
    OwnerPolicy m_base;    ///< m_trusted, or it with an untrusted file's tightening; changes start here
    OwnerPolicy m_policy;  ///< in force: m_base, in the unattended mode when the command line says so
    QString m_path;
    QString m_trustedCopy;
    QJsonArray m_ignored; ///< an untrusted file's changes left out
    QString m_fileError;  ///< the file does not parse (the trusted rules stay)
    bool m_forcedUnattended = false;
    QFileSystemWatcher m_watch;
};

} // namespace Bridge
