#pragma once

#include "bridge/evidence/EvidenceReader.h"
#include "bridge/evidence/TreeDiff.h"

#include <QAbstractTableModel>
#include <QFileSystemWatcher>
#include <QHash>
#include <QImage>
#include <QMainWindow>
#include <QSortFilterProxyModel>
#include <QTimer>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSlider;
class QStackedWidget;
class QTableView;
class QTableWidget;
class QTabWidget;
class QTreeWidget;

namespace Bridge {
class Dispatcher;
}

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

/// The evidence browser (docs/evidence-viewer.md): every execution kept in one or more
/// workspaces, filtered and searched, new ones appearing as they are written; one execution's
/// timeline, request, response, environment, screenshots with the target's frame and the click
/// point drawn, its tree and candidates; and the selector lab, which runs a selector against the
/// recorded tree of every execution in view. Read-only: it never writes into the evidence.
class EvidenceWindow final : public QMainWindow
{
    Q_OBJECT

public:
    /// `workspaces`: directories that hold artifacts/desktop (a workspace root's direct
    /// subdirectories are looked in too).
    explicit EvidenceWindow(QStringList workspaces, QWidget* parent = nullptr);
    /// Replay sends a recorded request again through this dispatcher, as the person at the host's
    /// window (the GUI caller: the click on Replay is the approval). Without one (the browser on
    /// its own, --evidence) there is no replay.
    void setDispatcher(Bridge::Dispatcher* dispatcher);
    /// Replays the execution shown: its request with fresh meta; the answer beside the recorded
    /// one. A typeText whose text was not kept cannot be replayed, and says so.
    void replayShown();
    QTableWidget* replayTable() const { return m_replay; }
    QLabel* replayStatus() const { return m_replayStatus; }
    ~EvidenceWindow() override;

    /// Lists every workspace again.
    void reload();
    /// Shows the execution at `row` of the filtered index.
    void showRow(int row);
    /// Runs `selectorJson` against the recorded tree of every execution in view.
    void runLab(const QString& selectorJson);
    /// Writes every execution in view to `zipPath` with a manifest of hashes; false (the
    /// reason in the banner) when it could not.
    bool exportView(const QString& zipPath);

    IndexModel& index() { return m_index; }
    IndexFilter& filter() { return m_filter; }
    QTableView* indexView() const { return m_table; }
    QLineEdit* searchBox() const { return m_search; }
    QComboBox* outcomeBox() const { return m_outcome; }
    QTabWidget* tabs() const { return m_tabs; }
    QTreeWidget* timeline() const { return m_timeline; }
    QLabel* banner() const { return m_banner; }
    QLabel* beforeShot() const { return m_before; }
    QLabel* afterShot() const { return m_after; }
    /// The lab's rows: column 0's Qt::UserRole holds the count of matches (-1: the tree could not
    /// be read), column 1's the execution id.
    QTableWidget* labResults() const { return m_lab; }
    QTableWidget* candidates() const { return m_candidates; }
    /// The screenshots as drawn (target frame and click point on them), before and after.
    const QImage& beforeImage() const { return m_beforeImage; }
    const QImage& afterImage() const { return m_afterImage; }
    /// Side by side (0) or the slider (1).
    QComboBox* shotMode() const { return m_shotMode; }
    /// The slider: the before screenshot left of it, the after screenshot right of it (0..1000).
    QSlider* compareSlider() const { return m_compareSlider; }
    /// What the slider view shows now.
    const QImage& compareImage() const { return m_compareImage; }
    /// What changed in the target's window between the recorded and the replayed tree.
    QTreeWidget* replayDiff() const { return m_replayDiff; }
    QLabel* replayDiffSummary() const { return m_replayDiffSummary; }

    /// A node as a person reads it: role and title.
    static QString describe(const Automation::Node& node);
    /// One change between two trees, in words.
    static QString describe(const Automation::Snapshot& before, const Automation::Snapshot& after,
                            const Evidence::NodeChange& change);
    /// Why a selector's result differs between an older and a newer tree: what became of the
    /// former winner, where the new one came from, and how much of the tree changed.
    static QString explainDifference(const Automation::Snapshot& older, const QList<Automation::Candidate>& olderFound,
                                     const Automation::Snapshot& newer, const QList<Automation::Candidate>& newerFound);
    /// The largest ax.json the browser reads (bigger ones are named, not loaded: the window
    /// never freezes on one).
    static constexpr qint64 kMaxTreeBytes = qint64{32} * 1024 * 1024;
    /// The frame drawn on the screenshots of the execution shown (empty when none).
    QRect drawnFrame() const { return m_drawnFrame; }

Q_SIGNALS:
    void reloaded();
    void replayed();

private:
    void buildUi();
    /// Sends the shown request again, once the person said yes to it.
    void sendReplay();
    void watch(const QStringList& directories);
    /// Draws the slider view for the slider's position.
    void updateCompare();
    /// Fills the replay's tree diff: the target's window in the recorded and the new tree.
    void showReplayDiff(const Automation::Snapshot& recorded, const QJsonObject& recordedResponse,
                        const QString& workspace, const QJsonObject& answer);
    QStringList expandWorkspaces(const QStringList& given) const;

    QStringList m_workspaces;
    IndexModel m_index;
    IndexFilter m_filter;
    QFileSystemWatcher m_watcher;
    QTimer m_reloadDebounce;
    QLineEdit* m_search = nullptr;
    QComboBox* m_outcome = nullptr;
    QComboBox* m_method = nullptr;
    QLabel* m_count = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_banner = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTreeWidget* m_timeline = nullptr;
    QPlainTextEdit* m_request = nullptr;
    QPlainTextEdit* m_response = nullptr;
    QPlainTextEdit* m_env = nullptr;
    QLabel* m_before = nullptr;
    QLabel* m_after = nullptr;
    QComboBox* m_shotMode = nullptr;
    QStackedWidget* m_shotPages = nullptr;
    QSlider* m_compareSlider = nullptr;
    QLabel* m_compare = nullptr;
    QImage m_beforeImage;
    QImage m_afterImage;
    QImage m_compareImage;
    QTreeWidget* m_tree = nullptr;
    QTableWidget* m_candidates = nullptr;
    QPlainTextEdit* m_labSelector = nullptr;
    QLabel* m_labStatus = nullptr;
    QTableWidget* m_lab = nullptr;
    QRect m_drawnFrame;
    Bridge::Dispatcher* m_dispatcher = nullptr;
    std::optional<Evidence::Execution> m_shown;
    QPushButton* m_replayButton = nullptr;
    QLabel* m_replayStatus = nullptr;
    QTableWidget* m_replay = nullptr;
    QLabel* m_replayDiffSummary = nullptr;
    QTreeWidget* m_replayDiff = nullptr;
};

} // namespace EvidenceViewer
