#pragma once

#include <QColor>
#include <QImage>
#include <QList>
#include <QRect>
#include <QWidget>

#include <memory>
#include <vector>

namespace Inspector {

/// A frame drawn around one screen rectangle: a frameless, always-on-top window that takes no
/// input and is shaped (QWidget::setMask) to the frame's border alone, so it looks right without
/// a compositor and every pixel inside the frame stays the app's.
class FrameWindow final : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kBorder = 3;

    FrameWindow();
    /// Frames `target` (screen coordinates) in `color`, the border drawn just outside it.
    void frame(const QRect& target, const QColor& color);
    QRect target() const { return m_target; }
    QColor color() const { return m_color; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QRect m_target;
    QColor m_color;
};

/// Where a frame was drawn and in which colour: what a read of the screen waits to see gone.
struct FrameTrace
{
    QRect target;
    QColor color;
};

/// True while `screen` (a grab of the screen area `area`, `ratio` device pixels per point) still
/// shows any of `traces`: most of the pixels along a frame's border still in its colour.
bool framesStillShown(const QImage& screen, const QRect& area, qreal ratio, const QList<FrameTrace>& traces);

/// The inspector's highlight: the selected node's frame, or every candidate's frame while a
/// selector is tested, the best one emphasised.
class HighlightOverlay
{
public:
    /// Frames in `strong` (the emphasised one) and `light` (the others).
    explicit HighlightOverlay(QColor strong = QColor(220, 20, 60), QColor light = QColor(255, 165, 0));
    ~HighlightOverlay();

    /// Shows a frame around each of `targets`; the one at `emphasised` (or none, -1) in the strong
    /// colour, the others lighter. Empty rectangles are skipped.
    void show(const QList<QRect>& targets, int emphasised = 0);
    void hide();
    /// Where the frames showing now are drawn.
    QList<FrameTrace> traces() const;
    /// The frames showing now (tests).
    QList<const FrameWindow*> frames() const;

private:
    std::vector<std::unique_ptr<FrameWindow>> m_frames;
    QColor m_strong;
    QColor m_light;
};

} // namespace Inspector
