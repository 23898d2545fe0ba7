// End to end against a third-party GTK 3 app (gtk3-widget-factory): GTK answers
// Cache.GetItems, names its actions "click", and uses other roles than Qt.
#include "E2eSupport.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QThread>

#include <gtest/gtest.h>

#include <csignal>

using namespace Testing;

namespace {

class Gtk : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_session = new DesktopSession;
        if (!s_session->start()) {
            delete s_session;
            s_session = nullptr;
            return;
        }
        s_app = new AppProcess(QStringLiteral("gtk3-widget-factory"), {});
        if (s_app->start(false))
            QThread::msleep(1500); // no ready line: let it map its window and publish its tree
    }
    static void TearDownTestSuite()
    {
        delete s_app;
        delete s_session;
        s_app = nullptr;
        s_session = nullptr;
    }
    void SetUp() override
    {
        QString why;
        if (!DesktopSession::available(&why))
            GTEST_SKIP() << why.toStdString();
        ASSERT_NE(s_session, nullptr);
        ASSERT_NE(s_app, nullptr);
        ASSERT_EQ(s_app->process().state(), QProcess::Running);
    }
    QJsonObject route() const { return DesktopSession::route(s_app->pid()); }

    static DesktopSession* s_session;
    static AppProcess* s_app;
};

DesktopSession* Gtk::s_session = nullptr;
AppProcess* Gtk::s_app = nullptr;

} // namespace

TEST_F(Gtk, FindsToggleButtonsAndRadioButtons)
{
    const QJsonObject toggles = resultOf(s_session->call(
        QStringLiteral("desktop.find"),
        {{QStringLiteral("route"), route()},
         {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("toggle button")},
                                                  {QStringLiteral("titleEquals"), QStringLiteral("togglebutton")}}}}));
    EXPECT_GE(toggles.value(QStringLiteral("matched")).toInt(), 2);
    const QJsonObject first = toggles.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    EXPECT_EQ(first.value(QStringLiteral("role")).toString(), QStringLiteral("AXCheckBox"));
    // The factory shows each radio button twice, once insensitive: enabledOnly keeps fewer.
    QJsonObject radioSelector{{QStringLiteral("byRole"), QStringLiteral("AXRadioButton")},
                              {QStringLiteral("titleEquals"), QStringLiteral("radiobutton")}};
    const int all =
        resultOf(s_session->call(QStringLiteral("desktop.find"),
                                 {{QStringLiteral("route"), route()}, {QStringLiteral("selector"), radioSelector}}))
            .value(QStringLiteral("matched"))
            .toInt();
    radioSelector.insert(QStringLiteral("enabledOnly"), true);
    const QJsonObject enabled =
        resultOf(s_session->call(QStringLiteral("desktop.find"),
                                 {{QStringLiteral("route"), route()}, {QStringLiteral("selector"), radioSelector}}));
    EXPECT_GE(all, 4);
    EXPECT_GE(enabled.value(QStringLiteral("matched")).toInt(), 1);
    EXPECT_LT(enabled.value(QStringLiteral("matched")).toInt(), all);
}

TEST_F(Gtk, ObserveWritesTheTree)
{
    const QJsonObject response =
        s_session->call(QStringLiteral("desktop.observe"), {{QStringLiteral("route"), route()}});
    const QJsonObject result = resultOf(response);
    ASSERT_FALSE(result.isEmpty()) << QJsonDocument(response).toJson().constData();
    EXPECT_GE(result.value(QStringLiteral("axTree")).toObject().value(QStringLiteral("nodeCount")).toInt(), 100);
    EXPECT_EQ(
        result.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("frontmostBundleId")).toString(),
        QStringLiteral("gtk3-widget-factory"));
}

TEST_F(Gtk, ClicksAGtkButtonAndTypesIntoAnEntry)
{
    const QJsonObject confirm{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
    const QJsonObject typed = resultOf(
        s_session->call(QStringLiteral("desktop.typeText"),
                        {{QStringLiteral("route"), route()},
                         {QStringLiteral("confirm"), confirm},
                         {QStringLiteral("target"),
                          QJsonObject{{QStringLiteral("selector"),
                                       QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                                   {QStringLiteral("enabledOnly"), true},
                                                   {QStringLiteral("valueContains"), QStringLiteral("entry")}}}}},
                         {QStringLiteral("text"), QStringLiteral("typed by mdh")},
                         {QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}}}}));
    EXPECT_EQ(typed.value(QStringLiteral("path")).toString(), QStringLiteral("editableText"));
    EXPECT_TRUE(typed.value(QStringLiteral("matched")).toBool());
    // The same entry now shows the text, read independently through a fresh find.
    const QJsonObject found = resultOf(s_session->call(
        QStringLiteral("desktop.find"),
        {{QStringLiteral("route"), route()},
         {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                                  {QStringLiteral("valueEquals"), QStringLiteral("typed by mdh")}}}}));
    EXPECT_EQ(found.value(QStringLiteral("matched")).toInt(), 1);

    const QJsonObject clicked = resultOf(
        s_session->call(QStringLiteral("desktop.click"),
                        {{QStringLiteral("route"), route()},
                         {QStringLiteral("confirm"), confirm},
                         // The stack switcher's "Page 2" (the notebooks' tabs say "page 2": case matters here).
                         {QStringLiteral("target"),
                          QJsonObject{{QStringLiteral("selector"),
                                       QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXRadioButton")},
                                                   {QStringLiteral("titleEquals"), QStringLiteral("Page 2")},
                                                   {QStringLiteral("caseSensitive"), true}}}}}}));
    EXPECT_TRUE(clicked.value(QStringLiteral("clicked")).toBool());
    EXPECT_EQ(clicked.value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("accessibilityAction:click"));
    // Page 2's widgets are now showing: wait for one of them.
    const QJsonObject waited =
        resultOf(s_session->call(QStringLiteral("desktop.waitUntil"),
                                 {{QStringLiteral("route"), route()},
                                  {QStringLiteral("condition"),
                                   QJsonObject{{QStringLiteral("selectorExists"),
                                                QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXRadioButton")},
                                                            {QStringLiteral("titleEquals"), QStringLiteral("Page 2")},
                                                            {QStringLiteral("caseSensitive"), true},
                                                            {QStringLiteral("visibleOnly"), true}}}}},
                                  {QStringLiteral("timeoutMs"), 5000}}));
    EXPECT_TRUE(waited.value(QStringLiteral("ok")).toBool());
}

TEST_F(Gtk, KeysReachAGtkEntry)
{
    const QJsonObject confirm{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
    // Page 1 holds the entries (an earlier test may have switched pages).
    s_session->call(QStringLiteral("desktop.click"),
                    {{QStringLiteral("route"), route()},
                     {QStringLiteral("confirm"), confirm},
                     {QStringLiteral("target"),
                      QJsonObject{{QStringLiteral("selector"),
                                   QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXRadioButton")},
                                               {QStringLiteral("titleEquals"), QStringLiteral("Page 1")},
                                               {QStringLiteral("caseSensitive"), true}}}}}});
    const QJsonObject entry{
        {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                                 {QStringLiteral("enabledOnly"), true},
                                                 {QStringLiteral("visibleOnly"), true}}}};
    // typeText focuses the entry and sets "abc"; a backspace through the keyboard then removes one.
    const QJsonObject typed =
        resultOf(s_session->call(QStringLiteral("desktop.typeText"),
                                 {{QStringLiteral("route"), route()},
                                  {QStringLiteral("confirm"), confirm},
                                  {QStringLiteral("target"), entry},
                                  {QStringLiteral("text"), QStringLiteral("entry abc")},
                                  {QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}}}}));
    ASSERT_TRUE(typed.value(QStringLiteral("matched")).toBool()) << QJsonDocument(typed).toJson().constData();
    const QJsonObject sent = resultOf(s_session->call(QStringLiteral("desktop.hotkey"),
                                                      {{QStringLiteral("route"), route()},
                                                       {QStringLiteral("confirm"), confirm},
                                                       {QStringLiteral("keys"), QJsonArray{QStringLiteral("end")}}}));
    ASSERT_TRUE(sent.value(QStringLiteral("sent")).toBool());
    s_session->call(QStringLiteral("desktop.hotkey"),
                    {{QStringLiteral("route"), route()},
                     {QStringLiteral("confirm"), confirm},
                     {QStringLiteral("keys"), QJsonArray{QStringLiteral("backspace")}}});
    const QJsonObject waited = resultOf(
        s_session->call(QStringLiteral("desktop.waitUntil"),
                        {{QStringLiteral("route"), route()},
                         {QStringLiteral("condition"),
                          QJsonObject{{QStringLiteral("selectorExists"),
                                       QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                                                   {QStringLiteral("valueEquals"), QStringLiteral("entry ab")}}}}},
                         {QStringLiteral("pollMs"), 50},
                         {QStringLiteral("timeoutMs"), 3000}}));
    EXPECT_TRUE(waited.value(QStringLiteral("ok")).toBool());
}

TEST_F(Gtk, SurvivesTheRegistryRestarting)
{
    // Find the registry daemon's pid on the a11y bus and kill it: the bus starts a new one on
    // the next call, and the host must carry on.
    const CommandResult address =
        runCommand(QStringLiteral("dbus-send"), {QStringLiteral("--session"), QStringLiteral("--print-reply=literal"),
                                                 QStringLiteral("--dest=org.a11y.Bus"), QStringLiteral("/org/a11y/bus"),
                                                 QStringLiteral("org.a11y.Bus.GetAddress")});
    ASSERT_EQ(address.exitCode, 0) << address.err.toStdString();
    const CommandResult pid =
        runCommand(QStringLiteral("dbus-send"),
                   {QStringLiteral("--bus=") + address.out.trimmed(), QStringLiteral("--print-reply=literal"),
                    QStringLiteral("--dest=org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
                    QStringLiteral("org.freedesktop.DBus.GetConnectionUnixProcessID"),
                    QStringLiteral("string:org.a11y.atspi.Registry")});
    ASSERT_EQ(pid.exitCode, 0) << pid.err.toStdString();
    const qint64 registry = pid.out.trimmed().split(QLatin1Char(' ')).last().toLongLong();
    ASSERT_GT(registry, 1);
    ASSERT_EQ(::kill(static_cast<pid_t>(registry), SIGKILL), 0);
    QThread::msleep(300);
    QJsonObject found;
    for (int attempt = 0; attempt < 3 && found.value(QStringLiteral("matched")).toInt() < 1; ++attempt) {
        const QJsonObject response = s_session->call(
            QStringLiteral("desktop.find"),
            {{QStringLiteral("route"), route()},
             {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXRadioButton")},
                                                      {QStringLiteral("titleEquals"), QStringLiteral("Page 3")},
                                                      {QStringLiteral("caseSensitive"), true}}}});
        found = resultOf(response);
        if (found.isEmpty()) {
            // A retryable error is allowed while the registry comes back.
            EXPECT_TRUE(errorOf(response).value(QStringLiteral("retryable")).toBool())
                << QJsonDocument(response).toJson().constData();
        }
    }
    EXPECT_EQ(found.value(QStringLiteral("matched")).toInt(), 1);
}

TEST_F(Gtk, DoctorNamesAppsTheRegistryDoesNotList)
{
    // An app whose windows are on screen but which never registered with the accessibility
    // registry (here: accessibility turned off for it; in life: started before the registry or
    // bus was replaced) cannot be automated, and doctor must say so rather than "healthy".
    AppProcess hidden(QStringLiteral("gtk3-widget-factory"), {});
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("NO_AT_BRIDGE"), QStringLiteral("1"));
    hidden.process().setProcessEnvironment(env);
    ASSERT_TRUE(hidden.start(false));
    QJsonObject named;
    QDeadlineTimer deadline(10000);
    while (named.isEmpty() && !deadline.hasExpired()) {
        // The backend looks again after an execution, at most every 2 s.
        s_session->call(
            QStringLiteral("desktop.find"),
            {{QStringLiteral("route"), route()},
             {QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")}}}});
        const QJsonObject doctor = resultOf(s_session->call(QStringLiteral("desktop.doctor"), {}));
        for (const auto& check : doctor.value(QStringLiteral("checks")).toArray()) {
            const QJsonObject c = check.toObject();
            if (c.value(QStringLiteral("name")).toString() != QLatin1String("accessible_apps"))
                continue;
            for (const auto& app :
                 c.value(QStringLiteral("details")).toObject().value(QStringLiteral("invisibleApps")).toArray()) {
                if (app.toObject().value(QStringLiteral("pid")).toInteger() == hidden.pid())
                    named = c;
            }
        }
        if (named.isEmpty())
            QThread::msleep(500);
    }
    ASSERT_FALSE(named.isEmpty()) << "doctor never named the app that is not in the registry";
    EXPECT_EQ(named.value(QStringLiteral("status")).toString(), QStringLiteral("warning"));
    EXPECT_TRUE(named.value(QStringLiteral("message")).toString().contains(QStringLiteral("Restart them")));
    // The visible, registered widget factory of the suite is not named.
    for (const auto& app :
         named.value(QStringLiteral("details")).toObject().value(QStringLiteral("invisibleApps")).toArray())
        EXPECT_NE(app.toObject().value(QStringLiteral("pid")).toInteger(), s_app->pid());
}
