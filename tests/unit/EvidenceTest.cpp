// Evidence::Directory and Evidence::ExecutionRecord: evidence on disk (docs/protocol.md §2, docs/architecture.md
// "Evidence").
#include "UnitTestSupport.h"
#include "bridge/evidence/EvidenceDirectory.h"
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

using Evidence::Directory;
using Evidence::ExecutionRecord;
namespace Layout = Evidence::Layout;
using UnitTest::jsonObject;

namespace {

const QString kId = QStringLiteral("123e4567-e89b-12d3-a456-426614174000");
const QString kRelative = QStringLiteral("artifacts/desktop/2026-02-09/") + kId;

QByteArray readAll(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray("<unreadable>");
    return file.readAll();
}

void writeAll(const QString& path, const QByteArray& data)
{
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    ASSERT_EQ(file.write(data), data.size());
}

/// Every entry below `dir`, hidden ones included, as sorted relative paths; symlinks not followed.
QStringList tree(const QString& dir)
{
    QStringList out;
    const QDir d(dir);
    for (const QFileInfo& entry :
         d.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name)) {
        out.append(entry.fileName());
        if (entry.isDir() && !entry.isSymLink()) {
            for (const QString& child : tree(entry.filePath()))
                out.append(entry.fileName() + QLatin1Char('/') + child);
        }
    }
    out.sort();
    return out;
}

int modeOf(const QString& path)
{
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return static_cast<int>(st.st_mode & 07777);
}

bool isSymlink(const QString& path)
{
    struct stat st
    {
    };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISLNK(st.st_mode);
}

class EvidenceTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_workspaceDir.isValid());
        ASSERT_TRUE(m_otherDir.isValid());
        m_workspace = QFileInfo(m_workspaceDir.path()).canonicalFilePath();
        m_other = QFileInfo(m_otherDir.path()).canonicalFilePath();
        ASSERT_FALSE(m_workspace.isEmpty());
        ASSERT_FALSE(m_other.isEmpty());
    }

    QString ws(const QString& relative) const { return m_workspace + QLatin1Char('/') + relative; }

    std::optional<Directory> openDefault(QString* error) const
    {
        return Directory::open(m_workspace, kRelative, error);
    }

    QTemporaryDir m_workspaceDir;
    QTemporaryDir m_otherDir;
    QString m_workspace;
    QString m_other;
};

// --- Directory::open -----------------------------------------------------------------------------

TEST_F(EvidenceTest, OpenCreatesPrivateDirectories)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    EXPECT_EQ(dir->path(), ws(kRelative) + QLatin1Char('/'));
    EXPECT_TRUE(QFileInfo(ws(kRelative)).isDir());
    for (const QString& created : {QStringLiteral("artifacts"), QStringLiteral("artifacts/desktop"),
                                   QStringLiteral("artifacts/desktop/2026-02-09"), kRelative}) {
        SCOPED_TRACE(created.toStdString());
        EXPECT_EQ(modeOf(ws(created)), 0700);
    }
}

TEST_F(EvidenceTest, OpenIsIdempotentAndKeepsExistingFiles)
{
    QString error;
    const auto first = openDefault(&error);
    ASSERT_TRUE(first.has_value()) << error.toStdString();
    ASSERT_FALSE(first->writeFile(QStringLiteral("a.txt"), "one").has_value());
    const auto second = openDefault(&error);
    ASSERT_TRUE(second.has_value()) << error.toStdString();
    EXPECT_EQ(second->readFile(QStringLiteral("a.txt")), std::optional<QByteArray>(QByteArray("one")));
}

struct PathRow
{
    const char* name;
    const char* path;
    bool plain;

    friend void PrintTo(const PathRow& row, std::ostream* os) { *os << row.name; }
};

class PlainRelativePath : public ::testing::TestWithParam<PathRow>
{
};

TEST_P(PlainRelativePath, Table)
{
    EXPECT_EQ(Evidence::isPlainRelativePath(QString::fromLatin1(GetParam().path)), GetParam().plain);
}

INSTANTIATE_TEST_SUITE_P(Rows, PlainRelativePath,
                         ::testing::Values(PathRow{"Name", "a", true}, PathRow{"Nested", "a/b/c.json", true},
                                           PathRow{"DotFile", ".hidden", true}, PathRow{"DotDotPrefix", "..a", true},
                                           PathRow{"DotInside", "a/.b", true}, PathRow{"Empty", "", false},
                                           PathRow{"Dot", ".", false}, PathRow{"DotDot", "..", false},
                                           PathRow{"DotDotInside", "a/../b", false},
                                           PathRow{"DotDotAtEnd", "a/..", false}, PathRow{"DotFirst", "./a", false},
                                           PathRow{"Absolute", "/abs", false}, PathRow{"DoubleSlash", "a//b", false},
                                           PathRow{"TrailingSlash", "a/", false}, PathRow{"OnlySlash", "/", false}),
                         UnitTest::RowName());

TEST_F(EvidenceTest, OpenRefusesBadPaths)
{
    for (const auto& [workspace, relative] :
         {std::pair{m_workspace, QStringLiteral("../escape")}, std::pair{m_workspace, QStringLiteral("/abs")},
          std::pair{m_workspace, QString()}, std::pair{m_workspace, QStringLiteral("a//b")},
          std::pair{QStringLiteral("relative/ws"), QStringLiteral("artifacts")}}) {
        SCOPED_TRACE(QString(workspace + QStringLiteral(" + ") + relative).toStdString());
        QString error;
        EXPECT_FALSE(Directory::open(workspace, relative, &error).has_value());
        EXPECT_FALSE(error.isEmpty());
    }
    EXPECT_EQ(tree(m_workspace), QStringList());
    EXPECT_EQ(tree(m_other), QStringList());
}

TEST_F(EvidenceTest, OpenRefusesMissingWorkspace)
{
    QString error;
    EXPECT_FALSE(Directory::open(ws(QStringLiteral("missing")), kRelative, &error).has_value());
    EXPECT_FALSE(error.isEmpty());
    EXPECT_FALSE(QFileInfo::exists(ws(QStringLiteral("missing"))));
}

TEST_F(EvidenceTest, PlantedArtifactsSymlinkIsRefused)
{
    ASSERT_TRUE(QFile::link(m_other, ws(QStringLiteral("artifacts"))));
    QString error;
    EXPECT_FALSE(openDefault(&error).has_value());
    EXPECT_TRUE(error.contains(QStringLiteral("symbolic link"))) << error.toStdString();
    EXPECT_EQ(tree(m_other), QStringList()); // nothing was created through the link
}

TEST_F(EvidenceTest, PlantedDeeperSymlinkIsRefused)
{
    ASSERT_TRUE(QDir(m_workspace).mkpath(QStringLiteral("artifacts")));
    ASSERT_TRUE(QFile::link(m_other, ws(QStringLiteral("artifacts/desktop"))));
    QString error;
    EXPECT_FALSE(openDefault(&error).has_value());
    EXPECT_TRUE(error.contains(QStringLiteral("symbolic link"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("artifacts/desktop"))) << error.toStdString();
    EXPECT_EQ(tree(m_other), QStringList());
}

TEST_F(EvidenceTest, PlantedDanglingSymlinkIsRefused)
{
    // A dangling link must not be "created" through either: mkdir would make the target.
    ASSERT_TRUE(QFile::link(m_other + QStringLiteral("/made-by-host"), ws(QStringLiteral("artifacts"))));
    QString error;
    EXPECT_FALSE(openDefault(&error).has_value());
    EXPECT_TRUE(error.contains(QStringLiteral("symbolic link"))) << error.toStdString();
    EXPECT_EQ(tree(m_other), QStringList());
}

TEST_F(EvidenceTest, SymlinkInWorkspacePathIsRefused)
{
    ASSERT_TRUE(QDir(m_workspace).mkpath(QStringLiteral("real")));
    ASSERT_TRUE(QFile::link(ws(QStringLiteral("real")), ws(QStringLiteral("link"))));
    QString error;
    EXPECT_FALSE(Directory::open(ws(QStringLiteral("link")), kRelative, &error).has_value());
    EXPECT_TRUE(error.contains(QStringLiteral("symbolic link"))) << error.toStdString();
    EXPECT_EQ(tree(ws(QStringLiteral("real"))), QStringList());
}

TEST_F(EvidenceTest, FileInPlaceOfDirectoryIsRefused)
{
    ASSERT_TRUE(QDir(m_workspace).mkpath(QStringLiteral("artifacts")));
    writeAll(ws(QStringLiteral("artifacts/desktop")), "not a dir");
    QString error;
    EXPECT_FALSE(openDefault(&error).has_value());
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(readAll(ws(QStringLiteral("artifacts/desktop"))), QByteArray("not a dir"));
}

// --- Directory::writeFile ------------------------------------------------------------------------

TEST_F(EvidenceTest, WriteFileIsExactAndLeavesNoTemporaries)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    const QByteArray data("{\"a\":1}\n\0binary\xff", 16);
    ASSERT_FALSE(dir->writeFile(QStringLiteral("request.json"), data).has_value());
    EXPECT_EQ(readAll(dir->path() + QStringLiteral("request.json")), data);
    EXPECT_EQ(modeOf(dir->path() + QStringLiteral("request.json")), 0600);
    EXPECT_EQ(tree(dir->path()), QStringList{QStringLiteral("request.json")});

    // Replacing is atomic too: the new content, still one file.
    ASSERT_FALSE(dir->writeFile(QStringLiteral("request.json"), "second").has_value());
    EXPECT_EQ(readAll(dir->path() + QStringLiteral("request.json")), QByteArray("second"));
    ASSERT_FALSE(dir->writeFile(QStringLiteral("empty.txt"), QByteArray()).has_value());
    EXPECT_EQ(readAll(dir->path() + QStringLiteral("empty.txt")), QByteArray());
    EXPECT_EQ(tree(dir->path()), (QStringList{QStringLiteral("empty.txt"), QStringLiteral("request.json")}));
}

TEST_F(EvidenceTest, WriteFileNested)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    ASSERT_FALSE(dir->writeFile(QStringLiteral("selectors/candidates.json"), "[]").has_value());
    ASSERT_FALSE(dir->writeFile(QStringLiteral("selectors/deep/more.json"), "{}").has_value());
    EXPECT_EQ(readAll(dir->path() + QStringLiteral("selectors/candidates.json")), QByteArray("[]"));
    EXPECT_EQ(modeOf(dir->path() + QStringLiteral("selectors")), 0700);
    EXPECT_EQ(tree(dir->path()),
              (QStringList{QStringLiteral("selectors"), QStringLiteral("selectors/candidates.json"),
                           QStringLiteral("selectors/deep"), QStringLiteral("selectors/deep/more.json")}));
    EXPECT_EQ(dir->readFile(QStringLiteral("selectors/deep/more.json")), std::optional<QByteArray>(QByteArray("{}")));
}

TEST_F(EvidenceTest, WriteFileRefusesBadNames)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    for (const QString& name : {QStringLiteral("../escape.json"), QStringLiteral("/etc/passwd"), QString(),
                                QStringLiteral("a/../../b"), QStringLiteral("dir/")}) {
        SCOPED_TRACE(name.toStdString());
        EXPECT_TRUE(dir->writeFile(name, "x").has_value());
    }
    EXPECT_EQ(tree(dir->path()), QStringList());
    EXPECT_FALSE(QFileInfo::exists(ws(QStringLiteral("artifacts/desktop/2026-02-09/escape.json"))));
}

TEST_F(EvidenceTest, WriteFileOntoADirectoryFailsCleanly)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    ASSERT_TRUE(QDir(dir->path()).mkdir(QStringLiteral("occupied")));
    const auto failed = dir->writeFile(QStringLiteral("occupied"), "x");
    ASSERT_TRUE(failed.has_value());
    EXPECT_TRUE(failed->contains(QStringLiteral("occupied"))) << failed->toStdString();
    EXPECT_EQ(tree(dir->path()), QStringList{QStringLiteral("occupied")}); // no temp file left behind
}

TEST_F(EvidenceTest, WriteFileNeverWritesThroughSymlinkedFile)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    const QString target = m_other + QStringLiteral("/victim.txt");
    writeAll(target, "original");
    const QString link = dir->path() + QStringLiteral("response.json");
    ASSERT_TRUE(QFile::link(target, link));

    const auto result = dir->writeFile(QStringLiteral("response.json"), "evidence");
    EXPECT_EQ(readAll(target), QByteArray("original"));
    if (!result.has_value()) {
        // It replaced the link itself.
        EXPECT_FALSE(isSymlink(link));
        EXPECT_EQ(readAll(link), QByteArray("evidence"));
    } else {
        EXPECT_TRUE(isSymlink(link));
    }
    EXPECT_EQ(tree(m_other), QStringList{QStringLiteral("victim.txt")});
}

TEST_F(EvidenceTest, WriteFileNeverFollowsSymlinkedSubdirectory)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    ASSERT_TRUE(QFile::link(m_other, dir->path() + QStringLiteral("selectors")));
    const auto failed = dir->writeFile(QStringLiteral("selectors/candidates.json"), "[]");
    ASSERT_TRUE(failed.has_value());
    EXPECT_TRUE(failed->contains(QStringLiteral("symbolic link"))) << failed->toStdString();
    EXPECT_EQ(tree(m_other), QStringList());
}

TEST_F(EvidenceTest, ReadFileDoesNotFollowSymlinks)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    writeAll(m_other + QStringLiteral("/secret.txt"), "secret");
    ASSERT_TRUE(QFile::link(m_other + QStringLiteral("/secret.txt"), dir->path() + QStringLiteral("leak.txt")));
    ASSERT_TRUE(QFile::link(m_other, dir->path() + QStringLiteral("leakdir")));
    EXPECT_FALSE(dir->readFile(QStringLiteral("leak.txt")).has_value());
    EXPECT_FALSE(dir->readFile(QStringLiteral("leakdir/secret.txt")).has_value());
    EXPECT_FALSE(dir->readFile(QStringLiteral("missing.txt")).has_value());
    EXPECT_FALSE(dir->readFile(QStringLiteral("../x")).has_value());

    ASSERT_FALSE(dir->writeFile(QStringLiteral("big.bin"), QByteArray(100, 'x')).has_value());
    EXPECT_EQ(dir->readFile(QStringLiteral("big.bin"), 100), std::optional<QByteArray>(QByteArray(100, 'x')));
    EXPECT_FALSE(dir->readFile(QStringLiteral("big.bin"), 99).has_value());
}

// --- reading: openExisting, entries, subdirectory, readPart --------------------------------------

TEST_F(EvidenceTest, OpenExistingCreatesNothing)
{
    QString error;
    EXPECT_FALSE(Directory::openExisting(m_workspace, kRelative, &error).has_value());
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(tree(m_workspace), QStringList());
    ASSERT_TRUE(openDefault(&error).has_value());
    const auto existing = Directory::openExisting(m_workspace, kRelative, &error);
    ASSERT_TRUE(existing.has_value()) << error.toStdString();
    EXPECT_EQ(existing->path(), ws(kRelative) + QLatin1Char('/'));

    ASSERT_TRUE(QDir(ws(QStringLiteral("artifacts"))).removeRecursively());
    ASSERT_TRUE(QFile::link(m_other, ws(QStringLiteral("artifacts"))));
    ASSERT_TRUE(QDir(m_other).mkpath(QStringLiteral("desktop")));
    EXPECT_FALSE(Directory::openExisting(m_workspace, QStringLiteral("artifacts/desktop"), &error).has_value());
    EXPECT_TRUE(error.contains(QStringLiteral("symbolic link"))) << error.toStdString();
}

TEST_F(EvidenceTest, EntriesReportLinksWithoutFollowingThem)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    ASSERT_FALSE(dir->writeFile(QStringLiteral("b.json"), "12345").has_value());
    ASSERT_FALSE(dir->writeFile(QStringLiteral("sub/c.json"), "{}").has_value());
    ASSERT_TRUE(QFile::link(m_other, dir->path() + QStringLiteral("a-link")));
    ASSERT_EQ(::mkfifo(QFile::encodeName(dir->path() + QStringLiteral("fifo")).constData(), 0600), 0);

    const auto entries = dir->entries();
    QStringList seen;
    for (const auto& entry : entries)
        seen.append(entry.name + QLatin1Char(':') + QString::number(static_cast<int>(entry.type)));
    EXPECT_EQ(seen, (QStringList{QStringLiteral("a-link:2"), QStringLiteral("b.json:0"), QStringLiteral("fifo:3"),
                                 QStringLiteral("sub:1")}));
    EXPECT_EQ(entries.at(1).size, 5);
    EXPECT_TRUE(entries.at(1).modified.isValid());
    EXPECT_EQ(dir->entries().size(), 4); // listing twice gives everything again

    const auto sub = dir->subdirectory(QStringLiteral("sub"), &error);
    ASSERT_TRUE(sub.has_value()) << error.toStdString();
    EXPECT_EQ(sub->path(), dir->path() + QStringLiteral("sub/"));
    EXPECT_EQ(sub->entries().size(), 1);
    EXPECT_FALSE(dir->subdirectory(QStringLiteral("a-link"), &error).has_value());
    EXPECT_TRUE(error.contains(QStringLiteral("symbolic link"))) << error.toStdString();
    for (const QString& bad : {QStringLiteral("missing"), QStringLiteral(".."), QStringLiteral("sub/..")})
        EXPECT_FALSE(dir->subdirectory(bad, &error).has_value()) << bad.toStdString();
}

TEST_F(EvidenceTest, ReadPartReadsHeadsAndTailsOfRegularFilesOnly)
{
    QString error;
    const auto dir = openDefault(&error);
    ASSERT_TRUE(dir.has_value()) << error.toStdString();
    ASSERT_FALSE(dir->writeFile(QStringLiteral("trace.jsonl"), "0123456789").has_value());
    bool truncated = true;
    EXPECT_EQ(dir->readPart(QStringLiteral("trace.jsonl"), 0, 100, &error, &truncated),
              std::optional<QByteArray>("0123456789"));
    EXPECT_FALSE(truncated);
    EXPECT_EQ(dir->readPart(QStringLiteral("trace.jsonl"), 0, 10, &error, &truncated),
              std::optional<QByteArray>("0123456789"));
    EXPECT_FALSE(truncated);
    EXPECT_EQ(dir->readPart(QStringLiteral("trace.jsonl"), 0, 4, &error, &truncated),
              std::optional<QByteArray>("0123"));
    EXPECT_TRUE(truncated);
    EXPECT_EQ(dir->readPart(QStringLiteral("trace.jsonl"), -1, 4, &error, &truncated),
              std::optional<QByteArray>("6789"));
    EXPECT_TRUE(truncated);
    EXPECT_EQ(dir->readPart(QStringLiteral("trace.jsonl"), 3, 4, &error, &truncated),
              std::optional<QByteArray>("3456"));
    EXPECT_TRUE(truncated);

    writeAll(m_other + QStringLiteral("/secret.txt"), "secret");
    ASSERT_TRUE(QFile::link(m_other + QStringLiteral("/secret.txt"), dir->path() + QStringLiteral("leak.txt")));
    ASSERT_TRUE(QFile::link(m_other, dir->path() + QStringLiteral("leakdir")));
    EXPECT_FALSE(dir->readPart(QStringLiteral("leak.txt"), 0, 100, &error).has_value());
    EXPECT_TRUE(error.contains(QStringLiteral("symbolic link"))) << error.toStdString();
    EXPECT_FALSE(dir->readPart(QStringLiteral("leakdir/secret.txt"), 0, 100, &error).has_value());
    EXPECT_TRUE(error.contains(QStringLiteral("symbolic link"))) << error.toStdString();
    EXPECT_FALSE(dir->readPart(QStringLiteral("../x"), 0, 100, &error).has_value());
    EXPECT_FALSE(dir->readPart(QStringLiteral("missing"), 0, 100, &error).has_value());
    EXPECT_FALSE(error.isEmpty());
    // A FIFO would block a plain read until some writer came.
    ASSERT_EQ(::mkfifo(QFile::encodeName(dir->path() + QStringLiteral("fifo")).constData(), 0600), 0);
    EXPECT_FALSE(dir->readPart(QStringLiteral("fifo"), 0, 100, &error).has_value());
    EXPECT_TRUE(error.contains(QStringLiteral("not a regular file"))) << error.toStdString();
}

// --- ExecutionRecord -----------------------------------------------------------------------------

TEST(ExecutionRecordDir, RelativeDirUsesUtcDate)
{
    // 01:00 on the 10th at UTC+3 is 22:00 on the 9th in UTC.
    const QDateTime east(QDate(2026, 2, 10), QTime(1, 0), QTimeZone(3 * 3600));
    EXPECT_EQ(ExecutionRecord::relativeDirFor(east, QStringLiteral("id")),
              QStringLiteral("artifacts/desktop/2026-02-09/id"));
    // 22:00 on the 9th at UTC-5 is 03:00 on the 10th in UTC.
    const QDateTime west(QDate(2026, 2, 9), QTime(22, 0), QTimeZone(-5 * 3600));
    EXPECT_EQ(ExecutionRecord::relativeDirFor(west, QStringLiteral("id")),
              QStringLiteral("artifacts/desktop/2026-02-10/id"));
    const QDateTime utc(QDate(2026, 12, 31), QTime(23, 59, 59), QTimeZone::utc());
    EXPECT_EQ(ExecutionRecord::relativeDirFor(utc, kId), QStringLiteral("artifacts/desktop/2026-12-31/") + kId);
}

// Every name the host writes, pinned: the layout header must not change a byte of the evidence.
TEST(EvidenceLayout, NamesAreTheOnesOnDisk)
{
    EXPECT_EQ(Layout::artifactsRoot(), QStringLiteral("artifacts/desktop"));
    EXPECT_EQ(Layout::requestFile(), QStringLiteral("request.json"));
    EXPECT_EQ(Layout::envFile(), QStringLiteral("env.json"));
    EXPECT_EQ(Layout::traceFile(), QStringLiteral("trace.jsonl"));
    EXPECT_EQ(Layout::responseFile(), QStringLiteral("response.json"));
    EXPECT_EQ(Layout::summaryFile(), QStringLiteral("summary.md"));
    EXPECT_EQ(Layout::axTreeFile(), QStringLiteral("ax.json"));
    EXPECT_EQ(Layout::selectorsFolder(), QStringLiteral("selectors"));
    EXPECT_EQ(Layout::candidatesFile(), QStringLiteral("selectors/candidates.json"));
    EXPECT_EQ(Layout::observeScreenshot(), QStringLiteral("observe.png"));
    EXPECT_EQ(Layout::beforeScreenshot(), QStringLiteral("before.png"));
    EXPECT_EQ(Layout::afterScreenshot(), QStringLiteral("after.png"));
    EXPECT_EQ(Layout::journalFile(), QStringLiteral("open-executions.txt"));
    EXPECT_EQ(Layout::answerStep(), QStringLiteral("answer"));
    EXPECT_EQ(Layout::interruptedStep(), QStringLiteral("interrupted"));
    // The date is the UTC one: 23:30 in UTC-5 is the next day.
    const QDateTime lateInNewYork(QDate(2026, 2, 9), QTime(23, 30), QTimeZone(-5 * 3600));
    EXPECT_EQ(Layout::dateFolder(lateInNewYork), QStringLiteral("2026-02-10"));
    EXPECT_EQ(Layout::relativeDir(lateInNewYork, kId), QStringLiteral("artifacts/desktop/2026-02-10/") + kId);
    EXPECT_EQ(ExecutionRecord::relativeDirFor(lateInNewYork, kId), Layout::relativeDir(lateInNewYork, kId));
    EXPECT_EQ(Layout::dateOfFolder(QStringLiteral("2026-02-10")), std::optional<QDate>(QDate(2026, 2, 10)));
    for (const char* bad : {"2026-2-10", "2026-02-30", "20260210", "2026-02-10x", "", "latest"})
        EXPECT_FALSE(Layout::dateOfFolder(QString::fromLatin1(bad)).has_value()) << bad;
    EXPECT_EQ(Layout::temporaryName("ax.json", 0xbeef), QByteArray(".ax.json.tmp-beef"));
    EXPECT_TRUE(Layout::isTemporaryName(QByteArray(".ax.json.tmp-beef")));
    EXPECT_TRUE(Layout::isTemporaryName(QStringLiteral(".ax.json.tmp-beef")));
    EXPECT_FALSE(Layout::isTemporaryName(QStringLiteral("ax.json")));
}

class ExecutionRecordTest : public EvidenceTest
{
protected:
    const QDateTime m_receivedAt{QDate(2026, 2, 9), QTime(12, 0, 0), QTimeZone::utc()};
    const QJsonObject m_request = jsonObject(
        R"({"jsonrpc":"2.0","id":"r1","method":"desktop.find","params":{"selector":{"byRole":"AXButton"}}})");
    const QJsonObject m_env = jsonObject(R"({"os":"Debian 12","hostVersion":"0.1.0",
        "peer":{"pid":4242,"executable":"/usr/bin/msgcode"}})");

    std::unique_ptr<ExecutionRecord> makeRecord(const QString& workspace) const
    {
        return std::make_unique<ExecutionRecord>(kId, QStringLiteral("desktop.find"), workspace, m_request, m_env,
                                                 m_receivedAt);
    }

    static QList<QJsonObject> traceLines(const QString& path)
    {
        QList<QJsonObject> out;
        const QByteArray bytes = readAll(path);
        EXPECT_TRUE(bytes.endsWith('\n'));
        for (const QByteArray& line : bytes.split('\n')) {
            if (line.isEmpty())
                continue;
            QJsonParseError error{};
            const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
            EXPECT_EQ(error.error, QJsonParseError::NoError) << line.toStdString();
            EXPECT_TRUE(doc.isObject());
            out.append(doc.object());
        }
        return out;
    }
};

TEST_F(ExecutionRecordTest, PathsBeforeOpen)
{
    const auto record = makeRecord(m_workspace);
    EXPECT_EQ(record->executionId(), kId);
    EXPECT_EQ(record->method(), QStringLiteral("desktop.find"));
    EXPECT_EQ(record->receivedAt(), m_receivedAt);
    EXPECT_EQ(record->dirPath(), ws(kRelative) + QLatin1Char('/'));
    // Nothing exists until the record is opened.
    EXPECT_EQ(tree(m_workspace), QStringList());

    const auto slashed = makeRecord(m_workspace + QLatin1Char('/'));
    EXPECT_EQ(slashed->dirPath(), ws(kRelative) + QLatin1Char('/'));
}

TEST_F(ExecutionRecordTest, OpenWritesRequestAndEnv)
{
    const auto record = makeRecord(m_workspace);
    ASSERT_FALSE(record->open().has_value());
    ASSERT_FALSE(record->open().has_value()); // idempotent
    EXPECT_EQ(QJsonDocument::fromJson(readAll(record->dirPath() + Layout::requestFile())).object(), m_request);
    EXPECT_EQ(QJsonDocument::fromJson(readAll(record->dirPath() + Layout::envFile())).object(), m_env);
    EXPECT_EQ(record->artifacts(), (QStringList{Layout::requestFile(), Layout::envFile()}));
    EXPECT_EQ(tree(record->dirPath()), (QStringList{Layout::envFile(), Layout::requestFile()}));
}

TEST_F(ExecutionRecordTest, TraceIsOnDiskAsTheExecutionProceeds)
{
    // A host killed mid-execution must leave evidence of how far it got: every step is on
    // disk when trace() returns, not only when the answer leaves.
    const auto record = makeRecord(m_workspace);
    record->trace(QStringLiteral("queued"), 0, true);
    ASSERT_FALSE(record->open().has_value());
    record->trace(QStringLiteral("start"), 0, true);
    {
        ExecutionRecord::Step step(*record, QStringLiteral("route.resolve"));
        step.finish(true, QJsonObject{{QStringLiteral("pid"), 42}});
    }
    const QList<QJsonObject> lines = traceLines(record->dirPath() + Layout::traceFile());
    ASSERT_EQ(lines.size(), 3);
    EXPECT_EQ(lines.at(0).value(QStringLiteral("step")).toString(), QStringLiteral("queued"));
    EXPECT_EQ(lines.at(1).value(QStringLiteral("step")).toString(), QStringLiteral("start"));
    EXPECT_EQ(lines.at(2).value(QStringLiteral("step")).toString(), QStringLiteral("route.resolve"));
    EXPECT_FALSE(QFile::exists(record->dirPath() + Layout::responseFile()));
    // The answer then rewrites the whole trace once, with the answer's own line.
    ASSERT_FALSE(
        record->finalize(QJsonObject{{QStringLiteral("result"), QJsonObject()}}, QStringLiteral("ok"), QString())
            .has_value());
    EXPECT_EQ(traceLines(record->dirPath() + Layout::traceFile()).size(), 4);
}

TEST_F(ExecutionRecordTest, ExecutionsLeftOpenByAKilledHostAreMarkedInterrupted)
{
    QTemporaryDir dataHome;
    const QString dataDir = dataHome.path();
    auto journal = std::make_shared<Evidence::Journal>(dataDir);
    // One execution answered, one was cut off in the middle of writing a large artifact.
    auto done = std::make_unique<ExecutionRecord>(QStringLiteral("done-1"), QStringLiteral("desktop.find"), m_workspace,
                                                  m_request, m_env, m_receivedAt);
    done->setJournal(journal);
    ASSERT_FALSE(done->open().has_value());
    ASSERT_FALSE(done->finalize(QJsonObject(), QStringLiteral("ok"), QString()).has_value());
    const auto cut = makeRecord(m_workspace);
    cut->setJournal(journal);
    ASSERT_FALSE(cut->open().has_value());
    cut->trace(QStringLiteral("start"), 0, true);
    QFile leftover(cut->dirPath() + QStringLiteral(".ax.json.tmp-5f3a"));
    ASSERT_TRUE(leftover.open(QIODevice::WriteOnly));
    leftover.write(QByteArray(1024, 'x'));
    leftover.close();
    const QByteArray doneSummary = readAll(done->dirPath() + Layout::summaryFile());

    // The next host.
    const auto recovery = Evidence::Journal(dataDir).recover();
    EXPECT_EQ(recovery.interrupted, 1);
    EXPECT_EQ(recovery.temporariesRemoved, 1);
    EXPECT_FALSE(QFile::exists(leftover.fileName()));
    const QList<QJsonObject> lines = traceLines(cut->dirPath() + Layout::traceFile());
    ASSERT_FALSE(lines.isEmpty());
    EXPECT_EQ(lines.last().value(QStringLiteral("step")).toString(), QStringLiteral("interrupted"));
    EXPECT_TRUE(readAll(cut->dirPath() + Layout::summaryFile()).contains("Interrupted"));
    // The finished one is left as it was; and a second recovery finds nothing left to do.
    EXPECT_EQ(readAll(done->dirPath() + Layout::summaryFile()), doneSummary);
    EXPECT_EQ(Evidence::Journal(dataDir).recover().interrupted, 0);
}

TEST_F(ExecutionRecordTest, FinalizeWritesResponseTraceAndSummary)
{
    const auto record = makeRecord(m_workspace);
    ASSERT_FALSE(record->open().has_value());
    record->trace(QStringLiteral("resolveRoute"), 12, true, QJsonObject{{QStringLiteral("pid"), 4242}});
    {
        ExecutionRecord::Step step(*record, QStringLiteral("snapshot"));
        step.finish(true, QJsonObject{{QStringLiteral("nodes"), 3}});
        step.finish(false); // only the first finish counts
    }
    {
        ExecutionRecord::Step abandoned(*record, QStringLiteral("match"));
    } // destroyed unfinished: recorded as failed
    ASSERT_FALSE(record->writeArtifact(Layout::candidatesFile(), "{\"matched\":1}").has_value());

    const QJsonObject response = jsonObject(R"({"jsonrpc":"2.0","id":"r1","result":{"matched":1}})");
    ASSERT_FALSE(record->finalize(response, QStringLiteral("ok"), QString()).has_value());

    EXPECT_EQ(QJsonDocument::fromJson(readAll(record->dirPath() + Layout::responseFile())).object(), response);
    EXPECT_EQ(readAll(record->dirPath() + Layout::candidatesFile()), QByteArray("{\"matched\":1}"));

    const QList<QJsonObject> lines = traceLines(record->dirPath() + Layout::traceFile());
    ASSERT_EQ(lines.size(), 4);
    QStringList steps;
    for (const QJsonObject& line : lines) {
        steps.append(line.value(QStringLiteral("step")).toString());
        EXPECT_TRUE(line.value(QStringLiteral("ms")).isDouble());
        EXPECT_GE(line.value(QStringLiteral("ms")).toDouble(), 0);
        EXPECT_TRUE(line.value(QStringLiteral("ok")).isBool());
        EXPECT_TRUE(line.value(QStringLiteral("sinceStartMs")).isDouble());
    }
    EXPECT_EQ(steps, (QStringList{QStringLiteral("resolveRoute"), QStringLiteral("snapshot"), QStringLiteral("match"),
                                  QStringLiteral("answer")}));
    EXPECT_EQ(lines.at(0).value(QStringLiteral("ms")), QJsonValue(12));
    EXPECT_EQ(lines.at(0).value(QStringLiteral("ok")), QJsonValue(true));
    EXPECT_EQ(lines.at(0).value(QStringLiteral("details")), QJsonValue(jsonObject(R"({"pid":4242})")));
    EXPECT_EQ(lines.at(1).value(QStringLiteral("ok")), QJsonValue(true));
    EXPECT_EQ(lines.at(1).value(QStringLiteral("details")), QJsonValue(jsonObject(R"({"nodes":3})")));
    EXPECT_EQ(lines.at(2).value(QStringLiteral("ok")), QJsonValue(false));
    EXPECT_FALSE(lines.at(2).contains(QStringLiteral("details")));
    EXPECT_EQ(lines.at(3).value(QStringLiteral("ok")), QJsonValue(true));
    EXPECT_EQ(lines.at(3).value(QStringLiteral("details")), QJsonValue(jsonObject(R"({"outcome":"ok"})")));

    const QString summary = QString::fromUtf8(readAll(record->dirPath() + Layout::summaryFile()));
    EXPECT_TRUE(summary.contains(QStringLiteral("desktop.find"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(kId)) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral(": ok\n"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("pid 4242"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("`selectors/candidates.json`"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("| resolveRoute | 12 | yes |"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("| answer | 0 | yes |"))) << summary.toStdString();

    EXPECT_EQ(record->artifacts(), (QStringList{Layout::requestFile(), Layout::envFile(), Layout::candidatesFile(),
                                                Layout::responseFile(), Layout::traceFile(), Layout::summaryFile()}));
    EXPECT_EQ(tree(record->dirPath()),
              (QStringList{Layout::envFile(), Layout::requestFile(), Layout::responseFile(), Layout::selectorsFolder(),
                           Layout::candidatesFile(), Layout::summaryFile(), Layout::traceFile()}));
}

TEST_F(ExecutionRecordTest, FinalizeWithErrorWithoutOpen)
{
    const auto record = makeRecord(m_workspace);
    const QJsonObject response = jsonObject(R"({"jsonrpc":"2.0","id":"r1","error":{"code":"DESKTOP_TIMEOUT",
        "message":"late","retryable":true,"details":{}}})");
    ASSERT_FALSE(record->finalize(response, QStringLiteral("DESKTOP_TIMEOUT"), QStringLiteral("timed out after 5 ms"))
                     .has_value());
    // finalize opens the record itself, so request.json and env.json are there too.
    EXPECT_EQ(tree(record->dirPath()), (QStringList{Layout::envFile(), Layout::requestFile(), Layout::responseFile(),
                                                    Layout::summaryFile(), Layout::traceFile()}));
    const QList<QJsonObject> lines = traceLines(record->dirPath() + Layout::traceFile());
    ASSERT_EQ(lines.size(), 1);
    EXPECT_EQ(lines.at(0).value(QStringLiteral("step")), QJsonValue(QStringLiteral("answer")));
    EXPECT_EQ(lines.at(0).value(QStringLiteral("ok")), QJsonValue(false));
    EXPECT_EQ(lines.at(0).value(QStringLiteral("details")), QJsonValue(jsonObject(R"({"outcome":"DESKTOP_TIMEOUT"})")));
    const QString summary = QString::fromUtf8(readAll(record->dirPath() + Layout::summaryFile()));
    EXPECT_TRUE(summary.contains(QStringLiteral("DESKTOP_TIMEOUT"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("timed out after 5 ms"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(kId));
}

TEST_F(ExecutionRecordTest, RewriteTraceAddsLateSteps)
{
    const auto record = makeRecord(m_workspace);
    ASSERT_FALSE(record->finalize(QJsonObject{}, QStringLiteral("ok"), QString()).has_value());
    record->trace(QStringLiteral("lateBackendReturn"), 7, false);
    ASSERT_FALSE(record->rewriteTrace().has_value());
    const QList<QJsonObject> lines = traceLines(record->dirPath() + Layout::traceFile());
    ASSERT_EQ(lines.size(), 2);
    EXPECT_EQ(lines.at(0).value(QStringLiteral("step")), QJsonValue(QStringLiteral("answer")));
    EXPECT_EQ(lines.at(1).value(QStringLiteral("step")), QJsonValue(QStringLiteral("lateBackendReturn")));
    EXPECT_EQ(lines.at(1).value(QStringLiteral("ms")), QJsonValue(7));
}

TEST_F(ExecutionRecordTest, PlantedSymlinkFailsEveryWrite)
{
    ASSERT_TRUE(QFile::link(m_other, ws(QStringLiteral("artifacts"))));
    const auto record = makeRecord(m_workspace);
    const auto opened = record->open();
    ASSERT_TRUE(opened.has_value());
    EXPECT_TRUE(opened->contains(QStringLiteral("symbolic link"))) << opened->toStdString();
    EXPECT_TRUE(record->writeArtifact(Layout::axTreeFile(), "{}").has_value());
    const auto finalized = record->finalize(QJsonObject{}, QStringLiteral("ok"), QString());
    ASSERT_TRUE(finalized.has_value());
    EXPECT_EQ(*finalized, *opened);
    EXPECT_TRUE(record->artifacts().isEmpty());
    EXPECT_EQ(tree(m_other), QStringList());
}

} // namespace
