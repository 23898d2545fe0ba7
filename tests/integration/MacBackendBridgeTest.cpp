// The macOS backend's logic on Linux: the real bridge host with MacBackend over FakeAxApi, an
// in-memory AX world. The backend conformance suite runs here as it runs end to end for AT-SPI,
// then what is the macOS backend's own: unresponsive apps, a host without the accessibility
// grant, a field that ignores accessibility writes, an action whose reply never comes, Command
// chords, routes by bundle id, the window server's list.
#include "MacTarget.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include <thread>

#include <gtest/gtest.h>

using namespace Testing;

using namespace MacTesting;

// ---- the backend conformance suite ----

TEST(MacConformance, FindsAButtonByRoleAndTitle)
{
    MacTarget t;
    Conformance::findsAButtonByRoleAndTitle(t);
}

TEST(MacConformance, NamesWhatItCouldNotFind)
{
    MacTarget t;
    Conformance::namesWhatItCouldNotFind(t);
}

TEST(MacConformance, ObservesTheTreeAndTheScreen)
{
    MacTarget t;
    Conformance::observesTheTreeAndTheScreen(t);
}

TEST(MacConformance, ClickPressesTheButton)
{
    MacTarget t;
    Conformance::clickPressesTheButton(t);
}

TEST(MacConformance, TypesIntoTheFieldAndReadsItBack)
{
    MacTarget t;
    Conformance::typesIntoTheFieldAndReadsItBack(t);
}

TEST(MacConformance, ClearBeforeReplacesTheText)
{
    MacTarget t;
    Conformance::clearBeforeReplacesTheText(t);
}

TEST(MacConformance, TypesASecretWithoutShowingIt)
{
    MacTarget t;
    Conformance::typesASecretWithoutShowingIt(t);
}

TEST(MacConformance, ReadsTextButNeverASecret)
{
    MacTarget t;
    Conformance::readsTextButNeverASecret(t);
}

TEST(MacConformance, TogglesTheCheckBox)
{
    MacTarget t;
    Conformance::togglesTheCheckBox(t);
}

TEST(MacConformance, AHotkeyReachesTheApp)
{
    MacTarget t;
    Conformance::aHotkeyReachesTheApp(t);
}

TEST(MacConformance, RefusesASideEffectWithoutConfirmation)
{
    MacTarget t;
    Conformance::refusesASideEffectWithoutConfirmation(t);
}

// ---- what is the macOS backend's own ----

// An app that never answers costs the request its messaging timeout, not the whole budget, and
// is named; the timeout set on the app is capped by the request's budget.
TEST(MacBackend, AnAppThatNeverAnswersIsNamedWithinTheBudget)
{
    MacTarget t;
    t.world->setHung(kPid, true);
    QElapsedTimer timer;
    timer.start();
    const QJsonObject response =
        t.call(QStringLiteral("desktop.find"),
               {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    EXPECT_LT(timer.elapsed(), 5000);
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_TARGET_UNRESPONSIVE")) << dump(response);
    EXPECT_EQ(errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("pid")).toInteger(),
              kPid);
    const double timeout = t.world->messagingTimeouts().value(kPid);
    EXPECT_GT(timeout, 0.0);
    EXPECT_LE(timeout, 2.0);
    // It answers again: so does the host.
    t.world->setHung(kPid, false);
    QThread::msleep(50);
    const QJsonObject again =
        t.call(QStringLiteral("desktop.find"),
               {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    EXPECT_EQ(resultOf(again).value(QStringLiteral("matched")).toInt(), 1) << dump(again);
}

TEST(MacBackend, WithoutTheAccessibilityGrantEveryCallSaysSo)
{
    MacTarget t;
    t.world->setTrusted(false);
    const QJsonObject response =
        t.call(QStringLiteral("desktop.find"),
               {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_PERMISSION_MISSING")) << dump(response);
    EXPECT_EQ(
        errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("permission")).toString(),
        QStringLiteral("accessibility"));
    // It names what to grant, to which program (this one), and where.
    const QJsonObject grant =
        errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("grant")).toObject();
    EXPECT_EQ(grant.value(QStringLiteral("program")).toString(), QCoreApplication::applicationFilePath())
        << dump(response);
    EXPECT_FALSE(grant.value(QStringLiteral("setting")).toString().isEmpty());
    EXPECT_TRUE(errorOf(response)
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QCoreApplication::applicationFilePath()));
    EXPECT_TRUE(t.world->actionLog().isEmpty());
}

// A field that takes accessibility writes and ignores them (as web views do) is not reported as
// typed: the ladder goes on to the pasteboard, which is put back afterwards.
TEST(MacBackend, AFieldThatIgnoresWritesGetsThePasteAndTheClipboardIsPutBack)
{
    MacTarget t;
    const QString field = t.world->find(QStringLiteral("AXTextField"), QStringLiteral("Message"));
    t.world->setIgnoresValueWrites(field, true);
    t.world->setPasteboard(QStringLiteral("what the person copied"));
    const QJsonObject response = t.call(
        QStringLiteral("desktop.typeText"),
        {{QStringLiteral("confirm"), confirm()},
         {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                 selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
         {QStringLiteral("text"), QStringLiteral("pasted in")}});
    const QJsonObject result = resultOf(response);
    EXPECT_TRUE(result.value(QStringLiteral("typed")).toBool()) << dump(response);
    EXPECT_EQ(result.value(QStringLiteral("path")).toString(), QStringLiteral("clipboard")) << dump(response);
    const QJsonArray paths =
        result.value(QStringLiteral("verification")).toObject().value(QStringLiteral("paths")).toArray();
    ASSERT_GE(paths.size(), 2) << dump(response);
    EXPECT_EQ(paths.at(0).toObject().value(QStringLiteral("path")).toString(), QStringLiteral("editableText"));
    EXPECT_EQ(paths.at(0).toObject().value(QStringLiteral("effect")).toString(), QStringLiteral("suspected_noop"));
    EXPECT_EQ(t.world->text(field), QStringLiteral("pasted in"));
    EXPECT_EQ(t.world->pasteboard(), QStringLiteral("what the person copied"));
}

// A field that takes nothing at all: no path may claim the text arrived.
TEST(MacBackend, AFieldThatTakesNothingIsNeverReportedTyped)
{
    MacTarget t;
    const QString field = t.world->find(QStringLiteral("AXTextField"), QStringLiteral("Message"));
    t.world->setIgnoresValueWrites(field, true);
    // Keys and pastes go to the window's other field instead (the focus moved away).
    const QString other = t.world->find(QStringLiteral("AXTextField"), QStringLiteral("Password"));
    t.world->onAction(field, nullptr);
    const QJsonObject response = t.call(
        QStringLiteral("desktop.typeText"),
        {{QStringLiteral("confirm"), confirm()},
         {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                 selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
         {QStringLiteral("delivery"), QStringLiteral("editableText")},
         {QStringLiteral("text"), QStringLiteral("lost")}});
    const QJsonObject result = resultOf(response);
    EXPECT_FALSE(result.value(QStringLiteral("typed")).toBool()) << dump(response);
    EXPECT_EQ(result.value(QStringLiteral("effect")).toString(), QStringLiteral("suspected_noop"));
    EXPECT_TRUE(t.world->text(field).isEmpty());
    EXPECT_TRUE(t.world->text(other).isEmpty());
}

// AXPress on a button that opens a modal dialog does not reply before the messaging timeout;
// the action ran. The answer says what was seen and is not retryable.
TEST(MacBackend, AnActionWhoseReplyNeverCameIsJudgedByWhatTheAppShows)
{
    MacTarget t;
    const QString send = t.world->find(QStringLiteral("AXButton"), QStringLiteral("Send"));
    t.world->failNextAction(send, Automation::Mac::AxError::CannotComplete);
    const QJsonObject response = t.call(
        QStringLiteral("desktop.click"),
        {{QStringLiteral("confirm"), confirm()},
         {QStringLiteral("target"),
          QJsonObject{{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}}});
    const QJsonObject result = resultOf(response);
    EXPECT_TRUE(result.value(QStringLiteral("clicked")).toBool()) << dump(response);
    EXPECT_EQ(result.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"));
    EXPECT_EQ(t.world->actionLog(), QStringList{send + QStringLiteral(":AXPress")});

    // A button with no visible effect whose reply never comes: unverifiable, never suspected_noop.
    const QString quiet = t.world->addElement(t.window, QStringLiteral("AXButton"), QStringLiteral("Open Dialog"),
                                              QRectF(210, 520, 120, 32));
    t.world->failNextAction(quiet, Automation::Mac::AxError::CannotComplete);
    const QJsonObject pending =
        resultOf(t.call(QStringLiteral("desktop.click"),
                        {{QStringLiteral("confirm"), confirm()},
                         {QStringLiteral("target"),
                          QJsonObject{{QStringLiteral("selector"),
                                       selector(QStringLiteral("AXButton"), QStringLiteral("Open Dialog"))}}}}));
    EXPECT_EQ(pending.value(QStringLiteral("effect")).toString(), QStringLiteral("unverifiable")) << dump(pending);
}

// cmd is Command: held as a flag on every key of the chord, released last.
TEST(MacBackend, ACommandChordHoldsTheFlagOnEveryKey)
{
    MacTarget t;
    const QJsonObject response =
        t.call(QStringLiteral("desktop.hotkey"),
               {{QStringLiteral("confirm"), confirm()},
                {QStringLiteral("keys"), QJsonArray{QStringLiteral("cmd"), QStringLiteral("s")}}});
    EXPECT_FALSE(response.contains(QStringLiteral("error"))) << dump(response);
    EXPECT_EQ(t.world->inputLog(),
              (QStringList{QStringLiteral("down:0x37:0x100000"), QStringLiteral("down:0x01:0x100000"),
                           QStringLiteral("up:0x01:0x100000"), QStringLiteral("up:0x37:0x0")}));
    // A key macOS has no code for is refused before anything is pressed.
    t.world->inputLog();
    const QJsonObject refused =
        t.call(QStringLiteral("desktop.hotkey"),
               {{QStringLiteral("confirm"), confirm()}, {QStringLiteral("keys"), QJsonArray{QStringLiteral("f24")}}});
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(refused);
    EXPECT_EQ(t.world->inputLog().size(), 4);
}

// Routes by bundle id and window title; the frontmost app by default; never the host itself.
TEST(MacBackend, RoutesByBundleIdTitleAndPid)
{
    MacTarget t;
    t.world->addApp(QStringLiteral("Notes"), QStringLiteral("com.apple.Notes"), 5151);
    t.world->addWindow(5151, QStringLiteral("Shopping list"), QRectF(700, 100, 400, 300));
    t.world->addWindow(5151, QStringLiteral("Ideas"), QRectF(720, 120, 400, 300));
    const auto routed = [&](const QJsonObject& route) {
        return resultOf(t.call(QStringLiteral("desktop.observe"), {{QStringLiteral("route"), route}}))
            .value(QStringLiteral("routeResolved"))
            .toObject();
    };
    const QJsonObject byBundle = routed(QJsonObject{
        {QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("com.apple.Notes")}}},
        {QStringLiteral("window"), QJsonObject{{QStringLiteral("titlePattern"), QStringLiteral("^Shop")}}}});
    EXPECT_EQ(byBundle.value(QStringLiteral("windowTitle")).toString(), QStringLiteral("Shopping list"))
        << dump(byBundle);
    EXPECT_EQ(byBundle.value(QStringLiteral("pid")).toInteger(), 5151);
    // No route: the frontmost app, the conformance app.
    t.world->activate(kPid);
    const QJsonObject frontmost =
        resultOf(t.call(QStringLiteral("desktop.observe"), {{QStringLiteral("route"), QJsonObject{}}}))
            .value(QStringLiteral("routeResolved"))
            .toObject();
    EXPECT_EQ(frontmost.value(QStringLiteral("pid")).toInteger(), kPid) << dump(frontmost);
    const QJsonObject missing =
        t.call(QStringLiteral("desktop.observe"),
               {{QStringLiteral("route"),
                 QJsonObject{{QStringLiteral("app"),
                              QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("com.example.none")}}}}}});
    EXPECT_EQ(errorCode(missing), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")) << dump(missing);
}

TEST(MacBackend, ListsTheWindowServersWindows)
{
    MacTarget t;
    const QJsonObject response = t.call(QStringLiteral("desktop.windows"), {});
    const QJsonArray windows = resultOf(response).value(QStringLiteral("windows")).toArray();
    ASSERT_EQ(windows.size(), 1) << dump(response);
    EXPECT_EQ(windows.at(0).toObject().value(QStringLiteral("title")).toString(), QStringLiteral("MDH Target App"));
    EXPECT_EQ(windows.at(0).toObject().value(QStringLiteral("pid")).toInteger(), kPid);
}

// Window actions through AX, each read back from the window itself.
TEST(MacBackend, WindowActionsAreReadBackFromTheWindow)
{
    MacTarget t;
    const auto act = [&](QJsonObject params) {
        params.insert(QStringLiteral("confirm"), confirm());
        return t.call(QStringLiteral("desktop.window"), params);
    };
    const QJsonObject moved = resultOf(
        act({{QStringLiteral("action"), QStringLiteral("move")},
             {QStringLiteral("position"), QJsonObject{{QStringLiteral("x"), 40}, {QStringLiteral("y"), 60}}}}));
    EXPECT_EQ(moved.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(moved);
    EXPECT_EQ(t.world->attribute(t.window, QStringLiteral("AXPosition"))->point, QPointF(40, 60));
    const QJsonObject resized = resultOf(
        act({{QStringLiteral("action"), QStringLiteral("resize")},
             {QStringLiteral("size"), QJsonObject{{QStringLiteral("width"), 600}, {QStringLiteral("height"), 500}}}}));
    EXPECT_EQ(resized.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(resized);
    EXPECT_EQ(t.world->attribute(t.window, QStringLiteral("AXSize"))->size, QSizeF(600, 500));
    const QJsonObject minimized = resultOf(act({{QStringLiteral("action"), QStringLiteral("minimize")}}));
    EXPECT_EQ(minimized.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(minimized);
    EXPECT_TRUE(t.world->attribute(t.window, QStringLiteral("AXMinimized"))->boolean);
    const QJsonObject restored = resultOf(act({{QStringLiteral("action"), QStringLiteral("restore")}}));
    EXPECT_EQ(restored.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(restored);
    EXPECT_FALSE(t.world->attribute(t.window, QStringLiteral("AXMinimized"))->boolean);
    const QJsonObject zoomed = resultOf(act({{QStringLiteral("action"), QStringLiteral("maximize")}}));
    EXPECT_EQ(zoomed.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(zoomed);
    EXPECT_EQ(t.world->attribute(t.window, QStringLiteral("AXSize"))->size, QSizeF(1440, 875));
    const QJsonObject closed = resultOf(act({{QStringLiteral("action"), QStringLiteral("close")}}));
    EXPECT_EQ(closed.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(closed);
    EXPECT_FALSE(t.world->attribute(t.window, QStringLiteral("AXRole")).has_value());
    EXPECT_TRUE(
        resultOf(t.call(QStringLiteral("desktop.windows"), {})).value(QStringLiteral("windows")).toArray().isEmpty());
}

// A field that takes text and tells nothing (its value cannot be read): the text goes in once,
// by the first path, and the answer says nothing could be verified; no second path types it again.
TEST(MacBackend, AFieldThatTellsNothingIsTypedOnceAndSaidUnverifiable)
{
    MacTarget t;
    const QString field = t.world->find(QStringLiteral("AXTextField"), QStringLiteral("Message"));
    t.world->setValueUnreadable(field, true);
    const QJsonObject response = t.call(
        QStringLiteral("desktop.typeText"),
        {{QStringLiteral("confirm"), confirm()},
         {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                 selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
         {QStringLiteral("text"), QStringLiteral("once")}});
    const QJsonObject result = resultOf(response);
    EXPECT_EQ(result.value(QStringLiteral("effect")).toString(), QStringLiteral("unverifiable")) << dump(response);
    EXPECT_FALSE(result.value(QStringLiteral("readBack")).toBool());
    EXPECT_EQ(result.value(QStringLiteral("verification")).toObject().value(QStringLiteral("paths")).toArray().size(),
              1);
    EXPECT_EQ(t.world->text(field), QStringLiteral("once"));
}

// A pasteboard holding an image is never overwritten: the paste path is skipped, saying why, and
// the keys type the text.
TEST(MacBackend, APasteboardWithoutTextIsLeftAlone)
{
    MacTarget t;
    const QString field = t.world->find(QStringLiteral("AXTextField"), QStringLiteral("Message"));
    t.world->setIgnoresValueWrites(field, true);
    t.world->setPasteboardHoldsNoText();
    const qint64 changes = t.world->pasteboardChanges();
    const QJsonObject response = t.call(
        QStringLiteral("desktop.typeText"),
        {{QStringLiteral("confirm"), confirm()},
         {QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"),
                                                 selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}},
         {QStringLiteral("text"), QStringLiteral("by keys")}});
    const QJsonObject result = resultOf(response);
    EXPECT_TRUE(result.value(QStringLiteral("typed")).toBool()) << dump(response);
    EXPECT_EQ(result.value(QStringLiteral("path")).toString(), QStringLiteral("keys"));
    const QJsonArray paths =
        result.value(QStringLiteral("verification")).toObject().value(QStringLiteral("paths")).toArray();
    ASSERT_EQ(paths.size(), 3) << dump(response);
    EXPECT_TRUE(paths.at(1).toObject().contains(QStringLiteral("skipped"))) << dump(response);
    EXPECT_EQ(t.world->pasteboardChanges(), changes);
    EXPECT_EQ(t.world->text(field), QStringLiteral("by keys"));
}

// A disabled button is not pressed: refused, naming why.
TEST(MacBackend, ADisabledButtonIsNotPressed)
{
    MacTarget t;
    const QString send = t.world->find(QStringLiteral("AXButton"), QStringLiteral("Send"));
    t.world->setAttribute(send, QStringLiteral("AXEnabled"), Automation::Mac::AxValue::ofBool(false));
    const QJsonObject response = t.call(
        QStringLiteral("desktop.click"),
        {{QStringLiteral("confirm"), confirm()},
         {QStringLiteral("target"),
          QJsonObject{{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}}}});
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")) << dump(response);
    EXPECT_EQ(errorOf(response).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("disabled"));
    EXPECT_TRUE(t.world->actionLog().isEmpty());
}

// Pointer gestures as CGEvents: a double click carries click counts 1 and 2, a drag is dragged
// events between a press and a release, a long press holds, a hover is read back.
TEST(MacBackend, PointerGesturesPostWhatAppsExpect)
{
    MacTarget t;
    const auto gesture = [&](QJsonObject params) {
        params.insert(QStringLiteral("confirm"), confirm());
        return t.call(QStringLiteral("desktop.pointer"), params);
    };
    const QJsonObject point{{QStringLiteral("x"), 270}, {QStringLiteral("y"), 496}}; // Send
    const QJsonObject hovered =
        resultOf(gesture({{QStringLiteral("gesture"), QStringLiteral("move")}, {QStringLiteral("point"), point}}));
    EXPECT_EQ(hovered.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(hovered);

    const int before = static_cast<int>(t.world->pointerLog().size());
    const QJsonObject doubled = resultOf(gesture({{QStringLiteral("gesture"), QStringLiteral("click")},
                                                  {QStringLiteral("point"), point},
                                                  {QStringLiteral("count"), 2}}));
    EXPECT_FALSE(doubled.isEmpty()) << dump(doubled);
    EXPECT_EQ(t.world->pointerLog().mid(before),
              (QStringList{QStringLiteral("move:270,496"), QStringLiteral("down:left:270,496:1"),
                           QStringLiteral("up:left:270,496:1"), QStringLiteral("down:left:270,496:2"),
                           QStringLiteral("up:left:270,496:2")}));
    // Two clicks on Send: pressed twice, and the app showed it.
    EXPECT_EQ(t.world->actionLog().size(), 2);
    EXPECT_EQ(doubled.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(doubled);

    const int mark = static_cast<int>(t.world->pointerLog().size());
    const QJsonObject dragged = resultOf(
        gesture({{QStringLiteral("gesture"), QStringLiteral("drag")},
                 {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), 400}, {QStringLiteral("y"), 300}}},
                 {QStringLiteral("to"), QJsonObject{{QStringLiteral("x"), 500}, {QStringLiteral("y"), 320}}},
                 {QStringLiteral("durationMs"), 100}}));
    EXPECT_FALSE(dragged.isEmpty()) << dump(dragged);
    const QStringList drag = t.world->pointerLog().mid(mark);
    ASSERT_GE(drag.size(), 4) << drag.join(QLatin1Char(' ')).toStdString();
    EXPECT_EQ(drag.at(1), QStringLiteral("down:left:400,300:1"));
    EXPECT_TRUE(drag.at(2).startsWith(QStringLiteral("drag:left:")));
    EXPECT_EQ(drag.at(drag.size() - 2), QStringLiteral("drag:left:500,320"));
    EXPECT_EQ(drag.last(), QStringLiteral("up:left:500,320:1"));
    EXPECT_EQ(t.world->actionLog().size(), 2); // a drag presses nothing
}

// ---- element events from the apps' AX notifications ----

namespace {

Automation::Mac::AxNotice axNotice(const QString& notification, const Automation::Mac::AxKnown& element,
                                   const QList<Automation::Mac::AxKnown>& ancestors)
{
    return Testing::axNotice(kPid, QStringLiteral("MDH Target App"), notification, notification + element.title,
                             element, ancestors, QStringLiteral("MDH Target App"));
}

} // namespace

// A subscriber for the rows of one table, over the bridge: a row created in it arrives (the
// table named as the element), one in another list and a window's new title do not.
TEST(MacEventsBridge, ElementEventsUnderASelectorReachTheSubscriber)
{
    MacTarget target;
    TestClient listener(target.host->socketPath());
    const QJsonObject answer = listener.call(
        QStringLiteral("desktop.subscribe"),
        TestClient::withMeta(
            QJsonObject{{QStringLiteral("kinds"),
                         QJsonArray{QStringLiteral("element.childrenChanged"), QStringLiteral("element.nameChanged")}},
                        {QStringLiteral("route"), QJsonObject{{QStringLiteral("app"), QString::number(kPid)}}},
                        {QStringLiteral("selector"), selector(QStringLiteral("AXTable"), QStringLiteral("Chats"))}},
            target.host->workspace()));
    ASSERT_TRUE(resultOf(answer).value(QStringLiteral("subscribed")).toBool()) << dump(answer);
    ASSERT_TRUE(eventually([&] { return target.world->streaming(); })) << "the host starts the backend's stream";

    using Automation::Mac::AxKnown;
    const AxKnown window{QStringLiteral("AXWindow"), QStringLiteral("AXStandardWindow"),
                         QStringLiteral("MDH Target App")};
    const AxKnown chats{QStringLiteral("AXTable"), {}, QStringLiteral("Chats")};
    const AxKnown contacts{QStringLiteral("AXTable"), {}, QStringLiteral("Contacts")};
    std::thread stream([&] {
        target.world->notice(
            axNotice(QStringLiteral("AXCreated"), AxKnown{QStringLiteral("AXRow"), {}, {}}, {contacts, window}));
        target.world->notice(axNotice(QStringLiteral("AXTitleChanged"), window, {}));
        target.world->notice(
            axNotice(QStringLiteral("AXCreated"), AxKnown{QStringLiteral("AXRow"), {}, {}}, {chats, window}));
    });
    stream.join();
    std::optional<QJsonObject> event;
    QDeadlineTimer deadline(10000);
    while (!event && !deadline.hasExpired()) {
        const auto message = listener.readObject(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        if (!message)
            break;
        if (message->value(QStringLiteral("method")).toString() == QLatin1String("desktop.event"))
            event = message->value(QStringLiteral("params")).toObject();
    }
    ASSERT_TRUE(event) << "no event for the row added to Chats";
    EXPECT_EQ(event->value(QStringLiteral("kind")).toString(), QStringLiteral("element.childrenChanged"));
    EXPECT_EQ(event->value(QStringLiteral("change")).toString(), QStringLiteral("added"));
    EXPECT_EQ(event->value(QStringLiteral("element")).toObject().value(QStringLiteral("title")).toString(),
              QStringLiteral("Chats"));
    EXPECT_EQ(event->value(QStringLiteral("app")).toObject().value(QStringLiteral("pid")).toInteger(), kPid);
    EXPECT_FALSE(event->contains(QStringLiteral("lineage")));
    EXPECT_FALSE(listener.readObject(300)) << "nothing else was under Chats";
    listener.call(QStringLiteral("desktop.unsubscribe"), TestClient::withMeta({}, target.host->workspace()));
    EXPECT_TRUE(eventually([&] { return !target.world->streaming(); })) << "nobody listens: the stream stops";
}

// waitUntil on the macOS backend looks again as soon as the app sends a notification: a button
// that appears with its AXCreated notice answers a wait whose timer is 20 s.
TEST(MacEventsBridge, WaitUntilIsAnsweredByTheAppsNotificationBeforeItsNextPoll)
{
    MacTarget target;
    EXPECT_FALSE(target.world->streaming()) << "no subscriber: no observers of every app";
    std::thread app([&] {
        // The wait observes the route's app once its first look found nothing.
        QDeadlineTimer observed(10000);
        while (!target.world->observed().contains(kPid) && !observed.hasExpired())
            QThread::msleep(5);
        target.world->addElement(target.window, QStringLiteral("AXButton"), QStringLiteral("Archive"),
                                 QRectF(210, 520, 120, 32));
        target.world->notice(
            axNotice(QStringLiteral("AXCreated"),
                     Automation::Mac::AxKnown{QStringLiteral("AXButton"), {}, QStringLiteral("Archive")},
                     {Automation::Mac::AxKnown{QStringLiteral("AXWindow"), {}, QStringLiteral("MDH Target App")}}));
    });
    const QJsonObject answer =
        target.call(QStringLiteral("desktop.waitUntil"),
                    QJsonObject{{QStringLiteral("condition"),
                                 QJsonObject{{QStringLiteral("selectorExists"),
                                              selector(QStringLiteral("AXButton"), QStringLiteral("Archive"))}}},
                                {QStringLiteral("pollMs"), 20000},
                                {QStringLiteral("timeoutMs"), 15000}});
    app.join();
    const QJsonObject result = resultOf(answer);
    ASSERT_TRUE(result.value(QStringLiteral("ok")).toBool()) << dump(answer);
    const QJsonObject wake = result.value(QStringLiteral("wake")).toObject();
    EXPECT_EQ(wake.value(QStringLiteral("by")).toString(), QStringLiteral("events")) << dump(result);
    EXPECT_EQ(wake.value(QStringLiteral("last")).toString(), QStringLiteral("event")) << dump(result);
    EXPECT_EQ(wake.value(QStringLiteral("timer")).toInt(), 0);
}

// desktop.clipboard on the macOS backend (the general pasteboard through AxApi): a write is
// read back and the person's text put back after restoreAfterMs; a concealed copy answers its
// types only; a copied image is kept as evidence.
TEST(MacBackend, TheClipboardIsThePasteboardAndAConcealedCopyIsNeverRead)
{
    MacTarget t;
    t.world->setPasteboard(QStringLiteral("the person's"));
    const QJsonObject written =
        t.call(QStringLiteral("desktop.clipboard"),
               {{QStringLiteral("action"), QStringLiteral("write")},
                {QStringLiteral("text"), QStringLiteral("from the agent")},
                {QStringLiteral("restoreAfterMs"), 200},
                {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}}});
    EXPECT_EQ(resultOf(written).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"))
        << dump(written);
    EXPECT_EQ(t.world->pasteboard(), QStringLiteral("from the agent"));
    QDeadlineTimer restored(3000);
    while (t.world->pasteboard() != QLatin1String("the person's") && !restored.hasExpired())
        QThread::msleep(20);
    EXPECT_EQ(t.world->pasteboard(), QStringLiteral("the person's"));

    t.world->setPasteboardConcealed(QStringLiteral("hunter2"));
    const QJsonObject concealed = resultOf(
        t.call(QStringLiteral("desktop.clipboard"), {{QStringLiteral("action"), QStringLiteral("read")},
                                                     {QStringLiteral("redactionMode"), QStringLiteral("none")}}));
    EXPECT_TRUE(concealed.value(QStringLiteral("concealed")).toBool()) << dump(concealed);
    EXPECT_FALSE(concealed.contains(QStringLiteral("text")));

    QImage image(12, 7, QImage::Format_RGB32);
    image.fill(Qt::darkGreen);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    ASSERT_TRUE(image.save(&buffer, "PNG"));
    t.world->setPasteboardImage(png);
    const QJsonObject shot =
        resultOf(t.call(QStringLiteral("desktop.clipboard"), {{QStringLiteral("action"), QStringLiteral("read")}}));
    EXPECT_EQ(shot.value(QStringLiteral("image")).toObject().value(QStringLiteral("width")).toInt(), 12) << dump(shot);
    QFile kept(shot.value(QStringLiteral("image")).toObject().value(QStringLiteral("path")).toString());
    ASSERT_TRUE(kept.open(QIODevice::ReadOnly));
    EXPECT_EQ(kept.readAll(), png);
}

// desktop.app on the macOS backend: launch by bundle id through LaunchServices (AxApi), the
// window of the app it opened, and quit with terminate until the process ended.
TEST(MacBackend, AppsLaunchThroughLaunchServicesAndQuitWithTerminate)
{
    MacTarget t([](FakeAxWorld& world) {
        world.addLaunchable(QStringLiteral("org.example.notes"), QStringLiteral("Notes"), QStringLiteral("Notes"));
    });
    const QJsonObject phrase{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
    const QJsonObject launched =
        t.call(QStringLiteral("desktop.app"),
               {{QStringLiteral("action"), QStringLiteral("launch")},
                {QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("org.example.notes")}}},
                {QStringLiteral("confirm"), phrase}});
    const qint64 pid = resultOf(launched).value(QStringLiteral("pid")).toInteger();
    ASSERT_GT(pid, 0) << dump(launched);
    EXPECT_EQ(resultOf(launched).value(QStringLiteral("launchedBy")).toString(), QStringLiteral("launch-services"));
    EXPECT_EQ(resultOf(launched).value(QStringLiteral("window")).toObject().value(QStringLiteral("title")).toString(),
              QStringLiteral("Notes"));
    const QJsonObject quit =
        t.call(QStringLiteral("desktop.app"), {{QStringLiteral("action"), QStringLiteral("quit")},
                                               {QStringLiteral("app"), QJsonObject{{QStringLiteral("pid"), pid}}},
                                               {QStringLiteral("confirm"), phrase}});
    EXPECT_TRUE(resultOf(quit).value(QStringLiteral("exited")).toBool()) << dump(quit);
    EXPECT_EQ(resultOf(quit).value(QStringLiteral("quit")).toObject().value(QStringLiteral("how")).toString(),
              QStringLiteral("terminate"));
}

namespace {

QImage inlineImage(const QJsonObject& captured)
{
    return QImage::fromData(QByteArray::fromBase64(captured.value(QStringLiteral("pngBase64")).toString().toLatin1()),
                            "PNG");
}

} // namespace

// Captures on macOS are in points, the unit of AX frames: a window on the main display (a
// Retina one, two pixels per point) is cut out where its frame says, and a capture of the second
// display is that display's own pixels, its frame in global points.
TEST(MacBackend, CapturesAreInPointsAndADisplayIsCapturedAlone)
{
    MacTarget t([](FakeAxWorld& world) { world.setSecondDisplay(true); });
    t.world->paintWindow(t.window, QColor(200, 40, 40));

    const QJsonObject window = resultOf(t.call(QStringLiteral("desktop.capture"), {{QStringLiteral("inline"), true}}));
    EXPECT_EQ(window.value(QStringLiteral("source")).toString(), QStringLiteral("window")) << dump(window);
    EXPECT_EQ(window.value(QStringLiteral("frame")).toObject(), (QJsonObject{{QStringLiteral("x"), 200},
                                                                             {QStringLiteral("y"), 120},
                                                                             {QStringLiteral("width"), 480},
                                                                             {QStringLiteral("height"), 420}}));
    const QImage cut = inlineImage(window);
    ASSERT_EQ(cut.size(), QSize(480, 420)) << dump(window);
    for (const QPoint corner : {QPoint(0, 0), QPoint(479, 0), QPoint(0, 419), QPoint(479, 419), QPoint(240, 210)})
        EXPECT_EQ(cut.pixelColor(corner), QColor(200, 40, 40)) << corner.x() << "," << corner.y();

    const QJsonObject second = resultOf(
        t.call(QStringLiteral("desktop.capture"),
               {{QStringLiteral("route"),
                 QJsonObject{{QStringLiteral("display"), QJsonObject{{QStringLiteral("id"), QStringLiteral("2")}}}}},
                {QStringLiteral("inline"), true}}));
    EXPECT_EQ(second.value(QStringLiteral("displayId")).toString(), QStringLiteral("2")) << dump(second);
    EXPECT_EQ(second.value(QStringLiteral("frame")).toObject().value(QStringLiteral("x")).toInt(), 1440);
    const QImage display = inlineImage(second);
    ASSERT_EQ(display.size(), QSize(1920, 1080)) << dump(second);
    EXPECT_EQ(display.pixelColor(0, 0), QColor(90, 60, 30));
    EXPECT_EQ(display.pixelColor(1919, 1079), QColor(90, 60, 30));

    // The window moved onto the second display: its capture comes from that display's pixels.
    t.world->setAttribute(t.window, QStringLiteral("AXPosition"),
                          Automation::Mac::AxValue::ofPoint(QPointF(1600, 100)));
    const QJsonObject moved = resultOf(t.call(QStringLiteral("desktop.capture"), {{QStringLiteral("inline"), true}}));
    EXPECT_EQ(moved.value(QStringLiteral("frame")).toObject().value(QStringLiteral("x")).toInt(), 1600) << dump(moved);
    const QImage there = inlineImage(moved);
    ASSERT_EQ(there.size(), QSize(480, 420)) << dump(moved);
    EXPECT_EQ(there.pixelColor(0, 0), QColor(200, 40, 40));
    EXPECT_EQ(there.pixelColor(479, 419), QColor(200, 40, 40));
}

// A pointer click on the second display is evidenced by that display's pixels: before.png and
// after.png are of it, and the button's pixels are compared there.
TEST(MacBackend, APointerClickOnTheSecondDisplayIsComparedInItsPixels)
{
    MacTarget t([](FakeAxWorld& world) { world.setSecondDisplay(true); });
    const QJsonObject confirmPhrase{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
    const QJsonObject move =
        t.call(QStringLiteral("desktop.window"),
               {{QStringLiteral("action"), QStringLiteral("move")},
                {QStringLiteral("position"), QJsonObject{{QStringLiteral("x"), 1600}, {QStringLiteral("y"), 100}}},
                {QStringLiteral("confirm"), confirmPhrase}});
    ASSERT_EQ(resultOf(move).value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed")) << dump(move);

    const QJsonObject clicked =
        t.call(QStringLiteral("desktop.click"),
               {{QStringLiteral("target"),
                 QJsonObject{{QStringLiteral("selector"),
                              QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXButton")},
                                          {QStringLiteral("titleEquals"), QStringLiteral("Send")}}}}},
                {QStringLiteral("delivery"), QStringLiteral("pointer")},
                {QStringLiteral("confirm"), confirmPhrase}});
    const QJsonObject result = resultOf(clicked);
    ASSERT_FALSE(result.isEmpty()) << dump(clicked);
    const QJsonObject diff = result.value(QStringLiteral("verification"))
                                 .toObject()
                                 .value(QStringLiteral("observed"))
                                 .toObject()
                                 .value(QStringLiteral("pixelDiff"))
                                 .toObject();
    EXPECT_EQ(diff.value(QStringLiteral("framePixels")).toInteger(), 120 * 32) << dump(clicked);
    const QImage before(result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString() +
                        QStringLiteral("before.png"));
    EXPECT_EQ(before.size(), QSize(1920, 1080));
    EXPECT_EQ(before.pixelColor(10, 10), QColor(90, 60, 30));
}
