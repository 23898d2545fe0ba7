#include "automation/backends/atspi/AtspiTreeReader.h"

#include "automation/DocumentOrder.h"
#include "automation/backends/atspi/AtspiApps.h"
#include "automation/backends/atspi/AtspiRoles.h"
#include "automation/backends/atspi/X11Session.h"

#include <QDBusArgument>
#include <QDBusMessage>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QThread>

namespace Automation {

using Atspi::actionNames;
using Atspi::actionNamesUsable;
using Atspi::App;
using Atspi::extents;
using Atspi::firstArgument;
using Atspi::Interface;
using Atspi::Ref;
using Atspi::refFromArgument;
using Atspi::refList;
using Atspi::uintList;
using Atspi::unwrap;
using Atspi::Window;

namespace {

struct NodeIds
{
    Ref ref;
    int parent = -1;
    int depth = 0;
    int indexInParent = 0;
};

void applyRole(Node& node, quint32 role, bool multiLine)
{
    const auto info = Atspi::roleInfo(role, multiLine);
    node.role = info.role;
    node.subrole = info.subrole;
    node.nativeRole = info.nativeRole;
}

} // namespace

AtspiTreeReader::AtspiTreeReader(AtspiBus& bus, AtspiApps& apps, X11Session& x11) : m_bus(bus), m_apps(apps), m_x11(x11)
{
    m_bus.onConnected([this] { m_cacheSupport.clear(); });
}

void AtspiTreeReader::askForWebContent(const App& app, const Window& window, const CallContext& context)
{
    if (m_webContentAsked.contains(app.root.service))
        return;
    m_webContentAsked.insert(app.root.service);
    // The question itself is the switch (Chromium's AtkGetAttributes enables its complete
    // accessibility mode); the answer does not matter.
    auto asked =
        m_bus.send(window.ref, Interface::Accessible, QStringLiteral("GetAttributes"), {}, m_bus.callTimeout(context));
    if (m_bus.wait(asked, context, QStringLiteral("GetAttributes of a browser window"), &app))
        return;
    // The page's tree is built on the browser's next turn: wait a moment for the window to
    // have children (a browser that already had them answers at once).
    QDeadlineTimer until(std::min<qint64>(1500, std::max<qint64>(0, context.remainingMs() / 4)));
    while (!until.hasExpired() && !context.checkpoint()) {
        auto count = m_bus.send(window.ref, Interface::Properties, QStringLiteral("Get"),
                                {QStringLiteral("org.a11y.atspi.Accessible"), QStringLiteral("ChildCount")},
                                m_bus.callTimeout(context));
        if (m_bus.wait(count, context, QStringLiteral("ChildCount of a browser window"), &app))
            return;
        if (unwrap(firstArgument(count)).toInt() > 0)
            return;
        QThread::msleep(50);
    }
}

Result<Snapshot> AtspiTreeReader::snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds,
                                           const CallContext& context)
{
    QElapsedTimer timer;
    timer.start();
    App app = m_apps.appFor(route);
    if (m_bus.stillHung(app, context))
        return *m_bus.refuseHung(app);
    m_apps.readToolkit(app, context);
    Window window;
    window.ref = Ref::fromHandle(route.windowHandle);
    window.title = route.windowTitle;
    if (app.isChromium())
        askForWebContent(app, window, context);

    Snapshot snapshot;
    std::optional<Error> error;
    // When the tree cache already knows the window (seeded by GetItems or an earlier walk and
    // kept current by the app's events), a walk over it costs no calls at all.
    m_bus.tree()->sync();
    const auto known = m_bus.tree()->lookup(window.ref.service, window.ref.path);
    // The walk asks only for what the cache lacks (e.g. children GetItems left out).
    // A refresh reads everything from the app itself: GTK's GetItems, or a walk that asks for
    // every node.
    const bool warm = !bounds.refresh && known.has_value() && m_cacheSupport.value(app.root.service, false);
    // GetItems lists the objects a toolkit has registered so far; Gecko creates a page's
    // objects lazily and leaves them out until someone walks there. Only a toolkit that
    // reports its children faithfully (GTK) gets its snapshot from it.
    if (warm || !app.childrenEventsReliable() || !tryCache(app, window, bounds, context, &snapshot, &error)) {
        if (error)
            return *error;
        auto walked = walk(app, window, bounds, context);
        if (!walked)
            return walked.error();
        snapshot = walked.value();
        // The walk reads names, not descriptions (GTK's cache has both).
        if (bounds.includeDescription) {
            if (auto err = readDescriptions(snapshot, app, context))
                return *err;
        }
    }
    snapshot.appName = route.appName;
    snapshot.bundleId = route.bundleId;
    snapshot.pid = route.pid;
    snapshot.windowTitle = route.windowTitle;
    // A browser window whose page is not in the tree: "matched: 0" would read as "not there".
    if (app.isChromium() && !snapshot.truncated && !snapshot.nodes.isEmpty() &&
        std::none_of(snapshot.nodes.cbegin(), snapshot.nodes.cend(), [](const Node& node) {
            return node.nativeRole == QLatin1String("document web") ||
                   node.nativeRole == QLatin1String("document frame");
        })) {
        snapshot.truncated = true;
        snapshot.truncatedReason = QStringLiteral("web_content_hidden");
    }
    snapshot.bounds = bounds;
    toDocumentOrder(snapshot);
    if (auto err = normalizeRoles(snapshot, app, context))
        return *err;
    if (!bounds.searchOnly) {
        QList<int> all;
        for (int i = 0; i < snapshot.nodes.size(); ++i) {
            if (!snapshot.nodes.at(i).detailed)
                all.append(i);
        }
        const auto done = completeNodes(snapshot, all, context);
        if (!done)
            return done.error();
    }
    snapshot.elapsedMs = timer.elapsed();
    snapshot.takenAt = QDateTime::currentDateTimeUtc();
    return snapshot;
}

std::optional<Error> AtspiTreeReader::normalizeRoles(Snapshot& snapshot, const App& app, const CallContext& context)
{
    // Plain text roles are AXTextArea when multi-line: a state, which a search-only walk does
    // not read. Read it for those nodes (once per element; it does not change) so that the
    // role is the same whichever pass computed it.
    QList<std::pair<int, QDBusPendingCall>> states;
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        Node& node = snapshot.nodes[i];
        const bool plainText = node.nativeRole == QLatin1String("text") || node.nativeRole == QLatin1String("entry");
        if (!plainText || node.isSecure())
            continue;
        if (const auto known = m_multiLine.constFind(node.handle); known != m_multiLine.cend()) {
            node.role = *known ? QStringLiteral("AXTextArea") : QStringLiteral("AXTextField");
            continue;
        }
        if (node.detailed) {
            m_multiLine.insert(node.handle, node.role == QLatin1String("AXTextArea"));
            continue;
        }
        states.append({i, m_bus.send(Ref::fromHandle(node.handle), Interface::Accessible, QStringLiteral("GetState"),
                                     {}, m_bus.callTimeout(context))});
    }
    for (auto& [index, call] : states) {
        if (auto err = m_bus.wait(call, context, QStringLiteral("GetState of a text element"), &app)) {
            if (err->code == ErrorCode::StaleSnapshot || err->code == ErrorCode::InternalError)
                continue;
            return err;
        }
        const auto bits = uintList(firstArgument(call));
        const bool multi = Atspi::hasState(bits.value(0), bits.value(1), Atspi::StateMultiLine);
        Node& node = snapshot.nodes[index];
        node.role = multi ? QStringLiteral("AXTextArea") : QStringLiteral("AXTextField");
        if (m_multiLine.size() > 50000)
            m_multiLine.clear();
        m_multiLine.insert(node.handle, multi);
    }
    for (int i = 0; i < snapshot.nodes.size(); ++i) {
        Node& node = snapshot.nodes[i];
        // Entries of a menu bar are AXMenuBarItem, whatever role the toolkit gives them
        // (Qt: menu item, GTK: menu).
        if (node.parent >= 0 && snapshot.nodes.at(node.parent).role == QLatin1String("AXMenuBar") &&
            (node.role == QLatin1String("AXMenuItem") || node.role == QLatin1String("AXMenu"))) {
            node.role = QStringLiteral("AXMenuBarItem");
            node.subrole.clear();
        }
    }
    // A window whose role is a chooser (GTK's file chooser dialog) is a dialog.
    if (!snapshot.nodes.isEmpty()) {
        Node& root = snapshot.nodes[0];
        if (root.nativeRole == QLatin1String("file chooser") || root.nativeRole == QLatin1String("font chooser") ||
            root.nativeRole == QLatin1String("color chooser")) {
            root.role = QStringLiteral("AXWindow");
            root.subrole = QStringLiteral("AXDialog");
        }
    }
    return std::nullopt;
}

bool AtspiTreeReader::tryCache(const App& app, const Window& window, const SnapshotBounds& bounds,
                               const CallContext& context, Snapshot* out, std::optional<Error>* error)
{
    const auto support = m_cacheSupport.constFind(app.root.service);
    if (support != m_cacheSupport.cend() && !*support)
        return false;
    // Values read by this call may be cached only if no event touched them since it was sent.
    const quint64 generation = m_bus.tree()->generation(app.root.service);
    auto call = m_bus.send(Ref{app.root.service, QStringLiteral("/org/a11y/atspi/cache")}, Interface::Cache,
                           QStringLiteral("GetItems"), {}, m_bus.callTimeout(context));
    call.waitForFinished();
    if (auto stop = context.checkpoint()) {
        *error = stop;
        return false;
    }
    if (call.isError()) {
        if (Atspi::failureOf(call) == Atspi::CallFailure::Unanswered) {
            *error = m_bus.errorFor(call, QStringLiteral("Cache.GetItems"), &app, m_bus.callTimeout(context));
            return false;
        }
        m_cacheSupport.insert(app.root.service, false);
        return false;
    }
    const QDBusMessage reply = call.reply();
    if (reply.arguments().isEmpty() || reply.signature() != QLatin1String("a((so)(so)(so)iiassusau)")) {
        // Qt 6.4 answers an empty array in an older layout, at any tree size: walk instead.
        m_cacheSupport.insert(app.root.service, false);
        return false;
    }
    struct Item
    {
        Ref self, parent;
        int index = 0;
        int childCount = 0;
        QStringList interfaces;
        QString name, description;
        quint32 role = 0;
        QList<quint32> states;
    };
    QHash<QString, QList<Item>> byParent;
    const QDBusArgument arg = reply.arguments().constFirst().value<QDBusArgument>();
    int count = 0;
    arg.beginArray();
    while (!arg.atEnd()) {
        Item item;
        Ref appRef;
        arg.beginStructure();
        item.self = refFromArgument(arg);
        appRef = refFromArgument(arg);
        item.parent = refFromArgument(arg);
        arg >> item.index >> item.childCount >> item.interfaces >> item.name >> item.role >> item.description;
        arg >> item.states;
        arg.endStructure();
        byParent[item.parent.path].append(item);
        ++count;
    }
    arg.endArray();
    if (count == 0 || !byParent.contains(window.ref.path)) {
        m_cacheSupport.insert(app.root.service, count > 0);
        return false;
    }
    m_cacheSupport.insert(app.root.service, true);

    // Seed the tree cache. Children are stored only where the items hold all of them (the
    // cache leaves out the children of MANAGES_DESCENDANTS nodes, for instance).
    {
        for (const auto& list : std::as_const(byParent)) {
            for (const auto& item : list) {
                auto kids = byParent.value(item.self.path);
                std::optional<QList<AtspiTreeCache::Child>> children;
                if (kids.size() == item.childCount) {
                    std::sort(kids.begin(), kids.end(), [](const Item& a, const Item& b) { return a.index < b.index; });
                    QList<AtspiTreeCache::Child> refs;
                    for (const auto& kid : kids)
                        refs.append({kid.self.service, kid.self.path});
                    children = refs;
                }
                m_bus.tree()->store(item.self.service, item.self.path, generation, item.role, item.name, children);
            }
        }
    }

    Snapshot snapshot;
    // The window itself is a child of the app root, which the cache leaves out: look it up
    // among the items by path.
    std::optional<Item> windowItem;
    for (const auto& list : std::as_const(byParent)) {
        for (const auto& item : list) {
            if (item.self.path == window.ref.path)
                windowItem = item;
        }
    }
    const auto makeNode = [&](const Item& item) {
        Node node;
        const quint32 low = item.states.value(0), high = item.states.value(1);
        applyRole(node, item.role, Atspi::hasState(low, high, Atspi::StateMultiLine));
        node.title = item.name;
        node.description = item.description;
        node.handle = item.self.handle();
        node.states = Atspi::nodeStates(low, high, node.isSecure());
        node.detailed = false; // frame and actions are read on demand
        return node;
    };
    // What each node's item says of its children, to tell the nodes whose children the
    // items leave out (GTK skips the children of MANAGES_DESCENDANTS nodes).
    QList<qint64> reported;
    if (windowItem) {
        snapshot.nodes.append(makeNode(*windowItem));
        reported.append(windowItem->childCount);
    } else {
        Node root;
        applyRole(root, Atspi::kRoleFrame, false);
        root.title = window.title;
        root.handle = window.ref.handle();
        root.detailed = false;
        snapshot.nodes.append(root);
        reported.append(-1);
    }
    QList<int> huge;
    QList<std::pair<int, int>> queue{{0, 0}}; // node index, depth
    QDeadlineTimer wall(bounds.maxWallTimeMs);
    for (int q = 0; q < queue.size(); ++q) {
        const auto [index, depth] = queue.at(q);
        const QString path = Ref::fromHandle(snapshot.nodes.at(index).handle).path;
        auto children = byParent.value(path);
        if (reported.at(index) > children.size()) {
            // The items leave its children out. Few enough to list: the walk reads them (a
            // fresh window's items may leave out all but its menu bar). Too many: said, never
            // hidden, never asked for.
            if (reported.at(index) <= Atspi::kMaxListedChildren && depth < bounds.maxDepth) {
                qCDebug(lcAtspi) << "GetItems left out" << reported.at(index) - children.size()
                                 << "children of a node: walking instead";
                return false;
            }
            Node& node = snapshot.nodes[index];
            node.omittedChildren = reported.at(index);
            node.omittedReason = reported.at(index) > Atspi::kMaxListedChildren ? QStringLiteral("huge_container")
                                                                                : QStringLiteral("not_listed");
            snapshot.truncated = true;
            if (snapshot.truncatedReason.isEmpty() || node.omittedReason == QLatin1String("huge_container"))
                snapshot.truncatedReason = node.omittedReason;
            if (children.isEmpty() && node.omittedReason == QLatin1String("huge_container"))
                huge.append(index);
        }
        if (children.isEmpty())
            continue;
        if (depth >= bounds.maxDepth) {
            snapshot.truncated = true;
            snapshot.truncatedReason = QStringLiteral("maxDepth");
            continue;
        }
        std::sort(children.begin(), children.end(), [](const Item& a, const Item& b) { return a.index < b.index; });
        for (const auto& item : children) {
            if (snapshot.nodes.size() >= bounds.maxNodes || wall.hasExpired()) {
                snapshot.truncated = true;
                snapshot.truncatedReason =
                    wall.hasExpired() ? QStringLiteral("maxWallTimeMs") : QStringLiteral("maxNodes");
                break;
            }
            Node node = makeNode(item);
            node.parent = index;
            snapshot.nodes[index].children.append(static_cast<int>(snapshot.nodes.size()));
            snapshot.nodes.append(node);
            reported.append(item.childCount);
            queue.append({static_cast<int>(snapshot.nodes.size()) - 1, depth + 1});
        }
    }
    for (int index : std::as_const(huge)) {
        const int budget =
            std::min<int>(Atspi::kMaxVisibleCells, bounds.maxNodes - static_cast<int>(snapshot.nodes.size()));
        if (budget <= 0 || wall.hasExpired())
            continue;
        if (auto err = readVisibleCells(snapshot, index, app, budget, context)) {
            *error = err;
            return false;
        }
    }
    if (bounds.includeText) {
        QList<int> texts;
        for (int i = 0; i < snapshot.nodes.size(); ++i)
            texts.append(i);
        if (auto err = readTexts(snapshot, texts, context)) {
            *error = err;
            return false;
        }
    }
    *out = snapshot;
    return true;
}

Result<Snapshot> AtspiTreeReader::walk(const App& app, const Window& window, const SnapshotBounds& bounds,
                                       const CallContext& context)
{
    Snapshot snapshot;
    QDeadlineTimer wall(bounds.maxWallTimeMs);
    QList<NodeIds> level{NodeIds{window.ref, -1, 0, 0}};
    const QString accessible = QStringLiteral("org.a11y.atspi.Accessible");
    // The route was resolved with a round trip to this app, so after this barrier the cache
    // reflects every event the app sent before answering.
    m_bus.tree()->sync();
    int asked = 0, cached = 0;
    QList<int> huge; ///< nodes whose children are too many to list
    // Children are taken from the cache only where the toolkit reports their changes.
    const bool trustChildren = app.childrenEventsReliable();
    // Round trips, not work, dominate (measured: a level's calls sent together walk a 500-node Qt
    // tree in an eighth of the time of one call at a time): each level's calls go out together, and
    // only for what the cache does not know. Qt 6.4 answers neither Properties.GetAll nor
    // AccessibleId, so per unknown node it is role, name and children: up to three calls.
    while (!level.isEmpty()) {
        QList<NodeIds> next;
        bool stop = false;
        for (qsizetype start = 0; start < level.size() && !stop; start += Atspi::kBatch / 3) {
            const auto chunk = level.mid(start, Atspi::kBatch / 3);
            const int timeout = m_bus.batchTimeout(context);
            const quint64 generation = m_bus.tree()->generation(app.root.service);
            struct Pending
            {
                std::optional<AtspiTreeCache::Entry> known;
                std::optional<QDBusPendingCall> role, name, children, count;
                bool childrenVouched = false;
                std::optional<QDBusPendingCall> state;
                bool none = false; ///< the app says it has no children
                qint64 huge = 0;   ///< the app says it has more children than the host lists
                qint64 listed = 0; ///< the children the app says it has, to be listed
            };
            QList<Pending> pending(chunk.size());
            for (qsizetype i = 0; i < chunk.size(); ++i) {
                const auto& ids = chunk[i];
                Pending& p = pending[i];
                if (!bounds.refresh)
                    p.known = m_bus.tree()->lookup(ids.ref.service, ids.ref.path);
                if (!p.known || !p.known->role)
                    p.role = m_bus.send(ids.ref, Interface::Accessible, QStringLiteral("GetRole"), {}, timeout);
                if (!p.known || !p.known->name)
                    p.name = m_bus.send(ids.ref, Interface::Properties, QStringLiteral("Get"),
                                        {accessible, QStringLiteral("Name")}, timeout);
                // Where the toolkit does not report new children, only Qt's controls that never
                // hold any (buttons, labels, fields...) keep their cached empty list (in a web
                // page a label may hold a checkbox).
                p.childrenVouched =
                    p.known && p.known->children &&
                    (trustChildren || (app.isQt() && p.known->role && Atspi::isLeafControl(*p.known->role) &&
                                       p.known->children->isEmpty()));
                // Children are asked for only once the app said how many there are: a container
                // that builds its children on demand (a spreadsheet's 2^31-1 cells) would build
                // every one and stop answering. A cached list whose count still holds stands.
                if (ids.depth < bounds.maxDepth && !p.childrenVouched)
                    p.count = m_bus.send(ids.ref, Interface::Properties, QStringLiteral("Get"),
                                         {accessible, QStringLiteral("ChildCount")}, timeout);
                const int calls = int(p.role.has_value()) + int(p.name.has_value()) + int(p.children.has_value()) +
                                  int(p.count.has_value());
                asked += calls;
                cached += 3 - calls;
            }
            {
                QList<QDBusPendingCall*> sent;
                for (auto& p : pending) {
                    for (auto* call : {&p.role, &p.name, &p.children, &p.count}) {
                        if (*call)
                            sent.append(&**call);
                    }
                }
                if (auto err = m_bus.waitBatch(sent, context, app, QStringLiteral("the tree walk")))
                    return *err;
            }
            // Then the children of the containers small enough to list, all at once.
            {
                QList<QDBusPendingCall*> sent, large;
                for (qsizetype i = 0; i < chunk.size(); ++i) {
                    Pending& p = pending[i];
                    if (!p.count)
                        continue;
                    p.count->waitForFinished();
                    if (p.count->isError()) {
                        // No answer: the app is not asked for more (never GetChildren of what may
                        // be a huge container).
                        const auto failure = Atspi::failureOf(*p.count);
                        if (failure == Atspi::CallFailure::Unanswered || failure == Atspi::CallFailure::BusLost)
                            return *m_bus.errorFor(*p.count, QStringLiteral("the tree walk"), &app, timeout);
                        // A toolkit without the property: its children, as before.
                        p.children =
                            m_bus.send(chunk[i].ref, Interface::Accessible, QStringLiteral("GetChildren"), {}, timeout);
                        sent.append(&*p.children);
                        ++asked;
                        continue;
                    }
                    const qint64 count = unwrap(firstArgument(*p.count)).toLongLong();
                    if (p.known && p.known->children && count == static_cast<qint64>(p.known->children->size())) {
                        // Still the same number of children: the cached list stands (a child
                        // that went away is reported defunct, which drops its parent's list too).
                        p.childrenVouched = true;
                    } else if (count <= 0) {
                        p.none = true;
                    } else if (count > std::max<qint64>(Atspi::kMaxListedChildren, bounds.maxNodes)) {
                        p.huge = count;
                    } else {
                        p.listed = count;
                        if (count > Atspi::kMaxListedChildren) {
                            // Over the bound but within the request's nodes: listed unless the
                            // container builds its children on demand (it manages them).
                            p.state = m_bus.send(chunk[i].ref, Interface::Accessible, QStringLiteral("GetState"), {},
                                                 timeout);
                            large.append(&*p.state);
                            ++asked;
                        }
                    }
                }
                if (auto err = m_bus.waitBatch(large, context, app, QStringLiteral("the tree walk")))
                    return *err;
                qint64 most = 0;
                for (qsizetype i = 0; i < chunk.size(); ++i) {
                    Pending& p = pending[i];
                    if (p.listed <= 0)
                        continue;
                    // Asked (over the bound) and not read: counts as managing, never listed on a
                    // guess. Not asked (within the bound): listed.
                    const auto bits = !p.state             ? QList<quint32>{}
                                      : p.state->isError() ? QList<quint32>{1u << Atspi::StateManagesDescendants, 0u}
                                                           : uintList(firstArgument(*p.state));
                    if (Atspi::hasState(bits.value(0), bits.value(1), Atspi::StateManagesDescendants)) {
                        p.huge = p.listed;
                        continue;
                    }
                    p.children =
                        m_bus.send(chunk[i].ref, Interface::Accessible, QStringLiteral("GetChildren"), {}, timeout);
                    sent.append(&*p.children);
                    most = std::max(most, p.listed);
                    ++asked;
                }
                // An app builds a child's accessible object as it lists it (Qt takes about half a
                // millisecond each): a long list is given time in proportion before the app is
                // called unresponsive. An app that goes quiet while it lists many (it answered the
                // counts just before) is busy with the host's own calls.
                const int quietMs =
                    Atspi::kCallCapMs + static_cast<int>(std::min<qint64>(most * Atspi::kListMsPerChild, 600000));
                const bool longListing = most > Atspi::kLongListing;
                if (auto err =
                        m_bus.waitBatch(sent, context, app, QStringLiteral("the tree walk"), quietMs, longListing))
                    return *err;
            }
            for (qsizetype i = 0; i < chunk.size(); ++i) {
                Pending& p = pending[i];
                bool failed = false;
                for (auto* call : {&p.role, &p.name, &p.children}) {
                    if (!*call)
                        continue;
                    (*call)->waitForFinished();
                    if (!(*call)->isError())
                        continue;
                    failed = true;
                    // A hung app or a lost bus ends the walk; an element that vanished is left out.
                    const auto failure = Atspi::failureOf(**call);
                    if (failure == Atspi::CallFailure::Unanswered || failure == Atspi::CallFailure::BusLost)
                        return *m_bus.errorFor(**call, QStringLiteral("the tree walk"), &app, timeout);
                }
                if (auto halt = context.checkpoint())
                    return *halt;
                const NodeIds& ids = chunk[i];
                if (failed) {
                    if (ids.parent < 0)
                        return Error::make(ErrorCode::StaleSnapshot, QStringLiteral("the target window went away"),
                                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
                    continue; // an element that vanished meanwhile
                }
                if (snapshot.nodes.size() >= bounds.maxNodes) {
                    snapshot.truncated = true;
                    snapshot.truncatedReason = QStringLiteral("maxNodes");
                    stop = true;
                    break;
                }
                const quint32 role = p.role ? firstArgument(*p.role).toUInt() : *p.known->role;
                const QString name = p.name ? unwrap(firstArgument(*p.name)).toString() : *p.known->name;
                QList<AtspiTreeCache::Child> children;
                const bool haveChildren = p.children.has_value() || p.childrenVouched || p.none || p.huge > 0;
                if (p.children) {
                    for (const auto& ref : refList(firstArgument(*p.children)))
                        children.append({ref.service, ref.path});
                } else if (p.childrenVouched) {
                    children = *p.known->children;
                }
                m_bus.tree()->store(
                    ids.ref.service, ids.ref.path, generation, p.role ? std::optional<quint32>(role) : std::nullopt,
                    p.name ? std::optional<QString>(name) : std::nullopt,
                    p.children || p.none ? std::optional<QList<AtspiTreeCache::Child>>(children) : std::nullopt);

                Node node;
                applyRole(node, role, false);
                node.title = name;
                node.handle = ids.ref.handle();
                node.detailed = false;
                if (node.isSecure())
                    node.states |= StateSecure;
                node.parent = ids.parent;
                const int index = static_cast<int>(snapshot.nodes.size());
                if (node.parent >= 0)
                    snapshot.nodes[node.parent].children.append(index);
                snapshot.nodes.append(node);
                if (p.huge > 0) {
                    // Said, never listed: what shows of it is read below, through its Table.
                    snapshot.nodes[index].omittedChildren = p.huge;
                    snapshot.nodes[index].omittedReason = QStringLiteral("huge_container");
                    huge.append(index);
                    continue;
                }
                if (!haveChildren) {
                    // At maxDepth: whether it has children is not known without another call.
                    snapshot.truncated = true;
                    if (snapshot.truncatedReason.isEmpty())
                        snapshot.truncatedReason = QStringLiteral("maxDepth");
                    continue;
                }
                int n = 0;
                for (const auto& child : children) {
                    const Ref ref{child.service, child.path};
                    if (!ref.isNull())
                        next.append(NodeIds{ref, index, ids.depth + 1, n});
                    ++n;
                }
            }
        }
        if (stop)
            break;
        if (wall.hasExpired() && !next.isEmpty()) {
            snapshot.truncated = true;
            snapshot.truncatedReason = QStringLiteral("maxWallTimeMs");
            break;
        }
        level = next;
    }
    for (int index : std::as_const(huge)) {
        snapshot.truncated = true;
        if (snapshot.truncatedReason.isEmpty())
            snapshot.truncatedReason = QStringLiteral("huge_container");
        const int budget =
            std::min<int>(Atspi::kMaxVisibleCells, bounds.maxNodes - static_cast<int>(snapshot.nodes.size()));
        if (budget <= 0 || wall.hasExpired())
            continue;
        if (auto err = readVisibleCells(snapshot, index, app, budget, context))
            return *err;
    }
    qCDebug(lcAtspi) << "walk:" << snapshot.nodes.size() << "nodes," << asked << "calls," << cached << "from the cache";
    if (snapshot.nodes.isEmpty())
        return Error::make(ErrorCode::StaleSnapshot, QStringLiteral("the target window went away"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    if (bounds.includeText) {
        QList<int> all;
        for (int i = 0; i < snapshot.nodes.size(); ++i)
            all.append(i);
        if (auto err = readTexts(snapshot, all, context))
            return *err;
    }
    return snapshot;
}

std::optional<Error> AtspiTreeReader::readVisibleCells(Snapshot& snapshot, int index, const App& app, int budget,
                                                       const CallContext& context)
{
    const Ref table = Ref::fromHandle(snapshot.nodes.at(index).handle);
    const int timeout = m_bus.callTimeout(context);
    const QString tableIface = Atspi::interfaceName(static_cast<int>(Interface::Table));
    // Where it shows, and its size in rows and columns.
    auto area = m_bus.send(table, Interface::Component, QStringLiteral("GetExtents"), {0u}, timeout);
    auto rows =
        m_bus.send(table, Interface::Properties, QStringLiteral("Get"), {tableIface, QStringLiteral("NRows")}, timeout);
    auto columns = m_bus.send(table, Interface::Properties, QStringLiteral("Get"),
                              {tableIface, QStringLiteral("NColumns")}, timeout);
    if (auto err = m_bus.waitBatch({&area, &rows, &columns}, context, app, QStringLiteral("a huge table's size")))
        return err;
    if (area.isError() || rows.isError() || columns.isError())
        return std::nullopt; // not a table: nothing of it is listed, and the snapshot says so
    const Frame shown = extents(firstArgument(area));
    const qint64 rowCount = unwrap(firstArgument(rows)).toLongLong();
    const qint64 columnCount = unwrap(firstArgument(columns)).toLongLong();
    if (shown.isEmpty() || rowCount <= 0 || columnCount <= 0)
        return std::nullopt;
    // The first cell that shows: the one at the table's top-left corner.
    auto corner = m_bus.send(table, Interface::Component, QStringLiteral("GetAccessibleAtPoint"),
                             {shown.x + 2, shown.y + 2, 0u}, timeout);
    if (auto err = m_bus.waitBatch({&corner}, context, app, QStringLiteral("a huge table's first cell")))
        return err;
    if (corner.isError())
        return std::nullopt;
    const Ref first = refFromArgument(firstArgument(corner).value<QDBusArgument>());
    if (first.isNull())
        return std::nullopt;
    // Its row and column: from its TableCell position where the toolkit has one, since its
    // index in the table is a 32-bit int that no longer holds them deep in a sheet (row 2^21 of
    // 1024 columns); else from that index.
    auto position = m_bus.send(first, Interface::Properties, QStringLiteral("Get"),
                               {QStringLiteral("org.a11y.atspi.TableCell"), QStringLiteral("Position")}, timeout);
    auto at = m_bus.send(first, Interface::Accessible, QStringLiteral("GetIndexInParent"), {}, timeout);
    auto size = m_bus.send(first, Interface::Component, QStringLiteral("GetExtents"), {0u}, timeout);
    if (auto err = m_bus.waitBatch({&position, &at, &size}, context, app, QStringLiteral("a huge table's first cell")))
        return err;
    if (size.isError())
        return std::nullopt;
    int row0 = -1, column0 = -1;
    if (!position.isError()) {
        const QVariant value = unwrap(firstArgument(position));
        if (value.canConvert<QDBusArgument>()) {
            const QDBusArgument pair = value.value<QDBusArgument>();
            pair.beginStructure();
            pair >> row0 >> column0;
            pair.endStructure();
        }
    }
    if (row0 < 0 || column0 < 0) {
        if (at.isError())
            return std::nullopt;
        const int firstIndex = firstArgument(at).toInt();
        auto row = m_bus.send(table, Interface::Table, QStringLiteral("GetRowAtIndex"), {firstIndex}, timeout);
        auto column = m_bus.send(table, Interface::Table, QStringLiteral("GetColumnAtIndex"), {firstIndex}, timeout);
        if (auto err = m_bus.waitBatch({&row, &column}, context, app, QStringLiteral("a huge table's first cell")))
            return err;
        if (row.isError() || column.isError())
            return std::nullopt;
        row0 = firstArgument(row).toInt();
        column0 = firstArgument(column).toInt();
    }
    const Frame cell = extents(firstArgument(size));
    if (row0 < 0 || column0 < 0 || cell.isEmpty())
        return std::nullopt;
    // As many rows and columns as the first cell's size fits in the table's extents, one more
    // for the one cut at the edge.
    int visibleRows = static_cast<int>(std::min<qint64>(rowCount - row0, shown.height / cell.height + 1));
    int visibleColumns = static_cast<int>(std::min<qint64>(columnCount - column0, shown.width / cell.width + 1));
    visibleColumns = std::max(1, std::min(visibleColumns, budget));
    visibleRows = std::max(1, std::min(visibleRows, budget / visibleColumns));
    QList<QDBusPendingCall> cells;
    for (int r = 0; r < visibleRows; ++r) {
        for (int c = 0; c < visibleColumns; ++c)
            cells.append(m_bus.send(table, Interface::Table, QStringLiteral("GetAccessibleAt"), {row0 + r, column0 + c},
                                    timeout));
    }
    {
        QList<QDBusPendingCall*> sent;
        for (auto& call : cells)
            sent.append(&call);
        // The app answered the table's size and first cell just now: if it goes quiet, it is busy
        // with these calls (LibreOffice works out each cell's place from the sheet's top, so
        // deep in a sheet each costs it tens of milliseconds), not hung for another reason.
        const int quietMs = Atspi::kCallCapMs + static_cast<int>(cells.size()) * 5;
        if (auto err =
                m_bus.waitBatch(sent, context, app, QStringLiteral("a huge table's visible cells"), quietMs, true))
            return err;
    }
    QList<Ref> refs;
    for (const auto& call : cells) {
        if (!call.isError())
            refs.append(refFromArgument(firstArgument(call).value<QDBusArgument>()));
    }
    const QString accessible = Atspi::interfaceName(static_cast<int>(Interface::Accessible));
    QList<QDBusPendingCall> roles, names;
    for (const Ref& ref : std::as_const(refs)) {
        roles.append(m_bus.send(ref, Interface::Accessible, QStringLiteral("GetRole"), {}, timeout));
        names.append(m_bus.send(ref, Interface::Properties, QStringLiteral("Get"), {accessible, QStringLiteral("Name")},
                                timeout));
    }
    {
        QList<QDBusPendingCall*> sent;
        for (auto* list : {&roles, &names}) {
            for (auto& call : *list)
                sent.append(&call);
        }
        const int quietMs = Atspi::kCallCapMs + static_cast<int>(refs.size()) * 5;
        if (auto err =
                m_bus.waitBatch(sent, context, app, QStringLiteral("a huge table's visible cells"), quietMs, true))
            return err;
    }
    for (qsizetype i = 0; i < refs.size(); ++i) {
        if (refs.at(i).isNull() || roles.at(i).isError() || names.at(i).isError())
            continue;
        Node node;
        applyRole(node, firstArgument(roles.at(i)).toUInt(), false);
        node.title = unwrap(firstArgument(names.at(i))).toString();
        node.handle = refs.at(i).handle();
        node.detailed = false;
        node.parent = index;
        snapshot.nodes[index].children.append(static_cast<int>(snapshot.nodes.size()));
        snapshot.nodes.append(node);
    }
    return std::nullopt;
}

} // namespace Automation
