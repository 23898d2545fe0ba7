#include "automation/SelectorEngine.h"

#include <QJsonArray>

#include <algorithm>

namespace Automation {

namespace {

// Weights: an exact text match must always outrank a partial one, and any text match must
// outrank the visibility/enablement bonuses, which only order otherwise equal candidates.
constexpr int kIdentifier = 400;
constexpr int kEquals = 200;
constexpr int kRegex = 150;
constexpr int kContainsWhole = 190; // "contains" whose pattern is the whole text
constexpr int kContains = 100;
constexpr int kRole = 50;
constexpr int kShowing = 8;
constexpr int kEnabled = 4;

struct TextScore
{
    bool matched = false;
    int score = 0;
    QString reason;
};

TextScore scoreText(const QString& field, const QString& text, const TextMatch& match, bool caseSensitive)
{
    const auto cs = caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    switch (match.mode) {
    case TextMatch::Mode::Equals:
        if (text.compare(match.pattern, cs) == 0)
            return {true, kEquals, field % QStringLiteral(" equals \"") % match.pattern % QLatin1Char('"')};
        return {};
    case TextMatch::Mode::Contains:
        if (text.compare(match.pattern, cs) == 0)
            return {true, kContainsWhole, field % QStringLiteral(" is \"") % match.pattern % QLatin1Char('"')};
        if (text.contains(match.pattern, cs))
            return {true, kContains, field % QStringLiteral(" contains \"") % match.pattern % QLatin1Char('"')};
        return {};
    case TextMatch::Mode::Regex:
        if (match.regex.match(text).hasMatch())
            return {true, kRegex, field % QStringLiteral(" matches /") % match.pattern % QLatin1Char('/')};
        return {};
    }
    return {};
}

} // namespace

bool SelectorEngine::roleMatches(const Node& node, const QString& role)
{
    if (node.role == role || (!node.subrole.isEmpty() && node.subrole == role))
        return true;
    // A toggle button (AXCheckBox, subrole AXToggle: a calculator's keys in GTK) is a button to
    // whoever looks at it.
    if (role == QLatin1String("AXButton") && node.subrole == QLatin1String("AXToggle"))
        return true;
    // Native names are lower-case with spaces ("push button"); accept "push_button" and any case.
    if (node.nativeRole.isEmpty())
        return false;
    QString wanted = role;
    wanted.replace(QLatin1Char('_'), QLatin1Char(' '));
    return node.nativeRole.compare(wanted, Qt::CaseInsensitive) == 0;
}

QList<Candidate> SelectorEngine::match(const Snapshot& snapshot, const Selector& selector)
{
    QList<Candidate> out;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        const Node& node = snapshot.nodes.at(i);
        Candidate candidate;
        candidate.nodeIndex = i;
        if (selector.byRole) {
            if (!roleMatches(node, *selector.byRole))
                continue;
            candidate.score += kRole;
            candidate.reasons.append(QStringLiteral("role is ") % *selector.byRole);
        }
        if (selector.byIdentifier) {
            if (node.identifier != *selector.byIdentifier)
                continue;
            candidate.score += kIdentifier;
            candidate.reasons.append(QStringLiteral("identifier is ") % *selector.byIdentifier);
        }
        if (selector.title) {
            const auto s = scoreText(QStringLiteral("title"), node.title, *selector.title, selector.caseSensitive);
            if (!s.matched)
                continue;
            candidate.score += s.score;
            candidate.reasons.append(s.reason);
        }
        if (selector.value) {
            // Secure fields are never read, so they never match on value.
            if (!node.hasValue || node.isSecure())
                continue;
            const auto s = scoreText(QStringLiteral("value"), node.value, *selector.value, selector.caseSensitive);
            if (!s.matched)
                continue;
            candidate.score += s.score;
            candidate.reasons.append(s.reason);
        }
        const bool showing = node.has(StateShowing) || node.has(StateVisible);
        const bool enabled = node.has(StateEnabled);
        if (selector.visibleOnly && !showing)
            continue;
        if (selector.enabledOnly && !enabled)
            continue;
        if (showing) {
            candidate.score += kShowing;
            candidate.reasons.append(QStringLiteral("visible"));
        } else {
            candidate.reasons.append(QStringLiteral("hidden"));
        }
        if (enabled) {
            candidate.score += kEnabled;
            candidate.reasons.append(QStringLiteral("enabled"));
        } else {
            candidate.reasons.append(QStringLiteral("disabled"));
        }
        out.append(std::move(candidate));
    }
    std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    return out;
}

QJsonObject SelectorEngine::candidatesJson(const Snapshot& snapshot, const Selector& selector,
                                           const QList<Candidate>& candidates, const QJsonObject& selectorJson)
{
    QJsonArray list;
    for (int rank = 0; rank < candidates.size(); ++rank) {
        const Candidate& c = candidates.at(rank);
        const Node& node = snapshot.nodes.at(c.nodeIndex);
        QJsonObject entry = ElementRef::fromNode(node).toJson();
        entry.insert(QStringLiteral("rank"), rank + 1);
        entry.insert(QStringLiteral("score"), c.score);
        entry.insert(QStringLiteral("reasons"), QJsonArray::fromStringList(c.reasons));
        entry.insert(QStringLiteral("nativeRole"), node.nativeRole);
        entry.insert(QStringLiteral("returned"), rank < selector.limit);
        list.append(entry);
    }
    return QJsonObject{
        {QStringLiteral("selector"), selectorJson},
        {QStringLiteral("limit"), selector.limit},
        {QStringLiteral("matched"), static_cast<int>(candidates.size())},
        {QStringLiteral("snapshot"), snapshot.metadataJson()},
        {QStringLiteral("candidates"), list},
    };
}

} // namespace Automation
