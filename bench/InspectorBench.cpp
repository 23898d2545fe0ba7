// Bench.Inspector: how fast the inspector's tree paints a large window, and how long the GUI
// thread ever waits while the target hangs. Prints figures and ratios against a named baseline
// measured in the same run (a QStandardItemModel holding the same tree, built eagerly, in the
// same QTreeView); asserts nothing about time. Needs a display (the test desktop); skips (77)
// without one.
#include "FakeBackend.h"
#include "bridge/Host.h"
#include "inspector/AxTreeModel.h"
#include "inspector/InspectorWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <cstdio>

using Automation::Node;

namespace {

// Paints `view` now (the grab renders every visible row) and returns the elapsed ms since `clock` started.
double painted(QTreeView& view, const QElapsedTimer& clock)
{
    view.viewport()->grab();
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

struct Figures
{
    double firstPaint = 0;
    double fullExpand = 0;
};

Figures inspectorModel(const Automation::Snapshot& snapshot)
{
    Inspector::AxTreeModel model;
    QTreeView view;
    view.setUniformRowHeights(true);
    view.resize(900, 700);
    view.setModel(&model);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        qWarning("the view was not exposed: the figures include its first paint");
    Figures out;
    QElapsedTimer clock;
    clock.start();
    model.setSnapshot(snapshot);
    view.expandToDepth(0);
    view.expand(model.index(0, 0, model.index(0, 0)));
    out.firstPaint = painted(view, clock);
    clock.restart();
    for (int i = 0; i < snapshot.nodes.size(); ++i)
        model.indexOfNode(i);
    view.expandAll();
    out.fullExpand = painted(view, clock);
    return out;
}

Figures standardModel(const Automation::Snapshot& snapshot)
{
    QStandardItemModel model;
    QTreeView view;
    view.setUniformRowHeights(true);
    view.resize(900, 700);
    view.setModel(&model);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        qWarning("the view was not exposed: the figures include its first paint");
    Figures out;
    QElapsedTimer clock;
    clock.start();
    QList<QStandardItem*> items(snapshot.nodes.size(), nullptr);
    model.setColumnCount(4);
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        const Node& node = snapshot.nodes.at(i);
        const QList<QStandardItem*> row{new QStandardItem(node.role), new QStandardItem(node.title),
                                        new QStandardItem(node.value),
                                        new QStandardItem(node.stateNames().join(QLatin1Char(' ')))};
        items[i] = row.constFirst();
        if (node.parent < 0)
            model.appendRow(row);
        else
            items[node.parent]->appendRow(row);
    }
    view.expandToDepth(1);
    out.firstPaint = painted(view, clock);
    clock.restart();
    view.expandAll();
    out.fullExpand = painted(view, clock);
    return out;
}

// The longest gap between 5 ms ticks of the GUI thread while the inspector reads a window whose
// app does not answer (the fake backend stuck for 8 s; the inspector gives up after 5 s).
qint64 stallWhileHung()
{
    QTemporaryDir dir;
    QDir(dir.path()).mkpath(QStringLiteral("root"));
    auto desktop = std::make_shared<Testing::FakeDesktop>();
    Bridge::HostOptions options;
    options.server.socketPath = dir.path() + QStringLiteral("/bridge.sock");
    options.workspaceRoot = dir.path() + QStringLiteral("/root");
    options.backendFactory = [desktop] { return std::make_unique<Testing::FakeBackend>(desktop); };
    options.security.dataDir = dir.path() + QStringLiteral("/data");
    Bridge::Host host(options);
    QString error;
    if (!host.start(&error))
        return -1;
    Inspector::InspectorWindow window(host);
    window.show();
    if (!QTest::qWaitFor([&] { return window.pendingReads() == 0 && window.model().rowCount() > 0; }, 10000))
        qWarning("the inspector showed no tree within 10 s");
    desktop->setDelay(QStringLiteral("snapshot"), Testing::FakeDesktop::Delay{8000, true});
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    qint64 longest = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &tick, [&] {
        const qint64 now = clock.elapsed();
        longest = std::max(longest, now - last);
        last = now;
    });
    tick.start(5);
    window.refreshTree();
    if (!QTest::qWaitFor([&] { return window.pendingReads() == 0; }, 15000))
        qWarning("the read did not end within 15 s");
    tick.stop();
    desktop->setDelay(QStringLiteral("snapshot"), {});
    host.shutdown();
    return longest;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY")) {
        std::printf("skipped: no display (scripts/headless-desktop start DIR; source DIR/env.sh)\n");
        return 77;
    }
    QApplication app(argc, argv);
    Testing::FakeDesktop desktop;
    desktop.setTree(Testing::FakeDesktop::gridTree(333, 8));
    const Automation::Snapshot snapshot = desktop.snapshotNow();
    std::printf("inspector tree: %lld nodes (a window, a table, 333 rows of 8 cells)\n",
                static_cast<long long>(snapshot.nodes.size()));
    // Warm both once (fonts, styles), then measure.
    inspectorModel(snapshot);
    standardModel(snapshot);
    const Figures lazy = inspectorModel(snapshot);
    const Figures eager = standardModel(snapshot);
    std::printf("%-44s %10s %12s %8s\n", "", "inspector", "baseline*", "ratio");
    std::printf("%-44s %8.1f ms %10.1f ms %8.2f\n", "first paint of the top two levels (goal <= 300)", lazy.firstPaint,
                eager.firstPaint, eager.firstPaint / std::max(0.001, lazy.firstPaint));
    std::printf("%-44s %8.1f ms %10.1f ms %8.2f\n", "full expand and paint (goal <= 1000)", lazy.fullExpand,
                eager.fullExpand, eager.fullExpand / std::max(0.001, lazy.fullExpand));
    std::printf("* baseline: QStandardItemModel holding the same tree, built eagerly, in the same QTreeView\n");
    const qint64 stall = stallWhileHung();
    std::printf("longest GUI-thread stall while the target hangs (goal <= 50): %lld ms\n",
                static_cast<long long>(stall));
    std::fflush(stdout);
    return stall < 0 ? 1 : 0;
}
