// The plan's primitives through the bridge with the fake backend: answers, evidence, the
// confirmation scroll and menuPick need, and the refusals (a secure field, a rect off the display).
#include "TestHost.h"
#include "bridge/protocol/Meta.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>

#include <gtest/gtest.h>

using namespace Testing;

namespace {

QJsonObject params(const TestHost& host, QJsonObject extra = {})
{
    extra.insert(
        QStringLiteral("meta"),
        Bridge::buildMeta({.workspacePath = host.workspace(), .timeoutMs = 30000, .requestId = newRequestId()}));
    return extra;
}

QJsonObject byRole(const QString& role, const QString& title = {})
{
    QJsonObject s{{QStringLiteral("byRole"), role}};
    if (!title.isEmpty())
        s.insert(QStringLiteral("titleEquals"), title);
    return s;
}

QJsonObject confirmPhrase()
{
    return QJsonObject{{QStringLiteral("phrase"), QStringLiteral("CONFIRM")}};
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString dirOf(const QJsonObject& result)
{
    return result.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("dir")).toString();
}

} // namespace

TEST(Primitives, DumpTreeAnswersTheTreeWithoutTextOrScreenshot)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject result = resultOf(client.call(QStringLiteral("desktop.dumpTree"), params(host)));
    const QJsonObject tree = result.value(QStringLiteral("tree")).toObject();
    EXPECT_EQ(tree.value(QStringLiteral("nodeCount")).toInt(), 7);
    const QJsonArray children =
        tree.value(QStringLiteral("root")).toObject().value(QStringLiteral("children")).toArray();
    ASSERT_EQ(children.size(), 6);
    // includeText is off by default (the backend then reads no text; the fake has its values anyway).
    EXPECT_FALSE(tree.value(QStringLiteral("bounds")).toObject().value(QStringLiteral("includeText")).toBool());
    EXPECT_EQ(tree.value(QStringLiteral("bounds")).toObject().value(QStringLiteral("maxNodes")).toInt(), 2000);
    const QString dir = dirOf(result);
    EXPECT_TRUE(QFile::exists(dir + QStringLiteral("ax.json")));
    EXPECT_FALSE(QFile::exists(dir + QStringLiteral("observe.png")));

    const QJsonObject bounded =
        resultOf(client.call(QStringLiteral("desktop.dumpTree"),
                             params(host, {{QStringLiteral("includeText"), true}, {QStringLiteral("maxNodes"), 3}})));
    const QJsonObject small = bounded.value(QStringLiteral("tree")).toObject();
    EXPECT_TRUE(small.value(QStringLiteral("bounds")).toObject().value(QStringLiteral("includeText")).toBool());
    EXPECT_LE(small.value(QStringLiteral("nodeCount")).toInt(), 3);
    EXPECT_TRUE(small.value(QStringLiteral("truncated")).toBool());
}

TEST(Primitives, CaptureOfTheDisplayAndOfARect)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject display =
        resultOf(client.call(QStringLiteral("desktop.capture"), params(host, {{QStringLiteral("inline"), true}})));
    EXPECT_EQ(display.value(QStringLiteral("source")).toString(), QStringLiteral("display"));
    EXPECT_EQ(display.value(QStringLiteral("frame")).toObject().value(QStringLiteral("width")).toInt(), 8);
    QImage inlined;
    ASSERT_TRUE(inlined.loadFromData(
        QByteArray::fromBase64(display.value(QStringLiteral("pngBase64")).toString().toLatin1()), "PNG"));
    EXPECT_EQ(inlined.size(), QSize(8, 6));

    // A rect partly off the display is clipped; the frame says what the image covers.
    const QJsonObject rect =
        resultOf(client.call(QStringLiteral("desktop.capture"),
                             params(host, {{QStringLiteral("rect"), QJsonObject{{QStringLiteral("x"), 2},
                                                                                {QStringLiteral("y"), 1},
                                                                                {QStringLiteral("width"), 100},
                                                                                {QStringLiteral("height"), 3}}}})));
    EXPECT_EQ(rect.value(QStringLiteral("frame")).toObject(), (QJsonObject{{QStringLiteral("x"), 2},
                                                                           {QStringLiteral("y"), 1},
                                                                           {QStringLiteral("width"), 6},
                                                                           {QStringLiteral("height"), 3}}));
    EXPECT_FALSE(rect.contains(QStringLiteral("pngBase64")));
    QImage file(dirOf(rect) + QStringLiteral("capture.png"));
    EXPECT_EQ(file.size(), QSize(6, 3));

    const QJsonObject outside =
        client.call(QStringLiteral("desktop.capture"),
                    params(host, {{QStringLiteral("rect"), QJsonObject{{QStringLiteral("x"), 500},
                                                                       {QStringLiteral("y"), 500},
                                                                       {QStringLiteral("width"), 10},
                                                                       {QStringLiteral("height"), 10}}}}));
    EXPECT_EQ(errorCode(outside), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(errorOf(outside).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
              QStringLiteral("rect"));
}

TEST(Primitives, ReadTextOfALabelWithinLimitAndRedacted)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject read =
        resultOf(client.call(QStringLiteral("desktop.readText"),
                             params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXStaticText"))}})));
    const QJsonArray items = read.value(QStringLiteral("items")).toArray();
    ASSERT_EQ(items.size(), 1);
    EXPECT_EQ(items.at(0).toObject().value(QStringLiteral("text")).toString(), QStringLiteral("idle"));
    EXPECT_EQ(items.at(0).toObject().value(QStringLiteral("source")).toString(), QStringLiteral("text"));
    EXPECT_EQ(read.value(QStringLiteral("redactionMode")).toString(), QStringLiteral("patterns"));
    EXPECT_TRUE(QFile::exists(dirOf(read) + QStringLiteral("selectors/candidates.json")));

    const QJsonObject cut =
        resultOf(client.call(QStringLiteral("desktop.readText"),
                             params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXStaticText"))},
                                           {QStringLiteral("limitBytes"), 2}})));
    const QJsonObject first = cut.value(QStringLiteral("items")).toArray().at(0).toObject();
    EXPECT_EQ(first.value(QStringLiteral("text")).toString(), QStringLiteral("id"));
    EXPECT_TRUE(first.value(QStringLiteral("truncated")).toBool());
    EXPECT_EQ(first.value(QStringLiteral("bytes")).toInt(), 4);
    EXPECT_TRUE(cut.value(QStringLiteral("truncated")).toBool());

    const QJsonObject hashed =
        resultOf(client.call(QStringLiteral("desktop.readText"),
                             params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXStaticText"))},
                                           {QStringLiteral("redactionMode"), QStringLiteral("hash")}})));
    const QJsonObject h = hashed.value(QStringLiteral("items")).toArray().at(0).toObject();
    EXPECT_FALSE(h.contains(QStringLiteral("text")));
    EXPECT_EQ(h.value(QStringLiteral("sha256")).toString(),
              QString::fromLatin1(QCryptographicHash::hash("idle", QCryptographicHash::Sha256).toHex()));
}

TEST(Primitives, ReadTextRefusesASecureFieldAndReadsNothing)
{
    TestHost host;
    TestClient client(host.socketPath());
    // Both text fields match; one is a password field: the whole request is refused.
    const QJsonObject refused =
        client.call(QStringLiteral("desktop.readText"),
                    params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXTextField"))}}));
    EXPECT_EQ(errorCode(refused), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    const QJsonObject details = errorOf(refused).value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("secure_field"));
    EXPECT_FALSE(errorOf(refused).value(QStringLiteral("retryable")).toBool());
    EXPECT_EQ(host.desktop().callCount(QStringLiteral("readTexts")), 0);

    // The ordinary field alone is read.
    const QJsonObject message =
        resultOf(client.call(QStringLiteral("desktop.readText"),
                             params(host, {{QStringLiteral("selector"),
                                            byRole(QStringLiteral("AXTextField"), QStringLiteral("Message"))}})));
    EXPECT_EQ(message.value(QStringLiteral("items")).toArray().size(), 1);
}

TEST(Primitives, ScrollAndMenuPickAreSideEffectsThatNeedConfirmation)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject target{{QStringLiteral("selector"), byRole(QStringLiteral("AXButton"), QStringLiteral("Send"))}};
    const QJsonObject unconfirmed =
        client.call(QStringLiteral("desktop.scroll"), params(host, {{QStringLiteral("target"), target}}));
    EXPECT_EQ(errorCode(unconfirmed), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    const QJsonObject menuUnconfirmed =
        client.call(QStringLiteral("desktop.menuPick"),
                    params(host, {{QStringLiteral("path"), QJsonArray{QStringLiteral("File")}}}));
    EXPECT_EQ(errorCode(menuUnconfirmed), QStringLiteral("DESKTOP_CONFIRM_REQUIRED"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());

    const QJsonObject scrolled = resultOf(client.call(
        QStringLiteral("desktop.scroll"), params(host, {{QStringLiteral("target"), target},
                                                        {QStringLiteral("direction"), QStringLiteral("down")},
                                                        {QStringLiteral("unit"), QStringLiteral("page")},
                                                        {QStringLiteral("amount"), 2},
                                                        {QStringLiteral("confirm"), confirmPhrase()}})));
    EXPECT_TRUE(scrolled.value(QStringLiteral("scrolled")).toBool());
    EXPECT_EQ(scrolled.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"));
    EXPECT_EQ(scrolled.value(QStringLiteral("direction")).toString(), QStringLiteral("down"));
    EXPECT_EQ(scrolled.value(QStringLiteral("unit")).toString(), QStringLiteral("page"));
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("scroll:Send:down:2p")});

    // No menu bar in the fake window: not found, naming the level, and nothing pressed.
    const QJsonObject noMenu = client.call(
        QStringLiteral("desktop.menuPick"),
        params(host, {{QStringLiteral("path"), QJsonArray{QStringLiteral("File"), QStringLiteral("Save As…")}},
                      {QStringLiteral("confirm"), confirmPhrase()}}));
    EXPECT_EQ(errorCode(noMenu), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    const QJsonObject details = errorOf(noMenu).value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("level")).toInt(), 0);
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("menu_item_not_found"));
    EXPECT_EQ(host.desktop().effects().size(), 1);
}

TEST(Primitives, FindIncludesTextAndStatesWhenAskedNeverASecretsText)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject plain =
        resultOf(client.call(QStringLiteral("desktop.find"),
                             params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXStaticText"))}})));
    EXPECT_FALSE(
        plain.value(QStringLiteral("elementRefs")).toArray().at(0).toObject().contains(QStringLiteral("text")));

    const QJsonObject with = resultOf(client.call(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXStaticText"))},
                      {QStringLiteral("include"), QJsonArray{QStringLiteral("text"), QStringLiteral("states")}}})));
    const QJsonObject status = with.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    EXPECT_EQ(status.value(QStringLiteral("text")).toString(), QStringLiteral("idle"));
    EXPECT_TRUE(status.value(QStringLiteral("states")).toObject().value(QStringLiteral("enabled")).toBool());

    const QJsonObject secret = resultOf(client.call(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXTextField"), QStringLiteral("Password"))},
                      {QStringLiteral("include"), QJsonArray{QStringLiteral("text"), QStringLiteral("states")}}})));
    const QJsonObject field = secret.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    EXPECT_TRUE(field.value(QStringLiteral("text")).isNull());
    EXPECT_TRUE(field.value(QStringLiteral("states")).toObject().value(QStringLiteral("secure")).toBool());

    const QJsonObject bad =
        client.call(QStringLiteral("desktop.find"),
                    params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXButton"))},
                                  {QStringLiteral("include"), QJsonArray{QStringLiteral("value")}}}));
    EXPECT_EQ(errorOf(bad).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
              QStringLiteral("include[0]"));
}

// A ref naming its snapshotId works until the snapshot was named by 20 requests; then it is
// refused as expired and nothing is pressed.
TEST(Freshness, ARefNamingItsSnapshotExpiresAfterItsReuseCount)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject found = resultOf(client.call(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXButton"), QStringLiteral("Send"))}})));
    const QString snapshotId = found.value(QStringLiteral("snapshotId")).toString();
    ASSERT_TRUE(snapshotId.startsWith(QStringLiteral("s:"))) << snapshotId.toStdString();
    QJsonObject ref = found.value(QStringLiteral("elementRefs")).toArray().at(0).toObject();
    ref.insert(QStringLiteral("snapshotId"), snapshotId);
    const auto clickRef = [&] {
        return client.call(QStringLiteral("desktop.click"),
                           params(host, {{QStringLiteral("target"), QJsonObject{{QStringLiteral("elementRef"), ref}}},
                                         {QStringLiteral("confirm"), confirmPhrase()}}));
    };
    for (int i = 0; i < 20; ++i)
        ASSERT_FALSE(resultOf(clickRef()).isEmpty()) << "use " << i;
    const QJsonObject spent = clickRef();
    EXPECT_EQ(errorCode(spent), QStringLiteral("DESKTOP_STALE_SNAPSHOT"));
    const QJsonObject details = errorOf(spent).value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("snapshot_expired"));
    EXPECT_EQ(details.value(QStringLiteral("why")).toString(), QStringLiteral("reuse"));
    EXPECT_EQ(host.desktop().effects().count(QStringLiteral("press:Send")), 20);

    // Without the snapshotId the same ref still works (naming it is the caller's choice).
    ref.remove(QStringLiteral("snapshotId"));
    EXPECT_FALSE(resultOf(clickRef()).isEmpty());
}

TEST(Freshness, ARouteStaysOnTheWindowItsIdNames)
{
    TestHost host;
    TestClient client(host.socketPath());
    const QJsonObject selector{
        {QStringLiteral("selector"), byRole(QStringLiteral("AXButton"), QStringLiteral("Send"))}};
    const QJsonObject first = resultOf(client.call(QStringLiteral("desktop.find"), params(host, selector)));
    const QString windowId =
        first.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowId")).toString();
    ASSERT_TRUE(windowId.startsWith(QStringLiteral("w:"))) << windowId.toStdString();
    const auto findIn = [&](const QString& id) {
        QJsonObject p = selector;
        p.insert(QStringLiteral("route"),
                 QJsonObject{{QStringLiteral("window"), QJsonObject{{QStringLiteral("id"), id}}}});
        p.insert(QStringLiteral("refresh"), true);
        return client.call(QStringLiteral("desktop.find"), params(host, p));
    };
    EXPECT_EQ(resultOf(findIn(windowId)).value(QStringLiteral("matched")).toInt(), 1);
    const QJsonObject gone = findIn(QStringLiteral("w:closed|window"));
    EXPECT_EQ(errorCode(gone), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    EXPECT_EQ(errorOf(gone).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
              QStringLiteral("window_not_found"));
    const QJsonObject bad = findIn(QStringLiteral("42"));
    EXPECT_EQ(errorCode(bad), QStringLiteral("DESKTOP_INVALID_REQUEST"));
    EXPECT_EQ(errorOf(bad).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
              QStringLiteral("route.window.id"));
}

// The caller names how a click is delivered: the pointer alone, or the action alone (no pointer
// even with the coordinate fallback allowed); unknown deliveries are refused naming the field.
TEST(Freshness, ClickAndTypeTextTakeTheDeliveryTheCallerNames)
{
    TestHost host;
    TestClient client(host.socketPath());
    const auto click = [&](const QJsonObject& selector, const QString& delivery, bool fallback = false) {
        return client.call(
            QStringLiteral("desktop.click"),
            params(host, {{QStringLiteral("target"), QJsonObject{{QStringLiteral("selector"), selector}}},
                          {QStringLiteral("delivery"), delivery},
                          {QStringLiteral("allowCoordinateFallback"), fallback},
                          {QStringLiteral("confirm"), confirmPhrase()}}));
    };
    const QJsonObject pointer =
        resultOf(click(byRole(QStringLiteral("AXButton"), QStringLiteral("Send")), QStringLiteral("pointer")));
    EXPECT_EQ(pointer.value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("pointer"));
    EXPECT_EQ(host.desktop().effects(), QStringList{QStringLiteral("pointer:360,22")});

    host.desktop().clearEffects();
    const QJsonObject actionOnly =
        click(byRole(QStringLiteral("AXImage"), QStringLiteral("Logo")), QStringLiteral("action"), true);
    EXPECT_EQ(errorCode(actionOnly), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    EXPECT_EQ(
        errorOf(actionOnly).value(QStringLiteral("details")).toObject().value(QStringLiteral("reason")).toString(),
        QStringLiteral("no_action"));
    EXPECT_TRUE(host.desktop().effects().isEmpty()) << host.desktop().effects().join(QLatin1Char(' ')).toStdString();

    const QJsonObject unknown =
        click(byRole(QStringLiteral("AXButton"), QStringLiteral("Send")), QStringLiteral("mouse"));
    EXPECT_EQ(errorOf(unknown).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
              QStringLiteral("delivery"));
    const QJsonObject typed = client.call(QStringLiteral("desktop.typeText"),
                                          params(host, {{QStringLiteral("text"), QStringLiteral("x")},
                                                        {QStringLiteral("delivery"), QStringLiteral("pointer")},
                                                        {QStringLiteral("confirm"), confirmPhrase()}}));
    EXPECT_EQ(errorOf(typed).value(QStringLiteral("details")).toObject().value(QStringLiteral("field")).toString(),
              QStringLiteral("delivery"));
    EXPECT_TRUE(host.desktop().effects().isEmpty());
}

// env.json gets, after the execution, how a side effect was delivered and its effect, or the
// error it ended with; a read-only request gets no action.
TEST(Freshness, EnvJsonRecordsTheDeliveryOrTheErrorOfASideEffect)
{
    TestHost host;
    TestClient client(host.socketPath());
    const auto envOf = [](const QJsonObject& response) {
        const QString dir = resultOf(response).isEmpty() ? errorOf(response)
                                                               .value(QStringLiteral("details"))
                                                               .toObject()
                                                               .value(QStringLiteral("evidenceDir"))
                                                               .toString()
                                                         : dirOf(resultOf(response));
        return QJsonDocument::fromJson(readFile(dir + QStringLiteral("env.json"))).object();
    };
    const auto click = [&](const QString& title) {
        return client.call(
            QStringLiteral("desktop.click"),
            params(host, {{QStringLiteral("target"),
                           QJsonObject{{QStringLiteral("selector"), byRole(QStringLiteral("AXButton"), title)}}},
                          {QStringLiteral("confirm"), confirmPhrase()}}));
    };
    const QJsonObject action = envOf(click(QStringLiteral("Send"))).value(QStringLiteral("action")).toObject();
    EXPECT_EQ(action.value(QStringLiteral("deliveredBy")).toString(), QStringLiteral("accessibilityAction:press"));
    EXPECT_EQ(action.value(QStringLiteral("effect")).toString(), QStringLiteral("confirmed"));
    EXPECT_TRUE(action.contains(QStringLiteral("verification")));

    const QJsonObject failed = click(QStringLiteral("Nowhere"));
    ASSERT_EQ(errorCode(failed), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    EXPECT_EQ(envOf(failed).value(QStringLiteral("action")).toObject().value(QStringLiteral("error")).toString(),
              QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));

    const QJsonObject found = client.call(
        QStringLiteral("desktop.find"),
        params(host, {{QStringLiteral("selector"), byRole(QStringLiteral("AXButton"), QStringLiteral("Send"))}}));
    const QJsonObject findEnv = envOf(found);
    EXPECT_FALSE(findEnv.isEmpty());
    EXPECT_FALSE(findEnv.contains(QStringLiteral("action")));
}

// `matched` of a wait comes from the condition that decided it, not from a branch that did not
// hold; a focus policy is refused (a wait never changes focus).
TEST(Primitives, AWaitAnswersWhatTheDecidingConditionMatched)
{
    TestHost host;
    TestClient client(host.socketPath());
    const auto exists = [](const QJsonObject& selector) {
        return QJsonObject{{QStringLiteral("selectorExists"), selector}};
    };
    const QJsonObject condition{
        {QStringLiteral("any"),
         QJsonArray{QJsonObject{{QStringLiteral("all"), QJsonArray{exists(byRole(QStringLiteral("AXButton"))),
                                                                   exists(QJsonObject{{QStringLiteral("titleEquals"),
                                                                                       QStringLiteral("Nowhere")}})}}},
                    exists(QJsonObject{{QStringLiteral("titleEquals"), QStringLiteral("Status")}})}}};
    const QJsonObject waited = resultOf(
        client.call(QStringLiteral("desktop.waitUntil"),
                    params(host, {{QStringLiteral("condition"), condition}, {QStringLiteral("timeoutMs"), 2000}})));
    EXPECT_EQ(waited.value(QStringLiteral("matched")).toInt(), 1) << QJsonDocument(waited).toJson().constData();
    const QJsonObject candidates =
        QJsonDocument::fromJson(readFile(dirOf(waited) + QStringLiteral("selectors/candidates.json"))).object();
    EXPECT_EQ(candidates.value(QStringLiteral("candidates"))
                  .toArray()
                  .at(0)
                  .toObject()
                  .value(QStringLiteral("title"))
                  .toString(),
              QStringLiteral("Status"));

    // The contract's route carries a focusPolicy (docs/protocol.md §4.3); a wait accepts it, never
    // changes focus, and says that it ignored it.
    const QJsonObject focused = resultOf(
        client.call(QStringLiteral("desktop.waitUntil"),
                    params(host, {{QStringLiteral("condition"), exists(byRole(QStringLiteral("AXButton")))},
                                  {QStringLiteral("timeoutMs"), 500},
                                  {QStringLiteral("route"),
                                   QJsonObject{{QStringLiteral("focusPolicy"), QStringLiteral("requireFocused")}}}})));
    EXPECT_TRUE(focused.value(QStringLiteral("ok")).toBool()) << QJsonDocument(focused).toJson().constData();
    const QJsonArray ignored = focused.value(QStringLiteral("ignored")).toArray();
    ASSERT_EQ(ignored.size(), 1) << QJsonDocument(focused).toJson().constData();
    EXPECT_EQ(ignored.at(0).toObject().value(QStringLiteral("field")).toString(), QStringLiteral("route.focusPolicy"));
    EXPECT_FALSE(ignored.at(0).toObject().value(QStringLiteral("why")).toString().isEmpty());
}
