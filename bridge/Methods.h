#pragma once

#include "automation/Operations.h"
#include "bridge/Params.h"
#include "bridge/evidence/ExecutionRecord.h"

#include <functional>

namespace Bridge::Methods {

/// The work of a queued contract method: typed params -> the engine's operation -> the JSON
/// result, run on the worker thread with the execution's evidence (its trace is the record).
using MethodJob = std::function<Automation::Result<QJsonObject>(Automation::JobContext&, Evidence::ExecutionRecord&)>;

MethodJob observe(ObserveParams params);
MethodJob find(FindParams params);
MethodJob click(ClickParams params);
MethodJob typeText(TypeTextParams params);
MethodJob hotkey(HotkeyParams params);
MethodJob waitUntil(WaitUntilParams params);
MethodJob dumpTree(DumpTreeParams params);
MethodJob capture(CaptureParams params);
MethodJob ocr(OcrParams params);
MethodJob ground(GroundParams params);
MethodJob readText(ReadTextParams params);
MethodJob scroll(ScrollParams params);
MethodJob menuPick(MenuPickParams params);
MethodJob pointer(PointerParams params);
MethodJob windows(WindowsParams params);
MethodJob clipboard(ClipboardParams params);
MethodJob displays(DisplaysParams params);
MethodJob fileDialog(FileDialogParams params);
MethodJob app(AppParams params);
MethodJob window(WindowParams params);
MethodJob elementAt(ElementAtParams params);

/// Adds to the execution's env.json what was found out after it ran (docs/evidence.md): the
/// display, input method, frontmost window and the target window from the backend, and for a
/// side effect how it was delivered, its effect and verification (or the error). On the worker.
void recordEnvironment(Automation::JobContext& context, Evidence::ExecutionRecord& record,
                       const Automation::Result<QJsonObject>& result, bool sideEffect);

/// The engine's request for typeText params (also used for the read-only look at its target
/// before a confirmation dialog shows the text).
Automation::Operations::TypeRequest typeRequest(const TypeTextParams& params);
/// What a side effect's params say it acts on, as a read-only look can resolve it (the route and
/// the target of desktop.click, desktop.typeText, desktop.scroll and a targeted desktop.pointer);
/// nullopt for the others, or params that do not parse.
std::optional<Automation::Operations::TypeRequest> targetLook(const QString& method, const QJsonObject& params);
/// What the owner's rules look at before a side effect of `method` with `params` runs (its
/// route, the element it lands on, whether it presses Enter, a menu path); nullopt when the
/// params do not parse.
std::optional<Automation::Operations::PolicyLookRequest> policyRequest(const QString& method,
                                                                       const QJsonObject& params);

} // namespace Bridge::Methods
