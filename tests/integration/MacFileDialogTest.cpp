// desktop.fileDialog on macOS's panels, through MacBackend over FakeAxApi's AppKit panel (a sheet
// of the document's window, as TextEdit shows one): the folder goes into the Go to Folder sheet,
// the name into the name field, the default button saves or opens, a "Replace" sheet is answered
// as asked. Each checked on disk or in the document, never by the host's answer alone.
#include "MacTarget.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace Testing;
using namespace MacTesting;

namespace {

/// The conformance app with a document (an AXTextArea holding `text`) and a panel over it.
struct PanelApp
{
    explicit PanelApp(bool save, const QString& text = QString(), bool goToIgnored = false)
    {
        document = t.world->addElement(t.window, QStringLiteral("AXTextArea"), QStringLiteral("Document"),
                                       QRectF(210, 280, 460, 180));
        t.world->setAttribute(document, QStringLiteral("AXValue"), FakeAxWorld::AxValue::ofString(text));
        t.world->setAttribute(document, QStringLiteral("AXNumberOfCharacters"),
                              FakeAxWorld::AxValue::ofNumber(static_cast<double>(text.size())));
        panel = addFilePanel(*t.world, kPid, t.window, document, save, goToIgnored);
    }

    QJsonObject fileDialog(const QString& path, const QString& action, const QString& overwrite = {})
    {
        QJsonObject params{
            {QStringLiteral("path"), path},
            {QStringLiteral("action"), action},
            {QStringLiteral("confirm"), QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}}}};
        if (!overwrite.isEmpty())
            params.insert(QStringLiteral("overwrite"), overwrite);
        return t.call(QStringLiteral("desktop.fileDialog"), params);
    }

    bool panelOpen() const { return t.world->attribute(panel, QStringLiteral("AXRole")).has_value(); }

    /// What the save panel's name field holds.
    QString name() const
    {
        const auto children = t.world->attribute(panel, QStringLiteral("AXChildren"));
        for (const auto& child : children ? children->elements : QList<Automation::Mac::AxElement>()) {
            const auto id = t.world->attribute(child.key(), QStringLiteral("AXIdentifier"));
            if (id && id->string == QLatin1String("saveAsNameTextField"))
                return t.world->text(child.key());
        }
        return QStringLiteral("<no name field>");
    }

    MacTarget t;
    QString document;
    QString panel;
};

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<no file>");
}

} // namespace

TEST(MacFileDialog, SavesThroughTheGoToFolderSheetAndTheNameField)
{
    QTemporaryDir dir;
    const QString text = QStringLiteral("Grüße aus dem Panel\n你好");
    PanelApp app(true, text);
    const QString path = dir.filePath(QStringLiteral("saved.txt"));

    const QJsonObject answer = app.fileDialog(path, QStringLiteral("save"));
    const QJsonObject result = resultOf(answer);
    EXPECT_TRUE(result.value(QStringLiteral("savedPathVerified")).toBool()) << dump(answer);
    EXPECT_EQ(result.value(QStringLiteral("dialog")).toObject().value(QStringLiteral("toolkit")).toString(),
              QStringLiteral("appkit"));
    EXPECT_EQ(result.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"));
    EXPECT_EQ(readFile(path), text.toUtf8());
    EXPECT_FALSE(app.panelOpen());
    // The Go to Folder sheet took the folder, the name field the name: no path went into the name.
    EXPECT_TRUE(app.t.world->inputLog().join(QLatin1Char('\n')).contains(QStringLiteral("down:0x05:0x120000")))
        << "Command-Shift-G was not pressed";
}

TEST(MacFileDialog, AnExistingFileIsKeptUnderNeverAndTheReplaceSheetAnsweredUnderReplace)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("kept.txt"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("the person's file\n");
    }
    PanelApp app(true, QStringLiteral("the new text"));

    const QJsonObject refused = app.fileDialog(path, QStringLiteral("save"));
    EXPECT_EQ(errorOf(refused).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("file_exists"))
        << dump(refused);
    EXPECT_EQ(readFile(path), QByteArray("the person's file\n"));
    EXPECT_TRUE(app.panelOpen());

    const QJsonObject replaced = app.fileDialog(path, QStringLiteral("save"), QStringLiteral("replace"));
    EXPECT_TRUE(resultOf(replaced).value(QStringLiteral("replaced")).toBool()) << dump(replaced);
    EXPECT_TRUE(resultOf(replaced).value(QStringLiteral("savedPathVerified")).toBool());
    EXPECT_EQ(readFile(path), QByteArray("the new text"));
    EXPECT_FALSE(app.panelOpen());
}

// A collapsed panel ignores Command-Shift-G: the host types nothing (a path typed into the name
// field would save a file named with colons in whatever folder the panel shows).
TEST(MacFileDialog, WithoutTheGoToFolderSheetNothingIsTyped)
{
    QTemporaryDir dir;
    PanelApp app(true, QStringLiteral("text"), true);
    const QString path = dir.filePath(QStringLiteral("never.txt"));

    const QJsonObject answer = app.fileDialog(path, QStringLiteral("save"));
    const QJsonObject error = errorOf(answer);
    EXPECT_EQ(error.value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("go_to_folder_unavailable"))
        << dump(answer);
    EXPECT_FALSE(error.value(QStringLiteral("retryable")).toBool());
    EXPECT_EQ(app.name(), QStringLiteral("Untitled.txt"));
    EXPECT_FALSE(QFile::exists(path));
    for (const QString& entry : QDir(dir.path()).entryList(QDir::Files))
        ADD_FAILURE() << "a file appeared: " << entry.toStdString();
    EXPECT_TRUE(app.panelOpen());
}

TEST(MacFileDialog, OpensAFileSelectedThroughTheGoToFolderSheet)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("to open.txt"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("geöffnet ✓").toUtf8());
    }
    PanelApp app(false);

    const QJsonObject missing = app.fileDialog(dir.filePath(QStringLiteral("missing.txt")), QStringLiteral("open"));
    EXPECT_EQ(errorOf(missing).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("file_not_found"))
        << dump(missing);

    const QJsonObject opened = app.fileDialog(path, QStringLiteral("open"));
    EXPECT_TRUE(resultOf(opened).value(QStringLiteral("dialogClosed")).toBool()) << dump(opened);
    EXPECT_EQ(app.t.world->text(app.document), QStringLiteral("geöffnet ✓"));
    EXPECT_FALSE(app.panelOpen());
}
