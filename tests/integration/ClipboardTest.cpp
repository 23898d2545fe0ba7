// desktop.clipboard over a real socket on the fake backend (docs/protocol.md §5.29): `read` is
// read-only (no confirmation) and redacts as readText does; `write` is a side effect (the
// phrase or a token), reads the text back, keeps only its length and digest in request.json,
// and puts the previous text back when asked, unless someone copied meanwhile; a concealed
// clipboard is never answered; the owner's rules decide per action.
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include <gtest/gtest.h>

using namespace Testing;
using Automation::ClipboardContent;

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

QJsonObject clipboard(TestClient& client, const TestHost& host, QJsonObject params, bool phrase = false)
{
    params.insert(
        QStringLiteral("meta"),
        Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = 20000, .requestId = newRequestId()}));
    if (phrase)
        params.insert(QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}});
    return client.call(QStringLiteral("desktop.clipboard"), params, 20000);
}

ClipboardContent copied(const QString& text)
{
    return ClipboardContent{{QStringLiteral("UTF8_STRING")}, text, {}, {}, false, false};
}

} // namespace

// What a person copied is read without a confirmation, redacted as readText redacts; `none`
// gives it as is, `hash` only its length and digest.
TEST(Clipboard, ReadIsReadOnlyAndRedactsAsAsked)
{
    TestHost host(autoPolicy());
    TestClient client(host.socketPath());
    host.desktop().setClipboard(copied(QStringLiteral("mail ada@example.org about 4111111111111111")));
    const QJsonObject read = resultOf(clipboard(client, host, {{QStringLiteral("action"), QStringLiteral("read")}}));
    EXPECT_EQ(read.value(QStringLiteral("length")).toInt(), 43) << dump(read);
    EXPECT_FALSE(read.value(QStringLiteral("text")).toString().contains(QStringLiteral("ada@example.org")))
        << dump(read);
    EXPECT_TRUE(read.value(QStringLiteral("text")).toString().startsWith(QStringLiteral("mail "))) << dump(read);
    EXPECT_EQ(read.value(QStringLiteral("formats")).toArray(), QJsonArray{QStringLiteral("UTF8_STRING")});
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    const QJsonObject plain = resultOf(clipboard(client, host,
                                                 {{QStringLiteral("action"), QStringLiteral("read")},
                                                  {QStringLiteral("redactionMode"), QStringLiteral("none")}}));
    EXPECT_EQ(plain.value(QStringLiteral("text")).toString(),
              QStringLiteral("mail ada@example.org about 4111111111111111"));
    const QJsonObject hashed = resultOf(clipboard(client, host,
                                                  {{QStringLiteral("action"), QStringLiteral("read")},
                                                   {QStringLiteral("redactionMode"), QStringLiteral("hash")}}));
    EXPECT_FALSE(hashed.contains(QStringLiteral("text"))) << dump(hashed);
    EXPECT_EQ(hashed.value(QStringLiteral("sha256")).toString().size(), 64);
    // The trace keeps the digest, never the text.
    QFile trace(QDir(plain.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString())
                    .filePath(QStringLiteral("trace.jsonl")));
    ASSERT_TRUE(trace.open(QIODevice::ReadOnly));
    const QByteArray lines = trace.readAll();
    EXPECT_TRUE(lines.contains("clipboard.read"));
    EXPECT_FALSE(lines.contains("ada@example.org"));
}

// A password manager's concealed copy: its formats, never its text.
TEST(Clipboard, AConcealedClipboardIsNeverAnswered)
{
    TestHost host(autoPolicy());
    TestClient client(host.socketPath());
    ClipboardContent secret = copied(QStringLiteral("hunter2"));
    secret.formats.append(QStringLiteral("x-kde-passwordManagerHint"));
    secret.concealed = true;
    host.desktop().setClipboard(secret);
    const QJsonObject read = resultOf(clipboard(client, host,
                                                {{QStringLiteral("action"), QStringLiteral("read")},
                                                 {QStringLiteral("redactionMode"), QStringLiteral("none")}}));
    EXPECT_TRUE(read.value(QStringLiteral("concealed")).toBool()) << dump(read);
    EXPECT_FALSE(read.contains(QStringLiteral("text")));
    EXPECT_FALSE(dump(read).find("hunter2") != std::string::npos);
}

// write is a side effect: without a confirmation nothing is written; with the phrase the text
// is written and read back, request.json keeps its length and digest only, and the answer says
// what was there before.
TEST(Clipboard, WriteNeedsAConfirmationAndIsReadBack)
{
    TestHost host(autoPolicy());
    TestClient client(host.socketPath());
    host.desktop().setClipboard(copied(QStringLiteral("the person's")));
    const QJsonObject refused = clipboard(client, host,
                                          {{QStringLiteral("action"), QStringLiteral("write")},
                                           {QStringLiteral("text"), QStringLiteral("from the agent")}});
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(refused);
    EXPECT_EQ(host.desktop().clipboard().text.value_or(QString()), QStringLiteral("the person's"));

    const QJsonObject written = resultOf(clipboard(client, host,
                                                   {{QStringLiteral("action"), QStringLiteral("write")},
                                                    {QStringLiteral("text"), QStringLiteral("from the agent")}},
                                                   true));
    EXPECT_EQ(written.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(written);
    EXPECT_TRUE(written.value(QStringLiteral("written")).toBool());
    EXPECT_EQ(written.value(QStringLiteral("previous")).toObject().value(QStringLiteral("length")).toInt(), 12);
    EXPECT_EQ(host.desktop().clipboard().text.value_or(QString()), QStringLiteral("from the agent"));
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("clipboard:write:14")});
    QFile request(QDir(written.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString())
                      .filePath(QStringLiteral("request.json")));
    ASSERT_TRUE(request.open(QIODevice::ReadOnly));
    EXPECT_FALSE(request.readAll().contains("from the agent"));
}

// restoreAfterMs puts the person's text back, unless they copied something else meanwhile.
TEST(Clipboard, ThePreviousTextComesBackUnlessThePersonCopiedMeanwhile)
{
    TestHost host(autoPolicy());
    TestClient client(host.socketPath());
    host.desktop().setClipboard(copied(QStringLiteral("before")));
    const QJsonObject written = resultOf(clipboard(client, host,
                                                   {{QStringLiteral("action"), QStringLiteral("write")},
                                                    {QStringLiteral("text"), QStringLiteral("for a moment")},
                                                    {QStringLiteral("restoreAfterMs"), 150}},
                                                   true));
    EXPECT_TRUE(written.value(QStringLiteral("previous")).toObject().value(QStringLiteral("restoreScheduled")).toBool())
        << dump(written);
    EXPECT_EQ(host.desktop().clipboard().text.value_or(QString()), QStringLiteral("for a moment"));
    QThread::msleep(250);
    EXPECT_EQ(host.desktop().clipboard().text.value_or(QString()), QStringLiteral("before"));

    EXPECT_FALSE(resultOf(clipboard(client, host,
                                    {{QStringLiteral("action"), QStringLiteral("write")},
                                     {QStringLiteral("text"), QStringLiteral("again")},
                                     {QStringLiteral("restoreAfterMs"), 150}},
                                    true))
                     .isEmpty());
    host.desktop().setClipboard(copied(QStringLiteral("the person copied this")));
    QThread::msleep(250);
    EXPECT_EQ(host.desktop().clipboard().text.value_or(QString()), QStringLiteral("the person copied this"));
}

// The owner's rules decide per action: a rule for the clipboard class refuses write and leaves
// read (class read) alone.
TEST(Clipboard, TheOwnersRulesDecidePerAction)
{
    TestHost::Options options = autoPolicy();
    auto rules = Bridge::OwnerPolicy::fromJson(
        QJsonDocument::fromJson(
            R"({"rules": [{"name": "no-clipboard-writes", "classes": ["clipboard"], "decision": "deny"}]})")
            .object());
    ASSERT_TRUE(rules.ok());
    options.ownerPolicy = rules.value();
    TestHost host(options);
    TestClient client(host.socketPath());
    host.desktop().setClipboard(copied(QStringLiteral("kept")));
    const QJsonObject refused = clipboard(
        client, host,
        {{QStringLiteral("action"), QStringLiteral("write")}, {QStringLiteral("text"), QStringLiteral("x")}}, true);
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_CALLER_FORBIDDEN")) << dump(refused);
    EXPECT_EQ(errorOf(refused).value(QStringLiteral("details")).toObject().value(QStringLiteral("rule")).toString(),
              QStringLiteral("no-clipboard-writes"));
    EXPECT_EQ(host.desktop().clipboard().text.value_or(QString()), QStringLiteral("kept"));
    const QJsonObject read = clipboard(client, host, {{QStringLiteral("action"), QStringLiteral("read")}});
    EXPECT_FALSE(resultOf(read).isEmpty()) << dump(read);
}

// Bad input is a clear params error; nothing is written.
TEST(Clipboard, BadInputNamesTheField)
{
    TestHost host(autoPolicy());
    TestClient client(host.socketPath());
    const QJsonObject noText = clipboard(client, host, {{QStringLiteral("action"), QStringLiteral("write")}}, true);
    EXPECT_EQ(errorCode(noText), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(noText);
    EXPECT_TRUE(dump(noText).find("\"text\"") != std::string::npos) << dump(noText);
    const QJsonObject textOnRead =
        clipboard(client, host,
                  {{QStringLiteral("action"), QStringLiteral("read")}, {QStringLiteral("text"), QStringLiteral("x")}});
    EXPECT_EQ(errorCode(textOnRead), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(textOnRead);
    const QJsonObject badAction = clipboard(client, host, {{QStringLiteral("action"), QStringLiteral("paste")}});
    EXPECT_EQ(errorCode(badAction), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(badAction);
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}
