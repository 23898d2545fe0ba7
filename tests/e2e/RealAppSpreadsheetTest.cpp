// End to end against LibreOffice Calc (the office suite's spreadsheet, through its GTK 3 front
// end): its sheet says it has 2 147 483 647 cells and builds each one it is asked for, so a read
// that asks for the sheet's children makes it build all of them, stop answering and grow without
// bound. Two reads of the window leave the app answering a direct accessibility call (pyatspi,
// outside the host) and its memory within bounds; the answers say what they left out (the sheet
// and its count) and hold the cells that show, which find then finds.
#include "RealAppSupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>

#include <functional>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

// The resident memory of a process, in kB (0 when it is gone).
qint64 residentKb(qint64 pid)
{
    QFile status(u"/proc/%1/status"_s.arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    static const QRegularExpression rss(u"VmRSS:\\s+(\\d+) kB"_s);
    const auto match = rss.match(QString::fromLatin1(status.readAll()));
    return match.hasMatch() ? match.captured(1).toLongLong() : 0;
}

class RealAppSpreadsheet : public RealAppTest<RealAppSpreadsheet>
{
protected:
    static constexpr int kSettleMs = 3000;

    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        // The GTK 3 front end speaks AT-SPI; soffice.bin itself, so that the pid is the app's.
        s_app->environment().insert(u"SAL_USE_VCLPLUGIN"_s, u"gtk3"_s);
        const QString program = u"/usr/lib/libreoffice/program/soffice.bin"_s;
        const QString profile = u"-env:UserInstallation=file://"_s + s_app->dir() + u"/lo-profile"_s;
        // A new profile makes the first start end at once for a restart (oosplash would do
        // it): the profile is made first, then the app started for good.
        runCommand(program, {u"--headless"_s, u"--terminate_after_init"_s, profile}, s_app->environment(), 60000);
        // Its chatter goes to a file: a pipe nobody reads would fill and stop the app (exec keeps
        // the pid the app's).
        if (!s_app->start(u"/bin/sh"_s,
                          {u"-c"_s, u"exec \"$0\" \"$@\" >\"$HOME/soffice.log\" 2>&1"_s, program, u"--calc"_s,
                           u"--norestore"_s, u"--nologo"_s, u"--nofirststartwizard"_s, profile},
                          sheetQuery(), 60000))
            return;
        // The sheet shows before the app has finished starting (its sidebar and toolbars are
        // still being built, and it answers nothing meanwhile): let it settle, as a person would.
        QThread::msleep(kSettleMs);
    }

    static ProbeQuery sheetQuery()
    {
        ProbeQuery query;
        query.role = u"table"_s;
        query.nameContains = u"Sheet1"_s;
        query.minCount = 1;
        query.waitMs = 0;
        return query;
    }

    // An element of the app that shows within 5 s.
    static ProbeQuery appears(const QString& role, const QString& name)
    {
        ProbeQuery query;
        query.role = role;
        query.name = name;
        query.minCount = 1;
        query.waitMs = 5000;
        return query;
    }

    // The text of the showing sheet's cell at (row, column), read through its Table interface by pyatspi
    // (GetAccessibleAt builds that one cell, never the others); nullopt when unreadable.
    static std::optional<QString> cellText(int row, int column)
    {
        const QString script = uR"(
import sys, pyatspi
pid, row, column = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
desktop = pyatspi.Registry.getDesktop(0)
for app in desktop:
    if app is None or app.get_process_id() != pid:
        continue
    def sheet(node, depth):
        if depth > 12:
            return None
        role = node.getRoleName()
        if role == "table" and node.getState().contains(pyatspi.STATE_SHOWING):
            return node
        if node.childCount > 2048 or role in ("menu bar", "tool bar"):
            return None
        for child in node:
            found = child and sheet(child, depth + 1)
            if found:
                return found
        return None
    table = sheet(app, 0)
    if table:
        print(table.queryTable().getAccessibleAt(row, column).queryText().getText(0, -1), end="")
        sys.exit(0)
sys.exit(1)
)"_s;
        const CommandResult run =
            runCommand(u"/usr/bin/python3"_s,
                       {u"-c"_s, script, QString::number(s_app->pid()), QString::number(row), QString::number(column)},
                       QProcessEnvironment::systemEnvironment(), 20000);
        if (run.exitCode != 0)
            return std::nullopt;
        return run.out;
    }

    // The sheet's entry in an answer's `omitted` list, when there is one.
    static std::optional<QJsonObject> omittedSheet(const QJsonArray& omitted)
    {
        for (const auto& entry : omitted) {
            if (entry.toObject().value(u"role"_s).toString() == u"AXTable"_s)
                return entry.toObject();
        }
        return std::nullopt;
    }
};

} // namespace

// Two reads of the window (the first from the toolkit's cache of the tree, the second a walk):
// the app keeps answering and its memory stays within 200 MB of where it was; each answer says
// what it left out (the toolkit's cache may not list the sheet yet; the walk names it,
// huge_container with its count) and the walk holds the cells that show.
TEST_F(RealAppSpreadsheet, ReadingTheSheetNeverWrecksTheApp)
{
    const qint64 before = residentKb(s_app->pid());
    ASSERT_GT(before, 0);
    bool sheetNamed = false;
    int visibleCells = 0;
    for (int read = 0; read < 2; ++read) {
        const QJsonObject dumped =
            s_app->call(u"desktop.dumpTree"_s, {{u"maxDepth"_s, 30}, {u"maxNodes"_s, 5000}}, false, 30000);
        const QJsonObject tree = dumped.value(u"result"_s).toObject().value(u"tree"_s).toObject();
        ASSERT_FALSE(tree.isEmpty()) << "read " << read << ": " << dump(dumped);
        // Each read says that it is not the whole window, and what it left out.
        EXPECT_TRUE(tree.value(u"truncated"_s).toBool()) << "read " << read;
        EXPECT_FALSE(tree.value(u"omitted"_s).toArray().isEmpty()) << "read " << read;
        if (const auto sheet = omittedSheet(tree.value(u"omitted"_s).toArray())) {
            sheetNamed = true;
            EXPECT_EQ(tree.value(u"truncatedReason"_s).toString(), u"huge_container"_s) << "read " << read;
            EXPECT_EQ(sheet->value(u"childCount"_s).toVariant().toLongLong(), 2147483647LL)
                << "an integer, as the app said it";
            EXPECT_EQ(sheet->value(u"reason"_s).toString(), u"huge_container"_s);
        }
        visibleCells = 0;
        const std::function<void(const QJsonObject&)> count = [&](const QJsonObject& node) {
            if (node.value(u"nativeRole"_s).toString() == u"table cell"_s)
                ++visibleCells;
            for (const auto& child : node.value(u"children"_s).toArray())
                count(child.toObject());
        };
        count(tree.value(u"root"_s).toObject());
    }
    EXPECT_TRUE(sheetNamed) << "no read named the sheet and its count";
    // What shows of the sheet is in the tree: more than a row, fewer than the bound.
    EXPECT_GT(visibleCells, 20);
    EXPECT_LE(visibleCells, 1000);
    // The app itself, outside the host: it answers at once, and it did not build its cells.
    QElapsedTimer answered;
    answered.start();
    ProbeQuery tab;
    tab.role = u"page tab"_s;
    tab.name = u"Sheet1"_s;
    tab.minCount = 1;
    const ProbeResult seen = s_app->probe(tab);
    EXPECT_TRUE(seen.ok) << seen.error.toStdString();
    EXPECT_LT(answered.elapsed(), 3000) << "the app answered a direct call slowly";
    const qint64 after = residentKb(s_app->pid());
    EXPECT_LT(after - before, 200 * 1024) << "memory grew from " << before << " kB to " << after << " kB";
    std::printf("Bench.Spreadsheet: resident memory %lld kB before two reads, %lld kB after (%+lld kB)\n",
                static_cast<long long>(before), static_cast<long long>(after), static_cast<long long>(after - before));
}

// What shows of the sheet is there to find: the cell B2 by its name, as a person would write it,
// with find's own bounds; the answer says the search left the rest of the sheet out.
TEST_F(RealAppSpreadsheet, AVisibleCellIsFoundAndTheAnswerSaysWhatWasLeftOut)
{
    const QJsonObject found =
        s_app->call(u"desktop.find"_s,
                    {{u"selector"_s, QJsonObject{{u"byRole"_s, u"AXCell"_s}, {u"titleEquals"_s, u"B2"_s}}},
                     {u"maxDepth"_s, 30},
                     {u"maxNodes"_s, 5000},
                     {u"maxWallTimeMs"_s, 20000}},
                    false, 30000);
    const QJsonObject result = found.value(u"result"_s).toObject();
    EXPECT_EQ(result.value(u"matched"_s).toInt(), 1) << dump(found);
    EXPECT_TRUE(result.value(u"truncated"_s).toBool());
    EXPECT_EQ(result.value(u"truncatedReason"_s).toString(), u"huge_container"_s);
    EXPECT_TRUE(omittedSheet(result.value(u"omitted"_s).toArray())) << dump(found);
    // The cell is where B2 shows: right of A2, below B1, in the sheet's grid.
    const QJsonObject frame = result.value(u"elementRefs"_s).toArray().at(0).toObject().value(u"frame"_s).toObject();
    EXPECT_GT(frame.value(u"width"_s).toInt(), 0) << dump(found);
    // A bound of find's own: a tree cut at depth 2 says so.
    const QJsonObject shallow = s_app->call(
        u"desktop.find"_s,
        {{u"selector"_s, QJsonObject{{u"byRole"_s, u"AXCell"_s}, {u"titleEquals"_s, u"B2"_s}}}, {u"maxDepth"_s, 2}},
        false, 30000);
    EXPECT_EQ(shallow.value(u"result"_s).toObject().value(u"matched"_s).toInt(), 0) << dump(shallow);
    EXPECT_EQ(shallow.value(u"result"_s).toObject().value(u"truncatedReason"_s).toString(), u"maxDepth"_s);
}

// The office suite's window holds two menu bars: the toolkit's, which shows, and a hidden,
// zero-height one less deep in the tree whose items have one unnamed action that does nothing.
// menuPick takes the item of the bar that shows, as a person would: the dialog the item opens
// appears (read in the app itself), and Return in it appends the sheet.
TEST_F(RealAppSpreadsheet, MenuPickUsesTheMenuBarThatShows)
{
    const QJsonObject picked = s_app->call(
        u"desktop.menuPick"_s, {{u"path"_s, QJsonArray{u"Sheet"_s, u"Insert Sheet at End..."_s}}}, true, 20000);
    const QJsonObject result = picked.value(u"result"_s).toObject();
    ASSERT_TRUE(result.value(u"picked"_s).toBool()) << dump(picked);
    const QJsonArray items = result.value(u"items"_s).toArray();
    ASSERT_EQ(items.size(), 2) << dump(picked);
    EXPECT_GT(items.at(0).toObject().value(u"frame"_s).toObject().value(u"height"_s).toInt(), 0)
        << "picked from the hidden menu bar: " << dump(picked);
    const ProbeResult shown = s_app->probe(appears(u"dialog"_s, u"Append Sheet"_s));
    ASSERT_TRUE(shown.ok) << "no Append Sheet dialog: " << shown.error.toStdString() << dump(picked);
    const QJsonObject accepted =
        s_app->call(u"desktop.hotkey"_s,
                    {{u"keys"_s, QJsonArray{u"return"_s}}, {u"route"_s, s_app->route(u"Append Sheet"_s)}}, true, 10000);
    EXPECT_TRUE(accepted.contains(u"result"_s)) << dump(accepted);
    const ProbeResult appended = s_app->probe(appears(u"page tab"_s, u"Sheet2"_s));
    EXPECT_TRUE(appended.ok) << "no tab Sheet2: " << appended.error.toStdString();
}

// Was: partial (typed: false), so an agent would type it again. Text typed at the cell cursor
// goes line by line into cells; the app reports only its name box changing ("A1" to "A2"), not
// a word of the text, which says nothing about the text: unverifiable, never partial. The cells
// themselves hold each line.
TEST_F(RealAppSpreadsheet, LinesTypedAtTheCellCursorFillCellsAndAreNotCalledPartial)
{
    // The cell cursor on A1, as a person puts it there: a click on the cell.
    const QJsonObject placed =
        s_app->call(u"desktop.click"_s,
                    {{u"target"_s, QJsonObject{{u"selector"_s, byRoleAndTitle(u"AXCell"_s, u"A1"_s)}}},
                     {u"delivery"_s, u"pointer"_s}},
                    true);
    ASSERT_TRUE(answeredTrue(placed, u"clicked"_s)) << dump(placed);
    const QJsonObject typed = s_app->call(u"desktop.typeText"_s, {{u"text"_s, u"alpha\nbeta\n"_s}}, true, 20000);
    EXPECT_TRUE(answeredTrue(typed, u"typed"_s)) << dump(typed);
    EXPECT_NE(resultOf(typed).value(u"effect"_s).toString(), u"partial"_s) << dump(typed);
    EXPECT_EQ(readUntil([] { return cellText(0, 0).value_or(QString()); }, u"alpha"_s), u"alpha"_s);
    EXPECT_EQ(cellText(1, 0).value_or(QString()), u"beta"_s);
}
