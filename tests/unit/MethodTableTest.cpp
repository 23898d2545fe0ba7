// The method table as data: what every entry must have, and that its kinds hold the rules
// (a side effect is queued, confirmed and workspace-bound; immediate methods never queue).
#include "bridge/MethodTable.h"
#include "bridge/contract/Schema.h"

#include <QJsonArray>

#include <gtest/gtest.h>

using Bridge::MethodEntry;
using Bridge::MethodTable;

namespace {

TEST(MethodTable, ServesTheContractsMethodsThePlansPrimitivesAndTheStop)
{
    QStringList names;
    for (const MethodEntry& entry : MethodTable::contract().entries())
        names.append(entry.name);
    EXPECT_EQ(names, (QStringList{QStringLiteral("desktop.health"),
                                  QStringLiteral("desktop.doctor"),
                                  QStringLiteral("desktop.observe"),
                                  QStringLiteral("desktop.find"),
                                  QStringLiteral("desktop.click"),
                                  QStringLiteral("desktop.typeText"),
                                  QStringLiteral("desktop.hotkey"),
                                  QStringLiteral("desktop.waitUntil"),
                                  QStringLiteral("desktop.dumpTree"),
                                  QStringLiteral("desktop.capture"),
                                  QStringLiteral("desktop.ocr"),
                                  QStringLiteral("desktop.ground"),
                                  QStringLiteral("desktop.readText"),
                                  QStringLiteral("desktop.scroll"),
                                  QStringLiteral("desktop.menuPick"),
                                  QStringLiteral("desktop.pointer"),
                                  QStringLiteral("desktop.windows"),
                                  QStringLiteral("desktop.window"),
                                  QStringLiteral("desktop.elementAt"),
                                  QStringLiteral("desktop.abort"),
                                  QStringLiteral("desktop.confirm.issue"),
                                  QStringLiteral("desktop.stop"),
                                  QStringLiteral("desktop.resume"),
                                  QStringLiteral("desktop.policy"),
                                  QStringLiteral("desktop.remote.status"),
                                  QStringLiteral("desktop.remote.connect"),
                                  QStringLiteral("desktop.remote.disconnect"),
                                  QStringLiteral("desktop.remote.forget"),
                                  QStringLiteral("desktop.gui.open"),
                                  QStringLiteral("desktop.subscribe"),
                                  QStringLiteral("desktop.unsubscribe"),
                                  QStringLiteral("rpc.discover"),
                                  QStringLiteral("desktop.clipboard"),
                                  QStringLiteral("desktop.app"),
                                  QStringLiteral("desktop.displays"),
                                  QStringLiteral("desktop.fileDialog")}));
    EXPECT_EQ(MethodTable::contract().find(QStringLiteral("desktop.fly")), nullptr);
}

TEST(MethodTable, SideEffectsAreExactlyTheInputMethodsAndAllAreQueued)
{
    QStringList sideEffects;
    for (const MethodEntry& entry : MethodTable::contract().entries()) {
        if (entry.sideEffect()) {
            sideEffects.append(entry.name);
            EXPECT_TRUE(entry.queued()) << entry.name.toStdString();
            EXPECT_TRUE(entry.workspaceBound) << entry.name.toStdString();
            EXPECT_FALSE(entry.alwaysAdmitted) << entry.name.toStdString();
        }
        // A queued method writes evidence, so it needs a workspace; a prepare step exists
        // exactly for the queued ones.
        if (entry.queued()) {
            EXPECT_TRUE(entry.workspaceBound) << entry.name.toStdString();
        }
        EXPECT_EQ(entry.prepare() != nullptr, entry.queued()) << entry.name.toStdString();
    }
    EXPECT_EQ(sideEffects, (QStringList{QStringLiteral("desktop.click"), QStringLiteral("desktop.typeText"),
                                        QStringLiteral("desktop.hotkey"), QStringLiteral("desktop.scroll"),
                                        QStringLiteral("desktop.menuPick"), QStringLiteral("desktop.pointer"),
                                        QStringLiteral("desktop.window"), QStringLiteral("desktop.clipboard"),
                                        QStringLiteral("desktop.app"), QStringLiteral("desktop.fileDialog")}));
    // The gate, the dialog and the doors read the same set from the declarations.
    QStringList declared = Contract::methodsOf(Contract::Kind::SideEffect);
    declared.sort();
    sideEffects.sort();
    EXPECT_EQ(declared, sideEffects);
}

// A method whose action selects its kind: desktop.clipboard's read is read-only (no
// confirmation, class read), its write a side effect (class clipboard).
TEST(MethodTable, AnActionSelectsTheKindAndTheClassOfARequest)
{
    const MethodEntry* clipboard = MethodTable::contract().find(QStringLiteral("desktop.clipboard"));
    ASSERT_NE(clipboard, nullptr);
    const QJsonObject read{{QStringLiteral("action"), QStringLiteral("read")}};
    const QJsonObject write{{QStringLiteral("action"), QStringLiteral("write")},
                            {QStringLiteral("text"), QStringLiteral("x")}};
    EXPECT_FALSE(clipboard->sideEffectFor(read));
    EXPECT_TRUE(clipboard->sideEffectFor(write));
    EXPECT_TRUE(clipboard->sideEffectFor(QJsonObject{{QStringLiteral("action"), QStringLiteral("paste")}}))
        << "an undeclared action counts as a side effect until the schema refuses it";
    EXPECT_EQ(clipboard->declaration->actionClassFor(read), Contract::ActionClass::Read);
    EXPECT_EQ(clipboard->declaration->actionClassFor(write), Contract::ActionClass::Clipboard);
    // A method without actions: its own kind for every request.
    const MethodEntry* click = MethodTable::contract().find(QStringLiteral("desktop.click"));
    EXPECT_TRUE(click->sideEffectFor({}));
}

TEST(MethodTable, EveryEntryHasASummaryAndASchemaThatRequiresMeta)
{
    for (const MethodEntry& entry : MethodTable::contract().entries()) {
        ASSERT_NE(entry.declaration, nullptr) << entry.name.toStdString();
        EXPECT_FALSE(entry.declaration->summary.isEmpty()) << entry.name.toStdString();
        const QJsonObject paramsSchema = Contract::Schema::params(*entry.declaration, QStringLiteral("#/$defs/"));
        EXPECT_EQ(paramsSchema.value(QStringLiteral("type")).toString(), QStringLiteral("object"));
        const QJsonArray required = paramsSchema.value(QStringLiteral("required")).toArray();
        EXPECT_TRUE(required.contains(QStringLiteral("meta"))) << entry.name.toStdString();
        const QJsonObject properties = paramsSchema.value(QStringLiteral("properties")).toObject();
        for (const auto& name : required)
            EXPECT_TRUE(properties.contains(name.toString()))
                << entry.name.toStdString() << " requires " << name.toString().toStdString();
    }
}

TEST(MethodTable, TheParserRefusesMissingParamsNamingAFieldTheSchemaRequires)
{
    for (const MethodEntry& entry : MethodTable::contract().entries()) {
        if (!entry.prepare())
            continue;
        QStringList required;
        for (const auto& value : Contract::Schema::params(*entry.declaration, QStringLiteral("#/$defs/"))
                                     .value(QStringLiteral("required"))
                                     .toArray())
            required.append(value.toString());
        required.removeAll(QStringLiteral("meta"));
        const auto prepared = (*entry.prepare())(QJsonObject{});
        if (required.isEmpty()) {
            EXPECT_TRUE(prepared.ok()) << entry.name.toStdString() << " needs nothing but meta";
            continue;
        }
        ASSERT_FALSE(prepared.ok()) << entry.name.toStdString();
        const QString field = prepared.error().details.value(QStringLiteral("field")).toString();
        EXPECT_TRUE(required.contains(field.section(QLatin1Char('.'), 0, 0)))
            << entry.name.toStdString() << " refused with field " << field.toStdString();
    }
}

TEST(MethodTable, TypedTextIsRedactedUnlessKeptByChoice)
{
    const MethodEntry* typeText = MethodTable::contract().find(QStringLiteral("desktop.typeText"));
    ASSERT_NE(typeText, nullptr);
    const QJsonObject params{{QStringLiteral("text"), QStringLiteral("hunter2")}};
    const QJsonObject redacted = typeText->redact(params, false);
    EXPECT_TRUE(redacted.value(QStringLiteral("text")).toObject().value(QStringLiteral("redacted")).toBool());
    EXPECT_EQ(redacted.value(QStringLiteral("text")).toObject().value(QStringLiteral("length")).toInt(), 7);
    EXPECT_EQ(typeText->redact(params, true), params);
    const MethodEntry* click = MethodTable::contract().find(QStringLiteral("desktop.click"));
    EXPECT_EQ(click->redact(params, false), params);
}

} // namespace
