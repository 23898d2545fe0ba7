#pragma once

#include <QString>
#include <QStringList>

/// Which actions are high-risk (docs/protocol.md, "Policy"): a control that sends, submits,
/// publishes, pays, deletes, overwrites or exports, judged from what the host resolved (the
/// element's role, name and description, or the text OCR read), never from the caller's words.
namespace Automation::Risk {

/// What a control does, when it is one of the high-risk kinds.
/// ForceQuit: desktop.app's quit with force (the app is killed; unsaved work is lost).
enum class Kind { None, Send, Submit, Publish, Pay, Delete, Overwrite, Export, ForceQuit };
QString kindName(Kind kind);

struct Assessment
{
    Kind kind = Kind::None;
    /// The word that decided ("Delete", "发送"), and where it was read ("title", "description").
    QString word;
    QString field;

    bool high() const { return kind != Kind::None; }
    /// "deletes: its title says \"Delete\"": the dialog's and the answer's words.
    QString why() const;
};

/// A control a pointer or a press acts on. Only controls that act count (buttons, menu items,
/// links, toolbar items; a role left empty when only text is known, as OCR's): a label that says
/// "Delete" is not a delete button.
Assessment ofControl(const QString& role, const QString& title, const QString& description = {});

/// Whether a role is one of a control that acts when pressed.
bool isActingRole(const QString& role);

/// Whether `text` names one of the kinds, as a whole word (English, any case) or as a word of
/// Chinese; Kind::None when not.
Assessment ofText(const QString& text);

} // namespace Automation::Risk
