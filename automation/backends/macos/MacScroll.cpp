// desktop.scroll on macOS (docs/protocol.md §5.16, docs/macos.md "Scrolling"): an element into
// view through AXScrollToVisible, else the wheel; a container by a direction through the wheel,
// judged by its scroll bar's AXValue and its content's frames.
#include "automation/ScrollSupport.h"
#include "automation/backends/macos/MacBackendPrivate.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QThread>

#include <cmath>

namespace Automation::Mac {

namespace {

// A page is most of the viewport, so a line of context stays on screen.
constexpr double kPageFraction = 0.9;
// A scroll bar's AXValue runs from 0 (top, left) to 1 (bottom, right).
constexpr double kAtEnd = 1e-4;

} // namespace

Result<ActionOutcome> MacBackend::scroll(const ResolvedRoute& route, const Snapshot& snapshot, int element,
                                         const ScrollSpec& spec, const CallContext& context)
{
    // Reads of the elements as they are now; nullopt for one that is gone or did not answer.
    const auto currentFrame = [&](int index) -> std::optional<Frame> {
        auto frame = liveFrame(route, snapshot.nodes.at(index), context);
        return frame ? frame.value() : std::nullopt;
    };
    const auto attributeOf = [&](int index, const QString& attribute) -> std::optional<AxRead> {
        auto read = d->readNode(route.pid, snapshot.nodes.at(index), attribute, context);
        return read && read.value() && read.value()->error == AxError::Success ? read.value() : std::nullopt;
    };
    const auto numberOf = [&](int index, const QString& attribute) -> std::optional<double> {
        const auto read = attributeOf(index, attribute);
        if (!read || read->value.type != AxValue::Type::Number)
            return std::nullopt;
        return read->value.number;
    };
    const auto stringOfAttribute = [&](int index, const QString& attribute) -> QString {
        const auto read = attributeOf(index, attribute);
        return read ? stringOf(*read) : QString();
    };

    // A scroll bar's orientation: AXOrientation, else the frame's shape.
    const ScrollSupport::BarAxis axis = [&](int index) -> std::optional<bool> {
        const QString orientation = stringOfAttribute(index, QStringLiteral("AXOrientation"));
        const Frame& f = snapshot.nodes.at(index).frame;
        return orientation.isEmpty() ? f.height > f.width : orientation == QLatin1String("AXVerticalOrientation");
    };
    const auto settle = [&](const std::function<bool()>& done, int budgetMs) {
        return ScrollSupport::settle(context, done, budgetMs);
    };
    using ScrollSupport::inside;
    // The wheel over a frame's centre, the pointer moved there first (the window under the
    // pointer takes it).
    const auto wheel = [&](const Frame& over, int down, int right, bool pixels) -> std::optional<Error> {
        const QPointF at(over.center());
        if (!m_api->moveMouse(at) || !m_api->postScroll(at, down, right, pixels)) {
            if (auto stop = context.checkpoint())
                return stop->withRetryable(false);
            return Error::make(ErrorCode::InternalError, QStringLiteral("the scroll-wheel event could not be created"),
                               QJsonObject{{QStringLiteral("mayHaveHadEffect"), true}})
                .withRetryable(false);
        }
        return std::nullopt;
    };

    ActionOutcome out;
    Verification& v = out.verification;
    QElapsedTimer verifyTimer;
    QJsonArray paths;

    if (spec.direction == ScrollSpec::Direction::IntoView) {
        const auto before = currentFrame(element);
        const std::optional<Frame> viewport = currentFrame(ScrollSupport::viewportOf(snapshot, element, axis));
        const auto inView = [&](const std::optional<Frame>& f) { return f && viewport && inside(*f, *viewport); };
        auto started = ScrollSupport::intoViewStart(out, before, viewport);
        if (!started)
            return started.error();
        if (started.value())
            return *started.value();
        std::optional<Frame> now = before;
        // 1. AXScrollToVisible, where the element offers it.
        if (const auto e = d->element(snapshot.nodes.at(element).handle)) {
            QStringList actions;
            if (m_api->actionNames(*e, &actions) == AxError::Success &&
                actions.contains(QLatin1String("AXScrollToVisible"))) {
                const AxError done = m_api->performAction(*e, QStringLiteral("AXScrollToVisible"));
                if (done == AxError::CannotComplete)
                    return d->unresponsive(route.pid, QStringLiteral("to AXScrollToVisible")).withRetryable(false);
                const bool accepted = done == AxError::Success;
                verifyTimer.start();
                const bool shown = accepted && settle([&] { return now = currentFrame(element), inView(now); }, 800);
                v.verifyMs += verifyTimer.elapsed();
                paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("scrollTo")},
                                         {QStringLiteral("accepted"), accepted},
                                         {QStringLiteral("inView"), shown}});
                if (shown)
                    out.deliveredBy = QStringLiteral("accessibility:scrollTo");
            }
        }
        // 2. The wheel over the viewport, in points, by the distance past its edge.
        if (out.deliveredBy.isEmpty() && viewport && now) {
            const auto shown = ScrollSupport::wheelIntoView(
                context, 10, 300, QStringLiteral("events"),
                [&](const Frame& at) {
                    int down = 0;
                    int right = 0;
                    if (at.y < viewport->y)
                        down = at.y - viewport->y - 8;
                    else if (at.y + at.height > viewport->y + viewport->height)
                        down =
                            std::min(at.y - viewport->y - 8, at.y + at.height - (viewport->y + viewport->height) + 8);
                    else if (at.x < viewport->x)
                        right = at.x - viewport->x - 8;
                    else
                        right = at.x + at.width - (viewport->x + viewport->width) + 8;
                    return wheel(*viewport, std::clamp(down, -4000, 4000), std::clamp(right, -4000, 4000), true);
                },
                [&] { return currentFrame(element); }, inView, now, v, paths);
            if (!shown)
                return shown.error();
            if (shown.value())
                out.deliveredBy = QStringLiteral("wheel");
        }
        ScrollSupport::intoViewEnd(out, paths, *before, now, inView(now));
        return out;
    }

    // A direction: the wheel over the container, judged by its bar and its content.
    auto started = ScrollSupport::directionStart(out, snapshot, element, spec, axis, currentFrame);
    if (!started)
        return started.error();
    const bool vertical = spec.vertical();
    const int container = started->index;
    const std::optional<ScrollSupport::Bar> bar = started->bar;
    const Frame containerFrame = started->frame;
    const int extent = started->extent;
    const QString towards = started->towards;
    // Where the element is now, and whether it is inside the container (the element itself
    // when it is the container: then it is in view when it is on screen).
    const auto noteFrameAfter = [&] {
        ScrollSupport::noteFrameAfter(out, currentFrame(element), container == element, containerFrame);
    };
    const std::optional<double> barBefore = bar ? numberOf(bar->index, QStringLiteral("AXValue")) : std::nullopt;
    if (barBefore && ((spec.sign() < 0 && *barBefore <= kAtEnd) || (spec.sign() > 0 && *barBefore >= 1 - kAtEnd))) {
        // Already at the end it was asked to go towards: nothing to do, nothing done.
        const QJsonObject position{{QStringLiteral("before"), *barBefore},
                                   {QStringLiteral("after"), *barBefore},
                                   {QStringLiteral("minimum"), 0},
                                   {QStringLiteral("maximum"), 1}};
        ScrollSupport::atLimit(out, position, towards);
        noteFrameAfter();
        return out;
    }
    // Lines as lines; a page as most of the container's extent, in points.
    const bool pixels = spec.pages;
    const int units =
        spec.sign() *
        (spec.pages ? spec.amount * std::max(1, static_cast<int>(std::lround(extent * kPageFraction))) : spec.amount);
    const auto frames = ScrollSupport::contentFrames(snapshot, container, currentFrame);
    if (auto err = wheel(containerFrame, vertical ? units : 0, vertical ? 0 : units, pixels))
        return *err;
    int movedCount = 0;
    std::optional<double> barAfter = barBefore;
    const auto barMoved = [&] { return barBefore && barAfter && std::abs(*barAfter - *barBefore) > 1e-9; };
    verifyTimer.start();
    settle(
        [&] {
            movedCount = ScrollSupport::movedCount(frames, currentFrame);
            if (bar)
                barAfter = numberOf(bar->index, QStringLiteral("AXValue"));
            return movedCount > 0 || barMoved();
        },
        800);
    v.verifyMs += verifyTimer.elapsed();
    paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("wheel")},
                             {QStringLiteral("units"), units},
                             {QStringLiteral("unit"), pixels ? QStringLiteral("point") : QStringLiteral("line")},
                             {QStringLiteral("contentMoved"), movedCount},
                             {QStringLiteral("sampled"), static_cast<int>(frames.size())}});
    v.paths = paths;
    if (barBefore && barAfter)
        out.details.insert(QStringLiteral("position"),
                           QJsonObject{{QStringLiteral("before"), *barBefore}, {QStringLiteral("after"), *barAfter}});
    ScrollSupport::wheelEnd(out, movedCount, static_cast<int>(frames.size()), barMoved(), bar.has_value(), towards);
    noteFrameAfter();
    return out;
}

} // namespace Automation::Mac
