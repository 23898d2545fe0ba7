// desktop.menuPick and the click on a menu item (docs/protocol.md).
#include "automation/Operations.h"

#include "automation/OperationSteps.h"
#include "automation/PngEncoder.h"
#include "automation/SelectorEngine.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QImage>
#include <QJsonArray>
#include <QRegularExpression>
#include <QThread>

namespace Automation::Operations {

QString normalizeMenuTitle(const QString& title)
{
    QString t = title;
    const qsizetype tab = t.indexOf(QLatin1Char('\t'));
    if (tab >= 0)
        t.truncate(tab);
    // Mnemonic marks: "&File", "_File" ("&&" is a literal ampersand).
    t.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    t.remove(QLatin1Char('&'));
    t.replace(QLatin1Char('\x01'), QLatin1Char('&'));
    if (t.startsWith(QLatin1Char('_')) || t.contains(QStringLiteral(" _")))
        t.remove(QLatin1Char('_'));
    t = t.simplified();
    while (t.endsWith(QChar(0x2026)) || t.endsWith(QLatin1Char('.')))
        t.chop(1);
    return t.trimmed().toCaseFolded();
}

namespace {

bool isMenuRole(const QString& role)
{
    static const QStringList roles{QStringLiteral("AXMenuItem"), QStringLiteral("AXMenu"),
                                   QStringLiteral("AXMenuBarItem"), QStringLiteral("AXMenuButton")};
    return roles.contains(role);
}

bool isDescendant(const Snapshot& snapshot, int node, int ancestor)
{
    for (int i = snapshot.nodes.at(node).parent; i >= 0; i = snapshot.nodes.at(i).parent) {
        if (i == ancestor)
            return true;
    }
    return false;
}

// The menu items titled `title` in the scope (below `under`, or below a menu bar), in document
// order; `available` gets what the scope offers, for the error.
QList<int> menuItems(const Snapshot& snapshot, int under, const QString& title, QStringList* available)
{
    const QString wanted = normalizeMenuTitle(title);
    QList<int> menuBars;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        if (snapshot.nodes.at(i).role == QLatin1String("AXMenuBar"))
            menuBars.append(i);
    }
    const auto inScope = [&](int i) {
        if (under >= 0)
            return isDescendant(snapshot, i, under);
        if (menuBars.isEmpty())
            return true;
        return std::any_of(menuBars.cbegin(), menuBars.cend(), [&](int bar) { return isDescendant(snapshot, i, bar); });
    };
    QList<int> out;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        const Node& node = snapshot.nodes.at(i);
        if (!isMenuRole(node.role) || node.title.isEmpty() || !inScope(i))
            continue;
        if (normalizeMenuTitle(node.title) == wanted)
            out.append(i);
        else if (available->size() < 40 && !available->contains(node.title))
            available->append(node.title);
    }
    // The nearest level first (a submenu's item of the same title is further down).
    const auto depth = [&](int i) {
        int d = 0;
        for (int p = snapshot.nodes.at(i).parent; p >= 0; p = snapshot.nodes.at(p).parent)
            ++d;
        return d;
    };
    std::stable_sort(out.begin(), out.end(), [&](int a, int b) { return depth(a) < depth(b); });
    return out;
}

// The menu bar an item is in, or -1.
int menuBarOf(const Snapshot& snapshot, int item)
{
    for (int p = snapshot.nodes.at(item).parent; p >= 0; p = snapshot.nodes.at(p).parent) {
        if (snapshot.nodes.at(p).role == QLatin1String("AXMenuBar"))
            return p;
    }
    return -1;
}

// Whether a node has an action a press can use: at least one with a name (an office suite's
// hidden menu bar gives its items one unnamed action, which does nothing).
bool hasUsableAction(const Node& node)
{
    return std::any_of(node.actions.cbegin(), node.actions.cend(),
                       [](const QString& action) { return !action.trimmed().isEmpty(); });
}

// Of the items that match a menu title, the one to pick: first those in a menu bar that shows
// (LibreOffice keeps a hidden, zero-height menu bar beside its toolkit's, whose items do
// nothing), then the nearest level, skipping items without a usable action. The candidates and
// their bars are read (states, frames, actions) on the way. When none has a usable
// action, the first (refused as disabled or without one).
int pickMenuItem(JobContext& ctx, Snapshot& snapshot, QList<int> found)
{
    constexpr qsizetype kMostRead = 8;
    found = found.mid(0, kMostRead);
    QList<int> toRead = found;
    for (int item : std::as_const(found)) {
        const int bar = menuBarOf(snapshot, item);
        if (bar >= 0 && !toRead.contains(bar))
            toRead.append(bar);
    }
    if (!ctx.backend.completeNodes(snapshot, toRead, ctx.call))
        return found.first(); // unread: the nearest, as found
    const auto hidden = [&](int item) {
        const int bar = menuBarOf(snapshot, item);
        return bar >= 0 && (!snapshot.nodes.at(bar).has(StateShowing) || snapshot.nodes.at(bar).frame.isEmpty());
    };
    std::stable_sort(found.begin(), found.end(), [&](int a, int b) { return !hidden(a) && hidden(b); });
    for (int item : std::as_const(found)) {
        if (hasUsableAction(snapshot.nodes.at(item)))
            return item;
    }
    // None has one: the first, which is refused as disabled or without an action.
    return found.first();
}

// The menu an item is in: its parent when that is a menu or a menu-bar entry, else -1.
int menuOf(const Snapshot& snapshot, int item)
{
    const int parent = snapshot.nodes.at(item).parent;
    if (parent < 0)
        return -1;
    const QString& role = snapshot.nodes.at(parent).role;
    return role == QLatin1String("AXMenu") || role == QLatin1String("AXMenuBarItem") ? parent : -1;
}

// Whether an item's menu is open, from the states of the item and its menu (both read): GTK
// marks the items of an open menu showing, Qt the popup menu (an AXMenu) and not its items. A
// menu-bar entry is always showing and says nothing.
bool menuOpen(const Snapshot& snapshot, int item)
{
    if (snapshot.nodes.at(item).has(StateShowing))
        return true;
    const int menu = menuOf(snapshot, item);
    return menu >= 0 && snapshot.nodes.at(menu).role == QLatin1String("AXMenu") &&
           snapshot.nodes.at(menu).has(StateShowing);
}

// Whether what the app reported after an item's action may be a window it opened, or the
// action has not answered (a modal dialog run inside it).
bool opensWindow(const Verification& v)
{
    for (const auto& path : v.paths) {
        if (path.toObject().value(QStringLiteral("replied")) == QJsonValue(false))
            return true;
    }
    // The verifier's own findings ("a window appeared", "the app's windows changed").
    for (const auto& change : v.observed.value(QStringLiteral("changes")).toArray()) {
        if (change.toString().contains(QLatin1String("window"), Qt::CaseInsensitive))
            return true;
    }
    for (const auto& event : v.observed.value(QStringLiteral("events")).toArray()) {
        const QString kind = event.toObject().value(QStringLiteral("kind")).toString();
        if (kind.startsWith(QLatin1String("Window:")) || kind.contains(QLatin1String("modal")) ||
            kind.startsWith(QLatin1String("Focus")))
            return true;
    }
    return false;
}

// The titles from the menu bar down to a menu item ({"File", "Open…"}); empty when it is not in a
// menu bar. A Qt menu-bar entry and the popup under it carry the same title: it is one level.
QStringList menuPathOf(const Snapshot& snapshot, int item)
{
    QStringList path;
    bool inBar = false;
    for (int i = item; i >= 0; i = snapshot.nodes.at(i).parent) {
        const Node& node = snapshot.nodes.at(i);
        if (node.role == QLatin1String("AXMenuBar")) {
            inBar = true;
            break;
        }
        if (!isMenuRole(node.role) || node.title.trimmed().isEmpty())
            continue;
        if (path.isEmpty() || normalizeMenuTitle(path.first()) != normalizeMenuTitle(node.title))
            path.prepend(node.title.trimmed());
    }
    return inBar ? path : QStringList();
}

} // namespace

Result<ActionOutcome> pressMenuItem(JobContext& ctx, const Route& spec, const ResolvedRoute& route, Snapshot& snapshot,
                                    const Node& item)
{
    const int index = indexOfHandle(snapshot, item.handle);
    const int menu = index >= 0 ? menuOf(snapshot, index) : -1;
    if (menu >= 0 && ctx.backend.completeNodes(snapshot, {menu, index}, ctx.call) && menuOpen(snapshot, index))
        return ctx.backend.activateMenuItem(route, snapshot.nodes.at(index), &snapshot.nodes.at(menu), ctx.call);
    auto pressed = ctx.backend.press(route, item, ctx.call);
    if (pressed || pressed.error().details.value(QStringLiteral("reason")) != QJsonValue(QStringLiteral("menu_closed")))
        return pressed;
    const QStringList path = index >= 0 ? menuPathOf(snapshot, index) : QStringList();
    ctx.trace.step(QStringLiteral("click.menuPath"), 0, !path.isEmpty(),
                   QJsonObject{{QStringLiteral("path"), QJsonArray::fromStringList(path)}});
    if (path.isEmpty())
        return pressed.error(); // in a closed menu outside a menu bar: nothing was sent
    auto picked = menuPick(ctx, MenuPickRequest{spec, path});
    if (!picked)
        return picked.error();
    ActionOutcome outcome = std::move(picked->outcome);
    outcome.details.insert(QStringLiteral("menuPath"), QJsonArray::fromStringList(path));
    return outcome;
}

Result<MenuPickResult> menuPick(JobContext& ctx, const MenuPickRequest& request)
{
    Locator locator(ctx);
    auto route = locator.resolveRoute(request.route, true);
    if (!route)
        return route.error();
    MenuPickResult out;
    out.route = route.value();
    int opened = 0;
    // Menus this request opened are closed again when it cannot go on.
    const auto closeOpened = [&] {
        if (opened == 0)
            return;
        auto escape = parseKeyChord({QStringLiteral("escape")});
        if (!escape)
            return;
        for (int i = 0; i < opened; ++i)
            (void)ctx.backend.sendChord(out.route, escape.value(), 30, ctx.call);
        ctx.trace.step(QStringLiteral("menu.close"), 0, true, QJsonObject{{QStringLiteral("escapes"), opened}});
    };
    QString parentHandle;
    for (int level = 0; level < request.path.size(); ++level) {
        const QString& title = request.path.at(level);
        const bool last = level + 1 == request.path.size();
        TraceStep step(ctx.trace, QStringLiteral("menu.level:%1").arg(level));
        SnapshotBounds bounds = searchBounds(ctx.call, false);
        bounds.searchOnly = true;
        auto snapshot = locator.snapshot(out.route, bounds);
        if (!snapshot) {
            step.finish(false, snapshot.error().toJson());
            closeOpened();
            return level == 0 ? snapshot.error() : afterDelivery(snapshot.error());
        }
        // Each level's tree is its own evidence (the next level's replaces ax.json), kept before
        // the item is looked for, so a level that fails leaves what it saw.
        ctx.trace.numberArtifacts(QStringLiteral("menu_") + title);
        if (auto err = ctx.trace.keepTree(snapshot.value())) {
            step.finish(false, err->toJson());
            closeOpened();
            return level == 0 ? *err : afterDelivery(*err);
        }
        const int under = parentHandle.isEmpty() ? -1 : indexOfHandle(snapshot.value(), parentHandle);
        if (!parentHandle.isEmpty() && under < 0) {
            step.finish(false);
            closeOpened();
            return afterDelivery(Error::make(
                ErrorCode::StaleSnapshot,
                QStringLiteral("the menu \"%1\" went away while it was being opened").arg(request.path.at(level - 1)),
                QJsonObject{{QStringLiteral("reason"), QStringLiteral("menu_gone")},
                            {QStringLiteral("level"), level - 1}}));
        }
        QStringList available;
        const QList<int> found = menuItems(snapshot.value(), under, title, &available);
        if (found.isEmpty()) {
            step.finish(false, QJsonObject{{QStringLiteral("available"), QJsonArray::fromStringList(available)}});
            closeOpened();
            Error error =
                Error::make(ErrorCode::ElementNotFound,
                            QStringLiteral("no menu item \"%1\" %2")
                                .arg(title, level == 0 ? QStringLiteral("in the menu bar")
                                                       : QStringLiteral("in \"%1\"").arg(request.path.at(level - 1))),
                            QJsonObject{{QStringLiteral("reason"), QStringLiteral("menu_item_not_found")},
                                        {QStringLiteral("level"), level},
                                        {QStringLiteral("title"), title},
                                        {QStringLiteral("available"), QJsonArray::fromStringList(available)}});
            return level == 0 ? error : afterDelivery(error);
        }
        const int index = pickMenuItem(ctx, snapshot.value(), found);
        // States and actions of the item (a search-only snapshot has neither).
        const int menuIndex = menuOf(snapshot.value(), index);
        QList<int> toComplete{index};
        if (menuIndex >= 0)
            toComplete.prepend(menuIndex);
        if (const auto done = ctx.backend.completeNodes(snapshot.value(), toComplete, ctx.call); !done) {
            step.finish(false, done.error().toJson());
            closeOpened();
            return level == 0 ? done.error() : afterDelivery(done.error());
        }
        const Node item = snapshot->nodes.at(index);
        const bool menuWasOpen = menuOpen(snapshot.value(), index);
        if (!item.has(StateEnabled)) {
            step.finish(false, QJsonObject{{QStringLiteral("disabled"), item.title}});
            closeOpened();
            Error error = Error::make(ErrorCode::ElementNotFound,
                                      QStringLiteral("the menu item \"%1\" is disabled").arg(item.title),
                                      QJsonObject{{QStringLiteral("reason"), QStringLiteral("disabled")},
                                                  {QStringLiteral("level"), level},
                                                  {QStringLiteral("element"), ElementRef::fromNode(item).toJson()}});
            // Asking again changes nothing until the app enables it.
            error.withRetryable(false);
            return level == 0 ? error : afterDelivery(error);
        }
        if (auto stop = ctx.call.checkpoint()) {
            closeOpened();
            return level == 0 ? *stop : afterDelivery(*stop);
        }
        // The last item in its open menu the way its toolkit wants it activated; the levels
        // above are opened with their action.
        auto pressed = last && menuIndex >= 0
                           ? ctx.backend.activateMenuItem(out.route, item, &snapshot->nodes.at(menuIndex), ctx.call)
                           : ctx.backend.press(out.route, item, ctx.call);
        if (!pressed) {
            step.finish(false, pressed.error().toJson());
            closeOpened();
            return afterDelivery(pressed.error());
        }
        out.items.append(item);
        step.finish(true, QJsonObject{{QStringLiteral("title"), item.title},
                                      {QStringLiteral("role"), item.role},
                                      {QStringLiteral("deliveredBy"), pressed->deliveredBy},
                                      {QStringLiteral("verification"), pressed->verification.toJson()}});
        if (last) {
            out.outcome = std::move(pressed.value());
            Verification& v = out.outcome.verification;
            v.observed.insert(QStringLiteral("path"), QJsonArray::fromStringList(request.path));
            // A menu closes when one of its items is activated: an item that was showing and
            // is no longer is the menu's own signal (an app whose item changes nothing else
            // visible has no other).
            if (menuWasOpen && level > 0 && out.outcome.deliveredBy != QLatin1String("keyboard:menu")) {
                bool closed = false;
                QDeadlineTimer until(std::min<qint64>(1000, std::max<qint64>(0, ctx.call.remainingMs() - 300)));
                while (!closed && !until.hasExpired() && !ctx.call.checkpoint()) {
                    if (!ctx.backend.completeNodes(snapshot.value(), toComplete, ctx.call))
                        break;
                    closed = !menuOpen(snapshot.value(), index);
                    if (!closed)
                        QThread::msleep(40);
                }
                v.observed.insert(QStringLiteral("menuClosed"), closed);
                if (closed && v.effect != Effect::Confirmed) {
                    v.effect = Effect::Confirmed;
                    v.reason.clear();
                    v.expected = QStringLiteral("the menu closes after its item is activated");
                } else if (!closed && !opensWindow(v)) {
                    // Still open (Qt runs an item's action without closing its menu): close
                    // what this request opened. Never when the item may have opened a window
                    // (a dialog it opened would take the Escape) or has not answered yet.
                    closeOpened();
                    v.observed.insert(QStringLiteral("closedByEscape"), true);
                }
            }
            out.outcome.verified = v.effect == Effect::Confirmed;
            return out;
        }
        ++opened;
        parentHandle = item.handle;
        // Let the submenu appear: its items show once it is open (some toolkits list them
        // while closed, and take a press on them then too).
        QDeadlineTimer until(std::min<qint64>(1500, std::max<qint64>(0, ctx.call.remainingMs() - 500)));
        while (!until.hasExpired()) {
            if (auto stop = ctx.call.checkpoint()) {
                closeOpened();
                return afterDelivery(*stop);
            }
            QThread::msleep(40);
            SnapshotBounds quick = searchBounds(ctx.call, false);
            quick.searchOnly = true;
            auto look = ctx.backend.snapshot(out.route, quick, ctx.call);
            if (!look)
                continue;
            const int at = indexOfHandle(look.value(), parentHandle);
            if (at < 0)
                continue;
            QStringList ignored;
            const QList<int> next = menuItems(look.value(), at, request.path.at(level + 1), &ignored);
            if (next.isEmpty())
                continue;
            const int menu = menuOf(look.value(), next.first());
            QList<int> states{next.first()};
            if (menu >= 0)
                states.prepend(menu);
            if (ctx.backend.completeNodes(look.value(), states, ctx.call) && menuOpen(look.value(), next.first()))
                break;
        }
    }
    return Error::make(ErrorCode::InvalidRequest, QStringLiteral("the menu path is empty"),
                       QJsonObject{{QStringLiteral("field"), QStringLiteral("path")}});
}

} // namespace Automation::Operations
