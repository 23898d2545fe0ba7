// The event stream on the headless desktop (docs/protocol.md §5.24): the real host sees the Qt
// fixture app's window appear, take focus and close, and says so on a subscriber's connection.
#include "E2eSupport.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <functional>
#include <future>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

class EventsDesktop : public SessionSuite
{
};

// The params of the next desktop.event notification that `wanted` takes, every line read kept in
// `lines` when given; nullopt once `timeoutMs` passed.
std::optional<QJsonObject> nextEventWhere(Bridge::Client& client, const std::function<bool(const QJsonObject&)>& wanted,
                                          int timeoutMs, QList<QByteArray>* lines = nullptr)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        const auto line = client.readUnmatched(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        if (!line)
            return std::nullopt;
        if (lines)
            lines->append(*line);
        const QJsonObject message = QJsonDocument::fromJson(*line).object();
        const QJsonObject event = message.value(QStringLiteral("params")).toObject();
        if (message.value(QStringLiteral("method")).toString() == QLatin1String("desktop.event") && wanted(event))
            return event;
    }
    return std::nullopt;
}

std::optional<QJsonObject> nextOf(Bridge::Client& client, const QString& kind, const QString& app, int timeoutMs)
{
    return nextEventWhere(
        client,
        [&](const QJsonObject& event) {
            return event.value(QStringLiteral("kind")).toString() == kind &&
                   event.value(QStringLiteral("app")).toObject().value(QStringLiteral("name")).toString() == app;
        },
        timeoutMs);
}

} // namespace

TEST_F(EventsDesktop, AWindowThatAppearsTakesFocusAndClosesIsStreamed)
{
    Bridge::Client listener;
    ASSERT_TRUE(listener.connectToServer(session().host().socketPath(), 5000));
    Bridge::MetaFill fill;
    fill.timeoutMs = 10000;
    listener.setMetaFill(fill);
    const auto answer =
        listener.call(QStringLiteral("desktop.subscribe"),
                      QJsonObject{{QStringLiteral("kinds"),
                                   QJsonArray{QStringLiteral("window.created"), QStringLiteral("window.focused"),
                                              QStringLiteral("window.closed")}}},
                      15000);
    ASSERT_TRUE(answer.ok());
    ASSERT_TRUE(
        answer.response.value(QStringLiteral("result")).toObject().value(QStringLiteral("subscribed")).toBool());
    QThread::msleep(1500); // the first look only learns what is there
    auto app = std::make_unique<AppProcess>(DesktopSession::fixtureBinary(), QStringList{});
    ASSERT_TRUE(app->start());
    const QString name = QStringLiteral("mdh-target-app");
    const auto created = nextOf(listener, QStringLiteral("window.created"), name, 10000);
    ASSERT_TRUE(created) << "no window.created for the fixture";
    EXPECT_EQ(created->value(QStringLiteral("app")).toObject().value(QStringLiteral("pid")).toInteger(), app->pid());
    EXPECT_FALSE(
        created->value(QStringLiteral("window")).toObject().value(QStringLiteral("title")).toString().isEmpty());
    EXPECT_TRUE(nextOf(listener, QStringLiteral("window.focused"), name, 10000)) << "the new window takes focus";
    app.reset();
    EXPECT_TRUE(nextOf(listener, QStringLiteral("window.closed"), name, 10000));
}

namespace {

// The next desktop.event of `kind` whose element title is `title` (any title when empty).
std::optional<QJsonObject> nextElementEvent(Bridge::Client& client, const QString& kind, const QString& title,
                                            int timeoutMs, QList<QByteArray>* lines = nullptr)
{
    return nextEventWhere(
        client,
        [&](const QJsonObject& event) {
            return event.value(QStringLiteral("kind")).toString() == kind &&
                   (title.isEmpty() ||
                    event.value(QStringLiteral("element")).toObject().value(QStringLiteral("title")).toString() ==
                        title);
        },
        timeoutMs, lines);
}

QJsonObject confirmPhrase()
{
    return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
}

// A third-party app in a process of its own, with its own settings (a scratch HOME), stopped with
// the object; ready once the host finds `selector` in it.
class OwnApp
{
public:
    OwnApp(const QString& program, const QStringList& args)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOME"), m_home.path());
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.path() + QStringLiteral("/.config"));
        m_process.setProcessEnvironment(environment);
        m_process.start(program, args);
    }
    ~OwnApp()
    {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    OwnApp(const OwnApp&) = delete;
    OwnApp& operator=(const OwnApp&) = delete;

    qint64 pid() const { return m_process.processId(); }
    QJsonObject route() const { return DesktopSession::route(pid()); }
    bool ready(DesktopSession& session, const QJsonObject& selector, int timeoutMs = 30000)
    {
        if (!m_process.waitForStarted(10000))
            return false;
        QDeadlineTimer deadline(timeoutMs);
        while (!deadline.hasExpired()) {
            const QJsonObject found =
                session.call(QStringLiteral("desktop.find"),
                             {{QStringLiteral("route"), route()}, {QStringLiteral("selector"), selector}});
            if (found.value(QStringLiteral("result")).toObject().value(QStringLiteral("matched")).toInt() >= 1)
                return true;
            QThread::msleep(300);
        }
        return false;
    }

private:
    QTemporaryDir m_home;
    QProcess m_process;
};

// A subscription of `kinds` for the events of the app with `pid` (under `selector`, if any).
bool subscribe(Bridge::Client& listener, const QString& socket, const QJsonArray& kinds, qint64 pid,
               const QJsonObject& selector = {})
{
    if (!listener.connectToServer(socket, 5000))
        return false;
    Bridge::MetaFill fill;
    fill.timeoutMs = 10000;
    listener.setMetaFill(fill);
    QJsonObject params{{QStringLiteral("kinds"), kinds},
                       {QStringLiteral("route"), QJsonObject{{QStringLiteral("app"), QString::number(pid)}}}};
    if (!selector.isEmpty())
        params.insert(QStringLiteral("selector"), selector);
    const auto answer = listener.call(QStringLiteral("desktop.subscribe"), params, 15000);
    return answer.ok() &&
           answer.response.value(QStringLiteral("result")).toObject().value(QStringLiteral("subscribed")).toBool();
}

} // namespace

// Element events from the Qt fixture, for a subscriber that names their kinds and the app: focus
// moving to a field the host clicked, text typed (as a change, never the text); nothing of what
// was typed into the password field is in any event. (Qt sends no ChildrenChanged for rows added
// to a list view: children events are tested on a GTK app, below.)
TEST_F(EventsDesktop, ElementEventsFromTheAppAndNeverTheText)
{
    auto app = std::make_unique<AppProcess>(DesktopSession::fixtureBinary(), QStringList{QStringLiteral("--honesty")});
    ASSERT_TRUE(app->start());
    const QJsonObject route = DesktopSession::route(app->pid());
    // The host reads the window once (what it knows of the elements names them in events).
    const QJsonObject seen = session().call(
        QStringLiteral("desktop.find"),
        {{QStringLiteral("route"), route},
         {QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Message")}}}});
    ASSERT_EQ(seen.value(QStringLiteral("result")).toObject().value(QStringLiteral("matched")).toInt(), 1)
        << QJsonDocument(seen).toJson().toStdString();

    Bridge::Client listener;
    ASSERT_TRUE(listener.connectToServer(session().host().socketPath(), 5000));
    Bridge::MetaFill fill;
    fill.timeoutMs = 10000;
    listener.setMetaFill(fill);
    const auto answer = listener.call(
        QStringLiteral("desktop.subscribe"),
        QJsonObject{{QStringLiteral("kinds"),
                     QJsonArray{QStringLiteral("focus.changed"), QStringLiteral("element.childrenChanged"),
                                QStringLiteral("element.valueChanged"), QStringLiteral("element.nameChanged"),
                                QStringLiteral("element.stateChanged")}},
                    {QStringLiteral("route"), QJsonObject{{QStringLiteral("app"), QString::number(app->pid())}}}},
        15000);
    ASSERT_TRUE(answer.ok());

    QList<QByteArray> lines;
    // The host clicks into Message: focus moves there.
    const QJsonObject message{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                              {QStringLiteral("titleEquals"), QStringLiteral("Message")}};
    const QJsonObject clicked =
        session().call(QStringLiteral("desktop.click"),
                       {{QStringLiteral("route"), route},
                        {QStringLiteral("confirm"), confirmPhrase()},
                        {QStringLiteral("delivery"), QStringLiteral("pointer")},
                        {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), message}}}});
    ASSERT_TRUE(clicked.contains(QStringLiteral("result"))) << QJsonDocument(clicked).toJson().toStdString();
    const auto focused =
        nextElementEvent(listener, QStringLiteral("focus.changed"), QStringLiteral("Message"), 10000, &lines);
    ASSERT_TRUE(focused) << "no focus.changed for Message";
    EXPECT_EQ(focused->value(QStringLiteral("element")).toObject().value(QStringLiteral("role")).toString(),
              QStringLiteral("AXTextField"));

    // Text typed into it is a change, and a secret typed into the password field is nowhere.
    const QString secret = QStringLiteral("hunter2-correct-horse");
    session().call(QStringLiteral("desktop.typeText"),
                   {{QStringLiteral("route"), route},
                    {QStringLiteral("confirm"), confirmPhrase()},
                    {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), message}}},
                    {QStringLiteral("text"), QStringLiteral("visible words")}});
    EXPECT_TRUE(
        nextElementEvent(listener, QStringLiteral("element.valueChanged"), QStringLiteral("Message"), 10000, &lines))
        << "no valueChanged for Message";
    session().call(QStringLiteral("desktop.typeText"),
                   {{QStringLiteral("route"), route},
                    {QStringLiteral("confirm"), confirmPhrase()},
                    {QStringLiteral("target"),
                     QJsonObject{{QStringLiteral("selector"),
                                  QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Password")}}}}},
                    {QStringLiteral("text"), secret}});
    nextElementEvent(listener, QStringLiteral("none"), QString(), 2000, &lines);
    for (const QByteArray& line : std::as_const(lines)) {
        EXPECT_FALSE(line.contains(secret.toUtf8())) << line.toStdString();
        EXPECT_FALSE(line.contains("visible words")) << "an event carried typed text: " << line.toStdString();
    }
}

// waitUntil with a long poll interval: the person types the text it waits for into the field
// (xdotool, outside the host), and the app's text event brings the next look at once (the answer
// says an event woke it), long before the 20 s timer would have.
TEST_F(EventsDesktop, WaitUntilIsAnsweredByTheAppsEventBeforeItsNextPoll)
{
    auto app = std::make_unique<AppProcess>(DesktopSession::fixtureBinary(), QStringList{});
    ASSERT_TRUE(app->start());
    const QJsonObject route = DesktopSession::route(app->pid());
    const QJsonObject message{{QStringLiteral("byRole"), QStringLiteral("AXTextField")},
                              {QStringLiteral("titleEquals"), QStringLiteral("Message")}};
    const QJsonObject found = session().call(QStringLiteral("desktop.find"),
                                             {{QStringLiteral("route"), route}, {QStringLiteral("selector"), message}});
    const QJsonArray refs =
        found.value(QStringLiteral("result")).toObject().value(QStringLiteral("elementRefs")).toArray();
    ASSERT_EQ(refs.size(), 1) << QJsonDocument(found).toJson().toStdString();
    const QJsonObject frame = refs.first().toObject().value(QStringLiteral("frame")).toObject();
    const QString socket = session().host().socketPath();
    const QString workspace = session().workspace();
    auto waited = std::async(std::launch::async, [=] {
        Bridge::Client client;
        if (!client.connectToServer(socket, 5000))
            return QJsonObject();
        Bridge::MetaFill fill;
        fill.workspacePath = workspace;
        fill.timeoutMs = 30000;
        client.setMetaFill(fill);
        return client
            .call(QStringLiteral("desktop.waitUntil"),
                  {{QStringLiteral("route"), route},
                   {QStringLiteral("condition"),
                    QJsonObject{{QStringLiteral("textMatches"),
                                 QJsonObject{{QStringLiteral("selector"), message},
                                             {QStringLiteral("pattern"), QStringLiteral("ready")}}}}},
                   {QStringLiteral("pollMs"), 20000},
                   {QStringLiteral("timeoutMs"), 25000}},
                  35000)
            .response;
    });
    QThread::msleep(1500); // the first look has found nothing
    const QString x = QString::number(frame.value(QStringLiteral("x")).toInt() + 20);
    const QString y = QString::number(frame.value(QStringLiteral("y")).toInt() + 8);
    runCommand(QStringLiteral("xdotool"), {QStringLiteral("mousemove"), x, y, QStringLiteral("click"),
                                           QStringLiteral("1"), QStringLiteral("type"), QStringLiteral("ready")});
    const QJsonObject answer = waited.get();
    const QJsonObject result = answer.value(QStringLiteral("result")).toObject();
    ASSERT_TRUE(result.value(QStringLiteral("ok")).toBool()) << QJsonDocument(answer).toJson().toStdString();
    const QJsonObject wake = result.value(QStringLiteral("wake")).toObject();
    EXPECT_EQ(wake.value(QStringLiteral("by")).toString(), QStringLiteral("events"));
    EXPECT_EQ(wake.value(QStringLiteral("last")).toString(), QStringLiteral("event"))
        << QJsonDocument(result).toJson().toStdString();
    EXPECT_EQ(wake.value(QStringLiteral("timer")).toInt(), 0) << "the 20 s timer never ran out";
}

// A GTK app's element events: galculator (GTK 3, its own process and settings). A key the host
// clicks changes the display (a value or name event, never the digits), and the switch to the
// basic mode (View > Basic Mode, picked by the host; it starts in the scientific one) hides
// the scientific keys (state changes).
TEST_F(EventsDesktop, ElementEventsFromAGtkApp)
{
    if (QStandardPaths::findExecutable(QStringLiteral("galculator")).isEmpty())
        GTEST_SKIP() << "galculator is installed by scripts/setup";
    OwnApp app(QStringLiteral("galculator"), {});
    const QJsonObject route = app.route();
    const QJsonObject seven{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                            {QStringLiteral("titleEquals"), QStringLiteral("7")}};
    ASSERT_TRUE(app.ready(session(), seven)) << "galculator's keypad never showed";
    Bridge::Client listener;
    ASSERT_TRUE(subscribe(listener, session().host().socketPath(),
                          QJsonArray{QStringLiteral("element.valueChanged"), QStringLiteral("element.nameChanged"),
                                     QStringLiteral("element.stateChanged")},
                          app.pid()));
    session().call(QStringLiteral("desktop.click"),
                   {{QStringLiteral("route"), route},
                    {QStringLiteral("confirm"), confirmPhrase()},
                    {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), seven}}}});
    QList<QByteArray> lines;
    auto changed = nextElementEvent(listener, QStringLiteral("element.valueChanged"), QString(), 5000, &lines);
    if (!changed)
        changed = nextElementEvent(listener, QStringLiteral("element.nameChanged"), QString(), 3000, &lines);
    ASSERT_TRUE(changed) << "no value or name event after a key; seen: "
                         << QByteArray(lines.join('\n')).left(3000).toStdString();
    EXPECT_EQ(changed->value(QStringLiteral("app")).toObject().value(QStringLiteral("pid")).toInteger(), app.pid());

    // The keypad rebuilt: galculator's own View menu item for the basic mode.
    const QJsonObject picked =
        session().call(QStringLiteral("desktop.menuPick"),
                       {{QStringLiteral("route"), route},
                        {QStringLiteral("confirm"), confirmPhrase()},
                        {QStringLiteral("path"), QJsonArray{QStringLiteral("View"), QStringLiteral("Basic mode")}}});
    // The scientific keypad goes: its keys stop showing.
    const auto hidden = nextElementEvent(listener, QStringLiteral("element.stateChanged"), QString(), 10000, &lines);
    ASSERT_TRUE(hidden) << "no stateChanged after the mode switch (" << QJsonDocument(picked).toJson().toStdString()
                        << "); seen: " << QByteArray(lines.join('\n')).left(3000).toStdString();
    EXPECT_FALSE(hidden->value(QStringLiteral("state")).toString().isEmpty());
}

// Children added under an element of a GTK app: a new document in mousepad (its own process)
// adds a page to the notebook.
TEST_F(EventsDesktop, ChildrenAddedInAGtkApp)
{
    if (QStandardPaths::findExecutable(QStringLiteral("mousepad")).isEmpty())
        GTEST_SKIP() << "mousepad is installed by scripts/setup";
    OwnApp app(QStringLiteral("mousepad"), {QStringLiteral("--disable-server")});
    const QJsonObject route = app.route();
    ASSERT_TRUE(app.ready(session(), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextArea")}}))
        << "mousepad's document never showed";
    Bridge::Client listener;
    ASSERT_TRUE(subscribe(listener, session().host().socketPath(),
                          QJsonArray{QStringLiteral("element.childrenChanged")}, app.pid()));
    const QJsonObject pressed =
        session().call(QStringLiteral("desktop.hotkey"),
                       {{QStringLiteral("route"), route},
                        {QStringLiteral("confirm"), confirmPhrase()},
                        {QStringLiteral("keys"), QJsonArray{QStringLiteral("ctrl"), QStringLiteral("n")}}});
    QList<QByteArray> lines;
    const auto added = nextElementEvent(listener, QStringLiteral("element.childrenChanged"), QString(), 10000, &lines);
    ASSERT_TRUE(added) << "no childrenChanged after a new document (" << QJsonDocument(pressed).toJson().toStdString()
                       << ")";
    EXPECT_EQ(added->value(QStringLiteral("app")).toObject().value(QStringLiteral("pid")).toInteger(), app.pid());
}

// Children added under a selector, as a person would watch a list for new rows: a new document in
// mousepad adds a page to its tabs (AXTabGroup); a subscriber for those tabs hears of it, one for
// tabs of another title hears nothing, and the app shows two tabs.
TEST_F(EventsDesktop, ChildrenAddedUnderASelectorInAGtkApp)
{
    if (QStandardPaths::findExecutable(QStringLiteral("mousepad")).isEmpty())
        GTEST_SKIP() << "mousepad is installed by scripts/setup";
    OwnApp app(QStringLiteral("mousepad"), {QStringLiteral("--disable-server")});
    const QJsonObject route = app.route();
    ASSERT_TRUE(app.ready(session(), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTextArea")}}))
        << "mousepad's document never showed";
    const QJsonObject tabs{{QStringLiteral("byRole"), QStringLiteral("AXTabGroup")}};
    Bridge::Client underTabs;
    ASSERT_TRUE(subscribe(underTabs, session().host().socketPath(),
                          QJsonArray{QStringLiteral("element.childrenChanged")}, app.pid(), tabs));
    Bridge::Client underOther;
    ASSERT_TRUE(subscribe(underOther, session().host().socketPath(),
                          QJsonArray{QStringLiteral("element.childrenChanged")}, app.pid(),
                          QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTabGroup")},
                                      {QStringLiteral("titleEquals"), QStringLiteral("No such tabs")}}));
    const QJsonObject pressed =
        session().call(QStringLiteral("desktop.hotkey"),
                       {{QStringLiteral("route"), route},
                        {QStringLiteral("confirm"), confirmPhrase()},
                        {QStringLiteral("keys"), QJsonArray{QStringLiteral("ctrl"), QStringLiteral("n")}}});
    QList<QByteArray> lines;
    const auto added = nextElementEvent(underTabs, QStringLiteral("element.childrenChanged"), QString(), 10000, &lines);
    ASSERT_TRUE(added) << "no childrenChanged under the tabs after a new document ("
                       << QJsonDocument(pressed).toJson().toStdString() << ")";
    EXPECT_EQ(added->value(QStringLiteral("app")).toObject().value(QStringLiteral("pid")).toInteger(), app.pid());
    EXPECT_FALSE(added->contains(QStringLiteral("lineage")));

    // The app itself: two tabs now.
    QDeadlineTimer shown(10000);
    int pages = 0;
    while (!shown.hasExpired() && pages < 2) {
        pages = session()
                    .call(QStringLiteral("desktop.find"),
                          {{QStringLiteral("route"), route},
                           {QStringLiteral("selector"),
                            QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXTabButton")}}}})
                    .value(QStringLiteral("result"))
                    .toObject()
                    .value(QStringLiteral("matched"))
                    .toInt();
        if (pages < 2)
            QThread::msleep(200);
    }
    EXPECT_EQ(pages, 2);
    QList<QByteArray> other;
    EXPECT_FALSE(nextElementEvent(underOther, QStringLiteral("element.childrenChanged"), QString(), 1500, &other))
        << "tabs of another title are not these: " << QByteArray(other.join('\n')).left(2000).toStdString();
}

// A name that changes in a GTK app, heard by a subscriber for the window alone: typing into a new
// mousepad document marks it modified, and the window's title gains its "*" (the event carries
// the new title and the one before it, never the text typed).
TEST_F(EventsDesktop, AWindowsNewTitleInAGtkApp)
{
    if (QStandardPaths::findExecutable(QStringLiteral("mousepad")).isEmpty())
        GTEST_SKIP() << "mousepad is installed by scripts/setup";
    OwnApp app(QStringLiteral("mousepad"), {QStringLiteral("--disable-server")});
    const QJsonObject route = app.route();
    const QJsonObject document{{QStringLiteral("byRole"), QStringLiteral("AXTextArea")}};
    ASSERT_TRUE(app.ready(session(), document)) << "mousepad's document never showed";
    Bridge::Client listener;
    ASSERT_TRUE(subscribe(listener, session().host().socketPath(), QJsonArray{QStringLiteral("element.nameChanged")},
                          app.pid(), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXWindow")}}));
    const QString typed = QStringLiteral("a secret note");
    const QJsonObject answer =
        session().call(QStringLiteral("desktop.typeText"),
                       {{QStringLiteral("route"), route},
                        {QStringLiteral("confirm"), confirmPhrase()},
                        {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), document}}},
                        {QStringLiteral("text"), typed}});
    ASSERT_TRUE(answer.value(QStringLiteral("result")).toObject().value(QStringLiteral("typed")).toBool())
        << QJsonDocument(answer).toJson().toStdString();
    QList<QByteArray> lines;
    std::optional<QJsonObject> renamed;
    QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        renamed = nextElementEvent(listener, QStringLiteral("element.nameChanged"), QString(),
                                   static_cast<int>(std::max<qint64>(1, deadline.remainingTime())), &lines);
        if (!renamed || renamed->value(QStringLiteral("element"))
                            .toObject()
                            .value(QStringLiteral("title"))
                            .toString()
                            .startsWith(QLatin1Char('*')))
            break;
    }
    ASSERT_TRUE(renamed) << "no new title for the window; seen: "
                         << QByteArray(lines.join('\n')).left(3000).toStdString();
    const QJsonObject element = renamed->value(QStringLiteral("element")).toObject();
    EXPECT_EQ(element.value(QStringLiteral("role")).toString(), QStringLiteral("AXWindow"));
    EXPECT_TRUE(element.value(QStringLiteral("title")).toString().startsWith(QLatin1Char('*')))
        << element.value(QStringLiteral("title")).toString().toStdString();
    EXPECT_FALSE(renamed->value(QStringLiteral("was")).toString().startsWith(QLatin1Char('*')))
        << "was: the title before the change";
    for (const QByteArray& line : std::as_const(lines))
        EXPECT_FALSE(line.contains(typed.toUtf8())) << "the text typed never appears in an event";

    // The app itself: the window list shows the new title.
    const QJsonArray windows = session()
                                   .call(QStringLiteral("desktop.windows"), {})
                                   .value(QStringLiteral("result"))
                                   .toObject()
                                   .value(QStringLiteral("windows"))
                                   .toArray();
    bool shown = false;
    for (const auto& window : windows) {
        const QJsonObject w = window.toObject();
        if (w.value(QStringLiteral("pid")).toInteger() == app.pid())
            shown = shown ||
                    w.value(QStringLiteral("title")).toString() == element.value(QStringLiteral("title")).toString();
    }
    EXPECT_TRUE(shown) << QJsonDocument(windows).toJson().toStdString();
}

namespace {

// The next desktop.event of `kind` about a window of process `pid`.
std::optional<QJsonObject> nextWindowEvent(Bridge::Client& client, const QString& kind, qint64 pid, int timeoutMs,
                                           QList<QByteArray>* seen = nullptr)
{
    return nextEventWhere(
        client,
        [&](const QJsonObject& event) {
            return event.value(QStringLiteral("kind")).toString() == kind &&
                   event.value(QStringLiteral("app")).toObject().value(QStringLiteral("pid")).toInteger() == pid;
        },
        timeoutMs, seen);
}

QString gtkDialogScript()
{
    return QStringLiteral(MDH_E2E_DATA_DIR "/gtk_dialog.py");
}

QJsonObject healthOf(Bridge::Client& client)
{
    return client.call(QStringLiteral("desktop.health"), {}, 10000).response.value(QStringLiteral("result")).toObject();
}

} // namespace

// "Watch for the dialog I am about to open": on a fresh host, a first subscription to every kind,
// then a GTK dialog shown within 100 ms of the answer. The window watch learned what was there
// before answering, so the dialog is news: window.created, with its title and pid, as the
// dialog itself says it was shown.
TEST(EventsDesktopWatch, ADialogOpenedRightAfterAFirstSubscriptionIsReported)
{
    QString why;
    if (!DesktopSession::available(&why))
        GTEST_SKIP() << why.toStdString();
    HostProcess host(QString(), {QStringLiteral("--events-linger-seconds"), QStringLiteral("3")});
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    const QString title = QStringLiteral("Delete report.txt?");
    AppProcess dialog(QStringLiteral("/usr/bin/python3"),
                      {gtkDialogScript(), QStringLiteral("--on-request"), QStringLiteral("--title"), title});
    ASSERT_TRUE(dialog.start(false));
    ASSERT_TRUE(dialog.waitEvent(QStringLiteral("started"), {}, 15000)) << "the dialog's process did not start";

    Bridge::Client listener;
    ASSERT_TRUE(listener.connectToServer(host.socketPath(), 5000));
    Bridge::MetaFill fill;
    fill.timeoutMs = 10000;
    fill.workspacePath = host.workspaceRoot();
    listener.setMetaFill(fill);
    const auto answer = listener.call(QStringLiteral("desktop.subscribe"), {}, 15000);
    ASSERT_TRUE(answer.ok()) << QJsonDocument(answer.response).toJson().toStdString();
    QElapsedTimer sinceAnswer;
    sinceAnswer.start();
    dialog.process().write("show\n");
    dialog.process().waitForBytesWritten(1000);
    ASSERT_LT(sinceAnswer.elapsed(), 100) << "the dialog was asked to show within 100 ms of the answer";
    ASSERT_TRUE(dialog.waitEvent(QStringLiteral("ready"), {}, 10000)) << "the dialog says it is shown";

    QList<QByteArray> seen;
    const auto created = nextWindowEvent(listener, QStringLiteral("window.created"), dialog.pid(), 10000, &seen);
    ASSERT_TRUE(created) << "no window.created for the dialog; seen:\n" << seen.join('\n').toStdString();
    EXPECT_EQ(created->value(QStringLiteral("window")).toObject().value(QStringLiteral("title")).toString(), title);
    EXPECT_GT(created->value(QStringLiteral("cursor")).toInteger(),
              answer.response.value(QStringLiteral("result")).toObject().value(QStringLiteral("cursor")).toInteger());
    // The host's own answer is not the only evidence: the window manager lists the dialog.
    const QJsonObject windows = listener.call(QStringLiteral("desktop.windows"), {}, 15000).response;
    bool listed = false;
    for (const auto& window :
         windows.value(QStringLiteral("result")).toObject().value(QStringLiteral("windows")).toArray())
        listed = listed || window.toObject().value(QStringLiteral("title")).toString() == title;
    EXPECT_TRUE(listed) << QJsonDocument(windows).toJson().toStdString();
    EXPECT_TRUE(healthOf(listener)
                    .value(QStringLiteral("events"))
                    .toObject()
                    .value(QStringLiteral("watch"))
                    .toObject()
                    .value(QStringLiteral("sources"))
                    .toObject()
                    .value(QStringLiteral("windows"))
                    .toObject()
                    .value(QStringLiteral("watching"))
                    .toBool());
}

// A daemon that reconnects loses nothing: subscribe (with the contract's route object, as a client
// passes to every call), read the cursor, disconnect, the dialog closes, reconnect with the
// cursor: the window.closed that happened meanwhile is replayed. The linger (3 s here) then ends
// and health says the watch stopped.
TEST(EventsDesktopWatch, AReaderThatComesBackGetsTheCloseThatHappenedWhileAway)
{
    QString why;
    if (!DesktopSession::available(&why))
        GTEST_SKIP() << why.toStdString();
    HostProcess host(QString(), {QStringLiteral("--events-linger-seconds"), QStringLiteral("3")});
    ASSERT_TRUE(host.start()) << host.output().toStdString();
    const QString title = QStringLiteral("Overwrite notes.txt?");
    auto dialog = std::make_unique<AppProcess>(QStringLiteral("/usr/bin/python3"),
                                               QStringList{gtkDialogScript(), QStringLiteral("--title"), title});
    ASSERT_TRUE(dialog->start());
    const qint64 pid = dialog->pid();

    qint64 cursor = 0;
    QString epoch;
    Bridge::MetaFill fill;
    fill.timeoutMs = 10000;
    {
        Bridge::Client first;
        ASSERT_TRUE(first.connectToServer(host.socketPath(), 5000));
        first.setMetaFill(fill);
        const QJsonObject route{
            {QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), pid}}},
            {QStringLiteral("window"), QJsonObject{{QStringLiteral("titlePattern"), QStringLiteral("^Overwrite")}}},
            {QStringLiteral("focusPolicy"), QStringLiteral("focusIfNeeded")}};
        const auto answer = first.call(
            QStringLiteral("desktop.subscribe"),
            {{QStringLiteral("kinds"), QJsonArray{QStringLiteral("window.created"), QStringLiteral("window.closed")}},
             {QStringLiteral("route"), route}},
            15000);
        ASSERT_TRUE(answer.ok()) << QJsonDocument(answer.response).toJson().toStdString();
        const QJsonObject result = answer.response.value(QStringLiteral("result")).toObject();
        cursor = result.value(QStringLiteral("cursor")).toInteger();
        epoch = result.value(QStringLiteral("epoch")).toString();
        EXPECT_EQ(result.value(QStringLiteral("ignored"))
                      .toArray()
                      .at(0)
                      .toObject()
                      .value(QStringLiteral("field"))
                      .toString(),
                  QStringLiteral("route.focusPolicy"));
        first.disconnectFromServer();
    }
    // The person (or the app) closes the dialog while the reader is away.
    dialog.reset();
    QThread::msleep(500);

    Bridge::Client again;
    ASSERT_TRUE(again.connectToServer(host.socketPath(), 5000));
    again.setMetaFill(fill);
    const QJsonObject watch =
        healthOf(again).value(QStringLiteral("events")).toObject().value(QStringLiteral("watch")).toObject();
    EXPECT_TRUE(watch.value(QStringLiteral("running")).toBool()) << QJsonDocument(watch).toJson().toStdString();
    EXPECT_TRUE(QDateTime::fromString(watch.value(QStringLiteral("until")).toString(), Qt::ISODateWithMs).isValid())
        << "only a lingering subscription keeps it running: " << QJsonDocument(watch).toJson().toStdString();
    const auto resumed = again.call(
        QStringLiteral("desktop.subscribe"),
        {{QStringLiteral("kinds"), QJsonArray{QStringLiteral("window.closed")}},
         {QStringLiteral("route"), QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), pid}}}}},
         {QStringLiteral("since"), cursor},
         {QStringLiteral("epoch"), epoch}},
        15000);
    ASSERT_TRUE(resumed.ok());
    QList<QByteArray> seen;
    const auto closed = nextWindowEvent(again, QStringLiteral("window.closed"), pid, 5000, &seen);
    ASSERT_TRUE(closed) << "the close was not replayed; seen:\n" << seen.join('\n').toStdString();
    EXPECT_EQ(closed->value(QStringLiteral("window")).toObject().value(QStringLiteral("title")).toString(), title);
    EXPECT_LT(closed->value(QStringLiteral("cursor")).toInteger(),
              resumed.response.value(QStringLiteral("result")).toObject().value(QStringLiteral("cursor")).toInteger() +
                  1)
        << "it happened before the reader came back";
    again.disconnectFromServer();

    // The linger ends by itself.
    Bridge::Client observer;
    ASSERT_TRUE(observer.connectToServer(host.socketPath(), 5000));
    observer.setMetaFill(fill);
    QDeadlineTimer deadline(10000);
    bool stopped = false;
    while (!stopped && !deadline.hasExpired()) {
        QThread::msleep(250);
        stopped = !healthOf(observer)
                       .value(QStringLiteral("events"))
                       .toObject()
                       .value(QStringLiteral("watch"))
                       .toObject()
                       .value(QStringLiteral("running"))
                       .toBool();
    }
    EXPECT_TRUE(stopped) << "the linger of 3 s did not end";
}
