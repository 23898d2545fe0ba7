#pragma once

#include "automation/Locator.h"

#include <QJsonObject>

#include <optional>

/// The engine's operations, typed: each runs on the worker thread with a JobContext and returns
/// a typed result or a contract error. They know nothing of JSON-RPC, sockets or workspaces:
/// the bridge turns params into these requests and results into answers; the host's own windows
/// call them with a NullTrace (docs/architecture.md, "The engine").
namespace Automation::Operations {

struct ObserveRequest
{
    Route route;
    bool includeScreenshot = true;
    bool includeAxTree = true;
    SnapshotBounds bounds;
};

struct ObserveResult
{
    ResolvedRoute route;
    std::optional<Snapshot> snapshot;     ///< when includeAxTree
    std::optional<Screenshot> screenshot; ///< when includeScreenshot
    /// axTreeAt, axTreeMs, screenshotAt, skewMs (the tree and the screenshot are taken one
    /// after the other; the skew says how far apart).
    QJsonObject timing;
};

struct FindRequest
{
    Route route;
    Selector selector;
    QJsonObject selectorJson;
};

struct FindResult
{
    ResolvedRoute route;
    Snapshot snapshot;
    QList<Candidate> candidates; ///< ranked, best first
};

struct ClickRequest
{
    Route route;
    TargetSpec target;
    /// When the element has no action: click its frame's centre with the pointer.
    bool allowCoordinateFallback = false;
};

struct ClickResult
{
    ResolvedRoute route;
    ResolvedTarget target;
    ActionOutcome outcome;
    /// The screenshots around a pointer click (image names given to the trace), else empty.
    QString beforeImage;
    QString afterImage;
};

struct TypeRequest
{
    Route route;
    std::optional<TargetSpec> target; ///< none: the focused element
    QString text;
    bool clearBefore = false;
};

struct TypeResult
{
    ResolvedRoute route;
    std::optional<ResolvedTarget> target;
    TypeOutcome outcome;
    QJsonObject textInfo; ///< {"length", "sha256"}: what may be said about the text
};

struct HotkeyRequest
{
    Route route;
    KeyChord chord;
    int delayMs = 50;
};

struct HotkeyResult
{
    ResolvedRoute route;
    ActionOutcome outcome;
};

struct WaitRequest
{
    Route route;
    Selector selector;
    QJsonObject selectorJson;
    int pollMs = 500;
    int timeoutMs = 0;
};

struct WaitResult
{
    Snapshot snapshot; ///< the one the selector matched in
    QList<Candidate> candidates;
    qint64 elapsedMs = 0;
    int polls = 0;
};

/// Whether typed text would go into a secure element.
struct SecureLook
{
    bool secure = false;
    QString why; ///< "elementRef", "selector" or "focused"
    QString role;
};

/// A snapshot of the route's window and/or a screenshot; the tree is kept while the screenshot
/// is taken. Screenshots reach the trace as images named "observe.png", "before.png" and
/// "after.png", the names the evidence layout gives them.
Result<ObserveResult> observe(JobContext& ctx, const ObserveRequest& request);
/// The elements the selector matches, ranked; the tree and the candidates are kept.
Result<FindResult> find(JobContext& ctx, const FindRequest& request);
/// Clicks the target: its accessibility action, or (allowed and without one) the pointer with
/// screenshots before and after. Errors after the input may have reached the app are never
/// retryable (see afterDelivery).
Result<ClickResult> click(JobContext& ctx, const ClickRequest& request);
/// Types text into the target (or the focused element) through the backend's typing ladder.
/// The text never reaches the trace: only its length and digest.
Result<TypeResult> typeText(JobContext& ctx, const TypeRequest& request);
/// Sends a key chord to the route's window.
Result<HotkeyResult> hotkey(JobContext& ctx, const HotkeyRequest& request);
/// Polls until the selector matches (DESKTOP_TIMEOUT after request.timeoutMs, with the last
/// error seen); an app not there yet is waited for too.
Result<WaitResult> waitUntil(JobContext& ctx, const WaitRequest& request);
/// A read-only look (no focus change, nothing kept, nothing adopted into the cache) at where
/// typeText with `request` would type. An error when the target cannot be resolved now: the
/// text must then be treated as secret.
Result<SecureLook> secureTarget(JobContext& ctx, const TypeRequest& request);

/// An error from the step that injects input may come after the input reached the app: a
/// timeout, an abort, an unresponsive target or an internal failure there is never retryable
/// and says `mayHaveHadEffect` (docs/architecture.md, "Honest outcomes").
Error afterDelivery(Error error);

} // namespace Automation::Operations
