#include "automation/ElementCache.h"

#include <algorithm>

namespace Automation {

QString ElementCache::hold(const QString& text)
{
    if (text.isEmpty())
        return QString();
    auto it = m_strings.find(text);
    if (it == m_strings.end())
        it = m_strings.insert(text, 0);
    ++it.value();
    return it.key();
}

void ElementCache::release(const QString& text)
{
    if (text.isEmpty())
        return;
    const auto it = m_strings.find(text);
    if (it != m_strings.end() && --it.value() <= 0)
        m_strings.erase(it);
}

ElementCache::ElementCache(qsizetype capacity, qint64 snapshotTtlMs, int snapshotMaxUses)
    : m_capacity(capacity), m_ttlMs(snapshotTtlMs), m_maxUses(snapshotMaxUses)
{
    m_clock.start();
}

void ElementCache::adopt(Automation::Snapshot& snapshot, const Automation::ResolvedRoute& route)
{
    if (snapshot.nodes.isEmpty())
        return;
    snapshot.snapshotId = QStringLiteral("s:") + QString::number(m_next);
    m_routes.push_back(Route{m_next, route, m_clock.elapsed(), 0});
    for (auto& node : snapshot.nodes) {
        node.elementId = QStringLiteral("e:") + QString::number(m_next++);
        m_elements.push_back(
            Element{hold(node.handle), hold(node.role), hold(node.title), node.frame, node.isSecure()});
    }
    while (static_cast<qsizetype>(m_elements.size()) > m_capacity) {
        const Element& oldest = m_elements.front();
        release(oldest.handle);
        release(oldest.role);
        release(oldest.title);
        m_elements.pop_front();
        ++m_firstId;
    }
    // A route is dropped once the next snapshot's elements start at or before the oldest kept.
    while (m_routes.size() > 1 && m_routes[1].firstId <= m_firstId)
        m_routes.pop_front();
    // The table keeps its largest size otherwise (a hash never shrinks by itself).
    if (m_strings.capacity() > 4096 && m_strings.size() < m_strings.capacity() / 8)
        m_strings.squeeze();
}

std::optional<Error> ElementCache::useSnapshot(const QString& snapshotId, const QString& elementId)
{
    const auto expired = [&](const QString& why, const QString& message, QJsonObject details = {}) {
        details.insert(QStringLiteral("reason"), QStringLiteral("snapshot_expired"));
        details.insert(QStringLiteral("why"), why);
        details.insert(QStringLiteral("snapshotId"), snapshotId);
        return Error::make(ErrorCode::StaleSnapshot,
                           QStringLiteral("snapshot %1 %2; observe or find again").arg(snapshotId, message), details);
    };
    bool ok = false;
    const quint64 first = snapshotId.startsWith(QLatin1String("s:")) ? snapshotId.mid(2).toULongLong(&ok) : 0;
    const auto it = std::find_if(m_routes.begin(), m_routes.end(), [&](const Route& r) { return r.firstId == first; });
    if (!ok || it == m_routes.end() || first < m_firstId)
        return expired(QStringLiteral("forgotten"), QStringLiteral("is unknown or forgotten"));
    // The element must be one of that snapshot's: ids from `first` up to the next snapshot's.
    const quint64 end = std::next(it) == m_routes.end() ? m_next : std::next(it)->firstId;
    const QStringView digits =
        elementId.startsWith(QLatin1String("e:")) ? QStringView(elementId).mid(2) : QStringView();
    const quint64 element = digits.toULongLong(&ok);
    if (!ok || element < first || element >= end)
        return Error::invalidParam(QStringLiteral("target.elementRef.snapshotId"),
                                   QStringLiteral("target.elementRef.snapshotId: %1 is not an element of snapshot %2")
                                       .arg(elementId, snapshotId));
    const qint64 age = m_clock.elapsed() - it->createdMs;
    if (age > m_ttlMs)
        return expired(QStringLiteral("ttl"), QStringLiteral("is older than %1 ms").arg(m_ttlMs),
                       QJsonObject{{QStringLiteral("ageMs"), age}, {QStringLiteral("ttlMs"), m_ttlMs}});
    if (it->uses >= m_maxUses)
        return expired(QStringLiteral("reuse"), QStringLiteral("was used by %1 requests already").arg(it->uses),
                       QJsonObject{{QStringLiteral("uses"), it->uses}, {QStringLiteral("maxUses"), m_maxUses}});
    ++it->uses;
    return std::nullopt;
}

std::optional<ElementCache::Entry> ElementCache::find(const QString& elementId) const
{
    if (!elementId.startsWith(QLatin1String("e:")))
        return std::nullopt;
    const QStringView digits = QStringView(elementId).mid(2);
    // Only the form adopt() writes: decimal digits, no sign, no leading zero.
    if (digits.isEmpty() || digits.front() == QLatin1Char('0') ||
        !std::all_of(digits.begin(), digits.end(),
                     [](QChar c) { return c >= QLatin1Char('0') && c <= QLatin1Char('9'); }))
        return std::nullopt;
    bool ok = false;
    const quint64 id = digits.toULongLong(&ok);
    if (!ok || id < m_firstId || id - m_firstId >= m_elements.size())
        return std::nullopt;
    const Element& element = m_elements[id - m_firstId];
    const auto route = std::upper_bound(m_routes.cbegin(), m_routes.cend(), id,
                                        [](quint64 value, const Route& r) { return value < r.firstId; });
    Entry entry;
    entry.node.elementId = elementId;
    entry.node.handle = element.handle;
    entry.node.role = element.role;
    entry.node.title = element.title;
    entry.node.frame = element.frame;
    if (element.secure)
        entry.node.states |= Automation::StateSecure;
    if (route != m_routes.cbegin())
        entry.route = std::prev(route)->route;
    return entry;
}

void ElementCache::keepCapture(OcrCapture capture)
{
    m_captures.push_back(std::move(capture));
    while (m_captures.size() > 16)
        m_captures.pop_front();
}

ElementCache::OcrCapture* ElementCache::capture(const QString& captureId)
{
    for (OcrCapture& c : m_captures) {
        if (c.captureId == captureId)
            return &c;
    }
    return nullptr;
}

} // namespace Automation
