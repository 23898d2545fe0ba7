#include "inspector/InspectorWindow.h"

#include "bridge/Host.h"
#include "inspector/WindowPlacement.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCursor>
#include <QDateTime>
#include <QDir>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeView>
#include <QTreeWidget>
#include <QUuid>
#include <QVBoxLayout>

namespace Inspector {

namespace {

constexpr int kLiveIntervalMs = 1500;
// The app's element events come in bursts (a new page: dozens): one tree read after a quiet
// moment, at most one every this often while they keep coming.
constexpr int kEventDebounceMs = 250;
constexpr int kTestDebounceMs = 300;

QRect rectOf(const Automation::Frame& frame)
{
    return {frame.x, frame.y, frame.width, frame.height};
}

QString compact(const QJsonValue& value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return value.toVariant().toString();
}

// A shell word for a JSON text: single quotes, a single quote inside written '\''.
QString shellQuoted(const QString& text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

} // namespace

InspectorWindow::InspectorWindow(Bridge::Host& host, QWidget* parent)
    : QMainWindow(parent), m_host(host), m_service(host.executor())
{
    setObjectName(QStringLiteral("inspectorWindow"));
    setWindowTitle(tr("Accessibility Inspector"));
    buildUi();
    m_liveTimer.setInterval(kLiveIntervalMs);
    connect(&m_liveTimer, &QTimer::timeout, this, [this] {
        if (isVisible() && !m_treeReadInFlight)
            refreshTree();
    });
    // The live tree follows the app's own events; the poll above catches what a toolkit does not
    // report.
    m_eventRefresh.setSingleShot(true);
    m_eventRefresh.setInterval(kEventDebounceMs);
    connect(&m_service, &InspectorService::appChanged, this, [this](qint64 pid) {
        const auto route = currentRoute();
        if (m_live->isChecked() && isVisible() && route && route->pid == pid && !m_eventRefresh.isActive())
            m_eventRefresh.start();
    });
    connect(&m_eventRefresh, &QTimer::timeout, this, [this] {
        if (m_treeReadInFlight) {
            m_eventRefresh.start(); // after the read under way
            return;
        }
        ++m_eventRefreshes;
        refreshTree();
    });
    m_testDebounce.setSingleShot(true);
    m_testDebounce.setInterval(kTestDebounceMs);
    connect(&m_testDebounce, &QTimer::timeout, this, &InspectorWindow::runTest);
    m_pickCountdown.setInterval(1000);
    connect(&m_pickCountdown, &QTimer::timeout, this, [this] {
        if (--m_pickLeft > 0) {
            m_pick->setText(tr("Picking in %1…").arg(m_pickLeft));
            return;
        }
        m_pickCountdown.stop();
        m_pick->setText(tr("Pick under the mouse (3 s)"));
        const QPoint at = QCursor::pos();
        ++m_pending;
        QPointer<InspectorWindow> self(this);
        m_service.elementAt(at, [self, at](const Automation::Result<Automation::Operations::ElementAtResult>& found) {
            if (!self)
                return;
            --self->m_pending;
            if (!found || found->index < 0) {
                self->showBanner(found
                                     ? tr("No accessible element under (%1, %2).").arg(at.x()).arg(at.y())
                                     : tr("Could not read the element under the mouse: %1").arg(found.error().message),
                                 true);
                return;
            }
            self->m_model.setSnapshot(found->snapshot);
            self->m_shownWindowHandle.clear();
            self->m_tree->expandToDepth(0);
            self->selectNode(found->index);
            self->showBanner(
                tr("Picked %1 \"%2\" at (%3, %4).")
                    .arg(found->snapshot.nodes.at(found->index).role, found->snapshot.nodes.at(found->index).title)
                    .arg(at.x())
                    .arg(at.y()),
                false);
            Q_EMIT self->treeLoaded();
        });
    });
    refreshWindows();
}

InspectorWindow::~InspectorWindow() = default;

void InspectorWindow::buildUi()
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Window:"), central));
    m_picker = new QComboBox(central);
    m_picker->setObjectName(QStringLiteral("windowPicker"));
    m_picker->setMinimumContentsLength(40);
    top->addWidget(m_picker, 1);
    auto* reload = new QPushButton(tr("Reload"), central);
    reload->setObjectName(QStringLiteral("reloadButton"));
    top->addWidget(reload);
    m_live = new QCheckBox(tr("Live"), central);
    m_live->setObjectName(QStringLiteral("liveCheck"));
    m_live->setToolTip(tr("Read the tree again when the app reports a change, and every %1 s for apps that report "
                          "nothing, while this window is open.")
                           .arg(kLiveIntervalMs / 1000.0));
    m_live->setChecked(true);
    top->addWidget(m_live);
    m_ocrCheck = new QCheckBox(tr("OCR layer"), central);
    m_ocrCheck->setObjectName(QStringLiteral("ocrLayerCheck"));
    m_ocrCheck->setToolTip(tr("Box every line of text the OCR engine reads in the window: what a selector with "
                              "source \"ocr\" can find there."));
    top->addWidget(m_ocrCheck);
    m_pick = new QPushButton(tr("Pick under the mouse (3 s)"), central);
    m_pick->setObjectName(QStringLiteral("pickButton"));
    top->addWidget(m_pick);
    layout->addLayout(top);

    m_banner = new QLabel(central);
    m_banner->setObjectName(QStringLiteral("banner"));
    m_banner->setWordWrap(true);
    m_banner->hide();
    layout->addWidget(m_banner);

    // A highlight drawn across this window's own tree would show nothing of the element.
    m_hiddenNote = new QWidget(central);
    m_hiddenNote->setObjectName(QStringLiteral("hiddenNote"));
    m_hiddenNote->setStyleSheet(QStringLiteral("#hiddenNote { background: #fff4ce; } QLabel { color: #5c4400; }"));
    auto* hiddenLayout = new QHBoxLayout(m_hiddenNote);
    hiddenLayout->setContentsMargins(4, 2, 4, 2);
    m_hiddenText = new QLabel(tr("The selected element is behind this window."), m_hiddenNote);
    m_hiddenText->setWordWrap(true);
    hiddenLayout->addWidget(m_hiddenText, 1);
    m_moveAside = new QPushButton(tr("Move this window aside"), m_hiddenNote);
    m_moveAside->setObjectName(QStringLiteral("moveAsideButton"));
    hiddenLayout->addWidget(m_moveAside);
    connect(m_moveAside, &QPushButton::clicked, this, &InspectorWindow::moveAside);
    m_hiddenNote->hide();
    layout->addWidget(m_hiddenNote);

    auto* split = new QSplitter(Qt::Horizontal, central);
    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_search = new QLineEdit(left);
    m_search->setObjectName(QStringLiteral("treeSearch"));
    m_search->setPlaceholderText(tr("Search the loaded nodes by role or title"));
    leftLayout->addWidget(m_search);
    m_tree = new QTreeView(left);
    m_tree->setObjectName(QStringLiteral("axTree"));
    m_tree->setModel(&m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_tree->setColumnWidth(AxTreeModel::RoleColumn, 170);
    m_tree->setColumnWidth(AxTreeModel::TitleColumn, 220);
    leftLayout->addWidget(m_tree);
    split->addWidget(left);

    auto* right = new QSplitter(Qt::Vertical, split);
    m_properties = new QTreeWidget(right);
    m_properties->setObjectName(QStringLiteral("properties"));
    m_properties->setColumnCount(2);
    m_properties->setHeaderLabels({tr("Property"), tr("Value")});
    m_properties->setColumnWidth(0, 160);
    right->addWidget(m_properties);

    auto* tester = new QGroupBox(tr("Selector tester (what desktop.find accepts)"), right);
    auto* testerLayout = new QVBoxLayout(tester);
    m_editor = new QPlainTextEdit(tester);
    m_editor->setObjectName(QStringLiteral("selectorEditor"));
    m_editor->setPlaceholderText(tr("{\"selector\": {\"byRole\": \"AXButton\", \"titleContains\": \"Send\"}}  (without "
                                    "a route: the window above)"));
    // The same selector, as JSON or as a form that writes the JSON.
    auto* ways = new QTabWidget(tester);
    ways->setObjectName(QStringLiteral("selectorWays"));
    ways->addTab(m_editor, tr("JSON"));
    m_form = new SelectorForm(ways);
    auto* formScroll = new QScrollArea(ways);
    formScroll->setWidget(m_form);
    formScroll->setWidgetResizable(true);
    ways->addTab(formScroll, tr("Form"));
    ways->setMaximumHeight(260);
    testerLayout->addWidget(ways);
    connect(m_form, &SelectorForm::selectorChanged, this, [this](const QJsonObject& selector) {
        if (selector.isEmpty())
            return;
        m_editor->setPlainText(QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("selector"), selector}}).toJson(QJsonDocument::Indented)));
    });
    m_testStatus = new QLabel(tester);
    m_testStatus->setObjectName(QStringLiteral("testStatus"));
    m_testStatus->setWordWrap(true);
    testerLayout->addWidget(m_testStatus);
    m_results = new QTableWidget(0, 5, tester);
    m_results->setObjectName(QStringLiteral("testResults"));
    m_results->setHorizontalHeaderLabels({tr("Rank"), tr("Score"), tr("Role"), tr("Title"), tr("Why")});
    m_results->horizontalHeader()->setStretchLastSection(true);
    m_results->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_results->setSelectionBehavior(QAbstractItemView::SelectRows);
    testerLayout->addWidget(m_results);
    auto* suggestRow = new QHBoxLayout;
    auto* suggest = new QPushButton(tr("Suggest selector"), tester);
    suggest->setObjectName(QStringLiteral("suggestButton"));
    suggestRow->addWidget(suggest);
    auto* copyJson = new QPushButton(tr("Copy JSON"), tester);
    copyJson->setObjectName(QStringLiteral("copyJson"));
    suggestRow->addWidget(copyJson);
    auto* copyCtl = new QPushButton(tr("Copy desktopctl line"), tester);
    copyCtl->setObjectName(QStringLiteral("copyCtl"));
    suggestRow->addWidget(copyCtl);
    suggestRow->addStretch(1);
    testerLayout->addLayout(suggestRow);
    m_suggestion = new QLabel(tester);
    m_suggestion->setObjectName(QStringLiteral("suggestion"));
    m_suggestion->setWordWrap(true);
    m_suggestion->setTextInteractionFlags(Qt::TextSelectableByMouse);
    testerLayout->addWidget(m_suggestion);
    right->addWidget(tester);

    auto* actions = new QGroupBox(tr("Try an action on the selected node"), right);
    auto* actionsLayout = new QVBoxLayout(actions);
    auto* actionRow = new QHBoxLayout;
    auto* click = new QPushButton(tr("Click"), actions);
    click->setObjectName(QStringLiteral("tryClick"));
    actionRow->addWidget(click);
    m_typeText = new QLineEdit(actions);
    m_typeText->setObjectName(QStringLiteral("tryText"));
    m_typeText->setPlaceholderText(tr("Text to type into it"));
    actionRow->addWidget(m_typeText, 1);
    auto* type = new QPushButton(tr("Type"), actions);
    type->setObjectName(QStringLiteral("tryType"));
    actionRow->addWidget(type);
    actionsLayout->addLayout(actionRow);
    m_actionAnswer = new QLabel(actions);
    m_actionAnswer->setObjectName(QStringLiteral("actionAnswer"));
    m_actionAnswer->setWordWrap(true);
    m_actionAnswer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    actionsLayout->addWidget(m_actionAnswer);
    right->addWidget(actions);
    connect(click, &QPushButton::clicked, this, [this] { tryAction(QStringLiteral("desktop.click")); });
    connect(type, &QPushButton::clicked, this,
            [this] { tryAction(QStringLiteral("desktop.typeText"), m_typeText->text()); });
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    setCentralWidget(central);
    resize(1200, 800);

    connect(m_picker, &QComboBox::currentIndexChanged, this, [this](int) {
        m_selectedPath.reset();
        m_shownWindowHandle.clear();
        refreshTree();
        if (m_ocrCheck->isChecked())
            readOcrLayer();
    });
    connect(m_ocrCheck, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            readOcrLayer();
        else
            showFrames();
    });
    connect(reload, &QPushButton::clicked, this, [this] {
        refreshWindows();
        refreshTree();
    });
    connect(m_live, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_liveTimer.start();
        else
            m_liveTimer.stop();
    });
    connect(m_pick, &QPushButton::clicked, this, [this] { pickUnderPointer(); });
    connect(m_search, &QLineEdit::textChanged, this, &InspectorWindow::filterTree);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
        const int node =
            current.data(AxTreeModel::NodeIndexRole).isValid() ? current.data(AxTreeModel::NodeIndexRole).toInt() : -1;
        showNode(node);
    });
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] { m_testDebounce.start(); });
    connect(suggest, &QPushButton::clicked, this, &InspectorWindow::suggestForSelection);
    connect(copyJson, &QPushButton::clicked, this, [this] {
        if (m_lastSuggestion)
            QApplication::clipboard()->setText(compact(m_lastSuggestion->json));
    });
    connect(copyCtl, &QPushButton::clicked, this, [this] {
        if (!m_lastSuggestion)
            return;
        QJsonObject params{{QStringLiteral("selector"), m_lastSuggestion->json}};
        if (const auto route = currentRoute())
            params.insert(QStringLiteral("route"), route->toJson());
        QApplication::clipboard()->setText(QStringLiteral("msgcode-desktopctl call desktop.find ") +
                                           shellQuoted(compact(params)));
    });
    if (m_live->isChecked())
        m_liveTimer.start();
}

void InspectorWindow::readOcrLayer()
{
    const auto route = currentRoute();
    if (!route) {
        showBanner(tr("Choose a window first: the OCR layer reads its text."), true);
        return;
    }
    // The frames drawn on screen are pixels too: gone before the window is read.
    ++m_pending;
    const quint64 generation = ++m_ocrGeneration;
    QPointer<InspectorWindow> self(this);
    afterFramesGone([self, route, generation] {
        if (!self)
            return;
        self->m_service.ocr(
            *route, [self, generation](const Automation::Result<Automation::Operations::OcrResult>& read) {
                if (!self)
                    return;
                --self->m_pending;
                // Only the newest read counts, and only while the layer is asked for.
                if (generation != self->m_ocrGeneration || !self->m_ocrCheck->isChecked()) {
                    self->pixelReadDone();
                    return;
                }
                if (!read) {
                    self->m_ocrLines = -1;
                    self->m_ocrBoxes.clear();
                    self->pixelReadDone();
                    self->showBanner(tr("The OCR layer could not read the window: %1").arg(read.error().message), true);
                    Q_EMIT self->ocrLayerShown();
                    return;
                }
                QList<QRect> boxes;
                for (const auto& line : read->lines)
                    boxes.append(rectOf(line.frame));
                self->m_ocrLines = static_cast<int>(boxes.size());
                self->m_ocrBoxes = boxes;
                self->pixelReadDone();
                self->showBanner(tr("OCR layer: %n line(s) read in %1 ms by %2.", nullptr, self->m_ocrLines)
                                     .arg(read->recognizeMs)
                                     .arg(read->engine.value(QStringLiteral("name")).toString()),
                                 false);
                Q_EMIT self->ocrLayerShown();
            });
    });
}

void InspectorWindow::afterFramesGone(std::function<void()> read)
{
    const QList<FrameTrace> traces = m_highlight.traces() + m_ocrLayer.traces();
    // No frame comes back while any read of the pixels is under way, so that an answer arriving
    // (a test's candidates, the layer's lines) never draws into another read.
    ++m_pixelReads;
    showFrames();
    // Without a compositor, the pixels under a frame are the frame's until the app under it has
    // drawn itself again, which a busy machine may take a while to do: the screen is looked at
    // until it no longer shows them.
    pollFramesGone(traces, QDateTime::currentMSecsSinceEpoch() + kFramesGoneMaxMs, read);
}

void InspectorWindow::pixelReadDone()
{
    --m_pixelReads;
    showFrames();
}

void InspectorWindow::showHighlight(const QList<QRect>& frames, int emphasised)
{
    m_wantedHighlight = frames;
    m_wantedEmphasis = emphasised;
    showFrames();
}

void InspectorWindow::showFrames()
{
    if (m_pixelReads > 0) {
        m_highlight.hide();
        m_ocrLayer.hide();
        return;
    }
    if (m_wantedHighlight.isEmpty())
        m_highlight.hide();
    else
        m_highlight.show(m_wantedHighlight, m_wantedEmphasis);
    if (m_ocrCheck->isChecked() && !m_ocrBoxes.isEmpty())
        m_ocrLayer.show(m_ocrBoxes, -1);
    else
        m_ocrLayer.hide();
}

void InspectorWindow::pollFramesGone(const QList<FrameTrace>& traces, qint64 deadline,
                                     const std::function<void()>& read)
{
    if (traces.isEmpty()) {
        read();
        return;
    }
    QPointer<InspectorWindow> self(this);
    QTimer::singleShot(kFramesPollMs, this, [self, traces, deadline, read] {
        if (!self)
            return;
        QRect area;
        for (const auto& trace : traces)
            area |= trace.target.adjusted(-FrameWindow::kBorder, -FrameWindow::kBorder, FrameWindow::kBorder,
                                          FrameWindow::kBorder);
        QScreen* screen = QGuiApplication::screenAt(area.center());
        if (!screen)
            screen = QGuiApplication::primaryScreen();
        bool shown = false;
        if (screen) {
            const QRect local = area.translated(-screen->geometry().topLeft());
            const QImage grab = screen->grabWindow(0, local.x(), local.y(), local.width(), local.height()).toImage();
            shown = framesStillShown(grab, area, grab.devicePixelRatio(), traces);
        }
        if (shown && QDateTime::currentMSecsSinceEpoch() < deadline)
            self->pollFramesGone(traces, deadline, read);
        else
            read();
    });
}

void InspectorWindow::hideEvent(QHideEvent* event)
{
    m_highlight.hide();
    m_ocrLayer.hide();
    QMainWindow::hideEvent(event);
}

void InspectorWindow::moveEvent(QMoveEvent* event)
{
    QMainWindow::moveEvent(event);
    updateHiddenNote();
}

void InspectorWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    updateHiddenNote();
}

void InspectorWindow::updateHiddenNote()
{
    if (!m_hiddenNote)
        return;
    const bool hidden = m_selectedFrame && isVisible() && frameGeometry().intersects(*m_selectedFrame);
    m_hiddenNote->setVisible(hidden);
}

void InspectorWindow::moveAside()
{
    if (!m_selectedFrame)
        return;
    const QRect screen = screenFor(*m_selectedFrame);
    const Placement placement = placeBeside(*m_selectedFrame, frameSizeOf(*this), screen, FrameWindow::kBorder + 12);
    move(placement.topLeft);
    // No side of the screen takes the whole window: it covers the least it can, and says so.
    m_hiddenText->setText(placement.coversTarget()
                              ? tr("The screen has no room beside the selected element: it is partly behind this "
                                   "window. Make this window smaller to see it.")
                              : tr("The selected element is behind this window."));
    updateHiddenNote();
}

void InspectorWindow::showBanner(const QString& text, bool problem)
{
    m_banner->setText(text);
    m_banner->setStyleSheet(problem ? QStringLiteral("background: #fde2e1; color: #8a1f11; padding: 4px;")
                                    : QStringLiteral("background: #e8f0fe; color: #174ea6; padding: 4px;"));
    m_banner->setVisible(!text.isEmpty());
}

void InspectorWindow::refreshWindows()
{
    if (const QString busy = m_service.busyText(); !busy.isEmpty())
        showBanner(busy, false);
    ++m_pending;
    QPointer<InspectorWindow> self(this);
    m_service.windows([self](const Automation::Result<QList<Automation::WindowInfo>>& listed) {
        if (!self)
            return;
        --self->m_pending;
        if (!listed) {
            self->showBanner(tr("Could not list the windows: %1").arg(listed.error().message), true);
            return;
        }
        const qint64 own = QCoreApplication::applicationPid();
        QList<Automation::WindowInfo> windows;
        for (const auto& window : listed.value()) {
            if (window.pid != own)
                windows.append(window);
        }
        const QString current = self->m_picker->currentData().toString();
        const QSignalBlocker block(self->m_picker);
        self->m_picker->clear();
        self->m_windows = windows;
        for (const auto& window : std::as_const(windows)) {
            const QString key = QStringLiteral("%1|%2").arg(window.pid).arg(window.title);
            const QString app = window.appName.isEmpty() ? window.executable : window.appName;
            self->m_picker->addItem(
                window.executable.isEmpty() || window.executable == app
                    ? tr("%1 — %2 (pid %3)").arg(window.title, app).arg(window.pid)
                    : tr("%1 — %2 (pid %3, %4)").arg(window.title, app).arg(window.pid).arg(window.executable),
                key);
        }
        const int keep = self->m_picker->findData(current);
        self->m_picker->setCurrentIndex(keep >= 0 ? keep : (windows.isEmpty() ? -1 : 0));
        Q_EMIT self->windowsLoaded();
        if (keep < 0 && !windows.isEmpty())
            self->refreshTree();
    });
}

bool InspectorWindow::chooseWindow(qint64 pid, const QString& title)
{
    const int at = m_picker->findData(QStringLiteral("%1|%2").arg(pid).arg(title));
    if (at < 0)
        return false;
    if (at == m_picker->currentIndex())
        refreshTree();
    else
        m_picker->setCurrentIndex(at);
    return true;
}

bool InspectorWindow::chooseApp(qint64 pid)
{
    for (const auto& window : m_windows) {
        if (window.pid == pid)
            return chooseWindow(pid, window.title);
    }
    return false;
}

std::optional<Automation::Route> InspectorWindow::currentRoute() const
{
    const int at = m_picker->currentIndex();
    if (at < 0 || at >= m_windows.size())
        return std::nullopt;
    Automation::Route route = InspectorService::routeFor(m_windows.at(at));
    // Once its tree was read, that very window, whatever its title becomes (a new document
    // renames an editor's window); else the window as its accessible element names it.
    const Automation::Snapshot& shown = m_model.snapshot();
    if (shown.pid == m_windows.at(at).pid && !m_shownWindowHandle.isEmpty()) {
        route.windowTitlePattern.reset();
        route.windowHandle = m_shownWindowHandle;
    } else if (shown.pid == m_windows.at(at).pid && !shown.nodes.isEmpty())
        route.windowTitlePattern =
            shown.windowTitle.isEmpty()
                ? std::nullopt
                : std::optional(QStringLiteral("^") + QRegularExpression::escape(shown.windowTitle) +
                                QStringLiteral("$"));
    return route;
}

void InspectorWindow::refreshTree()
{
    const auto route = currentRoute();
    if (!route)
        return;
    if (const QString busy = m_service.busyText(); !busy.isEmpty())
        showBanner(busy + tr("; the tree below is the last one read."), false);
    m_treeReadInFlight = true;
    ++m_pending;
    QPointer<InspectorWindow> self(this);
    m_service.tree(*route, [self](const Automation::Result<Automation::Operations::DumpTreeResult>& read) {
        if (!self)
            return;
        --self->m_pending;
        self->m_treeReadInFlight = false;
        if (!read) {
            // A hung or vanished app: say so and keep the last tree.
            const bool hung = read.error().code == Automation::ErrorCode::Timeout ||
                              read.error().code == Automation::ErrorCode::TargetUnresponsive;
            self->showBanner(
                hung
                    ? tr("The app does not answer (%1); the tree below is the last one read.").arg(read.error().message)
                    : tr("Could not read the window: %1").arg(read.error().message),
                true);
            Q_EMIT self->treeLoaded();
            return;
        }
        self->m_model.setSnapshot(read->snapshot);
        self->m_shownWindowHandle = read->route.windowHandle;
        self->m_tree->expandToDepth(0);
        const QStringList gone = self->m_model.gone();
        if (!gone.isEmpty())
            self->showBanner(
                tr("%n node(s) disappeared since the last read: %1", nullptr, static_cast<int>(gone.size()))
                    .arg(QStringList(gone.mid(0, 5)).join(QStringLiteral(", "))),
                false);
        else
            self->showBanner(read->snapshot.truncated ? tr("The tree was cut (%1).").arg(read->snapshot.truncatedReason)
                                                      : QString(),
                             false);
        // The selection survives a refresh when its node is still there.
        if (self->m_selectedPath) {
            const auto& nodes = self->m_model.snapshot().nodes;
            for (int i = 0; i < nodes.size(); ++i) {
                if (nodes.at(i).path == *self->m_selectedPath) {
                    self->selectNode(i);
                    break;
                }
            }
        }
        Q_EMIT self->treeLoaded();
    });
}

void InspectorWindow::selectNode(int nodeIndex)
{
    const QModelIndex index = m_model.indexOfNode(nodeIndex);
    if (!index.isValid())
        return;
    m_tree->scrollTo(index);
    m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    showNode(nodeIndex);
}

void InspectorWindow::showNode(int nodeIndex)
{
    m_properties->clear();
    const auto& nodes = m_model.snapshot().nodes;
    if (nodeIndex < 0 || nodeIndex >= nodes.size()) {
        showHighlight({}, -1);
        m_selectedFrame.reset();
        updateHiddenNote();
        return;
    }
    const Automation::Node& node = nodes.at(nodeIndex);
    m_selectedPath = node.path;
    QStringList path;
    for (int step : node.path)
        path.append(QString::number(step));
    QStringList labelledBy;
    for (const auto& other : nodes) {
        if (other.labelFor.contains(nodeIndex))
            labelledBy.append(other.title);
    }
    const QList<std::pair<QString, QString>> rows{
        {tr("Role"), node.role},
        {tr("Native role"), node.nativeRole},
        {tr("Subrole"), node.subrole},
        {tr("Title"), node.title},
        {tr("Value"), node.isSecure() ? tr("(secure: never read)") : (node.hasValue ? node.value : tr("(not read)"))},
        {tr("Identifier"), node.identifier},
        {tr("Description"), node.description},
        {tr("States"), node.stateNames().join(QStringLiteral(", "))},
        {tr("Actions"), node.actions.join(QStringLiteral(", "))},
        {tr("Frame (screen)"), QStringLiteral("x %1, y %2, %3 × %4")
                                   .arg(node.frame.x)
                                   .arg(node.frame.y)
                                   .arg(node.frame.width)
                                   .arg(node.frame.height)},
        {tr("Path"), path.join(QLatin1Char('/'))},
        {tr("Fingerprint"), Automation::fingerprintOf(node)},
        {tr("Labelled by"), labelledBy.join(QStringLiteral(", "))},
        {tr("Children"), QString::number(node.children.size())},
    };
    for (const auto& [name, value] : rows) {
        auto* item = new QTreeWidgetItem(m_properties, {name, value});
        item->setToolTip(1, value);
    }
    showHighlight({rectOf(node.frame)}, 0);
    m_selectedFrame = node.frame.isEmpty() ? std::nullopt : std::optional<QRect>(rectOf(node.frame));
    m_hiddenText->setText(tr("The selected element is behind this window."));
    updateHiddenNote();
}

void InspectorWindow::filterTree(const QString& text)
{
    if (text.trimmed().isEmpty())
        return;
    const auto& nodes = m_model.snapshot().nodes;
    for (int i = 0; i < nodes.size(); ++i) {
        if (nodes.at(i).title.contains(text, Qt::CaseInsensitive) ||
            nodes.at(i).role.contains(text, Qt::CaseInsensitive)) {
            selectNode(i);
            return;
        }
    }
}

void InspectorWindow::testSelector(const QString& json)
{
    const QSignalBlocker block(m_editor);
    m_editor->setPlainText(json);
    m_testDebounce.stop(); // the edits before it need no search of their own
    runTest();
}

void InspectorWindow::runTest()
{
    const QString text = m_editor->toPlainText().trimmed();
    if (text.isEmpty())
        return;
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        m_testStatus->setText(tr("Not a JSON object: %1").arg(error.errorString()));
        return;
    }
    QJsonObject params = document.object();
    // A selector alone is taken as {"selector": …}.
    if (!params.contains(QStringLiteral("selector")))
        params = QJsonObject{{QStringLiteral("selector"), params}};
    if (!params.contains(QStringLiteral("route"))) {
        const auto route = currentRoute();
        if (!route) {
            m_testStatus->setText(tr("Choose a window first, or give a route."));
            return;
        }
        params.insert(QStringLiteral("route"), route->toJson());
    }
    m_testStatus->setText(tr("Searching…"));
    ++m_pending;
    QPointer<InspectorWindow> self(this);
    // A search of the text on screen reads pixels: the frames this window draws are gone first
    // (the OCR layer comes back with the answer).
    const QString source =
        params.value(QStringLiteral("selector")).toObject().value(QStringLiteral("source")).toString();
    const bool readsPixels = source == QLatin1String("ocr") || source == QLatin1String("any");
    const auto search = [self, params, readsPixels] {
        if (self)
            self->m_service.find(params, [self, readsPixels](const auto& answer) {
                if (!self)
                    return;
                if (readsPixels)
                    self->pixelReadDone();
                self->showTestAnswer(answer);
            });
    };
    if (readsPixels)
        afterFramesGone(search);
    else
        search();
}

void InspectorWindow::showTestAnswer(const Automation::Result<InspectorService::FindAnswer>& answer)
{
    --m_pending;
    m_results->setRowCount(0);
    if (!answer) {
        m_lastTestCount = -1;
        m_testStatus->setText(tr("%1: %2").arg(Automation::errorCodeName(answer.error().code), answer.error().message));
        showHighlight({}, -1);
        Q_EMIT testFinished();
        return;
    }
    const auto& found = answer->found;
    m_lastTestCount = static_cast<int>(found.candidates.size());
    m_testStatus->setText(tr("%n match(es) in %1 ms", nullptr, m_lastTestCount).arg(answer->elapsedMs));
    QList<QRect> frames;
    for (int i = 0; i < found.candidates.size(); ++i) {
        const auto& candidate = found.candidates.at(i);
        const auto& node = found.snapshot.nodes.at(candidate.nodeIndex);
        m_results->insertRow(i);
        const QStringList cells{QString::number(i + 1), QString::number(candidate.score), node.role, node.title,
                                candidate.reasons.join(QStringLiteral("; "))};
        for (int c = 0; c < cells.size(); ++c)
            m_results->setItem(i, c, new QTableWidgetItem(cells.at(c)));
        frames.append(rectOf(node.frame));
    }
    showHighlight(frames, 0);
    Q_EMIT testFinished();
}

void InspectorWindow::suggestForSelection()
{
    const QModelIndex current = m_tree->currentIndex();
    if (!current.isValid())
        return;
    const int nodeIndex = current.data(AxTreeModel::NodeIndexRole).toInt();
    const Automation::Snapshot snapshot = m_model.snapshot();
    m_lastSuggestion = Automation::SelectorSuggester::suggest(snapshot, nodeIndex);
    m_suggestionConfirmed = false;
    if (!m_lastSuggestion) {
        m_suggestion->setText(tr("No selector matches this node alone."));
        Q_EMIT suggestionReady();
        return;
    }
    const auto route = currentRoute();
    QJsonObject params{{QStringLiteral("selector"), m_lastSuggestion->json}};
    if (route)
        params.insert(QStringLiteral("route"), route->toJson());
    const QList<int> wantedPath = snapshot.nodes.at(nodeIndex).path;
    m_suggestedPath = wantedPath;
    m_suggestion->setText(tr("Checking %1 against the live tree…").arg(compact(m_lastSuggestion->json)));
    ++m_pending;
    // Only the answer to the newest suggestion counts: an older one checked another node.
    const quint64 generation = ++m_suggestGeneration;
    QPointer<InspectorWindow> self(this);
    m_service.find(
        params, [self, wantedPath, generation](const Automation::Result<InspectorService::FindAnswer>& answer) {
            if (!self)
                return;
            --self->m_pending;
            if (generation != self->m_suggestGeneration || !self->m_lastSuggestion)
                return;
            const auto& suggestion = *self->m_lastSuggestion;
            const bool alone =
                answer && answer->found.candidates.size() == 1 &&
                answer->found.snapshot.nodes.at(answer->found.candidates.constFirst().nodeIndex).path == wantedPath;
            self->m_suggestionConfirmed = alone;
            const QString json = compact(suggestion.json);
            if (alone)
                self->m_suggestion->setText(
                    tr("%1\nMatches this node alone in the live tree. Chosen for %2.").arg(json, suggestion.why));
            else
                self->m_suggestion->setText(
                    tr("%1\nNot confirmed: the live tree gave %2 match(es)%3. The tree may have changed; reload and "
                       "try again.")
                        .arg(json)
                        .arg(answer ? static_cast<int>(answer->found.candidates.size()) : 0)
                        .arg(answer ? QString() : QStringLiteral(" (") + answer.error().message + QLatin1Char(')')));
            {
                const QSignalBlocker block(self->m_editor);
                self->m_editor->setPlainText(
                    QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("selector"), suggestion.json}})
                                          .toJson(QJsonDocument::Indented)));
            }
            Q_EMIT self->suggestionReady();
        });
}

void InspectorWindow::tryAction(const QString& method, const QString& text)
{
    const QModelIndex current = m_tree->currentIndex();
    const auto route = currentRoute();
    if (!current.isValid() || !route) {
        m_actionAnswer->setText(tr("Select a node first."));
        return;
    }
    const int nodeIndex = current.data(AxTreeModel::NodeIndexRole).toInt();
    // The node by the selector the live tree confirmed names it alone: a side effect never lands
    // on whatever a stale tree's selector happens to match now.
    if (!m_lastSuggestion || !m_suggestionConfirmed || m_suggestedPath != m_model.snapshot().nodes.at(nodeIndex).path) {
        m_actionAnswer->setText(tr("Suggest a selector for this node first: an action goes to the element the live "
                                   "tree confirmed."));
        return;
    }
    const auto suggestion = m_lastSuggestion;
    // The person's own actions keep their evidence beside the workspace root's other callers'.
    const QString workspace = m_host.dispatcher().workspace().rootRealPath() + QStringLiteral("/inspector");
    if (!m_host.dispatcher().workspace().isConfigured() || !QDir().mkpath(workspace)) {
        m_actionAnswer->setText(tr("No workspace root is set, so no action can keep its evidence."));
        return;
    }
    QJsonObject params{{QStringLiteral("route"), route->toJson()},
                       {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), suggestion->json}}},
                       {QStringLiteral("meta"),
                        QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                    {QStringLiteral("requestId"), QUuid::createUuid().toString(QUuid::WithoutBraces)},
                                    {QStringLiteral("workspacePath"), workspace},
                                    {QStringLiteral("timeoutMs"), 20000}}}};
    if (method == QLatin1String("desktop.typeText"))
        params.insert(QStringLiteral("text"), text);
    m_actionAnswer->setText(tr("%1 running…").arg(method));
    ++m_pending;
    QPointer<InspectorWindow> self(this);
    m_host.dispatcher().call(
        Bridge::Caller::gui(), method, params, [self, method](const Automation::Result<QJsonObject>& answer) {
            if (!self)
                return;
            --self->m_pending;
            if (!answer) {
                self->m_actionAnswer->setText(
                    tr("%1: %2").arg(Automation::errorCodeName(answer.error().code), answer.error().message));
            } else {
                const QJsonObject verification = answer->value(QStringLiteral("verification")).toObject();
                self->m_actionAnswer->setText(tr("%1: effect %2 (%3); evidence in %4")
                                                  .arg(method, answer->value(QStringLiteral("effect")).toString(),
                                                       verification.value(QStringLiteral("reason")).toString(),
                                                       answer->value(QStringLiteral("evidence"))
                                                           .toObject()
                                                           .value(QStringLiteral("dir"))
                                                           .toString()));
            }
            Q_EMIT self->actionFinished();
            self->refreshTree();
        });
}

void InspectorWindow::pickUnderPointer(int delayMs)
{
    m_pickLeft = std::max(1, delayMs / 1000);
    m_pick->setText(tr("Picking in %1…").arg(m_pickLeft));
    if (delayMs < 1000) {
        m_pickLeft = 1;
        m_pickCountdown.start(delayMs);
        return;
    }
    m_pickCountdown.start(1000);
}

} // namespace Inspector
