// End to end for the plan's primitives against real third-party apps: mousepad (GTK 3) for
// menu paths, readText and dumpTree; firefox-esr with a long page (tests/e2e/data/long.html) for
// scrolling, capture and readText. Effects are checked outside the host: pyatspi reads the
// document back, the page reports its scroll position in its title (read with xdotool).
#include "RealAppSupport.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

QJsonObject callIn(RealAppSession& app, const QString& method, const QJsonObject& params, bool sideEffect = false)
{
    return app.call(method, params, sideEffect);
}

class PrimitivesMousepad : public RealAppTest<PrimitivesMousepad>
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
    /// The document's text view (the only multi-line editable text of the app), as pyatspi reads it.
    static std::optional<QString> editorText() { return soleText(*s_app, documentQuery()); }
    static QJsonObject call(const QString& method, const QJsonObject& params, bool sideEffect = false)
    {
        return callIn(*s_app, method, params, sideEffect);
    }
};

class PrimitivesFirefox : public RealAppTest<PrimitivesFirefox>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        const QString profile = s_app->dir() + u"/profile"_s;
        const QString page = s_app->dir() + u"/long.html"_s;
        if (!QDir().mkpath(profile) ||
            !QFile::copy(QStringLiteral(MDH_E2E_DATA_DIR "/user.js"), profile + u"/user.js"_s) ||
            !QFile::copy(QStringLiteral(MDH_E2E_DATA_DIR "/long.html"), page))
            return;
        ProbeQuery ready;
        ready.role = u"heading"_s;
        ready.name = u"The end"_s;
        s_app->start(u"firefox-esr"_s,
                     {u"--no-remote"_s, u"--profile"_s, profile, QUrl::fromLocalFile(page).toString()}, ready, 60000);
    }
    static QJsonObject call(const QString& method, const QJsonObject& params, bool sideEffect = false)
    {
        return callIn(*s_app, method, params, sideEffect);
    }
    /// The page's scroll position from its title ("scrollY=N"; "Long page" before any scroll: 0),
    /// once `accept` takes it or the time is up.
    static int scrollY(const std::function<bool(int)>& accept, int timeoutMs = 3000)
    {
        static const QRegularExpression pattern(u"^scrollY=(\\d+)"_s);
        int y = -1;
        waitForWindowTitle(
            s_app->pid(),
            [&](const QString& title) {
                const auto m = pattern.match(title);
                y = m.hasMatch() ? m.captured(1).toInt() : (title.startsWith(u"Long page"_s) ? 0 : -1);
                return y >= 0 && accept(y);
            },
            timeoutMs);
        return y;
    }
};

} // namespace

// A three-level path in a GTK 3 menu bar with the ellipsis-free titles a person reads: the
// document's text, read back with pyatspi, is upper case afterwards.
TEST_F(PrimitivesMousepad, ConvertsTheDocumentToUppercaseThroughItsMenus)
{
    const QJsonObject typed = s_app->typeText(QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}, u"hello menu"_s, true);
    ASSERT_TRUE(isConfirmed(typed, u"typed"_s)) << dump(typed);

    const QJsonObject all = call(u"desktop.menuPick"_s, {{u"path"_s, QJsonArray{u"Edit"_s, u"Select All"_s}}}, true);
    EXPECT_TRUE(resultOf(all).value(u"picked"_s).toBool()) << dump(all);
    const QJsonObject upper =
        call(u"desktop.menuPick"_s, {{u"path"_s, QJsonArray{u"Edit"_s, u"Convert"_s, u"To Uppercase"_s}}}, true);
    EXPECT_EQ(readUntil(editorText, std::optional<QString>(u"HELLO MENU"_s)), u"HELLO MENU"_s)
        << "pyatspi read-back; host answered " << dump(upper);
    const QJsonObject result = resultOf(upper);
    EXPECT_TRUE(result.value(u"picked"_s).toBool()) << dump(upper);
    EXPECT_EQ(result.value(u"items"_s).toArray().size(), 3);
    // Three levels, three numbered trees in the evidence, each a whole tree of the window.
    const QString dir = evidenceDir(upper);
    for (const QString& name :
         {u"ax/001_menu_Edit.json"_s, u"ax/002_menu_Convert.json"_s, u"ax/003_menu_To_Uppercase.json"_s}) {
        QFile file(dir + name);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << name.toStdString() << " missing in " << dir.toStdString();
        EXPECT_FALSE(QJsonDocument::fromJson(file.readAll()).object().value(u"root"_s).toObject().isEmpty())
            << name.toStdString();
    }
    // env.json: the editor's window as X places it, and the menu item's delivery.
    QFile envFile(dir + u"env.json"_s);
    ASSERT_TRUE(envFile.open(QIODevice::ReadOnly));
    const QJsonObject env = QJsonDocument::fromJson(envFile.readAll()).object();
    const auto window = mainXWindow(s_app->pid());
    ASSERT_TRUE(window.has_value());
    EXPECT_EQ(env.value(u"window"_s).toObject().value(u"frame"_s).toObject().value(u"width"_s).toInt(),
              window->geometry.width())
        << dump(env);
    EXPECT_EQ(env.value(u"action"_s).toObject().value(u"effect"_s).toString(), result.value(u"effect"_s).toString());
}

// "Reload" has nothing to reload in a new document: refused, naming the item, nothing picked.
TEST_F(PrimitivesMousepad, RefusesADisabledMenuItem)
{
    const QJsonObject refused = call(u"desktop.menuPick"_s, {{u"path"_s, QJsonArray{u"File"_s, u"Reload"_s}}}, true);
    EXPECT_EQ(errorCode(refused), u"DESKTOP_ELEMENT_NOT_FOUND"_s) << dump(refused);
    EXPECT_EQ(errorOf(refused).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"disabled"_s);
}

// File > Save As… opens GTK's file chooser: waitUntil sees its window appear, and go after Escape.
TEST_F(PrimitivesMousepad, WaitsForTheFileChooserWindowOpenedFromTheMenu)
{
    const QJsonObject chooser{{u"titlePattern"_s, u"^Save As"_s}};
    const QJsonObject picked = call(u"desktop.menuPick"_s, {{u"path"_s, QJsonArray{u"File"_s, u"Save As"_s}}}, true);
    EXPECT_TRUE(resultOf(picked).value(u"picked"_s).toBool()) << dump(picked);
    // Was: the item's accessibility action ran the dialog inside it, and mousepad answered
    // nothing on the bus until the dialog closed. The item is activated by its key instead.
    EXPECT_EQ(resultOf(picked).value(u"deliveredBy"_s).toString(), u"keyboard:menu"_s) << dump(picked);
    const QJsonObject appeared = call(
        u"desktop.waitUntil"_s, {{u"condition"_s, QJsonObject{{u"windowExists"_s, chooser}}}, {u"timeoutMs"_s, 8000}});
    QStringList names;
    for (const XWindow& w : xWindows(s_app->pid()))
        names.append(w.name);
    EXPECT_TRUE(resultOf(appeared).value(u"ok"_s).toBool())
        << dump(appeared) << "; xdotool: " << names.join(u", "_s).toStdString();
    ASSERT_TRUE(names.contains(u"Save As"_s))
        << "xdotool sees no Save As window: " << names.join(u", "_s).toStdString();

    const QJsonObject escape = s_app->call(
        u"desktop.hotkey"_s, {{u"route"_s, s_app->route(u"^Save As"_s)}, {u"keys"_s, QJsonArray{u"escape"_s}}}, true);
    const QJsonObject gone = call(u"desktop.waitUntil"_s,
                                  {{u"condition"_s, QJsonObject{{u"windowGone"_s, chooser}}}, {u"timeoutMs"_s, 8000}});
    EXPECT_TRUE(resultOf(gone).value(u"ok"_s).toBool()) << dump(gone) << "; escape answered " << dump(escape);
}

// readText gives what pyatspi reads in the document; dumpTree has the menu bar and the document.
TEST_F(PrimitivesMousepad, ReadsTheDocumentAndDumpsTheTree)
{
    const QString text = u"Zeile eins\nzwei: ça va ✓"_s;
    ASSERT_TRUE(isConfirmed(s_app->typeText(QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}, text, true), u"typed"_s));
    ASSERT_EQ(readUntil(editorText, std::optional(text)), text);

    const QJsonObject read =
        call(u"desktop.readText"_s, {{u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextArea"_s}}}});
    const QJsonObject item = resultOf(read).value(u"items"_s).toArray().at(0).toObject();
    EXPECT_EQ(item.value(u"text"_s).toString(), *editorText()) << dump(read);
    EXPECT_EQ(item.value(u"source"_s).toString(), u"text"_s);

    const QJsonObject dumped = call(u"desktop.dumpTree"_s, {{u"maxDepth"_s, 64}, {u"maxNodes"_s, 5000}});
    const QByteArray json = QJsonDocument(resultOf(dumped)).toJson(QJsonDocument::Compact);
    EXPECT_TRUE(json.contains("\"role\":\"AXMenuBar\"")) << dump(dumped).substr(0, 2000);
    EXPECT_TRUE(json.contains("\"role\":\"AXTextArea\""));
    EXPECT_FALSE(json.contains("zwei")) << "text without includeText";
}

// Gecko scrolls a heading at the bottom into view (Component.ScrollTo): the page's own scroll
// position changes, and the answer says the heading is now inside the window.
TEST_F(PrimitivesFirefox, ScrollsAHeadingIntoView)
{
    const QJsonObject scrolled =
        call(u"desktop.scroll"_s,
             {{u"target"_s, QJsonObject{{u"selector"_s, byRoleAndTitle(u"AXHeading"_s, u"The end"_s)}}}}, true);
    EXPECT_GT(scrollY([](int y) { return y > 1000; }), 1000) << "page title; host answered " << dump(scrolled);
    const QJsonObject result = resultOf(scrolled);
    EXPECT_TRUE(result.value(u"scrolled"_s).toBool()) << dump(scrolled);
    EXPECT_TRUE(result.value(u"visible"_s).toBool()) << dump(scrolled);

    ProbeQuery heading;
    heading.role = u"heading"_s;
    heading.name = u"The end"_s;
    const ProbeResult seen = s_app->probe(heading);
    const auto window = mainXWindow(s_app->pid());
    ASSERT_EQ(seen.nodes.size(), 1);
    ASSERT_TRUE(seen.nodes.first().extents && window);
    EXPECT_TRUE(window->geometry.contains(seen.nodes.first().extents->center()))
        << "pyatspi: the heading is off screen";
}

// The page itself (Gecko shows no scroll bars to accessibility): the wheel over it, a page
// down then back up, as the page reports.
TEST_F(PrimitivesFirefox, ScrollsThePageDownAndUp)
{
    const QJsonObject page = QJsonObject{{u"byRole"_s, u"AXWebArea"_s}};
    const QJsonObject down = call(
        u"desktop.scroll"_s,
        {{u"target"_s, QJsonObject{{u"selector"_s, page}}}, {u"direction"_s, u"down"_s}, {u"unit"_s, u"page"_s}}, true);
    const int y = scrollY([](int v) { return v > 200; });
    EXPECT_GT(y, 200) << "page title; host answered " << dump(down);
    EXPECT_TRUE(resultOf(down).value(u"scrolled"_s).toBool()) << dump(down);
    EXPECT_EQ(resultOf(down).value(u"deliveredBy"_s).toString(), u"wheel"_s) << dump(down);

    const QJsonObject up = call(u"desktop.scroll"_s,
                                {{u"target"_s, QJsonObject{{u"selector"_s, page}}},
                                 {u"direction"_s, u"up"_s},
                                 {u"unit"_s, u"page"_s},
                                 {u"amount"_s, 3}},
                                true);
    EXPECT_EQ(scrollY([](int v) { return v == 0; }), 0) << "page title; host answered " << dump(up);
    EXPECT_TRUE(resultOf(up).value(u"scrolled"_s).toBool()) << dump(up);
}

// The window's capture, and readText on the page: an address masked, the password input refused.
TEST_F(PrimitivesFirefox, CapturesTheWindowAndReadsThePageText)
{
    const QJsonObject captured = call(u"desktop.capture"_s, {});
    const QJsonObject frame = resultOf(captured).value(u"frame"_s).toObject();
    const auto window = mainXWindow(s_app->pid());
    ASSERT_TRUE(window.has_value());
    EXPECT_NEAR(frame.value(u"width"_s).toInt(), window->geometry.width(), 40) << dump(captured);
    EXPECT_NEAR(frame.value(u"height"_s).toInt(), window->geometry.height(), 80) << dump(captured);
    QImage image(evidenceDir(captured) + u"capture.png"_s);
    EXPECT_EQ(image.width(), frame.value(u"width"_s).toInt());

    const QJsonObject read =
        call(u"desktop.readText"_s, {{u"selector"_s, byRoleAndTitle(u"AXTextField"_s, u"Contact"_s)}});
    const QJsonObject item = resultOf(read).value(u"items"_s).toArray().at(0).toObject();
    EXPECT_EQ(item.value(u"text"_s).toString(), u"write to [redacted:email]"_s) << dump(read);

    const QJsonObject pin =
        call(u"desktop.readText"_s, {{u"selector"_s, byRoleAndTitle(u"AXTextField"_s, u"PIN code"_s)}});
    EXPECT_EQ(errorOf(pin).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"secure_field"_s)
        << dump(pin);
    EXPECT_FALSE(QJsonDocument(pin).toJson().contains("2468"));
}

// A page's fields by their labels: "Contact" through the relation a <label for> makes, "Zip
// code" (a <label> tied to nothing) by where it stands. The typed text reaches the page, which
// puts it in its title (read with xdotool).
TEST_F(PrimitivesFirefox, FindsFieldsByTheirLabelsThroughRelationsAndGeometry)
{
    const auto reasonsOf = [](const QJsonObject& response) {
        QFile file(evidenceDir(response) + u"selectors/candidates.json"_s);
        if (!file.open(QIODevice::ReadOnly))
            return QStringList();
        QStringList reasons;
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        for (const auto& r : json.value(u"candidates"_s).toArray().at(0).toObject().value(u"reasons"_s).toArray())
            reasons.append(r.toString());
        return reasons;
    };
    const QJsonObject contact =
        call(u"desktop.find"_s,
             {{u"selector"_s, QJsonObject{{u"byRole"_s, u"AXTextField"_s},
                                          {u"labelledBy"_s, QJsonObject{{u"titleEquals"_s, u"Contact"_s}}}}}});
    const QJsonArray refs = resultOf(contact).value(u"elementRefs"_s).toArray();
    ASSERT_FALSE(refs.isEmpty()) << dump(contact);
    EXPECT_EQ(refs.at(0).toObject().value(u"title"_s).toString(), u"Contact"_s) << dump(contact);
    EXPECT_TRUE(reasonsOf(contact).contains(u"labelled by \"Contact\" (relation)"_s))
        << reasonsOf(contact).join(u"; "_s).toStdString();

    const QJsonObject zip{{u"byRole"_s, u"AXTextField"_s},
                          {u"labelledBy"_s, QJsonObject{{u"titleEquals"_s, u"Zip code"_s}}}};
    const QJsonObject typed =
        call(u"desktop.typeText"_s, {{u"target"_s, QJsonObject{{u"selector"_s, zip}}}, {u"text"_s, u"10115"_s}}, true);
    const QString title = waitForWindowTitle(
        s_app->pid(), [](const QString& t) { return t.startsWith(u"zip=10115 "_s); }, 5000);
    EXPECT_TRUE(title.startsWith(u"zip=10115 "_s)) << title.toStdString() << "; host answered " << dump(typed);
    const QStringList reasons = reasonsOf(typed);
    EXPECT_TRUE(std::any_of(reasons.cbegin(), reasons.cend(), [](const QString& r) {
        return r.startsWith(u"labelled by \"Zip code\" (geometry"_s);
    })) << reasons.join(u"; "_s).toStdString();
}

// Another program's always-on-top window over the page's button: the pointer is refused naming
// it and the page counts no press; the accessibility action presses it; uncovered, the pointer
// does. The page counts presses in its title.
TEST_F(PrimitivesFirefox, APointerClickOnACoveredButtonIsRefusedNamingTheCover)
{
    const QJsonObject button = byRoleAndTitle(u"AXButton"_s, u"Press me"_s);
    const QJsonObject found = call(u"desktop.find"_s, {{u"selector"_s, button}});
    const QJsonObject frame =
        resultOf(found).value(u"elementRefs"_s).toArray().at(0).toObject().value(u"frame"_s).toObject();
    ASSERT_FALSE(frame.isEmpty()) << dump(found);
    const QPoint centre(frame.value(u"x"_s).toInt() + frame.value(u"width"_s).toInt() / 2,
                        frame.value(u"y"_s).toInt() + frame.value(u"height"_s).toInt() / 2);
    const auto clickBy = [&](const QString& delivery) {
        return call(u"desktop.click"_s,
                    {{u"target"_s, QJsonObject{{u"selector"_s, button}}}, {u"delivery"_s, delivery}}, true);
    };
    const auto titleStarts = [&](const QString& prefix) {
        return waitForWindowTitle(
            s_app->pid(), [&](const QString& t) { return t.startsWith(prefix); }, 5000);
    };
    {
        CoverWindow cover(s_app->environment(), QRect(centre - QPoint(50, 30), QSize(100, 60)), u"Video call"_s);
        ASSERT_TRUE(cover.shown());
        const QJsonObject covered = clickBy(u"pointer"_s);
        const QJsonObject details = errorOf(covered).value(u"details"_s).toObject();
        EXPECT_EQ(details.value(u"reason"_s).toString(), u"occluded"_s) << dump(covered);
        EXPECT_EQ(details.value(u"coveredBy"_s).toObject().value(u"title"_s).toString(), u"Video call"_s);
        EXPECT_FALSE(titleStarts(u"pressed"_s).startsWith(u"pressed"_s)) << "the page counted a press";

        const QJsonObject pressed = clickBy(u"action"_s);
        EXPECT_TRUE(titleStarts(u"pressed 1 "_s).startsWith(u"pressed 1 "_s)) << dump(pressed);
    }
    const QJsonObject pointed = clickBy(u"pointer"_s);
    EXPECT_EQ(resultOf(pointed).value(u"deliveredBy"_s).toString(), u"pointer"_s) << dump(pointed);
    EXPECT_TRUE(titleStarts(u"pressed 2 "_s).startsWith(u"pressed 2 "_s)) << dump(pointed);
}

// A window id and a snapshotId carried from find into typeText by keys alone; refresh reads the
// editor afresh; the document holds the text (pyatspi).
TEST_F(PrimitivesMousepad, StaysOnTheWindowAndSnapshotItFoundAndTypesByTheNamedPath)
{
    const QJsonObject document{{u"byRole"_s, u"AXTextArea"_s}};
    const QJsonObject found = call(u"desktop.find"_s, {{u"selector"_s, document}, {u"refresh"_s, true}});
    const QString windowId = resultOf(found).value(u"routeResolved"_s).toObject().value(u"windowId"_s).toString();
    const QString snapshotId = resultOf(found).value(u"snapshotId"_s).toString();
    ASSERT_TRUE(windowId.startsWith(u"w:"_s)) << dump(found);
    QJsonObject ref = resultOf(found).value(u"elementRefs"_s).toArray().at(0).toObject();
    ref.insert(u"snapshotId"_s, snapshotId);
    const QJsonObject typed = call(u"desktop.typeText"_s,
                                   {{u"route"_s, QJsonObject{{u"window"_s, QJsonObject{{u"id"_s, windowId}}}}},
                                    {u"target"_s, QJsonObject{{u"elementRef"_s, ref}}},
                                    {u"text"_s, u"typed key by key"_s},
                                    {u"delivery"_s, u"keys"_s},
                                    {u"options"_s, QJsonObject{{u"clearBefore"_s, true}}}},
                                   true);
    EXPECT_EQ(resultOf(typed).value(u"path"_s).toString(), u"keys"_s) << dump(typed);
    EXPECT_EQ(readUntil([] { return editorText().value_or(QString()); }, u"typed key by key"_s), u"typed key by key"_s)
        << dump(typed);

    // A window id no window has (a closed one) is not found.
    const QString closed = windowId + u"9"_s;
    const QJsonObject elsewhere =
        call(u"desktop.find"_s,
             {{u"route"_s, QJsonObject{{u"window"_s, QJsonObject{{u"id"_s, closed}}}}}, {u"selector"_s, document}});
    EXPECT_EQ(errorOf(elsewhere).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"window_not_found"_s)
        << dump(elsewhere);
}
