#pragma once

#include "bridge/evidence/EvidenceReader.h"
#include "evidence-viewer/IndexModel.h"

#include <QFileSystemWatcher>
#include <QImage>
#include <QMainWindow>
#include <QTimer>

class QComboBox;
class QLabel;
class QLayout;
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

class ReplayController;

/// The evidence browser (docs/evidence-viewer.md): every execution kept in one or more
/// workspaces, filtered and searched, new ones appearing as they are written; one execution's
/// timeline, request, response, environment, screenshots with the target's frame and the click
/// point drawn, its tree and candidates; and the selector lab, which runs a selector against the
/// recorded tree of every execution in view. Read-only: it never writes into the evidence.
/// A shell of widgets: the index is IndexModel, the lab SelectorLab, the replay
/// ReplayController and the tree diffs in words TreeDiffText, none of which holds a widget.
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

    /// The largest ax.json the browser reads (bigger ones are named, not loaded: the window
    /// never freezes on one).
    static constexpr qint64 kMaxTreeBytes = qint64{32} * 1024 * 1024;
    /// The frame drawn on the screenshots of the execution shown (empty when none).
    QRect drawnFrame() const { return m_drawnFrame; }
    /// How many boxes of text read by OCR (ocr.json's lines) are drawn on the shown ocr.png.
    int ocrBoxes() const { return m_ocrBoxes; }

Q_SIGNALS:
    void reloaded();
    void replayed();

private:
    void buildUi();
    QLayout* buildFilterBar(QWidget* parent);
    QWidget* buildIndexView(QWidget* parent);
    QTabWidget* buildDetailTabs(QWidget* parent);
    QWidget* buildShotsTab();
    QWidget* buildLabTab();
    QWidget* buildReplayTab();
    /// Sends the shown request again, once the person said yes to it.
    void sendReplay();
    void watch(const QStringList& directories);
    /// Draws the slider view for the slider's position.
    void updateCompare();
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
    int m_ocrBoxes = 0;
    ReplayController* m_replayer = nullptr;
    std::optional<Evidence::Execution> m_shown;
    QPushButton* m_replayButton = nullptr;
    QLabel* m_replayStatus = nullptr;
    QTableWidget* m_replay = nullptr;
    QLabel* m_replayDiffSummary = nullptr;
    QTreeWidget* m_replayDiff = nullptr;
};

} // namespace EvidenceViewer
