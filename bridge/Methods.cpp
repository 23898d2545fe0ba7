#include "bridge/Methods.h"

#include "bridge/evidence/EvidenceLayout.h"

#include "automation/DesktopExec.h"
#include "automation/PngEncoder.h"

#include <QImage>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <type_traits>

namespace Bridge::Methods {

using namespace Automation;
namespace Ops = Automation::Operations;

namespace {

QJsonObject evidence(const Evidence::ExecutionRecord& record, QJsonObject extra = {})
{
    extra.insert(QStringLiteral("dir"), record.dirPath());
    // The environment file's name, as msgcode's original runner reads it (dir + "/" + envPath).
    extra.insert(QStringLiteral("envPath"), Evidence::Layout::envFile());
    return extra;
}

// An elementRef as find, click and typeText answer it: with where it was found, since an OCR
// element is bound to its capture (docs/protocol.md §4.4).
QJsonObject refJson(const Node& node)
{
    QJsonObject ref = ElementRef::fromNode(node).toJson();
    const bool fromPixels = node.nativeRole.startsWith(QLatin1String("ocr."));
    ref.insert(QStringLiteral("source"), fromPixels ? QStringLiteral("ocr") : QStringLiteral("ax"));
    if (fromPixels)
        ref.insert(QStringLiteral("nativeRole"), node.nativeRole);
    return ref;
}

QJsonObject baseResult(const Evidence::ExecutionRecord& record)
{
    return QJsonObject{{QStringLiteral("executionId"), record.executionId()}};
}

// The honest-outcome fields of a side-effect answer: `effect`, `verification`, timing.verifyMs.
void insertVerification(QJsonObject& result, const Verification& verification)
{
    result.insert(QStringLiteral("effect"), effectName(verification.effect));
    QJsonObject details = verification.toJson();
    details.remove(QStringLiteral("effect"));
    result.insert(QStringLiteral("verification"), details);
    QJsonObject timing = result.value(QStringLiteral("timing")).toObject();
    timing.insert(QStringLiteral("verifyMs"), verification.verifyMs);
    result.insert(QStringLiteral("timing"), timing);
}

TargetSpec targetSpec(const TargetParams& params)
{
    TargetSpec target;
    if (params.elementRef)
        target.elementRef =
            ElementRefSpec{params.elementRef->elementId, params.elementRef->fingerprint, params.elementRef->snapshotId};
    target.selector = params.selector;
    target.selectorJson = params.selectorJson;
    return target;
}

} // namespace

std::optional<Ops::TypeRequest> targetLook(const QString& method, const QJsonObject& params)
{
    Ops::TypeRequest look;
    if (method == QLatin1String("desktop.typeText")) {
        auto typed = Params::typeText(params);
        if (!typed)
            return std::nullopt;
        look = typeRequest(typed.value());
        look.text.clear();
        return look;
    }
    if (method == QLatin1String("desktop.click")) {
        auto click = Params::click(params);
        if (!click)
            return std::nullopt;
        look.route = click->route;
        look.target = targetSpec(click->target);
        return look;
    }
    if (method == QLatin1String("desktop.scroll")) {
        auto scroll = Params::scroll(params);
        if (!scroll)
            return std::nullopt;
        look.route = scroll->route;
        look.target = targetSpec(scroll->target);
        return look;
    }
    if (method == QLatin1String("desktop.pointer")) {
        auto pointer = Params::pointer(params);
        if (!pointer || !pointer->target)
            return std::nullopt;
        look.route = pointer->route;
        look.target = targetSpec(*pointer->target);
        return look;
    }
    return std::nullopt;
}

std::optional<Ops::PolicyLookRequest> policyRequest(const QString& method, const QJsonObject& params)
{
    Ops::PolicyLookRequest out;
    if (method == QLatin1String("desktop.typeText")) {
        auto typed = Params::typeText(params);
        if (!typed)
            return std::nullopt;
        out.route = typed->route;
        if (typed->target)
            out.target = targetSpec(*typed->target);
        out.focused = !typed->target;
        out.pressesEnter = typed->text.contains(QLatin1Char('\n')) || typed->text.contains(QLatin1Char('\r'));
        return out;
    }
    if (method == QLatin1String("desktop.hotkey")) {
        auto hotkey = Params::hotkey(params);
        if (!hotkey)
            return std::nullopt;
        out.route = hotkey->route;
        out.focused = true;
        const QString key = hotkey->chord.key.toLower();
        out.pressesEnter = key == QLatin1String("enter") || key == QLatin1String("return");
        return out;
    }
    if (method == QLatin1String("desktop.menuPick")) {
        auto pick = Params::menuPick(params);
        if (!pick)
            return std::nullopt;
        out.route = pick->route;
        out.menuPath = pick->path;
        return out;
    }
    if (method == QLatin1String("desktop.window")) {
        auto window = Params::window(params);
        if (!window)
            return std::nullopt;
        out.route = window->route;
        return out;
    }
    // Reads, where an owner's rule governs them: the app their route names (an absent route is
    // the frontmost app, as the read itself takes it).
    const auto routeOf = [&out](const auto& parsed) -> std::optional<Ops::PolicyLookRequest> {
        if (!parsed)
            return std::nullopt;
        if constexpr (std::is_same_v<std::decay_t<decltype(parsed->route)>, Automation::Route>)
            out.route = parsed->route;
        else
            out.route = parsed->route.value_or(Automation::Route{});
        return out;
    };
    if (method == QLatin1String("desktop.observe"))
        return routeOf(Params::observe(params));
    if (method == QLatin1String("desktop.find"))
        return routeOf(Params::find(params));
    if (method == QLatin1String("desktop.waitUntil"))
        return routeOf(Params::waitUntil(params));
    if (method == QLatin1String("desktop.dumpTree"))
        return routeOf(Params::dumpTree(params));
    if (method == QLatin1String("desktop.readText"))
        return routeOf(Params::readText(params));
    if (method == QLatin1String("desktop.capture"))
        return routeOf(Params::capture(params));
    if (method == QLatin1String("desktop.ocr"))
        return routeOf(Params::ocr(params));
    if (method == QLatin1String("desktop.ground"))
        return routeOf(Params::ground(params));
    if (method == QLatin1String("desktop.elementAt"))
        return routeOf(Params::elementAt(params));
    if (method == QLatin1String("desktop.windows"))
        return std::nullopt; // titles of every window, no app's content
    // An app to launch or quit: the rules decide about it as the request names it (its desktop
    // entry's categories, a running process's identity), never about whatever is in front.
    if (method == QLatin1String("desktop.app")) {
        auto parsed = Params::app(params);
        if (!parsed || parsed->action == QLatin1String("list"))
            return std::nullopt;
        AppIdentity subject;
        if (parsed->pid) {
            ResolvedRoute route;
            route.pid = *parsed->pid;
            subject = identify(route);
        } else {
            subject.bundleId = parsed->bundleId;
            subject.executable = parsed->executable;
            QString entry = parsed->desktopId;
            if (entry.isEmpty() && !parsed->executable.isEmpty())
                entry = desktopEntryFor(parsed->executable).id;
            if (!entry.isEmpty()) {
                subject.desktopId =
                    entry.endsWith(QLatin1String(".desktop")) ? entry : entry + QStringLiteral(".desktop");
                if (const QString path = desktopEntryPath(subject.desktopId); !path.isEmpty())
                    subject.categories = readDesktopEntry(path).categories;
            }
            subject.name = subject.executable.isEmpty() ? subject.desktopId : subject.executable;
        }
        out.subjectApp = subject;
        out.forceQuit = parsed->force;
        return out;
    }
    // A file dialog: typed into the route's app; replacing a file is high-risk.
    if (method == QLatin1String("desktop.fileDialog")) {
        auto parsed = Params::fileDialog(params);
        if (!parsed)
            return std::nullopt;
        out.route = parsed->route;
        out.focused = true;
        out.replacesFile = parsed->save && parsed->replace;
        return out;
    }
    // The clipboard is the desktop's, not a window's: the frontmost app is what it is about
    // (a terminal or a password manager in front is where a paste would land).
    if (method == QLatin1String("desktop.clipboard")) {
        if (!Params::clipboard(params))
            return std::nullopt;
        out.appOptional = true;
        return out;
    }
    // click, scroll, pointer: their route and target, as the confirmation's look has them.
    const auto look = targetLook(method, params);
    if (!look)
        return std::nullopt;
    out.route = look->route;
    out.target = look->target;
    return out;
}

Ops::TypeRequest typeRequest(const TypeTextParams& params)
{
    Ops::TypeRequest request;
    request.route = params.route;
    if (params.target)
        request.target = targetSpec(*params.target);
    request.text = params.text;
    request.clearBefore = params.clearBefore;
    request.keyDelayMs = params.keyDelayMs;
    request.delivery = params.delivery;
    return request;
}

void recordEnvironment(JobContext& context, Evidence::ExecutionRecord& record, const Result<QJsonObject>& result,
                       bool sideEffect)
{
    // After a timeout or a stop the backend is not asked again.
    if (context.call.checkpoint())
        return;
    std::optional<Automation::ResolvedRoute> route;
    if (result) {
        const QJsonObject resolved = result->value(QStringLiteral("routeResolved")).toObject();
        if (!resolved.isEmpty()) {
            route.emplace();
            route->pid = resolved.value(QStringLiteral("pid")).toInteger();
            route->windowTitle = resolved.value(QStringLiteral("windowTitle")).toString();
            route->appName = resolved.value(QStringLiteral("appName")).toString();
            if (const auto handle =
                    Automation::ResolvedRoute::handleOfWindowId(resolved.value(QStringLiteral("windowId")).toString()))
                route->windowHandle = *handle;
        }
    }
    QJsonObject extra = context.backend.environment(route ? &*route : nullptr, context.call);
    if (sideEffect) {
        QJsonObject action;
        if (result) {
            for (const char* key : {"deliveredBy", "effect", "verification"}) {
                const QJsonValue value = result->value(QLatin1String(key));
                if (!value.isUndefined())
                    action.insert(QLatin1String(key), value);
            }
            // typeText's delivery path (menuPick's `path` is the menu path it was asked for).
            if (const QJsonValue path = result->value(QStringLiteral("path")); path.isString())
                action.insert(QStringLiteral("path"), path);
        } else {
            action.insert(QStringLiteral("error"), Automation::errorCodeName(result.error().code));
            action.insert(QStringLiteral("retryable"), result.error().retryable);
        }
        extra.insert(QStringLiteral("action"), action);
    }
    if (!extra.isEmpty())
        record.amendEnv(extra);
}

MethodJob observe(ObserveParams params)
{
    const Ops::ObserveRequest request{params.route, params.includeScreenshot, params.includeAxTree, params.bounds};
    const Ops::ModelSizing sizing{params.maxWidth, params.maxPixels};
    return [request, sizing](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto observed = Ops::observe(ctx, request);
        if (!observed)
            return observed.error();
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("routeResolved"), observed->route.toJson());
        QJsonObject ev;
        if (observed->snapshot) {
            result.insert(QStringLiteral("axTree"), observed->snapshot->metadataJson());
            if (!observed->snapshot->snapshotId.isEmpty())
                result.insert(QStringLiteral("snapshotId"), observed->snapshot->snapshotId);
            ev.insert(QStringLiteral("axPath"), Evidence::Layout::axTreeFile());
        }
        if (observed->screenshot) {
            ev.insert(QStringLiteral("screenshotPath"), Evidence::Layout::observeScreenshot());
            if (sizing.maxWidth || sizing.maxPixels) {
                // observe.png keeps every pixel; a copy sized for a model's eyes is beside it.
                QImage full;
                if (!full.loadFromData(observed->screenshot->png, "PNG"))
                    return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be decoded"));
                double scale = 1.0;
                const QImage sized = Ops::sizedForModel(full, sizing, &scale);
                QString path = Evidence::Layout::observeScreenshot();
                if (scale < 1.0) {
                    path = Evidence::Layout::observeSizedScreenshot();
                    if (auto err = record.writeArtifact(path, PngEncoder::encode(sized)))
                        return Error::make(ErrorCode::InternalError,
                                           QStringLiteral("cannot write evidence %1: %2").arg(path, *err));
                }
                result.insert(QStringLiteral("screenshot"), QJsonObject{{QStringLiteral("width"), sized.width()},
                                                                        {QStringLiteral("height"), sized.height()},
                                                                        {QStringLiteral("scale"), scale},
                                                                        {QStringLiteral("path"), path}});
            }
        }
        result.insert(QStringLiteral("timing"), observed->timing);
        result.insert(QStringLiteral("evidence"), evidence(record, ev));
        return result;
    };
}

MethodJob find(FindParams params)
{
    const Ops::FindRequest request{params.route,   params.selector, params.selectorJson, params.includeText,
                                   params.refresh, params.maxDepth, params.maxNodes,     params.maxWallTimeMs};
    const bool includeStates = params.includeStates;
    return [request, includeStates](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto found = Ops::find(ctx, request);
        if (!found)
            return found.error();
        QJsonArray refs;
        for (int i = 0; i < found->candidates.size() && i < request.selector.limit; ++i) {
            const Node& node = found->snapshot.nodes.at(found->candidates.at(i).nodeIndex);
            QJsonObject ref = refJson(node);
            // Asked for: what an agent would otherwise read from ax.json. Never of a secure element.
            if (request.includeText)
                ref.insert(QStringLiteral("text"),
                           node.isSecure() || !node.hasValue ? QJsonValue() : QJsonValue(node.value));
            if (includeStates)
                ref.insert(QStringLiteral("states"), QJsonObject{{QStringLiteral("enabled"), node.has(StateEnabled)},
                                                                 {QStringLiteral("focused"), node.has(StateFocused)},
                                                                 {QStringLiteral("checked"), node.has(StateChecked)},
                                                                 {QStringLiteral("selected"), node.has(StateSelected)},
                                                                 {QStringLiteral("expanded"), node.has(StateExpanded)},
                                                                 {QStringLiteral("secure"), node.isSecure()}});
            refs.append(ref);
        }
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("elementRefs"), refs);
        result.insert(QStringLiteral("matched"), static_cast<int>(found->candidates.size()));
        result.insert(QStringLiteral("routeResolved"), found->route.toJson());
        if (!found->snapshot.snapshotId.isEmpty())
            result.insert(QStringLiteral("snapshotId"), found->snapshot.snapshotId);
        result.insert(QStringLiteral("truncated"), found->snapshot.truncated);
        if (found->snapshot.truncated) {
            // What was not searched, and why: an agent must not read "matched: 0" as "not there".
            result.insert(QStringLiteral("truncatedReason"), found->snapshot.truncatedReason);
            if (found->snapshot.truncatedReason == QLatin1String("web_content_hidden")) {
                result.insert(QStringLiteral("reason"), found->snapshot.truncatedReason);
                result.insert(QStringLiteral("hint"),
                              QStringLiteral("the browser shows its page to no assistive technology: start it with "
                                             "--force-renderer-accessibility, or turn accessibility on for the "
                                             "session (see msgcode-desktopctl doctor)"));
            }
            const QJsonArray omitted = found->snapshot.omittedJson();
            if (!omitted.isEmpty())
                result.insert(QStringLiteral("omitted"), omitted);
        }
        result.insert(
            QStringLiteral("evidence"),
            evidence(record, QJsonObject{{QStringLiteral("axPath"), Evidence::Layout::axTreeFile()},
                                         {QStringLiteral("candidatesPath"), Evidence::Layout::candidatesFile()}}));
        return result;
    };
}

MethodJob click(ClickParams params)
{
    const Ops::ClickRequest request{params.route, targetSpec(params.target), params.allowCoordinateFallback,
                                    params.delivery};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto clicked = Ops::click(ctx, request);
        if (!clicked)
            return clicked.error();
        const auto screenshotName = [](const QString& name) {
            return name.isEmpty() ? QJsonValue() : QJsonValue(name);
        };
        QJsonObject result = baseResult(record);
        const Verification& verification = clicked->outcome.verification;
        result.insert(QStringLiteral("clicked"), effectCountsAsDone(verification.effect));
        result.insert(QStringLiteral("deliveredBy"), clicked->outcome.deliveredBy);
        result.insert(QStringLiteral("verified"), verification.effect == Effect::Confirmed);
        insertVerification(result, verification);
        result.insert(QStringLiteral("target"), refJson(clicked->target.node));
        result.insert(QStringLiteral("targetResolvedVia"), clicked->target.via);
        result.insert(QStringLiteral("routeResolved"), clicked->route.toJson());
        result.insert(
            QStringLiteral("evidence"),
            evidence(record, QJsonObject{{QStringLiteral("beforeScreenshot"), screenshotName(clicked->beforeImage)},
                                         {QStringLiteral("afterScreenshot"), screenshotName(clicked->afterImage)}}));
        return result;
    };
}

MethodJob typeText(TypeTextParams params)
{
    const Ops::TypeRequest request = typeRequest(params);
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto typed = Ops::typeText(ctx, request);
        if (!typed)
            return typed.error();
        const TypeOutcome& outcome = typed->outcome;
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("typed"), effectCountsAsDone(outcome.verification.effect));
        insertVerification(result, outcome.verification);
        result.insert(QStringLiteral("path"), outcome.path);
        result.insert(QStringLiteral("readBack"), outcome.readBack);
        result.insert(QStringLiteral("matched"), outcome.matched ? QJsonValue(*outcome.matched) : QJsonValue());
        result.insert(QStringLiteral("text"), typed->textInfo);
        if (!outcome.details.isEmpty())
            result.insert(QStringLiteral("delivery"), outcome.details);
        if (typed->target) {
            result.insert(QStringLiteral("target"), refJson(typed->target->node));
            result.insert(QStringLiteral("targetResolvedVia"), typed->target->via);
        }
        result.insert(QStringLiteral("routeResolved"), typed->route.toJson());
        result.insert(QStringLiteral("evidence"), evidence(record));
        return result;
    };
}

MethodJob hotkey(HotkeyParams params)
{
    const Ops::HotkeyRequest request{params.route, params.chord, params.delayMs};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto sent = Ops::hotkey(ctx, request);
        if (!sent)
            return sent.error();
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("sent"), effectCountsAsDone(sent->outcome.verification.effect));
        insertVerification(result, sent->outcome.verification);
        result.insert(QStringLiteral("keys"), QJsonArray::fromStringList(request.chord.names()));
        result.insert(QStringLiteral("deliveredBy"), sent->outcome.deliveredBy);
        result.insert(QStringLiteral("routeResolved"), sent->route.toJson());
        result.insert(QStringLiteral("evidence"), evidence(record));
        return result;
    };
}

// The templates of imageOnScreen conditions, read from the caller's workspace: a path that
// leads out of it (.., a symlink) or to no image is refused before anything is waited for.
std::optional<Error> loadTemplates(Automation::WaitCondition& condition, const QString& workspace, const QString& field)
{
    using Kind = Automation::WaitCondition::Kind;
    for (qsizetype i = 0; i < condition.children.size(); ++i) {
        if (auto err = loadTemplates(
                condition.children[i], workspace,
                field + QStringLiteral(".%1[%2]").arg(Automation::WaitCondition::kindName(condition.kind)).arg(i)))
            return err;
    }
    if (condition.kind != Kind::ImageOnScreen)
        return std::nullopt;
    const QString where = field + QStringLiteral(".imageOnScreen.path");
    const QString root = QFileInfo(workspace).canonicalFilePath();
    const QString real = QFileInfo(QDir(root).absoluteFilePath(condition.imagePath)).canonicalFilePath();
    if (real.isEmpty() || root.isEmpty() || !real.startsWith(root + QLatin1Char('/')))
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("%1: %2 is not a file inside the workspace").arg(where, condition.imagePath),
                           QJsonObject{{QStringLiteral("field"), where},
                                       {QStringLiteral("reason"), QStringLiteral("template_outside_workspace")}})
            .withRetryable(false);
    if (!condition.image.load(real))
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("%1: %2 is not an image").arg(where, condition.imagePath),
                           QJsonObject{{QStringLiteral("field"), where},
                                       {QStringLiteral("reason"), QStringLiteral("template_unreadable")}})
            .withRetryable(false);
    return std::nullopt;
}

MethodJob waitUntil(WaitUntilParams params)
{
    const Ops::WaitRequest request{params.route, params.condition, params.pollMs, params.timeoutMs, params.refresh};
    return
        [request, ignored = params.ignored](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
            Ops::WaitRequest loaded = request;
            if (auto err = loadTemplates(loaded.condition, record.workspacePath(), QStringLiteral("condition")))
                return *err;
            auto waited = Ops::waitUntil(ctx, loaded);
            if (!waited)
                return waited.error();
            QJsonObject result = baseResult(record);
            result.insert(QStringLiteral("ok"), true);
            result.insert(QStringLiteral("matched"), static_cast<int>(waited->candidates.size()));
            result.insert(QStringLiteral("elapsedMs"), waited->elapsedMs);
            result.insert(QStringLiteral("polls"), waited->polls);
            result.insert(QStringLiteral("wake"), waited->wake);
            result.insert(QStringLiteral("conditions"), waited->conditions);
            if (!ignored.isEmpty())
                result.insert(QStringLiteral("ignored"), ignored);
            QJsonObject ev;
            if (waited->snapshot)
                ev.insert(QStringLiteral("axPath"), Evidence::Layout::axTreeFile());
            result.insert(QStringLiteral("evidence"), evidence(record, ev));
            return result;
        };
}

MethodJob dumpTree(DumpTreeParams params)
{
    const Ops::DumpTreeRequest request{params.route, params.bounds};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto dumped = Ops::dumpTree(ctx, request);
        if (!dumped)
            return dumped.error();
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("routeResolved"), dumped->route.toJson());
        result.insert(QStringLiteral("tree"), dumped->snapshot.toJson());
        result.insert(QStringLiteral("evidence"),
                      evidence(record, QJsonObject{{QStringLiteral("axPath"), Evidence::Layout::axTreeFile()}}));
        return result;
    };
}

MethodJob capture(CaptureParams params)
{
    const Ops::CaptureRequest request{params.route, params.rect, Ops::ModelSizing{params.maxWidth, params.maxPixels}};
    const bool inlinePng = params.inlinePng;
    return [request, inlinePng](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto captured = Ops::capture(ctx, request);
        if (!captured)
            return captured.error();
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("source"), captured->source);
        result.insert(QStringLiteral("frame"), captured->frame.toJson());
        result.insert(QStringLiteral("display"), captured->display.toJson());
        result.insert(QStringLiteral("takenAt"), captured->takenAt.toString(Qt::ISODateWithMs));
        result.insert(QStringLiteral("bytes"), static_cast<qint64>(captured->png.size()));
        if (captured->route)
            result.insert(QStringLiteral("routeResolved"), captured->route->toJson());
        if (captured->ofDisplay)
            result.insert(QStringLiteral("displayId"), captured->ofDisplay->id);
        result.insert(QStringLiteral("image"), QJsonObject{{QStringLiteral("width"), captured->answeredSize.width()},
                                                           {QStringLiteral("height"), captured->answeredSize.height()},
                                                           {QStringLiteral("scale"), captured->scale}});
        if (inlinePng)
            result.insert(QStringLiteral("pngBase64"), QString::fromLatin1(captured->answeredPng.toBase64()));
        result.insert(QStringLiteral("evidence"), evidence(record, QJsonObject{{QStringLiteral("screenshotPath"),
                                                                                Evidence::Layout::captureFile()}}));
        return result;
    };
}

MethodJob ocr(OcrParams params)
{
    Ops::OcrRequest request;
    request.route = params.route;
    request.rect = params.rect;
    request.languages = params.languages;
    request.minConfidence = params.minConfidence / 100.0;
    request.redaction = Ops::redactionFromName(params.redactionMode).value_or(Ops::Redaction::Patterns);
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto read = Ops::ocr(ctx, request);
        if (!read)
            return read.error();
        QJsonArray words;
        for (const Ops::OcrText& word : std::as_const(read->words))
            words.append(Ops::ocrTextJson(word, request.redaction));
        QJsonArray lines;
        for (const Ops::OcrText& line : std::as_const(read->lines)) {
            QJsonObject entry = Ops::ocrTextJson(line, request.redaction);
            QJsonArray indexes;
            for (int index : line.words)
                indexes.append(index);
            entry.insert(QStringLiteral("words"), indexes);
            lines.append(entry);
        }
        QJsonObject capture{
            {QStringLiteral("captureId"), read->captureId},
            {QStringLiteral("source"), read->source},
            {QStringLiteral("frame"), read->frame.toJson()},
            {QStringLiteral("display"), read->display.toJson()},
            {QStringLiteral("takenAt"), read->takenAt.toString(Qt::ISODateWithMs)},
            {QStringLiteral("occlusion"), read->occlusion},
            {QStringLiteral("covered"), read->covered},
            {QStringLiteral("secureFields"), QJsonObject{{QStringLiteral("check"), read->secureCheck},
                                                         {QStringLiteral("blanked"), read->secureBlanked}}}};
        if (read->route)
            capture.insert(QStringLiteral("window"), QJsonObject{{QStringLiteral("windowId"), read->route->windowId()},
                                                                 {QStringLiteral("title"), read->route->windowTitle},
                                                                 {QStringLiteral("pid"), read->route->pid}});
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("words"), words);
        result.insert(QStringLiteral("lines"), lines);
        result.insert(QStringLiteral("redactionMode"), Ops::redactionName(request.redaction));
        result.insert(QStringLiteral("capture"), capture);
        result.insert(QStringLiteral("engine"), read->engine);
        result.insert(QStringLiteral("timing"), QJsonObject{{QStringLiteral("captureMs"), read->captureMs},
                                                            {QStringLiteral("recognizeMs"), read->recognizeMs},
                                                            {QStringLiteral("regions"), read->regions},
                                                            {QStringLiteral("regionsCached"), read->regionsCached}});
        if (read->route)
            result.insert(QStringLiteral("routeResolved"), read->route->toJson());
        QJsonObject ev{{QStringLiteral("ocrPath"), Evidence::Layout::ocrFile()}};
        if (!read->png.isEmpty())
            ev.insert(QStringLiteral("screenshotPath"), Evidence::Layout::ocrScreenshot());
        result.insert(QStringLiteral("evidence"), evidence(record, ev));
        return result;
    };
}

MethodJob ground(GroundParams params)
{
    const Ops::GroundRequest request{params.route, params.rect, params.description};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto found = Ops::ground(ctx, request);
        if (!found)
            return found.error();
        const Ops::CaptureResult& shown = found->capture;
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("x"), found->point.x());
        result.insert(QStringLiteral("y"), found->point.y());
        result.insert(QStringLiteral("confidence"),
                      found->guess.confidence ? QJsonValue(*found->guess.confidence) : QJsonValue());
        result.insert(QStringLiteral("method"), QStringLiteral("endpoint"));
        result.insert(QStringLiteral("description"), request.description);
        QJsonObject provider = found->provider;
        provider.insert(QStringLiteral("answeredBy"), found->guess.model);
        result.insert(QStringLiteral("provider"), provider);
        result.insert(
            QStringLiteral("image"),
            QJsonObject{{QStringLiteral("frame"), shown.frame.toJson()},
                        {QStringLiteral("width"), shown.answeredSize.width()},
                        {QStringLiteral("height"), shown.answeredSize.height()},
                        {QStringLiteral("scale"), shown.scale},
                        {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), found->guess.point.x()},
                                                              {QStringLiteral("y"), found->guess.point.y()}}}});
        result.insert(QStringLiteral("timing"), QJsonObject{{QStringLiteral("endpointMs"), found->guess.elapsedMs}});
        if (shown.route)
            result.insert(QStringLiteral("routeResolved"), shown.route->toJson());
        result.insert(QStringLiteral("evidence"),
                      evidence(record, QJsonObject{{QStringLiteral("screenshotPath"), QStringLiteral("ground.png")},
                                                   {QStringLiteral("groundPath"), QStringLiteral("ground.json")}}));
        return result;
    };
}

MethodJob readText(ReadTextParams params)
{
    Ops::ReadTextRequest request;
    request.route = params.route;
    request.selector = params.selector;
    request.selectorJson = params.selectorJson;
    request.limitBytes = params.limitBytes;
    request.redaction = Ops::redactionFromName(params.redactionMode).value_or(Ops::Redaction::Patterns);
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto read = Ops::readText(ctx, request);
        if (!read)
            return read.error();
        QJsonArray items;
        for (const Ops::ReadTextItem& item : read->items) {
            // The element without its value: the text is given below, redacted as asked.
            ElementRef ref = ElementRef::fromNode(item.node);
            ref.value.reset();
            QJsonObject element = ref.toJson();
            element.remove(QStringLiteral("value"));
            QJsonObject entry{{QStringLiteral("element"), element},
                              {QStringLiteral("source"), item.source},
                              {QStringLiteral("bytes"), item.bytes},
                              {QStringLiteral("truncated"), item.truncated}};
            if (item.value)
                entry.insert(QStringLiteral("value"), *item.value);
            if (request.redaction == Ops::Redaction::Hash) {
                entry.insert(QStringLiteral("sha256"), item.sha256);
            } else {
                entry.insert(QStringLiteral("text"), item.text);
                if (request.redaction == Ops::Redaction::Patterns)
                    entry.insert(QStringLiteral("redactions"), item.redactions);
            }
            items.append(entry);
        }
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("items"), items);
        result.insert(QStringLiteral("matched"), read->matched);
        result.insert(QStringLiteral("redactionMode"), Ops::redactionName(request.redaction));
        result.insert(QStringLiteral("limitBytes"), request.limitBytes);
        result.insert(QStringLiteral("returnedBytes"), read->returnedBytes);
        result.insert(QStringLiteral("truncated"), read->truncated);
        result.insert(QStringLiteral("routeResolved"), read->route.toJson());
        result.insert(
            QStringLiteral("evidence"),
            evidence(record, QJsonObject{{QStringLiteral("axPath"), Evidence::Layout::axTreeFile()},
                                         {QStringLiteral("candidatesPath"), Evidence::Layout::candidatesFile()}}));
        return result;
    };
}

MethodJob scroll(ScrollParams params)
{
    const Ops::ScrollRequest request{params.route, targetSpec(params.target), params.spec};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto scrolled = Ops::scroll(ctx, request);
        if (!scrolled)
            return scrolled.error();
        const ActionOutcome& outcome = scrolled->outcome;
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("scrolled"), effectCountsAsDone(outcome.verification.effect));
        insertVerification(result, outcome.verification);
        result.insert(QStringLiteral("deliveredBy"), outcome.deliveredBy);
        result.insert(QStringLiteral("direction"), scrollDirectionName(request.spec.direction));
        if (request.spec.direction != ScrollSpec::Direction::IntoView) {
            result.insert(QStringLiteral("amount"), request.spec.amount);
            result.insert(QStringLiteral("unit"), request.spec.pages ? QStringLiteral("page") : QStringLiteral("line"));
        }
        Node after = scrolled->target.node;
        if (scrolled->frameAfter)
            after.frame = *scrolled->frameAfter;
        result.insert(QStringLiteral("target"), ElementRef::fromNode(after).toJson());
        result.insert(QStringLiteral("targetResolvedVia"), scrolled->target.via);
        result.insert(QStringLiteral("frameAfter"),
                      scrolled->frameAfter ? QJsonValue(scrolled->frameAfter->toJson()) : QJsonValue());
        result.insert(QStringLiteral("visible"), scrolled->visibleAfter);
        for (const QString& key :
             {QStringLiteral("position"), QStringLiteral("container"), QStringLiteral("atLimit")}) {
            if (outcome.details.contains(key))
                result.insert(key, outcome.details.value(key));
        }
        result.insert(QStringLiteral("routeResolved"), scrolled->route.toJson());
        result.insert(QStringLiteral("evidence"), evidence(record));
        return result;
    };
}

MethodJob menuPick(MenuPickParams params)
{
    const Ops::MenuPickRequest request{params.route, params.path};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto picked = Ops::menuPick(ctx, request);
        if (!picked)
            return picked.error();
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("picked"), effectCountsAsDone(picked->outcome.verification.effect));
        insertVerification(result, picked->outcome.verification);
        result.insert(QStringLiteral("deliveredBy"), picked->outcome.deliveredBy);
        result.insert(QStringLiteral("path"), QJsonArray::fromStringList(request.path));
        QJsonArray items;
        for (const Node& item : picked->items)
            items.append(ElementRef::fromNode(item).toJson());
        result.insert(QStringLiteral("items"), items);
        result.insert(QStringLiteral("routeResolved"), picked->route.toJson());
        result.insert(QStringLiteral("evidence"), evidence(record));
        return result;
    };
}

MethodJob pointer(PointerParams params)
{
    Ops::PointerRequest request;
    request.route = params.route;
    if (params.target)
        request.target = targetSpec(*params.target);
    request.point = params.point;
    if (params.toTarget)
        request.toTarget = targetSpec(*params.toTarget);
    request.to = params.to;
    request.gesture = params.gesture;
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto done = Ops::pointer(ctx, request);
        if (!done)
            return done.error();
        const auto point = [](QPoint p) {
            return QJsonObject{{QStringLiteral("x"), p.x()}, {QStringLiteral("y"), p.y()}};
        };
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("performed"), effectCountsAsDone(done->outcome.verification.effect));
        insertVerification(result, done->outcome.verification);
        result.insert(QStringLiteral("deliveredBy"), done->outcome.deliveredBy);
        result.insert(QStringLiteral("gesture"), gestureName(done->gesture.kind));
        result.insert(QStringLiteral("at"), point(done->gesture.at));
        if (done->gesture.kind == PointerGesture::Kind::Drag)
            result.insert(QStringLiteral("to"), point(done->gesture.to));
        result.insert(QStringLiteral("details"), done->outcome.details);
        if (done->target) {
            result.insert(QStringLiteral("target"), ElementRef::fromNode(done->target->node).toJson());
            result.insert(QStringLiteral("targetResolvedVia"), done->target->via);
        }
        result.insert(QStringLiteral("routeResolved"), done->route.toJson());
        result.insert(QStringLiteral("evidence"),
                      evidence(record, QJsonObject{{QStringLiteral("beforeScreenshot"), QStringLiteral("before.png")},
                                                   {QStringLiteral("afterScreenshot"), QStringLiteral("after.png")}}));
        return result;
    };
}

namespace {

Ops::AppSelector selectorOf(const AppParams& params)
{
    return Ops::AppSelector{params.bundleId, params.desktopId, params.executable, params.pid};
}

/// The running app the selector names (its pid), or DESKTOP_ELEMENT_NOT_FOUND.
Result<qint64> runningPid(JobContext& ctx, const AppParams& params)
{
    if (params.pid)
        return *params.pid;
    auto apps = Ops::listApps(ctx);
    if (!apps)
        return apps.error();
    const Ops::AppSelector wanted = selectorOf(params);
    for (const Ops::RunningApp& running : apps.value()) {
        const AppIdentity& id = running.identity;
        const QString entry = wanted.desktopId.endsWith(QLatin1String(".desktop"))
                                  ? wanted.desktopId
                                  : wanted.desktopId + QStringLiteral(".desktop");
        if ((!wanted.desktopId.isEmpty() && entry.compare(id.desktopId, Qt::CaseInsensitive) == 0) ||
            (!wanted.executable.isEmpty() && wanted.executable.compare(id.executable, Qt::CaseInsensitive) == 0) ||
            (!wanted.bundleId.isEmpty() && wanted.bundleId.compare(id.bundleId, Qt::CaseInsensitive) == 0))
            return id.pid;
    }
    return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no running app with a window is the one named"),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("app_not_running")}});
}

QJsonObject quitJson(const Ops::QuitResult& quit)
{
    return QJsonObject{{QStringLiteral("pid"), quit.pid},
                       {QStringLiteral("how"), quit.how},
                       {QStringLiteral("exited"), quit.exited},
                       {QStringLiteral("waitedMs"), quit.waitedMs}};
}

} // namespace

MethodJob app(AppParams params)
{
    return [params](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("action"), params.action);
        if (params.action == QLatin1String("list")) {
            auto apps = Ops::listApps(ctx);
            if (!apps)
                return apps.error();
            QJsonArray list;
            for (const Ops::RunningApp& running : apps.value()) {
                QJsonArray windows;
                for (const WindowInfo& window : running.windows)
                    windows.append(window.toJson());
                list.append(QJsonObject{{QStringLiteral("pid"), running.identity.pid},
                                        {QStringLiteral("name"), running.identity.name},
                                        {QStringLiteral("identity"), running.identity.toJson()},
                                        {QStringLiteral("windows"), windows}});
            }
            result.insert(QStringLiteral("apps"), list);
            result.insert(QStringLiteral("count"), static_cast<int>(list.size()));
            result.insert(QStringLiteral("evidence"), evidence(record));
            return result;
        }
        if (params.action == QLatin1String("quit") || params.action == QLatin1String("relaunch")) {
            auto pid = runningPid(ctx, params);
            if (!pid)
                return pid.error();
            auto quit = Ops::quitApp(ctx, pid.value(), params.force);
            if (!quit)
                return quit.error();
            if (params.action == QLatin1String("quit")) {
                result.insert(QStringLiteral("quit"), quitJson(quit.value()));
                result.insert(QStringLiteral("exited"), quit->exited);
                insertVerification(result, quit->verification);
                result.insert(QStringLiteral("evidence"), evidence(record));
                return result;
            }
            if (!quit->exited)
                return Error::make(ErrorCode::Timeout,
                                   QStringLiteral("the app did not end, so it was not started again"),
                                   QJsonObject{{QStringLiteral("quit"), quitJson(quit.value())}})
                    .withRetryable(false);
            result.insert(QStringLiteral("quit"), quitJson(quit.value()));
        }
        AppLaunchSpec spec{params.desktopId, params.executable, params.bundleId, params.args};
        auto launched = Ops::launchApp(ctx, spec);
        if (!launched)
            return launched.error();
        result.insert(QStringLiteral("launched"), true);
        result.insert(QStringLiteral("pid"), launched->pid);
        result.insert(QStringLiteral("startedPid"), launched->start.pid);
        result.insert(QStringLiteral("window"), launched->window.toJson());
        result.insert(QStringLiteral("reusedInstance"), launched->reusedInstance);
        result.insert(QStringLiteral("launchedBy"), launched->start.launchedBy);
        if (!launched->start.desktopId.isEmpty())
            result.insert(QStringLiteral("desktopId"), launched->start.desktopId);
        Verification shown;
        shown.expected = QStringLiteral("a window of the app");
        shown.effect = Effect::Confirmed;
        shown.observed = QJsonObject{{QStringLiteral("window"), launched->window.title},
                                     {QStringLiteral("waitedMs"), launched->waitedMs}};
        insertVerification(result, shown);
        result.insert(QStringLiteral("evidence"), evidence(record));
        return result;
    };
}

MethodJob fileDialog(FileDialogParams params)
{
    const Ops::FileDialogRequest request{params.route, params.path, params.save, params.replace};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto done = Ops::fileDialog(ctx, request);
        if (!done)
            return done.error();
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("action"), request.save ? QStringLiteral("save") : QStringLiteral("open"));
        result.insert(QStringLiteral("path"), request.path);
        result.insert(QStringLiteral("dialog"), QJsonObject{{QStringLiteral("title"), done->dialog.windowTitle},
                                                            {QStringLiteral("toolkit"), done->toolkit}});
        result.insert(QStringLiteral("routeResolved"), done->dialog.toJson());
        result.insert(QStringLiteral("dialogClosed"), done->closed);
        if (request.save) {
            result.insert(QStringLiteral("savedPathVerified"), done->savedPathVerified);
            result.insert(QStringLiteral("replaced"), done->replaced);
            if (done->size >= 0)
                result.insert(QStringLiteral("size"), done->size);
        }
        result.insert(QStringLiteral("effect"), done->effect);
        result.insert(QStringLiteral("done"), done->effect == QLatin1String("confirmed"));
        result.insert(QStringLiteral("evidence"), evidence(record));
        return result;
    };
}

MethodJob clipboard(ClipboardParams params)
{
    if (params.action == QLatin1String("write")) {
        const Ops::ClipboardWriteRequest request{params.text, params.restoreAfterMs};
        return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
            auto written = Ops::writeClipboard(ctx, request);
            if (!written)
                return written.error();
            QJsonObject result = baseResult(record);
            result.insert(QStringLiteral("action"), QStringLiteral("write"));
            result.insert(QStringLiteral("written"), written->write.verified);
            result.insert(QStringLiteral("length"), static_cast<int>(request.text.size()));
            insertVerification(result, written->verification);
            const ClipboardContent& previous = written->write.previous;
            QJsonObject before{{QStringLiteral("formats"), QJsonArray::fromStringList(previous.formats)},
                               {QStringLiteral("empty"), previous.empty},
                               {QStringLiteral("concealed"), previous.concealed},
                               {QStringLiteral("restoreScheduled"), written->write.restoreScheduled}};
            if (previous.text)
                before.insert(QStringLiteral("length"), static_cast<int>(previous.text->size()));
            if (!written->write.notRestorable.isEmpty())
                before.insert(QStringLiteral("notRestorable"), written->write.notRestorable);
            result.insert(QStringLiteral("previous"), before);
            result.insert(QStringLiteral("evidence"), evidence(record));
            return result;
        };
    }
    Ops::ClipboardReadRequest request;
    request.redaction = Ops::redactionFromName(params.redactionMode).value_or(Ops::Redaction::Patterns);
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto read = Ops::readClipboard(ctx, request);
        if (!read)
            return read.error();
        const ClipboardContent& content = read->content;
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("action"), QStringLiteral("read"));
        result.insert(QStringLiteral("formats"), QJsonArray::fromStringList(content.formats));
        result.insert(QStringLiteral("concealed"), content.concealed);
        result.insert(QStringLiteral("empty"), content.empty);
        result.insert(QStringLiteral("redactionMode"), Ops::redactionName(request.redaction));
        if (content.text) {
            result.insert(QStringLiteral("length"), static_cast<int>(content.text->size()));
            if (read->text)
                result.insert(QStringLiteral("text"), *read->text);
            if (!read->sha256.isEmpty())
                result.insert(QStringLiteral("sha256"), read->sha256);
            if (request.redaction == Ops::Redaction::Patterns)
                result.insert(QStringLiteral("redactions"), read->redactions);
        }
        if (!content.imageSize.isEmpty()) {
            QJsonObject image{{QStringLiteral("width"), content.imageSize.width()},
                              {QStringLiteral("height"), content.imageSize.height()}};
            if (!read->imageKept.isEmpty())
                image.insert(QStringLiteral("path"), QDir(record.dirPath()).filePath(read->imageKept));
            result.insert(QStringLiteral("image"), image);
        }
        result.insert(QStringLiteral("evidence"), evidence(record));
        return result;
    };
}

MethodJob windows(WindowsParams params)
{
    const Ops::WindowsRequest request{params.app};
    const bool includeMinimized = params.includeMinimized;
    return [request, includeMinimized](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto listed = Ops::windows(ctx, request);
        if (!listed)
            return listed.error();
        QJsonArray windows;
        for (const WindowInfo& window : listed.value()) {
            if (includeMinimized || !window.minimized)
                windows.append(window.toJson());
        }
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("windows"), windows);
        result.insert(QStringLiteral("count"), static_cast<int>(windows.size()));
        result.insert(QStringLiteral("evidence"), evidence(record));
        return result;
    };
}

MethodJob displays(DisplaysParams)
{
    return [](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto listed = Ops::displays(ctx);
        if (!listed)
            return listed.error();
        QJsonArray displays;
        for (const DisplayInfo& display : listed.value())
            displays.append(display.toJson());
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("displays"), displays);
        result.insert(QStringLiteral("count"), static_cast<int>(displays.size()));
        result.insert(QStringLiteral("evidence"), evidence(record));
        return result;
    };
}

MethodJob window(WindowParams params)
{
    const Ops::WindowRequest request{params.route, params.command};
    return
        [request, ignored = params.ignored](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
            auto done = Ops::window(ctx, request);
            if (!done)
                return done.error();
            QJsonObject result = baseResult(record);
            result.insert(QStringLiteral("done"), effectCountsAsDone(done->outcome.verification.effect));
            insertVerification(result, done->outcome.verification);
            result.insert(QStringLiteral("action"), windowActionName(request.command.action));
            if (!ignored.isEmpty())
                result.insert(QStringLiteral("ignored"), ignored);
            result.insert(QStringLiteral("deliveredBy"), done->outcome.deliveredBy);
            result.insert(QStringLiteral("routeResolved"), done->route.toJson());
            result.insert(QStringLiteral("evidence"), evidence(record));
            return result;
        };
}

MethodJob elementAt(ElementAtParams params)
{
    const Ops::ElementAtRequest request{params.route, params.point};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto found = Ops::elementAt(ctx, request);
        if (!found)
            return found.error();
        QJsonArray ancestors;
        for (int i : found->ancestors) {
            const Node& node = found->snapshot.nodes.at(i);
            ancestors.append(QJsonObject{{QStringLiteral("role"), node.role}, {QStringLiteral("title"), node.title}});
        }
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("element"), ElementRef::fromNode(found->snapshot.nodes.at(found->index)).toJson());
        result.insert(QStringLiteral("ancestors"), ancestors);
        result.insert(QStringLiteral("point"),
                      QJsonObject{{QStringLiteral("x"), request.point.x()}, {QStringLiteral("y"), request.point.y()}});
        if (found->window)
            result.insert(QStringLiteral("window"), found->window->toJson());
        result.insert(QStringLiteral("routeResolved"), found->route.toJson());
        if (!found->snapshot.snapshotId.isEmpty())
            result.insert(QStringLiteral("snapshotId"), found->snapshot.snapshotId);
        result.insert(QStringLiteral("evidence"),
                      evidence(record, QJsonObject{{QStringLiteral("axPath"), Evidence::Layout::axTreeFile()}}));
        return result;
    };
}

} // namespace Bridge::Methods
