// Each method is declared once (bridge/contract/methods/), and the host's parser and the JSON
// Schema it serves come from that declaration: this test holds them to the same verdicts. For
// every method it derives requests from the declaration (each field at its bounds and one past,
// a wrong type, each required field left out, an unknown member, each enum value and one that
// is not, each optional member added), asks the host's parser (MethodTable's checkShape, what
// the dispatcher runs) and Debian's python3-jsonschema over the OpenRPC document rpc.discover
// served, and fails on every request the two judge differently.
#include "TestHost.h"

#include "bridge/MethodTable.h"
#include "bridge/contract/Declaration.h"
#include "bridge/contract/Schema.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace Testing;
using Contract::Node;

namespace {

struct Derived
{
    QString method;
    QString what;
    QJsonObject params;
};

QJsonValue sample(const Node& node, int depth = 0);

QJsonObject sampleObject(const Node& node, int depth)
{
    QJsonObject out;
    for (const auto& field : node.fields) {
        if (field.required)
            out.insert(field.name, sample(field.node, depth + 1));
    }
    for (const auto& group : node.atLeastOne) {
        if (std::none_of(group.cbegin(), group.cend(), [&](const QString& name) { return out.contains(name); }))
            out.insert(group.first(), sample(Contract::fieldOf(node, group.first())->node, depth + 1));
    }
    return out;
}

// A valid value of `node`: its declared sample, else the least one its rules allow.
QJsonValue sample(const Node& node, int depth)
{
    if (node.example)
        return *node.example;
    switch (node.type) {
    case Node::Type::Boolean:
        return false;
    case Node::Type::Integer:
        return node.minimum ? double(*node.minimum) : node.maximum ? double(std::min<qint64>(0, *node.maximum)) : 0.0;
    case Node::Type::String:
        return node.enumValues.isEmpty() ? QStringLiteral("x") : node.enumValues.first();
    case Node::Type::Array: {
        QJsonArray out;
        for (int i = 0; i < std::max(1, node.minItems.value_or(1)); ++i)
            out.append(sample(*node.items, depth + 1));
        return out;
    }
    case Node::Type::Object:
        return sampleObject(node, depth);
    case Node::Type::Ref:
        return sample(*Contract::sharedType(node.ref), depth + 1);
    case Node::Type::Any:
        return node.alternatives.isEmpty() ? QJsonValue(QStringLiteral("x")) : sample(node.alternatives.first(), depth);
    }
    return {};
}

QJsonValue wrongType(const Node& node)
{
    switch (node.type) {
    case Node::Type::Boolean:
        return QStringLiteral("yes");
    case Node::Type::Integer:
        return QStringLiteral("1");
    case Node::Type::String:
        return 1;
    case Node::Type::Array:
        return QJsonObject{};
    case Node::Type::Object:
        return QJsonArray{};
    case Node::Type::Ref:
        return wrongType(*Contract::sharedType(node.ref));
    case Node::Type::Any:
        return QJsonArray{QJsonArray{}};
    }
    return {};
}

const Node& resolved(const Node& node)
{
    return node.type == Node::Type::Ref ? *Contract::sharedType(node.ref) : node;
}

// The value at `path` in `root` replaced by `value` (undefined: removed).
QJsonObject with(QJsonObject root, const QStringList& path, const QJsonValue& value)
{
    if (path.size() == 1) {
        if (value.isUndefined())
            root.remove(path.first());
        else
            root.insert(path.first(), value);
        return root;
    }
    root.insert(path.first(), with(root.value(path.first()).toObject(), path.mid(1), value));
    return root;
}

// Variants of the object at `path` (whose current value is `current`), declared by `node`.
void deriveObject(const Node& declared, const QJsonObject& base, const QStringList& path, const QJsonObject& current,
                  int depth, QList<std::pair<QString, QJsonObject>>& out)
{
    const Node& node = resolved(declared);
    const QString where = path.isEmpty() ? QStringLiteral("params") : path.join(QLatin1Char('.'));
    const auto add = [&](const QString& what, const QStringList& at, const QJsonValue& value) {
        out.append({what, with(base, at, value)});
    };
    add(where + QStringLiteral(" + unknown member"), path + QStringList{QStringLiteral("zzUnknown")}, 1);
    for (const auto& field : node.fields) {
        const QStringList at = path + QStringList{field.name};
        const QString name = at.join(QLatin1Char('.'));
        const bool present = current.contains(field.name);
        const QJsonValue value = present ? current.value(field.name) : sample(field.node);
        if (present)
            add(name + QStringLiteral(" left out"), at, QJsonValue::Undefined);
        else
            add(name + QStringLiteral(" added"), at, value);
        add(name + QStringLiteral(" of a wrong type"), at, wrongType(field.node));
        const Node& f = resolved(field.node);
        switch (f.type) {
        case Node::Type::Integer:
            if (f.minimum) {
                add(name + QStringLiteral(" at its minimum"), at, double(*f.minimum));
                add(name + QStringLiteral(" one below its minimum"), at, double(*f.minimum) - 1);
            }
            if (f.maximum) {
                add(name + QStringLiteral(" at its maximum"), at, double(*f.maximum));
                add(name + QStringLiteral(" one above its maximum"), at, double(*f.maximum) + 1);
            }
            add(name + QStringLiteral(" not whole"), at, double(f.minimum.value_or(0)) + 0.5);
            break;
        case Node::Type::String:
            for (const auto& v : f.enumValues)
                add(name + QStringLiteral(" = ") + v, at, v);
            if (!f.enumValues.isEmpty())
                add(name + QStringLiteral(" not one of its values"), at, QStringLiteral("zz-not-a-value"));
            if (f.nonEmpty)
                add(name + QStringLiteral(" empty"), at, QString());
            break;
        case Node::Type::Boolean:
            add(name + QStringLiteral(" = true"), at, true);
            add(name + QStringLiteral(" = false"), at, false);
            break;
        case Node::Type::Array: {
            const QJsonArray items = value.toArray();
            const QJsonValue item = items.isEmpty() ? sample(*f.items) : items.first();
            if (f.minItems && *f.minItems > 0)
                add(name + QStringLiteral(" one item short"), at, QJsonArray());
            if (f.maxItems) {
                QJsonArray full, over;
                for (int i = 0; i < *f.maxItems; ++i)
                    full.append(item);
                over = full;
                over.append(item);
                add(name + QStringLiteral(" with its most items"), at, full);
                add(name + QStringLiteral(" one item over"), at, over);
            }
            add(name + QStringLiteral(" with an item of a wrong type"), at, QJsonArray{wrongType(*f.items)});
            for (const auto& v : resolved(*f.items).enumValues)
                add(name + QStringLiteral(" = [") + v + QLatin1Char(']'), at, QJsonArray{v});
            if (!resolved(*f.items).enumValues.isEmpty())
                add(name + QStringLiteral(" with an item not one of its values"), at,
                    QJsonArray{QStringLiteral("zz-not-a-value")});
            break;
        }
        case Node::Type::Object:
            // Into nested objects, two levels of shared types deep (selectors nest selectors).
            if (depth < 3 && value.isObject())
                deriveObject(field.node, with(base, at, value), at, value.toObject(), depth + 1, out);
            break;
        default:
            break;
        }
    }
}

QList<Derived> derive(const Contract::Method& method, const QString& workspace)
{
    const QJsonObject meta{{QStringLiteral("schemaVersion"), 1},
                           {QStringLiteral("requestId"), QStringLiteral("0b5c1b1e-7c1f-4f61-9d43-3f0f8f3c9e11")},
                           {QStringLiteral("workspacePath"), workspace},
                           {QStringLiteral("timeoutMs"), 5000}};
    QList<std::pair<QString, QJsonObject>> variants{{QStringLiteral("the declaration's example"), method.example}};
    deriveObject(method.params, method.example, {}, method.example, 0, variants);
    QList<Derived> out;
    for (auto& [what, params] : variants) {
        params.insert(QStringLiteral("meta"), meta);
        out.append({method.name, what, params});
    }
    return out;
}

} // namespace

TEST(ContractSchema, TheHostsParserAndTheServedSchemaJudgeEveryDerivedRequestAlike)
{
    TestHost host;
    TestClient client(host.socketPath());
    ASSERT_TRUE(client.isConnected());
    const QJsonObject discovered =
        client.call(QStringLiteral("rpc.discover"),
                    QJsonObject{{QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                                                     {QStringLiteral("requestId"), newRequestId()}}}});
    const QJsonObject document = discovered.value(QStringLiteral("result")).toObject();
    ASSERT_EQ(document.value(QStringLiteral("openrpc")).toString(), QStringLiteral("1.3.2"))
        << QJsonDocument(discovered).toJson().toStdString();
    ASSERT_EQ(document.value(QStringLiteral("methods")).toArray().size(), Contract::methods().size());

    QList<Derived> all;
    for (const auto& method : Contract::methods())
        all.append(derive(method, host.workspace()));
    QJsonArray requests;
    for (const auto& d : all)
        requests.append(QJsonObject{{QStringLiteral("method"), d.method}, {QStringLiteral("params"), d.params}});

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QFile doc(dir.filePath(QStringLiteral("openrpc.json")));
    ASSERT_TRUE(doc.open(QIODevice::WriteOnly));
    doc.write(QJsonDocument(document).toJson());
    doc.close();
    QFile req(dir.filePath(QStringLiteral("requests.json")));
    ASSERT_TRUE(req.open(QIODevice::WriteOnly));
    req.write(QJsonDocument(requests).toJson());
    req.close();
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral(MDH_SOURCE_DIR "/tests/contract/validate.py"), doc.fileName(), req.fileName()});
    ASSERT_TRUE(python.waitForFinished(120000));
    ASSERT_EQ(python.exitCode(), 0) << python.readAllStandardError().toStdString();
    const QList<QByteArray> verdicts = python.readAllStandardOutput().trimmed().split('\n');
    ASSERT_EQ(verdicts.size(), all.size());

    int accepted = 0;
    QStringList disagreements;
    for (qsizetype i = 0; i < all.size(); ++i) {
        const QJsonObject schema = QJsonDocument::fromJson(verdicts.at(i)).object();
        const Bridge::MethodEntry* entry = Bridge::MethodTable::contract().find(all.at(i).method);
        ASSERT_NE(entry, nullptr);
        const auto refused = Bridge::checkShape(*entry, all.at(i).params);
        const bool hostAccepts = !refused.has_value();
        accepted += hostAccepts;
        if (i == 0 || all.at(i).what == QLatin1String("the declaration's example")) {
            EXPECT_TRUE(hostAccepts) << all.at(i).method.toStdString() << ": its example is refused: "
                                     << (refused ? refused->message.toStdString() : std::string());
        }
        if (hostAccepts != schema.value(QStringLiteral("accepted")).toBool())
            disagreements.append(
                QStringLiteral("%1, %2: host %3%4, schema %5 %6")
                    .arg(all.at(i).method, all.at(i).what,
                         hostAccepts ? QStringLiteral("accepts") : QStringLiteral("refuses"),
                         refused ? QStringLiteral(" (") + refused->message + QLatin1Char(')') : QString(),
                         schema.value(QStringLiteral("accepted")).toBool() ? QStringLiteral("accepts")
                                                                           : QStringLiteral("refuses"),
                         schema.value(QStringLiteral("why")).toString()));
    }
    std::printf("%lld derived requests over %lld methods: %d accepted, %lld refused; %lld disagreements\n",
                static_cast<long long>(all.size()), static_cast<long long>(Contract::methods().size()), accepted,
                static_cast<long long>(all.size() - accepted), static_cast<long long>(disagreements.size()));
    EXPECT_TRUE(disagreements.isEmpty()) << disagreements.join(QLatin1Char('\n')).toStdString();
}

TEST(ContractSchema, RpcDiscoverTakesMetaAsHealthDoesAndWritesNoEvidence)
{
    TestHost host;
    TestClient client(host.socketPath());
    ASSERT_TRUE(client.isConnected());
    const QJsonObject answer = client.call(
        QStringLiteral("rpc.discover"),
        QJsonObject{{QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                                         {QStringLiteral("requestId"), newRequestId()},
                                                         {QStringLiteral("workspacePath"), host.workspace()}}}});
    const QJsonObject document = answer.value(QStringLiteral("result")).toObject();
    EXPECT_EQ(document, Contract::Schema::openRpc());
    EXPECT_FALSE(QDir(host.workspace() + QStringLiteral("/artifacts")).exists());
    const QJsonObject refused =
        client.call(QStringLiteral("rpc.discover"),
                    QJsonObject{{QStringLiteral("meta"), QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                                                     {QStringLiteral("requestId"), newRequestId()}}},
                                {QStringLiteral("extra"), 1}});
    EXPECT_EQ(refused.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("DESKTOP_INVALID_REQUEST"));
}
