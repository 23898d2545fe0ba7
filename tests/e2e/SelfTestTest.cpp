// `msgcode-desktopctl selftest` on the headless desktop, as a person with a Mac runs it there:
// against a host they started, with the built-in app description of this platform (mousepad,
// galculator, Thunar). Each effect is checked again here, outside the self-test and the host:
// the saved file and the new folder on disk, the apps gone.
#include "E2eSupport.h"
#include "RealAppSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

struct SelfTestOutcome
{
    int exitCode = -1;
    QString out;
    QJsonObject report;
};

class SelfTestRun : public ::testing::Test
{
protected:
    void SetUp() override
    {
        QString why;
        if (!DesktopSession::available(&why))
            GTEST_SKIP() << why.toStdString();
        // A person approves the first side effect in the host's dialog; here the host approves.
        m_session.setHostArguments({u"--confirm-policy"_s, u"auto"_s});
        ASSERT_TRUE(m_session.start()) << "the host did not start";
    }

    /// desktopctl selftest with `args`; the apps it starts get a private HOME, as a fresh user's.
    SelfTestOutcome selftest(const QString& out, const QStringList& args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.path() + u"/.config"_s);
        env.insert(u"XDG_DATA_HOME"_s, m_home.path() + u"/.local/share"_s);
        env.insert(u"XDG_CACHE_HOME"_s, m_home.path() + u"/.cache"_s);
        env.insert(u"MSGCODE_DESKTOP_LANG"_s, u"C"_s);
        env.remove(u"NO_AT_BRIDGE"_s);
        QProcess child;
        child.setProcessEnvironment(env);
        child.start(QStringLiteral(MDH_CTL_BINARY),
                    QStringList{u"--socket"_s, m_session.host().socketPath(), u"selftest"_s, u"--out"_s, out} + args);
        SelfTestOutcome run;
        if (!child.waitForFinished(110000)) {
            child.kill();
            child.waitForFinished(2000);
        } else {
            run.exitCode = child.exitCode();
        }
        run.out = QString::fromUtf8(child.readAllStandardOutput() + child.readAllStandardError());
        QFile report(out + u"/report.json"_s);
        if (report.open(QIODevice::ReadOnly))
            run.report = QJsonDocument::fromJson(report.readAll()).object();
        return run;
    }

    DesktopSession m_session;
    QTemporaryDir m_home;
};

QJsonObject stepTitled(const QJsonObject& report, const QString& title)
{
    for (const QJsonValue& step : report.value(u"steps"_s).toArray())
        if (step.toObject().value(u"title"_s).toString() == title)
            return step.toObject();
    return {};
}

} // namespace

// The whole built-in description: every step passes, and what it claims is on disk.
TEST_F(SelfTestRun, DrivesTheEditorCalculatorAndFileManagerAndEachEffectIsThere)
{
    const QString out = m_session.workspace() + u"/selftest"_s;
    const SelfTestOutcome run = selftest(out, {u"--keep-scratch"_s});
    ASSERT_EQ(run.exitCode, 0) << run.out.toStdString();

    // The editor saved the second text: the file on disk says so (mousepad may add a newline).
    QFile saved(out + u"/scratch/selftest.txt"_s);
    ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
    EXPECT_EQ(QString::fromUtf8(saved.readAll()).trimmed(), u"msgcode self-test, saved twice"_s);
    // Thunar made the folder.
    EXPECT_TRUE(QFileInfo(out + u"/scratch/msgcode-selftest-folder"_s).isDir());

    // One approval, every step passed, and the methods the description names were all used.
    EXPECT_EQ(run.report.value(u"failed"_s).toInt(), 0);
    EXPECT_EQ(run.report.value(u"approvals"_s).toInt(), 1);
    const QJsonObject methods = run.report.value(u"methods"_s).toObject();
    for (const char* method : {"desktop.doctor", "desktop.windows", "desktop.observe", "desktop.find",
                               "desktop.typeText", "desktop.waitUntil", "desktop.menuPick", "desktop.hotkey",
                               "desktop.elementAt", "desktop.pointer", "desktop.scroll", "desktop.capture",
                               "desktop.dumpTree", "desktop.window", "desktop.click", "desktop.readText"})
        EXPECT_GE(methods.value(QLatin1String(method)).toObject().value(u"passed"_s).toInt(), 1) << method;

    // The apps it started are gone, and the evidence of its requests is bundled.
    for (const QJsonValue& step : run.report.value(u"steps"_s).toArray()) {
        const qint64 pid = step.toObject().value(u"pid"_s).toInteger();
        if (pid > 0) {
            EXPECT_FALSE(QFileInfo::exists(u"/proc/%1/exe"_s.arg(pid)))
                << step.toObject().value(u"app"_s).toString().toStdString() << " still runs";
        }
    }
    EXPECT_GT(QFileInfo(out + u"/evidence.zip"_s).size(), 0);
    EXPECT_GT(run.report.value(u"evidence"_s).toObject().value(u"executions"_s).toInt(), 30);
}

// An effect the app does not show fails the run, and the report says what the app showed. The
// scratch folder is removed afterwards.
TEST_F(SelfTestRun, AnEffectTheAppDoesNotShowFailsTheRunAndTheReportSaysWhatItSaw)
{
    QFile builtIn(QStringLiteral(MDH_SELFTEST_DIR) + u"/linux.json"_s);
    ASSERT_TRUE(builtIn.open(QIODevice::ReadOnly));
    QJsonObject description = QJsonDocument::fromJson(builtIn.readAll()).object();
    // Only the calculator, told that 7 + 8 shows 16.
    QJsonObject calculator;
    for (const QJsonValue& app : description.value(u"apps"_s).toArray())
        if (app.toObject().value(u"name"_s).toString() == u"calculator"_s)
            calculator = app.toObject();
    ASSERT_FALSE(calculator.isEmpty());
    QJsonArray steps;
    for (const QJsonValue& value : calculator.value(u"steps"_s).toArray()) {
        QJsonObject step = value.toObject();
        if (step.value(u"title"_s).toString() == u"press ="_s) {
            QJsonObject check = step.value(u"check"_s).toObject();
            check.insert(u"equals"_s, u"16"_s);
            step.insert(u"check"_s, check);
        }
        steps.append(step);
    }
    calculator.insert(u"steps"_s, steps);
    description.insert(u"apps"_s, QJsonArray{calculator});
    QTemporaryDir dir;
    QFile wrong(dir.filePath(u"wrong.json"_s));
    ASSERT_TRUE(wrong.open(QIODevice::WriteOnly));
    wrong.write(QJsonDocument(description).toJson());
    wrong.close();

    const QString out = m_session.workspace() + u"/selftest-wrong"_s;
    const SelfTestOutcome run = selftest(out, {u"--apps"_s, wrong.fileName()});
    EXPECT_EQ(run.exitCode, 1) << run.out.toStdString();
    const QJsonObject pressed = stepTitled(run.report, u"press ="_s);
    EXPECT_FALSE(pressed.value(u"ok"_s).toBool()) << run.out.toStdString();
    EXPECT_EQ(pressed.value(u"check"_s).toObject().value(u"observed"_s).toArray(), QJsonArray{u"15"_s})
        << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(u"FAIL  calculator: press ="_s)) << run.out.toStdString();
    EXPECT_EQ(run.report.value(u"failed"_s).toInt(), 1);
    EXPECT_FALSE(QFileInfo::exists(out + u"/scratch"_s));
}
