// Bench.Evidence: how fast the evidence browser indexes a workspace of 10 000 executions and
// opens one whose ax.json holds a 3 000-node tree. Prints figures and ratios against a named
// baseline measured in the same run (for the index: walking the same directories and reading
// each request.json with QDirIterator/QFile and no parsing; for the open: QJsonDocument parsing
// the same ax.json); asserts nothing about time. Needs a display for the window; skips (77)
// without one.
#include "FakeBackend.h"
#include "bridge/evidence/EvidenceLayout.h"
#include "evidence-viewer/EvidenceWindow.h"

#include <QApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QUuid>

#include <cstdio>

namespace {

void write(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(bytes);
}

// One execution's small files, as the host writes them.
void plantExecution(const QString& day, const QDateTime& at, int n)
{
    const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    const QString dir = day + QLatin1Char('/') + id + QLatin1Char('/');
    QDir().mkpath(dir);
    const QString method = n % 3 == 0 ? QStringLiteral("desktop.click") : QStringLiteral("desktop.find");
    write(dir + Evidence::Layout::requestFile(),
          QStringLiteral(
              "{\"jsonrpc\":\"2.0\",\"id\":\"%1\",\"method\":\"%2\",\"params\":{\"meta\":{\"requestId\":\"%1\"}}}")
              .arg(id, method)
              .toUtf8());
    const QString t = at.toString(Qt::ISODateWithMs);
    write(dir + Evidence::Layout::traceFile(),
          QStringLiteral("{\"t\":\"%1\",\"sinceStartMs\":0,\"step\":\"start\",\"ms\":0,\"ok\":true}\n"
                         "{\"t\":\"%1\",\"sinceStartMs\":12,\"step\":\"%2\",\"ms\":0,\"ok\":true,"
                         "\"details\":{\"outcome\":\"ok\"}}\n")
              .arg(t, Evidence::Layout::answerStep())
              .toUtf8());
    write(dir + Evidence::Layout::responseFile(), QStringLiteral("{\"id\":\"%1\",\"result\":{}}").arg(id).toUtf8());
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY")) {
        std::printf("skipped: no display (scripts/headless-desktop start DIR; source DIR/env.sh)\n");
        return 77;
    }
    QApplication app(argc, argv);
    QTemporaryDir workspace;
    const QString root = workspace.path() + QStringLiteral("/artifacts/desktop");
    const QDateTime start = QDateTime::currentDateTimeUtc().addDays(-10);
    for (int n = 0; n < 10000; ++n) {
        const QDateTime at = start.addSecs(n * 60);
        const QString day = root + QLatin1Char('/') + Evidence::Layout::dateFolder(at);
        plantExecution(day, at, n);
    }
    // One execution with a 3 000-node tree.
    Testing::FakeDesktop desktop;
    QList<Automation::Node> nodes = Testing::FakeDesktop::defaultTree();
    while (nodes.size() < 3000) {
        Automation::Node node = nodes.at(2);
        node.title = QStringLiteral("Button %1").arg(nodes.size());
        nodes.append(node);
    }
    desktop.setTree(nodes);
    const QDateTime bigAt = QDateTime::currentDateTimeUtc();
    const QString bigDay = root + QLatin1Char('/') + Evidence::Layout::dateFolder(bigAt);
    plantExecution(bigDay, bigAt, 1);
    QString bigDir;
    for (const QFileInfo& entry : QDir(bigDay).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time))
        bigDir = entry.absoluteFilePath();
    const QByteArray ax = desktop.snapshotNow().toJsonText();
    write(bigDir + QLatin1Char('/') + Evidence::Layout::axTreeFile(), ax);
    std::printf("evidence: 10 001 executions in %s, one with a %lld-node ax.json (%lld KB)\n",
                qPrintable(workspace.path()), static_cast<long long>(nodes.size()),
                static_cast<long long>(ax.size() / 1024));

    // Baseline for the index: the same walk, reading each request.json, parsing nothing.
    QElapsedTimer clock;
    clock.start();
    qint64 bytes = 0;
    QDirIterator walk(root, {Evidence::Layout::requestFile()}, QDir::Files, QDirIterator::Subdirectories);
    while (walk.hasNext()) {
        QFile file(walk.next());
        if (file.open(QIODevice::ReadOnly))
            bytes += file.readAll().size();
    }
    const double baselineIndex = static_cast<double>(clock.nsecsElapsed()) / 1e6;

    clock.restart();
    EvidenceViewer::EvidenceWindow window({workspace.path()});
    const double indexMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    const int rows = window.filter().rowCount();
    window.show();

    clock.restart();
    const QJsonDocument parsed = QJsonDocument::fromJson(ax);
    const double baselineOpen = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    int bigRow = -1;
    for (int row = 0; row < rows; ++row) {
        if (bigDir.endsWith(window.filter().index(row, EvidenceViewer::IndexModel::IdColumn).data().toString()))
            bigRow = row;
    }
    clock.restart();
    window.showRow(bigRow);
    QApplication::processEvents();
    const double openMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;

    std::printf("%-52s %10s %12s %8s\n", "", "browser", "baseline*", "ratio");
    std::printf("%-52s %8.1f ms %10.1f ms %8.2f\n", "index of 10 001 executions (goal <= 1000)", indexMs, baselineIndex,
                indexMs / std::max(0.001, baselineIndex));
    std::printf("%-52s %8.1f ms %10.1f ms %8.2f\n", "open an execution with a 3000-node ax.json (goal <= 300)", openMs,
                baselineOpen, openMs / std::max(0.001, baselineOpen));
    std::printf("* baselines: the same walk reading each request.json and parsing nothing (%lld bytes); "
                "QJsonDocument parsing the same ax.json (%s)\n",
                static_cast<long long>(bytes), parsed.isObject() ? "an object" : "not an object");
    std::fflush(stdout);
    return rows == 10001 && bigRow >= 0 ? 0 : 1;
}
