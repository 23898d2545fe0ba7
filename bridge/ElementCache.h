#pragma once

#include "Types.h"

#include <QHash>

#include <deque>

namespace Bridge {

/// Remembers the elements of recent snapshots so an elementRef from one request can be used
/// by the next (contract 4.5). Owned by the executor's worker thread.
class ElementCache
{
public:
    struct Entry
    {
        Automation::Node node;
        Automation::ResolvedRoute route;
    };

    explicit ElementCache(qsizetype capacity = 50000) : m_capacity(capacity) {}

    /// Gives every node of `snapshot` a fresh elementId ("e:N") and remembers it.
    void adopt(Automation::Snapshot& snapshot, const Automation::ResolvedRoute& route);
    const Entry* find(const QString& elementId) const;
    qsizetype size() const { return m_entries.size(); }

private:
    qsizetype m_capacity;
    quint64 m_next = 1;
    QHash<QString, Entry> m_entries;
    std::deque<QString> m_order;
};

} // namespace Bridge
