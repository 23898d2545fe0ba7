#include "automation/backends/atspi/AtspiScroll.h"

#include "automation/ScrollSupport.h"

#include "automation/backends/atspi/AtspiApps.h"
#include "automation/backends/atspi/X11Session.h"

#include <QDBusVariant>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QThread>

#include <cmath>

namespace Automation {

using Atspi::firstArgument;
using Atspi::Interface;
using Atspi::Ref;
using Atspi::unwrap;

namespace {

// AT-SPI's ScrollType: ANYWHERE lets the toolkit scroll as little as it needs.
constexpr quint32 kScrollAnywhere = 6;
// What one wheel notch scrolls in GTK and Qt: three lines.
constexpr int kLinesPerNotch = 3;
// Pixels of a notch where nothing says: three lines of about 20 px.
constexpr int kPixelsPerNotch = 60;
// A page is most of the viewport, so a line of context stays on screen.
constexpr double kPageFraction = 0.9;

int wheelButton(ScrollSpec::Direction direction)
{
    switch (direction) {
    case ScrollSpec::Direction::Up:
        return 4;
    case ScrollSpec::Direction::Down:
        return 5;
    case ScrollSpec::Direction::Left:
        return 6;
    case ScrollSpec::Direction::Right:
        return 7;
    case ScrollSpec::Direction::IntoView:
        break;
    }
    return 0;
}

} // namespace

Result<ActionOutcome> AtspiScroll::scroll(const ResolvedRoute& route, const Snapshot& snapshot, int element,
                                          const ScrollSpec& spec, const CallContext& context)
{
    const Atspi::App app = m_apps.appOf(route, context);
    // Frames in screen coordinates: a toolkit that reports them relative to its window (GTK 4)
    // gets the window's position added.
    std::optional<QPoint> origin;
    if (app.windowRelativeExtents())
        origin = m_x11.contentOrigin(m_x11.findWindow(route.pid, route.windowTitle));
    const auto refOf = [&](int index) { return Ref::fromHandle(snapshot.nodes.at(index).handle); };
    const auto frameOf = [&](int index) -> std::optional<Frame> {
        auto call = m_bus.send(refOf(index), Interface::Component, QStringLiteral("GetExtents"), {0u},
                               m_bus.callTimeout(context));
        call.waitForFinished();
        if (call.isError())
            return std::nullopt;
        Frame f = Atspi::extents(firstArgument(call));
        if (origin) {
            f.x += origin->x();
            f.y += origin->y();
        }
        return f;
    };
    const auto valueOf = [&](int index, const QString& property) -> std::optional<double> {
        auto call = m_bus.send(refOf(index), Interface::Properties, QStringLiteral("Get"),
                               {QStringLiteral("org.a11y.atspi.Value"), property}, m_bus.callTimeout(context));
        call.waitForFinished();
        if (call.isError())
            return std::nullopt;
        bool ok = false;
        const double v = unwrap(firstArgument(call)).toDouble(&ok);
        return ok ? std::optional<double>(v) : std::nullopt;
    };
    const auto setValue = [&](int index, double value) {
        auto call = m_bus.send(refOf(index), Interface::Properties, QStringLiteral("Set"),
                               {QStringLiteral("org.a11y.atspi.Value"), QStringLiteral("CurrentValue"),
                                QVariant::fromValue(QDBusVariant(value))},
                               m_bus.callTimeout(context));
        call.waitForFinished();
        return !call.isError();
    };

    // A scroll bar on screen, vertical when it is taller than wide.
    const ScrollSupport::BarAxis axis = [&](int index) -> std::optional<bool> {
        const auto frame = frameOf(index);
        if (!frame || frame->isEmpty())
            return std::nullopt;
        return frame->height > frame->width;
    };
    const auto containerWithBar = [&](int from, bool vertical) {
        return ScrollSupport::containerWithBar(snapshot, from, vertical, axis);
    };
    const auto settle = [&](const std::function<bool()>& done, int budgetMs) {
        return ScrollSupport::settle(context, done, budgetMs);
    };
    using ScrollSupport::inside;
    const auto wheel = [&](const Frame& over, int button, int notches) -> std::optional<Error> {
        QString error;
        if (!m_x11.wheel(
                over.center(), button, notches, [&] { return context.checkpoint().has_value(); }, &error)) {
            if (auto stop = context.checkpoint())
                return stop;
            return Error::make(ErrorCode::InternalError, QStringLiteral("the wheel could not be turned: ") + error);
        }
        return std::nullopt;
    };

    ActionOutcome out;
    Verification& v = out.verification;
    QElapsedTimer verifyTimer;
    QJsonArray paths;

    if (spec.direction == ScrollSpec::Direction::IntoView) {
        const auto before = frameOf(element);
        // The viewport: the nearest scrolling ancestor, else the window.
        const int viewportIndex = ScrollSupport::viewportOf(snapshot, element, axis);
        std::optional<ScrollSupport::Bar> bar = containerWithBar(snapshot.nodes.at(element).parent, true).second;
        if (!bar)
            bar = containerWithBar(snapshot.nodes.at(element).parent, false).second;
        const std::optional<Frame> viewport = frameOf(viewportIndex);
        const auto inView = [&](const std::optional<Frame>& f) { return f && viewport && inside(*f, *viewport); };
        auto started = ScrollSupport::intoViewStart(out, before, viewport);
        if (!started)
            return started.error();
        if (started.value())
            return *started.value();
        std::optional<Frame> now = before;
        // 1. The toolkit's own ScrollTo.
        {
            auto call = m_bus.send(refOf(element), Interface::Component, QStringLiteral("ScrollTo"), {kScrollAnywhere},
                                   m_bus.callTimeout(context));
            call.waitForFinished();
            const bool accepted = !call.isError() && firstArgument(call).toBool();
            verifyTimer.start();
            const bool done = accepted && settle([&] { return now = frameOf(element), inView(now); }, 800);
            v.verifyMs += verifyTimer.elapsed();
            paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("scrollTo")},
                                     {QStringLiteral("accepted"), accepted},
                                     {QStringLiteral("inView"), done}});
            if (done)
                out.deliveredBy = QStringLiteral("accessibility:scrollTo");
        }
        // 2. The viewport's scroll bar, by the distance to the viewport's edge.
        if (out.deliveredBy.isEmpty() && bar && viewport && now) {
            const auto current = valueOf(bar->index, QStringLiteral("CurrentValue"));
            const auto minimum = valueOf(bar->index, QStringLiteral("MinimumValue"));
            const auto maximum = valueOf(bar->index, QStringLiteral("MaximumValue"));
            if (current && minimum && maximum) {
                double delta = 0;
                if (bar->vertical)
                    delta = now->y < viewport->y ? now->y - viewport->y - 8
                                                 : now->y + now->height - (viewport->y + viewport->height) + 8;
                else
                    delta = now->x < viewport->x ? now->x - viewport->x - 8
                                                 : now->x + now->width - (viewport->x + viewport->width) + 8;
                const double wanted = std::clamp(*current + delta, *minimum, *maximum);
                const bool accepted = setValue(bar->index, wanted);
                verifyTimer.start();
                const bool done = accepted && settle([&] { return now = frameOf(element), inView(now); }, 800);
                v.verifyMs += verifyTimer.elapsed();
                paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("scrollBar")},
                                         {QStringLiteral("accepted"), accepted},
                                         {QStringLiteral("from"), *current},
                                         {QStringLiteral("to"), wanted},
                                         {QStringLiteral("inView"), done}});
                if (done)
                    out.deliveredBy = QStringLiteral("accessibility:value");
            }
        }
        // 3. The wheel over the viewport, a notch at a time towards the element.
        if (out.deliveredBy.isEmpty() && viewport && now) {
            const auto shown = ScrollSupport::wheelIntoView(
                context, 60, 150, QStringLiteral("notches"),
                [&](const Frame& at) {
                    const bool vertical = at.y < viewport->y || at.y + at.height > viewport->y + viewport->height;
                    return wheel(*viewport, vertical ? (at.y < viewport->y ? 4 : 5) : (at.x < viewport->x ? 6 : 7), 1);
                },
                [&] { return frameOf(element); }, inView, now, v, paths);
            if (!shown)
                return shown.error();
            if (shown.value())
                out.deliveredBy = QStringLiteral("wheel");
        }
        ScrollSupport::intoViewEnd(out, paths, *before, now, inView(now));
        return out;
    }

    // A direction: the container's scroll bar along the axis, else the wheel over the container.
    auto started = ScrollSupport::directionStart(out, snapshot, element, spec, axis, frameOf);
    if (!started)
        return started.error();
    const int container = started->index;
    const std::optional<ScrollSupport::Bar> bar = started->bar;
    const Frame containerFrame = started->frame;
    const int extent = started->extent;
    const QString towards = started->towards;
    // Where the element is now, and whether it is inside the container (the element itself
    // when it is the container: then it is in view when it is on screen).
    const auto noteFrameAfter = [&] {
        ScrollSupport::noteFrameAfter(out, frameOf(element), container == element, containerFrame);
    };
    if (bar) {
        const auto current = valueOf(bar->index, QStringLiteral("CurrentValue"));
        const auto minimum = valueOf(bar->index, QStringLiteral("MinimumValue"));
        const auto maximum = valueOf(bar->index, QStringLiteral("MaximumValue"));
        const auto increment = valueOf(bar->index, QStringLiteral("MinimumIncrement"));
        if (current && minimum && maximum) {
            const double line = increment && *increment > 0 ? *increment : 20.0;
            const double delta = spec.pages ? spec.amount * std::max(1.0, extent * kPageFraction) : spec.amount * line;
            const double wanted = std::clamp(*current + spec.sign() * delta, *minimum, *maximum);
            QJsonObject position{{QStringLiteral("before"), *current},
                                 {QStringLiteral("minimum"), *minimum},
                                 {QStringLiteral("maximum"), *maximum}};
            if (std::abs(wanted - *current) < 1e-9) {
                // Already at the end it was asked to go towards: nothing to do, nothing done.
                position.insert(QStringLiteral("after"), *current);
                ScrollSupport::atLimit(out, position, towards);
                noteFrameAfter();
                return out;
            }
            const bool accepted = setValue(bar->index, wanted);
            std::optional<double> after = current;
            verifyTimer.start();
            const bool changed = accepted && settle(
                                                 [&] {
                                                     after = valueOf(bar->index, QStringLiteral("CurrentValue"));
                                                     return after && std::abs(*after - *current) > 1e-9;
                                                 },
                                                 600);
            v.verifyMs += verifyTimer.elapsed();
            paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("scrollBar")},
                                     {QStringLiteral("accepted"), accepted},
                                     {QStringLiteral("from"), *current},
                                     {QStringLiteral("to"), wanted},
                                     {QStringLiteral("changed"), changed}});
            if (changed) {
                position.insert(QStringLiteral("after"), *after);
                out.details.insert(QStringLiteral("position"), position);
                out.deliveredBy = QStringLiteral("accessibility:value");
                v.effect = Effect::Confirmed;
                v.observed = position;
                v.paths = paths;
                out.verified = true;
                noteFrameAfter();
                return out;
            }
        }
    }
    // The wheel. A notch is three lines; a page is as many notches as most of the viewport.
    const int notches =
        spec.pages ? spec.amount * std::max(1, static_cast<int>(std::lround(extent * kPageFraction / kPixelsPerNotch)))
                   : std::max(1, (spec.amount + kLinesPerNotch - 1) / kLinesPerNotch);
    const auto frames = ScrollSupport::contentFrames(snapshot, container, frameOf);
    const std::optional<double> barBefore = bar ? valueOf(bar->index, QStringLiteral("CurrentValue")) : std::nullopt;
    if (auto err = wheel(containerFrame, wheelButton(spec.direction), notches))
        return *err;
    int movedCount = 0;
    std::optional<double> barAfter = barBefore;
    verifyTimer.start();
    settle(
        [&] {
            movedCount = ScrollSupport::movedCount(frames, frameOf);
            if (bar)
                barAfter = valueOf(bar->index, QStringLiteral("CurrentValue"));
            return movedCount > 0 || (barBefore && barAfter && std::abs(*barAfter - *barBefore) > 1e-9);
        },
        800);
    v.verifyMs += verifyTimer.elapsed();
    const bool barMoved = barBefore && barAfter && std::abs(*barAfter - *barBefore) > 1e-9;
    paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("wheel")},
                             {QStringLiteral("notches"), notches},
                             {QStringLiteral("contentMoved"), movedCount},
                             {QStringLiteral("sampled"), static_cast<int>(frames.size())}});
    v.paths = paths;
    out.details.insert(QStringLiteral("notches"), notches);
    if (barBefore && barAfter)
        out.details.insert(QStringLiteral("position"),
                           QJsonObject{{QStringLiteral("before"), *barBefore}, {QStringLiteral("after"), *barAfter}});
    ScrollSupport::wheelEnd(out, movedCount, static_cast<int>(frames.size()), barMoved, bar.has_value(), towards);
    noteFrameAfter();
    return out;
}

} // namespace Automation
