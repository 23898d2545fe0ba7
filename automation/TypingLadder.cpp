#include "automation/TypingLadder.h"

namespace Automation::TypingLadder {

QStringList paths(const Facts& facts)
{
    const bool secureUnmeasurable = facts.secure && !facts.lengthKnown;
    const bool secureIgnored = facts.secure && facts.secureInsertIgnored;
    QStringList ladder;
    if (facts.editable && !facts.terminal && !secureUnmeasurable && !secureIgnored)
        ladder << QStringLiteral("editableText");
    if (facts.pasteKnown && !facts.secure)
        ladder << QStringLiteral("clipboard");
    ladder << QStringLiteral("keys");
    return ladder;
}

} // namespace Automation::TypingLadder
