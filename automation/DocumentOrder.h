#pragma once

#include "automation/Types.h"

namespace Automation {

/// Re-orders a snapshot's nodes into document order (pre-order from node 0, children in their
/// order), fixing the parent and children indexes and the paths. Backends that gather nodes
/// breadth first call it before answering: the selector engine breaks ties by this order.
void toDocumentOrder(Snapshot& snapshot);

} // namespace Automation
