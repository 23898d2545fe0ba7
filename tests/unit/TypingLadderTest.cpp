// Which delivery paths typeText tries, in which order, and how a secure field's length is read
// (docs/architecture.md, "Honest outcomes").
#include "automation/TypingLadder.h"
#include "automation/TextDelivery.h"

#include <gtest/gtest.h>

using namespace Automation;

namespace {
TypingLadder::Facts facts(bool editable, bool terminal, bool secure, bool lengthKnown, bool pasteKnown)
{
    TypingLadder::Facts f;
    f.editable = editable;
    f.terminal = terminal;
    f.secure = secure;
    f.lengthKnown = lengthKnown;
    f.pasteKnown = pasteKnown;
    return f;
}
const QString kEditable = QStringLiteral("editableText"), kClipboard = QStringLiteral("clipboard"),
              kKeys = QStringLiteral("keys");
} // namespace

TEST(TypingLadder, EditableThenClipboardThenKeys)
{
    EXPECT_EQ(TypingLadder::paths(facts(true, false, false, true, true)), (QStringList{kEditable, kClipboard, kKeys}));
    EXPECT_EQ(TypingLadder::paths(facts(false, false, false, true, true)), (QStringList{kClipboard, kKeys}));
    // Without a known paste chord (no target, nothing reported focus) only keys.
    EXPECT_EQ(TypingLadder::paths(facts(false, false, false, false, false)), (QStringList{kKeys}));
}

TEST(TypingLadder, ATerminalIsNeverSetDirectly)
{
    EXPECT_EQ(TypingLadder::paths(facts(true, true, false, true, true)), (QStringList{kClipboard, kKeys}));
}

TEST(TypingLadder, ASecretNeverGoesThroughTheClipboard)
{
    EXPECT_EQ(TypingLadder::paths(facts(true, false, true, true, true)), (QStringList{kEditable, kKeys}));
    // A secure field whose length cannot be read gets keystrokes only.
    EXPECT_EQ(TypingLadder::paths(facts(true, false, true, false, true)), (QStringList{kKeys}));
}

// Gecko accepts EditableText.InsertText into a password input and ignores it; under load its
// length could not be read in time afterwards, the ladder stopped on "unverifiable" and the
// page never got the text.
TEST(TypingLadder, ASecureFieldOfAToolkitThatIgnoresInsertionGetsKeystrokes)
{
    TypingLadder::Facts f = facts(true, false, true, true, true);
    f.secureInsertIgnored = true;
    EXPECT_EQ(TypingLadder::paths(f), (QStringList{kKeys}));
    // An ordinary field of the same toolkit keeps the direct path.
    f.secure = false;
    EXPECT_EQ(TypingLadder::paths(f), (QStringList{kEditable, kClipboard, kKeys}));
}

TEST(TypingLadder, SecureFieldLengths)
{
    EXPECT_EQ(TextDelivery::classifyCount(0, 4, 4), Effect::Confirmed);
    EXPECT_EQ(TextDelivery::classifyCount(0, 4, 0), Effect::SuspectedNoop);
    EXPECT_EQ(TextDelivery::classifyCount(0, 4, 2), Effect::Partial);
    EXPECT_EQ(TextDelivery::classifyCount(0, 4, -1), Effect::Unverifiable);
    // Already the expected length: the count tells nothing.
    EXPECT_EQ(TextDelivery::classifyCount(4, 4, 4), Effect::Unverifiable);
}
