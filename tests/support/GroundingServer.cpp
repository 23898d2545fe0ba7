#include "GroundingServer.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>
#include <QThread>

namespace Testing {

GroundingServer::GroundingServer()
{
    answerText(QStringLiteral("{\"x\": null, \"y\": null}"));
    m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process.start(QStringLiteral("python3"), {QStringLiteral(MDH_GROUNDING_SERVER), m_dir.path()});
    if (!m_process.waitForStarted(5000)) {
        m_failure = QStringLiteral("python3 did not start: ") + m_process.errorString();
        return;
    }
    QFile port(m_dir.path() + QStringLiteral("/port"));
    QDeadlineTimer until(10000);
    while (!until.hasExpired() && m_process.state() == QProcess::Running) {
        if (port.open(QIODevice::ReadOnly)) {
            m_port = port.readAll().trimmed().toInt();
            return;
        }
        QThread::msleep(20);
    }
    m_failure = QStringLiteral("the grounding server did not say its port");
}

GroundingServer::~GroundingServer()
{
    m_process.kill();
    m_process.waitForFinished(3000);
}

QString GroundingServer::url() const
{
    return QStringLiteral("http://127.0.0.1:%1/v1").arg(m_port);
}

void GroundingServer::answer(const QJsonObject& answer)
{
    QFile file(m_dir.path() + QStringLiteral("/answer.json.tmp"));
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(QJsonDocument(answer).toJson(QJsonDocument::Compact));
    file.close();
    QFile::remove(m_dir.path() + QStringLiteral("/answer.json"));
    file.rename(m_dir.path() + QStringLiteral("/answer.json"));
}

QList<QJsonObject> GroundingServer::requests() const
{
    QList<QJsonObject> out;
    QFile file(m_dir.path() + QStringLiteral("/requests.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (!line.trimmed().isEmpty())
            out.append(QJsonDocument::fromJson(line).object());
    }
    return out;
}

} // namespace Testing
