// A desktop entry's Exec line as a program and its arguments (the Desktop Entry Specification
// 1.5, "The Exec key"), and where a desktop id's file is: what desktop.app launch starts.
#include "automation/DesktopExec.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using Automation::DesktopLaunch;

namespace {

DesktopLaunch entry(const QString& exec)
{
    DesktopLaunch e;
    e.exec = exec;
    e.name = QStringLiteral("Text Editor");
    e.icon = QStringLiteral("accessories-text-editor");
    e.path = QStringLiteral("/usr/share/applications/org.example.Editor.desktop");
    return e;
}

QStringList argv(const QString& exec, const QStringList& files = {})
{
    QString error;
    const auto out = Automation::execArguments(entry(exec), files, &error);
    EXPECT_TRUE(out.has_value()) << error.toStdString();
    return out.value_or(QStringList{QStringLiteral("<error>")});
}

} // namespace

TEST(DesktopExec, FieldCodesAreExpandedOrRemoved)
{
    EXPECT_EQ(argv(QStringLiteral("mousepad %U")), QStringList{QStringLiteral("mousepad")});
    EXPECT_EQ(argv(QStringLiteral("mousepad %U"), {QStringLiteral("/tmp/a.txt"), QStringLiteral("/tmp/b c.txt")}),
              (QStringList{QStringLiteral("mousepad"), QStringLiteral("/tmp/a.txt"), QStringLiteral("/tmp/b c.txt")}));
    EXPECT_EQ(argv(QStringLiteral("gedit --new-window %f"), {QStringLiteral("/tmp/a"), QStringLiteral("/tmp/b")}),
              (QStringList{QStringLiteral("gedit"), QStringLiteral("--new-window"), QStringLiteral("/tmp/a")}));
    EXPECT_EQ(argv(QStringLiteral("app %i --title=%c %k")),
              (QStringList{QStringLiteral("app"), QStringLiteral("--icon"), QStringLiteral("accessories-text-editor"),
                           QStringLiteral("--title=Text Editor"),
                           QStringLiteral("/usr/share/applications/org.example.Editor.desktop")}));
    EXPECT_EQ(argv(QStringLiteral("printf 100%% %d %N")),
              (QStringList{QStringLiteral("printf"), QStringLiteral("100%")}));
}

TEST(DesktopExec, QuotesAndTheirEscapes)
{
    EXPECT_EQ(
        argv(QStringLiteral(R"(sh -c "echo \"hi there\" \$HOME \\ done")")),
        (QStringList{QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral(R"(echo "hi there" $HOME \ done)")}));
    EXPECT_EQ(argv(QStringLiteral(R"("/opt/My App/bin/app"  --flag)")),
              (QStringList{QStringLiteral("/opt/My App/bin/app"), QStringLiteral("--flag")}));
    EXPECT_EQ(argv(QStringLiteral(R"(app "")")), (QStringList{QStringLiteral("app"), QString()}));
}

TEST(DesktopExec, AMalformedLineIsRefusedWithWhy)
{
    for (const char* bad : {R"(app "open)", R"(app "%f")", "app %z", "%U", "   "}) {
        QString error;
        EXPECT_FALSE(Automation::execArguments(entry(QString::fromUtf8(bad)), {}, &error).has_value()) << bad;
        EXPECT_FALSE(error.isEmpty()) << bad;
    }
}

TEST(DesktopExec, ADesktopIdIsFoundDirectlyOrInASubfolder)
{
    QTemporaryDir data;
    QDir(data.path()).mkpath(QStringLiteral("applications/kde"));
    const auto write = [&](const QString& relative, const QByteArray& text) {
        QFile file(data.path() + QStringLiteral("/applications/") + relative);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
    };
    write(QStringLiteral("org.example.Editor.desktop"),
          "[Desktop Entry]\nName=Editor\nExec=editor\\s--x %U\nIcon=ed\nNoDisplay=true\n[Desktop Action "
          "new]\nExec=other\n");
    write(QStringLiteral("kde/konsole.desktop"), "[Desktop Entry]\nName=Konsole\nExec=konsole\nTerminal=false\n");
    const QString editor = Automation::desktopEntryPath(QStringLiteral("org.example.Editor"), {data.path()});
    ASSERT_FALSE(editor.isEmpty());
    const auto launch = Automation::readDesktopLaunch(editor);
    ASSERT_TRUE(launch.has_value());
    EXPECT_EQ(launch->exec, QStringLiteral("editor --x %U")) << "the value's \\s is a space; other groups ignored";
    EXPECT_TRUE(launch->hidden);
    EXPECT_EQ(launch->id, QStringLiteral("org.example.Editor.desktop"));
    EXPECT_EQ(Automation::desktopEntryPath(QStringLiteral("kde-konsole.desktop"), {data.path()}),
              data.path() + QStringLiteral("/applications/kde/konsole.desktop"));
    EXPECT_TRUE(Automation::desktopEntryPath(QStringLiteral("missing"), {data.path()}).isEmpty());
    EXPECT_TRUE(Automation::desktopEntryPath(QStringLiteral("../etc/passwd"), {data.path()}).isEmpty());
}
