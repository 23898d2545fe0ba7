#pragma once

#include "automation/DesktopBackend.h"

#include <QString>

namespace Automation::TextDelivery {

/// Platform-neutral rules of typeText's verification (docs/architecture.md, "Honest outcomes"),
/// shared by every backend and unit-tested on their own.

/// The QString index of an accessibility character offset: offsets count Unicode scalar
/// values, or UTF-16 units for toolkits that count so (`utf16`, Qt). A negative offset (no
/// caret) means the end.
qsizetype indexOfOffset(const QString& text, int offset, bool utf16);
/// The reverse of indexOfOffset.
int offsetOfIndex(const QString& text, qsizetype index, bool utf16);
/// The length to pass with EditableText.InsertText: UTF-16 units for `utf16` toolkits, UTF-8
/// bytes otherwise (ATK's and GTK's unit).
int insertLength(const QString& text, bool utf16);
/// What a field must hold after `text` is typed at `index` (or replaces everything with `clear`).
QString expectedAfter(const QString& before, qsizetype index, const QString& text, bool clear);
/// How a read-back compares with what was expected; `how` names the comparison
/// ("equal", "unchanged", "inserted elsewhere", "different").
/// With `clear` only an exact match confirms (the text was to replace everything).
Effect classify(const QString& before, const QString& expected, const QString& now, const QString& text, QString* how,
                bool clear = false);
/// The effect seen on a field that is never read (a secure one) from its character counts
/// before, expected and now (-1: unreadable). A length that was already the expected one tells
/// nothing (re-entering a PIN of the same length into a field that ignored the clearing).
Effect classifyCount(int before, int expected, int now);
/// Length and SHA-256 of a text, as evidence shows it (never the text itself).
QJsonObject observation(const QString& text);

} // namespace Automation::TextDelivery
