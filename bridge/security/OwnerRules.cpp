#include "bridge/security/OwnerRules.h"

#include "bridge/contract/Declaration.h"
#include "bridge/security/ConfirmationGate.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

namespace Bridge {

Q_LOGGING_CATEGORY(lcRules, "msgcode.bridge.rules")

using Automation::Error;
using Automation::ErrorCode;
using Automation::Result;

namespace {

/// The file's text, or nullopt when it is not there; `error` when it cannot be read.
std::optional<QByteArray> readFile(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.exists())
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return file.readAll();
}

Result<OwnerPolicy> parse(const QByteArray& text, const QString& path)
{
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (!document.isObject())
        return Error::invalidParam(QStringLiteral("file"),
                                   QStringLiteral("%1 is not a JSON object (%2)").arg(path, parseError.errorString()));
    return OwnerPolicy::fromJson(document.object());
}

/// The rule file as a policy: none when it is not there; an error when it cannot be read or parsed.
Result<OwnerPolicy> readPolicy(const QString& path)
{
    QString readError;
    const auto text = readFile(path, &readError);
    if (!readError.isEmpty())
        return Error::invalidParam(QStringLiteral("file"), readError);
    if (!text)
        return OwnerPolicy();
    return parse(*text, path);
}

/// Written whole or not at all, readable by the owner alone.
std::optional<QString> writePrivate(const QString& path, const QByteArray& text)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return QStringLiteral("cannot create %1").arg(info.absolutePath());
    QFile::setPermissions(info.absolutePath(),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(text);
    if (!file.commit())
        return QStringLiteral("%1: %2").arg(path, file.errorString());
    return std::nullopt;
}

QByteArray fileText(const OwnerPolicy& policy)
{
    return QJsonDocument(policy.toFileJson()).toJson(QJsonDocument::Indented);
}

bool samePolicy(const OwnerPolicy& a, const OwnerPolicy& b)
{
    return a.toFileJson() == b.toFileJson();
}

Error needsPerson(const QString& what, const QString& why)
{
    return Error::make(ErrorCode::ConfirmRequired,
                       QStringLiteral("%1 loosens the owner's rules, so a person must approve it in the host's dialog, "
                                      "and %2")
                           .arg(what, why),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("needs_person")}})
        .withRetryable(false);
}

Automation::AppIdentity identityOf(const QJsonObject& json)
{
    Automation::AppIdentity app;
    app.pid = json.value(QStringLiteral("pid")).toInteger();
    app.name = json.value(QStringLiteral("name")).toString();
    app.bundleId = json.value(QStringLiteral("bundleId")).toString();
    app.executable = json.value(QStringLiteral("executable")).toString();
    app.desktopId = json.value(QStringLiteral("desktopId")).toString();
    for (const QJsonValue& c : json.value(QStringLiteral("categories")).toArray())
        app.categories.append(c.toString());
    return app;
}

/// The policy with `rule` in it: where a rule of the same name was, else at `position` (-1:
/// where the same name was, else first).
OwnerPolicy withRule(OwnerPolicy policy, const OwnerPolicy::Rule& rule, int position)
{
    QList<OwnerPolicy::Rule> rules = policy.ownerRules();
    qsizetype at = 0;
    for (qsizetype i = 0; i < rules.size(); ++i) {
        if (rules.at(i).name == rule.name) {
            at = i;
            rules.removeAt(i);
            break;
        }
    }
    if (position >= 0)
        at = std::min<qsizetype>(position, rules.size());
    rules.insert(at, rule);
    policy.setOwnerRules(rules);
    return policy;
}

OwnerPolicy withoutRule(OwnerPolicy policy, const QString& name)
{
    QList<OwnerPolicy::Rule> rules = policy.ownerRules();
    rules.removeIf([&](const OwnerPolicy::Rule& r) { return r.name == name; });
    policy.setOwnerRules(rules);
    return policy;
}

OwnerPolicy withoutGrant(OwnerPolicy policy, const QString& id)
{
    QList<OwnerPolicy::Grant> grants = policy.grants();
    grants.removeIf([&](const OwnerPolicy::Grant& g) { return g.id == id; });
    policy.setGrants(grants);
    return policy;
}

QString grantId()
{
    return QStringLiteral("g-%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
}

} // namespace

OwnerRules::OwnerRules(ConfirmationGate& gate, QObject* parent) : QObject(parent), m_gate(gate)
{
    connect(&m_watch, &QFileSystemWatcher::fileChanged, this, &OwnerRules::fileTouched);
    connect(&m_watch, &QFileSystemWatcher::directoryChanged, this, &OwnerRules::fileTouched);
    connect(&m_gate, &ConfirmationGate::ownerAskAnswered, this, &OwnerRules::personAllowed);
}

OwnerRules::~OwnerRules() = default;

QString OwnerRules::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
           QStringLiteral("/msgcode/desktop-host/policy.json");
}

void OwnerRules::useMemory(const OwnerPolicy& policy)
{
    m_path.clear();
    m_trustedCopy.clear();
    m_trusted = policy;
    m_ignored = {};
    m_fileError.clear();
    enforce();
}

bool OwnerRules::useFile(const QString& path, const QString& trustedCopy, QString* error)
{
    m_path = QFileInfo(path).absoluteFilePath();
    m_trustedCopy = trustedCopy;
    QString readError;
    if (trustedCopy.isEmpty()) {
        // Named by the owner on the host's command line: trusted as it is.
        const auto text = readFile(m_path, &readError);
        if (!readError.isEmpty() || !text) {
            *error = readError.isEmpty() ? QStringLiteral("%1 does not exist").arg(m_path) : readError;
            return false;
        }
        auto policy = parse(*text, m_path);
        if (!policy) {
            *error = QStringLiteral("%1: %2").arg(m_path, policy.error().message);
            return false;
        }
        m_trusted = policy.value();
    } else {
        const auto text = readFile(trustedCopy, &readError);
        if (text) {
            auto policy = parse(*text, trustedCopy);
            if (policy)
                m_trusted = policy.value();
            else
                qCWarning(lcRules).noquote()
                    << "the trusted copy" << trustedCopy << "does not parse:" << policy.error().message
                    << "- only the built-in rules are trusted";
        }
    }
    m_watch.addPath(QFileInfo(m_path).absolutePath());
    if (QFileInfo::exists(m_path))
        m_watch.addPath(m_path);
    fileTouched();
    return true;
}

void OwnerRules::forceUnattended()
{
    m_forcedUnattended = true;
    enforce();
}

void OwnerRules::enforce()
{
    OwnerPolicy next = m_trusted;
    if (!m_path.isEmpty()) {
        QString readError;
        const auto text = readFile(m_path, &readError);
        m_ignored = {};
        m_fileError = readError;
        OwnerPolicy file;
        if (text) {
            auto parsed = parse(*text, m_path);
            if (parsed)
                file = parsed.value();
            else
                m_fileError = parsed.error().message;
        }
        // A file that cannot be read, or says what the host trusts: the trusted rules.
        if (!m_fileError.isEmpty() || samePolicy(file, m_trusted)) {
            next = m_trusted;
        } else if (OwnerPolicy::onlyTightens(m_trusted, file)) {
            // A file that only tightens what the host trusts is trusted as it is.
            m_trusted = file;
            if (!m_trustedCopy.isEmpty()) {
                if (auto failed = writePrivate(m_trustedCopy, fileText(file)))
                    qCWarning(lcRules).noquote() << "the trusted copy was not written:" << *failed;
            }
            next = file;
        } else {
            next = OwnerPolicy::tighteningOnly(m_trusted, file, &m_ignored);
        }
    }
    next.dropExpired(QDateTime::currentDateTimeUtc());
    m_base = next;
    if (m_forcedUnattended)
        next.setUnattended(true);
    m_policy = next;
    m_gate.setOwnerPolicy(m_policy);
    Q_EMIT changed();
}

void OwnerRules::fileTouched()
{
    if (m_path.isEmpty())
        return;
    // The file is replaced on every write: watch the new one.
    if (QFileInfo::exists(m_path) && !m_watch.files().contains(m_path))
        m_watch.addPath(m_path);
    const bool trustedBefore = fileTrusted();
    const QJsonArray ignoredBefore = m_ignored;
    enforce();
    if (!fileTrusted() && (trustedBefore || ignoredBefore != m_ignored)) {
        qCWarning(lcRules).noquote() << "the rule file" << m_path
                                     << "changed outside the host: only its tightening changes apply until a "
                                        "person confirms it";
        audit(QStringLiteral("policy_file_untrusted"), QJsonObject{{QStringLiteral("file"), m_path},
                                                                   {QStringLiteral("ignored"), m_ignored},
                                                                   {QStringLiteral("error"), m_fileError}});
    }
}

QJsonObject OwnerRules::fileState() const
{
    QJsonObject out{{QStringLiteral("path"), m_path}, {QStringLiteral("trusted"), fileTrusted()}};
    if (!m_ignored.isEmpty())
        out.insert(QStringLiteral("ignored"), m_ignored);
    if (!m_fileError.isEmpty())
        out.insert(QStringLiteral("error"), m_fileError);
    return out;
}

QJsonObject OwnerRules::state() const
{
    QJsonArray grants;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const OwnerPolicy::Grant& grant : m_policy.grants()) {
        if (grant.live(now))
            grants.append(grant.toJson());
    }
    return QJsonObject{{QStringLiteral("rules"), m_policy.toJson()},
                       {QStringLiteral("grants"), grants},
                       {QStringLiteral("unattended"), m_policy.unattended()},
                       {QStringLiteral("file"), fileState()}};
}

void OwnerRules::audit(const QString& event, const QJsonObject& fields)
{
    m_gate.audit(event, nullptr, fields);
}

std::optional<Error> OwnerRules::commit(OwnerPolicy next, const QString& what, const QString& who)
{
    next.dropExpired(QDateTime::currentDateTimeUtc());
    if (!m_path.isEmpty()) {
        const QByteArray text = fileText(next);
        if (!m_trustedCopy.isEmpty()) {
            if (auto failed = writePrivate(m_trustedCopy, text))
                return Error::make(ErrorCode::InternalError,
                                   QStringLiteral("the rules were not changed: %1").arg(*failed));
        }
        // Trusted first: the watcher then sees a file the host trusts.
        m_trusted = next;
        if (auto failed = writePrivate(m_path, text)) {
            qCWarning(lcRules).noquote() << "the rule file was not written:" << *failed;
            return Error::make(ErrorCode::InternalError,
                               QStringLiteral("the rules apply now but the file was not written: %1").arg(*failed));
        }
    } else {
        m_trusted = next;
    }
    audit(QStringLiteral("policy_changed"),
          QJsonObject{{QStringLiteral("change"), what}, {QStringLiteral("by"), who}, {QStringLiteral("file"), m_path}});
    qCInfo(lcRules).noquote() << "the owner's rules changed:" << what << "by" << who;
    enforce();
    return std::nullopt;
}

std::optional<Error> OwnerRules::setRule(const OwnerPolicy::Rule& rule, int position)
{
    return commit(withRule(m_base, rule, position), QStringLiteral("set rule %1").arg(rule.name),
                  QStringLiteral("gui"));
}

void OwnerRules::removeRule(const QString& name)
{
    commit(withoutRule(m_base, name), QStringLiteral("remove rule %1").arg(name), QStringLiteral("gui"));
}

void OwnerRules::revokeGrant(const QString& id)
{
    commit(withoutGrant(m_base, id), QStringLiteral("revoke grant %1").arg(id), QStringLiteral("gui"));
}

void OwnerRules::setUnattended(bool on)
{
    if (!on)
        m_forcedUnattended = false;
    OwnerPolicy next = m_base;
    next.setUnattended(on);
    commit(next, on ? QStringLiteral("enter the unattended mode") : QStringLiteral("leave the unattended mode"),
           QStringLiteral("gui"));
}

void OwnerRules::trustFile()
{
    if (m_path.isEmpty())
        return;
    const auto file = readPolicy(m_path);
    if (!file)
        return; // nothing to trust: it cannot be read
    m_ignored = {};
    commit(file.value(), QStringLiteral("trust the rule file as it is"), QStringLiteral("gui"));
}

void OwnerRules::changeFromClient(const Caller& caller, const Meta& meta, Change change, const Respond& respond)
{
    auto next = change.apply(m_base);
    if (!next)
        return respond(next.error());
    const auto done = [this, respond](bool changed) {
        QJsonObject out = state();
        out.insert(QStringLiteral("changed"), changed);
        respond(out);
    };
    if (samePolicy(next.value(), m_base))
        return done(false);
    // While the file is not trusted, m_base is what the host trusts plus the file's tightening:
    // a change is measured against that, and writing it makes the file trusted again.
    const bool tightens = OwnerPolicy::onlyTightens(m_base, next.value());
    const QString who = caller.isGui() ? QStringLiteral("gui") : caller.transportName();
    if (tightens || caller.isGui()) {
        if (auto failed = commit(next.value(), change.what, who))
            return respond(*failed);
        return done(true);
    }
    // It loosens: a person says so in the host's dialog, or nothing changes.
    if (!m_gate.ownerAskReachesPerson()) {
        audit(QStringLiteral("policy_change_refused"),
              QJsonObject{{QStringLiteral("change"), change.what},
                          {QStringLiteral("reason"), QStringLiteral("needs_person")}});
        return respond(needsPerson(change.what, m_policy.unattended()
                                                    ? QStringLiteral("the host is in the unattended mode")
                                                    : QStringLiteral("no person can be asked here (headless, or the "
                                                                     "auto or deny policy)")));
    }
    ApprovalRequest request;
    request.kind = ApprovalRequest::Kind::Policy;
    request.method = QStringLiteral("desktop.policy");
    request.change = change.what;
    request.changeJson = change.json;
    request.timeoutMs = meta.timeoutMs;
    auto apply = change.apply;
    const QString what = change.what;
    m_gate.askHostPerson(request, caller, [this, apply, what, who, respond, done](const ApprovalDecision& decision) {
        if (!decision.approved) {
            audit(QStringLiteral("policy_change_refused"),
                  QJsonObject{{QStringLiteral("change"), what}, {QStringLiteral("reason"), decision.decidedBy}});
            return respond(
                Error::make(ErrorCode::ConfirmRequired,
                            QStringLiteral("the person did not approve the change (%1)").arg(decision.decidedBy),
                            QJsonObject{{QStringLiteral("reason"), QStringLiteral("denied")},
                                        {QStringLiteral("decision"), decision.decidedBy}})
                    .withRetryable(false));
        }
        // Applied to the rules as they are when the person said yes.
        auto approved = apply(m_base);
        if (!approved)
            return respond(approved.error());
        if (auto failed =
                commit(approved.value(), what, QStringLiteral("%1, approved by %2").arg(who, decision.approver)))
            return respond(*failed);
        done(true);
    });
}

void OwnerRules::handle(const Caller& caller, const Meta& meta, const QJsonObject& params, const Respond& respond)
{
    const QString action = params.value(QStringLiteral("action")).toString();
    if (action == QLatin1String("list"))
        return respond(state());
    if (action == QLatin1String("test")) {
        const QJsonObject subject = params.value(QStringLiteral("subject")).toObject();
        if (subject.isEmpty())
            return respond(Error::invalidParam(QStringLiteral("subject"), QStringLiteral("test needs a subject")));
        const QString actionClass = subject.value(QStringLiteral("class")).toString();
        if (!Contract::actionClassNamed(actionClass))
            return respond(Error::invalidParam(QStringLiteral("subject.class"),
                                               QStringLiteral("an action class is one of %1")
                                                   .arg(Contract::actionClassNames().join(QStringLiteral(", ")))));
        OwnerPolicy::Subject s;
        s.app = identityOf(subject.value(QStringLiteral("app")).toObject());
        s.windowTitle = subject.value(QStringLiteral("window")).toString();
        s.actionClass = actionClass;
        s.highRisk = subject.value(QStringLiteral("highRisk")).toBool();
        s.terminal = subject.value(QStringLiteral("terminal")).toBool();
        const OwnerPolicy::Verdict verdict = m_policy.decide(s);
        QJsonObject v{{QStringLiteral("decision"), OwnerPolicy::decisionName(verdict.decision)},
                      {QStringLiteral("rule"), verdict.rule},
                      {QStringLiteral("why"), verdict.why}};
        // What the decision means for a call, as the host would answer it now.
        if (verdict.decision == OwnerPolicy::Decision::Ask)
            v.insert(QStringLiteral("personReachable"), m_gate.ownerAskReachesPerson());
        const QString sentinel = OwnerPolicy::sentinelOf(s);
        if (!sentinel.isEmpty())
            v.insert(QStringLiteral("sentinel"), sentinel);
        QJsonObject out = state();
        out.insert(QStringLiteral("verdict"), v);
        return respond(out);
    }
    Change change;
    if (action == QLatin1String("set")) {
        auto rule = OwnerPolicy::Rule::fromJson(params.value(QStringLiteral("rule")).toObject());
        if (!params.value(QStringLiteral("rule")).isObject())
            return respond(Error::invalidParam(QStringLiteral("rule"), QStringLiteral("set needs a rule")));
        if (!rule)
            return respond(rule.error());
        const int position =
            params.contains(QStringLiteral("position")) ? params.value(QStringLiteral("position")).toInt() : -1;
        change.what = QStringLiteral("set rule %1 (%2)").arg(rule->name, OwnerPolicy::decisionName(rule->decision));
        change.json = QJsonObject{{QStringLiteral("set"), rule->toJson()}};
        change.apply = [rule = rule.value(), position](const OwnerPolicy& current) -> Result<OwnerPolicy> {
            return withRule(current, rule, position);
        };
    } else if (action == QLatin1String("remove")) {
        const QString name = params.value(QStringLiteral("name")).toString();
        if (name.contains(QLatin1Char(':')))
            return respond(Error::invalidParam(QStringLiteral("name"),
                                               QStringLiteral("%1 is built in; a rule of your own before it decides "
                                                              "instead")
                                                   .arg(name)));
        const auto& rules = m_base.ownerRules();
        if (std::none_of(rules.begin(), rules.end(), [&](const OwnerPolicy::Rule& r) { return r.name == name; }))
            return respond(Error::invalidParam(QStringLiteral("name"),
                                               QStringLiteral("no rule of the owner's is named %1").arg(name)));
        change.what = QStringLiteral("remove rule %1").arg(name);
        change.json = QJsonObject{{QStringLiteral("remove"), name}};
        change.apply = [name](const OwnerPolicy& current) -> Result<OwnerPolicy> { return withoutRule(current, name); };
    } else if (action == QLatin1String("revoke")) {
        const QString id = params.value(QStringLiteral("grant")).toString();
        const auto& grants = m_base.grants();
        if (std::none_of(grants.begin(), grants.end(), [&](const OwnerPolicy::Grant& g) { return g.id == id; }))
            return respond(Error::invalidParam(QStringLiteral("grant"), QStringLiteral("no grant is %1").arg(id)));
        change.what = QStringLiteral("revoke grant %1").arg(id);
        change.json = QJsonObject{{QStringLiteral("revoke"), id}};
        change.apply = [id](const OwnerPolicy& current) -> Result<OwnerPolicy> { return withoutGrant(current, id); };
    } else if (action == QLatin1String("unattended")) {
        if (!params.value(QStringLiteral("on")).isBool())
            return respond(
                Error::invalidParam(QStringLiteral("on"), QStringLiteral("unattended needs on: true or false")));
        const bool on = params.value(QStringLiteral("on")).toBool();
        // Leaving a mode the command line asked for loosens as well.
        if (!on && m_forcedUnattended && !m_base.unattended()) {
            if (!caller.isGui())
                return respond(needsPerson(QStringLiteral("leaving the unattended mode"),
                                           QStringLiteral("the host's command line asked for it; a person leaves it "
                                                          "from the tray")));
            setUnattended(false);
            QJsonObject out = state();
            out.insert(QStringLiteral("changed"), true);
            return respond(out);
        }
        change.what = on ? QStringLiteral("enter the unattended mode") : QStringLiteral("leave the unattended mode");
        change.json = QJsonObject{{QStringLiteral("unattended"), on}};
        change.apply = [on](const OwnerPolicy& current) -> Result<OwnerPolicy> {
            OwnerPolicy next = current;
            next.setUnattended(on);
            return next;
        };
    } else if (action == QLatin1String("trust")) {
        if (m_path.isEmpty() || fileTrusted()) {
            QJsonObject out = state();
            out.insert(QStringLiteral("changed"), false);
            return respond(out);
        }
        const auto read = readPolicy(m_path);
        if (!read)
            return respond(read.error());
        const OwnerPolicy& file = read.value();
        change.what = QStringLiteral("trust the rule file %1 as it is now").arg(m_path);
        change.json = QJsonObject{{QStringLiteral("trust"), file.toFileJson()}};
        // Trusting is never a tightening: it always asks.
        change.apply = [file](const OwnerPolicy&) -> Result<OwnerPolicy> { return file; };
        if (caller.isGui()) {
            trustFile();
            QJsonObject out = state();
            out.insert(QStringLiteral("changed"), true);
            return respond(out);
        }
        if (!m_gate.ownerAskReachesPerson())
            return respond(needsPerson(change.what, QStringLiteral("no person can be asked here")));
    } else {
        return respond(Error::invalidParam(QStringLiteral("action"),
                                           QStringLiteral("action is list, set, remove, test, revoke, unattended or "
                                                          "trust")));
    }
    changeFromClient(caller, meta, std::move(change), respond);
}

void OwnerRules::personAllowed(const ApprovalRequest& request, const ApprovalDecision& decision)
{
    if (!decision.approved || request.kind != ApprovalRequest::Kind::Action || request.app.isEmpty() ||
        request.actionClass.isEmpty())
        return;
    const Automation::AppIdentity app = identityOf(request.app);
    OwnerPolicy next = m_base;
    const QString where = app.executable.isEmpty() ? app.name : app.executable;
    if (decision.scope == QLatin1String("minutes") && decision.grantMinutes > 0) {
        OwnerPolicy::Grant grant;
        grant.id = grantId();
        grant.app = OwnerPolicy::Grant::appOf(app);
        grant.actionClass = request.actionClass;
        grant.highRisk = request.risk == QLatin1String("high");
        grant.grantedAt = QDateTime::currentDateTimeUtc();
        grant.until = grant.grantedAt.addSecs(static_cast<qint64>(decision.grantMinutes) * 60);
        grant.approver = decision.approver;
        QList<OwnerPolicy::Grant> grants = next.grants();
        grants.append(grant);
        next.setGrants(grants);
        commit(next,
               QStringLiteral("grant %1: %2 actions in %3 for %4 minutes")
                   .arg(grant.id, grant.actionClass, where)
                   .arg(decision.grantMinutes),
               decision.approver);
    } else if (decision.scope == QLatin1String("always")) {
        OwnerPolicy::Rule rule;
        QString name = QStringLiteral("allow-%1-%2").arg(where.toLower(), request.actionClass);
        name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("-"));
        rule.name = name.left(64);
        rule.app = OwnerPolicy::Grant::appOf(app);
        rule.classes = {request.actionClass};
        rule.decision = OwnerPolicy::Decision::Allow;
        QList<OwnerPolicy::Rule> rules = next.ownerRules();
        rules.removeIf([&](const OwnerPolicy::Rule& r) { return r.name == rule.name; });
        rules.prepend(rule);
        next.setOwnerRules(rules);
        commit(next, QStringLiteral("set rule %1 (allow), from the dialog").arg(rule.name), decision.approver);
    }
}

} // namespace Bridge
