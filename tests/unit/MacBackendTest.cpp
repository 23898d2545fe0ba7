// The macOS backend's logic, called directly (no bridge) against FakeAxApi: key codes, the
// permission probe, and the bounds of a tree read.
#include "automation/backends/macos/MacBackend.h"
#include "FakeAxApi.h"
#include "automation/Keys.h"

#include <QDeadlineTimer>
#include <QMutex>
#include <QTest>
#include <QThread>

#include <thread>

#include <gtest/gtest.h>

using namespace Automation;
using namespace Automation::Mac;
using Testing::FakeAxApi;
using Testing::FakeAxWorld;

namespace {

constexpr qint64 kPid = 4343;

struct World
{
    World() : world(std::make_shared<FakeAxWorld>()), backend(std::make_unique<FakeAxApi>(world))
    {
        window = Testing::addConformanceApp(*world, kPid);
    }
    ResolvedRoute route()
    {
        Route r;
        r.pid = kPid;
        auto resolved = backend.resolveRoute(r, CallContext());
        EXPECT_TRUE(resolved.ok());
        return resolved.ok() ? resolved.value() : ResolvedRoute();
    }
    std::shared_ptr<FakeAxWorld> world;
    MacBackend backend;
    QString window;
};

} // namespace

TEST(MacKeys, EveryKeyNameHasAVirtualKeyButTheFunctionKeysMacsLack)
{
    for (const QString& name : keyNames()) {
        const bool lacking = name == QLatin1String("f21") || name == QLatin1String("f22") ||
                             name == QLatin1String("f23") || name == QLatin1String("f24");
        EXPECT_EQ(virtualKeyForName(name).has_value(), !lacking) << name.toStdString();
    }
    for (const QString& name : modifierNames()) {
        const auto code = virtualKeyForName(name);
        ASSERT_TRUE(code.has_value()) << name.toStdString();
        EXPECT_NE(modifierFlagOfKey(*code), 0u) << name.toStdString();
    }
    EXPECT_EQ(modifierFlagOfKey(*virtualKeyForName(QStringLiteral("cmd"))), KeyFlags::Command);
    EXPECT_EQ(modifierFlagOfKey(*virtualKeyForName(QStringLiteral("alt"))), KeyFlags::Option);
    EXPECT_EQ(*virtualKeyForName(QStringLiteral("a")), 0x00);
    EXPECT_EQ(*virtualKeyForName(QStringLiteral("enter")), 0x24);
    EXPECT_EQ(modifierFlagOfKey(*virtualKeyForName(QStringLiteral("a"))), 0u);
}

TEST(MacPermissionProbe, SaysWhatIsMissingAndWhereToGrantIt)
{
    auto world = std::make_shared<FakeAxWorld>();
    MacPermissionProbe probe(std::make_unique<FakeAxApi>(world));
    PermissionReport granted = probe.probe();
    EXPECT_EQ(granted.platform, QStringLiteral("macos"));
    EXPECT_EQ(granted.accessibility.state, PermissionState::Granted);
    EXPECT_EQ(granted.screenCapture.state, PermissionState::Granted);

    world->setTrusted(false);
    world->setScreenCaptureAllowed(false);
    const PermissionReport denied = probe.probe();
    EXPECT_EQ(denied.accessibility.state, PermissionState::Denied);
    EXPECT_EQ(denied.screenCapture.state, PermissionState::Denied);
    EXPECT_TRUE(denied.accessibility.details.value(QStringLiteral("settingsUrl"))
                    .toString()
                    .contains(QStringLiteral("Privacy_Accessibility")));
    EXPECT_TRUE(denied.screenCapture.details.value(QStringLiteral("settingsUrl"))
                    .toString()
                    .contains(QStringLiteral("Privacy_ScreenCapture")));
    EXPECT_FALSE(probe.guide(denied).grantLabel.isEmpty());
}

// Defect 9: macOS lists an app under Screen Recording only once it asked
// (CGRequestScreenCaptureAccess); the grant button asks, then opens the pane.
TEST(MacPermissionProbe, AskingForScreenRecordingListsTheHostThenOpensThePane)
{
    auto world = std::make_shared<FakeAxWorld>();
    world->setScreenCaptureAllowed(false);
    QList<QUrl> opened;
    MacPermissionProbe probe(std::make_unique<FakeAxApi>(world), [&](const QUrl& url) { opened.append(url); });
    const PermissionReport denied = probe.probe();
    EXPECT_FALSE(probe.guide(denied).captureGrantLabel.isEmpty());
    EXPECT_FALSE(world->screenCaptureListed());
    QObject context;
    std::optional<std::pair<bool, QString>> answer;
    probe.requestScreenCapture(&context, [&](bool ok, const QString& error) { answer = std::pair{ok, error}; });
    EXPECT_TRUE(world->screenCaptureListed()) << "asked before the pane opens, so the host has a switch there";
    ASSERT_EQ(opened.size(), 1);
    EXPECT_TRUE(opened.constFirst().toString().contains(QStringLiteral("Privacy_ScreenCapture")));
    ASSERT_TRUE(QTest::qWaitFor([&] { return answer.has_value(); }, 2000));
    EXPECT_FALSE(answer->first);
    EXPECT_TRUE(answer->second.contains(QStringLiteral("restart")));

    world->setScreenCaptureAllowed(true);
    EXPECT_TRUE(probe.guide(probe.probe()).captureGrantLabel.isEmpty());
}

TEST(MacBackendTree, AReadStopsAtItsBoundsAndSaysWhich)
{
    World w;
    const ResolvedRoute route = w.route();
    SnapshotBounds bounds;
    bounds.maxNodes = 3;
    auto few = w.backend.snapshot(route, bounds, CallContext());
    ASSERT_TRUE(few.ok());
    EXPECT_EQ(few->nodes.size(), 3);
    EXPECT_TRUE(few->truncated);
    EXPECT_EQ(few->truncatedReason, QStringLiteral("maxNodes"));

    bounds = SnapshotBounds{};
    bounds.maxDepth = 0;
    auto shallow = w.backend.snapshot(route, bounds, CallContext());
    ASSERT_TRUE(shallow.ok());
    EXPECT_EQ(shallow->nodes.size(), 1);
    EXPECT_EQ(shallow->truncatedReason, QStringLiteral("maxDepth"));

    auto whole = w.backend.snapshot(route, SnapshotBounds{}, CallContext());
    ASSERT_TRUE(whole.ok());
    EXPECT_FALSE(whole->truncated);
    EXPECT_EQ(whole->nodes.at(0).role, QStringLiteral("AXWindow"));
    EXPECT_EQ(whole->nodes.at(0).title, QStringLiteral("MDH Target App"));
    // Document order, paths, parents, and a static text's label from its value.
    ASSERT_EQ(whole->nodes.size(), 8);
    EXPECT_EQ(whole->nodes.at(1).title, QStringLiteral("Message:"));
    EXPECT_EQ(whole->nodes.at(2).path, QList<int>{1});
    EXPECT_EQ(whole->nodes.at(2).parent, 0);
    EXPECT_TRUE(whole->nodes.at(2).has(StateEditable));
    // The secure field: secure, and its value never read, even with text asked for.
    bounds = SnapshotBounds{};
    bounds.includeText = true;
    w.world->setAttribute(w.world->find(QStringLiteral("AXTextField"), QStringLiteral("Password")),
                          QStringLiteral("AXValue"), AxValue::ofString(QStringLiteral("leaked?")));
    auto texts = w.backend.snapshot(route, bounds, CallContext());
    ASSERT_TRUE(texts.ok());
    const Node& password = texts->nodes.at(4);
    EXPECT_TRUE(password.isSecure());
    EXPECT_FALSE(password.hasValue);
    EXPECT_TRUE(password.value.isEmpty());
}

TEST(MacBackendTree, ASearchOnlyReadLeavesActionsForTheCandidates)
{
    World w;
    const ResolvedRoute route = w.route();
    SnapshotBounds bounds;
    bounds.searchOnly = true;
    auto snapshot = w.backend.snapshot(route, bounds, CallContext());
    ASSERT_TRUE(snapshot.ok());
    int send = -1;
    for (int i = 0; i < snapshot->nodes.size(); ++i)
        if (snapshot->nodes.at(i).title == QLatin1String("Send"))
            send = i;
    ASSERT_GE(send, 0);
    EXPECT_FALSE(snapshot->nodes.at(send).detailed);
    EXPECT_TRUE(snapshot->nodes.at(send).actions.isEmpty());
    ASSERT_TRUE(w.backend.completeNodes(snapshot.value(), {send}, CallContext()).ok());
    EXPECT_TRUE(snapshot->nodes.at(send).detailed);
    EXPECT_EQ(snapshot->nodes.at(send).actions, QStringList{QStringLiteral("AXPress")});
}

TEST(MacBackendTree, AFieldsLabelIsFoundThroughTitleUIElement)
{
    World w;
    const QString label = w.world->find(QStringLiteral("AXStaticText"), QStringLiteral("Message:"));
    const QString field = w.world->find(QStringLiteral("AXTextField"), QStringLiteral("Message"));
    w.world->setAttribute(field, QStringLiteral("AXTitleUIElement"),
                          AxValue::ofElement(AxElement(label, std::make_shared<int>(0))));
    const ResolvedRoute route = w.route();
    auto snapshot = w.backend.snapshot(route, SnapshotBounds{}, CallContext());
    ASSERT_TRUE(snapshot.ok());
    ASSERT_TRUE(w.backend.readRelations(snapshot.value(), {1}, CallContext()).ok());
    EXPECT_EQ(snapshot->nodes.at(1).labelFor, QList<int>{2});
    EXPECT_TRUE(snapshot->nodes.at(1).relationsRead);
}

// A pointer click whose only effect is the target taking the focus is not confirmed: focus is
// not what a click is for.
TEST(MacBackendVerify, TheTargetTakingTheFocusIsNotTheClicksEffect)
{
    World w;
    const ResolvedRoute route = w.route();
    auto snapshot = w.backend.snapshot(route, SnapshotBounds{}, CallContext());
    ASSERT_TRUE(snapshot.ok());
    const Node& field = snapshot->nodes.at(2);
    ASSERT_EQ(field.title, QStringLiteral("Message"));
    const QPoint centre(field.frame.x + field.frame.width / 2, field.frame.y + field.frame.height / 2);
    auto clicked = w.backend.clickAt(route, centre, CallContext(), &field);
    ASSERT_TRUE(clicked.ok());
    EXPECT_TRUE(w.world
                    ->attribute(w.world->find(QStringLiteral("AXTextField"), QStringLiteral("Message")),
                                QStringLiteral("AXFocused"))
                    ->boolean);
    EXPECT_EQ(clicked->verification.effect, Effect::SuspectedNoop);
    // A click on the check box changes its value: that is an effect.
    const Node& box = snapshot->nodes.at(5);
    ASSERT_EQ(box.title, QStringLiteral("Remember me"));
    auto toggled = w.backend.clickAt(route, QPoint(box.frame.x + 5, box.frame.y + 5), CallContext(), &box);
    ASSERT_TRUE(toggled.ok());
    EXPECT_EQ(toggled->verification.effect, Effect::Confirmed);
}

namespace {

AxNotice notice(const QString& notification, const QString& key, const AxKnown& element,
                const QList<AxKnown>& ancestors = {}, qint64 pid = kPid)
{
    return Testing::axNotice(pid, QStringLiteral("Messages"), notification, key, element, ancestors,
                             QStringLiteral("Chats"));
}

} // namespace

// The apps' AX notifications as the event stream's kinds: focus, a title with the one before it,
// a value change without the value, a created element as its parent's new child, a row count
// that rose, fell or stayed; never this process's own.
TEST(MacEvents, NotificationsBecomeTheStreamsElementEvents)
{
    MacBackend::NoticeMemory memory;
    const qint64 own = 99;
    const AxKnown table{QStringLiteral("AXTable"), {}, QStringLiteral("Conversation")};
    const AxKnown window{QStringLiteral("AXWindow"), QStringLiteral("AXStandardWindow"), QStringLiteral("Chats")};

    auto focus =
        MacBackend::eventOf(notice(QStringLiteral("AXFocusedUIElementChanged"), QStringLiteral("k1"),
                                   AxKnown{QStringLiteral("AXTextField"), {}, QStringLiteral("Message")}, {window}),
                            memory, own);
    ASSERT_TRUE(focus);
    EXPECT_EQ(focus->kind, QStringLiteral("focus.changed"));
    EXPECT_EQ(focus->payload.value(QStringLiteral("element")).toObject().value(QStringLiteral("role")).toString(),
              QStringLiteral("AXTextField"));
    EXPECT_EQ(focus->payload.value(QStringLiteral("app")).toObject().value(QStringLiteral("pid")).toInteger(), kPid);
    EXPECT_EQ(focus->payload.value(QStringLiteral("window")).toObject().value(QStringLiteral("title")).toString(),
              QStringLiteral("Chats"));
    EXPECT_EQ(focus->lineage.size(), 2) << "the element, then its window";

    // A title change says the title it had (as last seen), and the next one this one.
    auto renamed = MacBackend::eventOf(notice(QStringLiteral("AXTitleChanged"), QStringLiteral("k1"),
                                              AxKnown{QStringLiteral("AXTextField"), {}, QStringLiteral("Reply")}),
                                       memory, own);
    ASSERT_TRUE(renamed);
    EXPECT_EQ(renamed->kind, QStringLiteral("element.nameChanged"));
    EXPECT_EQ(renamed->payload.value(QStringLiteral("was")).toString(), QStringLiteral("Message"));
    EXPECT_EQ(renamed->payload.value(QStringLiteral("element")).toObject().value(QStringLiteral("title")).toString(),
              QStringLiteral("Reply"));

    auto value = MacBackend::eventOf(notice(QStringLiteral("AXValueChanged"), QStringLiteral("k1"),
                                            AxKnown{QStringLiteral("AXTextField"), {}, QStringLiteral("Reply")}),
                                     memory, own);
    ASSERT_TRUE(value);
    EXPECT_EQ(value->kind, QStringLiteral("element.valueChanged"));
    EXPECT_FALSE(value->payload.contains(QStringLiteral("value")));

    // A created row is news of its parent's children: the element is the table.
    auto created = MacBackend::eventOf(notice(QStringLiteral("AXCreated"), QStringLiteral("k2"),
                                              AxKnown{QStringLiteral("AXRow"), {}, {}}, {table, window}),
                                       memory, own);
    ASSERT_TRUE(created);
    EXPECT_EQ(created->kind, QStringLiteral("element.childrenChanged"));
    EXPECT_EQ(created->payload.value(QStringLiteral("change")).toString(), QStringLiteral("added"));
    EXPECT_EQ(created->payload.value(QStringLiteral("element")).toObject().value(QStringLiteral("role")).toString(),
              QStringLiteral("AXTable"));
    EXPECT_EQ(created->lineage.size(), 2);
    EXPECT_EQ(created->lineage.at(1).toObject().value(QStringLiteral("subrole")).toString(),
              QStringLiteral("AXStandardWindow"));

    // Row counts: the first one seen cannot tell which way; then more, fewer, the same.
    const auto rows = [&](qint64 count) {
        AxNotice n = notice(QStringLiteral("AXRowCountChanged"), QStringLiteral("k3"), table, {window});
        n.rowCount = count;
        return MacBackend::eventOf(n, memory, own);
    };
    auto first = rows(4);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->payload.value(QStringLiteral("change")).toString(), QStringLiteral("changed"));
    auto more = rows(5);
    ASSERT_TRUE(more);
    EXPECT_EQ(more->payload.value(QStringLiteral("change")).toString(), QStringLiteral("added"));
    auto fewer = rows(3);
    ASSERT_TRUE(fewer);
    EXPECT_EQ(fewer->payload.value(QStringLiteral("change")).toString(), QStringLiteral("removed"));
    EXPECT_FALSE(rows(3)) << "the same count is no change";

    EXPECT_FALSE(MacBackend::eventOf(notice(QStringLiteral("AXFocusedUIElementChanged"), QStringLiteral("k4"),
                                            AxKnown{QStringLiteral("AXButton"), {}, QStringLiteral("Allow")}, {}, own),
                                     memory, own))
        << "the host's own windows are never streamed";
    EXPECT_FALSE(MacBackend::eventOf(notice(QStringLiteral("AXMoved"), QStringLiteral("k5"), window), memory, own));
}

// The backend streams the apps' notices only while element events are wanted (a subscriber)
// and it has a sink; notices from the stream's thread reach the sink; waitForChange ends at a
// notice of the route's app and not at another app's: on the stream while it runs, else through
// an observer of that app alone, on the worker, for the wait only.
TEST(MacEvents, TheStreamRunsOnlyWhileWantedAndAWaitHearsTheRoutesApp)
{
    World w;
    const ResolvedRoute route = w.route();
    QMutex mutex;
    QList<DesktopEvent> got;
    w.backend.setEventSink([&](const DesktopEvent& event) {
        QMutexLocker lock(&mutex);
        got.append(event);
    });
    EXPECT_FALSE(w.world->streaming()) << "nobody wants element events yet";

    // Without the stream: the wait observes the route's app alone, and only while it waits.
    const auto waitWith = [&](qint64 pid, qint64 ms) {
        std::thread app([&] {
            QDeadlineTimer observed(5000);
            while (!w.world->observed().contains(kPid) && !observed.hasExpired())
                QThread::msleep(5);
            w.world->notice(notice(QStringLiteral("AXValueChanged"), QStringLiteral("m"),
                                   AxKnown{QStringLiteral("AXTextField"), {}, QStringLiteral("Message")}, {}, pid));
        });
        const ChangeWait result = w.backend.waitForChange(route, ms, CallContext());
        app.join();
        return result;
    };
    EXPECT_EQ(waitWith(kPid + 1, 300), ChangeWait::Quiet) << "another app's notice";
    EXPECT_EQ(waitWith(kPid, 5000), ChangeWait::Changed);
    EXPECT_TRUE(w.world->observed().isEmpty()) << "the wait's observer goes with the wait";
    EXPECT_TRUE(got.isEmpty()) << "no stream, no events";

    // With a subscriber: the stream runs, its notices are events, and a wait hears them there.
    w.backend.setElementEventsWanted(true);
    ASSERT_TRUE(w.world->streaming());
    std::thread same([&] {
        QThread::msleep(100);
        w.world->notice(notice(QStringLiteral("AXValueChanged"), QStringLiteral("m"),
                               AxKnown{QStringLiteral("AXTextField"), {}, QStringLiteral("Message")}));
    });
    EXPECT_EQ(w.backend.waitForChange(route, 5000, CallContext()), ChangeWait::Changed);
    same.join();
    EXPECT_TRUE(w.world->observed().isEmpty()) << "the stream's observers are its own";
    {
        QMutexLocker lock(&mutex);
        ASSERT_EQ(got.size(), 1);
        EXPECT_EQ(got.at(0).kind, QStringLiteral("element.valueChanged"));
    }

    w.backend.setElementEventsWanted(false);
    EXPECT_FALSE(w.world->streaming());
    w.backend.setElementEventsWanted(true);
    EXPECT_TRUE(w.world->streaming());
    w.backend.setEventSink({});
    EXPECT_FALSE(w.world->streaming());
}

// desktop.displays on macOS: CoreGraphics' displays by CGDirectDisplayID, the main one first;
// a second display plugged in is listed at its place in global points, and the capture, which
// reads the main display only, says it does not cover it.
TEST(MacDisplays, TheMainDisplayFirstThenOnePluggedIn)
{
    World w;
    auto one = w.backend.displays(CallContext());
    ASSERT_TRUE(one.ok());
    ASSERT_EQ(one->size(), 1);
    EXPECT_EQ(one->at(0).id, QStringLiteral("1"));
    EXPECT_EQ(one->at(0).name, QStringLiteral("Built-in display"));
    EXPECT_TRUE(one->at(0).primary);
    EXPECT_DOUBLE_EQ(one->at(0).scale, 2.0);

    w.world->setDisplayChangeAtCapture(QPointF(1, 0), 1);
    ASSERT_TRUE(w.backend.screenshot(CallContext()).ok());
    auto two = w.backend.displays(CallContext());
    ASSERT_TRUE(two.ok());
    ASSERT_EQ(two->size(), 2);
    EXPECT_EQ(two->at(1).id, QStringLiteral("2"));
    EXPECT_FALSE(two->at(1).primary);
    EXPECT_EQ(two->at(1).frame.x, 1440);
    EXPECT_EQ(two->at(1).frame.width, 1920);
    EXPECT_FALSE(w.backend.screenshotCoversEveryDisplay());
}
