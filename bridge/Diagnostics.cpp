#include "bridge/Diagnostics.h"

#include "bridge/EventHub.h"
#include "bridge/LaunchAgent.h"
#include "bridge/PermissionMonitor.h"

#include <QDir>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSysInfo>

#include <unistd.h>

namespace Bridge {

namespace {

QJsonObject permissionJson(const Automation::PermissionStatus& status, const char* purpose)
{
    return QJsonObject{{QStringLiteral("granted"), status.state == Automation::PermissionState::Granted},
                       {QStringLiteral("required"), true},
                       {QStringLiteral("purpose"), QString::fromLatin1(purpose)},
                       {QStringLiteral("state"), Automation::permissionStateName(status.state)},
                       {QStringLiteral("message"), status.message}};
}

QJsonObject check(const QString& name, const QString& status, const QString& message, const QJsonValue& details = {})
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("status"), status},
                       {QStringLiteral("message"), message},
                       {QStringLiteral("details"), details}};
}

QString statusFor(Automation::PermissionState state)
{
    switch (state) {
    case Automation::PermissionState::Granted:
        return QStringLiteral("ok");
    case Automation::PermissionState::Denied:
        return QStringLiteral("error");
    case Automation::PermissionState::Unknown:
        return QStringLiteral("warning");
    }
    return QStringLiteral("warning");
}

} // namespace

Diagnostics::Diagnostics(Executor& executor, PermissionMonitor& permissions, const ConfirmationGate& gate,
                         const WorkspacePolicy& workspace, HostFacts& facts)
    : m_executor(executor), m_permissions(permissions), m_gate(gate), m_workspace(workspace), m_facts(facts)
{
}

QJsonObject Diagnostics::envJson(const Caller& caller) const
{
    const auto permissions = m_permissions.current();
    return QJsonObject{
        {QStringLiteral("host"), QJsonObject{{QStringLiteral("version"), QStringLiteral(MDH_VERSION)},
                                             {QStringLiteral("pid"), static_cast<qint64>(::getpid())},
                                             {QStringLiteral("socketPath"), m_facts.socketPath}}},
        {QStringLiteral("os"), QJsonObject{{QStringLiteral("platform"), permissions.platform},
                                           {QStringLiteral("name"), QSysInfo::prettyProductName()},
                                           {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
                                           {QStringLiteral("displayServer"), permissions.displayServer},
                                           {QStringLiteral("display"), qEnvironmentVariable("DISPLAY")}}},
        {QStringLiteral("screen"), permissions.screenCapture.details},
        {QStringLiteral("permissions"),
         QJsonObject{
             {QStringLiteral("accessibility"), Automation::permissionStateName(permissions.accessibility.state)},
             {QStringLiteral("screenRecording"), Automation::permissionStateName(permissions.screenCapture.state)}}},
        {QStringLiteral("backend"), m_executor.backendInfo().name},
        {QStringLiteral("peer"), caller.peer.toDetailedJson()},
    };
}

QJsonObject Diagnostics::health(const Caller& caller) const
{
    const auto permissions = m_permissions.current();
    // The person at the desktop, as the backend's input watch saw them by the end of the last
    // execution (docs/protocol.md §5.24): active when they used the keyboard or mouse in the
    // last 30 s.
    QJsonObject userInput = m_executor.backendInfo().details.value(QStringLiteral("userInput")).toObject();
    if (!userInput.isEmpty()) {
        const QDateTime last =
            QDateTime::fromString(userInput.value(QStringLiteral("lastForeignAt")).toString(), Qt::ISODateWithMs);
        userInput.insert(QStringLiteral("active"),
                         last.isValid() && last.msecsTo(QDateTime::currentDateTimeUtc()) < 30000);
    }
    return QJsonObject{
        {QStringLiteral("userInput"), userInput.isEmpty() ? QJsonValue() : QJsonValue(userInput)},
        // macOS: another app has Secure Event Input on, so the person's keys cannot be seen (the
        // yielding watch is blind to them). Null where the platform has no such thing.
        {QStringLiteral("secureEventInput"),
         m_executor.backendInfo().details.value(QStringLiteral("secureEventInput"))},
        {QStringLiteral("hostVersion"), QStringLiteral(MDH_VERSION)},
        // docs/protocol.md §5.1 names the macOS version; elsewhere it is null and `os` says what runs.
        {QStringLiteral("macos"),
         permissions.platform == QLatin1String("macos") ? QJsonValue(QSysInfo::productVersion()) : QJsonValue()},
        {QStringLiteral("os"), QJsonObject{{QStringLiteral("platform"), permissions.platform},
                                           {QStringLiteral("name"), QSysInfo::prettyProductName()},
                                           {QStringLiteral("version"), QSysInfo::productVersion()},
                                           {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
                                           {QStringLiteral("displayServer"), permissions.displayServer}}},
        {QStringLiteral("permissions"),
         QJsonObject{
             {QStringLiteral("accessibility"), Automation::permissionStateName(permissions.accessibility.state)},
             {QStringLiteral("screenRecording"), Automation::permissionStateName(permissions.screenCapture.state)}}},
        {QStringLiteral("bridge"),
         QJsonObject{{QStringLiteral("schemaVersion"), Meta::kSchemaVersion},
                     {QStringLiteral("running"), m_executor.isBusy()},
                     {QStringLiteral("runningExecutionId"), m_executor.runningExecutionId()},
                     {QStringLiteral("runningMethod"), m_executor.runningMethod()},
                     {QStringLiteral("queued"), m_executor.queuedCount()},
                     {QStringLiteral("paused"), m_gate.isPaused()},
                     {QStringLiteral("confirmPolicy"), m_gate.providerFor(caller)->policyName()},
                     {QStringLiteral("requireToken"), m_gate.settings().requireToken}}},
        {QStringLiteral("peer"), caller.peer.toJson()},
        {QStringLiteral("remote"),
         m_facts.remote ? m_facts.remote->status() : QJsonObject{{QStringLiteral("state"), QStringLiteral("off")}}},
        // The event stream (docs/protocol.md §5.24): its cursor, and whether what subscriptions
        // asked for is watched (until when, when only ones whose connection went away remain).
        {QStringLiteral("events"), m_facts.events ? QJsonObject{{QStringLiteral("cursor"), m_facts.events->cursor()},
                                                                {QStringLiteral("epoch"), m_facts.events->epoch()},
                                                                {QStringLiteral("watch"), m_facts.events->watchState()}}
                                                  : QJsonValue()},
    };
}

QJsonObject Diagnostics::doctor(const Caller& caller, const std::optional<QString>& workspacePath) const
{
    const auto permissions = m_permissions.current();
    QJsonArray checks;
    checks.append(check(QStringLiteral("accessibility"), statusFor(permissions.accessibility.state),
                        permissions.accessibility.message, permissions.accessibility.details));
    checks.append(check(QStringLiteral("screen_capture"), statusFor(permissions.screenCapture.state),
                        permissions.screenCapture.message, permissions.screenCapture.details));
    if (!m_workspace.isConfigured()) {
        checks.append(check(QStringLiteral("workspace_root"), QStringLiteral("error"),
                            m_workspace.configurationProblem(),
                            QJsonObject{{QStringLiteral("given"), m_workspace.rootAsGiven()}}));
    } else {
        checks.append(check(QStringLiteral("workspace_root"), QStringLiteral("ok"),
                            QStringLiteral("evidence may be written below %1").arg(m_workspace.rootRealPath()),
                            QJsonObject{{QStringLiteral("root"), m_workspace.rootRealPath()}}));
        if (workspacePath) {
            const auto verdict = m_workspace.check(*workspacePath);
            checks.append(verdict ? check(QStringLiteral("workspace"), QStringLiteral("ok"),
                                          QStringLiteral("%1 is inside the workspace root").arg(*workspacePath),
                                          QJsonObject{{QStringLiteral("resolvedPath"), verdict.value()}})
                                  : check(QStringLiteral("workspace"), QStringLiteral("error"), verdict.error().message,
                                          verdict.error().details));
        }
    }
    const bool socketPrivate = m_facts.socketMode == QLatin1String("0600");
    checks.append(
        check(QStringLiteral("socket"), socketPrivate ? QStringLiteral("ok") : QStringLiteral("warning"),
              socketPrivate ? QStringLiteral("serving on %1 (owner only)").arg(m_facts.socketPath)
                            : QStringLiteral("serving on %1 with mode %2: other users may reach the socket "
                                             "(the peer uid check still refuses them)")
                                  .arg(m_facts.socketPath, m_facts.socketMode),
              QJsonObject{{QStringLiteral("path"), m_facts.socketPath}, {QStringLiteral("mode"), m_facts.socketMode}}));
    const auto backend = m_executor.backendInfo();
    checks.append(
        check(QStringLiteral("backend"), backend.available ? QStringLiteral("ok") : QStringLiteral("error"),
              backend.message.isEmpty() ? backend.name : backend.message,
              QJsonObject{{QStringLiteral("name"), backend.name}, {QStringLiteral("details"), backend.details}}));
    // Windows of apps the accessibility registry does not list: they cannot be automated.
    const QJsonArray invisible = backend.details.value(QStringLiteral("invisibleApps")).toArray();
    QStringList invisibleNames;
    for (const auto& app : invisible)
        invisibleNames.append(QStringLiteral("%1 (pid %2)")
                                  .arg(app.toObject().value(QStringLiteral("executable")).toString())
                                  .arg(app.toObject().value(QStringLiteral("pid")).toInteger()));
    checks.append(check(
        QStringLiteral("accessible_apps"), invisible.isEmpty() ? QStringLiteral("ok") : QStringLiteral("warning"),
        invisible.isEmpty()
            ? QStringLiteral("every app with a window is listed by the accessibility registry")
            : QStringLiteral("%1 have windows but are not listed by the accessibility registry, so they cannot be "
                             "automated: they started before the accessibility bus or registry was restarted, or "
                             "with accessibility turned off. Restart them.")
                  .arg(invisibleNames.join(QStringLiteral(", "))),
        QJsonObject{{QStringLiteral("invisibleApps"), invisible}}));
    // Chromium and what embeds it decide at start whether to show themselves at all (the
    // session's accessibility, or --force-renderer-accessibility); their pages the host asks for
    // itself, once per browser (docs/architecture.md, "Browsers").
    static const QRegularExpression chromiumFamily(QStringLiteral("chrom|electron|brave|vivaldi|msedge|opera"),
                                                   QRegularExpression::CaseInsensitiveOption);
    QStringList hiddenBrowsers;
    for (const auto& app : invisible) {
        const QString executable = app.toObject().value(QStringLiteral("executable")).toString();
        if (chromiumFamily.match(executable).hasMatch())
            hiddenBrowsers.append(QStringLiteral("%1 (pid %2)")
                                      .arg(executable)
                                      .arg(app.toObject().value(QStringLiteral("pid")).toInteger()));
    }
    checks.append(check(
        QStringLiteral("browsers"), hiddenBrowsers.isEmpty() ? QStringLiteral("ok") : QStringLiteral("warning"),
        hiddenBrowsers.isEmpty()
            ? QStringLiteral("Chromium-based browsers on the accessibility bus show their pages: the host asks each "
                             "one for them once")
            : QStringLiteral("%1 started while the session's accessibility was off, so they show nothing, not even "
                             "their pages. Restart them with --force-renderer-accessibility (that browser only), or "
                             "after turning accessibility on for the session (the accessibility check).")
                  .arg(hiddenBrowsers.join(QStringLiteral(", "))),
        QJsonObject{{QStringLiteral("hidden"), QJsonArray::fromStringList(hiddenBrowsers)},
                    {QStringLiteral("flag"), QStringLiteral("--force-renderer-accessibility")}}));
    if (permissions.platform == QLatin1String("macos")) {
        // Another LaunchAgent publishing the bridge's mach service (msgcode's old bridge) owns
        // the name: clients reach it, not this host, while the listener still finds the name
        // registered (docs/macos.md, "The LaunchAgent").
        const QList<LaunchAgent::ForeignOwner> owners = LaunchAgent::foreignOwners(
            {QDir::homePath() + QStringLiteral("/Library/LaunchAgents"), QStringLiteral("/Library/LaunchAgents")});
        QJsonArray found;
        QStringList commands;
        for (const auto& owner : owners) {
            found.append(QJsonObject{{QStringLiteral("label"), owner.label}, {QStringLiteral("path"), owner.path}});
            commands.append(LaunchAgent::removalCommands(owner));
        }
        checks.append(check(
            QStringLiteral("mach_service"), owners.isEmpty() ? QStringLiteral("ok") : QStringLiteral("error"),
            owners.isEmpty()
                ? QStringLiteral("No other LaunchAgent publishes %1").arg(QLatin1String(LaunchAgent::kMachService))
                : QStringLiteral("Another LaunchAgent publishes %1, so XPC clients reach it and not this host. Remove "
                                 "it: %2")
                      .arg(QLatin1String(LaunchAgent::kMachService), commands.join(QStringLiteral("; "))),
            QJsonObject{{QStringLiteral("foreignOwners"), found},
                        {QStringLiteral("commands"), QJsonArray::fromStringList(commands)}}));
    }
    checks.append(check(QStringLiteral("executor"), QStringLiteral("ok"),
                        m_executor.isBusy()
                            ? QStringLiteral("running one execution, %1 queued").arg(m_executor.queuedCount())
                            : QStringLiteral("idle"),
                        QJsonObject{{QStringLiteral("running"), m_executor.runningExecutionId()},
                                    {QStringLiteral("queued"), m_executor.queuedCount()}}));

    const QString policy = m_gate.providerFor(caller)->policyName();
    checks.append(
        check(QStringLiteral("confirmation"),
              policy == QLatin1String("auto") ? QStringLiteral("warning") : QStringLiteral("ok"),
              policy == QLatin1String("auto")
                  ? QStringLiteral("confirm policy auto: every token request is approved without a person")
                  : QStringLiteral("confirm policy %1%2")
                        .arg(policy, m_gate.settings().requireToken ? QStringLiteral(", tokens required") : QString()),
              QJsonObject{{QStringLiteral("policy"), policy},
                          {QStringLiteral("requireToken"), m_gate.settings().requireToken},
                          {QStringLiteral("maxTokenTtlMs"), m_gate.settings().maxTokenTtlMs},
                          {QStringLiteral("approvalTimeoutMs"), m_gate.settings().approvalTimeoutMs}}));
    checks.append(check(QStringLiteral("paused"), m_gate.isPaused() ? QStringLiteral("warning") : QStringLiteral("ok"),
                        m_gate.isPaused()
                            ? QStringLiteral("stopped by desktop.stop: side effects are paused until resumed "
                                             "(msgcode-desktopctl resume)")
                            : QStringLiteral("not paused"),
                        QJsonObject{{QStringLiteral("paused"), m_gate.isPaused()}}));

    QJsonArray issues;
    int passed = 0, warnings = 0, errors = 0;
    for (const auto& value : checks) {
        const QJsonObject c = value.toObject();
        const QString status = c.value(QStringLiteral("status")).toString();
        if (status == QLatin1String("ok")) {
            ++passed;
            continue;
        }
        (status == QLatin1String("error") ? errors : warnings)++;
        issues.append(c.value(QStringLiteral("message")));
    }
    return QJsonObject{
        {QStringLiteral("permissions"),
         QJsonObject{
             {QStringLiteral("accessibility"), permissionJson(permissions.accessibility, "AX observe/find/action")},
             {QStringLiteral("screenRecording"), permissionJson(permissions.screenCapture, "Screenshot capture")}}},
        {QStringLiteral("issues"), issues},
        {QStringLiteral("healthy"), errors == 0},
        {QStringLiteral("peer"), caller.peer.toJson()},
        {QStringLiteral("checks"), checks},
        {QStringLiteral("summary"), QJsonObject{{QStringLiteral("total"), static_cast<int>(checks.size())},
                                                {QStringLiteral("passed"), passed},
                                                {QStringLiteral("warnings"), warnings},
                                                {QStringLiteral("errors"), errors}}},
        {QStringLiteral("hostVersion"), QStringLiteral(MDH_VERSION)},
        {QStringLiteral("timestamp"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
    };
}

} // namespace Bridge
