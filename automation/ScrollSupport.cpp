#include "automation/ScrollSupport.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QThread>

namespace Automation::ScrollSupport {

bool inside(const Frame& inner, const Frame& outer)
{
    return !inner.isEmpty() && inner.x >= outer.x && inner.y >= outer.y &&
           inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

int depthBelow(const Snapshot& snapshot, int node, int ancestor)
{
    int depth = 0;
    for (int i = node; i >= 0; i = snapshot.nodes.at(i).parent, ++depth) {
        if (i == ancestor)
            return depth;
    }
    return -1;
}

QList<Bar> barsOf(const Snapshot& snapshot, int container, const BarAxis& axis)
{
    QList<Bar> bars;
    for (int i = container + 1; i < snapshot.nodes.size(); ++i) {
        const int depth = depthBelow(snapshot, i, container);
        if (depth < 0)
            break; // past the container's subtree (document order)
        if (depth > 2 || snapshot.nodes.at(i).role != QLatin1String("AXScrollBar"))
            continue;
        if (const auto vertical = axis(i))
            bars.append(Bar{i, *vertical});
    }
    return bars;
}

std::pair<int, std::optional<Bar>> containerWithBar(const Snapshot& snapshot, int from, bool vertical,
                                                    const BarAxis& axis)
{
    for (int i = from; i >= 0; i = snapshot.nodes.at(i).parent) {
        for (const Bar& bar : barsOf(snapshot, i, axis)) {
            if (bar.vertical == vertical)
                return {i, bar};
        }
    }
    return {from, std::nullopt};
}

int viewportOf(const Snapshot& snapshot, int element, const BarAxis& axis)
{
    const int parent = snapshot.nodes.at(element).parent;
    for (const bool vertical : {true, false}) {
        if (const auto [container, bar] = containerWithBar(snapshot, parent, vertical, axis); bar)
            return container;
    }
    return 0;
}

QList<std::pair<int, Frame>> contentFrames(const Snapshot& snapshot, int container, const FrameOf& frameOf)
{
    QList<std::pair<int, Frame>> frames;
    for (int i = container + 1; i < snapshot.nodes.size() && frames.size() < 20; ++i) {
        if (depthBelow(snapshot, i, container) < 0)
            break;
        if (snapshot.nodes.at(i).role == QLatin1String("AXScrollBar"))
            continue;
        if (const auto f = frameOf(i); f && !f->isEmpty())
            frames.append({i, *f});
    }
    return frames;
}

int movedCount(const QList<std::pair<int, Frame>>& before, const FrameOf& frameOf)
{
    int count = 0;
    for (const auto& [index, frame] : before) {
        const auto now = frameOf(index);
        if (now && !(*now == frame))
            ++count;
    }
    return count;
}

bool settle(const CallContext& context, const std::function<bool()>& done, int budgetMs)
{
    QDeadlineTimer until(std::min<qint64>(budgetMs, std::max<qint64>(0, context.remainingMs() - 200)));
    while (true) {
        if (done())
            return true;
        if (until.hasExpired() || context.checkpoint())
            return false;
        QThread::msleep(25);
    }
}

Result<bool> wheelIntoView(const CallContext& context, int most, int waitMs, const QString& countName,
                           const std::function<std::optional<Error>(const Frame& now)>& turn,
                           const std::function<std::optional<Frame>()>& frame,
                           const std::function<bool(const std::optional<Frame>&)>& inView, std::optional<Frame>& now,
                           Verification& v, QJsonArray& paths)
{
    int steps = 0;
    int still = 0;
    bool shown = false;
    QElapsedTimer verifyTimer;
    while (now && steps < most && still < 3 && !shown) {
        if (auto err = turn(*now))
            return *err;
        ++steps;
        const Frame was = *now;
        verifyTimer.start();
        settle(
            context, [&] { return now = frame(), now && !(*now == was); }, waitMs);
        v.verifyMs += verifyTimer.elapsed();
        if (!now)
            break;
        still = *now == was ? still + 1 : 0;
        shown = inView(now);
    }
    paths.append(QJsonObject{
        {QStringLiteral("path"), QStringLiteral("wheel")}, {countName, steps}, {QStringLiteral("inView"), shown}});
    return shown;
}

Result<std::optional<ActionOutcome>> intoViewStart(ActionOutcome& out, const std::optional<Frame>& before,
                                                   const std::optional<Frame>& viewport)
{
    if (!before || before->isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element has no frame to bring into view"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_frame")}});
    out.verification.expected = QStringLiteral("the element's frame inside its viewport");
    out.details.insert(QStringLiteral("frameBefore"), before->toJson());
    if (viewport)
        out.details.insert(QStringLiteral("viewport"), viewport->toJson());
    if (!viewport || !inside(*before, *viewport))
        return std::optional<ActionOutcome>();
    ActionOutcome done = out;
    done.deliveredBy = QStringLiteral("none");
    done.verification.effect = Effect::Confirmed;
    done.verification.reason = QStringLiteral("the element was already in view");
    done.details.insert(QStringLiteral("frameAfter"), before->toJson());
    done.details.insert(QStringLiteral("inView"), true);
    done.verified = true;
    return std::optional<ActionOutcome>(done);
}

void intoViewEnd(ActionOutcome& out, const QJsonArray& paths, const Frame& before, const std::optional<Frame>& now,
                 bool inView)
{
    Verification& v = out.verification;
    v.paths = paths;
    if (now)
        out.details.insert(QStringLiteral("frameAfter"), now->toJson());
    out.details.insert(QStringLiteral("inView"), inView);
    if (!out.deliveredBy.isEmpty() && now) {
        v.effect = Effect::Confirmed;
        v.observed = QJsonObject{{QStringLiteral("frameAfter"), now->toJson()}};
    } else {
        out.deliveredBy =
            paths.isEmpty() ? QStringLiteral("none") : paths.last().toObject().value(QStringLiteral("path")).toString();
        const bool anyMove = now && !(*now == before);
        v.effect = anyMove ? Effect::Partial : Effect::SuspectedNoop;
        v.reason = anyMove ? QStringLiteral("the element moved but is not wholly inside its viewport")
                           : QStringLiteral("nothing brought the element into view");
    }
    out.verified = v.effect == Effect::Confirmed;
}

Result<Container> directionStart(ActionOutcome& out, const Snapshot& snapshot, int element, const ScrollSpec& spec,
                                 const BarAxis& axis, const FrameOf& frameOf)
{
    Container c;
    const bool vertical = spec.vertical();
    std::tie(c.index, c.bar) = containerWithBar(snapshot, element, vertical, axis);
    const std::optional<Frame> frame = frameOf(c.index);
    if (!frame || frame->isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the container has no frame on screen"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_frame")}});
    c.frame = *frame;
    c.extent = vertical ? frame->height : frame->width;
    c.towards = scrollDirectionName(spec.direction);
    out.details.insert(QStringLiteral("container"), containerJson(snapshot.nodes.at(c.index), c.frame));
    out.verification.expected = QStringLiteral("the content moves %1").arg(c.towards);
    return c;
}

void atLimit(ActionOutcome& out, const QJsonObject& position, const QString& towards)
{
    out.details.insert(QStringLiteral("position"), position);
    out.details.insert(QStringLiteral("atLimit"), true);
    out.deliveredBy = QStringLiteral("none");
    out.verification.effect = Effect::SuspectedNoop;
    out.verification.reason = QStringLiteral("the content is already at its %1 end").arg(towards);
    out.verification.observed = position;
    out.verified = false;
}

void wheelEnd(ActionOutcome& out, int moved, int sampled, bool barMoved, bool hasBar, const QString& towards)
{
    Verification& v = out.verification;
    out.deliveredBy = QStringLiteral("wheel");
    v.observed = QJsonObject{{QStringLiteral("contentMoved"), moved}, {QStringLiteral("sampled"), sampled}};
    if (moved > 0 || barMoved) {
        v.effect = Effect::Confirmed;
    } else if (sampled == 0 && !hasBar) {
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the container shows nothing whose frame could move, and has no scroll bar");
    } else {
        v.effect = Effect::SuspectedNoop;
        v.reason = QStringLiteral("nothing in the container moved (it may be at its %1 end)").arg(towards);
    }
    out.verified = v.effect == Effect::Confirmed;
}

void noteFrameAfter(ActionOutcome& out, const std::optional<Frame>& after, bool isContainer,
                    const Frame& containerFrame)
{
    if (!after)
        return;
    out.details.insert(QStringLiteral("frameAfter"), after->toJson());
    out.details.insert(QStringLiteral("inView"), isContainer ? !after->isEmpty() : inside(*after, containerFrame));
}

QJsonObject containerJson(const Node& container, const Frame& frame)
{
    return QJsonObject{{QStringLiteral("role"), container.role},
                       {QStringLiteral("title"), container.title},
                       {QStringLiteral("frame"), frame.toJson()}};
}

} // namespace Automation::ScrollSupport
