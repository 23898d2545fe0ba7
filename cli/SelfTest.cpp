#include "cli/SelfTest.h"

#include "bridge/evidence/EvidenceArchive.h"
#include "bridge/evidence/EvidenceReader.h"
#include "bridge/protocol/Client.h"
#include "bridge/protocol/Meta.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSysInfo>
#include <QThread>

#include <cstdio>
#include <memory>

namespace SelfTest {

namespace Detail {

QList<QJsonValue> valuesAt(const QJsonValue& root, const QString& path)
{
    QList<QJsonValue> current{root};
    for (const QString& segment : path.split(QLatin1Char('.'), Qt::SkipEmptyParts)) {
        QList<QJsonValue> next;
        for (const QJsonValue& value : current) {
            if (segment == QLatin1String("*") && value.isArray()) {
                for (const QJsonValue& element : value.toArray())
                    next.append(element);
                continue;
            }
            bool isIndex = false;
            const int index = segment.toInt(&isIndex);
            if (isIndex && value.isArray()) {
                if (index >= 0 && index < value.toArray().size())
                    next.append(value.toArray().at(index));
                continue;
            }
            const QJsonObject object = value.toObject();
            if (segment == QLatin1String("center") && !object.contains(segment) &&
                object.contains(QLatin1String("width")) && object.contains(QLatin1String("height"))) {
                next.append(QJsonObject{{QStringLiteral("x"), object.value(QLatin1String("x")).toInt() +
                                                                  object.value(QLatin1String("width")).toInt() / 2},
                                        {QStringLiteral("y"), object.value(QLatin1String("y")).toInt() +
                                                                  object.value(QLatin1String("height")).toInt() / 2}});
                continue;
            }
            if (object.contains(segment))
                next.append(object.value(segment));
        }
        current = next;
    }
    return current;
}

std::optional<QJsonValue> substitute(const QJsonValue& value, const QHash<QString, QString>& vars,
                                     const QHash<QString, QJsonObject>& answers, QString* error)
{
    if (value.isString()) {
        static const QRegularExpression reference(QStringLiteral(R"(^\$\{([A-Za-z0-9_-]+):([^}]+)\}$)"));
        const QString text = value.toString();
        const auto match = reference.match(text);
        if (match.hasMatch()) {
            const QString step = match.captured(1);
            if (!answers.contains(step)) {
                *error = QCoreApplication::translate("SelfTest", "no answer of step \"%1\" to take %2 from")
                             .arg(step, match.captured(2));
                return std::nullopt;
            }
            const auto found = valuesAt(answers.value(step), match.captured(2));
            if (found.isEmpty()) {
                *error = QCoreApplication::translate("SelfTest", "the answer of step \"%1\" has no %2")
                             .arg(step, match.captured(2));
                return std::nullopt;
            }
            return found.first();
        }
        QString replaced = text;
        for (auto it = vars.constBegin(); it != vars.constEnd(); ++it)
            replaced.replace(QLatin1Char('{') + it.key() + QLatin1Char('}'), it.value());
        return QJsonValue(replaced);
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue& element : value.toArray()) {
            auto done = substitute(element, vars, answers, error);
            if (!done)
                return std::nullopt;
            out.append(*done);
        }
        return QJsonValue(out);
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            auto done = substitute(it.value(), vars, answers, error);
            if (!done)
                return std::nullopt;
            out.insert(it.key(), *done);
        }
        return QJsonValue(out);
    }
    return value;
}

namespace {

QString shown(const QJsonValue& value)
{
    if (value.isString())
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return value.toVariant().toString();
}

} // namespace

QStringList unmet(const QJsonObject& result, const QJsonObject& expectations)
{
    QStringList failed;
    for (auto it = expectations.constBegin(); it != expectations.constEnd(); ++it) {
        const bool contains = it.key().endsWith(QLatin1Char('~'));
        const QString path = contains ? it.key().chopped(1) : it.key();
        const QList<QJsonValue> found = valuesAt(result, path);
        bool held = false;
        if (contains) {
            for (const QJsonValue& value : found)
                held = held || (value.isString() && value.toString().contains(it.value().toString()));
        } else {
            const QJsonArray anyOf = it.value().isArray() ? it.value().toArray() : QJsonArray{it.value()};
            for (const QJsonValue& value : found)
                for (const QJsonValue& wanted : anyOf)
                    held = held || value == wanted;
        }
        if (held)
            continue;
        QStringList seen;
        for (const QJsonValue& value : found)
            seen << shown(value);
        failed << QCoreApplication::translate("SelfTest", "%1: expected %2 %3, the answer has %4")
                      .arg(path,
                           contains ? QCoreApplication::translate("SelfTest", "text containing")
                                    : QCoreApplication::translate("SelfTest", "the value"),
                           shown(it.value()),
                           seen.isEmpty() ? QCoreApplication::translate("SelfTest", "none") : seen.join(u", "));
    }
    return failed;
}

} // namespace Detail

namespace {

using Detail::substitute;

const QStringList& sideEffectMethods()
{
    static const QStringList methods{QStringLiteral("desktop.click"),    QStringLiteral("desktop.typeText"),
                                     QStringLiteral("desktop.hotkey"),   QStringLiteral("desktop.scroll"),
                                     QStringLiteral("desktop.menuPick"), QStringLiteral("desktop.pointer"),
                                     QStringLiteral("desktop.window")};
    return methods;
}

QString errorCode(const QJsonObject& response)
{
    return response.value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString();
}

class Runner
{
    Q_DECLARE_TR_FUNCTIONS(SelfTest)

public:
    explicit Runner(const Options& options) : m_options(options) {}
    int run();

private:
    /// One request, meta filled in; a transport failure comes back as an error object of our own.
    QJsonObject call(const QString& method, const QJsonObject& params, int timeoutMs);
    /// The confirmation for a side effect with these params: a token the person approved for the
    /// first one (and for each one when the host takes no phrase), the phrase after it.
    std::optional<QJsonObject> confirmation(const QString& method, const QJsonObject& params, QString* why);
    QJsonObject runStep(const QJsonObject& app, const QJsonObject& step);
    /// Polls the check until it holds or 5 s pass; {ok, kind, observed, why}.
    QJsonObject check(const QJsonObject& app, const QJsonObject& step, const QJsonObject& spec);
    QJsonObject routeFor(const QJsonObject& app, const QString& window) const;
    void runApp(const QJsonObject& app);
    void record(const QJsonObject& app, QJsonObject result);
    bool writeReport();
    void out(const QString& text) const
    {
        if (!m_options.json)
            std::fprintf(stdout, "%s\n", qPrintable(text));
    }
    void err(const QString& text) const { std::fprintf(stderr, "%s\n", qPrintable(text)); }

    Options m_options;
    QDir m_out;
    QString m_scratch;
    QJsonObject m_description;
    QHash<QString, QString> m_vars;
    QHash<QString, QJsonObject> m_answers;
    QJsonArray m_steps;
    QJsonObject m_health;
    bool m_hostGone = false;
    // Approvals: the first side effect is approved by a person; then the phrase, unless the host
    // refuses it (requireToken), in which case every side effect asks.
    int m_approvals = 0;
    bool m_tokenEach = false;
    bool m_stopped = false; ///< the person said no, or the host is gone: nothing more is sent
};

QJsonObject Runner::call(const QString& method, const QJsonObject& params, int timeoutMs)
{
    Bridge::Client client;
    if (!client.connectToServer(m_options.socketPath, 3000)) {
        m_hostGone = true;
        return QJsonObject{
            {QStringLiteral("error"),
             QJsonObject{{QStringLiteral("code"), QStringLiteral("DESKTOP_HOST_NOT_RUNNING")},
                         {QStringLiteral("message"),
                          tr("no host serves %1 (%2)").arg(m_options.socketPath, client.errorString())}}}};
    }
    Bridge::MetaFill fill;
    fill.timeoutMs = timeoutMs;
    if (method != QLatin1String("desktop.health"))
        fill.workspacePath = m_out.absolutePath();
    client.setMetaFill(fill);
    const auto reply = client.call(method, params, timeoutMs + 5000);
    if (reply.ok())
        return reply.response;
    return QJsonObject{{QStringLiteral("error"),
                        QJsonObject{{QStringLiteral("code"), QStringLiteral("SELFTEST_NO_ANSWER")},
                                    {QStringLiteral("message"), tr("no JSON-RPC answer from the host in time")}}}};
}

std::optional<QJsonObject> Runner::confirmation(const QString& method, const QJsonObject& params, QString* why)
{
    if (m_approvals > 0 && !m_tokenEach)
        return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
    if (m_approvals == 0)
        out(tr("The host now asks for your approval, once, for the self-test's first action (%1). "
               "Approve it in the host's dialog.")
                .arg(method));
    QJsonObject intentParams = params;
    intentParams.remove(QStringLiteral("confirm"));
    const QJsonObject issued =
        call(QStringLiteral("desktop.confirm.issue"),
             QJsonObject{{QStringLiteral("intent"),
                          QJsonObject{{QStringLiteral("method"), method}, {QStringLiteral("params"), intentParams}}},
                         {QStringLiteral("ttlMs"), 120000}},
             180000);
    const QString token = issued.value(QLatin1String("result")).toObject().value(QLatin1String("token")).toString();
    if (token.isEmpty()) {
        const QJsonObject error = issued.value(QLatin1String("error")).toObject();
        *why =
            tr("not approved: %1: %2")
                .arg(error.value(QLatin1String("code")).toString(), error.value(QLatin1String("message")).toString());
        return std::nullopt;
    }
    ++m_approvals;
    return QJsonObject{{QStringLiteral("token"), token}};
}

QJsonObject Runner::routeFor(const QJsonObject& app, const QString& window) const
{
    QJsonObject route = app.value(QLatin1String("route")).toObject();
    if (!window.isEmpty())
        route.insert(QStringLiteral("window"), QJsonObject{{QStringLiteral("titlePattern"), window}});
    return route;
}

QJsonObject Runner::runStep(const QJsonObject& app, const QJsonObject& step)
{
    const QString method = step.value(QLatin1String("method")).toString();
    QJsonObject result{{QStringLiteral("title"), step.value(QLatin1String("title")).toString()},
                       {QStringLiteral("method"), method}};
    QElapsedTimer timer;
    timer.start();
    const auto finish = [&](bool ok) {
        result.insert(QStringLiteral("ok"), ok);
        result.insert(QStringLiteral("ms"), timer.elapsed());
        return result;
    };
    if (m_stopped) {
        result.insert(QStringLiteral("why"), tr("not run: the self-test stopped earlier"));
        return finish(false);
    }
    QString why;
    const auto params = substitute(step.value(QLatin1String("params")), m_vars, m_answers, &why);
    if (!params) {
        result.insert(QStringLiteral("why"), why);
        return finish(false);
    }
    QJsonObject request = params->toObject();
    if (!step.value(QLatin1String("noRoute")).toBool() && !request.contains(QLatin1String("route")))
        request.insert(QStringLiteral("route"), routeFor(app, step.value(QLatin1String("window")).toString()));
    const bool sideEffect = sideEffectMethods().contains(method);
    QJsonObject response;
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (sideEffect) {
            const auto confirm = confirmation(method, request, &why);
            if (!confirm) {
                m_stopped = true;
                result.insert(QStringLiteral("why"), why);
                return finish(false);
            }
            request.insert(QStringLiteral("confirm"), *confirm);
        }
        response = call(method, request, m_options.timeoutMs);
        const QJsonObject details =
            response.value(QLatin1String("error")).toObject().value(QLatin1String("details")).toObject();
        // A host that takes no phrase refuses it before anything runs: ask for a token instead.
        if (sideEffect && !m_tokenEach && errorCode(response) == QLatin1String("DESKTOP_CONFIRM_REQUIRED") &&
            details.value(QLatin1String("reason")).toString() == QLatin1String("phrase_disabled")) {
            m_tokenEach = true;
            continue;
        }
        break;
    }
    const QJsonObject answer = response.value(QLatin1String("result")).toObject();
    result.insert(QStringLiteral("executionId"), answer.value(QLatin1String("executionId")));
    if (answer.contains(QLatin1String("effect")))
        result.insert(QStringLiteral("effect"), answer.value(QLatin1String("effect")));
    if (response.contains(QLatin1String("error"))) {
        const QJsonObject error = response.value(QLatin1String("error")).toObject();
        result.insert(QStringLiteral("error"), error);
        result.insert(QStringLiteral("why"), tr("%1: %2").arg(error.value(QLatin1String("code")).toString(),
                                                              error.value(QLatin1String("message")).toString()));
        if (m_hostGone)
            m_stopped = true;
        return finish(false);
    }
    const QString id = step.value(QLatin1String("id")).toString();
    if (!id.isEmpty())
        m_answers.insert(id, answer);
    const QStringList failed = Detail::unmet(answer, step.value(QLatin1String("expect")).toObject());
    if (!failed.isEmpty()) {
        result.insert(QStringLiteral("unmet"), QJsonArray::fromStringList(failed));
        result.insert(QStringLiteral("why"), failed.join(u"; "));
    }
    bool ok = failed.isEmpty();
    if (step.contains(QLatin1String("check"))) {
        const QJsonObject checked = check(app, step, step.value(QLatin1String("check")).toObject());
        result.insert(QStringLiteral("check"), checked);
        if (!checked.value(QLatin1String("ok")).toBool()) {
            ok = false;
            if (!result.contains(QLatin1String("why")))
                result.insert(QStringLiteral("why"), checked.value(QLatin1String("why")));
        }
    }
    return finish(ok);
}

QJsonObject Runner::check(const QJsonObject& app, const QJsonObject& step, const QJsonObject& rawSpec)
{
    QString why;
    const auto substituted = substitute(rawSpec, m_vars, m_answers, &why);
    if (!substituted)
        return QJsonObject{{QStringLiteral("ok"), false}, {QStringLiteral("why"), why}};
    const QJsonObject spec = substituted->toObject();
    const bool wantsEqual = spec.contains(QLatin1String("equals"));
    const QString wanted = spec.value(wantsEqual ? QLatin1String("equals") : QLatin1String("contains")).toString();
    const auto matches = [&](const QString& text) { return wantsEqual ? text == wanted : text.contains(wanted); };
    QString kind;
    QJsonValue observed;
    bool held = false;
    QDeadlineTimer deadline(5000);
    do {
        if (spec.contains(QLatin1String("readText"))) {
            kind = QStringLiteral("readText");
            const QJsonObject response = call(
                QStringLiteral("desktop.readText"),
                QJsonObject{{QStringLiteral("route"), routeFor(app, step.value(QLatin1String("window")).toString())},
                            {QStringLiteral("selector"), spec.value(QLatin1String("readText"))}},
                m_options.timeoutMs);
            QJsonArray texts;
            for (const QJsonValue& item :
                 response.value(QLatin1String("result")).toObject().value(QLatin1String("items")).toArray()) {
                const QString text = item.toObject().value(QLatin1String("text")).toString();
                texts.append(text);
                held = held || matches(text);
            }
            observed = response.contains(QLatin1String("error")) ? response.value(QLatin1String("error")) : texts;
        } else if (spec.contains(QLatin1String("file"))) {
            kind = QStringLiteral("file");
            QFile file(spec.value(QLatin1String("file")).toString());
            if (file.open(QIODevice::ReadOnly)) {
                // Editors may end the file with a newline of their own.
                QString text = QString::fromUtf8(file.readAll());
                if (text.endsWith(QLatin1Char('\n')) && !wanted.endsWith(QLatin1Char('\n')))
                    text.chop(1);
                observed = text;
                held = matches(text);
            } else {
                observed = tr("cannot read %1: %2").arg(file.fileName(), file.errorString());
            }
        } else if (spec.contains(QLatin1String("dir"))) {
            kind = QStringLiteral("dir");
            const QFileInfo info(spec.value(QLatin1String("dir")).toString());
            held = info.isDir();
            observed = held ? tr("%1 is a folder").arg(info.filePath()) : tr("no folder %1").arg(info.filePath());
        } else {
            return QJsonObject{{QStringLiteral("ok"), false},
                               {QStringLiteral("why"), tr("a check needs readText, file or dir")}};
        }
        if (!held)
            QThread::msleep(200);
    } while (!held && !deadline.hasExpired() && !m_hostGone);
    QJsonObject result{
        {QStringLiteral("kind"), kind}, {QStringLiteral("ok"), held}, {QStringLiteral("observed"), observed}};
    if (!held)
        result.insert(QStringLiteral("why"),
                      tr("%1 check: wanted %2 \"%3\", saw %4")
                          .arg(kind, wantsEqual ? tr("exactly") : tr("text containing"), wanted,
                               observed.isString() ? observed.toString()
                                                   : QString::fromUtf8(QJsonDocument::fromVariant(observed.toVariant())
                                                                           .toJson(QJsonDocument::Compact))));
    return result;
}

void Runner::record(const QJsonObject& app, QJsonObject result)
{
    result.insert(QStringLiteral("app"), app.value(QLatin1String("name")).toString());
    const bool ok = result.value(QLatin1String("ok")).toBool();
    QString line =
        QStringLiteral("%1  %2: %3 (%4)")
            .arg(ok ? tr("PASS") : tr("FAIL"), result.value(QLatin1String("app")).toString(),
                 result.value(QLatin1String("title")).toString(), result.value(QLatin1String("method")).toString());
    if (result.contains(QLatin1String("effect")))
        line += QLatin1Char(' ') + result.value(QLatin1String("effect")).toString();
    if (!ok)
        line += QStringLiteral("\n      ") + result.value(QLatin1String("why")).toString();
    out(line);
    m_steps.append(result);
}

void Runner::runApp(const QJsonObject& app)
{
    const QString name = app.value(QLatin1String("name")).toString();
    out(tr("== %1").arg(name));
    // The app's documents, in the scratch folder.
    const QJsonObject files = app.value(QLatin1String("files")).toObject();
    for (auto it = files.constBegin(); it != files.constEnd(); ++it) {
        QFile file(QDir(m_scratch).filePath(it.key()));
        if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            file.write(it.value().toString().toUtf8());
    }
    QString why;
    const auto launch = substitute(app.value(QLatin1String("launch")), m_vars, m_answers, &why);
    const QJsonObject launchSpec = launch ? launch->toObject() : QJsonObject();
    const QString program = launchSpec.value(QLatin1String("program")).toString();
    QStringList args;
    for (const QJsonValue& arg : launchSpec.value(QLatin1String("args")).toArray())
        args << arg.toString();
    std::unique_ptr<QProcess> process;
    QJsonObject launched{{QStringLiteral("title"), tr("start %1").arg(program)}, {QStringLiteral("method"), QString()}};
    bool started = false;
    if (m_stopped) {
        launched.insert(QStringLiteral("why"), tr("not run: the self-test stopped earlier"));
    } else if (launchSpec.value(QLatin1String("detached")).toBool()) {
        started = QProcess::startDetached(program, args, m_scratch);
        if (!started)
            launched.insert(QStringLiteral("why"), tr("%1 could not be started").arg(program));
    } else {
        process = std::make_unique<QProcess>();
        process->setWorkingDirectory(m_scratch);
        process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        process->setStandardOutputFile(QProcess::nullDevice());
        process->start(program, args);
        started = process->waitForStarted(10000);
        if (!started)
            launched.insert(QStringLiteral("why"),
                            tr("%1 could not be started: %2").arg(program, process->errorString()));
        else
            launched.insert(QStringLiteral("pid"), process->processId());
    }
    if (started) {
        // Ready: the description's condition holds in the app.
        launched.insert(QStringLiteral("method"), QStringLiteral("desktop.waitUntil"));
        const QJsonObject ready = call(QStringLiteral("desktop.waitUntil"),
                                       QJsonObject{{QStringLiteral("route"), app.value(QLatin1String("route"))},
                                                   {QStringLiteral("condition"), app.value(QLatin1String("ready"))},
                                                   {QStringLiteral("pollMs"), 200},
                                                   {QStringLiteral("timeoutMs"), 30000}},
                                       40000);
        started = ready.contains(QLatin1String("result"));
        launched.insert(QStringLiteral("executionId"),
                        ready.value(QLatin1String("result")).toObject().value(QLatin1String("executionId")));
        if (!started)
            launched.insert(
                QStringLiteral("why"),
                tr("the app did not become ready: %1")
                    .arg(ready.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString()));
    }
    launched.insert(QStringLiteral("ok"), started);
    record(app, launched);

    for (const QJsonValue& step : app.value(QLatin1String("steps")).toArray()) {
        if (!started) {
            QJsonObject skipped{{QStringLiteral("title"), step.toObject().value(QLatin1String("title"))},
                                {QStringLiteral("method"), step.toObject().value(QLatin1String("method"))},
                                {QStringLiteral("ok"), false},
                                {QStringLiteral("why"), tr("not run: the app did not start")}};
            record(app, skipped);
            continue;
        }
        record(app, runStep(app, step.toObject()));
    }

    // Quit: the description's keys, then its windows gone; what is still running is ended.
    const QJsonObject quit = app.value(QLatin1String("quit")).toObject();
    if (started && !m_stopped) {
        if (quit.contains(QLatin1String("keys"))) {
            const QJsonObject quitStep{
                {QStringLiteral("title"), tr("quit")},
                {QStringLiteral("method"), QStringLiteral("desktop.hotkey")},
                {QStringLiteral("params"), QJsonObject{{QStringLiteral("keys"), quit.value(QLatin1String("keys"))}}}};
            record(app, runStep(app, quitStep));
        }
        if (quit.contains(QLatin1String("windowGone"))) {
            const QJsonObject goneStep{
                {QStringLiteral("title"), tr("its windows are gone")},
                {QStringLiteral("method"), QStringLiteral("desktop.waitUntil")},
                {QStringLiteral("params"),
                 QJsonObject{{QStringLiteral("condition"),
                              QJsonObject{{QStringLiteral("windowGone"),
                                           QJsonObject{{QStringLiteral("titlePattern"),
                                                        quit.value(QLatin1String("windowGone"))}}}}},
                             {QStringLiteral("timeoutMs"), 10000}}}};
            record(app, runStep(app, goneStep));
        }
    }
    if (process && process->state() != QProcess::NotRunning && !process->waitForFinished(3000)) {
        process->terminate();
        if (!process->waitForFinished(3000))
            process->kill();
        process->waitForFinished(1000);
        out(tr("      %1 did not quit; the self-test ended it").arg(program));
    }
}

bool Runner::writeReport()
{
    int passed = 0;
    QJsonObject methods;
    for (const QJsonValue& value : std::as_const(m_steps)) {
        const QJsonObject step = value.toObject();
        const bool ok = step.value(QLatin1String("ok")).toBool();
        passed += ok ? 1 : 0;
        const QString method = step.value(QLatin1String("method")).toString();
        if (method.isEmpty())
            continue;
        QJsonObject counts = methods.value(method).toObject();
        const QString key = ok ? QStringLiteral("passed") : QStringLiteral("failed");
        counts.insert(key, counts.value(key).toInt() + 1);
        methods.insert(method, counts);
    }
    // The evidence of every request the self-test made, with a manifest of hashes.
    const QString zipPath = m_out.filePath(QStringLiteral("evidence.zip"));
    const Evidence::EvidenceReader reader(m_out.absolutePath());
    QJsonObject evidence{{QStringLiteral("zip"), zipPath}};
    if (const auto listing = reader.list()) {
        const auto manifest = Evidence::Archive::write(reader, listing->executions, zipPath);
        if (!manifest)
            evidence = QJsonObject{{QStringLiteral("error"), manifest.error().message}};
        else
            evidence.insert(QStringLiteral("executions"), static_cast<int>(listing->executions.size()));
    } else {
        evidence = QJsonObject{{QStringLiteral("error"), listing.error().message}};
    }
    const QJsonObject report{
        {QStringLiteral("kind"), QStringLiteral("msgcode-desktop-selftest")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("platform"), m_description.value(QLatin1String("platform"))},
        {QStringLiteral("system"), QSysInfo::prettyProductName()},
        {QStringLiteral("cpu"), QSysInfo::currentCpuArchitecture()},
        {QStringLiteral("ctlVersion"), QCoreApplication::applicationVersion()},
        {QStringLiteral("host"), m_health},
        {QStringLiteral("finishedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {QStringLiteral("passed"), passed},
        {QStringLiteral("failed"), static_cast<int>(m_steps.size()) - passed},
        {QStringLiteral("approvals"), m_approvals},
        {QStringLiteral("tokenEachTime"), m_tokenEach},
        {QStringLiteral("methods"), methods},
        {QStringLiteral("steps"), m_steps},
        {QStringLiteral("scratch"), m_options.keepScratch ? m_scratch : QString()},
        {QStringLiteral("evidence"), evidence}};
    QFile file(m_out.filePath(QStringLiteral("report.json")));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        err(tr("error: cannot write %1: %2").arg(file.fileName(), file.errorString()));
        return false;
    }
    file.write(QJsonDocument(report).toJson(QJsonDocument::Indented));
    if (m_options.json)
        std::fprintf(stdout, "%s\n", QJsonDocument(report).toJson(QJsonDocument::Compact).constData());
    out(tr("%1 of %2 steps passed. Report: %3; evidence: %4")
            .arg(passed)
            .arg(m_steps.size())
            .arg(file.fileName(), zipPath));
    return true;
}

int Runner::run()
{
    QString descriptionPath = m_options.descriptionFile;
    if (descriptionPath.isEmpty()) {
#ifdef Q_OS_MACOS
        descriptionPath = QStringLiteral(":/selftest/macos.json");
#else
        descriptionPath = QStringLiteral(":/selftest/linux.json");
#endif
    }
    QFile descriptionFile(descriptionPath);
    if (!descriptionFile.open(QIODevice::ReadOnly)) {
        err(tr("error: cannot read %1: %2").arg(descriptionPath, descriptionFile.errorString()));
        return 2;
    }
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(descriptionFile.readAll(), &parseError);
    m_description = document.object();
    if (parseError.error != QJsonParseError::NoError || !m_description.value(QLatin1String("apps")).isArray()) {
        err(tr("error: %1 is not an app description (%2)").arg(descriptionPath, parseError.errorString()));
        return 2;
    }

    const QString outPath =
        m_options.outDir.isEmpty()
            ? QDir::current().filePath(QStringLiteral("msgcode-selftest-") +
                                       QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")))
            : m_options.outDir;
    if (!QDir().mkpath(outPath) || !QDir().mkpath(QDir(outPath).filePath(QStringLiteral("scratch")))) {
        err(tr("error: cannot make the folder %1").arg(outPath));
        return 2;
    }
    m_out = QDir(QFileInfo(outPath).absoluteFilePath());
    m_scratch = m_out.filePath(QStringLiteral("scratch"));
    for (auto it = m_description.constBegin(); it != m_description.constEnd(); ++it)
        if (it.value().isString())
            m_vars.insert(it.key(), it.value().toString());
    m_vars.insert(QStringLiteral("scratch"), m_scratch);
    m_vars.insert(QStringLiteral("home"), QDir::homePath());

    const QJsonObject health = call(QStringLiteral("desktop.health"), {}, 10000);
    if (!health.contains(QLatin1String("result"))) {
        err(tr("error: %1: %2")
                .arg(errorCode(health),
                     health.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString()));
        return 3;
    }
    m_health = health.value(QLatin1String("result")).toObject();
    out(tr("msgcode-desktop-host %1 on %2; the self-test works in %3")
            .arg(m_health.value(QLatin1String("hostVersion")).toString(), QSysInfo::prettyProductName(),
                 m_out.absolutePath()));

    for (const QJsonValue& app : m_description.value(QLatin1String("apps")).toArray())
        runApp(app.toObject());

    if (!m_options.keepScratch)
        QDir(m_scratch).removeRecursively();
    if (!writeReport())
        return 1;
    for (const QJsonValue& step : std::as_const(m_steps))
        if (!step.toObject().value(QLatin1String("ok")).toBool())
            return 1;
    return 0;
}

} // namespace

int run(const Options& options)
{
    return Runner(options).run();
}

} // namespace SelfTest
