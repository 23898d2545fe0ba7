#include "automation/platform/ProcessInfo.h"

// A platform without process facts of its own: every process looks unknown, so
// callers refuse rather than trust (CallerPolicy refuses an unknown executable).
namespace Automation::Platform {

ProcessState processState(qint64)
{
    return ProcessState::Gone;
}

QString processExecutable(qint64)
{
    return {};
}

std::optional<QString> processEnvironment(qint64, const QString&)
{
    return std::nullopt; // only Linux's /proc gives another process's environment
}

quint64 processStartTime(qint64)
{
    return 0;
}

qint64 parentPid(qint64)
{
    return 0;
}

std::optional<ProcessCredentials> socketPeer(qintptr)
{
    return std::nullopt;
}

std::optional<ProcessCredentials> processCredentials(qint64)
{
    return std::nullopt;
}

} // namespace Automation::Platform
