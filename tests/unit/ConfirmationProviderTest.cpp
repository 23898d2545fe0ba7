// The confirmation providers (auto, deny, ask) and what an approval request tells a person.
#include "bridge/security/ConfirmationProvider.h"
#include "UnitTestSupport.h"
#include "bridge/security/McpConfirmationProvider.h"

#include <QElapsedTimer>
#include <QTest>

using namespace Bridge;

namespace {

// A scripted GUI: records what it is asked and withdrawn; answers only when told to.
class ScriptedApprover final : public Approver
{
public:
    void ask(const ApprovalRequest& request) override { asked.append(request); }
    void withdraw(quint64 id) override { withdrawn.append(id); }

    QList<ApprovalRequest> asked;
    QList<quint64> withdrawn;
};

struct Outcome
{
    int calls = 0;
    ApprovalDecision decision;
    ConfirmationProvider::Done done()
    {
        return [this](const ApprovalDecision& d) {
            ++calls;
            decision = d;
        };
    }
};

ApprovalRequest requestWith(quint64 id, int timeoutMs = 60000)
{
    ApprovalRequest request = ApprovalRequest::forIntent(
        QStringLiteral("desktop.click"),
        QJsonDocument::fromJson(R"({"target":{"selector":{"byRole":"AXButton","titleEquals":"Send"}}})").object(),
        QStringLiteral("0123456789abcdef"));
    request.id = id;
    request.timeoutMs = timeoutMs;
    return request;
}

} // namespace

TEST(ConfirmationProvider, AutoApprovesAtOnce)
{
    AutoConfirmationProvider provider;
    Outcome outcome;
    provider.request(requestWith(1), outcome.done());
    EXPECT_EQ(outcome.calls, 1);
    EXPECT_TRUE(outcome.decision.approved);
    EXPECT_EQ(outcome.decision.decidedBy, QStringLiteral("auto"));
    EXPECT_EQ(provider.policyName(), QStringLiteral("auto"));
}

TEST(ConfirmationProvider, DenyDeniesAtOnce)
{
    DenyConfirmationProvider provider;
    Outcome outcome;
    provider.request(requestWith(1), outcome.done());
    EXPECT_EQ(outcome.calls, 1);
    EXPECT_FALSE(outcome.decision.approved);
    EXPECT_EQ(outcome.decision.decidedBy, QStringLiteral("policy"));
}

TEST(ConfirmationProvider, AskWithoutGuiDenies)
{
    AskConfirmationProvider provider;
    Outcome outcome;
    provider.request(requestWith(1), outcome.done());
    EXPECT_EQ(outcome.calls, 1);
    EXPECT_FALSE(outcome.decision.approved);
    EXPECT_EQ(outcome.decision.decidedBy, QStringLiteral("no_approver"));
}

TEST(ConfirmationProvider, AskDelegatesAndCompletesOnTheAnswer)
{
    AskConfirmationProvider provider;
    ScriptedApprover gui;
    provider.attach(&gui);
    Outcome yes, no;
    provider.request(requestWith(1), yes.done());
    provider.request(requestWith(2), no.done());
    // request() returned without an answer: nothing blocked, nothing decided yet.
    EXPECT_EQ(yes.calls + no.calls, 0);
    ASSERT_EQ(gui.asked.size(), 2);
    EXPECT_EQ(provider.pendingCount(), 2);
    provider.answer(1, true, QStringLiteral("alice"));
    provider.answer(2, false);
    EXPECT_EQ(yes.calls, 1);
    EXPECT_TRUE(yes.decision.approved);
    EXPECT_EQ(yes.decision.decidedBy, QStringLiteral("user"));
    EXPECT_EQ(yes.decision.approver, QStringLiteral("alice"));
    EXPECT_EQ(no.calls, 1);
    EXPECT_FALSE(no.decision.approved);
    EXPECT_EQ(no.decision.decidedBy, QStringLiteral("user"));
    // A second answer, or one for an unknown request, changes nothing.
    provider.answer(1, false);
    provider.answer(99, true);
    EXPECT_EQ(yes.calls, 1);
    EXPECT_TRUE(yes.decision.approved);
    EXPECT_EQ(provider.pendingCount(), 0);
}

TEST(ConfirmationProvider, AskTimesOutAsDeniedAndWithdrawsTheDialog)
{
    AskConfirmationProvider provider;
    ScriptedApprover gui; // never answers
    provider.attach(&gui);
    Outcome outcome;
    QElapsedTimer timer;
    timer.start();
    provider.request(requestWith(7, 150), outcome.done());
    EXPECT_TRUE(QTest::qWaitFor([&] { return outcome.calls > 0; }, 5000));
    EXPECT_GE(timer.elapsed(), 140);
    EXPECT_EQ(outcome.calls, 1);
    EXPECT_FALSE(outcome.decision.approved);
    EXPECT_EQ(outcome.decision.decidedBy, QStringLiteral("timeout"));
    EXPECT_EQ(gui.withdrawn, QList<quint64>{7});
    // A late answer is ignored.
    provider.answer(7, true);
    EXPECT_EQ(outcome.calls, 1);
}

TEST(ConfirmationProvider, CancelWithdrawsWithoutAnswering)
{
    AskConfirmationProvider provider;
    ScriptedApprover gui;
    provider.attach(&gui);
    Outcome outcome;
    provider.request(requestWith(3, 100), outcome.done());
    provider.cancel(3);
    EXPECT_EQ(gui.withdrawn, QList<quint64>{3});
    QTest::qWait(200); // the timeout does not fire either
    EXPECT_EQ(outcome.calls, 0);
    EXPECT_EQ(provider.pendingCount(), 0);
}

TEST(ConfirmationProvider, DetachingDeniesWhatIsPending)
{
    AskConfirmationProvider provider;
    ScriptedApprover gui;
    provider.attach(&gui);
    Outcome outcome;
    provider.request(requestWith(4), outcome.done());
    provider.detach();
    EXPECT_EQ(outcome.calls, 1);
    EXPECT_FALSE(outcome.decision.approved);
    EXPECT_EQ(outcome.decision.decidedBy, QStringLiteral("no_approver"));
    EXPECT_FALSE(provider.hasApprover());
}

TEST(ApprovalRequest, NamesTheTargetAndKeys)
{
    const auto request = ApprovalRequest::forIntent(
        QStringLiteral("desktop.hotkey"),
        QJsonDocument::fromJson(R"({"route":{"app":{"bundleId":"org.gnome.gedit"},"window":{"titlePattern":"Untitled"}},
                                    "keys":["ctrl","s"]})")
            .object(),
        QStringLiteral("feed"));
    EXPECT_EQ(request.keys, (QStringList{QStringLiteral("ctrl"), QStringLiteral("s")}));
    EXPECT_EQ(request.target.value(QStringLiteral("app")).toObject().value(QStringLiteral("bundleId")).toString(),
              QStringLiteral("org.gnome.gedit"));
    EXPECT_EQ(
        request.target.value(QStringLiteral("window")).toObject().value(QStringLiteral("titlePattern")).toString(),
        QStringLiteral("Untitled"));
    EXPECT_FALSE(request.textPreview.has_value());
    const QJsonObject json = request.toJson();
    EXPECT_EQ(json.value(QStringLiteral("method")).toString(), QStringLiteral("desktop.hotkey"));
    EXPECT_EQ(json.value(QStringLiteral("paramsDigest")).toString(), QStringLiteral("feed"));
}

struct PreviewRow
{
    const char* name;
    const char* params;
    bool masked;
    const char* reason = ""; ///< textMaskReason
};

class TextPreview : public ::testing::TestWithParam<PreviewRow>
{
};

TEST_P(TextPreview, IsMaskedWhenLongOrSecret)
{
    const QJsonObject params = QJsonDocument::fromJson(GetParam().params).object();
    const auto request = ApprovalRequest::forIntent(QStringLiteral("desktop.typeText"), params, QStringLiteral("d"));
    const QString text = params.value(QStringLiteral("text")).toString();
    ASSERT_TRUE(request.textPreview.has_value());
    EXPECT_EQ(request.textMasked, GetParam().masked);
    EXPECT_EQ(request.textMaskReason, QString::fromLatin1(GetParam().reason));
    EXPECT_EQ(request.textLength, text.size());
    if (GetParam().masked) {
        EXPECT_FALSE(request.textPreview->contains(text.left(3)));
        EXPECT_FALSE(QJsonDocument(request.toJson()).toJson().contains(text.left(3).toUtf8()));
    } else {
        EXPECT_EQ(*request.textPreview, text);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Rows, TextPreview,
    ::testing::Values(
        PreviewRow{"Short", R"({"text":"hello world","target":{"selector":{"byRole":"AXTextField"}}})", false},
        PreviewRow{"Long", R"({"text":"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"})", true, "long"},
        PreviewRow{"SecureRole", R"({"text":"hunter2","target":{"selector":{"byRole":"AXSecureTextField"}}})", true,
                   "secure_role"},
        PreviewRow{"NativePasswordRole", R"({"text":"hunter2","target":{"selector":{"byRole":"password text"}}})", true,
                   "secure_role"},
        PreviewRow{"PasswordTitle", R"({"text":"xyzzy1","target":{"selector":{"titleContains":"Password"}}})", true,
                   "secret_words"},
        PreviewRow{"ChinesePassword", R"({"text":"xyzzy1","target":{"selector":{"titleEquals":"密码"}}})", true,
                   "secret_words"},
        PreviewRow{
            "PinInFingerprint",
            R"({"text":"xyzzy1","target":{"elementRef":{"elementId":"e:1","fingerprint":"AXTextField|PIN|x=1,y=2,w=3,h=4"}}})",
            true, "secret_words"},
        // Fingerprints name AXTextField for secure fields too: only looking at the element can
        // tell (the dispatcher does, before the dialog opens).
        PreviewRow{
            "NeutralFingerprintIsLeftToTheLook",
            R"({"text":"xyzzy1","target":{"elementRef":{"elementId":"e:1","fingerprint":"AXTextField|Kennwort|x=1,y=2,w=3,h=4"}}})",
            false},
        PreviewRow{"ApiKeyIdentifier", R"({"text":"xyzzy1","target":{"selector":{"byIdentifier":"api_key"}}})", true,
                   "secret_words"},
        PreviewRow{"SpinnerIsNotPin", R"({"text":"42","target":{"selector":{"titleContains":"Spinner"}}})", false}),
    [](const ::testing::TestParamInfo<PreviewRow>& info) { return std::string(info.param.name); });

namespace {

ApprovalRequest mcpRequest(quint64 id, const QString& client, qint64 uid = 1000)
{
    ApprovalRequest request = requestWith(id);
    request.via = QStringLiteral("mcp");
    request.client = client;
    request.peer.uid = uid;
    return request;
}

} // namespace

// The MCP door's ask: the person is offered to allow the client; allowed for 5 minutes, the same
// client (uid and parent executable) is approved without asking until then, another client or
// the same after the time is asked again; a policy change forgets the grants.
TEST(McpConfirmationProvider, AGrantIsForOneClientAndExpires)
{
    AskConfirmationProvider ask;
    ScriptedApprover gui;
    ask.attach(&gui);
    QDateTime now = QDateTime::currentDateTimeUtc();
    McpConfirmationProvider mcp(&ask, ConfirmPolicy::Ask, [&now] { return now; });
    const QString node = QStringLiteral("/usr/bin/node");

    Outcome first;
    mcp.request(mcpRequest(1, node), first.done());
    ASSERT_EQ(gui.asked.size(), 1);
    EXPECT_TRUE(gui.asked.first().offerGrant);
    ask.answer(1, true, QStringLiteral("user"), 5);
    ASSERT_EQ(first.calls, 1);
    EXPECT_TRUE(first.decision.approved);

    Outcome granted;
    mcp.request(mcpRequest(2, node), granted.done());
    EXPECT_EQ(gui.asked.size(), 1);
    EXPECT_TRUE(granted.decision.approved);
    EXPECT_EQ(granted.decision.decidedBy, QStringLiteral("grant"));

    Outcome otherClient;
    mcp.request(mcpRequest(3, QStringLiteral("/usr/bin/python3")), otherClient.done());
    EXPECT_EQ(gui.asked.size(), 2);
    EXPECT_EQ(otherClient.calls, 0);
    Outcome otherUser;
    mcp.request(mcpRequest(4, node, 1001), otherUser.done());
    EXPECT_EQ(gui.asked.size(), 3);

    now = now.addSecs(5 * 60 + 1);
    Outcome expired;
    mcp.request(mcpRequest(5, node), expired.done());
    EXPECT_EQ(gui.asked.size(), 4);
    EXPECT_EQ(expired.calls, 0);

    // Without a client executable nothing can be allowed by name: no offer.
    Outcome unnamed;
    mcp.request(mcpRequest(6, QString()), unnamed.done());
    EXPECT_FALSE(gui.asked.last().offerGrant);
    ask.detach();
}

TEST(McpConfirmationProvider, AutoAndDenyDecideWithoutAsking)
{
    AskConfirmationProvider ask;
    ScriptedApprover gui;
    ask.attach(&gui);
    McpConfirmationProvider mcp(&ask, ConfirmPolicy::Deny);
    Outcome denied;
    mcp.request(mcpRequest(1, QStringLiteral("/usr/bin/node")), denied.done());
    EXPECT_FALSE(denied.decision.approved);
    EXPECT_EQ(mcp.policyName(), QStringLiteral("deny"));
    mcp.setPolicy(ConfirmPolicy::Auto);
    Outcome approved;
    mcp.request(mcpRequest(2, QStringLiteral("/usr/bin/node")), approved.done());
    EXPECT_TRUE(approved.decision.approved);
    EXPECT_TRUE(gui.asked.isEmpty());
    ask.detach();
}
