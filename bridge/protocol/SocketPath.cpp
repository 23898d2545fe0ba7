#include "bridge/protocol/SocketPath.h"

#include <QDir>

#include <unistd.h>

namespace Bridge {

QString defaultSocketPath()
{
    const QString fromEnv = qEnvironmentVariable(kSocketEnv);
    if (!fromEnv.isEmpty())
        return QDir::cleanPath(QDir::current().absoluteFilePath(fromEnv));
    const QString name = QString::fromLatin1(kSocketFileName);
#if defined(Q_OS_MACOS)
    return QDir::homePath() + QStringLiteral("/Library/Application Support/msgcode/") + name;
#else
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty())
        return runtime + QStringLiteral("/msgcode/") + name;
    return QStringLiteral("/tmp/msgcode-%1/").arg(::getuid()) + name;
#endif
}

} // namespace Bridge
