#pragma once

#include "automation/DesktopBackend.h"

#include <memory>

namespace Automation {

/// The backend for the platform this build runs on. Defined by the backend library that
/// automation/CMakeLists.txt chooses (Linux: backends/atspi/AtspiFactory.cpp; elsewhere an
/// UnavailableBackend that says so). Call it on the thread that will own the backend.
std::unique_ptr<DesktopBackend> createPlatformBackend();

} // namespace Automation
