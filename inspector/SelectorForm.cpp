#include "inspector/SelectorForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>

namespace Inspector {

SelectorForm::SelectorForm(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("selectorForm"));
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    const auto line = [this](const QString& name, const QString& hint) {
        auto* edit = new QLineEdit(this);
        edit->setObjectName(name);
        edit->setPlaceholderText(hint);
        connect(edit, &QLineEdit::textChanged, this, [this] { Q_EMIT selectorChanged(selector()); });
        return edit;
    };
    m_role = line(QStringLiteral("formRole"), tr("AXButton, or the platform's role"));
    form->addRow(tr("Role:"), m_role);
    m_title = textField(QStringLiteral("formTitle"));
    auto titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title.mode);
    titleRow->addWidget(m_title.text, 1);
    form->addRow(tr("Title:"), titleRow);
    m_value = textField(QStringLiteral("formValue"));
    auto valueRow = new QHBoxLayout;
    valueRow->addWidget(m_value.mode);
    valueRow->addWidget(m_value.text, 1);
    form->addRow(tr("Value:"), valueRow);
    m_description = textField(QStringLiteral("formDescription"));
    auto descriptionRow = new QHBoxLayout;
    descriptionRow->addWidget(m_description.mode);
    descriptionRow->addWidget(m_description.text, 1);
    form->addRow(tr("Description:"), descriptionRow);
    m_identifier = line(QStringLiteral("formIdentifier"), tr("the identifier, exactly"));
    form->addRow(tr("Identifier:"), m_identifier);
    m_path = line(QStringLiteral("formPath"), tr("child indexes from the window, e.g. 0/2/1"));
    form->addRow(tr("Path:"), m_path);
    m_rect = line(QStringLiteral("formRect"), tr("x, y, width, height: its centre lies inside"));
    form->addRow(tr("Rectangle:"), m_rect);
    m_label = line(QStringLiteral("formLabel"), tr("the title of its label"));
    form->addRow(tr("Labelled by:"), m_label);
    auto* nearRow = new QHBoxLayout;
    m_near = line(QStringLiteral("formNear"), tr("the title of an element near it"));
    nearRow->addWidget(m_near, 1);
    m_maxDistance = new QSpinBox(this);
    m_maxDistance->setObjectName(QStringLiteral("formMaxDistance"));
    m_maxDistance->setRange(0, 5000);
    m_maxDistance->setValue(200);
    m_maxDistance->setSuffix(tr(" px"));
    connect(m_maxDistance, &QSpinBox::valueChanged, this, [this] { Q_EMIT selectorChanged(selector()); });
    nearRow->addWidget(m_maxDistance);
    form->addRow(tr("Near:"), nearRow);
    m_nth = line(QStringLiteral("formNth"), tr("0 the first match, -1 the last"));
    form->addRow(tr("Only match number:"), m_nth);
    m_inWindow = line(QStringLiteral("formInWindow"), tr("a regular expression over the window title"));
    form->addRow(tr("In window:"), m_inWindow);
    auto* flags = new QHBoxLayout;
    const auto check = [this, flags](const QString& name, const QString& text) {
        auto* box = new QCheckBox(text, this);
        box->setObjectName(name);
        connect(box, &QCheckBox::toggled, this, [this] { Q_EMIT selectorChanged(selector()); });
        flags->addWidget(box);
        return box;
    };
    m_enabledOnly = check(QStringLiteral("formEnabledOnly"), tr("Enabled only"));
    m_visibleOnly = check(QStringLiteral("formVisibleOnly"), tr("Visible only"));
    m_caseSensitive = check(QStringLiteral("formCaseSensitive"), tr("Case sensitive"));
    flags->addStretch(1);
    form->addRow(QString(), flags);
    m_limit = new QSpinBox(this);
    m_limit->setObjectName(QStringLiteral("formLimit"));
    m_limit->setRange(1, 1000);
    m_limit->setValue(10);
    connect(m_limit, &QSpinBox::valueChanged, this, [this] { Q_EMIT selectorChanged(selector()); });
    form->addRow(tr("Answer at most:"), m_limit);
    m_source = new QComboBox(this);
    m_source->setObjectName(QStringLiteral("formSource"));
    m_source->addItem(tr("the accessibility tree"), QString());
    m_source->addItem(tr("the text on screen (OCR)"), QStringLiteral("ocr"));
    m_source->addItem(tr("the tree, else the text on screen"), QStringLiteral("any"));
    connect(m_source, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT selectorChanged(selector()); });
    form->addRow(tr("Search in:"), m_source);
}

SelectorForm::TextField SelectorForm::textField(const QString& name)
{
    TextField field;
    field.mode = new QComboBox(this);
    field.mode->setObjectName(name + QStringLiteral("Mode"));
    field.mode->addItem(tr("contains"), QStringLiteral("Contains"));
    field.mode->addItem(tr("equals"), QStringLiteral("Equals"));
    field.mode->addItem(tr("matches (regular expression)"), QStringLiteral("Matches"));
    field.text = new QLineEdit(this);
    field.text->setObjectName(name);
    connect(field.mode, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT selectorChanged(selector()); });
    connect(field.text, &QLineEdit::textChanged, this, [this] { Q_EMIT selectorChanged(selector()); });
    return field;
}

void SelectorForm::addText(QJsonObject& out, const QString& name, const TextField& field) const
{
    if (!field.text->text().isEmpty())
        out.insert(name + field.mode->currentData().toString(), field.text->text());
}

QJsonObject SelectorForm::selector() const
{
    QJsonObject out;
    if (const QString role = m_role->text().trimmed(); !role.isEmpty())
        out.insert(QStringLiteral("byRole"), role);
    addText(out, QStringLiteral("title"), m_title);
    addText(out, QStringLiteral("value"), m_value);
    addText(out, QStringLiteral("description"), m_description);
    if (const QString id = m_identifier->text().trimmed(); !id.isEmpty())
        out.insert(QStringLiteral("byIdentifier"), id);
    if (const QString path = m_path->text().trimmed(); !path.isEmpty()) {
        QJsonArray steps;
        for (const QString& step : path.split(QRegularExpression(QStringLiteral("[/,\\s]+")), Qt::SkipEmptyParts))
            steps.append(step.toInt());
        out.insert(QStringLiteral("byPath"), steps);
    }
    if (const QStringList rect =
            m_rect->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
        rect.size() == 4)
        out.insert(QStringLiteral("byRect"), QJsonObject{{QStringLiteral("x"), rect.at(0).toInt()},
                                                         {QStringLiteral("y"), rect.at(1).toInt()},
                                                         {QStringLiteral("width"), rect.at(2).toInt()},
                                                         {QStringLiteral("height"), rect.at(3).toInt()}});
    if (const QString label = m_label->text(); !label.isEmpty())
        out.insert(QStringLiteral("labelledBy"), QJsonObject{{QStringLiteral("titleEquals"), label}});
    if (const QString anchor = m_near->text(); !anchor.isEmpty()) {
        out.insert(QStringLiteral("near"), QJsonObject{{QStringLiteral("titleContains"), anchor}});
        if (m_maxDistance->value() != 200)
            out.insert(QStringLiteral("maxDistance"), m_maxDistance->value());
    }
    bool isNumber = false;
    if (const int nth = m_nth->text().trimmed().toInt(&isNumber); isNumber)
        out.insert(QStringLiteral("nth"), nth);
    if (const QString window = m_inWindow->text(); !window.isEmpty())
        out.insert(QStringLiteral("inWindow"), window);
    if (m_enabledOnly->isChecked())
        out.insert(QStringLiteral("enabledOnly"), true);
    if (m_visibleOnly->isChecked())
        out.insert(QStringLiteral("visibleOnly"), true);
    if (m_caseSensitive->isChecked())
        out.insert(QStringLiteral("caseSensitive"), true);
    if (m_limit->value() != 10)
        out.insert(QStringLiteral("limit"), m_limit->value());
    if (const QString source = m_source->currentData().toString(); !source.isEmpty())
        out.insert(QStringLiteral("source"), source);
    return out;
}

} // namespace Inspector
