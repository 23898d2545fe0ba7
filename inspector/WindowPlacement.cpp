#include "inspector/WindowPlacement.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>
#include <array>

namespace Inspector {

namespace {

int overlap(const QRect& a, const QRect& b)
{
    const QRect both = a.intersected(b);
    return both.isEmpty() ? 0 : both.width() * both.height();
}

QPoint clampInto(QPoint at, const QSize& size, const QRect& screen)
{
    at.setX(std::clamp(at.x(), screen.left(), std::max(screen.left(), screen.right() - size.width() + 1)));
    at.setY(std::clamp(at.y(), screen.top(), std::max(screen.top(), screen.bottom() - size.height() + 1)));
    return at;
}

} // namespace

Placement placeBeside(const QRect& target, const QSize& window, const QRect& screen, int gap)
{
    const QRect keepClear = target.adjusted(-gap, -gap, gap, gap);
    struct Side
    {
        QString name;
        int room;
        QPoint at;
    };
    const int middleY = target.center().y() - window.height() / 2;
    const int middleX = target.center().x() - window.width() / 2;
    std::array<Side, 4> sides{{
        {QStringLiteral("right"), screen.right() - keepClear.right(), QPoint(keepClear.right() + 1, middleY)},
        {QStringLiteral("left"), keepClear.left() - screen.left(), QPoint(keepClear.left() - window.width(), middleY)},
        {QStringLiteral("below"), screen.bottom() - keepClear.bottom(), QPoint(middleX, keepClear.bottom() + 1)},
        {QStringLiteral("above"), keepClear.top() - screen.top(), QPoint(middleX, keepClear.top() - window.height())},
    }};
    // The side with the most room first (room measured across the window's own depth).
    std::stable_sort(sides.begin(), sides.end(), [&window](const Side& a, const Side& b) {
        const auto spare = [&window](const Side& side) {
            const bool across = side.name == QLatin1String("right") || side.name == QLatin1String("left");
            return side.room - (across ? window.width() : window.height());
        };
        return spare(a) > spare(b);
    });
    for (const Side& side : sides) {
        // Along the side the window may slide to stay on the screen; across it, it must fit.
        const QPoint at = side.name == QLatin1String("right") || side.name == QLatin1String("left")
                              ? QPoint(side.at.x(), clampInto(side.at, window, screen).y())
                              : QPoint(clampInto(side.at, window, screen).x(), side.at.y());
        const QRect placed(at, window);
        if (screen.contains(placed) && !placed.intersects(keepClear))
            return Placement{at, side.name, 0};
    }
    // No side takes it: where it covers the least of the target, kept on the screen.
    Placement best{clampInto(sides.front().at, window, screen), QStringLiteral("least"), 0};
    best.coveredArea = overlap(QRect(best.topLeft, window), keepClear);
    const std::array<QPoint, 4> corners{
        screen.topLeft(), QPoint(screen.right() - window.width() + 1, screen.top()),
        QPoint(screen.left(), screen.bottom() - window.height() + 1),
        QPoint(screen.right() - window.width() + 1, screen.bottom() - window.height() + 1)};
    const auto consider = [&](QPoint at) {
        at = clampInto(at, window, screen);
        const int covered = overlap(QRect(at, window), keepClear);
        if (covered < best.coveredArea) {
            best.topLeft = at;
            best.coveredArea = covered;
        }
    };
    for (const Side& side : sides)
        consider(side.at);
    for (const QPoint& corner : corners)
        consider(corner);
    if (best.coveredArea > 0)
        best.coveredArea = overlap(QRect(best.topLeft, window), target);
    return best;
}

QSize frameSizeOf(const QWidget& window)
{
    const QSize inner = window.size();
    const QRect frame = window.frameGeometry();
    const QRect geometry = window.geometry();
    const QSize decorations(frame.width() - geometry.width(), frame.height() - geometry.height());
    // Before the window manager has framed it, allow for a title bar and borders.
    if (!window.isVisible() || (decorations.width() <= 0 && decorations.height() <= 0))
        return inner + QSize(8, 32);
    return inner + decorations;
}

QRect screenFor(const QRect& target)
{
    QScreen* best = nullptr;
    int most = 0;
    for (QScreen* screen : QGuiApplication::screens()) {
        const int shown = overlap(screen->geometry(), target);
        if (shown > most) {
            most = shown;
            best = screen;
        }
    }
    if (!best)
        best = QGuiApplication::primaryScreen();
    return best ? best->availableGeometry() : QRect();
}

} // namespace Inspector
