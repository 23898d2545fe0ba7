#include "client-kit/SideEffectCall.h"

#include <QJsonArray>

#include <algorithm>
#include <memory>

namespace DoorKit {

namespace {

bool failed(const QJsonObject& response)
{
    return response.contains(QStringLiteral("error"));
}

QJsonObject selectorOf(const QJsonObject& params, const QString& member)
{
    return params.value(member).toObject().value(QStringLiteral("selector")).toObject();
}

// Asks the person (the host's policy decides), then runs the method with the single-use token.
void confirmThenRun(Engine& engine, const QString& method, const QJsonObject& params, int timeoutMs,
                    const Engine::Reply& reply)
{
    engine.request(
        QStringLiteral("desktop.confirm.issue"),
        QJsonObject{{QStringLiteral("intent"),
                     QJsonObject{{QStringLiteral("method"), method}, {QStringLiteral("params"), params}}}},
        engine.confirmTimeoutMs(), [&engine, method, params, timeoutMs, reply](const QJsonObject& issued) {
            if (failed(issued))
                return reply(issued);
            QJsonObject confirmed = params;
            confirmed.insert(
                QStringLiteral("confirm"),
                QJsonObject{{QStringLiteral("token"),
                             issued.value(QStringLiteral("result")).toObject().value(QStringLiteral("token"))}});
            engine.request(method, confirmed, timeoutMs, reply);
        });
}

// Looks for members[index..] one after the other, then confirms and runs.
void lookThenConfirm(Engine& engine, const QString& method, const QJsonObject& params, int timeoutMs,
                     const std::shared_ptr<const QStringList>& members, qsizetype index, const Engine::Reply& reply)
{
    if (index >= members->size())
        return confirmThenRun(engine, method, params, timeoutMs, reply);
    const QString member = members->at(index);
    const QJsonObject selector = selectorOf(params, member);
    QJsonObject limited = selector;
    limited.insert(QStringLiteral("limit"), 1);
    QJsonObject look{{QStringLiteral("selector"), limited}};
    if (params.contains(QStringLiteral("route")))
        look.insert(QStringLiteral("route"), params.value(QStringLiteral("route")));
    engine.request(
        QStringLiteral("desktop.find"), look, timeoutMs,
        [&engine, method, params, timeoutMs, members, index, member, selector, reply](const QJsonObject& found) {
            if (failed(found))
                return reply(found);
            const QJsonObject result = found.value(QStringLiteral("result")).toObject();
            if (result.value(QStringLiteral("elementRefs")).toArray().isEmpty())
                return reply(elementNotFound(member, selector, result));
            lookThenConfirm(engine, method, params, timeoutMs, members, index + 1, reply);
        });
}

} // namespace

QStringList targetMembers(const QJsonObject& params)
{
    QStringList out;
    for (auto it = params.constBegin(); it != params.constEnd(); ++it) {
        if (it.value().isObject() && !selectorOf(params, it.key()).isEmpty())
            out.append(it.key());
    }
    // QJsonObject's keys are sorted; `target` first, then `toTarget` (where the gesture starts, then ends).
    const auto rank = [](const QString& key) {
        return key == QLatin1String("target") ? 0 : key == QLatin1String("toTarget") ? 1 : 2;
    };
    std::stable_sort(out.begin(), out.end(), [&rank](const QString& a, const QString& b) { return rank(a) < rank(b); });
    return out;
}

QJsonObject elementNotFound(const QString& member, const QJsonObject& selector, const QJsonObject& found)
{
    return QJsonObject{
        {QStringLiteral("error"),
         QJsonObject{
             {QStringLiteral("code"), QStringLiteral("DESKTOP_ELEMENT_NOT_FOUND")},
             {QStringLiteral("message"), QStringLiteral("no element matches the selector; nothing was asked or done")},
             {QStringLiteral("retryable"), false},
             {QStringLiteral("details"),
              QJsonObject{
                  {QStringLiteral("selector"), selector},
                  {QStringLiteral("field"), member},
                  {QStringLiteral("reason"), QStringLiteral("not_found_before_asking")},
                  {QStringLiteral("window"),
                   found.value(QStringLiteral("routeResolved")).toObject().value(QStringLiteral("windowTitle"))},
                  {QStringLiteral("evidence"), found.value(QStringLiteral("evidence"))}}}}}};
}

void call(Engine& engine, const QString& method, const QJsonObject& params, bool sideEffect, int timeoutMs,
          Engine::Reply reply)
{
    if (!sideEffect)
        return engine.request(method, params, timeoutMs, std::move(reply));
    auto members = std::make_shared<const QStringList>(targetMembers(params));
    lookThenConfirm(engine, method, params, timeoutMs, members, 0, reply);
}

} // namespace DoorKit
