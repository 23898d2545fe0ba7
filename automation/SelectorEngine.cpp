#include "automation/SelectorEngine.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

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
constexpr int kPath = 300;
constexpr int kRect = 30;
constexpr int kLabelRelation = 120;
constexpr int kLabelGeometry = 90; // minus a tenth of the gap, never below kLabelGeometryMin
constexpr int kLabelGeometryMin = 40;
constexpr int kNear = 60; // scaled down with the distance
// How far from its label a field may be when only geometry relates them.
constexpr int kLabelRightGap = 300;
constexpr int kLabelBelowGap = 100;
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

QString anchorName(const Node& node)
{
    return node.title.isEmpty() ? node.role : QLatin1Char('"') % node.title % QLatin1Char('"');
}

QString pathText(const QList<int>& path)
{
    QStringList parts;
    for (int i : path)
        parts.append(QString::number(i));
    return parts.join(QLatin1Char('/'));
}

// The gap between two frames (0 when they touch or overlap), straight-line.
int frameDistance(const Frame& a, const Frame& b)
{
    const int dx = std::max({0, a.x - (b.x + b.width), b.x - (a.x + a.width)});
    const int dy = std::max({0, a.y - (b.y + b.height), b.y - (a.y + a.height)});
    return static_cast<int>(std::lround(std::hypot(dx, dy)));
}

// Where a field lies from its label in a form: right of it on its row, or just below it.
// nullopt when neither; the gap in pixels otherwise, and which way in `where`.
std::optional<int> labelGap(const Frame& label, const Frame& field, QString* where)
{
    const int labelMidY = label.y + label.height / 2;
    const int fieldMidY = field.y + field.height / 2;
    const bool sameRow = (labelMidY >= field.y && labelMidY <= field.y + field.height) ||
                         (fieldMidY >= label.y && fieldMidY <= label.y + label.height);
    const int rightGap = field.x - (label.x + label.width);
    if (sameRow && rightGap >= -4 && rightGap <= kLabelRightGap) {
        *where = QStringLiteral("right of it");
        return std::max(0, rightGap);
    }
    const int belowGap = field.y - (label.y + label.height);
    const bool underIt = field.x >= label.x - 20 && field.x <= label.x + label.width;
    if (underIt && belowGap >= -4 && belowGap <= kLabelBelowGap) {
        *where = QStringLiteral("below it");
        return std::max(0, belowGap);
    }
    return std::nullopt;
}

struct Scored
{
    bool matched = false;
    int score = 0;
    QString reason; ///< empty for a provisional pass
};

// labelledBy for one node: a relation from any anchor first, else the nearest label by geometry.
Scored scoreLabel(const Snapshot& snapshot, int index, const QList<Candidate>& labels)
{
    const Node& node = snapshot.nodes.at(index);
    bool undecided = !node.detailed;
    std::optional<std::pair<int, QString>> best; // gap, reason
    for (const Candidate& label : labels) {
        if (label.nodeIndex == index)
            continue;
        const Node& anchor = snapshot.nodes.at(label.nodeIndex);
        if (anchor.labelFor.contains(index))
            return {true, kLabelRelation,
                    QStringLiteral("labelled by ") % anchorName(anchor) % QStringLiteral(" (relation)")};
        if (!anchor.detailed) {
            undecided = true;
            continue;
        }
        if (!node.detailed)
            continue;
        QString where;
        if (const auto gap = labelGap(anchor.frame, node.frame, &where); gap && (!best || *gap < best->first))
            best =
                std::pair{*gap, QStringLiteral("labelled by ") % anchorName(anchor) % QStringLiteral(" (geometry: ") %
                                    where % QStringLiteral(", ") % QString::number(*gap) % QStringLiteral(" px)")};
    }
    if (best)
        return {true, std::max(kLabelGeometryMin, kLabelGeometry - best->first / 10), best->second};
    if (undecided)
        return {true, 0, {}};
    return {};
}

Scored scoreNear(const Snapshot& snapshot, int index, const QList<Candidate>& anchors, int maxDistance)
{
    const Node& node = snapshot.nodes.at(index);
    if (!node.detailed)
        return {true, 0, {}};
    bool undecided = false;
    std::optional<std::pair<int, int>> best; // distance, anchor
    for (const Candidate& anchor : anchors) {
        if (anchor.nodeIndex == index)
            continue;
        const Node& a = snapshot.nodes.at(anchor.nodeIndex);
        if (!a.detailed) {
            undecided = true;
            continue;
        }
        if (a.frame.isEmpty() || node.frame.isEmpty())
            continue;
        const int d = frameDistance(a.frame, node.frame);
        if (d <= maxDistance && (!best || d < best->first))
            best = std::pair{d, anchor.nodeIndex};
    }
    if (best) {
        const int score = 1 + (kNear * (maxDistance - best->first)) / std::max(1, maxDistance);
        return {true, score,
                QStringLiteral("near ") % anchorName(snapshot.nodes.at(best->second)) % QStringLiteral(" (") %
                    QString::number(best->first) % QStringLiteral(" px)")};
    }
    if (undecided)
        return {true, 0, {}};
    return {};
}

} // namespace

Selector SelectorEngine::relaxed(const Selector& selector)
{
    Selector out = selector;
    out.enabledOnly = out.visibleOnly = false;
    out.nth.reset();
    if (out.labelledBy)
        out.labelledBy = std::make_shared<const Selector>(relaxed(*out.labelledBy));
    if (out.near)
        out.near = std::make_shared<const Selector>(relaxed(*out.near));
    return out;
}

QList<int> SelectorEngine::anchors(const Snapshot& snapshot, const Selector& selector)
{
    QList<int> out;
    for (const auto& nested : {selector.labelledBy, selector.near}) {
        if (!nested)
            continue;
        for (const Candidate& c : match(snapshot, *nested)) {
            if (!out.contains(c.nodeIndex))
                out.append(c.nodeIndex);
        }
        for (int i : anchors(snapshot, *nested)) {
            if (!out.contains(i))
                out.append(i);
        }
    }
    return out;
}

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
    // The window is the snapshot's: either every node is in a matching window or none is.
    if (selector.inWindow && !selector.inWindowRegex.match(snapshot.windowTitle).hasMatch())
        return out;
    const QList<Candidate> labels = selector.labelledBy ? match(snapshot, *selector.labelledBy) : QList<Candidate>();
    const QList<Candidate> nearAnchors = selector.near ? match(snapshot, *selector.near) : QList<Candidate>();
    if ((selector.labelledBy && labels.isEmpty()) || (selector.near && nearAnchors.isEmpty()))
        return out;
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
        if (selector.description) {
            const auto s = scoreText(QStringLiteral("description"), node.description, *selector.description,
                                     selector.caseSensitive);
            if (!s.matched)
                continue;
            candidate.score += s.score;
            candidate.reasons.append(s.reason);
        }
        if (selector.byPath) {
            if (node.path != *selector.byPath)
                continue;
            candidate.score += kPath;
            candidate.reasons.append(QStringLiteral("path is ") % pathText(node.path));
        }
        if (selector.byRect && node.detailed) {
            const QPoint c = node.frame.center();
            const Frame& r = *selector.byRect;
            if (node.frame.isEmpty() || c.x() < r.x || c.y() < r.y || c.x() >= r.x + r.width || c.y() >= r.y + r.height)
                continue;
            candidate.score += kRect;
            candidate.reasons.append(QStringLiteral("centre inside the rect"));
        }
        if (selector.labelledBy) {
            const Scored s = scoreLabel(snapshot, i, labels);
            if (!s.matched)
                continue;
            candidate.score += s.score;
            if (!s.reason.isEmpty())
                candidate.reasons.append(s.reason);
        }
        if (selector.near) {
            const Scored s = scoreNear(snapshot, i, nearAnchors, selector.maxDistance);
            if (!s.matched)
                continue;
            candidate.score += s.score;
            if (!s.reason.isEmpty())
                candidate.reasons.append(s.reason);
        }
        if (selector.inWindow)
            candidate.reasons.append(QStringLiteral("in window \"") % snapshot.windowTitle % QLatin1Char('"'));
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
    if (selector.nth) {
        // Counted in document order (the order a person reads the window in), not by rank.
        const int count = static_cast<int>(out.size());
        const int wanted = *selector.nth < 0 ? count + *selector.nth : *selector.nth;
        if (wanted < 0 || wanted >= count)
            return {};
        Candidate kept = out.at(wanted);
        kept.reasons.append(QStringLiteral("nth %1 of %2 in document order").arg(*selector.nth).arg(count));
        return {kept};
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
