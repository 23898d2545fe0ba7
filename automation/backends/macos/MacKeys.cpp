// Canonical key names (automation/Keys.h) to macOS virtual key codes (kVK_* of HIToolbox's
// Events.h, the ANSI layout's positions; CGEvent posts them as such). The keys that type a
// character move between layouts; MacBackend asks the selected layout for those first
// (AxApi::virtualKeyForCharacter) and takes the ANSI position only when the layout has none.
#include "automation/backends/macos/MacBackend.h"

#include <QHash>

namespace Automation::Mac {

namespace {

const QHash<QString, quint16>& table()
{
    static const QHash<QString, quint16> keys = [] {
        QHash<QString, quint16> t;
        const char* letters = "asdfhgzxcv";
        const quint16 letterCodes[] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09};
        for (int i = 0; letters[i]; ++i)
            t.insert(QString(QLatin1Char(letters[i])), letterCodes[i]);
        const std::pair<const char*, quint16> rest[] = {
            {"b", 0x0B},
            {"q", 0x0C},
            {"w", 0x0D},
            {"e", 0x0E},
            {"r", 0x0F},
            {"y", 0x10},
            {"t", 0x11},
            {"1", 0x12},
            {"2", 0x13},
            {"3", 0x14},
            {"4", 0x15},
            {"6", 0x16},
            {"5", 0x17},
            {"equal", 0x18},
            {"9", 0x19},
            {"7", 0x1A},
            {"minus", 0x1B},
            {"8", 0x1C},
            {"0", 0x1D},
            {"bracketright", 0x1E},
            {"o", 0x1F},
            {"u", 0x20},
            {"bracketleft", 0x21},
            {"i", 0x22},
            {"p", 0x23},
            {"enter", 0x24},
            {"l", 0x25},
            {"j", 0x26},
            {"quote", 0x27},
            {"k", 0x28},
            {"semicolon", 0x29},
            {"backslash", 0x2A},
            {"comma", 0x2B},
            {"slash", 0x2C},
            {"n", 0x2D},
            {"m", 0x2E},
            {"period", 0x2F},
            {"tab", 0x30},
            {"space", 0x31},
            {"grave", 0x32},
            {"backspace", 0x33},
            {"esc", 0x35},
            {"f17", 0x40},
            {"f18", 0x4F},
            {"f19", 0x50},
            {"f20", 0x5A},
            {"f5", 0x60},
            {"f6", 0x61},
            {"f7", 0x62},
            {"f3", 0x63},
            {"f8", 0x64},
            {"f9", 0x65},
            {"f11", 0x67},
            {"f13", 0x69},
            {"f16", 0x6A},
            {"f14", 0x6B},
            {"f10", 0x6D},
            {"f12", 0x6F},
            {"f15", 0x71},
            // Insert sits where Mac keyboards have Help.
            {"insert", 0x72},
            {"home", 0x73},
            {"pageup", 0x74},
            {"delete", 0x75},
            {"f4", 0x76},
            {"end", 0x77},
            {"f2", 0x78},
            {"pagedown", 0x79},
            {"f1", 0x7A},
            {"left", 0x7B},
            {"right", 0x7C},
            {"down", 0x7D},
            {"up", 0x7E},
            // Print Screen sits where Mac keyboards have F13; the contextual-menu key is 0x6E.
            {"printscreen", 0x69},
            {"menu", 0x6E},
            // Modifiers: cmd is Command; super (the Windows key's position) is Command too.
            {"cmd", 0x37},
            {"super", 0x37},
            {"shift", 0x38},
            {"alt", 0x3A},
            {"ctrl", 0x3B},
        };
        for (const auto& [name, code] : rest)
            t.insert(QString::fromLatin1(name), code);
        return t;
    }();
    return keys;
}

} // namespace

std::optional<quint16> virtualKeyForName(const QString& name)
{
    const auto it = table().constFind(name);
    if (it == table().constEnd())
        return std::nullopt;
    return *it;
}

QChar characterOfKeyName(const QString& name)
{
    if (name.size() == 1 && (name.at(0).isLetterOrNumber()) && name.at(0).unicode() < 0x80)
        return name.at(0);
    static const QHash<QString, QChar> punctuation{
        {QStringLiteral("minus"), QLatin1Char('-')},       {QStringLiteral("equal"), QLatin1Char('=')},
        {QStringLiteral("bracketleft"), QLatin1Char('[')}, {QStringLiteral("bracketright"), QLatin1Char(']')},
        {QStringLiteral("quote"), QLatin1Char('\'')},      {QStringLiteral("semicolon"), QLatin1Char(';')},
        {QStringLiteral("backslash"), QLatin1Char('\\')},  {QStringLiteral("comma"), QLatin1Char(',')},
        {QStringLiteral("slash"), QLatin1Char('/')},       {QStringLiteral("period"), QLatin1Char('.')},
        {QStringLiteral("grave"), QLatin1Char('`')}};
    return punctuation.value(name);
}

quint64 modifierFlagOfKey(quint16 virtualKey)
{
    switch (virtualKey) {
    case 0x37:
    case 0x36:
        return KeyFlags::Command;
    case 0x38:
    case 0x3C:
        return KeyFlags::Shift;
    case 0x3A:
    case 0x3D:
        return KeyFlags::Option;
    case 0x3B:
    case 0x3E:
        return KeyFlags::Control;
    default:
        return 0;
    }
}

} // namespace Automation::Mac
