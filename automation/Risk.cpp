#include "automation/Risk.h"

#include <QRegularExpression>

#include <array>

namespace Automation::Risk {

namespace {

struct Words
{
    Kind kind;
    /// English words and phrases, matched whole and without case.
    QStringList english;
    /// Chinese words, matched anywhere in the text (Chinese has no spaces between words).
    QStringList chinese;
};

const std::array<Words, 7>& table()
{
    static const std::array<Words, 7> words{{
        {Kind::Send, {QStringLiteral("send"), QStringLiteral("send now")}, {QStringLiteral("发送")}},
        {Kind::Submit,
         {QStringLiteral("submit"), QStringLiteral("place order")},
         {QStringLiteral("提交"), QStringLiteral("下单")}},
        {Kind::Publish,
         {QStringLiteral("publish"), QStringLiteral("post"), QStringLiteral("tweet"), QStringLiteral("upload")},
         {QStringLiteral("发布"), QStringLiteral("发表"), QStringLiteral("上传")}},
        {Kind::Pay,
         {QStringLiteral("pay"), QStringLiteral("pay now"), QStringLiteral("purchase"), QStringLiteral("buy"),
          QStringLiteral("buy now"), QStringLiteral("checkout"), QStringLiteral("check out"),
          QStringLiteral("transfer"), QStringLiteral("donate")},
         {QStringLiteral("支付"), QStringLiteral("付款"), QStringLiteral("购买"), QStringLiteral("结账"),
          QStringLiteral("转账")}},
        {Kind::Delete,
         {QStringLiteral("delete"), QStringLiteral("remove"), QStringLiteral("erase"), QStringLiteral("discard"),
          QStringLiteral("trash"), QStringLiteral("move to trash"), QStringLiteral("empty trash"),
          QStringLiteral("uninstall"), QStringLiteral("wipe")},
         {QStringLiteral("删除"), QStringLiteral("移除"), QStringLiteral("清空"), QStringLiteral("卸载")}},
        {Kind::Overwrite,
         {QStringLiteral("overwrite"), QStringLiteral("replace")},
         {QStringLiteral("覆盖"), QStringLiteral("替换")}},
        {Kind::Export, {QStringLiteral("export")}, {QStringLiteral("导出")}},
    }};
    return words;
}

/// The text as a person reads it: mnemonic marks gone ("_Delete", "&Send").
QString readable(QString text)
{
    text.remove(QLatin1Char('_'));
    text.remove(QLatin1Char('&'));
    return text.simplified();
}

} // namespace

QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::None:
        return QStringLiteral("none");
    case Kind::Send:
        return QStringLiteral("send");
    case Kind::Submit:
        return QStringLiteral("submit");
    case Kind::Publish:
        return QStringLiteral("publish");
    case Kind::Pay:
        return QStringLiteral("pay");
    case Kind::Delete:
        return QStringLiteral("delete");
    case Kind::Overwrite:
        return QStringLiteral("overwrite");
    case Kind::Export:
        return QStringLiteral("export");
    case Kind::ForceQuit:
        return QStringLiteral("force quit");
    }
    return {};
}

QString Assessment::why() const
{
    if (!high())
        return {};
    return QStringLiteral("%1: its %2 says \"%3\"")
        .arg(kindName(kind), field.isEmpty() ? QStringLiteral("text") : field, word);
}

bool isActingRole(const QString& role)
{
    static const QStringList acting{QStringLiteral("AXButton"),      QStringLiteral("AXMenuItem"),
                                    QStringLiteral("AXLink"),        QStringLiteral("AXMenuButton"),
                                    QStringLiteral("AXPopUpButton"), QStringLiteral("AXToolbarButton")};
    return role.isEmpty() || acting.contains(role);
}

Assessment ofText(const QString& raw)
{
    const QString text = readable(raw);
    if (text.isEmpty())
        return {};
    for (const Words& words : table()) {
        for (const QString& word : words.chinese) {
            if (text.contains(word))
                return Assessment{words.kind, word, {}};
        }
        for (const QString& word : words.english) {
            // Whole words only: "Sending" and "Deleted items" are not "send" and "delete".
            const QRegularExpression whole(
                QStringLiteral("(^|[^\\w])%1($|[^\\w])").arg(QRegularExpression::escape(word)),
                QRegularExpression::CaseInsensitiveOption | QRegularExpression::UseUnicodePropertiesOption);
            const auto match = whole.match(text);
            if (match.hasMatch())
                return Assessment{
                    words.kind, text.mid(match.capturedStart(0) + match.capturedLength(1), word.size()), {}};
        }
    }
    return {};
}

Assessment ofControl(const QString& role, const QString& title, const QString& description)
{
    if (!isActingRole(role))
        return {};
    Assessment byTitle = ofText(title);
    if (byTitle.high()) {
        byTitle.field = QStringLiteral("title");
        return byTitle;
    }
    Assessment byDescription = ofText(description);
    if (byDescription.high())
        byDescription.field = QStringLiteral("description");
    return byDescription;
}

} // namespace Automation::Risk
