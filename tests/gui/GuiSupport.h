#pragma once

#include "FakeBackend.h"
#include "bridge/Host.h"

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

/// A host for a GUI test in `dir` (its workspace root/ws, socket, data) over `desktop`, asking a
/// person in its dialog for every confirmation; the test adds its owner policy.
inline Bridge::HostOptions askingHostOptions(const QString& dir, const std::shared_ptr<FakeDesktop>& desktop)
{
    QDir(dir).mkpath(QStringLiteral("root/ws"));
    Bridge::HostOptions options;
    options.server.socketPath = dir + QStringLiteral("/run/bridge.sock");
    options.workspaceRoot = dir + QStringLiteral("/root");
    options.backendFactory = [desktop] { return std::make_unique<FakeBackend>(desktop); };
    options.security.confirmPolicy = Bridge::ConfirmPolicy::Ask;
    options.security.dataDir = dir + QStringLiteral("/data");
    return options;
}

} // namespace Testing
