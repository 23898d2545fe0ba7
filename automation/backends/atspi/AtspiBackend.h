#pragma once

#include "../../BackendSettings.h"
#include "../../DesktopBackend.h"
#include "automation/backends/atspi/X11Session.h"

#include <memory>

namespace Automation {

/// Linux backend: AT-SPI2 over QtDBus for the accessibility tree and actions, XTest for
/// pointer and keyboard, the X root window for screenshots. Lives on the executor's worker
/// thread. Every D-Bus call is asynchronous with a timeout taken from the request's remaining
/// budget; many are kept in flight at once. A facade over its parts (docs/architecture.md, "The
/// Linux backend"): the bus, the apps, the tree reader, the verifier and the input.
class AtspiBackend final : public DesktopBackend
{
public:
    AtspiBackend();
    ~AtspiBackend() override;

    BackendInfo info() override;
    /// The host's settings as JSON (BackendSettings::fromJson reads them).
    void configure(const QJsonObject& settings) override;
    void configure(const BackendSettings& settings);
    X11Session::CmdKey cmdKey() const;
    int pngCompression() const;
    QJsonArray takeYields() override;
    void setEventSink(DesktopEventSink sink) override;
    ChangeWait waitForChange(const ResolvedRoute& route, qint64 ms, const CallContext& context) override;
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
    Result<ActionOutcome> activateMenuItem(const ResolvedRoute& route, const Node& item, const Node* menu,
                                           const CallContext& context) override;
    Status readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context) override;
    QJsonObject environment(const ResolvedRoute* route, const CallContext& context) override;
    Result<std::optional<CoveringWindow>> windowAbove(const ResolvedRoute& route, QPoint point,
                                                      const CallContext& context) override;
    Status readRelations(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context) override;
    Result<std::optional<Frame>> liveFrame(const ResolvedRoute& route, const Node& node,
                                           const CallContext& context) override;
    Result<ActionOutcome> scroll(const ResolvedRoute& route, const Snapshot& snapshot, int element,
                                 const ScrollSpec& spec, const CallContext& context) override;
    Result<ActionOutcome> pointer(const ResolvedRoute& route, const PointerGesture& gesture,
                                  const CallContext& context) override;
    Result<QList<WindowInfo>> windows(const CallContext& context) override;
    Result<QList<DisplayInfo>> displays(const CallContext& context) override;
    /// From the app's desktop entry, detached in a session of its own, in a scope of the user's
    /// service manager when one runs (outside the host's service), else through setsid.
    Result<AppStart> startApp(const AppLaunchSpec& spec, const CallContext& context) override;
    /// Closes the app's windows (the window manager's close, as the person's click on ×); when
    /// none is left and the process still runs, SIGTERM; never while a window it opened since
    /// (a "save changes?" dialog) waits for the person. force: SIGKILL.
    Result<QString> quitApp(qint64 pid, bool force, const CallContext& context) override;
    Result<ClipboardContent> readClipboard(const CallContext& context) override;
    Result<ClipboardWrite> writeClipboard(const QString& text, int restoreAfterMs, const CallContext& context) override;
    Result<ActionOutcome> windowCommand(const ResolvedRoute& route, const WindowCommand& command,
                                        const CallContext& context) override;

private:
    struct Parts;
    std::unique_ptr<Parts> d;
};

} // namespace Automation
