#include "app/ConfirmationDialog.h"

#include "automation/Types.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace App {

namespace {

QString describeTarget(const QJsonObject& target)
{
    QStringList parts;
    const QJsonObject app = target.value(QStringLiteral("app")).toObject();
    if (app.contains(QStringLiteral("bundleId")))
        parts.append(ConfirmationDialog::tr("app %1").arg(app.value(QStringLiteral("bundleId")).toString()));
    if (app.contains(QStringLiteral("pid")))
        parts.append(ConfirmationDialog::tr("pid %1").arg(app.value(QStringLiteral("pid")).toInteger()));
    const QJsonObject window = target.value(QStringLiteral("window")).toObject();
    if (window.contains(QStringLiteral("titlePattern")))
        parts.append(
            ConfirmationDialog::tr("window \"%1\"").arg(window.value(QStringLiteral("titlePattern")).toString()));
    if (window.contains(QStringLiteral("nativeId")))
        parts.append(ConfirmationDialog::tr("window %1").arg(window.value(QStringLiteral("nativeId")).toString()));
    const QJsonValue element = target.value(QStringLiteral("element"));
    if (element.isObject() && !element.toObject().isEmpty())
        parts.append(ConfirmationDialog::tr("element %1")
                         .arg(QString::fromUtf8(QJsonDocument(element.toObject()).toJson(QJsonDocument::Compact))));
    return parts.isEmpty() ? ConfirmationDialog::tr("the frontmost window") : parts.join(QStringLiteral(", "));
}

QString describeMethod(const QString& method)
{
    if (method == QLatin1String("desktop.click"))
        return ConfirmationDialog::tr("Click");
    if (method == QLatin1String("desktop.typeText"))
        return ConfirmationDialog::tr("Type text");
    if (method == QLatin1String("desktop.hotkey"))
        return ConfirmationDialog::tr("Press keys");
    if (method == QLatin1String("desktop.scroll"))
        return ConfirmationDialog::tr("Scroll");
    if (method == QLatin1String("desktop.menuPick"))
        return ConfirmationDialog::tr("Pick a menu item");
    if (method == QLatin1String("desktop.pointer"))
        return ConfirmationDialog::tr("Use the pointer");
    if (method == QLatin1String("desktop.window"))
        return ConfirmationDialog::tr("Change a window");
    if (method == QLatin1String("desktop.resume"))
        return ConfirmationDialog::tr("Resume automation");
    if (method == QLatin1String("desktop.policy"))
        return ConfirmationDialog::tr("Change the owner's rules");
    return method;
}

/// An action class (Contract::ActionClass) as the dialog's choices say it.
QString describeClass(const QString& actionClass)
{
    if (actionClass == QLatin1String("type"))
        return ConfirmationDialog::tr("typing");
    if (actionClass == QLatin1String("pointer"))
        return ConfirmationDialog::tr("clicks and pointer actions");
    if (actionClass == QLatin1String("keys"))
        return ConfirmationDialog::tr("key presses");
    if (actionClass == QLatin1String("window"))
        return ConfirmationDialog::tr("window changes");
    if (actionClass == QLatin1String("read"))
        return ConfirmationDialog::tr("reading");
    return ConfirmationDialog::tr("%1 actions").arg(actionClass);
}

} // namespace

ConfirmationDialog::ConfirmationDialog(Bridge::AskConfirmationProvider& provider, QWidget* parent)
    : QDialog(parent), m_provider(provider)
{
    setWindowTitle(tr("msgcode wants to act on your desktop"));
    setObjectName(QStringLiteral("confirmationDialog"));
    // In front of other windows, but without taking the keyboard from whatever has it.
    setWindowFlag(Qt::WindowStaysOnTopHint);
    setAttribute(Qt::WA_ShowWithoutActivating);
    setModal(false);

    auto* layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_title->setFont(bold);
    layout->addWidget(m_title);
    auto* form = new QFormLayout;
    m_who = new QLabel(this);
    m_what = new QLabel(this);
    m_target = new QLabel(this);
    m_detail = new QLabel(this);
    for (QLabel* label : {m_who, m_what, m_target, m_detail}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    form->addRow(tr("Who asks:"), m_who);
    form->addRow(tr("Action:"), m_what);
    auto* targetColumn = new QVBoxLayout;
    targetColumn->addWidget(m_target);
    m_showRaw = new QToolButton(this);
    m_showRaw->setObjectName(QStringLiteral("showSelector"));
    m_showRaw->setText(tr("Show the selector"));
    m_showRaw->setCheckable(true);
    m_showRaw->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_showRaw->setArrowType(Qt::RightArrow);
    targetColumn->addWidget(m_showRaw, 0, Qt::AlignLeft);
    m_raw = new QLabel(this);
    m_raw->setObjectName(QStringLiteral("rawTarget"));
    m_raw->setWordWrap(true);
    m_raw->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_raw->hide();
    targetColumn->addWidget(m_raw);
    connect(m_showRaw, &QToolButton::toggled, this, [this](bool on) {
        m_showRaw->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        m_raw->setVisible(on);
        adjustSize();
        placeAwayFromTarget();
    });
    form->addRow(tr("Target:"), targetColumn);
    form->addRow(tr("Details:"), m_detail);
    m_policy = new QLabel(this);
    m_policy->setObjectName(QStringLiteral("policyNote"));
    m_policy->setWordWrap(true);
    m_policy->setTextFormat(Qt::PlainText);
    form->addRow(m_policy);
    layout->addLayout(form);
    m_countdown = new QLabel(this);
    m_countdown->setObjectName(QStringLiteral("countdown"));
    layout->addWidget(m_countdown);
    m_queueLabel = new QLabel(this);
    layout->addWidget(m_queueLabel);
    m_coverNote = new QLabel(
        tr("The screen has no room beside the target: this window covers part of it. Drag this window aside to see "
           "the highlighted element."),
        this);
    m_coverNote->setObjectName(QStringLiteral("coverNote"));
    m_coverNote->setWordWrap(true);
    m_coverNote->setStyleSheet(QStringLiteral("background: #fff4ce; color: #5c4400; padding: 4px;"));
    m_coverNote->hide();
    layout->addWidget(m_coverNote);
    // The MCP door's clients start a door per call: the person may allow the client for a while.
    m_grantRow = new QWidget(this);
    auto* grantLayout = new QHBoxLayout(m_grantRow);
    grantLayout->setContentsMargins(0, 0, 0, 0);
    m_grant = new QCheckBox(tr("Also allow this client, without asking, for"), m_grantRow);
    m_grant->setObjectName(QStringLiteral("grantCheck"));
    m_grantMinutes = new QSpinBox(m_grantRow);
    m_grantMinutes->setObjectName(QStringLiteral("grantMinutes"));
    m_grantMinutes->setRange(1, 240);
    m_grantMinutes->setValue(15);
    m_grantMinutes->setSuffix(tr(" min"));
    grantLayout->addWidget(m_grant);
    grantLayout->addWidget(m_grantMinutes);
    grantLayout->addStretch(1);
    m_grantRow->hide();
    layout->addWidget(m_grantRow);
    // An owner's ask (docs/protocol.md, "Policy"): once, in this app for a while, or always.
    m_scopeRow = new QWidget(this);
    auto* scopeLayout = new QHBoxLayout(m_scopeRow);
    scopeLayout->setContentsMargins(0, 0, 0, 0);
    m_scope = new QComboBox(m_scopeRow);
    m_scope->setObjectName(QStringLiteral("scopeChoice"));
    m_scopeMinutes = new QSpinBox(m_scopeRow);
    m_scopeMinutes->setObjectName(QStringLiteral("scopeMinutes"));
    m_scopeMinutes->setRange(1, 24 * 60);
    m_scopeMinutes->setValue(30);
    m_scopeMinutes->setSuffix(tr(" min"));
    scopeLayout->addWidget(m_scope, 1);
    scopeLayout->addWidget(m_scopeMinutes);
    connect(m_scope, &QComboBox::currentIndexChanged, this,
            [this] { m_scopeMinutes->setEnabled(m_scope->currentData().toString() == QLatin1String("minutes")); });
    m_scopeRow->hide();
    layout->addWidget(m_scopeRow);

    auto* buttons = new QDialogButtonBox(this);
    m_deny = buttons->addButton(tr("Deny"), QDialogButtonBox::RejectRole);
    m_approve = buttons->addButton(tr("Approve"), QDialogButtonBox::AcceptRole);
    m_deny->setObjectName(QStringLiteral("denyButton"));
    m_approve->setObjectName(QStringLiteral("approveButton"));
    // Enter must never approve: Deny is the default, Approve never becomes one.
    m_deny->setDefault(true);
    m_deny->setAutoDefault(true);
    m_approve->setAutoDefault(false);
    layout->addWidget(buttons);
    connect(m_approve, &QPushButton::clicked, this, [this] { decide(true); });
    connect(m_deny, &QPushButton::clicked, this, [this] { decide(false); });

    m_tick.setInterval(250);
    connect(&m_tick, &QTimer::timeout, this, &ConfirmationDialog::updateCountdown);
    m_arm.setSingleShot(true);
    m_arm.setInterval(kArmDelayMs);
    connect(&m_arm, &QTimer::timeout, this, [this] { m_approve->setEnabled(true); });

    m_provider.attach(this);
}

ConfirmationDialog::~ConfirmationDialog()
{
    m_provider.detach();
}

void ConfirmationDialog::ask(const Bridge::ApprovalRequest& request)
{
    m_queue.push_back(request);
    if (!m_current)
        showNext();
    else
        m_queueLabel->setText(tr("%n more request(s) waiting", nullptr, queuedCount()));
}

void ConfirmationDialog::withdraw(quint64 id)
{
    std::erase_if(m_queue, [id](const Bridge::ApprovalRequest& r) { return r.id == id; });
    if (m_current && m_current->id == id) {
        m_current.reset();
        showNext();
    } else {
        m_queueLabel->setText(queuedCount() ? tr("%n more request(s) waiting", nullptr, queuedCount()) : QString());
    }
}

std::optional<quint64> ConfirmationDialog::currentId() const
{
    return m_current ? std::optional(m_current->id) : std::nullopt;
}

void ConfirmationDialog::fill(const Bridge::ApprovalRequest& request)
{
    m_title->setText(describeMethod(request.method));
    const QString exe =
        request.peer.executable.isEmpty() ? tr("unknown program") : QFileInfo(request.peer.executable).fileName();
    if (request.via == QLatin1String("mcp")) {
        // The door is a messenger; the client is what started it (msgcode's node).
        const QString client = request.client.isEmpty() ? tr("unknown program") : QFileInfo(request.client).fileName();
        m_who->setText(tr("MCP: %1 (%2), through %3 (pid %4)")
                           .arg(client, request.client.isEmpty() ? tr("unknown") : request.client, exe)
                           .arg(request.peer.pid));
    } else if (request.via == QLatin1String("remote")) {
        // A control server this host dialled out to (docs/remote.md): no local process asks.
        m_who->setText(tr("Remote control server %1").arg(request.client));
    } else {
        m_who->setText(tr("%1 (pid %2, %3)").arg(exe).arg(request.peer.pid).arg(request.peer.executable));
    }
    m_grant->setChecked(false);
    m_grantRow->setVisible(request.offerGrant);
    m_what->setText(tr("%1 (%2)").arg(describeMethod(request.method), request.method));
    // An owner's ask about an action: the person may allow more than this once.
    const bool scoped = request.kind == Bridge::ApprovalRequest::Kind::Action && !request.app.isEmpty() &&
                        !request.actionClass.isEmpty();
    m_scope->clear();
    if (scoped) {
        QString app = request.app.value(QStringLiteral("name")).toString();
        if (app.isEmpty())
            app = request.app.value(QStringLiteral("executable")).toString();
        const QString what = describeClass(request.actionClass);
        m_scope->addItem(tr("Allow once"), QStringLiteral("once"));
        m_scope->addItem(request.risk == QLatin1String("high")
                             ? tr("Allow %1, high-risk ones too, in %2 for").arg(what, app)
                             : tr("Allow %1 in %2 for").arg(what, app),
                         QStringLiteral("minutes"));
        m_scope->addItem(tr("Always allow %1 in %2 (adds a rule)").arg(what, app), QStringLiteral("always"));
        m_scope->setCurrentIndex(0);
        m_scopeMinutes->setEnabled(false);
    }
    m_scopeRow->setVisible(scoped);
    if (request.kind == Bridge::ApprovalRequest::Kind::Policy)
        m_what->setText(tr("Change the owner's rules: %1").arg(request.change));
    // What the action lands on, as a person recognises it; the request's own words folded below.
    const QJsonObject& resolved = request.resolved;
    if (!resolved.isEmpty()) {
        QString element = resolved.value(QStringLiteral("title")).toString().isEmpty()
                              ? resolved.value(QStringLiteral("role")).toString()
                              : tr("%1 \"%2\"")
                                    .arg(resolved.value(QStringLiteral("role")).toString(),
                                         resolved.value(QStringLiteral("title")).toString());
        QString text = tr("%1 in the window \"%2\" of %3")
                           .arg(element, resolved.value(QStringLiteral("window")).toString(),
                                resolved.value(QStringLiteral("app")).toString());
        if (const int matches = resolved.value(QStringLiteral("matches")).toInt(); matches > 1)
            text += QLatin1Char('\n') + tr("(the best of %n matching elements)", nullptr, matches);
        m_target->setText(text);
    } else {
        m_target->setText(describeTarget(request.target));
    }
    m_raw->setText(describeTarget(request.target));
    m_showRaw->setVisible(!resolved.isEmpty());
    m_showRaw->setChecked(false);
    m_targetFrame.reset();
    if (const auto frame = Automation::Frame::fromJson(resolved.value(QStringLiteral("frame")).toObject());
        frame && !frame->isEmpty()) {
        m_targetFrame = QRect(frame->x, frame->y, frame->width, frame->height);
        m_highlight.show({*m_targetFrame}, 0);
    } else {
        m_highlight.hide();
    }
    QString detail;
    if (!request.keys.isEmpty())
        detail = tr("Keys: %1").arg(request.keys.join(QStringLiteral(" + ")));
    else if (request.textMasked) {
        detail = tr("Text: %n character(s), hidden", nullptr, request.textLength);
        if (request.textMaskReason == QLatin1String("secure_role") ||
            request.textMaskReason == QLatin1String("secure_element"))
            detail += QLatin1Char('\n') + tr("The target is a password field.");
        else if (request.textMaskReason == QLatin1String("secret_words"))
            detail += QLatin1Char('\n') + tr("The target looks like a password, PIN or key field.");
        else if (request.textMaskReason == QLatin1String("unresolved"))
            detail += QLatin1Char('\n') + tr("The target could not be checked, so the text is treated as secret.");
    } else if (request.textPreview)
        detail = tr("Text: \"%1\"").arg(*request.textPreview);
    else if (request.kind == Bridge::ApprovalRequest::Kind::Resume)
        detail = tr("Side effects were stopped; this lets them run again.");
    else if (request.kind == Bridge::ApprovalRequest::Kind::Policy)
        detail = tr("This loosens what an agent may do on this desktop. Approve it only if you asked for it.");
    m_detail->setText(detail.isEmpty() ? tr("(none)") : detail);
    // Why a person is asked at all: the owner's rule, and what makes the action high-risk.
    QStringList policy;
    if (request.risk == QLatin1String("high"))
        policy.append(tr("High risk: %1").arg(request.riskWhy));
    if (!request.rule.isEmpty())
        policy.append(request.ruleWhy.isEmpty()
                          ? tr("Asked by the owner's rule %1.").arg(request.rule)
                          : tr("Asked by the owner's rule %1 (%2).").arg(request.rule, request.ruleWhy));
    m_policy->setText(policy.join(QLatin1Char('\n')));
    m_policy->setStyleSheet(request.risk == QLatin1String("high") ? QStringLiteral("color: #b00020; font-weight: bold;")
                                                                  : QString());
    m_policy->setVisible(!policy.isEmpty());
}

void ConfirmationDialog::showNext()
{
    m_tick.stop();
    if (m_queue.empty()) {
        m_current.reset();
        m_highlight.hide();
        hide();
        return;
    }
    m_current = m_queue.front();
    m_queue.pop_front();
    fill(*m_current);
    m_queueLabel->setText(queuedCount() ? tr("%n more request(s) waiting", nullptr, queuedCount()) : QString());
    m_approve->setEnabled(false);
    m_arm.start();
    updateCountdown();
    m_tick.start();
    // Never exec(): no nested event loop in the request path (the answer goes back through a
    // signal, see docs/architecture.md, "Approval"). Not open() either: that makes the dialog
    // window-modal, and Qt then activates it, taking the keyboard from whatever the person is
    // typing into. show() + WA_ShowWithoutActivating brings it to the front without that; Deny is
    // its focus widget for when the person clicks into it.
    m_deny->setFocus();
    // Sized for what it says: nothing cut, at least wide enough for a long title.
    setMinimumWidth(560);
    adjustSize();
    placeAwayFromTarget();
    if (!isVisible())
        show();
    raise();
    // Once the window manager has framed it, its real size is known: placed again with it.
    if (m_targetFrame)
        QTimer::singleShot(kReplaceAfterShowMs, this, [this] {
            if (isVisible())
                placeAwayFromTarget();
        });
    Q_EMIT shown(m_current->id);
}

void ConfirmationDialog::placeAwayFromTarget()
{
    if (!m_targetFrame) {
        m_coverNote->hide();
        m_placement = {};
        return;
    }
    const QRect screen = Inspector::screenFor(*m_targetFrame);
    Inspector::Placement placement =
        Inspector::placeBeside(*m_targetFrame, Inspector::frameSizeOf(*this), screen, kTargetGap);
    // Saying so makes the dialog taller: placed again at its new size.
    if (placement.coversTarget() != m_coverNote->isVisible()) {
        m_coverNote->setVisible(placement.coversTarget());
        adjustSize();
        placement = Inspector::placeBeside(*m_targetFrame, Inspector::frameSizeOf(*this), screen, kTargetGap);
    }
    m_placement = placement;
    move(placement.topLeft);
}

void ConfirmationDialog::decide(bool approved)
{
    if (!m_current)
        return;
    const quint64 id = m_current->id;
    int grant = approved && m_current->offerGrant && m_grant->isChecked() ? m_grantMinutes->value() : 0;
    QString scope;
    if (approved && m_scopeRow->isVisible()) {
        scope = m_scope->currentData().toString();
        if (scope == QLatin1String("minutes"))
            grant = m_scopeMinutes->value();
    }
    m_current.reset();
    m_provider.answer(id, approved, QStringLiteral("user"), grant, scope);
    Q_EMIT decided(id, approved);
    showNext();
}

void ConfirmationDialog::updateCountdown()
{
    if (!m_current)
        return;
    const qint64 left = std::max<qint64>(0, QDateTime::currentDateTimeUtc().msecsTo(m_current->expiresAt));
    m_countdown->setText(tr("Denied automatically in %n second(s)", nullptr, static_cast<int>((left + 999) / 1000)));
    if (left == 0)
        decide(false);
}

void ConfirmationDialog::reject()
{
    // Escape and the window's close button deny.
    if (m_current)
        decide(false);
    else
        QDialog::reject();
}

void ConfirmationDialog::closeEvent(QCloseEvent* event)
{
    if (m_current) {
        event->ignore();
        decide(false);
        return;
    }
    QDialog::closeEvent(event);
}

} // namespace App
