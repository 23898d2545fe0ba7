#pragma once

#include "Executor.h"
#include "Params.h"

namespace Bridge::Methods {

/// The work of each queued contract method, run on the worker thread (contract 5.3-5.8).
JobFunction observe(ObserveParams params);
JobFunction find(FindParams params);
JobFunction click(ClickParams params);
JobFunction typeText(TypeTextParams params);
JobFunction hotkey(HotkeyParams params);
JobFunction waitUntil(WaitUntilParams params);

/// Whether typeText with `params` would type into a secure element, found read-only (no
/// focus change, no evidence): {"secure": bool, "why": "elementRef"|"selector"|"focused"}, or
/// an error when the target cannot be resolved now (then the text must be treated as secret).
InspectFunction secureTarget(TypeTextParams params);

/// Bounds used when a method searches for elements (find, click/typeText by selector, waitUntil).
Automation::SnapshotBounds searchBounds(const Automation::CallContext& call, bool includeText);

} // namespace Bridge::Methods
