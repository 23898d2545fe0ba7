// The plan's primitives below the bridge: readText's redaction, menu titles as a person reads
// them, and the params of dumpTree, capture, readText, scroll and menuPick (each refusal names
// its field).
#include "automation/Operations.h"
#include "bridge/Params.h"

#include <QJsonArray>

#include <gtest/gtest.h>

using namespace Automation;
namespace Ops = Automation::Operations;

namespace {

QString fieldOf(const Error& error)
{
    return error.details.value(QStringLiteral("field")).toString();
}

QJsonObject target()
{
    return QJsonObject{{QStringLiteral("selector"), QJsonObject{{QStringLiteral("byRole"), QStringLiteral("AXList")}}}};
}

} // namespace

TEST(Redaction, MasksAddressesLongNumbersAndTokens)
{
    int count = 0;
    const QString text =
        QStringLiteral("Write to ada.lovelace@example.org or call +44 20 7946 0958; card 4111 1111 "
                       "1111 1111; key sk_live_4eC39HqLyjWDarjtT1zdp7dc. Meeting 2026-11-23 at 10:30.");
    const QString out = Ops::redactPatterns(text, &count);
    EXPECT_EQ(count, 4) << out.toStdString();
    EXPECT_FALSE(out.contains(QStringLiteral("lovelace")));
    EXPECT_FALSE(out.contains(QStringLiteral("7946")));
    EXPECT_FALSE(out.contains(QStringLiteral("1111")));
    EXPECT_FALSE(out.contains(QStringLiteral("4eC39")));
    EXPECT_TRUE(out.contains(QStringLiteral("[redacted:email]")));
    EXPECT_TRUE(out.contains(QStringLiteral("[redacted:number]")));
    EXPECT_TRUE(out.contains(QStringLiteral("[redacted:token]")));
    // Dates, times and ordinary words stay.
    EXPECT_TRUE(out.contains(QStringLiteral("Meeting 2026-11-23 at 10:30.")));
    EXPECT_TRUE(out.startsWith(QStringLiteral("Write to ")));
}

TEST(Redaction, LeavesOrdinaryTextAlone)
{
    int count = -1;
    const QString text = QStringLiteral("Hello wörld 你好 🙂, order 12345, version 6.4.2, internationalization");
    EXPECT_EQ(Ops::redactPatterns(text, &count), text);
    EXPECT_EQ(count, 0);
}

TEST(Redaction, ModesByName)
{
    for (const auto mode : {Ops::Redaction::None, Ops::Redaction::Patterns, Ops::Redaction::Hash})
        EXPECT_EQ(Ops::redactionFromName(Ops::redactionName(mode)), mode);
    EXPECT_FALSE(Ops::redactionFromName(QStringLiteral("mask")).has_value());
}

TEST(MenuTitles, EllipsisMnemonicsShortcutsAndCaseDoNotMatter)
{
    const QString wanted = Ops::normalizeMenuTitle(QStringLiteral("Save As"));
    EXPECT_EQ(Ops::normalizeMenuTitle(QStringLiteral("Save As…")), wanted);
    EXPECT_EQ(Ops::normalizeMenuTitle(QStringLiteral("Save As...")), wanted);
    EXPECT_EQ(Ops::normalizeMenuTitle(QStringLiteral("Save &As...\tCtrl+Shift+S")), wanted);
    EXPECT_EQ(Ops::normalizeMenuTitle(QStringLiteral("_Save As…")), wanted);
    EXPECT_EQ(Ops::normalizeMenuTitle(QStringLiteral("Save As...      ")), wanted);
    EXPECT_EQ(Ops::normalizeMenuTitle(QStringLiteral("save as")), wanted);
    EXPECT_EQ(Ops::normalizeMenuTitle(QStringLiteral("Fish && Chips")), QStringLiteral("fish & chips"));
    EXPECT_NE(Ops::normalizeMenuTitle(QStringLiteral("Save All")), wanted);
    // An underscore inside a word is part of it.
    EXPECT_EQ(Ops::normalizeMenuTitle(QStringLiteral("snake_case")), QStringLiteral("snake_case"));
}

TEST(PrimitiveParams, DumpTreeBoundsAndDefaults)
{
    auto defaults = Bridge::Params::dumpTree({});
    ASSERT_TRUE(defaults);
    EXPECT_EQ(defaults->bounds.maxDepth, 8);
    EXPECT_EQ(defaults->bounds.maxNodes, 2000);
    EXPECT_FALSE(defaults->bounds.includeText);
    auto bad = Bridge::Params::dumpTree(QJsonObject{{QStringLiteral("maxNodes"), 0}});
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, ErrorCode::InvalidRequest);
    EXPECT_EQ(fieldOf(bad.error()), QStringLiteral("maxNodes"));
    EXPECT_EQ(fieldOf(Bridge::Params::dumpTree(QJsonObject{{QStringLiteral("includeText"), 1}}).error()),
              QStringLiteral("includeText"));
}

TEST(PrimitiveParams, CaptureTakesARectOrARouteNotBoth)
{
    const QJsonObject rect{{QStringLiteral("x"), 0},
                           {QStringLiteral("y"), 0},
                           {QStringLiteral("width"), 10},
                           {QStringLiteral("height"), 10}};
    auto ok = Bridge::Params::capture(QJsonObject{{QStringLiteral("rect"), rect}});
    ASSERT_TRUE(ok);
    ASSERT_TRUE(ok->rect.has_value());
    EXPECT_EQ(ok->rect->width, 10);
    auto both =
        Bridge::Params::capture(QJsonObject{{QStringLiteral("rect"), rect}, {QStringLiteral("route"), QJsonObject{}}});
    ASSERT_FALSE(both);
    EXPECT_EQ(fieldOf(both.error()), QStringLiteral("rect"));
    QJsonObject empty = rect;
    empty.insert(QStringLiteral("width"), 0);
    EXPECT_EQ(fieldOf(Bridge::Params::capture(QJsonObject{{QStringLiteral("rect"), empty}}).error()),
              QStringLiteral("rect.width"));
    QJsonObject extra = rect;
    extra.insert(QStringLiteral("w"), 3);
    EXPECT_EQ(fieldOf(Bridge::Params::capture(QJsonObject{{QStringLiteral("rect"), extra}}).error()),
              QStringLiteral("rect.w"));
}

TEST(PrimitiveParams, ReadTextNeedsASelectorAndAKnownRedactionMode)
{
    EXPECT_EQ(fieldOf(Bridge::Params::readText({}).error()), QStringLiteral("selector"));
    const QJsonObject selector{{QStringLiteral("byRole"), QStringLiteral("AXStaticText")}};
    auto ok = Bridge::Params::readText(QJsonObject{{QStringLiteral("selector"), selector}});
    ASSERT_TRUE(ok);
    EXPECT_EQ(ok->limitBytes, 65536);
    EXPECT_EQ(ok->redactionMode, QStringLiteral("patterns"));
    EXPECT_EQ(fieldOf(Bridge::Params::readText(QJsonObject{{QStringLiteral("selector"), selector},
                                                           {QStringLiteral("redactionMode"), QStringLiteral("mask")}})
                          .error()),
              QStringLiteral("redactionMode"));
    EXPECT_EQ(fieldOf(Bridge::Params::readText(
                          QJsonObject{{QStringLiteral("selector"), selector}, {QStringLiteral("limitBytes"), 0}})
                          .error()),
              QStringLiteral("limitBytes"));
}

TEST(PrimitiveParams, ScrollDirectionAmountAndUnit)
{
    auto intoView = Bridge::Params::scroll(QJsonObject{{QStringLiteral("target"), target()}});
    ASSERT_TRUE(intoView);
    EXPECT_EQ(intoView->spec.direction, ScrollSpec::Direction::IntoView);
    auto page = Bridge::Params::scroll(QJsonObject{{QStringLiteral("target"), target()},
                                                   {QStringLiteral("direction"), QStringLiteral("down")},
                                                   {QStringLiteral("unit"), QStringLiteral("page")}});
    ASSERT_TRUE(page);
    EXPECT_EQ(page->spec.direction, ScrollSpec::Direction::Down);
    EXPECT_TRUE(page->spec.pages);
    EXPECT_EQ(page->spec.amount, 1);
    auto lines = Bridge::Params::scroll(
        QJsonObject{{QStringLiteral("target"), target()}, {QStringLiteral("direction"), QStringLiteral("left")}});
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->spec.amount, 3);
    EXPECT_FALSE(lines->spec.pages);

    EXPECT_EQ(fieldOf(Bridge::Params::scroll({}).error()), QStringLiteral("target"));
    EXPECT_EQ(fieldOf(Bridge::Params::scroll(QJsonObject{{QStringLiteral("target"), target()},
                                                         {QStringLiteral("direction"), QStringLiteral("sideways")}})
                          .error()),
              QStringLiteral("direction"));
    EXPECT_EQ(fieldOf(Bridge::Params::scroll(QJsonObject{{QStringLiteral("target"), target()},
                                                         {QStringLiteral("direction"), QStringLiteral("up")},
                                                         {QStringLiteral("amount"), 0}})
                          .error()),
              QStringLiteral("amount"));
    // An amount without a direction says nothing: refused rather than guessed.
    EXPECT_EQ(
        fieldOf(Bridge::Params::scroll(QJsonObject{{QStringLiteral("target"), target()}, {QStringLiteral("amount"), 2}})
                    .error()),
        QStringLiteral("direction"));
    EXPECT_EQ(fieldOf(Bridge::Params::scroll(QJsonObject{{QStringLiteral("target"), target()},
                                                         {QStringLiteral("direction"), QStringLiteral("up")},
                                                         {QStringLiteral("unit"), QStringLiteral("pixel")}})
                          .error()),
              QStringLiteral("unit"));
}

TEST(PrimitiveParams, MenuPickPathIsOneToEightTitles)
{
    auto ok = Bridge::Params::menuPick(
        QJsonObject{{QStringLiteral("path"), QJsonArray{QStringLiteral("File"), QStringLiteral("Save As…")}}});
    ASSERT_TRUE(ok);
    EXPECT_EQ(ok->path, (QStringList{QStringLiteral("File"), QStringLiteral("Save As…")}));
    EXPECT_EQ(fieldOf(Bridge::Params::menuPick({}).error()), QStringLiteral("path"));
    EXPECT_EQ(fieldOf(Bridge::Params::menuPick(QJsonObject{{QStringLiteral("path"), QJsonArray{}}}).error()),
              QStringLiteral("path"));
    EXPECT_EQ(
        fieldOf(Bridge::Params::menuPick(QJsonObject{{QStringLiteral("path"), QStringLiteral("File > Save")}}).error()),
        QStringLiteral("path"));
    EXPECT_EQ(fieldOf(Bridge::Params::menuPick(QJsonObject{{QStringLiteral("path"),
                                                            QJsonArray{QStringLiteral("File"), QStringLiteral(" ")}}})
                          .error()),
              QStringLiteral("path[1]"));
    EXPECT_EQ(
        fieldOf(Bridge::Params::menuPick(QJsonObject{{QStringLiteral("path"), QJsonArray{QStringLiteral("File"), 3}}})
                    .error()),
        QStringLiteral("path[1]"));
}
