#pragma once

#include "automation/CallContext.h"
#include "automation/Types.h"

#include <QByteArray>
#include <QJsonObject>
#include <QPointF>
#include <QSize>
#include <QString>

#include <optional>

/// A vision model that points at what a description names in an image: the owner's own
/// grounding endpoint (docs/protocol.md §5.27). The engine only asks it; the host makes and
/// configures it (bridge/grounding/), and it is called only when the owner configured one.
namespace Automation::Grounding {

/// Where the model points, in the image's pixels.
struct Guess
{
    QPointF point;
    /// The model's own confidence when it gave one (0..1); never made up.
    std::optional<double> confidence;
    QString model;  ///< the model that answered, as it named itself
    QString answer; ///< its answer's text, as received (kept as evidence)
    qint64 elapsedMs = 0;
};

class Grounder
{
public:
    virtual ~Grounder() = default;
    /// Where in `png` (of `size` pixels) `description` is. DESKTOP_TIMEOUT at the grounder's own
    /// timeout or the call's deadline, whichever is first; DESKTOP_TARGET_UNRESPONSIVE when the
    /// endpoint cannot be reached or answers nothing usable (details.reason says which). Runs on
    /// the worker thread.
    virtual Result<Guess> locate(const QByteArray& png, QSize size, const QString& description,
                                 const CallContext& call) = 0;
    /// What the answers name as the method's provider: {url, model, timeoutMs}.
    virtual QJsonObject describe() const = 0;
};

} // namespace Automation::Grounding
