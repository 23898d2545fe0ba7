#include "app/OnboardingWindow.h"

#include "bridge/PermissionMonitor.h"

#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace App {

namespace {

QString stateText(Automation::PermissionState state)
{
    switch (state) {
    // A coloured disc (U+25CF is in every common font; emoji are not) and the word.
    case Automation::PermissionState::Granted:
        return QStringLiteral("<span style=\"color:#2ea043\">&#9679;</span> <b>%1</b>")
            .arg(OnboardingWindow::tr("Granted"));
    case Automation::PermissionState::Denied:
        return QStringLiteral("<span style=\"color:#d02c2c\">&#9679;</span> <b>%1</b>")
            .arg(OnboardingWindow::tr("Not granted"));
    case Automation::PermissionState::Unknown:
        return QStringLiteral("<span style=\"color:#e0a800\">&#9679;</span> <b>%1</b>")
            .arg(OnboardingWindow::tr("Not known yet"));
    }
    return {};
}

} // namespace

OnboardingWindow::OnboardingWindow(Bridge::PermissionMonitor& permissions, QWidget* parent)
    : QWidget(parent, Qt::Window), m_permissions(permissions), m_probe(permissions.createProbe())
{
    setObjectName(QStringLiteral("onboardingWindow"));
    setWindowTitle(tr("Set up msgcode Desktop Host"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("msgcode Desktop Host needs two permissions to see and operate apps on your "
                                "desktop for msgcode. msgcode itself never gets them: it asks this host, and you "
                                "approve every action."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    // The permissions' purposes, as desktop.doctor names them (docs/protocol.md §5.2).
    auto* accessibility = new QGroupBox(tr("Accessibility — AX observe/find/action"), this);
    auto* a = new QVBoxLayout(accessibility);
    m_accessibilityState = new QLabel(accessibility);
    m_accessibilityState->setObjectName(QStringLiteral("accessibilityState"));
    m_accessibilityState->setWordWrap(true);
    m_accessibilityHow = new QLabel(accessibility);
    m_accessibilityHow->setWordWrap(true);
    m_accessibilityHow->setOpenExternalLinks(true);
    a->addWidget(m_accessibilityState);
    a->addWidget(m_accessibilityHow);
    // What the button does, and what it says, is the platform's (PermissionProbe::guide).
    m_enable = new QPushButton(accessibility);
    m_enable->setObjectName(QStringLiteral("enableAccessibility"));
    a->addWidget(m_enable);
    layout->addWidget(accessibility);
    connect(m_enable, &QPushButton::clicked, this, &OnboardingWindow::enableAccessibility);

    auto* capture = new QGroupBox(tr("Screen capture — Screenshot capture"), this);
    auto* c = new QVBoxLayout(capture);
    m_captureState = new QLabel(capture);
    m_captureState->setObjectName(QStringLiteral("captureState"));
    m_captureState->setWordWrap(true);
    m_captureHow = new QLabel(capture);
    m_captureHow->setWordWrap(true);
    m_captureHow->setOpenExternalLinks(true);
    c->addWidget(m_captureState);
    c->addWidget(m_captureHow);
    m_enableCapture = new QPushButton(capture);
    m_enableCapture->setObjectName(QStringLiteral("enableScreenCapture"));
    c->addWidget(m_enableCapture);
    layout->addWidget(capture);
    connect(m_enableCapture, &QPushButton::clicked, this, &OnboardingWindow::enableScreenCapture);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    auto* close = new QPushButton(tr("Close"), this);
    connect(close, &QPushButton::clicked, this, &QWidget::close);
    layout->addWidget(close, 0, Qt::AlignRight);

    connect(&m_permissions, &Bridge::PermissionMonitor::changed, this, &OnboardingWindow::refresh,
            Qt::QueuedConnection);
    setMinimumWidth(520);
    setMaximumWidth(720);
    refresh();
}

void OnboardingWindow::refresh()
{
    const auto report = m_permissions.current();
    const bool accessibility = report.accessibility.state == Automation::PermissionState::Granted;
    const bool capture = report.screenCapture.state == Automation::PermissionState::Granted;
    m_accessibilityState->setText(stateText(report.accessibility.state) + QStringLiteral(" — ") +
                                  report.accessibility.message.toHtmlEscaped());
    m_captureState->setText(stateText(report.screenCapture.state) + QStringLiteral(" — ") +
                            report.screenCapture.message.toHtmlEscaped());
    const Automation::PermissionGuide guide = m_probe->guide(report);
    m_accessibilityHow->setText(guide.accessibility);
    m_captureHow->setText(guide.screenCapture);
    m_enable->setText(guide.grantLabel);
    m_enable->setVisible(!guide.grantLabel.isEmpty());
    m_enable->setEnabled(!accessibility);
    m_enableCapture->setText(guide.captureGrantLabel);
    m_enableCapture->setVisible(!guide.captureGrantLabel.isEmpty());
    m_enableCapture->setEnabled(!capture);
    m_summary->setText(accessibility && capture ? tr("All set: the host can see and operate apps.")
                                                : tr("The tray icon turns green once both are granted."));
}

void OnboardingWindow::enableAccessibility()
{
    m_enable->setEnabled(false);
    m_probe->requestAccessibility(this, [this](bool ok, const QString& error) {
        Q_EMIT accessibilityRequested(ok, error);
        if (!ok)
            m_enable->setEnabled(true);
    });
}

void OnboardingWindow::enableScreenCapture()
{
    m_enableCapture->setEnabled(false);
    m_probe->requestScreenCapture(this, [this](bool ok, const QString& error) {
        Q_EMIT screenCaptureRequested(ok, error);
        if (!ok)
            m_enableCapture->setEnabled(true);
    });
}

} // namespace App
