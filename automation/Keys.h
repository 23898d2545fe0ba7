#pragma once

#include "automation/Error.h"

#include <QStringList>

namespace Automation {

/// A key chord: modifiers held while one key (or none) is pressed. Names are normalised:
/// modifiers "cmd", "ctrl", "alt", "shift", "super"; keys as in keyNames().
struct KeyChord
{
    QStringList modifiers;
    QString key; ///< empty for a chord of modifiers only

    QStringList names() const;
};

/// Parses the contract's key array (e.g. ["cmd","v"]); unknown names give
/// DESKTOP_INVALID_REQUEST naming the key (the key-name table in Keys.cpp; docs/protocol.md §5.7).
Result<KeyChord> parseKeyChord(const QStringList& names);

/// The canonical non-modifier key names the host knows.
const QStringList& keyNames();
/// The canonical modifier names.
const QStringList& modifierNames();

} // namespace Automation
