#pragma once

#include "automation/Error.h"
#include "automation/Keys.h"
#include "automation/Types.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace Bridge {

/// docs/protocol.md §4.2. Token beats phrase.
struct ConfirmParams
{
    std::optional<QString> token;
    std::optional<QString> phrase;
    std::optional<QString> approvedAt;
    std::optional<QString> approver;
};

/// Members a request may carry that the host accepts and does not apply (docs/protocol.md §4.3:
/// a member that only changes how the host behaves, such as a wait's `route.focusPolicy`):
/// answered as `ignored: [{field, why}]` in the result, so a client knows.
using IgnoredMembers = QJsonArray;
void noteIgnored(IgnoredMembers& ignored, const QString& field, const QString& why);

/// An elementRef as a client sends it back (docs/protocol.md §4.5): elementId and fingerprint.
struct ElementRefParams
{
    QString elementId;
    std::optional<QString> fingerprint;
    std::optional<QString> snapshotId;
};

/// target: elementRef or selector (one or both: the ref first, the selector as fallback).
struct TargetParams
{
    std::optional<ElementRefParams> elementRef;
    std::optional<Automation::Selector> selector;
    QJsonObject selectorJson;
};

struct ObserveParams
{
    Automation::Route route;
    bool includeScreenshot = true;
    bool includeAxTree = true;
    Automation::SnapshotBounds bounds;
    std::optional<int> maxWidth; ///< options.maxWidth: a sized copy of the screenshot is answered
    std::optional<qint64> maxPixels;
};

struct FindParams
{
    Automation::Route route;
    Automation::Selector selector;
    QJsonObject selectorJson;
    bool includeText = false;   ///< include: ["text"]
    bool includeStates = false; ///< include: ["states"]
    bool refresh = false;
    /// maxDepth, maxNodes, maxWallTimeMs as dumpTree takes them; unset: the search's defaults.
    std::optional<int> maxDepth, maxNodes, maxWallTimeMs;
};

struct ClickParams
{
    Automation::Route route;
    TargetParams target;
    ConfirmParams confirm;
    bool allowCoordinateFallback = false;
    std::optional<QString> delivery; ///< "action" | "pointer"
};

struct TypeTextParams
{
    Automation::Route route;
    std::optional<TargetParams> target;
    QString text;
    bool clearBefore = false;
    int keyDelayMs = 0;              ///< options.keyDelayMs: the pause between typed keys (keys path)
    std::optional<QString> delivery; ///< "editableText" | "clipboard" | "keys"
    ConfirmParams confirm;
};

struct HotkeyParams
{
    Automation::Route route;
    Automation::KeyChord chord;
    int delayMs = 50;
    ConfirmParams confirm;
};

struct WaitUntilParams
{
    Automation::Route route;
    Automation::WaitCondition condition;
    int pollMs = 500;
    int timeoutMs = 0;
    bool refresh = false;
    IgnoredMembers ignored;
};

struct DumpTreeParams
{
    Automation::Route route;
    Automation::SnapshotBounds bounds;
};

struct CaptureParams
{
    std::optional<Automation::Route> route;
    std::optional<Automation::Frame> rect;
    bool inlinePng = false; ///< `inline`: the PNG in the answer too, as base64
    std::optional<int> maxWidth;
    std::optional<qint64> maxPixels;
};

struct OcrParams
{
    std::optional<Automation::Route> route;
    std::optional<Automation::Frame> rect;
    QStringList languages;
    int minConfidence = 40; ///< percent
    QString redactionMode = QStringLiteral("patterns");
};

struct GroundParams
{
    QString description;
    std::optional<Automation::Route> route;
    std::optional<Automation::Frame> rect;
};

struct ReadTextParams
{
    Automation::Route route;
    Automation::Selector selector;
    QJsonObject selectorJson;
    qint64 limitBytes = 65536;
    QString redactionMode = QStringLiteral("patterns");
};

struct AppParams
{
    QString action; ///< "list", "launch", "quit", "relaunch"
    QString bundleId;
    QString desktopId;
    QString executable;
    std::optional<qint64> pid;
    QStringList args;
    bool force = false;
    ConfirmParams confirm;
};

struct ClipboardParams
{
    QString action; ///< "read" or "write"
    QString text;   ///< write
    QString redactionMode = QStringLiteral("patterns");
    int restoreAfterMs = 0;
    ConfirmParams confirm;
};

struct FileDialogParams
{
    Automation::Route route;
    QString path;
    bool save = true;     ///< action "save" (else "open")
    bool replace = false; ///< overwrite "replace"
    ConfirmParams confirm;
};

struct ScrollParams
{
    Automation::Route route;
    TargetParams target;
    Automation::ScrollSpec spec;
    ConfirmParams confirm;
};

/// desktop.pointer: a gesture at a target's centre or a point (docs/protocol.md).
struct PointerParams
{
    Automation::Route route;
    std::optional<TargetParams> target;
    std::optional<QPoint> point;
    std::optional<TargetParams> toTarget;
    std::optional<QPoint> to;
    Automation::PointerGesture gesture;
    ConfirmParams confirm;
};

/// desktop.displays takes nothing but meta.
struct DisplaysParams
{
};

struct WindowsParams
{
    std::optional<QString> app;
    bool includeMinimized = true;
};

struct WindowParams
{
    Automation::Route route;
    Automation::WindowCommand command;
    ConfirmParams confirm;
    IgnoredMembers ignored;
};

struct ElementAtParams
{
    std::optional<Automation::Route> route;
    QPoint point;
};

struct MenuPickParams
{
    Automation::Route route;
    QStringList path;
    ConfirmParams confirm;
};

struct AbortParams
{
    QString executionId;
};

/// Parsers: each returns the typed struct or DESKTOP_INVALID_REQUEST (-32602) naming the field.
namespace Params {
Automation::Result<ObserveParams> observe(const QJsonObject& params);
Automation::Result<FindParams> find(const QJsonObject& params);
Automation::Result<ClickParams> click(const QJsonObject& params);
Automation::Result<TypeTextParams> typeText(const QJsonObject& params);
Automation::Result<HotkeyParams> hotkey(const QJsonObject& params);
Automation::Result<WaitUntilParams> waitUntil(const QJsonObject& params);
Automation::Result<AbortParams> abort(const QJsonObject& params);
Automation::Result<DumpTreeParams> dumpTree(const QJsonObject& params);
Automation::Result<CaptureParams> capture(const QJsonObject& params);
Automation::Result<OcrParams> ocr(const QJsonObject& params);
Automation::Result<GroundParams> ground(const QJsonObject& params);
Automation::Result<ReadTextParams> readText(const QJsonObject& params);
Automation::Result<ClipboardParams> clipboard(const QJsonObject& params);
Automation::Result<AppParams> app(const QJsonObject& params);
Automation::Result<ScrollParams> scroll(const QJsonObject& params);
Automation::Result<PointerParams> pointer(const QJsonObject& params);
Automation::Result<WindowsParams> windows(const QJsonObject& params);
Automation::Result<DisplaysParams> displays(const QJsonObject& params);
Automation::Result<FileDialogParams> fileDialog(const QJsonObject& params);
Automation::Result<WindowParams> window(const QJsonObject& params);
Automation::Result<ElementAtParams> elementAt(const QJsonObject& params);
Automation::Result<MenuPickParams> menuPick(const QJsonObject& params);

Automation::Result<Automation::Route> route(const QJsonValue& value, const QString& field);
Automation::Result<Automation::Selector> selector(const QJsonValue& value, const QString& field);
Automation::Result<ConfirmParams> confirm(const QJsonValue& value, const QString& field);
/// A waitUntil condition (docs/protocol.md §5.8), nested all/any at most 4 deep.
Automation::Result<Automation::WaitCondition> waitCondition(const QJsonValue& value, const QString& field,
                                                            int depth = 0);
} // namespace Params

} // namespace Bridge
