#include "client-kit/Outcome.h"

namespace DoorKit {

Outcome Outcome::fromAnswer(const QJsonObject& response, const QString& doneKey)
{
    Outcome out;
    out.m_failed = response.contains(QStringLiteral("error"));
    out.m_error = response.value(QStringLiteral("error")).toObject();
    out.m_result = response.value(QStringLiteral("result")).toObject();
    out.m_doneKey = doneKey;
    return out;
}

QString Outcome::code() const
{
    return m_error.value(QStringLiteral("code")).toString();
}

QString Outcome::message() const
{
    return m_error.value(QStringLiteral("message")).toString();
}

QJsonObject Outcome::details() const
{
    return m_error.value(QStringLiteral("details")).toObject();
}

QString Outcome::effect() const
{
    return m_result.value(QStringLiteral("effect")).toString();
}

QString Outcome::verificationReason() const
{
    return m_result.value(QStringLiteral("verification")).toObject().value(QStringLiteral("reason")).toString();
}

bool Outcome::delivered() const
{
    return !m_failed && (m_doneKey.isEmpty() || m_result.value(m_doneKey).toBool());
}

bool Outcome::showedNoEffect() const
{
    return !delivered() || effect() == QLatin1String("suspected_noop");
}

QJsonObject Outcome::withFacts(QJsonObject into, std::initializer_list<const char*> keys) const
{
    for (const char* key : keys) {
        if (m_result.contains(QLatin1String(key)))
            into.insert(QLatin1String(key), m_result.value(QLatin1String(key)));
    }
    return into;
}

} // namespace DoorKit
