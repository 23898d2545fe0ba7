#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

/// The backend conformance suite (docs/testing.md): the same requests and the same method-level
/// assertions for every backend, each checked against what the app itself reports. The AT-SPI
/// backend runs it end to end on the headless desktop with the Qt fixture app
/// (tests/e2e/AtspiConformanceTest.cpp); the macOS backend runs it through the bridge against
/// FakeAxApi's conformance app (tests/integration/MacBackendBridgeTest.cpp). Both apps show the
/// same form: a window "MDH Target App" with the text field "Message", the secure field
/// "Password", the check box "Remember me" and the button "Send".
namespace Conformance {

/// One backend with the conformance app running, seen from outside the host.
class Target
{
public:
    virtual ~Target() = default;
    /// A request through the host's bridge, params.meta filled in; `route` is added (the app's
    /// pid) unless params has one. Returns the whole JSON-RPC response.
    virtual QJsonObject call(const QString& method, QJsonObject params) = 0;
    /// The app's own report that `button` was pressed (since the last forgetReports), waiting a
    /// few seconds for it.
    virtual bool appSawPressed(const QString& button) = 0;
    /// The text the app reports for `field`, waiting until it equals `expected` or a few seconds
    /// pass; nullopt when it reported none.
    virtual std::optional<QString> appFieldText(const QString& field, const QString& expected) = 0;
    /// The length the app reports for the secure field `field`, waiting for `expected`.
    virtual std::optional<int> appSecretLength(const QString& field, int expected) = 0;
    /// The app's own report of the check box's state, waiting for `checked`.
    virtual bool appSawChecked(const QString& box, bool checked) = 0;
    /// Forgets what the app reported so far.
    virtual void forgetReports() = 0;
};

void findsAButtonByRoleAndTitle(Target& target);
void namesWhatItCouldNotFind(Target& target);
void observesTheTreeAndTheScreen(Target& target);
void clickPressesTheButton(Target& target);
void typesIntoTheFieldAndReadsItBack(Target& target);
void clearBeforeReplacesTheText(Target& target);
void typesASecretWithoutShowingIt(Target& target);
void readsTextButNeverASecret(Target& target);
void togglesTheCheckBox(Target& target);
void aHotkeyReachesTheApp(Target& target);
void refusesASideEffectWithoutConfirmation(Target& target);

} // namespace Conformance
