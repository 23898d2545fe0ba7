#include "bridge/protocol/Client.h"
#include "bridge/protocol/JsonRpc.h"
#include "bridge/protocol/Meta.h"
#include "bridge/protocol/SocketPath.h"
#include "cli/EvidenceCommands.h"
#include "cli/LegacyCommands.h"
#include "cli/SelfTest.h"
#include "common/ManPage.h"
#include "translations/Translations.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalSocket>

#include <cstdio>

namespace {

// Exit codes (documented in the README and in --help).
enum ExitCode {
    ExitOk = 0,
    ExitHostError = 1,  ///< the host answered with a contract error
    ExitUsage = 2,      ///< bad command line
    ExitNotRunning = 3, ///< DESKTOP_HOST_NOT_RUNNING
    ExitProtocol = 4,   ///< no answer in time, or an answer that is not JSON-RPC
    ExitUnhealthy = 5,  ///< doctor: the host answered, and is not healthy
};

class Ctl
{
    Q_DECLARE_TR_FUNCTIONS(Ctl)

public:
    QString socketPath;
    bool json = false;
    int timeoutMs = 60000;
    std::optional<QString> workspace;
    /// remote connect's params: host, port, tls, fingerprint, bindCode.
    QJsonObject remoteParams;

    int run(const QStringList& args);

private:
    int remote(const QString& action);
    int events();
    std::optional<QJsonObject> remoteCall(const QString& method, const QJsonObject& params, int* code);
    int health();
    int doctor();
    int call(const QString& method, const QJsonObject& params);
    int stop();
    int resume();
    int policy(const QStringList& args);

    /// Sends one request and waits for its answer; nullopt after printing why it failed.
    std::optional<QJsonObject> request(const QString& method, QJsonObject params, bool sendWorkspace, int* exitCode);
    int reportError(const QJsonObject& response);
    /// Calls `method`; with --json prints the raw answer, on an error reports it; returns the
    /// result to print in human form, or nullopt with `code` set when there is nothing more to do.
    std::optional<QJsonObject> humanResult(const QString& method, bool sendWorkspace, int* code);
    void out(const QString& text) const { std::fprintf(stdout, "%s\n", qPrintable(text)); }
    void err(const QString& text) const { std::fprintf(stderr, "%s\n", qPrintable(text)); }
};

QString pretty(const QJsonValue& value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented)).trimmed();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented)).trimmed();
    return value.toVariant().toString();
}

std::optional<QJsonObject> Ctl::request(const QString& method, QJsonObject params, bool sendWorkspace, int* exitCode)
{
    Bridge::MetaFill fill;
    fill.timeoutMs = timeoutMs;
    if (sendWorkspace)
        fill.workspacePath = workspace ? *workspace : QDir::currentPath();
    params = Bridge::fillMeta(params, fill);
    const QString id = Bridge::newRequestId();

    Bridge::Client client;
    if (!client.connectToServer(socketPath, 3000)) {
        const Automation::Error error = Automation::Error::make(
            Automation::ErrorCode::HostNotRunning,
            tr("no msgcode-desktop-host is serving %1 (%2); start it with: msgcode-desktop-host --headless")
                .arg(socketPath, client.errorString()),
            QJsonObject{{QStringLiteral("socketPath"), socketPath}});
        if (json)
            out(QString::fromUtf8(Bridge::JsonRpc::encodeLine(Bridge::JsonRpc::errorResponse(id, error))).trimmed());
        err(tr("error: %1: %2").arg(Automation::errorCodeName(error.code), error.message));
        *exitCode = ExitNotRunning;
        return std::nullopt;
    }
    // The host's own deadline, and 5 s for the answer to travel.
    const int waitMs =
        params.value(QStringLiteral("meta")).toObject().value(QStringLiteral("timeoutMs")).toInt(timeoutMs) + 5000;
    const Bridge::Client::Reply reply = client.callRequest(Bridge::JsonRpc::request(method, params, id), waitMs);
    if (reply.ok())
        return reply.response;
    using TransportError = Bridge::Client::TransportError;
    if (reply.error == TransportError::Malformed || reply.error == TransportError::LineTooLong) {
        err(tr("error: the host sent something that is not a JSON-RPC answer"));
        *exitCode = ExitProtocol;
        return std::nullopt;
    }
    if (reply.error == TransportError::Closed) {
        // A host that refuses the connection (caller policy, too many connections) sends one
        // error with id null, since it read no request, and closes: that error is the answer.
        for (const auto& line : client.unmatched()) {
            const auto decoded = Bridge::JsonRpc::decode(line.bytes);
            const QJsonObject response = decoded ? decoded->toObject() : QJsonObject();
            if (response.value(QStringLiteral("id")).isNull() && response.contains(QStringLiteral("error")))
                return response;
        }
    }
    err(reply.error == TransportError::Timeout ? tr("error: no answer from the host in time")
                                               : tr("error: the host closed the connection without answering"));
    *exitCode = ExitProtocol;
    return std::nullopt;
}

int Ctl::reportError(const QJsonObject& response)
{
    const QJsonObject error = response.value(QStringLiteral("error")).toObject();
    err(tr("error: %1: %2")
            .arg(error.value(QStringLiteral("code")).toString(), error.value(QStringLiteral("message")).toString()));
    const QJsonObject details = error.value(QStringLiteral("details")).toObject();
    if (!details.isEmpty())
        err(tr("details: %1").arg(QString::fromUtf8(QJsonDocument(details).toJson(QJsonDocument::Compact))));
    if (error.value(QStringLiteral("retryable")).toBool())
        err(tr("(retryable)"));
    return ExitHostError;
}

std::optional<QJsonObject> Ctl::humanResult(const QString& method, bool sendWorkspace, int* code)
{
    const auto response = request(method, {}, sendWorkspace, code);
    if (!response)
        return std::nullopt;
    if (json)
        out(QString::fromUtf8(QJsonDocument(*response).toJson(QJsonDocument::Compact)));
    if (response->contains(QStringLiteral("error"))) {
        *code = json ? ExitHostError : reportError(*response);
        return std::nullopt;
    }
    *code = ExitOk;
    if (json)
        return std::nullopt; // printed raw: nothing left to show
    return response->value(QStringLiteral("result")).toObject();
}

int Ctl::health()
{
    int code = ExitOk;
    const auto result = humanResult(QStringLiteral("desktop.health"), workspace.has_value(), &code);
    if (!result)
        return code;
    const QJsonObject& r = *result;
    const QJsonObject os = r.value(QStringLiteral("os")).toObject();
    const QJsonObject permissions = r.value(QStringLiteral("permissions")).toObject();
    const QJsonObject bridge = r.value(QStringLiteral("bridge")).toObject();
    const QJsonObject peer = r.value(QStringLiteral("peer")).toObject();
    out(tr("msgcode-desktop-host %1 on %2 (%3)")
            .arg(r.value(QStringLiteral("hostVersion")).toString(), os.value(QStringLiteral("name")).toString(),
                 os.value(QStringLiteral("displayServer")).toString()));
    out(tr("  accessibility:    %1").arg(permissions.value(QStringLiteral("accessibility")).toString()));
    out(tr("  screen recording: %1").arg(permissions.value(QStringLiteral("screenRecording")).toString()));
    out(tr("  bridge:           schema %1, %2, %3 queued")
            .arg(bridge.value(QStringLiteral("schemaVersion")).toInt())
            .arg(bridge.value(QStringLiteral("running")).toBool() ? tr("busy") : tr("idle"))
            .arg(bridge.value(QStringLiteral("queued")).toInt()));
    out(tr("  confirmation:     policy %1%2")
            .arg(bridge.value(QStringLiteral("confirmPolicy")).toString(),
                 bridge.value(QStringLiteral("paused")).toBool() ? tr(", PAUSED (msgcode-desktopctl resume)")
                                                                 : QString()));
    out(tr("  socket:           %1").arg(socketPath));
    out(tr("  caller:           pid %1, digest %2")
            .arg(peer.value(QStringLiteral("pid")).toInteger())
            .arg(peer.value(QStringLiteral("auditTokenDigest")).toString()));
    return ExitOk;
}

int Ctl::doctor()
{
    int code = ExitOk;
    const auto response = request(QStringLiteral("desktop.doctor"), {}, workspace.has_value(), &code);
    if (!response)
        return code;
    if (json)
        out(QString::fromUtf8(QJsonDocument(*response).toJson(QJsonDocument::Compact)));
    if (response->contains(QStringLiteral("error")))
        return json ? ExitHostError : reportError(*response);
    const QJsonObject r = response->value(QStringLiteral("result")).toObject();
    const bool healthy = r.value(QStringLiteral("healthy")).toBool();
    if (!json) {
        out(healthy ? tr("Healthy: yes") : tr("Healthy: no"));
        for (const auto& value : r.value(QStringLiteral("checks")).toArray()) {
            const QJsonObject c = value.toObject();
            const QString status = c.value(QStringLiteral("status")).toString();
            const QString mark = status == QLatin1String("ok")        ? tr("[ok]     ")
                                 : status == QLatin1String("warning") ? tr("[warning]")
                                                                      : tr("[error]  ");
            out(QStringLiteral("  %1 %2  %3")
                    .arg(mark, c.value(QStringLiteral("name")).toString().leftJustified(15),
                         c.value(QStringLiteral("message")).toString()));
        }
        const QJsonObject summary = r.value(QStringLiteral("summary")).toObject();
        out(tr("%1 checks: %2 ok, %3 warnings, %4 errors")
                .arg(summary.value(QStringLiteral("total")).toInt())
                .arg(summary.value(QStringLiteral("passed")).toInt())
                .arg(summary.value(QStringLiteral("warnings")).toInt())
                .arg(summary.value(QStringLiteral("errors")).toInt()));
    }
    return healthy ? ExitOk : ExitUnhealthy;
}

int Ctl::call(const QString& method, const QJsonObject& params)
{
    int code = ExitOk;
    const auto response = request(method, params, true, &code);
    if (!response)
        return code;
    if (json) {
        out(QString::fromUtf8(QJsonDocument(*response).toJson(QJsonDocument::Compact)));
        return response->contains(QStringLiteral("error")) ? ExitHostError : ExitOk;
    }
    if (response->contains(QStringLiteral("error")))
        return reportError(*response);
    out(pretty(response->value(QStringLiteral("result"))));
    return ExitOk;
}

int Ctl::stop()
{
    int code = ExitOk;
    const auto r = humanResult(QStringLiteral("desktop.stop"), false, &code);
    if (!r)
        return code;
    out(tr("stopped: %n execution(s) aborted", nullptr, r->value(QStringLiteral("aborted")).toInt()));
    out(tr("side effects are paused until a person resumes the host (msgcode-desktopctl resume, or the tray)"));
    return ExitOk;
}

int Ctl::resume()
{
    int code = ExitOk;
    const auto r = humanResult(QStringLiteral("desktop.resume"), false, &code);
    if (!r)
        return code;
    out(r->value(QStringLiteral("resumed")).toBool() ? tr("resumed: side effects are allowed again")
                                                     : tr("the host was not paused"));
    return ExitOk;
}

int Ctl::policy(const QStringList& args)
{
    const QString action = args.value(1);
    QJsonObject params{{QStringLiteral("action"), action}};
    const auto jsonArg = [&](const QString& name) -> std::optional<QJsonObject> {
        QByteArray text = args.value(2).toUtf8();
        if (args.value(2).startsWith(QLatin1Char('@'))) {
            QFile file(args.value(2).mid(1));
            if (!file.open(QIODevice::ReadOnly)) {
                err(tr("error: cannot read %1: %2").arg(file.fileName(), file.errorString()));
                return std::nullopt;
            }
            text = file.readAll();
        }
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (!doc.isObject()) {
            err(tr("error: %1 must be a JSON object (%2)").arg(name, parseError.errorString()));
            return std::nullopt;
        }
        return doc.object();
    };
    bool usable = true;
    if (action == QLatin1String("list") || action == QLatin1String("trust")) {
        usable = args.size() == 2;
    } else if (action == QLatin1String("set") && (args.size() == 3 || args.size() == 4)) {
        const auto rule = jsonArg(QStringLiteral("RULE"));
        if (!rule)
            return ExitUsage;
        params.insert(QStringLiteral("rule"), *rule);
        if (args.size() == 4) {
            bool ok = false;
            const int position = args.at(3).toInt(&ok);
            if (!ok || position < 0) {
                err(tr("error: POSITION is a whole number from 0"));
                return ExitUsage;
            }
            params.insert(QStringLiteral("position"), position);
        }
    } else if (action == QLatin1String("remove") && args.size() == 3) {
        params.insert(QStringLiteral("name"), args.at(2));
    } else if (action == QLatin1String("revoke") && args.size() == 3) {
        params.insert(QStringLiteral("grant"), args.at(2));
    } else if (action == QLatin1String("test") && args.size() == 3) {
        const auto subject = jsonArg(QStringLiteral("SUBJECT"));
        if (!subject)
            return ExitUsage;
        params.insert(QStringLiteral("subject"), *subject);
    } else if (action == QLatin1String("unattended") && args.size() == 3 &&
               (args.at(2) == QLatin1String("on") || args.at(2) == QLatin1String("off"))) {
        params.insert(QStringLiteral("on"), args.at(2) == QLatin1String("on"));
    } else {
        usable = false;
    }
    if (!usable) {
        err(tr("usage: msgcode-desktopctl policy list | set RULE_JSON [POSITION] | remove NAME | test SUBJECT_JSON | "
               "revoke GRANT | unattended on|off | trust"));
        return ExitUsage;
    }
    int code = ExitOk;
    const auto r = remoteCall(QStringLiteral("desktop.policy"), params, &code);
    if (!r)
        return code;
    if (action == QLatin1String("test")) {
        const QJsonObject verdict = r->value(QStringLiteral("verdict")).toObject();
        out(tr("%1, by the rule %2")
                .arg(verdict.value(QStringLiteral("decision")).toString(),
                     verdict.value(QStringLiteral("rule")).toString()));
        if (const QString why = verdict.value(QStringLiteral("why")).toString(); !why.isEmpty())
            out(tr("why: %1").arg(why));
        return ExitOk;
    }
    if (action != QLatin1String("list"))
        out(r->value(QStringLiteral("changed")).toBool() ? tr("changed") : tr("nothing to change"));
    out(r->value(QStringLiteral("unattended")).toBool() ? tr("mode: unattended (every ask is refused)")
                                                        : tr("mode: attended"));
    const QJsonObject file = r->value(QStringLiteral("file")).toObject();
    if (const QString path = file.value(QStringLiteral("path")).toString(); !path.isEmpty())
        out(file.value(QStringLiteral("trusted")).toBool()
                ? tr("file: %1").arg(path)
                : tr("file: %1, changed outside the host: only its tightening changes apply until a person trusts "
                     "it (Settings, or msgcode-desktopctl policy trust)")
                      .arg(path));
    out(tr("rules, in the order they are asked:"));
    for (const QJsonValue& value : r->value(QStringLiteral("rules")).toArray()) {
        const QJsonObject rule = value.toObject();
        QStringList where;
        if (rule.contains(QStringLiteral("app")))
            where.append(QString::fromUtf8(
                QJsonDocument(rule.value(QStringLiteral("app")).toObject()).toJson(QJsonDocument::Compact)));
        if (rule.contains(QStringLiteral("sentinel")))
            where.append(rule.value(QStringLiteral("sentinel")).toString());
        if (rule.contains(QStringLiteral("window")))
            where.append(tr("window \"%1\"").arg(rule.value(QStringLiteral("window")).toString()));
        if (rule.contains(QStringLiteral("classes")))
            where.append(rule.value(QStringLiteral("classes")).toVariant().toStringList().join(QLatin1Char(',')));
        if (rule.value(QStringLiteral("risk")).toString() == QLatin1String("high"))
            where.append(tr("high-risk"));
        out(QStringLiteral("  %1  %2  %3")
                .arg(rule.value(QStringLiteral("decision")).toString(), -5)
                .arg(rule.value(QStringLiteral("name")).toString(),
                     where.isEmpty() ? tr("every action") : where.join(QStringLiteral("; "))));
    }
    const QJsonArray grants = r->value(QStringLiteral("grants")).toArray();
    if (!grants.isEmpty())
        out(tr("grants:"));
    for (const QJsonValue& value : grants) {
        const QJsonObject grant = value.toObject();
        out(QStringLiteral("  %1  %2 in %3 until %4")
                .arg(grant.value(QStringLiteral("id")).toString(), grant.value(QStringLiteral("class")).toString(),
                     QString::fromUtf8(
                         QJsonDocument(grant.value(QStringLiteral("app")).toObject()).toJson(QJsonDocument::Compact)),
                     grant.value(QStringLiteral("until")).toString()));
    }
    return ExitOk;
}

std::optional<QJsonObject> Ctl::remoteCall(const QString& method, const QJsonObject& params, int* code)
{
    const auto response = request(method, params, false, code);
    if (!response)
        return std::nullopt;
    if (json) {
        out(QString::fromUtf8(QJsonDocument(*response).toJson(QJsonDocument::Compact)));
        *code = response->contains(QStringLiteral("error")) ? ExitHostError : ExitOk;
        return std::nullopt;
    }
    if (response->contains(QStringLiteral("error"))) {
        *code = reportError(*response);
        return std::nullopt;
    }
    return response->value(QStringLiteral("result")).toObject();
}

int Ctl::remote(const QString& action)
{
    int code = ExitOk;
    std::optional<QJsonObject> r;
    if (action == QLatin1String("connect")) {
        if (!remoteParams.contains(QStringLiteral("host")) || !remoteParams.contains(QStringLiteral("port"))) {
            err(tr("usage: msgcode-desktopctl remote connect --host H --port P [--tls] [--fingerprint SHA256] "
                   "[--bind-code C]"));
            return ExitUsage;
        }
        r = remoteCall(QStringLiteral("desktop.remote.connect"), remoteParams, &code);
    } else if (action == QLatin1String("status")) {
        r = remoteCall(QStringLiteral("desktop.remote.status"), {}, &code);
    } else if (action == QLatin1String("disconnect")) {
        r = remoteCall(QStringLiteral("desktop.remote.disconnect"), {}, &code);
    } else if (action == QLatin1String("forget")) {
        r = remoteCall(QStringLiteral("desktop.remote.forget"), {}, &code);
        if (r) {
            out(r->value(QStringLiteral("forgotten")).toBool()
                    ? tr("the device token was removed from the keyring; the next connection needs a bind code")
                    : tr("no device token was stored"));
            return ExitOk;
        }
        return code;
    } else {
        err(tr("usage: msgcode-desktopctl remote connect|status|disconnect|forget"));
        return ExitUsage;
    }
    if (!r)
        return code;
    const QString state = r->value(QStringLiteral("state")).toString();
    out(r->contains(QStringLiteral("server"))
            ? tr("remote: %1 (%2)").arg(state, r->value(QStringLiteral("server")).toString())
            : tr("remote: %1").arg(state));
    if (const QString error = r->value(QStringLiteral("lastError")).toString(); !error.isEmpty())
        out(tr("last error: %1").arg(error));
    if (r->contains(QStringLiteral("deviceId")))
        out(tr("device: %1").arg(r->value(QStringLiteral("deviceId")).toString()));
    if (r->contains(QStringLiteral("confirmPolicy")))
        out(tr("confirmations: %1").arg(r->value(QStringLiteral("confirmPolicy")).toString()));
    return ExitOk;
}

int Ctl::events()
{
    // A connection of its own that stays open: the answer, then desktop.event lines until the
    // host goes away (or the command is interrupted).
    QLocalSocket socket;
    socket.connectToServer(socketPath);
    if (!socket.waitForConnected(3000)) {
        err(tr("error: %1: no msgcode-desktop-host is serving %2 (%3)")
                .arg(QStringLiteral("DESKTOP_HOST_NOT_RUNNING"), socketPath, socket.errorString()));
        return ExitNotRunning;
    }
    Bridge::MetaFill fill;
    fill.timeoutMs = timeoutMs;
    QJsonObject params = Bridge::fillMeta(remoteParams, fill);
    socket.write(Bridge::JsonRpc::encodeLine(
        Bridge::JsonRpc::request(QStringLiteral("desktop.subscribe"), params, Bridge::newRequestId())));
    socket.flush();
    QByteArray buffer;
    bool answered = false;
    for (;;) {
        if (!socket.waitForReadyRead(-1) && socket.state() != QLocalSocket::ConnectedState)
            break;
        buffer += socket.readAll();
        qsizetype newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
            const QByteArray line = buffer.left(newline);
            buffer.remove(0, newline + 1);
            const QJsonObject message = QJsonDocument::fromJson(line).object();
            if (!answered) {
                answered = true;
                if (message.contains(QStringLiteral("error")))
                    return reportError(message);
                const QJsonObject result = message.value(QStringLiteral("result")).toObject();
                if (!json)
                    err(tr("listening from cursor %1 (epoch %2); Ctrl+C ends")
                            .arg(result.value(QStringLiteral("cursor")).toInteger())
                            .arg(result.value(QStringLiteral("epoch")).toString()));
                continue;
            }
            const QJsonObject event = message.value(QStringLiteral("params")).toObject();
            if (json) {
                out(QString::fromUtf8(QJsonDocument(event).toJson(QJsonDocument::Compact)));
            } else {
                QJsonObject rest = event;
                for (const char* key : {"cursor", "epoch", "kind", "at"})
                    rest.remove(QLatin1String(key));
                out(QStringLiteral("%1  #%2  %3  %4")
                        .arg(event.value(QStringLiteral("at")).toString(),
                             QString::number(event.value(QStringLiteral("cursor")).toInteger()),
                             event.value(QStringLiteral("kind")).toString().leftJustified(20),
                             QString::fromUtf8(QJsonDocument(rest).toJson(QJsonDocument::Compact))));
            }
            std::fflush(stdout);
        }
    }
    err(tr("the host closed the connection"));
    return ExitNotRunning;
}

int Ctl::run(const QStringList& args)
{
    const QString command = args.value(0);
    if (command == QLatin1String("events") && args.size() == 1)
        return events();
    if (command == QLatin1String("remote") && args.size() == 2)
        return remote(args.at(1));
    if (command == QLatin1String("health") && args.size() == 1)
        return health();
    if (command == QLatin1String("doctor") && args.size() == 1)
        return doctor();
    if (command == QLatin1String("stop") && args.size() == 1)
        return stop();
    if (command == QLatin1String("resume") && args.size() == 1)
        return resume();
    if (command == QLatin1String("policy") && args.size() >= 2)
        return policy(args);
    if (command == QLatin1String("call") && (args.size() == 2 || args.size() == 3)) {
        QByteArray text = "{}";
        const QString source = args.value(2);
        if (source == QLatin1String("-")) {
            QFile in;
            if (!in.open(stdin, QIODevice::ReadOnly)) {
                err(tr("error: cannot read standard input"));
                return ExitUsage;
            }
            text = in.readAll();
        } else if (source.startsWith(QLatin1Char('@'))) {
            QFile file(source.mid(1));
            if (!file.open(QIODevice::ReadOnly)) {
                err(tr("error: cannot read %1: %2").arg(file.fileName(), file.errorString()));
                return ExitUsage;
            }
            text = file.readAll();
        } else if (!source.isEmpty()) {
            text = source.toUtf8();
        }
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            err(tr("error: PARAMS must be a JSON object (%1)").arg(parseError.errorString()));
            return ExitUsage;
        }
        return call(args.at(1), doc.object());
    }
    err(tr(
        "usage: msgcode-desktopctl [options] health | doctor | stop | resume | policy ... | call METHOD [PARAMS_JSON | "
        "@FILE | -]"));
    err(tr("try: msgcode-desktopctl --help"));
    return ExitUsage;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("msgcode-desktopctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MDH_VERSION));
    Translations::install();

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "Ctl", "Talks to a running msgcode-desktop-host.\n\n"
               "Commands:\n"
               "  health                          host version, permissions, queue\n"
               "  doctor                          every check, with what to fix\n"
               "  stop                            emergency stop: abort everything, pause side effects\n"
               "  resume                          resume after a stop (asks the host's confirmation policy)\n"
               "  policy list | set RULE_JSON [POSITION] | remove NAME | test SUBJECT_JSON\n"
               "  policy revoke GRANT | unattended on|off | trust\n"
               "                                  the owner's rules (docs/protocol.md, Policy); a change\n"
               "                                  that loosens them waits for a person in the host's dialog\n"
               "  call METHOD [PARAMS | @FILE | -] any bridge method; meta is filled in\n"
               "  remote connect --host H --port P [--tls] [--fingerprint SHA256] [--bind-code C]\n"
               "  remote status | disconnect | forget   the remote agent (docs/remote.md)\n"
               "  evidence list [--method M] [--errors] | evidence show ID   the workspace's evidence\n"
               "  evidence export --out FILE.zip [ID...]   as a zip with a manifest of hashes\n"
               "  events [--app NAME] [--kinds LIST] [--selector JSON]\n"
               "                                  the host's event stream, live (docs/protocol.md)\n"
               "  selftest [--apps FILE] [--out DIR] [--keep-scratch]\n"
               "                                  drives a text editor, a calculator and a file\n"
               "                                  manager through every method, checks each effect in\n"
               "                                  the app, writes report.json and evidence.zip\n\n"
               "msgcode's original commands (their own exit codes: 0 a result, 2 an error answer,\n"
               "10 the host cannot be reached):\n"
               "  rpc WORKSPACE --method M --params-json J   one request; the JSON-RPC answer on stdout\n"
               "  session WORKSPACE [--idle-ms N]            NDJSON requests on stdin, one envelope\n"
               "                                             {id, exitCode, stdout, stderr} per line\n\n"
               "Exit codes: 0 ok, 1 the host answered an error, 2 usage, 3 host not running,\n"
               "4 no or malformed answer, 5 doctor found the host unhealthy."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption socket(QStringLiteral("socket"),
                                    QCoreApplication::translate("Ctl",
                                                                "The host's socket (default: "
                                                                "$MSGCODE_DESKTOP_SOCKET or the standard path)."),
                                    QCoreApplication::translate("Ctl", "path"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QCoreApplication::translate("Ctl", "Print the raw JSON-RPC response."));
    const QCommandLineOption timeout(QStringLiteral("timeout"),
                                     QCoreApplication::translate("Ctl", "meta.timeoutMs (default 60000)."),
                                     QCoreApplication::translate("Ctl", "ms"));
    const QCommandLineOption workspace(QStringLiteral("workspace"),
                                       QCoreApplication::translate("Ctl", "meta.workspacePath (default: the current "
                                                                          "directory)."),
                                       QCoreApplication::translate("Ctl", "dir"));
    const QCommandLineOption method(
        QStringLiteral("method"),
        QCoreApplication::translate("Ctl", "rpc: the method, e.g. desktop.find; evidence list: only this method."),
        QCoreApplication::translate("Ctl", "name"));
    const QCommandLineOption paramsJson(QStringLiteral("params-json"),
                                        QCoreApplication::translate("Ctl", "rpc: the params as a JSON object."),
                                        QCoreApplication::translate("Ctl", "json"));
    const QCommandLineOption idleMs(QStringLiteral("idle-ms"),
                                    QCoreApplication::translate("Ctl", "session: exit after this long without a "
                                                                       "request (default 60000)."),
                                    QCoreApplication::translate("Ctl", "ms"));
    const QCommandLineOption remoteHost(QStringLiteral("host"),
                                        QCoreApplication::translate("Ctl", "remote connect: the control server."),
                                        QCoreApplication::translate("Ctl", "host"));
    const QCommandLineOption remotePort(QStringLiteral("port"),
                                        QCoreApplication::translate("Ctl", "remote connect: its TCP port."),
                                        QCoreApplication::translate("Ctl", "port"));
    const QCommandLineOption remoteTls(QStringLiteral("tls"),
                                       QCoreApplication::translate("Ctl", "remote connect: use TLS."));
    const QCommandLineOption remoteFingerprint(
        QStringLiteral("fingerprint"),
        QCoreApplication::translate("Ctl", "remote connect: trust only this certificate (SHA-256, hex)."),
        QCoreApplication::translate("Ctl", "sha256"));
    const QCommandLineOption remoteBindCode(
        QStringLiteral("bind-code"),
        QCoreApplication::translate("Ctl", "remote connect: the server's one-time bind code."),
        QCoreApplication::translate("Ctl", "code"));
    const QCommandLineOption errorsOnly(
        QStringLiteral("errors"),
        QCoreApplication::translate("Ctl", "evidence list: only executions that answered an error or never answered."));
    parser.addOption(errorsOnly);
    const QCommandLineOption outFile(
        QStringLiteral("out"),
        QCoreApplication::translate("Ctl", "evidence export: the zip to write; selftest: the folder for the report."),
        QCoreApplication::translate("Ctl", "file"));
    parser.addOption(outFile);
    const QCommandLineOption appOption(
        QStringLiteral("app"), QCoreApplication::translate("Ctl", "events: only this app's (name, executable or pid)."),
        QCoreApplication::translate("Ctl", "app"));
    parser.addOption(appOption);
    const QCommandLineOption kindsOption(
        QStringLiteral("kinds"),
        QCoreApplication::translate("Ctl",
                                    "events: only these kinds, comma-separated (element events only when named)."),
        QCoreApplication::translate("Ctl", "list"));
    parser.addOption(kindsOption);
    const QCommandLineOption selectorOption(
        QStringLiteral("selector"),
        QCoreApplication::translate(
            "Ctl",
            "events: element events only of an element this selector (JSON: role and title) matches, or under it."),
        QCoreApplication::translate("Ctl", "json"));
    parser.addOption(selectorOption);
    const QCommandLineOption appsOption(
        QStringLiteral("apps"),
        QCoreApplication::translate("Ctl", "selftest: the app description to run (default: this platform's)."),
        QCoreApplication::translate("Ctl", "file"));
    parser.addOption(appsOption);
    const QCommandLineOption keepScratch(
        QStringLiteral("keep-scratch"),
        QCoreApplication::translate("Ctl", "selftest: keep the scratch folder with the apps' documents."));
    parser.addOption(keepScratch);
    parser.addOptions({socket, json, timeout, workspace, method, paramsJson, idleMs, remoteHost, remotePort, remoteTls,
                       remoteFingerprint, remoteBindCode});
    parser.addPositionalArgument(QStringLiteral("command"),
                                 QCoreApplication::translate("Ctl", "health, doctor, stop, resume, policy or call"));
    QCommandLineOption helpMan(QStringLiteral("help-man"), QStringLiteral("Print the manual page (troff)."));
    helpMan.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(helpMan);
    parser.process(app);
    if (parser.isSet(helpMan)) {
        // msgcode-desktopctl(1), from the same options and text as --help.
        const QList<QCommandLineOption> all{
            socket,
            json,
            timeout,
            workspace,
            method,
            paramsJson,
            idleMs,
            remoteHost,
            remotePort,
            remoteTls,
            remoteFingerprint,
            remoteBindCode,
            errorsOnly,
            outFile,
            appOption,
            appsOption,
            keepScratch,
            QCommandLineOption({QStringLiteral("h"), QStringLiteral("help")},
                               QCoreApplication::translate("Ctl", "Displays help on commandline options.")),
            QCommandLineOption(QStringLiteral("help-all"),
                               QCoreApplication::translate("Ctl", "Displays help, including generic Qt options.")),
            QCommandLineOption({QStringLiteral("v"), QStringLiteral("version")},
                               QCoreApplication::translate("Ctl", "Displays version information."))};
        std::printf("%s", qPrintable(ManPage::render(
                              QStringLiteral("msgcode-desktopctl"), 1,
                              QCoreApplication::translate("Ctl", "talks to a running msgcode-desktop-host"),
                              QStringLiteral("[options] command [arguments]"), parser.applicationDescription(), all,
                              QStringLiteral("2026-11"))));
        return ExitOk;
    }

    const QString socketPath = parser.isSet(socket) ? parser.value(socket) : Bridge::defaultSocketPath();
    const QStringList positional = parser.positionalArguments();
    const auto usage = [](const char* text) {
        std::fprintf(stderr, "%s\n", qPrintable(QCoreApplication::translate("Ctl", text)));
        return ExitUsage;
    };
    if (positional.value(0) == QLatin1String("rpc")) {
        if (positional.size() != 2 || !parser.isSet(method) || !parser.isSet(paramsJson))
            return usage(
                QT_TRANSLATE_NOOP("Ctl", "usage: msgcode-desktopctl rpc WORKSPACE --method M --params-json J"));
        return LegacyCommands::rpc(socketPath, QDir(positional.at(1)).absolutePath(), parser.value(method),
                                   parser.value(paramsJson));
    }
    if (positional.value(0) == QLatin1String("evidence")) {
        EvidenceCommands::Options evidence;
        evidence.workspace =
            parser.isSet(workspace) ? QDir(parser.value(workspace)).absolutePath() : QDir::currentPath();
        evidence.json = parser.isSet(json);
        evidence.method = parser.value(method);
        evidence.errorsOnly = parser.isSet(errorsOnly);
        if (positional.size() == 2 && positional.at(1) == QLatin1String("list"))
            return EvidenceCommands::list(evidence);
        if (positional.size() == 3 && positional.at(1) == QLatin1String("show"))
            return EvidenceCommands::show(evidence, positional.at(2));
        if (positional.size() >= 2 && positional.at(1) == QLatin1String("export") && parser.isSet(outFile))
            return EvidenceCommands::exportZip(evidence, positional.mid(2), parser.value(outFile));
        return usage(QT_TRANSLATE_NOOP(
            "Ctl",
            "usage: msgcode-desktopctl [--workspace DIR] [--json] evidence list [--method M] [--errors] | evidence "
            "show EXECUTION_ID | evidence export --out FILE.zip [EXECUTION_ID...]"));
    }
    if (positional.value(0) == QLatin1String("session")) {
        bool ok = !parser.isSet(idleMs);
        const int idle = parser.isSet(idleMs) ? parser.value(idleMs).toInt(&ok) : 60000;
        if (positional.size() != 2 || !ok || idle < 1)
            return usage(QT_TRANSLATE_NOOP("Ctl", "usage: msgcode-desktopctl session WORKSPACE [--idle-ms N]"));
        return LegacyCommands::session(socketPath, QDir(positional.at(1)).absolutePath(), idle);
    }

    if (positional.value(0) == QLatin1String("selftest")) {
        if (positional.size() != 1)
            return usage(QT_TRANSLATE_NOOP(
                "Ctl", "usage: msgcode-desktopctl selftest [--apps FILE] [--out DIR] [--keep-scratch] [--json]"));
        SelfTest::Options selftest;
        selftest.socketPath = socketPath;
        selftest.descriptionFile = parser.value(appsOption);
        selftest.outDir = parser.value(outFile);
        selftest.keepScratch = parser.isSet(keepScratch);
        selftest.json = parser.isSet(json);
        return SelfTest::run(selftest);
    }

    Ctl ctl;
    ctl.socketPath = socketPath;
    ctl.json = parser.isSet(json);
    if (parser.isSet(timeout)) {
        bool ok = false;
        ctl.timeoutMs = parser.value(timeout).toInt(&ok);
        if (!ok || ctl.timeoutMs < 1 || ctl.timeoutMs > 600000) {
            std::fprintf(stderr, "%s\n",
                         qPrintable(QCoreApplication::translate("Ctl", "error: --timeout takes 1 to 600000 ms")));
            return ExitUsage;
        }
    }
    if (parser.isSet(workspace))
        ctl.workspace = QDir(parser.value(workspace)).absolutePath();
    if (positional.value(0) == QLatin1String("events") && parser.isSet(appOption))
        ctl.remoteParams.insert(QStringLiteral("route"), QJsonObject{{QStringLiteral("app"), parser.value(appOption)}});
    if (positional.value(0) == QLatin1String("events") && parser.isSet(kindsOption))
        ctl.remoteParams.insert(
            QStringLiteral("kinds"),
            QJsonArray::fromStringList(parser.value(kindsOption).split(QLatin1Char(','), Qt::SkipEmptyParts)));
    if (positional.value(0) == QLatin1String("events") && parser.isSet(selectorOption)) {
        const QJsonDocument selector = QJsonDocument::fromJson(parser.value(selectorOption).toUtf8());
        if (!selector.isObject()) {
            std::fprintf(stderr, "%s\n",
                         qPrintable(QCoreApplication::translate("Ctl", "error: --selector takes a JSON object")));
            return ExitUsage;
        }
        ctl.remoteParams.insert(QStringLiteral("selector"), selector.object());
    }
    if (parser.isSet(remoteHost))
        ctl.remoteParams.insert(QStringLiteral("host"), parser.value(remoteHost));
    if (parser.isSet(remotePort))
        ctl.remoteParams.insert(QStringLiteral("port"), parser.value(remotePort).toInt());
    if (parser.isSet(remoteTls))
        ctl.remoteParams.insert(QStringLiteral("tls"), true);
    if (parser.isSet(remoteFingerprint))
        ctl.remoteParams.insert(QStringLiteral("fingerprint"), parser.value(remoteFingerprint));
    if (parser.isSet(remoteBindCode))
        ctl.remoteParams.insert(QStringLiteral("bindCode"), parser.value(remoteBindCode));
    return ctl.run(parser.positionalArguments());
}
