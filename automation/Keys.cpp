#include "automation/Keys.h"

#include <QHash>

namespace Automation {

namespace {

QHash<QString, QString> buildAliases()
{
    QHash<QString, QString> aliases;
    auto add = [&](const char* canonical, std::initializer_list<const char*> names) {
        aliases.insert(QString::fromLatin1(canonical), QString::fromLatin1(canonical));
        for (const char* name : names)
            aliases.insert(QString::fromLatin1(name), QString::fromLatin1(canonical));
    };
    for (char c = 'a'; c <= 'z'; ++c)
        aliases.insert(QString(QLatin1Char(c)), QString(QLatin1Char(c)));
    for (char c = '0'; c <= '9'; ++c)
        aliases.insert(QString(QLatin1Char(c)), QString(QLatin1Char(c)));
    for (int f = 1; f <= 24; ++f) {
        const QString name = QStringLiteral("f") + QString::number(f);
        aliases.insert(name, name);
    }
    add("enter", {"return", "\n"});
    add("tab", {"\t"});
    add("esc", {"escape"});
    add("space", {" ", "spacebar"});
    add("backspace", {});
    add("delete", {"del", "forwarddelete"});
    add("insert", {"ins"});
    add("up", {"arrowup", "uparrow"});
    add("down", {"arrowdown", "downarrow"});
    add("left", {"arrowleft", "leftarrow"});
    add("right", {"arrowright", "rightarrow"});
    add("home", {});
    add("end", {});
    add("pageup", {"pgup", "page_up"});
    add("pagedown", {"pgdn", "page_down"});
    add("minus", {"-"});
    add("equal", {"=", "equals"});
    add("comma", {","});
    add("period", {".", "dot"});
    add("slash", {"/"});
    add("backslash", {"\\"});
    add("semicolon", {";"});
    add("quote", {"'", "apostrophe"});
    add("bracketleft", {"[", "leftbracket"});
    add("bracketright", {"]", "rightbracket"});
    add("grave", {"`", "backtick"});
    add("menu", {"contextmenu"});
    add("printscreen", {"print", "prtsc"});
    return aliases;
}

QHash<QString, QString> buildModifierAliases()
{
    return {
        {QStringLiteral("cmd"), QStringLiteral("cmd")},     {QStringLiteral("command"), QStringLiteral("cmd")},
        {QStringLiteral("ctrl"), QStringLiteral("ctrl")},   {QStringLiteral("control"), QStringLiteral("ctrl")},
        {QStringLiteral("alt"), QStringLiteral("alt")},     {QStringLiteral("option"), QStringLiteral("alt")},
        {QStringLiteral("opt"), QStringLiteral("alt")},     {QStringLiteral("shift"), QStringLiteral("shift")},
        {QStringLiteral("super"), QStringLiteral("super")}, {QStringLiteral("win"), QStringLiteral("super")},
        {QStringLiteral("meta"), QStringLiteral("super")},
    };
}

const QHash<QString, QString>& keyAliases()
{
    static const auto aliases = buildAliases();
    return aliases;
}

const QHash<QString, QString>& modifierAliases()
{
    static const auto aliases = buildModifierAliases();
    return aliases;
}

} // namespace

QStringList KeyChord::names() const
{
    QStringList out = modifiers;
    if (!key.isEmpty())
        out.append(key);
    return out;
}

Result<KeyChord> parseKeyChord(const QStringList& names)
{
    if (names.isEmpty())
        return Error::invalidParam(QStringLiteral("keys"), QStringLiteral("keys must name at least one key"));
    KeyChord chord;
    for (int i = 0; i < names.size(); ++i) {
        const QString& raw = names.at(i);
        // Single characters keep their case-insensitive meaning ("V" is the v key).
        const QString name = raw.size() == 1 ? raw.toLower() : raw.trimmed().toLower();
        const QString field = QStringLiteral("keys[") + QString::number(i) + QLatin1Char(']');
        if (const auto mod = modifierAliases().constFind(name); mod != modifierAliases().cend()) {
            if (chord.modifiers.contains(*mod))
                return Error::invalidParam(field,
                                           QStringLiteral("modifier \"") % raw % QStringLiteral("\" given twice"));
            if (!chord.key.isEmpty())
                return Error::invalidParam(field, QStringLiteral("modifiers must come before the key"));
            chord.modifiers.append(*mod);
            continue;
        }
        const auto key = keyAliases().constFind(name);
        if (key == keyAliases().cend())
            return Error::invalidParam(field, QStringLiteral("unknown key name \"") % raw % QLatin1Char('"'))
                .withDetail(QStringLiteral("key"), raw);
        if (!chord.key.isEmpty())
            return Error::invalidParam(field, QStringLiteral("a chord holds one key besides modifiers; got \"") %
                                                  chord.key % QStringLiteral("\" and \"") % raw % QLatin1Char('"'));
        chord.key = *key;
    }
    return chord;
}

const QStringList& keyNames()
{
    static const QStringList names = [] {
        QStringList list;
        for (auto it = keyAliases().cbegin(); it != keyAliases().cend(); ++it) {
            if (!list.contains(it.value()))
                list.append(it.value());
        }
        list.sort();
        return list;
    }();
    return names;
}

const QStringList& modifierNames()
{
    static const QStringList names{QStringLiteral("cmd"), QStringLiteral("ctrl"), QStringLiteral("alt"),
                                   QStringLiteral("shift"), QStringLiteral("super")};
    return names;
}

} // namespace Automation
