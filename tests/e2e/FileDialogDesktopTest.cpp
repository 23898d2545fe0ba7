// End to end, desktop.fileDialog (docs/protocol.md §5.32) on the dialogs of two toolkits: GTK 3
// (mousepad) and Qt (the fixture's QFileDialog). Each saves what was
// typed into the app to a path in the test's folder, checked byte for byte on disk; mousepad
// keeps an existing file under overwrite "never" (nothing typed, the file as it was) and replaces
// it under "replace", answering GTK's own question; the fixture says on stdout which path it
// wrote.
#include "RealAppSupport.h"

#include <QFile>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

std::optional<ProbeResult> dialogShown(RealAppSession& app, const QString& role, const QString& name)
{
    ProbeQuery chooser;
    chooser.role = role;
    chooser.name = name;
    chooser.minCount = 1;
    chooser.waitMs = 5000;
    const ProbeResult shown = app.probe(chooser);
    return shown.ok ? std::optional(shown) : std::nullopt;
}

QJsonObject fileDialog(RealAppSession& app, const QString& path, const QString& overwrite = {})
{
    QJsonObject params{{u"path"_s, path}, {u"action"_s, u"save"_s}};
    if (!overwrite.isEmpty())
        params.insert(u"overwrite"_s, overwrite);
    return app.call(u"desktop.fileDialog"_s, params, true, 20000);
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<no file>");
}

class FileDialogGtk3 : public RealAppTest<FileDialogGtk3>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        s_app->start(u"mousepad"_s, {u"--disable-server"_s}, documentQuery());
    }
};

class FileDialogQt : public RealAppTest<FileDialogQt>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        ProbeQuery ready;
        ready.role = u"push button"_s;
        ready.name = u"Send"_s;
        s_app->start(DesktopSession::fixtureBinary(), {u"--title"_s, u"File dialogs"_s}, ready);
    }
};

} // namespace

TEST_F(FileDialogGtk3, SavesKeepsAnExistingFileUnderNeverAndReplacesItWhenAsked)
{
    const QString content = u"Grüße, gespeichert durch den Dialog\n你好\n"_s;
    s_app->hotkey({u"ctrl"_s, u"a"_s});
    const QJsonObject typed = s_app->typeText({}, content);
    ASSERT_TRUE(isConfirmed(typed, u"typed"_s)) << dump(typed);

    // An existing file and overwrite "never": refused before anything is typed.
    const QString kept = s_app->dir() + u"/kept.txt"_s;
    ASSERT_TRUE(writeFile(kept, "the person's file\n"));
    s_app->hotkey({u"ctrl"_s, u"shift"_s, u"s"_s});
    ASSERT_TRUE(dialogShown(*s_app, u"file chooser"_s, u"Save As"_s)) << "no Save As dialog";
    const QJsonObject refused = fileDialog(*s_app, kept);
    const QJsonObject error = refused.value(u"error"_s).toObject();
    EXPECT_EQ(error.value(u"details"_s).toObject().value(u"reason"_s).toString(), u"file_exists"_s) << dump(refused);
    EXPECT_EQ(readFile(kept), QByteArray("the person's file\n"));

    // The same dialog, replace: GTK asks, the host answers Replace; the file is what was typed.
    const QJsonObject replaced = fileDialog(*s_app, kept, u"replace"_s);
    const QJsonObject result = resultOf(replaced);
    EXPECT_TRUE(result.value(u"savedPathVerified"_s).toBool()) << dump(replaced);
    EXPECT_TRUE(result.value(u"replaced"_s).toBool()) << dump(replaced);
    EXPECT_EQ(result.value(u"dialog"_s).toObject().value(u"toolkit"_s).toString(), u"gtk"_s);
    EXPECT_EQ(readFile(kept), content.toUtf8());

    // A new file through Save As again.
    const QString fresh = s_app->dir() + u"/fresh.txt"_s;
    s_app->hotkey({u"ctrl"_s, u"shift"_s, u"s"_s});
    ASSERT_TRUE(dialogShown(*s_app, u"file chooser"_s, u"Save As"_s)) << "no Save As dialog";
    const QJsonObject saved = fileDialog(*s_app, fresh);
    EXPECT_TRUE(resultOf(saved).value(u"savedPathVerified"_s).toBool()) << dump(saved);
    EXPECT_FALSE(resultOf(saved).value(u"replaced"_s).toBool());
    EXPECT_EQ(resultOf(saved).value(u"size"_s).toInteger(), content.toUtf8().size());
    EXPECT_EQ(readFile(fresh), content.toUtf8());
}

TEST_F(FileDialogQt, SavesTheMessageThroughQFileDialog)
{
    const QString content = u"Qt dialog: ünïcödé"_s;
    const QJsonObject typed =
        s_app->typeText(QJsonObject{{u"byRole"_s, u"AXTextField"_s}, {u"titleEquals"_s, u"Message"_s}}, content, true);
    ASSERT_TRUE(isConfirmed(typed, u"typed"_s)) << dump(typed);
    const QJsonObject picked =
        s_app->call(u"desktop.menuPick"_s, {{u"path"_s, QJsonArray{u"File"_s, u"Save As..."_s}}}, true);
    ASSERT_TRUE(picked.contains(u"result"_s)) << dump(picked);
    ASSERT_TRUE(dialogShown(*s_app, u"dialog"_s, u"Save As"_s)) << "no Save As dialog";

    const QString path = s_app->dir() + u"/qt.txt"_s;
    const QJsonObject saved = fileDialog(*s_app, path);
    EXPECT_TRUE(resultOf(saved).value(u"savedPathVerified"_s).toBool()) << dump(saved);
    EXPECT_EQ(resultOf(saved).value(u"dialog"_s).toObject().value(u"toolkit"_s).toString(), u"qt"_s);
    const auto said = s_app->app().waitEvent(u"saved"_s, {{u"path"_s, path}});
    EXPECT_TRUE(said.has_value()) << "the fixture wrote no file at " << path.toStdString();
    EXPECT_EQ(readFile(path), content.toUtf8());
}
