// Honest outcomes, end to end: the fixture app's --honesty panel reproduces what real apps do to
// an automation host (a field that keeps part of the text, a click that changes nothing, a field
// that ignores EditableText, a modal dialog inside the accessibility call, a blocked event loop,
// children added without ChildrenChanged, coalesced clicks, multi-line Unicode text). Each test
// checks the effect through the app's own JSON lines and the answer's honest fields: `effect`,
// the contract boolean (true only for confirmed or unverifiable) and `verification`.
#include "E2eSupport.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUuid>

#include <gtest/gtest.h>

#include <algorithm>

using namespace Testing;

namespace {

const QStringList kEffects{QStringLiteral("confirmed"), QStringLiteral("partial"), QStringLiteral("suspected_noop"),
                           QStringLiteral("unverifiable")};

// Comparisons are made on std::string: gtest's printers for QString are instantiated in every
// test file, and the linker keeps one copy, so a printer defined here would not be used.
std::string str(const QJsonValue& value)
{
    return value.toString().toStdString();
}

std::string dump(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString();
}

QString sha256(const QString& text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

class Honesty : public ::testing::Test
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
        }
    }
    static void TearDownTestSuite()
    {
        delete s_session;
        s_session = nullptr;
    }
    void SetUp() override
    {
        QString why;
        if (!DesktopSession::available(&why))
            GTEST_SKIP() << why.toStdString();
        ASSERT_NE(s_session, nullptr) << "the host did not start";
    }

    std::unique_ptr<AppProcess> startApp()
    {
        m_title = QStringLiteral("Honesty %1").arg(QUuid::createUuid().toString(QUuid::Id128).left(8));
        auto app =
            std::make_unique<AppProcess>(DesktopSession::fixtureBinary(),
                                         QStringList{QStringLiteral("--honesty"), QStringLiteral("--title"), m_title});
        EXPECT_TRUE(app->start()) << "the fixture app did not start";
        return app;
    }

    static QJsonObject selector(const QString& role, const QString& title = {})
    {
        QJsonObject selector{{QStringLiteral("byRole"), role}};
        if (!title.isEmpty())
            selector.insert(QStringLiteral("titleEquals"), title);
        return selector;
    }
    static QJsonObject confirm() { return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}; }
    static QJsonObject clickParams(qint64 pid, const QJsonObject& target)
    {
        return {{QStringLiteral("route"), DesktopSession::route(pid)},
                {QStringLiteral("confirm"), confirm()},
                {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), target}}}};
    }

    QJsonObject find(qint64 pid, const QJsonObject& target, int timeoutMs = 20000)
    {
        return s_session->call(
            QStringLiteral("desktop.find"),
            {{QStringLiteral("route"), DesktopSession::route(pid)}, {QStringLiteral("selector"), target}}, timeoutMs);
    }
    int matched(qint64 pid, const QJsonObject& target)
    {
        const QJsonObject response = find(pid, target);
        EXPECT_TRUE(errorOf(response).isEmpty()) << dump(response);
        return resultOf(response).value(QStringLiteral("matched")).toInt();
    }
    QJsonObject click(qint64 pid, const QJsonObject& target, int timeoutMs = 20000)
    {
        return s_session->call(QStringLiteral("desktop.click"), clickParams(pid, target), timeoutMs);
    }
    QJsonObject typeText(qint64 pid, const QJsonObject& target, const QString& text)
    {
        return s_session->call(QStringLiteral("desktop.typeText"),
                               {{QStringLiteral("route"), DesktopSession::route(pid)},
                                {QStringLiteral("confirm"), confirm()},
                                {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), target}}},
                                {QStringLiteral("text"), text}});
    }
    QJsonObject waitUntil(qint64 pid, const QJsonObject& target, int pollMs, int timeoutMs)
    {
        return s_session->call(QStringLiteral("desktop.waitUntil"),
                               {{QStringLiteral("route"), DesktopSession::route(pid)},
                                {QStringLiteral("condition"), QJsonObject{{QStringLiteral("selectorExists"), target}}},
                                {QStringLiteral("pollMs"), pollMs},
                                {QStringLiteral("timeoutMs"), timeoutMs}},
                               timeoutMs + 2000);
    }

    QString m_title;
    static DesktopSession* s_session;
};

DesktopSession* Honesty::s_session = nullptr;

/// The invariants of every side-effect result (docs/protocol.md §5, "Side-effect answers"): a known
/// `effect`, the contract boolean true exactly for confirmed and unverifiable, a `verification`
/// object and its cost. Reports every broken one in a single failure (with the answer) and returns
/// the effect.
std::string checkHonestFields(const QJsonObject& result, const QString& booleanField)
{
    QStringList problems;
    const QString effect = result.value(QStringLiteral("effect")).toString();
    if (!kEffects.contains(effect))
        problems << QStringLiteral("effect is \"%1\", not one of %2").arg(effect, kEffects.join(QStringLiteral(", ")));
    const bool done = effect == QLatin1String("confirmed") || effect == QLatin1String("unverifiable");
    const QJsonValue flag = result.value(booleanField);
    if (!flag.isBool() || flag.toBool() != done)
        problems << QStringLiteral("%1 must be %2 for effect \"%3\"")
                        .arg(booleanField, done ? QStringLiteral("true") : QStringLiteral("false"), effect);
    const QJsonObject verification = result.value(QStringLiteral("verification")).toObject();
    if (verification.isEmpty())
        problems << QStringLiteral("no verification object");
    else if (!verification.value(QStringLiteral("verifyMs")).isDouble())
        problems << QStringLiteral("no verification.verifyMs");
    if (!result.value(QStringLiteral("timing")).toObject().value(QStringLiteral("verifyMs")).isDouble())
        problems << QStringLiteral("no timing.verifyMs");
    EXPECT_TRUE(problems.isEmpty()) << problems.join(QStringLiteral("; ")).toStdString() << "\n" << dump(result);
    return effect.toStdString();
}

/// Every line the app printed until `settleMs` from now that no waitEvent consumed yet. It waits
/// for an event the app never prints, which reads the pipe and consumes nothing.
QList<QJsonObject> settledEvents(AppProcess& app, int settleMs = 500)
{
    app.waitEvent(QStringLiteral("(none: settle)"), {}, settleMs);
    return app.events();
}

/// The text the app last reported for a field ("textChanged" lines), after `settleMs`.
std::optional<std::string> lastText(AppProcess& app, const QString& field, int settleMs = 500)
{
    std::optional<std::string> text;
    for (const QJsonObject& event : settledEvents(app, settleMs)) {
        if (event.value(QStringLiteral("event")).toString() == QLatin1String("textChanged") &&
            event.value(QStringLiteral("name")).toString() == field)
            text = str(event.value(QStringLiteral("text")));
    }
    return text;
}

int countEvents(const QList<QJsonObject>& events, const QString& event, const QString& name)
{
    return static_cast<int>(std::count_if(events.cbegin(), events.cend(), [&](const QJsonObject& e) {
        return e.value(QStringLiteral("event")).toString() == event &&
               e.value(QStringLiteral("name")).toString() == name;
    }));
}

} // namespace

// "partial": a field with maxLength 5 keeps "hello" of "hello world". No path of the ladder can
// do better, so the answer is a result with typed:false, effect "partial" and what was read back.
TEST_F(Honesty, ShortFieldKeepsPartOfTheTextAndTheAnswerSaysPartial)
{
    auto app = startApp();
    const QJsonObject response =
        typeText(app->pid(), selector(QStringLiteral("AXTextField"), QStringLiteral("Short field")),
                 QStringLiteral("hello world"));
    ASSERT_TRUE(errorOf(response).isEmpty()) << "a partial delivery is a result, not an error\n" << dump(response);
    const QJsonObject result = resultOf(response);
    EXPECT_FALSE(result.value(QStringLiteral("typed")).toBool());
    EXPECT_EQ(checkHonestFields(result, QStringLiteral("typed")), "partial");
    const QJsonObject verification = result.value(QStringLiteral("verification")).toObject();
    const QJsonObject observed = verification.value(QStringLiteral("observed")).toObject();
    EXPECT_EQ(observed.value(QStringLiteral("length")).toInt(), 5) << dump(result);
    EXPECT_EQ(str(observed.value(QStringLiteral("sha256"))), sha256(QStringLiteral("hello")).toStdString());
    const QJsonArray paths = verification.value(QStringLiteral("paths")).toArray();
    EXPECT_FALSE(paths.isEmpty());
    for (const QJsonValue& path : paths)
        EXPECT_NE(str(path.toObject().value(QStringLiteral("effect"))), "confirmed");
    // The app shows "hello", not doubled by a later path.
    EXPECT_EQ(lastText(*app, QStringLiteral("Short field")), "hello");
}

// "suspected_noop": the toolkit takes the press, and nothing changes.
TEST_F(Honesty, ButtonThatDoesNothingIsASuspectedNoop)
{
    auto app = startApp();
    const QJsonObject response =
        click(app->pid(), selector(QStringLiteral("AXButton"), QStringLiteral("Does nothing")));
    ASSERT_TRUE(errorOf(response).isEmpty()) << "nothing changed: a result, not an error\n" << dump(response);
    const QJsonObject result = resultOf(response);
    EXPECT_FALSE(result.value(QStringLiteral("clicked")).toBool());
    EXPECT_EQ(checkHonestFields(result, QStringLiteral("clicked")), "suspected_noop");
    // The press did reach the app (so the answer is about the missing effect, not a lost click).
    EXPECT_TRUE(app->waitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), QStringLiteral("Does nothing")}})
                    .has_value());
}

// EditableText answers true and the field keeps its old text (as in Firefox). The host must read
// that back, go down the ladder (paste, keys), and say typed:true only once the field shows the
// text, which the app itself reports.
TEST_F(Honesty, FieldThatIgnoresEditableTextGetsTheTextByAnotherPath)
{
    auto app = startApp();
    const QString text = QStringLiteral("kept by the field");
    const QJsonObject response =
        typeText(app->pid(), selector(QStringLiteral("AXTextField"), QStringLiteral("Ignoring field")), text);
    ASSERT_TRUE(errorOf(response).isEmpty()) << dump(response);
    const QJsonObject result = resultOf(response);
    const std::optional<std::string> shown = lastText(*app, QStringLiteral("Ignoring field"));
    if (result.value(QStringLiteral("typed")).toBool()) {
        EXPECT_EQ(shown, text.toStdString()) << "typed:true while the field shows something else";
    }
    EXPECT_EQ(checkHonestFields(result, QStringLiteral("typed")), "confirmed");
    EXPECT_EQ(shown, text.toStdString()) << "the field must end with the text, once (paste or keys work here)";
    EXPECT_NE(str(result.value(QStringLiteral("path"))), "editableText");
    const QJsonArray paths =
        result.value(QStringLiteral("verification")).toObject().value(QStringLiteral("paths")).toArray();
    ASSERT_FALSE(paths.isEmpty()) << dump(result);
    for (const QJsonValue& value : paths) {
        const QJsonObject path = value.toObject();
        if (path.value(QStringLiteral("path")).toString() == QLatin1String("editableText")) {
            EXPECT_NE(str(path.value(QStringLiteral("effect"))), "confirmed");
        }
    }
    EXPECT_EQ(str(paths.last().toObject().value(QStringLiteral("effect"))), "confirmed");
}

// Qt's Action.DoAction does not answer while the modal dialog it opened runs (exec()). The click
// is a result within its timeout, never retryable; the dialog can then be waited for by role and
// closed.
TEST_F(Honesty, ClickThatOpensAModalDialogIsAResultAndNeverRetryable)
{
    auto app = startApp();
    QElapsedTimer timer;
    timer.start();
    const QJsonObject response =
        click(app->pid(), selector(QStringLiteral("AXButton"), QStringLiteral("Open dialog…")), 5000);
    const qint64 elapsed = timer.elapsed();
    EXPECT_FALSE(errorOf(response).value(QStringLiteral("retryable")).toBool())
        << "the dialog opened: retrying would press again\n"
        << dump(response);
    EXPECT_TRUE(errorOf(response).isEmpty()) << "the dialog opened: the click is a result";
    EXPECT_LE(elapsed, 5500) << "the request's timeout is 5000 ms";
    const QJsonObject result = resultOf(response);
    EXPECT_TRUE(result.value(QStringLiteral("clicked")).toBool());
    if (!result.isEmpty()) {
        EXPECT_EQ(checkHonestFields(result, QStringLiteral("clicked")), "confirmed");
    }
    ASSERT_TRUE(app->waitEvent(QStringLiteral("dialog"), {{QStringLiteral("name"), QStringLiteral("Fixture dialog")},
                                                          {QStringLiteral("result"), QStringLiteral("opened")}})
                    .has_value());

    const QJsonObject waited = waitUntil(app->pid(), selector(QStringLiteral("AXDialog")), 200, 5000);
    EXPECT_TRUE(resultOf(waited).value(QStringLiteral("ok")).toBool()) << dump(waited);
    const QJsonObject ok = click(app->pid(), selector(QStringLiteral("AXButton"), QStringLiteral("OK")));
    EXPECT_TRUE(resultOf(ok).value(QStringLiteral("clicked")).toBool()) << dump(ok);
    EXPECT_TRUE(app->waitEvent(QStringLiteral("dialog"), {{QStringLiteral("name"), QStringLiteral("Fixture dialog")},
                                                          {QStringLiteral("result"), QStringLiteral("accepted")}})
                    .has_value());
    // And the app is usable afterwards.
    EXPECT_EQ(matched(app->pid(), selector(QStringLiteral("AXButton"), QStringLiteral("Does nothing"))), 1);
}

// While the app's event loop is blocked, requests answer DESKTOP_TARGET_UNRESPONSIVE; that mark
// expires by itself, so a waitUntil polling every 200 ms sees the app within about a second of the
// end of the block. The block comes from the app itself (a command on its standard input), so
// nothing the host did caused it.
TEST_F(Honesty, BlockedAppIsUnresponsiveThenSeenAgainByAFastWaitUntil)
{
    auto app = startApp();
    const QJsonObject button = selector(QStringLiteral("AXButton"), QStringLiteral("Does nothing"));
    ASSERT_EQ(matched(app->pid(), button), 1);
    app->process().write("block\n");
    ASSERT_TRUE(app->process().waitForBytesWritten(3000));
    ASSERT_TRUE(app->waitEvent(QStringLiteral("block")).has_value());

    const QJsonObject during = find(app->pid(), button, 1500);
    EXPECT_EQ(errorCode(during).toStdString(), "DESKTOP_TARGET_UNRESPONSIVE") << dump(during);

    const QJsonObject waited = waitUntil(app->pid(), button, 200, 8000);
    const qint64 answeredAt = QDateTime::currentMSecsSinceEpoch();
    EXPECT_TRUE(resultOf(waited).value(QStringLiteral("ok")).toBool()) << dump(waited);
    const auto ended = app->waitEvent(QStringLiteral("blockEnded"), {}, 3000);
    ASSERT_TRUE(ended.has_value());
    const qint64 late = answeredAt - ended->value(QStringLiteral("at")).toInteger();
    EXPECT_LE(late, 1500) << "the app answered again " << late << " ms before the wait saw it";
}

// The same block, started by a click through the host ("Block 2 s"): the click happened, so its
// answer is never a retryable error and never says it did not happen; the app is seen again soon.
TEST_F(Honesty, ClickOnAButtonThatBlocksIsNeverRetryable)
{
    auto app = startApp();
    const QJsonObject button = selector(QStringLiteral("AXButton"), QStringLiteral("Block 2 s"));
    const QJsonObject response = click(app->pid(), button, 5000);
    ASSERT_TRUE(app->waitEvent(QStringLiteral("block")).has_value()) << dump(response);
    if (!errorOf(response).isEmpty()) {
        EXPECT_FALSE(errorOf(response).value(QStringLiteral("retryable")).toBool()) << dump(response);
    } else {
        const QJsonObject result = resultOf(response);
        EXPECT_TRUE(result.value(QStringLiteral("clicked")).toBool()) << "the app got the click\n" << dump(result);
        checkHonestFields(result, QStringLiteral("clicked"));
    }
    const QJsonObject waited = waitUntil(app->pid(), button, 200, 8000);
    const qint64 answeredAt = QDateTime::currentMSecsSinceEpoch();
    EXPECT_TRUE(resultOf(waited).value(QStringLiteral("ok")).toBool()) << dump(waited);
    const auto ended = app->waitEvent(QStringLiteral("blockEnded"), {}, 3000);
    ASSERT_TRUE(ended.has_value());
    EXPECT_LE(answeredAt - ended->value(QStringLiteral("at")).toInteger(), 1500);
}

// Qt 6.4 announces a new MDI subwindow with no ChildrenChanged. With the host's tree warm (the MDI
// area's children read), the next find must see the new window.
TEST_F(Honesty, NewMdiWindowIsSeenByTheNextFind)
{
    auto app = startApp();
    ASSERT_EQ(matched(app->pid(), selector(QStringLiteral("AXWindow"), QStringLiteral("Window 1"))), 1)
        << "the first subwindow, read now so that the host holds the area's children";
    const QJsonObject clicked = click(app->pid(), selector(QStringLiteral("AXButton"), QStringLiteral("New window")));
    ASSERT_TRUE(errorOf(clicked).isEmpty()) << dump(clicked);
    ASSERT_TRUE(app->waitEvent(QStringLiteral("windowOpened"), {{QStringLiteral("name"), QStringLiteral("Window 2")}})
                    .has_value());
    EXPECT_EQ(matched(app->pid(), selector(QStringLiteral("AXWindow"), QStringLiteral("Window 2"))), 1);
}

// Rows: a row appended to a list view comes with no ChildrenChanged either.
TEST_F(Honesty, NewRowIsSeenByTheNextFind)
{
    auto app = startApp();
    ASSERT_EQ(matched(app->pid(), selector(QStringLiteral("AXRow"), QStringLiteral("Row 2"))), 1);
    const QJsonObject clicked = click(app->pid(), selector(QStringLiteral("AXButton"), QStringLiteral("Add row")));
    ASSERT_TRUE(errorOf(clicked).isEmpty()) << dump(clicked);
    ASSERT_TRUE(
        app->waitEvent(QStringLiteral("rowAdded"), {{QStringLiteral("item"), QStringLiteral("Row 3")}}).has_value());
    EXPECT_EQ(matched(app->pid(), selector(QStringLiteral("AXRow"), QStringLiteral("Row 3"))), 1);
}

// Without any action of the host: the app adds a window and a row by itself (commands on its
// standard input), so only validating the cached tree can reveal them.
TEST_F(Honesty, WindowAndRowAddedByTheAppItselfAreSeenByTheNextFind)
{
    auto app = startApp();
    ASSERT_EQ(matched(app->pid(), selector(QStringLiteral("AXWindow"), QStringLiteral("Window 1"))), 1);
    ASSERT_EQ(matched(app->pid(), selector(QStringLiteral("AXRow"), QStringLiteral("Row 2"))), 1);
    app->process().write("new-window\nadd-row\n");
    ASSERT_TRUE(app->process().waitForBytesWritten(3000));
    ASSERT_TRUE(app->waitEvent(QStringLiteral("windowOpened"), {{QStringLiteral("name"), QStringLiteral("Window 2")}})
                    .has_value());
    ASSERT_TRUE(
        app->waitEvent(QStringLiteral("rowAdded"), {{QStringLiteral("item"), QStringLiteral("Row 3")}}).has_value());
    EXPECT_EQ(matched(app->pid(), selector(QStringLiteral("AXWindow"), QStringLiteral("Window 2"))), 1);
    EXPECT_EQ(matched(app->pid(), selector(QStringLiteral("AXRow"), QStringLiteral("Row 3"))), 1);
}

// Five clicks sent back to back on a button whose handler drops clicks within 200 ms of the last
// one it acted on (and Qt's own Press merges presses within 100 ms). Every answer saying
// clicked:true must match a click the app acted on, and vice versa.
TEST_F(Honesty, RapidClicksOnACoalescingButtonAreCountedAsTheAppCountsThem)
{
    auto app = startApp();
    const QJsonObject button = selector(QStringLiteral("AXButton"), QStringLiteral("Coalescing"));
    ASSERT_EQ(matched(app->pid(), button), 1);
    constexpr int kClicks = 5;
    TestClient client(s_session->host().socketPath());
    ASSERT_TRUE(client.isConnected());
    for (int i = 1; i <= kClicks; ++i)
        client.send(TestClient::request(
            QStringLiteral("desktop.click"),
            TestClient::withMeta(clickParams(app->pid(), button), s_session->workspace(), 20000), i));
    int saidClicked = 0;
    for (int i = 0; i < kClicks; ++i) {
        const auto answer = client.readObject(30000);
        ASSERT_TRUE(answer.has_value()) << "answer " << i + 1 << " of " << kClicks << " missing";
        ASSERT_TRUE(errorOf(*answer).isEmpty()) << dump(*answer);
        const QJsonObject result = resultOf(*answer);
        const std::string effect = checkHonestFields(result, QStringLiteral("clicked"));
        EXPECT_TRUE(effect == "confirmed" || effect == "suspected_noop")
            << "each press either changed the count or did not\n"
            << dump(result);
        if (result.value(QStringLiteral("clicked")).toBool())
            ++saidClicked;
    }
    const QList<QJsonObject> events = settledEvents(*app, 800);
    const int appClicked = countEvents(events, QStringLiteral("clicked"), QStringLiteral("Coalescing"));
    EXPECT_GE(appClicked, 1);
    EXPECT_EQ(saidClicked, appClicked) << "answers with clicked:true vs clicks the app acted on ("
                                       << countEvents(events, QStringLiteral("clickIgnored"),
                                                      QStringLiteral("Coalescing"))
                                       << " more reached it and were dropped)";
}

// The same selector finds the multi-line text edit and types into it, and every character
// arrives, emoji (outside the BMP) included.
TEST_F(Honesty, NotesAreaKeepsOneRoleAndGetsUnicodeTextExactly)
{
    auto app = startApp();
    // Found by its title, the element is a text area: the role selector below must agree.
    const QJsonObject byTitle =
        resultOf(find(app->pid(), QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Notes")}}));
    ASSERT_EQ(byTitle.value(QStringLiteral("matched")).toInt(), 1);
    const QJsonObject notes = byTitle.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    ASSERT_EQ(str(notes.value(QStringLiteral("role"))), "AXTextArea");

    const QJsonObject area = selector(QStringLiteral("AXTextArea"));
    const QJsonObject found = find(app->pid(), area);
    const QJsonObject foundResult = resultOf(found);
    EXPECT_EQ(foundResult.value(QStringLiteral("matched")).toInt(), 1) << dump(found);
    const QJsonObject ref = foundResult.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    EXPECT_EQ(str(ref.value(QStringLiteral("title"))), "Notes");

    const QString text = QStringLiteral("héllo wörld 你好 🙂");
    const QJsonObject response = typeText(app->pid(), area, text);
    ASSERT_TRUE(errorOf(response).isEmpty()) << "the same selector as find's\n" << dump(response);
    const QJsonObject result = resultOf(response);
    EXPECT_TRUE(result.value(QStringLiteral("typed")).toBool());
    EXPECT_EQ(checkHonestFields(result, QStringLiteral("typed")), "confirmed");
    EXPECT_EQ(lastText(*app, QStringLiteral("Notes")), text.toStdString());
}
