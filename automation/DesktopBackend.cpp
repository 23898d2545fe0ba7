#include "automation/DesktopBackend.h"

#include <QDeadlineTimer>
#include <QThread>

#include <algorithm>

namespace Automation {

QString effectName(Effect effect)
{
    switch (effect) {
    case Effect::Confirmed:
        return QStringLiteral("confirmed");
    case Effect::Partial:
        return QStringLiteral("partial");
    case Effect::SuspectedNoop:
        return QStringLiteral("suspected_noop");
    case Effect::Unverifiable:
        break;
    }
    return QStringLiteral("unverifiable");
}

QJsonObject Verification::toJson() const
{
    QJsonObject out{{QStringLiteral("effect"), effectName(effect)},
                    {QStringLiteral("expected"), expected},
                    {QStringLiteral("observed"), observed},
                    {QStringLiteral("paths"), paths},
                    {QStringLiteral("verifyMs"), verifyMs}};
    if (!reason.isEmpty())
        out.insert(QStringLiteral("reason"), reason);
    return out;
}

DesktopBackend::~DesktopBackend() = default;

Status DesktopBackend::completeNodes(Snapshot&, const QList<int>&, const CallContext&)
{
    return success();
}

Result<std::optional<Frame>> DesktopBackend::liveFrame(const ResolvedRoute&, const Node&, const CallContext&)
{
    return std::optional<Frame>();
}

ChangeWait DesktopBackend::waitForChange(const ResolvedRoute&, qint64 ms, const CallContext& context)
{
    QDeadlineTimer nap(std::max<qint64>(0, ms));
    while (!nap.hasExpired() && !context.checkpoint())
        QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(nap.remainingTime(), 1, 10)));
    return ChangeWait::Unsupported;
}

QJsonObject DesktopBackend::environment(const ResolvedRoute*, const CallContext&)
{
    return {};
}

Result<std::optional<CoveringWindow>> DesktopBackend::windowAbove(const ResolvedRoute&, QPoint, const CallContext&)
{
    return std::optional<CoveringWindow>();
}

Status DesktopBackend::readRelations(Snapshot& snapshot, const QList<int>& indexes, const CallContext&)
{
    for (int i : indexes)
        snapshot.nodes[i].relationsRead = true;
    return success();
}

Status DesktopBackend::readTexts(Snapshot&, const QList<int>&, const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("reading text"));
}

Result<ActionOutcome> DesktopBackend::scroll(const ResolvedRoute&, const Snapshot&, int, const ScrollSpec&,
                                             const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("scrolling"));
}

Result<ActionOutcome> DesktopBackend::pointer(const ResolvedRoute&, const PointerGesture&, const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("pointer gestures"));
}

Result<QList<WindowInfo>> DesktopBackend::windows(const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("listing windows"));
}

Result<QList<DisplayInfo>> DesktopBackend::displays(const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("listing displays"));
}

Result<Screenshot> DesktopBackend::screenshotOfDisplay(const DisplayInfo&, const CallContext& context)
{
    return screenshot(context);
}

Result<ActionOutcome> DesktopBackend::windowCommand(const ResolvedRoute&, const WindowCommand&, const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("window actions"));
}

Result<ClipboardContent> DesktopBackend::readClipboard(const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("reading the clipboard"));
}

Result<ClipboardWrite> DesktopBackend::writeClipboard(const QString&, int, const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("writing the clipboard"));
}

Result<AppStart> DesktopBackend::startApp(const AppLaunchSpec&, const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("launching apps"));
}

Result<QString> DesktopBackend::quitApp(qint64, bool, const CallContext&)
{
    return unsupportedOnPlatform(QStringLiteral("quitting apps"));
}

Error unsupportedOnPlatform(const QString& what)
{
    return Error::make(ErrorCode::InvalidRequest,
                       QStringLiteral("%1 is not supported by this platform's backend").arg(what),
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("unsupported")}})
        .withRetryable(false);
}

UnavailableBackend::UnavailableBackend(QString reason) : m_reason(std::move(reason)) {}

BackendInfo UnavailableBackend::info()
{
    return BackendInfo{QStringLiteral("unavailable"), false, m_reason, {}};
}

Error UnavailableBackend::error() const
{
    // Not retryable: the same host will never grow a backend by being asked again.
    return Error::make(ErrorCode::HostNotReady, m_reason,
                       QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_backend")}})
        .withRetryable(false);
}

Result<ResolvedRoute> UnavailableBackend::resolveRoute(const Route&, const CallContext&)
{
    return error();
}

Status UnavailableBackend::focusWindow(const ResolvedRoute&, const CallContext&)
{
    return error();
}

Result<Snapshot> UnavailableBackend::snapshot(const ResolvedRoute&, const SnapshotBounds&, const CallContext&)
{
    return error();
}

Result<Screenshot> UnavailableBackend::screenshot(const CallContext&)
{
    return error();
}

Result<ActionOutcome> UnavailableBackend::press(const ResolvedRoute&, const Node&, const CallContext&)
{
    return error();
}

Result<ActionOutcome> UnavailableBackend::clickAt(const ResolvedRoute&, QPoint, const CallContext&, const Node*)
{
    return error();
}

Result<TypeOutcome> UnavailableBackend::typeText(const ResolvedRoute&, const Node*, const QString&, const TypeOptions&,
                                                 const CallContext&)
{
    return error();
}

Result<ActionOutcome> UnavailableBackend::sendChord(const ResolvedRoute&, const KeyChord&, int, const CallContext&)
{
    return error();
}

} // namespace Automation
