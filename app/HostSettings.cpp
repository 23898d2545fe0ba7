#include "app/HostSettings.h"

#include "bridge/Host.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>

namespace App {

namespace {

const QString keyWorkspaceRoot = QStringLiteral("workspaceRoot");
const QString keyConfirmPolicy = QStringLiteral("confirmPolicy");
const QString keyMcpConfirmPolicy = QStringLiteral("mcpConfirmPolicy");
const QString keyRequireToken = QStringLiteral("requireToken");
const QString keyMaxTokenTtlMs = QStringLiteral("maxTokenTtlMs");
const QString keyApprovalTimeoutMs = QStringLiteral("approvalTimeoutMs");
const QString keyKeepTypedText = QStringLiteral("evidence/keepTypedText");
const QString keyKeepFullTrees = QStringLiteral("evidence/keepFullTrees");
const QString keyPngCompression = QStringLiteral("evidence/pngCompression");
const QString keyCallerAllowlist = QStringLiteral("callerAllowlist");
const QString keyCmdKey = QStringLiteral("cmdKey");
const QString keyYieldToUser = QStringLiteral("input/yieldToUser");
const QString keyYieldQuietMs = QStringLiteral("input/yieldQuietMs");
const QString keyGiveBackFocus = QStringLiteral("input/giveBackFocus");
const QString keyEventsLinger = QStringLiteral("events/lingerSeconds");
// The translations read this key at start (translations/Translations.h).
const QString keyLanguage = QStringLiteral("language");
const QString keyRemoteHost = QStringLiteral("remote/host");
const QString keyRemotePort = QStringLiteral("remote/port");
const QString keyRemoteTls = QStringLiteral("remote/tls");
const QString keyRemoteFingerprint = QStringLiteral("remote/fingerprint");
const QString keyRemoteConfirmPolicy = QStringLiteral("remote/confirmPolicy");
const QString keyGroundingUrl = QStringLiteral("grounding/url");
const QString keyGroundingModel = QStringLiteral("grounding/model");
const QString keyGroundingTimeoutMs = QStringLiteral("grounding/timeoutMs");

template <typename T> T number(const QSettings& settings, const QString& key, T fallback)
{
    bool ok = false;
    const qlonglong value = settings.value(key).toLongLong(&ok);
    return ok ? static_cast<T>(value) : fallback;
}

} // namespace

QList<HostSettings::Problem> HostSettings::validate() const
{
    QList<Problem> problems;
    if (!workspaceRoot.isEmpty()) {
        const QFileInfo root(workspaceRoot);
        if (!root.exists())
            problems.append({keyWorkspaceRoot, tr("The workspace root %1 does not exist.").arg(workspaceRoot)});
        else if (!root.isDir())
            problems.append({keyWorkspaceRoot, tr("The workspace root %1 is not a directory.").arg(workspaceRoot)});
    }
    if (maxTokenTtlMs < kMinTokenTtlMs || maxTokenTtlMs > kMaxTokenTtlMs)
        problems.append(
            {keyMaxTokenTtlMs,
             tr("The longest token lifetime must be between %1 and %2 ms.").arg(kMinTokenTtlMs).arg(kMaxTokenTtlMs)});
    if (approvalTimeoutMs < kMinApprovalTimeoutMs || approvalTimeoutMs > kMaxApprovalTimeoutMs)
        problems.append({keyApprovalTimeoutMs, tr("The approval timeout must be between %1 and %2 ms.")
                                                   .arg(kMinApprovalTimeoutMs)
                                                   .arg(kMaxApprovalTimeoutMs)});
    if (pngCompression < 0 || pngCompression > 9)
        problems.append({keyPngCompression, tr("The PNG compression level must be between 0 and 9.")});
    if (yieldToUser != QLatin1String("abort") && yieldToUser != QLatin1String("wait") &&
        yieldToUser != QLatin1String("off"))
        problems.append({keyYieldToUser, tr("Yielding to the person must be abort, wait or off.")});
    if (yieldQuietMs < 100 || yieldQuietMs > 60000)
        problems.append({keyYieldQuietMs, tr("The quiet period must be between 100 and 60000 ms.")});
    if (eventsLingerSeconds < 0 || eventsLingerSeconds > kMaxEventsLingerSeconds)
        problems.append(
            {keyEventsLinger,
             tr("Events are kept for a reader for 0 to %1 seconds after it goes away.").arg(kMaxEventsLingerSeconds)});
    for (const QString& caller : callerAllowlist) {
        const QFileInfo file(caller);
        if (caller.trimmed().isEmpty() || !file.exists())
            problems.append({keyCallerAllowlist, tr("The allowed caller %1 does not exist.").arg(caller)});
        else if (!file.isFile())
            problems.append({keyCallerAllowlist, tr("The allowed caller %1 is not a file.").arg(caller)});
    }
    if (!remoteHost.trimmed().isEmpty() && (remotePort < 1 || remotePort > 65535))
        problems.append({keyRemotePort, tr("The control server's port must be between 1 and 65535.")});
    if (QString pin = remoteFingerprint; !pin.remove(QLatin1Char(':')).trimmed().isEmpty()) {
        static const QRegularExpression sha256(QStringLiteral("^[0-9a-fA-F]{64}$"));
        if (!sha256.match(pin.trimmed()).hasMatch())
            problems.append({keyRemoteFingerprint, tr("The certificate fingerprint must be a SHA-256 digest: 64 "
                                                      "hexadecimal digits.")});
        else if (!remoteTls)
            problems.append({keyRemoteFingerprint, tr("A pinned certificate needs TLS.")});
    }
    if (grounding.configured() && !grounding.urlUsable())
        problems.append({keyGroundingUrl, tr("The grounding endpoint must be an http or https URL, such as "
                                             "http://127.0.0.1:8080/v1.")});
    if (grounding.timeoutMs < Bridge::GroundingSettings::kMinTimeoutMs ||
        grounding.timeoutMs > Bridge::GroundingSettings::kMaxTimeoutMs)
        problems.append({keyGroundingTimeoutMs, tr("The grounding endpoint's timeout must be between %1 and %2 ms.")
                                                    .arg(Bridge::GroundingSettings::kMinTimeoutMs)
                                                    .arg(Bridge::GroundingSettings::kMaxTimeoutMs)});
    if (!languages().contains(language))
        problems.append({keyLanguage, tr("Unknown language \"%1\".").arg(language)});
    return problems;
}

std::unique_ptr<QSettings> HostSettings::open(const QString& iniPath)
{
    if (iniPath.isEmpty())
        return std::make_unique<QSettings>(QStringLiteral("msgcode"), QStringLiteral("msgcode-desktop-host"));
    return std::make_unique<QSettings>(iniPath, QSettings::IniFormat);
}

HostSettings HostSettings::load(QSettings& settings)
{
    HostSettings out;
    out.workspaceRoot = settings.value(keyWorkspaceRoot).toString();
    if (const auto policy = Bridge::SecuritySettings::policyFromName(settings.value(keyConfirmPolicy).toString()))
        out.confirmPolicy = *policy;
    out.mcpConfirmPolicy = Bridge::SecuritySettings::policyFromName(settings.value(keyMcpConfirmPolicy).toString());
    out.requireToken = settings.value(keyRequireToken, false).toBool();
    out.maxTokenTtlMs = number(settings, keyMaxTokenTtlMs, out.maxTokenTtlMs);
    out.approvalTimeoutMs = number(settings, keyApprovalTimeoutMs, out.approvalTimeoutMs);
    out.keepTypedText = settings.value(keyKeepTypedText, false).toBool();
    out.keepFullTrees = settings.value(keyKeepFullTrees, false).toBool();
    out.pngCompression = number(settings, keyPngCompression, out.pngCompression);
    out.callerAllowlist = settings.value(keyCallerAllowlist).toStringList();
    out.cmdKey = settings.value(keyCmdKey).toString() == QLatin1String("super") ? CmdKey::Super : CmdKey::Control;
    out.yieldToUser = settings.value(keyYieldToUser, out.yieldToUser).toString();
    out.yieldQuietMs = number(settings, keyYieldQuietMs, out.yieldQuietMs);
    out.giveBackFocus = settings.value(keyGiveBackFocus, out.giveBackFocus).toBool();
    out.eventsLingerSeconds = number(settings, keyEventsLinger, out.eventsLingerSeconds);
    out.language = settings.value(keyLanguage).toString();
    out.remoteHost = settings.value(keyRemoteHost).toString();
    out.remotePort = number(settings, keyRemotePort, 0);
    out.remoteTls = settings.value(keyRemoteTls, false).toBool();
    out.remoteFingerprint = settings.value(keyRemoteFingerprint).toString();
    if (const auto policy = Bridge::SecuritySettings::policyFromName(settings.value(keyRemoteConfirmPolicy).toString()))
        out.remoteConfirmPolicy = *policy;
    out.grounding.url = settings.value(keyGroundingUrl).toString();
    out.grounding.model = settings.value(keyGroundingModel).toString();
    out.grounding.timeoutMs = number(settings, keyGroundingTimeoutMs, out.grounding.timeoutMs);
    return out;
}

HostSettings HostSettings::load(const QString& iniPath)
{
    return load(*open(iniPath));
}

void HostSettings::save(QSettings& settings) const
{
    settings.setValue(keyWorkspaceRoot, workspaceRoot);
    settings.setValue(keyConfirmPolicy, Bridge::SecuritySettings::policyName(confirmPolicy));
    settings.setValue(keyMcpConfirmPolicy,
                      mcpConfirmPolicy ? Bridge::SecuritySettings::policyName(*mcpConfirmPolicy) : QString());
    settings.setValue(keyRequireToken, requireToken);
    settings.setValue(keyMaxTokenTtlMs, maxTokenTtlMs);
    settings.setValue(keyApprovalTimeoutMs, approvalTimeoutMs);
    settings.setValue(keyKeepTypedText, keepTypedText);
    settings.setValue(keyKeepFullTrees, keepFullTrees);
    settings.setValue(keyPngCompression, pngCompression);
    settings.setValue(keyCallerAllowlist, callerAllowlist);
    settings.setValue(keyCmdKey, cmdKeyName(cmdKey));
    settings.setValue(keyYieldToUser, yieldToUser);
    settings.setValue(keyYieldQuietMs, yieldQuietMs);
    settings.setValue(keyGiveBackFocus, giveBackFocus);
    settings.setValue(keyEventsLinger, eventsLingerSeconds);
    settings.setValue(keyLanguage, language);
    settings.setValue(keyRemoteHost, remoteHost);
    settings.setValue(keyRemotePort, remotePort);
    settings.setValue(keyRemoteTls, remoteTls);
    settings.setValue(keyRemoteFingerprint, remoteFingerprint);
    settings.setValue(keyRemoteConfirmPolicy, Bridge::SecuritySettings::policyName(remoteConfirmPolicy));
    settings.setValue(keyGroundingUrl, grounding.url);
    settings.setValue(keyGroundingModel, grounding.model);
    settings.setValue(keyGroundingTimeoutMs, grounding.timeoutMs);
}

bool HostSettings::save(const QString& iniPath) const
{
    const auto settings = open(iniPath);
    save(*settings);
    settings->sync();
    return settings->status() == QSettings::NoError;
}

Bridge::SecuritySettings HostSettings::securitySettings(Bridge::SecuritySettings base) const
{
    base.confirmPolicy = confirmPolicy;
    base.mcpConfirmPolicy = mcpConfirmPolicy;
    base.requireToken = requireToken;
    base.maxTokenTtlMs = maxTokenTtlMs;
    base.approvalTimeoutMs = approvalTimeoutMs;
    base.callerAllowlist = callerAllowlist;
    base.remoteConfirmPolicy = remoteConfirmPolicy;
    return base;
}

QJsonObject HostSettings::backendSettings() const
{
    return QJsonObject{{QStringLiteral("cmdKey"), cmdKeyName(cmdKey)},
                       {QStringLiteral("pngCompression"), pngCompression},
                       {QStringLiteral("yieldToUser"), yieldToUser},
                       {QStringLiteral("yieldQuietMs"), yieldQuietMs},
                       {QStringLiteral("giveBackFocus"), giveBackFocus}};
}

QList<HostSettings::Problem> HostSettings::applyTo(Bridge::Host& host) const
{
    QList<Problem> problems;
    host.applySecurity(securitySettings(host.security()));
    host.setKeepTypedText(keepTypedText);
    host.setKeepFullTrees(keepFullTrees);
    host.setEventsLingerMs(eventsLingerSeconds * 1000);
    host.configureBackend(backendSettings());
    host.setGrounding(grounding);
    QString error;
    // An empty root means $WORKSPACE_ROOT, which only a restart reads again.
    if (!workspaceRoot.isEmpty() && !host.setWorkspaceRoot(workspaceRoot, &error))
        problems.append({keyWorkspaceRoot, tr("The host refused the workspace root: %1").arg(error)});
    return problems;
}

} // namespace App
