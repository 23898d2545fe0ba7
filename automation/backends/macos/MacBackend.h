#pragma once

#include "automation/DesktopBackend.h"
#include "automation/PermissionProbe.h"
#include "automation/backends/macos/AxApi.h"

#include <QHash>
#include <QMutex>
#include <QWaitCondition>

#include <QUrl>

#include <functional>
#include <memory>

namespace Automation::Mac {

/// The macOS backend's logic (docs/macos.md), written against AxApi: routes by bundle id, pid
/// and window title; bounded, batched tree reads with the request's budget as the messaging
/// timeout; AX roles as they are (the shared vocabulary is AX's); actions, text through
/// kAXValueAttribute with read-back, then the pasteboard, then Unicode key events; chords with
/// `cmd` as Command; honest outcomes. Runs on Linux against FakeAxApi in the tests.
class MacBackend final : public DesktopBackend
{
public:
    explicit MacBackend(std::unique_ptr<AxApi> api);
    ~MacBackend() override;

    BackendInfo info() override;
    void configure(const QJsonObject& settings) override;
    Result<ResolvedRoute> resolveRoute(const Route& route, const CallContext& context) override;
    Status focusWindow(const ResolvedRoute& route, const CallContext& context) override;
    Result<Snapshot> snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds,
                              const CallContext& context) override;
    Status completeNodes(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context) override;
    Status readRelations(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context) override;
    Result<Screenshot> screenshot(const CallContext& context) override;
    Result<ActionOutcome> press(const ResolvedRoute& route, const Node& element, const CallContext& context) override;
    QJsonObject environment(const ResolvedRoute* route, const CallContext& context) override;
    Result<std::optional<CoveringWindow>> windowAbove(const ResolvedRoute& route, QPoint point,
                                                      const CallContext& context) override;
    Result<ActionOutcome> clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                  const Node* target = nullptr) override;
    Result<TypeOutcome> typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                 const TypeOptions& options, const CallContext& context) override;
    Result<ActionOutcome> sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                    const CallContext& context) override;
    Status readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context) override;
    /// Brings the person's app forward again after a side effect that brought the route's app
    /// forward (the setting giveBackFocus, on by default), unless another app came forward since.
    QJsonObject sideEffectEnded(const CallContext& context) override;
    Result<std::optional<Frame>> liveFrame(const ResolvedRoute& route, const Node& node,
                                           const CallContext& context) override;
    Result<QList<WindowInfo>> windows(const CallContext& context) override;
    Result<QList<DisplayInfo>> displays(const CallContext& context) override;
    /// screenshot() is the main display; screenshotOfDisplay() another one. Either is scaled
    /// to the display's points (a Retina display's pixels halved), the unit of AX frames.
    bool screenshotCoversEveryDisplay() const override { return false; }
    Result<Screenshot> screenshotOfDisplay(const DisplayInfo& display, const CallContext& context) override;
    /// The general pasteboard; a copy marked org.nspasteboard.ConcealedType is never read
    /// (MacClipboard.cpp).
    /// LaunchServices by bundle id; terminate or forceTerminate (MacApps.cpp).
    Result<AppStart> startApp(const AppLaunchSpec& spec, const CallContext& context) override;
    Result<QString> quitApp(qint64 pid, bool force, const CallContext& context) override;
    Result<ClipboardContent> readClipboard(const CallContext& context) override;
    Result<ClipboardWrite> writeClipboard(const QString& text, int restoreAfterMs, const CallContext& context) override;
    Result<ActionOutcome> windowCommand(const ResolvedRoute& route, const WindowCommand& command,
                                        const CallContext& context) override;
    Result<ActionOutcome> pointer(const ResolvedRoute& route, const PointerGesture& gesture,
                                  const CallContext& context) override;
    /// AXScrollToVisible, else the wheel, for an element into view; the wheel over the container
    /// for a direction (MacScroll.cpp).
    Result<ActionOutcome> scroll(const ResolvedRoute& route, const Snapshot& snapshot, int element,
                                 const ScrollSpec& spec, const CallContext& context) override;
    /// The apps' AX notifications as element events (AxApi::streamNotices; docs/protocol.md
    /// §5.24), streamed only while they are wanted (setElementEventsWanted).
    void setEventSink(DesktopEventSink sink) override;
    void setElementEventsWanted(bool wanted) override;
    /// Ends early when the route's app sends a notification: heard on the stream while it runs,
    /// else through an observer of that app alone on the worker, for the wait only.
    ChangeWait waitForChange(const ResolvedRoute& route, qint64 ms, const CallContext& context) override;
    /// The notifications the stream and a wait listen for.
    static QStringList streamedNotifications();

    AxApi& api() { return *m_api; }

    /// What the event stream remembers between notices (earlier titles, row counts, each app's
    /// activity), shared by the stream's thread and the worker.
    struct NoticeMemory
    {
        QMutex mutex;
        QWaitCondition changed;          ///< woken at every notice of an app
        QHash<QString, QString> titles;  ///< element key -> its last title seen
        QHash<QString, qint64> rows;     ///< element key -> its last row count seen
        QHash<qint64, quint64> activity; ///< pid -> notices so far
    };
    /// The event a notice is, or nullopt for one the stream does not carry (this process's own, a
    /// row count that did not change). Pure but for `memory`; thread-safe.
    static std::optional<DesktopEvent> eventOf(const AxNotice& notice, NoticeMemory& memory, qint64 ownPid);

private:
    struct Private;
    std::unique_ptr<AxApi> m_api;
    std::unique_ptr<Private> d;
    void restream();
    /// The display `displayId` (0: the main one) at one pixel per point.
    Result<Screenshot> captureDisplay(quint32 displayId, const CallContext& context);
    DesktopEventSink m_sink;
    bool m_eventsWanted = false;
    std::shared_ptr<NoticeMemory> m_notices; ///< set while the stream runs
};

/// Accessibility and screen recording as AxApi says (AXIsProcessTrustedWithOptions,
/// CGPreflightScreenCaptureAccess), with the System Settings deep links as the guide.
class MacPermissionProbe final : public PermissionProbe
{
public:
    /// `openSettings` opens a System Settings pane (default: QDesktopServices::openUrl).
    explicit MacPermissionProbe(std::unique_ptr<AxApi> api, std::function<void(const QUrl&)> openSettings = {});
    PermissionReport probe() override;
    PermissionGuide guide(const PermissionReport& report) const override;
    void requestAccessibility(QObject* context, GrantDone done) override;
    void requestScreenCapture(QObject* context, GrantDone done) override;

private:
    std::unique_ptr<AxApi> m_api;
    std::function<void(const QUrl&)> m_openSettings;
};

/// The virtual key code (kVK_*) of a canonical key name of Keys.h; nullopt when none (f21-f24).
std::optional<quint16> virtualKeyForName(const QString& name);
/// The character a key name types on a US layout ("a", "1", "minus" → '-'), for the keys whose
/// place differs between layouts; null for the others (enter, arrows, F-keys, modifiers).
QChar characterOfKeyName(const QString& name);
/// The CGEventFlags bit a modifier key holds down (KeyFlags); 0 for any other key.
quint64 modifierFlagOfKey(quint16 virtualKey);

} // namespace Automation::Mac
