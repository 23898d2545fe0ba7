#include "automation/TypingLadder.h"

#include <QJsonArray>
#include <QJsonObject>

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

Result<QStringList> chosen(const QStringList& ladder, const std::optional<QString>& delivery)
{
    if (!delivery)
        return ladder;
    if (ladder.contains(*delivery))
        return QStringList{*delivery};
    return Error::make(ErrorCode::InvalidRequest,
                       QStringLiteral("the delivery \"%1\" cannot reach this field (it takes: %2); nothing was typed")
                           .arg(*delivery, ladder.join(QStringLiteral(", "))),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("delivery_unavailable")},
                                   {QStringLiteral("field"), QStringLiteral("delivery")},
                                   {QStringLiteral("delivery"), *delivery},
                                   {QStringLiteral("available"), QJsonArray::fromStringList(ladder)}});
}

} // namespace Automation::TypingLadder
