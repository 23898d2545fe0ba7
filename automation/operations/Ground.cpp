// desktop.ground: a description pointed at by the owner's own vision model (docs/protocol.md §5.27).
#include "automation/Operations.h"

#include <QJsonDocument>

#include <cmath>

namespace Automation::Operations {

Result<GroundResult> ground(JobContext& ctx, const GroundRequest& request)
{
    if (!ctx.grounder)
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("no vision provider is configured in this host: the owner sets a "
                                          "grounding endpoint in Settings"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_vision_provider")}})
            .withRetryable(false);
    GroundResult out;
    out.provider = ctx.grounder->describe();
    // What the model is shown: the area, at most ghost-os's 1280 pixels across.
    CaptureRequest shown;
    shown.route = request.route;
    shown.rect = request.rect;
    shown.sizing.maxWidth = 1280;
    auto captured = capture(ctx, shown);
    if (!captured)
        return captured.error();
    out.capture = std::move(captured.value());
    if (auto err = ctx.trace.keepImage(QStringLiteral("ground.png"), out.capture.answeredPng))
        return *err;
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    TraceStep step(ctx.trace, QStringLiteral("ground.endpoint"));
    auto guess = ctx.grounder->locate(out.capture.answeredPng, out.capture.answeredSize, request.description, ctx.call);
    if (!guess) {
        step.finish(false, guess.error().toJson());
        return guess.error();
    }
    out.guess = std::move(guess.value());
    const QSize size = out.capture.answeredSize;
    const QPointF at = out.guess.point;
    const QJsonObject kept{
        {QStringLiteral("provider"), out.provider},
        {QStringLiteral("image"), QJsonObject{{QStringLiteral("width"), size.width()},
                                              {QStringLiteral("height"), size.height()},
                                              {QStringLiteral("scale"), out.capture.scale}}},
        {QStringLiteral("answer"), out.guess.answer},
        {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), at.x()}, {QStringLiteral("y"), at.y()}}},
        {QStringLiteral("elapsedMs"), out.guess.elapsedMs}};
    if (auto err =
            ctx.trace.keepJson(QStringLiteral("ground.json"), QJsonDocument(kept).toJson(QJsonDocument::Indented)))
        return *err;
    if (at.x() < 0 || at.y() < 0 || at.x() >= size.width() || at.y() >= size.height()) {
        step.finish(false, kept);
        return Error::make(ErrorCode::TargetUnresponsive,
                           QStringLiteral("the grounding endpoint pointed at %1,%2, outside the %3x%4 image it was "
                                          "shown")
                               .arg(at.x())
                               .arg(at.y())
                               .arg(size.width())
                               .arg(size.height()),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("outside_image")},
                                       {QStringLiteral("answer"), out.guess.answer}})
            .withRetryable(false);
    }
    step.finish(true, kept);
    // Back to screen points: the area's corner plus the image point over the scale.
    const Frame& area = out.capture.frame;
    out.point = QPoint(area.x + static_cast<int>(std::floor(at.x() / out.capture.scale)),
                       area.y + static_cast<int>(std::floor(at.y() / out.capture.scale)));
    return out;
}

} // namespace Automation::Operations
