#pragma once

#include <QApplication>
#include <QDir>
#include <QScreen>
#include <QString>
#include <QTest>

namespace Testing {

/// Where a GUI test's screenshot named `name` goes: gui-screenshots/ in the build tree.
inline QString screenshotPath(const QString& name)
{
    QDir().mkpath(QStringLiteral(MDH_SCREENSHOT_DIR));
    return QStringLiteral(MDH_SCREENSHOT_DIR) + QLatin1Char('/') + name + QStringLiteral(".png");
}

/// Saves the whole screen as it shows now, once pending paints are done.
inline void screenshot(const QString& name)
{
    QApplication::processEvents();
    QTest::qWait(150);
    QGuiApplication::primaryScreen()->grabWindow(0).save(screenshotPath(name));
}

} // namespace Testing
