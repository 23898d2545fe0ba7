#include "bridge/contract/Families.h"

#include <QJsonArray>

// The side effects (docs/protocol.md §5.5–§5.7, §5.16–§5.18, §5.20): each is confirmed first,
// runs on the worker and writes evidence.
namespace Contract::Families {

namespace {

Field routeField()
{
    return optional(QStringLiteral("route"), ref(QStringLiteral("Route")));
}

Field confirmField()
{
    return optional(QStringLiteral("confirm"), ref(QStringLiteral("Confirm")));
}

QList<ResultField> acted(QList<ResultField> fields)
{
    fields.prepend({QStringLiteral("executionId"), QStringLiteral("string"), QStringLiteral("Names the evidence")});
    fields.append({QStringLiteral("effect"), QStringLiteral("object"),
                   QStringLiteral("What the host saw change: verified, unverified or none, with how it knows")});
    fields.append({QStringLiteral("routeResolved"), QStringLiteral("object"),
                   QStringLiteral("The app and window the route came to")});
    fields.append({QStringLiteral("evidence"), QStringLiteral("object"),
                   QStringLiteral("dir, envPath, before.png and after.png")});
    return fields;
}

const QStringList kActErrors{QStringLiteral("DESKTOP_CONFIRM_REQUIRED"), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"),
                             QStringLiteral("DESKTOP_STALE_SNAPSHOT"),   QStringLiteral("DESKTOP_FOCUS_LOST"),
                             QStringLiteral("DESKTOP_MODAL_BLOCKING"),   QStringLiteral("DESKTOP_PERMISSION_MISSING"),
                             QStringLiteral("DESKTOP_TIMEOUT")};

QJsonObject phrase()
{
    return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
}

QJsonObject button(const QString& title)
{
    return QJsonObject{{QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                                {QStringLiteral("titleContains"), title}}}};
}

Node point(const QString& description)
{
    return ref(QStringLiteral("Point"), description);
}

} // namespace

QList<Method> act()
{
    const QJsonObject route{
        {QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("mdh-target-app")}}}};
    QList<Method> out;
    {
        Method m;
        m.name = QStringLiteral("desktop.click");
        m.summary = QStringLiteral("Clicks an element through its accessibility action (the pointer only if allowed)");
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::Pointer;
        m.workspaceBound = true;
        m.params = object(
            {routeField(), confirmField(), required(QStringLiteral("target"), ref(QStringLiteral("Target"))),
             optional(
                 QStringLiteral("allowCoordinateFallback"),
                 boolean(QStringLiteral("Click its centre with the pointer when it has no action")).byDefault(false)),
             optional(QStringLiteral("delivery"),
                      oneOf({QStringLiteral("action"), QStringLiteral("pointer")},
                            QStringLiteral("Only this way; default: the action, the pointer when "
                                           "allowed")))});
        m.result =
            acted({{QStringLiteral("clicked"), QStringLiteral("boolean"), QStringLiteral("The click was delivered")},
                   {QStringLiteral("delivery"), QStringLiteral("string"), QStringLiteral("action or pointer")}});
        m.errors = kActErrors;
        m.docSection = QStringLiteral("5.5");
        m.engine = QStringLiteral("automation/operations/Click.cpp");
        m.example = QJsonObject{
            {QStringLiteral("confirm"),
             QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM:0b5c1b1e-7c1f-4f61-9d43-3f0f8f3c9e11")}}},
            {QStringLiteral("route"), route},
            {QStringLiteral("target"),
             QJsonObject{
                 {QStringLiteral("elementRef"),
                  QJsonObject{{QStringLiteral("elementId"), QStringLiteral("e:123")},
                              {QStringLiteral("fingerprint"), QStringLiteral("AXButton|Send|x=12,y=34,w=56,h=20")}}}}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.typeText");
        m.summary = QStringLiteral("Types text into an element or the focused one");
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::Type;
        m.workspaceBound = true;
        m.params = object(
            {routeField(), confirmField(),
             optional(QStringLiteral("target"), ref(QStringLiteral("Target"), QStringLiteral("Focused first; default: "
                                                                                             "the focused element"))),
             required(QStringLiteral("text"), string(QStringLiteral("What to type"))),
             optional(QStringLiteral("options"),
                      object({optional(QStringLiteral("clearBefore"),
                                       boolean(QStringLiteral("Empty the field first")).byDefault(false)),
                              optional(QStringLiteral("keyDelayMs"),
                                       integer(0, 1000, QStringLiteral("Pause after each key when typing key by key"))
                                           .byDefault(0))})),
             optional(QStringLiteral("delivery"),
                      oneOf({QStringLiteral("editableText"), QStringLiteral("clipboard"), QStringLiteral("keys")},
                            QStringLiteral("Only this path; default: the host's ladder")))});
        m.result =
            acted({{QStringLiteral("typed"), QStringLiteral("boolean"), QStringLiteral("The text was delivered")},
                   {QStringLiteral("delivery"), QStringLiteral("string"), QStringLiteral("The path it took")}});
        m.errors = kActErrors;
        m.docSection = QStringLiteral("5.6");
        m.engine = QStringLiteral("automation/operations/Type.cpp");
        m.example = QJsonObject{
            {QStringLiteral("confirm"), phrase()},
            {QStringLiteral("route"), route},
            {QStringLiteral("target"),
             QJsonObject{
                 {QStringLiteral("elementRef"), QJsonObject{{QStringLiteral("elementId"), QStringLiteral("e:123")}}},
                 {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")}}}}},
            {QStringLiteral("text"), QStringLiteral("hello world")},
            {QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), false}}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.hotkey");
        m.summary = QStringLiteral("Presses a key chord in a window");
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::Keys;
        m.workspaceBound = true;
        m.params = object(
            {routeField(), confirmField(),
             required(QStringLiteral("keys"), arrayOf(string(), 1, {},
                                                      QStringLiteral("Modifiers, then one key: e.g. [\"ctrl\", "
                                                                     "\"s\"]"))),
             optional(QStringLiteral("options"),
                      object({optional(QStringLiteral("delayMs"),
                                       integer(0, 5000, QStringLiteral("Between key events")).byDefault(50))}))});
        m.result =
            acted({{QStringLiteral("pressed"), QStringLiteral("boolean"), QStringLiteral("The chord was delivered")}});
        m.errors = kActErrors;
        m.docSection = QStringLiteral("5.7");
        m.engine = QStringLiteral("automation/operations/Keys.cpp");
        m.example = QJsonObject{{QStringLiteral("confirm"), phrase()},
                                {QStringLiteral("route"), route},
                                {QStringLiteral("keys"), QJsonArray{QStringLiteral("cmd"), QStringLiteral("v")}},
                                {QStringLiteral("options"), QJsonObject{{QStringLiteral("delayMs"), 50}}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.scroll");
        m.summary = QStringLiteral("Scrolls an element into view, or a container's content by lines or pages");
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::Pointer;
        m.workspaceBound = true;
        m.params = object(
            {routeField(), confirmField(), required(QStringLiteral("target"), ref(QStringLiteral("Target"))),
             optional(
                 QStringLiteral("direction"),
                 oneOf({QStringLiteral("up"), QStringLiteral("down"), QStringLiteral("left"), QStringLiteral("right")},
                       QStringLiteral("Without one, the target is brought into view"))),
             optional(QStringLiteral("amount"),
                      integer(1, 100, QStringLiteral("Lines or pages; default 3 lines, 1 page")).byDefault(3)),
             optional(QStringLiteral("unit"),
                      oneOf({QStringLiteral("line"), QStringLiteral("page")}).byDefault(QStringLiteral("line")))});
        // Without a direction the target is brought into view: amount and unit need one.
        m.params.requiredWith.append({QStringLiteral("direction"), {QStringLiteral("amount"), QStringLiteral("unit")}});
        m.result = acted({{QStringLiteral("scrolled"), QStringLiteral("boolean"), QStringLiteral("The view moved")}});
        m.errors = kActErrors;
        m.docSection = QStringLiteral("5.16");
        m.engine = QStringLiteral("automation/operations/Scroll.cpp");
        m.example = QJsonObject{{QStringLiteral("confirm"), phrase()},
                                {QStringLiteral("route"), route},
                                {QStringLiteral("target"), button(QStringLiteral("Send"))},
                                {QStringLiteral("direction"), QStringLiteral("down")}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.menuPick");
        m.summary = QStringLiteral("Opens a menu path level by level and picks its last item");
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::Pointer;
        m.workspaceBound = true;
        Node title = nonEmptyString();
        title.pattern = QStringLiteral("\\S");
        m.params = object({routeField(), confirmField(),
                           required(QStringLiteral("path"),
                                    arrayOf(title, 1, 8,
                                            QStringLiteral("e.g. [\"File\", \"Save As\"]; ellipses, mnemonic marks "
                                                           "and case need not match")))});
        m.result =
            acted({{QStringLiteral("picked"), QStringLiteral("boolean"), QStringLiteral("The item was activated")},
                   {QStringLiteral("path"), QStringLiteral("array"), QStringLiteral("The titles as found")}});
        m.errors = kActErrors;
        m.docSection = QStringLiteral("5.17");
        m.engine = QStringLiteral("automation/operations/Menu.cpp");
        m.example =
            QJsonObject{{QStringLiteral("confirm"), phrase()},
                        {QStringLiteral("route"), route},
                        {QStringLiteral("path"), QJsonArray{QStringLiteral("File"), QStringLiteral("Save As")}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.pointer");
        m.summary = QStringLiteral("A pointer gesture (move, click, press and hold, drag) at an element or a point");
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::Pointer;
        m.workspaceBound = true;
        m.params = object(
            {routeField(), confirmField(),
             required(QStringLiteral("gesture"),
                      oneOf({QStringLiteral("move"), QStringLiteral("click"), QStringLiteral("press"),
                             QStringLiteral("drag")},
                            QStringLiteral("move: hover; press: hold the button down holdMs"))),
             optional(QStringLiteral("target"), ref(QStringLiteral("Target"), QStringLiteral("At its centre"))),
             optional(QStringLiteral("point"), point(QStringLiteral("Or at this point"))),
             optional(QStringLiteral("toTarget"), ref(QStringLiteral("Target"), QStringLiteral("A drag's end"))),
             optional(QStringLiteral("to"), point(QStringLiteral("Or a drag's end point"))),
             optional(QStringLiteral("button"),
                      oneOf({QStringLiteral("left"), QStringLiteral("middle"), QStringLiteral("right")})
                          .byDefault(QStringLiteral("left"))),
             optional(QStringLiteral("count"), integer(1, 3, QStringLiteral("Clicks (click only)")).byDefault(1)),
             optional(QStringLiteral("holdMs"),
                      integer(0, 10000,
                              QStringLiteral("Held before release (press, default 1000) or before moving "
                                             "(drag, default 100)"))),
             optional(QStringLiteral("durationMs"),
                      integer(0, 10000, QStringLiteral("The drag's movement")).byDefault(500))});
        // The refusal names the second member present, or the group's first: "target" as before.
        m.params.exclusive.append({QStringLiteral("point"), QStringLiteral("target")});
        m.params.atLeastOne.append({QStringLiteral("target"), QStringLiteral("point")});
        Node drag = object({optional(QStringLiteral("button"),
                                     oneOf({QStringLiteral("left")}, QStringLiteral("A drag holds the left button")))});
        drag.exclusive.append({QStringLiteral("toTarget"), QStringLiteral("to")});
        drag.atLeastOne.append({QStringLiteral("to"), QStringLiteral("toTarget")});
        when(m.params, QStringLiteral("gesture"), {QStringLiteral("drag")}, false, drag);
        Node notDrag;
        notDrag.forbidden = {QStringLiteral("to"), QStringLiteral("toTarget")};
        when(m.params, QStringLiteral("gesture"), {QStringLiteral("drag")}, true, notDrag);
        Node notClick;
        notClick.forbidden = {QStringLiteral("count")};
        when(m.params, QStringLiteral("gesture"), {QStringLiteral("click")}, true, notClick);
        m.result = acted({{QStringLiteral("gesture"), QStringLiteral("string"), QStringLiteral("What was done")},
                          {QStringLiteral("at"), QStringLiteral("object"), QStringLiteral("Where, in screen points")}});
        m.errors = kActErrors;
        m.docSection = QStringLiteral("5.18");
        m.engine = QStringLiteral("automation/operations/Pointer.cpp");
        m.example =
            QJsonObject{{QStringLiteral("confirm"), phrase()},
                        {QStringLiteral("route"), route},
                        {QStringLiteral("gesture"), QStringLiteral("drag")},
                        {QStringLiteral("target"), button(QStringLiteral("Item"))},
                        {QStringLiteral("to"), QJsonObject{{QStringLiteral("x"), 300}, {QStringLiteral("y"), 200}}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.window");
        m.summary = QStringLiteral("Focuses, minimizes, maximizes, restores, closes, moves or resizes a window");
        m.kind = Kind::SideEffect;
        m.actionClass = ActionClass::Window;
        m.workspaceBound = true;
        m.params = object(
            {required(QStringLiteral("route"), ref(QStringLiteral("Route"), QStringLiteral("Which window"))),
             confirmField(),
             required(QStringLiteral("action"),
                      oneOf({QStringLiteral("focus"), QStringLiteral("minimize"), QStringLiteral("maximize"),
                             QStringLiteral("restore"), QStringLiteral("close"), QStringLiteral("move"),
                             QStringLiteral("resize")})),
             optional(QStringLiteral("position"), point(QStringLiteral("Its top-left corner (move)"))),
             optional(QStringLiteral("size"),
                      object({required(QStringLiteral("width"), integer(1, 100000)),
                              required(QStringLiteral("height"), integer(1, 100000))},
                             QStringLiteral("The content's size (resize)"))
                          .sample(QJsonObject{{QStringLiteral("width"), 640}, {QStringLiteral("height"), 480}}))});
        Node move;
        move.fields = {required(QStringLiteral("position"), point({}))};
        when(m.params, QStringLiteral("action"), {QStringLiteral("move")}, false, move);
        Node notMove;
        notMove.forbidden = {QStringLiteral("position")};
        when(m.params, QStringLiteral("action"), {QStringLiteral("move")}, true, notMove);
        Node resize;
        resize.fields = {required(QStringLiteral("size"), m.params.fields.last().node)};
        when(m.params, QStringLiteral("action"), {QStringLiteral("resize")}, false, resize);
        Node notResize;
        notResize.forbidden = {QStringLiteral("size")};
        when(m.params, QStringLiteral("action"), {QStringLiteral("resize")}, true, notResize);
        m.result = acted({{QStringLiteral("action"), QStringLiteral("string"), QStringLiteral("What was done")},
                          {QStringLiteral("window"), QStringLiteral("object"), QStringLiteral("Its state after")}});
        m.errors = kActErrors;
        m.docSection = QStringLiteral("5.20");
        m.engine = QStringLiteral("automation/operations/Windows.cpp");
        m.example = QJsonObject{{QStringLiteral("confirm"), phrase()},
                                {QStringLiteral("route"), route},
                                {QStringLiteral("action"), QStringLiteral("minimize")}};
        out.append(m);
    }
    return out;
}

} // namespace Contract::Families
