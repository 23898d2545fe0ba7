#pragma once

#include "automation/backends/atspi/AtspiBus.h"
#include "automation/backends/atspi/X11Session.h"

#include <QElapsedTimer>
#include <QJsonArray>

namespace Automation {

/// The applications on the AT-SPI registry: who they are (name, pid, executable, toolkit), their
/// windows, and which app and window a route names.
class AtspiApps
{
public:
    AtspiApps(AtspiBus& bus, X11Session& x11);

    /// The registry's apps, the host itself left out (it never automates itself).
    Result<QList<Atspi::App>> listApps(const CallContext& context);
    Result<QList<Atspi::Window>> windowsOf(const Atspi::App& app, const CallContext& context, int timeoutMs);
    Result<ResolvedRoute> resolveRoute(const Route& route, const CallContext& context);
    /// The app behind a route, as far as it is known, without asking it anything.
    Atspi::App appFor(const ResolvedRoute& route) const;
    /// The app behind a route, with its toolkit read once.
    Atspi::App appOf(const ResolvedRoute& route, const CallContext& context);
    /// What is known of the app on `service` (empty when nothing).
    Atspi::App known(const QString& service) const { return m_appCache.value(service); }
    qsizetype knownCount() const { return m_appCache.size(); }
    void readToolkit(Atspi::App& app, const CallContext& context);
    /// Pids with windows on screen that the registry does not list (they cannot be automated).
    QJsonArray invisibleApps();
    /// The last answer of invisibleApps, without looking again.
    QJsonArray lastInvisibleApps() const { return m_invisibleApps; }

private:
    /// The window manager's title of X window `native` among `stacked`.
    static QString titleOf(const QList<X11Session::WindowFacts>& stacked, quint64 native);
    /// For each of an app's accessible windows, the X window that is it (0 when not known): the
    /// app's window titled as it is named, else, when one showing window is left on each side,
    /// those two.
    static QList<quint64> nativeWindowsOf(qint64 pid, const QList<Atspi::Window>& windows,
                                          const QList<X11Session::WindowFacts>& stacked);
    /// DESKTOP_ELEMENT_NOT_FOUND, reason no_accessibility, naming the window; not retryable.
    static Error noAccessibility(const X11Session::WindowFacts& window, bool frontmost);
    /// A route to a window without accessibility: its process, title and X window, and the
    /// noAccessibility error every read of its tree answers.
    ResolvedRoute bareRoute(const X11Session::WindowFacts& window, bool frontmost);

    AtspiBus& m_bus;
    X11Session& m_x11;
    QHash<QString, Atspi::App> m_appCache;         ///< by service: names and pids of known apps
    QHash<QString, QDeadlineTimer> m_toolkitRetry; ///< service -> do not ask its toolkit again before
    QElapsedTimer m_invisibleCheckedAt;
    QJsonArray m_invisibleApps;
    qint64 m_ownPid = 0;
};

} // namespace Automation
