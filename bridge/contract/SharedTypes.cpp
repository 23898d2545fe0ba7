#include "bridge/contract/Families.h"

#include "bridge/protocol/Meta.h"

#include <QJsonArray>

#include <algorithm>
#include <limits>

// The types every method shares (docs/protocol.md §4), declared once.
namespace Contract::Families {

namespace {

Node anyInteger(const QString& description = {})
{
    Node out = integer(0, 0, description);
    out.minimum.reset();
    out.maximum.reset();
    return out;
}

Node point(const QString& description)
{
    Node out = object({required(QStringLiteral("x"), integer(-100000, 100000)),
                       required(QStringLiteral("y"), integer(-100000, 100000))},
                      description);
    out.example = QJsonObject{{QStringLiteral("x"), 100}, {QStringLiteral("y"), 200}};
    return out;
}

Node meta()
{
    Node out = object(
        {required(QStringLiteral("schemaVersion"), integer(1, 1, QStringLiteral("Always 1"))),
         required(QStringLiteral("requestId"), nonEmptyString(QStringLiteral("A fresh UUID per request"))),
         optional(QStringLiteral("workspacePath"),
                  string(QStringLiteral("Absolute path inside the host's workspace root; evidence goes below it"))),
         optional(QStringLiteral("timeoutMs"),
                  integer(1, Bridge::Meta::kMaxTimeoutMs, QStringLiteral("The request's hard deadline")))},
        QStringLiteral("Every request carries it (docs/protocol.md §4.1)"));
    out.fields[1].node.pattern =
        QStringLiteral("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");
    out.fields[2].node.pattern = QStringLiteral("^/");
    out.closed = false;
    return out;
}

Node route()
{
    Node app = object(
        {optional(QStringLiteral("bundleId"),
                  nonEmptyString(QStringLiteral("App id (macOS bundle id; on Linux the accessible app "
                                                "name or executable)"))),
         optional(QStringLiteral("pid"), integer(1, std::numeric_limits<int>::max(), QStringLiteral("Process id")))},
        QStringLiteral("Which app"));
    Node window = object(
        {optional(QStringLiteral("titlePattern"), string(QStringLiteral("Regular expression over the window title"))),
         optional(QStringLiteral("id"),
                  string(QStringLiteral("routeResolved.windowId of an earlier answer: stay on that window"))),
         optional(QStringLiteral("nativeId"),
                  string(QStringLiteral("The nativeId desktop.windows answered (\"0x...\"): that window")))},
        QStringLiteral("Which of its windows"));
    window.fields[1].node.pattern = QStringLiteral("^w:.{1,510}$");
    window.fields[2].node.pattern = QStringLiteral("^(0[xX][0-9a-fA-F]{1,16}|[0-9]{1,20})$");
    Node display = object(
        {optional(QStringLiteral("id"), nonEmptyString(QStringLiteral("An id desktop.displays answered"))),
         optional(QStringLiteral("displayId"), nonEmptyString(QStringLiteral("The same, by the seed's name")))},
        QStringLiteral("Which display: the window must be on it; alone, the frontmost window on it (capture: the "
                       "whole display)"));
    display.atLeastOne.append({QStringLiteral("id"), QStringLiteral("displayId")});
    display.exclusive.append({QStringLiteral("id"), QStringLiteral("displayId")});
    Node out = object({optional(QStringLiteral("app"), app), optional(QStringLiteral("window"), window),
                       optional(QStringLiteral("display"), display),
                       optional(QStringLiteral("focusPolicy"),
                                oneOf({QStringLiteral("focusIfNeeded"), QStringLiteral("requireFocused"),
                                       QStringLiteral("failIfNotFocused")},
                                      QStringLiteral("Whether the host may raise the window first")))},
                      QStringLiteral("Which app and window; the frontmost when empty (docs/protocol.md §4.3)"));
    out.example = QJsonObject{
        {QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("mdh-target-app")}}},
        {QStringLiteral("focusPolicy"), QStringLiteral("focusIfNeeded")}};
    return out;
}

// A selector `level` selectors down (labelledBy and near hold selectors): at most two levels.
QString selectorType(int level)
{
    return level == 0 ? QStringLiteral("Selector") : QStringLiteral("SelectorLevel%1").arg(level);
}

Node selector(int level)
{
    const QString text = QStringLiteral("Text to match");
    const QString regex = QStringLiteral("Regular expression");
    Node out = object(
        {optional(QStringLiteral("byRole"), nonEmptyString(QStringLiteral("e.g. AXButton"))),
         optional(QStringLiteral("titleEquals"), string(text)),
         optional(QStringLiteral("titleContains"), string(text)),
         optional(QStringLiteral("titleMatches"), string(regex)),
         optional(QStringLiteral("valueEquals"), string(text)),
         optional(QStringLiteral("valueContains"), string(text)),
         optional(QStringLiteral("valueMatches"), string(regex)),
         optional(QStringLiteral("descriptionEquals"), string(text)),
         optional(QStringLiteral("descriptionContains"), string(text)),
         optional(QStringLiteral("descriptionMatches"),
                  string(QStringLiteral("Regular expression over the help text"))),
         optional(QStringLiteral("byIdentifier"), nonEmptyString(QStringLiteral("Accessibility id"))),
         optional(QStringLiteral("byPath"), arrayOf(integer(0, 100000), {}, 64,
                                                    QStringLiteral("Child indexes from the window root (ax.json's "
                                                                   "path)"))),
         optional(QStringLiteral("byRect"),
                  ref(QStringLiteral("Rect"), QStringLiteral("The element's centre lies inside (screen pixels)"))),
         optional(QStringLiteral("labelledBy"),
                  ref(selectorType(std::min(level + 1, 2)),
                      QStringLiteral("A selector for the element's label: its relation "
                                     "first, form geometry second (two levels at most)"))),
         optional(QStringLiteral("near"), ref(selectorType(std::min(level + 1, 2)),
                                              QStringLiteral("A selector for an anchor the element lies within "
                                                             "maxDistance pixels of (two levels at most)"))),
         optional(QStringLiteral("maxDistance"), integer(0, 5000, QStringLiteral("For near"))),
         optional(QStringLiteral("nth"),
                  integer(-1000, 1000, QStringLiteral("Only the nth match in document order (0 first, -1 last)"))),
         optional(QStringLiteral("inWindow"),
                  nonEmptyString(QStringLiteral("Regular expression the window title must match"))),
         optional(QStringLiteral("enabledOnly"), boolean().byDefault(false)),
         optional(QStringLiteral("visibleOnly"), boolean().byDefault(false)),
         optional(QStringLiteral("caseSensitive"), boolean().byDefault(false)),
         optional(QStringLiteral("limit"), integer(1, 1000, QStringLiteral("Most refs returned")).byDefault(10))},
        QStringLiteral("Which elements (docs/protocol.md §4.4); at least one criterion"));
    if (level == 0) {
        Field source = optional(
            QStringLiteral("source"),
            oneOf({QStringLiteral("ax"), QStringLiteral("ocr"), QStringLiteral("any")},
                  QStringLiteral("Where to look: the accessibility tree, the text on screen (OCR; refs bound to "
                                 "their capture), or the tree first and the text when it finds nothing"))
                .byDefault(QStringLiteral("ax")));
        source.since = QStringLiteral("0.1.0");
        out.fields.append(source);
    }
    for (const QString& what : {QStringLiteral("title"), QStringLiteral("value"), QStringLiteral("description")})
        out.exclusive.append(
            {what + QStringLiteral("Equals"), what + QStringLiteral("Contains"), what + QStringLiteral("Matches")});
    out.atLeastOne.append(
        {QStringLiteral("byRole"), QStringLiteral("titleEquals"), QStringLiteral("titleContains"),
         QStringLiteral("titleMatches"), QStringLiteral("valueEquals"), QStringLiteral("valueContains"),
         QStringLiteral("valueMatches"), QStringLiteral("descriptionEquals"), QStringLiteral("descriptionContains"),
         QStringLiteral("descriptionMatches"), QStringLiteral("byIdentifier"), QStringLiteral("byPath"),
         QStringLiteral("byRect"), QStringLiteral("labelledBy"), QStringLiteral("near")});
    out.needs.append({QStringLiteral("maxDistance"), QStringLiteral("near")});
    if (level == 2) {
        out.forbidden = {QStringLiteral("labelledBy"), QStringLiteral("near")};
        out.forbiddenWhy = QStringLiteral("nests too deep: selectors inside selectors go at most two levels down");
    }
    out.example = QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                              {QStringLiteral("titleContains"), QStringLiteral("Send")}};
    return out;
}

Node rect()
{
    Node out =
        object({required(QStringLiteral("x"), anyInteger()), required(QStringLiteral("y"), anyInteger()),
                required(QStringLiteral("width"), anyInteger()), required(QStringLiteral("height"), anyInteger())},
               QStringLiteral("A rectangle in screen pixels, with a width and height above 0"));
    out.fields[2].node.minimum = 1;
    out.fields[3].node.minimum = 1;
    out.closed = false;
    out.example = QJsonObject{{QStringLiteral("x"), 0},
                              {QStringLiteral("y"), 0},
                              {QStringLiteral("width"), 400},
                              {QStringLiteral("height"), 300}};
    return out;
}

Node target()
{
    Node elementRef = object({required(QStringLiteral("elementId"), nonEmptyString()),
                              optional(QStringLiteral("fingerprint"), string()),
                              optional(QStringLiteral("snapshotId"),
                                       nonEmptyString(QStringLiteral("The snapshotId of the answer that gave the ref: "
                                                                     "refused once that snapshot expired")))},
                             QStringLiteral("As returned by find (the rest of it may be echoed too)"));
    elementRef.closed = false;
    Node out = object({optional(QStringLiteral("elementRef"), elementRef),
                       optional(QStringLiteral("selector"), ref(QStringLiteral("Selector")))},
                      QStringLiteral("elementRef, selector, or both (the selector is the fallback for a stale ref)"));
    out.atLeastOne.append({QStringLiteral("elementRef"), QStringLiteral("selector")});
    out.example =
        QJsonObject{{QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                             {QStringLiteral("titleContains"), QStringLiteral("OK")}}}};
    return out;
}

Node confirmation()
{
    Node out =
        object({optional(QStringLiteral("token"), nonEmptyString(QStringLiteral("From desktop.confirm.issue"))),
                optional(QStringLiteral("phrase"), string(QStringLiteral("CONFIRM or CONFIRM:<requestId>"))),
                optional(QStringLiteral("approvedAt"), string()), optional(QStringLiteral("approver"), string())},
               QStringLiteral("A side effect's confirmation (docs/protocol.md §4.2): the token beats the phrase"));
    out.closed = false;
    out.example = QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
    return out;
}

Node condition()
{
    Node window = object({required(QStringLiteral("titlePattern"),
                                   nonEmptyString(QStringLiteral("Regular expression over the window title")))});
    Node nested = arrayOf(ref(QStringLiteral("Condition")), 1, 16, QStringLiteral("Nested at most 4 deep"));
    Node out = object(
        {optional(QStringLiteral("selectorExists"), ref(QStringLiteral("Selector"))),
         optional(QStringLiteral("selectorGone"), ref(QStringLiteral("Selector"))),
         optional(QStringLiteral("windowExists"), window), optional(QStringLiteral("windowGone"), window),
         optional(QStringLiteral("textMatches"),
                  object({required(QStringLiteral("selector"), ref(QStringLiteral("Selector"))),
                          required(QStringLiteral("pattern"), nonEmptyString(QStringLiteral("Regular expression")))})),
         optional(QStringLiteral("valueEquals"),
                  object({required(QStringLiteral("selector"), ref(QStringLiteral("Selector"))),
                          required(QStringLiteral("value"), string())})),
         optional(QStringLiteral("focused"), ref(QStringLiteral("Selector"))),
         optional(QStringLiteral("enabled"), ref(QStringLiteral("Selector"))),
         optional(
             QStringLiteral("textOnScreen"),
             object({required(QStringLiteral("text"), nonEmptyString(QStringLiteral("Shown in a line read by OCR "
                                                                                    "(case and spaces aside)"))),
                     optional(QStringLiteral("rect"), object({required(QStringLiteral("x"), integer(-100000, 100000)),
                                                              required(QStringLiteral("y"), integer(-100000, 100000)),
                                                              required(QStringLiteral("width"), integer(1, 100000)),
                                                              required(QStringLiteral("height"), integer(1, 100000))},
                                                             QStringLiteral("Where to read, in screen coordinates"))),
                     optional(QStringLiteral("route"),
                              ref(QStringLiteral("Route"), QStringLiteral("Whose window to read (its own pixels)")))},
                    QStringLiteral("Text on screen, read off the pixels (desktop.ocr's engine)"))),
         optional(
             QStringLiteral("imageOnScreen"),
             object(
                 {required(QStringLiteral("path"),
                           nonEmptyString(QStringLiteral("A PNG inside the workspace (relative to it, or "
                                                         "absolute): the template looked for"))),
                  optional(QStringLiteral("threshold"),
                           integer(50, 100, QStringLiteral("Percent: the least similarity that counts")).byDefault(90)),
                  optional(QStringLiteral("rect"), object({required(QStringLiteral("x"), integer(-100000, 100000)),
                                                           required(QStringLiteral("y"), integer(-100000, 100000)),
                                                           required(QStringLiteral("width"), integer(1, 100000)),
                                                           required(QStringLiteral("height"), integer(1, 100000))},
                                                          QStringLiteral("Where to look, in screen coordinates"))),
                  optional(QStringLiteral("route"),
                           ref(QStringLiteral("Route"), QStringLiteral("Whose window to look in")))},
                 QStringLiteral("An image on screen, found by template matching (OpenCV)"))),
         optional(QStringLiteral("all"), nested), optional(QStringLiteral("any"), nested)},
        QStringLiteral("Exactly one condition (docs/protocol.md §5.8)"));
    out.minProperties = 1;
    out.maxProperties = 1;
    out.example = QJsonObject{
        {QStringLiteral("windowExists"), QJsonObject{{QStringLiteral("titlePattern"), QStringLiteral("Save")}}}};
    return out;
}

} // namespace

QHash<QString, Node> sharedTypes()
{
    return {{QStringLiteral("Meta"), meta()},
            {QStringLiteral("Route"), route()},
            {QStringLiteral("Selector"), selector(0)},
            {selectorType(1), selector(1)},
            {selectorType(2), selector(2)},
            {QStringLiteral("Rect"), rect()},
            {QStringLiteral("Target"), target()},
            {QStringLiteral("Confirm"), confirmation()},
            {QStringLiteral("Condition"), condition()},
            {QStringLiteral("Point"), point(QStringLiteral("Screen coordinates"))}};
}

} // namespace Contract::Families
