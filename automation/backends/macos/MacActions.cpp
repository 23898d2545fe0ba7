// The macOS backend's actions (MacBackend.h): presses, clicks at a point, typing, key chords and
// pointer gestures, each judged by what the app shows afterwards (Private::verifyChange).
#include "automation/backends/macos/MacBackendPrivate.h"

namespace Automation::Mac {

Result<ActionOutcome> MacBackend::press(const ResolvedRoute& route, const Node& element, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const auto target = d->element(element.handle);
    if (!target)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element is no longer known"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    d->budget(route.pid, m_api->applicationElement(route.pid), context);
    QStringList actions;
    const AxError listed = m_api->actionNames(*target, &actions);
    if (listed == AxError::ApiDisabled)
        return Private::permissionMissing();
    if (listed == AxError::InvalidElement)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element is gone"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    if (listed == AxError::CannotComplete)
        return d->unresponsive(route.pid, QStringLiteral("for its actions"));
    QString action;
    // AXShowMenu is not among them: it opens the element's context menu, which is no press (the
    // answer lists it among the actions, for a caller who wants the menu).
    for (const char* wanted : {"AXPress", "AXConfirm", "AXPick", "AXOpen"}) {
        if (actions.contains(QLatin1String(wanted))) {
            action = QLatin1String(wanted);
            break;
        }
    }
    if (action.isEmpty()) // asking again finds none either
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element has no action to press"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_action")},
                                       {QStringLiteral("actions"), QJsonArray::fromStringList(actions)}})
            .withRetryable(false);
    // Like a person, wait a moment for a disabled control to become usable (a dialog's Save
    // turns on once its name is filled in); pressing it now would do nothing.
    {
        QDeadlineTimer until(std::min<qint64>(2000, context.remainingMs() / 3));
        const auto enabled = [&] {
            auto r = d->read(route.pid, *target, {QStringLiteral("AXEnabled")}, context);
            return !r || boolOf(r->at(0), true);
        };
        bool usable = enabled();
        while (!usable && !until.hasExpired()) {
            if (auto stop = context.checkpoint())
                return *stop;
            QThread::msleep(25);
            usable = enabled();
        }
        if (!usable)
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("the element is disabled; nothing was pressed"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("disabled")},
                                           {QStringLiteral("element"), ElementRef::fromNode(element).toJson()}});
    }
    const Private::Baseline before = d->baseline(route, context);
    if (auto stop = context.checkpoint())
        return *stop;
    const AxError done = m_api->performAction(*target, action);
    bool pending = false;
    switch (done) {
    case AxError::Success:
        break;
    case AxError::CannotComplete:
        // The app took the action but did not reply within the messaging timeout: typical of a
        // button that opens a modal dialog. It may well have run; retrying would run it twice.
        pending = true;
        break;
    case AxError::ApiDisabled:
        return Private::permissionMissing();
    case AxError::InvalidElement:
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element went away"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    default:
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("the app refused the action \"%1\" (%2)").arg(action, axErrorName(done)),
                           QJsonObject{{QStringLiteral("action"), action},
                                       {QStringLiteral("reason"), QStringLiteral("refused")}})
            .withRetryable(false);
    }
    Verification v = d->verifyChange(route, before, QStringLiteral("a change in the app after the action"),
                                     pending ? 2000 : kVerifyMs, context, element.handle);
    if (pending && v.effect != Effect::Confirmed) {
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the app has not replied to the action yet and nothing has changed so far");
    }
    const QString deliveredBy = QStringLiteral("accessibilityAction:") + action.mid(2).toLower();
    v.paths.append(QJsonObject{{QStringLiteral("path"), deliveredBy},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed},
                               {QStringLiteral("replied"), !pending}});
    QJsonObject details{{QStringLiteral("action"), action}};
    if (pending)
        details.insert(QStringLiteral("reply"),
                       QStringLiteral("none yet: the app is still in the action (e.g. a modal dialog)"));
    return ActionOutcome{deliveredBy, v.effect == Effect::Confirmed, details, v};
}

Result<std::optional<CoveringWindow>> MacBackend::windowAbove(const ResolvedRoute& route, QPoint point,
                                                              const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    // The window server's list is front to back: the first window holding the point that is
    // not the app's own covers it. What a person cannot see or click does not cover: invisible
    // overlays (alpha 0), and the windows of the system's own processes (the Dock, the menu bar
    // and its status items, notification banners), which are no regular app's.
    QSet<qint64> regular;
    for (const RunningApp& app : m_api->runningApplications())
        if (app.regular)
            regular.insert(app.pid);
    for (const auto& w : m_api->windowList()) {
        if (!w.onScreen || w.layer < 0 || w.alpha <= 0.0 || !w.bounds.contains(QPointF(point)))
            continue;
        if (w.pid != route.pid && !regular.contains(w.pid))
            continue;
        if (w.pid == route.pid)
            return std::optional<CoveringWindow>();
        return std::optional<CoveringWindow>(
            CoveringWindow{w.title, w.pid,
                           Frame{static_cast<int>(w.bounds.x()), static_cast<int>(w.bounds.y()),
                                 static_cast<int>(w.bounds.width()), static_cast<int>(w.bounds.height())}});
    }
    return std::optional<CoveringWindow>();
}

Result<ActionOutcome> MacBackend::clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                          const Node* target)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const Private::Baseline before = d->baseline(route, context);
    if (auto stop = context.checkpoint())
        return *stop;
    const QPointF at(point);
    if (!m_api->moveMouse(at) || !m_api->postMouse(at, AxApi::MouseButton::Left, true, 1))
        return Error::make(ErrorCode::InternalError, QStringLiteral("the mouse event could not be created"));
    if (!m_api->postMouse(at, AxApi::MouseButton::Left, false, 1))
        return Error::make(ErrorCode::InternalError, QStringLiteral("the mouse button could not be released"))
            .withRetryable(false);
    Verification v = d->verifyChange(route, before, QStringLiteral("a change in the app after the click"), kVerifyMs,
                                     context, target ? target->handle : QString());
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("pointer")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("pointer"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("x"), point.x()}, {QStringLiteral("y"), point.y()}}, v};
}

Result<TypeOutcome> MacBackend::typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                         const TypeOptions& options, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const AxElement app = m_api->applicationElement(route.pid);
    std::optional<AxElement> field;
    bool secure = false;
    if (target) {
        field = d->element(target->handle);
        if (!field)
            return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element is no longer known"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
        secure = target->isSecure();
        // Focus it; the keys and the paste go where the focus is.
        d->budget(route.pid, app, context);
        m_api->setAttribute(*field, QStringLiteral("AXFocused"), AxValue::ofBool(true));
        auto focused = d->read(route.pid, *field, {QStringLiteral("AXFocused")}, context);
        if (!focused)
            return focused.error();
        if (!boolOf(focused->at(0)))
            return Error::make(ErrorCode::FocusLost, QStringLiteral("the field did not take the keyboard focus"),
                               QJsonObject{{QStringLiteral("element"), target->title}});
    } else {
        auto focused = d->read(route.pid, app, {QStringLiteral("AXFocusedUIElement")}, context);
        if (!focused)
            return focused.error();
        if (focused->at(0).error == AxError::Success && !focused->at(0).value.element.isNull()) {
            auto role = d->read(route.pid, focused->at(0).value.element, {QStringLiteral("AXSubrole")}, context);
            secure = role && stringOf(role->at(0)) == QLatin1String("AXSecureTextField");
        }
    }

    // What the field tells: its text (never a secure one's), its length, the caret.
    const auto readField = [&](QString* value, int* count, qint64* caret) -> bool {
        if (!field)
            return false;
        // A secret's value is never asked for: its character count and the caret only.
        const QStringList names =
            secure ? QStringList{QStringLiteral("AXNumberOfCharacters"), QStringLiteral("AXSelectedTextRange")}
                   : QStringList{QStringLiteral("AXNumberOfCharacters"), QStringLiteral("AXSelectedTextRange"),
                                 QStringLiteral("AXValue")};
        auto r = d->read(route.pid, *field, names, context);
        if (!r)
            return false;
        const bool valueRead = !secure && r->at(2).error == AxError::Success;
        if (value)
            *value = valueRead ? stringOf(r->at(2)) : QString();
        if (count)
            *count = r->at(0).error == AxError::Success ? static_cast<int>(r->at(0).value.number)
                     : valueRead                        ? static_cast<int>(stringOf(r->at(2)).size())
                                                        : -1;
        if (caret)
            *caret = r->at(1).error == AxError::Success ? r->at(1).value.rangeLocation : -1;
        return secure ? r->at(0).error == AxError::Success : valueRead;
    };
    QString before;
    int countBefore = -1;
    qint64 caret = -1;
    const bool canRead = readField(&before, &countBefore, &caret);

    TypingLadder::Facts facts;
    facts.editable = field.has_value() && target && isTextRole(target->role);
    facts.terminal = isTerminal(route.bundleId);
    facts.secure = secure;
    facts.lengthKnown = countBefore >= 0;
    // The pasteboard only into a field known not to be a secret (TypingLadder keeps secrets off it);
    // with no target the focus may be anything, so keys.
    facts.pasteKnown = field.has_value();
    auto ladder = TypingLadder::chosen(TypingLadder::paths(facts), options.delivery);
    if (!ladder)
        return ladder.error();

    const qsizetype index = options.clearBefore ? 0
                            : caret >= 0        ? TextDelivery::indexOfOffset(before, static_cast<int>(caret), true)
                                                : before.size();
    const QString expected = TextDelivery::expectedAfter(before, index, text, options.clearBefore);
    const int expectedCount = options.clearBefore
                                  ? static_cast<int>(text.size())
                                  : (countBefore >= 0 ? countBefore + static_cast<int>(text.size()) : -1);

    TypeOutcome outcome;
    outcome.secure = secure;
    Verification v;
    Effect effect = Effect::SuspectedNoop;
    QElapsedTimer verifyTimer;
    qint64 verifyMs = 0;
    bool anySent = false;
    const auto verifyField = [&](int ms, QJsonObject* observed) {
        verifyTimer.restart();
        QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(ms, context.remainingMs() - 100)));
        // Nothing read back at all: nothing can tell whether the text arrived, and another path
        // could type it a second time.
        Effect seen = Effect::Unverifiable;
        while (true) {
            QString now;
            int count = -1;
            if (readField(&now, &count, nullptr)) {
                if (secure) {
                    seen = TextDelivery::classifyCount(countBefore, expectedCount, count);
                    *observed = QJsonObject{{QStringLiteral("countBefore"), countBefore},
                                            {QStringLiteral("countAfter"), count}};
                } else {
                    QString how;
                    seen = TextDelivery::classify(before, expected, now, text, &how, options.clearBefore);
                    *observed = QJsonObject{{QStringLiteral("readBack"), TextDelivery::observation(now)},
                                            {QStringLiteral("comparison"), how}};
                }
            }
            if (seen == Effect::Confirmed || until.hasExpired() || context.checkpoint())
                break;
            m_api->pumpNotifications(10);
            QThread::msleep(25);
        }
        verifyMs += verifyTimer.elapsed();
        return seen;
    };
    // Select all of the field through AX (no key can mean something else on another layout),
    // else Command and the key that types "a" on the selected layout.
    const int lengthBefore = countBefore >= 0 ? countBefore : static_cast<int>(before.size());
    const auto selectAll = [&]() -> std::optional<Error> {
        if (field && canRead &&
            m_api->setAttribute(*field, QStringLiteral("AXSelectedTextRange"), AxValue::ofRange(0, lengthBefore)) ==
                AxError::Success)
            return std::nullopt;
        return ChordPlayer(d->keys).play({0x37, d->keyForName(QStringLiteral("a"))}, context);
    };

    for (const QString& path : ladder.value()) {
        if (auto stop = context.checkpoint())
            return anySent ? stop->withRetryable(false) : *stop;
        outcome.path = path;
        QJsonObject observed;
        QJsonObject record{{QStringLiteral("path"), path}};
        if (path == QLatin1String("editableText")) {
            AxError set = AxError::Failure;
            if (options.clearBefore) {
                // Through the field editor (AXSelectedText), as typing goes, so an app that
                // enables Send or Save on a change hears of it; a bare AXValue write bypasses it.
                set = m_api->setAttribute(*field, QStringLiteral("AXSelectedTextRange"),
                                          AxValue::ofRange(0, lengthBefore));
                set = set == AxError::Success
                          ? m_api->setAttribute(*field, QStringLiteral("AXSelectedText"), AxValue::ofString(text))
                          : m_api->setAttribute(*field, QStringLiteral("AXValue"), AxValue::ofString(text));
            } else {
                if (caret >= 0)
                    m_api->setAttribute(*field, QStringLiteral("AXSelectedTextRange"), AxValue::ofRange(caret, 0));
                set = m_api->setAttribute(*field, QStringLiteral("AXSelectedText"), AxValue::ofString(text));
            }
            // No reply in time is no proof that nothing was set.
            anySent = anySent || set == AxError::Success || set == AxError::CannotComplete;
            record.insert(QStringLiteral("axError"), axErrorName(set));
            effect = set == AxError::Success || set == AxError::CannotComplete ? verifyField(500, &observed)
                                                                               : Effect::SuspectedNoop;
        } else if (path == QLatin1String("clipboard")) {
            // Only a pasteboard that holds text can be put back as it was: one with an image,
            // files or nothing is left alone and the ladder goes on to the keys.
            const std::optional<QString> saved = m_api->pasteboardString();
            if (!saved) {
                record.insert(QStringLiteral("skipped"),
                              QStringLiteral("the pasteboard holds no text that could be put back afterwards"));
                v.paths.append(record);
                continue;
            }
            if (!m_api->setPasteboardString(text)) {
                record.insert(QStringLiteral("error"), QStringLiteral("the pasteboard could not be written"));
                v.paths.append(record);
                continue;
            }
            const qint64 ours = m_api->pasteboardChangeCount();
            // Put back what the person had on every way out, unless something else wrote the
            // pasteboard meanwhile.
            const auto putBack = [&] {
                const bool untouched = m_api->pasteboardChangeCount() == ours;
                if (untouched)
                    m_api->setPasteboardString(*saved);
                return untouched;
            };
            auto restore = qScopeGuard(putBack);
            if (options.clearBefore)
                if (auto err = selectAll())
                    return err->withRetryable(false);
            const QList<KeySink::Key> paste{0x37, d->keyForName(QStringLiteral("v"))};
            bool pressed = false;
            if (auto err = ChordPlayer(d->keys).play(paste, context, 0, &pressed))
                return pressed ? err->withRetryable(false) : *err;
            anySent = true;
            effect = verifyField(1000, &observed);
            restore.dismiss();
            const bool untouched = putBack();
            record.insert(QStringLiteral("clipboardRestored"), untouched);
            record.insert(QStringLiteral("clipboardChangedMeanwhile"), !untouched);
        } else {
            if (options.clearBefore) {
                if (auto err = selectAll())
                    return err->withRetryable(false);
                if (auto err = ChordPlayer(d->keys).play({0x33}, context)) // backspace
                    return err->withRetryable(false);
            }
            anySent = true;
            // A CJK input method would take the key events into its composition: an ASCII-capable
            // layout is selected while the keys go out, and the person's source is put back.
            QString inputSource;
            const bool asciiSource = m_api->selectAsciiInputSource(&inputSource);
            auto restoreSource = qScopeGuard([&] { m_api->restoreInputSource(inputSource); });
            record.insert(QStringLiteral("inputSourceSwitched"), !inputSource.isEmpty());
            if (!asciiSource)
                record.insert(QStringLiteral("inputSource"),
                              QStringLiteral("no ASCII-capable keyboard layout could be selected"));
            if (auto err = ChordPlayer(d->keys).type(text, context, options.keyDelayMs))
                return err->withRetryable(false);
            const int codePoints = static_cast<int>(QStringView(text).toUcs4().size());
            effect = field ? verifyField(1000 + 15 * codePoints, &observed) : Effect::Unverifiable;
        }
        record.insert(QStringLiteral("effect"), effectName(effect));
        record.insert(QStringLiteral("observed"), observed);
        v.paths.append(record);
        v.observed = observed;
        if (effect == Effect::Confirmed)
            break;
        if (effect == Effect::Partial || (effect == Effect::Unverifiable && anySent))
            break; // part of it arrived, or nothing can tell: another path would type it twice
    }
    if (field && canRead && !secure) {
        outcome.readBack = true;
        outcome.matched = effect == Effect::Confirmed;
        v.expected = QStringLiteral("the field reads back the text inserted at the caret");
        v.observed.insert(QStringLiteral("expected"), TextDelivery::observation(expected));
    } else if (field && secure) {
        // A secret is never read back: only its length is compared.
        v.expected = QStringLiteral("the secure field's length grows by the text's length");
    } else if (!field) {
        v.expected = QStringLiteral("the text goes to the focused element");
        if (effect == Effect::Unverifiable)
            v.reason =
                QStringLiteral("no target was given, so nothing is read back; pass a target to have it verified");
    }
    if (effect == Effect::SuspectedNoop && v.reason.isEmpty())
        v.reason = QStringLiteral("the field does not read back the text");
    v.effect = effect;
    v.verifyMs = verifyMs;
    outcome.verification = v;
    outcome.details = QJsonObject{{QStringLiteral("paths"), QJsonArray::fromStringList(ladder.value())}};
    return outcome;
}

Result<ActionOutcome> MacBackend::sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                            const CallContext& context)
{
    QList<KeySink::Key> keys;
    for (const auto& name : chord.names()) {
        if (!virtualKeyForName(name))
            return Error::invalidParam(QStringLiteral("keys"), QStringLiteral("no macOS key for \"%1\"").arg(name));
        keys.append(d->keyForName(name));
    }
    const Private::Baseline before = d->baseline(route, context);
    const qint64 focusPid = d->frontmostPid();
    bool anyPressed = false;
    if (auto failure = ChordPlayer(d->keys).play(keys, context, delayMs, &anyPressed))
        return anyPressed ? failure->withRetryable(false) : *failure;
    Verification v =
        d->verifyChange(route, before, QStringLiteral("a change in the app after the keys"), kVerifyMs, context);
    v.observed.insert(QStringLiteral("frontmostPid"), focusPid);
    if (v.effect == Effect::SuspectedNoop && focusPid == route.pid) {
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the keys went to the app, but nothing it exposes changed");
    } else if (v.effect == Effect::SuspectedNoop) {
        v.reason = QStringLiteral("the keys went to another app (pid %1) and the app did not change").arg(focusPid);
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("keyboard")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("keyboard"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(chord.names())}}, v};
}

Result<ActionOutcome> MacBackend::pointer(const ResolvedRoute& route, const PointerGesture& gesture,
                                          const CallContext& context)
{
    using Kind = PointerGesture::Kind;
    using Button = AxApi::MouseButton;
    if (auto stop = context.checkpoint())
        return *stop;
    const Button button = gesture.button == 3 ? Button::Right : gesture.button == 2 ? Button::Other : Button::Left;
    // Sleeps in short slices; false once the call is cancelled.
    const auto pause = [&context](int ms) {
        QDeadlineTimer until(ms);
        while (!until.hasExpired()) {
            if (context.checkpoint())
                return false;
            QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(until.remainingTime(), 1, 20)));
        }
        return !context.checkpoint();
    };
    const Private::Baseline before = d->baseline(route, context);
    if (auto stop = context.checkpoint())
        return *stop;
    QPointF heldAt;
    bool held = false; // a button down now, released whatever happens next
    const auto release = [&] {
        if (held)
            m_api->postMouse(heldAt, button, false, 1);
        held = false;
    };
    const auto fail = [&](const QString& what) -> Error {
        release();
        if (auto stop = context.checkpoint())
            return stop->withRetryable(false);
        return Error::make(ErrorCode::InternalError, what).withRetryable(false);
    };
    const QString notPosted = QStringLiteral("the mouse event could not be created");
    const QPointF at(gesture.at);
    if (!m_api->moveMouse(at))
        return Error::make(ErrorCode::InternalError, notPosted);
    QJsonObject details{{QStringLiteral("gesture"), gestureName(gesture.kind)},
                        {QStringLiteral("at"),
                         QJsonObject{{QStringLiteral("x"), gesture.at.x()}, {QStringLiteral("y"), gesture.at.y()}}},
                        {QStringLiteral("button"), gesture.button}};
    switch (gesture.kind) {
    case Kind::Move:
        break;
    case Kind::Click:
        // Timed like a person's clicks; each click carries its count (kCGMouseEventClickState),
        // which is how macOS apps tell a double click.
        for (int i = 1; i <= gesture.count; ++i) {
            if ((i > 1 && !pause(80)) || !m_api->postMouse(at, button, true, i))
                return fail(notPosted);
            held = true;
            heldAt = at;
            if (!pause(30) || !m_api->postMouse(at, button, false, i))
                return fail(notPosted);
            held = false;
        }
        details.insert(QStringLiteral("count"), gesture.count);
        break;
    case Kind::Press:
        if (!m_api->postMouse(at, button, true, 1))
            return fail(notPosted);
        held = true;
        heldAt = at;
        if (!pause(gesture.holdMs))
            return fail(QStringLiteral("cancelled"));
        release();
        details.insert(QStringLiteral("holdMs"), gesture.holdMs);
        break;
    case Kind::Drag: {
        if (!m_api->postMouse(at, button, true, 1))
            return fail(notPosted);
        held = true;
        heldAt = at;
        if (!pause(gesture.holdMs))
            return fail(QStringLiteral("cancelled"));
        // Steps of about 16 ms, as dragged events, so apps see a drag and not a jump.
        const int steps = std::max(2, gesture.durationMs / 16);
        for (int i = 1; i <= steps; ++i) {
            const QPointF p(gesture.at.x() + (gesture.to.x() - gesture.at.x()) * i / double(steps),
                            gesture.at.y() + (gesture.to.y() - gesture.at.y()) * i / double(steps));
            if (!m_api->dragMouse(p, button))
                return fail(notPosted);
            heldAt = p;
            if (!pause(gesture.durationMs / steps))
                return fail(QStringLiteral("cancelled"));
        }
        release();
        details.insert(QStringLiteral("to"),
                       QJsonObject{{QStringLiteral("x"), gesture.to.x()}, {QStringLiteral("y"), gesture.to.y()}});
        break;
    }
    }
    Verification v;
    if (gesture.kind == Kind::Move) {
        // A hover has no effect of its own to look for: where the pointer is, read back.
        const auto now = m_api->mouseLocation();
        v.expected = QStringLiteral("the pointer at the point");
        v.observed =
            now ? QJsonObject{{QStringLiteral("x"), now->x()}, {QStringLiteral("y"), now->y()}} : QJsonObject{};
        if (!now) {
            v.effect = Effect::Unverifiable;
            v.reason = QStringLiteral("the pointer's position could not be read");
        } else if (std::abs(now->x() - at.x()) + std::abs(now->y() - at.y()) <= 2) {
            v.effect = Effect::Confirmed;
        } else {
            v.effect = Effect::SuspectedNoop;
            v.reason = QStringLiteral("the pointer is elsewhere");
        }
    } else {
        v = d->verifyChange(route, before, QStringLiteral("a change in the app after the gesture"), kVerifyMs, context);
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("pointer")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("pointer"), v.effect == Effect::Confirmed, details, v};
}

} // namespace Automation::Mac
