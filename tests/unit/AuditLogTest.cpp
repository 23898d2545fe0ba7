// AuditLog: one JSON line per event, the fields the issue names, rotation by size, file modes.
#include "bridge/security/AuditLog.h"
#include "UnitTestSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <sys/stat.h>

using namespace Bridge;

namespace {

QList<QJsonObject> linesOf(const QString& path)
{
    QList<QJsonObject> lines;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return lines;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        EXPECT_EQ(error.error, QJsonParseError::NoError) << line.toStdString();
        lines.append(doc.object());
    }
    return lines;
}

PeerInfo peer()
{
    PeerInfo p;
    p.pid = 1234;
    p.uid = 1000;
    p.executable = QStringLiteral("/usr/bin/msgcode");
    p.auditTokenDigest = QStringLiteral("abcd1234");
    return p;
}

} // namespace

TEST(AuditLog, WritesOneJsonLinePerEventWithTheNamedFields)
{
    QTemporaryDir dir;
    AuditLog log(dir.path() + QStringLiteral("/data"));
    const PeerInfo p = peer();
    const QJsonObject returned =
        log.record(QStringLiteral("token_used"), &p,
                   QJsonObject{{QStringLiteral("method"), QStringLiteral("desktop.click")},
                               {QStringLiteral("paramsDigest"), QStringLiteral("0123456789abcdef")},
                               {QStringLiteral("executionId"), QStringLiteral("e-1")}});
    log.record(QStringLiteral("stop"), nullptr, QJsonObject{{QStringLiteral("via"), QStringLiteral("gui")}});
    log.flush();
    EXPECT_EQ(log.path(), dir.path() + QStringLiteral("/data/audit.jsonl"));
    const auto lines = linesOf(log.path());
    ASSERT_EQ(lines.size(), 2);
    EXPECT_EQ(lines[0], returned);
    EXPECT_EQ(lines[0].value(QStringLiteral("event")).toString(), QStringLiteral("token_used"));
    EXPECT_TRUE(lines[0].value(QStringLiteral("t")).toString().endsWith(QLatin1Char('Z')));
    EXPECT_EQ(lines[0].value(QStringLiteral("peer")).toObject(),
              (QJsonObject{{QStringLiteral("pid"), 1234},
                           {QStringLiteral("exe"), QStringLiteral("/usr/bin/msgcode")},
                           {QStringLiteral("digest"), QStringLiteral("abcd1234")}}));
    EXPECT_EQ(lines[0].value(QStringLiteral("executionId")).toString(), QStringLiteral("e-1"));
    EXPECT_FALSE(lines[1].contains(QStringLiteral("peer")));
    EXPECT_TRUE(log.lastError().isEmpty());
}

TEST(AuditLog, DirectoryAndFileArePrivate)
{
    QTemporaryDir dir;
    AuditLog log(dir.path() + QStringLiteral("/data"));
    log.record(QStringLiteral("resume"), nullptr);
    log.flush();
    struct stat st
    {
    };
    ASSERT_EQ(::stat(QFile::encodeName(dir.path() + QStringLiteral("/data")).constData(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    ASSERT_EQ(::stat(QFile::encodeName(log.path()).constData(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(AuditLog, RotatesBySizeKeepingAFixedNumberOfFiles)
{
    QTemporaryDir dir;
    constexpr qint64 kMax = 4096;
    AuditLog log(dir.path(), kMax, 3);
    for (int i = 0; i < 200; ++i)
        log.record(QStringLiteral("token_issued"), nullptr, QJsonObject{{QStringLiteral("n"), i}});
    log.flush();
    const QString base = log.path();
    EXPECT_TRUE(QFile::exists(base));
    EXPECT_TRUE(QFile::exists(base + QStringLiteral(".1")));
    EXPECT_TRUE(QFile::exists(base + QStringLiteral(".2")));
    EXPECT_FALSE(QFile::exists(base + QStringLiteral(".3")));
    for (const QString& file : QStringList{base, base + QStringLiteral(".1"), base + QStringLiteral(".2")})
        EXPECT_LE(QFileInfo(file).size(), kMax) << file.toStdString();
    // The newest lines are in the current file, in order, and no line was split.
    const auto current = linesOf(base);
    ASSERT_FALSE(current.isEmpty());
    EXPECT_EQ(current.last().value(QStringLiteral("n")).toInt(), 199);
    const auto previous = linesOf(base + QStringLiteral(".1"));
    ASSERT_FALSE(previous.isEmpty());
    EXPECT_EQ(previous.last().value(QStringLiteral("n")).toInt() + 1,
              current.first().value(QStringLiteral("n")).toInt());
}

TEST(AuditLog, ContinuesAnExistingFile)
{
    QTemporaryDir dir;
    {
        AuditLog log(dir.path());
        log.record(QStringLiteral("stop"), nullptr);
    }
    AuditLog again(dir.path());
    again.record(QStringLiteral("resume"), nullptr);
    again.flush();
    const auto lines = linesOf(again.path());
    ASSERT_EQ(lines.size(), 2);
    EXPECT_EQ(lines[1].value(QStringLiteral("event")).toString(), QStringLiteral("resume"));
}

TEST(AuditLog, DoesNotFollowASymlinkPlantedAsTheLog)
{
    QTemporaryDir dir;
    const QString elsewhere = dir.path() + QStringLiteral("/elsewhere");
    ASSERT_TRUE(QFile::link(elsewhere, dir.path() + QStringLiteral("/audit.jsonl")));
    AuditLog log(dir.path());
    log.record(QStringLiteral("stop"), nullptr);
    log.flush();
    EXPECT_FALSE(QFile::exists(elsewhere));
    EXPECT_FALSE(log.lastError().isEmpty());
}

TEST(AuditLog, WithoutADataDirectoryNothingIsWritten)
{
    AuditLog log({});
    EXPECT_FALSE(log.enabled());
    const QJsonObject line = log.record(QStringLiteral("stop"), nullptr);
    log.flush();
    EXPECT_EQ(line.value(QStringLiteral("event")).toString(), QStringLiteral("stop"));
}
