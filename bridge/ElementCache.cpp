#include "ElementCache.h"

namespace Bridge {

void ElementCache::adopt(Automation::Snapshot& snapshot, const Automation::ResolvedRoute& route)
{
    for (auto& node : snapshot.nodes) {
        node.elementId = QStringLiteral("e:") + QString::number(m_next++);
        m_entries.insert(node.elementId, Entry{node, route});
        m_order.push_back(node.elementId);
    }
    while (m_entries.size() > m_capacity && !m_order.empty()) {
        m_entries.remove(m_order.front());
        m_order.pop_front();
    }
}

const ElementCache::Entry* ElementCache::find(const QString& elementId) const
{
    const auto it = m_entries.constFind(elementId);
    return it == m_entries.cend() ? nullptr : &it.value();
}

} // namespace Bridge
