#include "automation/SelectorSuggester.h"

#include "automation/SelectorEngine.h"

#include <QRegularExpression>

namespace Automation {

namespace {

TextMatch exactly(const QString& text)
{
    return TextMatch{TextMatch::Mode::Equals, text, {}};
}

TextMatch containing(const QString& text)
{
    return TextMatch{TextMatch::Mode::Contains, text, {}};
}

SelectorSuggestion judged(const Snapshot& snapshot, int index, QString strategy, Selector selector, QString why)
{
    SelectorSuggestion out;
    out.strategy = std::move(strategy);
    out.json = selector.toJson();
    // The engine's parser gives the selector its compiled parts (regular expressions), so the
    // match below is the one desktop.find makes of the same JSON.
    if (auto parsed = Selector::fromJson(out.json))
        selector = parsed.value();
    out.selector = selector;
    const QList<Candidate> matched = SelectorEngine::match(snapshot, selector);
    out.matches = static_cast<int>(matched.size());
    out.unique = matched.size() == 1 && matched.constFirst().nodeIndex == index;
    out.why = std::move(why);
    return out;
}

} // namespace

QList<SelectorSuggestion> SelectorSuggester::candidates(const Snapshot& snapshot, int index)
{
    QList<SelectorSuggestion> out;
    if (index < 0 || index >= snapshot.nodes.size())
        return out;
    const Node& node = snapshot.nodes.at(index);
    if (!node.identifier.isEmpty()) {
        Selector s;
        s.byIdentifier = node.identifier;
        out.append(judged(snapshot, index, QStringLiteral("identifier"), s,
                          QStringLiteral("the identifier the app gave the element: it survives new titles, "
                                         "translations and layout changes")));
    }
    if (!node.title.isEmpty()) {
        Selector s;
        s.byRole = node.role;
        s.title = exactly(node.title);
        out.append(judged(snapshot, index, QStringLiteral("roleTitle"), s,
                          QStringLiteral("its role and exact visible title, as a person names it")));
        Selector scoped;
        scoped.byRole = node.role;
        scoped.title = containing(node.title);
        if (!snapshot.windowTitle.isEmpty())
            scoped.inWindow =
                QStringLiteral("^") + QRegularExpression::escape(snapshot.windowTitle) + QStringLiteral("$");
        out.append(judged(snapshot, index, QStringLiteral("roleTitleInWindow"), scoped,
                          QStringLiteral("its role and the title it contains, in this window only")));
    }
    // The label that names it: a relation read from the app, else a text on its row.
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        const Node& label = snapshot.nodes.at(i);
        if (i == index || label.title.isEmpty() || !label.labelFor.contains(index))
            continue;
        Selector anchor;
        anchor.title = exactly(label.title);
        Selector s;
        s.byRole = node.role;
        s.labelledBy = std::make_shared<const Selector>(anchor);
        out.append(judged(snapshot, index, QStringLiteral("labelledBy"), s,
                          QStringLiteral("the label \"%1\" the app says names it").arg(label.title)));
        break;
    }
    Selector path;
    path.byRole = node.role;
    path.byPath = node.path;
    out.append(judged(snapshot, index, QStringLiteral("path"), path,
                      QStringLiteral("its place in the window's tree: the last resort, it breaks when the "
                                     "window's layout changes")));
    return out;
}

std::optional<SelectorSuggestion> SelectorSuggester::suggest(const Snapshot& snapshot, int index)
{
    for (const SelectorSuggestion& suggestion : candidates(snapshot, index)) {
        if (suggestion.unique)
            return suggestion;
    }
    return std::nullopt;
}

} // namespace Automation
