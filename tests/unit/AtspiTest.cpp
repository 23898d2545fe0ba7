// The AT-SPI role table and the tree cache's invalidation rules, without a bus.
#include "automation/Types.h"
#include "automation/backends/atspi/AtspiRoles.h"
#include "automation/backends/atspi/AtspiTreeCache.h"

#include <QDBusMessage>

#include <gtest/gtest.h>

using namespace Automation;

TEST(AtspiRoles, MapsTheRolesTheContractNames)
{
    struct Row
    {
        quint32 atspi;
        const char* native;
        const char* ax;
        const char* subrole;
    };
    const Row rows[] = {
        {43, "push button", "AXButton", ""},
        {7, "check box", "AXCheckBox", ""},
        {44, "radio button", "AXRadioButton", ""},
        {61, "text", "AXTextField", ""},
        {79, "entry", "AXTextField", ""},
        {40, "password text", "AXTextField", "AXSecureTextField"},
        {73, "paragraph", "AXGroup", ""},
        {94, "document text", "AXTextArea", ""},
        {29, "label", "AXStaticText", ""},
        {23, "frame", "AXWindow", "AXStandardWindow"},
        {69, "window", "AXWindow", ""},
        {16, "dialog", "AXWindow", "AXDialog"},
        {34, "menu bar", "AXMenuBar", ""},
        {33, "menu", "AXMenu", ""},
        {35, "menu item", "AXMenuItem", ""},
        {31, "list", "AXList", ""},
        {32, "list item", "AXRow", ""},
        {55, "table", "AXTable", ""},
        {56, "table cell", "AXCell", ""},
        {65, "tree", "AXOutline", ""},
        {91, "tree item", "AXRow", ""},
        {11, "combo box", "AXComboBox", ""},
        {51, "slider", "AXSlider", ""},
        {48, "scroll bar", "AXScrollBar", ""},
        {38, "page tab list", "AXTabGroup", ""},
        {37, "page tab", "AXRadioButton", "AXTabButton"},
        {27, "image", "AXImage", ""},
        {88, "link", "AXLink", ""},
        {63, "tool bar", "AXToolbar", ""},
        {42, "progress bar", "AXProgressIndicator", ""},
        {52, "spin button", "AXIncrementor", ""},
        {39, "panel", "AXGroup", ""},
        {20, "filler", "AXGroup", ""},
        {75, "application", "AXApplication", ""},
    };
    for (const auto& row : rows) {
        const auto info = Atspi::roleInfo(row.atspi);
        EXPECT_EQ(info.nativeRole, QString::fromLatin1(row.native)) << row.atspi;
        EXPECT_EQ(info.role, QString::fromLatin1(row.ax)) << row.native;
        EXPECT_EQ(info.subrole, QString::fromLatin1(row.subrole)) << row.native;
        EXPECT_EQ(Atspi::atspiRoleFromName(QString::fromLatin1(row.native)), static_cast<int>(row.atspi));
    }
}

TEST(AtspiRoles, MultiLineTextIsATextAreaAndUnknownNumbersAreUnknown)
{
    EXPECT_EQ(Atspi::roleInfo(61, true).role, QStringLiteral("AXTextArea"));
    EXPECT_EQ(Atspi::roleInfo(40, true).role, QStringLiteral("AXTextField")); // a password stays a field
    EXPECT_EQ(Atspi::roleInfo(9999).role, QStringLiteral("AXUnknown"));
    EXPECT_EQ(Atspi::atspiRoleFromName(QStringLiteral("PUSH_BUTTON")), 43);
    EXPECT_EQ(Atspi::atspiRoleFromName(QStringLiteral("no such role")), -1);
}

TEST(AtspiRoles, EveryRoleHasANameAndAnAxRole)
{
    for (quint32 role = 0; role < 130; ++role) {
        const auto info = Atspi::roleInfo(role);
        EXPECT_FALSE(info.nativeRole.isEmpty()) << role;
        EXPECT_TRUE(info.role.startsWith(QStringLiteral("AX"))) << role;
        EXPECT_EQ(Atspi::atspiRoleFromName(info.nativeRole), static_cast<int>(role)) << info.nativeRole.toStdString();
    }
}

TEST(AtspiRoles, SensitiveMeansEnabledAndBitsCrossWords)
{
    const auto bit = [](int state) { return 1u << state; };
    const quint32 enabledOnly = bit(Atspi::StateEnabled);
    const quint32 both = bit(Atspi::StateEnabled) | bit(Atspi::StateSensitive);
    EXPECT_FALSE(Atspi::nodeStates(enabledOnly, 0, false) & StateEnabled);
    EXPECT_TRUE(Atspi::nodeStates(both, 0, false) & StateEnabled);
    // GTK 4 sets SENSITIVE without ENABLED on every usable widget (enabledOnly matched nothing there).
    EXPECT_TRUE(Atspi::nodeStates(bit(Atspi::StateSensitive), 0, false) & StateEnabled);
    const quint32 all =
        Atspi::nodeStates(bit(Atspi::StateFocused) | bit(Atspi::StateShowing) | bit(Atspi::StateVisible) |
                              bit(Atspi::StateChecked) | bit(Atspi::StateEditable) | bit(Atspi::StateActive),
                          0, true);
    for (auto state : {StateFocused, StateShowing, StateVisible, StateChecked, StateEditable, StateActive, StateSecure})
        EXPECT_TRUE(all & state) << state;
    // MANAGES_DESCENDANTS is state 31, INDETERMINATE 32: the second word.
    EXPECT_TRUE(Atspi::hasState(0, 1u, 32));
    EXPECT_FALSE(Atspi::hasState(0xffffffffu, 0, 32));
    EXPECT_TRUE(Atspi::hasState(1u << 31, 0, Atspi::StateManagesDescendants));
}

namespace {

QDBusMessage event(const QString& member, const QString& path, const QString& detail)
{
    QDBusMessage message = QDBusMessage::createSignal(path, QStringLiteral("org.a11y.atspi.Event.Object"), member);
    message << detail << 0 << 0;
    return message;
}

// The slots read the sender from the message; a locally made signal has none, so the cache is
// addressed with the empty service name here.
void deliver(AtspiTreeCache& cache, const char* slot, const QDBusMessage& message)
{
    QMetaObject::invokeMethod(&cache, slot, Qt::BlockingQueuedConnection, Q_ARG(QDBusMessage, message));
}

} // namespace

TEST(AtspiTreeCache, StoresAndInvalidatesPerObject)
{
    AtspiTreeCache cache(QStringLiteral("no-such-connection"));
    const QString app; // see deliver()
    const quint64 read = cache.generation(app);
    cache.store(app, QStringLiteral("/a"), read, 43u, QStringLiteral("Send"), QList<AtspiTreeCache::Child>{});
    cache.store(app, QStringLiteral("/b"), read, 29u, QStringLiteral("Status"), std::nullopt);
    auto a = cache.lookup(app, QStringLiteral("/a"));
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->role.value_or(0), 43u);
    EXPECT_EQ(a->name.value_or(QString()), QStringLiteral("Send"));
    EXPECT_TRUE(a->children.has_value());

    deliver(cache, "onPropertyChange",
            event(QStringLiteral("PropertyChange"), QStringLiteral("/a"), QStringLiteral("accessible-name")));
    a = cache.lookup(app, QStringLiteral("/a"));
    EXPECT_FALSE(a->name.has_value());
    EXPECT_TRUE(a->role.has_value());
    deliver(cache, "onChildrenChanged",
            event(QStringLiteral("ChildrenChanged"), QStringLiteral("/a"), QStringLiteral("add")));
    EXPECT_FALSE(cache.lookup(app, QStringLiteral("/a"))->children.has_value());
    // Another object's event leaves /b alone.
    EXPECT_EQ(cache.lookup(app, QStringLiteral("/b"))->name.value_or(QString()), QStringLiteral("Status"));
    deliver(cache, "onStateChanged",
            event(QStringLiteral("StateChanged"), QStringLiteral("/b"), QStringLiteral("defunct")));
    const auto b = cache.lookup(app, QStringLiteral("/b"));
    EXPECT_FALSE(b->role.has_value() || b->name.has_value());
}

TEST(AtspiTreeCache, AValueReadBeforeAnEventAboutItIsNotStored)
{
    AtspiTreeCache cache(QStringLiteral("no-such-connection"));
    const QString app;
    const quint64 readBefore = cache.generation(app);
    // The name changes while our read is in flight...
    deliver(cache, "onPropertyChange",
            event(QStringLiteral("PropertyChange"), QStringLiteral("/label"), QStringLiteral("accessible-name")));
    // ...so the (old) answer must not be cached, while an object the event did not touch may be.
    cache.store(app, QStringLiteral("/label"), readBefore, 29u, QStringLiteral("Ready"), std::nullopt);
    cache.store(app, QStringLiteral("/other"), readBefore, 43u, QStringLiteral("Send"), std::nullopt);
    EXPECT_FALSE(cache.lookup(app, QStringLiteral("/label")).has_value());
    EXPECT_TRUE(cache.lookup(app, QStringLiteral("/other")).has_value());
    // A read that starts after the event is stored.
    cache.store(app, QStringLiteral("/label"), cache.generation(app), 29u, QStringLiteral("Sent: hi"), std::nullopt);
    EXPECT_EQ(cache.lookup(app, QStringLiteral("/label"))->name.value_or(QString()), QStringLiteral("Sent: hi"));
}

TEST(AtspiTreeCache, AnAppLeavingTheBusIsForgotten)
{
    AtspiTreeCache cache(QStringLiteral("no-such-connection"));
    cache.store(QStringLiteral(":1.42"), QStringLiteral("/a"), cache.generation({}), 43u, QStringLiteral("Send"),
                std::nullopt);
    ASSERT_TRUE(cache.lookup(QStringLiteral(":1.42"), QStringLiteral("/a")).has_value());
    QMetaObject::invokeMethod(&cache, "onNameOwnerChanged", Qt::BlockingQueuedConnection,
                              Q_ARG(QString, QStringLiteral(":1.42")), Q_ARG(QString, QStringLiteral(":1.42")),
                              Q_ARG(QString, QString()));
    EXPECT_FALSE(cache.lookup(QStringLiteral(":1.42"), QStringLiteral("/a")).has_value());
    cache.sync();
}

TEST(AtspiRoles, LeafControlsAreControlsThatHoldNoChildren)
{
    for (const char* name : {"push button", "check box", "radio button", "label", "entry", "text", "toggle button"})
        EXPECT_TRUE(Atspi::isLeafControl(static_cast<quint32>(Atspi::atspiRoleFromName(QString::fromLatin1(name)))))
            << name;
    // Containers may gain children at any time (new rows, new MDI windows): never vouched for.
    for (const char* name : {"panel", "frame", "list", "table", "tree", "internal frame", "desktop pane", "filler",
                             "scroll pane", "menu", "page tab list"}) {
        const int role = Atspi::atspiRoleFromName(QString::fromLatin1(name));
        if (role >= 0) {
            EXPECT_FALSE(Atspi::isLeafControl(static_cast<quint32>(role))) << name;
        }
    }
}
