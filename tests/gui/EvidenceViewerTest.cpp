// The evidence browser (docs/evidence-viewer.md) on evidence real executions left (a host with
// the fake backend on this thread, called over its socket): the index, its filters and search,
// an execution's panes, the frame drawn where the element was, the selector lab's counts against
// what the find itself recorded, an interrupted execution, a damaged file and a planted link.
// Screenshots go to gui-screenshots/ in the build tree.
#include "FakeBackend.h"
#include "GuiSupport.h"
#include "TestHost.h"
#include "automation/PlatformBackend.h"
#include "bridge/Host.h"
#include "bridge/evidence/EvidenceArchive.h"
#include "bridge/evidence/EvidenceLayout.h"
#include "evidence-viewer/EvidenceWindow.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QSlider>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUuid>

#include <gtest/gtest.h>

#include <future>

using namespace Testing;

namespace {

class EvidenceViewerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        if (qEnvironmentVariableIsEmpty("DISPLAY"))
            GTEST_SKIP() << "needs the headless desktop of scripts/test";
        startHost(false);
    }

    void startHost(bool realBackend)
    {
        m_host.reset();
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
        options.security.confirmPolicy = Bridge::ConfirmPolicy::Auto;
        options.security.dataDir = m_dir.path() + QStringLiteral("/data");
        m_host = std::make_unique<Bridge::Host>(options);
        QString error;
        ASSERT_TRUE(m_host->start(&error)) << error.toStdString();
    }

    // A request over the socket from another thread (the host runs on this one); a side effect
    // gets its token first.
    QJsonObject call(const QString& method, const QJsonObject& params, bool sideEffect = false)
    {
        const QString socket = m_host->server().socketPath();
        const QString workspace = m_workspace;
        auto answer = std::async(std::launch::async, [=] {
            TestClient client(socket);
            QJsonObject sent = params;
            if (sideEffect) {
                const QJsonObject issued = client.call(
                    QStringLiteral("desktop.confirm.issue"),
                    TestClient::withMeta({{QStringLiteral("intent"), QJsonObject{{QStringLiteral("method"), method},
                                                                                 {QStringLiteral("params"), params}}}},
                                         workspace));
                sent.insert(QStringLiteral("confirm"),
                            QJsonObject{{QStringLiteral("token"), resultOf(issued).value(QStringLiteral("token"))}});
            }
            return client.call(method, TestClient::withMeta(sent, workspace), 20000);
        });
        EXPECT_TRUE(QTest::qWaitFor(
            [&] { return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, 20000));
        return answer.get();
    }

    // The person says yes to the exact request the replay shows them.
    static void approveReplay(EvidenceViewer::EvidenceWindow& window)
    {
        QMessageBox* ask = nullptr;
        ASSERT_TRUE(QTest::qWaitFor(
            [&] { return (ask = window.findChild<QMessageBox*>(QStringLiteral("replayConfirm"))) != nullptr; }, 5000));
        EXPECT_TRUE(ask->detailedText().contains(QStringLiteral("Send")));
        ask->button(QMessageBox::Yes)->click();
    }

    int rowOf(EvidenceViewer::EvidenceWindow& window, const QString& executionId)
    {
        for (int row = 0; row < window.filter().rowCount(); ++row) {
            if (window.filter().index(row, EvidenceViewer::IndexModel::IdColumn).data().toString() == executionId)
                return row;
        }
        return -1;
    }

    QTemporaryDir m_dir;
    QString m_workspace;
    std::shared_ptr<FakeDesktop> m_desktop = std::make_shared<FakeDesktop>();
    std::unique_ptr<Bridge::Host> m_host;
};

} // namespace

TEST_F(EvidenceViewerTest, IndexesFiltersAndShowsRealExecutions)
{
    const QJsonObject sendSelector{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                   {QStringLiteral("titleContains"), QStringLiteral("Send")}};
    const QJsonObject found = call(QStringLiteral("desktop.find"), {{QStringLiteral("selector"), sendSelector}});
    const QString findId = resultOf(found).value(QStringLiteral("executionId")).toString();
    ASSERT_FALSE(findId.isEmpty()) << QJsonDocument(found).toJson().toStdString();
    const QJsonObject pressed =
        call(QStringLiteral("desktop.pointer"),
             {{QStringLiteral("gesture"), QStringLiteral("click")},
              {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), sendSelector}}}},
             true);
    const QString pointerId = resultOf(pressed).value(QStringLiteral("executionId")).toString();
    ASSERT_FALSE(pointerId.isEmpty()) << QJsonDocument(pressed).toJson().toStdString();
    const QJsonObject missing =
        call(QStringLiteral("desktop.click"),
             {{QStringLiteral("target"),
               QJsonObject{{QStringLiteral("selector"),
                            QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Nowhere")}}}}}},
             true);
    call(QStringLiteral("desktop.observe"), {});

    EvidenceViewer::EvidenceWindow window({m_dir.path() + QStringLiteral("/root")});
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const int all = window.filter().rowCount();
    EXPECT_GE(all, 3);
    ASSERT_GE(rowOf(window, findId), 0);
    ASSERT_GE(rowOf(window, pointerId), 0);

    // Filters and the free-text search (which reads requests and responses).
    window.outcomeBox()->setCurrentIndex(window.outcomeBox()->findData(QStringLiteral("errors")));
    for (int row = 0; row < window.filter().rowCount(); ++row)
        EXPECT_NE(window.filter().index(row, EvidenceViewer::IndexModel::OutcomeColumn).data().toString(),
                  QStringLiteral("ok"));
    window.outcomeBox()->setCurrentIndex(0);
    window.searchBox()->setText(QStringLiteral("Nowhere"));
    // Only the click on "Nowhere" (an error answer) has the word in its request.
    EXPECT_TRUE(missing.contains(QStringLiteral("error"))) << QJsonDocument(missing).toJson().toStdString();
    EXPECT_EQ(window.filter().rowCount(), 1);
    window.searchBox()->clear();
    EXPECT_EQ(window.filter().rowCount(), all);

    // The pointer click: its timeline, its screenshots with the target's frame drawn.
    window.showRow(rowOf(window, pointerId));
    QStringList steps;
    for (int i = 0; i < window.timeline()->topLevelItemCount(); ++i)
        steps.append(window.timeline()->topLevelItem(i)->text(0));
    EXPECT_TRUE(steps.contains(QStringLiteral("answer"))) << steps.join(QLatin1Char(' ')).toStdString();
    EXPECT_EQ(window.drawnFrame(), QRect(320, 10, 80, 24));
    EXPECT_FALSE(window.beforeShot()->pixmap().isNull());
    window.tabs()->setCurrentIndex(4); // Screenshots
    screenshot(QStringLiteral("evidence-screenshots"));

    // The find: its candidates, and the lab's count on its tree equals what the find recorded.
    window.showRow(rowOf(window, findId));
    const int recorded = window.candidates()->rowCount();
    EXPECT_GE(recorded, 1);
    window.runLab(QString::fromUtf8(QJsonDocument(sendSelector).toJson()));
    bool seen = false;
    for (int row = 0; row < window.labResults()->rowCount(); ++row) {
        if (window.labResults()->item(row, 1)->text() == QLatin1String("desktop.find")) {
            EXPECT_EQ(window.labResults()->item(row, 0)->data(Qt::UserRole).toInt(), recorded);
            seen = true;
        }
    }
    EXPECT_TRUE(seen);
    window.tabs()->setCurrentIndex(window.tabs()->indexOf(window.labResults()->parentWidget()));
    screenshot(QStringLiteral("evidence-selector-lab"));

    // Export what is in view, and open it elsewhere: the same executions, hashes checked.
    const QString zipPath = m_dir.path() + QStringLiteral("/view.zip");
    ASSERT_TRUE(window.exportView(zipPath)) << window.banner()->text().toStdString();
    const QString elsewhere = m_dir.path() + QStringLiteral("/elsewhere");
    QDir().mkpath(elsewhere);
    ASSERT_TRUE(Evidence::Archive::open(zipPath, elsewhere));
    EvidenceViewer::EvidenceWindow opened({elsewhere});
    EXPECT_EQ(opened.filter().rowCount(), all);
}

TEST_F(EvidenceViewerTest, InterruptedDamagedAndPlantedEntriesAreShownAsSuch)
{
    const QJsonObject found =
        call(QStringLiteral("desktop.find"),
             {{QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleContains"), QStringLiteral("Send")}}}});
    const QString dir =
        resultOf(found).value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    ASSERT_FALSE(dir.isEmpty());
    // An execution the host never answered, marked by the next host's recovery.
    const QString day = QFileInfo(dir.chopped(1)).path();
    const QString crashedId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QDir(day).mkpath(crashedId);
    {
        QFile request(day + QLatin1Char('/') + crashedId + QLatin1Char('/') + Evidence::Layout::requestFile());
        ASSERT_TRUE(request.open(QIODevice::WriteOnly));
        request.write(R"({"jsonrpc":"2.0","id":"1","method":"desktop.click","params":{}})");
        QFile trace(day + QLatin1Char('/') + crashedId + QLatin1Char('/') + Evidence::Layout::traceFile());
        ASSERT_TRUE(trace.open(QIODevice::WriteOnly));
        const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        trace.write(QStringLiteral("{\"t\":\"%1\",\"sinceStartMs\":0,\"step\":\"start\",\"ms\":0,\"ok\":true}\n"
                                   "{\"t\":\"%1\",\"step\":\"%2\",\"ms\":0,\"ok\":false}\n")
                        .arg(now, Evidence::Layout::interruptedStep())
                        .toUtf8());
    }
    // A damaged response, and a link planted in the evidence.
    QFile response(dir + Evidence::Layout::responseFile());
    ASSERT_TRUE(response.open(QIODevice::WriteOnly | QIODevice::Truncate));
    response.write("{\"jsonrpc\": \"2.0\", \"res");
    response.close();
    ASSERT_TRUE(QFile::link(QStringLiteral("/etc"), day + QStringLiteral("/planted")));

    EvidenceViewer::EvidenceWindow window({m_workspace});
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("symlink"))) << window.banner()->text().toStdString();
    const int crashed = rowOf(window, crashedId);
    ASSERT_GE(crashed, 0);
    EXPECT_EQ(window.filter().index(crashed, EvidenceViewer::IndexModel::OutcomeColumn).data().toString(),
              QStringLiteral("interrupted"));
    window.showRow(crashed);
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("Interrupted")))
        << window.banner()->text().toStdString();
    screenshot(QStringLiteral("evidence-interrupted"));
    const QString foundId = resultOf(found).value(QStringLiteral("executionId")).toString();
    window.showRow(rowOf(window, foundId));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("Damaged: response.json")))
        << window.banner()->text().toStdString();
    window.outcomeBox()->setCurrentIndex(window.outcomeBox()->findData(QStringLiteral("interrupted")));
    EXPECT_EQ(window.filter().rowCount(), 1);
}

// A huge ax.json (here 48 MB, sparse) is named, not loaded: the execution's other panes show,
// and the selector lab says the tree was not read instead of counting nothing in it.
TEST_F(EvidenceViewerTest, AHugeRecordedTreeIsNamedNotLoaded)
{
    const QJsonObject found =
        call(QStringLiteral("desktop.find"),
             {{QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleContains"), QStringLiteral("Send")}}}});
    const QString dir =
        resultOf(found).value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
    ASSERT_FALSE(dir.isEmpty());
    QFile tree(dir + Evidence::Layout::axTreeFile());
    ASSERT_TRUE(tree.open(QIODevice::ReadWrite));
    ASSERT_TRUE(tree.resize(qint64{48} * 1024 * 1024));
    tree.close();

    EvidenceViewer::EvidenceWindow window({m_workspace});
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const QString id = resultOf(found).value(QStringLiteral("executionId")).toString();
    window.showRow(rowOf(window, id));
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("ax.json")) &&
                window.banner()->text().contains(QStringLiteral("larger than")))
        << window.banner()->text().toStdString();
    EXPECT_GT(window.timeline()->topLevelItemCount(), 0) << "the rest of the execution is shown";
    window.runLab(QStringLiteral("{\"titleContains\": \"Send\"}"));
    ASSERT_EQ(window.labResults()->rowCount(), 1);
    EXPECT_EQ(window.labResults()->item(0, 0)->data(Qt::UserRole).toInt(), -1);
    EXPECT_TRUE(window.labResults()->item(0, 4)->text().contains(QStringLiteral("larger than")))
        << window.labResults()->item(0, 4)->text().toStdString();
}

// The lab on two finds of the same selector, the button renamed in between: the newer tree's
// row says the former winner no longer matches, and why.
TEST_F(EvidenceViewerTest, TheLabSaysWhatChangedWhereTheResultDiffers)
{
    const QJsonObject sendSelector{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                   {QStringLiteral("titleEquals"), QStringLiteral("Send")}};
    const QJsonObject first = call(QStringLiteral("desktop.find"), {{QStringLiteral("selector"), sendSelector}});
    ASSERT_FALSE(resultOf(first).isEmpty()) << QJsonDocument(first).toJson().toStdString();
    QList<Automation::Node> renamed = FakeDesktop::defaultTree();
    for (auto& node : renamed) {
        if (node.title == QLatin1String("Send"))
            node.title = QStringLiteral("Submit");
    }
    m_desktop->setTree(renamed);
    call(QStringLiteral("desktop.find"), {{QStringLiteral("selector"), sendSelector}});

    EvidenceViewer::EvidenceWindow window({m_workspace});
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_EQ(window.filter().rowCount(), 2);
    window.runLab(QString::fromUtf8(QJsonDocument(sendSelector).toJson()));
    ASSERT_EQ(window.labResults()->rowCount(), 2);
    // Newest first: no match now, and why; the older one matched and has nothing before it.
    EXPECT_EQ(window.labResults()->item(0, 0)->data(Qt::UserRole).toInt(), 0);
    EXPECT_EQ(window.labResults()->item(1, 0)->data(Qt::UserRole).toInt(), 1);
    const QString why = window.labResults()->item(0, 5)->text();
    EXPECT_TRUE(why.contains(QStringLiteral("title \"Send\" → \"Submit\""))) << why.toStdString();
    EXPECT_TRUE(why.contains(QStringLiteral("1 → 0 matches"))) << why.toStdString();
    EXPECT_TRUE(window.labResults()->item(1, 5)->text().isEmpty());
    window.tabs()->setCurrentIndex(window.tabs()->indexOf(window.labResults()->parentWidget()));
    screenshot(QStringLiteral("evidence-lab-what-changed"));
}

TEST_F(EvidenceViewerTest, ANewExecutionAppearsWithoutAReload)
{
    call(QStringLiteral("desktop.observe"), {});
    EvidenceViewer::EvidenceWindow window({m_workspace});
    const int before = window.filter().rowCount();
    call(QStringLiteral("desktop.observe"), {});
    EXPECT_TRUE(QTest::qWaitFor([&] { return window.filter().rowCount() == before + 1; }, 10000));
}

TEST_F(EvidenceViewerTest, ReplaySendsTheRequestAgainAsThePersonAndComparesTheAnswers)
{
    const QJsonObject sendSelector{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                   {QStringLiteral("titleContains"), QStringLiteral("Send")}};
    const QJsonObject clicked =
        call(QStringLiteral("desktop.click"),
             {{QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), sendSelector}}}}, true);
    const QString clickId = resultOf(clicked).value(QStringLiteral("executionId")).toString();
    ASSERT_FALSE(clickId.isEmpty()) << QJsonDocument(clicked).toJson().toStdString();
    const QJsonObject typed =
        call(QStringLiteral("desktop.typeText"),
             {{QStringLiteral("text"), QStringLiteral("secret words")},
              {QStringLiteral("target"),
               QJsonObject{{QStringLiteral("selector"),
                            QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Message")}}}}}},
             true);
    const QString typeId = resultOf(typed).value(QStringLiteral("executionId")).toString();
    ASSERT_FALSE(typeId.isEmpty()) << QJsonDocument(typed).toJson().toStdString();

    EvidenceViewer::EvidenceWindow window({m_workspace});
    window.setDispatcher(&m_host->dispatcher());
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));

    // Since the recording, a button appeared in the window.
    QList<Automation::Node> grown = FakeDesktop::defaultTree();
    Automation::Node retry = grown.at(3);
    retry.title = QStringLiteral("Retry");
    retry.frame.x = 500;
    grown.append(retry);
    m_desktop->setTree(grown);
    m_desktop->clearEffects();
    window.showRow(rowOf(window, clickId));
    window.replayShown();
    approveReplay(window);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.replayTable()->rowCount() > 0; }, 15000))
        << window.replayStatus()->text().toStdString();
    // The target's window then and now: the new button, nothing else.
    EXPECT_TRUE(window.replayDiffSummary()->text().contains(QStringLiteral("Fake Window")))
        << window.replayDiffSummary()->text().toStdString();
    ASSERT_EQ(window.replayDiff()->topLevelItemCount(), 1) << window.replayDiffSummary()->text().toStdString();
    EXPECT_EQ(window.replayDiff()->topLevelItem(0)->text(2), QStringLiteral("added: AXButton \"Retry\""));
    EXPECT_EQ(m_desktop->effects(), QStringList{QStringLiteral("press:Send")}) << "the replay acted again";
    EXPECT_EQ(window.replayTable()->item(0, 1)->text(), QStringLiteral("ok"));
    EXPECT_EQ(window.replayTable()->item(0, 2)->text(), QStringLiteral("ok"));
    EXPECT_EQ(window.replayTable()->item(2, 2)->text(), window.replayTable()->item(2, 1)->text()) << "the same element";
    window.tabs()->setCurrentIndex(window.tabs()->count() - 1);
    screenshot(QStringLiteral("evidence-replay"));
    // The replay is a new execution, and it shows up.
    EXPECT_TRUE(QTest::qWaitFor([&] { return window.filter().rowCount() == 3; }, 10000));

    // Typed text that was not kept cannot be replayed.
    m_desktop->clearEffects();
    window.showRow(rowOf(window, typeId));
    window.replayShown();
    EXPECT_TRUE(window.replayStatus()->text().contains(QStringLiteral("cannot be replayed")))
        << window.replayStatus()->text().toStdString();
    EXPECT_TRUE(m_desktop->effects().isEmpty());

    // A stopped host refuses the person's replay like any other side effect.
    m_host->stop();
    window.showRow(rowOf(window, clickId));
    window.replayShown();
    approveReplay(window);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.replayTable()->rowCount() > 0; }, 15000));
    EXPECT_EQ(window.replayTable()->item(0, 2)->text(), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    EXPECT_TRUE(m_desktop->effects().isEmpty());
    m_host->resume();

    // The owner's rule refuses the person's replay as it refuses any client (docs/protocol.md,
    // "Policy"): the person is the one who may ask, not the one who may overrule a deny.
    auto rules = Bridge::OwnerPolicy::fromJson(QJsonDocument::fromJson(R"({"rules": [
        {"name": "no-clicks-in-fake", "app": {"name": "Fake App"}, "classes": ["pointer"], "decision": "deny"}]})")
                                                   .object());
    ASSERT_TRUE(rules.ok());
    m_host->setOwnerPolicy(rules.value());
    window.showRow(rowOf(window, clickId));
    window.replayShown();
    approveReplay(window);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.replayTable()->rowCount() > 0; }, 15000));
    EXPECT_EQ(window.replayTable()->item(0, 2)->text(), QStringLiteral("DESKTOP_CALLER_FORBIDDEN"));
    EXPECT_TRUE(m_desktop->effects().isEmpty());
}

TEST_F(EvidenceViewerTest, AFixtureClickShowsWhatTheHostSawWithTheFrameWhereTheButtonWas)
{
    startHost(true);
    QProcess fixture;
    fixture.start(QStringLiteral(MDH_FIXTURE_BINARY), {});
    ASSERT_TRUE(fixture.waitForStarted(10000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return fixture.readAllStandardOutput().contains("\"ready\""); }, 15000));
    QTest::qWait(300);
    const QJsonObject route{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), fixture.processId()}}}};
    const QJsonObject send{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                           {QStringLiteral("titleEquals"), QStringLiteral("Send")}};
    const QJsonObject clicked = call(QStringLiteral("desktop.pointer"),
                                     {{QStringLiteral("route"), route},
                                      {QStringLiteral("gesture"), QStringLiteral("click")},
                                      {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), send}}}},
                                     true);
    const QString id = resultOf(clicked).value(QStringLiteral("executionId")).toString();
    ASSERT_FALSE(id.isEmpty()) << QJsonDocument(clicked).toJson().toStdString();
    const QJsonObject frame =
        resultOf(clicked).value(QStringLiteral("target")).toObject().value(QStringLiteral("frame")).toObject();

    EvidenceViewer::EvidenceWindow window({m_workspace});
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const int row = rowOf(window, id);
    ASSERT_GE(row, 0);
    window.showRow(row);
    EXPECT_EQ(window.drawnFrame(),
              QRect(frame.value(QStringLiteral("x")).toInt(), frame.value(QStringLiteral("y")).toInt(),
                    frame.value(QStringLiteral("width")).toInt(), frame.value(QStringLiteral("height")).toInt()));
    EXPECT_FALSE(window.beforeShot()->pixmap().isNull());
    EXPECT_FALSE(window.afterShot()->pixmap().isNull());
    window.tabs()->setCurrentIndex(4);
    screenshot(QStringLiteral("evidence-fixture-click"));

    // The slider: the screen before left of the line, the screen after right of it.
    window.shotMode()->setCurrentIndex(1);
    const QImage before = window.beforeImage().convertToFormat(QImage::Format_RGB32);
    const QImage after = window.afterImage().convertToFormat(QImage::Format_RGB32);
    ASSERT_EQ(before.size(), after.size());
    window.compareSlider()->setValue(1000);
    EXPECT_EQ(window.compareImage(), before);
    window.compareSlider()->setValue(0);
    EXPECT_EQ(window.compareImage(), after);
    window.compareSlider()->setValue(400);
    const int split = before.width() * 400 / 1000;
    const QImage composed = window.compareImage();
    EXPECT_EQ(composed.copy(0, 0, split, before.height()), before.copy(0, 0, split, before.height()));
    EXPECT_EQ(composed.copy(split, 0, before.width() - split, before.height()),
              after.copy(split, 0, before.width() - split, before.height()));
    screenshot(QStringLiteral("evidence-fixture-click-slider"));
    fixture.terminate();
    fixture.waitForFinished(5000);
}

// What OCR read in the fixture's window is boxed on the image it was read in: one box per line
// ocr.json keeps, each where the answer put it.
TEST_F(EvidenceViewerTest, TextReadByOcrIsBoxedOnTheImageItWasReadIn)
{
    startHost(true);
    QProcess fixture;
    fixture.start(QStringLiteral(MDH_FIXTURE_BINARY), {QStringLiteral("--title"), QStringLiteral("OCR evidence")});
    ASSERT_TRUE(fixture.waitForStarted(10000));
    ASSERT_TRUE(QTest::qWaitFor([&] { return fixture.readAllStandardOutput().contains("\"ready\""); }, 15000));
    QTest::qWait(300);
    const QJsonObject read =
        call(QStringLiteral("desktop.ocr"),
             {{QStringLiteral("route"),
               QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), fixture.processId()}}}}},
              {QStringLiteral("languages"), QJsonArray{QStringLiteral("eng")}}});
    const QString id = resultOf(read).value(QStringLiteral("executionId")).toString();
    ASSERT_FALSE(id.isEmpty()) << QJsonDocument(read).toJson().toStdString();
    const int lines = static_cast<int>(resultOf(read).value(QStringLiteral("lines")).toArray().size());
    ASSERT_GT(lines, 0) << QJsonDocument(read).toJson().toStdString();

    EvidenceViewer::EvidenceWindow window({m_workspace});
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const int row = rowOf(window, id);
    ASSERT_GE(row, 0);
    window.showRow(row);
    EXPECT_EQ(window.ocrBoxes(), lines);
    EXPECT_FALSE(window.beforeShot()->pixmap().isNull());
    EXPECT_EQ(window.beforeShot()->toolTip(), QStringLiteral("ocr.png"));
    window.tabs()->setCurrentIndex(4);
    screenshot(QStringLiteral("evidence-ocr-boxes"));
    fixture.terminate();
    fixture.waitForFinished(5000);
}

// A real GTK app's evidence (galculator, started here): the key clicked with the pointer is framed
// where it was, the lab's count on each click's tree equals what a find of the same selector
// says, and with "keep full trees for side effects" on, the click's tree is complete (not a
// search-only one).
TEST_F(EvidenceViewerTest, AGtkAppsClickWithAndWithoutFullTrees)
{
    if (QStandardPaths::findExecutable(QStringLiteral("galculator")).isEmpty())
        GTEST_SKIP() << "galculator is installed by scripts/setup";
    startHost(true);
    const QString home = m_dir.path() + QStringLiteral("/home");
    QDir().mkpath(home);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("HOME"), home);
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    QProcess app;
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral("galculator"), {});
    ASSERT_TRUE(app.waitForStarted(10000));
    const QJsonObject route{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), app.processId()}}}};
    const QJsonObject seven{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                            {QStringLiteral("titleEquals"), QStringLiteral("7")}};
    // Ready when its accessible tree has the key.
    QJsonObject found;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            found = call(QStringLiteral("desktop.find"),
                         {{QStringLiteral("route"), route}, {QStringLiteral("selector"), seven}});
            return resultOf(found).value(QStringLiteral("matched")).toInt() == 1;
        },
        30000))
        << QJsonDocument(found).toJson().toStdString();
    const auto click = [&] {
        const QJsonObject clicked = call(QStringLiteral("desktop.click"),
                                         {{QStringLiteral("route"), route},
                                          {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), seven}}}},
                                         true);
        EXPECT_TRUE(resultOf(clicked).value(QStringLiteral("clicked")).toBool())
            << QJsonDocument(clicked).toJson().toStdString();
        return clicked;
    };
    const QJsonObject searchOnly = click();
    m_host->setKeepFullTrees(true);
    // With the pointer this time: its screenshots show where the key was.
    const QJsonObject full = call(QStringLiteral("desktop.pointer"),
                                  {{QStringLiteral("route"), route},
                                   {QStringLiteral("gesture"), QStringLiteral("click")},
                                   {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), seven}}}},
                                  true);
    const QString fullId = resultOf(full).value(QStringLiteral("executionId")).toString();
    ASSERT_FALSE(fullId.isEmpty());

    EvidenceViewer::EvidenceWindow window({m_workspace});
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.showRow(rowOf(window, fullId));
    const QJsonObject frame =
        resultOf(full).value(QStringLiteral("target")).toObject().value(QStringLiteral("frame")).toObject();
    EXPECT_EQ(window.drawnFrame(),
              QRect(frame.value(QStringLiteral("x")).toInt(), frame.value(QStringLiteral("y")).toInt(),
                    frame.value(QStringLiteral("width")).toInt(), frame.value(QStringLiteral("height")).toInt()));
    QStringList steps;
    for (int i = 0; i < window.timeline()->topLevelItemCount(); ++i)
        steps.append(window.timeline()->topLevelItem(i)->text(0));
    EXPECT_TRUE(steps.contains(QStringLiteral("evidence.fullTree"))) << steps.join(QLatin1Char(' ')).toStdString();
    window.tabs()->setCurrentIndex(4);
    screenshot(QStringLiteral("evidence-galculator-click"));

    window.runLab(QString::fromUtf8(QJsonDocument(seven).toJson()));
    const auto labRow = [&](const QJsonObject& answer) {
        const QString id = resultOf(answer).value(QStringLiteral("executionId")).toString();
        for (int row = 0; row < window.labResults()->rowCount(); ++row) {
            if (window.labResults()->item(row, 1)->data(Qt::UserRole).toString() == id)
                return row;
        }
        return -1;
    };
    const int searchOnlyRow = labRow(searchOnly);
    const int fullRow = labRow(full);
    ASSERT_GE(searchOnlyRow, 0);
    ASSERT_GE(fullRow, 0);
    EXPECT_EQ(window.labResults()->item(searchOnlyRow, 4)->text(), QStringLiteral("partial tree"));
    EXPECT_EQ(window.labResults()->item(fullRow, 4)->text(), QStringLiteral("full tree"));
    for (const int row : {searchOnlyRow, fullRow})
        EXPECT_EQ(window.labResults()->item(row, 0)->data(Qt::UserRole).toInt(),
                  resultOf(found).value(QStringLiteral("matched")).toInt())
            << "as the find said";
    window.tabs()->setCurrentIndex(window.tabs()->indexOf(window.labResults()->parentWidget()));
    screenshot(QStringLiteral("evidence-galculator-lab"));
    app.terminate();
    app.waitForFinished(5000);
}
