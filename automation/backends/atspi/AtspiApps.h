#pragma once

#include "automation/backends/atspi/AtspiBus.h"

#include <QElapsedTimer>
#include <QJsonArray>

namespace Automation {

class X11Session;

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
    AtspiBus& m_bus;
    X11Session& m_x11;
    QHash<QString, Atspi::App> m_appCache;         ///< by service: names and pids of known apps
    QHash<QString, QDeadlineTimer> m_toolkitRetry; ///< service -> do not ask its toolkit again before
    QElapsedTimer m_invisibleCheckedAt;
    QJsonArray m_invisibleApps;
    qint64 m_ownPid = 0;
};

} // namespace Automation
