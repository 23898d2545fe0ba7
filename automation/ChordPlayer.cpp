#include "automation/ChordPlayer.h"

#include <QDeadlineTimer>
#include <QThread>

namespace Automation {

std::optional<Error> ChordPlayer::play(const QList<KeySink::Key>& keys, const CallContext& context, int delayMs,
                                       bool* anyPressed)
{
    QList<KeySink::Key> pressed;
    std::optional<Error> failure;
    for (const KeySink::Key key : keys) {
        // Never a key after a stop, an abort or the deadline.
        if ((failure = context.checkpoint()))
            break;
        if ((failure = m_sink.key(key, true))) {
            // A key refused because the call was stopped says why it was stopped.
            if (auto stop = context.checkpoint())
                failure = stop;
            break;
        }
        pressed.append(key);
        QDeadlineTimer pause(delayMs);
        while (!pause.hasExpired() && !context.checkpoint())
            QThread::msleep(1);
    }
    // Whatever happened, release what was pressed (releases are sent even after a stop).
    // NOLINTNEXTLINE(modernize-loop-convert): in reverse; clang 14 cannot build std::views::reverse
    for (auto it = pressed.crbegin(); it != pressed.crend(); ++it)
        m_sink.key(*it, false);
    if (anyPressed)
        *anyPressed = !pressed.isEmpty();
    return failure;
}

std::optional<Error> ChordPlayer::type(const QString& text, const CallContext& context, int delayMs)
{
    bool first = true;
    for (const char32_t c : QStringView(text).toUcs4()) {
        if (!first && delayMs > 0) {
            QDeadlineTimer pause(delayMs);
            while (!pause.hasExpired() && !context.checkpoint())
                QThread::msleep(1);
        }
        first = false;
        if (auto stop = context.checkpoint())
            return stop;
        if (auto error = m_sink.typeCharacter(c)) {
            if (auto stop = context.checkpoint())
                return stop;
            return error;
        }
    }
    return std::nullopt;
}

} // namespace Automation
