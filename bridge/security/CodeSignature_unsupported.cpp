#include "bridge/security/CodeSignature.h"

// Platforms without code signatures of running processes (all but macOS; CMake builds
// CodeSignature_mac.mm there instead).
namespace Bridge {

std::optional<CodeSignature> codeSignatureOfPid(qint64 pid)
{
    Q_UNUSED(pid);
    return std::nullopt;
}

} // namespace Bridge
