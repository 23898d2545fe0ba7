// End to end against mousepad (GTK 3): non-ASCII typing into the text view, the same
// selector for find and typeText, and saving through the GTK 3 file chooser. Every effect is
// checked outside the host: pyatspi reads the text back, the saved file is compared byte for byte.
#include "RealAppSupport.h"

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class RealAppMousepad : public RealAppTest<RealAppMousepad>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        // --disable-server: a process of its own, not a window of some other mousepad.
        s_app->start(u"mousepad"_s, {u"--disable-server"_s}, documentQuery());
    }

    /// The document's text view (the only multi-line editable text of the app), as pyatspi reads it.
    static std::optional<QString> editorText() { return soleText(*s_app, documentQuery()); }
};

const QString kTextArea = u"AXTextArea"_s;

} // namespace

// Was: non-ASCII text was cut short ("héllo wörld 你") and answered as success.
TEST_F(RealAppMousepad, TypesNonAsciiTextIntoTheDocument)
{
    const QString text = u"héllo wörld 你好 🙂"_s;
    const std::optional<QString> before = editorText();
    ASSERT_TRUE(before.has_value());

    const QJsonObject typed = s_app->typeText(QJsonObject{{u"byRole"_s, kTextArea}}, text);

    const std::optional<QString> expected = QString(*before + text);
    EXPECT_EQ(readUntil(editorText, expected), expected) << "pyatspi read-back; host answered " << dump(typed);
    EXPECT_TRUE(isConfirmed(typed, u"typed"_s));
}

// Was: find matched the text view as AXTextArea, then typeText with the same selector
// answered DESKTOP_ELEMENT_NOT_FOUND.
TEST_F(RealAppMousepad, FindAndTypeTextAgreeOnTheTextAreaRole)
{
    const QJsonObject selector{{u"byRole"_s, kTextArea}};
    const QJsonObject found = s_app->find(selector);
    const QJsonObject result = resultOf(found);
    ASSERT_EQ(result.value(u"matched"_s).toInt(), 1) << dump(found);
    EXPECT_EQ(result.value(u"elementRefs"_s).toArray().at(0).toObject().value(u"role"_s).toString(), kTextArea);

    const QString text = u"Zeile zwei: ça va ✓"_s;
    const QJsonObject typed = s_app->typeText(selector, text, /*clearBefore=*/true);

    EXPECT_EQ(readUntil(editorText, std::optional(text)), text) << "pyatspi read-back; host answered " << dump(typed);
    EXPECT_TRUE(isConfirmed(typed, u"typed"_s));
}

// Was: the GTK 3 file chooser was reported as AXGroup (waiting for a dialog
// failed), and its first Save was swallowed while the answer said clicked: true.
TEST_F(RealAppMousepad, SavesTheDocumentThroughTheFileChooser)
{
    // New content in place of the old (select all, type), through the keyboard focus (the
    // document's text view), so that this test does not hang on how the text view is found.
    const QString content = u"Grüße aus der Prüfung\n你好 🙂\n"_s;
    const QByteArray expected = content.toUtf8();
    const QString path = s_app->dir() + u"/saved-by-mdh.txt"_s;
    // (Select-all in an empty document changes nothing: its answer is not what this test checks.)
    s_app->hotkey({u"ctrl"_s, u"a"_s});
    const QJsonObject typed = s_app->typeText({}, content);
    ASSERT_EQ(readUntil(editorText, std::optional(content)), content) << dump(typed);
    EXPECT_TRUE(isConfirmed(typed, u"typed"_s));

    const QJsonObject sent = s_app->hotkey({u"ctrl"_s, u"s"_s});
    EXPECT_TRUE(isConfirmed(sent, u"sent"_s));

    // The dialog is a dialog to the host as it is to pyatspi.
    ProbeQuery chooser;
    chooser.role = u"file chooser"_s;
    chooser.name = u"Save As"_s;
    chooser.states = {u"showing"_s};
    chooser.minCount = 1;
    chooser.waitMs = 5000;
    ASSERT_TRUE(s_app->probe(chooser).ok) << "ctrl+s opened no Save As dialog";
    const QJsonObject waited = s_app->waitUntil(QJsonObject{{u"byRole"_s, u"AXDialog"_s}}, 5000);
    EXPECT_TRUE(resultOf(waited).value(u"ok"_s).toBool()) << dump(waited);

    // A file name typed into the dialog's one visible text field, then its Save button.
    const QString dialog = u"^Save As$"_s;
    const QJsonObject named =
        s_app->typeText(QJsonObject{{u"byRole"_s, u"AXTextField"_s}, {u"visibleOnly"_s, true}}, path, true, dialog);
    EXPECT_TRUE(isConfirmed(named, u"typed"_s));
    const QJsonObject clicked = s_app->click(byRoleAndTitle(u"AXButton"_s, u"Save"_s), dialog);

    const std::optional<QByteArray> saved = waitForFile(path, expected, 5000);
    if (answeredTrue(clicked, u"clicked"_s)) {
        EXPECT_TRUE(saved.has_value()) << "clicked: true, but no file: " << dump(clicked);
    }
    EXPECT_EQ(saved.value_or("<no file>"), expected);
    EXPECT_TRUE(isConfirmed(clicked, u"clicked"_s));

    // Whatever happened, leave no dialog behind for the next test of this process.
    ProbeQuery cancel;
    cancel.role = u"push button"_s;
    cancel.name = u"Cancel"_s;
    cancel.windowName = u"Save As"_s;
    cancel.states = {u"showing"_s};
    cancel.press = true;
    s_app->probe(cancel);
}

// Was: a click on File > Open... ran GTK 3's menu action inside the accessibility call, and the
// action runs the file chooser's own loop (gtk_dialog_run): the app answered nothing while the
// dialog showed, and the next key hung it for good. The item is now picked through its menu
// with the keyboard: the dialog shows, the app answers, a key closes the dialog and the
// document still takes text.
TEST_F(RealAppMousepad, AMenuItemThatOpensADialogLeavesTheAppAnswering)
{
    const QJsonObject clicked =
        s_app->click(QJsonObject{{u"byRole"_s, u"AXMenuItem"_s}, {u"titleContains"_s, u"Open..."_s}});
    EXPECT_TRUE(answeredTrue(clicked, u"clicked"_s)) << dump(clicked);

    ProbeQuery chooser;
    chooser.role = u"file chooser"_s;
    chooser.name = u"Open File"_s;
    chooser.states = {u"showing"_s};
    chooser.minCount = 1;
    chooser.waitMs = 5000;
    const ProbeResult shown = s_app->probe(chooser);
    ASSERT_TRUE(shown.ok) << "the app did not answer, or no Open File dialog: " << shown.error.toStdString() << " "
                          << dump(clicked);

    const QJsonObject escaped = s_app->hotkey({u"escape"_s});
    EXPECT_TRUE(answeredTrue(escaped, u"sent"_s)) << dump(escaped);
    chooser.minCount = 0;
    chooser.maxCount = 0;
    EXPECT_TRUE(s_app->probe(chooser).ok) << "the Open File dialog is still there";

    const QJsonObject typed = s_app->typeText(QJsonObject{{u"byRole"_s, kTextArea}}, u"still here"_s, true);
    EXPECT_EQ(readUntil(editorText, std::optional(u"still here"_s)), u"still here"_s) << dump(typed);
}
