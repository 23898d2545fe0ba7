#pragma once

#include "../../DesktopBackend.h"
#include "AtspiTreeCache.h"
#include "X11Clipboard.h"
#include "X11Session.h"

#include <QDBusConnection>
#include <QDBusPendingCall>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QSet>

#include <memory>
#include <optional>

namespace Automation {

/// Linux backend: AT-SPI2 over QtDBus for the accessibility tree and actions, XTest for
/// pointer and keyboard, the X root window for screenshots (DESIGN.md 8). Lives on the
/// executor's worker thread. Every D-Bus call is asynchronous with a timeout taken from the
/// request's remaining budget; many are kept in flight at once.
class AtspiBackend final : public DesktopBackend
{
public:
    AtspiBackend();
    ~AtspiBackend() override;

    BackendInfo info() override;
    /// `cmdKey`: "ctrl" or "super"; `pngCompression`: zlib level 0..9 (-1: PngEncoder's default).
    void configure(const QJsonObject& settings) override;
    X11Session::CmdKey cmdKey() const { return m_x11.cmdKey(); }
    int pngCompression() const { return m_pngCompression; }
    Result<ResolvedRoute> resolveRoute(const Route& route, const CallContext& context) override;
    Status focusWindow(const ResolvedRoute& route, const CallContext& context) override;
    Result<Snapshot> snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds,
                              const CallContext& context) override;
    Status completeNodes(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context) override;
    Result<Screenshot> screenshot(const CallContext& context) override;
    Result<ActionOutcome> press(const ResolvedRoute& route, const Node& element, const CallContext& context) override;
    Result<ActionOutcome> clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                  const Node* target = nullptr) override;
    Result<TypeOutcome> typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                 const TypeOptions& options, const CallContext& context) override;
    Result<ActionOutcome> sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                    const CallContext& context) override;

    /// An accessible object on the AT-SPI bus.
    struct Ref
    {
        QString service;
        QString path;
        bool isNull() const { return service.isEmpty() || path == QLatin1String("/org/a11y/atspi/null"); }
        QString handle() const { return service + QLatin1Char('|') + path; }
        static Ref fromHandle(const QString& handle);
        friend bool operator==(const Ref&, const Ref&) = default;
    };

    /// One application on the registry.
    struct App
    {
        Ref root;
        QString name;
        qint64 pid = 0;
        QString executable;
        QString toolkit;        ///< Application.ToolkitName: "Qt", "GTK", "Gecko", ...
        QString toolkitVersion; ///< Application.Version, e.g. "4.8.3"
        /// GTK 4 reports Component extents relative to its window, whatever the coordinate type.
        bool windowRelativeExtents() const;
        /// Whether the toolkit reports every change of children (GTK); elsewhere (Qt 6.4 sends no
        /// ChildrenChanged for new windows and rows, Gecko misses some while a page loads) cached
        /// children are checked against ChildCount on every walk.
        bool childrenEventsReliable() const;
        bool isQt() const;
        /// Offsets and EditableText lengths count UTF-16 units (Qt) rather than characters/bytes.
        bool utf16Units() const;
    };

private:
    struct Window
    {
        Ref ref;
        QString title;
        quint32 role = 0;
        bool active = false;
        bool showing = false;
    };
    enum class Interface { Accessible, Component, Action, Text, EditableText, Value, Cache, Properties };

    bool connect(QString* error);
    void disconnect();
    QDBusPendingCall send(const Ref& ref, Interface iface, const QString& method, const QVariantList& args,
                          int timeoutMs);
    /// Waits for a call; an error is turned into the contract error that fits (unresponsive,
    /// gone, aborted) for the app `app`.
    std::optional<Error> wait(QDBusPendingCall& call, const CallContext& context, const QString& what,
                              const App* app = nullptr);
    int callTimeout(const CallContext& context) const;
    /// The timeout for calls sent many at once: the request's budget (at most 30 s). The app
    /// answers them one after another, so the batch's progress, not each call's age, tells
    /// whether it is hung (waitBatch).
    int batchTimeout(const CallContext& context) const;
    /// Waits until every call has its answer. The app is unresponsive only when none of them
    /// got an answer for kCallCapMs while some were outstanding.
    std::optional<Error> waitBatch(const QList<QDBusPendingCall*>& calls, const CallContext& context,
                                   const App& app, const QString& what);

    Result<QList<App>> listApps(const CallContext& context);
    Result<QList<Window>> windowsOf(const App& app, const CallContext& context, int timeoutMs);
    std::optional<Error> unresponsive(const App& app, const QString& what, int timeoutMs);
    bool isMarkedUnresponsive(const QString& service) const;

    Result<Snapshot> walk(const App& app, const Window& window, const SnapshotBounds& bounds,
                          const CallContext& context);
    bool tryCache(const App& app, const Window& window, const SnapshotBounds& bounds, const CallContext& context,
                  Snapshot* out, std::optional<Error>* error);
    std::optional<Error> readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context);

    std::optional<Error> injectKey(unsigned long keysym, bool press, const CallContext& context);
    std::optional<Error> typeByKeys(const QString& text, const CallContext& context);
    /// Presses `chord`'s keys in order (`delayMs` apart) and releases them in reverse, whatever
    /// happens; `anyPressed` tells whether any key went out.
    std::optional<Error> sendKeys(const QList<unsigned long>& chord, const CallContext& context, int delayMs = 0,
                                  bool* anyPressed = nullptr);

    /// The app behind a route, with its toolkit read once.
    App appOf(const ResolvedRoute& route, const CallContext& context);
    void readToolkit(App& app, const CallContext& context);
    /// Whether an app marked unresponsive (or stopped) is still so: a cheap probe lifts the mark
    /// as soon as the app answers; the mark is never re-armed by refusing a request.
    bool stillHung(const App& app, const CallContext& context);
    std::optional<Error> refuseHung(const App& app);
    /// Action names, with the per-index fallback for toolkits whose GetActions gives no names.
    QStringList actionNamesOf(const Ref& ref, const App& app, const CallContext& context);
    /// Roles that depend on states or on the parent (AXTextArea, AXMenuBarItem, dialogs), the
    /// same whichever pass read the node.
    std::optional<Error> normalizeRoles(Snapshot& snapshot, const App& app, const CallContext& context);

    /// What is observed of an app and an element before an action, to compare after it.
    struct ElementState
    {
        bool read = false;
        bool gone = false;
        quint32 low = 0, high = 0;
        QString name;
        int childCount = -1;
        bool nameRead = false, countRead = false; ///< compared only when read on both sides
    };
    struct Baseline
    {
        QString service;
        quint64 mark = 0;
        qint64 atMs = 0;
        QSet<QString> noisy; ///< "path|kind" that kept firing before the action
        Ref target;
        ElementState targetState;
        QStringList windows;
        bool windowsRead = false;
    };
    ElementState readElementState(const Ref& ref, int timeoutMs);
    Result<QStringList> windowPaths(const App& app, int timeoutMs);
    Baseline baseline(const App& app, const Ref* target, const CallContext& context);
    /// Waits (within `budgetMs` and the request's budget) for the app to show a change after
    /// an action: its events, the target's state/name/children, its window list.
    Verification verifyChange(const App& app, const Baseline& before, const QString& expected, int budgetMs,
                              const CallContext& context, bool* answered = nullptr);
    /// Waits until the app has stopped reporting changes (bounded), after an action's effect.
    void settle(const Baseline& before, const CallContext& context);

    QString m_busAddress;
    QString m_connectionName;
    bool m_connected = false;
    bool m_eventsRegistered = false;
    QString m_lastError;
    QHash<QString, App> m_appCache;                ///< by service: names and pids of known apps
    QHash<QString, QDeadlineTimer> m_hung;         ///< services marked unresponsive until then
    QHash<QString, bool> m_cacheSupport;           ///< service -> Cache.GetItems answers with items
    QHash<QString, bool> m_multiLine;              ///< handle -> MULTI_LINE state of text nodes
    QHash<QString, qint64> m_settledAt;            ///< service -> when the host's last action on it settled
    QHash<QString, QDeadlineTimer> m_toolkitRetry; ///< service -> do not ask its toolkit again before
    QElapsedTimer m_invisibleCheckedAt;
    QJsonArray m_invisibleApps; ///< pids with windows that the registry does not list
    App m_lastApp;
    X11Session m_x11;
    int m_pngCompression = -1;
    X11Clipboard m_clipboard;
    std::unique_ptr<AtspiTreeCache> m_tree;
    qint64 m_ownPid = 0;
};

} // namespace Automation
