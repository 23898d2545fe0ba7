#pragma once

#include "automation/Error.h"
#include "automation/Types.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace Automation {

/// Where an engine operation reports what it did: each step with its duration, and the material
/// a decision was made on (the tree, the ranked candidates, screenshots). The bridge's evidence
/// writer keeps all of it in the execution's directory; read-only work for the host's own
/// windows (the inspector, the evidence browser) passes a NullTrace and keeps nothing.
///
/// The keep* calls come at the point of the operation where the material is final; an error
/// from one ends the operation (evidence that cannot be written fails the request), so they
/// return one. Implementations must be callable from the worker and one other thread at once
/// (observe keeps its tree while it takes the screenshot).
class Trace
{
public:
    virtual ~Trace() = default;

    /// One finished step: its name (e.g. "route.resolve"), duration, outcome and details.
    virtual void step(const QString& name, qint64 ms, bool ok, const QJsonObject& details) = 0;

    /// The tree of `snapshot` (with `extra` top-level fields, e.g. timing).
    virtual std::optional<Error> keepTree(const Snapshot& snapshot, const QJsonObject& extra = {})
    {
        Q_UNUSED(snapshot);
        Q_UNUSED(extra);
        return std::nullopt;
    }
    /// The candidates of a search, ranked, with the selector as the caller wrote it.
    virtual std::optional<Error> keepCandidates(const Snapshot& snapshot, const Selector& selector,
                                                const QList<Candidate>& candidates, const QJsonObject& selectorJson)
    {
        Q_UNUSED(snapshot);
        Q_UNUSED(selector);
        Q_UNUSED(candidates);
        Q_UNUSED(selectorJson);
        return std::nullopt;
    }
    /// Whether a tree kept should be complete: every node's frame, states and actions read, not
    /// only the candidates' (the host's setting "keep full trees for side effects", so that the
    /// evidence browser's selector lab can decide every selector on it later). It costs time.
    virtual bool wantsFullTrees() const { return false; }
    /// A PNG screenshot under `name` (e.g. "before.png").
    virtual std::optional<Error> keepImage(const QString& name, const QByteArray& png)
    {
        Q_UNUSED(name);
        Q_UNUSED(png);
        return std::nullopt;
    }
    /// A JSON file of the execution under `name` (e.g. "ocr.json").
    virtual std::optional<Error> keepJson(const QString& name, const QByteArray& json)
    {
        Q_UNUSED(name);
        Q_UNUSED(json);
        return std::nullopt;
    }
    /// An execution of several steps (menuPick): from now on every tree, candidate list and
    /// screenshot kept also goes to a numbered file named for `label` (docs/evidence.md:
    /// ax/001_<label>.json, selectors/002_<label>.json, screenshots/003_<label>_before.png),
    /// so each step's material survives the next; the contract's names keep the last.
    virtual void numberArtifacts(const QString& label) { Q_UNUSED(label); }
    /// Text is about to be typed into a secure element: whatever kept the text so far must
    /// forget it (only `textInfo`, its length and digest, may stay). Called before the first key.
    virtual std::optional<Error> forgetSecureText(const QJsonObject& textInfo)
    {
        Q_UNUSED(textInfo);
        return std::nullopt;
    }
};

/// Keeps nothing: for read-only work whose result is all that is wanted.
class NullTrace final : public Trace
{
public:
    void step(const QString&, qint64, bool, const QJsonObject&) override {}
};

/// Times a step from construction to finish(); a step never finished is reported as failed
/// when it goes out of scope (an early return is a failure of that step).
class TraceStep
{
public:
    TraceStep(Trace& trace, QString name) : m_trace(trace), m_name(std::move(name)) { m_timer.start(); }
    ~TraceStep()
    {
        if (!m_done)
            finish(false);
    }
    TraceStep(const TraceStep&) = delete;
    TraceStep& operator=(const TraceStep&) = delete;

    void finish(bool ok, const QJsonObject& details = {})
    {
        if (m_done)
            return;
        m_done = true;
        m_trace.step(m_name, m_timer.elapsed(), ok, details);
    }

private:
    Trace& m_trace;
    QString m_name;
    QElapsedTimer m_timer;
    bool m_done = false;
};

} // namespace Automation
