#pragma once

#include "automation/DesktopBackend.h"
#include "automation/PermissionProbe.h"

#include <QColor>
#include <QMutex>
#include <QStringList>

#include <chrono>
#include <functional>
#include <memory>

namespace Testing {

/// A scripted desktop shared between a test and the FakeBackend on the worker thread.
/// Every method locks; the test changes the tree, delays and failures while requests run.
class FakeDesktop
{
public:
    struct Delay
    {
        int ms = 0;
        bool ignoreCancel = false; ///< a stuck call: does not look at the cancel flag
    };

    FakeDesktop();

    /// Replaces the window's tree: nodes in document order, `parent` indexes set, nodes[0] the window.
    void setTree(QList<Automation::Node> nodes);
    /// The default tree: window "Fake Window" > text field "Message", buttons "Send" and
    /// "Cancel" (disabled), a static text "Status", a secure field "Password", an image without actions.
    static QList<Automation::Node> defaultTree();
    /// A big window: a table of `rows` rows of `columns` cells ("R<r>C<c>"), so 2 + rows * (1 +
    /// columns) nodes (the inspector's and its benchmark's large trees).
    static QList<Automation::Node> gridTree(int rows, int columns);
    Automation::Snapshot snapshotNow();
    /// "resolveRoute", "snapshot", "press", ...; "perKey": the pause after each typed key.
    void setDelay(const QString& operation, Delay delay);
    void setFailure(const QString& operation, std::optional<Automation::Error> error);
    void setFocused(bool focused);
    /// Called under no lock after a press; may change the tree (e.g. show "Sent").
    void onPress(std::function<void(FakeDesktop&, const Automation::Node&)> hook);

    QStringList effects() const;
    void clearEffects();
    /// When each key of typeText was injected (one entry per character, in order).
    QList<std::chrono::steady_clock::time_point> keyTimes() const;
    int callCount(const QString& operation) const;
    bool sawCancel() const;
    int focusRequests() const;
    /// What DesktopBackend::configure was last given (merged, latest value per key).
    QJsonObject backendSettings() const;
    /// Apps desktop.app may launch, by desktop id: each launch starts a real process (`sleep`,
    /// so its pid is real and its end observable) whose window "<title>" shows `showAfterMs`
    /// later, as a real app's window shows late; nothing else is launchable.
    void addLaunchable(const QString& desktopId, const QString& title, int showAfterMs = 150);
    /// The windows of launched apps now (pid, title).
    QList<Automation::WindowInfo> launchedWindows();
    /// The displays (default: one, "FAKE-0", 1280x1024, primary). Once set, the screenshot
    /// covers them all, each filled with its own colour (displayColour).
    void setDisplays(QList<Automation::DisplayInfo> displays);
    static QColor displayColour(int index);
    /// Where the fake window is (desktop.windows' frame; a Move command changes it too).
    void setWindowFrame(const Automation::Frame& frame);
    /// A person copied `content` (another app owns the clipboard now).
    void setClipboard(const Automation::ClipboardContent& content);
    /// What the clipboard offers now, as a reader other than the host would get it (a restore
    /// that fell due is done first, as the real owner's timer would have).
    Automation::ClipboardContent clipboard();

private:
    friend class FakeBackend;
    void addEffect(const QString& effect);
    void addEffectLocked(const QString& effect); ///< with m_mutex held

    mutable QMutex m_mutex;
    QList<Automation::Node> m_nodes;
    QHash<QString, Delay> m_delays;
    QHash<QString, Automation::Error> m_failures;
    QHash<QString, int> m_calls;
    QStringList m_effects;
    QList<std::chrono::steady_clock::time_point> m_keyTimes;
    bool m_focused = true;
    Automation::WindowInfo m_window; ///< the fake window as desktop.windows lists it
    QList<Automation::DisplayInfo> m_displays;
    bool m_displaysSet = false;
    bool m_sawCancel = false;
    int m_focusRequests = 0;
    QJsonObject m_backendSettings;
    struct Launchable
    {
        QString title;
        int showAfterMs = 150;
    };
    QHash<QString, Launchable> m_launchable;
    struct Launched
    {
        Automation::WindowInfo window;
        std::chrono::steady_clock::time_point showsAt;
        bool closed = false;
    };
    QList<Launched> m_launched;
    Automation::ClipboardContent m_clipboard{{}, std::nullopt, {}, {}, false, true};
    /// A write's restore: the previous content, offered again at `restoreAt` unless the
    /// clipboard changed since the write (`writeSerial`).
    std::optional<Automation::ClipboardContent> m_restore;
    std::chrono::steady_clock::time_point m_restoreAt;
    int m_clipboardSerial = 0;
    int m_writeSerial = -1;
    void restoreIfDue();
    std::function<void(FakeDesktop&, const Automation::Node&)> m_onPress;
};

/// A DesktopBackend over a FakeDesktop: scripted tree, scripted delays, recorded effects.
class FakeBackend final : public Automation::DesktopBackend
{
public:
    explicit FakeBackend(std::shared_ptr<FakeDesktop> desktop) : m_desktop(std::move(desktop)) {}

    Automation::BackendInfo info() override;
    void configure(const QJsonObject& settings) override;
    Automation::Result<Automation::ResolvedRoute> resolveRoute(const Automation::Route& route,
                                                               const Automation::CallContext& context) override;
    Automation::Status focusWindow(const Automation::ResolvedRoute& route,
                                   const Automation::CallContext& context) override;
    Automation::Result<Automation::Snapshot> snapshot(const Automation::ResolvedRoute& route,
                                                      const Automation::SnapshotBounds& bounds,
                                                      const Automation::CallContext& context) override;
    Automation::Result<Automation::Screenshot> screenshot(const Automation::CallContext& context) override;
    Automation::Result<Automation::ActionOutcome> press(const Automation::ResolvedRoute& route,
                                                        const Automation::Node& element,
                                                        const Automation::CallContext& context) override;
    Automation::Result<Automation::ActionOutcome> clickAt(const Automation::ResolvedRoute& route, QPoint point,
                                                          const Automation::CallContext& context,
                                                          const Automation::Node* target = nullptr) override;
    Automation::Result<Automation::TypeOutcome> typeText(const Automation::ResolvedRoute& route,
                                                         const Automation::Node* target, const QString& text,
                                                         const Automation::TypeOptions& options,
                                                         const Automation::CallContext& context) override;
    Automation::Result<Automation::ActionOutcome> sendChord(const Automation::ResolvedRoute& route,
                                                            const Automation::KeyChord& chord, int delayMs,
                                                            const Automation::CallContext& context) override;
    Automation::Status readTexts(Automation::Snapshot& snapshot, const QList<int>& indexes,
                                 const Automation::CallContext& context) override;
    Automation::Result<Automation::ActionOutcome> scroll(const Automation::ResolvedRoute& route,
                                                         const Automation::Snapshot& snapshot, int element,
                                                         const Automation::ScrollSpec& spec,
                                                         const Automation::CallContext& context) override;

    /// Records "pointer:<gesture>:<x>,<y>[-><x>,<y>]:b<button>x<count>" (unverifiable: the fake
    /// has no pointer).
    Automation::Result<Automation::ActionOutcome> pointer(const Automation::ResolvedRoute& route,
                                                          const Automation::PointerGesture& gesture,
                                                          const Automation::CallContext& context) override;
    /// One window, "Fake Window" of "Fake App" (pid 4242), in the state the desktop's window
    /// commands left it.
    Automation::Result<QList<Automation::WindowInfo>> windows(const Automation::CallContext& context) override;
    Automation::Result<QList<Automation::DisplayInfo>> displays(const Automation::CallContext& context) override;
    Automation::Result<Automation::AppStart> startApp(const Automation::AppLaunchSpec& spec,
                                                      const Automation::CallContext& context) override;
    Automation::Result<QString> quitApp(qint64 pid, bool force, const Automation::CallContext& context) override;
    Automation::Result<Automation::ClipboardContent> readClipboard(const Automation::CallContext& context) override;
    Automation::Result<Automation::ClipboardWrite> writeClipboard(const QString& text, int restoreAfterMs,
                                                                  const Automation::CallContext& context) override;
    /// Records "window:<action>" and changes the fake window's state; confirmed.
    Automation::Result<Automation::ActionOutcome> windowCommand(const Automation::ResolvedRoute& route,
                                                                const Automation::WindowCommand& command,
                                                                const Automation::CallContext& context) override;

private:
    /// Counts the call, sleeps its scripted delay, and returns its scripted failure or a
    /// cancellation (unless the delay ignores cancel).
    std::optional<Automation::Error> enter(const QString& operation, const Automation::CallContext& context);

    std::shared_ptr<FakeDesktop> m_desktop;
};

/// A permission probe with fixed answers.
class FakePermissionProbe final : public Automation::PermissionProbe
{
public:
    Automation::PermissionReport probe() override;
};

} // namespace Testing
