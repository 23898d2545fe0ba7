#include "automation/backends/atspi/AtspiInput.h"

#include "automation/ChordPlayer.h"
#include "automation/TypingLadder.h"
#include "automation/backends/atspi/AtspiApps.h"
#include "automation/backends/atspi/AtspiRoles.h"
#include "automation/backends/atspi/AtspiTreeReader.h"
#include "automation/backends/atspi/AtspiTyping.h"
#include "automation/backends/atspi/AtspiVerifier.h"
#include "automation/backends/atspi/X11Clipboard.h"
#include "automation/backends/atspi/X11Session.h"

#include <QElapsedTimer>
#include <QJsonArray>
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
    return AtspiTyping(*this, route, target, text, options, context).run();
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