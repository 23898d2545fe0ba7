// End to end, desktop.fileDialog (docs/protocol.md §5.32) on the dialogs of three toolkits: GTK 3
// (mousepad), GTK 4 (gnome-text-editor) and Qt (the fixture's QFileDialog). Each saves what was
// typed into the app to a path in the test's folder, checked byte for byte on disk; the GTK
// editors keep an existing file under overwrite "never" (nothing typed, the file as it was) and
// replace it under "replace", answering GTK's own question; the fixture says on stdout which
// path it wrote.
#include "RealAppSupport.h"

#include <QFile>

#include <algorithm>

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

QJsonObject fileDialog(RealAppSession& app, const QString& path, const QString& overwrite = {},
                       const QString& action = u"save"_s)
{
    QJsonObject params{{u"path"_s, path}, {u"action"_s, action}};
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

/// What a person does in an editor: types, opens Save As, and saves twice through the host: an
/// existing file is kept under "never" and replaced under "replace" (the toolkit's own question
/// answered), then a new file. Each checked byte for byte on disk: what was typed, and the line
/// end an editor adds to a last line that has none (`addsLastNewline`).
void savesKeepsAnExistingFileAndReplacesItWhenAsked(RealAppSession& app, const QString& chooserRole,
                                                    bool addsLastNewline)
{
    const QString typedText = u"Grüße, gespeichert durch den Dialog\n你好"_s;
    const QByteArray content = typedText.toUtf8() + (addsLastNewline ? "\n" : "");
    app.hotkey({u"ctrl"_s, u"a"_s});
    const QJsonObject typed = app.typeText({}, typedText);
    ASSERT_TRUE(isConfirmed(typed, u"typed"_s)) << dump(typed);

    // An existing file and overwrite "never": refused before anything is typed.
    const QString kept = app.dir() + u"/kept.txt"_s;
    ASSERT_TRUE(writeFile(kept, "the person's file\n"));
    app.hotkey({u"ctrl"_s, u"shift"_s, u"s"_s});
    ASSERT_TRUE(dialogShown(app, chooserRole, u"Save As"_s)) << "no Save As dialog";
    const QJsonObject refused = fileDialog(app, kept);
    const QJsonObject error = refused.value(u"error"_s).toObject();
    EXPECT_EQ(error.value(u"details"_s).toObject().value(u"reason"_s).toString(), u"file_exists"_s) << dump(refused);
    EXPECT_EQ(readFile(kept), QByteArray("the person's file\n"));

    // The same dialog, replace: the toolkit asks, the host answers Replace; the file is what was typed.
    const QJsonObject replaced = fileDialog(app, kept, u"replace"_s);
    const QJsonObject result = resultOf(replaced);
    EXPECT_TRUE(result.value(u"savedPathVerified"_s).toBool()) << dump(replaced);
    EXPECT_TRUE(result.value(u"replaced"_s).toBool()) << dump(replaced);
    EXPECT_EQ(result.value(u"dialog"_s).toObject().value(u"toolkit"_s).toString(), u"gtk"_s);
    EXPECT_EQ(readFile(kept), content);

    // A new file through Save As again.
    const QString fresh = app.dir() + u"/fresh.txt"_s;
    app.hotkey({u"ctrl"_s, u"shift"_s, u"s"_s});
    ASSERT_TRUE(dialogShown(app, chooserRole, u"Save As"_s)) << "no Save As dialog";
    const QJsonObject saved = fileDialog(app, fresh);
    EXPECT_TRUE(resultOf(saved).value(u"savedPathVerified"_s).toBool()) << dump(saved);
    EXPECT_FALSE(resultOf(saved).value(u"replaced"_s).toBool());
    EXPECT_EQ(resultOf(saved).value(u"size"_s).toInteger(), content.size());
    EXPECT_EQ(readFile(fresh), content);
}

/// The document texts of the app that hold exactly `content` (one per tab showing it).
qsizetype documentsHolding(RealAppSession& app, const QString& content)
{
    const ProbeResult documents = app.probe(documentQuery());
    return std::ranges::count_if(documents.nodes, [&](const ProbeNode& node) { return node.text == content; });
}

/// Ctrl+O, then the host opens a file through the dialog: a name that is not on disk is refused
/// before anything is typed; the file's text then shows in the editor, as AT-SPI reads it.
void opensTheFileNamed(RealAppSession& app, const QString& chooserRole)
{
    const QString content = u"Geöffnet durch den Dialog\nzweite Zeile ✓"_s;
    const QString path = app.dir() + u"/to open.txt"_s;
    ASSERT_TRUE(writeFile(path, content.toUtf8()));
    app.hotkey({u"ctrl"_s, u"o"_s});
    ASSERT_TRUE(dialogShown(app, chooserRole, u"Open File"_s)) << "no Open File dialog";

    const QJsonObject missing = fileDialog(app, app.dir() + u"/missing.txt"_s, {}, u"open"_s);
    EXPECT_EQ(missing.value(u"error"_s).toObject().value(u"details"_s).toObject().value(u"reason"_s).toString(),
              u"file_not_found"_s)
        << dump(missing);

    const QJsonObject opened = fileDialog(app, path, {}, u"open"_s);
    EXPECT_TRUE(resultOf(opened).value(u"dialogClosed"_s).toBool()) << dump(opened);
    EXPECT_EQ(resultOf(opened).value(u"dialog"_s).toObject().value(u"toolkit"_s).toString(), u"gtk"_s);
    EXPECT_EQ(readUntil([&] { return documentsHolding(app, content); }, qsizetype(1), 5000), 1)
        << "the file's text is not in the editor; the host answered " << dump(opened);
}

class FileDialogGtk3 : public RealAppTest<FileDialogGtk3>
{
protected:
    static void SetUpTestSuite() { startApp(u"mousepad"_s, {u"--disable-server"_s}, documentQuery()); }
};

class FileDialogGtk4 : public RealAppTest<FileDialogGtk4>
{
protected:
    static void SetUpTestSuite()
    {
        startApp(u"gnome-text-editor"_s, {u"--standalone"_s, u"--ignore-session"_s}, documentQuery());
    }
};

class FileDialogQt : public RealAppTest<FileDialogQt>
{
protected:
    static void SetUpTestSuite()
    {
        ProbeQuery ready;
        ready.role = u"push button"_s;
        ready.name = u"Send"_s;
        startApp(DesktopSession::fixtureBinary(), {u"--title"_s, u"File dialogs"_s}, ready);
    }
};

} // namespace

TEST_F(FileDialogGtk3, SavesKeepsAnExistingFileUnderNeverAndReplacesItWhenAsked)
{
    savesKeepsAnExistingFileAndReplacesItWhenAsked(*s_app, u"file chooser"_s, false);
}

TEST_F(FileDialogGtk3, OpensAFileThroughTheLocationEntry)
{
    opensTheFileNamed(*s_app, u"file chooser"_s);
}

// GTK 4.8's Save As window is a "filler" to AT-SPI (GTK 3's is a "file chooser"). GtkSourceView
// ends the saved file with a line end (implicit-trailing-newline).
TEST_F(FileDialogGtk4, SavesKeepsAnExistingFileUnderNeverAndReplacesItWhenAsked)
{
    savesKeepsAnExistingFileAndReplacesItWhenAsked(*s_app, u"filler"_s, true);
}

TEST_F(FileDialogGtk4, OpensAFileThroughTheLocationEntry)
{
    opensTheFileNamed(*s_app, u"filler"_s);
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
