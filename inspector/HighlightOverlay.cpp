#include "inspector/HighlightOverlay.h"

#include <QPainter>
#include <QPointF>
#include <QRegion>

namespace Inspector {

FrameWindow::FrameWindow()
    : QWidget(nullptr, Qt::Window | Qt::FramelessWindowHint | Qt::WindowStaysOnTopHint |
                           Qt::X11BypassWindowManagerHint | Qt::WindowTransparentForInput |
                           Qt::WindowDoesNotAcceptFocus | Qt::Tool)
{
    setObjectName(QStringLiteral("inspectorHighlight"));
    setAttribute(Qt::WA_ShowWithoutActivating);
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setFocusPolicy(Qt::NoFocus);
}

void FrameWindow::frame(const QRect& target, const QColor& color)
{
    m_target = target;
    m_color = color;
    const QRect outer = target.adjusted(-kBorder, -kBorder, kBorder, kBorder);
    setGeometry(outer);
    // Only the border belongs to this window: the inside shows (and is) the app.
    const QRect local(QPoint(0, 0), outer.size());
    setMask(QRegion(local).subtracted(QRegion(local.adjusted(kBorder, kBorder, -kBorder, -kBorder))));
    update();
}

void FrameWindow::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), m_color);
}

HighlightOverlay::HighlightOverlay(QColor strong, QColor light) : m_strong(strong), m_light(light) {}
HighlightOverlay::~HighlightOverlay() = default;

void HighlightOverlay::show(const QList<QRect>& targets, int emphasised)
{
    std::size_t used = 0;
    for (int i = 0; i < targets.size(); ++i) {
        const QRect& target = targets.at(i);
        if (target.isEmpty())
            continue;
        if (used == m_frames.size())
            m_frames.push_back(std::make_unique<FrameWindow>());
        FrameWindow& window = *m_frames.at(used++);
        window.frame(target, i == emphasised ? m_strong : m_light);
        window.show();
        window.raise();
    }
    while (m_frames.size() > used)
        m_frames.pop_back();
}

void HighlightOverlay::hide()
{
    m_frames.clear();
}

QList<FrameTrace> HighlightOverlay::traces() const
{
    QList<FrameTrace> out;
    for (const auto& frame : m_frames)
        out.append(FrameTrace{frame->target(), frame->color()});
    return out;
}

bool framesStillShown(const QImage& screen, const QRect& area, qreal ratio, const QList<FrameTrace>& traces)
{
    // The middle of each border, sampled every few pixels.
    constexpr int kStep = 3;
    const int inset = FrameWindow::kBorder / 2 + 1;
    for (const auto& trace : traces) {
        const QRect line = trace.target.adjusted(-inset, -inset, inset, inset);
        const QRgb wanted = trace.color.rgb() & 0xFFFFFFu;
        int samples = 0;
        int matches = 0;
        const auto sample = [&](int x, int y) {
            const QPoint at((QPointF(x - area.x(), y - area.y()) * ratio).toPoint());
            if (!screen.rect().contains(at))
                return;
            ++samples;
            if ((screen.pixel(at) & 0xFFFFFFu) == wanted)
                ++matches;
        };
        for (int x = line.left(); x <= line.right(); x += kStep) {
            sample(x, line.top());
            sample(x, line.bottom());
        }
        for (int y = line.top(); y <= line.bottom(); y += kStep) {
            sample(line.left(), y);
            sample(line.right(), y);
        }
        if (samples > 0 && matches * 2 > samples)
            return true;
    }
    return false;
}

QList<const FrameWindow*> HighlightOverlay::frames() const
{
    QList<const FrameWindow*> out;
    for (const auto& frame : m_frames)
        out.append(frame.get());
    return out;
}

} // namespace Inspector
