// Password fields in each toolkit, labelled "Kennwort" (a label with no English or Chinese word
// for password in it, as in a German app): the confirmation for typing into one hides the text
// because the host looked at the element, not because of its name; text typed into one stays
// out of the answer, the audit log and the evidence. GTK 3 and GTK 4 forms come from
// tests/e2e/data/secure_form.py, Qt's from the fixture (--password-name), Gecko's from
// RealAppFirefoxTest.cpp. What the app got is read from the app's own report, not the host's.
#include "RealAppSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

const QString kLabel = u"Kennwort"_s;

const QString python3 = u"/usr/bin/python3"_s;

QStringList gtkForm(const QString& version)
{
    return {QStringLiteral(MDH_E2E_DATA_DIR "/secure_form.py"), u"--gtk"_s, version};
}

/// Starts a form with a password field named kLabel and a "User" field beside it; none
/// without a headless desktop (the tests then skip).
RealAppSession* startForm(const QString& program, const QStringList& args)
{
    QString why;
    if (!DesktopSession::available(&why))
        return nullptr;
    auto* session = new RealAppSession;
    ProbeQuery ready;
    ready.role = u"password text"_s;
    ready.name = kLabel;
    ready.minCount = 1;
    session->start(program, args, ready);
    return session;
}

QByteArray everythingIn(const QString& dir)
{
    QByteArray all;
    for (const QString& name : QDir(dir).entryList(QDir::Files)) {
        QFile file(dir + u'/' + name);
        if (file.open(QIODevice::ReadOnly))
            all += file.readAll();
    }
    return all;
}

void expectHiddenForThePasswordField(RealAppSession& app)
{
    const QString secret = u"kw-7731"_s;
    const QJsonObject approval = app.approvalForTyping(byRoleAndTitle(u"AXTextField"_s, kLabel), secret);
    ASSERT_FALSE(approval.isEmpty()) << "no approval line in the audit log";
    EXPECT_EQ(approval.value(u"textMasked"_s).toString(), u"secure_element"_s) << dump(approval);
    EXPECT_FALSE(everythingIn(app.desktop().host().dataDir()).contains(secret.toUtf8()));
}

void expectShownForAnOrdinaryField(RealAppSession& app, const QString& label)
{
    const QJsonObject approval = app.approvalForTyping(byRoleAndTitle(u"AXTextField"_s, label), u"ada"_s);
    ASSERT_FALSE(approval.isEmpty()) << "no approval line in the audit log";
    EXPECT_FALSE(approval.contains(u"textMasked"_s)) << dump(approval);
}

void expectTypedButNeverKept(RealAppSession& app)
{
    const QString secret = u"kw-4410"_s;
    const QJsonObject response = app.typeText(byRoleAndTitle(u"AXTextField"_s, kLabel), secret);
    EXPECT_TRUE(answeredTrue(response, u"typed"_s)) << dump(response);
    const auto changed = app.app().waitEvent(u"textChanged"_s, {{u"name"_s, kLabel}, {u"length"_s, secret.size()}});
    EXPECT_TRUE(changed.has_value()) << "the app did not report a text of the secret's length";
    EXPECT_FALSE(QJsonDocument(response).toJson().contains(secret.toUtf8())) << dump(response);
    const QString dir = evidenceDir(response);
    ASSERT_FALSE(dir.isEmpty());
    EXPECT_FALSE(everythingIn(dir).contains(secret.toUtf8()));
    EXPECT_FALSE(everythingIn(app.desktop().host().dataDir()).contains(secret.toUtf8()));
}

class SecureGtk3 : public RealAppTest<SecureGtk3>
{
protected:
    static void SetUpTestSuite() { s_app = startForm(python3, gtkForm(u"3"_s)); }
};

class SecureGtk4 : public RealAppTest<SecureGtk4>
{
protected:
    static void SetUpTestSuite() { s_app = startForm(python3, gtkForm(u"4"_s)); }
};

class SecureQt : public RealAppTest<SecureQt>
{
protected:
    static void SetUpTestSuite() { s_app = startForm(DesktopSession::fixtureBinary(), {u"--password-name"_s, kLabel}); }
};

} // namespace

TEST_F(SecureGtk3, ConfirmationHidesTextForAPasswordFieldByLookingAtIt)
{
    expectHiddenForThePasswordField(*s_app);
}
TEST_F(SecureGtk3, ConfirmationShowsTextForAnOrdinaryField)
{
    expectShownForAnOrdinaryField(*s_app, u"User"_s);
}
TEST_F(SecureGtk3, TextTypedIntoAPasswordFieldIsNeverKept)
{
    expectTypedButNeverKept(*s_app);
}

TEST_F(SecureGtk4, ConfirmationHidesTextForAPasswordFieldByLookingAtIt)
{
    expectHiddenForThePasswordField(*s_app);
}
TEST_F(SecureGtk4, ConfirmationShowsTextForAnOrdinaryField)
{
    expectShownForAnOrdinaryField(*s_app, u"User"_s);
}
TEST_F(SecureGtk4, TextTypedIntoAPasswordFieldIsNeverKept)
{
    expectTypedButNeverKept(*s_app);
}

TEST_F(SecureQt, ConfirmationHidesTextForAPasswordFieldByLookingAtIt)
{
    expectHiddenForThePasswordField(*s_app);
}
TEST_F(SecureQt, ConfirmationShowsTextForAnOrdinaryField)
{
    expectShownForAnOrdinaryField(*s_app, u"Message"_s);
}
TEST_F(SecureQt, TextTypedIntoAPasswordFieldIsNeverKept)
{
    expectTypedButNeverKept(*s_app);
}
