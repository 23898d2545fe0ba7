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

/// Bounds used when a method searches for elements (find, click/typeText by selector, waitUntil).
Automation::SnapshotBounds searchBounds(const Automation::CallContext& call, bool includeText);

} // namespace Bridge::Methods
