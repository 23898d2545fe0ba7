#include "bridge/MethodTable.h"

#include "bridge/Diagnostics.h"
#include "bridge/Executor.h"
#include "bridge/security/ConfirmationGate.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QPointer>
#include <QTimer>

#include <cmath>
#include <limits>

namespace Bridge {

using Automation::Error;
using Automation::Result;

namespace {

// --- Params schemas --------------------------------------------------------------------------

QJsonObject typed(const QString& type, const QString& description)
{
    return QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("description"), description}};
}

QJsonObject integer(qint64 minimum, qint64 maximum, const QString& description)
{
    QJsonObject out = typed(QStringLiteral("integer"), description);
    out.insert(QStringLiteral("minimum"), minimum);
    out.insert(QStringLiteral("maximum"), maximum);
    return out;
}

QJsonObject object(const QJsonObject& properties, const QStringList& required = {}, const QString& description = {})
{
    QJsonObject out{{QStringLiteral("type"), QStringLiteral("object")},
                    {QStringLiteral("properties"), properties},
                    {QStringLiteral("additionalProperties"), false}};
    if (!required.isEmpty())
        out.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    if (!description.isEmpty())
        out.insert(QStringLiteral("description"), description);
    return out;
}

QJsonObject metaSchema()
{
    return object(
        QJsonObject{
            {QStringLiteral("schemaVersion"), integer(1, 1, QStringLiteral("Always 1"))},
            {QStringLiteral("requestId"), typed(QStringLiteral("string"), QStringLiteral("A fresh UUID per request"))},
            {QStringLiteral("workspacePath"),
             typed(QStringLiteral("string"), QStringLiteral("Absolute path inside the host's workspace root; "
                                                            "evidence goes below it"))},
            {QStringLiteral("timeoutMs"),
             integer(1, Meta::kMaxTimeoutMs, QStringLiteral("The request's hard deadline"))}},
        {QStringLiteral("schemaVersion"), QStringLiteral("requestId")});
}

QJsonObject routeSchema()
{
    return object(
        QJsonObject{
            {QStringLiteral("app"),
             object(QJsonObject{
                 {QStringLiteral("bundleId"),
                  typed(QStringLiteral("string"),
                        QStringLiteral("App id (macOS bundle id; on Linux the accessible app name or "
                                       "executable)"))},
                 {QStringLiteral("pid"), integer(1, std::numeric_limits<int>::max(), QStringLiteral("Process id"))}})},
            {QStringLiteral("window"),
             object(
                 QJsonObject{{QStringLiteral("titlePattern"),
                              typed(QStringLiteral("string"), QStringLiteral("Regular expression over the window "
                                                                             "title"))},
                             {QStringLiteral("id"),
                              typed(QStringLiteral("string"), QStringLiteral("routeResolved.windowId of an earlier "
                                                                             "answer: stay on that window"))},
                             {QStringLiteral("nativeId"),
                              typed(QStringLiteral("string"), QStringLiteral("The nativeId desktop.windows "
                                                                             "answered (\"0x...\"): that window"))}})},
            {QStringLiteral("focusPolicy"),
             QJsonObject{
                 {QStringLiteral("enum"), QJsonArray{QStringLiteral("focusIfNeeded"), QStringLiteral("requireFocused"),
                                                     QStringLiteral("failIfNotFocused")}}}}},
        {}, QStringLiteral("Which app and window; the frontmost when empty"));
}

QJsonObject selectorSchema()
{
    const QJsonObject text = typed(QStringLiteral("string"), QStringLiteral("Text to match"));
    return object(
        QJsonObject{
            {QStringLiteral("byRole"), typed(QStringLiteral("string"), QStringLiteral("e.g. AXButton"))},
            {QStringLiteral("titleEquals"), text},
            {QStringLiteral("titleContains"), text},
            {QStringLiteral("titleMatches"), typed(QStringLiteral("string"), QStringLiteral("Regular "
                                                                                            "expression"))},
            {QStringLiteral("valueEquals"), text},
            {QStringLiteral("valueContains"), text},
            {QStringLiteral("valueMatches"), typed(QStringLiteral("string"), QStringLiteral("Regular "
                                                                                            "expression"))},
            {QStringLiteral("byIdentifier"), typed(QStringLiteral("string"), QStringLiteral("Accessibility "
                                                                                            "id"))},
            {QStringLiteral("descriptionEquals"), text},
            {QStringLiteral("descriptionContains"), text},
            {QStringLiteral("descriptionMatches"),
             typed(QStringLiteral("string"), QStringLiteral("Regular expression over the help text"))},
            {QStringLiteral("byPath"),
             QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                         {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                                                               {QStringLiteral("minimum"), 0}}},
                         {QStringLiteral("description"), QStringLiteral("Child indexes from the window root "
                                                                        "(ax.json's path)")}}},
            {QStringLiteral("byRect"),
             object(QJsonObject{{QStringLiteral("x"), typed(QStringLiteral("integer"), {})},
                                {QStringLiteral("y"), typed(QStringLiteral("integer"), {})},
                                {QStringLiteral("width"), typed(QStringLiteral("integer"), {})},
                                {QStringLiteral("height"), typed(QStringLiteral("integer"), {})}},
                    {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("width"), QStringLiteral("height")},
                    QStringLiteral("The element's centre lies inside (screen pixels)"))},
            {QStringLiteral("labelledBy"),
             typed(QStringLiteral("object"), QStringLiteral("A selector for the element's label: its "
                                                            "relation first, form geometry second"))},
            {QStringLiteral("near"),
             typed(QStringLiteral("object"), QStringLiteral("A selector for an anchor the element lies "
                                                            "within maxDistance pixels of"))},
            {QStringLiteral("maxDistance"), integer(0, 5000, QStringLiteral("For near; default 200"))},
            {QStringLiteral("nth"), integer(-1000, 1000,
                                            QStringLiteral("Only the nth match in document "
                                                           "order (0 first, -1 last)"))},
            {QStringLiteral("inWindow"),
             typed(QStringLiteral("string"), QStringLiteral("Regular expression the window title must "
                                                            "match"))},
            {QStringLiteral("enabledOnly"), typed(QStringLiteral("boolean"), {})},
            {QStringLiteral("visibleOnly"), typed(QStringLiteral("boolean"), {})},
            {QStringLiteral("caseSensitive"), typed(QStringLiteral("boolean"), {})},
            {QStringLiteral("limit"), integer(1, 1000, QStringLiteral("Most refs returned"))}},
        {}, QStringLiteral("At least one criterion"));
}

QJsonObject targetSchema()
{
    return object(
        QJsonObject{{QStringLiteral("elementRef"),
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                 {QStringLiteral("properties"),
                                  QJsonObject{{QStringLiteral("elementId"), typed(QStringLiteral("string"), {})},
                                              {QStringLiteral("fingerprint"), typed(QStringLiteral("string"), {})},
                                              {QStringLiteral("snapshotId"),
                                               typed(QStringLiteral("string"),
                                                     QStringLiteral("The snapshotId of the answer that gave the "
                                                                    "ref: refused once that snapshot expired"))}}},
                                 {QStringLiteral("required"), QJsonArray{QStringLiteral("elementId")}},
                                 {QStringLiteral("description"), QStringLiteral("As returned by find")}}},
                    {QStringLiteral("selector"), selectorSchema()}},
        {}, QStringLiteral("elementRef, selector, or both (the selector is the fallback for a stale ref)"));
}

// One condition of waitUntil; all/any nest (at most 4 deep, checked by the parser).
QJsonObject conditionSchema()
{
    const QJsonObject window = object(
        QJsonObject{{QStringLiteral("titlePattern"),
                     typed(QStringLiteral("string"), QStringLiteral("Regular expression over the window title"))}},
        {QStringLiteral("titlePattern")});
    const QJsonObject nested{
        {QStringLiteral("type"), QStringLiteral("array")},
        {QStringLiteral("minItems"), 1},
        {QStringLiteral("maxItems"), 16},
        {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}}};
    QJsonObject out =
        object(QJsonObject{{QStringLiteral("selectorExists"), selectorSchema()},
                           {QStringLiteral("selectorGone"), selectorSchema()},
                           {QStringLiteral("windowExists"), window},
                           {QStringLiteral("windowGone"), window},
                           {QStringLiteral("textMatches"),
                            object(QJsonObject{{QStringLiteral("selector"), selectorSchema()},
                                               {QStringLiteral("pattern"),
                                                typed(QStringLiteral("string"), QStringLiteral("Regular "
                                                                                               "expression"))}},
                                   {QStringLiteral("selector"), QStringLiteral("pattern")})},
                           {QStringLiteral("valueEquals"),
                            object(QJsonObject{{QStringLiteral("selector"), selectorSchema()},
                                               {QStringLiteral("value"), typed(QStringLiteral("string"), {})}},
                                   {QStringLiteral("selector"), QStringLiteral("value")})},
                           {QStringLiteral("focused"), selectorSchema()},
                           {QStringLiteral("enabled"), selectorSchema()},
                           {QStringLiteral("all"), nested},
                           {QStringLiteral("any"), nested}},
               {}, QStringLiteral("Exactly one condition"));
    out.insert(QStringLiteral("minProperties"), 1);
    out.insert(QStringLiteral("maxProperties"), 1);
    return out;
}

QJsonObject confirmSchema()
{
    return object(QJsonObject{
        {QStringLiteral("token"), typed(QStringLiteral("string"), QStringLiteral("From desktop.confirm.issue"))},
        {QStringLiteral("phrase"), typed(QStringLiteral("string"), QStringLiteral("CONFIRM or CONFIRM:<requestId>"))},
        {QStringLiteral("approvedAt"), typed(QStringLiteral("string"), {})},
        {QStringLiteral("approver"), typed(QStringLiteral("string"), {})}});
}

Error noRemoteAgent()
{
    return Error::make(Automation::ErrorCode::HostNotReady, QStringLiteral("this host runs no remote agent"),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_remote_agent")}});
}

// A desktop.remote.* method that only acts: the remote agent (or the answer that there is
// none), the audit line `event`, then `act`.
MethodKind::Immediate remoteAction(const QString& event,
                                   std::function<void(RemoteControl& remote, const Respond& respond)> act)
{
    return MethodKind::Immediate{[event, act](Services& s, const Call& call, const Respond& respond) {
        RemoteControl* remote = s.diagnostics.remote();
        if (!remote)
            return respond(noRemoteAgent());
        s.gate.audit(event, call.caller.auditPeer(), QJsonObject{{QStringLiteral("via"), call.caller.transportName()}});
        act(*remote, respond);
    }};
}

QJsonObject paramsSchema(QJsonObject properties, QStringList required = {})
{
    properties.insert(QStringLiteral("meta"), metaSchema());
    required.prepend(QStringLiteral("meta"));
    return object(properties, required);
}

// --- Handlers ----------------------------------------------------------------------------------

template <typename P> Prepare prepareWith(Result<P> (*parse)(const QJsonObject&), Methods::MethodJob (*make)(P))
{
    return [parse, make](const QJsonObject& p) -> Result<Prepared> {
        auto params = parse(p);
        if (!params)
            return params.error();
        ConfirmParams confirm;
        if constexpr (requires { params->confirm; })
            confirm = params->confirm;
        return Prepared{make(params.value()), confirm};
    };
}

// Typed text is kept as its length and SHA-256 only, unless the person opted in to keeping it.
QJsonObject redactTypedText(const QJsonObject& params, bool keepTypedText)
{
    if (keepTypedText)
        return params;
    QJsonObject out = params;
    const QJsonValue text = params.value(QStringLiteral("text"));
    if (text.isString()) {
        const QByteArray utf8 = text.toString().toUtf8();
        out.insert(
            QStringLiteral("text"),
            QJsonObject{{QStringLiteral("redacted"), true},
                        {QStringLiteral("length"), static_cast<int>(text.toString().size())},
                        {QStringLiteral("sha256"),
                         QString::fromLatin1(QCryptographicHash::hash(utf8, QCryptographicHash::Sha256).toHex())}});
    }
    return out;
}

void abortExecution(Services& services, const Call& call, const Respond& respond)
{
    auto params = Params::abort(call.params);
    if (!params)
        return respond(params.error());
    switch (services.executor.abort(params->executionId)) {
    case Executor::AbortOutcome::Aborted:
        return respond(
            QJsonObject{{QStringLiteral("aborted"), true}, {QStringLiteral("executionId"), params->executionId}});
    case Executor::AbortOutcome::Finished:
        return respond(
            Error::invalidRequest(QStringLiteral("execution %1 has already finished").arg(params->executionId), -32602,
                                  QJsonObject{{QStringLiteral("reason"), QStringLiteral("finished")},
                                              {QStringLiteral("executionId"), params->executionId}}));
    case Executor::AbortOutcome::Unknown:
        return respond(Error::invalidRequest(
            QStringLiteral("no execution %1 is running or queued").arg(params->executionId), -32602,
            QJsonObject{{QStringLiteral("reason"), QStringLiteral("unknown")},
                        {QStringLiteral("executionId"), params->executionId}}));
    }
}

} // namespace

const Prepare* MethodEntry::prepare() const
{
    if (const auto* readOnly = std::get_if<MethodKind::ReadOnly>(&kind))
        return &readOnly->prepare;
    if (const auto* sideEffect = std::get_if<MethodKind::SideEffect>(&kind))
        return &sideEffect->prepare;
    return nullptr;
}

const MethodEntry* MethodTable::find(const QString& name) const
{
    for (const auto& entry : m_entries) {
        if (entry.name == name)
            return &entry;
    }
    return nullptr;
}

const MethodTable& MethodTable::contract()
{
    static const MethodTable table = [] {
        MethodTable t;
        const auto add = [&t](MethodEntry entry) {
            if (!entry.redact)
                entry.redact = [](const QJsonObject& params, bool) { return params; };
            t.m_entries.append(std::move(entry));
        };
        const QJsonObject route{{QStringLiteral("route"), routeSchema()}};
        const auto with = [&route](std::initializer_list<std::pair<QString, QJsonValue>> more) {
            QJsonObject out = route;
            for (const auto& [key, value] : more)
                out.insert(key, value);
            return out;
        };

        add({QStringLiteral("desktop.health"),
             QStringLiteral("The host's version, permissions and queue"),
             paramsSchema({}),
             false,
             true,
             MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                 respond(s.diagnostics.health(call.caller));
             }},
             {}});
        add({QStringLiteral("desktop.doctor"),
             QStringLiteral("Every check the host can make, each with what to do when it fails"),
             paramsSchema({}),
             false,
             false,
             MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                 respond(s.diagnostics.doctor(call.caller, call.meta.workspacePath));
             }},
             {}});
        add({QStringLiteral("desktop.observe"),
             QStringLiteral("A screenshot and the accessibility tree of a window"),
             paramsSchema(with(
                 {{QStringLiteral("options"),
                   object(QJsonObject{{QStringLiteral("includeScreenshot"), typed(QStringLiteral("boolean"), {})},
                                      {QStringLiteral("includeAxTree"), typed(QStringLiteral("boolean"), {})},
                                      {QStringLiteral("axMaxDepth"), integer(1, 256, {})},
                                      {QStringLiteral("axMaxNodes"), integer(1, 100000, {})},
                                      {QStringLiteral("axMaxWallTimeMs"), integer(1, 600000, {})},
                                      {QStringLiteral("includeText"),
                                       typed(QStringLiteral("boolean"), QStringLiteral("Read values (never of secure "
                                                                                       "fields)"))}})},
                  {QStringLiteral("refresh"),
                   typed(QStringLiteral("boolean"), QStringLiteral("Read the window afresh, none of it from what "
                                                                   "the host remembers of the tree"))}})),
             true,
             false,
             MethodKind::ReadOnly{prepareWith(&Params::observe, &Methods::observe)},
             {}});
        add({QStringLiteral("desktop.find"),
             QStringLiteral("Elements matching a selector, ranked, as elementRefs"),
             paramsSchema(
                 with({{QStringLiteral("selector"), selectorSchema()},
                       {QStringLiteral("include"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                    {QStringLiteral("items"),
                                     QJsonObject{{QStringLiteral("enum"),
                                                  QJsonArray{QStringLiteral("text"), QStringLiteral("states")}}}},
                                    {QStringLiteral("description"),
                                     QStringLiteral("Add each ref's text and/or states (never a secure "
                                                    "field's text)")}}},
                       {QStringLiteral("refresh"),
                        typed(QStringLiteral("boolean"), QStringLiteral("Read the window afresh, none of it from what "
                                                                        "the host remembers of the tree"))},
                       {QStringLiteral("maxDepth"), integer(1, 256, QStringLiteral("Default 64"))},
                       {QStringLiteral("maxNodes"), integer(1, 100000, QStringLiteral("Default 20000"))},
                       {QStringLiteral("maxWallTimeMs"),
                        integer(1, 600000, QStringLiteral("Default: the request's time left, at most 30000"))}}),
                 {QStringLiteral("selector")}),
             true,
             false,
             MethodKind::ReadOnly{prepareWith(&Params::find, &Methods::find)},
             {}});
        add({QStringLiteral("desktop.click"),
             QStringLiteral("Clicks an element (its action; the pointer only if allowed)"),
             paramsSchema(with({{QStringLiteral("target"), targetSchema()},
                                {QStringLiteral("confirm"), confirmSchema()},
                                {QStringLiteral("allowCoordinateFallback"), typed(QStringLiteral("boolean"), {})},
                                {QStringLiteral("delivery"),
                                 QJsonObject{{QStringLiteral("enum"),
                                              QJsonArray{QStringLiteral("action"), QStringLiteral("pointer")}},
                                             {QStringLiteral("description"),
                                              QStringLiteral("Only this way; default: the action, the pointer "
                                                             "when allowed")}}}}),
                          {QStringLiteral("target")}),
             true,
             false,
             MethodKind::SideEffect{prepareWith(&Params::click, &Methods::click)},
             {}});
        add({QStringLiteral("desktop.typeText"), QStringLiteral("Types text into an element or the focused one"),
             paramsSchema(
                 with({{QStringLiteral("target"), targetSchema()},
                       {QStringLiteral("text"), typed(QStringLiteral("string"), {})},
                       {QStringLiteral("confirm"), confirmSchema()},
                       {QStringLiteral("options"),
                        object(QJsonObject{{QStringLiteral("clearBefore"), typed(QStringLiteral("boolean"), {})},
                                           {QStringLiteral("keyDelayMs"),
                                            integer(0, 1000,
                                                    QStringLiteral("Pause after each key when typing key "
                                                                   "by key"))}})},
                       {QStringLiteral("delivery"),
                        QJsonObject{
                            {QStringLiteral("enum"), QJsonArray{QStringLiteral("editableText"),
                                                                QStringLiteral("clipboard"), QStringLiteral("keys")}},
                            {QStringLiteral("description"),
                             QStringLiteral("Only this path; default: the host's ladder")}}}}),
                 {QStringLiteral("text")}),
             true, false, MethodKind::SideEffect{prepareWith(&Params::typeText, &Methods::typeText)}, redactTypedText});
        add({QStringLiteral("desktop.hotkey"),
             QStringLiteral("Presses a key chord in a window"),
             paramsSchema(
                 with({{QStringLiteral("keys"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                    {QStringLiteral("items"), typed(QStringLiteral("string"), {})},
                                    {QStringLiteral("description"), QStringLiteral("e.g. [\"ctrl\", \"s\"]")}}},
                       {QStringLiteral("confirm"), confirmSchema()},
                       {QStringLiteral("options"),
                        object(QJsonObject{{QStringLiteral("delayMs"), integer(0, 5000, {})}})}}),
                 {QStringLiteral("keys")}),
             true,
             false,
             MethodKind::SideEffect{prepareWith(&Params::hotkey, &Methods::hotkey)},
             {}});
        add({QStringLiteral("desktop.waitUntil"),
             QStringLiteral("Waits until a condition holds (elements, windows, text, focus; all/any)"),
             paramsSchema(
                 with({{QStringLiteral("condition"), conditionSchema()},
                       {QStringLiteral("pollMs"), integer(10, 60000, {})},
                       {QStringLiteral("timeoutMs"), integer(1, 600000, {})},
                       {QStringLiteral("refresh"),
                        typed(QStringLiteral("boolean"), QStringLiteral("Read the window afresh, none of it from what "
                                                                        "the host remembers of the tree"))}}),
                 {QStringLiteral("condition"), QStringLiteral("timeoutMs")}),
             true,
             false,
             MethodKind::ReadOnly{prepareWith(&Params::waitUntil, &Methods::waitUntil)},
             {}});
        add({QStringLiteral("desktop.dumpTree"),
             QStringLiteral("The bounded accessibility tree of a window, without a screenshot"),
             paramsSchema(
                 with({{QStringLiteral("maxDepth"), integer(1, 256, QStringLiteral("Default 8"))},
                       {QStringLiteral("maxNodes"), integer(1, 100000, QStringLiteral("Default 2000"))},
                       {QStringLiteral("maxWallTimeMs"), integer(1, 600000, QStringLiteral("Default 10000"))},
                       {QStringLiteral("includeText"),
                        typed(QStringLiteral("boolean"), QStringLiteral("Read values (never of secure fields); "
                                                                        "default false"))}})),
             true,
             false,
             MethodKind::ReadOnly{prepareWith(&Params::dumpTree, &Methods::dumpTree)},
             {}});
        add({QStringLiteral("desktop.capture"),
             QStringLiteral("A PNG of the display, a window (by route) or a rect, with the frame it covers"),
             paramsSchema(QJsonObject{
                 {QStringLiteral("route"), routeSchema()},
                 {QStringLiteral("rect"),
                  object(QJsonObject{{QStringLiteral("x"), integer(-100000, 100000, {})},
                                     {QStringLiteral("y"), integer(-100000, 100000, {})},
                                     {QStringLiteral("width"), integer(1, 100000, {})},
                                     {QStringLiteral("height"), integer(1, 100000, {})}},
                         {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("width"), QStringLiteral("height")},
                         QStringLiteral("Screen coordinates; clipped to the display"))},
                 {QStringLiteral("inline"),
                  typed(QStringLiteral("boolean"), QStringLiteral("Also answer the PNG as base64 (pngBase64)"))}}),
             true,
             false,
             MethodKind::ReadOnly{prepareWith(&Params::capture, &Methods::capture)},
             {}});
        add({QStringLiteral("desktop.readText"),
             QStringLiteral("The text of the elements a selector matches (never of secure fields)"),
             paramsSchema(
                 with({{QStringLiteral("selector"), selectorSchema()},
                       {QStringLiteral("limitBytes"),
                        integer(1, 1048576, QStringLiteral("UTF-8 bytes of text answered in all; default 65536"))},
                       {QStringLiteral("redactionMode"),
                        QJsonObject{
                            {QStringLiteral("enum"),
                             QJsonArray{QStringLiteral("none"), QStringLiteral("patterns"), QStringLiteral("hash")}},
                            {QStringLiteral("description"),
                             QStringLiteral("patterns (default): e-mail addresses, long numbers and key-like "
                                            "tokens masked; hash: length and SHA-256 only; none: as is")}}}}),
                 {QStringLiteral("selector")}),
             true,
             false,
             MethodKind::ReadOnly{prepareWith(&Params::readText, &Methods::readText)},
             {}});
        add({QStringLiteral("desktop.scroll"),
             QStringLiteral("Scrolls an element into view, or a container's content by lines or pages"),
             paramsSchema(with({{QStringLiteral("target"), targetSchema()},
                                {QStringLiteral("direction"),
                                 QJsonObject{{QStringLiteral("enum"),
                                              QJsonArray{QStringLiteral("up"), QStringLiteral("down"),
                                                         QStringLiteral("left"), QStringLiteral("right")}},
                                             {QStringLiteral("description"),
                                              QStringLiteral("Without one, the target is brought into view")}}},
                                {QStringLiteral("amount"), integer(1, 100,
                                                                   QStringLiteral("Lines or pages; default 3 lines, 1 "
                                                                                  "page"))},
                                {QStringLiteral("unit"),
                                 QJsonObject{{QStringLiteral("enum"),
                                              QJsonArray{QStringLiteral("line"), QStringLiteral("page")}}}},
                                {QStringLiteral("confirm"), confirmSchema()}}),
                          {QStringLiteral("target")}),
             true,
             false,
             MethodKind::SideEffect{prepareWith(&Params::scroll, &Methods::scroll)},
             {}});
        add({QStringLiteral("desktop.menuPick"),
             QStringLiteral("Opens a menu path level by level and picks its last item"),
             paramsSchema(with({{QStringLiteral("path"),
                                 QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                             {QStringLiteral("items"), typed(QStringLiteral("string"), {})},
                                             {QStringLiteral("minItems"), 1},
                                             {QStringLiteral("maxItems"), 8},
                                             {QStringLiteral("description"),
                                              QStringLiteral("e.g. [\"File\", \"Save As\"]; ellipses, mnemonic "
                                                             "marks and case need not match")}}},
                                {QStringLiteral("confirm"), confirmSchema()}}),
                          {QStringLiteral("path")}),
             true,
             false,
             MethodKind::SideEffect{prepareWith(&Params::menuPick, &Methods::menuPick)},
             {}});
        const QJsonObject point =
            object(QJsonObject{{QStringLiteral("x"), integer(-100000, 100000, {})},
                               {QStringLiteral("y"), integer(-100000, 100000, {})}},
                   {QStringLiteral("x"), QStringLiteral("y")}, QStringLiteral("Screen coordinates"));
        add({QStringLiteral("desktop.pointer"),
             QStringLiteral("A pointer gesture (move, click, press and hold, drag) at an element or a point"),
             paramsSchema(
                 with(
                     {{QStringLiteral("gesture"),
                       QJsonObject{
                           {QStringLiteral("enum"), QJsonArray{QStringLiteral("move"), QStringLiteral("click"),
                                                               QStringLiteral("press"), QStringLiteral("drag")}},
                           {QStringLiteral("description"),
                            QStringLiteral("move: hover; press: hold the button down holdMs")}}},
                      {QStringLiteral("target"), targetSchema()},
                      {QStringLiteral("point"), point},
                      {QStringLiteral("toTarget"), targetSchema()},
                      {QStringLiteral("to"), point},
                      {QStringLiteral("button"),
                       QJsonObject{{QStringLiteral("enum"), QJsonArray{QStringLiteral("left"), QStringLiteral("middle"),
                                                                       QStringLiteral("right")}}}},
                      {QStringLiteral("count"), integer(1, 3, QStringLiteral("Clicks (click only); default 1"))},
                      {QStringLiteral("holdMs"),
                       integer(0, 10000,
                               QStringLiteral("Held before release (press, default 1000) or before "
                                              "moving (drag, default 100)"))},
                      {QStringLiteral("durationMs"),
                       integer(0, 10000, QStringLiteral("The drag's movement; default 500"))},
                      {QStringLiteral("confirm"), confirmSchema()}}),
                 {QStringLiteral("gesture")}),
             true,
             false,
             MethodKind::SideEffect{prepareWith(&Params::pointer, &Methods::pointer)},
             {}});
        add({QStringLiteral("desktop.windows"),
             QStringLiteral("The top-level windows, topmost first: title, app, pid, frame and state"),
             paramsSchema(QJsonObject{
                 {QStringLiteral("app"), typed(QStringLiteral("string"), QStringLiteral("Only this app's windows"))}}),
             true,
             false,
             MethodKind::ReadOnly{prepareWith(&Params::windows, &Methods::windows)},
             {}});
        add({QStringLiteral("desktop.window"),
             QStringLiteral("Focuses, minimizes, maximizes, restores, closes, moves or resizes a window"),
             paramsSchema(
                 with({{QStringLiteral("action"),
                        QJsonObject{
                            {QStringLiteral("enum"),
                             QJsonArray{QStringLiteral("focus"), QStringLiteral("minimize"), QStringLiteral("maximize"),
                                        QStringLiteral("restore"), QStringLiteral("close"), QStringLiteral("move"),
                                        QStringLiteral("resize")}}}},
                       {QStringLiteral("position"), point},
                       {QStringLiteral("size"), object(QJsonObject{{QStringLiteral("width"), integer(1, 100000, {})},
                                                                   {QStringLiteral("height"), integer(1, 100000, {})}},
                                                       {QStringLiteral("width"), QStringLiteral("height")},
                                                       QStringLiteral("The content's size"))},
                       {QStringLiteral("confirm"), confirmSchema()}}),
                 {QStringLiteral("route"), QStringLiteral("action")}),
             true,
             false,
             MethodKind::SideEffect{prepareWith(&Params::window, &Methods::window)},
             {}});
        add({QStringLiteral("desktop.elementAt"),
             QStringLiteral("The element under a screen point, with its ancestors"),
             paramsSchema(with({{QStringLiteral("point"), point}}), {QStringLiteral("point")}),
             true,
             false,
             MethodKind::ReadOnly{prepareWith(&Params::elementAt, &Methods::elementAt)},
             {}});
        // Answered at once, never queued behind the job it aborts.
        add({QStringLiteral("desktop.abort"),
             QStringLiteral("Aborts a running or queued execution"),
             paramsSchema(QJsonObject{{QStringLiteral("executionId"), typed(QStringLiteral("string"), {})}},
                          {QStringLiteral("executionId")}),
             false,
             true,
             MethodKind::Immediate{abortExecution},
             {}});
        // Answered when the confirmation provider decides, without blocking anything.
        add({QStringLiteral("desktop.confirm.issue"),
             QStringLiteral("Asks a person to approve one side effect; answers a single-use token"),
             paramsSchema(
                 QJsonObject{
                     {QStringLiteral("intent"),
                      QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                  {QStringLiteral("properties"),
                                   QJsonObject{{QStringLiteral("method"), typed(QStringLiteral("string"), {})},
                                               {QStringLiteral("params"), typed(QStringLiteral("object"), {})}}},
                                  {QStringLiteral("required"),
                                   QJsonArray{QStringLiteral("method"), QStringLiteral("params")}}}},
                     {QStringLiteral("ttlMs"), integer(1, 600000, {})}},
                 {QStringLiteral("intent")}),
             true,
             false,
             MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                 const QString method =
                     call.params.value(QStringLiteral("intent")).toObject().value(QStringLiteral("method")).toString();
                 ConfirmationGate::IntentCheck check;
                 const MethodEntry* intent = MethodTable::contract().find(method);
                 if (intent && intent->sideEffect()) {
                     const Prepare prepare = *intent->prepare();
                     check = [prepare](const QJsonObject& params) -> std::optional<Error> {
                         auto prepared = prepare(params);
                         if (!prepared)
                             return prepared.error();
                         return std::nullopt;
                     };
                 }
                 s.gate.issue(call.caller, call.meta, call.params, check, respond);
             }},
             {}});
        // The emergency stop. Any allowed caller, no confirmation: it only stops.
        add({QStringLiteral("desktop.stop"),
             QStringLiteral("Aborts everything and pauses side effects until a person resumes"),
             paramsSchema({}),
             false,
             true,
             MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                 respond(s.gate.stop(call.caller.auditPeer(),
                                     call.caller.isGui() ? QStringLiteral("gui") : QStringLiteral("client")));
             }},
             {}});
        // Resuming needs a person's yes (the GUI's own resume is one).
        add({QStringLiteral("desktop.resume"),
             QStringLiteral("Asks a person to allow side effects again"),
             paramsSchema({}),
             false,
             true,
             MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                 if (call.caller.isGui()) {
                     const bool resumed = s.gate.resumeFromGui(QStringLiteral("user"));
                     return respond(
                         QJsonObject{{QStringLiteral("resumed"), resumed}, {QStringLiteral("paused"), false}});
                 }
                 s.gate.resume(call.caller, call.meta, respond);
             }},
             {}});
        // The remote agent (docs/remote.md): its state, and a person's or a local client's say
        // over where it dials. The remote caller itself has no tool that reaches these.
        add({QStringLiteral("desktop.remote.status"),
             QStringLiteral("The remote agent's connection state"),
             paramsSchema({}),
             false,
             true,
             MethodKind::Immediate{[](Services& s, const Call&, const Respond& respond) {
                 if (RemoteControl* remote = s.diagnostics.remote())
                     return respond(remote->status());
                 respond(QJsonObject{{QStringLiteral("state"), QStringLiteral("off")}});
             }},
             {}});
        add({QStringLiteral("desktop.remote.connect"),
             QStringLiteral("Dials a control server (the remote agent)"),
             paramsSchema(QJsonObject{{QStringLiteral("host"), typed(QStringLiteral("string"), {})},
                                      {QStringLiteral("port"), integer(1, 65535, {})},
                                      {QStringLiteral("tls"), typed(QStringLiteral("boolean"), {})},
                                      {QStringLiteral("fingerprint"), typed(QStringLiteral("string"), {})},
                                      {QStringLiteral("bindCode"), typed(QStringLiteral("string"), {})},
                                      {QStringLiteral("retryDelayMs"), integer(100, 60000, {})},
                                      {QStringLiteral("maxRetries"), integer(0, 1000000, {})}},
                          {QStringLiteral("host"), QStringLiteral("port")}),
             false,
             false,
             MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                 RemoteControl* remote = s.diagnostics.remote();
                 if (!remote)
                     return respond(noRemoteAgent());
                 // A server's actions approved without asking: only a person may choose that server.
                 Caller remoteCaller;
                 remoteCaller.transport = Transport::Remote;
                 if (!call.caller.isGui() && s.gate.providerFor(remoteCaller)->policyName() == QLatin1String("auto")) {
                     s.gate.audit(QStringLiteral("remote_connect_refused"), call.caller.auditPeer(),
                                  QJsonObject{{QStringLiteral("reason"), QStringLiteral("remote_policy_auto")}});
                     return respond(Error::make(
                         Automation::ErrorCode::ConfirmRequired,
                         QStringLiteral("the remote policy approves every action without asking, so only a person "
                                        "(Settings, or the host's command line) may choose the control server"),
                         QJsonObject{{QStringLiteral("reason"), QStringLiteral("remote_policy_auto")}}));
                 }
                 auto params = call.params;
                 params.remove(QStringLiteral("meta"));
                 const auto answer = remote->connectTo(params);
                 if (answer)
                     s.gate.audit(QStringLiteral("remote_connect"), call.caller.auditPeer(),
                                  QJsonObject{{QStringLiteral("server"), answer->value(QStringLiteral("server"))},
                                              {QStringLiteral("via"), call.caller.transportName()}});
                 respond(answer);
             }},
             {}});
        add({QStringLiteral("desktop.remote.disconnect"),
             QStringLiteral("Hangs up the remote agent and stops it reconnecting"),
             paramsSchema({}),
             false,
             true,
             remoteAction(QStringLiteral("remote_disconnect"),
                          [](RemoteControl& remote, const Respond& respond) { respond(remote.disconnect()); }),
             {}});
        add({QStringLiteral("desktop.remote.forget"),
             QStringLiteral("Hangs up and removes the remote agent's device token from the keyring"),
             paramsSchema({}),
             false,
             true,
             remoteAction(QStringLiteral("remote_forget"),
                          [](RemoteControl& remote, const Respond& respond) { remote.forget(respond); }),
             {}});
        // The GUI's windows, for `msgcode-desktop-host --inspector` when a host already runs.
        add({QStringLiteral("desktop.gui.open"),
             QStringLiteral("Opens one of the host's windows (the inspector) on the desktop"),
             paramsSchema(QJsonObject{{QStringLiteral("window"),
                                       QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                                   {QStringLiteral("enum"), QJsonArray{QStringLiteral("inspector")}}}}},
                          {QStringLiteral("window")}),
             false,
             false,
             MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                 const QString window = call.params.value(QStringLiteral("window")).toString();
                 if (window != QLatin1String("inspector"))
                     return respond(
                         Error::invalidParam(QStringLiteral("window"), QStringLiteral("window must be \"inspector\"")));
                 const auto opened = s.diagnostics.openWindow(window);
                 if (!opened)
                     return respond(Error::make(Automation::ErrorCode::HostNotReady,
                                                QStringLiteral("this host runs without windows (--headless)"),
                                                QJsonObject{{QStringLiteral("reason"), QStringLiteral("headless")}}));
                 respond(QJsonObject{{QStringLiteral("opened"), *opened}, {QStringLiteral("window"), window}});
             }},
             {}});
        // The event stream (docs/protocol.md §5.24): notifications on the caller's own connection.
        add({QStringLiteral("desktop.subscribe"),
             QStringLiteral("Streams desktop and host events to this connection as desktop.event notifications"),
             paramsSchema(QJsonObject{
                 {QStringLiteral("kinds"), QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                                       {QStringLiteral("items"), typed(QStringLiteral("string"), {})}}},
                 {QStringLiteral("route"),
                  QJsonObject{
                      {QStringLiteral("type"), QStringLiteral("object")},
                      {QStringLiteral("description"),
                       QStringLiteral("Only events of this app and window: strings (app name, executable or pid; a "
                                      "part of the window title), or the contract's route object")},
                      {QStringLiteral("properties"),
                       QJsonObject{
                           {QStringLiteral("app"),
                            QJsonObject{{QStringLiteral("anyOf"), QJsonArray{typed(QStringLiteral("string"), {}),
                                                                             routeSchema()
                                                                                 .value(QStringLiteral("properties"))
                                                                                 .toObject()
                                                                                 .value(QStringLiteral("app"))}}}},
                           {QStringLiteral("window"),
                            QJsonObject{
                                {QStringLiteral("anyOf"),
                                 QJsonArray{typed(QStringLiteral("string"), {}),
                                            object(QJsonObject{{QStringLiteral("titlePattern"),
                                                                typed(QStringLiteral("string"),
                                                                      QStringLiteral("Regular expression over the "
                                                                                     "window title"))}})}}}},
                           {QStringLiteral("focusPolicy"), routeSchema()
                                                               .value(QStringLiteral("properties"))
                                                               .toObject()
                                                               .value(QStringLiteral("focusPolicy"))}}},
                      {QStringLiteral("additionalProperties"), false}}},
                 {QStringLiteral("selector"),
                  object(QJsonObject{{QStringLiteral("byRole"), typed(QStringLiteral("string"), {})},
                                     {QStringLiteral("titleEquals"), typed(QStringLiteral("string"), {})},
                                     {QStringLiteral("titleContains"), typed(QStringLiteral("string"), {})},
                                     {QStringLiteral("titleMatches"), typed(QStringLiteral("string"), {})},
                                     {QStringLiteral("caseSensitive"), typed(QStringLiteral("boolean"), {})}},
                         {},
                         QStringLiteral("Element events of an element this matches or of one under it "
                                        "(e.g. rows added to a list)"))},
                 {QStringLiteral("since"), integer(0, qint64{1} << 53, {})},
                 {QStringLiteral("epoch"), typed(QStringLiteral("string"), {})}}),
             false,
             true,
             MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                 EventHub* hub = s.diagnostics.events();
                 if (!hub)
                     return respond(Error::make(Automation::ErrorCode::HostNotReady,
                                                QStringLiteral("this host has no event stream"),
                                                QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_events")}}));
                 // Events stream on a socket connection (the local socket, the MCP door's).
                 if (call.caller.connectionId == 0 ||
                     (call.caller.transport != Transport::LocalSocket && call.caller.transport != Transport::McpDoor))
                     return respond(Error::invalidParam(QStringLiteral("meta"),
                                                        QStringLiteral("events are streamed on a socket connection")));
                 EventHub::Filter filter;
                 const QJsonValue kinds = call.params.value(QStringLiteral("kinds"));
                 if (!kinds.isUndefined()) {
                     if (!kinds.isArray())
                         return respond(Error::invalidParam(QStringLiteral("kinds"),
                                                            QStringLiteral("kinds must be an array of event kinds")));
                     for (const auto& kind : kinds.toArray()) {
                         if (!kind.isString() || !EventHub::knownKinds().contains(kind.toString()))
                             return respond(Error::invalidParam(
                                 QStringLiteral("kinds"), QStringLiteral("kinds takes: %1")
                                                              .arg(EventHub::knownKinds().join(QStringLiteral(", ")))));
                         filter.kinds.append(kind.toString());
                     }
                 }
                 // The strings form, or the contract's route object that a client passes to every
                 // method (docs/protocol.md §4.3).
                 QJsonArray ignored;
                 if (auto applied = EventHub::applyRoute(call.params.value(QStringLiteral("route")), filter, ignored);
                     !applied)
                     return respond(applied.error());
                 const QJsonValue selector = call.params.value(QStringLiteral("selector"));
                 if (!selector.isUndefined()) {
                     auto parsed = EventHub::subscriptionSelector(selector);
                     if (!parsed)
                         return respond(parsed.error());
                     if (std::none_of(filter.kinds.cbegin(), filter.kinds.cend(), &EventHub::isElementKind))
                         return respond(Error::invalidParam(
                             QStringLiteral("selector"),
                             QStringLiteral("a selector filters element events: name them in kinds (focus.changed, "
                                            "element.childrenChanged, …)")));
                     filter.selector = std::make_shared<const Automation::Selector>(std::move(parsed.value()));
                 }
                 std::optional<qint64> since;
                 const QJsonValue sinceValue = call.params.value(QStringLiteral("since"));
                 if (!sinceValue.isUndefined()) {
                     if (!sinceValue.isDouble() || sinceValue.toDouble() < 0 ||
                         sinceValue.toDouble() != std::floor(sinceValue.toDouble()))
                         return respond(Error::invalidParam(QStringLiteral("since"),
                                                            QStringLiteral("since must be a cursor (0 or more)")));
                     since = sinceValue.toInteger();
                 }
                 const QJsonValue epoch = call.params.value(QStringLiteral("epoch"));
                 if (!epoch.isUndefined() && !epoch.isString())
                     return respond(
                         Error::invalidParam(QStringLiteral("epoch"), QStringLiteral("epoch must be a string")));
                 // Recorded from now, delivered after the answer: the sources these kinds need
                 // (the window list) first learn what is there, on their own thread, so that
                 // anything that appears once the answer is out is news (docs/protocol.md §5.24).
                 // What was published meanwhile follows the answer, from its cursor.
                 const quint64 generation = hub->subscribeHeld(call.caller.connectionId, filter);
                 QJsonObject answer{{QStringLiteral("subscribed"), true},
                                    {QStringLiteral("cursor"), hub->cursor()},
                                    {QStringLiteral("epoch"), hub->epoch()},
                                    {QStringLiteral("kinds"), QJsonArray::fromStringList(filter.kinds)}};
                 if (filter.selector)
                     answer.insert(QStringLiteral("selector"), filter.selector->toJson());
                 if (!ignored.isEmpty())
                     answer.insert(QStringLiteral("ignored"), ignored);
                 const quint64 connection = call.caller.connectionId;
                 const qint64 from = since.value_or(hub->cursor());
                 const QString fromEpoch = since ? epoch.toString() : QString();
                 hub->whenSourcesReady([hub, connection, generation, from, fromEpoch, answer, respond] {
                     // Replaced by a later subscribe, or ended by unsubscribe, while it waited:
                     // this one never streams, and says so.
                     if (!hub->isCurrent(connection, generation))
                         return respond(QJsonObject{{QStringLiteral("subscribed"), false},
                                                    {QStringLiteral("reason"), QStringLiteral("superseded")},
                                                    {QStringLiteral("epoch"), hub->epoch()}});
                     respond(answer);
                     hub->activate(connection, generation, from, fromEpoch);
                 });
             }},
             {}});
        add({QStringLiteral("desktop.unsubscribe"),
             QStringLiteral("Ends this connection's event stream"),
             paramsSchema({}),
             false,
             true,
             MethodKind::Immediate{[](Services& s, const Call& call, const Respond& respond) {
                 EventHub* hub = s.diagnostics.events();
                 respond(
                     QJsonObject{{QStringLiteral("unsubscribed"), hub && hub->unsubscribe(call.caller.connectionId)}});
             }},
             {}});
        return t;
    }();
    return table;
}

} // namespace Bridge
