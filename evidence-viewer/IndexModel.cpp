#include "evidence-viewer/IndexModel.h"

#include <QColor>

namespace EvidenceViewer {

// --- IndexModel -------------------------------------------------------------------------------

IndexModel::IndexModel(QObject* parent) : QAbstractTableModel(parent) {}

void IndexModel::setRows(QList<Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_search.clear();
    endResetModel();
}

QString IndexModel::outcomeOf(const Evidence::ExecutionInfo& info)
{
    if (info.interrupted)
        return QStringLiteral("interrupted");
    if (!info.answered)
        return QStringLiteral("unanswered");
    return info.outcome;
}

int IndexModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int IndexModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IndexModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Evidence::ExecutionInfo& info = m_rows.at(index.row()).info;
    if (role == SearchTextRole)
        return QString(info.executionId + QLatin1Char(' ') + info.method + QLatin1Char(' ') + outcomeOf(info) +
                       QLatin1Char(' ') + m_search.value(index.row()));
    if (role == Qt::ForegroundRole && index.column() == OutcomeColumn && outcomeOf(info) != QLatin1String("ok"))
        return QColor(176, 0, 32);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case WhenColumn:
        return info.receivedAt.isValid() ? info.receivedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                                         : info.date.toString(Qt::ISODate);
    case MethodColumn:
        return info.method;
    case OutcomeColumn:
        return outcomeOf(info);
    case DurationColumn:
        return info.durationMs >= 0 ? tr("%1 ms").arg(info.durationMs) : QString();
    case IdColumn:
        return info.executionId;
    default:
        break;
    }
    return {};
}

QVariant IndexModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhenColumn:
        return tr("When");
    case MethodColumn:
        return tr("Method");
    case OutcomeColumn:
        return tr("Outcome");
    case DurationColumn:
        return tr("Duration");
    case IdColumn:
        return tr("Execution");
    default:
        break;
    }
    return {};
}

// --- IndexFilter ------------------------------------------------------------------------------

void IndexFilter::setOutcome(const QString& outcome)
{
    m_outcome = outcome;
    invalidateFilter();
}

void IndexFilter::setMethod(const QString& method)
{
    m_method = method;
    invalidateFilter();
}

void IndexFilter::setText(const QString& text)
{
    m_text = text.trimmed();
    invalidateFilter();
}

bool IndexFilter::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const auto* model = static_cast<const IndexModel*>(sourceModel());
    const Evidence::ExecutionInfo& info = model->row(sourceRow).info;
    const QString outcome = IndexModel::outcomeOf(info);
    if (m_outcome == QLatin1String("ok") && outcome != QLatin1String("ok"))
        return false;
    if (m_outcome == QLatin1String("errors") && (outcome == QLatin1String("ok") || info.interrupted))
        return false;
    if (m_outcome == QLatin1String("interrupted") && !info.interrupted)
        return false;
    if (!m_method.isEmpty() && info.method != m_method)
        return false;
    if (!m_text.isEmpty() &&
        !model->index(sourceRow, 0).data(IndexModel::SearchTextRole).toString().contains(m_text, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace EvidenceViewer
