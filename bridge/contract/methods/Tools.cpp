#include "bridge/contract/Families.h"

// The agent's tools beyond the tree: the clipboard, apps, displays and file dialogs (docs/protocol.md §5.29-§5.32).
namespace Contract::Families {

namespace {

/// The app desktop.app acts on, named as route.app and the owner's rules name one; a launch
/// starts a new process, so it cannot name one by pid.
Node appNamed(bool byPid)
{
    QList<Field> fields{
        optional(QStringLiteral("bundleId"), nonEmptyString(QStringLiteral("macOS"))),
        optional(QStringLiteral("desktopId"),
                 nonEmptyString(QStringLiteral("A desktop entry, e.g. org.gnome.TextEditor"))),
        optional(QStringLiteral("executable"), nonEmptyString(QStringLiteral("A program a desktop entry starts")))};
    QStringList names{QStringLiteral("bundleId"), QStringLiteral("desktopId"), QStringLiteral("executable")};
    if (byPid) {
        fields.append(optional(QStringLiteral("pid"), integer(1, 4194304)));
        names.append(QStringLiteral("pid"));
    }
    Node app = object(fields, QStringLiteral("Which app, as route.app and the owner's rules name one"));
    app.atLeastOne.append(names);
    return app;
}

} // namespace

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
    {
        Method m;
        m.name = QStringLiteral("desktop.app");
        m.summary = QStringLiteral("Lists the running apps, or launches, quits or relaunches one");
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::App;
        m.workspaceBound = true;
        m.actions = {
            Action{QStringLiteral("list"), Kind::ReadOnly, QStringLiteral("The running apps with their windows"),
                   ActionClass::Read},
            Action{QStringLiteral("launch"), Kind::SideEffect,
                   QStringLiteral("Starts the app, detached from the host, and waits for its window"),
                   ActionClass::App},
            Action{QStringLiteral("quit"), Kind::SideEffect,
                   QStringLiteral("Asks the app to quit and checks that it ended (force: kills it, high-risk)"),
                   ActionClass::App},
            Action{QStringLiteral("relaunch"), Kind::SideEffect, QStringLiteral("quit, then launch"),
                   ActionClass::App}};
        m.params =
            object({required(QStringLiteral("action"),
                             oneOf({QStringLiteral("list"), QStringLiteral("launch"), QStringLiteral("quit"),
                                    QStringLiteral("relaunch")},
                                   QStringLiteral("list (read-only); launch, quit, relaunch (side effects)"))),
                    optional(QStringLiteral("app"), appNamed(true)),
                    optional(QStringLiteral("args"), arrayOf(string(), std::nullopt, 64)),
                    optional(QStringLiteral("force"), boolean(QStringLiteral("quit, relaunch: kill it (high-risk)"))),
                    optional(QStringLiteral("confirm"), ref(QStringLiteral("Confirm")))});
        // A launch starts a new process: a pid names one already running, and there is nothing to force.
        Node launching = object({required(QStringLiteral("app"), appNamed(false))});
        launching.forbidden = {QStringLiteral("force")};
        launching.forbiddenWhy = QStringLiteral("is for quit and relaunch");
        when(m.params, QStringLiteral("action"), {QStringLiteral("launch")}, false, launching);
        Node named = object({required(QStringLiteral("app"), appNamed(true))});
        when(m.params, QStringLiteral("action"), {QStringLiteral("quit"), QStringLiteral("relaunch")}, false, named);
        Node listing = object({});
        listing.forbidden = {QStringLiteral("args"), QStringLiteral("force")};
        when(m.params, QStringLiteral("action"), {QStringLiteral("list")}, false, listing);
        m.result = {
            {QStringLiteral("executionId"), QStringLiteral("string"), QStringLiteral("Names the evidence")},
            {QStringLiteral("apps"), QStringLiteral("array"), QStringLiteral("list: pid, name, identity, windows")},
            {QStringLiteral("pid"), QStringLiteral("integer"), QStringLiteral("launch: the process it started")},
            {QStringLiteral("window"), QStringLiteral("object"), QStringLiteral("launch: the window it showed")},
            {QStringLiteral("reusedInstance"), QStringLiteral("boolean"),
             QStringLiteral("launch: the app handed the launch to an instance already running")},
            {QStringLiteral("exited"), QStringLiteral("boolean"), QStringLiteral("quit: the process ended")},
            {QStringLiteral("effect"), QStringLiteral("object"), QStringLiteral("What the host saw change")},
            {QStringLiteral("evidence"), QStringLiteral("object"), QStringLiteral("dir, envPath")}};
        m.errors = {QStringLiteral("DESKTOP_CONFIRM_REQUIRED"), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"),
                    QStringLiteral("DESKTOP_TIMEOUT")};
        m.docSection = QStringLiteral("5.30");
        m.engine = QStringLiteral("automation/operations/Apps.cpp");
        m.example = QJsonObject{
            {QStringLiteral("action"), QStringLiteral("launch")},
            {QStringLiteral("app"), QJsonObject{{QStringLiteral("desktopId"), QStringLiteral("org.xfce.mousepad")}}},
            {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.displays");
        m.summary = QStringLiteral("The displays: id, frame in global coordinates, scale, primary, name");
        m.workspaceBound = true;
        m.params = object({});
        m.result = {
            {QStringLiteral("executionId"), QStringLiteral("string"), QStringLiteral("Names the evidence")},
            {QStringLiteral("displays"), QStringLiteral("array"),
             QStringLiteral("The primary first; each {id, name, frame, scale, primary}: route.display takes the id")},
            {QStringLiteral("count"), QStringLiteral("integer"), QStringLiteral("How many")},
            {QStringLiteral("evidence"), QStringLiteral("object"), QStringLiteral("dir, envPath")}};
        m.docSection = QStringLiteral("5.31");
        m.engine = QStringLiteral("automation/operations/Windows.cpp");
        m.example = QJsonObject{};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.fileDialog");
        m.summary = QStringLiteral("Saves or opens a path through the open/save dialog the route's app shows");
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::Type;
        m.workspaceBound = true;
        Node path = nonEmptyString(QStringLiteral("Absolute: the folder and the name"));
        path.pattern = QStringLiteral("^/");
        m.params = object(
            {optional(QStringLiteral("route"), ref(QStringLiteral("Route"), QStringLiteral("The app whose dialog"))),
             required(QStringLiteral("path"), path),
             required(QStringLiteral("action"), oneOf({QStringLiteral("save"), QStringLiteral("open")},
                                                      QStringLiteral("What the dialog is for"))),
             optional(QStringLiteral("overwrite"),
                      oneOf({QStringLiteral("never"), QStringLiteral("replace")},
                            QStringLiteral("save: an existing file is refused (never) or replaced (high-risk)"))
                          .byDefault(QStringLiteral("never"))),
             optional(QStringLiteral("confirm"), ref(QStringLiteral("Confirm")))});
        Node opening = object({});
        opening.forbidden = {QStringLiteral("overwrite")};
        opening.forbiddenWhy = QStringLiteral("is for save");
        when(m.params, QStringLiteral("action"), {QStringLiteral("open")}, false, opening);
        m.result = {
            {QStringLiteral("executionId"), QStringLiteral("string"), QStringLiteral("Names the evidence")},
            {QStringLiteral("dialog"), QStringLiteral("object"), QStringLiteral("The dialog's title and toolkit")},
            {QStringLiteral("savedPathVerified"), QStringLiteral("boolean"),
             QStringLiteral("save: the file exists and was written after the call began")},
            {QStringLiteral("size"), QStringLiteral("integer"), QStringLiteral("save: the file's size")},
            {QStringLiteral("replaced"), QStringLiteral("boolean"),
             QStringLiteral("save: an existing file was replaced")},
            {QStringLiteral("dialogClosed"), QStringLiteral("boolean"), QStringLiteral("The dialog is gone")},
            {QStringLiteral("effect"), QStringLiteral("string"), QStringLiteral("confirmed or unverifiable")},
            {QStringLiteral("evidence"), QStringLiteral("object"), QStringLiteral("dir, envPath")}};
        m.errors = {QStringLiteral("DESKTOP_CONFIRM_REQUIRED"), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"),
                    QStringLiteral("DESKTOP_INVALID_REQUEST"), QStringLiteral("DESKTOP_TIMEOUT")};
        m.docSection = QStringLiteral("5.32");
        m.engine = QStringLiteral("automation/operations/FileDialog.cpp");
        m.example = QJsonObject{
            {QStringLiteral("action"), QStringLiteral("save")},
            {QStringLiteral("path"), QStringLiteral("/home/me/ws/notes.txt")},
            {QStringLiteral("route"), QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"),
                                                                                       QStringLiteral("mousepad")}}}}},
            {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}}};
        out.append(m);
    }
    return out;
}

} // namespace Contract::Families
