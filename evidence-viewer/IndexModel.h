#pragma once

#include "bridge/evidence/EvidenceReader.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>

namespace EvidenceViewer {

/// One execution of the index, with the workspace it lives in.
struct Row
{
    QString workspace;
    Evidence::ExecutionInfo info;
};

/// The index of executions across workspaces: when, method, outcome, duration, id.
class IndexModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { WhenColumn, MethodColumn, OutcomeColumn, DurationColumn, IdColumn, ColumnCount };
    enum DataRole { SearchTextRole = Qt::UserRole + 1 };

    explicit IndexModel(QObject* parent = nullptr);
    void setRows(QList<Row> rows);
    const Row& row(int index) const { return m_rows.at(index); }
    /// The text the free-text search looks in: id, method, outcome and, once read, the
    /// request and response files (small ones only).
    void setSearchText(int index, const QString& text) { m_search[index] = text; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "ok", the error code, "interrupted" or "unanswered".
    static QString outcomeOf(const Evidence::ExecutionInfo& info);

private:
    QList<Row> m_rows;
    QHash<int, QString> m_search;
};

/// The filters: outcome ("all", "ok", "errors", "interrupted"), method (empty: all) and free text.
class IndexFilter final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setOutcome(const QString& outcome);
    void setMethod(const QString& method);
    void setText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_outcome = QStringLiteral("all");
    QString m_method;
    QString m_text;
};

} // namespace EvidenceViewer
