// desktop.fileDialog over a real socket on the fake backend (docs/protocol.md §5.32): what the
// host decides before a dialog is touched. The disk is looked at first (a folder that does not
// exist, an existing file under overwrite "never", a missing file to open), each refused with
// nothing typed; a window that is no file dialog is DESKTOP_ELEMENT_NOT_FOUND, no_file_dialog;
// the params are the declaration's (an absolute path, overwrite only for save); replacing a file
// is high-risk. The dialogs themselves are driven end to end (FileDialogDesktopTest.cpp).
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QFile>
#include <QJsonDocument>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

TestHost::Options autoPolicy()
{
    TestHost::Options options;
    options.security.confirmPolicy = Bridge::ConfirmPolicy::Auto;
    return options;
}

QJsonObject fileDialog(TestClient& client, const TestHost& host, QJsonObject params)
{
    params.insert(
        QStringLiteral("meta"),
        Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = 20000, .requestId = newRequestId()}));
    params.insert(QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}});
    return client.call(QStringLiteral("desktop.fileDialog"), params, 20000);
}

QString reasonOf(const QJsonObject& answer)
{
    return errorOf(answer).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString();
}

} // namespace

TEST(FileDialog, TheDiskIsLookedAtBeforeAnythingIsTyped)
{
    TestHost host(autoPolicy());
    TestClient client(host.socketPath());
    const QString kept = QString(host.workspace() + QStringLiteral("/kept.txt"));
    {
        QFile file(kept);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("mine");
    }
    const QJsonObject exists =
        fileDialog(client, host, {{QStringLiteral("path"), kept}, {QStringLiteral("action"), QStringLiteral("save")}});
    EXPECT_EQ(reasonOf(exists), QStringLiteral("file_exists")) << dump(exists);
    EXPECT_FALSE(errorOf(exists).value(QStringLiteral("retryable")).toBool());

    const QJsonObject noFolder =
        fileDialog(client, host,
                   {{QStringLiteral("path"), QString(host.workspace() + QStringLiteral("/no/such.txt"))},
                    {QStringLiteral("action"), QStringLiteral("save")}});
    EXPECT_EQ(reasonOf(noFolder), QStringLiteral("folder_not_found")) << dump(noFolder);

    const QJsonObject missing =
        fileDialog(client, host,
                   {{QStringLiteral("path"), QString(host.workspace() + QStringLiteral("/gone.txt"))},
                    {QStringLiteral("action"), QStringLiteral("open")}});
    EXPECT_EQ(reasonOf(missing), QStringLiteral("file_not_found")) << dump(missing);

    // Nothing reached the app.
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << host.desktop().effects().join(u',').toStdString();
    QFile file(kept);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), QByteArray("mine"));
}

TEST(FileDialog, AWindowThatIsNoFileDialogIsNotTypedInto)
{
    TestHost host(autoPolicy());
    TestClient client(host.socketPath());
    const QJsonObject answer =
        fileDialog(client, host,
                   {{QStringLiteral("path"), QString(host.workspace() + QStringLiteral("/new.txt"))},
                    {QStringLiteral("action"), QStringLiteral("save")}});
    EXPECT_EQ(errorOf(answer).value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"))
        << dump(answer);
    EXPECT_EQ(reasonOf(answer), QStringLiteral("no_file_dialog"));
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << host.desktop().effects().join(u',').toStdString();
}

TEST(FileDialog, ParamsAreTheDeclarations)
{
    TestHost host(autoPolicy());
    TestClient client(host.socketPath());
    const QJsonObject relative = fileDialog(
        client, host,
        {{QStringLiteral("path"), QStringLiteral("notes.txt")}, {QStringLiteral("action"), QStringLiteral("save")}});
    EXPECT_EQ(errorOf(relative).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
              QStringLiteral("path"))
        << dump(relative);
    const QJsonObject openReplace = fileDialog(client, host,
                                               {{QStringLiteral("path"), QStringLiteral("/tmp/x.txt")},
                                                {QStringLiteral("action"), QStringLiteral("open")},
                                                {QStringLiteral("overwrite"), QStringLiteral("replace")}});
    EXPECT_EQ(
        errorOf(openReplace).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
        QStringLiteral("overwrite"))
        << dump(openReplace);
}

// Replacing a file is high-risk: under the built-in rules nobody here can allow it, and the
// answer says which rule and why before any dialog is touched.
TEST(FileDialog, ReplacingAFileIsHighRisk)
{
    TestHost host(autoPolicy());
    // Under the built-in rules alone.
    host.onHostThread([](Bridge::Host& h) { h.setOwnerPolicy(Bridge::OwnerPolicy()); });
    TestClient client(host.socketPath());
    const QJsonObject answer =
        fileDialog(client, host,
                   {{QStringLiteral("path"), QString(host.workspace() + QStringLiteral("/r.txt"))},
                    {QStringLiteral("action"), QStringLiteral("save")},
                    {QStringLiteral("overwrite"), QStringLiteral("replace")}});
    const QJsonObject details = errorOf(answer).value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("needs_person")) << dump(answer);
    EXPECT_EQ(details.value(QStringLiteral("rule")).toString(), QStringLiteral("default:high-risk"));
    EXPECT_EQ(details.value(QStringLiteral("risk")).toString(), QStringLiteral("high"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}
