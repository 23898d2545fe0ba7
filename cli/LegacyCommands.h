#pragma once

#include <QString>

/// msgcode's original desktopctl commands (docs/msgcode.md, "The older runner"): `rpc`, one
/// request whose JSON-RPC answer goes to stdout, and `session`, a stdio NDJSON loop answering each
/// request line with {id, exitCode, stdout, stderr}. Their exit codes are the original's, not
/// the other commands': 0 a result, 2 an error answer, 10 the host cannot be reached.
namespace LegacyCommands {

enum ExitCode { Success = 0, RpcError = 2, ConnectionFailed = 10 };

/// `rpc WORKSPACE --method M --params-json J`.
int rpc(const QString& socketPath, const QString& workspace, const QString& method, const QString& paramsJson);
/// `session WORKSPACE [--idle-ms N]`.
int session(const QString& socketPath, const QString& workspace, int idleMs);

} // namespace LegacyCommands
