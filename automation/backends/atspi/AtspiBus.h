#pragma once

#include "automation/CallContext.h"
#include "automation/Error.h"
#include "automation/Types.h"
#include "automation/backends/atspi/AtspiTreeCache.h"

#include <QDBusError>
#include <QDBusPendingCall>
#include <QDeadlineTimer>
#include <QHash>
#include <QLoggingCategory>
#include <QString>
#include <QVariant>

#include <functional>
#include <memory>
#include <optional>

class QDBusArgument;

namespace Automation {

Q_DECLARE_LOGGING_CATEGORY(lcAtspi)

namespace Atspi {

// libatspi's default call timeout is 800 ms; an app slower than this is treated as hung.
inline constexpr int kCallCapMs = 1000;
// While discovering apps, one that does not answer quickly is skipped rather than waited for.
inline constexpr int kDiscoveryCapMs = 400;
// An app that timed out is not asked again for this long (as Orca does).
inline constexpr int kHungMarkMs = 1500;
// Calls kept in flight at once (the a11y bus allows 50000 pending replies per connection).
inline constexpr int kBatch = 4096;
// The timeout of calls sent as a batch: a large Qt tree's first read makes the app build
// thousands of accessible objects, a second or more of steady answering.
inline constexpr int kBatchCapMs = 30000;
// A container reporting more children than this is never asked for them (GetChildren makes an
// app that builds its children on demand, a spreadsheet with 2^31-1 cells, build every one):
// only what shows of it is read (docs/protocol.md §5.13, "huge_container").
inline constexpr qint64 kMaxListedChildren = 2048;
// The time an app is given per child it lists (GetChildren) before it is called unresponsive,
// beyond kCallCapMs: Qt builds each child's object as it lists it (measured: 3000 children in
// 1.4 s on the 2-core test machine).
inline constexpr qint64 kListMsPerChild = 1;
// A listing of more children than this makes the app build them for the host's call: if it goes
// quiet then, it is busy with the host's call (AtspiBus::unresponsive, busy_with_host_calls).
inline constexpr qint64 kLongListing = 500;
// The most cells read of what shows of one huge table.
inline constexpr int kMaxVisibleCells = 1000;

QString registryService();
QString rootPath();

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
    /// GTK 3: an accessibility action that opens a modal dialog (gtk_dialog_run) leaves the app
    /// deaf to the bus until the dialog closes; the same item activated by a key does not.
    bool isGtk3() const;
    /// Chromium and what embeds it (Chrome, Electron apps): web content is exposed only once
    /// an assistive technology asks for an element's attributes or relations.
    bool isChromium() const;
};

/// A top-level window of an app.
struct Window
{
    Ref ref;
    QString title;
    quint32 role = 0;
    bool active = false;
    bool showing = false;
    bool modal = false;
};

enum class Interface { Accessible, Component, Action, Text, EditableText, Value, Cache, Properties, Selection, Table };
/// The D-Bus interface name of an Interface.
QString interfaceName(int iface);

/// What a failed call means, whatever was asked: the one reading of D-Bus errors.
enum class CallFailure {
    None,       ///< no error
    Unanswered, ///< no reply within the timeout: the app may be hung
    BusLost,    ///< the connection to the AT-SPI bus is gone
    Gone,       ///< the app or the object no longer exists
    Failed,     ///< any other error the app answered
};
CallFailure failureOf(const QDBusError& error);
CallFailure failureOf(const QDBusPendingCall& call);

// Reading replies.
Ref refFromArgument(const QDBusArgument& arg);
QList<Ref> refList(const QVariant& value);
QList<quint32> uintList(const QVariant& value);
Frame extents(const QVariant& value);
QStringList actionNames(const QVariant& value);
QVariant firstArgument(const QDBusPendingCall& call);
QVariant unwrap(const QVariant& value);
/// Gecko answers GetActions with entries whose name is empty or ";;" (its keybinding slot),
/// while GetName(i) gives the real name: such a list must be read index by index.
bool actionNamesUsable(const QStringList& names);

} // namespace Atspi

/// The AT-SPI bus: the private connection, asynchronous calls with timeouts from the request's
/// budget, the one translation of D-Bus errors into contract errors, and the apps marked
/// unresponsive. Owns the tree cache, which lives on the connection's events.
class AtspiBus
{
public:
    AtspiBus();
    ~AtspiBus();
    AtspiBus(const AtspiBus&) = delete;
    AtspiBus& operator=(const AtspiBus&) = delete;

    /// Connects (once; again after the bus went away); false with `error` set when it cannot.
    bool connect(QString* error);
    void disconnect();
    /// Runs `reset` after every new connection (what was known of the old one is stale).
    void onConnected(std::function<void()> reset);
    QString address() const { return m_busAddress; }
    bool eventsRegistered() const { return m_eventsRegistered; }
    /// The tree cache of the current connection (null before the first connection).
    AtspiTreeCache* tree() const { return m_tree.get(); }
    /// The element events' listener, set on the tree cache of this and every later connection.
    void setTreeListener(AtspiTreeCache::Listener listener);
    QString connectionName() const { return m_connectionName; }

    QDBusPendingCall send(const Atspi::Ref& ref, Atspi::Interface iface, const QString& method,
                          const QVariantList& args, int timeoutMs);
    /// The pid of a bus name, from the bus daemon (which never hangs).
    QDBusPendingCall connectionPid(const QString& service, int timeoutMs);

    /// Waits for a call; an error becomes the contract error that fits (errorFor) for `app`.
    std::optional<Error> wait(QDBusPendingCall& call, const CallContext& context, const QString& what,
                              const Atspi::App* app = nullptr);
    /// The contract error of a failed call: unresponsive (the app is marked), the bus lost (it is
    /// disconnected), the target gone, or an internal error. nullopt when the call succeeded.
    std::optional<Error> errorFor(const QDBusPendingCall& call, const QString& what, const Atspi::App* app,
                                  int timeoutMs);
    static int callTimeout(const CallContext& context);
    /// The timeout for calls sent many at once: the request's budget (at most 30 s). The app
    /// answers them one after another, so the batch's progress, not each call's age, tells
    /// whether it is hung (waitBatch).
    static int batchTimeout(const CallContext& context);
    /// Waits until every call has its answer. The app is unresponsive only when none of them
    /// got an answer for `quietMs` (kCallCapMs unless a call is known to be long) while some were
    /// outstanding. `answeredBefore`: the app answered this request's earlier calls (see
    /// unresponsive).
    std::optional<Error> waitBatch(const QList<QDBusPendingCall*>& calls, const CallContext& context,
                                   const Atspi::App& app, const QString& what, int quietMs = Atspi::kCallCapMs,
                                   bool answeredBefore = false);

    /// Marks the app unresponsive and says what is known (slow, stopped, exited). An app that
    /// answered the request's earlier calls (`answeredBefore`) and went quiet on the host's own is
    /// busy with them: not retryable, `reason: "busy_with_host_calls"`.
    std::optional<Error> unresponsive(const Atspi::App& app, const QString& what, int timeoutMs,
                                      bool answeredBefore = false);
    void markUnresponsive(const QString& service);
    bool isMarkedUnresponsive(const QString& service) const;
    /// Whether an app marked unresponsive (or stopped) is still so: a cheap probe lifts the mark
    /// as soon as the app answers; the mark is never re-armed by refusing a request.
    bool stillHung(const Atspi::App& app, const CallContext& context);
    std::optional<Error> refuseHung(const Atspi::App& app);

private:
    QString m_busAddress;
    QString m_connectionName;
    bool m_connected = false;
    bool m_eventsRegistered = false;
    QString m_lastError;
    QHash<QString, QDeadlineTimer> m_hung; ///< services marked unresponsive until then
    QList<std::function<void()>> m_onConnected;
    std::unique_ptr<AtspiTreeCache> m_tree;
    AtspiTreeCache::Listener m_treeListener;
};

} // namespace Automation
