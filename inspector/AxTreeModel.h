#pragma once

#include "automation/Types.h"

#include <QAbstractItemModel>
#include <QSet>

namespace Inspector {

/// A window's accessibility tree for a QTreeView: one row per node of a snapshot, children
/// handed to the view only when it expands their parent (canFetchMore/fetchMore), so a tree of
/// thousands of nodes paints its top levels at once. Columns: role, title, value (never of a
/// secure element), states. Replacing the snapshot lists the nodes that disappeared (gone()),
/// so the window can say so rather than drop them silently.
class AxTreeModel final : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { RoleColumn, TitleColumn, ValueColumn, StatesColumn, ColumnCount };
    /// Data roles beyond Qt's.
    enum DataRole {
        NodeIndexRole = Qt::UserRole + 1, ///< the node's index in snapshot().nodes (int)
    };

    explicit AxTreeModel(QObject* parent = nullptr);

    /// Shows `snapshot`. Nodes of the previous snapshot of the same window (by path, role and
    /// title) that are not in it are listed in gone().
    void setSnapshot(Automation::Snapshot snapshot);
    const Automation::Snapshot& snapshot() const { return m_snapshot; }
    /// The titles of the nodes that disappeared with the last setSnapshot ("role title"), for the banner.
    QStringList gone() const { return m_gone; }

    /// The model index of node `nodeIndex` (its ancestors are fetched first), or invalid.
    QModelIndex indexOfNode(int nodeIndex);
    /// The node behind `index`, or nullptr.
    const Automation::Node* nodeAt(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

private:
    /// The node an index stands for (internalId is the node index + 1; 0 is the invisible root).
    int nodeOf(const QModelIndex& index) const;
    /// The children of node `node` (-1: the root's, i.e. the window node itself).
    QList<int> childrenOf(int node) const;

    Automation::Snapshot m_snapshot;
    /// Nodes whose children the view was handed.
    QSet<int> m_fetched;
    QStringList m_gone;
};

} // namespace Inspector
