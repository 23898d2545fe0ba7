#include "bridge/contract/Families.h"

// The agent's tools beyond the tree: the clipboard (docs/protocol.md §5.29).
namespace Contract::Families {

QList<Method> tools()
{
    QList<Method> out;
    {
        Method m;
        m.name = QStringLiteral("desktop.clipboard");
        m.summary = QStringLiteral("Reads the clipboard, or writes text to it and reads it back");
        // Queued as a side effect; `read` is read-only (no confirmation), `write` is not.
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::Clipboard;
        m.workspaceBound = true;
        m.actions = {
            Action{QStringLiteral("read"), Kind::ReadOnly,
                   QStringLiteral("What the clipboard holds: text (redacted as asked), or an image kept as evidence"),
                   ActionClass::Read},
            Action{QStringLiteral("write"), Kind::SideEffect,
                   QStringLiteral("Puts text on the clipboard and reads it back"), ActionClass::Clipboard}};
        m.params = object(
            {required(QStringLiteral("action"), oneOf({QStringLiteral("read"), QStringLiteral("write")},
                                                      QStringLiteral("read (read-only) or write (a side effect)"))),
             optional(QStringLiteral("text"), string(QStringLiteral("write: the text"))),
             optional(QStringLiteral("redactionMode"),
                      oneOf({QStringLiteral("none"), QStringLiteral("patterns"), QStringLiteral("hash")},
                            QStringLiteral("read: as readText's (patterns: e-mail addresses, long numbers and "
                                           "key-like tokens masked; hash: length and SHA-256 only)"))
                          .byDefault(QStringLiteral("patterns"))),
             optional(QStringLiteral("restoreAfterMs"),
                      integer(0, 3600000,
                              QStringLiteral("write: put the previous text back after this long, unless someone "
                                             "copied something else meanwhile (0: never)"))
                          .byDefault(0)),
             optional(QStringLiteral("confirm"), ref(QStringLiteral("Confirm")))});
        Node write = object({required(QStringLiteral("text"), string(QStringLiteral("write: the text")))});
        when(m.params, QStringLiteral("action"), {QStringLiteral("write")}, false, write);
        Node read = object({});
        read.forbidden = {QStringLiteral("text"), QStringLiteral("restoreAfterMs")};
        when(m.params, QStringLiteral("action"), {QStringLiteral("read")}, false, read);
        m.result = {
            {QStringLiteral("executionId"), QStringLiteral("string"), QStringLiteral("Names the evidence")},
            {QStringLiteral("action"), QStringLiteral("string"), QStringLiteral("read or write")},
            {QStringLiteral("text"), QStringLiteral("string"),
             QStringLiteral("read: the text, as redactionMode allows")},
            {QStringLiteral("length"), QStringLiteral("integer"), QStringLiteral("Characters of text")},
            {QStringLiteral("formats"), QStringLiteral("array"), QStringLiteral("What the clipboard offers")},
            {QStringLiteral("image"), QStringLiteral("object"),
             QStringLiteral("read: an image's width and height, kept as clipboard.png")},
            {QStringLiteral("concealed"), QStringLiteral("boolean"),
             QStringLiteral("A password manager marked it secret: nothing of it is answered")},
            {QStringLiteral("effect"), QStringLiteral("object"),
             QStringLiteral("write: confirmed when the clipboard reads back the text")},
            {QStringLiteral("previous"), QStringLiteral("object"),
             QStringLiteral("write: what the clipboard held (length and formats), and whether it will be put back")},
            {QStringLiteral("evidence"), QStringLiteral("object"), QStringLiteral("dir, envPath")}};
        m.errors = {QStringLiteral("DESKTOP_CONFIRM_REQUIRED"), QStringLiteral("DESKTOP_PERMISSION_MISSING"),
                    QStringLiteral("DESKTOP_TIMEOUT")};
        m.docSection = QStringLiteral("5.29");
        m.engine = QStringLiteral("automation/operations/Clipboard.cpp");
        m.example = QJsonObject{
            {QStringLiteral("action"), QStringLiteral("write")},
            {QStringLiteral("text"), QStringLiteral("hello")},
            {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}}};
        out.append(m);
    }
    return out;
}

} // namespace Contract::Families
