// desktop.waitUntil: conditions polled on the route's window, woken by its events (docs/protocol.md).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"
#include "automation/SelectorEngine.h"
#include "automation/ocr/TemplateMatch.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QThread>

#include <algorithm>
#include <future>

namespace Automation::Operations {

namespace {

// One poll of a wait: the route's window read at most once, shared by every condition.
class WaitPoll
{
public:
    WaitPoll(JobContext& ctx, Locator& locator, const WaitRequest& request)
        : m_ctx(ctx), m_locator(locator), m_request(request)
    {
    }

    /// Whether `condition` holds now; `json` gets its state. An error that ends the wait
    /// (aborted, timed out) is returned in `fatal`.
    bool evaluate(const WaitCondition& condition, QJsonObject* json)
    {
        using Kind = WaitCondition::Kind;
        json->insert(QStringLiteral("kind"), WaitCondition::kindName(condition.kind));
        bool holds = false;
        switch (condition.kind) {
        case Kind::All:
        case Kind::Any: {
            QJsonArray children;
            int held = 0;
            // `matched` comes from a condition that decided: what a branch that did not hold
            // found is forgotten again.
            const WaitCondition* heldBefore = heldBy;
            const QList<Candidate> candidatesBefore = heldCandidates;
            for (const WaitCondition& child : condition.children) {
                QJsonObject c;
                const WaitCondition* beforeChild = heldBy;
                const QList<Candidate> candidatesBeforeChild = heldCandidates;
                if (evaluate(child, &c)) {
                    ++held;
                } else {
                    heldBy = beforeChild;
                    heldCandidates = candidatesBeforeChild;
                }
                children.append(c);
                if (fatal)
                    break;
            }
            json->insert(QStringLiteral("children"), children);
            holds = condition.kind == Kind::All ? held == condition.children.size() : held > 0;
            if (!holds) {
                heldBy = heldBefore;
                heldCandidates = candidatesBefore;
            }
            break;
        }
        case Kind::WindowExists:
        case Kind::WindowGone: {
            Route route = m_request.route;
            route.windowTitlePattern = condition.pattern;
            auto resolved = resolveRouteOnDisplay(m_ctx.backend, route, m_ctx.call);
            if (!resolved && isFatal(resolved.error())) {
                fatal = resolved.error();
                break;
            }
            // Not found is an answer; any other error (a hung app) says neither.
            if (!resolved && resolved.error().code != ErrorCode::ElementNotFound) {
                lastError = resolved.error();
                break;
            }
            const bool exists = resolved.ok();
            if (exists)
                json->insert(QStringLiteral("window"), resolved->windowTitle);
            holds = condition.kind == Kind::WindowExists ? exists : !exists;
            break;
        }
        case Kind::TextOnScreen:
            holds = evaluateScreenText(condition, json);
            break;
        case Kind::ImageOnScreen:
            holds = evaluateScreenImage(condition, json);
            break;
        default:
            holds = evaluateElements(condition, json);
            break;
        }
        json->insert(QStringLiteral("satisfied"), holds);
        return holds;
    }

    std::optional<Error> fatal;
    std::optional<Error> lastError;
    std::optional<Snapshot> snapshot;
    std::optional<ResolvedRoute> routeSeen; ///< the route's app, when it was found
    QList<Candidate> heldCandidates;        ///< of the first element condition that held
    const WaitCondition* heldBy = nullptr;

private:
    // Ends the wait: aborted, out of time, or a request this backend can never answer.
    static bool isFatal(const Error& error)
    {
        return error.code == ErrorCode::Aborted || error.code == ErrorCode::Timeout ||
               error.code == ErrorCode::InvalidRequest;
    }
    static bool selectorsNeedText(const WaitCondition& condition)
    {
        if (condition.selector && condition.selector->needsText())
            return true;
        return std::any_of(condition.children.cbegin(), condition.children.cend(),
                           [](const WaitCondition& c) { return selectorsNeedText(c); });
    }

    static bool selectorsNeedDescription(const WaitCondition& condition)
    {
        if (condition.selector && condition.selector->needsDescription())
            return true;
        return std::any_of(condition.children.cbegin(), condition.children.cend(),
                           [](const WaitCondition& c) { return selectorsNeedDescription(c); });
    }

    // The route's window, read once per poll (search-only; details and text are read for
    // candidates only). False when it cannot be read now (the app may not be there yet).
    bool readWindow()
    {
        if (m_read)
            return snapshot.has_value();
        m_read = true;
        auto route = resolveRouteOnDisplay(m_ctx.backend, m_request.route, m_ctx.call);
        if (route)
            routeSeen = route.value();
        if (!route) {
            if (isFatal(route.error()))
                fatal = route.error();
            lastError = route.error();
            // Gone only when the app or window is not there; a hung app is not gone.
            m_windowGone = route.error().code == ErrorCode::ElementNotFound;
            return false;
        }
        // Text is read for every node only when a selector matches on values; the text and
        // value conditions read their candidates' text afterwards.
        SnapshotBounds bounds = searchBounds(m_ctx.call, selectorsNeedText(m_request.condition));
        bounds.includeDescription = selectorsNeedDescription(m_request.condition);
        bounds.refresh = m_request.refresh;
        bounds.searchOnly = true;
        auto snap = m_locator.snapshot(route.value(), bounds);
        if (!snap) {
            if (isFatal(snap.error()))
                fatal = snap.error();
            lastError = snap.error();
            return false;
        }
        snapshot = std::move(snap.value());
        return true;
    }

    // The text read off the screen (desktop.ocr's engine): the condition's window, its rect, or
    // the display. Holds when a line shows the text (case and spaces aside).
    bool evaluateScreenText(const WaitCondition& condition, QJsonObject* json)
    {
        OcrRequest request;
        request.route = condition.ocrRoute;
        request.rect = condition.rect;
        request.languages = {QStringLiteral("eng")};
        if (std::any_of(condition.value.cbegin(), condition.value.cend(),
                        [](QChar c) { return c.unicode() >= 0x2e80 && c.unicode() <= 0x9fff; }))
            request.languages.append(QStringLiteral("chi_sim"));
        request.redaction = Redaction::None;
        request.keepEvidence = false;
        auto read = ocr(m_ctx, request);
        if (!read) {
            if (isFatal(read.error()) &&
                read.error().details.value(QStringLiteral("reason")) != QJsonValue(QStringLiteral("outside_display")))
                fatal = read.error();
            lastError = read.error();
            return false;
        }
        const auto squeezed = [](QString text) { return text.remove(QLatin1Char(' ')).toCaseFolded(); };
        const QString wanted = squeezed(condition.value);
        json->insert(QStringLiteral("linesRead"), static_cast<int>(read->lines.size()));
        for (const OcrText& line : std::as_const(read->lines)) {
            if (squeezed(line.text).contains(wanted)) {
                json->insert(QStringLiteral("found"), QJsonObject{{QStringLiteral("text"), line.text},
                                                                  {QStringLiteral("frame"), line.frame.toJson()},
                                                                  {QStringLiteral("confidence"), line.confidence}});
                return true;
            }
        }
        return false;
    }

    // The template looked for in the condition's window (its own frame), rect or the display, by
    // the platform's matcher. Holds when the best place is at least as similar as the threshold.
    bool evaluateScreenImage(const WaitCondition& condition, QJsonObject* json)
    {
        auto where = captureArea(m_ctx, condition.ocrRoute, condition.rect);
        if (!where) {
            if (isFatal(where.error()))
                fatal = where.error();
            lastError = where.error();
            return false;
        }
        auto shot = screenshotFor(m_ctx, where.value());
        if (!shot) {
            if (isFatal(shot.error()))
                fatal = shot.error();
            lastError = shot.error();
            return false;
        }
        QImage screen;
        if (!screen.loadFromData(shot->png, "PNG")) {
            lastError = Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be decoded"));
            return false;
        }
        const QRect area = where->area ? shot->pixelsOf(*where->area) : screen.rect();
        if (area.isEmpty()) {
            lastError = Error::make(ErrorCode::InvalidRequest, QStringLiteral("the area looked at is off the display"),
                                    QJsonObject{{QStringLiteral("reason"), QStringLiteral("outside_display")}});
            return false;
        }
        auto match = Ocr::findTemplate(screen.copy(area), condition.image);
        if (!match) {
            // A matcher that is not built, or a template larger than the area, never holds.
            fatal = match.error();
            return false;
        }
        const double score = std::round(match->score * 1000) / 1000;
        json->insert(QStringLiteral("score"), score);
        if (match->score < condition.threshold)
            return false;
        json->insert(QStringLiteral("found"),
                     QJsonObject{{QStringLiteral("frame"),
                                  shot->frameOf(QRect(area.topLeft() + match->at, condition.image.size())).toJson()},
                                 {QStringLiteral("score"), score}});
        return true;
    }

    bool evaluateElements(const WaitCondition& condition, QJsonObject* json)
    {
        using Kind = WaitCondition::Kind;
        if (!readWindow()) {
            // No window to look in: its elements are gone, and nothing else can be said.
            const bool gone = condition.kind == Kind::SelectorGone && m_windowGone && !fatal;
            json->insert(QStringLiteral("matched"), 0);
            return gone;
        }
        auto searched = m_locator.search(*snapshot, *condition.selector);
        if (!searched) {
            if (isFatal(searched.error()))
                fatal = searched.error();
            lastError = searched.error();
            return false;
        }
        QList<Candidate> matching = searched.value();
        json->insert(QStringLiteral("matched"), static_cast<int>(matching.size()));
        if (condition.kind == Kind::TextMatches || condition.kind == Kind::ValueEquals) {
            QList<int> unread;
            for (const Candidate& c : matching) {
                const Node& node = snapshot->nodes.at(c.nodeIndex);
                if (!node.hasValue && !node.isSecure())
                    unread.append(c.nodeIndex);
            }
            if (!unread.isEmpty()) {
                if (const auto read = m_ctx.backend.readTexts(*snapshot, unread, m_ctx.call); !read) {
                    if (isFatal(read.error()))
                        fatal = read.error();
                    lastError = read.error();
                    return false;
                }
            }
        }
        // Never a secure element's text or value.
        matching.removeIf([&](const Candidate& c) {
            const Node& node = snapshot->nodes.at(c.nodeIndex);
            switch (condition.kind) {
            case Kind::TextMatches:
                return node.isSecure() ||
                       !condition.regex.match(node.hasValue && !node.value.isEmpty() ? node.value : node.title)
                            .hasMatch();
            case Kind::ValueEquals:
                return node.isSecure() || !node.hasValue || node.value != condition.value;
            case Kind::Focused:
                return !node.has(StateFocused);
            case Kind::Enabled:
                return !node.has(StateEnabled);
            default:
                return false;
            }
        });
        const bool holds = condition.kind == Kind::SelectorGone ? matching.isEmpty() : !matching.isEmpty();
        if (holds && condition.kind != Kind::SelectorGone && !heldBy) {
            heldBy = &condition;
            heldCandidates = matching;
        }
        return holds;
    }

    JobContext& m_ctx;
    Locator& m_locator;
    const WaitRequest& m_request;
    bool m_read = false;
    bool m_windowGone = false;
};

} // namespace

Result<WaitResult> waitUntil(JobContext& ctx, const WaitRequest& request)
{
    Locator locator(ctx);
    QElapsedTimer elapsed;
    elapsed.start();
    int polls = 0;
    int eventWakes = 0;
    int timerWakes = 0;
    bool eventsHeard = false; ///< the backend can tell when the app changes
    QString wokenBy = QStringLiteral("start");
    std::optional<Snapshot> last;
    std::optional<Error> lastError;
    std::optional<ResolvedRoute> watched;
    QJsonObject state;
    const auto wakeJson = [&] {
        return QJsonObject{{QStringLiteral("events"), eventWakes},
                           {QStringLiteral("timer"), timerWakes},
                           {QStringLiteral("by"), eventsHeard ? QStringLiteral("events") : QStringLiteral("polling")},
                           {QStringLiteral("last"), wokenBy}};
    };
    while (true) {
        if (auto stop = ctx.call.checkpoint())
            return *stop;
        ++polls;
        WaitPoll poll(ctx, locator, request);
        state = {};
        const bool holds = poll.evaluate(request.condition, &state);
        if (poll.fatal)
            return *poll.fatal;
        if (poll.snapshot)
            last = poll.snapshot;
        if (poll.routeSeen)
            watched = poll.routeSeen;
        lastError = holds ? std::nullopt : poll.lastError;
        if (holds) {
            if (last) {
                if (auto err = ctx.trace.keepTree(*last))
                    return *err;
                if (poll.heldBy) {
                    if (auto err = ctx.trace.keepCandidates(*last, *poll.heldBy->selector, poll.heldCandidates,
                                                            poll.heldBy->selectorJson))
                        return *err;
                }
            }
            return WaitResult{std::move(last), std::move(poll.heldCandidates), elapsed.elapsed(), polls, state,
                              wakeJson()};
        }
        const qint64 left = request.timeoutMs - elapsed.elapsed();
        if (left <= 0) {
            if (last) {
                if (auto err = ctx.trace.keepTree(*last))
                    return *err;
            }
            QJsonObject details{{QStringLiteral("timeoutMs"), request.timeoutMs},
                                {QStringLiteral("elapsedMs"), elapsed.elapsed()},
                                {QStringLiteral("polls"), polls},
                                {QStringLiteral("wake"), wakeJson()},
                                {QStringLiteral("matched"), state.value(QStringLiteral("matched")).toInt(0)},
                                {QStringLiteral("conditions"), state}};
            if (lastError)
                details.insert(QStringLiteral("lastError"), lastError->toJson());
            return Error::make(ErrorCode::Timeout,
                               QStringLiteral("the condition did not hold within %1 ms").arg(request.timeoutMs),
                               details);
        }
        // Until the next look: the poll interval, or sooner when the app reports a change (an
        // accessibility event) where the backend hears them; a toolkit that says nothing is
        // looked at on the timer. Never more often than every 50 ms.
        QElapsedTimer sinceLook;
        sinceLook.start();
        const qint64 napMs = std::min<qint64>(request.pollMs, left);
        ChangeWait woke = ChangeWait::Unsupported;
        if (watched) {
            woke = ctx.backend.waitForChange(*watched, napMs, ctx.call);
        } else {
            // No app to listen to (not there yet): the timer.
            QDeadlineTimer nap(napMs);
            while (!nap.hasExpired() && !ctx.call.checkpoint())
                QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(nap.remainingTime(), 1, 10)));
        }
        eventsHeard = eventsHeard || woke != ChangeWait::Unsupported;
        if (woke == ChangeWait::Changed) {
            ++eventWakes;
            wokenBy = QStringLiteral("event");
            QDeadlineTimer floor(std::max<qint64>(0, 50 - sinceLook.elapsed()));
            while (!floor.hasExpired() && !ctx.call.checkpoint())
                QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(floor.remainingTime(), 1, 10)));
        } else {
            ++timerWakes;
            wokenBy = QStringLiteral("timer");
        }
    }
}

} // namespace Automation::Operations
