#pragma once

#include <QPoint>
#include <QRect>
#include <QSize>
#include <QString>

class QWidget;

namespace Inspector {

/// Where one of the host's windows goes so that it never hides the element it shows (the
/// confirmation dialog beside the target it asks about, the inspector beside the node it
/// highlights). Pure geometry, in screen coordinates.
struct Placement
{
    QPoint topLeft;      ///< of the window's frame
    QString side;        ///< "right", "left", "below", "above", or "least" (no side had room)
    int coveredArea = 0; ///< pixels of the target (with its highlight) the window covers
    bool coversTarget() const { return coveredArea > 0; }
};

/// A window of `window` size (its frame, decorations included) beside `target`, clear of it by
/// `gap` pixels (room for the highlight frame): on the side of `screen` with the most room that
/// takes the whole window, aligned with the target's middle. When no side has room, where it
/// covers the least of the target (`side` "least", coveredArea > 0 when it still covers some).
Placement placeBeside(const QRect& target, const QSize& window, const QRect& screen, int gap);

/// The frame size of a top-level widget: its frame geometry once shown, else its size with the
/// decorations it had last time, or a typical title bar's allowance.
QSize frameSizeOf(const QWidget& window);

/// The available geometry of the screen that shows most of `target` (the primary screen when none).
QRect screenFor(const QRect& target);

} // namespace Inspector
