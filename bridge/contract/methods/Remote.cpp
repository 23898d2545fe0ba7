#include "bridge/contract/Families.h"

// The remote agent (docs/protocol.md §5.22, docs/remote.md).
namespace Contract::Families {

QList<Method> remote()
{
    QList<Method> out;
    const auto plain = [&out](const QString& name, const QString& summary, QList<ResultField> result) {
        Method m;
        m.name = name;
        m.summary = summary;
        m.kind = Kind::Host;
        m.alwaysAdmitted = true;
        m.params = object({});
        m.result = std::move(result);
        m.docSection = QStringLiteral("5.22");
        m.engine = QStringLiteral("remote/RemoteAgent.cpp");
        m.example = QJsonObject{};
        out.append(m);
    };
    plain(QStringLiteral("desktop.remote.status"), QStringLiteral("The remote agent's connection state"),
          {{QStringLiteral("state"), QStringLiteral("string"), QStringLiteral("off, connecting, connected, …")}});
    {
        Method m;
        m.name = QStringLiteral("desktop.remote.connect");
        m.summary = QStringLiteral("Dials a control server (the remote agent)");
        m.kind = Kind::Host;
        m.params =
            object({required(QStringLiteral("host"), string(QStringLiteral("The control server"))),
                    required(QStringLiteral("port"), integer(1, 65535)), optional(QStringLiteral("tls"), boolean()),
                    optional(QStringLiteral("fingerprint"), string(QStringLiteral("The server certificate's SHA-256"))),
                    optional(QStringLiteral("bindCode"), string(QStringLiteral("A one-time code to bind this device"))),
                    optional(QStringLiteral("retryDelayMs"), integer(100, 60000)),
                    optional(QStringLiteral("maxRetries"), integer(0, 1000000))});
        m.result = {{QStringLiteral("server"), QStringLiteral("string"), QStringLiteral("Where it dials")},
                    {QStringLiteral("state"), QStringLiteral("string"), QStringLiteral("The connection state")}};
        m.errors = {QStringLiteral("DESKTOP_HOST_NOT_READY"), QStringLiteral("DESKTOP_CONFIRM_REQUIRED")};
        m.docSection = QStringLiteral("5.22");
        m.engine = QStringLiteral("remote/RemoteAgent.cpp");
        m.example = QJsonObject{{QStringLiteral("host"), QStringLiteral("control.example.org")},
                                {QStringLiteral("port"), 7443}};
        out.append(m);
    }
    plain(QStringLiteral("desktop.remote.disconnect"),
          QStringLiteral("Hangs up the remote agent and stops it reconnecting"),
          {{QStringLiteral("state"), QStringLiteral("string"), QStringLiteral("off")}});
    plain(QStringLiteral("desktop.remote.forget"),
          QStringLiteral("Hangs up and removes the remote agent's device token from the keyring"),
          {{QStringLiteral("forgotten"), QStringLiteral("boolean"), QStringLiteral("The token is gone")}});
    return out;
}

} // namespace Contract::Families
