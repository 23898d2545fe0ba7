#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace Testing {

/// tests/support/grounding_server.py, started for a test: an OpenAI-compatible stand-in for an
/// owner's grounding endpoint that answers what the test tells it and records what it was sent.
class GroundingServer
{
public:
    GroundingServer();
    ~GroundingServer();
    /// Listening (its port known), or why not.
    bool started() const { return m_port > 0; }
    QString failure() const { return m_failure; }
    /// The API's base, as an owner writes it in Settings: http://127.0.0.1:<port>/v1.
    QString url() const;
    /// What the next requests get (grounding_server.py's answer.json).
    void answer(const QJsonObject& answer);
    /// {"content": text}: a completion saying `text`.
    void answerText(const QString& text) { answer(QJsonObject{{QStringLiteral("content"), text}}); }
    /// Each request received: {path, body (image URLs cut short), imageWidth, imageHeight}.
    QList<QJsonObject> requests() const;

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    int m_port = 0;
    QString m_failure;
};

} // namespace Testing
