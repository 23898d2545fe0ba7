// The key discipline every backend shares (ChordPlayer over a KeySink): keys go down in order
// and come back up in reverse whatever happens, and nothing is pressed after a stop.
#include "automation/ChordPlayer.h"

#include <gtest/gtest.h>

using namespace Automation;

namespace {

// Records what a backend would have sent; can fail a given press, or cancel the request.
class RecordingSink final : public KeySink
{
public:
    std::optional<Error> key(Key key, bool press) override
    {
        events.append((press ? QStringLiteral("+") : QStringLiteral("-")) + QString::number(key));
        if (press && key == failOn)
            return Error::make(ErrorCode::InternalError, QStringLiteral("no such key"));
        if (press && key == cancelAfter && token)
            token->cancel(CancelToken::Reason::Aborted);
        return std::nullopt;
    }
    std::optional<Error> typeCharacter(char32_t character) override
    {
        events.append(QStringLiteral("t") + QString::number(static_cast<quint32>(character)));
        if (character == cancelOnCharacter && token)
            token->cancel(CancelToken::Reason::Aborted);
        return std::nullopt;
    }

    QStringList events;
    Key failOn = 0;
    Key cancelAfter = 0;
    char32_t cancelOnCharacter = 0;
    std::shared_ptr<CancelToken> token;
};

} // namespace

TEST(ChordPlayer, PressesInOrderAndReleasesInReverse)
{
    RecordingSink sink;
    bool any = false;
    EXPECT_FALSE(ChordPlayer(sink).play({1, 2, 3}, CallContext(), 0, &any));
    EXPECT_TRUE(any);
    EXPECT_EQ(sink.events, (QStringList{QStringLiteral("+1"), QStringLiteral("+2"), QStringLiteral("+3"),
                                        QStringLiteral("-3"), QStringLiteral("-2"), QStringLiteral("-1")}));
}

TEST(ChordPlayer, AFailedPressReleasesWhatWentDown)
{
    RecordingSink sink;
    sink.failOn = 2;
    bool any = false;
    const auto error = ChordPlayer(sink).play({1, 2, 3}, CallContext(), 0, &any);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code, ErrorCode::InternalError);
    EXPECT_TRUE(any);
    EXPECT_EQ(sink.events, (QStringList{QStringLiteral("+1"), QStringLiteral("+2"), QStringLiteral("-1")}));
}

TEST(ChordPlayer, NothingIsPressedAfterAStopButEverythingIsReleased)
{
    auto token = std::make_shared<CancelToken>();
    const CallContext context(QDeadlineTimer(QDeadlineTimer::Forever), token);
    RecordingSink sink;
    sink.token = token;
    sink.cancelAfter = 1;
    bool any = false;
    const auto error = ChordPlayer(sink).play({1, 2, 3}, context, 0, &any);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code, ErrorCode::Aborted);
    EXPECT_TRUE(any);
    EXPECT_EQ(sink.events, (QStringList{QStringLiteral("+1"), QStringLiteral("-1")}));

    RecordingSink untouched;
    EXPECT_TRUE(ChordPlayer(untouched).play({1}, context, 0, &any));
    EXPECT_FALSE(any);
    EXPECT_TRUE(untouched.events.isEmpty());
}

TEST(ChordPlayer, TypesScalarValuesAndStopsBeforeTheNextOne)
{
    RecordingSink sink;
    EXPECT_FALSE(ChordPlayer(sink).type(QStringLiteral("a🙂"), CallContext()));
    EXPECT_EQ(sink.events, (QStringList{QStringLiteral("t97"), QStringLiteral("t128578")}));

    auto token = std::make_shared<CancelToken>();
    RecordingSink stopped;
    stopped.token = token;
    stopped.cancelOnCharacter = U'b';
    const auto error = ChordPlayer(stopped).type(QStringLiteral("abc"), CallContext(QDeadlineTimer::Forever, token));
    ASSERT_TRUE(error);
    EXPECT_EQ(error->code, ErrorCode::Aborted);
    EXPECT_EQ(stopped.events, (QStringList{QStringLiteral("t97"), QStringLiteral("t98")}));
}
