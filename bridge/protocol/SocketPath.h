#pragma once

#include <QString>

namespace Bridge {

/// The one socket path the host and its clients agree on: $MSGCODE_DESKTOP_SOCKET, else
/// $XDG_RUNTIME_DIR/msgcode/com.msgcode.desktop.bridge.sock (Linux) or
/// ~/Library/Application Support/msgcode/com.msgcode.desktop.bridge.sock (macOS).
/// Without XDG_RUNTIME_DIR on Linux: /tmp/msgcode-<uid>/com.msgcode.desktop.bridge.sock.
QString defaultSocketPath();

inline constexpr const char kSocketEnv[] = "MSGCODE_DESKTOP_SOCKET";
inline constexpr const char kSocketFileName[] = "com.msgcode.desktop.bridge.sock";

} // namespace Bridge
