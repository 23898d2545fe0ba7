#include "automation/backends/atspi/AtspiInput.h"

#include "automation/ChordPlayer.h"
#include "automation/TextDelivery.h"
#include "automation/TypingLadder.h"
#include "automation/backends/atspi/AtspiApps.h"
#include "automation/backends/atspi/AtspiRoles.h"
#include "automation/backends/atspi/AtspiTreeReader.h"
#include "automation/backends/atspi/AtspiVerifier.h"
#include "automation/backends/atspi/X11Clipboard.h"
#include "automation/backends/atspi/X11Session.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QRegularExpression>
#include <QThread>

namespace Automation {

using Atspi::App;
using Atspi::firstArgument;
using Atspi::Interface;
using Atspi::Ref;
using Atspi::unwrap;
using Baseline = AtspiVerifier::Baseline;
using ElementState = AtspiVerifier::ElementState;

namespace {

// The actions that click an element, best first. Qt's menu-bar entries offer only "showMenu".
const QStringList& pressActions()
{
    // Gecko names its actions after what they do: "check"/"uncheck" on a checkbox, "select"
    // on a radio button, "switch" on a tab, "jump" on a link.
    static const QStringList order{QStringLiteral("press"),  QStringLiteral("click"),   QStringLiteral("activate"),
                                   QStringLiteral("toggle"), QStringLiteral("check"),   QStringLiteral("uncheck"),
                                   QStringLiteral("select"), QStringLiteral("switch"),  QStringLiteral("jump"),
                                   QStringLiteral("open"),   QStringLiteral("showmenu")};
    return order;
}

bool isPressAction(const QString& name)
{
    return pressActions().contains(name.toLower());
}

int pressRank(const QString& name)
{
    const auto i = pressActions().indexOf(name.toLower());
    return i < 0 ? 1000 : static_cast<int>(i);
}

// The keys go out through XTest.
class X11KeySink final : public KeySink
{
public:
    explicit X11KeySink(X11Session& x11) : m_x11(x11) {}

    std::optional<Error> key(Key key, bool press) override
    {
        QString error;
        if (!m_x11.key(static_cast<unsigned long>(key), press, &error))
            return Error::make(ErrorCode::InternalError, error);
        return std::nullopt;
    }

    std::optional<Error> typeCharacter(char32_t character) override
    {
        QString error;
        if (!m_x11.typeCodePoint(character, &error))
            return Error::make(ErrorCode::InternalError, error);
        return std::nullopt;
    }

private:
    X11Session& m_x11;
};

} // namespace

AtspiInput::AtspiInput(AtspiBus& bus, AtspiApps& apps, AtspiTreeReader& tree, AtspiVerifier& verifier, X11Session& x11,
                       X11Clipboard& clipboard)
    : m_bus(bus), m_apps(apps), m_tree(tree), m_verifier(verifier), m_x11(x11), m_clipboard(clipboard),
      m_keys(std::make_unique<X11KeySink>(x11))
{
}

AtspiInput::~AtspiInput() = default;

Status AtspiInput::focusWindow(const ResolvedRoute& route, const CallContext& context)
{
    const quint64 window = route.nativeWindow ? route.nativeWindow : m_x11.findWindow(route.pid, route.windowTitle);
    if (window) {
        m_x11.activate(window, static_cast<int>(std::min<qint64>(1000, context.remainingMs())),
                       [&context] { return context.checkpoint().has_value(); });
        if (auto stop = context.checkpoint())
            return *stop;
        return success();
    }
    if (route.inaccessible)
        return *route.inaccessible;
    // No X window known for it: ask the toolkit.
    auto grab = m_bus.send(Ref::fromHandle(route.windowHandle), Interface::Component, QStringLiteral("GrabFocus"), {},
                           m_bus.callTimeout(context));
    if (auto err = m_bus.wait(grab, context, QStringLiteral("Component.GrabFocus")))
        return *err;
    return success();
}

Result<ActionOutcome> AtspiInput::activateMenuItem(const ResolvedRoute& route, const Node& item, const Node* menu,
                                                   const CallContext& context)
{
    const App app = m_apps.appOf(route, context);
    // GTK marks the items of an open menu showing.
    if (!menu || !app.isGtk3() || item.path.isEmpty() || !item.has(StateShowing))
        return press(route, item, context);
    const Ref menuRef = Ref::fromHandle(menu->handle);
    const int index = item.path.last();
    auto select =
        m_bus.send(menuRef, Interface::Selection, QStringLiteral("SelectChild"), {index}, m_bus.callTimeout(context));
    if (auto err = m_bus.wait(select, context, QStringLiteral("Selection.SelectChild"), &app)) {
        if (err->code == ErrorCode::Aborted || err->code == ErrorCode::Timeout)
            return *err;
        return press(route, item, context);
    }
    if (!firstArgument(select).toBool())
        return press(route, item, context);
    if (auto stop = context.checkpoint())
        return *stop;
    // The menu holds the keyboard while it is open: Return activates its highlighted item.
    if (auto err = ChordPlayer(*m_keys).play({X11Session::keysymReturn()}, context))
        return *err;
    ActionOutcome out;
    out.deliveredBy = QStringLiteral("keyboard:menu");
    out.details = QJsonObject{{QStringLiteral("highlighted"), index}};
    Verification& v = out.verification;
    v.expected = QStringLiteral("the menu closes after Return on its highlighted item");
    const Ref itemRef = Ref::fromHandle(item.handle);
    QElapsedTimer timer;
    timer.start();
    bool closed = false;
    QDeadlineTimer until(std::min<qint64>(1500, std::max<qint64>(0, context.remainingMs() - 300)));
    while (!closed && !until.hasExpired() && !context.checkpoint()) {
        auto state = m_bus.send(itemRef, Interface::Accessible, QStringLiteral("GetState"), {},
                                std::min(500, m_bus.callTimeout(context)));
        state.waitForFinished();
        if (state.isError()) {
            // An item that is gone is in a closed menu.
            closed = Atspi::failureOf(state) == Atspi::CallFailure::Gone;
            if (!closed)
                QThread::msleep(40);
            continue;
        }
        const QList<quint32> words = Atspi::uintList(firstArgument(state));
        closed = !Atspi::hasState(words.value(0), words.value(1), Atspi::StateShowing);
        if (!closed)
            QThread::msleep(40);
    }
    v.verifyMs = timer.elapsed();
    v.observed = QJsonObject{{QStringLiteral("menuClosed"), closed}};
    v.effect = closed ? Effect::Confirmed : Effect::SuspectedNoop;
    if (!closed)
        v.reason = QStringLiteral("the menu is still open after Return");
    out.verified = closed;
    return out;
}

Result<ActionOutcome> AtspiInput::press(const ResolvedRoute& route, const Node& element, const CallContext& context)
{
    const App app = m_apps.appOf(route, context);
    const Ref ref = Ref::fromHandle(element.handle);
    QStringList names = m_tree.actionNamesOf(ref, app, context);
    if (auto stop = context.checkpoint())
        return *stop;
    const auto bestAction = [&names] {
        int best = -1;
        for (int i = 0; i < names.size(); ++i) {
            if (isPressAction(names[i]) && (best < 0 || pressRank(names[i]) < pressRank(names[best])))
                best = i;
        }
        return best;
    };
    int best = bestAction();
    // A control that always has an action may not have it yet: Gecko fills in a new page's
    // actions a moment after the element appears. Ask again for a while before giving up.
    static const QStringList actionable{QStringLiteral("AXButton"),      QStringLiteral("AXCheckBox"),
                                        QStringLiteral("AXRadioButton"), QStringLiteral("AXLink"),
                                        QStringLiteral("AXMenuItem"),    QStringLiteral("AXMenuBarItem"),
                                        QStringLiteral("AXMenuButton"),  QStringLiteral("AXPopUpButton")};
    if (best < 0 && actionable.contains(element.role)) {
        QDeadlineTimer until(std::min<qint64>(1500, context.remainingMs() / 3));
        while (best < 0 && !until.hasExpired()) {
            if (auto stop = context.checkpoint())
                return *stop;
            QThread::msleep(100);
            names = m_tree.actionNamesOf(ref, app, context);
            best = bestAction();
        }
    }
    if (best < 0) {
        // Asked again (after the wait above), the element still has none: not retryable.
        return Error::make(ErrorCode::ElementNotFound,
                           QStringLiteral("the element has no press, click or activate action"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_action")},
                                       {QStringLiteral("actions"), QJsonArray::fromStringList(names)}})
            .withRetryable(false);
    }
    // Like a person, wait for a control that is still disabled to become usable (a dialog's
    // Save turns sensitive a moment after its name field is filled): pressing it now would do
    // nothing. Give up after a while, having sent nothing.
    {
        QDeadlineTimer until(std::min<qint64>(2000, context.remainingMs() / 3));
        ElementState state = m_verifier.readElementState(ref, m_bus.callTimeout(context));
        while (state.read && !Atspi::hasState(state.low, state.high, Atspi::StateSensitive) && !until.hasExpired()) {
            if (auto stop = context.checkpoint())
                return *stop;
            QThread::msleep(25);
            state = m_verifier.readElementState(ref, m_bus.callTimeout(context));
        }
        if (state.read && !Atspi::hasState(state.low, state.high, Atspi::StateSensitive))
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("the element is disabled; nothing was pressed"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("disabled")},
                                           {QStringLiteral("element"), ElementRef::fromNode(element).toJson()}});
        // GTK 3 runs a menu item's action inside DoAction: an item that opens a modal dialog
        // (gtk_dialog_run) holds the app's bus connection until the dialog closes, so the app
        // answers nothing, and the next key a person types hangs it for good (the bridge's key
        // listener waits on that same connection). Such an item is picked through its open
        // menu with the keyboard instead (the engine does, from the menu bar down); nothing is
        // sent here.
        if (app.isGtk3() && element.role == QLatin1String("AXMenuItem") && state.read &&
            !Atspi::hasState(state.low, state.high, Atspi::StateShowing))
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("the menu item is in a closed menu: GTK 3 would run its action "
                                              "inside the accessibility call; open its menu first"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("menu_closed")},
                                           {QStringLiteral("element"), ElementRef::fromNode(element).toJson()}})
                .withRetryable(false);
    }
    const Baseline before = m_verifier.baseline(app, &ref, context);
    if (auto stop = context.checkpoint())
        return *stop;
    // Qt answers DoAction only once the slot returns, so an action that opens a modal dialog
    // has no reply until the dialog closes. Wait briefly for the reply, then look at the app
    // instead: a dialog that appeared is the effect, and the app is not hung.
    const int replyWaitMs = context.callTimeoutMs(700);
    auto done = m_bus.send(ref, Interface::Action, QStringLiteral("DoAction"), {best}, replyWaitMs);
    done.waitForFinished();
    if (auto stop = context.checkpoint())
        return *stop;
    bool pending = false;
    if (done.isError()) {
        // The step that sends input: whatever failed, pressing again could press twice, so
        // nothing here is retryable, and a lost bus is not told apart from any other failure.
        const auto failure = Atspi::failureOf(done);
        if (failure == Atspi::CallFailure::Unanswered) {
            pending = true;
        } else if (failure == Atspi::CallFailure::Gone) {
            return Error::make(ErrorCode::StaleSnapshot, QStringLiteral("the element went away before it was pressed"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
        } else {
            return Error::make(
                       ErrorCode::InternalError,
                       QStringLiteral("AT-SPI DoAction failed: %1 %2").arg(done.error().name(), done.error().message()))
                .withRetryable(false);
        }
    } else if (!firstArgument(done).toBool()) {
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("the application refused the action \"%1\"").arg(names[best]),
                           QJsonObject{{QStringLiteral("action"), names[best]},
                                       {QStringLiteral("reason"), QStringLiteral("refused")}})
            .withRetryable(false);
    }
    bool answered = false;
    Verification v = m_verifier.verifyChange(app, before, QStringLiteral("a change in the app after the action"),
                                             pending ? 2000 : 600, context, &answered);
    if (pending && v.effect == Effect::SuspectedNoop) {
        // The action has not returned: it may still be doing its work (a nested event loop
        // without a new window). Retrying would run it twice.
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the action has not returned yet and nothing has changed so far");
    }
    const QString deliveredBy = QStringLiteral("accessibilityAction:") + names[best].toLower();
    QJsonObject path{{QStringLiteral("path"), deliveredBy},
                     {QStringLiteral("effect"), effectName(v.effect)},
                     {QStringLiteral("observed"), v.observed},
                     {QStringLiteral("replied"), !pending}};
    v.paths.append(path);
    if (pending && v.effect == Effect::Confirmed)
        v.observed.insert(QStringLiteral("actionStillRunning"), true);
    QJsonObject details{{QStringLiteral("action"), names[best]}, {QStringLiteral("index"), best}};
    if (pending)
        details.insert(QStringLiteral("reply"),
                       QStringLiteral("none yet: the app is still in the action (e.g. a modal dialog)"));
    ActionOutcome outcome{deliveredBy, v.effect == Effect::Confirmed, details, v};
    return outcome;
}

Result<ActionOutcome> AtspiInput::clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                          const Node* target)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const App app = m_apps.appOf(route, context);
    // The element under the pointer taking focus (or looking pressed) is not the click's effect.
    const Ref targetRef = target ? Ref::fromHandle(target->handle) : Ref{};
    const Baseline before = m_verifier.baseline(app, target ? &targetRef : nullptr, context);
    QString error;
    if (!m_x11.click(
            point, [&context] { return context.checkpoint().has_value(); }, &error)) {
        if (auto stop = context.checkpoint())
            return *stop;
        return Error::make(ErrorCode::PermissionMissing, error);
    }
    Verification v =
        m_verifier.verifyChange(app, before, QStringLiteral("a change in the app after the click"), 600, context);
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("pointer")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("pointer"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("x"), point.x()}, {QStringLiteral("y"), point.y()}}, v};
}

bool AtspiInput::windowTookFocus(quint64 activeBefore, Verification& v)
{
    const quint64 now = m_x11.activeWindow();
    if (activeBefore == 0 || now == 0 || now == activeBefore)
        return false;
    const auto window = m_x11.describeWindow(now);
    const QString title = window ? window->title : QString();
    v.observed.insert(QStringLiteral("focusMovedTo"),
                      QJsonObject{{QStringLiteral("title"), title},
                                  {QStringLiteral("nativeId"), QStringLiteral("0x%1").arg(now, 0, 16)},
                                  {QStringLiteral("pid"), window ? window->pid : 0}});
    v.reason = QStringLiteral("the window \"%1\" took the focus while the text went out: the rest of it may have "
                              "gone there")
                   .arg(title);
    return true;
}

std::optional<Error> AtspiInput::bareWindowFocused(const ResolvedRoute& route)
{
    const quint64 active = m_x11.activeWindow();
    if (active == route.nativeWindow && m_x11.focusOwnerPid() == route.pid)
        return std::nullopt;
    return Error::make(
        ErrorCode::FocusLost,
        QStringLiteral("the window \"%1\" does not have the keyboard focus; nothing was sent").arg(route.windowTitle),
        QJsonObject{{QStringLiteral("route"), route.toJson()},
                    {QStringLiteral("activeWindow"), QStringLiteral("0x%1").arg(active, 0, 16)}});
}

Result<TypeOutcome> AtspiInput::typeIntoBareWindow(const ResolvedRoute& route, const QString& text,
                                                   const TypeOptions& options, const CallContext& context)
{
    if (options.clearBefore) {
        Error refused = *route.inaccessible;
        refused.message += QStringLiteral(": clearBefore needs the field's text, which it does not expose; nothing "
                                          "was typed");
        return refused;
    }
    auto ladder = TypingLadder::chosen({QStringLiteral("keys")}, options.delivery);
    if (!ladder)
        return ladder.error();
    if (auto err = bareWindowFocused(route))
        return *err;
    const quint64 activeBefore = m_x11.activeWindow();
    auto typed = ChordPlayer(*m_keys).type(text, context, options.keyDelayMs);
    // Keys borrowed for characters the keyboard lacks are given back once the app has read
    // them; nothing says when, so after a pause a person would not notice.
    QThread::msleep(100);
    m_x11.releaseBorrowedKeys();
    if (typed)
        return typed->withRetryable(false);
    TypeOutcome outcome;
    outcome.path = QStringLiteral("keys");
    Verification& v = outcome.verification;
    v.expected = QStringLiteral("the window shows the text");
    v.effect = Effect::Unverifiable;
    v.reason = QStringLiteral("the window exposes no accessibility: nothing can read back what arrived");
    v.observed = QJsonObject{{QStringLiteral("accessible"), false}, {QStringLiteral("focusedWindowPid"), route.pid}};
    if (windowTookFocus(activeBefore, v))
        v.effect = Effect::Partial;
    v.paths.append(QJsonObject{{QStringLiteral("path"), outcome.path},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return outcome;
}

Result<TypeOutcome> AtspiInput::typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                         const TypeOptions& options, const CallContext& context)
{
    if (route.inaccessible && !target)
        return typeIntoBareWindow(route, text, options, context);
    const quint64 activeBefore = m_x11.activeWindow();
    const App app = m_apps.appOf(route, context);
    bool secure = target && target->isSecure();
    bool terminal = target && target->nativeRole == QLatin1String("terminal");
    TypeOutcome outcome;
    Verification& v = outcome.verification;
    QElapsedTimer verifyTimer;
    qint64 verifyMs = 0;

    Ref ref;
    bool hasText = false, hasEditable = false;
    if (target) {
        ref = Ref::fromHandle(target->handle);
        auto ifaces =
            m_bus.send(ref, Interface::Accessible, QStringLiteral("GetInterfaces"), {}, m_bus.callTimeout(context));
        if (auto err = m_bus.wait(ifaces, context, QStringLiteral("GetInterfaces"), &app))
            return *err;
        const QStringList names = firstArgument(ifaces).toStringList();
        hasText = names.contains(QStringLiteral("org.a11y.atspi.Text"));
        hasEditable = names.contains(QStringLiteral("org.a11y.atspi.EditableText"));
        if (names.contains(QStringLiteral("org.a11y.atspi.Component"))) {
            auto grab =
                m_bus.send(ref, Interface::Component, QStringLiteral("GrabFocus"), {}, m_bus.callTimeout(context));
            if (auto err = m_bus.wait(grab, context, QStringLiteral("Component.GrabFocus"), &app);
                err && (err->code == ErrorCode::Aborted || err->code == ErrorCode::Timeout))
                return *err;
        }
    }

    // What the field holds now, where the caret is, and what it should hold afterwards.
    const auto readText = [&](QString* out, int timeoutMs = -1) {
        auto back =
            m_bus.send(ref, Interface::Text, QStringLiteral("GetText"), {0, -1},
                       timeoutMs > 0 ? std::min(timeoutMs, m_bus.callTimeout(context)) : m_bus.callTimeout(context));
        back.waitForFinished();
        if (back.isError())
            return false;
        *out = firstArgument(back).toString();
        return true;
    };
    const auto readCount = [&](int timeoutMs = -1) {
        auto count =
            m_bus.send(ref, Interface::Properties, QStringLiteral("Get"),
                       {QStringLiteral("org.a11y.atspi.Text"), QStringLiteral("CharacterCount")},
                       timeoutMs > 0 ? std::min(timeoutMs, m_bus.callTimeout(context)) : m_bus.callTimeout(context));
        count.waitForFinished();
        return count.isError() ? -1 : unwrap(firstArgument(count)).toInt();
    };
    const bool canRead = target && hasText && !secure;
    QString before;
    bool haveBefore = canRead && readText(&before);
    int countBefore = (target && hasText) ? readCount() : -1;
    int caret = -1;
    if (target && hasText) {
        auto c = m_bus.send(ref, Interface::Properties, QStringLiteral("Get"),
                            {QStringLiteral("org.a11y.atspi.Text"), QStringLiteral("CaretOffset")},
                            m_bus.callTimeout(context));
        c.waitForFinished();
        if (!c.isError())
            caret = unwrap(firstArgument(c)).toInt();
    }
    if (auto stop = context.checkpoint())
        return *stop;
    const bool utf16 = app.utf16Units();
    const qsizetype insertIndex =
        options.clearBefore ? 0 : TextDelivery::indexOfOffset(before, caret < 0 ? -1 : caret, utf16);
    const QString expected = TextDelivery::expectedAfter(before, insertIndex, text, options.clearBefore);
    const int insertOffset = TextDelivery::offsetOfIndex(before, insertIndex, utf16);
    const int textUnits = utf16 ? static_cast<int>(text.size()) : static_cast<int>(QStringView(text).toUcs4().size());
    const int expectedCount = options.clearBefore ? textUnits : (countBefore < 0 ? -1 : countBefore + textUnits);

    // Verifies the field after one delivery path: polls until it holds the expected text, or
    // until it stops changing, within `budgetMs`.
    QString lastRead = before;
    Effect lastEffect = Effect::SuspectedNoop;
    const auto verifyField = [&](int budgetMs, QJsonObject* observed) -> Effect {
        verifyTimer.restart();
        QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(budgetMs, context.remainingMs() - 150)));
        // Each read waits no longer than what is left of this path's verification.
        const auto readTimeout = [&until] {
            return static_cast<int>(std::clamp<qint64>(until.remainingTime(), 50, 500));
        };
        Effect effect = Effect::SuspectedNoop;
        if (canRead && haveBefore) {
            QString now = before, how;
            bool anyRead = false;
            QElapsedTimer stable;
            stable.start();
            QString previous = before;
            while (true) {
                if (readText(&now, readTimeout())) {
                    anyRead = true;
                    if (now != previous) {
                        previous = now;
                        stable.restart();
                    }
                    effect = TextDelivery::classify(before, expected, now, text, &how, options.clearBefore);
                    // Settled: confirmed, or something arrived and has not changed for 250 ms.
                    if (effect == Effect::Confirmed || (effect == Effect::Partial && stable.elapsed() >= 250))
                        break;
                }
                if (until.hasExpired() || context.checkpoint())
                    break;
                QThread::msleep(20);
            }
            // Not one read was answered within the budget: a busy app may answer one given more time.
            if (!anyRead && !context.checkpoint() && context.remainingMs() > 400 &&
                readText(&now, static_cast<int>(std::min<qint64>(1500, context.remainingMs() - 300)))) {
                anyRead = true;
                effect = TextDelivery::classify(before, expected, now, text, &how, options.clearBefore);
            }
            if (!anyRead) {
                // The app did not answer a single read after the input: it may be busy with it.
                // Nothing can be said, and moving on to another path could type the text twice.
                effect = Effect::Unverifiable;
                how = QStringLiteral("unreadable");
            } else {
                lastRead = now;
            }
            *observed = TextDelivery::observation(now);
            observed->insert(QStringLiteral("comparison"), how);
        } else if (target && hasText && countBefore >= 0) {
            // A secure field is never read; its length is the signal.
            int now = countBefore;
            while (true) {
                now = readCount(readTimeout());
                if (now == expectedCount || until.hasExpired() || context.checkpoint())
                    break;
                QThread::msleep(20);
            }
            // Not one read was answered within the budget: a busy app may still answer one
            // read given more time, and without it nothing can be said.
            if (now < 0 && !context.checkpoint() && context.remainingMs() > 400)
                now = readCount(static_cast<int>(std::min<qint64>(1500, context.remainingMs() - 300)));
            effect = TextDelivery::classifyCount(countBefore, expectedCount, now);
            *observed =
                QJsonObject{{QStringLiteral("characterCount"), now}, {QStringLiteral("expectedCount"), expectedCount}};
        } else {
            effect = Effect::Unverifiable;
        }
        verifyMs += verifyTimer.elapsed();
        lastEffect = effect;
        return effect;
    };
    // Puts the field back as it was before a path that did not deliver, so the next one does
    // not double the text. False when that cannot be done (the ladder then stops).
    const auto restore = [&]() {
        // A field that is never read (a secure one) can be tried again only when nothing arrived.
        if (!haveBefore)
            return lastEffect == Effect::SuspectedNoop;
        if (lastRead == before)
            return true;
        if (!hasEditable)
            return false;
        auto set = m_bus.send(ref, Interface::EditableText, QStringLiteral("SetTextContents"), {before},
                              m_bus.callTimeout(context));
        set.waitForFinished();
        QString now;
        const bool ok = !set.isError() && readText(&now) && now == before;
        if (ok)
            lastRead = before;
        return ok;
    };
    const auto placeCaret = [&]() {
        if (!target || !hasText)
            return;
        auto set = m_bus.send(ref, Interface::Text, QStringLiteral("SetCaretOffset"), {insertOffset},
                              m_bus.callTimeout(context));
        set.waitForFinished();
    };
    const auto clearByKeys = [&]() -> std::optional<Error> {
        if (hasEditable) {
            auto set = m_bus.send(ref, Interface::EditableText, QStringLiteral("SetTextContents"), {QString()},
                                  m_bus.callTimeout(context));
            set.waitForFinished();
            // Accepted is not done (Gecko accepts and ignores): the field must read back empty.
            QString now;
            const bool empty = canRead ? readText(&now) && now.isEmpty() : readCount() == 0;
            if (!set.isError() && firstArgument(set).toBool() && empty)
                return std::nullopt;
        }
        const unsigned long control = X11Session::keysymControl();
        if (auto err = ChordPlayer(*m_keys).play({control, m_x11.keysymForName(QStringLiteral("a"))}, context))
            return err;
        return ChordPlayer(*m_keys).play({X11Session::keysymBackSpace()}, context);
    };

    // Without a target there is nothing to read back: the app's own events tell what happened.
    std::optional<Baseline> noTargetBaseline;
    if (!target || !hasText)
        noTargetBaseline = m_verifier.baseline(app, target ? &ref : nullptr, context);

    // Without a target, the paste chord depends on what has focus (a terminal takes
    // Ctrl+Shift+V; to a shell Ctrl+V is a control character): the app's last focus report
    // tells. When nothing tells, the clipboard is skipped and the keys type the text.
    bool pasteKnown = target != nullptr;
    if (!target) {
        QString focusedPath;
        for (const auto& a : m_bus.tree()->activityAfterTime(app.root.service, 0)) {
            if (a.kind.startsWith(QLatin1String("Focus:")))
                focusedPath = a.path;
        }
        if (!focusedPath.isEmpty()) {
            auto role = m_bus.send(Ref{app.root.service, focusedPath}, Interface::Accessible, QStringLiteral("GetRole"),
                                   {}, m_bus.callTimeout(context));
            role.waitForFinished();
            if (!role.isError()) {
                pasteKnown = true;
                const QString nativeRole = Atspi::roleInfo(firstArgument(role).toUInt()).nativeRole;
                terminal = nativeRole == QLatin1String("terminal");
                // Untargeted text into a focused password field is a secret as much as
                // targeted text: never through the clipboard, and never kept.
                secure = isSecureRole(nativeRole);
            }
        }
    }
    // Gecko accepts InsertText into a password input and ignores it: its secure fields, and a
    // secure field whose length cannot be read, get keystrokes (TypingLadder::paths).
    TypingLadder::Facts facts;
    facts.editable = hasEditable;
    facts.terminal = terminal;
    facts.secure = secure;
    outcome.secure = secure;
    facts.lengthKnown = countBefore >= 0;
    facts.pasteKnown = pasteKnown;
    facts.secureInsertIgnored = app.toolkit.compare(QLatin1String("Gecko"), Qt::CaseInsensitive) == 0;
    const auto chosenLadder = TypingLadder::chosen(TypingLadder::paths(facts), options.delivery);
    if (!chosenLadder)
        return chosenLadder.error();
    const QStringList& ladder = chosenLadder.value();
    Effect effect = Effect::SuspectedNoop;
    bool stopped = false;
    for (const QString& path : ladder) {
        if (auto stop = context.checkpoint())
            return *stop;
        if (!v.paths.isEmpty() && !restore()) {
            stopped = true;
            v.reason = QStringLiteral("the field could not be put back after a partial delivery; stopped so as not to "
                                      "type the text twice");
            break;
        }
        QJsonObject observed;
        QJsonObject pathDetails;
        outcome.path = path;
        if (path == QLatin1String("editableText")) {
            const int length = TextDelivery::insertLength(text, utf16);
            auto edit = options.clearBefore
                            ? m_bus.send(ref, Interface::EditableText, QStringLiteral("SetTextContents"), {text},
                                         m_bus.callTimeout(context))
                            : m_bus.send(ref, Interface::EditableText, QStringLiteral("InsertText"),
                                         {insertOffset, text, length}, m_bus.callTimeout(context));
            if (auto err = m_bus.wait(edit, context, QStringLiteral("EditableText"), &app))
                return err->withRetryable(false);
            pathDetails.insert(QStringLiteral("accepted"), firstArgument(edit).toBool());
            pathDetails.insert(QStringLiteral("lengthUnit"),
                               utf16 ? QStringLiteral("utf16") : QStringLiteral("utf8Bytes"));
            effect = firstArgument(edit).toBool() ? verifyField(400, &observed) : Effect::SuspectedNoop;
        } else if (path == QLatin1String("clipboard")) {
            if (options.clearBefore) {
                if (auto err = clearByKeys())
                    return err->withRetryable(false);
            }
            placeCaret();
            // A terminal pastes with Ctrl+Shift+V; Ctrl+V would reach the shell as a control character.
            QList<KeySink::Key> chord{X11Session::keysymControl()};
            if (terminal)
                chord << m_x11.keysymForName(QStringLiteral("shift"));
            chord << m_x11.keysymForName(QStringLiteral("v"));
            std::optional<Error> pasteError;
            const auto pasted = m_clipboard.paste(
                text,
                [&] {
                    pasteError = ChordPlayer(*m_keys).play(chord, context);
                    return !pasteError.has_value();
                },
                static_cast<int>(std::min<qint64>(1000, context.remainingMs())));
            if (pasteError)
                return pasteError->withRetryable(false);
            pathDetails.insert(QStringLiteral("chord"),
                               terminal ? QStringLiteral("ctrl+shift+v") : QStringLiteral("ctrl+v"));
            if (pasted.outcome == X11Clipboard::Outcome::Pasted) {
                pathDetails.insert(QStringLiteral("clipboardRestored"), pasted.restored);
                pathDetails.insert(QStringLiteral("clipboardChangedMeanwhile"), pasted.changedMeanwhile);
                outcome.details.insert(QStringLiteral("clipboardRestored"), pasted.restored);
                outcome.details.insert(QStringLiteral("clipboardChangedMeanwhile"), pasted.changedMeanwhile);
                effect = (target && hasText) ? verifyField(1500, &observed) : Effect::Unverifiable;
            } else {
                pathDetails.insert(QStringLiteral("clipboard"),
                                   pasted.outcome == X11Clipboard::Outcome::NotRestorable
                                       ? QStringLiteral("holds non-text content: left alone")
                                       : QStringLiteral("the target did not paste"));
                if (!pasted.error.isEmpty())
                    pathDetails.insert(QStringLiteral("clipboardError"), pasted.error);
                // Nobody took the text: nothing arrived.
                effect = Effect::SuspectedNoop;
                if (target && hasText) {
                    verifyField(100, &observed);
                    if (lastRead != before)
                        effect = Effect::Partial;
                }
            }
        } else {
            if (options.clearBefore && !(target && hasText && lastRead.isEmpty() && haveBefore)) {
                if (auto err = clearByKeys())
                    return err->withRetryable(false);
            }
            placeCaret();
            auto typed = ChordPlayer(*m_keys).type(text, context, options.keyDelayMs);
            if (typed) {
                m_x11.releaseBorrowedKeys();
                return typed->withRetryable(false);
            }
            // Wait until the target has consumed the keys (its text shows them, or stops changing).
            const int codePoints = static_cast<int>(QStringView(text).toUcs4().size());
            if (target && hasText) {
                effect = verifyField(1000 + 15 * codePoints, &observed);
            } else {
                // Nothing to read back: wait until the app has shown the keys' effect and gone
                // quiet, so the borrowed keycodes are given back only after it read them.
                QDeadlineTimer until(
                    std::max<qint64>(0, std::min<qint64>(1000 + 15 * codePoints, context.remainingMs() - 150)));
                while (!until.hasExpired() && !context.checkpoint()) {
                    m_bus.tree()->sync();
                    const bool any =
                        !m_bus.tree()->activitySince(noTargetBaseline->service, noTargetBaseline->mark).isEmpty();
                    const bool recent = !m_bus.tree()
                                             ->activityAfterTime(noTargetBaseline->service, m_bus.tree()->nowMs() - 150)
                                             .isEmpty();
                    if (any && !recent)
                        break;
                    QThread::msleep(20);
                }
                effect = Effect::Unverifiable;
            }
            m_x11.releaseBorrowedKeys();
        }
        QJsonObject record{{QStringLiteral("path"), path},
                           {QStringLiteral("effect"), effectName(effect)},
                           {QStringLiteral("observed"), observed}};
        for (auto it = pathDetails.constBegin(); it != pathDetails.constEnd(); ++it)
            record.insert(it.key(), it.value());
        v.paths.append(record);
        v.observed = observed;
        if (effect == Effect::Confirmed || effect == Effect::Unverifiable)
            break;
    }
    Q_UNUSED(stopped)

    if (canRead && haveBefore) {
        outcome.readBack = true;
        outcome.matched = effect == Effect::Confirmed;
        v.expected = QStringLiteral("the field reads back the text inserted at the caret");
        v.observed.insert(QStringLiteral("expected"), TextDelivery::observation(expected));
    } else if (target && hasText && countBefore >= 0) {
        v.expected = QStringLiteral("the secure field's length grows by the text's length");
    }
    if (effect == Effect::Unverifiable && noTargetBaseline) {
        // No field to read: what the app itself reported after the input.
        Verification seen = m_verifier.verifyChange(app, *noTargetBaseline,
                                                    QStringLiteral("the app reports a text change"), 500, context);
        verifyMs += seen.verifyMs;
        // What the app says it inserted, and where: the text inserted into one element since
        // the input must hold what was sent (the element's old content does not count).
        QStringList inserted;
        QHash<QString, QString> insertedText;
        for (const auto& a : m_bus.tree()->activitySince(noTargetBaseline->service, noTargetBaseline->mark)) {
            if (!a.kind.startsWith(QLatin1String("TextChanged:insert")))
                continue;
            if (!inserted.contains(a.path))
                inserted.append(a.path);
            insertedText[a.path] += a.data;
        }
        v.expected = QStringLiteral("the app reports inserting the text into the focused element");
        v.observed = seen.observed;
        bool found = false;
        for (const QString& path : std::as_const(inserted)) {
            const QString got = QString(insertedText.value(path)).remove(QChar(0xFEFF));
            if (got.contains(text)) {
                found = true;
                QJsonObject readBack = TextDelivery::observation(got);
                readBack.insert(QStringLiteral("element"), path);
                v.observed.insert(QStringLiteral("inserted"), readBack);
                break;
            }
        }
        // The inserted pieces that are part of what was sent, in order; others (a spreadsheet's
        // name box showing the cell's address) are the app showing where the input went.
        QStringList related;
        bool unrelated = false;
        bool linesInOrder = false; ///< some lines of a multi-line text arrived whole, in order
        for (const QString& path : std::as_const(inserted)) {
            const QString piece = QString(insertedText.value(path)).remove(QChar(0xFEFF));
            if (piece.isEmpty())
                continue;
            if (text.contains(piece))
                related.append(piece);
            else
                unrelated = true;
        }
        if (!found) {
            // Text that a spreadsheet's cell cursor takes line by line (Return and Tab move to the
            // next cell): each line inserted into an element of its own, in order, is the text
            // arriving, not part of it.
            static const QRegularExpression separators(QStringLiteral("[\\r\\n\\t]+"));
            const QStringList lines = text.split(separators, Qt::SkipEmptyParts);
            if (lines.size() > 1 && related == lines) {
                found = true;
                QJsonObject readBack = TextDelivery::observation(related.join(QLatin1Char('\n')));
                readBack.insert(QStringLiteral("elements"), static_cast<int>(related.size()));
                v.observed.insert(QStringLiteral("inserted"), readBack);
                v.expected = QStringLiteral("the app reports inserting each line of the text into an element of "
                                            "its own, in order (a spreadsheet's cells)");
            } else if (lines.size() > 1 && !related.isEmpty()) {
                // Some lines reported, each whole and in order, the others not (LibreOffice reports
                // the first cell's editing only): nothing says a line is missing.
                qsizetype at = 0;
                linesInOrder = true;
                for (const QString& piece : std::as_const(related)) {
                    while (at < lines.size() && lines.at(at) != piece)
                        ++at;
                    if (at == lines.size()) {
                        linesInOrder = false;
                        break;
                    }
                    ++at;
                }
            }
        }
        if (found) {
            effect = Effect::Confirmed;
            outcome.readBack = true;
            outcome.matched = true;
        } else if (linesInOrder) {
            effect = Effect::Unverifiable;
            v.reason = QStringLiteral("the app reported some lines of the text arriving, each whole in an element of "
                                      "its own, and nothing about the others");
        } else if (!related.isEmpty()) {
            effect = Effect::Partial;
            v.reason = QStringLiteral("the app inserted part of the text that was sent, not all of it");
        } else if (unrelated) {
            // Not a word of what was sent: the app showed something else (where the cursor is), and
            // says nothing about the text itself.
            effect = Effect::Unverifiable;
            v.reason = QStringLiteral("the app reported inserting other text than what was sent, and none of it; "
                                      "pass a target to have it read back");
        } else if (!inserted.isEmpty()) {
            effect = Effect::Unverifiable;
            v.reason =
                QStringLiteral("the app reports inserting text but not which; pass a target to have it read back");
        } else if (seen.effect == Effect::SuspectedNoop) {
            effect = Effect::SuspectedNoop;
            v.reason = QStringLiteral("the app reported no change after the text was sent");
        } else {
            effect = Effect::Unverifiable;
            v.reason = QStringLiteral("no target was given and the app reported no inserted text to read back");
        }
        if (!v.paths.isEmpty()) {
            QJsonObject last = v.paths.last().toObject();
            last.insert(QStringLiteral("effect"), effectName(effect));
            v.paths.replace(v.paths.size() - 1, last);
        }
    }
    // Unless the field reads back the whole text, a window that took the focus while the text
    // went out (a dialog that Return opened) may have taken the rest of it.
    if (!(effect == Effect::Confirmed && outcome.readBack) && windowTookFocus(activeBefore, v))
        effect = Effect::Partial;
    v.effect = effect;
    v.verifyMs = verifyMs;
    // The field's own reports of this typing are not noise for the next action.
    m_verifier.markSettled(app.root.service);
    if (effect == Effect::SuspectedNoop && v.reason.isEmpty())
        v.reason = QStringLiteral("the text did not arrive by any path");
    if (effect == Effect::Unverifiable && v.reason.isEmpty())
        v.reason = QStringLiteral("the field could not be read back after the input");
    if (effect == Effect::Partial && v.reason.isEmpty())
        v.reason = QStringLiteral("the field does not hold the expected text");
    return outcome;
}

Result<ActionOutcome> AtspiInput::sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                            const CallContext& context)
{
    QList<KeySink::Key> keys;
    for (const auto& name : chord.names()) {
        const unsigned long keysym = m_x11.keysymForName(name);
        if (!keysym)
            return Error::invalidParam(QStringLiteral("keys"), QStringLiteral("no X key for \"%1\"").arg(name));
        keys.append(keysym);
    }
    if (route.inaccessible) {
        // A window without accessibility: the chord goes to it while it has the focus, and
        // nothing can tell what it did.
        if (auto err = bareWindowFocused(route))
            return *err;
        bool anyPressed = false;
        if (auto failure = ChordPlayer(*m_keys).play(keys, context, delayMs, &anyPressed))
            return anyPressed ? failure->withRetryable(false) : *failure;
        Verification v;
        v.expected = QStringLiteral("a change in the window after the keys");
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the window exposes no accessibility: nothing can tell what the keys did");
        v.observed =
            QJsonObject{{QStringLiteral("accessible"), false}, {QStringLiteral("focusedWindowPid"), route.pid}};
        v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("keyboard")},
                                   {QStringLiteral("effect"), effectName(v.effect)},
                                   {QStringLiteral("observed"), v.observed}});
        return ActionOutcome{QStringLiteral("keyboard"), false,
                             QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(chord.names())}}, v};
    }
    const App app = m_apps.appOf(route, context);
    const Baseline before = m_verifier.baseline(app, nullptr, context);
    // Keys go to the window with X focus: whose it is, is the evidence of where they went.
    const qint64 focusPid = m_x11.focusOwnerPid();
    bool anyPressed = false;
    if (auto failure = ChordPlayer(*m_keys).play(keys, context, delayMs, &anyPressed))
        return anyPressed ? failure->withRetryable(false) : *failure;
    Verification v =
        m_verifier.verifyChange(app, before, QStringLiteral("a change in the app after the keys"), 600, context);
    v.observed.insert(QStringLiteral("focusedWindowPid"), focusPid);
    if (v.effect == Effect::SuspectedNoop && focusPid == route.pid) {
        // The keys reached the app's focused window; a chord may act on what the accessibility
        // tree does not show (a canvas, a terminal's shell, nothing at all).
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the keys went to the app's focused window, but nothing it exposes changed");
    } else if (v.effect == Effect::SuspectedNoop) {
        v.reason = focusPid
                       ? QStringLiteral("the keys went to another app's window (pid %1) and the app did not change")
                             .arg(focusPid)
                       : QStringLiteral("no window had the keyboard focus and the app did not change");
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("keyboard")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("keyboard"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(chord.names())}}, v};
}

} // namespace Automation