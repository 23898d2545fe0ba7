// Fuzz target Selector (docs/testing.md): a selector parsed from JSON by bridge/Params, then
// matched by automation/SelectorEngine against a small fixed Snapshot (roles, subroles, native
// roles, hidden/disabled/secure nodes, Unicode and long titles for the regexes). Invariants: the
// candidates are exactly the nodes that satisfy every criterion, each once, best score first and
// in document order among equals; candidates.json agrees with them.
//
// Input: a JSON selector object ({"byRole":"AXButton","titleMatches":"^Sa"}), or an object
// with a "selector" member.

#include "FuzzCheck.h"
#include "automation/SelectorEngine.h"
#include "bridge/Params.h"
#include "bridge/protocol/JsonRpc.h"

#include <QJsonArray>
#include <QSet>

using namespace Automation;

namespace {

Node node(const QString& role, const QString& nativeRole, const QString& title, quint32 states,
          std::optional<QString> value = std::nullopt, const QString& subrole = {}, const QString& identifier = {})
{
    Node n;
    n.role = role;
    n.nativeRole = nativeRole;
    n.title = title;
    n.states = states;
    n.subrole = subrole;
    n.identifier = identifier;
    if (value) {
        n.value = *value;
        n.hasValue = true;
    }
    return n;
}

Snapshot makeSnapshot()
{
    constexpr quint32 live = StateEnabled | StateVisible | StateShowing;
    Snapshot s;
    s.appName = QStringLiteral("fixture");
    s.bundleId = QStringLiteral("mdh-target-app");
    s.pid = 4242;
    s.windowTitle = QStringLiteral("Fixture — Untitled");
    s.nodes = {
        node(QStringLiteral("AXWindow"), QStringLiteral("frame"), QStringLiteral("Fixture — Untitled"),
             live | StateActive),
        node(QStringLiteral("AXButton"), QStringLiteral("push button"), QStringLiteral("Save"), live | StateFocusable),
        node(QStringLiteral("AXButton"), QStringLiteral("push button"), QStringLiteral("Save As…"), live),
        node(QStringLiteral("AXButton"), QStringLiteral("push button"), QStringLiteral("save"), StateVisible),
        node(QStringLiteral("AXButton"), QStringLiteral("push button"), QStringLiteral("Hidden"), StateEnabled),
        node(QStringLiteral("AXCheckBox"), QStringLiteral("toggle button"), QStringLiteral("7"), live, std::nullopt,
             QStringLiteral("AXToggle")),
        node(QStringLiteral("AXTextField"), QStringLiteral("text"), QStringLiteral("Name"), live | StateEditable,
             QStringLiteral("Straße İstanbul ǅ 😀 e\u0301"), {}, QStringLiteral("name-field")),
        node(QStringLiteral("AXTextField"), QStringLiteral("password text"), QStringLiteral("Password"),
             live | StateEditable | StateSecure, QStringLiteral("hunter2"), QStringLiteral("AXSecureTextField")),
        node(QStringLiteral("AXStaticText"), QStringLiteral("label"), QString(QLatin1Char('a')).repeated(200) + u'!',
             live, QStringLiteral("a+b (c) [d] {e} \\f ^$ .*?")),
        node(QStringLiteral("AXMenuItem"), QString(), QStringLiteral("Quit\tCtrl+Q\n"), live),
        node(QStringLiteral("AXGroup"), QStringLiteral("panel"), QString(), 0, QString()),
        node(QStringLiteral("AXStaticText"), QStringLiteral("label"), QStringLiteral("\u0000nul\uFFFD"), live),
    };
    for (int i = 0; i < s.nodes.size(); ++i) {
        s.nodes[i].elementId = QStringLiteral("e:%1").arg(i + 1);
        s.nodes[i].frame = Frame{10 * i, 5 * i, 40, 20};
        s.nodes[i].parent = i == 0 ? -1 : 0;
        if (i > 0) {
            s.nodes[i].path = {i - 1};
            s.nodes[0].children.append(i);
        }
    }
    return s;
}

bool textMatches(const QString& text, const TextMatch& match, bool caseSensitive)
{
    const auto cs = caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    switch (match.mode) {
    case TextMatch::Mode::Equals:
        return text.compare(match.pattern, cs) == 0;
    case TextMatch::Mode::Contains:
        return text.contains(match.pattern, cs);
    case TextMatch::Mode::Regex:
        return match.regex.match(text).hasMatch();
    }
    return false;
}

// The criteria of docs/protocol.md §4.4 read one by one, as a second opinion on the engine's answer.
bool satisfies(const Node& n, const Selector& selector)
{
    if (selector.byRole && !SelectorEngine::roleMatches(n, *selector.byRole))
        return false;
    if (selector.byIdentifier && n.identifier != *selector.byIdentifier)
        return false;
    if (selector.title && !textMatches(n.title, *selector.title, selector.caseSensitive))
        return false;
    if (selector.value &&
        (!n.hasValue || n.has(StateSecure) || !textMatches(n.value, *selector.value, selector.caseSensitive)))
        return false;
    const bool showing = n.has(StateShowing) || n.has(StateVisible);
    if (selector.visibleOnly && !showing)
        return false;
    if (selector.enabledOnly && !n.has(StateEnabled))
        return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const Snapshot snapshot = makeSnapshot();

    auto decoded = Bridge::JsonRpc::decode(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
    if (!decoded || !decoded.value().isObject())
        return 0;
    QJsonObject json = decoded.value().toObject();
    if (json.value(QLatin1String("selector")).isObject())
        json = json.value(QLatin1String("selector")).toObject();
    const auto parsed = Bridge::Params::selector(json, QStringLiteral("selector"));
    if (!parsed)
        return 0;
    const Selector& selector = parsed.value();

    const QList<Candidate> candidates = SelectorEngine::match(snapshot, selector);
    QSet<int> seen;
    for (qsizetype rank = 0; rank < candidates.size(); ++rank) {
        const Candidate& c = candidates.at(rank);
        MDH_FUZZ_CHECK(c.nodeIndex >= 0 && c.nodeIndex < snapshot.nodes.size());
        MDH_FUZZ_CHECK(!seen.contains(c.nodeIndex));
        seen.insert(c.nodeIndex);
        MDH_FUZZ_CHECK_MSG(satisfies(snapshot.nodes.at(c.nodeIndex), selector), snapshot.nodes.at(c.nodeIndex).title);
        MDH_FUZZ_CHECK(!c.reasons.isEmpty());
        if (rank > 0) {
            const Candidate& before = candidates.at(rank - 1);
            MDH_FUZZ_CHECK(before.score >= c.score);
            if (before.score == c.score)
                MDH_FUZZ_CHECK(before.nodeIndex < c.nodeIndex);
        }
    }
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        if (!seen.contains(i))
            MDH_FUZZ_CHECK_MSG(!satisfies(snapshot.nodes.at(i), selector), snapshot.nodes.at(i).title);
    }

    const QJsonObject evidence = SelectorEngine::candidatesJson(snapshot, selector, candidates, json);
    MDH_FUZZ_CHECK(evidence.value(QLatin1String("matched")).toInt() == candidates.size());
    MDH_FUZZ_CHECK(evidence.value(QLatin1String("limit")).toInt() == selector.limit);
    const QJsonArray list = evidence.value(QLatin1String("candidates")).toArray();
    MDH_FUZZ_CHECK(list.size() == candidates.size());
    for (qsizetype rank = 0; rank < list.size(); ++rank) {
        const QJsonObject entry = list.at(rank).toObject();
        MDH_FUZZ_CHECK(entry.value(QLatin1String("rank")).toInt() == rank + 1);
        MDH_FUZZ_CHECK(entry.value(QLatin1String("returned")).toBool() == (rank < selector.limit));
        MDH_FUZZ_CHECK(entry.value(QLatin1String("elementId")).toString() ==
                       snapshot.nodes.at(candidates.at(rank).nodeIndex).elementId);
        // A secure field's text never reaches the evidence.
        MDH_FUZZ_CHECK(entry.value(QLatin1String("value")).toString() != QLatin1String("hunter2"));
    }
    return 0;
}
