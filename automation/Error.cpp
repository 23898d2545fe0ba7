#include "automation/Error.h"

#include <array>

namespace Automation {

namespace {

struct CodeInfo
{
    ErrorCode code;
    const char* name;
    bool retryable;
};

// retryable is true only where repeating the same request unchanged can succeed: the host
// becomes ready, the UI settles, the target answers again. Anything that needs a different
// request or a person's action is false.
constexpr std::array<CodeInfo, 16> kCodes{{
    {ErrorCode::HostNotReady, "DESKTOP_HOST_NOT_READY", true},
    {ErrorCode::HostNotRunning, "DESKTOP_HOST_NOT_RUNNING", true},
    {ErrorCode::PermissionMissing, "DESKTOP_PERMISSION_MISSING", false},
    {ErrorCode::WorkspaceForbidden, "DESKTOP_WORKSPACE_FORBIDDEN", false},
    {ErrorCode::ConfirmRequired, "DESKTOP_CONFIRM_REQUIRED", false},
    {ErrorCode::ElementNotFound, "DESKTOP_ELEMENT_NOT_FOUND", true},
    {ErrorCode::Timeout, "DESKTOP_TIMEOUT", true},
    {ErrorCode::Aborted, "DESKTOP_ABORTED", false},
    {ErrorCode::InternalError, "DESKTOP_INTERNAL_ERROR", false},
    {ErrorCode::InvalidRequest, "DESKTOP_INVALID_REQUEST", false},
    {ErrorCode::StaleSnapshot, "DESKTOP_STALE_SNAPSHOT", true},
    {ErrorCode::FocusLost, "DESKTOP_FOCUS_LOST", true},
    {ErrorCode::ModalBlocking, "DESKTOP_MODAL_BLOCKING", false},
    {ErrorCode::AxTraversalLimit, "DESKTOP_AX_TRAVERSAL_LIMIT", false},
    {ErrorCode::TargetUnresponsive, "DESKTOP_TARGET_UNRESPONSIVE", true},
    {ErrorCode::CallerForbidden, "DESKTOP_CALLER_FORBIDDEN", false},
}};

const CodeInfo& info(ErrorCode code)
{
    for (const auto& entry : kCodes) {
        if (entry.code == code)
            return entry;
    }
    return kCodes[8]; // InternalError; unreachable while the table is complete
}

} // namespace

QString errorCodeName(ErrorCode code)
{
    return QString::fromLatin1(info(code).name);
}

std::optional<ErrorCode> errorCodeFromName(const QString& name)
{
    for (const auto& entry : kCodes) {
        if (name == QLatin1String(entry.name))
            return entry.code;
    }
    return std::nullopt;
}

bool defaultRetryable(ErrorCode code)
{
    return info(code).retryable;
}

Error Error::make(ErrorCode code, const QString& message, QJsonObject details)
{
    return Error{code, message, defaultRetryable(code), std::move(details)};
}

Error Error::invalidRequest(const QString& message, int jsonrpcCode, QJsonObject details)
{
    details.insert(QStringLiteral("jsonrpcCode"), jsonrpcCode);
    return make(ErrorCode::InvalidRequest, message, std::move(details));
}

Error Error::invalidParam(const QString& field, const QString& message)
{
    return invalidRequest(message, -32602, QJsonObject{{QStringLiteral("field"), field}});
}

Error& Error::withDetail(const QString& key, const QJsonValue& value)
{
    details.insert(key, value);
    return *this;
}

QJsonObject Error::toJson() const
{
    return QJsonObject{
        {QStringLiteral("code"), errorCodeName(code)},
        {QStringLiteral("message"), message},
        {QStringLiteral("retryable"), retryable},
        {QStringLiteral("details"), details},
    };
}

std::optional<Error> Error::fromJson(const QJsonObject& object)
{
    const auto code = errorCodeFromName(object.value(QStringLiteral("code")).toString());
    if (!code)
        return std::nullopt;
    return Error{*code, object.value(QStringLiteral("message")).toString(),
                 object.value(QStringLiteral("retryable")).toBool(),
                 object.value(QStringLiteral("details")).toObject()};
}

} // namespace Automation
