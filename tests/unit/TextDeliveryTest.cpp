// The platform-neutral rules of typeText's verification: offsets, InsertText lengths, the
// expected field content and how a read-back is classified (docs/architecture.md, "Honest outcomes").
#include "automation/TextDelivery.h"

#include <gtest/gtest.h>

using namespace Automation;
using namespace Automation::TextDelivery;

namespace {
const QString kMixed = QStringLiteral("héllo wörld 你好 🙂");
}

TEST(TextDelivery, InsertLengthIsUtf8BytesExceptForUtf16Toolkits)
{
    // GTK counts InsertText's length in bytes: 17 UTF-16 units cut the text after "你".
    EXPECT_EQ(insertLength(kMixed, false), 25);
    EXPECT_EQ(insertLength(kMixed, true), 17);
    EXPECT_EQ(insertLength(QStringLiteral("abc"), false), 3);
}

TEST(TextDelivery, OffsetsCountScalarValuesOrUtf16Units)
{
    const QString text = QStringLiteral("a🙂b");
    EXPECT_EQ(indexOfOffset(text, 2, false), 3); // after the emoji (two UTF-16 units)
    EXPECT_EQ(indexOfOffset(text, 2, true), 2);
    EXPECT_EQ(indexOfOffset(text, -1, false), text.size());
    EXPECT_EQ(indexOfOffset(text, 99, false), text.size());
    EXPECT_EQ(offsetOfIndex(text, 3, false), 2);
    EXPECT_EQ(offsetOfIndex(text, 3, true), 3);
    for (int offset = 0; offset <= 3; ++offset)
        EXPECT_EQ(offsetOfIndex(text, indexOfOffset(text, offset, false), false), offset);
}

TEST(TextDelivery, ExpectedContentInsertsAtTheCaretOrReplaces)
{
    EXPECT_EQ(expectedAfter(QStringLiteral("hello"), 2, QStringLiteral("XY"), false), QStringLiteral("heXYllo"));
    EXPECT_EQ(expectedAfter(QStringLiteral("hello"), 5, QStringLiteral("!"), false), QStringLiteral("hello!"));
    EXPECT_EQ(expectedAfter(QStringLiteral("hello"), 2, QStringLiteral("new"), true), QStringLiteral("new"));
}

TEST(TextDelivery, ClassifiesReadBacks)
{
    QString how;
    EXPECT_EQ(classify(QString(), kMixed, kMixed, kMixed, &how), Effect::Confirmed);
    EXPECT_EQ(how, QStringLiteral("equal"));
    // The GTK length bug: the text cut short is partial, never confirmed.
    EXPECT_EQ(classify(QString(), kMixed, QStringLiteral("héllo wörld 你"), kMixed, &how), Effect::Partial);
    // Accepted and ignored (Firefox's EditableText): nothing changed.
    EXPECT_EQ(classify(QStringLiteral("x"), QStringLiteral("xabc"), QStringLiteral("x"), QStringLiteral("abc"), &how),
              Effect::SuspectedNoop);
    EXPECT_EQ(how, QStringLiteral("unchanged"));
    // A field with a maximum length.
    EXPECT_EQ(classify(QString(), QStringLiteral("hello world"), QStringLiteral("hello"), QStringLiteral("hello world"),
                       &how),
              Effect::Partial);
    // A terminal: the text landed after the prompt, not at the offset the host computed.
    EXPECT_EQ(classify(QStringLiteral("$ \n"), QStringLiteral("echo 🙂$ \n"), QStringLiteral("$ echo 🙂\n"),
                       QStringLiteral("echo 🙂"), &how),
              Effect::Confirmed);
    EXPECT_EQ(how, QStringLiteral("inserted elsewhere"));
    // Gecko's invisible U+FEFF at the end of an entry is not a difference.
    EXPECT_EQ(classify(QString(), kMixed, kMixed + QChar(0xFEFF), kMixed, &how), Effect::Confirmed);
    // Asked to replace everything, text that landed beside the old one is not the result.
    EXPECT_EQ(classify(QStringLiteral("old"), QStringLiteral("new"), QStringLiteral("newold"), QStringLiteral("new"),
                       &how, true),
              Effect::Partial);
    // Typed twice is not "inserted elsewhere".
    EXPECT_EQ(
        classify(QStringLiteral("$ "), QStringLiteral("$ ab"), QStringLiteral("$ abab"), QStringLiteral("ab"), &how),
        Effect::Partial);
}

TEST(TextDelivery, ObservationNeverHoldsTheText)
{
    const QJsonObject seen = observation(kMixed);
    EXPECT_EQ(seen.value(QStringLiteral("length")).toInt(), 16);
    EXPECT_EQ(seen.value(QStringLiteral("sha256")).toString().size(), 64);
    EXPECT_FALSE(seen.contains(QStringLiteral("text")));
}

TEST(TextDelivery, EffectsNameTheContractWordsAndOnlyTwoCountAsDone)
{
    EXPECT_EQ(effectName(Effect::Confirmed), QStringLiteral("confirmed"));
    EXPECT_EQ(effectName(Effect::Partial), QStringLiteral("partial"));
    EXPECT_EQ(effectName(Effect::SuspectedNoop), QStringLiteral("suspected_noop"));
    EXPECT_EQ(effectName(Effect::Unverifiable), QStringLiteral("unverifiable"));
    EXPECT_TRUE(effectCountsAsDone(Effect::Confirmed));
    EXPECT_TRUE(effectCountsAsDone(Effect::Unverifiable));
    EXPECT_FALSE(effectCountsAsDone(Effect::Partial));
    EXPECT_FALSE(effectCountsAsDone(Effect::SuspectedNoop));
}
