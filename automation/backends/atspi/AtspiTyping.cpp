#include "automation/backends/atspi/AtspiTyping.h"

#include "automation/ChordPlayer.h"
#include "automation/TextDelivery.h"
#include "automation/TypingLadder.h"
#include "automation/backends/atspi/AtspiApps.h"
#include "automation/backends/atspi/AtspiRoles.h"
#include "automation/backends/atspi/X11Clipboard.h"
#include "automation/backends/atspi/X11Session.h"

#include <QDeadlineTimer>
#include <QRegularExpression>
#include <QThread>

namespace Automation {

using Atspi::firstArgument;
using Atspi::Interface;
using Atspi::Ref;
using Atspi::unwrap;

AtspiTyping::AtspiTyping(AtspiInput& input, const ResolvedRoute& route, const Node* target, const QString& text,
                         const TypeOptions& options, const CallContext& context)
    : m_input(input), m_route(route), m_target(target), m_text(text), m_options(options), m_context(context),
      m_v(m_outcome.verification)
{
}

Result<TypeOutcome> AtspiTyping::run()
{
    m_activeBefore = m_input.m_x11.activeWindow();
    m_app = m_input.m_apps.appOf(m_route, m_context);
    m_secure = m_target && m_target->isSecure();
    m_terminal = m_target && m_target->nativeRole == QLatin1String("terminal");
    if (auto err = focusTarget())
        return *err;
    if (auto err = readField())
        return *err;
    // Without a target there is nothing to read back: the app's own events tell what happened.
    if (!m_target || !m_hasText)
        m_noTargetBaseline = m_input.m_verifier.baseline(m_app, m_target ? &m_ref : nullptr, m_context);
    learnFocused();
    const auto ladder = choosePaths();
    if (!ladder)
        return ladder.error();
    if (auto err = climb(ladder.value()))
        return *err;
    describeReadBack();
    if (m_effect == Effect::Unverifiable && m_noTargetBaseline)
        judgeByAppReports();
    finish();
    return m_outcome;
}

std::optional<Error> AtspiTyping::focusTarget()
{
    if (!m_target)
        return std::nullopt;
    AtspiBus& bus = m_input.m_bus;
    m_ref = Ref::fromHandle(m_target->handle);
    auto ifaces =
        bus.send(m_ref, Interface::Accessible, QStringLiteral("GetInterfaces"), {}, bus.callTimeout(m_context));
    if (auto err = bus.wait(ifaces, m_context, QStringLiteral("GetInterfaces"), &m_app))
        return err;
    const QStringList names = firstArgument(ifaces).toStringList();
    m_hasText = names.contains(QStringLiteral("org.a11y.atspi.Text"));
    m_hasEditable = names.contains(QStringLiteral("org.a11y.atspi.EditableText"));
    if (names.contains(QStringLiteral("org.a11y.atspi.Component"))) {
        auto grab = bus.send(m_ref, Interface::Component, QStringLiteral("GrabFocus"), {}, bus.callTimeout(m_context));
        if (auto err = bus.wait(grab, m_context, QStringLiteral("Component.GrabFocus"), &m_app);
            err && (err->code == ErrorCode::Aborted || err->code == ErrorCode::Timeout))
            return err;
    }
    return std::nullopt;
}

bool AtspiTyping::readText(QString* out, int timeoutMs)
{
    AtspiBus& bus = m_input.m_bus;
    auto back = bus.send(m_ref, Interface::Text, QStringLiteral("GetText"), {0, -1},
                         timeoutMs > 0 ? std::min(timeoutMs, bus.callTimeout(m_context)) : bus.callTimeout(m_context));
    back.waitForFinished();
    if (back.isError())
        return false;
    *out = firstArgument(back).toString();
    return true;
}

int AtspiTyping::readCount(int timeoutMs)
{
    AtspiBus& bus = m_input.m_bus;
    auto count = bus.send(m_ref, Interface::Properties, QStringLiteral("Get"),
                          {QStringLiteral("org.a11y.atspi.Text"), QStringLiteral("CharacterCount")},
                          timeoutMs > 0 ? std::min(timeoutMs, bus.callTimeout(m_context)) : bus.callTimeout(m_context));
    count.waitForFinished();
    return count.isError() ? -1 : unwrap(firstArgument(count)).toInt();
}

std::optional<Error> AtspiTyping::readField()
{
    AtspiBus& bus = m_input.m_bus;
    m_canRead = m_target && m_hasText && !m_secure;
    m_haveBefore = m_canRead && readText(&m_before);
    m_countBefore = (m_target && m_hasText) ? readCount() : -1;
    if (m_target && m_hasText) {
        auto c = bus.send(m_ref, Interface::Properties, QStringLiteral("Get"),
                          {QStringLiteral("org.a11y.atspi.Text"), QStringLiteral("CaretOffset")},
                          bus.callTimeout(m_context));
        c.waitForFinished();
        if (!c.isError())
            m_caret = unwrap(firstArgument(c)).toInt();
    }
    if (auto stop = m_context.checkpoint())
        return stop;
    m_utf16 = m_app.utf16Units();
    const qsizetype insertIndex =
        m_options.clearBefore ? 0 : TextDelivery::indexOfOffset(m_before, m_caret < 0 ? -1 : m_caret, m_utf16);
    m_expected = TextDelivery::expectedAfter(m_before, insertIndex, m_text, m_options.clearBefore);
    m_insertOffset = TextDelivery::offsetOfIndex(m_before, insertIndex, m_utf16);
    const int textUnits =
        m_utf16 ? static_cast<int>(m_text.size()) : static_cast<int>(QStringView(m_text).toUcs4().size());
    m_expectedCount = m_options.clearBefore ? textUnits : (m_countBefore < 0 ? -1 : m_countBefore + textUnits);
    m_lastRead = m_before;
    m_lastEffect = Effect::SuspectedNoop;
    return std::nullopt;
}

Effect AtspiTyping::verifyField(int budgetMs, QJsonObject* observed)
{
    m_verifyTimer.restart();
    QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(budgetMs, m_context.remainingMs() - 150)));
    // Each read waits no longer than what is left of this path's verification.
    const auto readTimeout = [&until] { return static_cast<int>(std::clamp<qint64>(until.remainingTime(), 50, 500)); };
    Effect effect = Effect::SuspectedNoop;
    if (m_canRead && m_haveBefore) {
        QString now = m_before, how;
        bool anyRead = false;
        QElapsedTimer stable;
        stable.start();
        QString previous = m_before;
        while (true) {
            if (readText(&now, readTimeout())) {
                anyRead = true;
                if (now != previous) {
                    previous = now;
                    stable.restart();
                }
                effect = TextDelivery::classify(m_before, m_expected, now, m_text, &how, m_options.clearBefore);
                // Settled: confirmed, or something arrived and has not changed for 250 ms.
                if (effect == Effect::Confirmed || (effect == Effect::Partial && stable.elapsed() >= 250))
                    break;
            }
            if (until.hasExpired() || m_context.checkpoint())
                break;
            QThread::msleep(20);
        }
        // Not one read was answered within the budget: a busy app may answer one given more time.
        if (!anyRead && !m_context.checkpoint() && m_context.remainingMs() > 400 &&
            readText(&now, static_cast<int>(std::min<qint64>(1500, m_context.remainingMs() - 300)))) {
            anyRead = true;
            effect = TextDelivery::classify(m_before, m_expected, now, m_text, &how, m_options.clearBefore);
        }
        if (!anyRead) {
            // The app did not answer a single read after the input: it may be busy with it.
            // Nothing can be said, and moving on to another path could type the text twice.
            effect = Effect::Unverifiable;
            how = QStringLiteral("unreadable");
        } else {
            m_lastRead = now;
        }
        *observed = TextDelivery::observation(now);
        observed->insert(QStringLiteral("comparison"), how);
    } else if (m_target && m_hasText && m_countBefore >= 0) {
        // A secure field is never read; its length is the signal.
        int now = m_countBefore;
        while (true) {
            now = readCount(readTimeout());
            if (now == m_expectedCount || until.hasExpired() || m_context.checkpoint())
                break;
            QThread::msleep(20);
        }
        // Not one read was answered within the budget: a busy app may still answer one
        // read given more time, and without it nothing can be said.
        if (now < 0 && !m_context.checkpoint() && m_context.remainingMs() > 400)
            now = readCount(static_cast<int>(std::min<qint64>(1500, m_context.remainingMs() - 300)));
        effect = TextDelivery::classifyCount(m_countBefore, m_expectedCount, now);
        *observed =
            QJsonObject{{QStringLiteral("characterCount"), now}, {QStringLiteral("expectedCount"), m_expectedCount}};
    } else {
        effect = Effect::Unverifiable;
    }
    m_verifyMs += m_verifyTimer.elapsed();
    m_lastEffect = effect;
    return effect;
}

bool AtspiTyping::restore()
{
    // A field that is never read (a secure one) can be tried again only when nothing arrived.
    if (!m_haveBefore)
        return m_lastEffect == Effect::SuspectedNoop;
    if (m_lastRead == m_before)
        return true;
    if (!m_hasEditable)
        return false;
    AtspiBus& bus = m_input.m_bus;
    auto set = bus.send(m_ref, Interface::EditableText, QStringLiteral("SetTextContents"), {m_before},
                        bus.callTimeout(m_context));
    set.waitForFinished();
    QString now;
    const bool ok = !set.isError() && readText(&now) && now == m_before;
    if (ok)
        m_lastRead = m_before;
    return ok;
}

void AtspiTyping::placeCaret()
{
    if (!m_target || !m_hasText)
        return;
    AtspiBus& bus = m_input.m_bus;
    auto set = bus.send(m_ref, Interface::Text, QStringLiteral("SetCaretOffset"), {m_insertOffset},
                        bus.callTimeout(m_context));
    set.waitForFinished();
}

std::optional<Error> AtspiTyping::clearByKeys()
{
    if (m_hasEditable) {
        AtspiBus& bus = m_input.m_bus;
        auto set = bus.send(m_ref, Interface::EditableText, QStringLiteral("SetTextContents"), {QString()},
                            bus.callTimeout(m_context));
        set.waitForFinished();
        // Accepted is not done (Gecko accepts and ignores): the field must read back empty.
        QString now;
        const bool empty = m_canRead ? readText(&now) && now.isEmpty() : readCount() == 0;
        if (!set.isError() && firstArgument(set).toBool() && empty)
            return std::nullopt;
    }
    const unsigned long control = X11Session::keysymControl();
    if (auto err =
            ChordPlayer(*m_input.m_keys).play({control, m_input.m_x11.keysymForName(QStringLiteral("a"))}, m_context))
        return err;
    return ChordPlayer(*m_input.m_keys).play({X11Session::keysymBackSpace()}, m_context);
}

void AtspiTyping::learnFocused()
{
    // Without a target, the paste chord depends on what has focus (a terminal takes
    // Ctrl+Shift+V; to a shell Ctrl+V is a control character): the app's last focus report
    // tells. When nothing tells, the clipboard is skipped and the keys type the text.
    m_pasteKnown = m_target != nullptr;
    if (m_target)
        return;
    AtspiBus& bus = m_input.m_bus;
    QString focusedPath;
    for (const auto& a : bus.tree()->activityAfterTime(m_app.root.service, 0)) {
        if (a.kind.startsWith(QLatin1String("Focus:")))
            focusedPath = a.path;
    }
    if (focusedPath.isEmpty())
        return;
    auto role = bus.send(Ref{m_app.root.service, focusedPath}, Interface::Accessible, QStringLiteral("GetRole"), {},
                         bus.callTimeout(m_context));
    role.waitForFinished();
    if (!role.isError()) {
        m_pasteKnown = true;
        const QString nativeRole = Atspi::roleInfo(firstArgument(role).toUInt()).nativeRole;
        m_terminal = nativeRole == QLatin1String("terminal");
        // Untargeted text into a focused password field is a secret as much as
        // targeted text: never through the clipboard, and never kept.
        m_secure = isSecureRole(nativeRole);
    }
}

Result<QStringList> AtspiTyping::choosePaths()
{
    // Gecko accepts InsertText into a password input and ignores it: its secure fields, and a
    // secure field whose length cannot be read, get keystrokes (TypingLadder::paths).
    TypingLadder::Facts facts;
    facts.editable = m_hasEditable;
    facts.terminal = m_terminal;
    facts.secure = m_secure;
    m_outcome.secure = m_secure;
    facts.lengthKnown = m_countBefore >= 0;
    facts.pasteKnown = m_pasteKnown;
    facts.secureInsertIgnored = m_app.toolkit.compare(QLatin1String("Gecko"), Qt::CaseInsensitive) == 0;
    return TypingLadder::chosen(TypingLadder::paths(facts), m_options.delivery);
}

std::optional<Error> AtspiTyping::climb(const QStringList& ladder)
{
    for (const QString& path : ladder) {
        if (auto stop = m_context.checkpoint())
            return stop;
        if (!m_v.paths.isEmpty() && !restore()) {
            m_v.reason = QStringLiteral("the field could not be put back after a partial delivery; stopped so as "
                                        "not to type the text twice");
            break;
        }
        QJsonObject observed;
        QJsonObject pathDetails;
        m_outcome.path = path;
        auto delivered = path == QLatin1String("editableText") ? deliverByEditableText(&observed, &pathDetails)
                         : path == QLatin1String("clipboard")  ? deliverByClipboard(&observed, &pathDetails)
                                                               : deliverByKeys(&observed);
        if (!delivered)
            return delivered.error();
        m_effect = delivered.value();
        QJsonObject record{{QStringLiteral("path"), path},
                           {QStringLiteral("effect"), effectName(m_effect)},
                           {QStringLiteral("observed"), observed}};
        for (auto it = pathDetails.constBegin(); it != pathDetails.constEnd(); ++it)
            record.insert(it.key(), it.value());
        m_v.paths.append(record);
        m_v.observed = observed;
        if (m_effect == Effect::Confirmed || m_effect == Effect::Unverifiable)
            break;
    }
    return std::nullopt;
}

Result<Effect> AtspiTyping::deliverByEditableText(QJsonObject* observed, QJsonObject* details)
{
    AtspiBus& bus = m_input.m_bus;
    const int length = TextDelivery::insertLength(m_text, m_utf16);
    auto edit = m_options.clearBefore ? bus.send(m_ref, Interface::EditableText, QStringLiteral("SetTextContents"),
                                                 {m_text}, bus.callTimeout(m_context))
                                      : bus.send(m_ref, Interface::EditableText, QStringLiteral("InsertText"),
                                                 {m_insertOffset, m_text, length}, bus.callTimeout(m_context));
    if (auto err = bus.wait(edit, m_context, QStringLiteral("EditableText"), &m_app))
        return err->withRetryable(false);
    details->insert(QStringLiteral("accepted"), firstArgument(edit).toBool());
    details->insert(QStringLiteral("lengthUnit"), m_utf16 ? QStringLiteral("utf16") : QStringLiteral("utf8Bytes"));
    return firstArgument(edit).toBool() ? verifyField(400, observed) : Effect::SuspectedNoop;
}

Result<Effect> AtspiTyping::deliverByClipboard(QJsonObject* observed, QJsonObject* details)
{
    if (m_options.clearBefore) {
        if (auto err = clearByKeys())
            return err->withRetryable(false);
    }
    placeCaret();
    // A terminal pastes with Ctrl+Shift+V; Ctrl+V would reach the shell as a control character.
    X11Session& x11 = m_input.m_x11;
    QList<KeySink::Key> chord{X11Session::keysymControl()};
    if (m_terminal)
        chord << x11.keysymForName(QStringLiteral("shift"));
    chord << x11.keysymForName(QStringLiteral("v"));
    std::optional<Error> pasteError;
    const auto pasted = m_input.m_clipboard.paste(
        m_text,
        [&] {
            pasteError = ChordPlayer(*m_input.m_keys).play(chord, m_context);
            return !pasteError.has_value();
        },
        static_cast<int>(std::min<qint64>(1000, m_context.remainingMs())));
    if (pasteError)
        return pasteError->withRetryable(false);
    details->insert(QStringLiteral("chord"), m_terminal ? QStringLiteral("ctrl+shift+v") : QStringLiteral("ctrl+v"));
    if (pasted.outcome == X11Clipboard::Outcome::Pasted) {
        details->insert(QStringLiteral("clipboardRestored"), pasted.restored);
        details->insert(QStringLiteral("clipboardChangedMeanwhile"), pasted.changedMeanwhile);
        m_outcome.details.insert(QStringLiteral("clipboardRestored"), pasted.restored);
        m_outcome.details.insert(QStringLiteral("clipboardChangedMeanwhile"), pasted.changedMeanwhile);
        return (m_target && m_hasText) ? verifyField(1500, observed) : Effect::Unverifiable;
    }
    details->insert(QStringLiteral("clipboard"), pasted.outcome == X11Clipboard::Outcome::NotRestorable
                                                     ? QStringLiteral("holds non-text content: left alone")
                                                     : QStringLiteral("the target did not paste"));
    if (!pasted.error.isEmpty())
        details->insert(QStringLiteral("clipboardError"), pasted.error);
    // Nobody took the text: nothing arrived.
    Effect effect = Effect::SuspectedNoop;
    if (m_target && m_hasText) {
        verifyField(100, observed);
        if (m_lastRead != m_before)
            effect = Effect::Partial;
    }
    return effect;
}

Result<Effect> AtspiTyping::deliverByKeys(QJsonObject* observed)
{
    if (m_options.clearBefore && !(m_target && m_hasText && m_lastRead.isEmpty() && m_haveBefore)) {
        if (auto err = clearByKeys())
            return err->withRetryable(false);
    }
    placeCaret();
    X11Session& x11 = m_input.m_x11;
    auto typed = ChordPlayer(*m_input.m_keys).type(m_text, m_context, m_options.keyDelayMs);
    if (typed) {
        x11.releaseBorrowedKeys();
        return typed->withRetryable(false);
    }
    // Wait until the target has consumed the keys (its text shows them, or stops changing).
    const int codePoints = static_cast<int>(QStringView(m_text).toUcs4().size());
    Effect effect = Effect::Unverifiable;
    if (m_target && m_hasText) {
        effect = verifyField(1000 + 15 * codePoints, observed);
    } else {
        // Nothing to read back: wait until the app has shown the keys' effect and gone
        // quiet, so the borrowed keycodes are given back only after it read them.
        auto* tree = m_input.m_bus.tree();
        QDeadlineTimer until(
            std::max<qint64>(0, std::min<qint64>(1000 + 15 * codePoints, m_context.remainingMs() - 150)));
        while (!until.hasExpired() && !m_context.checkpoint()) {
            tree->sync();
            const bool any = !tree->activitySince(m_noTargetBaseline->service, m_noTargetBaseline->mark).isEmpty();
            const bool recent = !tree->activityAfterTime(m_noTargetBaseline->service, tree->nowMs() - 150).isEmpty();
            if (any && !recent)
                break;
            QThread::msleep(20);
        }
    }
    x11.releaseBorrowedKeys();
    return effect;
}

void AtspiTyping::describeReadBack()
{
    if (m_canRead && m_haveBefore) {
        m_outcome.readBack = true;
        m_outcome.matched = m_effect == Effect::Confirmed;
        m_v.expected = QStringLiteral("the field reads back the text inserted at the caret");
        m_v.observed.insert(QStringLiteral("expected"), TextDelivery::observation(m_expected));
    } else if (m_target && m_hasText && m_countBefore >= 0) {
        m_v.expected = QStringLiteral("the secure field's length grows by the text's length");
    }
}

void AtspiTyping::judgeByAppReports()
{
    // No field to read: what the app itself reported after the input.
    Verification seen = m_input.m_verifier.verifyChange(
        m_app, *m_noTargetBaseline, QStringLiteral("the app reports a text change"), 500, m_context);
    m_verifyMs += seen.verifyMs;
    // What the app says it inserted, and where: the text inserted into one element since
    // the input must hold what was sent (the element's old content does not count).
    QStringList inserted;
    QHash<QString, QString> insertedText;
    for (const auto& a : m_input.m_bus.tree()->activitySince(m_noTargetBaseline->service, m_noTargetBaseline->mark)) {
        if (!a.kind.startsWith(QLatin1String("TextChanged:insert")))
            continue;
        if (!inserted.contains(a.path))
            inserted.append(a.path);
        insertedText[a.path] += a.data;
    }
    m_v.expected = QStringLiteral("the app reports inserting the text into the focused element");
    m_v.observed = seen.observed;
    bool found = false;
    for (const QString& path : std::as_const(inserted)) {
        const QString got = QString(insertedText.value(path)).remove(QChar(0xFEFF));
        if (got.contains(m_text)) {
            found = true;
            QJsonObject readBack = TextDelivery::observation(got);
            readBack.insert(QStringLiteral("element"), path);
            m_v.observed.insert(QStringLiteral("inserted"), readBack);
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
        if (m_text.contains(piece))
            related.append(piece);
        else
            unrelated = true;
    }
    if (!found) {
        // Text that a spreadsheet's cell cursor takes line by line (Return and Tab move to the
        // next cell): each line inserted into an element of its own, in order, is the text
        // arriving, not part of it.
        static const QRegularExpression separators(QStringLiteral("[\\r\\n\\t]+"));
        const QStringList lines = m_text.split(separators, Qt::SkipEmptyParts);
        if (lines.size() > 1 && related == lines) {
            found = true;
            QJsonObject readBack = TextDelivery::observation(related.join(QLatin1Char('\n')));
            readBack.insert(QStringLiteral("elements"), static_cast<int>(related.size()));
            m_v.observed.insert(QStringLiteral("inserted"), readBack);
            m_v.expected = QStringLiteral("the app reports inserting each line of the text into an element of "
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
        m_effect = Effect::Confirmed;
        m_outcome.readBack = true;
        m_outcome.matched = true;
    } else if (linesInOrder) {
        m_effect = Effect::Unverifiable;
        m_v.reason = QStringLiteral("the app reported some lines of the text arriving, each whole in an element of "
                                    "its own, and nothing about the others");
    } else if (!related.isEmpty()) {
        m_effect = Effect::Partial;
        m_v.reason = QStringLiteral("the app inserted part of the text that was sent, not all of it");
    } else if (unrelated) {
        // Not a word of what was sent: the app showed something else (where the cursor is), and
        // says nothing about the text itself.
        m_effect = Effect::Unverifiable;
        m_v.reason = QStringLiteral("the app reported inserting other text than what was sent, and none of it; "
                                    "pass a target to have it read back");
    } else if (!inserted.isEmpty()) {
        m_effect = Effect::Unverifiable;
        m_v.reason = QStringLiteral("the app reports inserting text but not which; pass a target to have it read back");
    } else if (seen.effect == Effect::SuspectedNoop) {
        m_effect = Effect::SuspectedNoop;
        m_v.reason = QStringLiteral("the app reported no change after the text was sent");
    } else {
        m_effect = Effect::Unverifiable;
        m_v.reason = QStringLiteral("no target was given and the app reported no inserted text to read back");
    }
    if (!m_v.paths.isEmpty()) {
        QJsonObject last = m_v.paths.last().toObject();
        last.insert(QStringLiteral("effect"), effectName(m_effect));
        m_v.paths.replace(m_v.paths.size() - 1, last);
    }
}

void AtspiTyping::finish()
{
    // Unless the field reads back the whole text, a window that took the focus while the text
    // went out (a dialog that Return opened) may have taken the rest of it.
    if (!(m_effect == Effect::Confirmed && m_outcome.readBack) && m_input.windowTookFocus(m_activeBefore, m_v))
        m_effect = Effect::Partial;
    m_v.effect = m_effect;
    m_v.verifyMs = m_verifyMs;
    // The field's own reports of this typing are not noise for the next action.
    m_input.m_verifier.markSettled(m_app.root.service);
    if (m_effect == Effect::SuspectedNoop && m_v.reason.isEmpty())
        m_v.reason = QStringLiteral("the text did not arrive by any path");
    if (m_effect == Effect::Unverifiable && m_v.reason.isEmpty())
        m_v.reason = QStringLiteral("the field could not be read back after the input");
    if (m_effect == Effect::Partial && m_v.reason.isEmpty())
        m_v.reason = QStringLiteral("the field does not hold the expected text");
}

} // namespace Automation
