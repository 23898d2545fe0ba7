#pragma once

#include "bridge/grounding/GroundingEndpoint.h"
#include "bridge/security/SecuritySettings.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

#include <memory>

class QSettings;

namespace Bridge {
class Host;
}

namespace App {

/// The host's persistent settings (the Settings dialog's) over QSettings ("msgcode" /
/// "msgcode-desktop-host"): load, validate and save, without widgets so it can be unit-tested.
class HostSettings
{
    Q_DECLARE_TR_FUNCTIONS(HostSettings)

public:
    static constexpr qint64 kMinTokenTtlMs = 1000;
    static constexpr qint64 kMaxTokenTtlMs = 600000;
    static constexpr int kMinApprovalTimeoutMs = 5000;
    static constexpr int kMaxApprovalTimeoutMs = 600000;
    static constexpr int kDefaultPngCompression = 3; ///< PngEncoder::kDefaultLevel

    /// What the portable `cmd` modifier presses on Linux.
    enum class CmdKey { Control, Super };

    /// Empty: $WORKSPACE_ROOT at start. Else an existing directory.
    QString workspaceRoot;
    Bridge::ConfirmPolicy confirmPolicy = Bridge::ConfirmPolicy::Ask;
    /// The MCP front door's own policy; none: the same as confirmPolicy.
    std::optional<Bridge::ConfirmPolicy> mcpConfirmPolicy;
    bool requireToken = false;
    qint64 maxTokenTtlMs = Bridge::SecuritySettings::kDefaultMaxTokenTtlMs;
    int approvalTimeoutMs = Bridge::SecuritySettings::kDefaultApprovalTimeoutMs;
    /// Typed text is kept in request.json as its length + SHA-256 unless this is on.
    bool keepTypedText = false;
    /// Side effects keep complete trees in ax.json, for the evidence browser's selector lab.
    bool keepFullTrees = false;
    int pngCompression = kDefaultPngCompression; ///< zlib level 0 (none) .. 9 (smallest)
    QStringList callerAllowlist;
    CmdKey cmdKey = CmdKey::Control;
    /// What injecting input does when the person uses the keyboard or mouse: "abort" (stop the
    /// execution), "wait" (hold until they are quiet for yieldQuietMs) or "off".
    QString yieldToUser = QStringLiteral("abort");
    int yieldQuietMs = 1500;
    /// macOS: after an action that brought another app forward, bring back the app the person
    /// had in front.
    bool giveBackFocus = true;
    /// How long an event subscription outlives its connection, watched and recorded so that a
    /// reader coming back with its cursor loses nothing (docs/protocol.md §5.24); 0: not at all.
    int eventsLingerSeconds = 600;
    static constexpr int kMaxEventsLingerSeconds = 24 * 3600;
    /// "" (system), "en" or "zh_CN"; read by the translations at start.
    QString language;
    /// The remote agent's control server (docs/remote.md); an empty host: off. Its device
    /// token is never here: it lives in the keyring.
    QString remoteHost;
    int remotePort = 0;
    bool remoteTls = false;
    /// The server certificate's SHA-256 (hex), pinned; empty: the system's trust.
    QString remoteFingerprint;
    /// The remote caller's own policy: ask unless the person chose otherwise.
    Bridge::ConfirmPolicy remoteConfirmPolicy = Bridge::ConfirmPolicy::Ask;
    /// The owner's grounding endpoint (desktop.ground): an OpenAI-compatible server with a vision
    /// model they run themselves. An empty url: none, and no pixel is sent anywhere.
    Bridge::GroundingSettings grounding;

    /// One validation problem: which field and what is wrong, for a person.
    struct Problem
    {
        QString field; ///< the key, e.g. "workspaceRoot"
        QString message;
    };
    /// Empty when every value is acceptable.
    QList<Problem> validate() const;

    /// The settings store: `iniPath` empty is the user's (organization/application), else that
    /// ini file (tests).
    static std::unique_ptr<QSettings> open(const QString& iniPath = {});
    /// Reads what is stored; a missing or malformed value keeps its default.
    static HostSettings load(QSettings& settings);
    static HostSettings load(const QString& iniPath = {});
    void save(QSettings& settings) const;
    /// False when the store could not be written.
    bool save(const QString& iniPath) const;

    /// `base` with the security fields of these settings (dataDir kept).
    Bridge::SecuritySettings securitySettings(Bridge::SecuritySettings base) const;
    /// What DesktopBackend::configure takes: `cmdKey`, `pngCompression`, `yieldToUser`, `yieldQuietMs`,
    /// `giveBackFocus`.
    QJsonObject backendSettings() const;
    /// Applies everything that can change at runtime to a running host. Returns the problems
    /// (e.g. a workspace root the host refused); the rest is applied anyway.
    QList<Problem> applyTo(Bridge::Host& host) const;

    static QString cmdKeyName(CmdKey key)
    {
        return key == CmdKey::Super ? QStringLiteral("super") : QStringLiteral("ctrl");
    }
    static QStringList languages() { return {QString(), QStringLiteral("en"), QStringLiteral("zh_CN")}; }

    friend bool operator==(const HostSettings&, const HostSettings&) = default;
};

} // namespace App
