// End to end against xfce4-terminal (VTE): a shell command with an emoji, typed and run, writes
// a file; the file is compared byte for byte and the terminal's text is read with pyatspi.
#include "RealAppSupport.h"

#include <QDeadlineTimer>
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
