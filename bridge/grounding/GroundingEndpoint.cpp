#include "bridge/grounding/GroundingEndpoint.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QTimer>
#include <QUrl>

#include <algorithm>

namespace Bridge {

using Automation::Error;
using Automation::ErrorCode;
using Automation::Result;

namespace {

Error unreachable(const QString& message, const QString& reason, QJsonObject details = {})
{
    details.insert(QStringLiteral("reason"), reason);
    return Error::make(ErrorCode::TargetUnresponsive, message, details).withRetryable(true);
}

} // namespace

bool GroundingSettings::urlUsable() const
{
    const QUrl parsed(url.trimmed());
    return parsed.isValid() &&
           (parsed.scheme() == QLatin1String("http") || parsed.scheme() == QLatin1String("https")) &&
           !parsed.host().isEmpty();
}

GroundingEndpoint::GroundingEndpoint(GroundingSettings settings) : m_settings(std::move(settings)) {}

QString GroundingEndpoint::completionsUrl(const QString& url)
{
    QString out = url.trimmed();
    while (out.endsWith(QLatin1Char('/')))
        out.chop(1);
    if (!out.endsWith(QLatin1String("/chat/completions")))
        out += QStringLiteral("/chat/completions");
    return out;
}

QJsonObject GroundingEndpoint::describe() const
{
    return QJsonObject{{QStringLiteral("url"), completionsUrl(m_settings.url)},
                       {QStringLiteral("model"), m_settings.model},
                       {QStringLiteral("timeoutMs"), m_settings.timeoutMs}};
}

std::optional<GroundingEndpoint::Point> GroundingEndpoint::parseAnswer(const QString& content)
{
    // Models wrap their JSON in prose or code fences: every {...} without nested braces is tried.
    static const QRegularExpression object(QStringLiteral("\\{[^{}]*\\}"));
    for (auto it = object.globalMatch(content); it.hasNext();) {
        const QJsonObject o = QJsonDocument::fromJson(it.next().captured(0).toUtf8()).object();
        const QJsonValue x = o.value(QStringLiteral("x"));
        const QJsonValue y = o.value(QStringLiteral("y"));
        if (!x.isDouble() || !y.isDouble())
            continue;
        Point out{QPointF(x.toDouble(), y.toDouble()), std::nullopt};
        const QJsonValue c = o.value(QStringLiteral("confidence"));
        if (c.isDouble() && c.toDouble() >= 0 && c.toDouble() <= 1)
            out.confidence = c.toDouble();
        return out;
    }
    return std::nullopt;
}

Result<Automation::Grounding::Guess> GroundingEndpoint::locate(const QByteArray& png, QSize size,
                                                               const QString& description,
                                                               const Automation::CallContext& call)
{
    const QString url = completionsUrl(m_settings.url);
    const QUrl target(url);
    if (!target.isValid() || (target.scheme() != QLatin1String("http") && target.scheme() != QLatin1String("https")))
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("the grounding endpoint \"%1\" is not an http(s) URL").arg(url),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_vision_provider")}})
            .withRetryable(false);
    const QString instructions =
        QStringLiteral("You locate user-interface elements in screenshots. The image is %1x%2 pixels. Answer with "
                       "JSON only: {\"x\": <pixel x>, \"y\": <pixel y>, \"confidence\": <0 to 1>} for the centre of "
                       "the element described, in the image's pixels, or {\"x\": null, \"y\": null} when it is not "
                       "in the image.")
            .arg(size.width())
            .arg(size.height());
    const QString ask = QStringLiteral("Find: ") + description;
    const QString dataUrl = QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
    const QJsonObject text{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), ask}};
    const QJsonObject image{{QStringLiteral("type"), QStringLiteral("image_url")},
                            {QStringLiteral("image_url"), QJsonObject{{QStringLiteral("url"), dataUrl}}}};
    const QJsonObject system{{QStringLiteral("role"), QStringLiteral("system")},
                             {QStringLiteral("content"), instructions}};
    const QJsonObject user{{QStringLiteral("role"), QStringLiteral("user")},
                           {QStringLiteral("content"), QJsonArray{text, image}}};
    const QJsonObject body{{QStringLiteral("model"), m_settings.model},
                           {QStringLiteral("temperature"), 0},
                           {QStringLiteral("max_tokens"), 200},
                           {QStringLiteral("messages"), QJsonArray{system, user}}};

    // Its own timeout, within the request's deadline.
    const qint64 budget = std::min<qint64>(m_settings.timeoutMs, std::max<qint64>(1, call.remainingMs()));
    QNetworkAccessManager manager;
    QNetworkRequest request{target};
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    QElapsedTimer timer;
    timer.start();
    QNetworkReply* reply = manager.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer watch;
    watch.setInterval(50);
    QObject::connect(&watch, &QTimer::timeout, &loop, [&] {
        if (timer.elapsed() >= budget || call.checkpoint())
            loop.quit();
    });
    watch.start();
    if (!reply->isFinished())
        loop.exec();
    const qint64 elapsed = timer.elapsed();
    if (!reply->isFinished()) {
        reply->abort();
        reply->deleteLater();
        if (auto stop = call.checkpoint())
            return *stop;
        return Error::make(ErrorCode::Timeout,
                           QStringLiteral("the grounding endpoint did not answer within %1 ms").arg(budget),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("endpoint_timeout")},
                                       {QStringLiteral("url"), url}})
            .withRetryable(true);
    }
    const QByteArray answer = reply->readAll();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError failed = reply->error();
    const QString why = reply->errorString();
    reply->deleteLater();
    if (failed != QNetworkReply::NoError && status == 0)
        return unreachable(QStringLiteral("the grounding endpoint %1 cannot be reached: %2").arg(url, why),
                           QStringLiteral("endpoint_unreachable"));
    if (status < 200 || status >= 300)
        return unreachable(QStringLiteral("the grounding endpoint answered HTTP %1").arg(status),
                           QStringLiteral("endpoint_error"),
                           QJsonObject{{QStringLiteral("status"), status},
                                       {QStringLiteral("body"), QString::fromUtf8(answer.left(500))}});
    const QJsonObject parsed = QJsonDocument::fromJson(answer).object();
    const QJsonObject message =
        parsed.value(QStringLiteral("choices")).toArray().at(0).toObject().value(QStringLiteral("message")).toObject();
    const QString content = message.value(QStringLiteral("content")).toString();
    const auto point = parseAnswer(content);
    if (!point) {
        if (content.contains(QStringLiteral("null")))
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("the grounding model did not find \"%1\" in the image").arg(description),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("not_seen")},
                                           {QStringLiteral("answer"), content.left(500)}})
                .withRetryable(false);
        return unreachable(QStringLiteral("the grounding endpoint's answer names no point"),
                           QStringLiteral("endpoint_answer_unusable"),
                           QJsonObject{{QStringLiteral("answer"), content.left(500)}});
    }
    Automation::Grounding::Guess out;
    out.point = point->at;
    out.confidence = point->confidence;
    out.model = parsed.value(QStringLiteral("model")).toString(m_settings.model);
    out.answer = content;
    out.elapsedMs = elapsed;
    return out;
}

} // namespace Bridge
