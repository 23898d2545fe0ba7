#include "automation/backends/atspi/AtspiScroll.h"

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

    // The scroll bars that belong to a container: within two levels below it (GTK's scrolled
    // window has them as children, Qt's scroll area inside a container widget), not inside a
    // nested scroll area.
    struct Bar
    {
        int index = -1;
        bool vertical = true;
        Frame frame;
    };
    const auto barsOf = [&](int container) {
        QList<Bar> bars;
        for (int i = container + 1; i < snapshot.nodes.size(); ++i) {
            const int depth = depthBelow(snapshot, i, container);
            if (depth < 0)
                break; // past the container's subtree (document order)
            if (depth > 2 || snapshot.nodes.at(i).role != QLatin1String("AXScrollBar"))
                continue;
            const auto frame = frameOf(i);
            if (!frame || frame->isEmpty())
                continue;
            bars.append(Bar{i, frame->height > frame->width, *frame});
        }
        return bars;
    };
    // The nearest container (the element itself or an ancestor) with a scroll bar along the axis.
    const auto containerWithBar = [&](int from, bool vertical) -> std::pair<int, std::optional<Bar>> {
        for (int i = from; i >= 0; i = snapshot.nodes.at(i).parent) {
            for (const Bar& bar : barsOf(i)) {
                if (bar.vertical == vertical)
                    return {i, bar};
            }
        }
        return {from, std::nullopt};
    };
    // Frames of some of the container's content (no scroll bars): what moves when it scrolls.
    const auto contentFrames = [&](int container) {
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
    };
    const auto moved = [&](const QList<std::pair<int, Frame>>& before) {
        int count = 0;
        for (const auto& [index, frame] : before) {
            const auto now = frameOf(index);
            if (now && !(*now == frame))
                ++count;
        }
        return count;
    };
    const auto settle = [&](const std::function<bool()>& done, int budgetMs) {
        QDeadlineTimer until(std::min<qint64>(budgetMs, std::max<qint64>(0, context.remainingMs() - 200)));
        while (true) {
            if (done())
                return true;
            if (until.hasExpired() || context.checkpoint())
                return false;
            QThread::msleep(25);
        }
    };
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
        if (!before || before->isEmpty())
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("the element has no frame to bring into view"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_frame")}});
        // The viewport: the nearest scrolling ancestor, else the window.
        int viewportIndex = 0;
        std::optional<Bar> bar;
        {
            const bool vertical = true;
            auto [container, found] = containerWithBar(snapshot.nodes.at(element).parent, vertical);
            if (!found)
                std::tie(container, found) = containerWithBar(snapshot.nodes.at(element).parent, !vertical);
            if (found) {
                viewportIndex = container;
                bar = found;
            }
        }
        const std::optional<Frame> viewport = frameOf(viewportIndex);
        v.expected = QStringLiteral("the element's frame inside its viewport");
        const auto inView = [&](const std::optional<Frame>& f) { return f && viewport && inside(*f, *viewport); };
        out.details.insert(QStringLiteral("frameBefore"), before->toJson());
        if (viewport)
            out.details.insert(QStringLiteral("viewport"), viewport->toJson());
        if (inView(before)) {
            out.deliveredBy = QStringLiteral("none");
            v.effect = Effect::Confirmed;
            v.reason = QStringLiteral("the element was already in view");
            out.details.insert(QStringLiteral("frameAfter"), before->toJson());
            out.details.insert(QStringLiteral("inView"), true);
            out.verified = true;
            return out;
        }
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
            int notches = 0;
            bool done = false;
            int still = 0;
            while (notches < 60 && still < 3 && !done) {
                const bool vertical = now->y < viewport->y || now->y + now->height > viewport->y + viewport->height;
                const int button = vertical ? (now->y < viewport->y ? 4 : 5) : (now->x < viewport->x ? 6 : 7);
                if (auto err = wheel(*viewport, button, 1))
                    return *err;
                ++notches;
                const Frame was = *now;
                verifyTimer.start();
                settle([&] { return now = frameOf(element), now && !(*now == was); }, 150);
                v.verifyMs += verifyTimer.elapsed();
                if (!now)
                    break;
                still = *now == was ? still + 1 : 0;
                done = inView(now);
            }
            paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("wheel")},
                                     {QStringLiteral("notches"), notches},
                                     {QStringLiteral("inView"), done}});
            if (done)
                out.deliveredBy = QStringLiteral("wheel");
        }
        v.paths = paths;
        if (now)
            out.details.insert(QStringLiteral("frameAfter"), now->toJson());
        out.details.insert(QStringLiteral("inView"), inView(now));
        if (!out.deliveredBy.isEmpty()) {
            v.effect = Effect::Confirmed;
            v.observed = QJsonObject{{QStringLiteral("frameAfter"), now->toJson()}};
        } else {
            out.deliveredBy = paths.isEmpty() ? QStringLiteral("none")
                                              : paths.last().toObject().value(QStringLiteral("path")).toString();
            const bool anyMove = now && before && !(*now == *before);
            v.effect = anyMove ? Effect::Partial : Effect::SuspectedNoop;
            v.reason = anyMove ? QStringLiteral("the element moved but is not wholly inside its viewport")
                               : QStringLiteral("nothing brought the element into view");
        }
        out.verified = v.effect == Effect::Confirmed;
        return out;
    }

    // A direction: the container's scroll bar along the axis, else the wheel over the container.
    const bool vertical = spec.vertical();
    const auto found = containerWithBar(element, vertical);
    const int container = found.first;
    const std::optional<Bar> bar = found.second;
    const std::optional<Frame> containerFrame = frameOf(container);
    if (!containerFrame || containerFrame->isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the container has no frame on screen"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_frame")}});
    const int extent = vertical ? containerFrame->height : containerFrame->width;
    out.details.insert(QStringLiteral("container"),
                       QJsonObject{{QStringLiteral("role"), snapshot.nodes.at(container).role},
                                   {QStringLiteral("title"), snapshot.nodes.at(container).title},
                                   {QStringLiteral("frame"), containerFrame->toJson()}});
    const QString towards = scrollDirectionName(spec.direction);
    // Where the element is now, and whether it is inside the container (the element itself
    // when it is the container: then it is in view when it is on screen).
    const auto noteFrameAfter = [&] {
        const auto f = frameOf(element);
        if (!f)
            return;
        out.details.insert(QStringLiteral("frameAfter"), f->toJson());
        out.details.insert(QStringLiteral("inView"),
                           container == element ? !f->isEmpty() : inside(*f, *containerFrame));
    };
    v.expected = QStringLiteral("the content moves %1").arg(towards);
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
                out.details.insert(QStringLiteral("position"), position);
                out.details.insert(QStringLiteral("atLimit"), true);
                out.deliveredBy = QStringLiteral("none");
                v.effect = Effect::SuspectedNoop;
                v.reason = QStringLiteral("the content is already at its %1 end").arg(towards);
                v.observed = position;
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
    const auto frames = contentFrames(container);
    const std::optional<double> barBefore = bar ? valueOf(bar->index, QStringLiteral("CurrentValue")) : std::nullopt;
    if (auto err = wheel(*containerFrame, wheelButton(spec.direction), notches))
        return *err;
    int movedCount = 0;
    std::optional<double> barAfter = barBefore;
    verifyTimer.start();
    settle(
        [&] {
            movedCount = moved(frames);
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
    out.deliveredBy = QStringLiteral("wheel");
    out.details.insert(QStringLiteral("notches"), notches);
    if (barBefore && barAfter)
        out.details.insert(QStringLiteral("position"),
                           QJsonObject{{QStringLiteral("before"), *barBefore}, {QStringLiteral("after"), *barAfter}});
    v.observed = QJsonObject{{QStringLiteral("contentMoved"), movedCount},
                             {QStringLiteral("sampled"), static_cast<int>(frames.size())}};
    if (movedCount > 0 || barMoved) {
        v.effect = Effect::Confirmed;
    } else if (frames.isEmpty() && !bar) {
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the container shows nothing whose frame could move, and has no scroll bar");
    } else {
        v.effect = Effect::SuspectedNoop;
        v.reason = QStringLiteral("nothing in the container moved (it may be at its %1 end)").arg(towards);
    }
    noteFrameAfter();
    out.verified = v.effect == Effect::Confirmed;
    return out;
}

} // namespace Automation
