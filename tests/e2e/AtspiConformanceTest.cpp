// The backend conformance suite (tests/conformance) for the AT-SPI backend, end to end: the real
// host on the headless desktop drives the Qt fixture app, whose own reports on stdout are what
// each check reads. tests/integration/MacBackendBridgeTest.cpp runs the same suite for the macOS
// backend over FakeAxApi.
#include "BackendConformance.h"
#include "E2eSupport.h"

#include <gtest/gtest.h>

using namespace Testing;

namespace {

constexpr int kReportMs = 3000;

class AtspiTarget final : public Conformance::Target
{
public:
    AtspiTarget(DesktopSession& session, AppProcess& app) : m_session(session), m_app(app) {}

    QJsonObject call(const QString& method, QJsonObject params) override
    {
        if (!params.contains(QStringLiteral("route")))
            params.insert(QStringLiteral("route"), DesktopSession::route(m_app.pid()));
        return m_session.call(method, params);
    }
    bool appSawPressed(const QString& button) override
    {
        return m_app.waitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), button}}, kReportMs).has_value();
    }
    std::optional<QString> appFieldText(const QString& field, const QString& expected) override
    {
        if (m_app.waitEvent(QStringLiteral("textChanged"),
                            {{QStringLiteral("name"), field}, {QStringLiteral("text"), expected}}, kReportMs))
            return expected;
        std::optional<QString> last;
        for (const auto& e : m_app.events())
            if (e.value(QStringLiteral("event")).toString() == QLatin1String("textChanged") &&
                e.value(QStringLiteral("name")).toString() == field)
                last = e.value(QStringLiteral("text")).toString();
        return last;
    }
    std::optional<int> appSecretLength(const QString& field, int expected) override
    {
        if (m_app.waitEvent(QStringLiteral("textChanged"),
                            {{QStringLiteral("name"), field}, {QStringLiteral("length"), expected}}, kReportMs))
            return expected;
        std::optional<int> last;
        for (const auto& e : m_app.events())
            if (e.value(QStringLiteral("event")).toString() == QLatin1String("textChanged") &&
                e.value(QStringLiteral("name")).toString() == field)
                last = e.value(QStringLiteral("length")).toInt();
        return last;
    }
    bool appSawChecked(const QString& box, bool checked) override
    {
        return m_app
            .waitEvent(QStringLiteral("toggled"), {{QStringLiteral("name"), box}, {QStringLiteral("checked"), checked}},
                       kReportMs)
            .has_value();
    }
    void forgetReports() override { m_app.discardEvents(); }

private:
    DesktopSession& m_session;
    AppProcess& m_app;
};

class AtspiConformance : public SessionSuite
{
protected:
    void SetUp() override
    {
        SessionSuite::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        // The fixture with its default title, "MDH Target App", as the macOS conformance app.
        m_app = std::make_unique<AppProcess>(DesktopSession::fixtureBinary(), QStringList{});
        ASSERT_TRUE(m_app->start()) << "the fixture app did not start";
        m_target = std::make_unique<AtspiTarget>(session(), *m_app);
    }

    Conformance::Target& target() { return *m_target; }

    std::unique_ptr<AppProcess> m_app;
    std::unique_ptr<AtspiTarget> m_target;
};

} // namespace

TEST_F(AtspiConformance, FindsAButtonByRoleAndTitle)
{
    Conformance::findsAButtonByRoleAndTitle(target());
}

TEST_F(AtspiConformance, NamesWhatItCouldNotFind)
{
    Conformance::namesWhatItCouldNotFind(target());
}

TEST_F(AtspiConformance, ObservesTheTreeAndTheScreen)
{
    Conformance::observesTheTreeAndTheScreen(target());
}

TEST_F(AtspiConformance, ClickPressesTheButton)
{
    Conformance::clickPressesTheButton(target());
}

TEST_F(AtspiConformance, TypesIntoTheFieldAndReadsItBack)
{
    Conformance::typesIntoTheFieldAndReadsItBack(target());
}

TEST_F(AtspiConformance, ClearBeforeReplacesTheText)
{
    Conformance::clearBeforeReplacesTheText(target());
}

TEST_F(AtspiConformance, TypesASecretWithoutShowingIt)
{
    Conformance::typesASecretWithoutShowingIt(target());
}

TEST_F(AtspiConformance, ReadsTextButNeverASecret)
{
    Conformance::readsTextButNeverASecret(target());
}

TEST_F(AtspiConformance, TogglesTheCheckBox)
{
    Conformance::togglesTheCheckBox(target());
}

TEST_F(AtspiConformance, AHotkeyReachesTheApp)
{
    Conformance::aHotkeyReachesTheApp(target());
}

TEST_F(AtspiConformance, RefusesASideEffectWithoutConfirmation)
{
    Conformance::refusesASideEffectWithoutConfirmation(target());
}
