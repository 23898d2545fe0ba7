// End to end, desktop.app on the headless desktop (docs/protocol.md §5.30): galculator launched
// from its desktop entry is a process of its own (not the host's child, its entry in its
// environment), shows a window the window manager lists for its pid, and ends when quit; a
// second mousepad launch handed to the instance already running says so, with that instance's
// pid. Every effect is checked outside the host: /proc and xdotool.
#include "E2eSupport.h"
#include "HostProcess.h"
#include "automation/platform/ProcessInfo.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include <csignal>

using namespace Testing;

namespace {

class AppsDesktop : public SessionSuite
{
};

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

QJsonObject confirmed(QJsonObject params)
{
    params.insert(QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}});
    return params;
}

/// The windows xdotool finds for a pid (the window manager's view, not the host's).
QStringList windowsOfPid(qint64 pid)
{
    const auto found = runCommand(QStringLiteral("xdotool"), {QStringLiteral("search"), QStringLiteral("--onlyvisible"),
                                                              QStringLiteral("--pid"), QString::number(pid)});
    return found.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

bool endsWithin(qint64 pid, int ms)
{
    QDeadlineTimer deadline(ms);
    while (Automation::Platform::processAlive(pid) && !deadline.hasExpired())
        QThread::msleep(50);
    return !Automation::Platform::processAlive(pid);
}

} // namespace

TEST_F(AppsDesktop, GalculatorLaunchedFromItsEntryIsItsOwnProcessAndEndsWhenQuit)
{
    const QJsonObject launched = session().call(
        QStringLiteral("desktop.app"),
        confirmed({{QStringLiteral("action"), QStringLiteral("launch")},
                   {QStringLiteral("app"), QJsonObject{{QStringLiteral("desktopId"), QStringLiteral("galculator")}}}}),
        30000);
    const QJsonObject result = launched.value(QStringLiteral("result")).toObject();
    const qint64 pid = result.value(QStringLiteral("pid")).toInteger();
    ASSERT_GT(pid, 0) << dump(launched);
    EXPECT_TRUE(Automation::Platform::processExecutable(pid).endsWith(QStringLiteral("/galculator")))
        << Automation::Platform::processExecutable(pid).toStdString();
    EXPECT_NE(Automation::Platform::parentPid(pid), session().host().process().processId())
        << "the app is the host's child";
    EXPECT_TRUE(Automation::Platform::processEnvironment(pid, QStringLiteral("GIO_LAUNCHED_DESKTOP_FILE"))
                    .value_or(QString())
                    .endsWith(QStringLiteral("galculator.desktop")));
    EXPECT_FALSE(windowsOfPid(pid).isEmpty()) << "no window for pid " << pid;

    const QJsonObject listed =
        session().call(QStringLiteral("desktop.app"), {{QStringLiteral("action"), QStringLiteral("list")}});
    bool seen = false;
    for (const QJsonValue& app :
         listed.value(QStringLiteral("result")).toObject().value(QStringLiteral("apps")).toArray())
        seen = seen || (app.toObject().value(QStringLiteral("pid")).toInteger() == pid &&
                        app.toObject()
                                .value(QStringLiteral("identity"))
                                .toObject()
                                .value(QStringLiteral("desktopId"))
                                .toString() == QLatin1String("galculator.desktop"));
    EXPECT_TRUE(seen) << dump(listed);

    const QJsonObject quit = session().call(
        QStringLiteral("desktop.app"),
        confirmed({{QStringLiteral("action"), QStringLiteral("quit")},
                   {QStringLiteral("app"), QJsonObject{{QStringLiteral("desktopId"), QStringLiteral("galculator")}}}}),
        30000);
    EXPECT_TRUE(quit.value(QStringLiteral("result")).toObject().value(QStringLiteral("exited")).toBool()) << dump(quit);
    EXPECT_TRUE(endsWithin(pid, 3000));
    if (Automation::Platform::processAlive(pid))
        ::kill(static_cast<pid_t>(pid), SIGKILL);
}

// mousepad keeps one instance per session: the second launch's process hands its work to the
// first and ends; the answer names the first instance.
TEST_F(AppsDesktop, ASecondLaunchHandedToTheRunningInstanceSaysSo)
{
    const auto launch = [&] {
        return session().call(QStringLiteral("desktop.app"),
                              confirmed({{QStringLiteral("action"), QStringLiteral("launch")},
                                         {QStringLiteral("app"), QJsonObject{{QStringLiteral("desktopId"),
                                                                              QStringLiteral("org.xfce.mousepad")}}}}),
                              30000);
    };
    const QJsonObject firstAnswer = launch();
    const QJsonObject first = firstAnswer.value(QStringLiteral("result")).toObject();
    const qint64 pid = first.value(QStringLiteral("pid")).toInteger();
    ASSERT_GT(pid, 0) << dump(firstAnswer);
    EXPECT_FALSE(first.value(QStringLiteral("reusedInstance")).toBool()) << dump(first);
    const QJsonObject secondAnswer = launch();
    const QJsonObject second = secondAnswer.value(QStringLiteral("result")).toObject();
    EXPECT_TRUE(second.value(QStringLiteral("reusedInstance")).toBool()) << dump(secondAnswer);
    EXPECT_EQ(second.value(QStringLiteral("pid")).toInteger(), pid) << dump(secondAnswer);
    EXPECT_NE(second.value(QStringLiteral("startedPid")).toInteger(), pid);

    const QJsonObject quit =
        session().call(QStringLiteral("desktop.app"),
                       confirmed({{QStringLiteral("action"), QStringLiteral("quit")},
                                  {QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), pid}}}}),
                       30000);
    EXPECT_TRUE(quit.value(QStringLiteral("result")).toObject().value(QStringLiteral("exited")).toBool()) << dump(quit);
    if (!endsWithin(pid, 3000))
        ::kill(static_cast<pid_t>(pid), SIGKILL);
}
