#include "bridge/transport/XpcListener.h"

#include "bridge/protocol/LineFramer.h"

// Platforms without XPC (all but macOS; CMake builds XpcListener_mac.mm there instead): the
// listener exists so the host is the same everywhere, and listen() says why it cannot.
namespace Bridge {

struct XpcListener::Shared
{
    qsizetype maxMessageBytes = LineFramer::kDefaultMaxLineBytes;
};

XpcListener::XpcListener(Dispatcher& dispatcher, Identify identify, Admit admit, QObject* parent)
    : QObject(parent), m_dispatcher(dispatcher), m_shared(std::make_shared<Shared>())
{
    Q_UNUSED(identify);
    Q_UNUSED(admit);
}

XpcListener::~XpcListener() = default;

bool XpcListener::isSupported()
{
    return false;
}

bool XpcListener::listen(const QString& serviceName, QString* error)
{
    Q_UNUSED(serviceName);
    if (error)
        *error = QStringLiteral("XPC exists on macOS only");
    return false;
}

void XpcListener::close() {}

bool XpcListener::isListening() const
{
    return false;
}

QString XpcListener::serviceName() const
{
    return m_serviceName;
}

int XpcListener::connectionCount() const
{
    return 0;
}

void XpcListener::setMaxMessageBytes(qsizetype bytes)
{
    m_shared->maxMessageBytes = bytes > 0 ? bytes : LineFramer::kDefaultMaxLineBytes;
}

qsizetype XpcListener::maxMessageBytes() const
{
    return m_shared->maxMessageBytes;
}

} // namespace Bridge
