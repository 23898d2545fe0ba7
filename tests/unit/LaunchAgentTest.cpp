// The macOS LaunchAgent as text (bridge/LaunchAgent.h): what "Start with my session" writes on
// macOS, and how desktop.doctor finds another agent owning the bridge's mach service (msgcode's
// old bridge, label com.msgcode.desktop.bridge; defects 12 and 13 of the macOS review).
#include "bridge/LaunchAgent.h"

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace {

void write(const QString& path, const QByteArray& text)
{
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text);
}

} // namespace

TEST(LaunchAgent, TheAgentWeWriteReadsBackWithItsSwitchAndService)
{
    for (const bool on : {true, false}) {
        const QByteArray text = LaunchAgent::plist(QStringLiteral("/Applications/A & B.app/Contents/MacOS/host"), on);
        const auto agent = LaunchAgent::parse(text);
        ASSERT_TRUE(agent.has_value()) << text.toStdString();
        EXPECT_EQ(agent->label, QStringLiteral("com.msgcode.desktop.host"));
        EXPECT_EQ(agent->runAtLoad, on);
        EXPECT_EQ(agent->machServices, QStringList{QStringLiteral("com.msgcode.desktop.bridge")});
        EXPECT_TRUE(text.contains("A &amp; B.app")) << "the path is escaped";
        // AssociatedBundleIdentifiers is an array, as launchd's examples have it (defect 26).
        EXPECT_TRUE(text.contains("<key>AssociatedBundleIdentifiers</key>\n\t<array>"));
    }
    // The packaged agent says the same.
    QFile packaged(QStringLiteral(MDH_SOURCE_DIR "/packaging/macos/com.msgcode.desktop.host.plist"));
    ASSERT_TRUE(packaged.open(QIODevice::ReadOnly));
    const auto agent = LaunchAgent::parse(packaged.readAll());
    ASSERT_TRUE(agent.has_value());
    EXPECT_EQ(agent->label, QStringLiteral("com.msgcode.desktop.host"));
    EXPECT_TRUE(agent->runAtLoad);
    EXPECT_EQ(agent->machServices, QStringList{QStringLiteral("com.msgcode.desktop.bridge")});
    EXPECT_FALSE(LaunchAgent::parse("not a plist").has_value());
}

TEST(LaunchAgent, MsgcodesOldBridgeAgentIsNamedWithTheCommandsThatRemoveIt)
{
    QTemporaryDir user;
    QTemporaryDir system;
    ASSERT_TRUE(user.isValid() && system.isValid());
    write(user.filePath(QStringLiteral("com.msgcode.desktop.host.plist")),
          LaunchAgent::plist(QStringLiteral("/Applications/host"), true));
    // msgcode's archived register_launchagent.sh: label com.msgcode.desktop.bridge, same service.
    write(user.filePath(QStringLiteral("com.msgcode.desktop.bridge.plist")),
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
          "  <key>Label</key><string>com.msgcode.desktop.bridge</string>\n"
          "  <key>ProgramArguments</key><array><string>/Applications/MsgcodeDesktopHost.app/Contents/MacOS/"
          "MsgcodeDesktopHost</string></array>\n"
          "  <key>MachServices</key><dict><key>com.msgcode.desktop.bridge</key><true/></dict>\n"
          "</dict>\n</plist>\n");
    // An unrelated agent, and one with another service.
    write(system.filePath(QStringLiteral("com.example.other.plist")),
          "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>Label</key><string>com.example.other</string>"
          "<key>MachServices</key><dict><key>com.example.other.xpc</key><true/></dict></dict></plist>");
    write(system.filePath(QStringLiteral("broken.plist")), "bplist00\x01\x02");
    const QList<LaunchAgent::ForeignOwner> owners = LaunchAgent::foreignOwners({user.path(), system.path()});
    ASSERT_EQ(owners.size(), 1);
    EXPECT_EQ(owners.constFirst().label, QStringLiteral("com.msgcode.desktop.bridge"));
    EXPECT_EQ(LaunchAgent::removalCommands(owners.constFirst()),
              QStringLiteral("launchctl bootout gui/$(id -u)/com.msgcode.desktop.bridge; rm '%1'")
                  .arg(user.filePath(QStringLiteral("com.msgcode.desktop.bridge.plist"))));
}
