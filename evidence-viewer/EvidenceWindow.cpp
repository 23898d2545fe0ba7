#include "evidence-viewer/EvidenceWindow.h"

#include "bridge/evidence/EvidenceArchive.h"
#include "evidence-viewer/ReplayController.h"
#include "evidence-viewer/SelectorLab.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSet>
#include <QSlider>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace EvidenceViewer {

namespace {

constexpr int kReloadDebounceMs = 500;
/// Request and response files read for the free-text search, at most this big.
constexpr qint64 kSearchFileBytes = qint64{256} * 1024;
/// Nodes of a recorded tree shown in the Tree tab.
constexpr int kMaxTreeRows = 20000;

QString pretty(const std::optional<QJsonObject>& object)
{
    return object ? QString::fromUtf8(QJsonDocument(*object).toJson(QJsonDocument::Indented)) : QString();
}

std::optional<QRect> frameOf(const QJsonValue& value)
{
    const QJsonObject frame = value.toObject();
    if (!frame.contains(QStringLiteral("width")))
        return std::nullopt;
    const QRect rect(frame.value(QStringLiteral("x")).toInt(), frame.value(QStringLiteral("y")).toInt(),
                     frame.value(QStringLiteral("width")).toInt(), frame.value(QStringLiteral("height")).toInt());
    return rect.isEmpty() ? std::nullopt : std::optional(rect);
}

// Where the execution acted: the target's frame (or the first element found) and the point.
std::pair<std::optional<QRect>, std::optional<QPoint>> targetOf(const std::optional<QJsonObject>& response)
{
    if (!response)
        return {};
    const QJsonObject result = response->value(QStringLiteral("result")).toObject();
    std::optional<QRect> frame =
        frameOf(result.value(QStringLiteral("target")).toObject().value(QStringLiteral("frame")));
    if (!frame)
        frame = frameOf(
            result.value(QStringLiteral("elementRefs")).toArray().at(0).toObject().value(QStringLiteral("frame")));
    std::optional<QPoint> point;
    const QJsonObject at = result.value(QStringLiteral("at")).toObject();
    if (at.contains(QStringLiteral("x")))
        point = QPoint(at.value(QStringLiteral("x")).toInt(), at.value(QStringLiteral("y")).toInt());
    else if (frame)
        point = frame->center();
    return {frame, point};
}

// A screenshot shown whole: scaled down to the label's size (never cropped) whenever the label
// is resized, its aspect kept.
class ShotLabel : public QLabel
{
public:
    using QLabel::QLabel;
    void setImage(const QImage& image)
    {
        m_image = image;
        fit();
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QLabel::resizeEvent(event);
        fit();
    }

private:
    void fit()
    {
        if (m_image.isNull()) {
            setPixmap({});
            return;
        }
        const QSize room = size().boundedTo(m_image.size());
        setPixmap(QPixmap::fromImage(
            room == m_image.size() ? m_image : m_image.scaled(room, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    }

    QImage m_image;
};

void showShot(QLabel* label, const QImage& image)
{
    static_cast<ShotLabel*>(label)->setImage(image);
}

// What OCR read (ocr.json): each line's frame in screen coordinates, and the origin of
// ocr.png (the frame it shows).
struct OcrBoxes
{
    QPoint origin;
    QList<QRect> lines;
};

std::optional<OcrBoxes> ocrBoxesOf(const QByteArray& json)
{
    const QJsonObject kept = QJsonDocument::fromJson(json).object();
    const auto frame = frameOf(kept.value(QStringLiteral("frame")));
    if (!frame)
        return std::nullopt;
    OcrBoxes out{frame->topLeft(), {}};
    for (const auto& line : kept.value(QStringLiteral("lines")).toArray()) {
        if (const auto box = frameOf(line.toObject().value(QStringLiteral("frame"))))
            out.lines.append(*box);
    }
    return out;
}

} // namespace

EvidenceWindow::EvidenceWindow(QStringList workspaces, QWidget* parent)
    : QMainWindow(parent), m_workspaces(expandWorkspaces(workspaces))
{
    setObjectName(QStringLiteral("evidenceWindow"));
    setWindowTitle(tr("Evidence"));
    m_filter.setSourceModel(&m_index);
    m_replayer = new ReplayController(kMaxTreeBytes, this);
    buildUi();
    m_reloadDebounce.setSingleShot(true);
    m_reloadDebounce.setInterval(kReloadDebounceMs);
    connect(&m_reloadDebounce, &QTimer::timeout, this, &EvidenceWindow::reload);
    // New executions appear as they are written: a change in a watched folder reloads the index.
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] { m_reloadDebounce.start(); });
    reload();
}

EvidenceWindow::~EvidenceWindow() = default;

QStringList EvidenceWindow::expandWorkspaces(const QStringList& given) const
{
    QStringList out;
    const auto hasEvidence = [](const QString& dir) {
        const QFileInfo artifacts(dir + QStringLiteral("/artifacts/desktop"));
        return artifacts.isDir() && !artifacts.isSymLink();
    };
    for (const QString& dir : given) {
        const QString absolute = QDir(dir).absolutePath();
        if (hasEvidence(absolute))
            out.append(absolute);
        // A workspace root: its workspaces are its direct subdirectories (links not followed).
        for (const QFileInfo& child :
             QDir(absolute).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks)) {
            if (hasEvidence(child.absoluteFilePath()))
                out.append(child.absoluteFilePath());
        }
    }
    out.removeDuplicates();
    return out;
}

void EvidenceWindow::buildUi()
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->addLayout(buildFilterBar(central));
    auto* split = new QSplitter(Qt::Horizontal, central);
    split->addWidget(buildIndexView(split));
    auto* right = new QWidget(split);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_banner = new QLabel(right);
    m_banner->setObjectName(QStringLiteral("executionBanner"));
    m_banner->setWordWrap(true);
    m_banner->hide();
    rightLayout->addWidget(m_banner);
    rightLayout->addWidget(buildDetailTabs(right), 1);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({560, 690});
    layout->addWidget(split, 1);
    setCentralWidget(central);
    resize(1250, 800);
}

QLayout* EvidenceWindow::buildFilterBar(QWidget* parent)
{
    auto* top = new QHBoxLayout;
    m_search = new QLineEdit(parent);
    m_search->setObjectName(QStringLiteral("evidenceSearch"));
    m_search->setPlaceholderText(tr("Search ids, methods, outcomes, requests and responses"));
    top->addWidget(m_search, 1);
    m_outcome = new QComboBox(parent);
    m_outcome->setObjectName(QStringLiteral("outcomeFilter"));
    m_outcome->addItem(tr("All outcomes"), QStringLiteral("all"));
    m_outcome->addItem(tr("Succeeded"), QStringLiteral("ok"));
    m_outcome->addItem(tr("Failed"), QStringLiteral("errors"));
    m_outcome->addItem(tr("Interrupted"), QStringLiteral("interrupted"));
    top->addWidget(m_outcome);
    m_method = new QComboBox(parent);
    m_method->setObjectName(QStringLiteral("methodFilter"));
    top->addWidget(m_method);
    auto* reloadButton = new QPushButton(tr("Reload"), parent);
    top->addWidget(reloadButton);
    auto* exportButton = new QPushButton(tr("Export…"), parent);
    exportButton->setObjectName(QStringLiteral("exportButton"));
    exportButton->setToolTip(tr("The executions in view as a zip with a manifest of hashes"));
    top->addWidget(exportButton);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        // open(), never exec(): no nested event loop.
        auto* chooser = new QFileDialog(this, tr("Export evidence"), QDir::homePath(), tr("Zip files (*.zip)"));
        chooser->setAcceptMode(QFileDialog::AcceptSave);
        chooser->setDefaultSuffix(QStringLiteral("zip"));
        chooser->setAttribute(Qt::WA_DeleteOnClose);
        connect(chooser, &QFileDialog::fileSelected, this, [this](const QString& file) { exportView(file); });
        chooser->open();
    });
    m_count = new QLabel(parent);
    top->addWidget(m_count);

    connect(reloadButton, &QPushButton::clicked, this, &EvidenceWindow::reload);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        // The request and response files are read once, when a search first needs them.
        if (!text.trimmed().isEmpty()) {
            for (int i = 0; i < m_index.rowCount(); ++i) {
                if (!m_index.index(i, 0).data(IndexModel::SearchTextRole).toString().endsWith(QLatin1Char('\n'))) {
                    const Row& row = m_index.row(i);
                    const Evidence::EvidenceReader reader(row.workspace);
                    QString files;
                    for (const char* file : {"request.json", "response.json"}) {
                        if (const auto bytes = reader.readFile(row.info, QLatin1String(file), kSearchFileBytes))
                            files += QString::fromUtf8(bytes.value()) + QLatin1Char(' ');
                    }
                    m_index.setSearchText(i, files + QLatin1Char('\n'));
                }
            }
        }
        m_filter.setText(text);
        m_count->setText(tr("%n execution(s)", nullptr, m_filter.rowCount()));
    });
    connect(m_outcome, &QComboBox::currentIndexChanged, this, [this](int) {
        m_filter.setOutcome(m_outcome->currentData().toString());
        m_count->setText(tr("%n execution(s)", nullptr, m_filter.rowCount()));
    });
    connect(m_method, &QComboBox::currentIndexChanged, this, [this](int) {
        m_filter.setMethod(m_method->currentData().toString());
        m_count->setText(tr("%n execution(s)", nullptr, m_filter.rowCount()));
    });
    return top;
}

QWidget* EvidenceWindow::buildIndexView(QWidget* parent)
{
    m_table = new QTableView(parent);
    m_table->setObjectName(QStringLiteral("evidenceIndex"));
    m_table->setModel(&m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setColumnWidth(IndexModel::WhenColumn, 150);
    m_table->setColumnWidth(IndexModel::MethodColumn, 140);
    m_table->setColumnWidth(IndexModel::OutcomeColumn, 190);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showRow(current.row()); });
    return m_table;
}

QTabWidget* EvidenceWindow::buildDetailTabs(QWidget* parent)
{
    m_tabs = new QTabWidget(parent);
    m_tabs->setObjectName(QStringLiteral("executionTabs"));
    m_timeline = new QTreeWidget(m_tabs);
    m_timeline->setObjectName(QStringLiteral("timeline"));
    m_timeline->setHeaderLabels({tr("Step"), tr("At (ms)"), tr("Took (ms)"), tr("OK"), tr("Details")});
    m_timeline->setRootIsDecorated(false);
    m_tabs->addTab(m_timeline, tr("Timeline"));
    const auto jsonView = [this](const QString& name) {
        auto* view = new QPlainTextEdit(m_tabs);
        view->setObjectName(name);
        view->setReadOnly(true);
        view->setLineWrapMode(QPlainTextEdit::NoWrap);
        return view;
    };
    m_request = jsonView(QStringLiteral("requestView"));
    m_tabs->addTab(m_request, tr("Request"));
    m_response = jsonView(QStringLiteral("responseView"));
    m_tabs->addTab(m_response, tr("Response"));
    m_env = jsonView(QStringLiteral("envView"));
    m_tabs->addTab(m_env, tr("Environment"));
    m_tabs->addTab(buildShotsTab(), tr("Screenshots"));
    m_tree = new QTreeWidget(m_tabs);
    m_tree->setObjectName(QStringLiteral("recordedTree"));
    m_tree->setHeaderLabels({tr("Role"), tr("Title"), tr("Frame")});
    m_tabs->addTab(m_tree, tr("Tree"));
    m_candidates = new QTableWidget(0, 5, m_tabs);
    m_candidates->setObjectName(QStringLiteral("candidateTable"));
    m_candidates->setHorizontalHeaderLabels({tr("Rank"), tr("Score"), tr("Role"), tr("Title"), tr("Why")});
    m_candidates->horizontalHeader()->setStretchLastSection(true);
    m_candidates->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tabs->addTab(m_candidates, tr("Candidates"));

    m_tabs->addTab(buildLabTab(), tr("Selector lab"));
    m_tabs->addTab(buildReplayTab(), tr("Replay"));
    return m_tabs;
}

QWidget* EvidenceWindow::buildShotsTab()
{
    // The screenshots: side by side, or one over the other with a slider between them.
    auto* shots = new QWidget(m_tabs);
    auto* shotsLayout = new QVBoxLayout(shots);
    m_shotMode = new QComboBox(shots);
    m_shotMode->setObjectName(QStringLiteral("shotMode"));
    m_shotMode->addItem(tr("Before and after, side by side"));
    m_shotMode->addItem(tr("Before and after, with a slider"));
    shotsLayout->addWidget(m_shotMode, 0, Qt::AlignLeft);
    m_shotPages = new QStackedWidget(shots);
    auto* sideBySide = new QWidget(m_shotPages);
    auto* sideLayout = new QHBoxLayout(sideBySide);
    m_before = new ShotLabel(sideBySide);
    m_before->setObjectName(QStringLiteral("beforeShot"));
    m_after = new ShotLabel(sideBySide);
    m_after->setObjectName(QStringLiteral("afterShot"));
    for (QLabel* shot : {m_before, m_after}) {
        shot->setAlignment(Qt::AlignCenter);
        shot->setMinimumSize(200, 150);
        sideLayout->addWidget(shot, 1);
    }
    m_shotPages->addWidget(sideBySide);
    auto* slider = new QWidget(m_shotPages);
    auto* sliderLayout = new QVBoxLayout(slider);
    m_compare = new ShotLabel(slider);
    m_compare->setObjectName(QStringLiteral("compareShot"));
    m_compare->setAlignment(Qt::AlignCenter);
    m_compare->setMinimumSize(200, 150);
    sliderLayout->addWidget(m_compare, 1);
    m_compareSlider = new QSlider(Qt::Horizontal, slider);
    m_compareSlider->setObjectName(QStringLiteral("compareSlider"));
    m_compareSlider->setRange(0, 1000);
    m_compareSlider->setValue(500);
    m_compareSlider->setToolTip(tr("Left of the line: before. Right of it: after."));
    sliderLayout->addWidget(m_compareSlider);
    m_shotPages->addWidget(slider);
    shotsLayout->addWidget(m_shotPages, 1);
    connect(m_shotMode, &QComboBox::currentIndexChanged, m_shotPages, &QStackedWidget::setCurrentIndex);
    connect(m_compareSlider, &QSlider::valueChanged, this, &EvidenceWindow::updateCompare);
    return shots;
}

QWidget* EvidenceWindow::buildLabTab()
{
    auto* lab = new QWidget(m_tabs);
    auto* labLayout = new QVBoxLayout(lab);
    labLayout->addWidget(new QLabel(tr("A selector, run against the recorded tree of every execution in view:"), lab));
    m_labSelector = new QPlainTextEdit(lab);
    m_labSelector->setObjectName(QStringLiteral("labSelector"));
    m_labSelector->setPlaceholderText(QStringLiteral("{\"byRole\": \"AXButton\", \"titleContains\": \"Send\"}"));
    m_labSelector->setMaximumHeight(90);
    labLayout->addWidget(m_labSelector);
    auto* run = new QPushButton(tr("Run against every tree"), lab);
    run->setObjectName(QStringLiteral("labRun"));
    labLayout->addWidget(run, 0, Qt::AlignLeft);
    m_labStatus = new QLabel(lab);
    m_labStatus->setObjectName(QStringLiteral("labStatus"));
    m_labStatus->setWordWrap(true);
    labLayout->addWidget(m_labStatus);
    m_lab = new QTableWidget(0, 6, lab);
    m_lab->setObjectName(QStringLiteral("labResults"));
    m_lab->setHorizontalHeaderLabels(
        {tr("When"), tr("Method"), tr("Matches"), tr("Winner"), tr("Tree"), tr("What changed since the one before")});
    m_lab->horizontalHeader()->setStretchLastSection(true);
    m_lab->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_lab->setWordWrap(true);
    m_lab->verticalHeader()->hide();
    labLayout->addWidget(m_lab, 1);

    connect(run, &QPushButton::clicked, this, [this] { runLab(m_labSelector->toPlainText()); });
    return lab;
}

QWidget* EvidenceWindow::buildReplayTab()
{
    auto* replay = new QWidget(m_tabs);
    auto* replayLayout = new QVBoxLayout(replay);
    m_replayButton = new QPushButton(tr("Replay this request"), replay);
    m_replayButton->setObjectName(QStringLiteral("replayButton"));
    m_replayButton->setToolTip(tr("Sends the recorded request again, as you, with fresh meta; your click is the "
                                  "approval."));
    replayLayout->addWidget(m_replayButton, 0, Qt::AlignLeft);
    m_replayStatus = new QLabel(replay);
    m_replayStatus->setObjectName(QStringLiteral("replayStatus"));
    m_replayStatus->setWordWrap(true);
    replayLayout->addWidget(m_replayStatus);
    m_replay = new QTableWidget(0, 3, replay);
    m_replay->setObjectName(QStringLiteral("replayTable"));
    m_replay->setHorizontalHeaderLabels({QString(), tr("Recorded"), tr("Replayed")});
    m_replay->horizontalHeader()->setStretchLastSection(true);
    m_replay->setEditTriggers(QAbstractItemView::NoEditTriggers);
    replayLayout->addWidget(m_replay, 1);
    m_replayDiffSummary = new QLabel(replay);
    m_replayDiffSummary->setObjectName(QStringLiteral("replayDiffSummary"));
    m_replayDiffSummary->setWordWrap(true);
    replayLayout->addWidget(m_replayDiffSummary);
    m_replayDiff = new QTreeWidget(replay);
    m_replayDiff->setObjectName(QStringLiteral("replayDiff"));
    m_replayDiff->setHeaderLabels({tr("Change"), tr("Element"), tr("Details")});
    m_replayDiff->setRootIsDecorated(false);
    replayLayout->addWidget(m_replayDiff, 1);
    connect(m_replayButton, &QPushButton::clicked, this, &EvidenceWindow::replayShown);
    m_replayButton->setEnabled(false);
    return replay;
}

void EvidenceWindow::watch(const QStringList& directories)
{
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    if (!directories.isEmpty())
        m_watcher.addPaths(directories);
}

void EvidenceWindow::reload()
{
    QList<Row> rows;
    QStringList watched;
    QStringList skipped;
    QSet<QString> methods;
    for (const QString& workspace : std::as_const(m_workspaces)) {
        const Evidence::EvidenceReader reader(workspace);
        const auto listing = reader.list();
        const QString artifacts = workspace + QStringLiteral("/artifacts/desktop");
        watched.append(artifacts);
        for (const QFileInfo& day : QDir(artifacts).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks))
            watched.append(day.absoluteFilePath());
        if (!listing) {
            skipped.append(tr("%1: %2").arg(workspace, listing.error().message));
            continue;
        }
        for (const auto& info : listing->executions) {
            rows.append(Row{workspace, info});
            methods.insert(info.method);
        }
        for (const auto& entry : listing->skipped)
            skipped.append(tr("%1 (%2)").arg(entry.relativePath, entry.reason));
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.info.receivedAt > b.info.receivedAt; });
    m_index.setRows(rows);
    watch(watched);
    {
        const QString current = m_method->currentData().toString();
        const QSignalBlocker block(m_method);
        m_method->clear();
        m_method->addItem(tr("All methods"), QString());
        QStringList sorted(methods.begin(), methods.end());
        sorted.sort();
        for (const QString& method : sorted)
            m_method->addItem(method, method);
        m_method->setCurrentIndex(std::max(0, m_method->findData(current)));
    }
    m_filter.setMethod(m_method->currentData().toString());
    m_count->setText(tr("%n execution(s)", nullptr, m_filter.rowCount()));
    if (!skipped.isEmpty()) {
        m_banner->setStyleSheet(QStringLiteral("background: #fff4ce; padding: 4px;"));
        m_banner->setText(tr("Not shown, damaged or not evidence (links are never followed): %1")
                              .arg(skipped.join(QStringLiteral("; "))));
        m_banner->show();
    }
    Q_EMIT reloaded();
}

void EvidenceWindow::showRow(int row)
{
    // Nothing of an execution shown before stays (nor can be replayed) once another is asked for.
    m_shown.reset();
    m_replayButton->setEnabled(false);
    m_replay->setRowCount(0);
    m_replayStatus->clear();
    m_replayDiff->clear();
    m_replayDiffSummary->clear();
    m_beforeImage = {};
    m_afterImage = {};
    m_request->clear();
    m_response->clear();
    m_env->clear();
    m_timeline->clear();
    m_tree->clear();
    m_candidates->setRowCount(0);
    showShot(m_before, {});
    showShot(m_after, {});
    m_drawnFrame = {};
    m_ocrBoxes = 0;
    const QModelIndex at = m_filter.index(row, 0);
    if (!at.isValid()) {
        updateCompare();
        return;
    }
    const Row& source = m_index.row(m_filter.mapToSource(at).row());
    const Evidence::EvidenceReader reader(source.workspace);
    const auto loaded = reader.load(source.info, kMaxTreeBytes);
    if (!loaded) {
        updateCompare();
        m_banner->setStyleSheet(QStringLiteral("background: #fde2e1; padding: 4px;"));
        m_banner->setText(tr("This execution cannot be read: %1").arg(loaded.error().message));
        m_banner->show();
        return;
    }
    m_shown = loaded.value();
    // A damaged or interrupted execution's request is not sent again.
    m_replayButton->setEnabled(m_replayer->dispatcher() != nullptr && m_shown->request.has_value() &&
                               m_shown->problems.isEmpty() && !m_shown->info.interrupted);
    const Evidence::Execution& execution = loaded.value();
    QStringList notes;
    if (execution.info.interrupted)
        notes.append(tr("Interrupted: the host stopped before this execution answered (the next host marked it)."));
    else if (!execution.info.answered)
        notes.append(tr("Unanswered: the trace has no answer."));
    for (const auto& problem : execution.problems)
        notes.append(tr("Damaged: %1: %2").arg(problem.file, problem.message));
    m_banner->setStyleSheet(QStringLiteral("background: #fde2e1; padding: 4px;"));
    m_banner->setText(notes.join(QLatin1Char('\n')));
    m_banner->setVisible(!notes.isEmpty());

    for (const auto& step : execution.trace) {
        auto* item = new QTreeWidgetItem(
            m_timeline, {step.step, step.sinceStartMs >= 0 ? QString::number(step.sinceStartMs) : QString(),
                         QString::number(step.ms), step.ok ? QStringLiteral("✓") : QStringLiteral("✗"),
                         QString::fromUtf8(QJsonDocument(step.details).toJson(QJsonDocument::Compact))});
        if (!step.ok)
            for (int c = 0; c < 5; ++c)
                item->setForeground(c, QColor(176, 0, 32));
    }
    for (int c = 0; c < 4; ++c)
        m_timeline->resizeColumnToContents(c);
    m_request->setPlainText(pretty(execution.request));
    m_response->setPlainText(pretty(execution.response));
    m_env->setPlainText(pretty(execution.env));

    // The screenshots, with where the execution acted drawn on them (they show the whole screen).
    const auto acted = targetOf(execution.response);
    const std::optional<QRect> frame = acted.first;
    const std::optional<QPoint> point = acted.second;
    // Text read off the pixels: its lines boxed on the image it was read in (ocr.png shows only
    // the frame read, so it is drawn from that frame's corner).
    std::optional<OcrBoxes> ocrBoxes;
    if (const auto bytes = reader.readFile(execution.info, QStringLiteral("ocr.json")))
        ocrBoxes = ocrBoxesOf(bytes.value());
    const auto draw = [&](const QString& file, QLabel* label, QImage* drawn) {
        const auto bytes = reader.readFile(execution.info, file);
        if (!bytes)
            return false;
        QImage image = QImage::fromData(bytes.value(), "PNG");
        if (image.isNull())
            return false;
        image = image.convertToFormat(QImage::Format_RGB32);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        if (file == QLatin1String("ocr.png") && ocrBoxes) {
            painter.save();
            painter.translate(-ocrBoxes->origin);
            painter.setPen(QPen(QColor(0, 160, 90), 2));
            for (const QRect& box : std::as_const(ocrBoxes->lines))
                painter.drawRect(box);
            painter.restore();
            m_ocrBoxes = static_cast<int>(ocrBoxes->lines.size());
            painter.translate(-ocrBoxes->origin);
        }
        if (frame) {
            painter.setPen(QPen(QColor(220, 20, 60), 3));
            painter.drawRect(*frame);
            m_drawnFrame = *frame;
        }
        if (point) {
            painter.setPen(QPen(QColor(30, 144, 255), 3));
            painter.drawEllipse(*point, 9, 9);
            painter.drawLine(*point - QPoint(14, 0), *point + QPoint(14, 0));
            painter.drawLine(*point - QPoint(0, 14), *point + QPoint(0, 14));
        }
        painter.end();
        *drawn = image.scaled(560, 420, Qt::KeepAspectRatio, Qt::SmoothTransformation);
        showShot(label, *drawn);
        label->setToolTip(file);
        return true;
    };
    if (!draw(QStringLiteral("before.png"), m_before, &m_beforeImage) &&
        !draw(QStringLiteral("observe.png"), m_before, &m_beforeImage))
        draw(QStringLiteral("ocr.png"), m_before, &m_beforeImage);
    draw(QStringLiteral("after.png"), m_after, &m_afterImage);
    updateCompare();

    // The recorded tree, nested as it was read.
    if (execution.snapshot) {
        const auto& nodes = execution.snapshot->nodes;
        QList<QTreeWidgetItem*> items(nodes.size(), nullptr);
        for (int i = 0; i < nodes.size() && i < kMaxTreeRows; ++i) {
            const auto& node = nodes.at(i);
            const QStringList cells{node.role, node.title,
                                    node.detailed ? QStringLiteral("%1,%2 %3×%4")
                                                        .arg(node.frame.x)
                                                        .arg(node.frame.y)
                                                        .arg(node.frame.width)
                                                        .arg(node.frame.height)
                                                  : QString()};
            items[i] = node.parent >= 0 && node.parent < i && items.at(node.parent)
                           ? new QTreeWidgetItem(items.at(node.parent), cells)
                           : new QTreeWidgetItem(m_tree, cells);
        }
        m_tree->expandToDepth(1);
    }
    if (const auto bytes = reader.readFile(execution.info, QStringLiteral("selectors/candidates.json"))) {
        const QJsonArray list =
            QJsonDocument::fromJson(bytes.value()).object().value(QStringLiteral("candidates")).toArray();
        for (int i = 0; i < list.size(); ++i) {
            const QJsonObject c = list.at(i).toObject();
            m_candidates->insertRow(i);
            const QStringList cells{
                QString::number(c.value(QStringLiteral("rank")).toInt()),
                QString::number(c.value(QStringLiteral("score")).toInt()), c.value(QStringLiteral("role")).toString(),
                c.value(QStringLiteral("title")).toString(),
                c.value(QStringLiteral("reasons")).toVariant().toStringList().join(QStringLiteral("; "))};
            for (int col = 0; col < cells.size(); ++col)
                m_candidates->setItem(i, col, new QTableWidgetItem(cells.at(col)));
        }
    }
}

void EvidenceWindow::setDispatcher(Bridge::Dispatcher* dispatcher)
{
    m_replayer->setDispatcher(dispatcher);
    m_replayButton->setEnabled(dispatcher != nullptr && m_shown && m_shown->request.has_value());
}

void EvidenceWindow::replayShown()
{
    if (!m_replayer->dispatcher() || !m_shown || !m_shown->request || !m_replayButton->isEnabled())
        return;
    const QJsonObject request = *m_shown->request;
    const QString method = request.value(QStringLiteral("method")).toString();
    QJsonObject params = request.value(QStringLiteral("params")).toObject();
    if (params.value(QStringLiteral("text")).toObject().value(QStringLiteral("redacted")).toBool()) {
        m_replayStatus->setText(tr("This typeText cannot be replayed: its text was not kept (only its length and "
                                   "SHA-256 are in the evidence)."));
        return;
    }
    // The evidence is files anyone with the workspace could have written: the person approves
    // the exact request before it is sent as theirs. open(), never exec().
    params.remove(QStringLiteral("meta"));
    params.remove(QStringLiteral("confirm"));
    auto* ask = new QMessageBox(QMessageBox::Question, tr("Replay this request?"),
                                tr("%1 will be sent again, as you, with these params:").arg(method),
                                QMessageBox::Yes | QMessageBox::No, this);
    ask->setObjectName(QStringLiteral("replayConfirm"));
    ask->setDetailedText(QString::fromUtf8(QJsonDocument(params).toJson(QJsonDocument::Indented)));
    ask->setDefaultButton(QMessageBox::No);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    const std::optional<Evidence::Execution> shown = m_shown;
    connect(ask, &QMessageBox::finished, this, [this, shown](int result) {
        if (result == QMessageBox::Yes && shown && m_shown && m_shown->info.executionId == shown->info.executionId)
            sendReplay();
    });
    ask->open();
}

void EvidenceWindow::sendReplay()
{
    if (!m_replayer->dispatcher() || !m_shown || !m_shown->request)
        return;
    const QString method = m_shown->request->value(QStringLiteral("method")).toString();
    const QString replayedId = m_shown->info.executionId;
    m_replayStatus->setText(tr("%1 running…").arg(method));
    m_replayDiff->clear();
    m_replayDiffSummary->clear();
    m_replayer->send(*m_shown, [this, replayedId](const ReplayController::Outcome& outcome) {
        // Shown beside the execution it replays, never beside another one.
        if (!m_shown || m_shown->info.executionId != replayedId)
            return;
        m_replay->setRowCount(0);
        for (int i = 0; i < outcome.factNames.size(); ++i) {
            m_replay->insertRow(i);
            m_replay->setItem(i, 0, new QTableWidgetItem(outcome.factNames.at(i)));
            m_replay->setItem(i, 1, new QTableWidgetItem(outcome.recorded.at(i)));
            m_replay->setItem(i, 2, new QTableWidgetItem(outcome.replayed.at(i)));
            if (outcome.recorded.at(i) != outcome.replayed.at(i) && i < ReplayController::kComparedFacts)
                m_replay->item(i, 2)->setForeground(QColor(176, 0, 32));
        }
        m_replayStatus->setText(outcome.status);
        if (outcome.treesTried)
            m_replayDiff->clear();
        m_replayDiffSummary->setText(outcome.treeSummary);
        for (const QStringList& row : outcome.treeRows)
            new QTreeWidgetItem(m_replayDiff, row);
        if (outcome.treesCompared)
            m_replayDiff->resizeColumnToContents(0);
        Q_EMIT replayed();
    });
}

bool EvidenceWindow::exportView(const QString& zipPath)
{
    // One workspace per archive: the executions in view of the first workspace that has any.
    QString workspace;
    QList<Evidence::ExecutionInfo> chosen;
    for (int row = 0; row < m_filter.rowCount(); ++row) {
        const Row& source = m_index.row(m_filter.mapToSource(m_filter.index(row, 0)).row());
        if (workspace.isEmpty())
            workspace = source.workspace;
        if (source.workspace == workspace)
            chosen.append(source.info);
    }
    const auto written = Evidence::Archive::write(Evidence::EvidenceReader(workspace), chosen, zipPath);
    m_banner->setStyleSheet(written ? QStringLiteral("background: #e6f4ea; padding: 4px;")
                                    : QStringLiteral("background: #fde2e1; padding: 4px;"));
    m_banner->setText(written
                          ? tr("%n execution(s) exported to %1", nullptr, static_cast<int>(chosen.size())).arg(zipPath)
                          : tr("Not exported: %1").arg(written.error().message));
    m_banner->show();
    return written.ok();
}

void EvidenceWindow::runLab(const QString& selectorJson)
{
    m_lab->setRowCount(0);
    // Oldest first, so that each tree is compared with the one before it in time.
    QList<SelectorLab::Recorded> inView;
    for (int row = m_filter.rowCount() - 1; row >= 0; --row)
        inView.append({m_filter.index(row, IndexModel::WhenColumn).data().toString(),
                       m_index.row(m_filter.mapToSource(m_filter.index(row, 0)).row())});
    const SelectorLab::Run run = SelectorLab::run(selectorJson, inView, kMaxTreeBytes);
    // Rows go in at the top, so the table keeps the index's order (newest first).
    for (const SelectorLab::Line& line : run.lines) {
        m_lab->insertRow(0);
        for (int col = 0; col < line.cells.size(); ++col)
            m_lab->setItem(0, col, new QTableWidgetItem(line.cells.at(col)));
        m_lab->item(0, 0)->setData(Qt::UserRole, line.matches);
        m_lab->item(0, 1)->setData(Qt::UserRole, line.executionId);
        if (line.matches >= 0)
            m_lab->item(0, SelectorLab::kChangedColumn)->setToolTip(line.cells.at(SelectorLab::kChangedColumn));
    }
    if (run.ran) {
        // The explanations are sentences: the other columns as narrow as they can be, rows as
        // tall as the text needs.
        for (int col = 0; col < SelectorLab::kChangedColumn; ++col)
            m_lab->resizeColumnToContents(col);
        m_lab->resizeRowsToContents();
    }
    m_labStatus->setText(run.status);
}

void EvidenceWindow::updateCompare()
{
    if (m_beforeImage.isNull() || m_afterImage.isNull()) {
        m_compareImage = {};
        showShot(m_compare, {});
        m_compare->setText(tr("The slider needs a before and an after screenshot."));
        return;
    }
    // Left of the line the screen before, right of it the screen after, at the same scale.
    QImage after = m_afterImage.size() == m_beforeImage.size()
                       ? m_afterImage
                       : m_afterImage.scaled(m_beforeImage.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    const int split = static_cast<int>(qint64{m_beforeImage.width()} * m_compareSlider->value() / 1000);
    QImage composed = after.convertToFormat(QImage::Format_RGB32);
    QPainter painter(&composed);
    painter.drawImage(QRect(0, 0, split, composed.height()), m_beforeImage, QRect(0, 0, split, composed.height()));
    painter.end();
    m_compareImage = composed;
    // The line is drawn on what is shown only, so that the image keeps both screens' pixels.
    QImage shown = composed;
    QPainter line(&shown);
    line.setPen(QPen(QColor(255, 215, 0), 2));
    line.drawLine(split, 0, split, shown.height());
    line.end();
    m_compare->setText({});
    showShot(m_compare, shown);
}

} // namespace EvidenceViewer
