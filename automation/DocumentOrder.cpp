#include "automation/DocumentOrder.h"

namespace Automation {

void toDocumentOrder(Snapshot& snapshot)
{
    if (snapshot.nodes.isEmpty())
        return;
    QList<int> order;
    order.reserve(snapshot.nodes.size());
    QList<int> stack{0};
    while (!stack.isEmpty()) {
        const int i = stack.takeLast();
        order.append(i);
        const auto& children = snapshot.nodes.at(i).children;
        // NOLINTNEXTLINE(modernize-loop-convert): in reverse; clang 14 cannot build std::views::reverse
        for (auto it = children.crbegin(); it != children.crend(); ++it)
            stack.append(*it);
    }
    QList<int> newIndex(snapshot.nodes.size(), -1);
    for (int i = 0; i < order.size(); ++i)
        newIndex[order[i]] = i;
    QList<Node> nodes;
    nodes.reserve(order.size());
    for (int old : order) {
        Node node = snapshot.nodes.at(old);
        node.parent = node.parent >= 0 ? newIndex[node.parent] : -1;
        for (auto& child : node.children)
            child = newIndex[child];
        nodes.append(std::move(node));
    }
    for (auto& node : nodes) {
        node.path = node.parent >= 0 ? nodes[node.parent].path : QList<int>{};
        if (node.parent >= 0)
            node.path.append(
                static_cast<int>(nodes[node.parent].children.indexOf(static_cast<int>(&node - nodes.data()))));
    }
    snapshot.nodes = std::move(nodes);
}

} // namespace Automation
