#pragma once

#include "automation/CallContext.h"
#include "automation/KeySink.h"

#include <QList>
#include <QString>

namespace Automation {

/// The discipline of sending keys (docs/architecture.md, "Honest outcomes"): nothing is pressed
/// after a stop, an abort or the deadline, and every key that went down comes back up, in
/// reverse order, whatever happened meanwhile (a stuck modifier would follow the person).
class ChordPlayer
{
public:
    explicit ChordPlayer(KeySink& sink) : m_sink(sink) {}

    /// Presses `keys` in order, `delayMs` apart, then releases them in reverse. `anyPressed`
    /// tells whether any key went out (an error after that may have had an effect).
    std::optional<Error> play(const QList<KeySink::Key>& keys, const CallContext& context, int delayMs = 0,
                              bool* anyPressed = nullptr);
    /// Types `text` one Unicode scalar value at a time (a character outside the BMP is one
    /// character, not two surrogates), stopping before the next one once the context says so.
    std::optional<Error> type(const QString& text, const CallContext& context, int delayMs = 0);

private:
    KeySink& m_sink;
};

} // namespace Automation
