#include "bridge/Methods.h"

#include "bridge/evidence/EvidenceLayout.h"

#include <QJsonArray>

namespace Bridge::Methods {

using namespace Automation;
namespace Ops = Automation::Operations;

namespace {

QJsonObject evidence(const Evidence::ExecutionRecord& record, QJsonObject extra = {})
{
    extra.insert(QStringLiteral("dir"), record.dirPath());
    return extra;
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
        target.elementRef = ElementRefSpec{params.elementRef->elementId, params.elementRef->fingerprint};
    target.selector = params.selector;
    target.selectorJson = params.selectorJson;
    return target;
}

} // namespace

Ops::TypeRequest typeRequest(const TypeTextParams& params)
{
    Ops::TypeRequest request;
    request.route = params.route;
    if (params.target)
        request.target = targetSpec(*params.target);
    request.text = params.text;
    request.clearBefore = params.clearBefore;
    return request;
}

MethodJob observe(ObserveParams params)
{
    const Ops::ObserveRequest request{params.route, params.includeScreenshot, params.includeAxTree, params.bounds};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto observed = Ops::observe(ctx, request);
        if (!observed)
            return observed.error();
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("routeResolved"), observed->route.toJson());
        QJsonObject ev;
        if (observed->snapshot) {
            result.insert(QStringLiteral("axTree"), observed->snapshot->metadataJson());
            ev.insert(QStringLiteral("axPath"), Evidence::Layout::axTreeFile());
        }
        if (observed->screenshot)
            ev.insert(QStringLiteral("screenshotPath"), Evidence::Layout::observeScreenshot());
        result.insert(QStringLiteral("timing"), observed->timing);
        result.insert(QStringLiteral("evidence"), evidence(record, ev));
        return result;
    };
}

MethodJob find(FindParams params)
{
    const Ops::FindRequest request{params.route, params.selector, params.selectorJson};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto found = Ops::find(ctx, request);
        if (!found)
            return found.error();
        QJsonArray refs;
        for (int i = 0; i < found->candidates.size() && i < request.selector.limit; ++i)
            refs.append(ElementRef::fromNode(found->snapshot.nodes.at(found->candidates.at(i).nodeIndex)).toJson());
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("elementRefs"), refs);
        result.insert(QStringLiteral("matched"), static_cast<int>(found->candidates.size()));
        result.insert(QStringLiteral("routeResolved"), found->route.toJson());
        result.insert(QStringLiteral("truncated"), found->snapshot.truncated);
        result.insert(
            QStringLiteral("evidence"),
            evidence(record, QJsonObject{{QStringLiteral("axPath"), Evidence::Layout::axTreeFile()},
                                         {QStringLiteral("candidatesPath"), Evidence::Layout::candidatesFile()}}));
        return result;
    };
}

MethodJob click(ClickParams params)
{
    const Ops::ClickRequest request{params.route, targetSpec(params.target), params.allowCoordinateFallback};
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
        result.insert(QStringLiteral("target"), ElementRef::fromNode(clicked->target.node).toJson());
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
            result.insert(QStringLiteral("target"), ElementRef::fromNode(typed->target->node).toJson());
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

MethodJob waitUntil(WaitUntilParams params)
{
    const Ops::WaitRequest request{params.route, params.selector, params.selectorJson, params.pollMs, params.timeoutMs};
    return [request](JobContext& ctx, Evidence::ExecutionRecord& record) -> Result<QJsonObject> {
        auto waited = Ops::waitUntil(ctx, request);
        if (!waited)
            return waited.error();
        QJsonObject result = baseResult(record);
        result.insert(QStringLiteral("ok"), true);
        result.insert(QStringLiteral("matched"), static_cast<int>(waited->candidates.size()));
        result.insert(QStringLiteral("elapsedMs"), waited->elapsedMs);
        result.insert(QStringLiteral("polls"), waited->polls);
        result.insert(QStringLiteral("evidence"),
                      evidence(record, QJsonObject{{QStringLiteral("axPath"), Evidence::Layout::axTreeFile()}}));
        return result;
    };
}

} // namespace Bridge::Methods
