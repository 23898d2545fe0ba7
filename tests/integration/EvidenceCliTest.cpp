// `msgcode-desktopctl evidence list|show` (docs/evidence.md, "From the command line") on the
// evidence real executions left in a workspace (a host with the fake backend): the list, the
// filters, one execution whole, a planted symlink reported and not followed, a damaged file said.
#include "HostProcess.h"
#include "TestHost.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

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
