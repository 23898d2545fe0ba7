#pragma once

#include "automation/Error.h"

#include <optional>

namespace Automation {

/// Where a backend's keyboard input goes: one key pressed or released, one character typed.
/// A backend implements it over its platform's input injection (X11: XTest); the rules of
/// sending keys (ChordPlayer) are the same for every backend.
class KeySink
{
public:
    using Key = quint64; ///< a platform key (X11: a keysym)

    virtual ~KeySink() = default;
    /// Presses or releases `key`; an error says why it could not be sent.
    virtual std::optional<Error> key(Key key, bool press) = 0;
    /// Types one Unicode scalar value, whatever keys that takes.
    virtual std::optional<Error> typeCharacter(char32_t character) = 0;
};

} // namespace Automation
