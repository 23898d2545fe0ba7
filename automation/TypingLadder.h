#pragma once

#include "automation/Error.h"

#include <QStringList>

#include <optional>

namespace Automation::TypingLadder {

/// What decides typeText's delivery paths (docs/architecture.md, "Honest outcomes").
struct Facts
{
    bool editable = false;    ///< the target takes text directly (AT-SPI EditableText, AX value)
    bool terminal = false;    ///< a terminal: its text is typed or pasted, never set
    bool secure = false;      ///< a secure field (Node::isSecure)
    bool lengthKnown = false; ///< the field's character count can be read
    bool pasteKnown = false;  ///< the paste chord for what has focus is known
    /// The toolkit accepts a direct insertion into a secure field and ignores it (Gecko): the
    /// insertion would only cost the time to find out that nothing arrived.
    bool secureInsertIgnored = false;
};

/// The paths to try, in order: "editableText", "clipboard", "keys". A secret never goes through
/// the clipboard (other programs read it, clipboard managers keep it), and a secure field whose
/// length cannot be read gets keystrokes, as a person types a password (a toolkit may accept a
/// direct insertion into a password input and ignore it, and nothing could tell).
QStringList paths(const Facts& facts);

/// The ladder to run when the caller named one delivery (`delivery`): that path alone when the
/// ladder holds it; otherwise DESKTOP_INVALID_REQUEST, reason "delivery_unavailable", naming the
/// paths this field takes (nothing was typed). Without a name, the whole ladder.
Result<QStringList> chosen(const QStringList& ladder, const std::optional<QString>& delivery);

} // namespace Automation::TypingLadder
