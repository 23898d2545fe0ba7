// The plan's primitives beyond the contract's methods: dumpTree, capture, readText, scroll and
// menuPick, on the same Locator and backend as the others (docs/protocol.md §5.13-5.17).
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

namespace {

QString sha256Of(const QString& text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

// The longest prefix of `text` whose UTF-8 form fits in `bytes`, never splitting a character
// (a surrogate pair stays whole).
QString cutToBytes(const QString& text, qint64 bytes)
{
    qint64 used = 0;
    qsizetype i = 0;
    while (i < text.size()) {
        const char32_t c = text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()
                               ? QChar::surrogateToUcs4(text.at(i), text.at(i + 1))
                               : text.at(i).unicode();
        const int width = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        if (used + width > bytes)
            break;
        used += width;
        i += c >= 0x10000 ? 2 : 1;
    }
    return text.left(i);
}

bool isValueRole(const QString& role)
{
    static const QStringList roles{
        QStringLiteral("AXSlider"),         QStringLiteral("AXScrollBar"),   QStringLiteral("AXProgressIndicator"),
        QStringLiteral("AXValueIndicator"), QStringLiteral("AXIncrementor"), QStringLiteral("AXLevelIndicator")};
    return roles.contains(role);
}

bool isTextEntryRole(const QString& role)
{
    static const QStringList roles{QStringLiteral("AXTextField"), QStringLiteral("AXTextArea"),
                                   QStringLiteral("AXComboBox"), QStringLiteral("AXSearchField")};
    return roles.contains(role);
}

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

int indexOfHandle(const Snapshot& snapshot, const QString& handle)
{
    if (handle.isEmpty())
        return -1;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        if (snapshot.nodes.at(i).handle == handle)
            return i;
    }
    return -1;
}

int indexOfElement(const Snapshot& snapshot, const Node& node)
{
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        if (snapshot.nodes.at(i).elementId == node.elementId)
            return i;
    }
    return indexOfHandle(snapshot, node.handle);
}

} // namespace

Result<DumpTreeResult> dumpTree(JobContext& ctx, const DumpTreeRequest& request)
{
    Locator locator(ctx);
    auto route = locator.resolveRoute(request.route, false);
    if (!route)
        return route.error();
    auto snapshot = locator.snapshot(route.value(), request.bounds);
    if (!snapshot)
        return snapshot.error();
    if (auto err = ctx.trace.keepTree(snapshot.value()))
        return *err;
    return DumpTreeResult{route.value(), std::move(snapshot.value())};
}

Result<CaptureResult> capture(JobContext& ctx, const CaptureRequest& request)
{
    CaptureResult out;
    std::optional<Frame> area = request.rect;
    out.source = request.rect ? QStringLiteral("rect") : QStringLiteral("display");
    if (request.route && !request.rect) {
        Locator locator(ctx);
        auto route = locator.resolveRoute(*request.route, false);
        if (!route)
            return route.error();
        if (route->inaccessible && !route->nativeFrame.isEmpty()) {
            // No root element to ask: the window manager's frame.
            area = route->nativeFrame;
        } else {
            // The window's frame, from its root element: nothing below it is read.
            SnapshotBounds bounds;
            bounds.maxDepth = 1;
            bounds.maxNodes = 1;
            bounds.maxWallTimeMs = static_cast<int>(std::min<qint64>(ctx.call.remainingMs(), 5000));
            auto root = locator.snapshot(route.value(), bounds);
            if (!root)
                return root.error();
            if (root->nodes.isEmpty() || root->nodes.first().frame.isEmpty())
                return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the window has no frame on screen"),
                                   QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_frame")},
                                               {QStringLiteral("window"), route->windowTitle}});
            area = root->nodes.first().frame;
        }
        out.route = route.value();
        out.source = QStringLiteral("window");
    }
    TraceStep step(ctx.trace, QStringLiteral("capture"));
    auto shot = ctx.backend.screenshot(ctx.call);
    if (!shot) {
        step.finish(false, shot.error().toJson());
        return shot.error();
    }
    out.display = Frame{0, 0, shot->width, shot->height};
    out.takenAt = shot->takenAt;
    if (!area) {
        out.frame = out.display;
        out.png = shot->png;
    } else {
        const QRect wanted(area->x, area->y, area->width, area->height);
        const QRect clipped = wanted.intersected(QRect(0, 0, shot->width, shot->height));
        if (clipped.isEmpty()) {
            step.finish(false);
            return Error::make(ErrorCode::InvalidRequest,
                               QStringLiteral("the %1 %2,%3 %4x%5 is outside the display (%6x%7)")
                                   .arg(out.source)
                                   .arg(area->x)
                                   .arg(area->y)
                                   .arg(area->width)
                                   .arg(area->height)
                                   .arg(shot->width)
                                   .arg(shot->height),
                               request.rect ? QJsonObject{{QStringLiteral("field"), QStringLiteral("rect")},
                                                          {QStringLiteral("reason"), QStringLiteral("outside_display")},
                                                          {QStringLiteral("display"), out.display.toJson()}}
                                            : QJsonObject{{QStringLiteral("reason"), QStringLiteral("outside_display")},
                                                          {QStringLiteral("display"), out.display.toJson()}})
                .withRetryable(false);
        }
        QImage image;
        if (!image.loadFromData(shot->png, "PNG"))
            return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be decoded"));
        out.png = PngEncoder::encode(image.copy(clipped));
        if (out.png.isEmpty())
            return Error::make(ErrorCode::InternalError, QStringLiteral("the capture could not be encoded as PNG"));
        out.frame = Frame{clipped.x(), clipped.y(), clipped.width(), clipped.height()};
    }
    if (auto err = ctx.trace.keepImage(QStringLiteral("capture.png"), out.png))
        return *err;
    step.finish(true, QJsonObject{{QStringLiteral("source"), out.source},
                                  {QStringLiteral("frame"), out.frame.toJson()},
                                  {QStringLiteral("bytes"), static_cast<qint64>(out.png.size())}});
    return out;
}

std::optional<Redaction> redactionFromName(const QString& name)
{
    if (name == QLatin1String("none"))
        return Redaction::None;
    if (name == QLatin1String("patterns"))
        return Redaction::Patterns;
    if (name == QLatin1String("hash"))
        return Redaction::Hash;
    return std::nullopt;
}

QString redactionName(Redaction mode)
{
    switch (mode) {
    case Redaction::None:
        return QStringLiteral("none");
    case Redaction::Hash:
        return QStringLiteral("hash");
    case Redaction::Patterns:
        break;
    }
    return QStringLiteral("patterns");
}

QString redactPatterns(const QString& text, int* count)
{
    // Order matters: an e-mail address may hold digits, a token may look like digits.
    static const QList<std::pair<QRegularExpression, QString>> patterns{
        {QRegularExpression(QStringLiteral(R"([A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,})")),
         QStringLiteral("[redacted:email]")},
        // Key-like tokens: 24+ characters of letters, digits, '-' and '_' with letters and digits.
        {QRegularExpression(QStringLiteral(
             R"((?<![A-Za-z0-9_\-])(?=[A-Za-z0-9_\-]*[0-9])(?=[A-Za-z0-9_\-]*[A-Za-z])[A-Za-z0-9_\-]{24,})")),
         QStringLiteral("[redacted:token]")},
        // Nine or more digits, maybe grouped by spaces or dashes: cards, accounts, phone numbers
        // (a date or a time has fewer).
        {QRegularExpression(QStringLiteral(R"((?<![0-9])\+?[0-9](?:[ \-]?[0-9]){8,}(?![0-9]))")),
         QStringLiteral("[redacted:number]")},
    };
    QString out = text;
    int total = 0;
    for (const auto& [re, mark] : patterns) {
        QString next;
        qsizetype last = 0;
        auto it = re.globalMatch(out);
        while (it.hasNext()) {
            const auto m = it.next();
            next += QStringView(out).mid(last, m.capturedStart() - last);
            next += mark;
            last = m.capturedEnd();
            ++total;
        }
        next += QStringView(out).mid(last);
        out = next;
    }
    if (count)
        *count = total;
    return out;
}

Result<ReadTextResult> readText(JobContext& ctx, const ReadTextRequest& request)
{
    // The elements as find has them (tree and candidates kept, no text yet), then their text.
    auto found = find(ctx, FindRequest{request.route, request.selector, request.selectorJson, false});
    if (!found)
        return found.error();
    Snapshot& snapshot = found->snapshot;
    const QList<Candidate> candidates = found->candidates.mid(0, request.selector.limit);
    if (candidates.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("no element matches the selector"),
                           QJsonObject{{QStringLiteral("selector"), request.selectorJson}});
    // A secure element among them: nothing is read at all.
    for (const Candidate& c : candidates) {
        const Node& node = snapshot.nodes.at(c.nodeIndex);
        if (node.isSecure()) {
            return Error::make(
                       ErrorCode::InvalidRequest,
                       QStringLiteral("the selector matches a secure field (%1 \"%2\"), whose text is never read")
                           .arg(node.role, node.title),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("secure_field")},
                                   {QStringLiteral("element"), ElementRef::fromNode(node).toJson()}})
                .withRetryable(false);
        }
    }
    QList<int> indexes;
    for (const Candidate& c : candidates) {
        if (!snapshot.nodes.at(c.nodeIndex).hasValue)
            indexes.append(c.nodeIndex);
    }
    if (!indexes.isEmpty()) {
        TraceStep step(ctx.trace, QStringLiteral("readText.read"));
        const auto read = ctx.backend.readTexts(snapshot, indexes, ctx.call);
        step.finish(read.ok(), read.ok() ? QJsonObject{{QStringLiteral("nodes"), static_cast<int>(indexes.size())}}
                                         : read.error().toJson());
        if (!read)
            return read.error();
    }

    ReadTextResult out;
    out.route = found->route;
    out.matched = static_cast<int>(found->candidates.size());
    qint64 left = request.limitBytes;
    QJsonArray traced;
    for (const Candidate& c : candidates) {
        const Node& node = snapshot.nodes.at(c.nodeIndex);
        ReadTextItem item;
        item.node = node;
        QString full;
        if (node.hasValue && isValueRole(node.role)) {
            item.value = node.value;
            item.source = QStringLiteral("value");
        } else if (node.hasValue && (!node.value.isEmpty() || isTextEntryRole(node.role) || node.has(StateEditable))) {
            full = node.value;
            item.source = QStringLiteral("text");
        } else {
            // Labels and static text: what a person reads is their name.
            full = node.title;
            item.source = QStringLiteral("name");
        }
        item.bytes = full.toUtf8().size();
        item.sha256 = sha256Of(full);
        QString shown;
        switch (request.redaction) {
        case Redaction::None:
            shown = full;
            break;
        case Redaction::Patterns:
            shown = redactPatterns(full, &item.redactions);
            break;
        case Redaction::Hash:
            break;
        }
        const QString cut = cutToBytes(shown, std::max<qint64>(0, left));
        item.truncated = cut.size() < shown.size();
        item.text = cut;
        left -= cut.toUtf8().size();
        out.returnedBytes += cut.toUtf8().size();
        out.truncated = out.truncated || item.truncated;
        traced.append(QJsonObject{{QStringLiteral("elementId"), node.elementId},
                                  {QStringLiteral("source"), item.source},
                                  {QStringLiteral("bytes"), item.bytes},
                                  {QStringLiteral("sha256"), item.sha256},
                                  {QStringLiteral("redactions"), item.redactions},
                                  {QStringLiteral("truncated"), item.truncated}});
        out.items.append(item);
    }
    ctx.trace.step(QStringLiteral("readText.items"), 0, true,
                   QJsonObject{{QStringLiteral("redactionMode"), redactionName(request.redaction)},
                               {QStringLiteral("limitBytes"), request.limitBytes},
                               {QStringLiteral("items"), traced}});
    return out;
}

Result<ScrollResult> scroll(JobContext& ctx, const ScrollRequest& request)
{
    Locator locator(ctx);
    auto route = locator.resolveRoute(locator.routeFor(request.route, request.target.elementRef,
                                                       request.target.selector ? &*request.target.selector : nullptr),
                                      true);
    if (!route)
        return route.error();
    auto target = locator.resolveTarget(route.value(), request.target);
    if (!target)
        return target.error();
    if (auto stop = ctx.call.checkpoint())
        return *stop;
    const int index = indexOfElement(target->snapshot, target->node);
    if (index < 0)
        return Error::make(ErrorCode::InternalError, QStringLiteral("the target is not in its own snapshot"));
    TraceStep step(ctx.trace, QStringLiteral("scroll"));
    auto outcome = ctx.backend.scroll(route.value(), target->snapshot, index, request.spec, ctx.call);
    if (!outcome) {
        step.finish(false, outcome.error().toJson());
        const QString reason = outcome.error().details.value(QStringLiteral("reason")).toString();
        // Refused before any input (unsupported, nothing on screen): not an effect.
        if (reason == QLatin1String("unsupported") || reason == QLatin1String("no_frame"))
            return outcome.error();
        return afterDelivery(outcome.error());
    }
    step.finish(true, QJsonObject{{QStringLiteral("deliveredBy"), outcome->deliveredBy},
                                  {QStringLiteral("details"), outcome->details},
                                  {QStringLiteral("verification"), outcome->verification.toJson()}});
    ScrollResult out;
    out.route = route.value();
    if (const auto after = Frame::fromJson(outcome->details.value(QStringLiteral("frameAfter")).toObject()))
        out.frameAfter = *after;
    out.visibleAfter = outcome->details.value(QStringLiteral("inView")).toBool();
    out.target = std::move(target.value());
    out.outcome = std::move(outcome.value());
    return out;
}

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
