#include "bridge/contract/Families.h"

// The host's own methods: health, doctor, the emergency stop and resume, abort, discovery and
// the GUI's windows, the owner's rules (docs/protocol.md §5.1, §5.2, §5.9, §5.11, §5.12, §5.23,
// §5.28).
namespace Contract::Families {

QList<Method> host()
{
    QList<Method> out;
    {
        Method m;
        m.name = QStringLiteral("desktop.health");
        m.summary = QStringLiteral("The host's version, permissions, queue and pause state, and who you are to it");
        m.kind = Kind::Host;
        m.alwaysAdmitted = true;
        m.params = object({});
        m.result = {
            {QStringLiteral("hostVersion"), QStringLiteral("string"), QStringLiteral("The host's version")},
            {QStringLiteral("permissions"), QStringLiteral("object"),
             QStringLiteral("accessibility and screenRecording: granted, denied or unknown")},
            {QStringLiteral("bridge"), QStringLiteral("object"), QStringLiteral("schemaVersion")},
            {QStringLiteral("peer"), QStringLiteral("object"), QStringLiteral("The caller as the host sees it")},
            {QStringLiteral("queue"), QStringLiteral("object"), QStringLiteral("Running and waiting executions")},
            {QStringLiteral("paused"), QStringLiteral("boolean"), QStringLiteral("Side effects are stopped")}};
        m.docSection = QStringLiteral("5.1");
        m.engine = QStringLiteral("bridge/Diagnostics.cpp");
        m.example = QJsonObject{};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.doctor");
        m.summary = QStringLiteral("Every check the host can make, each with what to do when it fails");
        m.kind = Kind::Host;
        m.params = object({});
        m.result = {
            {QStringLiteral("permissions"), QStringLiteral("object"),
             QStringLiteral("Each permission: granted, required, purpose")},
            {QStringLiteral("checks"), QStringLiteral("array"), QStringLiteral("Each check with its fix")},
            {QStringLiteral("issues"), QStringLiteral("array"), QStringLiteral("What is wrong, in words")},
            {QStringLiteral("healthy"), QStringLiteral("boolean"), QStringLiteral("No issue")},
            {QStringLiteral("peer"), QStringLiteral("object"), QStringLiteral("The caller as the host sees it")}};
        m.docSection = QStringLiteral("5.2");
        m.engine = QStringLiteral("bridge/Diagnostics.cpp");
        m.example = QJsonObject{};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.abort");
        m.summary = QStringLiteral("Aborts a running or queued execution");
        m.kind = Kind::Host;
        m.alwaysAdmitted = true;
        m.params = object({required(QStringLiteral("executionId"),
                                    nonEmptyString(QStringLiteral("The executionId of a running or queued request")))});
        m.result = {{QStringLiteral("aborted"), QStringLiteral("boolean"), QStringLiteral("Always true")},
                    {QStringLiteral("executionId"), QStringLiteral("string"), QStringLiteral("The one aborted")}};
        m.docSection = QStringLiteral("5.9");
        m.engine = QStringLiteral("bridge/Executor.cpp");
        m.example =
            QJsonObject{{QStringLiteral("executionId"), QStringLiteral("0b5c1b1e-7c1f-4f61-9d43-3f0f8f3c9e11")}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.stop");
        m.summary = QStringLiteral("Aborts everything and pauses side effects until a person resumes");
        m.kind = Kind::Host;
        m.alwaysAdmitted = true;
        m.params = object({});
        m.result = {{QStringLiteral("stopped"), QStringLiteral("boolean"), QStringLiteral("Always true")},
                    {QStringLiteral("aborted"), QStringLiteral("integer"), QStringLiteral("Executions aborted")},
                    {QStringLiteral("paused"), QStringLiteral("boolean"), QStringLiteral("Side effects are stopped")}};
        m.docSection = QStringLiteral("5.11");
        m.engine = QStringLiteral("bridge/security/ConfirmationGate.cpp");
        m.example = QJsonObject{};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.resume");
        m.summary = QStringLiteral("Asks a person to allow side effects again");
        m.kind = Kind::Host;
        m.alwaysAdmitted = true;
        m.params = object({});
        m.result = {{QStringLiteral("resumed"), QStringLiteral("boolean"), QStringLiteral("A person said yes")},
                    {QStringLiteral("paused"), QStringLiteral("boolean"), QStringLiteral("Side effects are stopped")}};
        m.errors = {QStringLiteral("DESKTOP_CONFIRM_REQUIRED")};
        m.docSection = QStringLiteral("5.12");
        m.engine = QStringLiteral("bridge/security/ConfirmationGate.cpp");
        m.example = QJsonObject{};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.gui.open");
        m.summary = QStringLiteral("Opens one of the host's windows (the inspector) on the desktop");
        m.kind = Kind::Host;
        m.params = object(
            {required(QStringLiteral("window"), oneOf({QStringLiteral("inspector")}, QStringLiteral("Which window")))});
        m.result = {{QStringLiteral("opened"), QStringLiteral("boolean"), QStringLiteral("The window is shown")},
                    {QStringLiteral("window"), QStringLiteral("string"), QStringLiteral("Which")}};
        m.errors = {QStringLiteral("DESKTOP_HOST_NOT_READY")};
        m.docSection = QStringLiteral("5.23");
        m.engine = QStringLiteral("app/TrayController.cpp");
        m.example = QJsonObject{{QStringLiteral("window"), QStringLiteral("inspector")}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("rpc.discover");
        m.summary = QStringLiteral("This bridge's methods as an OpenRPC 1.3.2 document, with each one's JSON Schema");
        m.kind = Kind::Host;
        m.alwaysAdmitted = true;
        m.params = object({});
        m.result = {{QStringLiteral("openrpc"), QStringLiteral("string"), QStringLiteral("1.3.2")},
                    {QStringLiteral("methods"), QStringLiteral("array"), QStringLiteral("Every method")},
                    {QStringLiteral("components"), QStringLiteral("object"), QStringLiteral("The shared types")}};
        m.docSection = QStringLiteral("5.25");
        m.engine = QStringLiteral("bridge/contract/Schema.cpp");
        m.example = QJsonObject{};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.policy");
        m.summary = QStringLiteral("The owner's rules: list, set, remove, test; grants; the unattended mode");
        m.kind = Kind::Host;
        m.alwaysAdmitted = true;
        Node subject = object(
            {optional(QStringLiteral("app"), openObject(QStringLiteral("name, executable, desktopId, bundleId, pid, "
                                                                       "categories"))),
             optional(QStringLiteral("window"), string(QStringLiteral("A window title"))),
             required(QStringLiteral("class"), string(QStringLiteral("An action class"))),
             optional(QStringLiteral("highRisk"), boolean()), optional(QStringLiteral("terminal"), boolean())},
            QStringLiteral("test: what an action is about"));
        m.params = object(
            {required(
                 QStringLiteral("action"),
                 oneOf({QStringLiteral("list"), QStringLiteral("set"), QStringLiteral("remove"), QStringLiteral("test"),
                        QStringLiteral("revoke"), QStringLiteral("unattended"), QStringLiteral("trust")},
                       QStringLiteral("What to do"))),
             optional(QStringLiteral("rule"), openObject(QStringLiteral("set: the rule (docs/protocol.md, Policy)"))),
             optional(QStringLiteral("position"),
                      integer(0, 1000,
                              QStringLiteral("set: where among the owner's rules (default: where the same "
                                             "name was, else first)"))),
             optional(QStringLiteral("name"), nonEmptyString(QStringLiteral("remove: the rule's name"))),
             optional(QStringLiteral("grant"), nonEmptyString(QStringLiteral("revoke: the grant's id"))),
             optional(QStringLiteral("on"), boolean(QStringLiteral("unattended: enter (true) or leave (false)"))),
             optional(QStringLiteral("subject"), subject)});
        m.result = {
            {QStringLiteral("rules"), QStringLiteral("array"),
             QStringLiteral("Every rule in force, built-in ones last")},
            {QStringLiteral("grants"), QStringLiteral("array"), QStringLiteral("Live grants")},
            {QStringLiteral("unattended"), QStringLiteral("boolean"), QStringLiteral("The unattended mode")},
            {QStringLiteral("file"), QStringLiteral("object"), QStringLiteral("The rule file: path, trusted, ignored")},
            {QStringLiteral("changed"), QStringLiteral("boolean"), QStringLiteral("A change took effect")},
            {QStringLiteral("verdict"), QStringLiteral("object"), QStringLiteral("test: decision, rule, why")}};
        m.errors = {QStringLiteral("DESKTOP_CONFIRM_REQUIRED")};
        m.docSection = QStringLiteral("5.28");
        m.engine = QStringLiteral("bridge/security/OwnerRules.cpp");
        m.example = QJsonObject{
            {QStringLiteral("action"), QStringLiteral("set")},
            {QStringLiteral("rule"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("no-terminal")},
                         {QStringLiteral("app"), QJsonObject{{QStringLiteral("executable"), QStringLiteral("xterm")}}},
                         {QStringLiteral("decision"), QStringLiteral("deny")}}}};
        out.append(m);
    }
    return out;
}

} // namespace Contract::Families
