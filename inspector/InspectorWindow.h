#pragma once

#include "automation/SelectorSuggester.h"
#include "inspector/AxTreeModel.h"
#include "inspector/HighlightOverlay.h"
#include "inspector/InspectorService.h"
#include "inspector/SelectorForm.h"

#include <QMainWindow>
#include <QTimer>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTreeView;
class QTreeWidget;

namespace Bridge {
class Host;
}

namespace Inspector {

/// The inspector (docs/inspector.md): any app's accessibility tree, live; a node's every
/// property; its frame highlighted on screen; a selector tester running the engine's own search;
/// and "Suggest selector", checked against the live tree before it is offered. Everything it
/// reads goes through InspectorService (the host's worker); the GUI thread never waits.
class InspectorWindow final : public QMainWindow
{
    Q_OBJECT

public:
    explicit InspectorWindow(Bridge::Host& host, QWidget* parent = nullptr);
    ~InspectorWindow() override;

    /// Re-reads the list of windows (the picker).
    void refreshWindows();
    /// Chooses the window of `pid` whose title is `title` (the picker's entry), and reads its tree.
    bool chooseWindow(qint64 pid, const QString& title);
    /// Chooses the first window of the app with process id `pid`; false when it has none listed.
    bool chooseApp(qint64 pid);
    /// Re-reads the chosen window's tree.
    void refreshTree();
    /// The live tree's fallback poll, for toolkits that report nothing (tests set a long one to
    /// see the app's events at work).
    void setLiveIntervalMs(int ms) { m_liveTimer.setInterval(ms); }
    /// Tree reads started by the app's events (not the poll, not a person).
    int eventRefreshes() const { return m_eventRefreshes; }
    /// Selects node `nodeIndex` of the tree shown.
    void selectNode(int nodeIndex);
    /// Puts `json` (desktop.find's params, or a selector alone) in the tester and runs it now.
    void testSelector(const QString& json);
    /// Suggests a selector for the selected node and checks it against the live tree.
    void suggestForSelection();
    /// Picks the node under the mouse pointer after `delayMs`.
    void pickUnderPointer(int delayMs = 3000);
    /// Tries an action on the selected node as the person at this window (the GUI caller: the
    /// click on the button is the approval; a stopped host refuses it): desktop.click, or
    /// desktop.typeText with `text`. The answer shows under the buttons.
    void tryAction(const QString& method, const QString& text = {});
    QLabel* actionAnswer() const { return m_actionAnswer; }

    AxTreeModel& model() { return m_model; }
    const HighlightOverlay& highlight() const { return m_highlight; }
    /// The OCR layer: a frame around each line of text OCR reads in the chosen window, while
    /// "OCR layer" is checked; how many lines the last read gave (-1: it failed).
    const HighlightOverlay& ocrLayer() const { return m_ocrLayer; }
    int ocrLines() const { return m_ocrLines; }
    /// Reads the chosen window's text and shows the OCR layer (also when the box is checked).
    void readOcrLayer();
    QTreeView* treeView() const { return m_tree; }
    QLabel* banner() const { return m_banner; }
    /// The note shown while the selected element lies behind this window, with "Move aside".
    QWidget* hiddenNote() const { return m_hiddenNote; }
    QPushButton* moveAsideButton() const { return m_moveAside; }
    /// Moves this window beside the selected element (the side of the screen with the most room).
    void moveAside();
    QLabel* testStatus() const { return m_testStatus; }
    QTableWidget* testResults() const { return m_results; }
    QLabel* suggestionLabel() const { return m_suggestion; }
    QPlainTextEdit* selectorEditor() const { return m_editor; }
    QTreeWidget* properties() const { return m_properties; }
    SelectorForm* selectorForm() const { return m_form; }
    /// The last suggestion and whether the live tree confirmed it matches the node alone.
    std::optional<Automation::SelectorSuggestion> lastSuggestion() const { return m_lastSuggestion; }
    bool lastSuggestionConfirmed() const { return m_suggestionConfirmed; }
    /// The last tester answer: how many matched, and their node indexes in its own snapshot.
    int lastTestCount() const { return m_lastTestCount; }
    /// Reads in flight (tests wait for 0).
    int pendingReads() const { return m_pending; }

Q_SIGNALS:
    void treeLoaded();
    void testFinished();
    void suggestionReady();
    void actionFinished();
    void windowsLoaded();
    void ocrLayerShown();

protected:
    void hideEvent(QHideEvent* event) override;
    void moveEvent(QMoveEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void buildUi();
    void showBanner(const QString& text, bool problem);
    void showNode(int nodeIndex);
    void runTest();
    void showTestAnswer(const Automation::Result<InspectorService::FindAnswer>& answer);
    QString currentRouteText() const;
    std::optional<Automation::Route> currentRoute() const;
    void filterTree(const QString& text);
    /// Shows or hides the note that the selected element is behind this window.
    void updateHiddenNote();

    Bridge::Host& m_host;
    InspectorService m_service;
    AxTreeModel m_model;
    HighlightOverlay m_highlight;
    /// The text OCR read, in green, apart from the selection's highlight.
    HighlightOverlay m_ocrLayer{QColor(0, 160, 90), QColor(0, 160, 90)};
    QCheckBox* m_ocrCheck = nullptr;
    int m_ocrLines = 0;
    QList<QRect> m_ocrBoxes;
    quint64 m_ocrGeneration = 0;
    /// Takes every frame this window draws off the screen, then calls `read` once the screen no
    /// longer shows them (the app under them has drawn itself again), or after kFramesGoneMaxMs.
    void afterFramesGone(std::function<void()> read);
    void pollFramesGone(const QList<FrameTrace>& traces, qint64 deadline, const std::function<void()>& read);
    /// One read of the pixels begun by afterFramesGone has its answer: the frames come back.
    void pixelReadDone();
    /// The selection's or the test's frames: drawn now, or once no read of the pixels is under way.
    void showHighlight(const QList<QRect>& frames, int emphasised);
    /// Draws the frames wanted (the highlight, the OCR layer), or none while pixels are being read.
    void showFrames();
    int m_pixelReads = 0;
    QList<QRect> m_wantedHighlight;
    int m_wantedEmphasis = -1;
    static constexpr int kFramesPollMs = 40;
    static constexpr int kFramesGoneMaxMs = 2000;
    QList<Automation::WindowInfo> m_windows;
    QComboBox* m_picker = nullptr;
    QCheckBox* m_live = nullptr;
    QPushButton* m_pick = nullptr;
    QLabel* m_banner = nullptr;
    QWidget* m_hiddenNote = nullptr;
    QLabel* m_hiddenText = nullptr;
    QPushButton* m_moveAside = nullptr;
    /// The selected node's frame on screen, while it is highlighted.
    std::optional<QRect> m_selectedFrame;
    QLineEdit* m_search = nullptr;
    QTreeView* m_tree = nullptr;
    QTreeWidget* m_properties = nullptr;
    QPlainTextEdit* m_editor = nullptr;
    SelectorForm* m_form = nullptr;
    QLabel* m_testStatus = nullptr;
    QTableWidget* m_results = nullptr;
    QLabel* m_suggestion = nullptr;
    QLineEdit* m_typeText = nullptr;
    QLabel* m_actionAnswer = nullptr;
    QTimer m_liveTimer;
    /// Debounces the app's element events into one tree read.
    QTimer m_eventRefresh;
    int m_eventRefreshes = 0;
    QTimer m_testDebounce;
    QTimer m_pickCountdown;
    int m_pickLeft = 0;
    int m_pending = 0;
    bool m_treeReadInFlight = false;
    int m_lastTestCount = -1;
    std::optional<Automation::SelectorSuggestion> m_lastSuggestion;
    bool m_suggestionConfirmed = false;
    QList<int> m_suggestedPath;
    quint64 m_suggestGeneration = 0;
    /// The selected node's path, kept across refreshes.
    std::optional<QList<int>> m_selectedPath;
    /// The backend's handle of the window whose tree is shown (empty: not read by route yet).
    QString m_shownWindowHandle;
};

} // namespace Inspector
