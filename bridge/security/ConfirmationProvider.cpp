#include "bridge/security/ConfirmationProvider.h"

#include "automation/Types.h"

#include <QJsonArray>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTimer>

namespace Bridge {

Q_LOGGING_CATEGORY(lcConfirm, "msgcode.bridge.confirm")

namespace {

QJsonObject targetOf(const QJsonObject& params)
{
    QJsonObject target;
    const QJsonObject route = params.value(QStringLiteral("route")).toObject();
    if (route.contains(QStringLiteral("app")))
        target.insert(QStringLiteral("app"), route.value(QStringLiteral("app")));
    if (route.contains(QStringLiteral("window")))
        target.insert(QStringLiteral("window"), route.value(QStringLiteral("window")));
    const QJsonObject element = params.value(QStringLiteral("target")).toObject();
    if (!element.isEmpty())
        target.insert(QStringLiteral("element"), element);
    return target;
}

} // namespace

QString ApprovalRequest::secretReason(const QJsonObject& target)
{
    static const QRegularExpression secretWords(
        QStringLiteral("\\b(pass(word|code|phrase)?|secret|token|pin|otp|credentials?|api[ _-]?key|2fa)\\b|密码|口令"),
        QRegularExpression::CaseInsensitiveOption);
    const QJsonObject element = target.value(QStringLiteral("element")).toObject();
    const QJsonObject selector = element.value(QStringLiteral("selector")).toObject();
    const QJsonObject ref = element.value(QStringLiteral("elementRef")).toObject();
    if (Automation::isSecureRole(selector.value(QStringLiteral("byRole")).toString()))
        return QStringLiteral("secure_role");
    // A fingerprint starts with the element's role; whether that element is secure is found by
    // looking at it (Dispatcher), since AX fingerprints name AXTextField for secure fields too.
    const QString fingerprint = ref.value(QStringLiteral("fingerprint")).toString();
    for (const QString& text : {selector.value(QStringLiteral("titleEquals")).toString(),
                                selector.value(QStringLiteral("titleContains")).toString(),
                                selector.value(QStringLiteral("titleMatches")).toString(),
                                selector.value(QStringLiteral("byIdentifier")).toString(), fingerprint}) {
        if (!text.isEmpty() && secretWords.match(text).hasMatch())
            return QStringLiteral("secret_words");
    }
    return {};
}

void ApprovalRequest::maskText(const QString& reason)
{
    if (!textPreview)
        return;
    if (!textMasked)
        textMaskReason = reason;
    textMasked = true;
    textPreview = QString(8, QChar(0x2022));
}

ApprovalRequest ApprovalRequest::forIntent(const QString& method, const QJsonObject& params,
                                           const QString& paramsDigest)
{
    ApprovalRequest request;
    request.kind = Kind::Token;
    request.method = method;
    request.paramsDigest = paramsDigest;
    request.target = targetOf(params);
    for (const auto& key : params.value(QStringLiteral("keys")).toArray())
        request.keys.append(key.toString());
    const QJsonValue text = params.value(QStringLiteral("text"));
    if (text.isString()) {
        const QString value = text.toString();
        request.textLength = static_cast<int>(value.size());
        request.textPreview = value;
        if (value.size() > kMaxPreviewChars)
            request.maskText(QStringLiteral("long"));
        else if (const QString reason = secretReason(request.target); !reason.isEmpty())
            request.maskText(reason);
    }
    return request;
}

QJsonObject ApprovalRequest::toJson() const
{
    QJsonObject out{{QStringLiteral("id"), static_cast<qint64>(id)},
                    {QStringLiteral("kind"), kindName()},
                    {QStringLiteral("peer"), QJsonObject{{QStringLiteral("pid"), peer.pid},
                                                         {QStringLiteral("exe"), peer.executable},
                                                         {QStringLiteral("digest"), peer.auditTokenDigest}}},
                    {QStringLiteral("method"), method},
                    {QStringLiteral("timeoutMs"), timeoutMs},
                    {QStringLiteral("expiresAt"), expiresAt.toUTC().toString(Qt::ISODateWithMs)}};
    if (!paramsDigest.isEmpty())
        out.insert(QStringLiteral("paramsDigest"), paramsDigest);
    if (!via.isEmpty())
        out.insert(QStringLiteral("via"), via);
    if (!client.isEmpty())
        out.insert(QStringLiteral("client"), client);
    if (offerGrant)
        out.insert(QStringLiteral("offerGrant"), true);
    if (!target.isEmpty())
        out.insert(QStringLiteral("target"), target);
    if (!resolved.isEmpty())
        out.insert(QStringLiteral("resolved"), resolved);
    if (!keys.isEmpty())
        out.insert(QStringLiteral("keys"), QJsonArray::fromStringList(keys));
    if (!rule.isEmpty())
        out.insert(QStringLiteral("rule"),
                   QJsonObject{{QStringLiteral("name"), rule}, {QStringLiteral("why"), ruleWhy}});
    if (!risk.isEmpty())
        out.insert(QStringLiteral("risk"),
                   QJsonObject{{QStringLiteral("level"), risk}, {QStringLiteral("why"), riskWhy}});
    if (!app.isEmpty())
        out.insert(QStringLiteral("app"), app);
    if (!actionClass.isEmpty())
        out.insert(QStringLiteral("class"), actionClass);
    if (!change.isEmpty())
        out.insert(QStringLiteral("change"),
                   QJsonObject{{QStringLiteral("what"), change}, {QStringLiteral("json"), changeJson}});
    if (textPreview)
        out.insert(QStringLiteral("text"), QJsonObject{{QStringLiteral("preview"), *textPreview},
                                                       {QStringLiteral("length"), textLength},
                                                       {QStringLiteral("masked"), textMasked},
                                                       {QStringLiteral("maskReason"), textMaskReason}});
    return out;
}

void AutoConfirmationProvider::request(const ApprovalRequest& request, Done done)
{
    qCInfo(lcConfirm) << "auto-approved" << request.kindName() << request.method << "for pid" << request.peer.pid;
    done(ApprovalDecision::approve(QStringLiteral("auto")));
}

void DenyConfirmationProvider::request(const ApprovalRequest& request, Done done)
{
    qCInfo(lcConfirm) << "denied by policy" << request.kindName() << request.method << "for pid" << request.peer.pid;
    done(ApprovalDecision::deny(QStringLiteral("policy")));
}

AskConfirmationProvider::AskConfirmationProvider(QObject* parent) : QObject(parent) {}

AskConfirmationProvider::~AskConfirmationProvider() = default; // the timers are children

void AskConfirmationProvider::request(const ApprovalRequest& request, Done done)
{
    if (!m_approver) {
        // `ask` without a GUI has nobody to ask, so nothing is approved.
        done(ApprovalDecision::deny(QStringLiteral("no_approver")));
        return;
    }
    if (m_pending.contains(request.id)) {
        done(ApprovalDecision::deny(QStringLiteral("duplicate")));
        return;
    }
    auto* timer = new QTimer(this);
    timer->setSingleShot(true);
    // A person's time to answer is never cut short (a coarse timer may fire 5% early).
    timer->setTimerType(Qt::PreciseTimer);
    const quint64 id = request.id;
    connect(timer, &QTimer::timeout, this,
            [this, id] { finish(id, ApprovalDecision::deny(QStringLiteral("timeout")), true); });
    m_pending.insert(id, Pending{std::move(done), timer});
    timer->start(std::max(1, request.timeoutMs));
    m_approver->ask(request);
}

void AskConfirmationProvider::cancel(quint64 id)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    it->timer->stop();
    it->timer->deleteLater();
    m_pending.erase(it);
    if (m_approver)
        m_approver->withdraw(id);
}

void AskConfirmationProvider::attach(Approver* approver)
{
    if (m_approver && m_approver != approver)
        detach();
    m_approver = approver;
}

void AskConfirmationProvider::detach()
{
    const QList<quint64> ids = m_pending.keys();
    for (const quint64 id : ids)
        finish(id, ApprovalDecision::deny(QStringLiteral("no_approver")), true);
    m_approver = nullptr;
}

void AskConfirmationProvider::answer(quint64 id, bool approved, const QString& approver, int grantMinutes,
                                     const QString& scope)
{
    if (!m_pending.contains(id)) {
        qCInfo(lcConfirm) << "ignored an answer for approval request" << id << "(unknown or already decided)";
        return;
    }
    ApprovalDecision decision = approved ? ApprovalDecision::approve(QStringLiteral("user"), approver)
                                         : ApprovalDecision::deny(QStringLiteral("user"), approver);
    if (approved) {
        decision.grantMinutes = std::max(0, grantMinutes);
        decision.scope = scope;
    }
    finish(id, decision, false);
}

void AskConfirmationProvider::finish(quint64 id, const ApprovalDecision& decision, bool withdraw)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    Pending pending = std::move(*it);
    m_pending.erase(it);
    // deleteLater: finish() may run inside this very timer's timeout.
    pending.timer->stop();
    pending.timer->deleteLater();
    if (withdraw && m_approver)
        m_approver->withdraw(id);
    pending.done(decision);
}

} // namespace Bridge
