// `msgcode-desktopctl evidence list|show` (docs/evidence.md, "From the command line") on the
// evidence real executions left in a workspace (a host with the fake backend): the list, the
// filters, one execution whole, a planted symlink reported and not followed, a damaged file said.
#include "HostProcess.h"
#include "TestHost.h"
#include "bridge/evidence/EvidenceArchive.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <QTemporaryDir>

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

CommandResult evidence(const QString& workspace, const QStringList& args)
{
    return runCommand(
        QStringLiteral(MDH_CTL_BINARY),
        QStringList{QStringLiteral("--workspace"), workspace, QStringLiteral("--json"), QStringLiteral("evidence")} +
            args);
}

} // namespace

TEST(EvidenceCli, ListsShowsAndFiltersTheWorkspacesExecutions)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject found =
        client.call(QStringLiteral("desktop.find"),
                    TestClient::withMeta({{QStringLiteral("selector"),
                                           QJsonObject{{QStringLiteral("titleContains"), QStringLiteral("Send")}}}},
                                         host.workspace()));
    ASSERT_TRUE(found.contains(QStringLiteral("result")));
    const QJsonObject refused = client.call(
        QStringLiteral("desktop.click"),
        TestClient::withMeta({{QStringLiteral("target"),
                               QJsonObject{{QStringLiteral("selector"),
                                            QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Nope")}}}}},
                              {QStringLiteral("confirm"),
                               QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM:desktop.click")}}}},
                             host.workspace()));
    ASSERT_TRUE(refused.contains(QStringLiteral("error")));
    client.call(QStringLiteral("desktop.observe"), TestClient::withMeta({}, host.workspace()));

    const auto listed = evidence(host.workspace(), {QStringLiteral("list")});
    ASSERT_EQ(listed.exitCode, 0) << listed.err.toStdString();
    const QJsonObject listing = QJsonDocument::fromJson(listed.out.toUtf8()).object();
    const QJsonArray executions = listing.value(QStringLiteral("executions")).toArray();
    QStringList methods;
    for (const auto& value : executions)
        methods.append(value.toObject().value(QStringLiteral("method")).toString());
    EXPECT_TRUE(methods.contains(QStringLiteral("desktop.find"))) << listed.out.toStdString();
    EXPECT_TRUE(methods.contains(QStringLiteral("desktop.observe")));
    const QString findId = resultOf(found).value(QStringLiteral("executionId")).toString();

    const auto onlyFind = evidence(
        host.workspace(), {QStringLiteral("list"), QStringLiteral("--method"), QStringLiteral("desktop.find")});
    EXPECT_EQ(
        QJsonDocument::fromJson(onlyFind.out.toUtf8()).object().value(QStringLiteral("executions")).toArray().size(),
        1);

    const auto errors = evidence(host.workspace(), {QStringLiteral("list"), QStringLiteral("--errors")});
    for (const auto& value :
         QJsonDocument::fromJson(errors.out.toUtf8()).object().value(QStringLiteral("executions")).toArray())
        EXPECT_NE(value.toObject().value(QStringLiteral("outcome")).toString(), QStringLiteral("ok"));

    const auto shown = evidence(host.workspace(), {QStringLiteral("show"), findId});
    ASSERT_EQ(shown.exitCode, 0) << shown.err.toStdString();
    const QJsonObject execution = QJsonDocument::fromJson(shown.out.toUtf8()).object();
    EXPECT_EQ(execution.value(QStringLiteral("execution")).toObject().value(QStringLiteral("executionId")).toString(),
              findId);
    EXPECT_EQ(execution.value(QStringLiteral("execution")).toObject().value(QStringLiteral("outcome")).toString(),
              QStringLiteral("ok"));
    EXPECT_TRUE(execution.value(QStringLiteral("response")).toObject().contains(QStringLiteral("result")) ||
                execution.value(QStringLiteral("response")).toObject().contains(QStringLiteral("executionId")))
        << shown.out.toStdString();
    EXPECT_TRUE(execution.value(QStringLiteral("artifacts")).toArray().contains(QStringLiteral("ax.json")));
    EXPECT_FALSE(execution.value(QStringLiteral("trace")).toArray().isEmpty());

    // A link planted in the evidence is reported, never followed; a damaged file is said.
    const QString dayDir =
        QFileInfo(
            execution.value(QStringLiteral("execution")).toObject().value(QStringLiteral("dir")).toString().chopped(1))
            .path();
    ASSERT_TRUE(QFile::link(QStringLiteral("/etc"), dayDir + QStringLiteral("/planted")));
    QFile response(execution.value(QStringLiteral("execution")).toObject().value(QStringLiteral("dir")).toString() +
                   QStringLiteral("response.json"));
    ASSERT_TRUE(response.open(QIODevice::WriteOnly | QIODevice::Truncate));
    response.write("{\"truncated\": ");
    response.close();
    const auto relisted = evidence(host.workspace(), {QStringLiteral("list")});
    const QJsonArray skipped =
        QJsonDocument::fromJson(relisted.out.toUtf8()).object().value(QStringLiteral("skipped")).toArray();
    ASSERT_EQ(skipped.size(), 1) << relisted.out.toStdString();
    EXPECT_EQ(skipped.at(0).toObject().value(QStringLiteral("reason")).toString(), QStringLiteral("symlink"));
    const auto damaged = evidence(host.workspace(), {QStringLiteral("show"), findId});
    EXPECT_EQ(damaged.exitCode, 0);
    const QJsonArray problems =
        QJsonDocument::fromJson(damaged.out.toUtf8()).object().value(QStringLiteral("problems")).toArray();
    ASSERT_EQ(problems.size(), 1) << damaged.out.toStdString();
    EXPECT_EQ(problems.at(0).toObject().value(QStringLiteral("file")).toString(), QStringLiteral("response.json"));

    const auto missing = evidence(host.workspace(), {QStringLiteral("show"), QStringLiteral("no-such-execution")});
    EXPECT_EQ(missing.exitCode, 1);
    const auto usage =
        runCommand(QStringLiteral(MDH_CTL_BINARY), {QStringLiteral("evidence"), QStringLiteral("frobnicate")});
    EXPECT_EQ(usage.exitCode, 2);
}

namespace {

// A zip with the given entries (name -> bytes); `linkEntry` is stored as a symlink.
void makeZip(const QString& path, const QList<std::pair<QString, QByteArray>>& entries, const QString& linkEntry = {})
{
    QuaZip zip(path);
    ASSERT_TRUE(zip.open(QuaZip::mdCreate));
    for (const auto& [name, bytes] : entries) {
        QuaZipFile out(&zip);
        QuaZipNewInfo info(name);
        if (name == linkEntry)
            info.externalAttr = (0120777u << 16);
        ASSERT_TRUE(out.open(QIODevice::WriteOnly, info));
        out.write(bytes);
        out.close();
    }
    zip.close();
}

QString reasonOf(const Automation::Result<QJsonObject>& opened)
{
    return opened ? QString() : opened.error().details.value(QStringLiteral("reason")).toString();
}

} // namespace

TEST(EvidenceArchive, ExportThenOpenElsewhereGivesTheSameExecutionsWithHashesChecked)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject found =
        client.call(QStringLiteral("desktop.find"),
                    TestClient::withMeta({{QStringLiteral("selector"),
                                           QJsonObject{{QStringLiteral("titleContains"), QStringLiteral("Send")}}}},
                                         host.workspace()));
    client.call(QStringLiteral("desktop.observe"), TestClient::withMeta({}, host.workspace()));
    QTemporaryDir scratch;
    const QString zipPath = scratch.path() + QStringLiteral("/evidence.zip");
    const auto exported = evidence(host.workspace(), {QStringLiteral("export"), QStringLiteral("--out"), zipPath});
    ASSERT_EQ(exported.exitCode, 0) << exported.err.toStdString();
    const QJsonObject manifest =
        QJsonDocument::fromJson(exported.out.toUtf8()).object().value(QStringLiteral("manifest")).toObject();
    EXPECT_EQ(manifest.value(QStringLiteral("format")).toString(), QStringLiteral("msgcode-evidence/1"));
    EXPECT_EQ(manifest.value(QStringLiteral("executions")).toArray().size(), 2);

    // Opened elsewhere: the same executions, every file's hash checked on the way.
    const QString elsewhere = scratch.path() + QStringLiteral("/opened");
    QDir().mkpath(elsewhere);
    const auto opened = Evidence::Archive::open(zipPath, elsewhere);
    ASSERT_TRUE(opened) << opened.error().message.toStdString();
    const auto listed = Evidence::EvidenceReader(elsewhere).list();
    ASSERT_TRUE(listed);
    ASSERT_EQ(listed->executions.size(), 2);
    QStringList ids;
    for (const auto& info : listed->executions)
        ids.append(info.executionId);
    EXPECT_TRUE(ids.contains(resultOf(found).value(QStringLiteral("executionId")).toString()));
    const auto loaded =
        Evidence::EvidenceReader(elsewhere).load(resultOf(found).value(QStringLiteral("executionId")).toString());
    ASSERT_TRUE(loaded);
    EXPECT_TRUE(loaded->snapshot.has_value()) << "the tree travels with it";

    // One export of one execution, named.
    const QString one = scratch.path() + QStringLiteral("/one.zip");
    EXPECT_EQ(evidence(host.workspace(), {QStringLiteral("export"), QStringLiteral("--out"), one,
                                          resultOf(found).value(QStringLiteral("executionId")).toString()})
                  .exitCode,
              0);
}

TEST(EvidenceArchive, AHostileZipIsRefusedBeforeAnythingIsWritten)
{
    QTemporaryDir scratch;
    const QByteArray manifest = R"({"format":"msgcode-evidence/1","executions":[]})";
    const auto tryOpen = [&](const QString& name, const QList<std::pair<QString, QByteArray>>& entries,
                             const QString& link = {}) {
        const QString zipPath = scratch.path() + QLatin1Char('/') + name + QStringLiteral(".zip");
        makeZip(zipPath, entries, link);
        const QString into = scratch.path() + QLatin1Char('/') + name;
        QDir().mkpath(into);
        const auto opened = Evidence::Archive::open(zipPath, into);
        const bool untouched = QDir(into).isEmpty();
        return std::pair{reasonOf(opened), untouched};
    };
    EXPECT_EQ(tryOpen(QStringLiteral("absolute"),
                      {{QStringLiteral("manifest.json"), manifest}, {QStringLiteral("/etc/evil"), "x"}}),
              (std::pair{QStringLiteral("unsafe_entry"), true}));
    EXPECT_EQ(tryOpen(QStringLiteral("dotdot"), {{QStringLiteral("manifest.json"), manifest},
                                                 {QStringLiteral("artifacts/desktop/../../evil"), "x"}}),
              (std::pair{QStringLiteral("unsafe_entry"), true}));
    EXPECT_EQ(tryOpen(QStringLiteral("link"),
                      {{QStringLiteral("manifest.json"), manifest},
                       {QStringLiteral("artifacts/desktop/2026-01-01/x/ax.json"), "/etc/passwd"}},
                      QStringLiteral("artifacts/desktop/2026-01-01/x/ax.json")),
              (std::pair{QStringLiteral("symlink"), true}));
    EXPECT_EQ(
        tryOpen(QStringLiteral("nomanifest"), {{QStringLiteral("artifacts/desktop/2026-01-01/x/request.json"), "{}"}}),
        (std::pair{QStringLiteral("no_manifest"), true}));
    EXPECT_EQ(tryOpen(QStringLiteral("notevidence"),
                      {{QStringLiteral("manifest.json"), manifest}, {QStringLiteral("home/.bashrc"), "x"}}),
              (std::pair{QStringLiteral("unsafe_entry"), true}));
    // Only into an empty directory of its own.
    const QString busy = scratch.path() + QStringLiteral("/busy");
    QDir().mkpath(busy + QStringLiteral("/something"));
    makeZip(scratch.path() + QStringLiteral("/fine.zip"), {{QStringLiteral("manifest.json"), manifest}});
    EXPECT_EQ(reasonOf(Evidence::Archive::open(scratch.path() + QStringLiteral("/fine.zip"), busy)),
              QStringLiteral("unsafe_entry"));
    // A file the manifest does not name, or whose hash differs, is refused.
    EXPECT_EQ(
        tryOpen(QStringLiteral("unnamed"), {{QStringLiteral("manifest.json"), manifest},
                                            {QStringLiteral("artifacts/desktop/2026-01-01/x/request.json"), "{}"}})
            .first,
        QStringLiteral("hash_mismatch"));
}
