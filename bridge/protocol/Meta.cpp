#include "bridge/protocol/Meta.h"

#include <QFile>
#include <QJsonArray>
#include <QUuid>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

namespace Bridge {

using Automation::Error;
using Automation::ErrorCode;

namespace {

bool isInteger(const QJsonValue& value)
{
    if (!value.isDouble())
        return false;
    const double d = value.toDouble();
    return std::isfinite(d) && std::floor(d) == d;
}

// xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx with hex digits only: the id becomes a directory name
// as sent, so nothing but these 36 characters may pass.
bool isUuidText(const QString& text)
{
    if (text.size() != 36)
        return false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != u'-')
                return false;
        } else if (!((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F'))) {
            return false;
        }
    }
    return true;
}

} // namespace

QString newRequestId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QJsonObject buildMeta(const MetaFill& fill)
{
    QJsonObject meta{{QStringLiteral("schemaVersion"), Meta::kSchemaVersion},
                     {QStringLiteral("requestId"), fill.requestId.isEmpty() ? newRequestId() : fill.requestId}};
    if (fill.workspacePath)
        meta.insert(QStringLiteral("workspacePath"), *fill.workspacePath);
    if (fill.timeoutMs)
        meta.insert(QStringLiteral("timeoutMs"), *fill.timeoutMs);
    return meta;
}

QJsonObject fillMeta(QJsonObject params, const MetaFill& fill)
{
    QJsonObject meta = buildMeta(fill);
    const QJsonObject given = params.value(QLatin1String("meta")).toObject();
    for (auto it = given.constBegin(); it != given.constEnd(); ++it)
        meta.insert(it.key(), it.value());
    params.insert(QStringLiteral("meta"), meta);
    return params;
}

bool sameRequestId(const QString& a, const QString& b)
{
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

Automation::Result<Meta> parseMeta(const QJsonObject& params, bool workspaceRequired)
{
    const auto metaIt = params.constFind(QLatin1String("meta"));
    if (metaIt == params.constEnd())
        return Error::invalidParam(QStringLiteral("meta"), QStringLiteral("params.meta is required (contract 4.1)"));
    if (!metaIt->isObject())
        return Error::invalidParam(QStringLiteral("meta"), QStringLiteral("params.meta must be an object"));
    const QJsonObject meta = metaIt->toObject();
    Meta out;

    const QJsonValue version = meta.value(QLatin1String("schemaVersion"));
    if (version.isUndefined())
        return Error::invalidParam(QStringLiteral("meta.schemaVersion"),
                                   QStringLiteral("meta.schemaVersion is required"));
    if (!isInteger(version))
        return Error::invalidParam(QStringLiteral("meta.schemaVersion"),
                                   QStringLiteral("meta.schemaVersion must be an integer"));
    if (version.toDouble() != Meta::kSchemaVersion)
        return Error::invalidParam(
                   QStringLiteral("meta.schemaVersion"),
                   QStringLiteral("meta.schemaVersion %1 is not supported; this host speaks 1").arg(version.toDouble()))
            .withDetail(QStringLiteral("supported"), QJsonArray{Meta::kSchemaVersion});

    const QJsonValue requestId = meta.value(QLatin1String("requestId"));
    if (!requestId.isString())
        return Error::invalidParam(QStringLiteral("meta.requestId"),
                                   requestId.isUndefined() ? QStringLiteral("meta.requestId is required")
                                                           : QStringLiteral("meta.requestId must be a string"));
    const QString idText = requestId.toString();
    // Only the 36-character form: the id is kept as sent and becomes the evidence directory's name.
    if (!isUuidText(idText) || QUuid::fromString(idText).isNull())
        return Error::invalidParam(
            QStringLiteral("meta.requestId"),
            QStringLiteral("meta.requestId must be a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)"));
    out.requestId = idText;

    const QJsonValue workspace = meta.value(QLatin1String("workspacePath"));
    if (workspace.isUndefined() || workspace.isNull()) {
        if (workspaceRequired)
            return Error::invalidParam(QStringLiteral("meta.workspacePath"),
                                       QStringLiteral("meta.workspacePath is required"));
    } else if (!workspace.isString() || workspace.toString().isEmpty()) {
        return Error::invalidParam(QStringLiteral("meta.workspacePath"),
                                   QStringLiteral("meta.workspacePath must be a non-empty string"));
    } else if (!workspace.toString().startsWith(QLatin1Char('/'))) {
        return Error::invalidParam(QStringLiteral("meta.workspacePath"),
                                   QStringLiteral("meta.workspacePath must be an absolute path"));
    } else {
        out.workspacePath = workspace.toString();
    }

    const QJsonValue timeout = meta.value(QLatin1String("timeoutMs"));
    if (!timeout.isUndefined()) {
        if (!isInteger(timeout) || timeout.toDouble() < 1 || timeout.toDouble() > Meta::kMaxTimeoutMs)
            return Error::invalidParam(
                QStringLiteral("meta.timeoutMs"),
                QStringLiteral("meta.timeoutMs must be an integer from 1 to %1").arg(Meta::kMaxTimeoutMs));
        out.timeoutMs = static_cast<int>(timeout.toDouble());
    }
    return out;
}

WorkspacePolicy::WorkspacePolicy(const QString& root) : m_rootGiven(root)
{
    if (root.isEmpty()) {
        m_problem = QStringLiteral("WORKSPACE_ROOT is not set; the host was started without a workspace root, so it "
                                   "refuses every method that writes evidence");
        return;
    }
    const auto real = realPath(root);
    if (!real) {
        m_problem = QStringLiteral("WORKSPACE_ROOT %1 does not exist").arg(root);
        return;
    }
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(*real).constData(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        m_problem = QStringLiteral("WORKSPACE_ROOT %1 is not a directory").arg(root);
        return;
    }
    m_rootReal = *real;
}

std::optional<QString> WorkspacePolicy::realPath(const QString& path)
{
    char resolved[PATH_MAX];
    if (!::realpath(QFile::encodeName(path).constData(), resolved))
        return std::nullopt;
    return QFile::decodeName(resolved);
}

bool WorkspacePolicy::isUnder(const QString& path, const QString& root)
{
    if (root == QLatin1String("/"))
        return path.startsWith(QLatin1Char('/'));
    // A plain prefix test would let "/ws-evil" pass for "/ws": compare on a component boundary.
    return path == root || (path.startsWith(root) && path.at(root.size()) == QLatin1Char('/'));
}

Automation::Result<QString> WorkspacePolicy::check(const QString& workspacePath) const
{
    if (!isConfigured())
        return Error::make(ErrorCode::WorkspaceForbidden, m_problem,
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("workspace_root_unset")},
                                       {QStringLiteral("workspacePath"), workspacePath}});
    const auto real = realPath(workspacePath);
    if (!real)
        return Error::make(ErrorCode::WorkspaceForbidden,
                           QStringLiteral("meta.workspacePath %1 does not exist").arg(workspacePath),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("not_found")},
                                       {QStringLiteral("workspacePath"), workspacePath}});
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(*real).constData(), &st) != 0 || !S_ISDIR(st.st_mode))
        return Error::make(ErrorCode::WorkspaceForbidden,
                           QStringLiteral("meta.workspacePath %1 is not a directory").arg(workspacePath),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("not_a_directory")},
                                       {QStringLiteral("workspacePath"), workspacePath}});
    if (!isUnder(*real, m_rootReal))
        return Error::make(
            ErrorCode::WorkspaceForbidden,
            QStringLiteral("meta.workspacePath %1 resolves to %2, which is outside the workspace root %3")
                .arg(workspacePath, *real, m_rootReal),
            QJsonObject{{QStringLiteral("reason"), QStringLiteral("outside_root")},
                        {QStringLiteral("workspacePath"), workspacePath},
                        {QStringLiteral("resolvedPath"), *real},
                        {QStringLiteral("workspaceRoot"), m_rootReal}});
    return *real;
}

} // namespace Bridge
