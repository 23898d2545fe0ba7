// What a client written from the bridge contract alone sends always works (docs/protocol.md §4.3,
// docs/testing.md "Contract conformance"): every request example of the contract
// (tests/data/contract/bridge-contract-v2.2.md, a verbatim copy), its comments stripped, each
// `{ ... }` filled from the contract's own §4.3 (route), §4.4 (selector) and §4.5 (elementRef)
// examples, each "或" (or) alternative sent on its own, only `meta` filled in and ids made fresh,
// is sent to a host with the fake backend. No answer may refuse the request for its shape
// (DESKTOP_INVALID_REQUEST -32600/-32602 naming a field); an answer about the world (no such
// app, an unknown execution) is not a refusal. The test also prints, per method, the route,
// selector, option and other members the host accepts, and fails when one the contract shows
// is missing.
#include "TestHost.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QUuid>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

QString contractText()
{
    QFile file(QStringLiteral(MDH_SOURCE_DIR "/tests/data/contract/bridge-contract-v2.2.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

// `//` comments outside strings removed (a `//` inside a string, as in a URL, stays).
QString stripComments(const QString& text)
{
    QString out;
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (inString) {
            out.append(c);
            if (c == QLatin1Char('\\') && i + 1 < text.size())
                out.append(text.at(++i));
            else if (c == QLatin1Char('"'))
                inString = false;
            continue;
        }
        if (c == QLatin1Char('"')) {
            inString = true;
        } else if (c == QLatin1Char('/') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('/')) {
            while (i < text.size() && text.at(i) != QLatin1Char('\n'))
                ++i;
            out.append(QLatin1Char('\n'));
            continue;
        }
        out.append(c);
    }
    return out;
}

// A contract example as JSON: comments stripped, the placeholder member `"...": "..."` and
// trailing commas removed; nullopt when it still is not JSON.
std::optional<QJsonObject> parseExample(QString text, QString* why)
{
    text = stripComments(text);
    static const QRegularExpression placeholderMember(QStringLiteral(R"(,?\s*"\.\.\."\s*:\s*"[^"]*")"));
    text.remove(placeholderMember);
    static const QRegularExpression trailingComma(QStringLiteral(R"(,(\s*[}\]]))"));
    text.replace(trailingComma, QStringLiteral("\\1"));
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        *why = error.errorString() + QStringLiteral(" at ") + QString::number(error.offset) + QStringLiteral(" in\n") +
               text;
        return std::nullopt;
    }
    return document.object();
}

// A block with a `// 或` (or) line inside an object: one text per alternative, the members before
// the line and the members after it each sent without the others.
QStringList alternatives(const QString& block)
{
    const QStringList lines = block.split(QLatin1Char('\n'));
    qsizetype orLine = -1;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).trimmed() == QStringLiteral("// 或")) {
            orLine = i;
            break;
        }
    }
    if (orLine < 0)
        return {block};
    // The object around the line: its opening brace above, its closing brace below.
    qsizetype open = -1, close = -1;
    for (qsizetype i = orLine - 1, depth = 0; i >= 0 && open < 0; --i) {
        const QString code = stripComments(lines.at(i));
        depth += code.count(QLatin1Char('}')) - code.count(QLatin1Char('{'));
        if (depth < 0)
            open = i;
    }
    for (qsizetype i = orLine + 1, depth = 0; i < lines.size() && close < 0; ++i) {
        const QString code = stripComments(lines.at(i));
        depth += code.count(QLatin1Char('{')) - code.count(QLatin1Char('}'));
        if (depth < 0)
            close = i;
    }
    if (open < 0 || close < 0)
        return {block};
    const QStringList first = lines.mid(0, orLine) + lines.mid(close);
    const QStringList second = lines.mid(0, open + 1) + lines.mid(orLine + 1);
    QStringList out;
    for (const QString& alternative : alternatives(first.join(QLatin1Char('\n'))))
        out.append(alternative);
    for (const QString& alternative : alternatives(second.join(QLatin1Char('\n'))))
        out.append(alternative);
    return out;
}

struct Example
{
    QString method;
    QString where; ///< the contract's section and the alternative, for messages
    QJsonObject params;
};

struct ContractText
{
    QJsonObject route;      ///< §4.3
    QJsonObject selector;   ///< §4.4
    QJsonObject elementRef; ///< §4.5
    QList<Example> examples;
    QStringList problems;
};

// Every ```jsonc block of the contract, with the heading it is under and whether the text just
// above it announces a request (请求, "Request").
ContractText readContract(const QString& text)
{
    ContractText out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    static const QRegularExpression methodHeading(QStringLiteral(R"(^###\s+([0-9.]+)\s+`([a-zA-Z.]+)`)"));
    static const QRegularExpression sectionHeading(QStringLiteral(R"(^###\s+([0-9.]+)\s)"));
    QString section, method;
    bool requestNext = false;
    struct Block
    {
        QString section, method, text;
        bool request = false;
    };
    QList<Block> blocks;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i);
        if (const auto m = methodHeading.match(line); m.hasMatch()) {
            section = m.captured(1);
            method = m.captured(2);
            requestNext = false;
            continue;
        }
        if (const auto m = sectionHeading.match(line); m.hasMatch()) {
            section = m.captured(1);
            method.clear();
            requestNext = line.contains(QStringLiteral("Request"));
            continue;
        }
        if (line.contains(QStringLiteral("请求")))
            requestNext = true;
        if (line.contains(QStringLiteral("返回")))
            requestNext = false;
        if (line.startsWith(QStringLiteral("```json"))) {
            Block block{section, method, {}, requestNext};
            for (++i; i < lines.size() && !lines.at(i).startsWith(QStringLiteral("```")); ++i)
                block.text += lines.at(i) + QLatin1Char('\n');
            blocks.append(block);
            requestNext = false;
        }
    }
    QString why;
    for (const Block& block : std::as_const(blocks)) {
        QJsonObject* shape = block.section == QLatin1String("4.3")   ? &out.route
                             : block.section == QLatin1String("4.4") ? &out.selector
                             : block.section == QLatin1String("4.5") ? &out.elementRef
                                                                     : nullptr;
        if (shape && shape->isEmpty()) {
            if (auto parsed = parseExample(block.text, &why))
                *shape = *parsed;
            else
                out.problems.append(QStringLiteral("§%1: %2").arg(block.section, why));
        }
    }
    const auto fill = [&out](QString text) -> QString {
        // `"key": { ... }` filled from the contract's own examples of that type.
        static const QRegularExpression placeholder(QStringLiteral(R"re("(\w+)"\s*:\s*\{\s*\.\.\.\s*\})re"));
        QString filled;
        qsizetype from = 0;
        for (auto it = placeholder.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            const QString key = m.captured(1);
            const QJsonObject value = key == QLatin1String("route") ? out.route
                                      : key == QLatin1String("selector") || key == QLatin1String("selectorExists")
                                          ? out.selector
                                      : key == QLatin1String("elementRef") ? out.elementRef
                                      : key == QLatin1String("meta")       ? QJsonObject{}
                                                                           : QJsonObject{{QStringLiteral("?"), key}};
            filled += text.mid(from, m.capturedStart() - from) + QLatin1Char('"') + key + QStringLiteral("\": ") +
                      QString::fromUtf8(QJsonDocument(value).toJson(QJsonDocument::Compact));
            from = m.capturedEnd();
        }
        return filled + text.mid(from);
    };
    for (const Block& block : std::as_const(blocks)) {
        if (!block.request)
            continue;
        const QStringList texts = alternatives(block.text);
        for (qsizetype a = 0; a < texts.size(); ++a) {
            auto parsed = parseExample(fill(texts.at(a)), &why);
            const QString where = QStringLiteral("§%1%2").arg(
                block.section, texts.size() > 1 ? QStringLiteral(" alternative %1").arg(a + 1) : QString());
            if (!parsed) {
                out.problems.append(where + QStringLiteral(": ") + why);
                continue;
            }
            Example example;
            example.where = where;
            // §3.1 is a whole request; the method sections give params.
            if (parsed->contains(QStringLiteral("jsonrpc"))) {
                example.method = parsed->value(QStringLiteral("method")).toString();
                example.params = parsed->value(QStringLiteral("params")).toObject();
            } else {
                example.method = block.method;
                example.params = *parsed;
            }
            if (QJsonDocument(example.params).toJson().contains("\"?\""))
                out.problems.append(where + QStringLiteral(": a { ... } the test cannot fill"));
            out.examples.append(example);
        }
    }
    return out;
}

// Ids made fresh: "uuid" and "uuid-v4" become new UUIDs, "<word>:uuid" names this request.
QJsonValue freshIds(const QJsonValue& value, const QString& requestId)
{
    if (value.isObject()) {
        QJsonObject out = value.toObject();
        for (auto it = out.begin(); it != out.end(); ++it)
            it.value() = freshIds(it.value(), requestId);
        return out;
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const auto& item : value.toArray())
            out.append(freshIds(item, requestId));
        return out;
    }
    const QString text = value.toString();
    if (text == QLatin1String("uuid") || text == QLatin1String("uuid-v4"))
        return QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (text.endsWith(QLatin1String(":uuid")))
        return QString(text.left(text.size() - 4) + requestId);
    return value;
}

// The member paths of params below `prefix`, leaves only ("route.app.bundleId").
void leafPaths(const QJsonValue& value, const QString& prefix, QStringList& out)
{
    if (value.isObject() && !value.toObject().isEmpty()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            leafPaths(it.value(), prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key(), out);
        return;
    }
    out.append(prefix);
}

QJsonObject withoutPath(QJsonObject object, const QStringList& path)
{
    if (path.size() == 1) {
        object.remove(path.first());
        return object;
    }
    QJsonObject inner = object.value(path.first()).toObject();
    inner = withoutPath(inner, path.mid(1));
    object.insert(path.first(), inner);
    return object;
}

// The refusal of a request for its shape: the field it names, empty when the answer is not one.
QString shapeRefusal(const QJsonObject& response)
{
    const QJsonObject error = errorOf(response);
    const QJsonObject details = error.value(QStringLiteral("details")).toObject();
    const int code = details.value(QStringLiteral("jsonrpcCode")).toInt();
    if (error.value(QStringLiteral("code")).toString() != QLatin1String("DESKTOP_INVALID_REQUEST") ||
        (code != -32600 && code != -32602) || !details.contains(QStringLiteral("field")))
        return {};
    return details.value(QStringLiteral("field")).toString();
}

QString groupOf(const QString& path)
{
    for (const char* group : {"route", "options"}) {
        if (path.startsWith(QLatin1String(group) + QLatin1Char('.')))
            return QLatin1String(group);
    }
    if (path.contains(QLatin1String("selector")) || path.contains(QLatin1String("selectorExists")))
        return QStringLiteral("selector");
    return QStringLiteral("other");
}

} // namespace

TEST(ContractConformance, EveryRequestExampleOfTheContractIsAccepted)
{
    const QString text = contractText();
    ASSERT_FALSE(text.isEmpty()) << "tests/data/contract/bridge-contract-v2.2.md is missing";
    const ContractText contract = readContract(text);
    EXPECT_TRUE(contract.problems.isEmpty()) << contract.problems.join(QStringLiteral("\n")).toStdString();
    ASSERT_FALSE(contract.route.isEmpty());
    ASSERT_FALSE(contract.selector.isEmpty());
    ASSERT_FALSE(contract.elementRef.isEmpty());
    // Every method section of the contract gave at least one request (a parser that found none
    // would pass anything).
    QSet<QString> methods;
    for (const Example& example : contract.examples)
        methods.insert(example.method);
    for (const char* method :
         {"desktop.health", "desktop.doctor", "desktop.observe", "desktop.find", "desktop.click", "desktop.typeText",
          "desktop.hotkey", "desktop.waitUntil", "desktop.abort", "desktop.confirm.issue"})
        EXPECT_TRUE(methods.contains(QLatin1String(method))) << method << " has no request example";
    EXPECT_GE(contract.examples.size(), 13) << "click's two alternatives, waitUntil's two examples, §3.1";

    TestHost::Options options;
    options.security.confirmPolicy = Bridge::ConfirmPolicy::Auto;
    TestHost host(options);
    TestClient client(host.socketPath());
    ASSERT_TRUE(client.isConnected());

    // method -> member path -> accepted
    QMap<QString, QMap<QString, bool>> table;
    QStringList refusals;
    for (const Example& example : contract.examples) {
        table[example.method]; // listed even when it takes nothing but meta
        QStringList members;
        leafPaths(example.params, {}, members);
        members.removeIf([](const QString& path) { return path.startsWith(QLatin1String("meta")); });
        QJsonObject params = example.params;
        // Refused members are taken out one at a time until the request is accepted, so every
        // member the example shows is judged.
        for (int attempt = 0; attempt < 32; ++attempt) {
            const QString requestId = newRequestId();
            QJsonObject sent = freshIds(params, requestId).toObject();
            // Only meta is the test's: a short deadline, so that a wait or an approval answers soon.
            sent.insert(QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                                            {QStringLiteral("requestId"), requestId},
                                                            {QStringLiteral("workspacePath"), host.workspace()},
                                                            {QStringLiteral("timeoutMs"), 1500}});
            const QJsonObject response = client.call(example.method, sent, 15000);
            ASSERT_FALSE(response.isEmpty()) << example.method.toStdString() << " did not answer";
            const QString field = shapeRefusal(response);
            if (field.isEmpty())
                break;
            refusals.append(QStringLiteral("%1 (%2): %3: %4")
                                .arg(example.method, example.where, field,
                                     errorOf(response).value(QStringLiteral("message")).toString()));
            table[example.method][field] = false;
            const QStringList path = field.split(QLatin1Char('.'));
            const QJsonObject fewer = withoutPath(params, path);
            if (fewer == params)
                break; // a refusal that names no member the example sent
            params = fewer;
        }
        for (const QString& member : std::as_const(members)) {
            if (!table[example.method].contains(member))
                table[example.method][member] = true;
        }
    }

    // The table: per method, what it accepts of the members the contract shows.
    QString printed;
    for (auto method = table.cbegin(); method != table.cend(); ++method) {
        QMap<QString, QStringList> byGroup;
        for (auto member = method->cbegin(); member != method->cend(); ++member)
            byGroup[groupOf(member.key())].append(member.key() +
                                                  (member.value() ? QString() : QStringLiteral(" (REFUSED)")));
        printed += method.key() + (method->isEmpty() ? QStringLiteral(" (meta only)\n") : QStringLiteral("\n"));
        for (auto group = byGroup.cbegin(); group != byGroup.cend(); ++group)
            printed += QStringLiteral("  %1: %2\n").arg(group.key(), group.value().join(QStringLiteral(", ")));
    }
    std::printf("Members of the contract's examples, per method (accepted unless marked):\n%s",
                printed.toUtf8().constData());
    for (auto method = table.cbegin(); method != table.cend(); ++method) {
        for (auto member = method->cbegin(); member != method->cend(); ++member)
            EXPECT_TRUE(member.value()) << method.key().toStdString() << " does not accept "
                                        << member.key().toStdString();
    }
    EXPECT_TRUE(refusals.isEmpty()) << refusals.join(QStringLiteral("\n")).toStdString();
    // The contract's route carries members that narrow (app, window) and one that only says
    // how (focusPolicy): all in the table, for every method that takes a route.
    for (const char* method : {"desktop.observe", "desktop.find", "desktop.click", "desktop.typeText", "desktop.hotkey",
                               "desktop.waitUntil"}) {
        for (const char* member : {"route.app.bundleId", "route.window.titlePattern", "route.focusPolicy"})
            EXPECT_TRUE(table.value(QLatin1String(method)).value(QLatin1String(member)))
                << method << " lacks " << member;
    }
}

// The parsing of the contract itself: an "or" between two members becomes two requests, the
// comments go, a `{ ... }` is filled; a test of the test, so that a quiet parser cannot pass.
TEST(ContractConformance, ExamplesAreReadAsTheContractWritesThem)
{
    const QString block = QStringLiteral("{\n  \"target\": {\n    \"elementRef\": {\n      \"elementId\": \"e:1\"  // "
                                         "one\n    }\n    // 或\n    \"selector\": { ... }  // two\n  }\n}\n");
    const QStringList alternativesFound = alternatives(block);
    ASSERT_EQ(alternativesFound.size(), 2);
    QString why;
    const auto first = parseExample(alternativesFound.at(0), &why);
    ASSERT_TRUE(first) << why.toStdString();
    EXPECT_TRUE(first->value(QStringLiteral("target")).toObject().contains(QStringLiteral("elementRef")));
    EXPECT_FALSE(first->value(QStringLiteral("target")).toObject().contains(QStringLiteral("selector")));
    EXPECT_TRUE(alternativesFound.at(1).contains(QStringLiteral("\"selector\"")));
    EXPECT_FALSE(alternativesFound.at(1).contains(QStringLiteral("elementRef")));
    EXPECT_EQ(stripComments(QStringLiteral("{\"a\": \"x//y\" // c\n}")), QStringLiteral("{\"a\": \"x//y\" \n}"));
    const QJsonObject fresh =
        freshIds(QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM:uuid")}}, QStringLiteral("R"))
            .toObject();
    EXPECT_EQ(fresh.value(QStringLiteral("phrase")).toString(), QStringLiteral("CONFIRM:R"));
    const ContractText contract = readContract(contractText());
    for (const Example& example : contract.examples) {
        if (example.method == QLatin1String("desktop.waitUntil")) {
            EXPECT_EQ(example.params.value(QStringLiteral("route")).toObject(), contract.route);
            EXPECT_EQ(example.params.value(QStringLiteral("condition"))
                          .toObject()
                          .value(QStringLiteral("selectorExists"))
                          .toObject()
                          .value(QStringLiteral("byRole"))
                          .toString(),
                      QStringLiteral("AXButton"));
        }
    }
    EXPECT_EQ(contract.route.value(QStringLiteral("focusPolicy")).toString(), QStringLiteral("focusIfNeeded"));
}

// The served schema (rpc.discover's document) accepts every request the contract shows, as
// Debian's python3-jsonschema reads it (tests/contract/validate.py).
TEST(ContractConformance, EveryRequestExampleOfTheContractIsValidUnderTheServedSchema)
{
    const ContractText contract = readContract(contractText());
    ASSERT_GE(contract.examples.size(), 13);
    TestHost host;
    TestClient client(host.socketPath());
    ASSERT_TRUE(client.isConnected());
    const QJsonObject document =
        client
            .call(QStringLiteral("rpc.discover"),
                  QJsonObject{{QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                                                   {QStringLiteral("requestId"), newRequestId()}}}})
            .value(QStringLiteral("result"))
            .toObject();
    ASSERT_EQ(document.value(QStringLiteral("openrpc")).toString(), QStringLiteral("1.3.2"));
    QJsonArray requests;
    for (const Example& example : contract.examples) {
        const QString requestId = newRequestId();
        QJsonObject params = freshIds(example.params, requestId).toObject();
        params.insert(QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                                          {QStringLiteral("requestId"), requestId},
                                                          {QStringLiteral("workspacePath"), host.workspace()},
                                                          {QStringLiteral("timeoutMs"), 60000}});
        requests.append(QJsonObject{{QStringLiteral("method"), example.method}, {QStringLiteral("params"), params}});
    }
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString documentPath = dir.filePath(QStringLiteral("openrpc.json"));
    const QString requestsPath = dir.filePath(QStringLiteral("requests.json"));
    for (const auto& [path, json] :
         {std::pair{documentPath, QJsonDocument(document)}, std::pair{requestsPath, QJsonDocument(requests)}}) {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(json.toJson());
    }
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral(MDH_SOURCE_DIR "/tests/contract/validate.py"), documentPath, requestsPath});
    ASSERT_TRUE(python.waitForFinished(60000));
    ASSERT_EQ(python.exitCode(), 0) << python.readAllStandardError().toStdString();
    const QList<QByteArray> verdicts = python.readAllStandardOutput().trimmed().split('\n');
    ASSERT_EQ(verdicts.size(), contract.examples.size());
    for (qsizetype i = 0; i < verdicts.size(); ++i) {
        const QJsonObject verdict = QJsonDocument::fromJson(verdicts.at(i)).object();
        EXPECT_TRUE(verdict.value(QStringLiteral("accepted")).toBool())
            << contract.examples.at(i).where.toStdString() << ": "
            << verdict.value(QStringLiteral("why")).toString().toStdString();
    }
}
