#include "bridge/contract/DocTables.h"

#include "bridge/contract/Declaration.h"

#include <QJsonDocument>
#include <QRegularExpression>

namespace Contract::DocTables {

namespace {

QString yesNo(bool value)
{
    return value ? QStringLiteral("yes") : QStringLiteral("no");
}

QString queueWords(const Method& method)
{
    switch (method.kind) {
    case Kind::ReadOnly:
        return QStringLiteral("queued");
    case Kind::SideEffect:
        return QStringLiteral("queued, side effect");
    case Kind::Host:
        return QStringLiteral("immediate");
    }
    return {};
}

/// "yes", "no", or, for a method whose actions differ, the actions that are side effects.
QString sideEffectWords(const Method& method)
{
    if (method.actions.isEmpty() || !method.sideEffect())
        return yesNo(method.sideEffect());
    QStringList acting;
    for (const Action& action : method.actions) {
        if (action.kind == Kind::SideEffect)
            acting.append(QStringLiteral("`%1`").arg(action.name));
    }
    return acting.join(QStringLiteral(", "));
}

} // namespace

QString readmeMethods(const QHash<QString, QString>& anchors)
{
    QString out = QStringLiteral("| method | what it does | side effect | example |\n|---|---|---|---|\n");
    for (const auto& method : methods()) {
        QString call = QStringLiteral("msgcode-desktopctl call ") + method.name;
        if (!method.example.isEmpty())
            call += QStringLiteral(" '%1'").arg(
                QString::fromUtf8(QJsonDocument(method.example).toJson(QJsonDocument::Compact)));
        out += QStringLiteral("| [`%1`](docs/protocol.md#%2) ([schema](docs/schema/%1.json)) | %3 | %4 | `%5` |\n")
                   .arg(method.name, anchors.value(method.docSection), method.summary, sideEffectWords(method), call);
    }
    return out;
}

QHash<QString, QString> sectionAnchors(const QString& markdown)
{
    QHash<QString, QString> out;
    static const QRegularExpression heading(QStringLiteral("^### ([0-9]+\\.[0-9]+) (.*)$"),
                                            QRegularExpression::MultilineOption);
    for (auto it = heading.globalMatch(markdown); it.hasNext();) {
        const auto match = it.next();
        // GitHub's anchors: lower case, punctuation dropped, spaces as hyphens.
        QString anchor;
        for (const QChar c : (match.captured(1) + QLatin1Char(' ') + match.captured(2)).toLower()) {
            if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
                anchor += c;
            else if (c == QLatin1Char(' '))
                anchor += QLatin1Char('-');
        }
        out.insert(match.captured(1), anchor);
    }
    return out;
}

QString protocolMethods()
{
    QString out = QStringLiteral("| method | kind | workspace | confirm | section |\n|---|---|---|---|---|\n");
    for (const auto& method : methods()) {
        out += QStringLiteral("| `%1` | %2 | %3 | %4 | §%5 |\n")
                   .arg(method.name, queueWords(method), yesNo(method.workspaceBound), sideEffectWords(method),
                        method.docSection);
    }
    return out;
}

QString architectureMethods()
{
    QString out = QStringLiteral("| method | declared in | handled in | engine |\n|---|---|---|---|\n");
    for (const auto& method : methods()) {
        out += QStringLiteral("| `%1` | `%2` | `%3` | `%4` |\n")
                   .arg(method.name, method.declaredIn,
                        method.kind == Kind::Host ? QStringLiteral("bridge/MethodTable.cpp")
                                                  : QStringLiteral("bridge/Methods.cpp"),
                        method.engine);
    }
    return out;
}

QString replaceRegion(const QString& text, const QString& name, const QString& body, bool* found)
{
    const QString begin = QStringLiteral("<!-- generated:%1 (mdh-contract-gen; do not edit) -->\n").arg(name);
    const QString end = QStringLiteral("<!-- end generated:%1 -->").arg(name);
    const qsizetype from = text.indexOf(begin);
    const qsizetype to = from < 0 ? -1 : text.indexOf(end, from);
    *found = from >= 0 && to >= 0;
    if (!*found)
        return text;
    return text.left(from + begin.size()) + body + text.mid(to);
}

} // namespace Contract::DocTables
