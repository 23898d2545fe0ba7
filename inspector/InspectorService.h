#pragma once

#include "automation/Operations.h"
#include "bridge/Executor.h"

#include <QJsonObject>
#include <QObject>
#include <QPoint>

#include <functional>

namespace Inspector {

/// What the inspector reads, as read-only inspections on the host's single worker
/// (Executor::inspect): never on the GUI thread, never through the socket, queued behind a
/// running automation and never pre-empting it; desktop.stop aborts them too. Every answer
/// arrives on the owner thread.
class InspectorService final : public QObject
{
    Q_OBJECT

public:
    /// A read that takes longer counts as a target that does not answer.
    static constexpr int kReadTimeoutMs = 5000;
    /// Bounds of the tree the inspector reads (larger than a request's defaults).
    static constexpr int kMaxDepth = 64;
    static constexpr int kMaxNodes = 10000;

    struct FindAnswer
    {
        Automation::Operations::FindResult found;
        qint64 elapsedMs = 0; ///< the search on the worker, as the engine made it
    };

    explicit InspectorService(Bridge::Executor& executor, QObject* parent = nullptr);

    /// The top-level windows of every accessible app, topmost first.
    void windows(std::function<void(const Automation::Result<QList<Automation::WindowInfo>>&)> done);
    /// The whole tree of the route's window (text is never read of secure elements).
    void tree(const Automation::Route& route,
              std::function<void(const Automation::Result<Automation::Operations::DumpTreeResult>&)> done);
    /// desktop.find's params (without meta), parsed as desktop.find parses them, and the search.
    void find(const QJsonObject& params, std::function<void(const Automation::Result<FindAnswer>&)> done);
    /// The text on screen in the route's window, read by the host's OCR engine (nothing kept as
    /// evidence).
    void ocr(const Automation::Route& route,
             std::function<void(const Automation::Result<Automation::Operations::OcrResult>&)> done);
    /// The element under a screen point.
    void elementAt(QPoint point,
                   std::function<void(const Automation::Result<Automation::Operations::ElementAtResult>&)> done);

    /// "waiting: desktop.click running" while the worker runs an automation; empty when idle.
    QString busyText() const;

    /// The route to one window as the inspector names it: its app's pid and exact title (focus is
    /// left alone: reads never change it).
    static Automation::Route routeFor(const Automation::WindowInfo& window);

Q_SIGNALS:
    /// The app with `pid` reported a change of its elements (an element event of the backend:
    /// children, names, states, values, focus), on the owner thread.
    void appChanged(qint64 pid);

private:
    Bridge::Executor& m_executor;
};

} // namespace Inspector
