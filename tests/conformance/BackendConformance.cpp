#include "BackendConformance.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <gtest/gtest.h>

namespace Conformance {

namespace {

QJsonObject selector(const QString& role, const QString& title)
{
    return QJsonObject{{QStringLiteral("byRole"), role}, {QStringLiteral("titleEquals"), title}};
}

QJsonObject target(const QString& role, const QString& title)
{
    return QJsonObject{{QStringLiteral("selector"), selector(role, title)}};
}

QJsonObject confirm()
{
    return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
}

QJsonObject resultOf(const QJsonObject& response)
{
    return response.value(QStringLiteral("result")).toObject();
}

QString errorCode(const QJsonObject& response)
{
    return response.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString();
}

std::string dump(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

QString evidenceDir(const QJsonObject& response)
{
    return resultOf(response).value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Every file of an evidence directory, recursively.
QList<QByteArray> evidenceFiles(const QString& dir)
{
    QList<QByteArray> out;
    for (const auto& entry : QDir(dir).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (entry.isDir())
            out += evidenceFiles(entry.absoluteFilePath());
        else
            out.append(readFile(entry.absoluteFilePath()));
    }
    return out;
}

/// Depth-first search of ax.json's tree for a node; {} when none.
QJsonObject findNode(const QJsonObject& node, const QString& role, const QString& title)
{
    if (node.value(QStringLiteral("role")).toString() == role &&
        node.value(QStringLiteral("title")).toString() == title)
        return node;
    for (const auto& child : node.value(QStringLiteral("children")).toArray()) {
        const QJsonObject found = findNode(child.toObject(), role, title);
        if (!found.isEmpty())
            return found;
    }
    return {};
}

bool treeHas(const QJsonObject& node, const QString& role, const QString& title)
{
    return !findNode(node, role, title).isEmpty();
}

QJsonObject typeInto(Target& t, const QString& role, const QString& title, const QString& text, bool clear)
{
    QJsonObject params{{QStringLiteral("confirm"), confirm()},
                       {QStringLiteral("target"), target(role, title)},
                       {QStringLiteral("text"), text}};
    if (clear)
        params.insert(QStringLiteral("options"), QJsonObject{{QStringLiteral("clearBefore"), true}});
    return t.call(QStringLiteral("desktop.typeText"), params);
}

} // namespace

void findsAButtonByRoleAndTitle(Target& t)
{
    const QJsonObject response =
        t.call(QStringLiteral("desktop.find"),
               {{QStringLiteral("selector"), selector(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    const QJsonObject result = resultOf(response);
    ASSERT_EQ(result.value(QStringLiteral("matched")).toInt(), 1) << dump(response);
    const QJsonObject ref = result.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    EXPECT_EQ(ref.value(QStringLiteral("role")).toString(), QStringLiteral("AXButton"));
    EXPECT_EQ(ref.value(QStringLiteral("title")).toString(), QStringLiteral("Send"));
    EXPECT_GT(ref.value(QStringLiteral("frame")).toObject().value(QStringLiteral("width")).toInt(), 0);
    EXPECT_TRUE(ref.value(QStringLiteral("fingerprint")).toString().startsWith(QStringLiteral("AXButton|Send|x=")))
        << dump(ref);
    EXPECT_EQ(result.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowTitle")).toString(),
              QStringLiteral("MDH Target App"));
    // The field finds by its visible name too, and the candidates are kept.
    const QJsonObject field = resultOf(
        t.call(QStringLiteral("desktop.find"),
               {{QStringLiteral("selector"), selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}}));
    EXPECT_EQ(field.value(QStringLiteral("matched")).toInt(), 1) << dump(field);
    EXPECT_TRUE(QFile::exists(evidenceDir(response) + QStringLiteral("selectors/candidates.json")));
}

void namesWhatItCouldNotFind(Target& t)
{
    t.forgetReports();
    const QJsonObject response =
        t.call(QStringLiteral("desktop.click"),
               {{QStringLiteral("confirm"), confirm()},
                {QStringLiteral("target"), target(QStringLiteral("AXButton"), QStringLiteral("Nowhere"))}});
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")) << dump(response);
    EXPECT_FALSE(t.appSawPressed(QStringLiteral("Send")));
}

void observesTheTreeAndTheScreen(Target& t)
{
    const QJsonObject response = t.call(QStringLiteral("desktop.observe"), {});
    const QJsonObject result = resultOf(response);
    ASSERT_FALSE(result.isEmpty()) << dump(response);
    const QString dir = evidenceDir(response);
    EXPECT_TRUE(readFile(dir + QStringLiteral("observe.png")).startsWith("\x89PNG"));
    const QJsonObject tree = QJsonDocument::fromJson(readFile(dir + QStringLiteral("ax.json"))).object();
    EXPECT_GT(tree.value(QStringLiteral("nodeCount")).toInt(), 5) << dump(tree);
    const QJsonObject root = tree.value(QStringLiteral("root")).toObject();
    EXPECT_TRUE(treeHas(root, QStringLiteral("AXButton"), QStringLiteral("Send"))) << dump(tree);
    EXPECT_TRUE(treeHas(root, QStringLiteral("AXCheckBox"), QStringLiteral("Remember me")));
}

void clickPressesTheButton(Target& t)
{
    t.forgetReports();
    const QJsonObject response =
        t.call(QStringLiteral("desktop.click"),
               {{QStringLiteral("confirm"), confirm()},
                {QStringLiteral("target"), target(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    const QJsonObject result = resultOf(response);
    EXPECT_TRUE(result.value(QStringLiteral("clicked")).toBool()) << dump(response);
    EXPECT_EQ(result.value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("accessibilityAction:press"));
    EXPECT_TRUE(t.appSawPressed(QStringLiteral("Send")));
}

void typesIntoTheFieldAndReadsItBack(Target& t)
{
    const QString text = QStringLiteral("héllo wörld ✓");
    typeInto(t, QStringLiteral("AXTextField"), QStringLiteral("Message"), QString(), true);
    const QJsonObject response = typeInto(t, QStringLiteral("AXTextField"), QStringLiteral("Message"), text, true);
    const QJsonObject result = resultOf(response);
    EXPECT_TRUE(result.value(QStringLiteral("typed")).toBool()) << dump(response);
    EXPECT_TRUE(result.value(QStringLiteral("readBack")).toBool()) << dump(response);
    EXPECT_EQ(result.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"));
    EXPECT_EQ(t.appFieldText(QStringLiteral("Message"), text).value_or(QString()), text);
}

void clearBeforeReplacesTheText(Target& t)
{
    typeInto(t, QStringLiteral("AXTextField"), QStringLiteral("Message"), QStringLiteral("old text"), true);
    ASSERT_EQ(t.appFieldText(QStringLiteral("Message"), QStringLiteral("old text")).value_or(QString()),
              QStringLiteral("old text"));
    const QJsonObject response =
        typeInto(t, QStringLiteral("AXTextField"), QStringLiteral("Message"), QStringLiteral("new"), true);
    EXPECT_TRUE(resultOf(response).value(QStringLiteral("typed")).toBool()) << dump(response);
    EXPECT_EQ(t.appFieldText(QStringLiteral("Message"), QStringLiteral("new")).value_or(QString()),
              QStringLiteral("new"));
}

void typesASecretWithoutShowingIt(Target& t)
{
    const QString secret = QStringLiteral("s3cr3t-Pa55");
    const QJsonObject response = typeInto(t, QStringLiteral("AXTextField"), QStringLiteral("Password"), secret, true);
    EXPECT_TRUE(resultOf(response).value(QStringLiteral("typed")).toBool()) << dump(response);
    EXPECT_EQ(t.appSecretLength(QStringLiteral("Password"), static_cast<int>(secret.size())).value_or(-1),
              secret.size());
    EXPECT_FALSE(QJsonDocument(response).toJson().contains(secret.toUtf8()));
    for (const QByteArray& file : evidenceFiles(evidenceDir(response)))
        EXPECT_FALSE(file.contains(secret.toUtf8()));
}

void readsTextButNeverASecret(Target& t)
{
    typeInto(t, QStringLiteral("AXTextField"), QStringLiteral("Message"), QStringLiteral("to be read"), true);
    ASSERT_TRUE(t.appFieldText(QStringLiteral("Message"), QStringLiteral("to be read")).has_value());
    const QJsonObject read =
        t.call(QStringLiteral("desktop.readText"),
               {{QStringLiteral("selector"), selector(QStringLiteral("AXTextField"), QStringLiteral("Message"))}});
    const QJsonArray items = resultOf(read).value(QStringLiteral("items")).toArray();
    ASSERT_EQ(items.size(), 1) << dump(read);
    EXPECT_EQ(items.at(0).toObject().value(QStringLiteral("text")).toString(), QStringLiteral("to be read"));
    const QJsonObject secret =
        t.call(QStringLiteral("desktop.readText"),
               {{QStringLiteral("selector"), selector(QStringLiteral("AXTextField"), QStringLiteral("Password"))}});
    EXPECT_EQ(errorCode(secret), QStringLiteral("DESKTOP_INVALID_REQUEST")) << dump(secret);
}

void togglesTheCheckBox(Target& t)
{
    t.forgetReports();
    const QJsonObject response =
        t.call(QStringLiteral("desktop.click"),
               {{QStringLiteral("confirm"), confirm()},
                {QStringLiteral("target"), target(QStringLiteral("AXCheckBox"), QStringLiteral("Remember me"))}});
    EXPECT_TRUE(resultOf(response).value(QStringLiteral("clicked")).toBool()) << dump(response);
    EXPECT_TRUE(t.appSawChecked(QStringLiteral("Remember me"), true));
    // The tree says so too.
    const QJsonObject observed = t.call(QStringLiteral("desktop.observe"), {});
    const QJsonObject tree =
        QJsonDocument::fromJson(readFile(evidenceDir(observed) + QStringLiteral("ax.json"))).object();
    const QJsonObject box = findNode(tree.value(QStringLiteral("root")).toObject(), QStringLiteral("AXCheckBox"),
                                     QStringLiteral("Remember me"));
    EXPECT_TRUE(box.value(QStringLiteral("states")).toArray().contains(QStringLiteral("checked"))) << dump(box);
}

void aHotkeyReachesTheApp(Target& t)
{
    typeInto(t, QStringLiteral("AXTextField"), QStringLiteral("Message"), QStringLiteral("abc"), true);
    ASSERT_EQ(t.appFieldText(QStringLiteral("Message"), QStringLiteral("abc")).value_or(QString()),
              QStringLiteral("abc"));
    const QJsonObject response =
        t.call(QStringLiteral("desktop.hotkey"), {{QStringLiteral("confirm"), confirm()},
                                                  {QStringLiteral("keys"), QJsonArray{QStringLiteral("backspace")}}});
    EXPECT_TRUE(resultOf(response).value(QStringLiteral("sent")).toBool()) << dump(response);
    EXPECT_EQ(t.appFieldText(QStringLiteral("Message"), QStringLiteral("ab")).value_or(QString()),
              QStringLiteral("ab"));
}

void refusesASideEffectWithoutConfirmation(Target& t)
{
    t.forgetReports();
    const QJsonObject response =
        t.call(QStringLiteral("desktop.click"),
               {{QStringLiteral("target"), target(QStringLiteral("AXButton"), QStringLiteral("Send"))}});
    EXPECT_EQ(errorCode(response), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")) << dump(response);
    EXPECT_FALSE(t.appSawPressed(QStringLiteral("Send")));
}

} // namespace Conformance
