// Automation::parseKeyChord: the key arrays and key names of docs/protocol.md §5.7.
#include "automation/Keys.h"
#include "UnitTestSupport.h"

#include <gtest/gtest.h>

using namespace Automation;

namespace {

QStringList list(std::initializer_list<const char*> names)
{
    QStringList out;
    for (const char* name : names)
        out.append(QString::fromUtf8(name));
    return out;
}

struct ChordRow
{
    const char* name;
    QStringList input;
    QStringList modifiers;
    const char* key;

    friend void PrintTo(const ChordRow& row, std::ostream* os) { *os << row.name; }
};

class KeysAccepted : public ::testing::TestWithParam<ChordRow>
{
};

TEST_P(KeysAccepted, NormalisedChord)
{
    const ChordRow& row = GetParam();
    const auto chord = parseKeyChord(row.input);
    ASSERT_TRUE(chord.ok()) << chord.error().message.toStdString();
    EXPECT_EQ(chord->modifiers, row.modifiers);
    EXPECT_EQ(chord->key, QString::fromLatin1(row.key));
    QStringList names = row.modifiers;
    if (*row.key)
        names.append(QString::fromLatin1(row.key));
    EXPECT_EQ(chord->names(), names);
}

INSTANTIATE_TEST_SUITE_P(Contract, KeysAccepted,
                         ::testing::Values(ChordRow{"CmdV", list({"cmd", "v"}), list({"cmd"}), "v"},
                                           ChordRow{"Enter", list({"enter"}), {}, "enter"},
                                           ChordRow{"CmdEnter", list({"cmd", "enter"}), list({"cmd"}), "enter"}),
                         UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    Aliases, KeysAccepted,
    ::testing::Values(ChordRow{"Return", list({"return"}), {}, "enter"},
                      ChordRow{"Escape", list({"escape"}), {}, "esc"}, ChordRow{"Esc", list({"esc"}), {}, "esc"},
                      ChordRow{"OptionIsAlt", list({"option", "tab"}), list({"alt"}), "tab"},
                      ChordRow{"OptIsAlt", list({"opt", "x"}), list({"alt"}), "x"},
                      ChordRow{"ControlIsCtrl", list({"control", "c"}), list({"ctrl"}), "c"},
                      ChordRow{"CommandIsCmd", list({"command", "shift", "z"}), list({"cmd", "shift"}), "z"},
                      ChordRow{"WinIsSuper", list({"win", "l"}), list({"super"}), "l"},
                      ChordRow{"MetaIsSuper", list({"meta", "space"}), list({"super"}), "space"},
                      ChordRow{"CtrlAltDel", list({"ctrl", "alt", "del"}), list({"ctrl", "alt"}), "delete"},
                      ChordRow{"ForwardDelete", list({"forwarddelete"}), {}, "delete"},
                      ChordRow{"PgUp", list({"pgup"}), {}, "pageup"},
                      ChordRow{"PageDownUnderscore", list({"page_down"}), {}, "pagedown"},
                      ChordRow{"ArrowLeft", list({"arrowleft"}), {}, "left"},
                      ChordRow{"UpArrow", list({"uparrow"}), {}, "up"},
                      ChordRow{"Spacebar", list({"spacebar"}), {}, "space"},
                      ChordRow{"Backspace", list({"backspace"}), {}, "backspace"},
                      ChordRow{"Home", list({"home"}), {}, "home"}, ChordRow{"End", list({"end"}), {}, "end"},
                      ChordRow{"Ins", list({"ins"}), {}, "insert"},
                      ChordRow{"PrintScreen", list({"prtsc"}), {}, "printscreen"},
                      ChordRow{"ModifiersOnly", list({"shift"}), list({"shift"}), ""},
                      ChordRow{"AllModifiers", list({"cmd", "ctrl", "alt", "shift", "super", "a"}),
                               list({"cmd", "ctrl", "alt", "shift", "super"}), "a"}),
    UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    Case, KeysAccepted,
    ::testing::Values(ChordRow{"UpperCaseLetter", list({"V"}), {}, "v"},
                      ChordRow{"UpperCaseModifierAndLetter", list({"CMD", "V"}), list({"cmd"}), "v"},
                      ChordRow{"MixedCaseName", list({"Enter"}), {}, "enter"},
                      ChordRow{"MixedCaseAlias", list({"Option", "PageUp"}), list({"alt"}), "pageup"},
                      ChordRow{"SurroundingSpaces", list({" cmd ", "v"}), list({"cmd"}), "v"},
                      ChordRow{"UpperCaseFunctionKey", list({"F5"}), {}, "f5"}),
    UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    FunctionKeysAndDigits, KeysAccepted,
    ::testing::Values(ChordRow{"F1", list({"f1"}), {}, "f1"}, ChordRow{"F9", list({"f9"}), {}, "f9"},
                      ChordRow{"F10", list({"f10"}), {}, "f10"}, ChordRow{"F12", list({"f12"}), {}, "f12"},
                      ChordRow{"F13", list({"f13"}), {}, "f13"}, ChordRow{"F24", list({"f24"}), {}, "f24"},
                      ChordRow{"Digit0", list({"0"}), {}, "0"}, ChordRow{"Digit9", list({"9"}), {}, "9"},
                      ChordRow{"CmdDigit", list({"cmd", "1"}), list({"cmd"}), "1"},
                      ChordRow{"LetterA", list({"a"}), {}, "a"}, ChordRow{"LetterZ", list({"z"}), {}, "z"}),
    UnitTest::RowName());

INSTANTIATE_TEST_SUITE_P(
    Punctuation, KeysAccepted,
    ::testing::Values(ChordRow{"Minus", list({"-"}), {}, "minus"}, ChordRow{"Equal", list({"="}), {}, "equal"},
                      ChordRow{"Comma", list({","}), {}, "comma"}, ChordRow{"Period", list({"."}), {}, "period"},
                      ChordRow{"Slash", list({"/"}), {}, "slash"}, ChordRow{"Backslash", list({"\\"}), {}, "backslash"},
                      ChordRow{"Semicolon", list({";"}), {}, "semicolon"}, ChordRow{"Quote", list({"'"}), {}, "quote"},
                      ChordRow{"BracketLeft", list({"["}), {}, "bracketleft"},
                      ChordRow{"BracketRight", list({"]"}), {}, "bracketright"},
                      ChordRow{"Grave", list({"`"}), {}, "grave"}, ChordRow{"SpaceChar", list({" "}), {}, "space"},
                      ChordRow{"TabChar", list({"\t"}), {}, "tab"}, ChordRow{"NewlineChar", list({"\n"}), {}, "enter"},
                      ChordRow{"CmdShiftSlash", list({"cmd", "shift", "/"}), list({"cmd", "shift"}), "slash"},
                      ChordRow{"NamedMinus", list({"minus"}), {}, "minus"},
                      ChordRow{"NamedDot", list({"dot"}), {}, "period"}),
    UnitTest::RowName());

struct RefusedRow
{
    const char* name;
    QStringList input;
    const char* field;
    const char* key; ///< details.key, or nullptr when the names are known but the chord is not

    friend void PrintTo(const RefusedRow& row, std::ostream* os) { *os << row.name; }
};

class KeysRefused : public ::testing::TestWithParam<RefusedRow>
{
};

TEST_P(KeysRefused, NamesTheKey)
{
    const RefusedRow& row = GetParam();
    const auto chord = parseKeyChord(row.input);
    ASSERT_FALSE(chord.ok());
    UnitTest::expectInvalidParam(chord.error(), QString::fromLatin1(row.field));
    if (row.key)
        EXPECT_EQ(chord.error().details.value(QStringLiteral("key")), QJsonValue(QString::fromUtf8(row.key)));
    else
        EXPECT_FALSE(chord.error().details.contains(QStringLiteral("key")));
}

INSTANTIATE_TEST_SUITE_P(
    Rows, KeysRefused,
    ::testing::Values(RefusedRow{"EmptyList", {}, "keys", nullptr},
                      RefusedRow{"UnknownName", list({"cmd", "nope"}), "keys[1]", "nope"},
                      RefusedRow{"UnknownKeepsCase", list({"NOPE"}), "keys[0]", "NOPE"},
                      RefusedRow{"F25", list({"f25"}), "keys[0]", "f25"},
                      RefusedRow{"F0", list({"f0"}), "keys[0]", "f0"},
                      RefusedRow{"EmptyName", list({""}), "keys[0]", ""},
                      RefusedRow{"BlankName", list({"cmd", "  "}), "keys[1]", "  "},
                      RefusedRow{"Plus", list({"+"}), "keys[0]", "+"},
                      RefusedRow{"JoinedChord", list({"ctrl+v"}), "keys[0]", "ctrl+v"},
                      RefusedRow{"NonAscii", list({"\xc3\xa9"}), "keys[0]", "\xc3\xa9"},
                      RefusedRow{"DuplicateModifier", list({"cmd", "cmd", "v"}), "keys[1]", nullptr},
                      RefusedRow{"DuplicateModifierByAlias", list({"cmd", "command", "v"}), "keys[1]", nullptr},
                      RefusedRow{"DuplicateAltByAlias", list({"alt", "option"}), "keys[1]", nullptr},
                      RefusedRow{"TwoKeys", list({"a", "b"}), "keys[1]", nullptr},
                      RefusedRow{"SameKeyTwice", list({"enter", "return"}), "keys[1]", nullptr},
                      RefusedRow{"ModifierAfterKey", list({"v", "cmd"}), "keys[1]", nullptr},
                      RefusedRow{"ModifierAfterKeyLater", list({"cmd", "v", "shift"}), "keys[2]", nullptr}),
    UnitTest::RowName());

TEST(Keys, CanonicalNames)
{
    const QStringList& keys = keyNames();
    for (const char* name :
         {"a",      "z",  "0",    "9",    "f1",    "f24",  "enter", "tab",    "esc",      "space", "backspace",
          "delete", "up", "down", "left", "right", "home", "end",   "pageup", "pagedown", "minus", "slash"}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(keys.contains(QString::fromLatin1(name)));
    }
    // Aliases and modifiers are not key names.
    for (const char* name : {"return", "escape", "\n", " ", "f25", "cmd", "shift"}) {
        SCOPED_TRACE(name);
        EXPECT_FALSE(keys.contains(QString::fromLatin1(name)));
    }
    QStringList unique = keys;
    EXPECT_EQ(unique.removeDuplicates(), 0);
    QStringList sorted = keys;
    sorted.sort();
    EXPECT_EQ(sorted, keys);

    EXPECT_EQ(modifierNames(), list({"cmd", "ctrl", "alt", "shift", "super"}));
}

// Every canonical name parses to itself.
TEST(Keys, CanonicalNamesRoundTrip)
{
    for (const QString& name : keyNames()) {
        SCOPED_TRACE(name.toStdString());
        const auto chord = parseKeyChord({name});
        ASSERT_TRUE(chord.ok());
        EXPECT_EQ(chord->key, name);
        EXPECT_TRUE(chord->modifiers.isEmpty());
    }
    for (const QString& name : modifierNames()) {
        const auto chord = parseKeyChord({name});
        ASSERT_TRUE(chord.ok());
        EXPECT_EQ(chord->modifiers, QStringList{name});
    }
}

} // namespace
