#pragma once

#include <QJsonObject>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace Inspector {

/// A form for every field of a selector (docs/protocol.md §4.4): role, title, value and
/// description (each equals, contains or matches), identifier, path, rectangle, label, anchor
/// with its distance, nth, window, the flags, the limit and where to search (source). Every change emits the selector
/// it makes, which the tester then runs.
class SelectorForm final : public QWidget
{
    Q_OBJECT

public:
    explicit SelectorForm(QWidget* parent = nullptr);

    /// The selector the fields describe (only the fields filled in).
    QJsonObject selector() const;

Q_SIGNALS:
    void selectorChanged(const QJsonObject& selector);

private:
    struct TextField
    {
        QComboBox* mode = nullptr;
        QLineEdit* text = nullptr;
    };
    TextField textField(const QString& name);
    void addText(QJsonObject& out, const QString& name, const TextField& field) const;

    QLineEdit* m_role = nullptr;
    TextField m_title;
    TextField m_value;
    TextField m_description;
    QLineEdit* m_identifier = nullptr;
    QLineEdit* m_path = nullptr;
    QLineEdit* m_rect = nullptr;
    QLineEdit* m_label = nullptr;
    QLineEdit* m_near = nullptr;
    QSpinBox* m_maxDistance = nullptr;
    QLineEdit* m_nth = nullptr;
    QLineEdit* m_inWindow = nullptr;
    QCheckBox* m_enabledOnly = nullptr;
    QCheckBox* m_visibleOnly = nullptr;
    QCheckBox* m_caseSensitive = nullptr;
    QSpinBox* m_limit = nullptr;
    QComboBox* m_source = nullptr; ///< ax (empty), ocr or any
};

} // namespace Inspector
