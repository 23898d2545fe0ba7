#pragma once

#include "automation/Error.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Bridge {

/// params.meta of every request: schemaVersion 1, requestId a UUID, workspacePath absolute (required
/// by the methods that write evidence), timeoutMs 1..600000 with 60000 by default.
struct Meta
{
    static constexpr int kSchemaVersion = 1;
    static constexpr int kDefaultTimeoutMs = 60000;
    static constexpr int kMaxTimeoutMs = 600000;

    int schemaVersion = kSchemaVersion;
    QString requestId; ///< a UUID exactly as the client sent it (hex digits of either case, no braces)
    std::optional<QString> workspacePath;
    int timeoutMs = kDefaultTimeoutMs;
};

/// What a client puts in params.meta: the one meta builder of the CLI, the tests and the benchmark.
struct MetaFill
{
    std::optional<QString> workspacePath;                   ///< left out when unset
    std::optional<int> timeoutMs = Meta::kDefaultTimeoutMs; ///< left out when unset
    QString requestId;                                      ///< empty: a fresh UUID each time
};

/// A fresh request id: a random UUID in the 36-character form parseMeta accepts.
QString newRequestId();
/// {schemaVersion, requestId, workspacePath, timeoutMs} as `fill` says.
QJsonObject buildMeta(const MetaFill& fill = {});
/// `params` with params.meta filled in from `fill`; fields the caller already put in params.meta win.
QJsonObject fillMeta(QJsonObject params, const MetaFill& fill = {});

/// Whether two request (execution) ids name the same UUID: a UUID's hex digits are
/// case-insensitive (RFC 9562 §4), so they compare without regard to case.
bool sameRequestId(const QString& a, const QString& b);

/// Parses params.meta. `workspaceRequired` for methods that write evidence.
Automation::Result<Meta> parseMeta(const QJsonObject& params, bool workspaceRequired);

/// Where evidence may be written: realpath(workspacePath) must lie under realpath(WORKSPACE_ROOT)
/// on a path-component boundary, so a symlink or a sibling such as "/ws-evil" cannot escape it.
class WorkspacePolicy
{
public:
    /// `root` as given (usually $WORKSPACE_ROOT); resolved once, now.
    explicit WorkspacePolicy(const QString& root);

    bool isConfigured() const { return !m_rootReal.isEmpty(); }
    QString rootRealPath() const { return m_rootReal; }
    QString rootAsGiven() const { return m_rootGiven; }
    /// Why the root is unusable, when it is.
    QString configurationProblem() const { return m_problem; }

    /// realpath of `workspacePath` when allowed, else DESKTOP_WORKSPACE_FORBIDDEN with a reason.
    Automation::Result<QString> check(const QString& workspacePath) const;

    /// realpath(3); nullopt when the path does not exist.
    static std::optional<QString> realPath(const QString& path);
    /// Whether `path` is `root` or lies below it on a component boundary. Both must be real paths.
    static bool isUnder(const QString& path, const QString& root);

private:
    QString m_rootGiven;
    QString m_rootReal;
    QString m_problem;
};

} // namespace Bridge
