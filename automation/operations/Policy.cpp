#include "automation/OperationSteps.h"
#include "automation/Operations.h"

#include <QJsonArray>

namespace Automation::Operations {

namespace {

bool editable(const Node& node)
{
    static const QStringList roles{QStringLiteral("AXTextField"), QStringLiteral("AXTextArea"),
                                   QStringLiteral("AXComboBox"), QStringLiteral("AXSearchField")};
    return node.has(StateEditable) || roles.contains(node.role);
}

/// The risk of pressing what `node` is: OCR's text is read as text, anything else as a control.
Risk::Assessment riskOf(const Node& node)
{
    if (node.nativeRole.startsWith(QLatin1String("ocr.")))
        return Risk::ofText(node.title);
    return Risk::ofControl(node.role, node.title, node.description);
}

} // namespace

QJsonObject PolicyLook::toJson() const
{
    QJsonObject out{{QStringLiteral("app"), app.toJson()},
                    {QStringLiteral("window"), route.windowTitle},
                    {QStringLiteral("bound"), bound},
                    {QStringLiteral("terminal"), terminal},
                    {QStringLiteral("risk"), risk.high() ? QStringLiteral("high") : QStringLiteral("normal")}};
    if (!route.windowId().isEmpty())
        out.insert(QStringLiteral("windowId"), route.windowId());
    if (element) {
        out.insert(QStringLiteral("element"), QJsonObject{{QStringLiteral("role"), element->role},
                                                          {QStringLiteral("title"), element->title},
                                                          {QStringLiteral("fingerprint"), fingerprintOf(*element)}});
        out.insert(QStringLiteral("matches"), matches);
    }
    if (risk.high()) {
        out.insert(QStringLiteral("riskKind"), Risk::kindName(risk.kind));
        out.insert(QStringLiteral("riskWhy"), riskWhy());
    }
    return out;
}

QJsonObject PolicyLook::binding() const
{
    QJsonObject out{{QStringLiteral("bound"), bound},
                    {QStringLiteral("pid"), route.pid},
                    {QStringLiteral("window"), route.windowTitle}};
    if (!route.windowId().isEmpty())
        out.insert(QStringLiteral("windowId"), route.windowId());
    if (element) {
        out.insert(QStringLiteral("role"), element->role);
        out.insert(QStringLiteral("title"), element->title);
        // The backend's own handle (an AT-SPI object path, an AX element): two dialogs' "Keep"
        // buttons differ there. Not the fingerprint: it holds the frame, and a moved window is
        // no change.
        if (!element->handle.isEmpty())
            out.insert(QStringLiteral("handle"), element->handle);
    }
    return out;
}

Result<PolicyLook> policyLook(JobContext& ctx, const PolicyLookRequest& request)
{
    TraceStep step(ctx.trace, QStringLiteral("policy.look"));
    PolicyLook out;
    const auto forceQuit = [&out] {
        out.risk.kind = Risk::Kind::ForceQuit;
        out.risk.word = QStringLiteral("force");
        out.risk.field = QStringLiteral("request");
        out.riskContext = QStringLiteral("force quit: the app is killed, and what it did not save is lost");
    };
    // An app that is not looked at through a window (desktop.app): the request names it, and
    // the token is bound to it as named.
    if (request.subjectApp) {
        out.app = *request.subjectApp;
        out.route.pid = out.app.pid;
        out.route.appName = out.app.name;
        out.bound = QStringLiteral("app");
        out.terminal = out.app.categories.contains(QStringLiteral("TerminalEmulator"));
        if (request.forceQuit)
            forceQuit();
        step.finish(true, out.toJson());
        return out;
    }
    std::optional<ResolvedRoute> resolved;
    if (request.target || request.focused) {
        TypeRequest look;
        look.route = request.route;
        look.target = request.target;
        auto seen = secureTarget(ctx, look);
        if (seen) {
            // (A secret element known from the cache is answered before the route is resolved.)
            if (seen->route.pid != 0)
                resolved = seen->route;
            out.secure = seen->secure;
            out.element = seen->element;
            if (out.element && seen->frame)
                out.element->frame = *seen->frame;
            out.matches = seen->matches;
        } else if (seen.error().code == ErrorCode::Aborted || seen.error().code == ErrorCode::Timeout) {
            step.finish(false, seen.error().toJson());
            return seen.error();
        }
    }
    if (!resolved) {
        auto route = resolveRouteOnDisplay(ctx.backend, request.route, ctx.call);
        if (!route) {
            step.finish(false, route.error().toJson());
            // A method that needs no window (the clipboard): the rules decide about no app.
            const bool stopped = route.error().code == ErrorCode::Aborted || route.error().code == ErrorCode::Timeout;
            if (request.appOptional && !stopped) {
                out.bound = QStringLiteral("none");
                return out;
            }
            return route.error();
        }
        resolved = route.value();
    }
    out.route = *resolved;
    out.bound = out.element ? QStringLiteral("element") : QStringLiteral("window");
    out.app = identify(out.route);
    out.terminal = out.app.categories.contains(QStringLiteral("TerminalEmulator")) ||
                   (out.element && out.element->nativeRole == QLatin1String("terminal"));

    if (!request.menuPath.isEmpty()) {
        out.risk = Risk::ofText(request.menuPath.last());
        if (out.risk.high())
            out.risk.field = QStringLiteral("menu item");
    } else if (out.element && !request.focused) {
        out.risk = riskOf(*out.element);
    }
    // Enter in an editable field sends what the window's send-class control would.
    if (!out.risk.high() && request.pressesEnter && out.element && editable(*out.element) && !out.route.inaccessible) {
        SnapshotBounds bounds = searchBounds(ctx.call, false);
        bounds.searchOnly = true;
        if (auto snapshot = ctx.backend.snapshot(out.route, bounds, ctx.call)) {
            for (const Node& node : snapshot->nodes) {
                const Risk::Assessment control = Risk::ofControl(node.role, node.title, node.description);
                if (control.kind == Risk::Kind::Send || control.kind == Risk::Kind::Submit ||
                    control.kind == Risk::Kind::Publish) {
                    out.risk = control;
                    out.riskContext = QStringLiteral("%1: Enter in a field of a window whose \"%2\" sends it")
                                          .arg(Risk::kindName(control.kind), node.title);
                    break;
                }
            }
        }
    }
    if (request.forceQuit)
        forceQuit();
    if (request.replacesFile) {
        out.risk.kind = Risk::Kind::Overwrite;
        out.risk.word = QStringLiteral("replace");
        out.risk.field = QStringLiteral("request");
        out.riskContext = QStringLiteral("overwrite: the file dialog replaces an existing file");
    }
    step.finish(true, out.toJson());
    return out;
}

} // namespace Automation::Operations
