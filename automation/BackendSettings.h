#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Automation {

/// The host's runtime settings for a backend, typed. The host hands them over as JSON
/// (DesktopBackend::configure); fromJson is the one place that reads that JSON. A setting that
/// is not given leaves the backend's current value alone.
struct BackendSettings
{
    /// Which key the portable `cmd` modifier presses where there is no Command key.
    enum class CmdKey { Control, Super };

    std::optional<CmdKey> cmdKey;      ///< JSON `cmdKey`: "ctrl" or "super"
    std::optional<int> pngCompression; ///< JSON `pngCompression`: zlib level 0..9, -1 the encoder's default
    /// JSON `yieldToUser`: what injecting input does when the person uses the keyboard or mouse:
    /// "abort" (the default), "wait" or "off".
    std::optional<QString> yieldToUser;
    /// JSON `yieldQuietMs`: in "wait", how long the person must have been quiet (100..60000).
    std::optional<int> yieldQuietMs;
    /// JSON `giveBackFocus`: after a side effect that brought another app forward, the app the
    /// person had in front is brought forward again (macOS; on by default).
    std::optional<bool> giveBackFocus;

    /// Unknown keys and values of the wrong type are ignored; the level is clamped to -1..9.
    static BackendSettings fromJson(const QJsonObject& json);
};

} // namespace Automation
