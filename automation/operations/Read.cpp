// desktop.readText and its redaction (docs/protocol.md).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"
#include "automation/PngEncoder.h"
#include "automation/SelectorEngine.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QImage>
#include <QJsonArray>
#include <QRegularExpression>
#include <QThread>

namespace Automation::Operations {

namespace {

QString sha256Of(const QString& text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

// The longest prefix of `text` whose UTF-8 form fits in `bytes`, never splitting a character
// (a surrogate pair stays whole).
QString cutToBytes(const QString& text, qint64 bytes)
{
    qint64 used = 0;
    qsizetype i = 0;
    while (i < text.size()) {
        const char32_t c = text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()
                               ? QChar::surrogateToUcs4(text.at(i), text.at(i + 1))
                               : text.at(i).unicode();
        const int width = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        if (used + width > bytes)
            break;
        used += width;
        i += c >= 0x10000 ? 2 : 1;
    }
    return text.left(i);
}

bool isValueRole(const QString& role)
{
    static const QStringList roles{
        QStringLiteral("AXSlider"),         QStringLiteral("AXScrollBar"),   QStringLiteral("AXProgressIndicator"),
        QStringLiteral("AXValueIndicator"), QStringLiteral("AXIncrementor"), QStringLiteral("AXLevelIndicator")};
    return roles.contains(role);
}

bool isTextEntryRole(const QString& role)
{
    static const QStringList roles{QStringLiteral("AXTextField"), QStringLiteral("AXTextArea"),
                                   QStringLiteral("AXComboBox"), QStringLiteral("AXSearchField")};
    return roles.contains(role);
}

} // namespace

std::optional<Redaction> redactionFromName(const QString& name)
{
    if (name == QLatin1String("none"))
        return Redaction::None;
    if (name == QLatin1String("patterns"))
        return Redaction::Patterns;
    if (name == QLatin1String("hash"))
        return Redaction::Hash;
    return std::nullopt;
}

QString redactionName(Redaction mode)
{
    switch (mode) {
    case Redaction::None:
        return QStringLiteral("none");
    case Redaction::Hash:
        return QStringLiteral("hash");
    case Redaction::Patterns:
        break;
    }
    return QStringLiteral("patterns");
}

QString redactPatterns(const QString& text, int* count)
{
    // Order matters: an e-mail address may hold digits, a token may look like digits.
    static const QList<std::pair<QRegularExpression, QString>> patterns{
        {QRegularExpression(QStringLiteral(R"([A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,})")),
         QStringLiteral("[redacted:email]")},
        // Key-like tokens: 24+ characters of letters, digits, '-' and '_' with letters and digits.
        {QRegularExpression(QStringLiteral(
             R"((?<![A-Za-z0-9_\-])(?=[A-Za-z0-9_\-]*[0-9])(?=[A-Za-z0-9_\-]*[A-Za-z])[A-Za-z0-9_\-]{24,})")),
         QStringLiteral("[redacted:token]")},
        // Nine or more digits, maybe grouped by spaces or dashes: cards, accounts, phone numbers
        // (a date or a time has fewer).
        {QRegularExpression(QStringLiteral(R"((?<![0-9])\+?[0-9](?:[ \-]?[0-9]){8,}(?![0-9]))")),
         QStringLiteral("[redacted:number]")},
    };
    QString out = text;
    int total = 0;
    for (const auto& [re, mark] : patterns) {
        QString next;
        qsizetype last = 0;
        auto it = re.globalMatch(out);
        while (it.hasNext()) {
            const auto m = it.next();
            next += QStringView(out).mid(last, m.capturedStart() - last);
            next += mark;
            last = m.capturedEnd();
            ++total;
        }
        next += QStringView(out).mid(last);
        out = next;
    }
    if (count)
        *count = total;
    return out;
}

Result<ReadTextResult> readText(JobContext& ctx, const ReadTextRequest& request)
{
    // The elements as find has them (tree and candidates kept, no text yet), then their text.
    auto found = find(ctx, FindRequest{request.route, request.selector, request.selectorJson, false});
    if (!found)
        return found.error();
    Snapshot& snapshot = found->snapshot;
    const QList<Candidate> candidates = found->candidates.mid(0, request.selector.limit);
    if (candidates.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no element matches the selector"),
                           QJsonObject{{QStringLiteral("selector"), request.selectorJson}});
    // A secure element among them: nothing is read at all.
    for (const Candidate& c : candidates) {
        const Node& node = snapshot.nodes.at(c.nodeIndex);
        if (node.isSecure()) {
            return Error::make(
                       ErrorCode::InvalidRequest,
                       QStringLiteral("the selector matches a secure field (%1 \"%2\"), whose text is never read")
                           .arg(node.role, node.title),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("secure_field")},
                                   {QStringLiteral("element"), ElementRef::fromNode(node).toJson()}})
                .withRetryable(false);
        }
    }
    QList<int> indexes;
    for (const Candidate& c : candidates) {
        if (!snapshot.nodes.at(c.nodeIndex).hasValue)
            indexes.append(c.nodeIndex);
    }
    if (!indexes.isEmpty()) {
        TraceStep step(ctx.trace, QStringLiteral("readText.read"));
        const auto read = ctx.backend.readTexts(snapshot, indexes, ctx.call);
        step.finish(read.ok(), read.ok() ? QJsonObject{{QStringLiteral("nodes"), static_cast<int>(indexes.size())}}
                                         : read.error().toJson());
        if (!read)
            return read.error();
    }

    ReadTextResult out;
    out.route = found->route;
    out.matched = static_cast<int>(found->candidates.size());
    qint64 left = request.limitBytes;
    QJsonArray traced;
    for (const Candidate& c : candidates) {
        const Node& node = snapshot.nodes.at(c.nodeIndex);
        ReadTextItem item;
        item.node = node;
        QString full;
        if (node.hasValue && isValueRole(node.role)) {
            item.value = node.value;
            item.source = QStringLiteral("value");
        } else if (node.hasValue && (!node.value.isEmpty() || isTextEntryRole(node.role) || node.has(StateEditable))) {
            full = node.value;
            item.source = QStringLiteral("text");
        } else {
            // Labels and static text: what a person reads is their name.
            full = node.title;
            item.source = QStringLiteral("name");
        }
        item.bytes = full.toUtf8().size();
        item.sha256 = sha256Of(full);
        QString shown;
        switch (request.redaction) {
        case Redaction::None:
            shown = full;
            break;
        case Redaction::Patterns:
            shown = redactPatterns(full, &item.redactions);
            break;
        case Redaction::Hash:
            break;
        }
        const QString cut = cutToBytes(shown, std::max<qint64>(0, left));
        item.truncated = cut.size() < shown.size();
        item.text = cut;
        left -= cut.toUtf8().size();
        out.returnedBytes += cut.toUtf8().size();
        out.truncated = out.truncated || item.truncated;
        traced.append(QJsonObject{{QStringLiteral("elementId"), node.elementId},
                                  {QStringLiteral("source"), item.source},
                                  {QStringLiteral("bytes"), item.bytes},
                                  {QStringLiteral("sha256"), item.sha256},
                                  {QStringLiteral("redactions"), item.redactions},
                                  {QStringLiteral("truncated"), item.truncated}});
        out.items.append(item);
    }
    ctx.trace.step(QStringLiteral("readText.items"), 0, true,
                   QJsonObject{{QStringLiteral("redactionMode"), redactionName(request.redaction)},
                               {QStringLiteral("limitBytes"), request.limitBytes},
                               {QStringLiteral("items"), traced}});
    return out;
}

} // namespace Automation::Operations
