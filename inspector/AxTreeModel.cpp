#include "inspector/AxTreeModel.h"

#include <QFont>

namespace Inspector {

namespace {

QString keyOf(const Automation::Node& node)
{
    QStringList path;
    for (int step : node.path)
        path.append(QString::number(step));
    return path.join(QLatin1Char('/')) + QLatin1Char('|') + node.role + QLatin1Char('|') + node.title;
}

} // namespace

AxTreeModel::AxTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void AxTreeModel::setSnapshot(Automation::Snapshot snapshot)
{
    m_gone.clear();
    if (snapshot.pid == m_snapshot.pid && snapshot.windowTitle == m_snapshot.windowTitle) {
        QSet<QString> now;
        for (const auto& node : snapshot.nodes)
            now.insert(keyOf(node));
        for (const auto& node : m_snapshot.nodes) {
            if (!now.contains(keyOf(node)))
                m_gone.append(QString(node.role + QLatin1Char(' ') + node.title).trimmed());
        }
    }
    beginResetModel();
    m_snapshot = std::move(snapshot);
    m_fetched.clear();
    endResetModel();
}

int AxTreeModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<int>(index.internalId()) - 1 : -1;
}

QList<int> AxTreeModel::childrenOf(int node) const
{
    if (node < 0)
        return m_snapshot.nodes.isEmpty() ? QList<int>{} : QList<int>{0};
    if (node >= m_snapshot.nodes.size())
        return {};
    return m_snapshot.nodes.at(node).children;
}

const Automation::Node* AxTreeModel::nodeAt(const QModelIndex& index) const
{
    const int node = nodeOf(index);
    return node >= 0 && node < m_snapshot.nodes.size() ? &m_snapshot.nodes.at(node) : nullptr;
}

QModelIndex AxTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0 || row >= rowCount(parent))
        return {};
    return createIndex(row, column, static_cast<quintptr>(childrenOf(nodeOf(parent)).at(row)) + 1);
}

QModelIndex AxTreeModel::parent(const QModelIndex& child) const
{
    const int node = nodeOf(child);
    if (node <= 0 || node >= m_snapshot.nodes.size())
        return {};
    const int parentNode = m_snapshot.nodes.at(node).parent;
    if (parentNode < 0)
        return {};
    const int grand = m_snapshot.nodes.at(parentNode).parent;
    const int row = static_cast<int>(childrenOf(grand).indexOf(parentNode));
    return row < 0 ? QModelIndex() : createIndex(row, 0, static_cast<quintptr>(parentNode) + 1);
}

int AxTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const int node = nodeOf(parent);
    // The window node is always shown; anything deeper once its parent was expanded.
    if (node >= 0 && !m_fetched.contains(node))
        return 0;
    return static_cast<int>(childrenOf(node).size());
}

int AxTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

bool AxTreeModel::hasChildren(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return false;
    return !childrenOf(nodeOf(parent)).isEmpty();
}

bool AxTreeModel::canFetchMore(const QModelIndex& parent) const
{
    const int node = nodeOf(parent);
    return node >= 0 && (!parent.isValid() || parent.column() == 0) && !m_fetched.contains(node) &&
           !childrenOf(node).isEmpty();
}

void AxTreeModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent))
        return;
    const int node = nodeOf(parent);
    const int count = static_cast<int>(childrenOf(node).size());
    beginInsertRows(parent, 0, count - 1);
    m_fetched.insert(node);
    endInsertRows();
}

QModelIndex AxTreeModel::indexOfNode(int nodeIndex)
{
    if (nodeIndex < 0 || nodeIndex >= m_snapshot.nodes.size())
        return {};
    QList<int> chain;
    for (int n = nodeIndex; n >= 0; n = m_snapshot.nodes.at(n).parent)
        chain.prepend(n);
    QModelIndex at;
    for (int n : chain) {
        const int parentNode = m_snapshot.nodes.at(n).parent;
        if (at.isValid() && canFetchMore(at))
            fetchMore(at);
        const int row = static_cast<int>(childrenOf(parentNode).indexOf(n));
        at = index(row, 0, at);
        if (!at.isValid())
            return {};
    }
    return at;
}

QVariant AxTreeModel::data(const QModelIndex& index, int role) const
{
    const Automation::Node* node = nodeAt(index);
    if (!node)
        return {};
    if (role == NodeIndexRole)
        return nodeOf(index);
    if (role == Qt::ToolTipRole)
        return node->nativeRole.isEmpty() ? node->role
                                          : node->role + QStringLiteral(" (") + node->nativeRole + QLatin1Char(')');
    if (role == Qt::FontRole && !node->has(Automation::StateShowing)) {
        QFont font;
        font.setItalic(true);
        return font;
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case RoleColumn:
        return node->role;
    case TitleColumn:
        return node->title;
    case ValueColumn:
        // A secure element's value is never read, so never shown.
        return node->isSecure() ? tr("(secure)") : (node->hasValue ? node->value : QString());
    case StatesColumn:
        return node->stateNames().join(QLatin1Char(' '));
    default:
        break;
    }
    return {};
}

QVariant AxTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RoleColumn:
        return tr("Role");
    case TitleColumn:
        return tr("Title");
    case ValueColumn:
        return tr("Value");
    case StatesColumn:
        return tr("States");
    default:
        break;
    }
    return {};
}

} // namespace Inspector
