// The inspector (docs/inspector.md) in the headless desktop: its tree model under
// QAbstractItemModelTester, the highlight as a shaped frame whose inside stays the app's pixels,
// and the window against a host with the fake backend: the window list, the tree, a node's
// properties and frame, the selector tester answering what desktop.find answers, suggested
// selectors checked against the live tree, a hung target shown in a banner while the window
// stays responsive. Screenshots go to gui-screenshots/ in the build tree.
#include "FakeBackend.h"
#include "GuiSupport.h"
#include "TestHost.h"
#include "app/ConfirmationDialog.h"
#include "app/TrayController.h"
#include "automation/PlatformBackend.h"
#include "automation/SelectorEngine.h"
#include "automation/SelectorSuggester.h"
#include "bridge/Host.h"
#include "inspector/AxTreeModel.h"
#include "inspector/HighlightOverlay.h"
#include "inspector/InspectorWindow.h"
#include "translations/Translations.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <gtest/gtest.h>

#include <future>

using namespace Testing;
using Automation::Node;

namespace {

bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") && !qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS");
}

// The index of the last node titled `title`; -1 when none is.
int nodeTitled(const QList<Node>& nodes, const QString& title)
{
    int found = -1;
    for (int i = 0; i < nodes.size(); ++i) {
        if (nodes.at(i).title == title)
            found = i;
    }
    return found;
}

Automation::Snapshot snapshotOf(QList<Node> nodes)
{
    FakeDesktop desktop;
    desktop.setTree(std::move(nodes));
    return desktop.snapshotNow();
}

class InspectorTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (!hasDisplay())
            GTEST_SKIP() << "needs the headless desktop of scripts/test";
    }

    void startHost(bool realBackend = false, Bridge::ConfirmPolicy policy = Bridge::ConfirmPolicy::Deny)
    {
        QDir(m_dir.path()).mkpath(QStringLiteral("root/ws"));
        m_workspace = m_dir.path() + QStringLiteral("/root/ws");
        Bridge::HostOptions options;
        // As msgcode's unattended set-up has it for the apps it drives (the policy's own
        // tests ask the built-in rules).
        options.ownerPolicy = Testing::allowEverything();
        options.server.socketPath = m_dir.path() + QStringLiteral("/run/bridge.sock");
        options.workspaceRoot = m_dir.path() + QStringLiteral("/root");
        if (realBackend)
            options.backendFactory = &Automation::createPlatformBackend;
        else
            options.backendFactory = [desktop = m_desktop] { return std::make_unique<FakeBackend>(desktop); };
        options.security.confirmPolicy = policy;
        options.security.dataDir = m_dir.path() + QStringLiteral("/data");
        m_host = std::make_unique<Bridge::Host>(options);
        QString error;
        ASSERT_TRUE(m_host->start(&error)) << error.toStdString();
    }

    std::unique_ptr<Inspector::InspectorWindow> openInspector(bool waitForTree = true)
    {
        auto window = std::make_unique<Inspector::InspectorWindow>(*m_host);
        window->show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        if (waitForTree) {
            EXPECT_TRUE(
                QTest::qWaitFor([&] { return window->pendingReads() == 0 && window->model().rowCount() > 0; }, 10000));
        }
        return window;
    }

    // The inspector shows a real app's tree: choose its window, wait for a node titled `title`.
    bool showsRealApp(Inspector::InspectorWindow& window, qint64 pid, const QString& title)
    {
        const auto listed = [&] {
            window.refreshWindows();
            if (!QTest::qWaitFor([&] { return window.pendingReads() == 0; }, 10000))
                return false;
            return window.chooseApp(pid);
        };
        if (!QTest::qWaitFor(listed, 15000))
            return false;
        return QTest::qWaitFor(
            [&] {
                for (const auto& node : window.model().snapshot().nodes) {
                    if (node.title == title)
                        return window.model().snapshot().pid == pid;
                }
                return false;
            },
            15000);
    }

    // desktop.find over the socket, from another thread (the host runs on this one).
    QJsonObject findOverSocket(const QJsonObject& selector)
    {
        const QString socket = m_host->server().socketPath();
        const QString workspace = m_workspace;
        auto answer = std::async(std::launch::async, [socket, workspace, selector] {
            TestClient client(socket);
            return client.call(QStringLiteral("desktop.find"),
                               TestClient::withMeta({{QStringLiteral("selector"), selector}}, workspace), 20000);
        });
        EXPECT_TRUE(QTest::qWaitFor(
            [&] { return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, 20000));
        return answer.get();
    }

    QTemporaryDir m_dir;
    QString m_workspace;
    std::shared_ptr<FakeDesktop> m_desktop = std::make_shared<FakeDesktop>();
    std::unique_ptr<Bridge::Host> m_host;
};

} // namespace

TEST_F(InspectorTest, TheTreeModelPassesTheModelTesterAndLoadsChildrenOnExpand)
{
    Inspector::AxTreeModel model;
    model.setSnapshot(snapshotOf(FakeDesktop::gridTree(50, 6)));
    // Attached after the reset: Qt 6.4's tester fetches more while it still counts a reset as in
    // flight, which it then reports against any lazy model; every later change is checked.
    ASSERT_EQ(model.rowCount(), 1);
    const QModelIndex window = model.index(0, 0);
    EXPECT_EQ(window.data().toString(), QStringLiteral("AXWindow"));
    EXPECT_TRUE(model.hasChildren(window));
    EXPECT_EQ(model.rowCount(window), 0) << "children are handed over on expand";
    ASSERT_TRUE(model.canFetchMore(window));
    model.fetchMore(window);
    EXPECT_EQ(model.rowCount(window), 1);
    auto tester =
        std::make_unique<QAbstractItemModelTester>(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    // A deep node is reached through its ancestors.
    const int cell = static_cast<int>(model.snapshot().nodes.size()) - 1;
    const QModelIndex deep = model.indexOfNode(cell);
    ASSERT_TRUE(deep.isValid());
    EXPECT_EQ(model.index(deep.row(), Inspector::AxTreeModel::TitleColumn, deep.parent()).data().toString(),
              QStringLiteral("R49C5"));
    EXPECT_EQ(deep.data(Inspector::AxTreeModel::NodeIndexRole).toInt(), cell);
    // A new tree of the same window: what vanished is said.
    tester.reset();
    model.setSnapshot(snapshotOf(FakeDesktop::gridTree(49, 6)));
    tester = std::make_unique<QAbstractItemModelTester>(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.gone().size(), 7);
    EXPECT_TRUE(model.gone().contains(QStringLiteral("AXRow Row 49")));
}

TEST_F(InspectorTest, TheHighlightIsAShapedFrameAndTheInsideStaysTheApps)
{
    // "The app": a window painted solid green.
    QWidget app(nullptr, Qt::FramelessWindowHint | Qt::WindowStaysOnTopHint);
    app.setAutoFillBackground(true);
    QPalette palette = app.palette();
    palette.setColor(QPalette::Window, QColor(0, 200, 0));
    app.setPalette(palette);
    app.setGeometry(200, 200, 300, 200);
    app.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&app));
    const QRect target(250, 250, 120, 60);
    Inspector::HighlightOverlay overlay;
    overlay.show({target}, 0);
    ASSERT_EQ(overlay.frames().size(), 1);
    const Inspector::FrameWindow* frame = overlay.frames().constFirst();
    const int b = Inspector::FrameWindow::kBorder;
    EXPECT_EQ(frame->geometry(), target.adjusted(-b, -b, b, b));
    EXPECT_FALSE(frame->mask().contains(QPoint(b + 10, b + 10))) << "the inside is not the overlay's";
    EXPECT_TRUE(frame->mask().contains(QPoint(1, 1)));
    EXPECT_TRUE(QTest::qWaitForWindowExposed(const_cast<Inspector::FrameWindow*>(frame)));
    QTest::qWait(300);
    const QImage screen = QGuiApplication::primaryScreen()->grabWindow(0).toImage();
    screenshot(QStringLiteral("inspector-highlight"));
    const QColor inside = screen.pixelColor(target.center());
    EXPECT_EQ(inside, QColor(0, 200, 0)) << "inside the frame: the app's own pixels";
    const QColor border = screen.pixelColor(target.left() - 2, target.center().y());
    EXPECT_EQ(border, QColor(220, 20, 60)) << "the border: the highlight";
    overlay.hide();
    EXPECT_TRUE(overlay.frames().isEmpty());
}

TEST_F(InspectorTest, ShowsTheFakeWindowItsNodesAndTestsSelectorsAsDesktopFindDoes)
{
    startHost();
    auto window = openInspector();
    EXPECT_EQ(window->model().snapshot().windowTitle, QStringLiteral("Fake Window"));
    window->treeView()->expandAll();
    // The Send button: its properties and its frame, highlighted.
    const auto& nodes = window->model().snapshot().nodes;
    const int send = nodeTitled(nodes, QStringLiteral("Send"));
    ASSERT_GE(send, 0);
    window->selectNode(send);
    QStringList properties;
    for (int i = 0; i < window->properties()->topLevelItemCount(); ++i)
        properties.append(window->properties()->topLevelItem(i)->text(0) + QLatin1Char('=') +
                          window->properties()->topLevelItem(i)->text(1));
    EXPECT_TRUE(properties.contains(QStringLiteral("Title=Send"))) << properties.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(properties.contains(QStringLiteral("Role=AXButton")));
    ASSERT_EQ(window->highlight().frames().size(), 1);
    const auto& frame = nodes.at(send).frame;
    EXPECT_EQ(window->highlight().frames().constFirst()->target(), QRect(frame.x, frame.y, frame.width, frame.height));
    // The password field's value is never shown.
    for (int i = 0; i < nodes.size(); ++i) {
        if (nodes.at(i).isSecure()) {
            const QModelIndex at = window->model().indexOfNode(i);
            EXPECT_EQ(
                window->model().index(at.row(), Inspector::AxTreeModel::ValueColumn, at.parent()).data().toString(),
                QStringLiteral("(secure)"));
        }
    }
    screenshot(QStringLiteral("inspector-fake-window"));

    // The tester answers what desktop.find answers for the same selector.
    for (const QJsonObject& selector : {QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")}},
                                        QJsonObject{{QStringLiteral("titleContains"), QStringLiteral("e")}},
                                        QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                    {QStringLiteral("titleEquals"), QStringLiteral("Send")}}}) {
        window->testSelector(
            QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("selector"), selector}}).toJson()));
        ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0; }, 10000));
        const QJsonObject found = findOverSocket(selector);
        const int expected =
            resultOf(found)
                .value(QStringLiteral("matched"))
                .toInt(static_cast<int>(resultOf(found).value(QStringLiteral("elementRefs")).toArray().size()));
        EXPECT_EQ(window->lastTestCount(), expected) << QJsonDocument(found).toJson().toStdString();
        EXPECT_EQ(window->testResults()->rowCount(), window->lastTestCount());
        EXPECT_EQ(window->highlight().frames().size(), window->lastTestCount());
    }
    // The form writes what the JSON says, and the tester runs it.
    window->selectorForm()->findChild<QLineEdit*>(QStringLiteral("formRole"))->setText(QStringLiteral("AXButton"));
    window->selectorForm()->findChild<QLineEdit*>(QStringLiteral("formTitle"))->setText(QStringLiteral("Sen"));
    EXPECT_EQ(window->selectorForm()->selector(),
              (QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                           {QStringLiteral("titleContains"), QStringLiteral("Sen")}}));
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->lastTestCount() == 1 && window->pendingReads() == 0; }, 10000))
        << window->testStatus()->text().toStdString();
    // (Tesseract may read its small capital S as a lower-case one: titles match without case.)
    EXPECT_EQ(window->testResults()->item(0, 3)->text().toLower(), QStringLiteral("send"));
    // The layer is back once the pixels are read, beside the test's own frame.
    EXPECT_EQ(window->ocrLayer().frames().size(), window->ocrLines());
    EXPECT_EQ(window->highlight().frames().size(), window->lastTestCount());
    window->testSelector(QStringLiteral("{\"selector\": {\"byRol\": \"AXButton\"}}"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0; }, 10000));
    EXPECT_TRUE(window->testStatus()->text().contains(QStringLiteral("byRol")))
        << window->testStatus()->text().toStdString();
    window->testSelector(QStringLiteral("{not json"));
    EXPECT_TRUE(window->testStatus()->text().contains(QStringLiteral("Not a JSON object")));
    screenshot(QStringLiteral("inspector-selector-tester"));
}

TEST_F(InspectorTest, SuggestedSelectorsMatchTheirNodeAloneInTheLiveTree)
{
    startHost();
    auto window = openInspector();
    const auto nodes = window->model().snapshot().nodes;
    int checked = 0;
    for (int i = 0; i < nodes.size(); ++i) {
        if (nodes.at(i).actions.isEmpty() && !nodes.at(i).has(Automation::StateEditable))
            continue; // the interactive nodes
        window->selectNode(i);
        window->suggestForSelection();
        ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0; }, 10000));
        ASSERT_TRUE(window->lastSuggestion()) << nodes.at(i).title.toStdString();
        EXPECT_TRUE(window->lastSuggestionConfirmed())
            << nodes.at(i).title.toStdString() << ": " << window->suggestionLabel()->text().toStdString();
        // And desktop.find over the socket finds exactly one element with it.
        const QJsonObject found = findOverSocket(window->lastSuggestion()->json);
        EXPECT_EQ(resultOf(found).value(QStringLiteral("elementRefs")).toArray().size(), 1)
            << QJsonDocument(found).toJson().toStdString();
        ++checked;
    }
    EXPECT_GE(checked, 3);
    screenshot(QStringLiteral("inspector-suggestion"));
}

TEST_F(InspectorTest, AnActionTriedOnANodeIsThePersonsAndAStoppedHostRefusesIt)
{
    startHost();
    auto window = openInspector();
    const auto& nodes = window->model().snapshot().nodes;
    const int send = nodeTitled(nodes, QStringLiteral("Send"));
    ASSERT_GE(send, 0);
    window->selectNode(send);
    // Without a confirmed selector for the node, nothing is done.
    window->tryAction(QStringLiteral("desktop.click"));
    EXPECT_TRUE(window->actionAnswer()->text().contains(QStringLiteral("Suggest a selector")));
    window->suggestForSelection();
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0; }, 15000));
    ASSERT_TRUE(window->lastSuggestionConfirmed());
    m_desktop->clearEffects();
    window->tryAction(QStringLiteral("desktop.click"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0; }, 15000));
    EXPECT_EQ(m_desktop->effects(), QStringList{QStringLiteral("press:Send")});
    EXPECT_TRUE(window->actionAnswer()->text().contains(QStringLiteral("effect")))
        << window->actionAnswer()->text().toStdString();
    screenshot(QStringLiteral("inspector-try-action"));
    // Stopped: the person's own click is refused like any other side effect.
    m_host->stop();
    m_desktop->clearEffects();
    window->selectNode(send);
    window->suggestForSelection();
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0; }, 15000));
    window->tryAction(QStringLiteral("desktop.click"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0; }, 15000));
    EXPECT_TRUE(m_desktop->effects().isEmpty());
    EXPECT_TRUE(window->actionAnswer()->text().contains(QStringLiteral("DESKTOP_CONFIRM_REQUIRED")))
        << window->actionAnswer()->text().toStdString();
    m_host->resume();
}

TEST_F(InspectorTest, ANodeTheAppAddsAppearsWithoutAManualRefresh)
{
    startHost();
    auto window = openInspector();
    QList<Node> nodes = FakeDesktop::defaultTree();
    Node added = nodes.at(2);
    added.title = QStringLiteral("Added later");
    added.frame = {320, 300, 120, 24};
    nodes.append(added);
    m_desktop->setTree(nodes);
    const auto seen = [&] {
        for (const auto& node : window->model().snapshot().nodes) {
            if (node.title == QLatin1String("Added later"))
                return true;
        }
        return false;
    };
    EXPECT_TRUE(QTest::qWaitFor(seen, 10000)) << "the live tree follows the app";
}

TEST_F(InspectorTest, AHungTargetShowsTheBannerAndTheWindowStaysResponsive)
{
    startHost();
    auto window = openInspector();
    // The app stops answering: every tree read is stuck longer than the inspector waits.
    m_desktop->setDelay(QStringLiteral("snapshot"), FakeDesktop::Delay{8000, true});
    QElapsedTimer clock;
    clock.start();
    qint64 longestStall = 0;
    qint64 last = clock.elapsed();
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &tick, [&] {
        const qint64 now = clock.elapsed();
        longestStall = std::max(longestStall, now - last);
        last = now;
    });
    tick.start(5);
    window->refreshTree();
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            return window->banner()->isVisible() &&
                   window->banner()->text().contains(QStringLiteral("does not answer"));
        },
        15000))
        << window->banner()->text().toStdString();
    tick.stop();
    std::printf("inspector: longest GUI-thread stall while the target hangs: %lld ms\n",
                static_cast<long long>(longestStall));
    EXPECT_EQ(window->model().snapshot().windowTitle, QStringLiteral("Fake Window")) << "the last tree is kept";
    screenshot(QStringLiteral("inspector-hung-target"));
    m_desktop->setDelay(QStringLiteral("snapshot"), FakeDesktop::Delay{});
}

TEST_F(InspectorTest, TheTrayOpensTheInspector)
{
    startHost();
    App::TrayController tray(*m_host);
    tray.start();
    tray.showInspector();
    ASSERT_NE(tray.inspector(), nullptr);
    EXPECT_TRUE(QTest::qWaitForWindowExposed(tray.inspector()));
    bool listed = false;
    for (QAction* action : tray.menu()->actions())
        listed = listed || action->text().startsWith(QStringLiteral("Inspector"));
    EXPECT_TRUE(listed);
}

TEST_F(InspectorTest, ShowsTheTreesOfTheQtFixtureAndOfARealGtkApp)
{
    startHost(true);
    QProcess fixture;
    fixture.start(QStringLiteral(MDH_FIXTURE_BINARY), {});
    ASSERT_TRUE(fixture.waitForStarted(10000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return fixture.readAllStandardOutput().contains("\"ready\""); }, 15000));
    QProcess gtk;
    gtk.start(QStringLiteral("gtk3-widget-factory"), {});
    ASSERT_TRUE(gtk.waitForStarted(10000)) << "scripts/setup installs gtk-3-examples";
    auto window = openInspector(false);
    EXPECT_TRUE(showsRealApp(*window, fixture.processId(), QStringLiteral("Send")))
        << window->banner()->text().toStdString();
    window->treeView()->expandToDepth(2);
    screenshot(QStringLiteral("inspector-qt-fixture"));
    // Every interactive node of the fixture gets a selector that the live tree confirms matches
    // that node alone.
    window->findChild<QCheckBox*>(QStringLiteral("liveCheck"))->setChecked(false);
    const auto nodes = window->model().snapshot().nodes;
    int interactive = 0;
    QStringList unconfirmed;
    for (int i = 0; i < nodes.size(); ++i) {
        const Node& node = nodes.at(i);
        if (node.actions.isEmpty() && !node.has(Automation::StateEditable))
            continue;
        ++interactive;
        window->selectNode(i);
        window->suggestForSelection();
        ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0; }, 15000));
        if (!window->lastSuggestionConfirmed())
            unconfirmed.append(node.role + QLatin1Char(' ') + node.title + QStringLiteral(": ") +
                               window->suggestionLabel()->text());
    }
    EXPECT_GE(interactive, 5);
    EXPECT_TRUE(unconfirmed.isEmpty()) << unconfirmed.join(QLatin1Char('\n')).toStdString();
    // A click tried from the inspector reaches the app.
    for (int i = 0; i < nodes.size(); ++i) {
        if (nodes.at(i).title == QLatin1String("Send") && nodes.at(i).role == QLatin1String("AXButton"))
            window->selectNode(i);
    }
    fixture.readAllStandardOutput();
    window->suggestForSelection();
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0; }, 15000));
    window->tryAction(QStringLiteral("desktop.click"));
    QByteArray events;
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            events += fixture.readAllStandardOutput();
            return events.contains("\"clicked\"") && events.contains("Send");
        },
        15000))
        << window->actionAnswer()->text().toStdString();
    window->findChild<QCheckBox*>(QStringLiteral("liveCheck"))->setChecked(true);
    EXPECT_TRUE(showsRealApp(*window, gtk.processId(), QStringLiteral("togglebutton")))
        << window->banner()->text().toStdString() << " | shown: pid " << window->model().snapshot().pid << ", "
        << window->model().snapshot().nodes.size() << " nodes of \""
        << window->model().snapshot().windowTitle.toStdString() << "\"";
    window->raise();
    window->activateWindow();
    window->treeView()->expandToDepth(2);
    screenshot(QStringLiteral("inspector-gtk-widget-factory"));
    window.reset();
    gtk.terminate();
    fixture.terminate();
    gtk.waitForFinished(5000);
    fixture.waitForFinished(5000);
}

// The OCR layer boxes the text the pixels hold: on the Qt fixture, a green frame lies on the
// "Send" button the tree knows; the tester's "Search in" set to the text on screen finds the same
// button's label by OCR, as desktop.find with source "ocr" does.
TEST_F(InspectorTest, TheOcrLayerAndTheTesterReadTheWindowsPixels)
{
    startHost(true);
    QProcess fixture;
    fixture.start(QStringLiteral(MDH_FIXTURE_BINARY), {QStringLiteral("--title"), QStringLiteral("OCR layer")});
    ASSERT_TRUE(fixture.waitForStarted(10000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return fixture.readAllStandardOutput().contains("\"ready\""); }, 15000));
    auto window = openInspector(false);
    ASSERT_TRUE(showsRealApp(*window, fixture.processId(), QStringLiteral("Send")))
        << window->banner()->text().toStdString();
    window->findChild<QCheckBox*>(QStringLiteral("liveCheck"))->setChecked(false);
    QRect send;
    for (const auto& node : window->model().snapshot().nodes) {
        if (node.role == QLatin1String("AXButton") && node.title == QLatin1String("Send"))
            send = QRect(node.frame.x, node.frame.y, node.frame.width, node.frame.height);
    }
    ASSERT_FALSE(send.isEmpty());
    // The inspector stands aside, so that what is read is the fixture's.
    window->move(700, 0);
    window->resize(560, 700);
    QSignalSpy shown(window.get(), &Inspector::InspectorWindow::ocrLayerShown);
    window->findChild<QCheckBox*>(QStringLiteral("ocrLayerCheck"))->setChecked(true);
    ASSERT_TRUE(shown.wait(15000));
    EXPECT_GT(window->ocrLines(), 3) << window->banner()->text().toStdString();
    const auto frames = window->ocrLayer().frames();
    EXPECT_EQ(frames.size(), window->ocrLines());
    EXPECT_TRUE(std::any_of(frames.cbegin(), frames.cend(), [&](const Inspector::FrameWindow* frame) {
        return send.contains(frame->target().center());
    })) << "no OCR box on the Send button";
    screenshot(QStringLiteral("inspector-ocr-layer"));

    auto* source = window->findChild<QComboBox*>(QStringLiteral("formSource"));
    ASSERT_NE(source, nullptr);
    window->selectorForm()->findChild<QComboBox*>(QStringLiteral("formTitleMode"))->setCurrentIndex(1);
    window->selectorForm()->findChild<QLineEdit*>(QStringLiteral("formTitle"))->setText(QStringLiteral("Send"));
    source->setCurrentIndex(source->findData(QStringLiteral("ocr")));
    QSignalSpy tested(window.get(), &Inspector::InspectorWindow::testFinished);
    // Twice at once, as a person pressing twice: the first answer's frames (a box around the
    // "Send" it found) must not be drawn into the second read of the pixels.
    window->testSelector(window->selectorEditor()->toPlainText());
    window->testSelector(window->selectorEditor()->toPlainText());
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->pendingReads() == 0 && tested.size() >= 2; }, 15000));
    EXPECT_TRUE(window->selectorEditor()->toPlainText().contains(QStringLiteral("\"source\": \"ocr\"")))
        << window->selectorEditor()->toPlainText().toStdString();
    ASSERT_GE(window->lastTestCount(), 1) << window->testStatus()->text().toStdString();
    EXPECT_EQ(window->testResults()->item(0, 2)->text(), QStringLiteral("AXStaticText"));
    // (Tesseract may read its small capital S as a lower-case one: titles match without case.)
    EXPECT_EQ(window->testResults()->item(0, 3)->text().toLower(), QStringLiteral("send"));
    // The layer is back once the pixels are read, beside the test's own frame.
    EXPECT_EQ(window->ocrLayer().frames().size(), window->ocrLines());
    EXPECT_EQ(window->highlight().frames().size(), window->lastTestCount());
    window->findChild<QCheckBox*>(QStringLiteral("ocrLayerCheck"))->setChecked(false);
    EXPECT_TRUE(window->ocrLayer().frames().isEmpty());
    window.reset();
    fixture.terminate();
    fixture.waitForFinished(5000);
}

// The live tree follows a real app's own events, not only the poll: with the poll set to ten
// minutes, a new document in mousepad (Ctrl+N from another process, as a person's key) shows its
// new page tab in the inspector.
TEST_F(InspectorTest, TheLiveTreeFollowsAGtkAppsEvents)
{
    if (QStandardPaths::findExecutable(QStringLiteral("mousepad")).isEmpty() ||
        QStandardPaths::findExecutable(QStringLiteral("xdotool")).isEmpty())
        GTEST_SKIP() << "scripts/setup installs mousepad and xdotool";
    startHost(true);
    QTemporaryDir home;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("HOME"), home.path());
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/.config"));
    QProcess mousepad;
    mousepad.setProcessEnvironment(environment);
    mousepad.start(QStringLiteral("mousepad"), {QStringLiteral("--disable-server")});
    ASSERT_TRUE(mousepad.waitForStarted(10000));
    auto window = openInspector(false);
    window->setLiveIntervalMs(600000);
    window->findChild<QCheckBox*>(QStringLiteral("liveCheck"))->setChecked(true);
    ASSERT_TRUE(showsRealApp(*window, mousepad.processId(), QStringLiteral("File")))
        << window->banner()->text().toStdString();
    const auto tabs = [&] {
        int count = 0;
        for (const auto& node : window->model().snapshot().nodes)
            count += Automation::SelectorEngine::roleMatches(node, QStringLiteral("AXTabButton")) ? 1 : 0;
        return count;
    };
    const int before = tabs();
    const int readsByEvents = window->eventRefreshes();
    // Activated first, then the key typed at the focus (a key chained to the search would be
    // sent to the window with XSendEvent, which GTK ignores).
    const auto xdotool = [](const QStringList& args) {
        QProcess run;
        run.start(QStringLiteral("xdotool"), args);
        return run.waitForFinished(15000) && run.exitCode() == 0;
    };
    ASSERT_TRUE(xdotool({QStringLiteral("search"), QStringLiteral("--sync"), QStringLiteral("--all"),
                         QStringLiteral("--onlyvisible"), QStringLiteral("--pid"),
                         QString::number(mousepad.processId()), QStringLiteral("--name"), QStringLiteral("Mousepad"),
                         QStringLiteral("windowactivate"), QStringLiteral("--sync")}));
    ASSERT_TRUE(xdotool({QStringLiteral("key"), QStringLiteral("ctrl+n")}));
    EXPECT_TRUE(QTest::qWaitFor([&] { return tabs() > before; }, 15000))
        << "tabs before: " << before << ", now: " << tabs()
        << "; reads started by events: " << window->eventRefreshes() - readsByEvents;
    EXPECT_GT(window->eventRefreshes(), readsByEvents);
    window->raise();
    window->activateWindow();
    window->treeView()->expandToDepth(3);
    screenshot(QStringLiteral("inspector-live-mousepad"));
    window.reset();
    mousepad.kill();
    mousepad.waitForFinished(5000);
}

TEST_F(InspectorTest, TheConfirmationDialogShowsTheResolvedElementAndHighlightsIt)
{
    startHost(false, Bridge::ConfirmPolicy::Ask);
    App::ConfirmationDialog dialog(*m_host->askProvider());
    const QString socket = m_host->server().socketPath();
    const QString workspace = m_workspace;
    auto answer = std::async(std::launch::async, [socket, workspace] {
        TestClient client(socket);
        const QJsonObject intent{
            {QStringLiteral("method"), QStringLiteral("desktop.click")},
            {QStringLiteral("params"),
             QJsonObject{{QStringLiteral("target"),
                          QJsonObject{{QStringLiteral("selector"),
                                       QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                                   {QStringLiteral("titleEquals"), QStringLiteral("Send")}}}}}}}};
        return client.call(QStringLiteral("desktop.confirm.issue"),
                           TestClient::withMeta({{QStringLiteral("intent"), intent}}, workspace), 60000);
    });
    ASSERT_TRUE(QTest::qWaitFor([&] { return dialog.isVisible(); }, 10000));
    EXPECT_TRUE(dialog.targetLabel()->text().contains(QStringLiteral("AXButton \"Send\"")))
        << dialog.targetLabel()->text().toStdString();
    EXPECT_TRUE(dialog.targetLabel()->text().contains(QStringLiteral("Fake Window")));
    ASSERT_EQ(dialog.highlight().frames().size(), 1);
    EXPECT_EQ(dialog.highlight().frames().constFirst()->target(), QRect(320, 10, 80, 24));
    // Nothing is cut: every label fits the dialog's width.
    for (const QLabel* label : dialog.findChildren<QLabel*>()) {
        if (label->isVisible()) {
            EXPECT_LE(label->sizeHint().width(), dialog.width()) << label->text().toStdString();
        }
    }
    screenshot(QStringLiteral("confirmation-resolved-target"));
    dialog.findChild<QPushButton*>(QStringLiteral("denyButton"))->click();
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, 10000));
    EXPECT_EQ(errorCode(answer.get()), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    EXPECT_TRUE(dialog.highlight().frames().isEmpty()) << "the highlight goes with the request";
}

TEST_F(InspectorTest, TheInspectorInSimplifiedChinese)
{
    qputenv(Translations::kEnvironmentVariable, "zh_CN");
    Translations::install();
    startHost();
    auto window = openInspector();
    EXPECT_EQ(window->windowTitle(), QStringLiteral("辅助功能检查器"));
    window->selectNode(2);
    screenshot(QStringLiteral("inspector-zh_CN"));
    qputenv(Translations::kEnvironmentVariable, "C");
    Translations::install();
}

namespace {

// "The app": a small dialog with a text field, centred on the screen where a dialog of the host
// would open by default; the fake desktop's "Message" field put at that very field's place.
class RenameDialog
{
public:
    explicit RenameDialog(FakeDesktop& desktop) : m_window(nullptr, Qt::Dialog)
    {
        m_window.setWindowTitle(QStringLiteral("Rename file"));
        auto* layout = new QVBoxLayout(&m_window);
        layout->addWidget(new QLabel(QStringLiteral("New name:"), &m_window));
        m_field = new QLineEdit(QStringLiteral("report-final.txt"), &m_window);
        layout->addWidget(m_field);
        m_window.resize(320, 110);
        const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
        m_window.move(screen.center() - QPoint(160, 55));
        m_window.show();
        exposed = QTest::qWaitForWindowExposed(&m_window);
        QTest::qWait(200);
        field = QRect(m_field->mapToGlobal(QPoint(0, 0)), m_field->size());
        QList<Node> nodes = FakeDesktop::defaultTree();
        const QRect window = m_window.frameGeometry();
        nodes[0].frame = {window.x(), window.y(), window.width(), window.height()};
        for (Node& node : nodes) {
            if (node.title == QLatin1String("Message"))
                node.frame = {field.x(), field.y(), field.width(), field.height()};
        }
        desktop.setTree(nodes);
    }

    bool exposed = false;
    QRect field;

private:
    QWidget m_window;
    QLineEdit* m_field = nullptr;
};

std::future<QJsonObject> askToTypeIntoMessage(const QString& socket, const QString& workspace)
{
    return std::async(std::launch::async, [socket, workspace] {
        TestClient client(socket);
        const QJsonObject intent{
            {QStringLiteral("method"), QStringLiteral("desktop.typeText")},
            {QStringLiteral("params"),
             QJsonObject{{QStringLiteral("text"), QStringLiteral("report-2026.txt")},
                         {QStringLiteral("target"),
                          QJsonObject{{QStringLiteral("selector"),
                                       QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                                   {QStringLiteral("titleEquals"), QStringLiteral("Message")}}}}}}}};
        return client.call(QStringLiteral("desktop.confirm.issue"),
                           TestClient::withMeta({{QStringLiteral("intent"), intent}}, workspace), 60000);
    });
}

} // namespace

// The confirmation dialog never hides the element it asks about: with a text field in a small
// dialog in the middle of the screen, it opens beside the field (the side with the most room),
// the highlight's frame around the field stays in view, and the field's own pixels show inside.
TEST_F(InspectorTest, TheConfirmationDialogStandsBesideTheTargetItAsksAbout)
{
    startHost(false, Bridge::ConfirmPolicy::Ask);
    RenameDialog app(*m_desktop);
    ASSERT_TRUE(app.exposed);
    App::ConfirmationDialog dialog(*m_host->askProvider());
    auto answer = askToTypeIntoMessage(m_host->server().socketPath(), m_workspace);
    ASSERT_TRUE(QTest::qWaitFor([&] { return dialog.isVisible(); }, 10000));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    QTest::qWait(App::ConfirmationDialog::kReplaceAfterShowMs + 350);
    ASSERT_EQ(dialog.highlight().frames().size(), 1);
    EXPECT_EQ(dialog.highlight().frames().constFirst()->target(), app.field);

    const QRect shown = dialog.frameGeometry();
    const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
    const int border = Inspector::FrameWindow::kBorder;
    EXPECT_FALSE(shown.intersects(app.field.adjusted(-border, -border, border, border)))
        << "dialog " << shown.x() << "," << shown.y() << " " << shown.width() << "x" << shown.height() << " over field "
        << app.field.x() << "," << app.field.y() << " " << app.field.width() << "x" << app.field.height();
    EXPECT_TRUE(screen.contains(shown)) << "all of the dialog is on the screen";
    EXPECT_NE(dialog.placement().side, QStringLiteral("least"));
    EXPECT_FALSE(dialog.coverNote()->isVisible());
    // What a person sees: the red frame around the field and the field itself, not the dialog.
    QTest::qWait(150);
    const QImage pixels = QGuiApplication::primaryScreen()->grabWindow(0).toImage();
    screenshot(QStringLiteral("confirmation-beside-target"));
    EXPECT_EQ(pixels.pixelColor(app.field.left() - 2, app.field.center().y()), QColor(220, 20, 60))
        << "the highlight's left border is in view";
    EXPECT_EQ(pixels.pixelColor(app.field.right() + 2, app.field.center().y()), QColor(220, 20, 60))
        << "and its right border";
    EXPECT_FALSE(shown.contains(app.field.center()));
    dialog.denyButton()->click();
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, 10000));
    EXPECT_EQ(errorCode(answer.get()), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
}

// A target that fills the screen leaves no side with room: the dialog goes where it covers the
// least of it and says so.
TEST_F(InspectorTest, WithNoRoomBesideTheTargetTheDialogCoversTheLeastAndSaysSo)
{
    startHost(false, Bridge::ConfirmPolicy::Ask);
    const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
    QList<Node> nodes = FakeDesktop::defaultTree();
    for (Node& node : nodes) {
        if (node.title == QLatin1String("Message"))
            node.frame = {screen.x() + 40, screen.y() + 40, screen.width() - 80, screen.height() - 80};
    }
    m_desktop->setTree(nodes);
    App::ConfirmationDialog dialog(*m_host->askProvider());
    auto answer = askToTypeIntoMessage(m_host->server().socketPath(), m_workspace);
    ASSERT_TRUE(QTest::qWaitFor([&] { return dialog.isVisible(); }, 10000));
    QTest::qWait(App::ConfirmationDialog::kReplaceAfterShowMs + 350);
    EXPECT_EQ(dialog.placement().side, QStringLiteral("least"));
    EXPECT_TRUE(dialog.placement().coversTarget());
    EXPECT_TRUE(dialog.coverNote()->isVisible());
    EXPECT_TRUE(screen.contains(dialog.frameGeometry()));
    // It hugs a corner: less of the target than anywhere in the middle.
    const QRect target(screen.x() + 40, screen.y() + 40, screen.width() - 80, screen.height() - 80);
    const QRect covered = dialog.frameGeometry().intersected(target);
    EXPECT_LT(covered.width() * covered.height(), dialog.frameGeometry().width() * dialog.frameGeometry().height());
    screenshot(QStringLiteral("confirmation-no-room"));
    dialog.denyButton()->click();
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, 10000));
}

// The inspector says when the element it highlights is behind its own window, and moves aside.
TEST_F(InspectorTest, TheInspectorSaysWhenTheSelectedElementIsBehindItAndMovesAside)
{
    startHost();
    auto window = openInspector();
    const auto& nodes = window->model().snapshot().nodes;
    const int send = nodeTitled(nodes, QStringLiteral("Send"));
    ASSERT_GE(send, 0);
    const auto& f = nodes.at(send).frame;
    const QRect target(f.x, f.y, f.width, f.height);
    // The inspector over the Send button.
    window->resize(640, 480);
    window->move(target.topLeft() - QPoint(100, 0));
    QTest::qWait(300);
    ASSERT_TRUE(window->frameGeometry().intersects(target));
    window->treeView()->expandAll();
    window->selectNode(send);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window->hiddenNote()->isVisible(); }, 3000))
        << "no note that the element is behind the inspector";
    screenshot(QStringLiteral("inspector-element-behind"));
    window->moveAsideButton()->click();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window->frameGeometry().intersects(target); }, 3000));
    EXPECT_TRUE(QTest::qWaitFor([&] { return !window->hiddenNote()->isVisible(); }, 3000));
    EXPECT_TRUE(QGuiApplication::primaryScreen()->availableGeometry().contains(window->frameGeometry()));
    screenshot(QStringLiteral("inspector-moved-aside"));
}
