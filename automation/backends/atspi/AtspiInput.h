#pragma once

#include "automation/DesktopBackend.h"
#include "automation/KeySink.h"
#include "automation/backends/atspi/AtspiBus.h"

namespace Automation {

class AtspiApps;
class AtspiTreeReader;
class AtspiVerifier;
class X11Clipboard;
class X11Session;

/// Input over AT-SPI and X11: accessibility actions, pointer clicks, typing (the ladder of
/// delivery paths with read-back) and key chords, each verified by AtspiVerifier.
class AtspiInput
{
public:
    AtspiInput(AtspiBus& bus, AtspiApps& apps, AtspiTreeReader& tree, AtspiVerifier& verifier, X11Session& x11,
               X11Clipboard& clipboard);
    ~AtspiInput();

    Status focusWindow(const ResolvedRoute& route, const CallContext& context);
    Result<ActionOutcome> press(const ResolvedRoute& route, const Node& element, const CallContext& context);
    /// GTK 3: highlights the item in its open menu (Selection.SelectChild) and presses Return;
    /// elsewhere, or when that cannot be done, press().
    Result<ActionOutcome> activateMenuItem(const ResolvedRoute& route, const Node& item, const Node* menu,
                                           const CallContext& context);
    Result<ActionOutcome> clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                  const Node* target);
    /// Into an accessible window: the typing ladder (AtspiTyping); into one without
    /// accessibility: keys only, never read back.
    Result<TypeOutcome> typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                 const TypeOptions& options, const CallContext& context);
    Result<ActionOutcome> sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                    const CallContext& context);
    /// AtspiGestures.cpp: pointer gestures over XTest, window actions over EWMH.
    Result<ActionOutcome> pointer(const ResolvedRoute& route, const PointerGesture& gesture,
                                  const CallContext& context);
    Result<QList<WindowInfo>> windows(const CallContext& context);
    Result<ActionOutcome> windowCommand(const ResolvedRoute& route, const WindowCommand& command,
                                        const CallContext& context);

private:
    /// One typeText's steps (AtspiTyping.cpp), over this input's bus, verifier and keys.
    friend class AtspiTyping;

    /// Keys reach a window without accessibility only while it has the keyboard focus; a
    /// FOCUS_LOST error otherwise (nothing sent).
    std::optional<Error> bareWindowFocused(const ResolvedRoute& route);
    /// Whether another window is active now than `activeBefore` (a dialog opened by the input
    /// took the focus); if so, `v` gets why (observed.focusMovedTo, reason).
    bool windowTookFocus(quint64 activeBefore, Verification& v);
    /// typeText into a window without accessibility: keys only, never read back.
    Result<TypeOutcome> typeIntoBareWindow(const ResolvedRoute& route, const QString& text, const TypeOptions& options,
                                           const CallContext& context);

    AtspiBus& m_bus;
    AtspiApps& m_apps;
    AtspiTreeReader& m_tree;
    AtspiVerifier& m_verifier;
    X11Session& m_x11;
    X11Clipboard& m_clipboard;
    std::unique_ptr<KeySink> m_keys; ///< XTest
};

} // namespace Automation
