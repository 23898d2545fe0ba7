// mdh_memory_floor: the baseline of bench/memory_bench.py. A headless Qt process with the
// libraries the host's bridge is built on (QtCore, QtNetwork, QtDBus), connected to the session
// bus and serving a QLocalServer on the path it is given, and otherwise idle: the memory any
// such process costs before it does anything of its own.
#include <QCoreApplication>
#include <QDBusConnection>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTextStream>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTextStream err(stderr);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() != 2) {
        err << QCoreApplication::translate("MemoryFloor", "usage: mdh_memory_floor SOCKET_PATH") << Qt::endl;
        return 2;
    }
    const bool bus = QDBusConnection::sessionBus().isConnected();
    QLocalServer server;
    if (!server.listen(args.at(1))) {
        err << QCoreApplication::translate("MemoryFloor", "cannot listen on %1: %2")
                   .arg(args.at(1), server.errorString())
            << Qt::endl;
        return 1;
    }
    if (!bus)
        err << QCoreApplication::translate("MemoryFloor", "no session bus") << Qt::endl;
    QObject::connect(&server, &QLocalServer::newConnection, &server, [&server] {
        while (QLocalSocket* socket = server.nextPendingConnection())
            socket->deleteLater();
    });
    return QCoreApplication::exec();
}
