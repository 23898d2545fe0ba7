// End to end against gnome-text-editor (GTK 4.8): non-ASCII typing, frames in screen
// coordinates, and enabledOnly on a toolkit that sets "sensitive" but not "enabled". Checked
// outside the host with pyatspi (text) and xdotool (the X window's place on the screen).
#include "RealAppSupport.h"

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

class RealAppTextEditor : public RealAppTest<RealAppTextEditor>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        // --standalone: a process of its own; --ignore-session: no documents of an earlier run.
        s_app->start(u"gnome-text-editor"_s, {u"--standalone"_s, u"--ignore-session"_s}, documentQuery());
    }

    /// The document's text view (the only multi-line editable text of the app), as pyatspi reads it.
    static std::optional<QString> editorText() { return soleText(*s_app, documentQuery()); }
};

} // namespace

// Was: typeText of this text left "héllo wörld 你" and answered typed: true.
TEST_F(RealAppTextEditor, TypesNonAsciiTextIntoTheDocument)
{
    const QString text = u"héllo wörld 你好 🙂"_s;
    const std::optional<QString> before = editorText();
    ASSERT_TRUE(before.has_value());

    const QJsonObject typed = s_app->typeText(QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}, text);

    const std::optional<QString> expected = QString(*before + text);
    EXPECT_EQ(readUntil(editorText, expected), expected) << "pyatspi read-back; host answered " << dump(typed);
    EXPECT_TRUE(isConfirmed(typed, u"typed"_s));
}

// Was: GTK 4 reports frames relative to the window; answers must carry screen coordinates.
TEST_F(RealAppTextEditor, FramesAreScreenCoordinates)
{
    const std::optional<XWindow> window = mainXWindow(s_app->pid());
    ASSERT_TRUE(window.has_value()) << "xdotool sees no window of the app";
    // The window manager places the window away from the origin, so the two kinds of
    // coordinates differ and the test can tell them apart.
    ASSERT_GT(window->geometry.x() + window->geometry.y(), 100)
        << "window at " << window->geometry.x() << "," << window->geometry.y();

    // The header bar's main menu button (GTK 4 puts it at y=6 of the window: outside the
    // window's screen rectangle unless translated).
    const QJsonObject found = s_app->find(byRoleAndTitle(u"AXButton"_s, u"Menu"_s));
    const QJsonArray refs = resultOf(found).value(u"elementRefs"_s).toArray();
    ASSERT_GE(refs.size(), 1) << dump(found);
    for (const QJsonValue& ref : refs) {
        const QJsonObject frame = ref.toObject().value(u"frame"_s).toObject();
        const QRect rect(frame.value(u"x"_s).toInt(), frame.value(u"y"_s).toInt(), frame.value(u"width"_s).toInt(),
                         frame.value(u"height"_s).toInt());
        ASSERT_GT(rect.width(), 0) << dump(found);
        EXPECT_TRUE(window->geometry.contains(rect))
            << "element frame " << dump(frame) << " is not inside the window's screen rectangle "
            << window->geometry.x() << "," << window->geometry.y() << " " << window->geometry.width() << "x"
            << window->geometry.height();
    }
}

// Was: enabledOnly: true matched nothing in GTK 4 (it sets "sensitive", not "enabled").
TEST_F(RealAppTextEditor, EnabledOnlyFindsTheHeaderBarButtons)
{
    // pyatspi: the main menu button is there and sensitive, so an enabled-only search must find it.
    ProbeQuery menu;
    menu.role = u"push button"_s;
    menu.name = u"Menu"_s;
    menu.states = {u"sensitive"_s};
    menu.minCount = 1;
    ASSERT_TRUE(s_app->probe(menu).ok);

    QJsonObject selector = byRoleAndTitle(u"AXButton"_s, u"Menu"_s);
    const QJsonObject all = s_app->find(selector);
    ASSERT_GE(resultOf(all).value(u"matched"_s).toInt(), 1) << dump(all);
    selector.insert(u"enabledOnly"_s, true);
    const QJsonObject enabled = s_app->find(selector);
    EXPECT_GE(resultOf(enabled).value(u"matched"_s).toInt(), 1) << dump(enabled);

    const QJsonObject anyEnabled = s_app->find(QJsonObject{{u"byRole"_s, u"AXButton"_s}, {u"enabledOnly"_s, true}});
    EXPECT_GE(resultOf(anyEnabled).value(u"matched"_s).toInt(), 3) << dump(anyEnabled);
}
