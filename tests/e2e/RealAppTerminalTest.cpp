// End to end against xfce4-terminal (VTE): a shell command with an emoji, typed and run, writes
// a file; the file is compared byte for byte and the terminal's text is read with pyatspi. And
// the terminal as a sentinel app: under the built-in rules, the phrase alone types nothing there.
#include "RealAppSupport.h"
#include "TestHost.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QThread>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class RealAppTerminal : public RealAppTest<RealAppTerminal>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        // --disable-server: a process of its own, not a window of some other terminal.
        s_app->start(u"xfce4-terminal"_s, {u"--disable-server"_s}, terminalQuery());
    }

    static ProbeQuery terminalQuery()
    {
        ProbeQuery query;
        query.role = u"terminal"_s;
        return query;
    }
    static QString terminalText()
    {
        const ProbeResult seen = s_app->probe(terminalQuery());
        return seen.nodes.size() == 1 ? seen.nodes.first().text.value_or(QString()) : QString();
    }
};

} // namespace

// Was: key-by-key typing turned the emoji into invalid UTF-8 and displaced what followed.
// And: terminals ignore ctrl+v, so a paste with it delivers nothing (paste is ctrl+shift+v);
// whatever path delivers, the command line must hold the text once, exactly.
TEST_F(RealAppTerminal, TypesAnEmojiCommandThatWritesAFile)
{
    // The shell has printed its prompt.
    QDeadlineTimer ready(10000);
    while (terminalText().trimmed().isEmpty() && !ready.hasExpired())
        QThread::msleep(100);
    ASSERT_FALSE(terminalText().trimmed().isEmpty()) << "no prompt in the terminal";

    const QByteArray expected = u"emoji 🙂 end"_s.toUtf8();
    // The shell starts in the test's directory; a short command stays on one terminal line.
    const QString file = s_app->dir() + u"/emoji.txt"_s;
    const QString command = u"printf '%s' 'emoji 🙂 end' > emoji.txt"_s;

    const QJsonObject typed = s_app->typeText(QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}, command);

    // Before Enter: the command line shows the command once (the shell echoes it a moment later).
    const auto commandsShown = [&] { return terminalText().count(command); };
    const qsizetype times = readUntil(commandsShown, qsizetype(1));
    const QString shown = terminalText();
    EXPECT_EQ(times, 1) << "terminal shows:\n" << shown.toStdString() << "\nhost answered " << dump(typed);
    const QJsonObject sent = s_app->hotkey({u"enter"_s});
    const std::optional<QByteArray> written = waitForFile(file, expected, 5000);

    EXPECT_EQ(written.value_or("<no file>"), expected);
    if (answeredTrue(typed, u"typed"_s)) {
        EXPECT_EQ(times, 1) << "typed: true, but the terminal has something else";
    }
    EXPECT_TRUE(isConfirmed(typed, u"typed"_s));
    EXPECT_TRUE(isConfirmed(sent, u"sent"_s));
}

// A terminal runs whatever is typed into it: under the built-in rules (no owner's rule allows
// it) the phrase alone is not enough. With nobody to ask (headless, the auto policy), the
// command is refused before any key, naming the rule; the terminal shows nothing of it and the
// file it would have made is not there.
TEST_F(RealAppTerminal, PhraseOnlyTypingIsRefusedByTheTerminalRule)
{
    QTemporaryDir dir;
    const QString policy = dir.path() + u"/policy.json"_s;
    {
        QFile file(policy);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{}"); // the built-in rules only
    }
    HostProcess host(QString(), {u"--policy"_s, policy, u"--confirm-policy"_s, u"auto"_s});
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    ASSERT_TRUE(QDir(host.workspaceRoot()).mkpath(u"ws"_s));
    TestClient client(host.socketPath());
    const QString marker = dir.path() + u"/sentinel.txt"_s;
    const QString command = u"touch "_s + marker + u"\n"_s;
    const QJsonObject params = TestClient::withMeta(
        QJsonObject{{u"route"_s, s_app->route()},
                    {u"confirm"_s, QJsonObject{{u"phrase"_s, u"CONFIRM"_s}}},
                    {u"target"_s, QJsonObject{{u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}}}},
                    {u"text"_s, command}},
        host.workspaceRoot() + u"/ws"_s, 30000);
    const QJsonObject response = client.call(u"desktop.typeText"_s, params, 35000);
    EXPECT_EQ(errorCode(response), u"DESKTOP_CONFIRM_REQUIRED"_s) << dump(response);
    const QJsonObject details = errorOf(response).value(u"details"_s).toObject();
    EXPECT_EQ(details.value(u"reason"_s).toString(), u"needs_person"_s) << dump(response);
    EXPECT_EQ(details.value(u"rule"_s).toString(), u"sentinel:terminals"_s) << dump(response);
    QThread::msleep(300);
    EXPECT_FALSE(QFile::exists(marker));
    EXPECT_FALSE(terminalText().contains(u"sentinel.txt"_s)) << terminalText().toStdString();
}
