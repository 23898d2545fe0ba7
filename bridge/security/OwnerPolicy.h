#pragma once

#include "automation/AppIdentity.h"
#include "automation/Error.h"

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

    struct Verdict
    {
        Decision decision = Decision::Allow;
        QString rule;
        /// Why the rule matched ("xterm is a terminal", "high-risk: delete").
        QString why;
    };

    OwnerPolicy();

    /// The rule that decides, and how.
    Verdict decide(const Subject& subject) const;

    /// Every rule in force, the owner's first, the built-in ones after.
    QList<Rule> rules() const;
    const QList<Rule>& ownerRules() const { return m_owner; }
    void setOwnerRules(QList<Rule> rules) { m_owner = std::move(rules); }
    QJsonArray toJson() const;

    /// The unattended mode: every ask is a refusal, never a dialog nobody answers.
    bool unattended() const { return m_unattended; }
    void setUnattended(bool on) { m_unattended = on; }

    /// The owner's policy in its file form (docs/protocol.md, "Policy"):
    /// {"unattended": bool, "rules": [rule, …]}; the error names the member.
    static Automation::Result<OwnerPolicy> fromJson(const QJsonObject& json);

    /// The built-in rules, in the order they are asked.
    static const QList<Rule>& builtInRules();
    /// Which sentinel kind an app is, or empty: a terminal, a password manager, a keychain tool,
    /// the system settings (by desktop entry categories, executable and bundle id).
    static QString sentinelOf(const Subject& subject);

private:
    QList<Rule> m_owner;
    bool m_unattended = false;
};

} // namespace Bridge
