// Bridge::Client against an in-process QLocalServer that answers canned bytes: answers split
// across reads, two answers in one read, answers nobody waits for, notifications, batches, the
// line cap, a server that closes mid-answer; and the meta it fills in.
#include "bridge/protocol/Client.h"
#include "UnitTestSupport.h"
#include "bridge/protocol/JsonRpc.h"
#include "bridge/protocol/LineFramer.h"
#include "bridge/protocol/Meta.h"

#include <QJsonDocument>
#include <QLocalServer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <gtest/gtest.h>

#include <functional>
#include <memory>

using Bridge::Client;
using TransportError = Bridge::Client::TransportError;

namespace {

QByteArray line(const QJsonObject& object)
{
    return Bridge::JsonRpc::encodeLine(object);
}

QByteArray answer(const QJsonValue& id, const QJsonObject& result = {{QStringLiteral("ok"), true}})
{
    return line(Bridge::JsonRpc::resultResponse(id, result));
}

/// A QLocalServer on a thread of its own (so the client may block): every line a client sends is
/// handed to the script, on the server's thread, with the socket to answer on.
class CannedServer
{
public:
    using Script = std::function<void(QLocalSocket& socket, const QJsonValue& message)>;

    explicit CannedServer(Script script) : m_script(std::move(script))
    {
        m_path = m_dir.path() + QStringLiteral("/canned.sock");
        m_thread.start();
        m_context = new QObject;
        m_context->moveToThread(&m_thread);
        QMetaObject::invokeMethod(
            m_context,
            [this] {
                auto* server = new QLocalServer(m_context);
                QObject::connect(server, &QLocalServer::newConnection, m_context, [this, server] {
                    while (QLocalSocket* socket = server->nextPendingConnection()) {
                        auto framer = std::make_shared<Bridge::LineFramer>();
                        QObject::connect(socket, &QLocalSocket::readyRead, socket, [this, socket, framer] {
                            framer->append(socket->readAll());
                            while (auto item = framer->next()) {
                                const QJsonDocument doc = QJsonDocument::fromJson(item->line);
                                m_script(*socket, doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()));
                            }
                        });
                    }
                });
                server->listen(m_path);
            },
            Qt::BlockingQueuedConnection);
    }

    ~CannedServer()
    {
        QMetaObject::invokeMethod(
            m_context, [this] { delete m_context; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }

    QString path() const { return m_path; }

private:
    QTemporaryDir m_dir;
    QString m_path;
    Script m_script;
    QThread m_thread;
    QObject* m_context = nullptr;
};

void writeNow(QLocalSocket& socket, const QByteArray& bytes)
{
    socket.write(bytes);
    socket.flush();
}

/// Writes `bytes` in `parts` pieces, `gapMs` apart, on the server's thread.
void writeInPieces(QLocalSocket& socket, const QByteArray& bytes, int parts, int gapMs)
{
    const qsizetype size = (bytes.size() + parts - 1) / parts;
    for (int i = 0; i < parts; ++i) {
        const QByteArray piece = bytes.mid(i * size, size);
        QTimer::singleShot(i * gapMs, &socket, [s = &socket, piece] { writeNow(*s, piece); });
    }
}

QJsonValue idOf(const QJsonValue& message)
{
    return message.toObject().value(QStringLiteral("id"));
}

} // namespace

TEST(Client, ConnectFailsWithoutAServer)
{
    QTemporaryDir dir;
    Client client;
    EXPECT_FALSE(client.connectToServer(dir.path() + QStringLiteral("/nobody.sock"), 1000));
    EXPECT_FALSE(client.errorString().isEmpty());
    const Client::Reply reply = client.call(QStringLiteral("desktop.health"), {}, 100);
    EXPECT_EQ(reply.error, TransportError::NotConnected);
}

TEST(Client, AnswerSplitAcrossReads)
{
    CannedServer server([](QLocalSocket& socket, const QJsonValue& message) {
        // Split inside a multi-byte character too: the framer must not care.
        writeInPieces(socket, answer(idOf(message), {{QStringLiteral("text"), QStringLiteral("héllo wörld ✓")}}), 5,
                      20);
    });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    const Client::Reply reply = client.call(QStringLiteral("desktop.health"), {}, 5000);
    ASSERT_TRUE(reply.ok()) << reply.errorString.toStdString();
    EXPECT_EQ(reply.response.value(QStringLiteral("result")).toObject().value(QStringLiteral("text")).toString(),
              QStringLiteral("héllo wörld ✓"));
    EXPECT_EQ(client.pendingCount(), 0);
    EXPECT_TRUE(client.unmatched().isEmpty());
}

TEST(Client, TwoAnswersInOneRead)
{
    auto ids = std::make_shared<QList<QJsonValue>>();
    CannedServer server([ids](QLocalSocket& socket, const QJsonValue& message) {
        ids->append(idOf(message));
        if (ids->size() == 2) // both at once, the second request's answer first
            writeNow(socket,
                     answer(ids->at(1), {{QStringLiteral("n"), 2}}) + answer(ids->at(0), {{QStringLiteral("n"), 1}}));
    });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    QSignalSpy answered(&client, &Client::responseReceived);
    const QJsonValue first = client.send(QStringLiteral("desktop.health"), {});
    const QJsonValue second = client.send(QStringLiteral("desktop.health"), {});
    EXPECT_NE(first, second);
    EXPECT_EQ(client.pendingCount(), 2);
    while (answered.size() < 2 && answered.wait(5000)) {
    }
    ASSERT_EQ(answered.size(), 2);
    EXPECT_EQ(answered.at(0).at(0).value<QJsonValue>(), second);
    EXPECT_EQ(answered.at(1).at(0).value<QJsonValue>(), first);
    EXPECT_EQ(answered.at(1)
                  .at(1)
                  .value<QJsonObject>()
                  .value(QStringLiteral("result"))
                  .toObject()
                  .value(QStringLiteral("n"))
                  .toInt(),
              1);
    EXPECT_EQ(client.pendingCount(), 0);
}

TEST(Client, AnswerWithAnUnknownIdIsKeptAside)
{
    CannedServer server([](QLocalSocket& socket, const QJsonValue& message) {
        writeNow(socket, answer(4242) + answer(QStringLiteral("1")) + answer(idOf(message)));
    });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    QSignalSpy unmatched(&client, &Client::unmatchedReceived);
    // The numeric id 1 is not the string "1".
    const Client::Reply reply = client.call(QStringLiteral("desktop.health"), {}, 5000, 1);
    ASSERT_TRUE(reply.ok()) << reply.errorString.toStdString();
    EXPECT_EQ(reply.response.value(QStringLiteral("id")), QJsonValue(1));
    EXPECT_EQ(reply.line, 3);
    ASSERT_EQ(client.unmatched().size(), 2);
    EXPECT_EQ(QByteArray(client.unmatched().at(0).bytes + '\n'), answer(4242));
    EXPECT_EQ(QByteArray(client.unmatched().at(1).bytes + '\n'), answer(QStringLiteral("1")));
    EXPECT_EQ(unmatched.size(), 2);
    client.dropUnmatchedBefore(2);
    ASSERT_EQ(client.unmatched().size(), 1);
    EXPECT_EQ(client.readUnmatched(0), answer(QStringLiteral("1")).chopped(1));
    EXPECT_FALSE(client.readUnmatched(50).has_value());
}

TEST(Client, NotificationsAreNotAnswers)
{
    CannedServer server([](QLocalSocket& socket, const QJsonValue& message) {
        // A message with a method is never an answer, even when its id is the one awaited.
        const QByteArray notification =
            line(Bridge::JsonRpc::request(QStringLiteral("desktop.progress"), {}, QJsonValue::Undefined));
        const QByteArray request = line(Bridge::JsonRpc::request(QStringLiteral("desktop.ping"), {}, idOf(message)));
        writeNow(socket, notification + request + answer(idOf(message)));
    });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    const Client::Reply reply = client.call(QStringLiteral("desktop.health"), {}, 5000);
    ASSERT_TRUE(reply.ok()) << reply.errorString.toStdString();
    EXPECT_TRUE(reply.response.contains(QStringLiteral("result")));
    EXPECT_EQ(client.unmatched().size(), 2);
}

TEST(Client, BatchAnswersAreMatchedMemberByMember)
{
    CannedServer server([](QLocalSocket& socket, const QJsonValue& message) {
        QJsonArray answers;
        for (const QJsonValue& member : message.toArray()) {
            if (member.toObject().contains(QStringLiteral("id")))
                answers.prepend(Bridge::JsonRpc::resultResponse(idOf(member), {}));
        }
        answers.append(Bridge::JsonRpc::resultResponse(QStringLiteral("stranger"), {}));
        writeNow(socket, Bridge::JsonRpc::encodeLine(answers));
    });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    QSignalSpy answered(&client, &Client::responseReceived);
    const QJsonObject params = Bridge::fillMeta({});
    const QString health = QStringLiteral("desktop.health");
    client.sendBatch(QJsonArray{Bridge::JsonRpc::request(health, params, 7),
                                Bridge::JsonRpc::request(health, params, QJsonValue::Undefined),
                                Bridge::JsonRpc::request(health, params, QStringLiteral("b"))});
    EXPECT_EQ(client.pendingCount(), 2);
    while (answered.size() < 2 && answered.wait(5000)) {
    }
    ASSERT_EQ(answered.size(), 2);
    EXPECT_EQ(answered.at(0).at(0).value<QJsonValue>(), QJsonValue(QStringLiteral("b")));
    EXPECT_EQ(answered.at(1).at(0).value<QJsonValue>(), QJsonValue(7));
    // The member nobody waited for is kept, alone.
    ASSERT_EQ(client.unmatched().size(), 1);
    const QJsonArray rest = QJsonDocument::fromJson(client.unmatched().at(0).bytes).array();
    ASSERT_EQ(rest.size(), 1);
    EXPECT_EQ(idOf(rest.at(0)), QJsonValue(QStringLiteral("stranger")));
}

TEST(Client, ServerClosingMidAnswer)
{
    CannedServer server([](QLocalSocket& socket, const QJsonValue& message) {
        const QByteArray full = answer(idOf(message));
        writeNow(socket, full.left(full.size() / 2));
        socket.disconnectFromServer();
    });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    const Client::Reply reply = client.call(QStringLiteral("desktop.health"), {}, 5000);
    EXPECT_EQ(reply.error, TransportError::Closed);
    EXPECT_TRUE(reply.response.isEmpty());
    EXPECT_FALSE(client.isConnected());
    EXPECT_TRUE(client.unmatched().isEmpty()); // half a line is no line
    EXPECT_EQ(client.pendingCount(), 0);
}

TEST(Client, ServerClosingFailsEveryRequestInFlight)
{
    auto seen = std::make_shared<int>(0);
    CannedServer server([seen](QLocalSocket& socket, const QJsonValue& message) {
        if (++*seen == 1) {
            writeNow(socket, answer(idOf(message)).left(10));
            return;
        }
        socket.disconnectFromServer();
    });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    QSignalSpy failed(&client, &Client::requestFailed);
    QSignalSpy gone(&client, &Client::disconnected);
    client.send(QStringLiteral("desktop.health"), {}, QStringLiteral("a"));
    client.send(QStringLiteral("desktop.health"), {}, QStringLiteral("b"));
    ASSERT_TRUE(gone.wait(5000));
    ASSERT_EQ(failed.size(), 2);
    for (const auto& args : failed)
        EXPECT_EQ(args.at(1).value<TransportError>(), TransportError::Closed);
    EXPECT_EQ(client.pendingCount(), 0);
}

TEST(Client, LineOverTheCapDropsTheConnection)
{
    CannedServer server([](QLocalSocket& socket, const QJsonValue& message) {
        writeInPieces(socket, answer(idOf(message), {{QStringLiteral("big"), QString(500, QLatin1Char('x'))}}), 4, 10);
    });
    Client client;
    client.setMaxLineBytes(200);
    ASSERT_TRUE(client.connectToServer(server.path()));
    const Client::Reply reply = client.call(QStringLiteral("desktop.health"), {}, 5000);
    EXPECT_EQ(reply.error, TransportError::LineTooLong);
    EXPECT_FALSE(client.isConnected());
}

TEST(Client, MalformedLineEndsABlockingCall)
{
    CannedServer server([](QLocalSocket& socket, const QJsonValue&) { writeNow(socket, "this is not json\n"); });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    const Client::Reply reply = client.call(QStringLiteral("desktop.health"), {}, 5000);
    EXPECT_EQ(reply.error, TransportError::Malformed);
    ASSERT_EQ(client.unmatched().size(), 1);
    EXPECT_EQ(client.unmatched().at(0).bytes, QByteArray("this is not json"));
}

TEST(Client, TimeoutKeepsALateAnswerAside)
{
    CannedServer server([](QLocalSocket& socket, const QJsonValue& message) {
        QTimer::singleShot(300, &socket, [s = &socket, id = idOf(message)] { writeNow(*s, answer(id)); });
    });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    const Client::Reply reply = client.call(QStringLiteral("desktop.health"), {}, 50);
    EXPECT_EQ(reply.error, TransportError::Timeout);
    EXPECT_EQ(client.pendingCount(), 0);
    const auto late = client.readUnmatched(5000);
    ASSERT_TRUE(late.has_value());
    EXPECT_EQ(QByteArray(*late + '\n'), answer(1));
}

TEST(Client, FillsInMetaAndKeepsWhatTheCallerGave)
{
    // The server answers with the params it received.
    CannedServer server([](QLocalSocket& socket, const QJsonValue& message) {
        writeNow(socket, answer(idOf(message), message.toObject().value(QStringLiteral("params")).toObject()));
    });
    Client client;
    ASSERT_TRUE(client.connectToServer(server.path()));
    client.setMetaFill({.workspacePath = QStringLiteral("/ws"), .timeoutMs = 1234, .requestId = {}});

    const QJsonObject first =
        client.call(QStringLiteral("desktop.find"), {}, 5000).response.value(QStringLiteral("result")).toObject();
    const auto meta = Bridge::parseMeta(first, true);
    ASSERT_TRUE(meta.ok()) << meta.error().message.toStdString();
    EXPECT_EQ(meta->schemaVersion, 1);
    EXPECT_EQ(meta->workspacePath, QStringLiteral("/ws"));
    EXPECT_EQ(meta->timeoutMs, 1234);

    const QJsonObject second = client
                                   .call(QStringLiteral("desktop.find"),
                                         {{QStringLiteral("meta"), QJsonObject{{QStringLiteral("timeoutMs"), 99}}},
                                          {QStringLiteral("selector"), QJsonObject{}}},
                                         5000)
                                   .response.value(QStringLiteral("result"))
                                   .toObject();
    const auto given = Bridge::parseMeta(second, true);
    ASSERT_TRUE(given.ok()) << given.error().message.toStdString();
    EXPECT_EQ(given->timeoutMs, 99);
    EXPECT_EQ(given->workspacePath, QStringLiteral("/ws"));
    EXPECT_NE(given->requestId, meta->requestId); // fresh each time
    EXPECT_TRUE(second.contains(QStringLiteral("selector")));
}

TEST(ClientMeta, BuildsOnlyWhatItIsGiven)
{
    const QJsonObject bare = Bridge::buildMeta({.timeoutMs = std::nullopt});
    EXPECT_EQ(bare.keys(), (QStringList{QStringLiteral("requestId"), QStringLiteral("schemaVersion")}));
    EXPECT_TRUE(Bridge::parseMeta({{QStringLiteral("meta"), bare}}, false).ok());

    const QJsonObject full = Bridge::buildMeta({.workspacePath = QStringLiteral("/w"),
                                                .timeoutMs = 5,
                                                .requestId = QStringLiteral("0e1e8a4c-7a4f-4c3c-9d6f-3c1f6c0a9b2e")});
    EXPECT_EQ(full, (QJsonObject{{QStringLiteral("schemaVersion"), 1},
                                 {QStringLiteral("requestId"), QStringLiteral("0e1e8a4c-7a4f-4c3c-9d6f-3c1f6c0a9b2e")},
                                 {QStringLiteral("workspacePath"), QStringLiteral("/w")},
                                 {QStringLiteral("timeoutMs"), 5}}));
    EXPECT_NE(Bridge::newRequestId(), Bridge::newRequestId());
}
