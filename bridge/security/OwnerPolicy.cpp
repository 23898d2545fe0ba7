#include "bridge/security/OwnerPolicy.h"

#include "bridge/contract/Declaration.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace Bridge {

using Automation::Error;
using Automation::ErrorCode;
using Automation::Result;

namespace {

bool sameName(const QString& a, const QString& b)
{
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

bool titleMatches(const QString& pattern, const QString& title)
{
    if (pattern.isEmpty())
        return true;
    const QRegularExpression wildcard(
        QRegularExpression::wildcardToRegularExpression(pattern, QRegularExpression::UnanchoredWildcardConversion),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpression whole(QRegularExpression::anchoredPattern(wildcard.pattern()),
                                   QRegularExpression::CaseInsensitiveOption);
    return whole.match(title).hasMatch();
}

// The apps each sentinel kind names, beyond desktop entry categories: executables on Linux,
// bundle ids on macOS.
const QStringList& passwordManagers()
{
    static const QStringList names{QStringLiteral("keepassxc"),
                                   QStringLiteral("keepass2"),
                                   QStringLiteral("keepass"),
                                   QStringLiteral("bitwarden"),
                                   QStringLiteral("1password"),
                                   QStringLiteral("enpass"),
                                   QStringLiteral("gnome-passwordsafe"),
                                   QStringLiteral("secrets"),
                                   QStringLiteral("com.1password.1password"),
                                   QStringLiteral("com.agilebits.onepassword7"),
                                   QStringLiteral("com.bitwarden.desktop"),
                                   QStringLiteral("org.keepassxc.keepassxc"),
                                   QStringLiteral("com.apple.passwords")};
    return names;
}
const QStringList& keychainTools()
{
    static const QStringList names{QStringLiteral("seahorse"), QStringLiteral("kwalletmanager5"),
                                   QStringLiteral("kwalletmanager"), QStringLiteral("com.apple.keychainaccess")};
    return names;
}
const QStringList& systemSettings()
{
    static const QStringList names{QStringLiteral("gnome-control-center"), QStringLiteral("systemsettings"),
                                   QStringLiteral("xfce4-settings-manager"),
                                   QStringLiteral("com.apple.systempreferences"),
                                   QStringLiteral("com.apple.systemsettings")};
    return names;
}
const QStringList& terminals()
{
    static const QStringList names{QStringLiteral("xterm"),
                                   QStringLiteral("uxterm"),
                                   QStringLiteral("gnome-terminal-server"),
                                   QStringLiteral("xfce4-terminal"),
                                   QStringLiteral("konsole"),
                                   QStringLiteral("kitty"),
                                   QStringLiteral("alacritty"),
                                   QStringLiteral("wezterm-gui"),
                                   QStringLiteral("tilix"),
                                   QStringLiteral("terminator"),
                                   QStringLiteral("lxterminal"),
                                   QStringLiteral("mate-terminal"),
                                   QStringLiteral("urxvt"),
                                   QStringLiteral("rxvt"),
                                   QStringLiteral("st"),
                                   QStringLiteral("com.apple.terminal"),
                                   QStringLiteral("com.googlecode.iterm2"),
                                   QStringLiteral("dev.warp.warp-stable"),
                                   QStringLiteral("io.alacritty"),
                                   QStringLiteral("net.kovidgoyal.kitty"),
                                   QStringLiteral("com.github.wez.wezterm")};
    return names;
}

bool named(const Automation::AppIdentity& app, const QStringList& names)
{
    QString entry = app.desktopId;
    if (entry.endsWith(QLatin1String(".desktop")))
        entry.chop(8);
    for (const QString& candidate : {app.executable, app.bundleId, entry}) {
        if (!candidate.isEmpty() && names.contains(candidate.toLower()))
            return true;
    }
    return false;
}

OwnerPolicy::Rule builtIn(const QString& name, const QString& sentinel, const QString& risk,
                          OwnerPolicy::Decision decision, QStringList classes)
{
    OwnerPolicy::Rule rule;
    rule.name = name;
    rule.sentinel = sentinel;
    rule.risk = risk;
    rule.decision = decision;
    rule.classes = std::move(classes);
    rule.builtIn = true;
    return rule;
}

} // namespace

QString OwnerPolicy::decisionName(Decision decision)
{
    switch (decision) {
    case Decision::Allow:
        return QStringLiteral("allow");
    case Decision::Ask:
        return QStringLiteral("ask");
    case Decision::Deny:
        return QStringLiteral("deny");
    }
    return {};
}

std::optional<OwnerPolicy::Decision> OwnerPolicy::decisionNamed(const QString& name)
{
    for (Decision d : {Decision::Allow, Decision::Ask, Decision::Deny}) {
        if (decisionName(d) == name)
            return d;
    }
    return std::nullopt;
}

bool OwnerPolicy::AppMatch::matches(const Automation::AppIdentity& app) const
{
    if (pid && *pid != app.pid)
        return false;
    if (!bundleId.isEmpty() && !sameName(bundleId, app.bundleId))
        return false;
    if (!desktopId.isEmpty()) {
        const QString wanted =
            desktopId.endsWith(QLatin1String(".desktop")) ? desktopId : desktopId + QStringLiteral(".desktop");
        if (!sameName(wanted, app.desktopId))
            return false;
    }
    if (!executable.isEmpty() && !sameName(executable, app.executable) && !sameName(executable, app.executablePath))
        return false;
    if (!name.isEmpty() && !sameName(name, app.name))
        return false;
    return true;
}

QJsonObject OwnerPolicy::AppMatch::toJson() const
{
    QJsonObject out;
    if (!bundleId.isEmpty())
        out.insert(QStringLiteral("bundleId"), bundleId);
    if (!desktopId.isEmpty())
        out.insert(QStringLiteral("desktopId"), desktopId);
    if (!executable.isEmpty())
        out.insert(QStringLiteral("executable"), executable);
    if (!name.isEmpty())
        out.insert(QStringLiteral("name"), name);
    if (pid)
        out.insert(QStringLiteral("pid"), *pid);
    return out;
}

QJsonObject OwnerPolicy::Rule::toJson() const
{
    QJsonObject out{{QStringLiteral("name"), name},
                    {QStringLiteral("decision"), decisionName(decision)},
                    {QStringLiteral("builtIn"), builtIn}};
    if (!app.any())
        out.insert(QStringLiteral("app"), app.toJson());
    if (!sentinel.isEmpty())
        out.insert(QStringLiteral("sentinel"), sentinel);
    if (!window.isEmpty())
        out.insert(QStringLiteral("window"), window);
    if (!classes.isEmpty())
        out.insert(QStringLiteral("classes"), QJsonArray::fromStringList(classes));
    if (!risk.isEmpty())
        out.insert(QStringLiteral("risk"), risk);
    return out;
}

Result<OwnerPolicy::Rule> OwnerPolicy::Rule::fromJson(const QJsonObject& json)
{
    const auto invalid = [](const QString& field, const QString& message) {
        return Error::invalidParam(QStringLiteral("rule.") + field, message);
    };
    static const QStringList members{QStringLiteral("name"),    QStringLiteral("app"),  QStringLiteral("window"),
                                     QStringLiteral("classes"), QStringLiteral("risk"), QStringLiteral("decision")};
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!members.contains(it.key()))
            return invalid(it.key(),
                           QStringLiteral("is not a member of a rule (%1)").arg(members.join(QStringLiteral(", "))));
    }
    Rule rule;
    rule.name = json.value(QStringLiteral("name")).toString();
    static const QRegularExpression ruleName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    if (!ruleName.match(rule.name).hasMatch())
        return invalid(QStringLiteral("name"),
                       QStringLiteral("a rule needs a name of letters, digits, '.', '_' or '-' (at most 64); the "
                                      "built-in rules' names hold a ':'"));
    const auto decision = decisionNamed(json.value(QStringLiteral("decision")).toString());
    if (!decision)
        return invalid(QStringLiteral("decision"), QStringLiteral("must be allow, ask or deny"));
    rule.decision = *decision;
    const QJsonValue app = json.value(QStringLiteral("app"));
    if (!app.isUndefined()) {
        if (!app.isObject())
            return invalid(QStringLiteral("app"), QStringLiteral("must be an object"));
        const QJsonObject o = app.toObject();
        static const QStringList appMembers{QStringLiteral("bundleId"), QStringLiteral("desktopId"),
                                            QStringLiteral("executable"), QStringLiteral("name"),
                                            QStringLiteral("pid")};
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!appMembers.contains(it.key()))
                return invalid(QStringLiteral("app.") + it.key(),
                               QStringLiteral("names an app by %1").arg(appMembers.join(QStringLiteral(", "))));
            if (it.key() == QLatin1String("pid") ? !it.value().isDouble() : !it.value().isString())
                return invalid(QStringLiteral("app.") + it.key(), QStringLiteral("has the wrong type"));
        }
        rule.app.bundleId = o.value(QStringLiteral("bundleId")).toString();
        rule.app.desktopId = o.value(QStringLiteral("desktopId")).toString();
        rule.app.executable = o.value(QStringLiteral("executable")).toString();
        rule.app.name = o.value(QStringLiteral("name")).toString();
        if (o.contains(QStringLiteral("pid"))) {
            // A whole, positive number: a pid of 1.5 or -3 is a mistake, never rounded into one.
            const double pid = o.value(QStringLiteral("pid")).toDouble();
            if (pid != std::trunc(pid) || pid < 1 || pid > 4194304)
                return invalid(QStringLiteral("app.pid"),
                               QStringLiteral("must be a process id (a whole number from 1)"));
            rule.app.pid = static_cast<qint64>(pid);
        }
    }
    const QJsonValue window = json.value(QStringLiteral("window"));
    if (!window.isUndefined() && !window.isString())
        return invalid(QStringLiteral("window"), QStringLiteral("must be a title pattern (* and ? as wildcards)"));
    rule.window = window.toString();
    const QJsonValue classes = json.value(QStringLiteral("classes"));
    if (!classes.isUndefined()) {
        if (!classes.isArray())
            return invalid(QStringLiteral("classes"), QStringLiteral("must be an array"));
        for (const QJsonValue& c : classes.toArray()) {
            if (!Contract::actionClassNamed(c.toString()))
                return invalid(QStringLiteral("classes"),
                               QStringLiteral("an action class is one of %1")
                                   .arg(Contract::actionClassNames().join(QStringLiteral(", "))));
            rule.classes.append(c.toString());
        }
    }
    const QJsonValue risk = json.value(QStringLiteral("risk"));
    if (!risk.isUndefined() && risk.toString() != QLatin1String("high") && risk.toString() != QLatin1String("any"))
        return invalid(QStringLiteral("risk"), QStringLiteral("must be \"high\" or \"any\""));
    rule.risk = risk.toString() == QLatin1String("high") ? QStringLiteral("high") : QString();
    return rule;
}

OwnerPolicy::OwnerPolicy() = default;

bool OwnerPolicy::Grant::covers(const Subject& subject) const
{
    if (actionClass != subject.actionClass)
        return false;
    if (subject.highRisk && !highRisk)
        return false;
    return !app.any() && app.matches(subject.app);
}

OwnerPolicy::AppMatch OwnerPolicy::Grant::appOf(const Automation::AppIdentity& app)
{
    AppMatch match;
    if (!app.desktopId.isEmpty())
        match.desktopId = app.desktopId;
    else if (!app.bundleId.isEmpty())
        match.bundleId = app.bundleId;
    else if (!app.executable.isEmpty())
        match.executable = app.executable;
    else
        match.name = app.name;
    return match;
}

QJsonObject OwnerPolicy::Grant::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("app"), app.toJson()},
                       {QStringLiteral("class"), actionClass},
                       {QStringLiteral("highRisk"), highRisk},
                       {QStringLiteral("grantedAt"), grantedAt.toString(Qt::ISODateWithMs)},
                       {QStringLiteral("until"), until.toString(Qt::ISODateWithMs)},
                       {QStringLiteral("approver"), approver}};
}

Result<OwnerPolicy::Grant> OwnerPolicy::Grant::fromJson(const QJsonObject& json)
{
    const auto invalid = [](const QString& field, const QString& message) {
        return Error::invalidParam(QStringLiteral("grant.") + field, message);
    };
    Grant grant;
    grant.id = json.value(QStringLiteral("id")).toString();
    static const QRegularExpression grantId(QStringLiteral("^g-[0-9a-f]{8,32}$"));
    if (!grantId.match(grant.id).hasMatch())
        return invalid(QStringLiteral("id"), QStringLiteral("a grant's id is g- and hex digits"));
    // The app a grant names, as a rule names one (the rule form checks the members).
    auto asRule = Rule::fromJson(QJsonObject{{QStringLiteral("name"), QStringLiteral("grant")},
                                             {QStringLiteral("decision"), QStringLiteral("allow")},
                                             {QStringLiteral("app"), json.value(QStringLiteral("app"))}});
    if (!asRule)
        return invalid(QStringLiteral("app"), asRule.error().message);
    grant.app = asRule->app;
    if (grant.app.any())
        return invalid(QStringLiteral("app"), QStringLiteral("a grant names its app"));
    grant.actionClass = json.value(QStringLiteral("class")).toString();
    if (!Contract::actionClassNamed(grant.actionClass))
        return invalid(QStringLiteral("class"), QStringLiteral("an action class is one of %1")
                                                    .arg(Contract::actionClassNames().join(QStringLiteral(", "))));
    grant.highRisk = json.value(QStringLiteral("highRisk")).toBool();
    grant.grantedAt = QDateTime::fromString(json.value(QStringLiteral("grantedAt")).toString(), Qt::ISODateWithMs);
    grant.until = QDateTime::fromString(json.value(QStringLiteral("until")).toString(), Qt::ISODateWithMs);
    if (!grant.until.isValid())
        return invalid(QStringLiteral("until"), QStringLiteral("a grant ends at a time (ISO 8601)"));
    grant.approver = json.value(QStringLiteral("approver")).toString();
    return grant;
}

bool OwnerPolicy::dropExpired(const QDateTime& now)
{
    const auto before = m_grants.size();
    m_grants.removeIf([&](const Grant& grant) { return !grant.live(now); });
    return m_grants.size() != before;
}

bool OwnerPolicy::governsReads() const
{
    for (const Rule& rule : m_owner) {
        if (rule.decision == Decision::Allow)
            continue;
        if (rule.classes.isEmpty() || rule.classes.contains(QStringLiteral("read")))
            return true;
    }
    return false;
}

QJsonObject OwnerPolicy::toFileJson() const
{
    QJsonArray rules;
    for (const Rule& rule : m_owner) {
        QJsonObject json = rule.toJson();
        json.remove(QStringLiteral("builtIn"));
        rules.append(json);
    }
    QJsonArray grants;
    for (const Grant& grant : m_grants)
        grants.append(grant.toJson());
    return QJsonObject{{QStringLiteral("unattended"), m_unattended},
                       {QStringLiteral("rules"), rules},
                       {QStringLiteral("grants"), grants}};
}

namespace {

bool sameRule(const OwnerPolicy::Rule& a, const OwnerPolicy::Rule& b)
{
    return a.toJson() == b.toJson();
}

bool holds(const QList<OwnerPolicy::Rule>& rules, const OwnerPolicy::Rule& rule)
{
    return std::any_of(rules.begin(), rules.end(), [&](const OwnerPolicy::Rule& r) { return sameRule(r, rule); });
}

bool holdsGrant(const QList<OwnerPolicy::Grant>& grants, const OwnerPolicy::Grant& grant)
{
    return std::any_of(grants.begin(), grants.end(),
                       [&](const OwnerPolicy::Grant& g) { return g.toJson() == grant.toJson(); });
}

} // namespace

bool OwnerPolicy::onlyTightens(const OwnerPolicy& before, const OwnerPolicy& after)
{
    if (before.m_unattended && !after.m_unattended)
        return false;
    for (const Grant& grant : after.m_grants) {
        if (!holdsGrant(before.m_grants, grant))
            return false;
    }
    // Deny rules added anywhere only tighten: strip them, and the allow rules removed.
    QList<Rule> next;
    for (const Rule& rule : after.m_owner) {
        if (rule.decision == Decision::Deny && !holds(before.m_owner, rule))
            continue;
        next.append(rule);
    }
    QList<Rule> kept;
    for (const Rule& rule : before.m_owner) {
        if (rule.decision == Decision::Allow && !holds(after.m_owner, rule))
            continue;
        kept.append(rule);
    }
    // What is left must be the same rules, in the same order, and then ask rules only: they
    // decide only what every owner's rule left to the built-in ones (allow or ask).
    if (next.size() < kept.size())
        return false;
    for (qsizetype i = 0; i < kept.size(); ++i) {
        if (!sameRule(kept.at(i), next.at(i)))
            return false;
    }
    for (qsizetype i = kept.size(); i < next.size(); ++i) {
        if (next.at(i).decision != Decision::Ask)
            return false;
    }
    return true;
}

OwnerPolicy OwnerPolicy::tighteningOnly(const OwnerPolicy& trusted, const OwnerPolicy& file, QJsonArray* ignored)
{
    OwnerPolicy out;
    out.m_unattended = trusted.m_unattended || file.m_unattended;
    QList<Rule> denies;
    QList<Rule> asks;
    for (const Rule& rule : file.m_owner) {
        if (holds(trusted.m_owner, rule))
            continue;
        if (rule.decision == Decision::Deny)
            denies.append(rule);
        else if (rule.decision == Decision::Ask)
            asks.append(rule);
        else if (ignored)
            ignored->append(QJsonObject{{QStringLiteral("rule"), rule.toJson()}});
    }
    QStringList names;
    for (const Rule& rule : denies)
        names.append(rule.name);
    for (const Rule& rule : trusted.m_owner) {
        if (rule.decision == Decision::Allow && !holds(file.m_owner, rule))
            continue;
        // A name taken by a new rule keeps the trusted one under it; the new one is left out.
        if (names.contains(rule.name)) {
            denies.removeIf([&](const Rule& r) {
                if (r.name != rule.name)
                    return false;
                if (ignored)
                    ignored->append(QJsonObject{{QStringLiteral("rule"), r.toJson()}});
                return true;
            });
        }
        denies.append(rule);
        names.append(rule.name);
    }
    for (const Rule& rule : asks) {
        if (names.contains(rule.name)) {
            if (ignored)
                ignored->append(QJsonObject{{QStringLiteral("rule"), rule.toJson()}});
            continue;
        }
        denies.append(rule);
        names.append(rule.name);
    }
    out.m_owner = denies;
    for (const Grant& grant : trusted.m_grants) {
        if (holdsGrant(file.m_grants, grant))
            out.m_grants.append(grant);
    }
    for (const Grant& grant : file.m_grants) {
        if (!holdsGrant(trusted.m_grants, grant) && ignored)
            ignored->append(QJsonObject{{QStringLiteral("grant"), grant.toJson()}});
    }
    return out;
}

Result<OwnerPolicy> OwnerPolicy::fromJson(const QJsonObject& json)
{
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (it.key() != QLatin1String("unattended") && it.key() != QLatin1String("rules") &&
            it.key() != QLatin1String("grants"))
            return Error::invalidParam(it.key(),
                                       QStringLiteral("a policy has \"unattended\", \"rules\" and \"grants\" only"));
    }
    OwnerPolicy policy;
    const QJsonValue unattended = json.value(QStringLiteral("unattended"));
    if (!unattended.isUndefined() && !unattended.isBool())
        return Error::invalidParam(QStringLiteral("unattended"), QStringLiteral("must be true or false"));
    policy.m_unattended = unattended.toBool();
    const QJsonValue rules = json.value(QStringLiteral("rules"));
    if (!rules.isUndefined() && !rules.isArray())
        return Error::invalidParam(QStringLiteral("rules"), QStringLiteral("must be an array of rules"));
    QStringList names;
    for (const QJsonValue& value : rules.toArray()) {
        if (!value.isObject())
            return Error::invalidParam(QStringLiteral("rules"), QStringLiteral("every rule is an object"));
        auto rule = Rule::fromJson(value.toObject());
        if (!rule)
            return rule.error();
        if (names.contains(rule->name))
            return Error::invalidParam(QStringLiteral("rules"),
                                       QStringLiteral("two rules are named %1").arg(rule->name));
        names.append(rule->name);
        policy.m_owner.append(rule.value());
    }
    const QJsonValue grants = json.value(QStringLiteral("grants"));
    if (!grants.isUndefined() && !grants.isArray())
        return Error::invalidParam(QStringLiteral("grants"), QStringLiteral("must be an array of grants"));
    for (const QJsonValue& value : grants.toArray()) {
        auto grant = Grant::fromJson(value.toObject());
        if (!grant)
            return grant.error();
        policy.m_grants.append(grant.value());
    }
    return policy;
}

const QList<OwnerPolicy::Rule>& OwnerPolicy::builtInRules()
{
    // Sentinels ask for every side effect but window management (minimizing a terminal types
    // nothing into it).
    static const QStringList acting{QStringLiteral("type"), QStringLiteral("pointer"), QStringLiteral("keys"),
                                    QStringLiteral("app"), QStringLiteral("clipboard")};
    static const QList<Rule> rules{
        builtIn(QStringLiteral("sentinel:terminals"), QStringLiteral("terminals"), {}, Decision::Ask, acting),
        builtIn(QStringLiteral("sentinel:password-managers"), QStringLiteral("password-managers"), {}, Decision::Ask,
                acting),
        builtIn(QStringLiteral("sentinel:keychain"), QStringLiteral("keychain"), {}, Decision::Ask, acting),
        builtIn(QStringLiteral("sentinel:system-settings"), QStringLiteral("system-settings"), {}, Decision::Ask,
                acting),
        builtIn(QStringLiteral("default:high-risk"), {}, QStringLiteral("high"), Decision::Ask, {}),
        builtIn(QStringLiteral("default:act"), {}, {}, Decision::Allow, {}),
    };
    return rules;
}

QString OwnerPolicy::sentinelOf(const Subject& subject)
{
    const Automation::AppIdentity& app = subject.app;
    if (subject.terminal || app.categories.contains(QStringLiteral("TerminalEmulator")) || named(app, terminals()))
        return QStringLiteral("terminals");
    if (named(app, passwordManagers()) || app.categories.contains(QStringLiteral("X-PasswordManager")))
        return QStringLiteral("password-managers");
    if (named(app, keychainTools()))
        return QStringLiteral("keychain");
    if (named(app, systemSettings()) || app.categories.contains(QStringLiteral("Settings")) ||
        app.categories.contains(QStringLiteral("X-GNOME-Settings-Panel")))
        return QStringLiteral("system-settings");
    return {};
}

QList<OwnerPolicy::Rule> OwnerPolicy::rules() const
{
    return m_owner + builtInRules();
}

QJsonArray OwnerPolicy::toJson() const
{
    QJsonArray out;
    for (const Rule& rule : rules())
        out.append(rule.toJson());
    return out;
}

OwnerPolicy::Verdict OwnerPolicy::decide(const Subject& subject, const QDateTime& now) const
{
    Verdict verdict = decideByRules(subject);
    if (verdict.decision != Decision::Ask)
        return verdict;
    for (const Grant& grant : m_grants) {
        if (grant.live(now) && grant.covers(subject))
            return Verdict{Decision::Allow, QStringLiteral("grant:") + grant.id,
                           QStringLiteral("a person allowed %1 actions here until %2 (instead of %3)")
                               .arg(grant.actionClass, grant.until.toString(Qt::ISODate), verdict.rule)};
    }
    return verdict;
}

OwnerPolicy::Verdict OwnerPolicy::decideByRules(const Subject& subject) const
{
    const QString sentinel = sentinelOf(subject);
    for (const Rule& rule : rules()) {
        if (!rule.classes.isEmpty() && !rule.classes.contains(subject.actionClass))
            continue;
        if (rule.risk == QLatin1String("high") && !subject.highRisk)
            continue;
        if (!rule.sentinel.isEmpty() && rule.sentinel != sentinel)
            continue;
        if (!rule.app.any() && !rule.app.matches(subject.app))
            continue;
        if (!titleMatches(rule.window, subject.windowTitle))
            continue;
        QString why;
        const QString who = subject.app.executable.isEmpty() ? subject.app.name : subject.app.executable;
        if (!rule.builtIn)
            why = QStringLiteral("the owner's rule for %1%2")
                      .arg(rule.app.any() ? QStringLiteral("every app") : who,
                           rule.risk == QLatin1String("high") ? QStringLiteral("'s high-risk actions") : QString());
        else if (!rule.sentinel.isEmpty())
            why = QStringLiteral("%1 is one of the %2").arg(who, rule.sentinel);
        else if (rule.risk == QLatin1String("high"))
            why = QStringLiteral("a high-risk action");
        return Verdict{rule.decision, rule.name, why};
    }
    return Verdict{Decision::Allow, QStringLiteral("default:act"), {}};
}

} // namespace Bridge
