#include "app/RulesPage.h"

#include "bridge/contract/Declaration.h"
#include "bridge/security/OwnerRules.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace App {

namespace {

QString className(const QString& actionClass)
{
    if (actionClass == QLatin1String("read"))
        return RulesPage::tr("read");
    if (actionClass == QLatin1String("type"))
        return RulesPage::tr("type");
    if (actionClass == QLatin1String("pointer"))
        return RulesPage::tr("click and pointer");
    if (actionClass == QLatin1String("keys"))
        return RulesPage::tr("keys");
    if (actionClass == QLatin1String("window"))
        return RulesPage::tr("windows");
    if (actionClass == QLatin1String("app"))
        return RulesPage::tr("apps");
    if (actionClass == QLatin1String("clipboard"))
        return RulesPage::tr("clipboard");
    return actionClass;
}

QString decisionText(const QString& decision)
{
    if (decision == QLatin1String("allow"))
        return RulesPage::tr("allow");
    if (decision == QLatin1String("ask"))
        return RulesPage::tr("ask a person");
    return RulesPage::tr("deny");
}

/// Where a rule applies, in words.
QString appliesTo(const QJsonObject& rule)
{
    QStringList parts;
    if (rule.contains(QStringLiteral("app"))) {
        QStringList app;
        const QJsonObject o = rule.value(QStringLiteral("app")).toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            app.append(QStringLiteral("%1=%2").arg(it.key(), it.value().toVariant().toString()));
        parts.append(app.join(QStringLiteral(", ")));
    }
    if (const QString sentinel = rule.value(QStringLiteral("sentinel")).toString(); !sentinel.isEmpty())
        parts.append(RulesPage::tr("the %1").arg(sentinel));
    if (const QString window = rule.value(QStringLiteral("window")).toString(); !window.isEmpty())
        parts.append(RulesPage::tr("windows \"%1\"").arg(window));
    QStringList classes;
    for (const QJsonValue& c : rule.value(QStringLiteral("classes")).toArray())
        classes.append(className(c.toString()));
    if (!classes.isEmpty())
        parts.append(classes.join(QStringLiteral(", ")));
    if (rule.value(QStringLiteral("risk")).toString() == QLatin1String("high"))
        parts.append(RulesPage::tr("high-risk actions"));
    return parts.isEmpty() ? RulesPage::tr("every app, every action") : parts.join(QStringLiteral("; "));
}

} // namespace

RulesPage::RulesPage(Bridge::OwnerRules& rules, QWidget* parent)
    : QGroupBox(tr("Where an agent may act"), parent), m_owner(rules)
{
    setObjectName(QStringLiteral("rulesPage"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("Rules are asked in order; the first that matches decides: allow (the phrase or a "
                      "token suffices), ask a person, or deny. Built-in rules come last. Changes here apply at once."),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_fileNote = new QLabel(this);
    m_fileNote->setObjectName(QStringLiteral("rulesFileNote"));
    m_fileNote->setWordWrap(true);
    m_fileNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_fileNote);
    m_trust = new QPushButton(tr("Trust the rule file as it is"), this);
    m_trust->setObjectName(QStringLiteral("trustRulesFile"));
    layout->addWidget(m_trust, 0, Qt::AlignLeft);
    connect(m_trust, &QPushButton::clicked, this, [this] { m_owner.trustFile(); });

    m_unattended =
        new QCheckBox(tr("Unattended mode: refuse what a rule would ask a person, never wait for one"), this);
    m_unattended->setObjectName(QStringLiteral("unattendedMode"));
    layout->addWidget(m_unattended);
    connect(m_unattended, &QCheckBox::clicked, this, [this](bool on) { m_owner.setUnattended(on); });

    m_rules = new QTreeWidget(this);
    m_rules->setObjectName(QStringLiteral("rulesList"));
    m_rules->setHeaderLabels({tr("Rule"), tr("Decision"), tr("Applies to")});
    m_rules->setRootIsDecorated(false);
    m_rules->setMinimumHeight(170);
    m_rules->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_rules);
    m_remove = new QPushButton(tr("Remove the selected rule"), this);
    m_remove->setObjectName(QStringLiteral("removeRule"));
    m_remove->setEnabled(false);
    layout->addWidget(m_remove, 0, Qt::AlignLeft);
    connect(m_rules, &QTreeWidget::itemSelectionChanged, this, [this] {
        const QTreeWidgetItem* item = m_rules->currentItem();
        m_remove->setEnabled(item && !item->data(0, Qt::UserRole).toBool());
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (const QTreeWidgetItem* item = m_rules->currentItem(); item && !item->data(0, Qt::UserRole).toBool())
            m_owner.removeRule(item->text(0));
    });

    m_grants = new QTreeWidget(this);
    m_grants->setObjectName(QStringLiteral("grantsList"));
    m_grants->setHeaderLabels({tr("Allowed for a while"), tr("Actions"), tr("Until")});
    m_grants->setRootIsDecorated(false);
    m_grants->setMaximumHeight(110);
    m_grants->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_grants);
    m_revoke = new QPushButton(tr("Revoke the selected grant"), this);
    m_revoke->setObjectName(QStringLiteral("revokeGrant"));
    m_revoke->setEnabled(false);
    layout->addWidget(m_revoke, 0, Qt::AlignLeft);
    connect(m_grants, &QTreeWidget::itemSelectionChanged, this,
            [this] { m_revoke->setEnabled(m_grants->currentItem() != nullptr); });
    connect(m_revoke, &QPushButton::clicked, this, [this] {
        if (const QTreeWidgetItem* item = m_grants->currentItem())
            m_owner.revokeGrant(item->data(0, Qt::UserRole).toString());
    });

    // A new rule.
    auto* form = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("ruleName"));
    m_name->setPlaceholderText(tr("e.g. no-terminal"));
    form->addRow(tr("New rule's name:"), m_name);
    auto* appRow = new QHBoxLayout;
    m_appKind = new QComboBox(this);
    m_appKind->setObjectName(QStringLiteral("ruleAppKind"));
    m_appKind->addItem(tr("Any app"), QString());
    m_appKind->addItem(tr("Executable"), QStringLiteral("executable"));
    m_appKind->addItem(tr("Desktop entry"), QStringLiteral("desktopId"));
    m_appKind->addItem(tr("Bundle id"), QStringLiteral("bundleId"));
    m_appKind->addItem(tr("App name"), QStringLiteral("name"));
    m_app = new QLineEdit(this);
    m_app->setObjectName(QStringLiteral("ruleApp"));
    m_app->setPlaceholderText(tr("e.g. xterm"));
    appRow->addWidget(m_appKind);
    appRow->addWidget(m_app, 1);
    form->addRow(tr("App:"), appRow);
    m_window = new QLineEdit(this);
    m_window->setObjectName(QStringLiteral("ruleWindow"));
    m_window->setPlaceholderText(tr("any window; * and ? as wildcards"));
    form->addRow(tr("Window title:"), m_window);
    auto* classRow = new QHBoxLayout;
    for (const QString& name : Contract::actionClassNames()) {
        auto* check = new QCheckBox(className(name), this);
        check->setObjectName(QStringLiteral("ruleClass-") + name);
        check->setProperty("actionClass", name);
        m_classes.append(check);
        classRow->addWidget(check);
    }
    classRow->addStretch(1);
    form->addRow(tr("Actions (none: all):"), classRow);
    m_highRisk = new QCheckBox(tr("Only high-risk actions (send, delete, pay, overwrite…)"), this);
    m_highRisk->setObjectName(QStringLiteral("ruleHighRisk"));
    form->addRow(QString(), m_highRisk);
    m_decision = new QComboBox(this);
    m_decision->setObjectName(QStringLiteral("ruleDecision"));
    for (const QString& d : {QStringLiteral("deny"), QStringLiteral("ask"), QStringLiteral("allow")})
        m_decision->addItem(decisionText(d), d);
    form->addRow(tr("Decision:"), m_decision);
    layout->addLayout(form);
    m_add = new QPushButton(tr("Add the rule first"), this);
    m_add->setObjectName(QStringLiteral("addRule"));
    layout->addWidget(m_add, 0, Qt::AlignLeft);
    connect(m_add, &QPushButton::clicked, this, &RulesPage::addRule);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("ruleError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->hide();
    layout->addWidget(m_error);

    connect(&m_owner, &Bridge::OwnerRules::changed, this, &RulesPage::reload);
    reload();
}

QCheckBox* RulesPage::classCheck(const QString& actionClass) const
{
    for (QCheckBox* check : m_classes) {
        if (check->property("actionClass").toString() == actionClass)
            return check;
    }
    return nullptr;
}

bool RulesPage::addRule()
{
    QJsonObject json{{QStringLiteral("name"), m_name->text().trimmed()},
                     {QStringLiteral("decision"), m_decision->currentData().toString()}};
    if (const QString kind = m_appKind->currentData().toString(); !kind.isEmpty()) {
        if (m_app->text().trimmed().isEmpty()) {
            m_error->setText(tr("Name the app, or choose \"Any app\"."));
            m_error->show();
            return false;
        }
        json.insert(QStringLiteral("app"), QJsonObject{{kind, m_app->text().trimmed()}});
    }
    if (!m_window->text().trimmed().isEmpty())
        json.insert(QStringLiteral("window"), m_window->text().trimmed());
    QJsonArray classes;
    for (const QCheckBox* check : m_classes) {
        if (check->isChecked())
            classes.append(check->property("actionClass").toString());
    }
    if (!classes.isEmpty())
        json.insert(QStringLiteral("classes"), classes);
    if (m_highRisk->isChecked())
        json.insert(QStringLiteral("risk"), QStringLiteral("high"));
    auto rule = Bridge::OwnerPolicy::Rule::fromJson(json);
    if (!rule) {
        m_error->setText(rule.error().message);
        m_error->show();
        return false;
    }
    if (auto failed = m_owner.setRule(rule.value(), 0)) {
        m_error->setText(failed->message);
        m_error->show();
        return false;
    }
    m_error->hide();
    m_name->clear();
    m_app->clear();
    m_window->clear();
    return true;
}

void RulesPage::reload()
{
    const QJsonObject file = m_owner.fileState();
    const QString path = file.value(QStringLiteral("path")).toString();
    if (path.isEmpty()) {
        m_fileNote->setText(tr("The rules are kept in memory for this run."));
        m_fileNote->setStyleSheet(QString());
        m_trust->hide();
    } else if (file.value(QStringLiteral("trusted")).toBool()) {
        m_fileNote->setText(tr("Kept in %1").arg(path));
        m_fileNote->setStyleSheet(QString());
        m_trust->hide();
    } else {
        QStringList left;
        for (const QJsonValue& v : file.value(QStringLiteral("ignored")).toArray()) {
            const QJsonObject o = v.toObject();
            left.append(
                o.contains(QStringLiteral("rule"))
                    ? tr("rule %1 (%2)")
                          .arg(o.value(QStringLiteral("rule")).toObject().value(QStringLiteral("name")).toString(),
                               o.value(QStringLiteral("rule")).toObject().value(QStringLiteral("decision")).toString())
                    : tr("a grant"));
        }
        QString text =
            tr("%1 was changed outside the host. Until you trust it, only its stricter rules apply.").arg(path);
        if (!left.isEmpty())
            text += QLatin1Char(' ') + tr("Left out: %1.").arg(left.join(QStringLiteral(", ")));
        if (const QString error = file.value(QStringLiteral("error")).toString(); !error.isEmpty())
            text += QLatin1Char(' ') + tr("It cannot be read: %1").arg(error);
        m_fileNote->setText(text);
        m_fileNote->setStyleSheet(QStringLiteral("background: #fff4ce; color: #5c4400; padding: 4px;"));
        m_trust->setVisible(file.value(QStringLiteral("error")).toString().isEmpty());
    }
    const Bridge::OwnerPolicy& policy = m_owner.policy();
    m_unattended->setChecked(policy.unattended());
    m_rules->clear();
    for (const Bridge::OwnerPolicy::Rule& rule : policy.rules()) {
        const QJsonObject json = rule.toJson();
        auto* item = new QTreeWidgetItem(
            m_rules, {rule.name, decisionText(Bridge::OwnerPolicy::decisionName(rule.decision)), appliesTo(json)});
        item->setData(0, Qt::UserRole, rule.builtIn);
        if (rule.builtIn)
            item->setForeground(0, palette().brush(QPalette::Disabled, QPalette::Text));
    }
    m_remove->setEnabled(false);
    m_grants->clear();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const Bridge::OwnerPolicy::Grant& grant : policy.grants()) {
        if (!grant.live(now))
            continue;
        QStringList app;
        const QJsonObject o = grant.app.toJson();
        for (auto it = o.begin(); it != o.end(); ++it)
            app.append(it.value().toVariant().toString());
        auto* item =
            new QTreeWidgetItem(m_grants, {app.join(QStringLiteral(", ")),
                                           grant.highRisk ? tr("%1, high-risk too").arg(className(grant.actionClass))
                                                          : className(grant.actionClass),
                                           QLocale().toString(grant.until.toLocalTime(), QLocale::ShortFormat)});
        item->setData(0, Qt::UserRole, grant.id);
    }
    m_revoke->setEnabled(false);
}

} // namespace App
