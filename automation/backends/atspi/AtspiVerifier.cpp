#include "automation/backends/atspi/AtspiVerifier.h"

#include "automation/backends/atspi/AtspiRoles.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QThread>

namespace Automation {

using Atspi::App;
using Atspi::firstArgument;
using Atspi::Interface;
using Atspi::Ref;
using Atspi::refList;
using Atspi::uintList;
using Atspi::unwrap;

namespace {

// Kinds of events that accompany focusing a window rather than an action's effect.
bool isActivationEvent(const QString& kind)
{
    return kind.startsWith(QLatin1String("Activate:")) || kind.startsWith(QLatin1String("Deactivate:")) ||
           kind == QLatin1String("StateChanged:active");
}

} // namespace

AtspiVerifier::AtspiVerifier(AtspiBus& bus) : m_bus(bus) {}

void AtspiVerifier::markSettled(const QString& service)
{
    m_settledAt.insert(service, m_bus.tree()->nowMs());
}

AtspiVerifier::ElementState AtspiVerifier::readElementState(const Ref& ref, int timeoutMs)
{
    ElementState state;
    auto states = m_bus.send(ref, Interface::Accessible, QStringLiteral("GetState"), {}, timeoutMs);
    auto name = m_bus.send(ref, Interface::Properties, QStringLiteral("Get"),
                           {QStringLiteral("org.a11y.atspi.Accessible"), QStringLiteral("Name")}, timeoutMs);
    auto count = m_bus.send(ref, Interface::Properties, QStringLiteral("Get"),
                            {QStringLiteral("org.a11y.atspi.Accessible"), QStringLiteral("ChildCount")}, timeoutMs);
    for (auto* call : {&states, &name, &count})
        call->waitForFinished();
    if (states.isError()) {
        // An object that no longer answers its own interface is gone as well.
        state.gone =
            Atspi::failureOf(states) == Atspi::CallFailure::Gone || states.error().type() == QDBusError::UnknownMethod;
        return state;
    }
    state.read = true;
    const auto bits = uintList(firstArgument(states));
    state.low = bits.value(0);
    state.high = bits.value(1);
    // A defunct element is gone as far as the person can see.
    state.gone = Atspi::hasState(state.low, state.high, Atspi::StateDefunct);
    state.nameRead = !name.isError();
    if (state.nameRead)
        state.name = unwrap(firstArgument(name)).toString();
    state.countRead = !count.isError();
    if (state.countRead)
        state.childCount = unwrap(firstArgument(count)).toInt();
    return state;
}

Result<QStringList> AtspiVerifier::windowPaths(const App& app, int timeoutMs)
{
    auto children = m_bus.send(app.root, Interface::Accessible, QStringLiteral("GetChildren"), {}, timeoutMs);
    children.waitForFinished();
    if (children.isError())
        return Error::make(ErrorCode::TargetUnresponsive, children.error().message());
    QStringList out;
    for (const auto& ref : refList(firstArgument(children)))
        out.append(ref.path);
    return out;
}

AtspiVerifier::Baseline AtspiVerifier::baseline(const App& app, const Ref* target, const CallContext& context)
{
    Baseline before;
    before.service = app.root.service;
    // Let what the app is still reporting about earlier steps (focusing its window) arrive
    // first, so it is not taken for the action's effect: wait until it has been quiet for 40 ms.
    QDeadlineTimer quiet(std::min<qint64>(300, std::max<qint64>(0, context.remainingMs() / 4)));
    while (true) {
        m_bus.tree()->sync();
        const auto recent = m_bus.tree()->activityAfterTime(before.service, m_bus.tree()->nowMs() - 40);
        if (recent.isEmpty() || quiet.hasExpired() || context.checkpoint())
            break;
        QThread::msleep(10);
    }
    before.mark = m_bus.tree()->activityMark();
    before.atMs = m_bus.tree()->nowMs();
    // What keeps firing by itself (a spinner, a clock) is not evidence of anything. Only what
    // came after the host's previous action had settled counts: its own effects are not noise.
    QHash<QString, int> counts;
    const qint64 since = std::max<qint64>(before.atMs - 1000, m_settledAt.value(before.service, before.atMs - 1000));
    for (const auto& a : m_bus.tree()->activityAfterTime(before.service, since))
        ++counts[a.path + QLatin1Char('|') + a.kind];
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() >= 3)
            before.noisy.insert(it.key());
    }
    const int timeout = context.callTimeoutMs(300);
    if (target) {
        before.target = *target;
        before.targetState = readElementState(*target, timeout);
    }
    if (auto windows = windowPaths(app, timeout)) {
        before.windows = windows.value();
        before.windowsRead = true;
    }
    return before;
}

void AtspiVerifier::settle(const Baseline& before, const CallContext& context)
{
    // The answer leaves once the app has consumed the action: its reports have stopped for
    // 100 ms (at most 600 ms). The next action then starts from a settled app, and late
    // effects of this one (a toggle springing back) are not taken for the next one's.
    QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(600, context.remainingMs() - 150)));
    while (!until.hasExpired() && !context.checkpoint()) {
        m_bus.tree()->sync();
        bool recent = false;
        for (const auto& a : m_bus.tree()->activityAfterTime(before.service, m_bus.tree()->nowMs() - 100))
            recent = recent || !before.noisy.contains(a.path + QLatin1Char('|') + a.kind);
        if (!recent)
            break;
        QThread::msleep(20);
    }
}

Verification AtspiVerifier::verifyChange(const App& app, const Baseline& before, const QString& expected, int budgetMs,
                                         const CallContext& context, bool* answered)
{
    QElapsedTimer timer;
    timer.start();
    Verification v;
    v.expected = expected;
    bool sawAnswer = false, lastAnswered = false;
    const qint64 budget = std::max<qint64>(0, std::min<qint64>(budgetMs, context.remainingMs() - 150));
    QDeadlineTimer until(budget);
    QStringList seen;
    while (true) {
        const int timeout = static_cast<int>(std::clamp<qint64>(until.remainingTime(), 100, 250));
        // A round trip the app answers only after handling what came before it.
        ElementState now;
        if (!before.target.isNull())
            now = readElementState(before.target, timeout);
        auto windows = windowPaths(app, timeout);
        const bool appAnswered = windows.ok() || now.read;
        sawAnswer = sawAnswer || appAnswered;
        lastAnswered = appAnswered;
        m_bus.tree()->sync();
        QJsonArray events;
        for (const auto& a : m_bus.tree()->activitySince(before.service, before.mark)) {
            if (before.noisy.contains(a.path + QLatin1Char('|') + a.kind) || isActivationEvent(a.kind))
                continue;
            // The target taking focus, or a button's transient pressed/armed look, is not the effect.
            if (a.path == before.target.path &&
                (a.kind == QLatin1String("StateChanged:focused") || a.kind == QLatin1String("StateChanged:pressed") ||
                 a.kind == QLatin1String("StateChanged:armed") || a.kind.startsWith(QLatin1String("Focus:"))))
                continue;
            if (events.size() < 8)
                events.append(QJsonObject{{QStringLiteral("kind"), a.kind}, {QStringLiteral("path"), a.path}});
            else
                break;
        }
        QStringList changes;
        if (!events.isEmpty())
            changes.append(QStringLiteral("the app reported changes"));
        if (!before.target.isNull() && before.targetState.read) {
            if (now.gone) {
                changes.append(QStringLiteral("the target is gone"));
            } else if (now.read) {
                const quint32 ignore = (1u << Atspi::StateFocused) | (1u << Atspi::StateActive) | (1u << 2 /*armed*/) |
                                       (1u << 20 /*pressed*/);
                if ((now.low & ~ignore) != (before.targetState.low & ~ignore) || now.high != before.targetState.high)
                    changes.append(QStringLiteral("the target's state changed"));
                if (now.nameRead && before.targetState.nameRead && now.name != before.targetState.name)
                    changes.append(QStringLiteral("the target's name changed"));
                if (now.countRead && before.targetState.countRead && now.childCount != before.targetState.childCount)
                    changes.append(QStringLiteral("the target's children changed"));
            }
        }
        if (windows && before.windowsRead && windows.value() != before.windows) {
            const int delta = static_cast<int>(windows->size() - before.windows.size());
            changes.append(delta > 0   ? QStringLiteral("a window appeared")
                           : delta < 0 ? QStringLiteral("a window closed")
                                       : QStringLiteral("the app's windows changed"));
        }
        if (!changes.isEmpty()) {
            v.effect = Effect::Confirmed;
            v.observed = QJsonObject{{QStringLiteral("changes"), QJsonArray::fromStringList(changes)},
                                     {QStringLiteral("events"), events}};
            break;
        }
        if (until.hasExpired() || context.checkpoint())
            break;
        QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(until.remainingTime(), 1, 25)));
    }
    if (v.effect != Effect::Confirmed && sawAnswer && !lastAnswered) {
        // The last look may have had little time: before calling the app busy, ask it once more.
        auto probe = m_bus.send(app.root, Interface::Accessible, QStringLiteral("GetRole"), {},
                                static_cast<int>(std::clamp<qint64>(context.remainingMs() - 100, 1, 200)));
        probe.waitForFinished();
        lastAnswered = !probe.isError();
    }
    if (v.effect != Effect::Confirmed && sawAnswer && lastAnswered && context.remainingMs() > 700) {
        // Before saying nothing happened, one late look: a handler that runs a moment later
        // (Qt presses a button 100 ms after the action, later still on a loaded machine) and
        // then keeps the app busy is an effect, not a no-op.
        QThread::msleep(150);
        m_bus.tree()->sync();
        auto probe = m_bus.send(app.root, Interface::Accessible, QStringLiteral("GetRole"), {}, 300);
        probe.waitForFinished();
        lastAnswered = !probe.isError();
        for (const auto& a : m_bus.tree()->activitySince(before.service, before.mark)) {
            if (!before.noisy.contains(a.path + QLatin1Char('|') + a.kind) && !isActivationEvent(a.kind) &&
                a.path != before.target.path) {
                v.effect = Effect::Confirmed;
                v.observed = QJsonObject{
                    {QStringLiteral("changes"), QJsonArray{QStringLiteral("the app reported changes")}},
                    {QStringLiteral("events"),
                     QJsonArray{QJsonObject{{QStringLiteral("kind"), a.kind}, {QStringLiteral("path"), a.path}}}}};
                break;
            }
        }
    }
    if (v.effect != Effect::Confirmed) {
        if (sawAnswer && lastAnswered) {
            v.effect = Effect::SuspectedNoop;
            v.reason = QStringLiteral("nothing changed in the app within %1 ms").arg(timer.elapsed());
        } else {
            // An app that stops answering right after an action is most likely busy with it.
            v.effect = Effect::Unverifiable;
            v.reason = sawAnswer
                           ? QStringLiteral("the app stopped answering right after the action (it is probably "
                                            "still handling it)")
                           : QStringLiteral("the app has not answered since the action (it may still be handling it)");
        }
        v.observed = QJsonObject{{QStringLiteral("changes"), QJsonArray()},
                                 {QStringLiteral("appAnswered"), sawAnswer},
                                 {QStringLiteral("appAnswering"), lastAnswered}};
    } else {
        settle(before, context);
    }
    m_settledAt.insert(before.service, m_bus.tree()->nowMs());
    v.verifyMs = timer.elapsed();
    if (answered)
        *answered = sawAnswer;
    return v;
}

} // namespace Automation
