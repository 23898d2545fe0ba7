// Evidence::EvidenceReader: executions written by ExecutionRecord listed and loaded back, an
// interrupted one, and evidence that is malformed, partial or planted (docs/architecture.md,
// "Evidence: the read side").
#include "bridge/evidence/EvidenceReader.h"
#include "UnitTestSupport.h"
#include "automation/SelectorEngine.h"
#include "bridge/evidence/EvidenceLayout.h"
#include "bridge/evidence/ExecutionRecord.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTimeZone>

#include <gtest/gtest.h>

#include <sys/stat.h>

using Evidence::EvidenceReader;
using Evidence::ExecutionInfo;
using Evidence::ExecutionRecord;
namespace Layout = Evidence::Layout;
using namespace Automation;
using UnitTest::jsonObject;

namespace {

const QString kFind = QStringLiteral("123e4567-e89b-12d3-a456-426614174000");
const QString kClick = QStringLiteral("0f8fad5b-d9cb-469f-a165-70867728950e");
const QString kObserve = QStringLiteral("7c9e6679-7425-40de-944b-e07fc1f90ae7");

void writeAll(const QString& path, const QByteArray& data)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate)) << path.toStdString();
    ASSERT_EQ(file.write(data), data.size());
}

QDateTime utc(int day, int hour, int minute, int ms = 0)
{
    return QDateTime(QDate(2026, 2, day), QTime(hour, minute, 0, ms), QTimeZone::utc());
}

Snapshot fixtureSnapshot()
{
    Snapshot s;
    s.appName = QStringLiteral("Fixture");
    s.bundleId = QStringLiteral("mdh-target-app");
    s.pid = 4242;
    s.windowTitle = QStringLiteral("Main");
    s.takenAt = utc(9, 12, 0, 250);
    const auto node = [&](const QString& role, const QString& nativeRole, const QString& title, quint32 states) {
        Node n;
        n.elementId = QStringLiteral("e:") + QString::number(s.nodes.size() + 1);
        n.role = role;
        n.nativeRole = nativeRole;
        n.title = title;
        n.states = states;
        n.frame = Frame{10 * int(s.nodes.size()), 20, 80, 24};
        n.handle = QStringLiteral("h:") + title;
        n.parent = s.nodes.isEmpty() ? -1 : 0;
        if (n.parent == 0) {
            n.path = {int(s.nodes.at(0).children.size())};
            s.nodes[0].children.append(int(s.nodes.size()));
        }
        s.nodes.append(n);
    };
    constexpr quint32 live = StateEnabled | StateVisible | StateShowing;
    node(QStringLiteral("AXWindow"), QStringLiteral("frame"), QStringLiteral("Main"), live | StateActive);
    node(QStringLiteral("AXButton"), QStringLiteral("push button"), QStringLiteral("Save"), live);
    node(QStringLiteral("AXButton"), QStringLiteral("push button"), QStringLiteral("Save As…"), StateVisible);
    node(QStringLiteral("AXTextField"), QStringLiteral("password text"), QStringLiteral("Password"), live);
    return s;
}

class EvidenceReaderTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_workspaceDir.isValid());
        ASSERT_TRUE(m_otherDir.isValid());
        ASSERT_TRUE(m_dataDir.isValid());
        m_workspace = QFileInfo(m_workspaceDir.path()).canonicalFilePath();
        m_other = QFileInfo(m_otherDir.path()).canonicalFilePath();
    }

    QString ws(const QString& relative) const { return m_workspace + QLatin1Char('/') + relative; }

    QJsonObject request(const QString& method) const
    {
        return QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                           {QStringLiteral("id"), QStringLiteral("r1")},
                           {QStringLiteral("method"), method},
                           {QStringLiteral("params"), jsonObject(R"({"selector":{"byRole":"AXButton"}})")}};
    }
    QJsonObject env() const { return jsonObject(R"({"host":{"pid":1},"peer":{"pid":4242,"executable":"/bin/ctl"}})"); }

    /// An execution that answered: trace steps, optionally ax.json, then finalize.
    std::unique_ptr<ExecutionRecord> answered(const QString& id, const QString& method, const QDateTime& receivedAt,
                                              const QString& outcome, const QString& workspace = {})
    {
        auto record = std::make_unique<ExecutionRecord>(id, method, workspace.isEmpty() ? m_workspace : workspace,
                                                        request(method), env(), receivedAt);
        EXPECT_FALSE(record->open().has_value());
        record->trace(QStringLiteral("start"), 0, true);
        record->trace(QStringLiteral("snapshot"), 12, true, QJsonObject{{QStringLiteral("nodes"), 4}});
        EXPECT_FALSE(record->writeArtifact(Layout::axTreeFile(), fixtureSnapshot().toJsonText()).has_value());
        const QJsonObject response =
            outcome == QLatin1String("ok")
                ? jsonObject(R"({"jsonrpc":"2.0","id":"r1","result":{"matched":1}})")
                : QJsonObject{
                      {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                      {QStringLiteral("id"), QStringLiteral("r1")},
                      {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), outcome},
                                                            {QStringLiteral("message"), QStringLiteral("no")}}}};
        EXPECT_FALSE(
            record
                ->finalize(response, outcome, outcome == QLatin1String("ok") ? QString() : QStringLiteral("it failed"))
                .has_value());
        return record;
    }

    QTemporaryDir m_workspaceDir;
    QTemporaryDir m_otherDir;
    QTemporaryDir m_dataDir;
    QString m_workspace;
    QString m_other;
};

TEST_F(EvidenceReaderTest, ListsExecutionsNewestFirst)
{
    const auto find = answered(kFind, QStringLiteral("desktop.find"), utc(9, 12, 0, 123), QStringLiteral("ok"));
    const auto click = answered(kClick, QStringLiteral("desktop.click"), utc(10, 8, 30, 456),
                                QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    const auto observe = answered(kObserve, QStringLiteral("desktop.observe"), utc(9, 15, 0), QStringLiteral("ok"));

    const EvidenceReader reader(m_workspaceDir.path());
    EXPECT_EQ(reader.workspace(), m_workspace);
    const auto listing = reader.list();
    ASSERT_TRUE(listing.ok()) << listing.error().message.toStdString();
    EXPECT_TRUE(listing->skipped.isEmpty());
    ASSERT_EQ(listing->executions.size(), 3);
    const ExecutionInfo& first = listing->executions.at(0);
    const ExecutionInfo& second = listing->executions.at(1);
    const ExecutionInfo& third = listing->executions.at(2);
    EXPECT_EQ(first.executionId, kClick);
    EXPECT_EQ(second.executionId, kObserve);
    EXPECT_EQ(third.executionId, kFind);

    EXPECT_EQ(first.method, QStringLiteral("desktop.click"));
    EXPECT_EQ(first.date, QDate(2026, 2, 10));
    EXPECT_EQ(first.receivedAt, utc(10, 8, 30, 456));
    EXPECT_EQ(first.relativeDir, click->dirPath().mid(m_workspace.size() + 1).chopped(1));
    EXPECT_EQ(first.dirPath, click->dirPath());
    EXPECT_TRUE(first.answered);
    EXPECT_FALSE(first.interrupted);
    EXPECT_TRUE(first.isError());
    EXPECT_EQ(first.outcome, QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    EXPECT_GE(first.durationMs, 0);

    EXPECT_EQ(third.method, QStringLiteral("desktop.find"));
    EXPECT_EQ(third.receivedAt, utc(9, 12, 0, 123));
    EXPECT_EQ(third.outcome, QStringLiteral("ok"));
    EXPECT_FALSE(third.isError());

    // find() gets the same description, whatever the case of the id.
    const auto found = reader.find(kClick.toUpper());
    ASSERT_TRUE(found.ok()) << found.error().message.toStdString();
    EXPECT_EQ(found->executionId, kClick);
    EXPECT_EQ(found->receivedAt, first.receivedAt);
    EXPECT_EQ(found->durationMs, first.durationMs);
}

TEST_F(EvidenceReaderTest, LoadsEveryFileOfAnExecution)
{
    const auto record = answered(kFind, QStringLiteral("desktop.find"), utc(9, 12, 0, 123), QStringLiteral("ok"));
    ASSERT_FALSE(record->writeArtifact(Layout::candidatesFile(), "{\"matched\":1}").has_value());
    ASSERT_FALSE(record->writeArtifact(Layout::observeScreenshot(), QByteArray("\x89PNG\r\n", 6)).has_value());

    const EvidenceReader reader(m_workspace);
    const auto loaded = reader.load(kFind);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    const Evidence::Execution& execution = loaded.value();
    EXPECT_TRUE(execution.problems.isEmpty()) << execution.problems.value(0).message.toStdString();
    EXPECT_EQ(execution.request, std::optional<QJsonObject>(request(QStringLiteral("desktop.find"))));
    EXPECT_EQ(execution.env, std::optional<QJsonObject>(env()));
    ASSERT_TRUE(execution.response.has_value());
    EXPECT_EQ(execution.response->value(QStringLiteral("result")).toObject(), jsonObject(R"({"matched":1})"));
    QStringList steps;
    for (const auto& step : execution.trace)
        steps.append(step.step);
    EXPECT_EQ(steps, (QStringList{QStringLiteral("start"), QStringLiteral("snapshot"), QStringLiteral("answer")}));
    EXPECT_EQ(execution.trace.at(1).ms, 12);
    EXPECT_EQ(execution.trace.at(1).details, jsonObject(R"({"nodes":4})"));
    EXPECT_EQ(execution.trace.at(2).details, jsonObject(R"({"outcome":"ok"})"));
    EXPECT_EQ(execution.artifacts, (QStringList{Layout::axTreeFile(), Layout::envFile(), Layout::observeScreenshot(),
                                                Layout::requestFile(), Layout::responseFile(), Layout::candidatesFile(),
                                                Layout::summaryFile(), Layout::traceFile()}));

    // The recorded tree answers a selector as the live one did.
    ASSERT_TRUE(execution.snapshot.has_value());
    const Snapshot live = fixtureSnapshot();
    EXPECT_EQ(execution.snapshot->toJsonText(), live.toJsonText());
    Selector buttons;
    buttons.byRole = QStringLiteral("AXButton");
    buttons.title = TextMatch{TextMatch::Mode::Contains, QStringLiteral("save"), {}};
    EXPECT_EQ(SelectorEngine::candidatesJson(*execution.snapshot, buttons,
                                             SelectorEngine::match(*execution.snapshot, buttons), buttons.toJson()),
              SelectorEngine::candidatesJson(live, buttons, SelectorEngine::match(live, buttons), buttons.toJson()));

    const auto png = reader.readFile(execution.info, Layout::observeScreenshot());
    ASSERT_TRUE(png.ok());
    EXPECT_EQ(png.value(), QByteArray("\x89PNG\r\n", 6));
    const auto small = reader.readFile(execution.info, Layout::axTreeFile(), 10);
    ASSERT_FALSE(small.ok());
    EXPECT_EQ(small.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("too_large")));
    const auto missing = reader.readFile(execution.info, Layout::afterScreenshot());
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("not_found")));
    EXPECT_EQ(missing.error().details.value(QStringLiteral("file")), QJsonValue(Layout::afterScreenshot()));
}

TEST_F(EvidenceReaderTest, AnExecutionTheHostDiedInIsMarkedInterrupted)
{
    auto journal = std::make_shared<Evidence::Journal>(m_dataDir.path());
    const QDateTime before = QDateTime::currentDateTimeUtc();
    auto cut = std::make_unique<ExecutionRecord>(kClick, QStringLiteral("desktop.click"), m_workspace,
                                                 request(QStringLiteral("desktop.click")), env());
    cut->setJournal(journal);
    ASSERT_FALSE(cut->open().has_value());
    cut->trace(QStringLiteral("start"), 0, true);
    cut->trace(QStringLiteral("input"), 3, true);
    const QDateTime after = QDateTime::currentDateTimeUtc();
    // The host dies here; the next one recovers.
    ASSERT_EQ(Evidence::Journal(m_dataDir.path()).recover().interrupted, 1);

    const EvidenceReader reader(m_workspace);
    const auto listing = reader.list();
    ASSERT_TRUE(listing.ok());
    ASSERT_EQ(listing->executions.size(), 1);
    const ExecutionInfo& info = listing->executions.at(0);
    EXPECT_TRUE(info.interrupted);
    EXPECT_FALSE(info.answered);
    EXPECT_FALSE(info.isError());
    EXPECT_TRUE(info.outcome.isEmpty());
    EXPECT_EQ(info.durationMs, -1);
    EXPECT_EQ(info.method, QStringLiteral("desktop.click")); // from request.json: the summary says only "Interrupted"
    ASSERT_TRUE(info.receivedAt.isValid());                  // from the trace: its first step's time less sinceStartMs
    EXPECT_GE(info.receivedAt, before.addMSecs(-5));
    EXPECT_LE(info.receivedAt, after.addMSecs(5));

    const auto loaded = reader.load(info);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_FALSE(loaded->response.has_value());
    EXPECT_TRUE(loaded->problems.isEmpty()) << loaded->problems.value(0).message.toStdString();
    ASSERT_EQ(loaded->trace.size(), 3);
    EXPECT_EQ(loaded->trace.last().step, Layout::interruptedStep());
    EXPECT_EQ(loaded->trace.last().sinceStartMs, -1);
    EXPECT_FALSE(loaded->snapshot.has_value());
}

TEST_F(EvidenceReaderTest, PartialAndMalformedFilesAreProblemsNotFailures)
{
    const auto record = answered(kFind, QStringLiteral("desktop.find"), utc(9, 12, 0, 123), QStringLiteral("ok"));
    const QString dir = record->dirPath();
    writeAll(dir + Layout::axTreeFile(), fixtureSnapshot().toJsonText().left(200)); // cut short
    writeAll(dir + Layout::requestFile(), "{\"method\": \"desktop.fi");
    QFile trace(dir + Layout::traceFile());
    ASSERT_TRUE(trace.open(QIODevice::Append));
    trace.write("not json\n{\"step\":\"late\",\"ms\":1,\"ok\":true}\n{\"step\":\"cut");
    trace.close();

    const EvidenceReader reader(m_workspace);
    const auto listing = reader.list();
    ASSERT_TRUE(listing.ok());
    ASSERT_EQ(listing->executions.size(), 1);
    EXPECT_EQ(listing->executions.at(0).method, QStringLiteral("desktop.find")); // from summary.md's title
    EXPECT_EQ(listing->executions.at(0).outcome, QStringLiteral("ok"));

    const auto loaded = reader.load(kFind);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_FALSE(loaded->request.has_value());
    EXPECT_TRUE(loaded->env.has_value());
    EXPECT_FALSE(loaded->snapshot.has_value());
    QStringList steps;
    for (const auto& step : loaded->trace)
        steps.append(step.step);
    EXPECT_EQ(steps, (QStringList{QStringLiteral("start"), QStringLiteral("snapshot"), QStringLiteral("answer"),
                                  QStringLiteral("late")}));
    QStringList files;
    for (const auto& problem : loaded->problems)
        files.append(problem.file);
    files.sort();
    EXPECT_EQ(files,
              (QStringList{Layout::axTreeFile(), Layout::requestFile(), Layout::traceFile(), Layout::traceFile()}));

    const auto tree = reader.snapshot(loaded->info);
    ASSERT_FALSE(tree.ok());
    EXPECT_EQ(tree.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("malformed")));
    EXPECT_EQ(tree.error().details.value(QStringLiteral("file")), QJsonValue(Layout::axTreeFile()));
    EXPECT_TRUE(tree.error().message.startsWith(QStringLiteral("ax.json: "))) << tree.error().message.toStdString();
}

TEST_F(EvidenceReaderTest, WhatIsNotAnExecutionIsSkipped)
{
    answered(kFind, QStringLiteral("desktop.find"), utc(9, 12, 0), QStringLiteral("ok"));
    const QString day = Layout::artifactsRoot() + QStringLiteral("/2026-02-09/");
    ASSERT_TRUE(QDir(m_workspace).mkpath(day + QStringLiteral("empty")));
    writeAll(ws(day + QStringLiteral("notes/readme.txt")), "not evidence");
    writeAll(ws(day + QStringLiteral("stray.json")), "{}");
    writeAll(ws(Layout::artifactsRoot() + QStringLiteral("/misc/") + kClick + QStringLiteral("/request.json")), "{}");
    writeAll(ws(Layout::artifactsRoot() + QStringLiteral("/2026-02-31/") + kClick + QStringLiteral("/request.json")),
             "{}");
    writeAll(ws(Layout::artifactsRoot() + QStringLiteral("/README")), "hello");

    const EvidenceReader reader(m_workspace);
    const auto listing = reader.list();
    ASSERT_TRUE(listing.ok());
    ASSERT_EQ(listing->executions.size(), 1);
    EXPECT_EQ(listing->executions.at(0).executionId, kFind);
    QStringList skipped;
    for (const auto& entry : listing->skipped)
        skipped.append(entry.relativePath + QStringLiteral(" ") + entry.reason);
    skipped.sort();
    EXPECT_EQ(skipped, (QStringList{QStringLiteral("artifacts/desktop/2026-02-09/empty not_an_execution"),
                                    QStringLiteral("artifacts/desktop/2026-02-09/notes not_an_execution"),
                                    QStringLiteral("artifacts/desktop/2026-02-09/stray.json not_a_directory"),
                                    QStringLiteral("artifacts/desktop/2026-02-31 not_a_date_folder"),
                                    QStringLiteral("artifacts/desktop/README not_a_date_folder"),
                                    QStringLiteral("artifacts/desktop/misc not_a_date_folder")}));

    const auto notes = reader.load(QStringLiteral("notes"));
    ASSERT_FALSE(notes.ok());
    EXPECT_EQ(notes.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("not_an_execution")));
    const auto unknown = reader.load(kObserve);
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("not_found")));
    for (const QString& bad : QStringList{QString(), QStringLiteral(".."), QStringLiteral("../") + kFind,
                                          QStringLiteral("2026-02-09/") + kFind}) {
        const auto refused = reader.find(bad);
        ASSERT_FALSE(refused.ok()) << bad.toStdString();
        EXPECT_EQ(refused.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("invalid_id")));
    }
    // A description that did not come from this reader is checked too.
    ExecutionInfo forged;
    forged.relativeDir = QStringLiteral("artifacts/desktop/../../..");
    EXPECT_FALSE(reader.load(forged).ok());
}

TEST_F(EvidenceReaderTest, NoEvidenceYetIsAnEmptyListAndNoWorkspaceAnError)
{
    const auto empty = EvidenceReader(m_workspace).list();
    ASSERT_TRUE(empty.ok());
    EXPECT_TRUE(empty->executions.isEmpty());
    EXPECT_TRUE(empty->skipped.isEmpty());

    const EvidenceReader missing(ws(QStringLiteral("missing")));
    EXPECT_TRUE(missing.workspace().isEmpty());
    const auto refused = missing.list();
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("not_found")));
}

TEST_F(EvidenceReaderTest, SymlinksAreNeverFollowed)
{
    // A complete execution outside the workspace, and links to it planted at every level.
    answered(kObserve, QStringLiteral("desktop.observe"), utc(9, 9, 0), QStringLiteral("ok"), m_other);
    const QString outsideDay = m_other + QStringLiteral("/artifacts/desktop/2026-02-09");
    const auto inside = answered(kFind, QStringLiteral("desktop.find"), utc(9, 12, 0), QStringLiteral("ok"));
    const QString day = ws(Layout::artifactsRoot() + QStringLiteral("/2026-02-09/"));
    ASSERT_TRUE(QFile::link(outsideDay + QLatin1Char('/') + kObserve, day + kClick));
    ASSERT_TRUE(QFile::link(outsideDay, ws(Layout::artifactsRoot() + QStringLiteral("/2026-02-08"))));
    ASSERT_TRUE(QFile::remove(inside->dirPath() + Layout::axTreeFile()));
    ASSERT_TRUE(QFile::link(outsideDay + QLatin1Char('/') + kObserve + QStringLiteral("/ax.json"),
                            inside->dirPath() + Layout::axTreeFile()));

    const EvidenceReader reader(m_workspace);
    const auto listing = reader.list();
    ASSERT_TRUE(listing.ok());
    ASSERT_EQ(listing->executions.size(), 1);
    EXPECT_EQ(listing->executions.at(0).executionId, kFind);
    QStringList skipped;
    for (const auto& entry : listing->skipped)
        skipped.append(entry.relativePath + QStringLiteral(" ") + entry.reason);
    skipped.sort();
    EXPECT_EQ(skipped,
              (QStringList{QStringLiteral("artifacts/desktop/2026-02-08 symlink"),
                           QStringLiteral("artifacts/desktop/2026-02-09/") + kClick + QStringLiteral(" symlink")}));

    const auto linked = reader.load(kClick);
    ASSERT_FALSE(linked.ok());
    EXPECT_EQ(linked.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("symlink")));

    const auto loaded = reader.load(kFind);
    ASSERT_TRUE(loaded.ok());
    EXPECT_FALSE(loaded->snapshot.has_value());
    EXPECT_FALSE(loaded->artifacts.contains(Layout::axTreeFile()));
    ASSERT_EQ(loaded->problems.size(), 1);
    EXPECT_EQ(loaded->problems.at(0).file, Layout::axTreeFile());
    const auto tree = reader.snapshot(loaded->info);
    ASSERT_FALSE(tree.ok());
    EXPECT_EQ(tree.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("symlink")));

    // A link in place of the whole evidence folder is an error, not an empty list.
    ASSERT_TRUE(QDir(ws(QStringLiteral("artifacts"))).removeRecursively());
    ASSERT_TRUE(QFile::link(m_other + QStringLiteral("/artifacts"), ws(QStringLiteral("artifacts"))));
    const auto refused = reader.list();
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("symlink")));
}

TEST_F(EvidenceReaderTest, AFifoIsNeverOpenedForReading)
{
    const auto record = answered(kFind, QStringLiteral("desktop.find"), utc(9, 12, 0), QStringLiteral("ok"));
    ASSERT_TRUE(QFile::remove(record->dirPath() + Layout::axTreeFile()));
    ASSERT_EQ(::mkfifo(QFile::encodeName(record->dirPath() + Layout::axTreeFile()).constData(), 0600), 0);
    const EvidenceReader reader(m_workspace);
    const auto loaded = reader.load(kFind); // would block forever if the FIFO were read
    ASSERT_TRUE(loaded.ok());
    EXPECT_FALSE(loaded->snapshot.has_value());
    ASSERT_EQ(loaded->problems.size(), 1);
    EXPECT_EQ(loaded->problems.at(0).file, Layout::axTreeFile());
    const auto tree = reader.snapshot(loaded->info);
    ASSERT_FALSE(tree.ok());
    EXPECT_EQ(tree.error().details.value(QStringLiteral("reason")), QJsonValue(QStringLiteral("unreadable")));
}

} // namespace
