// The doors' client kit: look -> confirm -> call over a fake engine, the answer reader and the
// schema builder and checker.
#include "client-kit/Outcome.h"
#include "client-kit/SideEffectCall.h"
#include "client-kit/ToolSchema.h"

#include <QJsonArray>
#include <QList>

#include <gtest/gtest.h>

namespace {

// Answers at once: desktop.find finds an element unless its title is "Missing",
// desktop.confirm.issue gives a token, anything else succeeds with {done: true}.
class FakeEngine : public DoorKit::Engine
{
public:
    struct Request
    {
        QString method;
        QJsonObject params;
        int timeoutMs = 0;
    };

    void request(const QString& method, const QJsonObject& params, int timeoutMs, Reply reply) override
    {
        requests.append({method, params, timeoutMs});
        if (method == QLatin1String("desktop.find")) {
            const bool missing =
                params.value(QStringLiteral("selector")).toObject().value(QStringLiteral("titleContains")).toString() ==
                QLatin1String("Missing");
            QJsonArray refs;
            if (!missing)
                refs.append(QJsonObject{{QStringLiteral("elementId"), QStringLiteral("e1")}});
            return reply(
                QJsonObject{{QStringLiteral("result"),
                             QJsonObject{{QStringLiteral("elementRefs"), refs},
                                         {QStringLiteral("routeResolved"),
                                          QJsonObject{{QStringLiteral("windowTitle"), QStringLiteral("Fixture")}}},
                                         {QStringLiteral("evidence"),
                                          QJsonObject{{QStringLiteral("dir"), QStringLiteral("/e")}}}}}});
        }
        if (method == QLatin1String("desktop.confirm.issue"))
            return reply(
                QJsonObject{{QStringLiteral("result"), QJsonObject{{QStringLiteral("token"), QStringLiteral("tok")}}}});
        reply(QJsonObject{{QStringLiteral("result"), QJsonObject{{QStringLiteral("done"), true}}}});
    }

    int confirmTimeoutMs() const override { return 1234; }

    QStringList methods() const
    {
        QStringList out;
        for (const Request& r : requests)
            out.append(r.method);
        return out;
    }

    QList<Request> requests;
};

QJsonObject titled(const QString& title)
{
    return QJsonObject{{QStringLiteral("selector"), QJsonObject{{QStringLiteral("titleContains"), title}}}};
}

QJsonObject run(FakeEngine& engine, const QString& method, const QJsonObject& params, bool sideEffect = true)
{
    QJsonObject answer;
    int replies = 0;
    DoorKit::call(engine, method, params, sideEffect, 5000, [&](const QJsonObject& response) {
        answer = response;
        ++replies;
    });
    EXPECT_EQ(replies, 1);
    return answer;
}

QJsonObject dragTo(const QJsonObject& toTarget)
{
    return QJsonObject{
        {QStringLiteral("gesture"), QStringLiteral("drag")},
        {QStringLiteral("target"), titled(QStringLiteral("Source"))},
        {QStringLiteral("toTarget"), toTarget},
        {QStringLiteral("route"),
         QJsonObject{{QStringLiteral("app"), QJsonObject{{QStringLiteral("bundleId"), QStringLiteral("fixture")}}}}}};
}

} // namespace

TEST(SideEffectCall, ADragWhoseToTargetIsNotThereAsksNobody)
{
    FakeEngine engine;
    const QJsonObject answer =
        run(engine, QStringLiteral("desktop.pointer"), dragTo(titled(QStringLiteral("Missing"))));
    EXPECT_FALSE(engine.methods().contains(QStringLiteral("desktop.confirm.issue")));
    EXPECT_FALSE(engine.methods().contains(QStringLiteral("desktop.pointer")));
    EXPECT_EQ(engine.methods(), (QStringList{QStringLiteral("desktop.find"), QStringLiteral("desktop.find")}));
    const QJsonObject error = answer.value(QStringLiteral("error")).toObject();
    EXPECT_EQ(error.value(QStringLiteral("code")).toString(), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
    EXPECT_FALSE(error.value(QStringLiteral("retryable")).toBool(true));
    const QJsonObject details = error.value(QStringLiteral("details")).toObject();
    EXPECT_EQ(details.value(QStringLiteral("field")).toString(), QStringLiteral("toTarget"));
    EXPECT_EQ(details.value(QStringLiteral("reason")).toString(), QStringLiteral("not_found_before_asking"));
    EXPECT_EQ(details.value(QStringLiteral("window")).toString(), QStringLiteral("Fixture"));
    EXPECT_EQ(details.value(QStringLiteral("selector")).toObject().value(QStringLiteral("titleContains")).toString(),
              QStringLiteral("Missing"));
    // The look keeps the route and asks for one element.
    const QJsonObject look = engine.requests.at(1).params;
    EXPECT_TRUE(look.contains(QStringLiteral("route")));
    EXPECT_EQ(look.value(QStringLiteral("selector")).toObject().value(QStringLiteral("limit")).toInt(), 1);
}

TEST(SideEffectCall, AMissingTargetIsFoundMissingBeforeTheToTargetIsLookedFor)
{
    FakeEngine engine;
    QJsonObject params = dragTo(titled(QStringLiteral("Drop")));
    params.insert(QStringLiteral("target"), titled(QStringLiteral("Missing")));
    const QJsonObject answer = run(engine, QStringLiteral("desktop.pointer"), params);
    EXPECT_EQ(engine.methods(), QStringList{QStringLiteral("desktop.find")});
    EXPECT_EQ(answer.value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("details"))
                  .toObject()
                  .value(QStringLiteral("field"))
                  .toString(),
              QStringLiteral("target"));
}

TEST(SideEffectCall, EveryTargetFoundThenThePersonIsAskedThenTheMethodRunsWithTheToken)
{
    FakeEngine engine;
    const QJsonObject params = dragTo(titled(QStringLiteral("Drop")));
    const QJsonObject answer = run(engine, QStringLiteral("desktop.pointer"), params);
    EXPECT_EQ(engine.methods(),
              (QStringList{QStringLiteral("desktop.find"), QStringLiteral("desktop.find"),
                           QStringLiteral("desktop.confirm.issue"), QStringLiteral("desktop.pointer")}));
    EXPECT_TRUE(answer.value(QStringLiteral("result")).toObject().value(QStringLiteral("done")).toBool());
    const auto& issue = engine.requests.at(2);
    EXPECT_EQ(issue.timeoutMs, 1234);
    const QJsonObject intent = issue.params.value(QStringLiteral("intent")).toObject();
    EXPECT_EQ(intent.value(QStringLiteral("method")).toString(), QStringLiteral("desktop.pointer"));
    EXPECT_EQ(intent.value(QStringLiteral("params")).toObject(), params);
    const QJsonObject sent = engine.requests.at(3).params;
    EXPECT_EQ(sent.value(QStringLiteral("confirm")).toObject().value(QStringLiteral("token")).toString(),
              QStringLiteral("tok"));
}

TEST(SideEffectCall, AnyMemberWithASelectorIsLookedFor)
{
    const QJsonObject params{{QStringLiteral("anchor"), titled(QStringLiteral("Missing"))},
                             {QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), 1}, {QStringLiteral("y"), 2}}},
                             {QStringLiteral("toTarget"), titled(QStringLiteral("B"))},
                             {QStringLiteral("target"), titled(QStringLiteral("A"))},
                             {QStringLiteral("byRef"), QJsonObject{{QStringLiteral("elementRef"), QJsonObject{}}}}};
    EXPECT_EQ(DoorKit::targetMembers(params),
              (QStringList{QStringLiteral("target"), QStringLiteral("toTarget"), QStringLiteral("anchor")}));
    FakeEngine engine;
    const QJsonObject answer = run(engine, QStringLiteral("desktop.pointer"), params);
    EXPECT_FALSE(engine.methods().contains(QStringLiteral("desktop.confirm.issue")));
    EXPECT_EQ(answer.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString(),
              QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND"));
}

TEST(SideEffectCall, AReadIsSentAsItIsAndAPointIsConfirmedWithoutALook)
{
    FakeEngine engine;
    run(engine, QStringLiteral("desktop.find"), titled(QStringLiteral("Missing")), false);
    EXPECT_EQ(engine.methods(), QStringList{QStringLiteral("desktop.find")});
    FakeEngine other;
    run(other, QStringLiteral("desktop.pointer"),
        QJsonObject{{QStringLiteral("point"), QJsonObject{{QStringLiteral("x"), 1}, {QStringLiteral("y"), 2}}}});
    EXPECT_EQ(other.methods(),
              (QStringList{QStringLiteral("desktop.confirm.issue"), QStringLiteral("desktop.pointer")}));
}

TEST(Outcome, ReadsTheErrorAndTheEffect)
{
    const auto failed = DoorKit::Outcome::fromAnswer(
        QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), QStringLiteral("X")},
                                                          {QStringLiteral("message"), QStringLiteral("m")}}}});
    EXPECT_TRUE(failed.failed());
    EXPECT_EQ(failed.code(), QStringLiteral("X"));
    EXPECT_TRUE(failed.showedNoEffect());
    const auto noop = DoorKit::Outcome::fromAnswer(
        QJsonObject{
            {QStringLiteral("result"), QJsonObject{{QStringLiteral("clicked"), true},
                                                   {QStringLiteral("effect"), QStringLiteral("suspected_noop")}}}},
        QStringLiteral("clicked"));
    EXPECT_TRUE(noop.delivered());
    EXPECT_TRUE(noop.showedNoEffect());
    const auto partial = DoorKit::Outcome::fromAnswer(
        QJsonObject{
            {QStringLiteral("result"), QJsonObject{{QStringLiteral("typed"), true},
                                                   {QStringLiteral("effect"), QStringLiteral("partial")},
                                                   {QStringLiteral("verification"),
                                                    QJsonObject{{QStringLiteral("reason"), QStringLiteral("r")}}}}}},
        QStringLiteral("typed"));
    EXPECT_TRUE(partial.partial());
    EXPECT_FALSE(partial.showedNoEffect());
    EXPECT_EQ(partial.verificationReason(), QStringLiteral("r"));
    EXPECT_EQ(partial.withFacts({}, {"effect", "absent"}).keys(), QStringList{QStringLiteral("effect")});
}

TEST(ToolSchema, BuildsAndChecks)
{
    using namespace DoorKit::Schema;
    const QJsonObject open = object({{QStringLiteral("a"), property(QStringLiteral("string"), {})}});
    EXPECT_FALSE(open.contains(QStringLiteral("additionalProperties")));
    EXPECT_FALSE(open.contains(QStringLiteral("required")));
    EXPECT_EQ(
        open.value(QStringLiteral("properties")).toObject().value(QStringLiteral("a")).toObject(),
        (QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("description"), QString()}}));
    const QJsonObject closed =
        object({{QStringLiteral("n"), ranged(QStringLiteral("integer"), 1, 3, QStringLiteral("n"))},
                {QStringLiteral("c"), choice({QStringLiteral("x"), QStringLiteral("y")}, QStringLiteral("c"))},
                // A property schema given as it is, e.g. from a method's declaration.
                {QStringLiteral("raw"), QJsonObject{{QStringLiteral("type"), QStringLiteral("boolean")}}}},
               {QStringLiteral("n")}, Extra::Refused);
    EXPECT_FALSE(closed.value(QStringLiteral("additionalProperties")).toBool(true));
    EXPECT_EQ(checkArguments(closed, {{QStringLiteral("n"), 2}, {QStringLiteral("raw"), true}}), std::nullopt);
    EXPECT_EQ(checkArguments(closed, {}), QStringLiteral("n is required"));
    EXPECT_EQ(checkArguments(closed, {{QStringLiteral("n"), 4}}), QStringLiteral("n must be at most 3"));
    EXPECT_EQ(checkArguments(closed, {{QStringLiteral("n"), 1.5}}), QStringLiteral("n must be an integer, not number"));
    EXPECT_EQ(checkArguments(closed, {{QStringLiteral("n"), 1}, {QStringLiteral("c"), QStringLiteral("z")}}),
              QStringLiteral("c must be one of: x, y"));
    EXPECT_TRUE(checkArguments(closed, {{QStringLiteral("n"), 1}, {QStringLiteral("zz"), 1}}).has_value());
    EXPECT_EQ(checkArguments(open, {{QStringLiteral("zz"), 1}}), std::nullopt);
    struct Row
    {
        QString name, description;
        QJsonObject inputSchema;
    };
    const QJsonArray list = toolDefinitions(QList<Row>{{QStringLiteral("t"), QStringLiteral("d"), open}});
    EXPECT_EQ(list.at(0).toObject().value(QStringLiteral("inputSchema")).toObject(), open);
}
