#include "bridge/contract/Families.h"

#include <QJsonArray>

// The read-only methods that look at the desktop (docs/protocol.md §5.3, §5.4, §5.13–§5.15,
// §5.19, §5.21).
namespace Contract::Families {

namespace {

Field routeField()
{
    return optional(QStringLiteral("route"), ref(QStringLiteral("Route")));
}

const QString kFresh = QStringLiteral("Read the window afresh, none of it from what the host remembers of the tree");

QList<ResultField> executed(QList<ResultField> fields)
{
    fields.prepend({QStringLiteral("executionId"), QStringLiteral("string"), QStringLiteral("Names the evidence")});
    fields.append({QStringLiteral("evidence"), QStringLiteral("object"),
                   QStringLiteral("dir, envPath and the files this method wrote")});
    return fields;
}

// A rect of the screen to capture or read: capture's and ocr's.
Field rectField()
{
    return optional(QStringLiteral("rect"), object({required(QStringLiteral("x"), integer(-100000, 100000)),
                                                    required(QStringLiteral("y"), integer(-100000, 100000)),
                                                    required(QStringLiteral("width"), integer(1, 100000)),
                                                    required(QStringLiteral("height"), integer(1, 100000))},
                                                   QStringLiteral("Screen coordinates; clipped to the display"))
                                                .sample(QJsonObject{{QStringLiteral("x"), 0},
                                                                    {QStringLiteral("y"), 0},
                                                                    {QStringLiteral("width"), 200},
                                                                    {QStringLiteral("height"), 100}}));
}

// The bounds of an image answered to a model (the evidence keeps every pixel).
Field sizingField(const QString& name)
{
    Field f = name == QLatin1String("maxWidth")
                  ? optional(name, integer(16, 100000, QStringLiteral("Image pixels across, at most")))
                  : optional(name, integer(1024, 1000000000, QStringLiteral("Image pixels (width × height), at most")));
    f.since = QStringLiteral("0.1.0");
    return f;
}

const ResultField kRouteResolved{QStringLiteral("routeResolved"), QStringLiteral("object"),
                                 QStringLiteral("The app and window the route came to (windowId stays on it)")};

} // namespace

QList<Method> observe()
{
    const QJsonObject route{
        {QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("mdh-target-app")}}}};
    QList<Method> out;
    {
        Method m;
        m.name = QStringLiteral("desktop.observe");
        m.summary = QStringLiteral("A screenshot and the accessibility tree of a window");
        m.workspaceBound = true;
        m.params = object(
            {routeField(),
             optional(
                 QStringLiteral("options"),
                 object({optional(QStringLiteral("includeScreenshot"), boolean().byDefault(true)),
                         optional(QStringLiteral("includeAxTree"), boolean().byDefault(true)),
                         optional(QStringLiteral("axMaxDepth"), integer(1, 256).byDefault(8)),
                         optional(QStringLiteral("axMaxNodes"), integer(1, 100000).byDefault(2000)),
                         optional(QStringLiteral("axMaxWallTimeMs"), integer(1, 600000).byDefault(10000)),
                         optional(QStringLiteral("includeText"),
                                  boolean(QStringLiteral("Read values (never of secure fields)")).byDefault(false)),
                         sizingField(QStringLiteral("maxWidth")), sizingField(QStringLiteral("maxPixels"))},
                        QStringLiteral("What to take and how much of the tree"))),
             optional(QStringLiteral("refresh"), boolean(kFresh).byDefault(false))});
        m.result =
            executed({kRouteResolved,
                      {QStringLiteral("snapshotId"), QStringLiteral("string"),
                       QStringLiteral("The tree's snapshot; elementRefs name it")},
                      {QStringLiteral("axTree"), QStringLiteral("object"), QStringLiteral("Node counts, truncation")},
                      {QStringLiteral("screenshot"), QStringLiteral("object"),
                       QStringLiteral("With maxWidth or maxPixels: width, height, scale and path of the sized copy")}});
        m.errors = {QStringLiteral("DESKTOP_PERMISSION_MISSING"), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"),
                    QStringLiteral("DESKTOP_TIMEOUT"), QStringLiteral("DESKTOP_AX_TRAVERSAL_LIMIT")};
        m.docSection = QStringLiteral("5.3");
        m.engine = QStringLiteral("automation/operations/Observe.cpp");
        m.example = QJsonObject{{QStringLiteral("route"), route},
                                {QStringLiteral("options"), QJsonObject{{QStringLiteral("includeScreenshot"), true},
                                                                        {QStringLiteral("includeAxTree"), true},
                                                                        {QStringLiteral("axMaxDepth"), 8},
                                                                        {QStringLiteral("axMaxNodes"), 2000}}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.find");
        m.summary = QStringLiteral("Elements matching a selector, ranked, as elementRefs");
        m.workspaceBound = true;
        m.params = object(
            {routeField(), required(QStringLiteral("selector"), ref(QStringLiteral("Selector"))),
             optional(QStringLiteral("include"),
                      arrayOf(oneOf({QStringLiteral("text"), QStringLiteral("states")}), {}, {},
                              QStringLiteral("Add each ref's text and/or states (never a secure field's text)"))),
             optional(QStringLiteral("refresh"), boolean(kFresh).byDefault(false)),
             optional(QStringLiteral("maxDepth"), integer(1, 256, QStringLiteral("Default 64"))),
             optional(QStringLiteral("maxNodes"), integer(1, 100000, QStringLiteral("Default 20000"))),
             optional(QStringLiteral("maxWallTimeMs"),
                      integer(1, 600000, QStringLiteral("Default: the request's time left, at most 30000")))});
        m.result = executed({{QStringLiteral("elementRefs"), QStringLiteral("array"),
                              QStringLiteral("The matches, best first (docs/protocol.md §4.5)")},
                             {QStringLiteral("matched"), QStringLiteral("integer"), QStringLiteral("How many matched")},
                             kRouteResolved});
        m.errors = {QStringLiteral("DESKTOP_PERMISSION_MISSING"), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"),
                    QStringLiteral("DESKTOP_TIMEOUT"), QStringLiteral("DESKTOP_AX_TRAVERSAL_LIMIT")};
        m.docSection = QStringLiteral("5.4");
        m.engine = QStringLiteral("automation/operations/Find.cpp");
        m.example = QJsonObject{
            {QStringLiteral("route"), route},
            {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                     {QStringLiteral("titleContains"), QStringLiteral("Send")},
                                                     {QStringLiteral("valueContains"), QStringLiteral("hello")},
                                                     {QStringLiteral("limit"), 5}}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.dumpTree");
        m.summary = QStringLiteral("The bounded accessibility tree of a window, without a screenshot");
        m.workspaceBound = true;
        m.params = object({routeField(), optional(QStringLiteral("maxDepth"), integer(1, 256).byDefault(8)),
                           optional(QStringLiteral("maxNodes"), integer(1, 100000).byDefault(2000)),
                           optional(QStringLiteral("maxWallTimeMs"), integer(1, 600000).byDefault(10000)),
                           optional(QStringLiteral("includeText"),
                                    boolean(QStringLiteral("Read values (never of secure fields)")).byDefault(false))});
        m.result =
            executed({kRouteResolved,
                      {QStringLiteral("tree"), QStringLiteral("object"), QStringLiteral("The nodes, nested")},
                      {QStringLiteral("truncated"), QStringLiteral("boolean"), QStringLiteral("A bound was hit")}});
        m.errors = {QStringLiteral("DESKTOP_PERMISSION_MISSING"), QStringLiteral("DESKTOP_AX_TRAVERSAL_LIMIT")};
        m.docSection = QStringLiteral("5.13");
        m.engine = QStringLiteral("automation/operations/Observe.cpp");
        m.example = QJsonObject{{QStringLiteral("route"), route}, {QStringLiteral("maxDepth"), 6}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.capture");
        m.summary = QStringLiteral("A PNG of the display, a window (by route) or a rect, with the frame it covers");
        m.workspaceBound = true;
        m.params =
            object({routeField(), rectField(),
                    optional(QStringLiteral("inline"),
                             boolean(QStringLiteral("Also answer the PNG as base64 (pngBase64)")).byDefault(false)),
                    sizingField(QStringLiteral("maxWidth")), sizingField(QStringLiteral("maxPixels"))});
        m.params.exclusive.append({QStringLiteral("route"), QStringLiteral("rect")});
        m.result = executed(
            {{QStringLiteral("frame"), QStringLiteral("object"), QStringLiteral("What the PNG covers")},
             {QStringLiteral("pngPath"), QStringLiteral("string"), QStringLiteral("capture.png")},
             {QStringLiteral("pngBase64"), QStringLiteral("string"), QStringLiteral("With inline; sized as asked")},
             {QStringLiteral("image"), QStringLiteral("object"),
              QStringLiteral("width, height and scale (image pixels per screen pixel) of the PNG answered")}});
        m.errors = {QStringLiteral("DESKTOP_PERMISSION_MISSING")};
        m.docSection = QStringLiteral("5.14");
        m.engine = QStringLiteral("automation/operations/Observe.cpp");
        m.example = QJsonObject{{QStringLiteral("route"), route}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.readText");
        m.summary = QStringLiteral("The text of the elements a selector matches (never of secure fields)");
        m.workspaceBound = true;
        m.params = object(
            {routeField(), required(QStringLiteral("selector"), ref(QStringLiteral("Selector"))),
             optional(QStringLiteral("limitBytes"),
                      integer(1, 1048576, QStringLiteral("UTF-8 bytes of text answered in all")).byDefault(65536)),
             optional(QStringLiteral("redactionMode"),
                      oneOf({QStringLiteral("none"), QStringLiteral("patterns"), QStringLiteral("hash")},
                            QStringLiteral("patterns: e-mail addresses, long numbers and key-like tokens masked; "
                                           "hash: length and SHA-256 only; none: as is"))
                          .byDefault(QStringLiteral("patterns")))});
        m.result =
            executed({{QStringLiteral("items"), QStringLiteral("array"),
                       QStringLiteral("Each element's text, with its source and redaction")},
                      {QStringLiteral("truncated"), QStringLiteral("boolean"), QStringLiteral("limitBytes hit")}});
        m.errors = {QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")};
        m.docSection = QStringLiteral("5.15");
        m.engine = QStringLiteral("automation/operations/Read.cpp");
        m.example = QJsonObject{
            {QStringLiteral("route"), route},
            {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextArea")}}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.windows");
        m.summary = QStringLiteral("The top-level windows, topmost first: title, app, pid, frame and state");
        m.workspaceBound = true;
        m.params = object({optional(QStringLiteral("app"), string(QStringLiteral("Only this app's windows"))),
                           optional(QStringLiteral("includeMinimized"),
                                    boolean(QStringLiteral("false: leave minimized windows out")).byDefault(true))});
        m.params.fields.last().since = QStringLiteral("0.1.0");
        m.result = executed({{QStringLiteral("windows"), QStringLiteral("array"),
                              QStringLiteral("Each with title, app, pid, nativeId, frame and state")}});
        m.docSection = QStringLiteral("5.19");
        m.engine = QStringLiteral("automation/operations/Windows.cpp");
        m.example = QJsonObject{};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.elementAt");
        m.summary = QStringLiteral("The element under a screen point, with its ancestors");
        m.workspaceBound = true;
        m.params = object({routeField(), required(QStringLiteral("point"), ref(QStringLiteral("Point")))});
        m.result =
            executed({{QStringLiteral("element"), QStringLiteral("object"), QStringLiteral("An elementRef")},
                      {QStringLiteral("ancestors"), QStringLiteral("array"), QStringLiteral("Up to the window")}});
        m.errors = {QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")};
        m.docSection = QStringLiteral("5.21");
        m.engine = QStringLiteral("automation/operations/Pointer.cpp");
        m.example =
            QJsonObject{{QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), 100}, {QStringLiteral("y"), 200}}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.ocr");
        m.summary = QStringLiteral("The words and lines on screen, read off the pixels (where accessibility is blind)");
        m.workspaceBound = true;
        m.params = object(
            {routeField(), rectField(),
             optional(QStringLiteral("languages"),
                      arrayOf(oneOf({QStringLiteral("eng"), QStringLiteral("chi_sim")}), 1, 2,
                              QStringLiteral("Tesseract's names; Vision reads them as en-US and zh-Hans"))
                          .byDefault(QJsonArray{QStringLiteral("eng"), QStringLiteral("chi_sim")})),
             optional(
                 QStringLiteral("minConfidence"),
                 integer(0, 100, QStringLiteral("Percent: words recognised with less are left out")).byDefault(40)),
             optional(QStringLiteral("redactionMode"),
                      oneOf({QStringLiteral("none"), QStringLiteral("patterns"), QStringLiteral("hash")},
                            QStringLiteral("As readText's; also what ocr.json keeps (hash: no image kept)"))
                          .byDefault(QStringLiteral("patterns")))});
        m.params.exclusive.append({QStringLiteral("route"), QStringLiteral("rect")});
        m.result = executed(
            {{QStringLiteral("words"), QStringLiteral("array"),
              QStringLiteral("Each word's text (as redactionMode allows), frame in screen points and confidence")},
             {QStringLiteral("lines"), QStringLiteral("array"),
              QStringLiteral("The same for lines, with their words' "
                             "indexes")},
             {QStringLiteral("capture"), QStringLiteral("object"),
              QStringLiteral("captureId, source, frame, takenAt, and how other windows and secure fields were "
                             "blanked")},
             {QStringLiteral("engine"), QStringLiteral("object"), QStringLiteral("name, version, languages, mode")},
             {QStringLiteral("timing"), QStringLiteral("object"),
              QStringLiteral("captureMs, recognizeMs, regions, "
                             "regionsCached")},
             kRouteResolved});
        m.errors = {QStringLiteral("DESKTOP_PERMISSION_MISSING"), QStringLiteral("DESKTOP_TIMEOUT"),
                    QStringLiteral("DESKTOP_INVALID_REQUEST")};
        m.since = QStringLiteral("0.1.0");
        m.docSection = QStringLiteral("5.26");
        m.engine = QStringLiteral("automation/operations/Ocr.cpp");
        m.example = QJsonObject{{QStringLiteral("route"), route},
                                {QStringLiteral("languages"), QJsonArray{QStringLiteral("eng")}}};
        out.append(m);
    }
    {
        Method m;
        m.name = QStringLiteral("desktop.ground");
        m.summary = QStringLiteral("The screen point the owner's own vision model names for a description "
                                   "(only where the owner configured a grounding endpoint)");
        m.workspaceBound = true;
        m.params = object(
            {required(QStringLiteral("description"),
                      nonEmptyString(QStringLiteral("What to find, as a person says it (at most 500 characters)"))),
             routeField(), rectField()});
        m.params.exclusive.append({QStringLiteral("route"), QStringLiteral("rect")});
        m.result = executed(
            {{QStringLiteral("x"), QStringLiteral("integer"), QStringLiteral("The point on screen (screen points)")},
             {QStringLiteral("y"), QStringLiteral("integer"), QStringLiteral("The point on screen (screen points)")},
             {QStringLiteral("confidence"), QStringLiteral("number|null"),
              QStringLiteral("The model's own, when it gave one; never made up")},
             {QStringLiteral("method"), QStringLiteral("string"), QStringLiteral("Always \"endpoint\"")},
             {QStringLiteral("description"), QStringLiteral("string"), QStringLiteral("As asked")},
             {QStringLiteral("provider"), QStringLiteral("object"), QStringLiteral("url, model, timeoutMs")},
             {QStringLiteral("image"), QStringLiteral("object"),
              QStringLiteral("What the model was shown: frame (screen), width, height, scale, and the point in it")},
             {QStringLiteral("timing"), QStringLiteral("object"), QStringLiteral("endpointMs")},
             kRouteResolved});
        m.errors = {QStringLiteral("DESKTOP_TIMEOUT"), QStringLiteral("DESKTOP_TARGET_UNRESPONSIVE"),
                    QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"), QStringLiteral("DESKTOP_PERMISSION_MISSING")};
        m.since = QStringLiteral("0.1.0");
        m.docSection = QStringLiteral("5.27");
        m.engine = QStringLiteral("automation/operations/Ground.cpp");
        m.example = QJsonObject{{QStringLiteral("description"), QStringLiteral("the red Record button")},
                                {QStringLiteral("route"), route}};
        out.append(m);
    }
    return out;
}

} // namespace Contract::Families
