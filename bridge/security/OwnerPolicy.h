#pragma once

#include "automation/AppIdentity.h"
#include "automation/Error.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Bridge {

/// The owner's rules: where and what an agent may touch (docs/protocol.md, "Policy"). Each rule
/// matches an app, optionally a window title and classes of action and the risk, and decides
/// allow (the phrase or a token suffices), ask (a person approves in the host's dialog) or
/// deny. The owner's rules are asked first, in their order; the built-in ones after them:
/// `sentinel:*` (ask in terminals, password managers, keychain tools and system settings),
/// `default:high-risk` (ask) and `default:act` (allow).
class OwnerPolicy
{
public:
    enum class Decision { Allow, Ask, Deny };
    static QString decisionName(Decision decision);
    static std::optional<Decision> decisionNamed(const QString& name);

    /// Which app a rule is about: any member given must match (names without case).
    struct AppMatch
    {
        QString bundleId;
        QString desktopId;
        QString executable;
        QString name;
        std::optional<qint64> pid;

        bool any() const
        {
            return bundleId.isEmpty() && desktopId.isEmpty() && executable.isEmpty() && name.isEmpty() && !pid;
        }
        bool matches(const Automation::AppIdentity& app) const;
        QJsonObject toJson() const;
    };

    struct Rule
    {
        QString name;
        AppMatch app;
        /// A window title pattern, `*` and `?` as wildcards, without case; empty: any window.
        QString window;
        /// Action classes (Contract::actionClassName); empty: every class.
        QStringList classes;
        /// "high": only high-risk actions; empty: any.
        QString risk;
        Decision decision = Decision::Allow;
        bool builtIn = false;
        /// Built-in sentinel rules only: the kind of app ("terminals", …).
        QString sentinel;

        QJsonObject toJson() const;
        /// A rule from its JSON form (`policy set`, the rule file); the error names the field.
        static Automation::Result<Rule> fromJson(const QJsonObject& json);
    };

    /// What a side effect is about, as the host resolved it.
    struct Subject
    {
        Automation::AppIdentity app;
        QString windowTitle;
        QString actionClass;
        bool highRisk = false;
        /// The app shows a terminal (its entry, or the terminal role in its window).
        bool terminal = false;
    };

    /// A person's "allow in this app for N minutes" from the host's dialog: turns an ask into an
    /// allow for one class of action in one app until it expires. Kept in the rule file, so it
    /// outlives a restart; listed and revocable (docs/protocol.md, "Policy").
    struct Grant
    {
        QString id;
        AppMatch app;
        QString actionClass;
        /// It also covers the class's high-risk actions (the person was asked about one).
        bool highRisk = false;
        QDateTime grantedAt;
        QDateTime until;
        QString approver;

        bool live(const QDateTime& now) const { return until > now; }
        bool covers(const Subject& subject) const;
        QJsonObject toJson() const;
        static Automation::Result<Grant> fromJson(const QJsonObject& json);
        /// The most lasting way to name an app: desktop entry, bundle id, executable, name.
        static AppMatch appOf(const Automation::AppIdentity& app);
    };

    struct Verdict
    {
        Decision decision = Decision::Allow;
        QString rule;
        /// Why the rule matched ("xterm is a terminal", "high-risk: delete").
        QString why;
    };

    OwnerPolicy();

    /// The rule that decides, and how; a live grant turns an ask into an allow (its rule is then
    /// `grant:<id>`).
    Verdict decide(const Subject& subject, const QDateTime& now = QDateTime::currentDateTimeUtc()) const;

    /// Every rule in force, the owner's first, the built-in ones after.
    QList<Rule> rules() const;
    const QList<Rule>& ownerRules() const { return m_owner; }
    void setOwnerRules(QList<Rule> rules) { m_owner = std::move(rules); }
    QJsonArray toJson() const;

    const QList<Grant>& grants() const { return m_grants; }
    void setGrants(QList<Grant> grants) { m_grants = std::move(grants); }
    /// Grants that expired by `now` are dropped; true when any was.
    bool dropExpired(const QDateTime& now);

    /// Whether any owner's rule can decide a read (a rule naming the read class, or every class,
    /// with ask or deny): only then is a read's target looked at before it runs.
    bool governsReads() const;

    /// The unattended mode: every ask is a refusal, never a dialog nobody answers.
    bool unattended() const { return m_unattended; }
    void setUnattended(bool on) { m_unattended = on; }

    /// The owner's policy in its file form (docs/protocol.md, "Policy"):
    /// {"unattended": bool, "rules": [rule, …], "grants": [grant, …]}; the error names the member.
    static Automation::Result<OwnerPolicy> fromJson(const QJsonObject& json);
    /// The file form of the owner's part (never the built-in rules).
    QJsonObject toFileJson() const;

    /// Whether going from `before` to `after` only tightens: no decision any action could get
    /// is less strict afterwards. Deny rules added anywhere, ask rules added after every owner's
    /// rule, allow rules removed, grants revoked and entering the unattended mode tighten; any
    /// other change counts as loosening (it needs a person).
    static bool onlyTightens(const OwnerPolicy& before, const OwnerPolicy& after);
    /// What applies while a rule file changed behind the host's back is not confirmed: the
    /// trusted policy with only the file's tightening changes (its new deny rules first, its new
    /// ask rules last, the allow rules it removed dropped, the grants it revoked gone, its
    /// unattended mode). `ignored` gets what was left out (rules and grants, in file form).
    static OwnerPolicy tighteningOnly(const OwnerPolicy& trusted, const OwnerPolicy& file, QJsonArray* ignored);

    /// The built-in rules, in the order they are asked.
    static const QList<Rule>& builtInRules();
    /// Which sentinel kind an app is, or empty: a terminal, a password manager, a keychain tool,
    /// the system settings (by desktop entry categories, executable and bundle id).
    static QString sentinelOf(const Subject& subject);

private:
    Verdict decideByRules(const Subject& subject) const;

    QList<Rule> m_owner;
    QList<Grant> m_grants;
    bool m_unattended = false;
};

} // namespace Bridge
