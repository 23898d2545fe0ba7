#include "app/TrayState.h"

#include <QPainter>
#include <QPixmap>

namespace App {

TrayState TrayState::evaluate(const Inputs& in)
{
    TrayState state;
    const bool accessibility = in.permissions.accessibility.state == Automation::PermissionState::Granted;
    const bool capture = in.permissions.screenCapture.state == Automation::PermissionState::Granted;

    state.lines.append(accessibility ? tr("Accessibility: granted") : tr("Accessibility: not granted"));
    state.lines.append(capture ? tr("Screen capture: available") : tr("Screen capture: not available"));
    state.lines.append(in.serving ? tr("Bridge: serving on %1").arg(in.socketPath) : tr("Bridge: not serving"));
    if (in.paused)
        state.lines.append(tr("Automation: stopped (side effects paused)"));
    if (in.policy == QLatin1String("ask"))
        state.lines.append(tr("Confirmations: asked of you"));
    else if (in.policy == QLatin1String("auto"))
        state.lines.append(tr("Confirmations: approved automatically"));
    else
        state.lines.append(tr("Confirmations: all refused"));

    if (in.unattended)
        state.lines.append(tr("Mode: unattended (what the owner's rules ask a person is refused)"));

    const QString& remote = in.remoteState;
    if (remote == QLatin1String("connected"))
        state.lines.append(tr("Remote control: connected to %1").arg(in.remoteServer));
    else if (remote == QLatin1String("connecting") || remote == QLatin1String("authenticating"))
        state.lines.append(tr("Remote control: connecting to %1").arg(in.remoteServer));
    else if (remote == QLatin1String("waiting"))
        state.lines.append(tr("Remote control: waiting to reconnect to %1").arg(in.remoteServer));
    else if (remote == QLatin1String("needs_bind_code"))
        state.lines.append(tr("Remote control: %1 needs a bind code").arg(in.remoteServer));
    else if (remote == QLatin1String("failed"))
        state.lines.append(tr("Remote control: not connected to %1").arg(in.remoteServer));

    if (!in.serving)
        state.problems.append(tr("The bridge is not serving: msgcode cannot reach the host."));
    if (remote == QLatin1String("needs_bind_code") || remote == QLatin1String("failed"))
        state.problems.append(tr("Remote control: %1").arg(in.remoteError));
    if (!accessibility)
        state.problems.append(in.permissions.accessibility.message);
    if (!capture)
        state.problems.append(in.permissions.screenCapture.message);
    if (in.paused)
        state.problems.append(tr("Automation is stopped until you resume it."));
    if (in.policy == QLatin1String("auto"))
        state.problems.append(tr("Every side effect is approved without asking you."));
    if (!in.rulesFileTrusted)
        state.problems.append(tr("The rule file changed outside the host: only its stricter rules apply until you "
                                 "trust it in Settings."));
    if (in.policy == QLatin1String("ask") && !in.approverAttached)
        state.problems.append(tr("Nobody can approve requests, so they are all refused."));

    if (!in.serving || (!accessibility && !capture)) {
        state.level = Level::Red;
        state.headline = tr("msgcode Desktop Host cannot automate");
    } else if (!state.problems.isEmpty()) {
        state.level = Level::Yellow;
        state.headline = tr("msgcode Desktop Host is serving, with limits");
    } else {
        state.level = Level::Green;
        state.headline = tr("msgcode Desktop Host is ready");
    }
    return state;
}

QString TrayState::tooltip() const
{
    QString text = headline;
    for (const auto& problem : problems)
        text += QLatin1Char('\n') + QStringLiteral("• ") + problem;
    return text;
}

QString TrayState::levelName(Level level)
{
    switch (level) {
    case Level::Green:
        return QStringLiteral("green");
    case Level::Yellow:
        return QStringLiteral("yellow");
    case Level::Red:
        return QStringLiteral("red");
    }
    return QStringLiteral("red");
}

QIcon TrayState::icon(Level level)
{
    // Drawn, not shipped: a filled disc in the state's colour with a dark rim, at the sizes
    // tray hosts ask for.
    const QColor fill = level == Level::Green    ? QColor(0x2e, 0xa0, 0x43)
                        : level == Level::Yellow ? QColor(0xe0, 0xa8, 0x00)
                                                 : QColor(0xd0, 0x2c, 0x2c);
    QIcon icon;
    for (int size : {16, 22, 24, 32, 48, 64}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(fill.darker(160), std::max(1, size / 12)));
        painter.setBrush(fill);
        const int margin = std::max(1, size / 8);
        painter.drawEllipse(QRectF(margin, margin, size - 2 * margin, size - 2 * margin));
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace App
