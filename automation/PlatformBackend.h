#pragma once

#include "DesktopBackend.h"

#include <memory>

namespace Automation {

/// The backend for the platform this build runs on (Linux: AT-SPI once it is built in; an
/// UnavailableBackend that says so otherwise). Call it on the thread that will own the backend.
std::unique_ptr<DesktopBackend> createPlatformBackend();

} // namespace Automation
