#include "bridge/OwnerCheck.h"

#include "automation/Operations.h"
#include "bridge/Methods.h"
#include "bridge/evidence/ExecutionRecord.h"

#include <QJsonArray>

namespace Bridge {

using Automation::Error;
using Automation::ErrorCode;
namespace Ops = Automation::Operations;

namespace {

/// What a token was bound to, against what the host resolves now: the first difference, or
/// empty. A moved window is not a change (frames are not compared).
QString bindingChange(const QJsonObject& binding, const Ops::PolicyLook& look)
{
    // Nothing resolved at issue (the app was not there): nothing to compare.
    if (binding.value(QStringLiteral("bound")).toString() == QLatin1String("none"))
        return {};
    if (binding.value(QStringLiteral("pid")).toInteger() != look.route.pid)
        return QStringLiteral("app");
    const QString windowId = binding.value(QStringLiteral("windowId")).toString();
    if (!windowId.isEmpty() && !look.route.windowId().isEmpty()) {
        if (windowId != look.route.windowId())
            return QStringLiteral("window");
    } else if (binding.value(QStringLiteral("window")).toString() != look.route.windowTitle) {
        return QStringLiteral("window");
    }
    if (binding.value(QStringLiteral("bound")).toString() != QLatin1String("element"))
        return {};
    if (!look.element)
        return QStringLiteral("element");
    if (binding.value(QStringLiteral("role")).toString() != look.element->role ||
        binding.value(QStringLiteral("title")).toString() != look.element->title)
        return QStringLiteral("element");
    const QString handle = binding.value(QStringLiteral("handle")).toString();
    if (!handle.isEmpty() && !look.element->handle.isEmpty() && handle != look.element->handle)
        return QStringLiteral("element");
    return {};
}

} // namespace

std::optional<Error> OwnerCheck::run(Automation::JobContext& ctx, Evidence::ExecutionRecord& record) const
{
    const auto request = Methods::policyRequest(method, params);
    if (!request)
        return std::nullopt; // the operation answers its own params error; nothing was sent
    auto look = Ops::policyLook(ctx, *request);
    if (!look) {
        if (look.error().code == ErrorCode::Aborted || look.error().code == ErrorCode::Timeout)
            return look.error();
        // Nothing resolved, nothing sent: the operation answers the same error itself.
        return std::nullopt;
    }

    // A token is good for the target a person (or the policy) was shown, and no other.
    if (byToken && !binding.isEmpty()) {
        if (const QString changed = bindingChange(binding, look.value()); !changed.isEmpty()) {
            const QJsonObject details{{QStringLiteral("reason"), QStringLiteral("target_changed")},
                                      {QStringLiteral("changed"), changed},
                                      {QStringLiteral("issuedFor"), binding},
                                      {QStringLiteral("resolvedNow"), look->binding()}};
            record.trace(QStringLiteral("policy"), 0, false, details);
            if (audit)
                audit(QStringLiteral("token_refused"),
                      QJsonObject{{QStringLiteral("method"), method},
                                  {QStringLiteral("reason"), QStringLiteral("target_changed")},
                                  {QStringLiteral("changed"), changed}});
            return Error::make(ErrorCode::ConfirmRequired,
                               QStringLiteral("the confirmation was given for another %1 than the one this request "
                                              "resolves to now; ask for a new token")
                                   .arg(changed),
                               details)
                .withRetryable(false);
        }
    }

    OwnerPolicy::Subject subject;
    subject.app = look->app;
    subject.windowTitle = look->route.windowTitle;
    subject.actionClass = actionClass;
    subject.highRisk = look->risk.high();
    subject.terminal = look->terminal;
    const OwnerPolicy::Verdict verdict = policy.decide(subject);
    const QString riskWhy = look->riskWhy();
    QJsonObject details{{QStringLiteral("rule"), verdict.rule},
                        {QStringLiteral("decision"), OwnerPolicy::decisionName(verdict.decision)},
                        {QStringLiteral("class"), actionClass},
                        {QStringLiteral("risk"), subject.highRisk ? QStringLiteral("high") : QStringLiteral("normal")},
                        {QStringLiteral("app"), look->app.toJson()},
                        {QStringLiteral("window"), look->route.windowTitle}};
    if (!verdict.why.isEmpty())
        details.insert(QStringLiteral("why"), verdict.why);
    if (subject.highRisk)
        details.insert(QStringLiteral("riskWhy"), riskWhy);
    if (look->element)
        details.insert(QStringLiteral("element"), QJsonObject{{QStringLiteral("role"), look->element->role},
                                                              {QStringLiteral("title"), look->element->title}});

    const auto decided = [&](const QString& outcome, bool ok) {
        QJsonObject line = details;
        line.insert(QStringLiteral("method"), method);
        line.insert(QStringLiteral("outcome"), outcome);
        record.trace(QStringLiteral("policy"), 0, ok, line);
        if (audit)
            audit(QStringLiteral("policy"), line);
    };
    const QString where = look->app.executable.isEmpty() ? look->app.name : look->app.executable;
    switch (verdict.decision) {
    case OwnerPolicy::Decision::Allow:
        decided(QStringLiteral("allowed"), true);
        return std::nullopt;
    case OwnerPolicy::Decision::Deny: {
        decided(QStringLiteral("denied"), false);
        QJsonObject error = details;
        error.insert(QStringLiteral("reason"), QStringLiteral("policy_denied"));
        return Error::make(ErrorCode::CallerForbidden,
                           QStringLiteral("the owner's rule %1 does not allow %2 actions in %3")
                               .arg(verdict.rule, actionClass, where),
                           error)
            .withRetryable(false);
    }
    case OwnerPolicy::Decision::Ask:
        break;
    }
    if (byPerson) {
        decided(QStringLiteral("approved_before"), true);
        return std::nullopt;
    }
    if (!personReachable || policy.unattended() || !askPerson) {
        decided(QStringLiteral("needs_person"), false);
        QJsonObject error = details;
        error.insert(QStringLiteral("reason"), QStringLiteral("needs_person"));
        error.insert(QStringLiteral("unattended"), policy.unattended());
        return Error::make(ErrorCode::ConfirmRequired,
                           QStringLiteral("the owner's rule %1 asks a person to approve %2 actions in %3%4, and no "
                                          "person can be asked here (headless, unattended, or the %5 policy)")
                               .arg(verdict.rule, actionClass, where,
                                    subject.highRisk ? QStringLiteral(" (high-risk: %1)").arg(riskWhy) : QString(),
                                    policy.unattended() ? QStringLiteral("unattended") : QStringLiteral("host's")),
                           error)
            .withRetryable(false);
    }

    ApprovalRequest ask = ApprovalRequest::forIntent(method, params, {});
    // Typed text is shown only where nothing says the target is secret.
    if (ask.textPreview && !look->element)
        ask.maskText(QStringLiteral("unresolved"));
    else if (ask.textPreview && look->secure)
        ask.maskText(QStringLiteral("secure_element"));
    ask.rule = verdict.rule;
    ask.ruleWhy = verdict.why;
    ask.app = look->app.toJson();
    ask.actionClass = actionClass;
    if (subject.highRisk) {
        ask.risk = QStringLiteral("high");
        ask.riskWhy = riskWhy;
    }
    ask.resolved = QJsonObject{{QStringLiteral("role"), look->element ? look->element->role : QString()},
                               {QStringLiteral("title"), look->element ? look->element->title : QString()},
                               {QStringLiteral("window"), look->route.windowTitle},
                               {QStringLiteral("app"), look->app.name},
                               {QStringLiteral("matches"), look->matches}};
    if (look->element && !look->element->frame.isEmpty())
        ask.resolved.insert(QStringLiteral("frame"), look->element->frame.toJson());
    ask.timeoutMs = static_cast<int>(std::max<qint64>(1, ctx.call.remainingMs()));
    if (auto refused = askPerson(ask, ctx)) {
        decided(QStringLiteral("person_denied"), false);
        Error error = *refused;
        for (auto it = details.begin(); it != details.end(); ++it) {
            if (!error.details.contains(it.key()))
                error.details.insert(it.key(), it.value());
        }
        return error;
    }
    decided(QStringLiteral("person_approved"), true);
    return std::nullopt;
}

} // namespace Bridge
