#pragma once

#include "automation/DesktopBackend.h"
#include "automation/backends/atspi/AtspiBus.h"

#include <QSet>

namespace Automation {

/// Honest outcomes (docs/architecture.md): what is read of an app and an element before an
/// action, and what the host waits to see after it.
class AtspiVerifier
{
public:
    explicit AtspiVerifier(AtspiBus& bus);

    /// What is observed of an element, to compare before and after an action.
    struct ElementState
    {
        bool read = false;
        bool gone = false;
        quint32 low = 0, high = 0;
        QString name;
        int childCount = -1;
        bool nameRead = false, countRead = false; ///< compared only when read on both sides
    };
    /// What is observed of an app and an element before an action.
    struct Baseline
    {
        QString service;
        quint64 mark = 0;
        qint64 atMs = 0;
        QSet<QString> noisy; ///< "path|kind" that kept firing before the action
        Atspi::Ref target;
        ElementState targetState;
        QStringList windows;
        bool windowsRead = false;
    };

    ElementState readElementState(const Atspi::Ref& ref, int timeoutMs);
    Result<QStringList> windowPaths(const Atspi::App& app, int timeoutMs);
    Baseline baseline(const Atspi::App& app, const Atspi::Ref* target, const CallContext& context);
    /// Waits (within `budgetMs` and the request's budget) for the app to show a change after
    /// an action: its events, the target's state/name/children, its window list.
    Verification verifyChange(const Atspi::App& app, const Baseline& before, const QString& expected, int budgetMs,
                              const CallContext& context, bool* answered = nullptr);
    /// The app's own reports from now on are not noise for the next action's baseline.
    void markSettled(const QString& service);

private:
    /// Waits until the app has stopped reporting changes (bounded), after an action's effect.
    void settle(const Baseline& before, const CallContext& context);

    AtspiBus& m_bus;
    QHash<QString, qint64> m_settledAt; ///< service -> when the host's last action on it settled
};

} // namespace Automation
