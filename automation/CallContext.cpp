#include "automation/CallContext.h"

#include <algorithm>

namespace Automation {

qint64 CallContext::remainingMs() const
{
    if (m_deadline.isForever())
        return std::numeric_limits<qint64>::max();
    return std::max<qint64>(0, m_deadline.remainingTime());
}

int CallContext::callTimeoutMs(int capMs) const
{
    return static_cast<int>(std::clamp<qint64>(remainingMs(), 1, std::max(1, capMs)));
}

std::optional<Error> CallContext::checkpoint() const
{
    switch (m_cancel->reason()) {
    case CancelToken::Reason::None:
        break;
    case CancelToken::Reason::Aborted:
    case CancelToken::Reason::Shutdown:
    case CancelToken::Reason::Disconnected:
        return Error::make(ErrorCode::Aborted, QStringLiteral("The execution was aborted"));
    case CancelToken::Reason::UserInput:
        // Input was being injected: what went before may have had its effect.
        return Error::make(ErrorCode::Aborted,
                           QStringLiteral("The person at the desktop used the keyboard or mouse; the host stopped "
                                          "injecting input"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("user_input")},
                                       {QStringLiteral("mayHaveHadEffect"), true}})
            .withRetryable(false);
    case CancelToken::Reason::TimedOut:
        return Error::make(ErrorCode::Timeout, QStringLiteral("The request's deadline passed"));
    }
    if (m_deadline.hasExpired())
        return Error::make(ErrorCode::Timeout, QStringLiteral("The request's deadline passed"));
    return std::nullopt;
}

} // namespace Automation
