#pragma once

#include "automation/Types.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Automation {

/// A selector offered for one node of a snapshot, with how it was made and how many nodes of
/// that snapshot it matches.
struct SelectorSuggestion
{
    /// "identifier", "roleTitle", "roleTitleInWindow", "labelledBy" or "path", most robust first.
    QString strategy;
    Selector selector;
    /// What desktop.find takes as `selector` (docs/protocol.md §4.4).
    QJsonObject json;
    /// How many nodes of the snapshot it matches (1: the node alone).
    int matches = 0;
    /// Whether that one match is the node.
    bool unique = false;
    /// Why this strategy, for a person.
    QString why;
};

/// Writes selectors for a node (the inspector's "Suggest selector"): pure, over a snapshot.
class SelectorSuggester
{
public:
    /// Every strategy that applies to node `index`, most robust first: its identifier; its role and
    /// exact title; its role, the title contained and the window; the label that names it; its
    /// path (always applies). Each is matched against `snapshot` with the engine's own matcher.
    static QList<SelectorSuggestion> candidates(const Snapshot& snapshot, int index);
    /// The first of candidates() that matches the node alone; nullopt when none does (two nodes
    /// with the same path cannot happen, so only for an index out of range).
    static std::optional<SelectorSuggestion> suggest(const Snapshot& snapshot, int index);
};

} // namespace Automation
