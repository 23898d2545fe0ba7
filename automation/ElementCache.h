#pragma once

#include "automation/Types.h"

#include <QElapsedTimer>
#include <QHash>

#include <deque>
#include <optional>

namespace Automation {

/// Remembers the elements of recent snapshots so an elementRef from one request can be used
/// by the next (docs/protocol.md §4.5). Owned by the executor's worker thread.
///
/// Bounded by `capacity` elements, the oldest forgotten first, and compact: an element keeps
/// only what a later request asks of it (its backend handle, its fingerprint: role, title,
/// frame, and whether it is secure) and the route of its snapshot, which all its elements share. The same element seen
/// again in a later snapshot shares its strings with the earlier one, and ids are sequential,
/// so no index is needed.
class ElementCache
{
public:
    struct Entry
    {
        /// elementId, role, title, frame and handle are set; a secure element (Node::isSecure
        /// when it was seen) has StateSecure.
        Node node;
        ResolvedRoute route;
    };

    /// How long a snapshotId may be named, and by how many requests (plan 4.1).
    static constexpr qint64 kSnapshotTtlMs = 60000;
    static constexpr int kSnapshotMaxUses = 20;

    explicit ElementCache(qsizetype capacity = 50000, qint64 snapshotTtlMs = kSnapshotTtlMs,
                          int snapshotMaxUses = kSnapshotMaxUses);

    /// Gives every node of `snapshot` a fresh elementId ("e:N") and the snapshot its id
    /// ("s:N", N its first element's number), and remembers them.
    void adopt(Snapshot& snapshot, const ResolvedRoute& route);
    /// One use of `snapshotId` by a request naming it with `elementId` (docs/protocol.md §4.5):
    /// DESKTOP_STALE_SNAPSHOT, reason "snapshot_expired", once it is older than the TTL, was
    /// named by the maximum number of requests, or was forgotten; DESKTOP_INVALID_REQUEST when
    /// the element is not one of that snapshot's.
    std::optional<Error> useSnapshot(const QString& snapshotId, const QString& elementId);
    std::optional<Entry> find(const QString& elementId) const;

    /// An OCR capture whose lines and words were answered as elementRefs ("ocr:<captureId>:<n>",
    /// docs/protocol.md §4.4): bound to it, one action per capture.
    struct OcrCapture
    {
        QString captureId;
        ResolvedRoute route;
        Frame frame;                       ///< what was read: the window's frame then
        QHash<QString, Node> elements;     ///< by elementId
        QHash<QString, QByteArray> pixels; ///< by elementId: its frame's pixels (grown by 4) then
        bool used = false;                 ///< an action was taken on one of its elements
    };
    /// Remembers `capture` (the 16 most recent are kept).
    void keepCapture(OcrCapture capture);
    /// The capture an OCR elementRef names; null once forgotten.
    OcrCapture* capture(const QString& captureId);
    qsizetype size() const { return static_cast<qsizetype>(m_elements.size()); }

private:
    struct Element
    {
        QString handle;
        QString role;
        QString title;
        Frame frame;
        bool secure = false;
    };
    struct Route
    {
        quint64 firstId = 0; ///< the first element of its snapshot
        ResolvedRoute route;
        qint64 createdMs = 0; ///< on m_clock
        int uses = 0;         ///< requests that named its snapshotId
    };

    /// The held copy of `text`, shared by every element that uses it.
    QString hold(const QString& text);
    void release(const QString& text);

    qsizetype m_capacity;
    qint64 m_ttlMs;
    int m_maxUses;
    QElapsedTimer m_clock;
    quint64 m_next = 1;
    quint64 m_firstId = 1; ///< the id of m_elements.front()
    std::deque<Element> m_elements;
    std::deque<Route> m_routes;          ///< ascending firstId
    QHash<QString, qsizetype> m_strings; ///< each held string and how many elements use it
    std::deque<OcrCapture> m_captures;   ///< oldest first
};

} // namespace Automation
