#include "automation/TextDelivery.h"

#include <QCryptographicHash>

namespace Automation::TextDelivery {

qsizetype indexOfOffset(const QString& text, int offset, bool utf16)
{
    if (offset < 0)
        return text.size();
    if (utf16)
        return std::min<qsizetype>(offset, text.size());
    qsizetype i = 0;
    for (int n = 0; n < offset && i < text.size(); ++n)
        i += (text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) ? 2 : 1;
    return i;
}

int offsetOfIndex(const QString& text, qsizetype index, bool utf16)
{
    index = std::clamp<qsizetype>(index, 0, text.size());
    if (utf16)
        return static_cast<int>(index);
    return static_cast<int>(QStringView(text).left(index).toUcs4().size());
}

int insertLength(const QString& text, bool utf16)
{
    return utf16 ? static_cast<int>(text.size()) : static_cast<int>(text.toUtf8().size());
}

QString expectedAfter(const QString& before, qsizetype index, const QString& text, bool clear)
{
    if (clear)
        return text;
    index = std::clamp<qsizetype>(index, 0, before.size());
    return before.left(index) + text + before.mid(index);
}

namespace {
// Gecko pads its text with U+FEFF (after each character outside the BMP, and at the end of an
// entry) to keep offsets in UTF-16 units; the page never had them.
QString normalized(QString text)
{
    text.remove(QChar(0xFEFF));
    return text;
}
} // namespace

Effect classify(const QString& rawBefore, const QString& rawExpected, const QString& rawNow, const QString& text,
                QString* how, bool clear)
{
    const QString before = normalized(rawBefore), expected = normalized(rawExpected), now = normalized(rawNow);
    if (now == expected) {
        *how = QStringLiteral("equal");
        return Effect::Confirmed;
    }
    if (now == before) {
        *how = QStringLiteral("unchanged");
        return Effect::SuspectedNoop;
    }
    // A terminal or an editor that placed the text elsewhere (a prompt, an auto-indent): the
    // text is there once more than before, whole, and nothing else grew.
    if (!clear && !text.isEmpty() && now.count(text) == before.count(text) + 1 &&
        now.size() == before.size() + text.size()) {
        *how = QStringLiteral("inserted elsewhere");
        return Effect::Confirmed;
    }
    *how = QStringLiteral("different");
    return Effect::Partial;
}

Effect classifyCount(int before, int expected, int now)
{
    return now < 0              ? Effect::Unverifiable
           : expected == before ? Effect::Unverifiable
           : now == expected    ? Effect::Confirmed
           : now == before      ? Effect::SuspectedNoop
                                : Effect::Partial;
}

QJsonObject observation(const QString& text)
{
    return QJsonObject{
        {QStringLiteral("length"), static_cast<int>(QStringView(text).toUcs4().size())},
        {QStringLiteral("sha256"),
         QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex())}};
}

} // namespace Automation::TextDelivery
