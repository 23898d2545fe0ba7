// ghost_type, ghost_press, ghost_hotkey: the keyboard.
#include "mcp/GhostTools.h"

#include "mcp/GhostToolSupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace Mcp::Ghost {

namespace {

// The text a person reads beside a field, as `into` gives it: "Name:" and "Name" are the same label.
QString labelText(const QString& into)
{
    QString text = into.trimmed();
    while (text.endsWith(QLatin1Char(':')) || text.endsWith(QChar(0xFF1A))) // ':' and the full-width colon
        text.chop(1);
    return text.trimmed();
}

// Whether a typeText answer says no key was sent because the target was not there or takes no
// text, so that another reading of `into` may be tried.
bool targetMissed(const QJsonObject& response)
{
    const QJsonObject error = response.value(QStringLiteral("error")).toObject();
    if (error.value(QStringLiteral("code")).toString() != QLatin1String("DESKTOP_ELEMENT_NOT_FOUND"))
        return false;
    const QJsonObject details = error.value(QStringLiteral("details")).toObject();
    return details.contains(QStringLiteral("selector")) ||
           details.value(QStringLiteral("reason")).toString() == QLatin1String("not_editable");
}

// `into` names a field as a person reads it: first the field a label (static text) of exactly
// that text labels (a trailing colon ignored either side), then a field whose own name contains
// it, then a field a label containing it labels. A reading that finds nothing, or a target that takes no
// text, sent no key, so the next one is tried.

} // namespace

QJsonObject typeTool(const QJsonObject& arguments, HostLink& host)
{
    if (!arguments.value(QStringLiteral("text")).isString())
        return failure(QStringLiteral("Missing required parameter: text"));
    QJsonObject params{{QStringLiteral("text"), arguments.value(QStringLiteral("text"))}};
    if (arguments.value(QStringLiteral("clear")).toBool())
        params.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}});
    QList<QJsonObject> selectors;
    const QJsonObject named = selectorFor(arguments, QStringLiteral("into"));
    if (const QString label = labelText(arguments.value(QStringLiteral("into")).toString()); !label.isEmpty()) {
        QJsonObject exact = named;
        exact.remove(QStringLiteral("titleContains"));
        QJsonObject containing = exact;
        exact.insert(QStringLiteral("labelledBy"),
                     QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXStaticText")},
                                 {QStringLiteral("titleMatches"),
                                  QString(QStringLiteral("^\\s*") + QRegularExpression::escape(label) +
                                          QStringLiteral("\\s*[:\\x{FF1A}]?\\s*$"))}});
        containing.insert(QStringLiteral("labelledBy"),
                          QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXStaticText")},
                                      {QStringLiteral("titleContains"), label}});
        selectors = {exact, named, containing};
    } else if (!named.isEmpty()) {
        selectors = {named};
    }
    QJsonObject response;
    if (selectors.isEmpty()) {
        response = host.call(QStringLiteral("desktop.typeText"), withRoute(params, arguments), true);
    } else {
        for (const QJsonObject& selector : std::as_const(selectors)) {
            params.insert(QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), selector}});
            response = host.call(QStringLiteral("desktop.typeText"), withRoute(params, arguments), true);
            if (!targetMissed(response))
                break;
        }
    }
    return sideEffectResult(
        response, QStringLiteral("typed"),
        QJsonObject{{QStringLiteral("typed"), arguments.value(QStringLiteral("text")).toString().size()}});
}

namespace {

QJsonObject chord(const QStringList& keys, const QJsonObject& arguments, HostLink& host)
{
    const QJsonObject response =
        host.call(QStringLiteral("desktop.hotkey"),
                  withRoute(QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(keys)}}, arguments), true);
    return sideEffectResult(response, QStringLiteral("sent"),
                            QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(keys)}});
}

} // namespace

QJsonObject pressTool(const QJsonObject& arguments, HostLink& host)
{
    const QString key = arguments.value(QStringLiteral("key")).toString();
    if (key.isEmpty())
        return failure(QStringLiteral("Missing required parameter: key"));
    QStringList keys;
    for (const auto& m : arguments.value(QStringLiteral("modifiers")).toArray())
        keys.append(m.toString());
    keys.append(key);
    return chord(keys, arguments, host);
}

QJsonObject hotkeyTool(const QJsonObject& arguments, HostLink& host)
{
    QStringList keys;
    for (const auto& k : arguments.value(QStringLiteral("keys")).toArray())
        keys.append(k.toString());
    if (keys.isEmpty())
        return failure(QStringLiteral("Missing required parameter: keys (array of strings)"));
    return chord(keys, arguments, host);
}

} // namespace Mcp::Ghost
