#pragma once

#include "automation/backends/atspi/AtspiBus.h"

#include <QSet>

namespace Automation {

class AtspiApps;
class X11Session;

/// Reads a window's accessibility tree into a Snapshot: from GTK's Cache.GetItems or a walk
/// (each level's calls sent at once, what the tree cache knows left out), then the details of
/// the nodes a search keeps (completeNodes).
class AtspiTreeReader
{
public:
    AtspiTreeReader(AtspiBus& bus, AtspiApps& apps, X11Session& x11);

    Result<Snapshot> snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds, const CallContext& context);
    Status completeNodes(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context);
    /// Action names, with the per-index fallback for toolkits whose GetActions gives no names.
    QStringList actionNamesOf(const Atspi::Ref& ref, const Atspi::App& app, const CallContext& context);
    /// Text (Text.GetText) or numeric value (Value.CurrentValue) of the nodes at `indexes`,
    /// never of a secure one.
    std::optional<Error> readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context);
    /// The LABEL_FOR targets of the nodes at `indexes` (Node::labelFor), by GetRelationSet.
    Status readRelations(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context);

private:
    Result<Snapshot> walk(const Atspi::App& app, const Atspi::Window& window, const SnapshotBounds& bounds,
                          const CallContext& context);
    /// The cells of a huge table that show on screen (Table.GetAccessibleAt over the rows and
    /// columns its extents hold), added as children of node `index`, at most `budget` of them.
    /// Nothing is added for a container that is not a table.
    std::optional<Error> readVisibleCells(Snapshot& snapshot, int index, const Atspi::App& app, int budget,
                                          const CallContext& context);
    /// Every node's Description (the walk reads names only).
    std::optional<Error> readDescriptions(Snapshot& snapshot, const Atspi::App& app, const CallContext& context);
    bool tryCache(const Atspi::App& app, const Atspi::Window& window, const SnapshotBounds& bounds,
                  const CallContext& context, Snapshot* out, std::optional<Error>* error);
    /// Roles that depend on states or on the parent (AXTextArea, AXMenuBarItem, dialogs), the
    /// same whichever pass read the node.
    std::optional<Error> normalizeRoles(Snapshot& snapshot, const Atspi::App& app, const CallContext& context);

    /// Chromium builds its web content's accessibility only once an assistive technology asks
    /// for an element's attributes: asked once per app (this process's switch, nothing of the
    /// person's session), then its window's children are awaited for a moment.
    void askForWebContent(const Atspi::App& app, const Atspi::Window& window, const CallContext& context);

    AtspiBus& m_bus;
    AtspiApps& m_apps;
    X11Session& m_x11;
    QSet<QString> m_webContentAsked;     ///< services of Chromium apps asked to expose web content
    QHash<QString, bool> m_cacheSupport; ///< service -> Cache.GetItems answers with items
    QHash<QString, bool> m_multiLine;    ///< handle -> MULTI_LINE state of text nodes
};

} // namespace Automation
